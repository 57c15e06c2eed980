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
#include "geometry/superellipse.h"

#include <deal.II/base/tensor.h>

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
} // namespace granular::contact
