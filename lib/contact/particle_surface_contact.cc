// Particle-surface contact (docs/methods.md §4.2, §5.1, §5.2). See particle_surface_contact.h.
#include "contact/particle_surface_contact.h"

#include "contact/coulomb_return_mapping.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace granular::contact
{
  namespace
  {
    /// Shared evaluation; @p increment: the displacement (Delta c, Delta theta) of the
    /// particle over the step, or nullptr for the rigid-body increment v_c dt.
    ParticleSurfaceContactResult
    evaluate(const geometry::Superellipse &geometry, const NormalContactLaw &law,
             const ParticleSurfaceContactParameters &parameters, const ParticleMotion &motion,
             const ParticleSurfaceContactHistory &old, const double dt,
             const std::pair<Tensor<1, 2>, double> *increment,
             const Tensor<1, 2> *material_contact_point, const NormalContactLaw::RateBranch branch)
  {
    const Tensor<1, 2> &centre = motion.centre, &velocity = motion.velocity;
    const double rotation = motion.rotation, angular_velocity = motion.angular_velocity;
    if (!(dt >= 0.) || !std::isfinite(dt))
      throw std::invalid_argument("particle_surface_contact: dt must be non-negative and "
                                  "finite");
    if (!std::isfinite(centre[0]) || !std::isfinite(centre[1]) ||
        !std::isfinite(velocity[0]) || !std::isfinite(velocity[1]) ||
        !std::isfinite(rotation) || !std::isfinite(angular_velocity))
      throw std::invalid_argument("particle_surface_contact: the particle state is not finite");

    ParticleSurfaceContactResult r;
    // 1. contact point, eq. (8) of Temizer 2013 (docs/methods.md §4.2)
    const Tensor<1, 2> y_c =
      material_contact_point ? *material_contact_point : geometry.lowest_point(rotation);
    const Tensor<1, 2> arm = geometry::rotate(rotation, y_c); // x_c - c
    r.contact_point        = centre + arm;
    // 2. v_c = v + omega e3 x (x_c - c), e3 x a = (-a2, a1)
    r.contact_velocity[0] = velocity[0] - angular_velocity * arm[1];
    r.contact_velocity[1] = velocity[1] + angular_velocity * arm[0];
    r.indentation         = -r.contact_point[1];
    r.indentation_rate    = -r.contact_velocity[1];

    // 3. normal law (docs/methods.md §5.1)
    const NormalContactHistory h =
      law.updated_history(r.indentation, r.indentation_rate, dt, old.normal);
    const double f_N =
      r.indentation > 0. ? law.force_on_branch(r.indentation, r.indentation_rate, branch, h) : 0.;
    r.in_contact     = r.indentation > 0. && f_N > 0.;
    if (!r.in_contact)
      {
        // 5. contact lost: no force, d_T = 0 (docs/methods.md §5.2), law history reset unless the
        //    law keeps it while d > 0 (force-free indentation)
        r.history.normal                  = r.indentation > 0. ? h : NormalContactHistory{};
        r.history.tangential_displacement = 0.;
        r.normal_energy = r.indentation > 0. ? law.stored_energy(r.indentation, h) : 0.;
        return r;
      }

    // 4. tangential trial and return mapping (docs/methods.md §5.2)
    const double slide = increment == nullptr ?
                           r.contact_velocity[0] * dt :
                           increment->first[0] - arm[1] * increment->second;
    const double trial = old.tangential_displacement + slide;
    const CoulombReturnMapping t = coulomb_return_mapping(
      trial, parameters.tangential_stiffness, parameters.friction_coefficient, f_N);
    // d_T after the mapping: the trial in stick, the returned spring extension in slip
    const double d_T = t.sticking ? trial : -t.traction / parameters.tangential_stiffness;

    r.normal_force     = f_N;
    r.tangential_force = t.traction;
    r.force[0]         = t.traction;
    r.force[1]         = f_N;
    r.moment           = arm[0] * r.force[1] - arm[1] * r.force[0];
    r.sticking         = t.sticking;
    r.history.normal   = h;
    r.history.tangential_displacement = d_T;
    r.friction_dissipation =
      t.sticking ? 0. : std::abs(t.traction) * std::abs(trial - d_T);
    r.normal_damping_force = f_N - law.elastic_force(r.indentation, h);
    r.damping_dissipation  = r.normal_damping_force * r.indentation_rate * dt;
    r.normal_energy     = law.stored_energy(r.indentation, h);
    r.tangential_energy = 0.5 * parameters.tangential_stiffness * d_T * d_T;
    return r;
  }
  } // namespace

  ParticleSurfaceContactResult
  particle_surface_contact(const geometry::Superellipse &geometry, const NormalContactLaw &law,
                           const ParticleSurfaceContactParameters &parameters,
                           const ParticleMotion &motion, const ParticleSurfaceContactHistory &old,
                           const double dt)
  {
    return evaluate(geometry, law, parameters, motion, old, dt, nullptr, nullptr,
                    NormalContactLaw::RateBranch::by_sign);
  }

  ParticleSurfaceContactResult
  particle_surface_contact(const geometry::Superellipse &geometry, const NormalContactLaw &law,
                           const ParticleSurfaceContactParameters &parameters,
                           const ParticleMotion &motion, const ParticleSurfaceContactHistory &old,
                           const double dt, const Tensor<1, 2> &centre_increment,
                           const double rotation_increment,
                           const Tensor<1, 2> &material_contact_point,
                           const NormalContactLaw::RateBranch branch)
  {
    if (!std::isfinite(centre_increment[0]) || !std::isfinite(rotation_increment))
      throw std::invalid_argument("particle_surface_contact: the increment is not finite");
    const std::pair<Tensor<1, 2>, double> increment(centre_increment, rotation_increment);
    return evaluate(geometry, law, parameters, motion, old, dt, &increment,
                    &material_contact_point, branch);
  }
} // namespace granular::contact
