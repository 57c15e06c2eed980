// Tests of the rubber-particle frictional penalty contact (docs/methods.md §6 "Rubber-particle",
// §4.1): consistent tangent against central finite differences (stick, slip, first contact, rotated
// particle, periodic image), the closed form for a circle, action = reaction of the interface
// resultants, the stick point moving with the rotating particle, contact loss, image selection
// and the re-indexing of images when the particle centre is wrapped into the cell.
#include <contact/rubber_particle_contact.h>
#include <geometry/superellipse.h>

#include "test_helpers.h"

#include <gtest/gtest.h>

#include <tuple>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

using namespace granular;
using namespace granular::contact;
using dealii::Tensor;
using granular::testing::vec;
using granular::testing::cross;

namespace
{
  constexpr double r0 = 0.5; // mm, reference radius (docs/methods.md §4)
  constexpr double L0 = 10.; // mm, cell length (docs/methods.md §7)

  PenaltyContactParameters
  default_penalties()
  {
    PenaltyContactParameters p; // docs/methods.md §6 defaults with mu_e = 1 MPa
    p.normal_penalty       = 1e6;
    p.tangential_penalty   = 1e4;
    p.friction_coefficient = 0.5;
    return p;
  }

  geometry::Superellipse
  circle()
  {
    return geometry::Superellipse(geometry::SuperellipseShape{r0, r0, 2., 2.});
  }

  geometry::Superellipse
  superellipse4()
  {
    return geometry::Superellipse(geometry::SuperellipseShape{0.75, 0.5, 4., 4.});
  }

  /// Point on the outline at parameter t (particle frame), as in Superellipse::outline().
  Tensor<1, 2>
  outline_point(const geometry::Superellipse &s, const double t)
  {
    const auto  &sh = s.shape();
    const double c = std::cos(t), si = std::sin(t);
    return vec(sh.r1 * (c < 0 ? -1. : 1.) * std::pow(std::abs(c), 2. / sh.p1),
               sh.r2 * (si < 0 ? -1. : 1.) * std::pow(std::abs(si), 2. / sh.p2));
  }

  /// Global rubber point that penetrates image @p k of the particle by about @p depth below the
  /// surface point at outline parameter @p t.
  Tensor<1, 2>
  penetrating_point(const geometry::Superellipse &s, const ParticlePose &pose, const int k,
                    const double t, const double depth)
  {
    const Tensor<1, 2> y = outline_point(s, t);
    const Tensor<1, 2> m = y - depth * s.outward_normal(y);
    Tensor<1, 2>       ck = pose.centre;
    ck[0] += k * L0;
    return geometry::particle_to_global(ck, pose.rotation, m);
  }

  enum class State
  {
    first_contact,
    stick,
    slip
  };

  /// A converged history that gives @p state at @p x: a stick point on the image that @p x
  /// penetrates, offset tangentially from the projection by g_T with eps_T |g_T| = factor
  /// k_PB t_N (factor 0.4: stick, 3: slip) and normally by @p normal_offset (as left by an
  /// earlier slip on a curved surface), tangential sign @p sign.
  ParticleContactHistory
  make_history(const Tensor<1, 2> &x, const ParticlePose &pose, const geometry::Superellipse &s,
               const PenaltyContactParameters &p, const State state, const double sign,
               const double normal_offset = 0.)
  {
    ParticleContactHistory h;
    if (state == State::first_contact)
      return h;
    const ParticleContactResponse r0r = rubber_particle_contact(x, h, pose, s, p, L0);
    EXPECT_TRUE(r0r.in_contact);
    const Tensor<1, 2> y_p =
      geometry::global_to_particle(r0r.image_centre, pose.rotation, r0r.projection_point);
    const Tensor<1, 2> n      = s.outward_normal(y_p);
    const Tensor<1, 2> a      = s.tangent(y_p);
    const double       factor = state == State::stick ? 0.4 : 3.;
    const double g_T = sign * factor * p.friction_coefficient * r0r.normal_traction /
                       p.tangential_penalty;
    h.in_contact  = true;
    h.image       = r0r.trial.image;
    h.stick_point = y_p - g_T * a + normal_offset * n;
    return h;
  }

  /// max over the entries of |K_fd - K| / |K| (Frobenius norm of K), central differences.
  double
  fd_error(const Tensor<1, 2> &x, const ParticleContactHistory &h, const ParticlePose &pose,
           const geometry::Superellipse &s, const PenaltyContactParameters &p,
           const State expected_state, const std::string &label)
  {
    const double                  step = 1e-6; // mm
    const ParticleContactResponse r    = rubber_particle_contact(x, h, pose, s, p, L0);
    EXPECT_TRUE(r.in_contact) << label;
    EXPECT_EQ(r.slipping, expected_state == State::slip) << label;
    if (expected_state != State::first_contact)
      {
        EXPECT_GT(std::abs(r.tangential_traction), 0.) << label;
      }
    Tensor<2, 2> K_fd;
    for (unsigned int j = 0; j < 2; ++j)
      {
        Tensor<1, 2> dx;
        dx[j]                           = step;
        const ParticleContactResponse a = rubber_particle_contact(x + dx, h, pose, s, p, L0);
        const ParticleContactResponse b = rubber_particle_contact(x - dx, h, pose, s, p, L0);
        EXPECT_EQ(a.slipping, r.slipping) << label; // no state switch inside the stencil
        EXPECT_EQ(b.slipping, r.slipping) << label;
        EXPECT_EQ(a.trial.image, r.trial.image) << label;
        EXPECT_EQ(b.trial.image, r.trial.image) << label;
        for (unsigned int i = 0; i < 2; ++i)
          K_fd[i][j] = (a.traction[i] - b.traction[i]) / (2. * step);
      }
    const double err = (K_fd - r.tangent).norm() / r.tangent.norm();
    EXPECT_LT(err, 1e-6) << label << ": tangent " << r.tangent << " vs FD " << K_fd;
    return err;
  }

  const char *
  state_name(const State s)
  {
    return s == State::first_contact ? "first contact" : s == State::stick ? "stick" : "slip";
  }
} // namespace

// 1. Consistent tangent vs central finite differences: circle and p = 4 superellipse, several
//    surface locations, first contact / stick / slip, unrotated and rotated particle, and a
//    point that penetrates a periodic image.
TEST(RubberParticleContact, TangentMatchesFiniteDifferences)
{
  const PenaltyContactParameters p = default_penalties();
  struct Case
  {
    std::string            name;
    geometry::Superellipse shape;
    ParticlePose           pose;
    int                    image;
  };
  std::vector<Case> cases;
  cases.push_back({"circle", circle(), ParticlePose{vec(5., r0), 0.}, 0});
  cases.push_back({"circle rotated", circle(), ParticlePose{vec(5., r0), 0.7}, 0});
  cases.push_back({"p4", superellipse4(), ParticlePose{vec(4., 0.5), 0.}, 0});
  cases.push_back({"p4 rotated", superellipse4(), ParticlePose{vec(4., 0.5), 0.4}, 0});
  // centre near the left end of the cell: the rubber near x = L0 meets the image c + L0 e1
  cases.push_back({"p4 rotated, image +1", superellipse4(), ParticlePose{vec(0.3, 0.6), -0.3}, 1});
  cases.push_back({"circle, image -1", circle(), ParticlePose{vec(9.8, 0.5), 1.1}, -1});

  const std::vector<double> params{0.3, 0.79, 1.45, 2.6, 3.5, 4.4, 5.3};
  double                    max_err[3] = {0., 0., 0.};
  for (const auto &c : cases)
    for (const double t : params)
      for (const State state : {State::first_contact, State::stick, State::slip})
        for (const double sign : {1., -1.})
          {
            const double       depth = 1e-3; // mm: t_N = 1000 MPa
            const Tensor<1, 2> x     = penetrating_point(c.shape, c.pose, c.image, t, depth);
            const ParticleContactHistory h =
              make_history(x, c.pose, c.shape, p, state, sign, state == State::stick ? 5e-3 : 0.);
            const std::string label = c.name + " t=" + std::to_string(t) + " " +
                                      state_name(state) + " sign " + std::to_string(sign);
            const ParticleContactResponse r =
              rubber_particle_contact(x, h, c.pose, c.shape, p, L0);
            EXPECT_EQ(r.trial.image, c.image) << label;
            EXPECT_NEAR(r.normal_gap, -depth, 1e-9) << label;
            const double e = fd_error(x, h, c.pose, c.shape, p, state, label);
            max_err[static_cast<int>(state)] = std::max(max_err[static_cast<int>(state)], e);
          }
  std::cout << "  max relative FD error: first contact " << max_err[0] << ", stick "
            << max_err[1] << ", slip " << max_err[2] << std::endl;

  // a deeper penetration (curvature terms larger relative to eps_N)
  {
    const ParticlePose pose{vec(4., 0.5), 0.2};
    const auto         s = superellipse4();
    for (const State state : {State::stick, State::slip})
      {
        const Tensor<1, 2>           x = penetrating_point(s, pose, 0, 0.6, 0.05);
        const ParticleContactHistory h = make_history(x, pose, s, p, state, 1., 0.01);
        const double e = fd_error(x, h, pose, s, p, state, std::string("deep ") + state_name(state));
        std::cout << "  deep (0.05 mm) " << state_name(state) << ": " << e << std::endl;
      }
  }
}

// 1a. The same in the ramp of the regularised normal penalty (contact/normal_penalty.h):
//     depth 1e-3 mm inside a width of 4e-3 mm, where t_N = eps_N g_N^2 / (2 w) and its
//     stiffness eps_N (-g_N) / w vary with the gap.
TEST(RubberParticleContact, TangentMatchesFiniteDifferencesInTheRegularisedRamp)
{
  PenaltyContactParameters p = default_penalties();
  p.regularisation_width     = 4e-3;
  const double depth         = 1e-3;
  for (const auto &[name, shape, pose] :
       {std::tuple{"circle", circle(), ParticlePose{vec(5., r0), 0.7}},
        std::tuple{"p4", superellipse4(), ParticlePose{vec(4., 0.5), 0.4}}})
    for (const double t : {0.79, 2.6, 4.4})
      for (const State state : {State::first_contact, State::stick, State::slip})
        {
          const Tensor<1, 2>           x = penetrating_point(shape, pose, 0, t, depth);
          const ParticleContactHistory h =
            make_history(x, pose, shape, p, state, 1., state == State::stick ? 5e-3 : 0.);
          const std::string label = std::string(name) + " t=" + std::to_string(t) + " " +
                                    state_name(state);
          const ParticleContactResponse r = rubber_particle_contact(x, h, pose, shape, p, L0);
          EXPECT_NEAR(r.normal_traction, 1e6 * depth * depth / (2. * 4e-3), 1e-6) << label;
          fd_error(x, h, pose, shape, p, state, label);
        }
}

// 1b. Linearisation with respect to the particle pose q = (c1, c2, theta) for the monolithic
//     coupling: d t/d q, and the derivatives of the point's contribution P = (-w t,
//     -w (x - c_k) x t) to the resultant on the particle with respect to x and q, against
//     central differences (circle and p = 4, stick and slip, rotated, periodic image).
TEST(RubberParticleContact, PoseLinearisationMatchesFiniteDifferences)
{
  const PenaltyContactParameters p = default_penalties();
  const double                   w = 0.3; // mm of boundary
  struct Case
  {
    std::string            name;
    geometry::Superellipse shape;
    ParticlePose           pose;
    int                    image;
  };
  const std::vector<Case> cases{
    {"circle", circle(), ParticlePose{vec(5., r0), 0.3}, 0},
    {"p4 rotated", superellipse4(), ParticlePose{vec(4., 0.5), 0.4}, 0},
    {"p4 image +1", superellipse4(), ParticlePose{vec(0.3, 0.6), -0.3}, 1}};
  auto contribution = [&](const ParticleContactResponse &r) {
    const Tensor<1, 2> arm = r.rubber_point - r.image_centre;
    return std::array<double, 3>{{-w * r.traction[0], -w * r.traction[1],
                                  -w * cross(arm, r.traction)}};
  };
  double max_err = 0.;
  for (const auto &c : cases)
    for (const double t : {0.79, 2.6, 4.4})
      for (const State state : {State::stick, State::slip})
        {
          const Tensor<1, 2> x = penetrating_point(c.shape, c.pose, c.image, t, 1e-3);
          const ParticleContactHistory h = make_history(x, c.pose, c.shape, p, state, 1.);
          const std::string label = c.name + " t=" + std::to_string(t) + " " + state_name(state);
          const ParticleContactResponse r = rubber_particle_contact(x, h, c.pose, c.shape, p, L0);
          ASSERT_TRUE(r.in_contact) << label;
          EXPECT_EQ(r.slipping, state == State::slip) << label;
          const PointCouplingTangent ct = rubber_particle_coupling_tangent(r, w);
          double scale_t = 0., scale_P = 0., err_t = 0., err_Px = 0., err_Pq = 0.;
          for (unsigned int j = 0; j < 3; ++j)
            {
              // perturb the pose
              const double h_q = 1e-7;
              ParticlePose plus = c.pose, minus = c.pose;
              if (j < 2)
                {
                  plus.centre[j] += h_q;
                  minus.centre[j] -= h_q;
                }
              else
                {
                  plus.rotation += h_q;
                  minus.rotation -= h_q;
                }
              const auto rp = rubber_particle_contact(x, h, plus, c.shape, p, L0);
              const auto rm = rubber_particle_contact(x, h, minus, c.shape, p, L0);
              EXPECT_EQ(rp.slipping, r.slipping) << label;
              EXPECT_EQ(rm.slipping, r.slipping) << label;
              const Tensor<1, 2> dt_fd = (rp.traction - rm.traction) / (2. * h_q);
              err_t   = std::max(err_t, (dt_fd - ct.dtraction_dq[j]).norm());
              scale_t = std::max(scale_t, ct.dtraction_dq[j].norm());
              const auto Pp = contribution(rp), Pm = contribution(rm);
              for (unsigned int k = 0; k < 3; ++k)
                {
                  err_Pq  = std::max(err_Pq, std::abs((Pp[k] - Pm[k]) / (2. * h_q) -
                                                      ct.dresultant_dq[k][j]));
                  scale_P = std::max(scale_P, std::abs(ct.dresultant_dq[k][j]));
                }
            }
          for (unsigned int j = 0; j < 2; ++j)
            {
              const double h_x = 1e-7;
              Tensor<1, 2> dx;
              dx[j]         = h_x;
              const auto Pp = contribution(rubber_particle_contact(x + dx, h, c.pose, c.shape, p, L0));
              const auto Pm = contribution(rubber_particle_contact(x - dx, h, c.pose, c.shape, p, L0));
              for (unsigned int k = 0; k < 3; ++k)
                err_Px = std::max(err_Px, std::abs((Pp[k] - Pm[k]) / (2. * h_x) -
                                                   ct.dresultant_dx[k][j]));
            }
          EXPECT_LT(err_t, 1e-6 * scale_t) << label;
          EXPECT_LT(err_Pq, 1e-6 * scale_P) << label;
          EXPECT_LT(err_Px, 1e-6 * scale_P) << label;
          max_err = std::max({max_err, err_t / scale_t, err_Pq / scale_P, err_Px / scale_P});
        }
  std::cout << "  max relative FD error of the pose linearisation: " << max_err << std::endl;
  // not in contact: all zero
  const auto none = rubber_particle_coupling_tangent(ParticleContactResponse{}, w);
  EXPECT_EQ(none.dtraction_dq[2].norm(), 0.);
}

// 2. Circle, frictionless normal contact (first contact, and k_PB = 0 with a stick point):
//    t = eps_N (r0 - |x - c|) (x - c) / |x - c|, and the tangent
//    -eps_N n x n + t_N / |x - c| (I - n x n).
TEST(RubberParticleContact, CircleNormalTractionClosedForm)
{
  PenaltyContactParameters p = default_penalties();
  const auto               s = circle();
  const ParticlePose       poses[] = {{vec(5., r0), 0.}, {vec(5., r0), 2.3}, {vec(0.2, r0), -1.}};
  int                      checked = 0;
  for (const auto &pose : poses)
    for (const double phi : {0.1, 1.2, 2., 3.3, 4.7, 5.9})
      for (const double depth : {1e-5, 1e-3, 0.1})
        for (const double mu : {0.5, 0.})
          {
            // with the last pose, use the image -1 for points near x = L0
            Tensor<1, 2> c = pose.centre;
            if (pose.centre[0] < 1.)
              c[0] += L0;
            const Tensor<1, 2> x = c + (r0 - depth) * vec(std::cos(phi), std::sin(phi));
            ParticleContactHistory h;
            if (mu == 0.)
              {
                // frictionless: any stick point gives t_T = 0
                h.in_contact  = true;
                h.image       = pose.centre[0] < 1. ? 1 : 0;
                h.stick_point = vec(0.3, -0.4);
              }
            p.friction_coefficient = mu;
            const auto r = rubber_particle_contact(x, h, pose, s, p, L0);
            ASSERT_TRUE(r.in_contact);
            const Tensor<1, 2> d    = x - c;
            const double       dist = d.norm();
            const Tensor<1, 2> n    = d / dist;
            const Tensor<1, 2> t    = p.normal_penalty * (r0 - dist) * n;
            // exact to round-off in the gap (4 ulp of r0)
            EXPECT_LE((r.traction - t).norm(),
                      1e-12 * t.norm() + 4. * DBL_EPSILON * r0 * p.normal_penalty)
              << "phi " << phi << " depth " << depth << ": " << r.traction << " vs " << t;
            EXPECT_EQ(r.tangential_traction, 0.);
            EXPECT_FALSE(r.slipping && mu > 0.);
            Tensor<2, 2> I;
            I[0][0] = I[1][1] = 1.;
            const Tensor<2, 2> K = -p.normal_penalty * dealii::outer_product(n, n) +
                                   p.normal_penalty * (r0 - dist) / dist *
                                     (I - dealii::outer_product(n, n));
            EXPECT_LE((r.tangent - K).norm(), 1e-10 * K.norm());
            ++checked;
          }
  EXPECT_EQ(checked, 3 * 6 * 3 * 2);
}

// 3. Action = reaction: the interface's resultant force and moment on the particle equal
//    minus the weighted sum of the rubber tractions and minus the sum of their moments about
//    the centre of the image each acts on (arm to the rubber point, the work-conjugate choice
//    of ParticleContactResultant).
TEST(RubberParticleContact, ActionEqualsReaction)
{
  const PenaltyContactParameters p = default_penalties();
  const auto                     s = superellipse4();
  const double                   theta = 0.35;
  const Tensor<1, 2>             c     = vec(9.7, 0.5);
  const ParticlePose             pose{c, theta};

  // points near the particle (image 0), near x = 0 (image -1) and one outside; in step 2 the
  // particle turns a little and the points move along the surface: a little (stick) or a lot
  // (slip)
  const ParticlePose        pose1{c, theta + 0.002};
  const std::vector<double> t_param{1.2, 1.8, 0.5, 1.0, 0.2};
  const std::vector<double> dt_param{0.002, -0.2, 0.001, -0.001, 0.25};
  const std::vector<double> depth{2e-3, 1e-3, 4e-3, 3e-3, 1e-3};
  const std::vector<int>    image{0, 0, 0, -1, -1};
  std::vector<Tensor<1, 2>> x0, x1;
  for (unsigned int i = 0; i < t_param.size(); ++i)
    {
      x0.push_back(penetrating_point(s, pose, image[i], t_param[i], depth[i]));
      x1.push_back(penetrating_point(s, pose1, image[i], t_param[i] + dt_param[i], depth[i]));
    }
  x0.push_back(vec(5., 2.));
  x1.push_back(vec(5., 2.));
  std::vector<ContactPoint> points;
  for (unsigned int i = 0; i < x0.size(); ++i)
    points.push_back({x0[i], 0.1 + 0.05 * i});
  RubberParticleInterface interface(points, s, p, L0);
  interface.set_particle_pose(c, theta);

  for (unsigned int step = 0; step < 2; ++step)
    {
      if (step == 1)
        interface.set_particle_pose(pose1.centre, pose1.rotation);
      const auto &x = step == 0 ? x0 : x1;
      for (unsigned int i = 0; i < x.size(); ++i)
        {
          Tensor<1, 2> t;
          Tensor<2, 2> K;
          interface.evaluate(i, x[i], x0[i], t, K);
          // the interface returns the kernel's answer for the converged history
          const auto r = rubber_particle_contact(x[i], interface.converged_history(i),
                                                 interface.particle_pose(), s, p, L0);
          EXPECT_EQ((t - r.traction).norm(), 0.);
          EXPECT_EQ((K - r.tangent).norm(), 0.);
        }

      Tensor<1, 2> force;
      double       moment = 0.;
      unsigned int n_contact = 0, n_slip = 0;
      for (unsigned int i = 0; i < x.size(); ++i)
        {
          const auto &r = interface.response(i);
          if (!r.in_contact)
            continue;
          ++n_contact;
          n_slip += r.slipping;
          Tensor<1, 2> ck = interface.particle_pose().centre;
          ck[0] += r.trial.image * L0;
          const Tensor<1, 2> arm = x[i] - ck;
          force -= points[i].weight * r.traction;
          moment -= cross(arm, points[i].weight * r.traction);
        }
      EXPECT_EQ(n_contact, 5u);
      EXPECT_EQ(interface.n_in_contact(), n_contact);
      EXPECT_EQ(interface.n_slipping(), n_slip);
      if (step == 1)
        {
          EXPECT_GE(n_slip, 1u); // the large moves slip
        }
      const ParticleContactResultant res = interface.resultant();
      EXPECT_GT(force.norm(), 1.);
      EXPECT_LE((res.force - force).norm(), 1e-13 * force.norm()) << res.force << " vs " << force;
      EXPECT_NEAR(res.moment, moment, 1e-13 * force.norm() * 1.);
      EXPECT_GT(std::abs(moment), 1e-3);
      interface.commit();
    }
  EXPECT_GT(interface.frictional_dissipation(), 0.);

  // a circle with frictionless contact: all forces pass through the centre, zero moment
  PenaltyContactParameters frictionless = p;
  frictionless.friction_coefficient     = 0.;
  const auto              ci            = circle();
  const ParticlePose      cpose{vec(5., r0), 0.9};
  std::vector<ContactPoint> cpoints;
  for (const double t : {0.5, 1.2, 1.9, 2.4})
    cpoints.push_back({penetrating_point(ci, cpose, 0, t, 2e-3 * t), t});
  RubberParticleInterface cinterface(cpoints, ci, frictionless, L0);
  cinterface.set_particle_pose(cpose.centre, cpose.rotation);
  Tensor<1, 2> cforce;
  for (unsigned int i = 0; i < cpoints.size(); ++i)
    {
      Tensor<1, 2> t;
      Tensor<2, 2> K;
      const Tensor<1, 2> x = cpoints[i].reference_position + vec(2e-4, 0.);
      cinterface.evaluate(i, x, x, t, K);
      const Tensor<1, 2> d = x - cpose.centre;
      cforce -= cpoints[i].weight * frictionless.normal_penalty * (r0 - d.norm()) * d / d.norm();
    }
  const auto cres = cinterface.resultant();
  EXPECT_LE((cres.force - cforce).norm(), 1e-12 * cforce.norm());
  EXPECT_LE(std::abs(cres.moment), 1e-13 * cforce.norm() * r0);
}

// 4. The stick point is fixed on the particle: rotating the particle by alpha with the rubber
//    point fixed shears the tangential spring by r0 sin(alpha) (the tangential component of the
//    displacement of the stick point), and a large rotation slips at |t_T| = k_PB t_N.
TEST(RubberParticleContact, StickPointMovesWithParticle)
{
  const PenaltyContactParameters p = default_penalties();
  const auto                     s = circle();
  const Tensor<1, 2>             c = vec(5., r0);
  const double                   depth = 1e-4; // t_N = 100 MPa, Coulomb limit 50 MPa
  const double                   t_N   = p.normal_penalty * depth;
  const double                   limit = p.friction_coefficient * t_N;
  const double                   w     = 0.25;
  const Tensor<1, 2>             x     = c + vec(0., r0 - depth); // rubber point above the top

  RubberParticleInterface interface({{x, w}}, s, p, L0);
  Tensor<1, 2>            t;
  Tensor<2, 2>            K;
  interface.set_particle_pose(c, 0.);
  interface.evaluate(0, x, x, t, K); // first contact: stick point = (0, r0)
  EXPECT_NEAR(t[0], 0., 1e-12);
  EXPECT_NEAR(t[1], t_N, 1e-9 * t_N);
  interface.commit();
  ASSERT_TRUE(interface.converged_history(0).in_contact);

  // small counter-clockwise rotation: the top of the particle moves to -e1 and drags the
  // rubber point along: t = -eps_T r0 sin(alpha) e1 (stick)
  const double alpha = 1e-3;
  interface.set_particle_pose(c, alpha);
  interface.evaluate(0, x, x, t, K);
  const double t_T = p.tangential_penalty * r0 * std::sin(alpha); // 5 MPa < 50 MPa
  EXPECT_FALSE(interface.response(0).slipping);
  EXPECT_NEAR(t[0], -t_T, 1e-10 * t_T);
  EXPECT_NEAR(t[1], t_N, 1e-9 * t_N);
  EXPECT_NEAR(t[0], -p.tangential_penalty * r0 * alpha, 1e-6 * t_T); // arc length r0 alpha
  EXPECT_NEAR(interface.spring_energy(),
              w * (0.5 * p.normal_penalty * depth * depth + 0.5 * t_T * t_T / p.tangential_penalty),
              1e-9 * interface.spring_energy());
  const auto res = interface.resultant();
  // the rubber resists the turn; arm: the rubber point at r0 - depth above the centre
  EXPECT_NEAR(res.moment, -(r0 - depth) * w * t_T, 1e-9 * r0 * w * t_T);
  // without committing, a clockwise rotation gives the opposite traction
  interface.set_particle_pose(c, -alpha);
  interface.evaluate(0, x, x, t, K);
  EXPECT_NEAR(t[0], t_T, 1e-10 * t_T);

  // large rotation: slip at the Coulomb limit
  const double big = 0.1; // eps_T r0 sin(0.1) ~ 500 MPa >> 50 MPa
  interface.set_particle_pose(c, big);
  interface.evaluate(0, x, x, t, K);
  const auto &r = interface.response(0);
  EXPECT_TRUE(r.slipping);
  EXPECT_NEAR(std::abs(r.tangential_traction), p.friction_coefficient * r.normal_traction,
              1e-12 * limit);
  EXPECT_NEAR(t[0], -limit, 1e-9 * limit);
  const double slip = r0 * std::sin(big) - limit / p.tangential_penalty;
  EXPECT_NEAR(r.slip_increment, slip, 1e-12);
  interface.commit();
  // the trapezoidal rule for the Coulomb work (rubber_particle_step_dissipation()): the
  // traction was 0 at t_n (first contact) and is the limit at t_{n+1}
  EXPECT_NEAR(interface.frictional_dissipation(), 0.5 * w * limit * slip,
              1e-12 * w * limit * slip);

  // the returned stick point reproduces the limit traction at the same pose (at the limit:
  // stick, or slip by round-off only) ...
  interface.evaluate(0, x, x, t, K);
  EXPECT_LE(interface.response(0).slip_increment, 1e-14);
  EXPECT_NEAR(t[0], -limit, 1e-9 * limit);
  // ... and turning back by beta unloads elastically: for the circle exactly
  // t_T = k_PB t_N cos(beta) - eps_T r0 sin(beta)
  const double beta = 2e-3;
  interface.set_particle_pose(c, big - beta);
  interface.evaluate(0, x, x, t, K);
  EXPECT_FALSE(interface.response(0).slipping);
  const double t_T_unload = limit * std::cos(beta) - p.tangential_penalty * r0 * std::sin(beta);
  EXPECT_NEAR(t[0], -t_T_unload, 1e-9 * limit);
}

// 4b. The Coulomb dissipation counted at commit() closes each step's energy balance: a rubber
//     point pressed into the top of a fixed circle and dragged along it while it rises (the
//     normal force falls, the point slips), then lifted out along the normal. Over every step
//     the traction's trapezoidal work on the rubber point (the work Newmark's identity charges
//     the bodies, docs/methods.md §6) equals minus the change of the penalty springs'
//     energy minus the dissipation, to 1e-4 of the dissipation (1.2e-5: the circle's
//     curvature turns the tangent by 8e-3 rad a step). The return mapping's backward-Euler
//     |t_T,n+1| Δg_slip leaves 3.6 % of it here.
TEST(RubberParticleContact, CoulombDissipationClosesTheStepsEnergyBalance)
{
  const PenaltyContactParameters p = default_penalties();
  const auto                     s = circle();
  const Tensor<1, 2>             c = vec(5., r0);
  const double                   w = 0.25;
  Tensor<1, 2>                   x = c + vec(0., r0 - 2e-4); // 200 MPa normal traction

  RubberParticleInterface interface({{x, w}}, s, p, L0);
  interface.set_particle_pose(c, 0.);
  Tensor<1, 2> t, t_old, x_old = x;
  Tensor<2, 2> K;
  interface.evaluate(0, x, x_old, t, K); // first contact: no tangential traction
  interface.commit();
  t_old = t;
  double energy_old = interface.spring_energy(), dissipation_old = 0.;
  double worst = 0., backward_euler = 0., backward_euler_residual = 0.;
  unsigned int slipping = 0;
  auto step = [&](const Tensor<1, 2> &x_new) {
    interface.evaluate(0, x_new, x, t, K);
    const auto  &r     = interface.response(0);
    const double d_be  = w * std::abs(r.tangential_traction) * r.slip_increment;
    slipping += r.slipping;
    interface.commit();
    const double work   = 0.5 * w * (t_old + t) * (x_new - x); // on the rubber point
    const double energy = r.in_contact ? interface.spring_energy() : 0.;
    const double d      = interface.frictional_dissipation() - dissipation_old;
    EXPECT_GE(d, 0.);
    // the particle is fixed: the rubber's work is the bodies' work
    worst = std::max(worst, std::abs(work + (energy - energy_old) + d));
    backward_euler += d_be;
    backward_euler_residual += work + (energy - energy_old) + d_be;
    x = x_new, t_old = t, energy_old = energy,
    dissipation_old = interface.frictional_dissipation();
  };
  // dragged around the circle by 4e-3 mm a step (8e-3 rad) while the penetration falls
  // from 2e-4 to 1e-4 mm
  for (unsigned int n = 1; n <= 20; ++n)
    {
      const double phi = 8e-3 * n, depth = 2e-4 - 5e-6 * n;
      step(c + (r0 - depth) * vec(std::sin(phi), std::cos(phi)));
    }
  ASSERT_GT(slipping, 12u);
  ASSERT_TRUE(interface.response(0).in_contact);
  // lifted out along the normal, just past the surface: the spring's energy is released
  const auto        &r    = interface.response(0);
  const Tensor<1, 2> lift = (-r.normal_gap * (1. + 1e-9)) * r.normal;
  const double       spring = 0.5 * r.tangential_traction * r.tangential_traction /
                        p.tangential_penalty * w;
  const double dissipation_before = interface.frictional_dissipation();
  step(x + lift);
  ASSERT_FALSE(interface.response(0).in_contact);
  EXPECT_NEAR(interface.frictional_dissipation() - dissipation_before, spring, 1e-6 * spring);
  const double total = interface.frictional_dissipation();
  std::cout << "[ contact ] largest |W + dE + D| of a step / D = " << worst / total
            << "; backward Euler: D " << backward_euler << " against " << total
            << ", sum of W + dE + D = " << backward_euler_residual << std::endl;
  EXPECT_LT(worst, 1e-4 * total);
  EXPECT_GT(std::abs(backward_euler_residual), 1e-2 * total);
}

// 5. No contact outside the particle and its images: zero traction and tangent, reset history.
TEST(RubberParticleContact, NoContactOutside)
{
  const PenaltyContactParameters p = default_penalties();
  const ParticleContactHistory   in_contact{true, 0, vec(0.1, 0.4), 0., {}, {}};
  for (const auto &s : {circle(), superellipse4()})
    for (const double theta : {0., 0.8})
      {
        const ParticlePose pose{vec(0.4, 0.5), theta};
        // outside by small margins around the particle and its images, and far away
        std::vector<Tensor<1, 2>> xs{vec(5., 3.), vec(-3., 0.5), vec(15.4, 0.5), vec(23., 0.5)};
        for (const int k : {-1, 0, 1})
          for (const double t : {0.4, 1.6, 3.9})
            xs.push_back(penetrating_point(s, pose, k, t, -1e-6)); // 1e-6 mm outside
        for (const auto &x : xs)
          {
            const auto r = rubber_particle_contact(x, in_contact, pose, s, p, L0);
            EXPECT_FALSE(r.in_contact);
            EXPECT_FALSE(r.slipping);
            EXPECT_EQ(r.traction.norm(), 0.);
            EXPECT_EQ(r.tangent.norm(), 0.);
            EXPECT_FALSE(r.trial.in_contact);
            EXPECT_EQ(r.trial.image, 0);
            EXPECT_EQ(r.trial.stick_point.norm(), 0.);
            EXPECT_EQ(r.slip_increment, 0.);
            EXPECT_GT(r.normal_gap, 0.);
          }
      }

  // through the interface: a point leaves contact, the committed history is reset and the
  // resultant vanishes
  const auto         s = circle();
  const Tensor<1, 2> c = vec(5., r0);
  const Tensor<1, 2> x = c + vec(0., r0 - 1e-3);
  RubberParticleInterface interface({{x, 0.2}}, s, p, L0);
  Tensor<1, 2>            t;
  Tensor<2, 2>            K;
  interface.set_particle_pose(c, 0.);
  interface.evaluate(0, x, x, t, K);
  interface.commit();
  interface.set_particle_pose(c, 1e-3);
  interface.evaluate(0, x, x, t, K);
  interface.commit();
  ASSERT_TRUE(interface.converged_history(0).in_contact);
  EXPECT_GT(std::abs(interface.response(0).tangential_traction), 0.);
  const Tensor<1, 2> x_out = x + vec(0., 2e-3);
  interface.evaluate(0, x_out, x, t, K);
  EXPECT_EQ(t.norm(), 0.);
  EXPECT_EQ(K.norm(), 0.);
  EXPECT_EQ(interface.n_in_contact(), 0u);
  EXPECT_EQ(interface.resultant().force.norm(), 0.);
  EXPECT_EQ(interface.spring_energy(), 0.);
  interface.commit();
  EXPECT_FALSE(interface.converged_history(0).in_contact);
  // coming back: first contact again, no tangential memory
  interface.evaluate(0, x, x, t, K);
  EXPECT_EQ(interface.response(0).tangential_traction, 0.);
}

// Periodic images: the deepest penetrated image is used and a change of image resets the
// tangential history.
TEST(RubberParticleContact, PeriodicImageSelection)
{
  const PenaltyContactParameters p = default_penalties();
  // a particle wider than half the cell so that neighbouring images overlap
  const geometry::Superellipse s(geometry::SuperellipseShape{0.75, 0.5, 2., 2.});
  const double                 L = 1.2;
  const ParticlePose           pose{vec(0.6, 0.), 0.};
  // x = (0.05, 0): inside image 0 by 0.2 (m = (-0.55, 0)) and image -1 by 0.1 (m = (0.65, 0))
  auto r = rubber_particle_contact(vec(0.05, 0.), {}, pose, s, p, L);
  ASSERT_TRUE(r.in_contact);
  EXPECT_EQ(r.trial.image, 0);
  EXPECT_NEAR(r.normal_gap, -0.2, 1e-13);
  EXPECT_NEAR(r.traction[0], -0.2 * p.normal_penalty, 1e-13 * 0.2 * p.normal_penalty);
  // x = (-0.05, 0): image -1 is deeper
  r = rubber_particle_contact(vec(-0.05, 0.), {}, pose, s, p, L);
  EXPECT_EQ(r.trial.image, -1);
  EXPECT_NEAR(r.normal_gap, -0.2, 1e-13);
  EXPECT_NEAR(r.traction[0], 0.2 * p.normal_penalty, 1e-13 * 0.2 * p.normal_penalty);
  EXPECT_NEAR(r.image_centre[0], 0.6 - L, 1e-15);
  // the same point far away after dragging the rubber by 3 cells: image -1 + 3 = 2
  r = rubber_particle_contact(vec(-0.05 + 3 * L, 0.), {}, pose, s, p, L);
  EXPECT_EQ(r.trial.image, 2);
  EXPECT_NEAR(r.normal_gap, -0.2, 1e-12);

  // the image whose centre is nearest to x need not be the penetrated one: a slender
  // ellipse tilted by 45 degrees, x = (0.48, -0.33) is outside image 0 (centre (0, 0)) and
  // inside image 1 (centre (1, 0))
  {
    const geometry::Superellipse slender(geometry::SuperellipseShape{0.75, 0.3, 2., 2.});
    const ParticlePose           tilted{vec(0., 0.), std::atan(1.)};
    const auto r1 = rubber_particle_contact(vec(0.48, -0.33), {}, tilted, slender, p, 1.);
    ASSERT_TRUE(r1.in_contact);
    EXPECT_EQ(r1.trial.image, 1);
    EXPECT_LT(r1.normal_gap, -1e-3);
    // mirror image: tilted by -45 degrees, x = (-0.48, -0.33) is inside image -1 only
    const ParticlePose mirrored{vec(0., 0.), -std::atan(1.)};
    const auto r2 = rubber_particle_contact(vec(-0.48, -0.33), {}, mirrored, slender, p, 1.);
    ASSERT_TRUE(r2.in_contact);
    EXPECT_EQ(r2.trial.image, -1);
    EXPECT_NEAR(r2.normal_gap, r1.normal_gap, 1e-14);
  }

  // a stick history on image 0 that would give a tangential traction ...
  const Tensor<1, 2> x = vec(0.6, 0.45); // inside image 0 only, near its top
  r                    = rubber_particle_contact(x, {}, pose, s, p, L);
  ASSERT_EQ(r.trial.image, 0);
  ParticleContactHistory h = r.trial;
  h.stick_point[0] += 1e-3; // t_T = -10 MPa, Coulomb limit 25000 MPa
  auto r_stick = rubber_particle_contact(x, h, pose, s, p, L);
  EXPECT_GT(std::abs(r_stick.tangential_traction), 1.);
  // ... is not used on another image
  h.image              = -1;
  auto r_other = rubber_particle_contact(x, h, pose, s, p, L);
  EXPECT_EQ(r_other.tangential_traction, 0.);
  EXPECT_EQ(r_other.trial.image, 0);
  EXPECT_EQ((r_other.trial.stick_point - r.trial.stick_point).norm(), 0.);
}

// Wrapping the particle centre into the cell (docs/methods.md §2) keeps the stick history: the
// image indices of the converged histories are shifted.
TEST(RubberParticleContact, CentreWrapKeepsHistory)
{
  const PenaltyContactParameters p = default_penalties();
  const auto                     s = circle();
  const Tensor<1, 2>             c = vec(9.95, r0);
  const Tensor<1, 2>             x = c + vec(0., r0 - 1e-3);
  RubberParticleInterface        interface({{x, 0.2}}, s, p, L0);
  Tensor<1, 2>                   t;
  Tensor<2, 2>                   K;
  interface.set_particle_pose(c, 0.);
  interface.evaluate(0, x, x, t, K);
  interface.commit();
  EXPECT_EQ(interface.converged_history(0).image, 0);

  // the particle moves by +0.01 mm and its centre is wrapped to c + 0.01 - L0
  const double shift = 0.01;
  interface.set_particle_pose(c + vec(shift - L0, 0.), 0.);
  EXPECT_EQ(interface.converged_history(0).image, 1);
  interface.evaluate(0, x, x, t, K);
  const auto &r = interface.response(0);
  ASSERT_TRUE(r.in_contact);
  EXPECT_EQ(r.trial.image, 1);
  EXPECT_FALSE(r.slipping);
  // the particle drags the rubber along +e1 by 0.01 mm: t_T ~ -eps_T shift along a_T ~ -e1
  EXPECT_NEAR(-r.tangential_traction, p.tangential_penalty * shift,
              0.01 * p.tangential_penalty * shift);
  // compare with the unwrapped pose: identical response
  const auto r_unwrapped =
    rubber_particle_contact(x, {true, 0, interface.converged_history(0).stick_point, 0., {}, {}},
                            ParticlePose{c + vec(shift, 0.), 0.}, s, p, L0);
  EXPECT_NEAR((r.traction - r_unwrapped.traction).norm(), 0., 1e-9 * r.traction.norm());
  EXPECT_GT(std::abs(r_unwrapped.tangential_traction), 1.);
}

// Argument checks.
TEST(RubberParticleContact, InvalidArgumentsThrow)
{
  const PenaltyContactParameters p = default_penalties();
  const auto                     s = circle();
  const double                   nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(rubber_particle_contact(vec(nan, 0.), {}, {vec(0., 0.), 0.}, s, p, L0),
               std::invalid_argument);
  EXPECT_THROW(rubber_particle_contact(vec(0., 0.), {}, {vec(0., 0.), nan}, s, p, L0),
               std::invalid_argument);
  EXPECT_THROW(rubber_particle_contact(vec(0., 0.), {}, {vec(0., 0.), 0.}, s, p, -1.),
               std::invalid_argument);
  // the centre of a circle: the projection is not differentiable
  EXPECT_THROW(rubber_particle_contact(vec(0., 0.), {}, {vec(0., 0.), 0.}, s, p, L0),
               std::domain_error);
  EXPECT_THROW(RubberParticleInterface({}, s, p, 0.), std::invalid_argument);
  RubberParticleInterface interface({{vec(0., 0.), 1.}}, s, p, L0);
  Tensor<1, 2>            t;
  Tensor<2, 2>            K;
  EXPECT_THROW(interface.evaluate(0, vec(0., 1.), vec(0., 1.), t, K), std::logic_error);
  interface.set_particle_pose(vec(0., 0.), 0.);
  EXPECT_THROW(interface.evaluate(1, vec(0., 1.), vec(0., 1.), t, K), std::out_of_range);
  EXPECT_THROW(interface.evaluate(0, vec(0., 0.), vec(0., 0.), t, K), NewtonFailure);
}

// A rubber point whose path over a step crosses the particle, or one of its periodic images,
// is reported (BoundaryObstacle::may_pass_through), so that the block cuts the step back:
// the evaluation at the step's ends alone sees no contact when the point has passed
// through. A path beside the particle, and a path shorter than min(r1, r2) / 2 (which cannot
// cross it), are not.
TEST(RubberParticleContact, PathThroughTheParticleIsReported)
{
  // the ellipse r1 = 0.5 mm, r2 = 0.25 mm lying flat, centre (5, 0.25) mm
  geometry::SuperellipseShape shape;
  shape.r1 = 0.5, shape.r2 = 0.25;
  const geometry::Superellipse s(shape);
  RubberParticleInterface      interface({{vec(5., 0.6), 0.1}}, s, default_penalties(), L0);
  interface.set_particle_pose(vec(5., 0.25), 0.);
  EXPECT_DOUBLE_EQ(interface.tunnelling_length(), 0.125);
  // from above the particle to below it, through it: both ends outside
  EXPECT_TRUE(interface.may_pass_through(0, vec(5.1, -0.05), vec(5.1, 0.6)));
  // the same through the image one cell to the left
  EXPECT_TRUE(interface.may_pass_through(0, vec(5.1 - L0, -0.05), vec(5.1 - L0, 0.6)));
  // a path as long beside the particle
  EXPECT_FALSE(interface.may_pass_through(0, vec(5.6, -0.05), vec(5.6, 0.6)));
  // a short path into the particle: the contact sees it at the step's end
  EXPECT_FALSE(interface.may_pass_through(0, vec(5.1, 0.45), vec(5.1, 0.55)));
  // a long path that ends inside it is reported too
  EXPECT_TRUE(interface.may_pass_through(0, vec(5.1, 0.3), vec(5.1, 0.9)));
}
