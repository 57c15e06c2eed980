#pragma once
/**
 * @file particle_particle_contact.h
 * Contact of two rigid superellipse particles A and B over one time step, energy-consistent:
 * the discrete gradient of their overlap times the secant of the normal law, the tangential
 * penalty with the Coulomb return mapping, and its exact Jacobian (docs/methods.md §5.6; the
 * overlap is geometry::pair_overlap(), docs/methods.md §4.3). A pure function of the two
 * particles' poses at both ends of the step and of the pair's history.
 *
 * Units: lengths mm, angles rad, time s, forces N per mm thickness, moments N mm per mm,
 * energies N mm per mm. All vectors are in the GLOBAL frame {e1, e2}; rotations are
 * counter-clockwise.
 */
#include "contact/contact_parameters.h"
#include "contact/normal_contact_law.h"
#include "contact/particle_pose.h"
#include "geometry/superellipse.h"

#include <deal.II/base/tensor.h>

#include <array>

namespace granular::contact
{
  using dealii::Tensor;

  /// Per-pair history of the particle-particle contact (kept by the caller per pair and
  /// image, and shifted with the image when a particle is wrapped into the cell).
  struct ParticleParticleContactHistory
  {
    /// phi (rad, global): angle of the common normal n = (cos phi, sin phi), from A towards B,
    /// at the end of the last step; the warm start of the next overlap solve.
    double normal_angle = 0.;
    /// Whether normal_angle holds a solve's result (false: the first solve starts cold).
    bool has_normal_angle = false;
    /// d_T (mm): the tangential spring's extension, along the common tangent t = e3 x n
    /// (docs/methods.md §5.6); 0 when not in contact.
    double tangential_displacement = 0.;
    NormalContactHistory normal;     ///< history of the normal law (reset when apart)
    bool                 in_contact = false; ///< in contact at the end of the last step

    /// Boost.Serialization (checkpoint/restart).
    template <class Archive>
    void serialize(Archive &ar, const unsigned int)
    {
      ar &normal_angle &has_normal_angle &tangential_displacement &normal &in_contact;
    }
  };

  /// What particle_particle_contact_step() produces for one step (t_n, t_{n+1}).
  struct ParticleParticleContactResult
  {
    /// F_A, F_B (N/mm, global): the forces on A and on B over the step, F_A = -F_B exactly.
    /// Their work over the step, with M_A and M_B, is
    /// F_A . Delta c_A + M_A Delta theta_A + F_B . Delta c_B + M_B Delta theta_B.
    Tensor<1, 2> force_a;
    Tensor<1, 2> force_b; ///< see force_a
    /// M_A, M_B (N mm per mm, ccw > 0): the moments on A and on B about their centres over
    /// the step (work-conjugate to the rotations).
    double moment_a = 0.;
    double moment_b = 0.; ///< see moment_a
    /// f_N >= 0 (N/mm): the step's normal force, the law's secant plus its damping (the
    /// generalized forces are -f_N times the discrete gradient of the depth).
    double normal_force = 0.;
    double normal_damping_force = 0.; ///< f_N - f_el (N/mm): its dissipative part
    /// f_T (N/mm): the step's tangential force on B along the mid-step tangent t_m (on A
    /// -f_T t_m), at the contact point.
    double tangential_force = 0.;
    double depth       = 0.; ///< delta_{n+1} (mm): the signed depth at t_{n+1} (< 0 apart)
    double start_depth = 0.; ///< delta_n (mm) at t_n
    double depth_rate  = 0.; ///< (delta_{n+1} - delta_n) / dt (mm/s), > 0 approaching
    double slide       = 0.; ///< Delta s (mm): the slide of B's contact point against A's
    Tensor<1, 2> normal; ///< n at t_{n+1} (global, unit), from A towards B
    /// x_c = c_A + (arm_A + d + arm_B) / 2 at t_{n+1} (global, mm): the midpoint of the two
    /// support points, with B at its image c_B + offset.
    Tensor<1, 2> contact_point;
    bool in_contact = false; ///< delta_{n+1} > 0 and the law's force at t_{n+1} > 0
    bool sticking   = false; ///< in contact and in the stick branch of the return mapping
    ParticleParticleContactHistory history; ///< the pair's history at t_{n+1}
    double friction_dissipation = 0.; ///< increment over the step (N mm per mm) >= 0
    double damping_dissipation  = 0.; ///< (f_N - f_el) Delta delta (N mm per mm) >= 0
    double normal_energy        = 0.; ///< V(delta_{n+1}) of the law (N mm per mm)
    double tangential_energy    = 0.; ///< k_T d_T^2 / 2 at t_{n+1} (N mm per mm)
    /// g'(phi) evaluations of the step's closest-normal solves (geometry::pair_overlap() at
    /// t_n, t_{n+1} and, in contact, the mid-step pose; PairOverlap::evaluations)
    unsigned int overlap_evaluations = 0;
  };

  /**
   * Energy-consistent contact of two particles A and B over one step (t_n, t_{n+1})
   * (docs/methods.md §5.6): the mid-point discrete gradient (Gonzalez, "Time integration and
   * discrete Hamiltonian systems", Journal of Nonlinear Science 6 (1996) 449-467, the
   * discrete directional derivative, here in the metric G below) of the signed depth delta of
   * their overlap (geometry::pair_overlap(), docs/methods.md §4.3), multiplied by the normal
   * law's secant; the same secant, damping and tangential rules as
   * particle_surface_contact_step() (docs/methods.md §5.4; for penalty contact Armero &
   * Petocz, CMAME 158 (1998) 269, and with friction CMAME 179 (1999) 151).
   *
   * The overlap is a function of the relative coordinates
   *     z = (d, theta_A, theta_B),   d = c_B + offset - c_A,
   * alone: delta(z) = min_phi g(phi; z) (geometry::pair_overlap() with A at the origin and B
   * at d). Over the step, with z_m = (z_n + z_{n+1}) / 2, Delta z = z_{n+1} - z_n and the
   * metric G = diag(1, 1, l^2, l^2),
   *     grad_bar delta = grad delta(z_m) + e G Delta z / (Delta z . G Delta z),
   *     e = Delta delta - grad delta(z_m) . Delta z,
   * with grad delta Danskin's gradient (-n, n . (e3 x arm_A), -n . (e3 x arm_B)) at z_m, and
   * l the larger of the two inscribed radii min(r1, r2) (the reference radius r0 of the
   * default shapes); the correction is left out where |Delta z|_G <= 1e-8 l (there e, of
   * order |Delta z|^3, is below the round-off of delta). grad_bar delta . Delta z = Delta delta
   * exactly.
   * - normal, conservative: f_el = [V(delta_{n+1}) - V(delta_n)] / (delta_{n+1} - delta_n)
   *   (V the law's stored energy, 0 for delta <= 0; the elastic force at the mean depth when
   *   |Delta delta| <= 1e-6 max(|delta_n|, |delta_{n+1}|)), so that its work is exactly -Delta V,
   *   also at a first touch inside the step (delta_n < 0 < delta_{n+1});
   * - normal, dissipative: the law's force at (delta_{n+1}, Delta delta / dt) on @p branch minus
   *   its elastic force at delta_{n+1}, no tensile total; work -f_D Delta delta <= 0 for a law
   *   whose damping force has the sign of the rate;
   * - tangential: the slide of B's material point at the mid-step contact point x_c against
   *   A's, Delta s = b . Delta z with b = (t_m, -n_m . r_A, n_m . r_B) (t_m = e3 x n_m, r_A,
   *   r_B the arms from the centres to the mid-step midpoint of the support points); the trial
   *   d_T = d_T,n + Delta s, the Coulomb return mapping (coulomb_return_mapping(), eps_T = k_T,
   *   mu, limit mu f_N) and the spring force f_T = -k_T (d_T,n + alpha (d_T,n+1 - d_T,n)) with
   *   the alpha rule of particle_surface_contact_step() (1/2, else the smallest value <= 1
   *   that makes the slip's dissipation zero): its work f_T Delta s = -Delta(k_T d_T^2 / 2) - D_T
   *   with D_T >= 0; the spring's energy is dissipated when the contact opens.
   * The generalized force on z is Q = -f_N grad_bar delta + f_T b: F_B = Q_d, F_A = -Q_d,
   * M_A = Q_theta_A, M_B = Q_theta_B, so F_A + F_B = 0 to the last bit and the work of the
   * contact over the step is -Delta V - Delta(k_T d_T^2 / 2) - D_T - D_N (D_N the damping
   * dissipation) to round-off, at any step length. Angular momentum is not exact (the
   * correction along G Delta z), it converges with the step (docs/methods.md §5.6).
   * If delta_n <= 0 and delta_{n+1} <= 0 every force is zero (no mid-step solve); a contact
   * that opens and closes again within one step is not seen.
   *
   * @param law the pair's normal law (create_normal_contact_law() with the pair's effective
   *        mass m_A m_B / (m_A + m_B), t per mm; its stiffness is the pair's k_N).
   * @param parameters k_T (tangential_stiffness, N/mm per mm) and mu (friction_coefficient)
   *        are used here; flat_side_radius is the caller's, for @p rounding_a and @p rounding_b.
   * @param shape_a, shape_b the particles' shapes (particle frames, mm).
   * @param rounding_a, rounding_b their flat-side roundings
   *        (geometry::Superellipse::flat_side_rounding()).
   * @param start_a, start_b the poses at t_n: centres (global, mm), rotations (rad, ccw).
   * @param end_a, end_b the poses at t_{n+1}.
   * @param image_offset k L0 e1 (global, mm): added to B's centre at both ends (the periodic
   *        image of B that A touches; 0 for the pair inside the cell).
   * @param old the pair's history at t_n (its normal angle warm-starts the overlap solves).
   * @param dt the step length (s), > 0.
   * @param branch the branch of a law that switches with the sign of the rate
   *        (NormalContactLaw::force_on_branch()).
   * @throws std::invalid_argument if dt is not positive and finite, or a pose or the offset is
   *         not finite (naming it).
   * @throws std::runtime_error from geometry::pair_overlap() if no minimum of the overlap's
   *         support function is found (not expected for convex particles).
   */
  ParticleParticleContactResult
  particle_particle_contact_step(const NormalContactLaw                     &law,
                                 const ParticleSurfaceContactParameters     &parameters,
                                 const geometry::Superellipse               &shape_a,
                                 const geometry::Superellipse::FlatSideRounding &rounding_a,
                                 const geometry::Superellipse               &shape_b,
                                 const geometry::Superellipse::FlatSideRounding &rounding_b,
                                 const ParticlePose &start_a, const ParticlePose &start_b,
                                 const ParticlePose &end_a, const ParticlePose &end_b,
                                 const Tensor<1, 2>                   &image_offset,
                                 const ParticleParticleContactHistory &old, double dt,
                                 NormalContactLaw::RateBranch          branch =
                                   NormalContactLaw::RateBranch::by_sign);

  /**
   * The exact Jacobian of particle_particle_contact_step() with respect to the end poses:
   * the 6 x 6 matrix d(F_A1, F_A2, M_A, F_B1, F_B2, M_B) / d(c_A1, c_A2, theta_A, c_B1, c_B2,
   * theta_B)_{n+1} (rows N/mm and N mm/mm, columns per mm and per rad), for Newton's method.
   * It is computed by forward-mode automatic differentiation (Trilinos Sacado,
   * Sacado::Fad::SFad<double, 6>) through the same arithmetic as the forces, each branch
   * (secant or its limit, contact, stick or slip, alpha's switch, the law's branch) taken on
   * the values. The mid-step common normal is solved in double (geometry::pair_overlap()) and
   * then one Newton step is taken in Fad numbers, phi = phi* - g'(phi*, z) / g''(phi*, z_value),
   * whose derivative is the exact d phi* / d z (the implicit function theorem); the support
   * points move with the rotation and with the normal angle through their radii of curvature
   * rho, d arm / d theta = e3 x arm - rho u and d arm / d phi = rho u (u = e3 x m, m the
   * support direction). The depth at t_{n+1} enters through Danskin's gradient. Where
   * |Delta z|_G <= 1e-5 l the correction's own derivative (round-off of order 1e-16 / |Delta z|^2)
   * is left out, an O(|Delta z|) difference. The law enters through elastic_force(),
   * elastic_stiffness() and force_derivatives_on_branch(); its history is held at its value.
   *
   * Arguments as particle_particle_contact_step().
   * @throws std::invalid_argument as particle_particle_contact_step().
   * @throws std::domain_error if the pair is in contact over the step and a mid-step radius
   *         of curvature is not finite (an unrounded flat side at the support point) or
   *         g'' = rho_A + rho_B - g is not positive there: the Jacobian does not exist.
   */
  std::array<std::array<double, 6>, 6>
  particle_particle_contact_step_derivatives(
    const NormalContactLaw &law, const ParticleSurfaceContactParameters &parameters,
    const geometry::Superellipse                   &shape_a,
    const geometry::Superellipse::FlatSideRounding &rounding_a,
    const geometry::Superellipse                   &shape_b,
    const geometry::Superellipse::FlatSideRounding &rounding_b, const ParticlePose &start_a,
    const ParticlePose &start_b, const ParticlePose &end_a, const ParticlePose &end_b,
    const Tensor<1, 2> &image_offset, const ParticleParticleContactHistory &old, double dt,
    NormalContactLaw::RateBranch branch = NormalContactLaw::RateBranch::by_sign);
} // namespace granular::contact
