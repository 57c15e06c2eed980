// granular-interface: superellipse particle geometry (docs/methods.md §4).
//
// Units: lengths in mm, angles in rad, curvature in 1/mm.
// Frames: the *particle frame* {d1, d2} has its origin at the particle centre c and is rotated by
// theta (counter-clockwise) from the *global frame* {e1, e2}: x = c + R(theta) y.
#ifndef GRANULAR_GEOMETRY_SUPERELLIPSE_H
#define GRANULAR_GEOMETRY_SUPERELLIPSE_H

#include <deal.II/base/tensor.h>

#include <string>
#include <vector>

namespace granular::geometry
{
  using dealii::Tensor;

  /**
   * Shape parameters of a superellipse (docs/methods.md §4, Temizer 2013)
   *   f(y) = (|y1| / r1)^p1 + (|y2| / r2)^p2 - 1,
   * with f < 0 inside, f = 0 on the surface. Semi-axes r1, r2 in mm (particle frame), exponents
   * p1, p2 >= 2 (dimensionless; p_i >= 2: convex, with finite curvature everywhere).
   */
  struct SuperellipseShape
  {
    double r1 = 0.5; ///< semi-axis along d1 (mm)
    double r2 = 0.5; ///< semi-axis along d2 (mm)
    double p1 = 2.0; ///< exponent of the d1 term (-)
    double p2 = 2.0; ///< exponent of the d2 term (-)

    /**
     * Named default shape of the table in docs/methods.md §4 for the reference radius @p r0 (mm):
     * "circular" (r0, r0, 2, 2), "square" (r0, r0, 4, 4), "elliptical" (1.5 r0, r0, 2, 2),
     * "rectangular" (1.5 r0, r0, 4, 4). The result is validated.
     * @throws std::invalid_argument naming @p name if it is not one of the four names, or if
     *         r0 is not a positive finite number.
     */
    static SuperellipseShape
    named(const std::string &name, double r0);

    /**
     * A shape from its text: a name of named() with reference radius @p r0 (mm), or
     * "r1:r2:p1:p2" (semi-axes in mm, exponents). The result is validated.
     * @throws std::invalid_argument quoting @p text if it is neither, if a field is not a
     *         number, or if the shape is invalid (validate()).
     */
    static SuperellipseShape
    from_text(const std::string &text, double r0);

    /**
     * Check the parameters.
     * @throws std::invalid_argument with a message naming the offending parameter if r1 or r2 is
     *         not a positive finite number, or p1 or p2 is not a finite number >= 2.
     */
    void
    validate() const;

    /// Aspect ratio a_r = r1 / r2 (dimensionless, docs/methods.md §4).
    double
    aspect_ratio() const;

    /**
     * Radius (mm) of a circle about the centre that contains the whole particle, for bounding /
     * broad-phase tests. For p1 = p2 = p this is exact, max |y| over the surface: max(r1, r2) for
     * p = 2, and for p > 2 also the corner value at y1/y2 = (r1/r2)^(p/(p-2)) (e.g. r0 2^(1/2-1/p)
     * for r1 = r2 = r0, larger than max(r1, r2)!). For p1 != p2 the particle lies inside the
     * superellipse with p = max(p1, p2), whose exact value is returned (a tight upper bound).
     */
    double
    half_width_bound() const;

    /**
     * The area A = ∫ dA of the particle (mm², i.e. mm³ per mm thickness):
     * A = 4 r1 r2 Γ(1 + 1/p1) Γ(1 + 1/p2) / Γ(1 + 1/p1 + 1/p2), the Dirichlet integral of the
     * quarter |y1/r1|^p1 + |y2/r2|^p2 ≤ 1 (π r1 r2 for p1 = p2 = 2, 4 r1 r2 as p → ∞).
     * The exact superellipse: the flat-side rounding of the contacts is not in it.
     */
    double
    area() const;

    /**
     * The polar second moment of the area about the centre, J = ∫ |y|² dA (mm⁴ per mm
     * thickness): J = I1 + I2 with I1 = ∫ y1² dA = 4 r1³ r2 Γ(3/p1) Γ(1/p2) /
     * (p1 p2 Γ(1 + 3/p1 + 1/p2)) and I2 likewise (π r1 r2 (r1² + r2²) / 4 for an ellipse).
     * A body of density ρ has the moment of inertia ρ J about its centre.
     */
    double
    polar_moment_of_area() const;
  };

  /**
   * Superellipse particle geometry kernel (docs/methods.md §4): implicit function, normal, tangent,
   * curvature, closest-point projection (docs/methods.md §4.1, Temizer 2013 Table 2) with its
   * linearisation, and the particle-surface contact point (docs/methods.md §4.2, Temizer 2013
   * eq. 8).
   *
   * All points and vectors are in the PARTICLE frame (mm) unless stated otherwise. All member
   * functions are const and free of global state (thread-safe).
   */
  class Superellipse
  {
  public:
    /**
     * Result of the closest-point projection of a point m onto the surface (particle frame).
     */
    struct Projection
    {
      Tensor<1, 2> point;           ///< y_p on the surface (particle frame, mm)
      Tensor<1, 2> normal;          ///< outward unit normal n(y_p) (particle frame)
      double       gap        = 0.; ///< g_N = (m - y_p) . n(y_p) in mm; negative if m is inside
      double       curvature  = 0.; ///< kappa(y_p) >= 0 in 1/mm
      unsigned int iterations = 0;  ///< iterations of the safeguarded Newton solve that gave y_p
                                    ///< (0 if y_p was a scan point or the centre case)
    };

    /**
     * @param shape the shape parameters (copied).
     * @throws std::invalid_argument if @p shape is invalid (see SuperellipseShape::validate()).
     */
    explicit Superellipse(const SuperellipseShape &shape);

    /// The shape parameters.
    const SuperellipseShape &
    shape() const;

    /// f(y) = (|y1|/r1)^p1 + (|y2|/r2)^p2 - 1 (dimensionless) at @p y (particle frame, mm):
    /// negative inside, zero on the surface, positive outside (docs/methods.md §4).
    double
    implicit_function(const Tensor<1, 2> &y) const;

    /**
     * Outward unit normal n = grad f / |grad f| at @p y (particle frame, mm); @p y should be on
     * or near the surface (docs/methods.md §4).
     * @throws std::domain_error if grad f vanishes (y at the centre) or @p y is not finite.
     */
    Tensor<1, 2>
    outward_normal(const Tensor<1, 2> &y) const;

    /**
     * Unit tangent a_T = e3 x n = (-n2, n1) at @p y (particle frame; counter-clockwise sense).
     * @throws std::domain_error as outward_normal().
     */
    Tensor<1, 2>
    tangent(const Tensor<1, 2> &y) const;

    /**
     * Curvature kappa >= 0 (1/mm) of the level curve of f through @p y (particle frame, mm),
     *   kappa = (f_11 f_2^2 + f_22 f_1^2) / |grad f|^3,
     * with the sign convention d n / d s = kappa a_T (s: counter-clockwise arc length). Zero at
     * the axis points of a superellipse with p_i > 2; 1/r0 for a circle of radius r0.
     * @throws std::domain_error as outward_normal().
     */
    double
    curvature(const Tensor<1, 2> &y) const;

    /**
     * Closest-point projection of @p m (particle frame, mm) onto the surface: docs/methods.md §4.1,
     * Temizer 2013 Table 2 (ClosestPointProjection).
     *
     * Steps: (i) quadrant reduction q_i = sign(m_i) (0 -> +1), m' = |m|; (ii) elimination of the
     * constraint in the well-conditioned component: on the arc between the d2 axis and the
     * reference point P_o the unknown is y'_1 with y'_2 = r2 [1 - (y'_1/r1)^p1]^(1/p2), on the arc
     * between P_o and the d1 axis the unknown is y'_2 with y'_1 = r1 [1 - (y'_2/r2)^p2]^(1/p1);
     * (iii) safeguarded Newton (bracket + bisection fallback) on the orthogonality condition
     * a_T(y') . (m' - y') = 0; (iv) y_p,i = q_i y'_p,i.
     *
     * Extension of Table 2 (needed for deep penetrations with p > 2, where the distance has
     * several local minima and the closest point need not lie in the sector of m given by the
     * rule m'_1/m'_2 > a_r): the whole quadrant arc (both eliminations) is scanned on a grid fixed
     * per shape (uniform in the arc parameter and uniform in the normal angle, i.e. dense at the
     * rounded corners); every sign change - -> + of the residual brackets a local minimum of the
     * distance and is solved; intervals where the residual is not monotone (a fold
     * 1 + kappa g_N = 0 inside) are bisected, best first, while a rigorous lower bound of the
     * distance over the interval (chord minus tangent-triangle sag) is below the best distance
     * found (bounded work). The nearest local minimum is returned: the global closest point for
     * any m, inside (any depth), outside, on the axes; for m exactly at the centre, the nearer
     * axis end. Cost: about 40 evaluations of f and its derivatives (a few microseconds).
     *
     * Note: the contact check f(m) < 0 of Table 2 is left to the caller.
     * @throws std::invalid_argument if @p m is not finite.
     * @throws std::runtime_error if the root solve fails to converge (not expected).
     */
    Projection
    closest_point_projection(const Tensor<1, 2> &m) const;

    /**
     * Linearisation of the projection with respect to m (particle frame):
     *   d y_p / d m = a_T (x) a_T / (1 + kappa g_N)   (dimensionless).
     * @throws std::domain_error if 1 + kappa g_N <= 0 (m at the centre of curvature, e.g. the
     *         centre of a circle: the projection is not differentiable there).
     */
    static Tensor<2, 2>
    projection_point_derivative(const Projection &p);

    /**
     * Linearisation of the normal at the projection with respect to m (particle frame):
     *   d n / d m = kappa a_T (x) a_T / (1 + kappa g_N)   (1/mm).
     * @throws std::domain_error as projection_point_derivative().
     */
    static Tensor<2, 2>
    normal_derivative(const Projection &p);

    /**
     * Potential particle-surface contact point (docs/methods.md §4.2, Temizer 2013 eq. 8): the
     * surface point of the particle rotated by @p theta (rad, counter-clockwise) whose global
     * tangent is horizontal and which is lowest, i.e. whose global outward normal is -e2. In the
     * particle frame the outward normal is (-sin theta, -cos theta), the required particle-frame
     * slope is s' = -tan(theta); the quadrant follows from the signs of -sin theta, -cos theta; the
     * point is solved by safeguarded Newton in y'_1 if |s'| <= |s_o| else in y'_2.
     * For a circle of radius r0: c + R(theta) y_c = c - r0 e2.
     * @return y_c in the PARTICLE frame (mm); map with particle_to_global().
     * @throws std::invalid_argument if @p theta is not finite.
     */
    Tensor<1, 2>
    lowest_point(double theta) const;

    /**
     * The flat sides of the superellipse rounded for the particle-surface contact
     * (docs/methods.md §5.4): where the radius of curvature of the surface exceeds a largest
     * radius rho (only near the axis points of a p_i > 2 side, where it grows without bound),
     * the side is replaced by a circular arc of radius rho, centred on the axis and tangent
     * to the surface where the surface's normal makes the angle delta with the axis. Then the
     * support function h(theta) of the lowest point has h'' = radius of curvature <= rho, so
     * the contact's moment is Lipschitz in theta (the exact surface gives h' ~ theta^(1/3)
     * at a flat-most orientation, on which Newton's method stalls).
     * Computed once by flat_side_rounding(); used by lowest_point(theta, rounding).
     */
    struct FlatSideRounding
    {
      double radius = 0.;      ///< rho (mm); 0: no rounding
      double top_angle = 0.;   ///< delta of the sides y2 = +-r2 (rad); 0: not rounded
      double top_centre = 0.;  ///< y2 of the centre of the arc of the side y2 = +r2 (mm)
      double side_angle = 0.;  ///< delta of the sides y1 = +-r1 (rad); 0: not rounded
      double side_centre = 0.; ///< y1 of the centre of the arc of the side y1 = +r1 (mm)
      /// largest distance between the rounded and the exact surface (mm), at the axis points
      double largest_offset = 0.;
    };

    /**
     * The rounding of the flat sides for the largest radius of curvature @p radius (mm).
     * A side is rounded if its radius of curvature at the axis point exceeds @p radius: the
     * sides y2 = +-r2 if p1 > 2 (or p1 = 2 and r1^2 / r2 > radius), likewise y1 = +-r1.
     * @throws std::invalid_argument if @p radius is not positive and finite, or too small for
     *         an arc tangent to the surface within 45 degrees of the axis (radius below about
     *         the particle's size).
     */
    FlatSideRounding
    flat_side_rounding(double radius) const;

    /**
     * lowest_point(theta) of the surface with the flat sides rounded by @p rounding
     * (particle frame, mm); the same as lowest_point(theta) outside the rounded arcs.
     * @throws std::invalid_argument if @p theta is not finite.
     */
    Tensor<1, 2>
    lowest_point(double theta, const FlatSideRounding &rounding) const;

    /**
     * Radius of curvature rho = 1 / kappa (mm) of the rounded surface at its lowest point
     * lowest_point(@p theta, @p rounding): the arc's radius on a rounded side, else the
     * superellipse's (infinite at the axis point of an unrounded p > 2 side). It is the
     * derivative of the support function's arm: the lowest point moves along the surface as
     * the particle turns, d/dtheta [R(theta) y_c(theta)] = e3 x R(theta) y_c - rho e1 (global
     * frame), which the exact Jacobian of the surface contact needs
     * (contact::particle_surface_contact_step_derivatives()).
     * @throws std::invalid_argument if @p theta is not finite.
     */
    double
    lowest_point_radius_of_curvature(double theta, const FlatSideRounding &rounding) const;

    /**
     * @p n_vertices points on the outline (particle frame, mm), counter-clockwise, starting at
     * (r1, 0), from the parametrisation
     *   y = (r1 sgn(cos t) |cos t|^(2/p1), r2 sgn(sin t) |sin t|^(2/p2)),
     * t uniform in [0, 2 pi): denser near the rounded corners, sparser on the flat sides. For
     * output.
     * @throws std::invalid_argument if n_vertices < 3.
     */
    std::vector<Tensor<1, 2>>
    outline(unsigned int n_vertices) const;

    /// Reference point P_o on the surface with y1 = a_r y2 in the first quadrant (particle frame,
    /// mm; docs/methods.md §4): P_o = (r1 w, r2 w) with w^p1 + w^p2 = 1.
    Tensor<1, 2>
    reference_point() const;

    /// Reference slope s_o = d y2 / d y1 of the surface at P_o (dimensionless, negative;
    /// docs/methods.md §4).
    double
    reference_slope() const;

  private:
    SuperellipseShape   shape_;
    double              w_;    ///< P_o = (r1 w, r2 w), w^p1 + w^p2 = 1
    std::vector<double> scan_; ///< first-quadrant arc parameters scanned by the projection
  };

  /// Rotation of @p v by @p theta (rad, counter-clockwise): R(theta) v, R = [[cos,-sin],[sin,cos]].
  Tensor<1, 2>
  rotate(double theta, const Tensor<1, 2> &v);

  /// Particle frame -> global frame: x = c + R(theta) y. @p c centre (global, mm), @p theta
  /// rotation (rad), @p y point in the particle frame (mm).
  Tensor<1, 2>
  particle_to_global(const Tensor<1, 2> &c, double theta, const Tensor<1, 2> &y);

  /// Global frame -> particle frame: y = R(theta)^T (x - c). @p c centre (global, mm), @p theta
  /// rotation (rad), @p x point in the global frame (mm).
  Tensor<1, 2>
  global_to_particle(const Tensor<1, 2> &c, double theta, const Tensor<1, 2> &x);

} // namespace granular::geometry

#endif
