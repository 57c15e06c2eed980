// The Coulomb return mapping shared by the three frictional interfaces (docs/methods.md §5.2, §6):
// the stick condition at the boundary |t^tr| = mu p, the radial return, the slip increment,
// the consistent tangent against finite differences, and the same law seen through each
// interface.
#include "contact/coulomb_return_mapping.h"
#include "contact/particle_surface_contact.h"
#include "contact/rubber_particle_contact.h"
#include "contact/rubber_surface_contact.h"
#include "geometry/superellipse.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>

using namespace granular;
using namespace granular::contact;

namespace
{
  constexpr double eps_T = 2., mu = 0.5, p = 1.;
  // exactly representable: |t^tr| = eps_T g = 0.5 = mu p at g = 0.25
  constexpr double g_boundary = 0.25;
} // namespace

TEST(CoulombReturnMapping, SticksAtTheCoulombLimitAndSlipsJustBeyond)
{
  for (const double sign : {1., -1.})
    {
      const auto at = coulomb_return_mapping(sign * g_boundary, eps_T, mu, p);
      ASSERT_EQ(std::abs(at.trial_traction), mu * p); // the boundary, exactly
      EXPECT_TRUE(at.sticking);
      EXPECT_EQ(at.traction, -sign * mu * p);
      EXPECT_EQ(at.slip, 0.);
      EXPECT_EQ(at.dtraction_dgap, -eps_T);
      EXPECT_EQ(at.dtraction_dpressure, 0.);

      const double beyond = std::nextafter(g_boundary, 1.);
      const auto   b      = coulomb_return_mapping(sign * beyond, eps_T, mu, p);
      EXPECT_FALSE(b.sticking);
      EXPECT_EQ(b.traction, -sign * mu * p); // radial return onto the limit
      EXPECT_GT(b.slip, 0.);
      EXPECT_EQ(b.dtraction_dgap, 0.);
      EXPECT_EQ(b.dtraction_dpressure, -sign * mu);
    }
}

TEST(CoulombReturnMapping, SlipIncrementRestoresTheReturnedSpring)
{
  // the trial gap splits into the returned elastic gap -t / eps_T and the slip
  for (const double g : {0.3, -0.7, 4.0, -12.5})
    {
      const auto r = coulomb_return_mapping(g, eps_T, mu, p);
      ASSERT_FALSE(r.sticking);
      const double elastic = -r.traction / eps_T;
      EXPECT_NEAR(std::abs(g - elastic), r.slip, 1e-14);
      EXPECT_NEAR(r.slip, (eps_T * std::abs(g) - mu * p) / eps_T, 1e-14);
      // the slip goes the way of the trial gap, and dissipates |t| slip >= 0
      EXPECT_GT((g - elastic) * g, 0.);
    }
}

TEST(CoulombReturnMapping, FrictionlessOrUncompressedContactHasNoTangentialResistance)
{
  // mu p = 0: always slip with t = 0 and no stiffness, even at a zero trial traction
  for (const double g : {0., 1e-3, -1e-3})
    for (const auto &[m, pressure] : {std::pair{0., 1.}, std::pair{0.5, 0.}, std::pair{0.5, -1.}})
      {
        const auto r = coulomb_return_mapping(g, eps_T, m, pressure);
        EXPECT_FALSE(r.sticking) << g << " " << m << " " << pressure;
        EXPECT_EQ(r.traction, 0.);
        EXPECT_EQ(r.dtraction_dgap, 0.);
        EXPECT_NEAR(r.slip, std::abs(g), 1e-15);
      }
}

TEST(CoulombReturnMapping, ConsistentTangentMatchesFiniteDifferences)
{
  // away from the stick/slip boundary the mapping is smooth in (g, p)
  const double h = 1e-7;
  for (const double g : {0.1, -0.15, 0.6, -3.}) // stick, stick, slip, slip
    for (const double pressure : {0.8, 1.7})
      {
        const auto   r       = coulomb_return_mapping(g, eps_T, mu, pressure);
        const double dt_dg   = (coulomb_return_mapping(g + h, eps_T, mu, pressure).traction -
                              coulomb_return_mapping(g - h, eps_T, mu, pressure).traction) /
                             (2. * h);
        const double dt_dp = (coulomb_return_mapping(g, eps_T, mu, pressure + h).traction -
                              coulomb_return_mapping(g, eps_T, mu, pressure - h).traction) /
                             (2. * h);
        EXPECT_NEAR(r.dtraction_dgap, dt_dg, 1e-7) << g << " " << pressure;
        EXPECT_NEAR(r.dtraction_dpressure, dt_dp, 1e-7) << g << " " << pressure;
      }
}

TEST(CoulombReturnMapping, EveryInterfaceSticksAtItsCoulombLimit)
{
  // The same boundary case through each interface's kinematics: |t^tr| = mu p exactly
  // sticks, the next representable trial beyond it slips.
  PenaltyContactParameters penalty;
  penalty.normal_penalty       = 2.; // t_N = 2 at a penetration of 1 mm
  penalty.tangential_penalty   = eps_T;
  penalty.friction_coefficient = mu;
  const double limit           = mu * 2.; // = 1 = eps_T * 0.5

  // rubber-surface: trial gap x1 - anchor
  {
    SurfaceContactHistory h;
    h.in_contact = true;
    h.anchor     = 0.;
    const dealii::Tensor<1, 2> at({0.5, -1.}), beyond({std::nextafter(0.5, 1.), -1.});
    const auto                 s = rubber_surface_contact(at, at, h, penalty);
    EXPECT_FALSE(s.slipping);
    EXPECT_EQ(s.traction[0], -limit);
    EXPECT_EQ(s.tangent[0][0], -eps_T);
    const auto t = rubber_surface_contact(beyond, beyond, h, penalty);
    EXPECT_TRUE(t.slipping);
    EXPECT_EQ(t.traction[0], -limit);
    EXPECT_EQ(t.tangent[0][0], 0.);
  }
  // particle-surface: trial displacement d_T^old + slide (0 here: the particle is at rest),
  // force law f_T = -k_T d_T
  {
    ParticleSurfaceContactParameters ps;
    ps.friction_coefficient = mu;
    ps.tangential_stiffness = eps_T; // a power of two: -k_T (mu f_N / k_T) = -mu f_N exactly
    ps.damping              = 0.;
    const auto law          = create_normal_contact_law(ps);
    const geometry::Superellipse disc(geometry::SuperellipseShape::named("circular", 0.5));
    const dealii::Tensor<1, 2>   c({1., 0.5 - 1e-4}), zero;
    ParticleSurfaceContactHistory old;
    const double f_N =
      particle_surface_contact(disc, *law, ps, {c, zero, 0., 0.}, old, 1e-6).normal_force;
    ASSERT_GT(f_N, 0.);
    old.tangential_displacement = mu * f_N / eps_T; // f_T^tr = -mu f_N: on the limit
    const auto r = particle_surface_contact(disc, *law, ps, {c, zero, 0., 0.}, old, 1e-6);
    EXPECT_TRUE(r.sticking);
    EXPECT_EQ(r.tangential_force, -mu * f_N);
    EXPECT_EQ(r.friction_dissipation, 0.);
    old.tangential_displacement = std::nextafter(mu * f_N / eps_T, 1.);
    const auto s = particle_surface_contact(disc, *law, ps, {c, zero, 0., 0.}, old, 1e-6);
    EXPECT_FALSE(s.sticking);
    EXPECT_EQ(s.tangential_force, -mu * f_N);
    EXPECT_GT(s.friction_dissipation, 0.);
  }
}

// The rubber-surface contact's Coulomb dissipation by the trapezoidal rule
// (rubber_surface_step_dissipation(), docs/methods.md §6): over every step, also the one in
// which the point enters contact, sticks back or leaves it, the work of the tangential
// traction on the rubber point, W = (t_n + t_{n+1}) / 2 Delta x1, plus the change of the
// tangential spring's energy plus the dissipation is zero. The return mapping's
// backward-Euler count |t_{n+1}| Delta anchor misses it by more than 1 % of the dissipation
// here, where the normal traction falls while the point slips.
TEST(CoulombReturnMapping, SurfaceDissipationClosesTheTangentialBalanceOfEveryStep)
{
  const PenaltyContactParameters p; // eps_N 1e5, eps_T 1e3 MPa/mm, k_o 0.5
  SurfaceContactHistory          h;
  dealii::Tensor<1, 2>           x({0., 1e-5}); // above the surface
  double t_old = 0., spring_old = 0., total = 0., worst = 0., backward_euler_residual = 0.;
  unsigned int slipping = 0, sticking = 0;
  auto step = [&](const dealii::Tensor<1, 2> &x_new) {
    const auto   r = rubber_surface_contact(x_new, x, h, p);
    const double d = rubber_surface_step_dissipation(x, x_new, h, r, p.tangential_penalty);
    EXPECT_GE(d, 0.);
    const double t      = r.traction[0];
    const double work   = 0.5 * (t_old + t) * (x_new[0] - x[0]); // on the rubber point
    const double gap    = r.trial.in_contact ? x_new[0] - r.trial.anchor : 0.;
    const double spring = 0.5 * p.tangential_penalty * gap * gap;
    worst = std::max(worst, std::abs(work + (spring - spring_old) + d));
    backward_euler_residual += work + (spring - spring_old) + std::abs(t) * r.slip_increment;
    slipping += r.slipping, sticking += r.trial.in_contact && !r.slipping;
    total += d;
    h = r.trial, x = x_new, t_old = t, spring_old = spring;
  };
  step(dealii::Tensor<1, 2>({2e-4, -2e-4})); // enters contact and sticks (t_T = -0.2 MPa)
  // dragged by 4e-3 mm a step while the penetration falls from 2e-4 to 1e-4 mm: the
  // Coulomb limit k_o eps_N |x2| falls from 10 to 5 MPa
  for (unsigned int n = 1; n <= 20; ++n)
    step(dealii::Tensor<1, 2>({2e-4 + 4e-3 * n, -2e-4 + 5e-6 * n}));
  ASSERT_GT(slipping, 15u);
  const double spring = spring_old;
  step(x + dealii::Tensor<1, 2>({-1e-3, 0.})); // back by 1e-3 mm: sticks, the spring relaxes
  ASSERT_TRUE(h.in_contact);
  EXPECT_LT(spring_old, spring);
  // lifted off while moving on by 1e-3 mm: the spring's energy, less the work of t_n
  const double t_n = t_old, released = spring_old, before = total;
  step(dealii::Tensor<1, 2>({x[0] + 1e-3, 1e-6}));
  ASSERT_FALSE(h.in_contact);
  EXPECT_NEAR(total - before, released - 0.5 * t_n * 1e-3, 1e-12 * released);
  EXPECT_GE(sticking, 2u);
  std::cout << "[ contact ] largest |W + dE + D| of a step / D = " << worst / total
            << "; backward Euler: sum of W + dE + D = " << backward_euler_residual
            << " of D " << total << std::endl;
  EXPECT_LT(worst, 1e-10 * total);
  EXPECT_GT(std::abs(backward_euler_residual), 1e-2 * total);
}

// The regularised normal penalty of the rubber's contacts (contact/normal_penalty.h).
#include "contact/normal_penalty.h"

TEST(NormalPenalty, RegularisedLawIsC1WithItsEnergyAndTheSharpLawAsItsLimit)
{
  using granular::contact::normal_penalty;
  const double eps = 1e5, w = 1e-4;
  // continuity of t_N and of its stiffness at g = 0 and g = -w
  for (const double g : {0., -w})
    {
      const auto below = normal_penalty(g * (1. + 1e-9) - 1e-15, eps, w);
      const auto above = normal_penalty(g * (1. - 1e-9) + 1e-15, eps, w);
      // the two gaps are 2e-9 w apart: a jump would be of order eps w
      EXPECT_NEAR(below.traction, above.traction, 1e-6 * eps * w) << "g = " << g;
      EXPECT_NEAR(below.stiffness, above.stiffness, 1e-6 * eps) << "g = " << g;
    }
  // stiffness = -dt/dg and t = -dphi/dg by central differences, in the ramp and beyond
  for (const double g : {-0.1 * w, -0.5 * w, -0.9 * w, -1.5 * w, -10. * w})
    {
      const double h = 1e-6 * w;
      const auto   r = normal_penalty(g, eps, w), a = normal_penalty(g + h, eps, w),
                 b = normal_penalty(g - h, eps, w);
      EXPECT_NEAR(r.stiffness, -(a.traction - b.traction) / (2. * h), 1e-6 * eps) << g;
      EXPECT_NEAR(r.traction, -(a.energy - b.energy) / (2. * h), 1e-6 * eps * w) << g;
    }
  // beyond the ramp: the sharp law shifted by w/2
  EXPECT_NEAR(normal_penalty(-3. * w, eps, w).traction, eps * 2.5 * w, 1e-12 * eps * w);
  // w = 0 is the sharp law (traction and stiffness bit for bit), and w -> 0 converges to it
  for (const double g : {1e-5, -1e-7, -3e-4})
    {
      const auto sharp = normal_penalty(g, eps, 0.);
      EXPECT_EQ(sharp.traction, g < 0. ? -eps * g : 0.);
      EXPECT_EQ(sharp.stiffness, g < 0. ? eps : 0.);
      EXPECT_DOUBLE_EQ(sharp.energy, g < 0. ? 0.5 * eps * g * g : 0.);
      for (const double width : {1e-6, 1e-8, 1e-10})
        EXPECT_NEAR(normal_penalty(g, eps, width).traction, sharp.traction, eps * width) << g;
    }
  // no traction outside contact
  EXPECT_EQ(normal_penalty(1e-6, eps, w).traction, 0.);
}
