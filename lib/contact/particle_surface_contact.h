#pragma once
/**
 * @file particle_surface_contact.h
 * Contact of the rigid superellipse particle with the rigid flat surface y = 0
 * (docs/methods.md §4.2, §5.1, §5.2; Temizer 2013 eq. (8) for the contact point, eq. (10) for the
 * default normal law): a pure function of the particle kinematics and the contact history.
 *
 * Units: lengths mm, velocities mm/s, time s, forces N per mm thickness, moments N mm per mm,
 * energies N mm per mm. All vectors are in the GLOBAL frame {e1, e2}; the surface normal
 * pointing into the particle is e2.
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

  /// Per-contact history of the particle-surface contact (owned by the DEM particle).
  struct ParticleSurfaceContactHistory
  {
    double               tangential_displacement = 0.; ///< d_T (mm), docs/methods.md §5.2
    NormalContactHistory normal;                       ///< history of the normal law

    /// Boost.Serialization (checkpoint/restart).
    template <class Archive>
    void serialize(Archive &ar, const unsigned int)
    {
      ar &tangential_displacement &normal;
    }
  };

  /// The particle's pose and velocity at an evaluation (GLOBAL frame).
  struct ParticleMotion
  {
    Tensor<1, 2> centre;                ///< c (mm)
    Tensor<1, 2> velocity;              ///< v (mm/s)
    double       rotation         = 0.; ///< theta (rad, ccw)
    double       angular_velocity = 0.; ///< omega (rad/s, ccw)
  };

  /// Everything the particle-surface contact produces at one evaluation.
  struct ParticleSurfaceContactResult
  {
    Tensor<1, 2> contact_point;    ///< x_c: lowest particle point (global, mm), eq. (8)
    Tensor<1, 2> contact_velocity; ///< v_c = v + omega e3 x (x_c - c) (mm/s)
    double       indentation      = 0.; ///< d_N = -x_c2 (mm), > 0 means contact
    double       indentation_rate = 0.; ///< d_N' = -v_c2 (mm/s), > 0 compression
    bool         in_contact       = false; ///< d_N > 0 and f_N > 0
    double       normal_force     = 0.;    ///< f_N >= 0 (N/mm), along +e2 on the particle
    double       normal_damping_force = 0.; ///< dissipative part f_N - f_N,el (N/mm)
    double       tangential_force = 0.;    ///< f_T (N/mm), along e1 on the particle
    Tensor<1, 2> force;                    ///< f = f_T e1 + f_N e2 on the particle (N/mm)
    double       moment = 0.; ///< (x_c - c) x f about the centre c (N mm per mm), ccw > 0
    bool         sticking = false; ///< in contact and in the stick branch of the mapping
    ParticleSurfaceContactHistory history; ///< new history (d_T = 0 when not in contact)
    double friction_dissipation = 0.; ///< increment over dt (N mm per mm) >= 0
    double damping_dissipation  = 0.; ///< increment over dt: (f_N - f_N,el) d_N' dt >= 0 for
                                      ///< laws dissipative in the sense of the catalogue
    double normal_energy     = 0.;    ///< energy stored by the normal law (N mm per mm)
    double tangential_energy = 0.;    ///< 1/2 k_T d_T^2 (N mm per mm)
    /// true: force and moment act over the whole step (t_n, t_{n+1}) (the discrete-gradient
    /// evaluation particle_surface_contact_step()), their work over the step is
    /// f . Delta c + M Delta theta; false: point values at t_{n+1}, whose work is taken
    /// with the trapezoidal rule. Not part of a checkpoint (it concerns only the step that
    /// produced the result).
    bool acts_over_step = false;

    /// Boost.Serialization (checkpoint/restart).
    template <class Archive>
    void serialize(Archive &ar, const unsigned int)
    {
      ar &contact_point &contact_velocity &indentation &indentation_rate &in_contact
        &normal_force &normal_damping_force &tangential_force &force &moment &sticking
          &history &friction_dissipation &damping_dissipation &normal_energy
            &tangential_energy;
    }
  };

  /**
   * Particle-surface contact (docs/methods.md §4.2, §5.1, §5.2).
   *
   * 1. Potential contact point (docs/methods.md §4.2, Temizer 2013 eq. (8)):
   *    x_c = c + R(theta) y_c with y_c = Superellipse::lowest_point(theta) (particle frame).
   * 2. Indentation d_N = -x_c2 and its rate d_N' = -v_c2, v_c = v + omega e3 x (x_c - c).
   * 3. Normal force f_N = law.force(d_N, d_N', h) with h = law.updated_history(...) (§5.1).
   * 4. Tangential trial d_T^trial = d_T^old + Delta x_c1 with the tangential displacement
   *    increment of the particle material point at x_c during the step,
   *        Delta x_c1 = (v_c)_1 dt
   *    (v, omega: the velocity with which the particle moved during the step -- in the
   *    velocity-Verlet update of dem::Particle the mid-step velocity of the drift that led to
   *    the evaluated position, so Delta x_c1 is the exact rigid-body displacement of that
   *    material point for constant velocity over the step); then the Coulomb return mapping
   *    (§5.2, contact::coulomb_return_mapping() with eps_T = k_T, mu = k_PS, p = f_N): stick
   *    if |f_T^trial| <= k_PS f_N, f_T = f_T^trial = -k_T d_T^trial; else slip,
   *    f_T = k_PS f_N sign(f_T^trial), d_T = -f_T / k_T, dissipating |f_T| |d_T^trial - d_T|.
   * 5. Contact lost (d_N <= 0 or f_N = 0): all forces 0, d_T = 0 and the law history reset.
   *
   * Force on the particle: f = f_T e1 + f_N e2 at x_c; moment about c:
   * M = (x_c - c)_1 f_2 - (x_c - c)_2 f_1.
   *
   * @param geometry particle shape kernel; @param law normal contact law (§5.1, §9);
   * @param parameters k_T and k_PS are used here (k_N, c_N live in @p law);
   * @param motion c (global, mm), v (mm/s), theta (rad, ccw), omega (rad/s, ccw);
   * @param old history at the start of the step;
   * @param dt step length (s) for the tangential increment and the dissipation increments
   *        (dt = 0: evaluation without increment).
   * @throws std::invalid_argument if dt < 0 or an input is not finite.
   */
  ParticleSurfaceContactResult
  particle_surface_contact(const geometry::Superellipse &geometry, const NormalContactLaw &law,
                           const ParticleSurfaceContactParameters &parameters,
                           const ParticleMotion &motion, const ParticleSurfaceContactHistory &old,
                           double dt);

  /**
   * As above, for the implicit (monolithic) particle update of coupling::MonolithicParticle:
   * the velocities of @p motion (the Newmark velocities at t_{n+1}) give only the
   * indentation rate d_N' of the normal law, while the tangential increment of step 4 is the
   * displacement of the particle material point at x_c over the step,
   *     Delta x_c1 = Delta c_1 - (x_c - c)_2 Delta theta,
   * from the given @p centre_increment Delta c (mm) and @p rotation_increment Delta theta
   * (rad) (the rigid-body displacement with the arm at t_{n+1}, i.e. v_c dt of the first form
   * with the mean velocity of the step). The contact point is the particle's material point
   * @p material_contact_point (particle frame, mm), x_c = c + R(theta) y_c, instead of the
   * lowest point at theta (step 1): the caller passes the lowest point at the start of the
   * step, so x_c is a smooth function of the pose within the step (the lowest point of a
   * p > 2 superellipse moves like |theta|^(1/3) near a flat-most orientation, whose
   * derivative is unbounded), and the indentation differs from the lowest point's by
   * O(r Delta theta^2). @p branch fixes the branch of a law that switches
   * with the sign of d' (NormalContactLaw::force_on_branch()).
   * @throws std::invalid_argument as above, or if an increment is not finite.
   */
  ParticleSurfaceContactResult
  particle_surface_contact(const geometry::Superellipse &geometry, const NormalContactLaw &law,
                           const ParticleSurfaceContactParameters &parameters,
                           const ParticleMotion &motion, const ParticleSurfaceContactHistory &old,
                           double                                  dt,
                           const Tensor<1, 2>                     &centre_increment,
                           double                                  rotation_increment,
                           const Tensor<1, 2>                     &material_contact_point,
                           NormalContactLaw::RateBranch branch =
                             NormalContactLaw::RateBranch::by_sign);

  /**
   * Energy-consistent particle-surface contact over one step (t_n, t_{n+1}): the discrete
   * gradient of the contact's potential (Gonzalez 1996; for penalty and Hertz contact Armero &
   * Petocz 1998, 1999), docs/methods.md §5.4.
   *
   * The indentation of the lowest point is a function of the pose alone,
   *     d_N(q) = -(c_2 + (R(theta) y_c(theta))_2) = h(theta) - c_2,
   * y_c(theta) the lowest point in the particle frame and h its depth below the centre (the
   * support function), whose derivative is h' = -(R(theta) y_c)_1 (the contact point's
   * horizontal arm: y_c is stationary in depth). Over the step:
   * - normal, conservative: f_el = [V(d_N,n+1) - V(d_N,n)] / (d_N,n+1 - d_N,n) (V the law's
   *   stored energy, 0 for d_N <= 0; the elastic force at the mean indentation when
   *   |Delta d_N| < 1e-6 |d_N|), along e2 with the moment arm
   *   a_1 = [(R y_c)_2(theta_n+1) - (R y_c)_2(theta_n)] / Delta theta (the secant of the
   *   support function; the mean of the two arms when |Delta theta| < 1e-9 rad), so that its
   *   work f_el (Delta c_2 + a_1 Delta theta) = -f_el Delta d_N = -Delta V exactly;
   * - normal, dissipative: the law's force minus its elastic force at d_N,n+1 with the rate
   *   Delta d_N / dt on @p branch (no tensile total force); its work -f_D Delta d_N <= 0 for a
   *   law whose damping force has the sign of the rate;
   * - tangential: the slide of the contact point Delta s = Delta c_1 - a_2 Delta theta with the
   *   mean depth a_2 = [(R y_c)_2(theta_n) + (R y_c)_2(theta_n+1)] / 2, the trial
   *   d_T = d_T,n + Delta s and the Coulomb return mapping with the limit mu f_N (f_N the
   *   step's normal force); the step's force is the spring force
   *   f_T = -k_T (d_T,n + alpha (d_T,n+1 - d_T,n)), whose work
   *   f_T Delta s = -Delta(k_T d_T^2 / 2) - D_T leaves the slip's dissipation
   *   D_T = k_T (alpha - 1/2) (d_T,n+1 - d_T,n)^2 + (-f_T)(trial - d_T,n+1): alpha = 1/2
   *   (the mid-point force; D_T = 0 in stick) unless D_T would then be negative (the slip
   *   reverses against a dropping normal force), where alpha is the smallest value <= 1 that
   *   makes D_T zero (at alpha = 1, D_T >= 0 always), so f_T is continuous in the pose across
   *   stick, slip and reversal; when the contact opens, the spring's energy k_T d_T,n^2 / 2
   *   is counted as dissipated.
   * So the contact's work on the particle over the step equals minus the change of its stored
   * energy minus its dissipation, to round-off, at any step length: it cannot create energy.
   * The curvature of the surface does not enter; where it vanishes (the flat side of a p > 2
   * particle) the caller passes the lowest points of the rounded surface
   * (geometry::Superellipse::flat_side_rounding()) so that Newton's method converges.
   *
   * The result's force (f_T, f_N) and moment a_1 f_N - a_2 f_T are those of the step
   * (acts_over_step = true); indentation, indentation_rate (= Delta d_N / dt), contact_point
   * (at t_{n+1}), energies and history are those at t_{n+1}; contact_velocity is the mean
   * velocity of the contact point over the step (Delta s / dt, -Delta d_N / dt).
   *
   * @param start, end the poses at t_n and t_{n+1} (global frame, mm and rad);
   * @param start_point, end_point the lowest points at theta_n and theta_n+1 (particle
   *        frame, mm);
   * @param old history at t_n; @param dt step length (s), > 0;
   * @param branch as in particle_surface_contact().
   * @throws std::invalid_argument if dt <= 0 or a pose or a point is not finite.
   */
  ParticleSurfaceContactResult
  particle_surface_contact_step(const NormalContactLaw &law,
                                const ParticleSurfaceContactParameters &parameters,
                                const ParticlePose &start, const Tensor<1, 2> &start_point,
                                const ParticlePose &end, const Tensor<1, 2> &end_point,
                                const ParticleSurfaceContactHistory &old, double dt,
                                NormalContactLaw::RateBranch branch =
                                  NormalContactLaw::RateBranch::by_sign);
  /**
   * The exact Jacobian of particle_surface_contact_step() with respect to the end pose: the
   * 3 x 3 matrix d(f_T, f_N, M) / d(c_1, c_2, theta)_{n+1} (rows: N/mm, N/mm, N mm/mm;
   * columns: per mm, per mm, per rad), for Newton's method in coupling::MonolithicParticle.
   * It is computed by forward-mode automatic differentiation (Trilinos Sacado,
   * Sacado::Fad::SFad<double, 3>) through the same arithmetic as the forces: the secants of
   * the stored energy and of the support function, the damping, the Coulomb return mapping
   * and the switch of the tangential force's alpha, each differentiated on the branch its
   * values select. The lowest point's motion along the surface enters through
   * d/dtheta [R(theta) y_c(theta)] = e3 x R y_c - rho e1 with @p end_radius_of_curvature rho
   * (geometry::Superellipse::lowest_point_radius_of_curvature()). The law enters through its
   * derivatives NormalContactLaw::elastic_stiffness() and force_derivatives_on_branch()
   * (closed forms for the Hertz laws and the default law, central differences for the others)
   * and its stored energy's derivative elastic_force(); a law's history is held fixed.
   *
   * Arguments as particle_surface_contact_step(); @p end_radius_of_curvature in mm.
   * @throws std::invalid_argument as particle_surface_contact_step(), or if
   *         @p end_radius_of_curvature is negative or not finite (the unrounded flat side of a
   *         p > 2 particle at a flat-most orientation, where the Jacobian does not exist).
   */
  std::array<std::array<double, 3>, 3>
  particle_surface_contact_step_derivatives(const NormalContactLaw &law,
                                            const ParticleSurfaceContactParameters &parameters,
                                            const ParticlePose &start,
                                            const Tensor<1, 2> &start_point,
                                            const ParticlePose &end,
                                            const Tensor<1, 2> &end_point,
                                            double              end_radius_of_curvature,
                                            const ParticleSurfaceContactHistory &old, double dt,
                                            NormalContactLaw::RateBranch branch =
                                              NormalContactLaw::RateBranch::by_sign);
} // namespace granular::contact
