// Tests of the superellipse geometry kernel (docs/methods.md §4, §4.1, §4.2): closed forms for
// circles, brute-force dense sampling for all shapes, finite-difference checks of the
// linearisation.
#include <geometry/superellipse.h>

#include <boost/math/quadrature/gauss_kronrod.hpp>

#include "test_helpers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace granular::geometry;
using dealii::Tensor;
using granular::testing::vec;

namespace
{
  constexpr double r0 = 0.5; // mm, reference radius of docs/methods.md §4
  const double     pi = std::acos(-1.);

  std::string
  str(const Tensor<1, 2> &v)
  {
    std::ostringstream s;
    s.precision(17);
    s << "(" << v[0] << ", " << v[1] << ")";
    return s.str();
  }

  struct ShapeCase
  {
    std::string       label;
    SuperellipseShape shape;
  };

  /// The default shapes of docs/methods.md §4 and p in {2,3,4,8,10} with r1 = 1.5 r0 and r1 = r0,
  /// plus two mixed-exponent shapes ("any (r1, r2, p1, p2) with p_i >= 2 must work").
  std::vector<ShapeCase>
  all_shapes()
  {
    std::vector<ShapeCase> cases;
    for (const std::string name : {"circular", "square", "elliptical", "rectangular"})
      cases.push_back({name, SuperellipseShape::named(name, r0)});
    for (const double p : {2., 3., 4., 8., 10.})
      {
        cases.push_back({"elongated_p" + std::to_string(p), {1.5 * r0, r0, p, p}});
        cases.push_back({"equal_axes_p" + std::to_string(p), {r0, r0, p, p}});
      }
    cases.push_back({"tall_mixed_p3_p8", {r0, 1.5 * r0, 3., 8.}});
    cases.push_back({"flat_mixed_p10_p2.5", {2. * r0, 0.5 * r0, 10., 2.5}});
    return cases;
  }

  /// Dense sampling of the whole surface, independent of the implementation: in each quadrant
  /// uniform in u = |y1|/r1 (with y2 eliminated) and uniform in v = |y2|/r2 (with y1 eliminated),
  /// merged and ordered by polar angle. h_max is the largest distance between neighbours.
  struct DenseSurface
  {
    std::vector<double> x, y;
    double              h_max = 0.;
  };

  DenseSurface
  dense_surface(const SuperellipseShape &s, const unsigned int k)
  {
    std::vector<Tensor<1, 2>> q; // first quadrant
    for (unsigned int i = 0; i <= k; ++i)
      {
        const double t = static_cast<double>(i) / k;
        q.push_back(
            vec(s.r1 * t, s.r2 * std::pow(std::max(0., 1. - std::pow(t, s.p1)), 1. / s.p2)));
        q.push_back(
            vec(s.r1 * std::pow(std::max(0., 1. - std::pow(t, s.p2)), 1. / s.p1), s.r2 * t));
      }
    std::sort(q.begin(), q.end(), [](const Tensor<1, 2> &a, const Tensor<1, 2> &b) {
      return std::atan2(a[1], a[0]) < std::atan2(b[1], b[0]);
    });
    std::vector<Tensor<1, 2>> all;
    for (const auto &p : q) // quadrant 1, angle increasing
      all.push_back(p);
    for (auto it = q.rbegin(); it != q.rend(); ++it) // quadrant 2
      all.push_back(vec(-(*it)[0], (*it)[1]));
    for (const auto &p : q) // quadrant 3
      all.push_back(vec(-p[0], -p[1]));
    for (auto it = q.rbegin(); it != q.rend(); ++it) // quadrant 4
      all.push_back(vec((*it)[0], -(*it)[1]));
    DenseSurface d;
    for (std::size_t i = 0; i < all.size(); ++i)
      {
        d.x.push_back(all[i][0]);
        d.y.push_back(all[i][1]);
        d.h_max = std::max(d.h_max, (all[(i + 1) % all.size()] - all[i]).norm());
      }
    return d;
  }

  double
  min_sampled_distance(const DenseSurface &d, const Tensor<1, 2> &m)
  {
    double best = std::numeric_limits<double>::max();
    for (std::size_t i = 0; i < d.x.size(); ++i)
      {
        const double dx = d.x[i] - m[0], dy = d.y[i] - m[1];
        best = std::min(best, dx * dx + dy * dy);
      }
    return std::sqrt(best);
  }

  /// Random points strictly inside the particle: uniform, deep near the centre, near/on the
  /// axes, near the corners (reference point), just below the surface.
  std::vector<Tensor<1, 2>>
  inside_points(const Superellipse &se, const unsigned int n, std::mt19937_64 &rng)
  {
    const SuperellipseShape               &s = se.shape();
    std::uniform_real_distribution<double> U(-1., 1.), U01(0., 1.);
    const Tensor<1, 2>                     po = se.reference_point();
    std::vector<Tensor<1, 2>>              pts;
    while (pts.size() < n)
      {
        Tensor<1, 2> m;
        switch (pts.size() % 7)
          {
            case 0: // uniform in the box
              m = vec(s.r1 * U(rng), s.r2 * U(rng));
              break;
            case 1: // deep, near the centre
              m = std::pow(10., -6. + 5. * U01(rng)) * vec(s.r1 * U(rng), s.r2 * U(rng));
              break;
            case 2: // near or on the d1 axis
              m = vec(s.r1 * U(rng),
                      U01(rng) < 0.2 ?
                          0. :
                          s.r2 * std::pow(10., -12. + 10. * U01(rng)) * (U(rng) < 0 ? -1. : 1.));
              break;
            case 3: // near or on the d2 axis
              m = vec(U01(rng) < 0.2 ?
                          0. :
                          s.r1 * std::pow(10., -12. + 10. * U01(rng)) * (U(rng) < 0 ? -1. : 1.),
                      s.r2 * U(rng));
              break;
            case 4: // towards the corners
              {
                const double f = 1. - std::pow(10., -9. + 8.9 * U01(rng));
                m              = vec((U(rng) < 0 ? -1. : 1.) * (f * po[0] + 1e-3 * r0 * U(rng)),
                        (U(rng) < 0 ? -1. : 1.) * (f * po[1] + 1e-3 * r0 * U(rng)));
                break;
              }
            case 5: // just below the surface, along a random ray
              {
                const double       t = 2. * pi * U01(rng);
                const double       c = std::cos(t), sn = std::sin(t);
                const Tensor<1, 2> y =
                    vec(std::copysign(s.r1 * std::pow(std::abs(c), 2. / s.p1), c),
                        std::copysign(s.r2 * std::pow(std::abs(sn), 2. / s.p2), sn));
                m = (1. - std::pow(10., -10. + 9. * U01(rng))) * y;
                break;
              }
            default: // intermediate depth along a random ray
              m = U01(rng) * vec(s.r1 * U(rng), s.r2 * U(rng));
          }
        if (se.implicit_function(m) < 0.)
          pts.push_back(m);
      }
    return pts;
  }

  /// Checks of a projection against the definition, accumulated as worst values.
  struct ProjectionErrors
  {
    double f_max = 0., ortho_max = 0., excess_max = 0., deficit_max = 0., gap_max = 0.,
           normal_max = 0., kappa_max = 0.;
    Tensor<1, 2> worst_excess_point;
    unsigned int max_iterations = 0;

    void
    check(const Superellipse &se, const DenseSurface &dense, const Tensor<1, 2> &m)
    {
      const auto   p    = se.closest_point_projection(m);
      const double dist = (m - p.point).norm();
      f_max             = std::max(f_max, std::abs(se.implicit_function(p.point)));
      ortho_max         = std::max(ortho_max, std::abs(se.tangent(p.point) * (m - p.point)));
      // y_p is on the surface, hence dist >= true minimum; the samples are on the surface, hence
      // d_sample >= true minimum and d_sample - h_max <= true minimum.
      const double d_sample = min_sampled_distance(dense, m);
      if (dist - d_sample > excess_max)
        {
          excess_max         = dist - d_sample;
          worst_excess_point = m;
        }
      deficit_max       = std::max(deficit_max, d_sample - dense.h_max - dist);
      const double sign = se.implicit_function(m) < 0. ? -1. : 1.;
      gap_max           = std::max(gap_max, std::abs(p.gap - sign * dist));
      normal_max        = std::max(normal_max, (p.normal - se.outward_normal(p.point)).norm());
      kappa_max         = std::max(kappa_max, std::abs(p.curvature - se.curvature(p.point)) * r0);
      max_iterations    = std::max(max_iterations, p.iterations);
    }

    void
    expect_ok(const std::string &label) const
    {
      SCOPED_TRACE(label);
      EXPECT_LE(f_max, 1e-12);
      EXPECT_LE(ortho_max, 1e-10 * r0);
      EXPECT_LE(excess_max, 1e-12 * r0)
          << "not the closest point for m = " << str(worst_excess_point);
      EXPECT_LE(deficit_max, 0.);
      EXPECT_LE(gap_max, 1e-10 * r0);
      EXPECT_LE(normal_max, 1e-12);
      EXPECT_LE(kappa_max, 1e-9);
      EXPECT_LE(max_iterations, 10u); // Newton converges in a few steps
    }
  };
} // namespace

// ---------------------------------------------------------------------------------------------
// Shape parameters
// ---------------------------------------------------------------------------------------------

TEST(SuperellipseShape, NamedDefaultShapes)
{
  const auto c = SuperellipseShape::named("circular", r0);
  EXPECT_EQ(c.r1, r0);
  EXPECT_EQ(c.r2, r0);
  EXPECT_EQ(c.p1, 2.);
  EXPECT_EQ(c.p2, 2.);
  const auto s = SuperellipseShape::named("square", r0);
  EXPECT_EQ(s.r1, r0);
  EXPECT_EQ(s.p1, 4.);
  EXPECT_EQ(s.p2, 4.);
  const auto e = SuperellipseShape::named("elliptical", r0);
  EXPECT_EQ(e.r1, 1.5 * r0);
  EXPECT_EQ(e.r2, r0);
  EXPECT_EQ(e.p1, 2.);
  EXPECT_DOUBLE_EQ(e.aspect_ratio(), 1.5);
  const auto r = SuperellipseShape::named("rectangular", r0);
  EXPECT_EQ(r.r1, 1.5 * r0);
  EXPECT_EQ(r.r2, r0);
  EXPECT_EQ(r.p2, 4.);
}

TEST(SuperellipseShape, ValidateRejectsInvalidParameters)
{
  EXPECT_NO_THROW((SuperellipseShape{r0, r0, 2., 2.}.validate()));
  EXPECT_NO_THROW((SuperellipseShape{r0, 2 * r0, 2., 17.}.validate()));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (const SuperellipseShape bad : {SuperellipseShape{r0, r0, 1.99, 2.},
                                      SuperellipseShape{r0, r0, 2., 1.},
                                      SuperellipseShape{0., r0, 2., 2.},
                                      SuperellipseShape{r0, -r0, 2., 2.},
                                      SuperellipseShape{nan, r0, 2., 2.},
                                      SuperellipseShape{r0, inf, 2., 2.},
                                      SuperellipseShape{r0, r0, nan, 2.},
                                      SuperellipseShape{r0, r0, 2., inf}})
    {
      EXPECT_THROW(bad.validate(), std::invalid_argument);
      EXPECT_THROW(Superellipse{bad}, std::invalid_argument);
    }
  try
    {
      SuperellipseShape{r0, r0, 1.5, 2.}.validate();
      FAIL() << "p1 = 1.5 accepted";
    }
  catch (const std::invalid_argument &e)
    {
      EXPECT_NE(std::string(e.what()).find("p1"), std::string::npos) << e.what();
    }
}

TEST(SuperellipseShape, NamedRejectsUnknownName)
{
  try
    {
      SuperellipseShape::named("hexagonal", r0);
      FAIL() << "unknown name accepted";
    }
  catch (const std::invalid_argument &e)
    {
      EXPECT_NE(std::string(e.what()).find("hexagonal"), std::string::npos) << e.what();
    }
  EXPECT_THROW(SuperellipseShape::named("Circular", r0), std::invalid_argument);
  EXPECT_THROW(SuperellipseShape::named("circular", 0.), std::invalid_argument);
}

TEST(SuperellipseShape, AreaAndPolarMomentAgainstClosedFormsAndQuadrature)
{
  // circle and ellipse in closed form
  const SuperellipseShape circle{0.5, 0.5, 2., 2.}, ellipse{0.75, 0.5, 2., 2.};
  EXPECT_NEAR(circle.area(), M_PI * 0.25, 1e-15);
  EXPECT_NEAR(circle.polar_moment_of_area(), 0.5 * M_PI * std::pow(0.5, 4), 1e-15);
  EXPECT_NEAR(ellipse.area(), M_PI * 0.75 * 0.5, 1e-15);
  EXPECT_NEAR(ellipse.polar_moment_of_area(), 0.25 * M_PI * 0.75 * 0.5 * (0.5625 + 0.25), 1e-15);
  // a large exponent tends to the rectangle 2 r1 x 2 r2: A = 4 r1 r2, J = A (r1^2 + r2^2) / 3
  const SuperellipseShape box{0.75, 0.5, 2000., 2000.};
  EXPECT_NEAR(box.area() / (4. * 0.375), 1., 2e-3);
  EXPECT_NEAR(box.polar_moment_of_area() / (4. * 0.375 * 0.8125 / 3.), 1., 2e-3);
  // any shape against adaptive Gauss-Kronrod quadrature over y1 of the strip of height
  // 2 y2(y1), y2 = r2 (1 - |y1/r1|^p1)^(1/p2): A = ∫ 2 y2, I1 = ∫ 2 y1^2 y2, I2 = ∫ 2/3 y2^3
  for (const SuperellipseShape s : {SuperellipseShape{0.5, 0.5, 4., 4.},
                                    SuperellipseShape{0.75, 0.5, 4., 4.},
                                    SuperellipseShape{0.6, 0.4, 2., 4.},
                                    SuperellipseShape{0.3, 0.7, 3., 2.5}})
    {
      const auto y2 = [&](const double y1) {
        return s.r2 * std::pow(std::max(0., 1. - std::pow(std::abs(y1) / s.r1, s.p1)), 1. / s.p2);
      };
      using boost::math::quadrature::gauss_kronrod;
      const auto integral = [&](const auto &f) {
        return gauss_kronrod<double, 61>::integrate(f, -s.r1, s.r1, 15, 1e-14);
      };
      const double A = integral([&](double y1) { return 2. * y2(y1); });
      const double J = integral([&](double y1) {
        const double h = y2(y1);
        return 2. * y1 * y1 * h + 2. / 3. * h * h * h;
      });
      EXPECT_NEAR(s.area() / A, 1., 1e-9) << s.r1 << ":" << s.r2 << ":" << s.p1 << ":" << s.p2;
      EXPECT_NEAR(s.polar_moment_of_area() / J, 1., 1e-9)
        << s.r1 << ":" << s.r2 << ":" << s.p1 << ":" << s.p2;
    }
}

TEST(SuperellipseShape, HalfWidthBoundContainsParticle)
{
  for (const auto &c : all_shapes())
    {
      SCOPED_TRACE(c.label);
      const auto dense = dense_surface(c.shape, 2000);
      double     r_max = 0.;
      for (std::size_t i = 0; i < dense.x.size(); ++i)
        r_max = std::max(r_max, std::hypot(dense.x[i], dense.y[i]));
      const double bound = c.shape.half_width_bound();
      EXPECT_GE(bound, r_max - 1e-14);
      if (c.shape.p1 == c.shape.p2)
        {
          EXPECT_LE(bound, r_max + dense.h_max); // exact for equal exponents
        }
    }
  EXPECT_NEAR(SuperellipseShape::named("square", r0).half_width_bound(),
              r0 * std::pow(2., 0.25),
              1e-15);
}

// ---------------------------------------------------------------------------------------------
// Local geometry
// ---------------------------------------------------------------------------------------------

TEST(SuperellipseGeometry, NormalTangentCurvatureClosedForms)
{
  const Superellipse circle(SuperellipseShape::named("circular", r0));
  for (const double t : {0., 0.3, 1.7, 3.0, 4.5, 6.0})
    {
      const Tensor<1, 2> y = r0 * vec(std::cos(t), std::sin(t));
      EXPECT_NEAR(circle.implicit_function(y), 0., 1e-15);
      EXPECT_LE((circle.outward_normal(y) - y / r0).norm(), 1e-15);
      EXPECT_LE((circle.tangent(y) - vec(-std::sin(t), std::cos(t))).norm(), 1e-15);
      EXPECT_NEAR(circle.curvature(y), 1. / r0, 1e-13);
    }
  // Ellipse: kappa = r1/r2^2 at (r1, 0), r2/r1^2 at (0, r2).
  const Superellipse ellipse(SuperellipseShape::named("elliptical", r0));
  const double       r1 = 1.5 * r0, r2 = r0;
  EXPECT_NEAR(ellipse.curvature(vec(r1, 0.)), r1 / (r2 * r2), 1e-13);
  EXPECT_NEAR(ellipse.curvature(vec(0., -r2)), r2 / (r1 * r1), 1e-13);
  // p > 2: flat at the axes.
  const Superellipse square(SuperellipseShape::named("square", r0));
  EXPECT_EQ(square.curvature(vec(0., r0)), 0.);
  EXPECT_LE((square.outward_normal(vec(-r0, 0.)) - vec(-1., 0.)).norm(), 0.);
  EXPECT_THROW(square.outward_normal(vec(0., 0.)), std::domain_error);

  // d n / d s = kappa a_T: central differences along the curve, parametrised by u = y1/r1 on the
  // arc near the d2 axis and by v = y2/r2 on the arc near the d1 axis (first quadrant).
  for (const auto &c : all_shapes())
    {
      SCOPED_TRACE(c.label);
      const Superellipse       se(c.shape);
      const SuperellipseShape &s        = c.shape;
      const auto               on_curve = [&s](const bool by_u, const double t) {
        const double e = by_u ? std::pow(1. - std::pow(t, s.p1), 1. / s.p2) :
                                              std::pow(1. - std::pow(t, s.p2), 1. / s.p1);
        return by_u ? vec(s.r1 * t, s.r2 * e) : vec(s.r1 * e, s.r2 * t);
      };
      for (const bool by_u : {true, false})
        for (const double t : {0.1, 0.3, 0.5, 0.65})
          {
            const double       dt = 1e-5;
            const Tensor<1, 2> a = on_curve(by_u, t - dt), y = on_curve(by_u, t),
                               b        = on_curve(by_u, t + dt);
            const Tensor<1, 2> dn       = se.outward_normal(b) - se.outward_normal(a);
            const double       kappa_fd = std::abs(dn * se.tangent(y)) / (b - a).norm();
            EXPECT_NEAR(kappa_fd, se.curvature(y), 1e-6 * (1. / r0 + se.curvature(y)));
            // a_T is the counter-clockwise tangent and d n / ds is along +a_T.
            const double sense = by_u ? -1. : 1.; // increasing u runs clockwise
            EXPECT_GT(sense * ((b - a) * se.tangent(y)), 0.);
            EXPECT_GE(sense * (dn * se.tangent(y)), 0.);
          }
    }
}

TEST(SuperellipseGeometry, ReferencePointAndSlope)
{
  for (const auto &c : all_shapes())
    {
      SCOPED_TRACE(c.label);
      const Superellipse se(c.shape);
      const Tensor<1, 2> po = se.reference_point();
      EXPECT_NEAR(se.implicit_function(po), 0., 1e-14);
      EXPECT_NEAR(po[0], c.shape.aspect_ratio() * po[1], 1e-14 * r0);
      EXPECT_GT(po[0], 0.);
      const Tensor<1, 2> t = se.tangent(po);
      EXPECT_NEAR(se.reference_slope(), t[1] / t[0], 1e-12);
      EXPECT_LT(se.reference_slope(), 0.);
    }
  EXPECT_NEAR(Superellipse(SuperellipseShape::named("circular", r0)).reference_slope(), -1., 1e-15);
}

TEST(SuperellipseGeometry, OutlineCounterClockwiseOnSurface)
{
  for (const auto &c : all_shapes())
    {
      SCOPED_TRACE(c.label);
      const Superellipse se(c.shape);
      const auto         pts = se.outline(64);
      ASSERT_EQ(pts.size(), 64u);
      EXPECT_LE((pts[0] - vec(c.shape.r1, 0.)).norm(), 1e-15);
      double area2 = 0.;
      for (std::size_t i = 0; i < pts.size(); ++i)
        {
          EXPECT_NEAR(se.implicit_function(pts[i]), 0., 1e-13);
          const auto  &a = pts[i], &b = pts[(i + 1) % pts.size()];
          const double cross = a[0] * b[1] - a[1] * b[0];
          EXPECT_GT(cross, 0.); // every edge turns counter-clockwise about the centre
          area2 += cross;
        }
      EXPECT_GT(area2, 0.);
    }
  EXPECT_THROW(Superellipse(SuperellipseShape::named("square", r0)).outline(2),
               std::invalid_argument);
}

TEST(SuperellipseGeometry, FrameMapsRoundTrip)
{
  const Tensor<1, 2> c = vec(1.25, -0.4);
  EXPECT_LE((rotate(pi / 2, vec(1., 0.)) - vec(0., 1.)).norm(), 1e-15);
  EXPECT_LE((particle_to_global(c, pi, vec(0.5, 0.)) - (c + vec(-0.5, 0.))).norm(), 1e-15);
  std::mt19937_64                        rng(7);
  std::uniform_real_distribution<double> U(-1., 1.);
  for (unsigned int i = 0; i < 100; ++i)
    {
      const double       theta = 10. * U(rng);
      const Tensor<1, 2> y     = vec(U(rng), U(rng));
      const Tensor<1, 2> x     = particle_to_global(c, theta, y);
      EXPECT_LE((global_to_particle(c, theta, x) - y).norm(), 1e-14);
      EXPECT_NEAR((x - c).norm(), y.norm(), 1e-14);
    }
}

// ---------------------------------------------------------------------------------------------
// Closest-point projection (docs/methods.md §4.1)
// ---------------------------------------------------------------------------------------------

TEST(SuperellipseProjection, CircleMatchesClosedForm)
{
  const Superellipse                     circle(SuperellipseShape::named("circular", r0));
  std::mt19937_64                        rng(1);
  std::uniform_real_distribution<double> U01(0., 1.);
  double err_point = 0., err_gap = 0., err_normal = 0., err_kappa = 0.;
  for (unsigned int i = 0; i < 10000; ++i)
    {
      // |m| from 1e-3 r0 (deep) to 3 r0 (outside), random direction, including the axes.
      const double rho = r0 * std::pow(10., -3. + 3.5 * U01(rng));
      double       t   = 2. * pi * U01(rng);
      if (i % 50 == 0)
        t = (i / 50 % 4) * pi / 2;
      const Tensor<1, 2> m     = rho * vec(std::cos(t), std::sin(t));
      const auto         p     = circle.closest_point_projection(m);
      const Tensor<1, 2> exact = r0 * m / m.norm();
      err_point                = std::max(err_point, (p.point - exact).norm() / r0);
      err_gap                  = std::max(err_gap, std::abs(p.gap - (m.norm() - r0)) / r0);
      err_normal               = std::max(err_normal, (p.normal - m / m.norm()).norm());
      err_kappa                = std::max(err_kappa, std::abs(p.curvature * r0 - 1.));
    }
  EXPECT_LE(err_point, 1e-12);
  EXPECT_LE(err_gap, 1e-12);
  EXPECT_LE(err_normal, 1e-12);
  EXPECT_LE(err_kappa, 1e-12);
}

TEST(SuperellipseProjection, InsidePointsMatchBruteForce)
{
  std::mt19937_64 rng(2013);
  for (const auto &c : all_shapes())
    {
      const Superellipse se(c.shape);
      const auto         dense = dense_surface(c.shape, 1000);
      ProjectionErrors   errors;
      for (const auto &m : inside_points(se, 10000, rng))
        errors.check(se, dense, m);
      errors.expect_ok(c.label);
    }
}

TEST(SuperellipseProjection, OutsidePointsMatchBruteForce)
{
  std::mt19937_64                        rng(42);
  std::uniform_real_distribution<double> U(-1., 1.), U01(0., 1.);
  for (const auto &c : all_shapes())
    {
      const Superellipse se(c.shape);
      const auto         dense = dense_surface(c.shape, 1000);
      ProjectionErrors   errors;
      unsigned int       n = 0;
      while (n < 2000)
        {
          const double       scale = n % 2 ? 1. + 1e-6 * U01(rng) : 1. + 2. * U01(rng);
          const Tensor<1, 2> m     = scale * vec(c.shape.r1 * U(rng), c.shape.r2 * U(rng)) /
                                 std::max(1e-3, std::max(std::abs(U(rng)), 0.5));
          if (se.implicit_function(m) <= 0.)
            continue;
          errors.check(se, dense, m);
          ++n;
        }
      errors.expect_ok(c.label);
    }
}

TEST(SuperellipseProjection, DeepPointPicksGlobalMinimumNotSectorRoot)
{
  // Flat-sided particle, m deep and close to the d1 axis: the rule m'1/m'2 > a_r of Table 2
  // points to the arc near the d1 axis (distance ~1.3 r0), but the top side (distance ~0.98 r0)
  // is closer. The orthogonal point on the right side is a (farther) local minimum.
  const Superellipse se({1.5 * r0, r0, 10., 10.});
  const Tensor<1, 2> m = vec(0.2 * r0, 0.02 * r0);
  const auto         p = se.closest_point_projection(m);
  EXPECT_GT(p.point[1], 0.999 * r0) << str(p.point);
  EXPECT_NEAR(p.point[0], 0.2 * r0, 1e-6 * r0);
  EXPECT_NEAR(p.gap, -0.98 * r0, 1e-6 * r0);
  // The same on the opposite side (quadrant mapping).
  const auto q = se.closest_point_projection(-m);
  EXPECT_LE((q.point + p.point).norm(), 1e-15);
  EXPECT_LE((q.normal + p.normal).norm(), 1e-15);
}

TEST(SuperellipseProjection, CentreAndAxisPoints)
{
  const Superellipse wide({1.5 * r0, r0, 4., 4.});
  auto               p = wide.closest_point_projection(vec(0., 0.));
  EXPECT_LE((p.point - vec(0., r0)).norm(), 1e-15);
  EXPECT_NEAR(p.gap, -r0, 1e-15);
  const Superellipse tall({r0, 1.5 * r0, 2., 2.});
  p = tall.closest_point_projection(vec(0., 0.));
  EXPECT_LE((p.point - vec(r0, 0.)).norm(), 1e-15);
  // On an axis, away from the centre.
  const Superellipse square(SuperellipseShape::named("square", r0));
  p = square.closest_point_projection(vec(-0.3 * r0, 0.));
  EXPECT_LE((p.point - vec(-r0, 0.)).norm(), 1e-15);
  EXPECT_NEAR(p.gap, -0.7 * r0, 1e-15);
  // Tall ellipse, m on the long axis near the centre: the closest point is on the side.
  p = tall.closest_point_projection(vec(0., 0.1 * r0));
  EXPECT_GT(p.point[0], 0.9 * r0);
  EXPECT_LT((vec(0., 0.1 * r0) - p.point).norm(), r0);
  EXPECT_THROW(square.closest_point_projection(vec(std::nan(""), 0.)), std::invalid_argument);
}

TEST(SuperellipseProjection, LinearisationMatchesFiniteDifferences)
{
  const double h = 1e-6 * r0;
  for (const SuperellipseShape &shape : {SuperellipseShape::named("circular", r0),
                                         SuperellipseShape::named("square", r0),
                                         SuperellipseShape::named("rectangular", r0),
                                         SuperellipseShape{r0, 1.5 * r0, 4., 3.}})
    {
      const Superellipse se(shape);
      for (const Tensor<1, 2> &m : {vec(0.3 * r0, 0.2 * r0),
                                    vec(-0.5 * r0, 0.15 * r0),
                                    vec(0.1 * r0, -0.6 * r0),
                                    vec(-0.62 * r0, -0.55 * r0),
                                    vec(0.75 * r0, 0.05 * r0),
                                    vec(1.4 * r0, 0.9 * r0)}) // outside
        {
          SCOPED_TRACE("shape r1=" + std::to_string(shape.r1) + " p1=" + std::to_string(shape.p1) +
                       " m=" + str(m));
          const auto         p  = se.closest_point_projection(m);
          const Tensor<2, 2> dy = Superellipse::projection_point_derivative(p);
          const Tensor<2, 2> dn = Superellipse::normal_derivative(p);
          Tensor<2, 2>       dy_fd, dn_fd;
          for (unsigned int j = 0; j < 2; ++j)
            {
              Tensor<1, 2> e;
              e[j]             = h;
              const auto plus  = se.closest_point_projection(m + e);
              const auto minus = se.closest_point_projection(m - e);
              for (unsigned int i = 0; i < 2; ++i)
                {
                  dy_fd[i][j] = (plus.point[i] - minus.point[i]) / (2. * h);
                  dn_fd[i][j] = (plus.normal[i] - minus.normal[i]) / (2. * h);
                }
            }
          EXPECT_LE((dy_fd - dy).norm(), 1e-6 * dy.norm());
          EXPECT_LE((dn_fd - dn).norm(), 1e-6 * dn.norm() + 1e-9 / r0);
          EXPECT_GT(dn.norm(), 0.);
        }
    }
  // Not differentiable at the centre of a circle.
  const auto centre =
      Superellipse(SuperellipseShape::named("circular", r0)).closest_point_projection(vec(0., 0.));
  EXPECT_THROW(Superellipse::projection_point_derivative(centre), std::domain_error);
}

// ---------------------------------------------------------------------------------------------
// Particle-surface contact point (docs/methods.md §4.2, eq. 8)
// ---------------------------------------------------------------------------------------------

TEST(SuperellipseLowestPoint, CircleMatchesClosedForm)
{
  const Superellipse                     circle(SuperellipseShape::named("circular", r0));
  std::mt19937_64                        rng(3);
  std::uniform_real_distribution<double> U(-1., 1.);
  double                                 err = 0.;
  for (unsigned int i = 0; i < 1000; ++i)
    {
      const double       theta = i < 8 ? i * pi / 4 : 20. * U(rng);
      const Tensor<1, 2> c     = vec(U(rng), U(rng));
      const Tensor<1, 2> x     = particle_to_global(c, theta, circle.lowest_point(theta));
      err                      = std::max(err, (x - c - vec(0., -r0)).norm() / r0);
    }
  EXPECT_LE(err, 1e-12);
}

TEST(SuperellipseLowestPoint, RandomRotationsMatchDenseSampling)
{
  std::mt19937_64                        rng(8);
  std::uniform_real_distribution<double> U01(0., 1.);
  for (const auto &c : all_shapes())
    {
      SCOPED_TRACE(c.label);
      const Superellipse se(c.shape);
      const auto         dense  = dense_surface(c.shape, 1000);
      double             excess = 0., deficit = 0., slope = 0., normal = 0., f = 0.;
      for (unsigned int i = 0; i < 1000; ++i)
        {
          double theta = 2. * pi * U01(rng);
          if (i < 16)
            theta = i * pi / 8; // axes and diagonals exactly
          else if (i < 20)
            theta = (i % 2 ? 1. : -1.) * 1e-14 + (i - 16) * pi / 2;
          const double       s = std::sin(theta), co = std::cos(theta);
          const Tensor<1, 2> y      = se.lowest_point(theta);
          const double       height = s * y[0] + co * y[1]; // global e2-component of R(theta) y
          double             h_min  = std::numeric_limits<double>::max();
          for (std::size_t k = 0; k < dense.x.size(); ++k)
            h_min = std::min(h_min, s * dense.x[k] + co * dense.y[k]);
          excess  = std::max(excess, height - h_min);
          deficit = std::max(deficit, h_min - dense.h_max - height);
          slope   = std::max(slope, std::abs(rotate(theta, se.tangent(y))[1]));
          normal  = std::max(normal, (rotate(theta, se.outward_normal(y)) - vec(0., -1.)).norm());
          f       = std::max(f, std::abs(se.implicit_function(y)));
        }
      EXPECT_LE(excess, 1e-12 * r0);
      EXPECT_LE(deficit, 0.);
      EXPECT_LE(slope, 1e-10);
      EXPECT_LE(normal, 1e-10);
      EXPECT_LE(f, 1e-12);
    }
}

TEST(SuperellipseLowestPoint, RoundedFlatSidesBoundTheCurvatureAndChangeLittle)
{
  // The flat sides of a p = 4 particle rounded to the largest radius rho (docs/methods.md
  // §5.4): the support function h(theta) = -(R(theta) y_c)_2 must keep h' = -(R y_c)_1 (the
  // contact point is stationary in depth), have h'' + h <= rho (radius of curvature) where the
  // exact one grows without bound, be continuous where the arc meets the surface, and move the
  // surface by little; an ellipse (radius 1.125 mm at its flat-most point) is not rounded.
  const double rho = 50.;
  for (const std::string name : {"rectangular", "square"})
    {
      const Superellipse g(SuperellipseShape::named(name, 0.5));
      const auto          r = g.flat_side_rounding(rho);
      std::cout << "  " << name << ": delta " << r.top_angle << " / " << r.side_angle
                << " rad, largest offset " << r.largest_offset << " mm" << std::endl;
      ASSERT_GT(r.top_angle, 0.);
      ASSERT_GT(r.side_angle, 0.);
      EXPECT_GT(r.largest_offset, 0.);
      EXPECT_LT(r.largest_offset, 1e-4);
      const auto h = [&](const double theta) {
        return -rotate(theta, g.lowest_point(theta, r))[1];
      };
      for (const double theta0 : {0., 0.5 * M_PI, 0.3 * r.top_angle, -0.7 * r.side_angle + M_PI / 2,
                                  r.top_angle, 0.3})
        {
          const double e  = 1e-7;
          const double h1 = (h(theta0 + e) - h(theta0 - e)) / (2. * e);
          const double arm = rotate(theta0, g.lowest_point(theta0, r))[0];
          EXPECT_NEAR(h1, -arm, 1e-6) << name << " theta " << theta0;
          const double e2 = 1e-5;
          const double h2 = (h(theta0 + e2) - 2. * h(theta0) + h(theta0 - e2)) / (e2 * e2);
          EXPECT_LT(h2 + h(theta0), rho * (1. + 1e-3)) << name << " theta " << theta0;
        }
      // the exact surface outside the arcs; continuous where they end
      EXPECT_LT((g.lowest_point(0.3, r) - g.lowest_point(0.3)).norm(), 1e-15);
      for (const double s : {-1., 1.})
        {
          const double a = s * r.top_angle;
          EXPECT_LT((g.lowest_point(a * (1. - 1e-12), r) - g.lowest_point(a * (1. + 1e-12), r)).norm(),
                    1e-9)
            << name;
        }
      // and the exact surface's curvature radius at the axis is unbounded: h'' there far above
      const double e2 = 1e-5;
      const double h_exact = (-rotate(e2, g.lowest_point(e2))[1] + rotate(0., g.lowest_point(0.))[1]) *
                             2. / (e2 * e2);
      EXPECT_GT(h_exact, 10. * rho) << name;
    }
  const Superellipse ellipse(SuperellipseShape::named("elliptical", 0.5));
  const auto         r = ellipse.flat_side_rounding(rho);
  EXPECT_EQ(r.top_angle, 0.);
  EXPECT_EQ(r.side_angle, 0.);
  EXPECT_LT((ellipse.lowest_point(0.1, r) - ellipse.lowest_point(0.1)).norm(), 1e-15);
  EXPECT_THROW(Superellipse(SuperellipseShape::named("square", 0.5)).flat_side_rounding(0.1),
               std::invalid_argument);
}
