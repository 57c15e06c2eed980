// Tests of the contact of two particles over a step (docs/methods.md §5.6): the support
// point's derivatives, the restitution of two circles against the impact program, the energy
// and momenta of free collisions of two p = 4 shapes with the mid-point rule (undamped and
// frictionless; with friction and damping), the moment arms at a first touch inside a step,
// the work of random steps, the exact Jacobian against central differences, the exchange of
// A and B, a pair across the periodic boundary, and a pair apart at both ends.
#include <contact/laws/contact_law.h>
#include <contact/particle_particle_contact.h>
#include <dem/particle_parameters.h>
#include <fem/block_parameters.h>
#include <geometry/superellipse_pair.h>
#include <impact/sdof_impact.h>

#include "test_helpers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

using namespace granular::contact;
using granular::geometry::PairOverlap;
using granular::geometry::rotate;
using granular::geometry::Superellipse;
using granular::geometry::SuperellipseShape;
using granular::testing::cross;
using granular::testing::vec;
using dealii::Tensor;

namespace
{
  const double pi = std::acos(-1.);

  /// The program's defaults: reference radius r0 (mm), particle density (t/mm^3), flat-side
  /// radius (mm), cell length L0 (mm).
  const double r0               = granular::ParticleParameters{}.reference_radius;
  const double density          = granular::ParticleParameters{}.density;
  const double flat_side_radius = granular::ParticleSurfaceContactParameters{}.flat_side_radius;
  const double cell_length      = granular::BlockParameters{}.length;

  const std::array<std::string, 4> shape_names = {{"circular", "elliptical", "square",
                                                   "rectangular"}};

  /// Contact parameters: the cell's stiffnesses, the default law with damping c_N (s).
  granular::ParticleSurfaceContactParameters
  contact_parameters(const double friction, const double damping)
  {
    granular::ParticleSurfaceContactParameters p;
    p.normal_stiffness     = 1e5;
    p.tangential_stiffness = 1e3;
    p.damping              = damping;
    p.friction_coefficient = friction;
    return p;
  }

  /// A particle: shape with its rounding, mass m = rho pi r^2 and moment of inertia
  /// I = m r^2 / 2 of the reference circle of radius @p radius (docs/methods.md §4).
  struct Body
  {
    Superellipse                   shape;
    Superellipse::FlatSideRounding rounding;
    double                         mass, inertia;

    Body(const std::string &name, const double radius = r0)
        : shape(SuperellipseShape::named(name, radius))
        , rounding(shape.flat_side_rounding(flat_side_radius))
        , mass(density * pi * radius * radius)
        , inertia(0.5 * mass * radius * radius)
    {}
  };

  /// The larger inscribed radius of the pair: the metric length l of the discrete gradient.
  double
  metric_length(const Body &a, const Body &b)
  {
    return std::max(std::min(a.shape.shape().r1, a.shape.shape().r2),
                    std::min(b.shape.shape().r1, b.shape.shape().r2));
  }

  /// One step of the pair.
  struct Step
  {
    ParticlePose                   start_a, start_b, end_a, end_b;
    Tensor<1, 2>                   offset;
    ParticleParticleContactHistory old;
    double                         dt     = 1e-6;
    NormalContactLaw::RateBranch   branch = NormalContactLaw::RateBranch::by_sign;
  };

  ParticleParticleContactResult
  evaluate(const NormalContactLaw &law, const granular::ParticleSurfaceContactParameters &p,
           const Body &a, const Body &b, const Step &s)
  {
    return particle_particle_contact_step(law, p, a.shape, a.rounding, b.shape, b.rounding,
                                          s.start_a, s.start_b, s.end_a, s.end_b, s.offset,
                                          s.old, s.dt, s.branch);
  }

  std::array<std::array<double, 6>, 6>
  jacobian(const NormalContactLaw &law, const granular::ParticleSurfaceContactParameters &p,
           const Body &a, const Body &b, const Step &s)
  {
    return particle_particle_contact_step_derivatives(law, p, a.shape, a.rounding, b.shape,
                                                      b.rounding, s.start_a, s.start_b, s.end_a,
                                                      s.end_b, s.offset, s.old, s.dt, s.branch);
  }

  /// (F_A1, F_A2, M_A, F_B1, F_B2, M_B) of a result.
  std::array<double, 6>
  generalized_forces(const ParticleParticleContactResult &r)
  {
    return {{r.force_a[0], r.force_a[1], r.moment_a, r.force_b[0], r.force_b[1], r.moment_b}};
  }

  /// The overlap of A at @p pa and B at @p pb.
  PairOverlap
  overlap(const Body &a, const ParticlePose &pa, const Body &b, const ParticlePose &pb,
          const std::optional<double> warm_start = std::nullopt)
  {
    return granular::geometry::pair_overlap(a.shape, a.rounding, pa.centre, pa.rotation,
                                            b.shape, b.rounding, pb.centre, pb.rotation,
                                            warm_start);
  }

  /// B's centre c_A + s u (rotations given) with the depth @p depth (mm): bisection on s,
  /// each overlap warm-started from the last one's normal.
  Tensor<1, 2>
  place_at_depth(const Body &a, const ParticlePose &pa, const Body &b, const double theta_b,
                 const Tensor<1, 2> &u, const double depth)
  {
    double lo = 0., hi = 4. * (a.shape.shape().half_width_bound() +
                               b.shape.shape().half_width_bound());
    std::optional<double> warm_start;
    for (unsigned int i = 0; i < 60; ++i)
      {
        const double mid = 0.5 * (lo + hi);
        const auto   o   = overlap(a, pa, b, {pa.centre + mid * u, theta_b}, warm_start);
        warm_start       = o.normal_angle;
        (o.depth > depth ? lo : hi) = mid;
      }
    return pa.centre + 0.5 * (lo + hi) * u;
  }

  // ---------------------------------------------------------------------------------------
  // A test-local integrator: two free particles with the mid-point rule,
  //   M (v_{n+1} - v_n) / h = S(q_n, q_{n+1}),   q_{n+1} - q_n = h (v_n + v_{n+1}) / 2,
  // S the contact's step force; the end poses by Newton's method with the exact Jacobian.
  // ---------------------------------------------------------------------------------------
  using Vector6 = std::array<double, 6>;

  /// Solves A x = b (6 x 6, Gaussian elimination with partial pivoting).
  Vector6
  solve(std::array<std::array<double, 6>, 6> A, Vector6 b)
  {
    for (unsigned int k = 0; k < 6; ++k)
      {
        unsigned int p = k;
        for (unsigned int i = k + 1; i < 6; ++i)
          if (std::abs(A[i][k]) > std::abs(A[p][k]))
            p = i;
        std::swap(A[k], A[p]);
        std::swap(b[k], b[p]);
        for (unsigned int i = k + 1; i < 6; ++i)
          {
            const double f = A[i][k] / A[k][k];
            for (unsigned int j = k; j < 6; ++j)
              A[i][j] -= f * A[k][j];
            b[i] -= f * b[k];
          }
      }
    Vector6 x{};
    for (int k = 5; k >= 0; --k)
      {
        double s = b[k];
        for (unsigned int j = k + 1; j < 6; ++j)
          s -= A[k][j] * x[j];
        x[k] = s / A[k][k];
      }
    return x;
  }

  /// Poses q = (c_A1, c_A2, theta_A, c_B1, c_B2, theta_B) and velocities v of the pair.
  struct State
  {
    Vector6 q{}, v{};
  };

  ParticlePose
  pose_a(const Vector6 &q)
  {
    return {vec(q[0], q[1]), q[2]};
  }
  ParticlePose
  pose_b(const Vector6 &q)
  {
    return {vec(q[3], q[4]), q[5]};
  }

  class Collision
  {
  public:
    Collision(const NormalContactLaw &law, const granular::ParticleSurfaceContactParameters &p,
              const Body &a, const Body &b, const Tensor<1, 2> &offset = Tensor<1, 2>())
        : law_(law)
        , p_(p)
        , a_(a)
        , b_(b)
        , offset_(offset)
        , M_{{a.mass, a.mass, a.inertia, b.mass, b.mass, b.inertia}}
    {}

    /// Advances @p s by one step of @p h (s); the step's contact result. The branch of the
    /// law is frozen after two free Newton iterations (as coupling::MonolithicParticle does).
    ParticleParticleContactResult
    advance(State &s, const double h)
    {
      Step step;
      step.start_a = pose_a(s.q);
      step.start_b = pose_b(s.q);
      step.offset  = offset_;
      step.old     = history;
      step.dt      = h;
      Vector6 q1;
      for (unsigned int i = 0; i < 6; ++i)
        q1[i] = s.q[i] + h * s.v[i];
      double                        last_update = 1.;
      ParticleParticleContactResult r;
      for (unsigned int it = 0;; ++it)
        {
          step.end_a        = pose_a(q1);
          step.end_b        = pose_b(q1);
          r                 = evaluate(law_, p_, a_, b_, step);
          const Vector6 S   = generalized_forces(r);
          Vector6       R{};
          for (unsigned int i = 0; i < 6; ++i)
            R[i] = M_[i] * (2. * (q1[i] - s.q[i]) / h - 2. * s.v[i]) / h - S[i];
          if (it > 0 && last_update <= 1e-15)
            break;
          if (it == 40)
            throw std::runtime_error("test integrator: Newton's method did not converge");
          if (it == 1)
            step.branch = r.depth_rate >= 0. ? NormalContactLaw::RateBranch::compression :
                                               NormalContactLaw::RateBranch::decompression;
          auto J = jacobian(law_, p_, a_, b_, step);
          for (unsigned int i = 0; i < 6; ++i)
            {
              for (unsigned int j = 0; j < 6; ++j)
                J[i][j] = -J[i][j];
              J[i][i] += 2. * M_[i] / (h * h);
              R[i] = -R[i];
            }
          const Vector6 dq = solve(J, R);
          last_update      = 0.;
          for (unsigned int i = 0; i < 6; ++i)
            {
              q1[i] += dq[i];
              last_update = std::max(last_update, std::abs(dq[i]) * (i % 3 == 2 ? r0 : 1.));
            }
          ++newton_iterations;
        }
      // v_{n+1} from the momentum equation (the forces on A and B are opposite, so the
      // momentum's change is zero to round-off; v from the positions would carry the
      // round-off of q, eps |q| / h)
      const Vector6 S = generalized_forces(r);
      for (unsigned int i = 0; i < 6; ++i)
        {
          s.v[i] += h * S[i] / M_[i];
          s.q[i] = q1[i];
        }
      history = r.history;
      return r;
    }

    double
    kinetic_energy(const State &s) const
    {
      double K = 0.;
      for (unsigned int i = 0; i < 6; ++i)
        K += 0.5 * M_[i] * s.v[i] * s.v[i];
      return K;
    }

    /// m_A v_A + m_B v_B (t mm/s per mm).
    Tensor<1, 2>
    momentum(const State &s) const
    {
      return vec(M_[0] * s.v[0] + M_[3] * s.v[3], M_[1] * s.v[1] + M_[4] * s.v[4]);
    }

    /// sum of m c x v + I omega about the origin (t mm^2/s per mm), B at its image.
    double
    angular_momentum(const State &s) const
    {
      return M_[0] * cross(vec(s.q[0], s.q[1]), vec(s.v[0], s.v[1])) + M_[2] * s.v[2] +
             M_[3] * cross(vec(s.q[3], s.q[4]) + offset_, vec(s.v[3], s.v[4])) +
             M_[5] * s.v[5];
    }

    ParticleParticleContactHistory history;
    unsigned int                   newton_iterations = 0;

  private:
    const NormalContactLaw                         &law_;
    granular::ParticleSurfaceContactParameters      p_;
    const Body                                     &a_, &b_;
    Tensor<1, 2>                                    offset_;
    Vector6                                         M_;
  };

  /// Hertz contact duration of K d^(3/2) for the mass @p m and the approach speed @p v:
  /// t_c = 2.94 (5 m / (4 K v^(1/2)))^(2/5) (the Hertz impact).
  double
  hertz_contact_time(const double K, const double m, const double v)
  {
    return 2.9432 * std::pow(5. * m / (4. * K * std::sqrt(v)), 0.4);
  }
} // namespace

TEST(ParticleParticleContact, SupportArmMovesWithRotationAndNormalAngle)
{
  // The Jacobian's geometric input: the arm a = R(theta) y of the support point in the
  // global direction m(phi) moves as d a / d theta = e3 x a - rho u and d a / d phi = rho u
  // (u = e3 x m, rho the radius of curvature there), against central differences, for every
  // default shape, on the rounded flat sides too.
  std::mt19937                           rng(3);
  std::uniform_real_distribution<double> U(-pi, pi);
  for (const auto &name : shape_names)
    {
      const Body   body(name);
      unsigned int on_arcs = 0;
      for (unsigned int k = 0; k < 200; ++k)
        {
          const double theta = U(rng);
          // every fourth direction next to a flat side's normal
          const double phi   = k % 4 == 0 ? theta + 0.5 * pi * (k % 16) / 4 + 1e-3 * U(rng) :
                                            U(rng);
          const auto arm = [&](const double t, const double f) {
            return rotate(t, granular::geometry::support_point(body.shape, body.rounding, t, f)
                               .point);
          };
          const double rho =
            granular::geometry::support_point(body.shape, body.rounding, theta, phi)
              .radius_of_curvature;
          const Tensor<1, 2> a = arm(theta, phi), u = vec(-std::sin(phi), std::cos(phi));
          const double       h = 1e-7;
          const Tensor<1, 2> da_dtheta = (arm(theta + h, phi) - arm(theta - h, phi)) / (2. * h);
          const Tensor<1, 2> da_dphi   = (arm(theta, phi + h) - arm(theta, phi - h)) / (2. * h);
          const Tensor<1, 2> e3_x_a    = vec(-a[1], a[0]);
          const double       scale     = std::max(rho, r0);
          ASSERT_LT((da_dtheta - (e3_x_a - rho * u)).norm(), 1e-6 * scale)
            << name << " theta " << theta << " phi " << phi;
          ASSERT_LT((da_dphi - rho * u).norm(), 1e-6 * scale)
            << name << " theta " << theta << " phi " << phi;
          on_arcs += rho == flat_side_radius;
        }
      if (name == "square" || name == "rectangular")
        {
          EXPECT_GT(on_arcs, 5u) << name;
        }
    }
}

TEST(ParticleParticleContact, HeadOnCirclesReboundWithTheImpactProgramsRestitution)
{
  // Two circles of different radii and masses collide head-on (no gravity, no rubber), with
  // the mid-point rule and the default law (damped Hertz, no damping in decompression). The
  // relative motion along the line of centres is the impact of one body of the effective mass
  // m* = m_A m_B / (m_A + m_B) against the law, so the coefficient of restitution is the
  // impact program's (impact::simulate_impact(), same law, K = k_N and c_N). In the 2D cell
  // the law's K is the contact's k_N, whatever the radii: R* = R_A R_B / (R_A + R_B) enters
  // only a law made with ContactData::effective_radius, which the cell does not supply.
  // The step's damping force is taken at t_{n+1} (as in particle_surface_contact_step()),
  // so the restitution converges at first order: measured (c_N = 2e-6 s, v0 = 100 mm/s,
  // e = 0.4354) 1.0e-2, 5.0e-3, 2.5e-3 relative at 200, 400, 800 steps per contact, and
  // 4.0e-5, 1.8e-5 extrapolated to h = 0 from the last two pairs.
  const granular::ParticleSurfaceContactParameters p = contact_parameters(0., 2e-6);
  const Body   a("circular", r0), b("circular", 0.6 * r0);
  const double m_star = a.mass * b.mass / (a.mass + b.mass);
  const auto   law    = create_normal_contact_law(p, m_star);
  const double v0     = 100.; // mm/s
  const auto   reference =
    granular::impact::simulate_impact(dynamic_cast<const laws::ContactLaw &>(*law), m_star, v0);
  std::cout << "  impact program: restitution " << reference.restitution << ", contact time "
            << reference.contact_duration << " s" << std::endl;
  ASSERT_GT(reference.restitution, 0.2);
  ASSERT_LT(reference.restitution, 0.9);

  std::vector<double> restitutions, errors;
  for (const unsigned int steps_per_contact : {200u, 400u, 800u})
    {
      const double h = reference.contact_duration / steps_per_contact;
      Collision    c(*law, p, a, b);
      State        s;
      // A at rest, B approaching along -e1, their gap closed within the first steps (a first
      // touch inside a step)
      const double gap = 2.5 * v0 * h;
      s.q              = {{0., 0., 0.3, r0 + 0.6 * r0 + gap, 0., -0.2}};
      s.v              = {{0., 0., 0., -v0, 0., 0.}};
      bool         touched = false;
      unsigned int in_contact = 0;
      for (unsigned int n = 0; n < 4 * steps_per_contact; ++n)
        {
          const auto r = c.advance(s, h);
          touched      = touched || r.in_contact;
          in_contact += r.in_contact;
          if (touched && !r.in_contact && r.depth < 0.)
            break;
        }
      const double restitution = (s.v[3] - s.v[0]) / v0;
      const double error       = std::abs(restitution / reference.restitution - 1.);
      std::cout << "  " << steps_per_contact << " steps per contact (" << in_contact
                << " in contact, " << c.newton_iterations << " Newton iterations): restitution "
                << restitution << ", relative error " << error << std::endl;
      // head-on: no rotation is excited, no sideways motion
      EXPECT_LT(std::abs(s.v[1]) + std::abs(s.v[4]), 1e-12 * v0);
      EXPECT_LT(std::abs(s.v[2]) * r0 + std::abs(s.v[5]) * r0, 1e-12 * v0);
      restitutions.push_back(restitution);
      errors.push_back(error);
    }
  EXPECT_LT(errors.back(), 3e-3);
  for (unsigned int k = 1; k < errors.size(); ++k)
    {
      // first order, and the limit of the step to zero (Richardson) is the impact program's
      EXPECT_NEAR(errors[k - 1] / errors[k], 2., 0.2);
      const double extrapolated = 2. * restitutions[k] - restitutions[k - 1];
      std::cout << "  extrapolated to h = 0: " << extrapolated << ", relative error "
                << std::abs(extrapolated / reference.restitution - 1.) << std::endl;
      EXPECT_NEAR(extrapolated / reference.restitution, 1., 2e-4);
    }
}

namespace
{
  /// What oblique_collision() measured.
  struct CollisionRun
  {
    double       energy_error           = 0.; ///< max |E_n + D_n - E_0| / E_0
    double       momentum_error         = 0.; ///< max |p_n - p_0| / (m_A |v_A| + m_B |v_B|)
    double       angular_momentum_error = 0.; ///< |L_end - L_0| / L_scale
    double       largest_depth          = 0.; ///< mm
    double       smallest_increment     = 0.; ///< smallest dissipation increment / E_0
    double       friction_dissipation   = 0.; ///< total (N mm per mm)
    double       damping_dissipation    = 0.; ///< total (N mm per mm)
    unsigned int steps_in_contact = 0, stick = 0, slip = 0, newton_iterations = 0, steps = 0;
  };

  /**
   * A free, oblique collision of a spinning square A and a spinning rectangle B (no
   * gravity, no rubber) over a fixed time, with the step h_base / @p refinement: h_base is
   * 1/20 of the Hertz contact time of the normal approach speed and the effective mass m*
   * (the contact lasts about 17 such steps: the rotations make the contact's effective mass
   * smaller than m*). The initial state does not depend on @p refinement.
   * E = kinetic + V + k_T d_T^2 / 2, D the dissipation so far.
   */
  CollisionRun
  oblique_collision(const granular::ParticleSurfaceContactParameters &p,
                    const unsigned int refinement)
  {
    const Body         a("square"), b("rectangular");
    const double       m_star = a.mass * b.mass / (a.mass + b.mass);
    const auto         law    = create_normal_contact_law(p, m_star);
    const double       v_n    = 150.; // mm/s, the normal approach speed of the centres
    const double       h_base = hertz_contact_time(p.normal_stiffness, m_star, v_n) / 20.;
    const double       h      = h_base / refinement;
    const Tensor<1, 2> u = vec(std::cos(0.6), std::sin(0.6));
    const ParticlePose start_a{vec(0.1, -0.2), 0.2};
    const double       theta_b = -0.4, omega_a = 3000., omega_b = -2000.; // rad/s
    State              s;
    const Tensor<1, 2> c_b = place_at_depth(a, start_a, b, theta_b, u, -0.5 * v_n * h_base);
    // B's material point at the midpoint x_c of the support points approaches A's with the
    // speed v_n along the common normal n and slides by 60 mm/s along t = e3 x n
    const PairOverlap  o   = overlap(a, start_a, b, {c_b, theta_b});
    const Tensor<1, 2> x_c = 0.5 * (o.support_point_a + o.support_point_b);
    const Tensor<1, 2> r_a = x_c - start_a.centre, r_b = x_c - c_b;
    const Tensor<1, 2> n = o.normal, t = vec(-n[1], n[0]);
    const Tensor<1, 2> v_a = vec(20., -10.);
    const Tensor<1, 2> v_b = v_a + omega_a * vec(-r_a[1], r_a[0]) -
                             omega_b * vec(-r_b[1], r_b[0]) - v_n * n + 60. * t;
    s.q = {{start_a.centre[0], start_a.centre[1], start_a.rotation, c_b[0], c_b[1], theta_b}};
    s.v = {{v_a[0], v_a[1], omega_a, v_b[0], v_b[1], omega_b}};

    Collision    c(*law, p, a, b);
    CollisionRun run;
    const double E_0 = c.kinetic_energy(s);
    const auto   p_0 = c.momentum(s);
    const double L_0 = c.angular_momentum(s);
    const double p_scale =
      a.mass * vec(s.v[0], s.v[1]).norm() + b.mass * vec(s.v[3], s.v[4]).norm();
    const double L_scale = r0 * p_scale + a.inertia * std::abs(s.v[2]) +
                           b.inertia * std::abs(s.v[5]);
    double D = 0.;
    run.steps = 60 * refinement;
    for (unsigned int n = 0; n < run.steps; ++n)
      {
        const auto r = c.advance(s, h);
        D += r.friction_dissipation + r.damping_dissipation;
        const double E = c.kinetic_energy(s) + r.normal_energy + r.tangential_energy;
        run.energy_error   = std::max(run.energy_error, std::abs(E + D - E_0) / E_0);
        run.momentum_error = std::max(run.momentum_error, (c.momentum(s) - p_0).norm() / p_scale);
        run.largest_depth  = std::max(run.largest_depth, r.depth);
        run.smallest_increment =
          std::min({run.smallest_increment, r.friction_dissipation / E_0,
                    r.damping_dissipation / E_0});
        run.friction_dissipation += r.friction_dissipation;
        run.damping_dissipation += r.damping_dissipation;
        run.steps_in_contact += r.in_contact;
        run.stick += r.in_contact && r.sticking;
        run.slip += r.in_contact && !r.sticking;
      }
    run.angular_momentum_error = std::abs(c.angular_momentum(s) - L_0) / L_scale;
    run.newton_iterations      = c.newton_iterations;
    // the collision is over: apart and separating
    EXPECT_FALSE(c.history.in_contact);
    return run;
  }
} // namespace

TEST(ParticleParticleContact, FreeCollisionKeepsEnergyAndLinearMomentum)
{
  // An undamped, frictionless, oblique collision of a spinning square and a spinning
  // rectangle with the mid-point rule: the step force is the law's secant times the discrete
  // gradient of delta, so kinetic + stored energy is constant to round-off at about 17 steps
  // per contact (measured 9e-15 ... 1.3e-14 of the kinetic energy), and the forces on A and B
  // are opposite, so linear momentum is exact (measured <= 7.5e-16). Angular momentum is not
  // exact (the Gonzalez correction along G Delta z does not respect the rotation symmetry):
  // measured |Delta L| / L_scale = 1.6e-10, 3.9e-11, 9.7e-12 at 17, 33, 66 steps in contact,
  // second order (L_scale = sum of m |v| r0 + I |omega|).
  const granular::ParticleSurfaceContactParameters p = contact_parameters(0., 0.);
  std::vector<double>                              L_errors;
  for (const unsigned int refinement : {1u, 2u, 4u})
    {
      const CollisionRun run = oblique_collision(p, refinement);
      std::cout << "  step h/" << refinement << ": " << run.steps_in_contact
                << " steps in contact, " << run.newton_iterations
                << " Newton iterations, largest depth " << run.largest_depth
                << " mm; energy error " << run.energy_error << ", momentum error "
                << run.momentum_error << ", angular momentum error "
                << run.angular_momentum_error << std::endl;
      if (refinement == 1)
        {
          EXPECT_GE(run.steps_in_contact, 12u);
          EXPECT_LE(run.steps_in_contact, 25u);
        }
      EXPECT_GT(run.largest_depth, 5e-5);
      EXPECT_LT(run.energy_error, 1e-11);
      EXPECT_LT(run.momentum_error, 1e-12);
      EXPECT_EQ(run.friction_dissipation, 0.);
      EXPECT_EQ(run.damping_dissipation, 0.);
      L_errors.push_back(run.angular_momentum_error);
    }
  EXPECT_GT(L_errors[0], 1e-13); // not exact: the order below is not that of round-off
  for (unsigned int k = 1; k < L_errors.size(); ++k)
    EXPECT_GT(L_errors[k - 1] / L_errors[k], 3.);
}

TEST(ParticleParticleContact, FrictionAndDampingOnlyDissipate)
{
  // The same collision with friction (mu = 0.5, k_T = 1e3 N/mm^2) and damping (the default
  // law, c_N = 2e-6 s): kinetic + stored + dissipated energy stays constant to round-off, and
  // no step's friction or damping dissipation is negative. The tangential force acts at the
  // mid-step contact point on both particles, so it leaves angular momentum alone: its error
  // stays that of the normal force's correction (1.6e-10 without friction).
  const granular::ParticleSurfaceContactParameters p   = contact_parameters(0.5, 2e-6);
  const CollisionRun                               run = oblique_collision(p, 1);
  std::cout << "  " << run.steps_in_contact << " steps in contact (stick " << run.stick
            << ", slip " << run.slip << "), " << run.newton_iterations
            << " Newton iterations; dissipated by friction " << run.friction_dissipation
            << ", by damping " << run.damping_dissipation << " N mm/mm; energy error "
            << run.energy_error << ", smallest increment / E_0 " << run.smallest_increment
            << ", angular momentum error " << run.angular_momentum_error << std::endl;
  EXPECT_LT(run.energy_error, 1e-11);
  EXPECT_LT(run.angular_momentum_error, 1e-9);
  EXPECT_LT(run.momentum_error, 1e-12);
  EXPECT_GE(run.smallest_increment, 0.);
  EXPECT_GT(run.stick + run.slip, 10u);
  EXPECT_GT(run.slip, 0u);
  EXPECT_GT(run.stick, 0u);
  EXPECT_GT(run.friction_dissipation, 0.);
  EXPECT_GT(run.damping_dissipation, 0.);
}

TEST(ParticleParticleContact, AFirstTouchInsideAStepActsWithTheContactsMomentArms)
{
  // A long step in which a turning square and rectangle first touch after its middle
  // (apart at t_n and at the mid-step pose, overlapping at t_{n+1}). The step force is the
  // discrete gradient of the geometric depth times the law's secant: its moment arms
  // M / |F| are those of the contact (Danskin's gradient at t_{n+1} gives the exact ones).
  // The discrete gradient of V(delta(z)) instead has no gradient at the mid-step pose
  // (V = 0 there), so its force is all along G Delta z, with arms -l^2 Delta theta / |Delta d|
  // that have nothing to do with the contact. Both are exact in energy.
  const granular::ParticleSurfaceContactParameters p   = contact_parameters(0., 0.);
  const auto                                       law = create_normal_contact_law(p);
  const Body                                       a("square"), b("rectangular");
  const double                                     l = metric_length(a, b);
  const Tensor<1, 2>                               u = vec(std::cos(0.7), std::sin(0.7));
  Step                                             s;
  s.start_a        = {vec(0.2, 0.1), 0.3};
  s.start_b        = {place_at_depth(a, s.start_a, b, -0.5, u, -2e-3), -0.5};
  s.end_a          = {s.start_a.centre + vec(1e-4, -2e-4), 0.34};
  s.end_b          = {place_at_depth(a, s.end_a, b, -0.56, u, 1e-3), -0.56};
  const auto r     = evaluate(*law, p, a, b, s);
  const auto mid   = overlap(a, {0.5 * (s.start_a.centre + s.end_a.centre), 0.32}, b,
                           {0.5 * (s.start_b.centre + s.end_b.centre), -0.53});
  const auto end   = overlap(a, s.end_a, b, s.end_b);
  ASSERT_LT(r.start_depth, 0.);
  ASSERT_LT(mid.depth, 0.);
  ASSERT_GT(r.depth, 0.);
  // exact arms at t_{n+1}: the force is -f grad delta, so M / |F| = -d delta / d theta
  const double exact_a = -end.depth_gradient[2], exact_b = -end.depth_gradient[5];
  const double step_a = r.moment_a / r.force_a.norm(), step_b = r.moment_b / r.force_b.norm();
  const Tensor<1, 2> d_d =
    (s.end_b.centre - s.start_b.centre) - (s.end_a.centre - s.start_a.centre);
  const double V_a = -l * l * (s.end_a.rotation - s.start_a.rotation) / d_d.norm();
  const double V_b = -l * l * (s.end_b.rotation - s.start_b.rotation) / d_d.norm();
  std::cout << "  depths " << r.start_depth << ", " << mid.depth << ", " << r.depth
            << " mm; moment arms (mm) of the step " << step_a << ", " << step_b
            << ", exact at t_{n+1} " << exact_a << ", " << exact_b
            << ", of the discrete gradient of V " << V_a << ", " << V_b << std::endl;
  // measured: 0.064 and -0.339 mm against the exact 0.078 and -0.331 mm (the step turns A
  // by 0.04 rad and B by 0.06 rad); the discrete gradient of V: -0.37 and 0.56 mm
  EXPECT_LT(std::abs(step_a - exact_a), 0.05 * l);
  EXPECT_LT(std::abs(step_b - exact_b), 0.05 * l);
  EXPECT_GT(std::abs(V_a - exact_a) + std::abs(V_b - exact_b), 0.5 * l);
  // energy: the work of the step is -V(delta_{n+1})
  const double W = r.force_a * (s.end_a.centre - s.start_a.centre) +
                   r.moment_a * (s.end_a.rotation - s.start_a.rotation) +
                   r.force_b * (s.end_b.centre - s.start_b.centre) +
                   r.moment_b * (s.end_b.rotation - s.start_b.rotation);
  EXPECT_NEAR(W, -r.normal_energy, 1e-12 * r.normal_energy);
}

namespace
{
  /// A random step of the pair A, B about a contact: the overlap at the start about
  /// @p start_depth (mm; negative: apart), B moved towards A by @p approach (mm) over the
  /// step, both particles moved and turned by random increments of size @p scale (mm).
  Step
  random_step(const Body &a, const Body &b, std::mt19937 &rng, const double start_depth,
              const double approach, const double scale)
  {
    std::uniform_real_distribution<double> U(-1., 1.);
    const double                           l = metric_length(a, b);
    Step                                   s;
    const double                           theta_b = pi * U(rng);
    const double                           angle = pi * U(rng);
    const Tensor<1, 2>                     u = vec(std::cos(angle), std::sin(angle));
    s.start_a = {vec(0.3, -0.2), pi * U(rng)};
    s.start_b = {place_at_depth(a, s.start_a, b, theta_b, u, start_depth), theta_b};
    s.end_a   = {s.start_a.centre + scale * vec(U(rng), U(rng)),
                 s.start_a.rotation + scale * U(rng) / l};
    s.end_b   = {s.start_b.centre + scale * vec(U(rng), U(rng)) - approach * u,
                 s.start_b.rotation + scale * U(rng) / l};
    s.old.tangential_displacement = 1e-3 * U(rng);
    s.old.in_contact              = start_depth > 0.;
    // a warm start a few degrees off the start's common normal, or a cold start
    if (U(rng) > -0.5)
      {
        s.old.has_normal_angle = true;
        s.old.normal_angle =
          overlap(a, s.start_a, b, s.start_b).normal_angle + 0.05 * U(rng);
      }
    s.dt     = 1e-5;
    const double pick = U(rng);
    s.branch = pick < -0.33 ? NormalContactLaw::RateBranch::compression :
               pick < 0.33  ? NormalContactLaw::RateBranch::decompression :
                              NormalContactLaw::RateBranch::by_sign;
    return s;
  }

  /// A random step of the kind @p k % 4: 0 a first touch inside the step, else in contact
  /// at both ends (or opening).
  Step
  random_contact_step(const Body &a, const Body &b, std::mt19937 &rng, const unsigned int k)
  {
    std::uniform_real_distribution<double> U(0., 1.);
    const double scale = std::pow(10., -2. - 2. * U(rng)); // 1e-4 ... 1e-2 mm
    if (k % 4 == 0)
      {
        const double d_0 = -(1e-4 + 2e-3 * U(rng));
        return random_step(a, b, rng, d_0, -d_0 + 1e-4 + 2e-3 * U(rng), 0.1 * scale);
      }
    return random_step(a, b, rng, 2e-4 + 3e-3 * U(rng), 0., scale);
  }
} // namespace

TEST(ParticleParticleContact, WorkOfAStepIsMinusStoredEnergyChangeMinusDissipation)
{
  // Over any step of any pair of default shapes, in stick, slip, closing and opening, with
  // the damped law on either branch: the forces and moments on A and B do the work
  // W = -Delta E - D (E: the law's V + k_T d_T^2 / 2, D >= 0: friction and damping) to
  // round-off, however long the step; a slip that reverses against a dropping normal force
  // is among them (the alpha rule of the spring force keeps its dissipation >= 0).
  const granular::ParticleSurfaceContactParameters p   = contact_parameters(0.3, 3e-5);
  const auto                                       law = create_normal_contact_law(p);
  std::mt19937                                     rng(41);
  std::uniform_real_distribution<double>           U(0., 1.);
  unsigned int n_stick = 0, n_slip = 0, n_open = 0, n_close = 0, n_reversing = 0;
  double       largest = 0.;
  for (const auto &name_a : shape_names)
    for (const auto &name_b : shape_names)
      {
        const Body a(name_a), b(name_b);
        for (unsigned int k = 0; k < 60; ++k)
          {
            // closing, opening, in contact at both ends, or unloading with a long slide
            // (where a slip reverses against a spring stretched beyond the new limit)
            const unsigned int kind  = k % 4;
            const double       scale = kind == 3 ? 0. : std::pow(10., -1.5 - 2.5 * U(rng));
            const double       d_0   = kind == 0 ? -1e-3 * U(rng) :
                                       kind == 3 ? 2e-3 :
                                                   5e-4 + 3e-3 * U(rng);
            const double approach = kind == 0 ? 3e-3 * U(rng) : kind == 1 ? -6e-3 * U(rng) : 0.;
            Step s = random_step(a, b, rng, d_0, approach, scale);
            s.old.tangential_displacement = 3e-3 * (2. * U(rng) - 1.);
            if (kind == 3)
              {
                // B slides along the contact by up to 1e-2 mm and moves out by 1e-3 mm
                const Tensor<1, 2> n = overlap(a, s.start_a, b, s.start_b).normal;
                s.end_b.centre += 1e-3 * n + 1e-2 * (2. * U(rng) - 1.) * vec(-n[1], n[0]);
              }
            const auto r = evaluate(*law, p, a, b, s);
            const std::array<double, 6> S  = generalized_forces(r);
            const std::array<double, 6> dq = {{s.end_a.centre[0] - s.start_a.centre[0],
                                               s.end_a.centre[1] - s.start_a.centre[1],
                                               s.end_a.rotation - s.start_a.rotation,
                                               s.end_b.centre[0] - s.start_b.centre[0],
                                               s.end_b.centre[1] - s.start_b.centre[1],
                                               s.end_b.rotation - s.start_b.rotation}};
            double W = 0., W_size = 0.;
            for (unsigned int i = 0; i < 6; ++i)
              {
                W += S[i] * dq[i];
                W_size += std::abs(S[i] * dq[i]);
              }
            const double E_0 =
              law->stored_energy(r.start_depth, s.old.normal) +
              0.5 * p.tangential_stiffness * s.old.tangential_displacement *
                s.old.tangential_displacement;
            const double E_1  = r.normal_energy + r.tangential_energy;
            const double D    = r.friction_dissipation + r.damping_dissipation;
            const double size = W_size + E_0 + E_1 + D + 1e-30;
            ASSERT_LT(std::abs(W + E_1 - E_0 + D), 1e-9 * size)
              << name_a << " - " << name_b << " case " << k;
            ASSERT_GE(r.friction_dissipation, -1e-13 * size);
            ASSERT_GE(r.damping_dissipation, -1e-13 * size);
            largest = std::max(largest, std::abs(W + E_1 - E_0 + D) / size);
            n_stick += r.in_contact && r.sticking;
            n_slip += r.in_contact && !r.sticking;
            n_open += r.start_depth > 0. && !r.in_contact;
            n_close += r.start_depth < 0. && r.in_contact;
            // a reversing slip against a dropping normal force: the mid-point spring force
            // (alpha = 1/2) would dissipate k_T (d_T,n + d_T,n+1) (trial - d_T,n+1) / 2 < 0
            const double d_T0 = s.old.tangential_displacement,
                         d_T1 = r.history.tangential_displacement;
            n_reversing += r.in_contact && !r.sticking &&
                           (d_T0 + d_T1) * (d_T0 + r.slide - d_T1) < 0.;
          }
      }
  std::cout << "  steps in stick " << n_stick << ", slip " << n_slip << " (reversing "
            << n_reversing << "), opening " << n_open << ", closing " << n_close
            << "; largest |W + Delta E + D| / scale " << largest << std::endl;
  EXPECT_GT(n_stick, 50u);
  EXPECT_GT(n_slip, 50u);
  EXPECT_GT(n_reversing, 10u);
  EXPECT_GT(n_open, 20u);
  EXPECT_GT(n_close, 20u);
}

TEST(ParticleParticleContact, SacadoJacobianMatchesCentralDifferences)
{
  // The exact 6 x 6 Jacobian of the step forces with respect to the end poses (automatic
  // differentiation through the mid-step common normal's Newton step) against central
  // differences of the forces themselves, over random steps of every pair of default shapes
  // in stick, in slip and at a first touch inside the step, on both branches of the damped
  // default law. Cases whose difference quotients straddle a switch (stick/slip, contact,
  // alpha, the law's branch) are recognised by two step sizes disagreeing and left out.
  const granular::ParticleSurfaceContactParameters p   = contact_parameters(0.3, 3e-5);
  const auto                                       law = create_normal_contact_law(p);
  std::mt19937                                     rng(17);
  unsigned int n_cases = 0, n_compared = 0, n_stick = 0, n_slip = 0, n_first_touch = 0;
  double       largest = 0.;
  for (const auto &name_a : shape_names)
    for (const auto &name_b : shape_names)
      {
        const Body   a(name_a), b(name_b);
        const double l = metric_length(a, b);
        for (unsigned int k = 0; k < 40; ++k)
          {
            const Step s = random_contact_step(a, b, rng, k);
            const auto r = evaluate(*law, p, a, b, s);
            if (!r.in_contact)
              continue;
            ++n_cases;
            const auto J = jacobian(*law, p, a, b, s);
            // central differences with the steps h and h/2 (mm; h/l rad for rotations)
            std::array<std::array<double, 6>, 6> fd, fd2;
            const double                         h_1 = 1e-7;
            for (unsigned int col = 0; col < 6; ++col)
              for (const double h : {h_1, 0.5 * h_1})
                {
                  Step         plus = s, minus = s;
                  ParticlePose &pp = col < 3 ? plus.end_a : plus.end_b;
                  ParticlePose &pm = col < 3 ? minus.end_a : minus.end_b;
                  const double step = col % 3 == 2 ? h / l : h;
                  if (col % 3 == 2)
                    pp.rotation += step, pm.rotation -= step;
                  else
                    pp.centre[col % 3] += step, pm.centre[col % 3] -= step;
                  const auto sp = generalized_forces(evaluate(*law, p, a, b, plus));
                  const auto sm = generalized_forces(evaluate(*law, p, a, b, minus));
                  for (unsigned int row = 0; row < 6; ++row)
                    (h == h_1 ? fd : fd2)[row][col] = (sp[row] - sm[row]) / (2. * step);
                }
            // each row against its largest entry, columns per displacement l (a rotation by
            // 1 rad moves the surface by about l)
            bool   smooth = true;
            double error  = 0.;
            for (unsigned int row = 0; row < 6; ++row)
              {
                double size = 1e-30;
                for (unsigned int col = 0; col < 6; ++col)
                  size = std::max(size, std::abs(fd[row][col]) * (col % 3 == 2 ? 1. : l));
                for (unsigned int col = 0; col < 6; ++col)
                  {
                    const double w = col % 3 == 2 ? 1. : l;
                    smooth = smooth && std::abs(fd[row][col] - fd2[row][col]) * w < 1e-6 * size;
                    error  = std::max(error, std::abs(J[row][col] - fd2[row][col]) * w / size);
                  }
              }
            if (!smooth)
              continue;
            ++n_compared;
            n_stick += r.sticking;
            n_slip += !r.sticking;
            n_first_touch += r.start_depth < 0.;
            largest = std::max(largest, error);
            ASSERT_LT(error, 1e-5) << name_a << " - " << name_b << " case " << k
                                   << " (sticking " << r.sticking << ", start depth "
                                   << r.start_depth << " mm)";
          }
      }
  std::cout << "  compared " << n_compared << " of " << n_cases
            << " steps in contact (stick " << n_stick << ", slip " << n_slip
            << ", first touch " << n_first_touch << "); largest relative difference "
            << largest << std::endl;
  EXPECT_GT(n_compared, 9 * n_cases / 10);
  EXPECT_GT(n_stick, 50u);
  EXPECT_GT(n_slip, 50u);
  EXPECT_GT(n_first_touch, 20u);
}

TEST(ParticleParticleContact, ExchangingTheParticlesExchangesTheForces)
{
  // The pair (B, A) with the offset's sign reversed is the same contact: the forces and
  // moments on each particle, the energies, the dissipations and the spring state are the
  // same, the common normal is reversed, and the contact point is the one of the other image.
  const granular::ParticleSurfaceContactParameters p   = contact_parameters(0.3, 3e-5);
  const auto                                       law = create_normal_contact_law(p);
  std::mt19937                                     rng(23);
  unsigned int                                     n_compared = 0;
  double                                           largest    = 0.;
  for (const auto &name_a : shape_names)
    for (const auto &name_b : shape_names)
      {
        const Body   a(name_a), b(name_b);
        const double l = metric_length(a, b);
        for (unsigned int k = 0; k < 12; ++k)
          {
            Step s   = random_contact_step(a, b, rng, k);
            s.offset = vec(k % 3 == 0 ? 0. : k % 3 == 1 ? cell_length : -cell_length, 0.);
            s.start_b.centre -= s.offset;
            s.end_b.centre -= s.offset;
            const auto r = evaluate(*law, p, a, b, s);
            if (!r.in_contact)
              continue;
            Step swapped             = s;
            swapped.start_a          = s.start_b;
            swapped.start_b          = s.start_a;
            swapped.end_a            = s.end_b;
            swapped.end_b            = s.end_a;
            swapped.offset           = -s.offset;
            swapped.old.normal_angle = s.old.normal_angle + pi;
            const auto   q     = evaluate(*law, p, b, a, swapped);
            const double force = r.force_a.norm() + std::abs(r.moment_a) / l +
                                 std::abs(r.moment_b) / l;
            const double energy = r.normal_energy + r.tangential_energy +
                                  r.friction_dissipation + r.damping_dissipation;
            const double error =
              std::max({(q.force_a - r.force_b).norm() / force,
                        (q.force_b - r.force_a).norm() / force,
                        std::abs(q.moment_a - r.moment_b) / l / force,
                        std::abs(q.moment_b - r.moment_a) / l / force,
                        std::abs(q.normal_energy - r.normal_energy) / energy,
                        std::abs(q.tangential_energy - r.tangential_energy) / energy,
                        std::abs(q.friction_dissipation - r.friction_dissipation) / energy,
                        std::abs(q.damping_dissipation - r.damping_dissipation) / energy,
                        (q.normal + r.normal).norm(),
                        (q.contact_point - (r.contact_point - s.offset)).norm() / l});
            largest = std::max(largest, error);
            ASSERT_LT(error, 1e-10) << name_a << " - " << name_b << " case " << k;
            ASSERT_EQ(q.sticking, r.sticking);
            // d_T of a slip is mu f_N / k_T: f_N, a secant of V, carries the round-off of
            // V amplified by |delta| / |Delta delta|
            const double d_T_scale = std::max(std::abs(r.history.tangential_displacement),
                                              p.friction_coefficient * r.normal_force /
                                                p.tangential_stiffness);
            ASSERT_LT(std::abs(q.history.tangential_displacement -
                               r.history.tangential_displacement),
                      1e-10 * d_T_scale);
            // linear momentum: the forces on A and B are opposite to the last bit
            ASSERT_EQ(r.force_a[0], -r.force_b[0]);
            ASSERT_EQ(r.force_a[1], -r.force_b[1]);
            ++n_compared;
          }
      }
  std::cout << "  compared " << n_compared << " steps; largest relative difference " << largest
            << std::endl;
  EXPECT_GT(n_compared, 60u);
}

TEST(ParticleParticleContact, PairAcrossThePeriodicBoundaryEqualsThePairInTheCell)
{
  // A pair whose contact crosses x = 0 or x = L0 (B's image at c_B -+ L0 e1) gives the forces,
  // moments, energies, contact point (shifted) and Jacobian of the same pair moved into the
  // cell by L0 / 2, to round-off.
  const granular::ParticleSurfaceContactParameters p   = contact_parameters(0.3, 3e-5);
  const auto                                       law = create_normal_contact_law(p);
  std::mt19937                                     rng(29);
  unsigned int                                     n_compared = 0;
  double                                           largest = 0., largest_jacobian = 0.;
  for (const auto &name_a : shape_names)
    for (const auto &name_b : shape_names)
      {
        const Body   a(name_a), b(name_b);
        const double l = metric_length(a, b);
        for (unsigned int k = 0; k < 12; ++k)
          {
            // the pair next to x = 0 (B's image to the left of A) or to x = L0
            Step       across = random_contact_step(a, b, rng, k);
            // the midpoint of the centres on the boundary: B's image outside the cell
            const bool left   = across.start_b.centre[0] < across.start_a.centre[0];
            const Tensor<1, 2> to_edge =
              vec((left ? 0. : cell_length) -
                    0.5 * (across.start_a.centre[0] + across.start_b.centre[0]),
                  0.);
            for (ParticlePose *q : {&across.start_a, &across.end_a, &across.start_b, &across.end_b})
              q->centre += to_edge;
            Step inside = across; // the same pair moved by L0/2 into the cell
            for (ParticlePose *q : {&inside.start_a, &inside.end_a, &inside.start_b, &inside.end_b})
              q->centre[0] += left ? 0.5 * cell_length : -0.5 * cell_length;
            // B itself is in the cell, its image touches A
            across.offset = vec(left ? -cell_length : cell_length, 0.);
            across.start_b.centre -= across.offset;
            across.end_b.centre -= across.offset;
            ASSERT_GE(across.start_b.centre[0], 0.);
            ASSERT_LT(across.start_b.centre[0], cell_length);

            const auto r = evaluate(*law, p, a, b, across);
            const auto q = evaluate(*law, p, a, b, inside);
            if (!r.in_contact && !q.in_contact)
              continue;
            ASSERT_EQ(r.in_contact, q.in_contact);
            const double force  = r.force_a.norm() + std::abs(r.moment_a) / l +
                                 std::abs(r.moment_b) / l;
            const double energy = r.normal_energy + r.tangential_energy +
                                  r.friction_dissipation + r.damping_dissipation;
            const Tensor<1, 2> shift = inside.start_a.centre - across.start_a.centre;
            const double       error =
              std::max({(q.force_a - r.force_a).norm() / force,
                        std::abs(q.moment_a - r.moment_a) / l / force,
                        std::abs(q.moment_b - r.moment_b) / l / force,
                        std::abs(q.normal_energy - r.normal_energy) / energy,
                        std::abs(q.tangential_energy - r.tangential_energy) / energy,
                        std::abs(q.friction_dissipation - r.friction_dissipation) / energy,
                        std::abs(q.damping_dissipation - r.damping_dissipation) / energy,
                        (q.contact_point - shift - r.contact_point).norm() / l});
            largest = std::max(largest, error);
            ASSERT_LT(error, 1e-10) << name_a << " - " << name_b << " case " << k;
            const auto J_r = jacobian(*law, p, a, b, across), J_q = jacobian(*law, p, a, b, inside);
            double     size = 0., difference = 0.;
            for (unsigned int i = 0; i < 6; ++i)
              for (unsigned int j = 0; j < 6; ++j)
                {
                  size       = std::max(size, std::abs(J_q[i][j]));
                  difference = std::max(difference, std::abs(J_r[i][j] - J_q[i][j]));
                }
            largest_jacobian = std::max(largest_jacobian, difference / size);
            ASSERT_LT(difference, 1e-8 * size) << name_a << " - " << name_b << " case " << k;
            ++n_compared;
          }
      }
  std::cout << "  compared " << n_compared << " steps; largest relative difference " << largest
            << ", of the Jacobian " << largest_jacobian << std::endl;
  EXPECT_GT(n_compared, 60u);
}

TEST(ParticleParticleContact, ApartAtBothEndsGivesNothingAndBadInputThrows)
{
  // Apart at both ends of the step: no force, no energy; the tangential spring of a contact
  // that opened is released as dissipation; the history keeps the normal for the next warm
  // start. Non-finite poses and a non-positive step are refused.
  const granular::ParticleSurfaceContactParameters p   = contact_parameters(0.3, 3e-5);
  const auto                                       law = create_normal_contact_law(p);
  const Body                                       a("square"), b("elliptical");
  std::mt19937                                     rng(31);
  Step s = random_step(a, b, rng, -1e-3, 0., 1e-4);
  s.old.tangential_displacement = 2e-4;
  const auto r = evaluate(*law, p, a, b, s);
  EXPECT_LT(r.depth, 0.);
  EXPECT_LT(r.start_depth, 0.);
  EXPECT_FALSE(r.in_contact);
  for (const double f : generalized_forces(r))
    EXPECT_EQ(f, 0.);
  EXPECT_EQ(r.normal_energy, 0.);
  EXPECT_EQ(r.tangential_energy, 0.);
  EXPECT_EQ(r.damping_dissipation, 0.);
  EXPECT_DOUBLE_EQ(r.friction_dissipation, 0.5 * p.tangential_stiffness * 4e-8);
  EXPECT_EQ(r.history.tangential_displacement, 0.);
  EXPECT_FALSE(r.history.in_contact);
  EXPECT_TRUE(r.history.has_normal_angle);
  EXPECT_NEAR(std::cos(r.history.normal_angle), r.normal[0], 1e-15);
  for (const auto &row : jacobian(*law, p, a, b, s))
    for (const double x : row)
      EXPECT_EQ(x, 0.);

  Step bad = s;
  bad.dt   = 0.;
  EXPECT_THROW(evaluate(*law, p, a, b, bad), std::invalid_argument);
  bad          = s;
  bad.end_b.rotation = std::nan("");
  EXPECT_THROW(evaluate(*law, p, a, b, bad), std::invalid_argument);
  EXPECT_THROW(jacobian(*law, p, a, b, bad), std::invalid_argument);
  bad        = s;
  bad.offset = vec(std::numeric_limits<double>::infinity(), 0.);
  EXPECT_THROW(evaluate(*law, p, a, b, bad), std::invalid_argument);
}
