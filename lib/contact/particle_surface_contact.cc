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

  ParticleSurfaceContactResult
  particle_surface_contact_step(const NormalContactLaw &law,
                                const ParticleSurfaceContactParameters &parameters,
                                const ParticlePose &start, const Tensor<1, 2> &start_point,
                                const ParticlePose &end, const Tensor<1, 2> &end_point,
                                const ParticleSurfaceContactHistory &old, const double dt,
                                const NormalContactLaw::RateBranch branch)
  {
    const auto finite_pose = [](const ParticlePose &p) {
      return std::isfinite(p.centre[0]) && std::isfinite(p.centre[1]) &&
             std::isfinite(p.rotation);
    };
    const auto finite_point = [](const Tensor<1, 2> &y) {
      return std::isfinite(y[0]) && std::isfinite(y[1]);
    };
    if (!(dt > 0.) || !std::isfinite(dt))
      throw std::invalid_argument("particle_surface_contact_step: dt must be positive and finite");
    if (!finite_pose(start) || !finite_pose(end) || !finite_point(start_point) ||
        !finite_point(end_point))
      throw std::invalid_argument("particle_surface_contact_step: a pose or a contact point "
                                  "is not finite");

    ParticleSurfaceContactResult r;
    r.acts_over_step         = true;
    const Tensor<1, 2> arm_0 = geometry::rotate(start.rotation, start_point);
    const Tensor<1, 2> arm_1 = geometry::rotate(end.rotation, end_point);
    const double       d_0   = -(start.centre[1] + arm_0[1]);
    const double       d_1   = -(end.centre[1] + arm_1[1]);
    const double       d_d   = d_1 - d_0;
    const double       rate  = d_d / dt;
    const Tensor<1, 2> dc    = end.centre - start.centre;
    // the step's moment arms: the secant of the support function for the normal force, the
    // mean depth for the tangential force
    const double dtheta = end.rotation - start.rotation;
    const double a_1    = std::abs(dtheta) > 1e-9 ? (arm_1[1] - arm_0[1]) / dtheta :
                                                    0.5 * (arm_0[0] + arm_1[0]);
    const double a_2    = 0.5 * (arm_0[1] + arm_1[1]);

    r.contact_point    = end.centre + arm_1;
    r.indentation      = d_1;
    r.indentation_rate = rate;
    const double slide = dc[0] - a_2 * dtheta;
    r.contact_velocity[0] = slide / dt;
    r.contact_velocity[1] = -rate;

    // normal: secant of the stored energy (conservative) + damping at t_{n+1}
    const NormalContactHistory h = law.updated_history(d_1, rate, dt, old.normal);
    const auto V = [&](const double d) { return d > 0. ? law.stored_energy(d, h) : 0.; };
    double f_el = 0.;
    if (std::abs(d_d) > 1e-6 * std::max(std::abs(d_0), std::abs(d_1)))
      f_el = (V(d_1) - V(d_0)) / d_d;
    else if (0.5 * (d_0 + d_1) > 0.)
      f_el = law.elastic_force(0.5 * (d_0 + d_1), h); // the secant's limit
    const double f_end = d_1 > 0. ? law.force_on_branch(d_1, rate, branch, h) : 0.;
    const double f_D   = d_1 > 0. ? f_end - law.elastic_force(d_1, h) : 0.;
    const double f_N   = std::max(f_el + f_D, 0.); // no tensile force
    r.in_contact       = d_1 > 0. && f_end > 0.;
    r.history.normal   = d_1 > 0. ? h : NormalContactHistory{};
    r.normal_energy    = V(d_1);
    r.normal_force     = f_N;
    r.normal_damping_force = f_N - f_el;
    r.damping_dissipation  = r.normal_damping_force * d_d;

    // tangential: return mapping on the slide, mid-point spring force
    double f_T = 0.;
    if (r.in_contact)
      {
        const double k_T   = parameters.tangential_stiffness;
        const double d_T0  = old.tangential_displacement;
        const double trial = d_T0 + slide;
        const CoulombReturnMapping t =
          coulomb_return_mapping(trial, k_T, parameters.friction_coefficient, f_N);
        const double d_T1 = t.sticking ? trial : -t.traction / k_T;
        // the spring force at d_T,n + alpha (d_T,n+1 - d_T,n): alpha = 1/2 (mid-point) unless
        // the slip's dissipation would then be negative (see the header); then the smallest
        // alpha <= 1 that makes it zero, so the force is continuous in the pose
        double       alpha  = 0.5;
        const double D_half = 0.5 * k_T * (d_T0 + d_T1) * (trial - d_T1);
        if (D_half < 0.)
          alpha = std::min(1., 0.5 - D_half / (k_T * (d_T1 - d_T0) * slide));
        f_T = -k_T * (d_T0 + alpha * (d_T1 - d_T0));
        r.sticking                        = t.sticking;
        r.history.tangential_displacement = d_T1;
        r.tangential_energy               = 0.5 * k_T * d_T1 * d_T1;
        r.friction_dissipation =
          t.sticking ? 0. : -f_T * slide - 0.5 * k_T * (d_T1 * d_T1 - d_T0 * d_T0);
      }
    else // the tangential spring's energy is released when the contact opens: dissipated
      r.friction_dissipation = 0.5 * parameters.tangential_stiffness *
                               old.tangential_displacement * old.tangential_displacement;
    r.tangential_force = f_T;
    r.force[0]         = f_T;
    r.force[1]         = f_N;
    r.moment           = a_1 * f_N - a_2 * f_T;
    return r;
  }
} // namespace granular::contact
