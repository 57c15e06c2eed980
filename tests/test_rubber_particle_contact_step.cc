// The energy-consistent rubber-particle contact over a step (contact::rubber_particle_contact_step,
// the discrete gradient of the penalty potential with an incremental tangential gap): its work
// over any step is minus the change of its stored energy minus a non-negative dissipation, to
// round-off, also for steps far longer than the penetration (a snapping rubber point); its
// traction tends to the exact one at the midpoint at second order; its tangent matches central
// finite differences in every branch (normal only, stick, slip, slip reversing against a
// falling normal traction).
#include <contact/rubber_particle_contact.h>
#include <geometry/superellipse.h>

#include "test_helpers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

using namespace granular;
using namespace granular::contact;
using dealii::Tensor;
using granular::testing::vec;

namespace
{
  PenaltyContactParameters
  penalties() // the parameter files' rubber-particle defaults (docs/methods.md §6)
  {
    PenaltyContactParameters p;
    p.normal_penalty       = 1e5;
    p.tangential_penalty   = 1e3;
    p.friction_coefficient = 0.5;
    return p;
  }

  geometry::Superellipse
  shape(const std::string &name)
  {
    return geometry::Superellipse(geometry::SuperellipseShape::named(name, 0.5));
  }

  /// The point at depth @p depth (mm, > 0 inside) below the outline point at parameter @p t.
  Tensor<1, 2>
  below(const geometry::Superellipse &s, const double t, const double depth)
  {
    const auto  &sh = s.shape();
    const double c = std::cos(t), si = std::sin(t);
    const Tensor<1, 2> y = vec(sh.r1 * (c < 0 ? -1. : 1.) * std::pow(std::abs(c), 2. / sh.p1),
                               sh.r2 * (si < 0 ? -1. : 1.) * std::pow(std::abs(si), 2. / sh.p2));
    return y - depth * s.outward_normal(y);
  }

  /// traction . Delta m + Delta E + D, the energy the step created (N/mm), and its scale.
  std::pair<double, double>
  created(const ParticleContactStep &r, const Tensor<1, 2> &m0, const Tensor<1, 2> &m1)
  {
    const double W = r.traction * (m1 - m0);
    return {W + (r.energy_end - r.energy_start) + r.dissipation,
            std::abs(W) + r.energy_end + r.energy_start + r.dissipation};
  }

  /// max |A_ij - B_ij| / max |B_ij|
  double
  relative_difference(const Tensor<2, 2> &A, const Tensor<2, 2> &B)
  {
    double d = 0., s = 0.;
    for (unsigned int i = 0; i < 2; ++i)
      for (unsigned int j = 0; j < 2; ++j)
        {
          d = std::max(d, std::abs(A[i][j] - B[i][j]));
          s = std::max(s, std::abs(B[i][j]));
        }
    return d / s;
  }

  Tensor<2, 2>
  finite_difference_tangent(const Tensor<1, 2> &m0, const Tensor<1, 2> &m1,
                            const ParticleContactStepState &start,
                            const geometry::Superellipse &s, const PenaltyContactParameters &p)
  {
    const double h = 1e-9; // mm, well below the penetrations of 1e-4 mm
    Tensor<2, 2> T;
    for (unsigned int j = 0; j < 2; ++j)
      {
        Tensor<1, 2> mp = m1, mm = m1;
        mp[j] += h;
        mm[j] -= h;
        const Tensor<1, 2> d = (rubber_particle_contact_step(m0, mp, start, s, p).traction -
                                rubber_particle_contact_step(m0, mm, start, s, p).traction) /
                               (2. * h);
        for (unsigned int i = 0; i < 2; ++i)
          T[i][j] = d[i];
      }
    return T;
  }
} // namespace

// Random steps of the circle, the ellipse and the rectangle: rubber points starting inside
// or just outside the particle, in or out of contact with a random elastic gap, moving by
// 1e-6 to 5e-2 mm (a snap of the light rubber moves a point by up to 0.07 mm in one step
// against penetrations of 1e-4 mm), a quarter of those in contact sliding back past the
// Coulomb limit. Every step's work is minus the change of the stored energy minus the
// dissipation to 1e-12 of the terms (1e-20 N/mm where all vanish), the dissipation is never negative, and
// the random steps cover stick, slip, a reversing slip, entering and leaving contact.
TEST(RubberParticleContactStep, WorkEqualsMinusStoredEnergyChangeMinusDissipation)
{
  const PenaltyContactParameters p = penalties();
  std::mt19937                   rng(20261126);
  std::uniform_real_distribution<double> uni(0., 1.);
  unsigned int stick = 0, slip = 0, reversal = 0, entering = 0, leaving = 0;
  double       worst = 0.;
  for (const std::string name : {"circular", "elliptical", "rectangular"})
    {
      const geometry::Superellipse s = shape(name);
      for (unsigned int k = 0; k < 4000; ++k)
        {
          const double t     = 2. * M_PI * uni(rng);
          const double depth = -2e-4 + 6e-4 * uni(rng); // outside up to 2e-4, inside 4e-4
          const Tensor<1, 2> m0 = below(s, t, depth);
          const double       size = std::pow(10., -6. + 4.7 * uni(rng));
          const double       phi  = 2. * M_PI * uni(rng);
          Tensor<1, 2>       m1   = m0 + size * vec(std::cos(phi), std::sin(phi));
          ParticleContactStepState start;
          start.in_contact     = depth > 0.;
          const double limit0  = p.friction_coefficient * p.normal_penalty * std::max(depth, 0.) /
                                p.tangential_penalty;
          // half of the points slide at about the Coulomb limit (where slips reverse)
          const double u       = uni(rng);
          start.tangential_gap = !start.in_contact ? 0. :
                                 u < 0.5          ? limit0 * (4. * u - 1.) :
                                                    limit0 * (u < 0.75 ? 1. : -1.) *
                                                      (0.8 + 0.2 * uni(rng));
          if (start.in_contact && uni(rng) < 0.25)
            {
              // a slide against the elastic gap, past the Coulomb limit, while the point
              // moves out by a part of its depth: a reversing slip under a falling traction
              const Tensor<1, 2> n = s.outward_normal(below(s, t, 0.));
              const double sign = start.tangential_gap > 0. ? 1. : -1.;
              m1 = m0 - sign * limit0 * (1.5 + uni(rng)) * vec(-n[1], n[0]) +
                   0.6 * depth * uni(rng) * n;
            }
          const ParticleContactStep r = rubber_particle_contact_step(m0, m1, start, s, p);
          const auto [R, scale]       = created(r, m0, m1);
          if (scale > 0.)
            worst = std::max(worst, std::abs(R) / scale);
          EXPECT_LE(std::abs(R), 1e-12 * scale + 1e-20) << name << " step " << k << ": W "
            << r.traction * (m1 - m0) << ", E " << r.energy_start << " -> " << r.energy_end
            << ", D " << r.dissipation;
          EXPECT_GE(r.dissipation, -1e-14 * scale) << name << " step " << k;
          stick += start.in_contact && r.end.in_contact && !r.slipping;
          slip += r.slipping;
          reversal += r.slipping && start.tangential_gap * r.end.tangential_gap < 0. &&
                      std::abs(r.dissipation) < 1e-12 * scale; // alpha > 1/2 made D zero
          entering += !start.in_contact && r.end.in_contact;
          leaving += start.in_contact && !r.end.in_contact;
        }
    }
  std::cout << "largest created energy / scale " << worst << "; stick " << stick << ", slip "
            << slip << " (reversing " << reversal << "), entering " << entering
            << ", leaving " << leaving << "\n";
  EXPECT_GT(stick, 100u);
  EXPECT_GT(slip, 100u);
  EXPECT_GT(reversal, 5u);
  EXPECT_GT(entering, 100u);
  EXPECT_GT(leaving, 100u);
}

// Without friction the step's traction on a rubber point moving inside the ellipse is the
// exact penalty traction t_N n at the midpoint of the step up to O(h^2): halving the step
// divides the difference by 4 (between 3.5 and 4.5 here).
TEST(RubberParticleContactStep, TendsToTheExactTractionAtTheMidpointAtSecondOrder)
{
  PenaltyContactParameters p = penalties();
  p.friction_coefficient     = 0.;
  const geometry::Superellipse s = shape("elliptical");
  const Tensor<1, 2> m0 = below(s, 0.7, 3e-4);
  const Tensor<1, 2> d  = vec(0.6, -0.8);
  ParticleContactStepState start;
  start.in_contact = true;
  double previous  = 0.;
  for (const double h : {2e-2, 1e-2, 5e-3, 2.5e-3})
    {
      const Tensor<1, 2> m1 = m0 + (1e-4 / 2e-2) * h * d; // stays inside: depth 3e-4 +- 1e-4
      const Tensor<1, 2> mid = 0.5 * (m0 + m1);
      const ParticleContactResponse exact =
        rubber_particle_contact(mid, ParticleContactHistory(), ParticlePose(), s, p);
      ASSERT_TRUE(exact.in_contact);
      const double error =
        (rubber_particle_contact_step(m0, m1, start, s, p).traction - exact.traction).norm();
      if (previous > 0.)
        {
          EXPECT_GT(previous / error, 3.5) << "h = " << h;
          EXPECT_LT(previous / error, 4.5) << "h = " << h;
        }
      previous = error;
    }
}

// The consistent tangent d traction / d m_{n+1} against central differences in each branch
// (to 1e-5 of its largest entry), on the rectangle's rounded corner and the ellipse.
TEST(RubberParticleContactStep, TangentMatchesFiniteDifferencesInEveryBranch)
{
  PenaltyContactParameters p = penalties();
  p.tangential_penalty       = 1e4; // a Coulomb gap of 1e-3 mm: slides that stay in contact
  for (const std::string name : {"elliptical", "rectangular"})
    {
      const geometry::Superellipse s = shape(name);
      const double t = name == "rectangular" ? 0.6 : 1.1;
      const Tensor<1, 2> m0 = below(s, t, 2e-4);
      const Tensor<1, 2> n  = s.outward_normal(below(s, t, 0.));
      const Tensor<1, 2> a  = vec(-n[1], n[0]);
      const double limit0 = p.friction_coefficient * p.normal_penalty * 2e-4 /
                            p.tangential_penalty; // the Coulomb gap at t_n (1e-3 mm)
      struct Case
      {
        const char              *branch;
        bool                     in_contact;
        double                   gap;
        Tensor<1, 2>             step;
      };
      const Case cases[] = {
        {"entering (normal only)", false, 0., 1e-5 * a + 5e-5 * n},
        {"stick", true, 0.2 * limit0, 1e-4 * a - 2e-5 * n},
        {"slip", true, 0.9 * limit0, 5e-4 * a + 3e-5 * n},
        // the normal traction halves and the slide reverses beyond the new limit: alpha > 1/2
        {"reversing slip", true, 0.9 * limit0, -1.6 * limit0 * a + 1e-4 * n}};
      for (const Case &c : cases)
        {
          ParticleContactStepState start;
          start.in_contact              = c.in_contact;
          start.tangential_gap          = c.gap;
          const Tensor<1, 2>         m1 = m0 + c.step;
          const ParticleContactStep  r  = rubber_particle_contact_step(m0, m1, start, s, p);
          ASSERT_TRUE(r.end.in_contact) << name << ", " << c.branch;
          const std::string branch = c.branch;
          if (branch == "slip" || branch == "reversing slip")
            {
              EXPECT_TRUE(r.slipping) << name << ", " << branch;
            }
          if (branch == "reversing slip")
            {
              EXPECT_NEAR(r.dissipation, 0., 1e-15) << name << ": alpha > 1/2 makes D zero";
            }
          if (branch == "stick")
            {
              EXPECT_FALSE(r.slipping) << name;
            }
          const Tensor<2, 2> fd = finite_difference_tangent(m0, m1, start, s, p);
          EXPECT_LT(relative_difference(r.dtraction_dm, fd), 1e-5)
            << name << ", " << c.branch << ": " << r.dtraction_dm << " against " << fd;
        }
    }
}

// The step in the global frame with a moving particle (rubber_particle_step_coupling(), the
// monolithic coupling's form): the work of the rubber's traction over Delta x plus that of the
// force and moment on the particle over Delta c and Delta theta is minus the change of the
// stored energy minus the dissipation (to 1e-12 of the terms), for particles that move by up
// to 0.02 mm and turn by up to 0.1 rad in a step; and the derivatives of the traction and of
// the particle's force and moment with respect to x_{n+1} and q_{n+1} = (c_1, c_2, theta)
// match central differences (to 1e-5 of their largest entry) in stick and in slip.
TEST(RubberParticleContactStep, MovingParticleSharesTheStepsWorkWithConsistentTangents)
{
  PenaltyContactParameters p = penalties();
  p.tangential_penalty       = 1e4;
  std::mt19937                           rng(7);
  std::uniform_real_distribution<double> uni(-1., 1.);
  const double L0 = 3., w = 0.125;
  double       worst = 0.;
  unsigned int n_checked = 0, n_slipping = 0;
  for (const std::string name : {"elliptical", "rectangular"})
    {
      const geometry::Superellipse s = shape(name);
      for (unsigned int k = 0; k < 400; ++k)
        {
          ParticlePose pose0, pose1;
          pose0.centre   = vec(1.5 + uni(rng), 0.5 + 0.1 * uni(rng));
          pose0.rotation = M_PI * uni(rng);
          pose1.centre   = pose0.centre + 0.02 * vec(uni(rng), uni(rng));
          pose1.rotation = pose0.rotation + 0.1 * uni(rng);
          const double offset = L0 * std::round(uni(rng)); // images -1, 0, 1
          const Tensor<1, 2> m0 = below(s, M_PI * (1. + uni(rng)), 2e-4 + 1e-4 * uni(rng));
          const Tensor<1, 2> x0 =
            geometry::particle_to_global(pose0.centre + vec(offset, 0.), pose0.rotation, m0);
          // the rubber point follows the particle to within a random slide of up to 2e-3 mm
          const Tensor<1, 2> m1 = m0 + 2e-3 * vec(uni(rng), uni(rng)) * (k % 2 == 0 ? 1. : 0.05);
          const Tensor<1, 2> x1 =
            geometry::particle_to_global(pose1.centre + vec(offset, 0.), pose1.rotation, m1);
          ParticleContactStepState start;
          start.in_contact     = true;
          start.tangential_gap = 1e-3 * uni(rng);
          const auto c =
            rubber_particle_step_coupling(x0, x1, pose0, pose1, offset, start, s, p, w);
          ASSERT_TRUE(c.active);
          // the works on the rubber, the particle's centre and its rotation (they cancel to
          // the small relative motion: the scale of round-off is the sum of their sizes)
          const double W[3] = {w * c.traction * (x1 - x0),
                               c.resultant[0] * (pose1.centre[0] - pose0.centre[0]) +
                                 c.resultant[1] * (pose1.centre[1] - pose0.centre[1]),
                               c.resultant[2] * (pose1.rotation - pose0.rotation)};
          const double E = w * (c.step.energy_end - c.step.energy_start + c.step.dissipation);
          worst          = std::max(worst, std::abs(W[0] + W[1] + W[2] + E) /
                                    (std::abs(W[0]) + std::abs(W[1]) + std::abs(W[2]) +
                                     w * (c.step.energy_end + c.step.energy_start +
                                          c.step.dissipation)));
          // never negative (to round-off where a reversing slip's alpha makes it zero)
          const double terms = std::abs(c.step.energy_end) + std::abs(c.step.energy_start);
          EXPECT_GE(c.step.dissipation, -1e-14 * terms) << name << " step " << k;

          // central differences in x_{n+1} (j = 0, 1) and q_{n+1} (j = 2, 3, 4)
          const auto perturbed = [&](const unsigned int j, const double h) {
            Tensor<1, 2> x = x1;
            ParticlePose q = pose1;
            if (j < 2)
              x[j] += h;
            else if (j < 4)
              q.centre[j - 2] += h;
            else
              q.rotation += h;
            return rubber_particle_step_coupling(x0, x, pose0, q, offset, start, s, p, w);
          };
          bool   same_branch = true;
          double scale_t = 0., scale_P = 0., error_t = 0., error_P = 0.;
          for (unsigned int j = 0; j < 5; ++j)
            {
              const double h  = 1e-9;
              const auto   cp = perturbed(j, h), cm = perturbed(j, -h);
              same_branch = same_branch && cp.step.slipping == c.step.slipping &&
                            cm.step.slipping == c.step.slipping && cp.step.end.in_contact &&
                            cm.step.end.in_contact;
              const Tensor<1, 2> dt_fd = (cp.traction - cm.traction) / (2. * h);
              const Tensor<1, 2> dt    = j < 2 ? Tensor<1, 2>(c.dtraction_dx * vec(j == 0, j == 1)) :
                                                 c.dtraction_dq[j - 2];
              scale_t = std::max(scale_t, dt.norm());
              error_t = std::max(error_t, (dt - dt_fd).norm());
              for (unsigned int i = 0; i < 3; ++i)
                {
                  const double dP_fd = (cp.resultant[i] - cm.resultant[i]) / (2. * h);
                  const double dP    = j < 2 ? c.dresultant_dx[i][j] : c.dresultant_dq[i][j - 2];
                  scale_P = std::max(scale_P, std::abs(dP));
                  error_P = std::max(error_P, std::abs(dP - dP_fd));
                }
            }
          if (!same_branch)
            continue;
          ++n_checked;
          n_slipping += c.step.slipping;
          EXPECT_LT(error_t, 1e-5 * scale_t) << name << " step " << k;
          EXPECT_LT(error_P, 1e-5 * scale_P) << name << " step " << k;
        }
    }
  EXPECT_LT(worst, 1e-12);
  std::cout << "largest created energy / scale " << worst << "; " << n_checked
            << " steps checked against finite differences, " << n_slipping << " slipping\n";
  EXPECT_GT(n_checked, 400u);
  EXPECT_GT(n_slipping, 40u);
  EXPECT_LT(n_slipping, n_checked - 40u);
}
