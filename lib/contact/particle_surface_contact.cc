// Particle-surface contact (docs/methods.md §4.2, §5.1, §5.2). See particle_surface_contact.h.
#include "contact/particle_surface_contact.h"
#include "contact/step_force_arithmetic.h"

#include "contact/coulomb_return_mapping.h"

#include <Sacado.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>
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

  namespace
  {
    /// The surface contact's step forces are differentiated with respect to the end pose
    /// (c_1, c_2, theta)_{n+1} by forward-mode automatic differentiation (Trilinos Sacado).
    constexpr int n_pose = 3; ///< (c_1, c_2, theta)
    using Fad            = Sacado::Fad::SFad<double, n_pose>;

    using step_arithmetic::chain;
    using step_arithmetic::value;

    /// The end pose of the step and the arm x_c - c of its lowest point, as numbers that may
    /// carry derivatives with respect to the end pose.
    template <typename Number>
    struct EndPose
    {
      std::array<Number, 2> centre;
      Number                rotation;
      std::array<Number, 2> arm;
    };

    /// The step's forces and what the result needs (see particle_surface_contact_step()).
    template <typename Number>
    struct StepForces
    {
      Number               d_1{}, d_d{}, rate{}, slide{}, f_el{}, f_N{}, f_T{}, moment{};
      Number               d_T1{};
      bool                 in_contact = false, sticking = false;
      NormalContactHistory h;
    };

    /**
     * The arithmetic of particle_surface_contact_step() for double (the result) and for Fad
     * (its derivatives): one code, so the derivatives are those of the forces the solver
     * uses. Every branch (contact, stick or slip, the small-step forms, alpha's switch) is
     * taken on the values. The law enters through its value and its derivatives
     * (NormalContactLaw::elastic_force(), elastic_stiffness(),
     * force_derivatives_on_branch()); its history is held at its value.
     */
    template <typename Number>
    StepForces<Number>
    step_forces(const NormalContactLaw &law, const ParticleSurfaceContactParameters &parameters,
                const ParticlePose &start, const Tensor<1, 2> &arm_0, const EndPose<Number> &end,
                const ParticleSurfaceContactHistory &old, const double dt,
                const NormalContactLaw::RateBranch branch)
    {
      constexpr bool     differentiate = std::is_same_v<Number, Fad>;
      StepForces<Number> r;
      const double       d_0 = -(start.centre[1] + arm_0[1]);
      r.d_1                  = -(end.centre[1] + end.arm[1]);
      r.d_d                  = r.d_1 - d_0;
      r.rate                 = r.d_d / dt;
      const Number dc_1      = end.centre[0] - start.centre[0];
      // the step's moment arms: the secant of the support function for the normal force, the
      // mean depth for the tangential force
      const Number dtheta = end.rotation - start.rotation;
      Number       a_1    = std::abs(value(dtheta)) > 1e-9 ?
                              Number((end.arm[1] - arm_0[1]) / dtheta) :
                              Number(0.5 * (arm_0[0] + end.arm[0]));
      if constexpr (differentiate)
        if (std::abs(value(dtheta)) <= 1e-5)
          {
            // the secant's derivative, (arm_1 - a_1) / Delta theta, has a relative round-off
            // error of about 1e-16 / Delta theta^2 (cancellation; no digit is left at
            // 1e-8 rad): there the mean arm's derivative, which differs from it by
            // O(Delta theta)
            const Number mean = 0.5 * (arm_0[0] + end.arm[0]);
            for (int i = 0; i < n_pose; ++i)
              a_1.fastAccessDx(i) = mean.dx(i);
          }
      const Number a_2    = 0.5 * (arm_0[1] + end.arm[1]);
      r.slide             = dc_1 - a_2 * dtheta;

      // normal: secant of the stored energy (conservative) + damping at t_{n+1}
      const auto normal =
        step_arithmetic::normal_step_force(law, d_0, r.d_1, r.d_d, r.rate, dt, old.normal, branch);
      r.h          = normal.h;
      r.f_el       = normal.f_el;
      r.f_N        = normal.f_N;
      r.in_contact = normal.in_contact;

      // tangential: return mapping on the slide, mid-point spring force
      if (r.in_contact)
        {
          const auto t = step_arithmetic::tangential_step_force(
            parameters, old.tangential_displacement, r.slide, r.f_N);
          r.d_T1     = t.d_T1;
          r.f_T      = t.f_T;
          r.sticking = t.sticking;
        }
      r.moment = a_1 * r.f_N - a_2 * r.f_T;
      return r;
    }

    void
    check_step_input(const char *function, const ParticlePose &start,
                     const Tensor<1, 2> &start_point, const ParticlePose &end,
                     const Tensor<1, 2> &end_point, const double dt)
    {
      const auto finite_pose = [](const ParticlePose &p) {
        return std::isfinite(p.centre[0]) && std::isfinite(p.centre[1]) &&
               std::isfinite(p.rotation);
      };
      const auto finite_point = [](const Tensor<1, 2> &y) {
        return std::isfinite(y[0]) && std::isfinite(y[1]);
      };
      if (!(dt > 0.) || !std::isfinite(dt))
        throw std::invalid_argument(std::string(function) + ": dt must be positive and finite");
      if (!finite_pose(start) || !finite_pose(end) || !finite_point(start_point) ||
          !finite_point(end_point))
        throw std::invalid_argument(std::string(function) +
                                    ": a pose or a contact point is not finite");
    }
  } // namespace

  ParticleSurfaceContactResult
  particle_surface_contact_step(const NormalContactLaw &law,
                                const ParticleSurfaceContactParameters &parameters,
                                const ParticlePose &start, const Tensor<1, 2> &start_point,
                                const ParticlePose &end, const Tensor<1, 2> &end_point,
                                const ParticleSurfaceContactHistory &old, const double dt,
                                const NormalContactLaw::RateBranch branch)
  {
    check_step_input("particle_surface_contact_step", start, start_point, end, end_point, dt);
    const Tensor<1, 2>  arm_0 = geometry::rotate(start.rotation, start_point);
    const Tensor<1, 2>  arm_1 = geometry::rotate(end.rotation, end_point);
    EndPose<double>     pose{{{end.centre[0], end.centre[1]}}, end.rotation, {{arm_1[0], arm_1[1]}}};
    const StepForces<double> f =
      step_forces(law, parameters, start, arm_0, pose, old, dt, branch);

    ParticleSurfaceContactResult r;
    r.acts_over_step      = true;
    r.contact_point       = end.centre + arm_1;
    r.indentation         = f.d_1;
    r.indentation_rate    = f.rate;
    r.contact_velocity[0] = f.slide / dt;
    r.contact_velocity[1] = -f.rate;
    r.in_contact          = f.in_contact;
    r.history.normal      = f.d_1 > 0. ? f.h : NormalContactHistory{};
    r.normal_energy       = f.d_1 > 0. ? law.stored_energy(f.d_1, f.h) : 0.;
    r.normal_force        = f.f_N;
    r.normal_damping_force = f.f_N - f.f_el;
    r.damping_dissipation  = r.normal_damping_force * f.d_d;
    const double k_T       = parameters.tangential_stiffness;
    if (f.in_contact)
      {
        const double d_T0                 = old.tangential_displacement;
        r.sticking                        = f.sticking;
        r.history.tangential_displacement = f.d_T1;
        r.tangential_energy               = 0.5 * k_T * f.d_T1 * f.d_T1;
        r.friction_dissipation =
          f.sticking ? 0. : -f.f_T * f.slide - 0.5 * k_T * (f.d_T1 * f.d_T1 - d_T0 * d_T0);
      }
    else // the tangential spring's energy is released when the contact opens: dissipated
      r.friction_dissipation =
        0.5 * k_T * old.tangential_displacement * old.tangential_displacement;
    r.tangential_force = f.f_T;
    r.force[0]         = f.f_T;
    r.force[1]         = f.f_N;
    r.moment           = f.moment;
    return r;
  }

  std::array<std::array<double, 3>, 3>
  particle_surface_contact_step_derivatives(const NormalContactLaw &law,
                                            const ParticleSurfaceContactParameters &parameters,
                                            const ParticlePose &start,
                                            const Tensor<1, 2> &start_point,
                                            const ParticlePose &end,
                                            const Tensor<1, 2> &end_point,
                                            const double        end_radius_of_curvature,
                                            const ParticleSurfaceContactHistory &old,
                                            const double                         dt,
                                            const NormalContactLaw::RateBranch   branch)
  {
    check_step_input("particle_surface_contact_step_derivatives", start, start_point, end,
                     end_point, dt);
    if (!(end_radius_of_curvature >= 0.) || !std::isfinite(end_radius_of_curvature))
      throw std::invalid_argument("particle_surface_contact_step_derivatives: the radius of "
                                  "curvature at the lowest point must be finite and >= 0");
    const Tensor<1, 2> arm_0 = geometry::rotate(start.rotation, start_point);
    const Tensor<1, 2> arm_1 = geometry::rotate(end.rotation, end_point);
    EndPose<Fad>       pose;
    pose.centre[0] = Fad(n_pose, 0, end.centre[0]);
    pose.centre[1] = Fad(n_pose, 1, end.centre[1]);
    pose.rotation  = Fad(n_pose, 2, end.rotation);
    // d/dtheta [R(theta) y_c(theta)] = e3 x arm - rho e1: the lowest point slides along the
    // surface as the particle turns (geometry::Superellipse::lowest_point_radius_of_curvature())
    pose.arm[0]                 = Fad(arm_1[0]);
    pose.arm[0].fastAccessDx(2) = -arm_1[1] - end_radius_of_curvature;
    pose.arm[1]                 = Fad(arm_1[1]);
    pose.arm[1].fastAccessDx(2) = arm_1[0];
    const StepForces<Fad> f = step_forces(law, parameters, start, arm_0, pose, old, dt, branch);
    std::array<std::array<double, 3>, 3> J{};
    for (int k = 0; k < 3; ++k)
      {
        J[0][k] = f.f_T.dx(k);
        J[1][k] = f.f_N.dx(k);
        J[2][k] = f.moment.dx(k);
      }
    return J;
  }
} // namespace granular::contact
