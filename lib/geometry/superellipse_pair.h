// granular-interface: overlap of two superellipse particles, the narrow phase of their contact
// (docs/methods.md §4.3).
//
// Units: lengths in mm, angles in rad, radii of curvature in mm.
// Frames: as in superellipse.h, x = c + R(theta) y maps the particle frame of a particle with
// centre c (global, mm) and rotation theta (rad, counter-clockwise) to the global frame.
#ifndef GRANULAR_GEOMETRY_SUPERELLIPSE_PAIR_H
#define GRANULAR_GEOMETRY_SUPERELLIPSE_PAIR_H

#include "geometry/superellipse.h"

#include <deal.II/base/tensor.h>

#include <array>
#include <optional>

namespace granular::geometry
{
  using dealii::Tensor;

  /**
   * A support point of a rotated particle: its surface point whose outward normal is a given
   * global direction m, i.e. the point where the support function h(m) = max_y m . R(theta) y
   * is attained.
   */
  struct SupportPoint
  {
    Tensor<1, 2> point;                    ///< y (PARTICLE frame, mm)
    double       radius_of_curvature = 0.; ///< rho of the (rounded) surface at y (mm), may be inf
  };

  /**
   * The support point of a particle rotated by @p rotation (rad, counter-clockwise) in the
   * global direction n(@p normal_angle) = (cos, sin) (@p normal_angle in rad, global frame):
   * the particle-frame point y whose outward normal is m' = R(rotation)^T n, computed as
   * Superellipse::lowest_point(theta', @p rounding) with theta' = atan2(-m'_1, -m'_2) =
   * rotation - normal_angle - pi/2 (lowest_point() returns the point whose particle-frame
   * outward normal is (-sin theta', -cos theta')), with its radius of curvature
   * Superellipse::lowest_point_radius_of_curvature(theta', @p rounding) (mm).
   * @p rounding: the particle's flat-side rounding (Superellipse::flat_side_rounding(); a
   * default-constructed one leaves the surface exact).
   * @throws std::invalid_argument naming the argument if @p rotation or @p normal_angle is not
   *         finite.
   */
  SupportPoint
  support_point(const Superellipse                   &shape,
                const Superellipse::FlatSideRounding &rounding,
                double                                rotation,
                double                                normal_angle);

  /**
   * Result of pair_overlap(): the minimum translational distance of two particles A and B, its
   * common normal and support points (docs/methods.md §4.3).
   */
  struct PairOverlap
  {
    /// delta (mm): the minimum translational distance, > 0 when A and B overlap (the shortest
    /// translation of B along n that separates them); minus their distance when apart.
    double depth = 0.;
    /// phi* (rad, in (-pi, pi]): angle of the common normal n = (cos phi*, sin phi*).
    double normal_angle = 0.;
    /// n (global, unit): the common normal, from A towards B.
    Tensor<1, 2> normal;
    /// x_A = c_A + R_A y_A (global, mm): the support point of A in direction n.
    Tensor<1, 2> support_point_a;
    /// x_B = c_B + R_B y_B (global, mm): the support point of B in direction -n.
    Tensor<1, 2> support_point_b;
    /// rho_A, rho_B (mm): radii of curvature of the (rounded) surfaces at x_A, x_B.
    double radius_of_curvature_a = 0.;
    double radius_of_curvature_b = 0.; ///< see radius_of_curvature_a
    /// Gradient of delta with respect to the poses (Danskin's theorem), ordered
    /// (c_A1, c_A2, theta_A, c_B1, c_B2, theta_B): n, n . (e3 x (x_A - c_A)), -n,
    /// -n . (e3 x (x_B - c_B)) (1 for the centres, mm/rad for the rotations).
    std::array<double, 6> depth_gradient{};
    /// Evaluations of g'(phi) (each one support point per particle), sampling included.
    unsigned int evaluations = 0;
    /// Whether the solution came from the dense sampling of g (cold start, or a warm start
    /// that failed its checks) rather than from the warm start alone.
    bool dense_restart = false;
  };

  /**
   * Overlap of two convex superellipse particles A and B: the minimum translational distance
   * (Cameron & Culley, IEEE ICRA 1986) from the support functions h_K(n) = max_y n . R_K y of
   * the particles about their centres (docs/methods.md §4.3). With n(phi) = (cos, sin),
   * t(phi) = (-sin, cos) and d = c_B - c_A,
   *   g(phi) = h_A(n) + h_B(-n) - n . d = n . (x_A - x_B)
   * is the support function of the Minkowski difference A - B in direction n (x_A, x_B the
   * support points of A in direction n and of B in direction -n), and
   *   delta = min_phi g(phi)
   * is the minimum translational distance when the particles overlap (the origin lies in
   * A - B) and minus their distance when apart (valid for convex sets). At the minimiser
   * phi*, g'(phi*) = t . (x_A - x_B) = 0 (Danskin's theorem: the support points are stationary)
   * is the common-normal condition (both surface normals along the line through x_A and x_B;
   * SudoDEM2D, Zhao & Zhao, Computer Physics Communications 2021, solves for the same common
   * normal of two superellipses), and g''(phi) = rho_A + rho_B - g(phi).
   *
   * phi* is a bracketed root of g' (Boost.Math newton_raphson_iterate with g'' as the
   * derivative, toms748_solve where Newton's method cannot be used), converged to round-off,
   * never a comparison-based minimisation of g (which finds phi* only to sqrt(eps)). A warm
   * start brackets the root next to @p warm_start_angle, within 0.3 rad of it; it is rejected,
   * and the dense restart used, if there is no such bracket, g'' <= 0 at the root, or the root
   * is deeper than 0.2 of the smaller particle's inscribed radius min(r1, r2) (where g can
   * have more than one local minimum). The dense restart samples g and g' at 72 angles and
   * solves the sign changes - -> + of g' in the order of a lower bound of g over the interval
   * (g(phi) >= n(phi) . (x_A - x_B) at any sampled pair of support points), until no interval
   * can hold a smaller minimum; the root must not lie above the smallest sampled value.
   *
   * The depth's gradient with respect to the poses (Danskin's theorem, Danskin, SIAM Journal
   * on Applied Mathematics 1966): d delta/d c_A = n, d delta/d c_B = -n,
   * d delta/d theta_A = n . (e3 x (x_A - c_A)), d delta/d theta_B = -n . (e3 x (x_B - c_B)).
   *
   * @param shape_a, shape_b the particles' shapes.
   * @param rounding_a, rounding_b their flat-side roundings (Superellipse::flat_side_rounding(),
   *        the same as the particle-surface contact's; default-constructed: exact surfaces,
   *        on whose flat sides g'' is unbounded).
   * @param centre_a, centre_b the centres c_A, c_B (global, mm); c_B includes the periodic
   *        image shift chosen by the caller.
   * @param rotation_a, rotation_b the rotations theta_A, theta_B (rad, counter-clockwise).
   * @param warm_start_angle the common normal's angle of the pair at its last solve (rad,
   *        global, any branch); none: cold start from the dense sampling.
   * A pure function of its arguments (thread-safe).
   * @throws std::invalid_argument naming the argument if a centre's component, a rotation or
   *         the warm start angle is not finite.
   * @throws std::runtime_error if no local minimum of g is found below the sampled values (not
   *         expected for convex particles).
   */
  PairOverlap
  pair_overlap(const Superellipse                   &shape_a,
               const Superellipse::FlatSideRounding &rounding_a,
               const Tensor<1, 2>                   &centre_a,
               double                                rotation_a,
               const Superellipse                   &shape_b,
               const Superellipse::FlatSideRounding &rounding_b,
               const Tensor<1, 2>                   &centre_b,
               double                                rotation_b,
               std::optional<double>                 warm_start_angle = std::nullopt);

} // namespace granular::geometry

#endif
