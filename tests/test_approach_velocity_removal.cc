// The velocity update of a rubber contact point at the start of a step
// (contact::remove_approach_velocity(), docs/methods.md §6.1): a perfectly inelastic impulse
// along the normal between a two-node face and a rigid body. Checked against the rigid-body
// impulse relations: the point stops relative to the body, momentum is conserved, the two
// bodies lose 1/2 mu v_N^2, the change of the nodal velocities is the least in the mass norm,
// and a separating point is left alone.
#include "contact/approach_velocity_removal.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>

namespace
{
  using dealii::Tensor;
  using granular::contact::remove_approach_velocity;

  Tensor<1, 2> vec(const double x, const double y) { return Tensor<1, 2>({x, y}); }
  double       cross(const Tensor<1, 2> &a, const Tensor<1, 2> &b)
  {
    return a[0] * b[1] - a[1] * b[0];
  }

  /// A random impact: a face's nodes striking a rigid body (mass M, moment of inertia I,
  /// velocity V, angular velocity W) at the arm r from its centre. Units mm, s, t per mm.
  struct Impact
  {
    double       N_a, N_b, m_a, m_b, M, I, W;
    Tensor<1, 2> v_a, v_b, V, r, n;
    Tensor<1, 2> body_point_velocity() const { return V + W * vec(-r[1], r[0]); }
    double       body_inverse_mass() const
    {
      return 1. / M + cross(r, n) * cross(r, n) / I;
    }
    double rubber_energy(const Tensor<1, 2> &a, const Tensor<1, 2> &b) const
    {
      return 0.5 * m_a * (a * a) + 0.5 * m_b * (b * b);
    }
    double body_energy(const Tensor<1, 2> &velocity, const double omega) const
    {
      return 0.5 * M * (velocity * velocity) + 0.5 * I * omega * omega;
    }
  };

  /// Impacts with nodal masses of 1e-13 t/mm and a body 1e3 to 1e5 times heavier, the
  /// point approaching the body.
  Impact random_impact(std::mt19937 &rng)
  {
    std::uniform_real_distribution<double> u(0., 1.), s(-1., 1.);
    Impact                                 c;
    c.N_a         = u(rng);
    c.N_b         = 1. - c.N_a;
    c.m_a         = 1e-13 * (0.5 + u(rng));
    c.m_b         = 1e-13 * (0.5 + u(rng));
    c.M           = 1e-13 * std::pow(10., 3. + 2. * u(rng));
    c.I           = c.M * 0.3 * (0.5 + u(rng));
    c.W           = 2e4 * s(rng);
    const double a = 2. * M_PI * u(rng);
    c.n           = vec(std::cos(a), std::sin(a));
    c.r           = 0.5 * c.n + 0.2 * vec(-c.n[1], c.n[0]) * s(rng);
    c.V           = 2e3 * vec(s(rng), s(rng));
    c.v_a         = 5e3 * vec(s(rng), s(rng));
    c.v_b         = 5e3 * vec(s(rng), s(rng));
    // make the point approach the body at 1 to 10 m/s
    const Tensor<1, 2> v  = c.N_a * c.v_a + c.N_b * c.v_b;
    const double       vN = (v - c.body_point_velocity()) * c.n;
    const double       target = -1e3 * (1. + 9. * u(rng));
    c.v_a += (target - vN) * c.n;
    c.v_b += (target - vN) * c.n;
    return c;
  }
} // namespace

TEST(ApproachVelocityRemoval, PerfectlyInelasticImpulseOfTheFaceAndTheBody)
{
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial)
    {
      const Impact c = random_impact(rng);
      const auto   r = remove_approach_velocity(c.N_a, c.N_b, c.m_a, c.m_b, c.v_a, c.v_b, c.n,
                                              c.body_point_velocity(), c.body_inverse_mass());
      ASSERT_TRUE(r.updated);
      ASSERT_GT(r.impulse, 0.);
      // the body takes -lambda n at r (what fem::RubberBlock hands to the obstacle)
      const Tensor<1, 2> J     = -r.impulse * c.n;
      const Tensor<1, 2> V     = c.V + J / c.M;
      const double       W     = c.W + cross(c.r, J) / c.I;
      const Tensor<1, 2> w_new = V + W * vec(-c.r[1], c.r[0]);
      const Tensor<1, 2> v_old = c.N_a * c.v_a + c.N_b * c.v_b;
      const Tensor<1, 2> v_new = c.N_a * r.velocity_a + c.N_b * r.velocity_b;
      const double       scale = std::abs((v_old - c.body_point_velocity()) * c.n);
      // the point no longer approaches the body, and slides on it as before
      EXPECT_NEAR((v_new - w_new) * c.n, 0., 1e-12 * scale);
      const Tensor<1, 2> t({-c.n[1], c.n[0]});
      EXPECT_NEAR(v_new * t, v_old * t, 1e-12 * scale);
      // linear momentum of the face's nodes and the body is conserved
      const Tensor<1, 2> p_old = c.m_a * c.v_a + c.m_b * c.v_b + c.M * c.V;
      const Tensor<1, 2> p_new = c.m_a * r.velocity_a + c.m_b * r.velocity_b + c.M * V;
      EXPECT_LT((p_new - p_old).norm(), 1e-12 * c.M * 1e3);
      // the energy returned is what the two bodies lose, 1/2 mu v_N^2 > 0
      const double before = c.rubber_energy(c.v_a, c.v_b) + c.body_energy(c.V, c.W);
      const double lost = before - c.rubber_energy(r.velocity_a, r.velocity_b) - c.body_energy(V, W);
      EXPECT_GT(r.removed_energy, 0.);
      // to the round-off of the kinetic energies (the body's is 1e5 to 1e8 times larger)
      EXPECT_NEAR(r.removed_energy, lost, 1e-14 * before);
    }
}

TEST(ApproachVelocityRemoval, NodalChangeIsTheLeastInTheMassNorm)
{
  // any other change of the two nodal velocities that delivers the same impulse to the point
  // along n (the same N_a dv_a + N_b dv_b . n) is larger in sum m |dv|^2
  std::mt19937                           rng(11);
  std::uniform_real_distribution<double> s(-1., 1.);
  for (int trial = 0; trial < 50; ++trial)
    {
      const Impact c = random_impact(rng);
      const auto   r = remove_approach_velocity(c.N_a, c.N_b, c.m_a, c.m_b, c.v_a, c.v_b, c.n,
                                              c.body_point_velocity(), c.body_inverse_mass());
      const Tensor<1, 2> da = r.velocity_a - c.v_a, db = r.velocity_b - c.v_b;
      const double       least = c.m_a * (da * da) + c.m_b * (db * db);
      for (int k = 0; k < 20; ++k)
        {
          // a change that keeps (N_a da + N_b db) . n
          Tensor<1, 2> ea = 1e2 * vec(s(rng), s(rng)), eb = 1e2 * vec(s(rng), s(rng));
          const double off = (c.N_a * ea + c.N_b * eb) * c.n;
          if (c.N_b > 0.1)
            eb -= off / c.N_b * c.n;
          else
            ea -= off / c.N_a * c.n;
          ASSERT_NEAR((c.N_a * ea + c.N_b * eb) * c.n, 0., 1e-9);
          const Tensor<1, 2> fa = da + ea, fb = db + eb;
          EXPECT_GT(c.m_a * (fa * fa) + c.m_b * (fb * fb), least);
        }
    }
}

TEST(ApproachVelocityRemoval, SeparatingPointAndFixedObstacle)
{
  const Tensor<1, 2> n = vec(0., 1.);
  // moving away from the obstacle, or sliding along it: untouched
  for (const double vN : {1e3, 0.})
    {
      const auto r = remove_approach_velocity(0.3, 0.7, 1e-13, 2e-13, vec(40., vN),
                                              vec(-40., vN), n, vec(0., 0.), 1e9);
      EXPECT_FALSE(r.updated);
      EXPECT_EQ(r.removed_energy, 0.);
      EXPECT_EQ(r.velocity_a, vec(40., vN));
      EXPECT_EQ(r.velocity_b, vec(-40., vN));
    }
  // a fixed obstacle (inverse mass 0) takes the point's whole normal kinetic energy: a node
  // (N_a = 1) striking at 2 m/s loses 1/2 m v^2 and keeps its tangential velocity
  const auto r =
    remove_approach_velocity(1., 0., 1e-13, 3e-13, vec(500., -2e3), vec(7., 9.), n, vec(0., 0.), 0.);
  EXPECT_TRUE(r.updated);
  EXPECT_NEAR(r.removed_energy, 0.5 * 1e-13 * 4e6, 1e-12 * 0.5 * 1e-13 * 4e6);
  EXPECT_NEAR(r.velocity_a[0], 500., 1e-12);
  EXPECT_NEAR(r.velocity_a[1], 0., 1e-9);
  EXPECT_EQ(r.velocity_b, vec(7., 9.));
  EXPECT_THROW(remove_approach_velocity(0.5, 0.5, 0., 1e-13, vec(0., -1.), vec(0., -1.), n,
                                        vec(0., 0.), 0.),
               std::invalid_argument);
  EXPECT_THROW(remove_approach_velocity(0.5, 0.5, 1e-13, 1e-13, vec(0., -1.), vec(0., -1.),
                                        2. * n, vec(0., 0.), 0.),
               std::invalid_argument);
  EXPECT_THROW(remove_approach_velocity(0.5, 0.5, 1e-13, 1e-13, vec(0., -1.), vec(0., -1.), n,
                                        vec(0., 0.), -1.),
               std::invalid_argument);
}
