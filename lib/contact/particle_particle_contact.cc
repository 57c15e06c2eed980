// Contact of two particles over a step (docs/methods.md §5.6). See particle_particle_contact.h.
#include "contact/particle_particle_contact.h"

#include "contact/coulomb_return_mapping.h"
#include "contact/step_force_arithmetic.h"
#include "geometry/superellipse_pair.h"

#include <Sacado.hpp>

#include <deal.II/base/numbers.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace granular::contact
{
  namespace
  {
    using geometry::Superellipse;
    using Rounding = geometry::Superellipse::FlatSideRounding;

    constexpr double pi = dealii::numbers::PI;

    /// The step forces are differentiated with respect to the end poses
    /// (c_A1, c_A2, theta_A, c_B1, c_B2, theta_B)_{n+1} (Trilinos Sacado, forward mode).
    constexpr int n_pose = 6;
    using Fad            = Sacado::Fad::SFad<double, n_pose>;

    /// The Gonzalez correction is left out where |Delta z|_G <= this times l (below it, it is
    /// smaller than the round-off of delta: its value would be noise of order
    /// 1e-16 l / |Delta z|_G).
    constexpr double smallest_correction_step = 1e-8;
    /// In the Jacobian, the correction's own derivative is left out where
    /// |Delta z|_G <= this times l (its round-off grows like 1e-16 l^2 / |Delta z|_G^2; the
    /// exact derivative is O(|Delta z|)).
    constexpr double smallest_differentiated_correction_step = 1e-5;

    using step_arithmetic::chain;
    using step_arithmetic::value;

    /// The two particles of the pair and the metric length l.
    struct Pair
    {
      const Superellipse &shape_a;
      const Rounding     &rounding_a;
      const Superellipse &shape_b;
      const Rounding     &rounding_b;
      double              length; ///< l (mm): the larger of the inscribed radii min(r1, r2)
    };

    Pair
    pair_of(const Superellipse &shape_a, const Rounding &rounding_a, const Superellipse &shape_b,
            const Rounding &rounding_b)
    {
      const auto inscribed = [](const Superellipse &s) {
        return std::min(s.shape().r1, s.shape().r2);
      };
      return {shape_a, rounding_a, shape_b, rounding_b,
              std::max(inscribed(shape_a), inscribed(shape_b))};
    }

    /// The relative coordinates z = (d, theta_A, theta_B), d = c_B + offset - c_A (mm, rad).
    template <typename Number>
    struct Relative
    {
      std::array<Number, 2> d;
      Number                theta_a{}, theta_b{};
    };

    Relative<double>
    relative(const ParticlePose &a, const ParticlePose &b, const Tensor<1, 2> &offset)
    {
      return {{{(b.centre[0] + offset[0]) - a.centre[0], (b.centre[1] + offset[1]) - a.centre[1]}},
              a.rotation,
              b.rotation};
    }

    template <typename Number>
    Relative<Number>
    midpoint(const Relative<double> &z0, const Relative<Number> &z1)
    {
      return {{{0.5 * (z0.d[0] + z1.d[0]), 0.5 * (z0.d[1] + z1.d[1])}},
              0.5 * (z0.theta_a + z1.theta_a),
              0.5 * (z0.theta_b + z1.theta_b)};
    }

    /// The overlap at the relative coordinates @p z: A at the origin, B at d.
    geometry::PairOverlap
    overlap(const Pair &pair, const Relative<double> &z, const std::optional<double> warm_start)
    {
      Tensor<1, 2> d;
      d[0] = z.d[0];
      d[1] = z.d[1];
      return geometry::pair_overlap(pair.shape_a, pair.rounding_a, Tensor<1, 2>(), z.theta_a,
                                    pair.shape_b, pair.rounding_b, d, z.theta_b, warm_start);
    }

    /**
     * The arm R(theta) y of the support point of a particle rotated by @p rotation in the
     * global direction m(@p angle) = (cos, sin) (geometry::support_point()). For Fad numbers
     * its derivative follows the rotation and the direction: with u = e3 x m and rho the
     * radius of curvature at y, d arm / d theta = e3 x arm - rho u (the point slides along
     * the surface as the particle turns under a fixed direction) and d arm / d angle = rho u.
     */
    template <typename Number>
    std::array<Number, 2>
    support_arm(const Superellipse &shape, const Rounding &rounding, const Number &rotation,
                const Number &angle)
    {
      const double                 theta = value(rotation), phi = value(angle);
      const geometry::SupportPoint s     = geometry::support_point(shape, rounding, theta, phi);
      const Tensor<1, 2>           arm   = geometry::rotate(theta, s.point);
      std::array<Number, 2>        r{{Number(arm[0]), Number(arm[1])}};
      if constexpr (std::is_same_v<Number, Fad>)
        {
          const double rho = s.radius_of_curvature;
          if (!std::isfinite(rho))
            throw std::domain_error("particle_particle_contact_step_derivatives: the radius of "
                                    "curvature at a support point is not finite (an unrounded "
                                    "flat side): the Jacobian does not exist");
          const double u0 = -std::sin(phi), u1 = std::cos(phi);
          for (int i = 0; i < n_pose; ++i)
            {
              const double d_theta = rotation.dx(i), d_angle = angle.dx(i);
              r[0].fastAccessDx(i) = -arm[1] * d_theta + rho * u0 * (d_angle - d_theta);
              r[1].fastAccessDx(i) = arm[0] * d_theta + rho * u1 * (d_angle - d_theta);
            }
        }
      return r;
    }

    /// The common normal n, tangent t = e3 x n and the support points' arms at the middle of
    /// the step.
    template <typename Number>
    struct MidGeometry
    {
      std::array<Number, 2> n, t, arm_a, arm_b;
    };

    /**
     * The mid-step geometry at @p z_m from the overlap solved there (@p solved, in double).
     * For Fad numbers one Newton step phi = phi* - g'(phi*, z) / g''(phi*, z_value) carries
     * the exact derivative of the common normal's angle (the value stays phi*).
     */
    template <typename Number>
    MidGeometry<Number>
    mid_geometry(const Pair &pair, const Relative<Number> &z_m,
                 const geometry::PairOverlap &solved)
    {
      using std::cos;
      using std::sin;
      const double phi_star = solved.normal_angle;
      Number       phi(phi_star);
      if constexpr (std::is_same_v<Number, Fad>)
        {
          const double d2g =
            solved.radius_of_curvature_a + solved.radius_of_curvature_b - solved.depth;
          if (!(d2g > 0.) || !std::isfinite(d2g))
            throw std::domain_error("particle_particle_contact_step_derivatives: g'' = rho_A + "
                                    "rho_B - g at the mid-step common normal is not positive "
                                    "and finite: the Jacobian does not exist");
          const auto a = support_arm(pair.shape_a, pair.rounding_a, z_m.theta_a, Number(phi_star));
          const auto b =
            support_arm(pair.shape_b, pair.rounding_b, z_m.theta_b, Number(phi_star + pi));
          const double c = std::cos(phi_star), s = std::sin(phi_star);
          const Number dg =
            -s * (a[0] - b[0] - z_m.d[0]) + c * (a[1] - b[1] - z_m.d[1]); // g' = t . (x_A - x_B)
          phi = phi_star - (dg - value(dg)) / d2g;
        }
      MidGeometry<Number> m;
      m.arm_a = support_arm(pair.shape_a, pair.rounding_a, z_m.theta_a, phi);
      m.arm_b = support_arm(pair.shape_b, pair.rounding_b, z_m.theta_b, Number(phi + pi));
      m.n     = {{Number(cos(phi)), Number(sin(phi))}};
      m.t     = {{-m.n[1], m.n[0]}};
      return m;
    }

    /// The step's forces and what the result needs (see particle_particle_contact_step()).
    template <typename Number>
    struct StepForces
    {
      Number                d_1{}, d_d{}, rate{}, slide{}, f_el{}, f_N{}, f_T{}, d_T1{};
      std::array<Number, 4> Q{}; ///< the generalized force on z = (d, theta_A, theta_B)
      bool                  in_contact = false, sticking = false;
      NormalContactHistory  h;
    };

    /**
     * The arithmetic of particle_particle_contact_step() for double (the result) and for Fad
     * (its derivatives): one code, so the derivatives are those of the forces the solver
     * uses. Every branch is taken on the values. @p mid is null when the pair is apart at
     * both ends (no force).
     */
    template <typename Number>
    StepForces<Number>
    step_forces(const NormalContactLaw &law, const ParticleSurfaceContactParameters &parameters,
                const double length, const Relative<double> &z_0, const Relative<Number> &z_1,
                const Relative<Number> &z_m, const double depth_0, const Number &depth_1,
                const MidGeometry<Number> *mid, const ParticleParticleContactHistory &old,
                const double dt, const NormalContactLaw::RateBranch branch)
    {
      constexpr bool     differentiate = std::is_same_v<Number, Fad>;
      StepForces<Number> r;
      const double       d_0 = depth_0;
      r.d_1                  = depth_1;
      r.d_d                  = r.d_1 - d_0;
      r.rate                 = r.d_d / dt;

      // normal: secant of the stored energy (conservative) + damping at t_{n+1}, as in
      // particle_surface_contact_step()
      const auto normal =
        step_arithmetic::normal_step_force(law, d_0, r.d_1, r.d_d, r.rate, dt, old.normal, branch);
      r.h          = normal.h;
      r.f_el       = normal.f_el;
      r.f_N        = normal.f_N;
      r.in_contact = normal.in_contact;
      if (mid == nullptr)
        return r; // apart at both ends: f_el = f_D = 0

      // the discrete gradient of delta: Danskin's gradient at z_m, corrected along G Delta z
      const std::array<Number, 4> dz = {{z_1.d[0] - z_0.d[0], z_1.d[1] - z_0.d[1],
                                         z_1.theta_a - z_0.theta_a, z_1.theta_b - z_0.theta_b}};
      const auto &n = mid->n, &t = mid->t, &arm_a = mid->arm_a, &arm_b = mid->arm_b;
      const auto  cross = [](const std::array<Number, 2> &a,
                            const std::array<Number, 2> &b) -> Number {
        return a[0] * b[1] - a[1] * b[0];
      };
      std::array<Number, 4> gradient = {{-n[0], -n[1], cross(arm_a, n), -cross(arm_b, n)}};
      const double          l2       = length * length;
      const std::array<Number, 4> G_dz = {{dz[0], dz[1], l2 * dz[2], l2 * dz[3]}};
      const Number norm2 = dz[0] * G_dz[0] + dz[1] * G_dz[1] + dz[2] * G_dz[2] + dz[3] * G_dz[3];
      const double norm  = std::sqrt(value(norm2));
      if (norm > smallest_correction_step * length)
        {
          const Number error = r.d_d - (gradient[0] * dz[0] + gradient[1] * dz[1] +
                                        gradient[2] * dz[2] + gradient[3] * dz[3]);
          const Number factor = error / norm2;
          for (unsigned int i = 0; i < 4; ++i)
            {
              Number correction = factor * G_dz[i];
              if constexpr (differentiate)
                if (norm <= smallest_differentiated_correction_step * length)
                  correction = Number(value(correction)); // its value, not its derivative
              gradient[i] += correction;
            }
        }

      // tangential: the slide of B's material point at the mid-step contact point against
      // A's, Delta s = b . Delta z; return mapping on it, mid-point spring force
      const std::array<Number, 2> x_c = {{0.5 * (arm_a[0] + (z_m.d[0] + arm_b[0])),
                                          0.5 * (arm_a[1] + (z_m.d[1] + arm_b[1]))}};
      const std::array<Number, 2> r_b = {{x_c[0] - z_m.d[0], x_c[1] - z_m.d[1]}};
      const std::array<Number, 4> b = {{t[0], t[1], -(n[0] * x_c[0] + n[1] * x_c[1]),
                                        n[0] * r_b[0] + n[1] * r_b[1]}};
      r.slide = b[0] * dz[0] + b[1] * dz[1] + b[2] * dz[2] + b[3] * dz[3];
      if (r.in_contact)
        {
          const auto m = step_arithmetic::tangential_step_force(
            parameters, old.tangential_displacement, r.slide, r.f_N);
          r.d_T1     = m.d_T1;
          r.f_T      = m.f_T;
          r.sticking = m.sticking;
        }
      for (unsigned int i = 0; i < 4; ++i)
        r.Q[i] = -r.f_N * gradient[i] + r.f_T * b[i];
      return r;
    }

    void
    check_step_input(const char *function, const ParticlePose &start_a,
                     const ParticlePose &start_b, const ParticlePose &end_a,
                     const ParticlePose &end_b, const Tensor<1, 2> &offset, const double dt)
    {
      if (!(dt > 0.) || !std::isfinite(dt))
        {
          std::ostringstream msg;
          msg << function << ": dt = " << dt << " s must be positive and finite";
          throw std::invalid_argument(msg.str());
        }
      const auto check_pose = [&](const ParticlePose &p, const char *name) {
        if (!std::isfinite(p.centre[0]) || !std::isfinite(p.centre[1]) ||
            !std::isfinite(p.rotation))
          {
            std::ostringstream msg;
            msg << function << ": the pose " << name << " (centre (" << p.centre[0] << ", "
                << p.centre[1] << ") mm, rotation " << p.rotation << " rad) is not finite";
            throw std::invalid_argument(msg.str());
          }
      };
      check_pose(start_a, "start_a");
      check_pose(start_b, "start_b");
      check_pose(end_a, "end_a");
      check_pose(end_b, "end_b");
      if (!std::isfinite(offset[0]) || !std::isfinite(offset[1]))
        {
          std::ostringstream msg;
          msg << function << ": image_offset = (" << offset[0] << ", " << offset[1]
              << ") mm is not finite";
          throw std::invalid_argument(msg.str());
        }
    }

    /// The overlaps at both ends, and at the middle if the pair overlaps at either end.
    struct StepOverlaps
    {
      geometry::PairOverlap                start, end;
      std::optional<geometry::PairOverlap> mid;
    };

    StepOverlaps
    step_overlaps(const Pair &pair, const Relative<double> &z_0, const Relative<double> &z_1,
                  const ParticleParticleContactHistory &old)
    {
      StepOverlaps s;
      s.start = overlap(pair, z_0,
                        old.has_normal_angle ? std::optional<double>(old.normal_angle) :
                                               std::nullopt);
      s.end = overlap(pair, z_1, s.start.normal_angle);
      if (s.start.depth > 0. || s.end.depth > 0.)
        s.mid = overlap(pair, midpoint(z_0, z_1), s.start.normal_angle);
      return s;
    }
  } // namespace

  ParticleParticleContactResult
  particle_particle_contact_step(const NormalContactLaw                         &law,
                                 const ParticleSurfaceContactParameters         &parameters,
                                 const geometry::Superellipse                   &shape_a,
                                 const geometry::Superellipse::FlatSideRounding &rounding_a,
                                 const geometry::Superellipse                   &shape_b,
                                 const geometry::Superellipse::FlatSideRounding &rounding_b,
                                 const ParticlePose &start_a, const ParticlePose &start_b,
                                 const ParticlePose &end_a, const ParticlePose &end_b,
                                 const Tensor<1, 2>                   &image_offset,
                                 const ParticleParticleContactHistory &old, const double dt,
                                 const NormalContactLaw::RateBranch    branch)
  {
    check_step_input("particle_particle_contact_step", start_a, start_b, end_a, end_b,
                     image_offset, dt);
    const Pair             pair = pair_of(shape_a, rounding_a, shape_b, rounding_b);
    const Relative<double> z_0  = relative(start_a, start_b, image_offset);
    const Relative<double> z_1  = relative(end_a, end_b, image_offset);
    const Relative<double> z_m  = midpoint(z_0, z_1);
    const StepOverlaps     s    = step_overlaps(pair, z_0, z_1, old);
    std::optional<MidGeometry<double>> mid;
    if (s.mid)
      mid = mid_geometry(pair, z_m, *s.mid);
    const StepForces<double> f =
      step_forces(law, parameters, pair.length, z_0, z_1, z_m, s.start.depth, s.end.depth,
                  mid ? &*mid : nullptr, old, dt, branch);

    ParticleParticleContactResult r;
    r.overlap_evaluations =
      s.start.evaluations + s.end.evaluations + (s.mid ? s.mid->evaluations : 0u);
    r.force_b[0]     = f.Q[0];
    r.force_b[1]     = f.Q[1];
    r.force_a        = -r.force_b;
    r.moment_a       = f.Q[2];
    r.moment_b       = f.Q[3];
    r.depth          = f.d_1;
    r.start_depth    = s.start.depth;
    r.depth_rate     = f.rate;
    r.slide          = f.slide;
    r.normal         = s.end.normal;
    // A at the origin in the solve: the support points are arm_A and d + arm_B
    r.contact_point  = end_a.centre + 0.5 * (s.end.support_point_a + s.end.support_point_b);
    r.in_contact     = f.in_contact;
    r.normal_force   = f.f_N;
    r.normal_damping_force = f.f_N - f.f_el;
    r.damping_dissipation  = r.normal_damping_force * f.d_d;
    r.normal_energy        = f.d_1 > 0. ? law.stored_energy(f.d_1, f.h) : 0.;
    r.history.normal_angle     = s.end.normal_angle;
    r.history.has_normal_angle = true;
    r.history.normal           = f.d_1 > 0. ? f.h : NormalContactHistory{};
    r.history.in_contact       = f.in_contact;
    const double k_T           = parameters.tangential_stiffness;
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
    return r;
  }

  std::array<std::array<double, 6>, 6>
  particle_particle_contact_step_derivatives(
    const NormalContactLaw &law, const ParticleSurfaceContactParameters &parameters,
    const geometry::Superellipse                   &shape_a,
    const geometry::Superellipse::FlatSideRounding &rounding_a,
    const geometry::Superellipse                   &shape_b,
    const geometry::Superellipse::FlatSideRounding &rounding_b, const ParticlePose &start_a,
    const ParticlePose &start_b, const ParticlePose &end_a, const ParticlePose &end_b,
    const Tensor<1, 2> &image_offset, const ParticleParticleContactHistory &old,
    const double dt, const NormalContactLaw::RateBranch branch)
  {
    check_step_input("particle_particle_contact_step_derivatives", start_a, start_b, end_a,
                     end_b, image_offset, dt);
    std::array<std::array<double, 6>, 6> J{};
    const Pair             pair = pair_of(shape_a, rounding_a, shape_b, rounding_b);
    const Relative<double> z_0  = relative(start_a, start_b, image_offset);
    const Relative<double> z_1v = relative(end_a, end_b, image_offset);
    const StepOverlaps     s    = step_overlaps(pair, z_0, z_1v, old);
    if (!s.mid)
      return J; // apart at both ends: no force

    // the end poses as independent variables, z_1 as the same arithmetic of them
    const Fad c_a0(n_pose, 0, end_a.centre[0]), c_a1(n_pose, 1, end_a.centre[1]),
      theta_a(n_pose, 2, end_a.rotation), c_b0(n_pose, 3, end_b.centre[0]),
      c_b1(n_pose, 4, end_b.centre[1]), theta_b(n_pose, 5, end_b.rotation);
    Relative<Fad> z_1;
    z_1.d       = {{(c_b0 + image_offset[0]) - c_a0, (c_b1 + image_offset[1]) - c_a1}};
    z_1.theta_a = theta_a;
    z_1.theta_b = theta_b;
    const Relative<Fad> z_m = midpoint(z_0, z_1);

    // delta_{n+1}: Danskin's gradient (the common normal is stationary)
    const auto &grad  = s.end.depth_gradient; // A at the origin: columns of c_B are those of d
    Fad         depth_1(s.end.depth);
    for (int i = 0; i < n_pose; ++i)
      depth_1.fastAccessDx(i) = grad[3] * z_1.d[0].dx(i) + grad[4] * z_1.d[1].dx(i) +
                                grad[2] * z_1.theta_a.dx(i) + grad[5] * z_1.theta_b.dx(i);
    const MidGeometry<Fad> mid = mid_geometry(pair, z_m, *s.mid);
    const StepForces<Fad>  f   = step_forces(law, parameters, pair.length, z_0, z_1, z_m,
                                          s.start.depth, depth_1, &mid, old, dt, branch);
    // rows F_A = -Q_d, M_A = Q_theta_A, F_B = Q_d, M_B = Q_theta_B
    for (int k = 0; k < n_pose; ++k)
      {
        J[0][k] = -f.Q[0].dx(k);
        J[1][k] = -f.Q[1].dx(k);
        J[2][k] = f.Q[2].dx(k);
        J[3][k] = f.Q[0].dx(k);
        J[4][k] = f.Q[1].dx(k);
        J[5][k] = f.Q[3].dx(k);
      }
    return J;
  }
} // namespace granular::contact
