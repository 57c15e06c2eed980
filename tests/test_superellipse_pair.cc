// Tests of the overlap of two superellipse particles (docs/methods.md §4.3): the closed form for
// two circles, a dense sampling of the support function of A - B for every pair of default
// shapes, the exchange of A and B, translation invariance, Danskin's gradient against finite
// differences, face-to-face contact of flat sides, the support point's normal and bad input.
#include <contact/contact_parameters.h>
#include <dem/particle_parameters.h>
#include <fem/block_parameters.h>
#include <geometry/superellipse_pair.h>

#include "test_helpers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iostream>
#include <limits>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace granular::geometry;
using dealii::Tensor;
using granular::testing::vec;

namespace
{
  const double pi = std::acos(-1.);

  /// The program's defaults: reference radius r0 (mm), flat-side radius of the particle
  /// contacts (mm), cell length L0 (mm).
  const double r0               = granular::ParticleParameters{}.reference_radius;
  const double flat_side_radius = granular::ParticleSurfaceContactParameters{}.flat_side_radius;
  const double cell_length      = granular::BlockParameters{}.length;

  const std::array<std::string, 4> shape_names = {{"circular", "elliptical", "square",
                                                   "rectangular"}};

  Tensor<1, 2>
  direction(const double phi)
  {
    return vec(std::cos(phi), std::sin(phi));
  }

  /// A particle with its pose: centre (global, mm), rotation (rad).
  struct Body
  {
    Superellipse                   shape;
    Superellipse::FlatSideRounding rounding;
    Tensor<1, 2>                   centre;
    double                         rotation = 0.;

    Body(const std::string &name, const double radius = r0)
        : shape(SuperellipseShape::named(name, radius))
        , rounding(shape.flat_side_rounding(flat_side_radius))
    {}
  };

  PairOverlap
  solve(const Body &a, const Body &b, const std::optional<double> warm_start = std::nullopt)
  {
    return pair_overlap(a.shape,
                        a.rounding,
                        a.centre,
                        a.rotation,
                        b.shape,
                        b.rounding,
                        b.centre,
                        b.rotation,
                        warm_start);
  }

  /// h(n) - n . c of a body about its centre, from its own support point: the surface point
  /// whose particle-frame outward normal is m' = R(rotation)^T n is lowest_point(theta') with
  /// theta' = atan2(-m'_1, -m'_2) (lowest_point(theta') has the outward normal
  /// (-sin theta', -cos theta')).
  double
  support_function(const Body &body, const Tensor<1, 2> &n)
  {
    const Tensor<1, 2> m     = rotate(-body.rotation, n);
    const double       theta = std::atan2(-m[0], -m[1]);
    return n * rotate(body.rotation, body.shape.lowest_point(theta, body.rounding));
  }

  /// g(phi) = h_A(n) + h_B(-n) - n . (c_B - c_A), independent of pair_overlap().
  double
  g(const Body &a, const Body &b, const double phi)
  {
    const Tensor<1, 2> n = direction(phi);
    return support_function(a, n) + support_function(b, -n) - n * (b.centre - a.centre);
  }

  /// Dense sampling of the support function of A - B about the centres, H_k = h_A(n_k) +
  /// h_B(-n_k) at phi_k = 2 pi k / N: g(phi_k) = H_k - n_k . d for any centres.
  struct Sampling
  {
    std::vector<double> phi, H;
  };

  Sampling
  sample(const Body &a, const Body &b, const unsigned int n_samples = 20000)
  {
    Body a0 = a, b0 = b;
    a0.centre = b0.centre = Tensor<1, 2>();
    Sampling s;
    for (unsigned int k = 0; k < n_samples; ++k)
      {
        s.phi.push_back(2. * pi * k / n_samples);
        s.H.push_back(g(a0, b0, s.phi.back()));
      }
    return s;
  }

  /// The smallest sampled value of g for the centre distance d (mm) and its index.
  std::pair<double, std::size_t>
  sampled_minimum(const Sampling &s, const Tensor<1, 2> &d)
  {
    std::pair<double, std::size_t> best{std::numeric_limits<double>::max(), 0};
    for (std::size_t k = 0; k < s.phi.size(); ++k)
      best = std::min(best, std::pair<double, std::size_t>(s.H[k] - direction(s.phi[k]) * d, k));
    return best;
  }

  /// Places B at c_A + s u with the sampled depth @p depth (mm): the sampled minimum is a
  /// concave function of s, above @p depth at s = 0 and decreasing beyond its maximum.
  void
  place_at_depth(const Sampling     &s,
                 const Body         &a,
                 Body               &b,
                 const Tensor<1, 2> &u,
                 const double        depth)
  {
    double lo = 0., hi = 10. * r0;
    for (unsigned int i = 0; i < 100; ++i)
      {
        const double mid = 0.5 * (lo + hi);
        (sampled_minimum(s, mid * u).first > depth ? lo : hi) = mid;
      }
    b.centre = a.centre + 0.5 * (lo + hi) * u;
  }

  /// The sampled minimum of g refined by golden section on the sampling intervals next to the
  /// smallest sample: {phi, g} (a comparison-based minimisation: phi only to about sqrt(eps)).
  std::pair<double, double>
  refined_minimum(const Body &a, const Body &b, const Sampling &s)
  {
    const auto   best = sampled_minimum(s, b.centre - a.centre);
    const double step = 2. * pi / s.phi.size();
    double       lo = s.phi[best.second] - step, hi = s.phi[best.second] + step;
    const double golden = 0.5 * (std::sqrt(5.) - 1.);
    double       x1 = hi - golden * (hi - lo), x2 = lo + golden * (hi - lo);
    double       g1 = g(a, b, x1), g2 = g(a, b, x2);
    for (unsigned int i = 0; i < 100; ++i)
      if (g1 < g2)
        {
          hi = x2, x2 = x1, g2 = g1;
          x1 = hi - golden * (hi - lo), g1 = g(a, b, x1);
        }
      else
        {
          lo = x1, x1 = x2, g1 = g2;
          x2 = lo + golden * (hi - lo), g2 = g(a, b, x2);
        }
    const double phi = 0.5 * (lo + hi);
    return {phi, std::min({g(a, b, phi), g1, g2, best.first})};
  }

  /// The difference of two angles in (-pi, pi].
  double
  angle_difference(const double a, const double b)
  {
    return std::remainder(a - b, 2. * pi);
  }

  /// g'(phi*) = t . (x_A - x_B) at the solution (mm).
  double
  common_normal_residual(const PairOverlap &o)
  {
    const Tensor<1, 2> t = vec(-o.normal[1], o.normal[0]);
    return t * (o.support_point_a - o.support_point_b);
  }
} // namespace

TEST(SuperellipsePair, CirclesMatchClosedForm)
{
  // delta = r_A + r_B - |d|, n = d / |d|, x_A = c_A + r_A n, x_B = c_B - r_B n, rho = r, for
  // equal and different radii, overlapping and apart, at any rotations; cold and warm starts.
  std::mt19937_64                        rng(11);
  std::uniform_real_distribution<double> U(-1., 1.);
  for (const double radius_b : {r0, 0.6 * r0})
    {
      Body         a("circular"), b("circular", radius_b);
      const double sum = r0 + radius_b;
      double       depth = 0., normal = 0., points = 0., curvature = 0., angle = 0.;
      unsigned int overlapping = 0, apart = 0;
      for (unsigned int i = 0; i < 200; ++i)
        {
          a.centre             = vec(U(rng), U(rng));
          a.rotation           = 10. * U(rng);
          b.rotation           = 10. * U(rng);
          const double       s = sum * (1. + 0.1 * U(rng));
          const Tensor<1, 2> u = direction(pi * U(rng));
          b.centre             = a.centre + s * u;
          (s < sum ? overlapping : apart)++;
          const Tensor<1, 2> d = b.centre - a.centre;
          for (const auto &o : {solve(a, b), solve(a, b, std::atan2(u[1], u[0]) + 0.2 * U(rng))})
            {
              depth  = std::max(depth, std::abs(o.depth - (sum - d.norm())) / sum);
              normal = std::max(normal, (o.normal - d / d.norm()).norm());
              const Tensor<1, 2> x_a = a.centre + r0 * o.normal;
              const Tensor<1, 2> x_b = b.centre - radius_b * o.normal;
              points                 = std::max({points,
                                 (o.support_point_a - x_a).norm() / sum,
                                 (o.support_point_b - x_b).norm() / sum});
              curvature = std::max({curvature,
                                    std::abs(o.radius_of_curvature_a - r0) / r0,
                                    std::abs(o.radius_of_curvature_b - radius_b) / radius_b});
              angle = std::max(angle,
                               std::abs(angle_difference(o.normal_angle, std::atan2(u[1], u[0]))));
            }
        }
      std::cout << "  r_B = " << radius_b << " mm: depth " << depth << ", normal " << normal
                << ", points " << points << " (relative)" << std::endl;
      EXPECT_GT(overlapping, 50u);
      EXPECT_GT(apart, 50u);
      EXPECT_LE(depth, 1e-13);
      EXPECT_LE(normal, 1e-13);
      EXPECT_LE(points, 1e-13);
      EXPECT_LE(curvature, 1e-12);
      EXPECT_LE(angle, 1e-13);
    }
}

TEST(SuperellipsePair, AllShapePairsMatchDenseSampling)
{
  // For random poses of every pair of the default shapes with |delta| <= 0.05 r0, delta is
  // the minimum of 20 000 samples of g (never above, and below by no more than the sampling
  // error g'' dphi^2 / 8 with g'' <= rho_A + rho_B - g) and of its refinement by golden
  // section (to round-off); the normal is the refined one; warm starts 3 degrees off give the
  // same phi* to 1e-12 without the dense restart.
  std::mt19937_64                        rng(5);
  std::uniform_real_distribution<double> U(-1., 1.);
  const unsigned int                     n_samples = 20000;
  const double                           step      = 2. * pi / n_samples;
  const double sampling_error = (2. * flat_side_radius + r0) * step * step / 8.;
  double       above = 0., below = 0., refined = 0., normal = 0., warm = 0.;
  unsigned int warm_restarts = 0, warm_evaluations = 0, cold_evaluations = 0, solves = 0;
  for (const auto &name_a : shape_names)
    for (const auto &name_b : shape_names)
      {
        SCOPED_TRACE(name_a + " - " + name_b);
        Body a(name_a), b(name_b);
        for (unsigned int i = 0; i < 4; ++i)
          {
            a.centre         = vec(U(rng), U(rng));
            a.rotation       = pi * U(rng);
            b.rotation       = pi * U(rng);
            const Sampling s = sample(a, b, n_samples);
            place_at_depth(s, a, b, direction(pi * U(rng)), 0.05 * r0 * U(rng));

            const PairOverlap o       = solve(a, b);
            const double      sampled = sampled_minimum(s, b.centre - a.centre).first;
            ASSERT_LE(std::abs(sampled), 0.05 * r0 + sampling_error);
            const auto [phi_ref, g_ref] = refined_minimum(a, b, s);
            above   = std::max(above, o.depth - sampled);
            below   = std::max(below, sampled - o.depth);
            refined = std::max(refined, std::abs(o.depth - g_ref));
            normal  = std::max(normal, std::abs(angle_difference(o.normal_angle, phi_ref)));
            EXPECT_TRUE(o.dense_restart);
            cold_evaluations = std::max(cold_evaluations, o.evaluations);

            for (const double offset : {-3., 3.})
              {
                const PairOverlap w = solve(a, b, o.normal_angle + offset * pi / 180.);
                warm = std::max(warm, std::abs(angle_difference(w.normal_angle, o.normal_angle)));
                warm_restarts += w.dense_restart;
                warm_evaluations = std::max(warm_evaluations, w.evaluations);
              }
            ++solves;
          }
      }
  std::cout << "  " << solves << " poses: delta above the sampled minimum " << above
            << " mm, below " << below << " mm (sampling error " << sampling_error
            << " mm), against the refined minimum " << refined << " mm; normal " << normal
            << " rad; warm starts " << warm << " rad; most evaluations cold "
            << cold_evaluations << ", warm " << warm_evaluations << std::endl;
  EXPECT_LE(above, 1e-14);
  EXPECT_LE(below, sampling_error);
  EXPECT_LE(refined, 1e-14);
  EXPECT_LE(normal, 1e-6);
  EXPECT_LE(warm, 1e-12);
  EXPECT_EQ(warm_restarts, 0u);
}

TEST(SuperellipsePair, DeepOverlapFindsTheGlobalMinimum)
{
  // Deep overlaps (centres up to 1.2 r0 apart), where g has a local minimum for every pair of
  // facing sides (most poses have one above the global minimum): the cold start, and a warm
  // start with the normal turned by 90 degrees, give the global minimum of the samples.
  std::mt19937_64                        rng(13);
  std::uniform_real_distribution<double> U(-1., 1.), U01(0., 1.);
  const unsigned int                     n_samples = 4000;
  const double                           step      = 2. * pi / n_samples;
  const double sampling_error = (2. * flat_side_radius + r0) * step * step / 8.;
  double       above = 0., below = 0.;
  unsigned int poses_with_a_higher_local_minimum = 0;
  for (const auto &name_a : shape_names)
    for (const auto &name_b : shape_names)
      {
        SCOPED_TRACE(name_a + " - " + name_b);
        Body a(name_a), b(name_b);
        for (unsigned int i = 0; i < 4; ++i)
          {
            a.centre         = vec(U(rng), U(rng));
            a.rotation       = pi * U(rng);
            b.rotation       = pi * U(rng);
            b.centre         = a.centre + 1.2 * r0 * U01(rng) * direction(pi * U(rng));
            const Sampling s = sample(a, b, n_samples);
            const double   sampled = sampled_minimum(s, b.centre - a.centre).first;
            const PairOverlap o    = solve(a, b);
            for (const auto &r : {o, solve(a, b, o.normal_angle + 0.5 * pi)})
              {
                above = std::max(above, r.depth - sampled);
                below = std::max(below, sampled - r.depth);
              }
            // local minima of the samples more than 0.01 r0 above the lowest one
            const Tensor<1, 2> d = b.centre - a.centre;
            const auto value = [&](const std::size_t k) {
              return s.H[k % n_samples] - direction(s.phi[k % n_samples]) * d;
            };
            for (std::size_t k = 0; k < n_samples; ++k)
              if (value(k + 1) < value(k) && value(k + 1) <= value(k + 2) &&
                  value(k + 1) > sampled + 0.01 * r0)
                {
                  ++poses_with_a_higher_local_minimum;
                  break;
                }
          }
      }
  std::cout << "  delta above the sampled minimum " << above << " mm, below " << below
            << " mm (sampling error " << sampling_error << " mm); "
            << poses_with_a_higher_local_minimum << " of 64 poses with a higher local minimum"
            << std::endl;
  EXPECT_LE(above, 1e-14);
  EXPECT_LE(below, sampling_error);
  EXPECT_GE(poses_with_a_higher_local_minimum, 32u); // the case is exercised
}

TEST(SuperellipsePair, ExchangingTheParticlesReversesTheNormal)
{
  // B against A: the same depth, the normal reversed, the support points and radii of
  // curvature exchanged, the gradient's blocks exchanged.
  std::mt19937_64                        rng(17);
  std::uniform_real_distribution<double> U(-1., 1.);
  double depth = 0., normal = 0., points = 0., curvature = 0., gradient = 0.;
  for (const auto &name_a : shape_names)
    for (const auto &name_b : shape_names)
      {
        Body a(name_a), b(name_b);
        for (unsigned int i = 0; i < 10; ++i)
          {
            a.centre   = vec(U(rng), U(rng));
            a.rotation = pi * U(rng);
            b.rotation = pi * U(rng);
            b.centre   = a.centre + (1.9 + 0.4 * U(rng)) * r0 * direction(pi * U(rng));
            const PairOverlap ab = solve(a, b), ba = solve(b, a);
            depth  = std::max(depth, std::abs(ab.depth - ba.depth));
            normal = std::max(normal, (ab.normal + ba.normal).norm());
            points = std::max({points,
                               (ab.support_point_a - ba.support_point_b).norm(),
                               (ab.support_point_b - ba.support_point_a).norm()});
            curvature = std::max({curvature,
                                  std::abs(ab.radius_of_curvature_a - ba.radius_of_curvature_b),
                                  std::abs(ab.radius_of_curvature_b - ba.radius_of_curvature_a)});
            for (unsigned int j = 0; j < 6; ++j)
              gradient = std::max(gradient,
                                  std::abs(ab.depth_gradient[j] - ba.depth_gradient[(j + 3) % 6]));
          }
      }
  std::cout << "  depth " << depth << " mm, normal " << normal << ", points " << points
            << " mm, radii " << curvature << " mm, gradient " << gradient << std::endl;
  EXPECT_LE(depth, 1e-14);
  EXPECT_LE(normal, 1e-13);
  EXPECT_LE(points, 1e-12);
  EXPECT_LE(curvature, 1e-10);
  EXPECT_LE(gradient, 1e-12);
}

TEST(SuperellipsePair, DanskinGradientMatchesFiniteDifferences)
{
  // d delta / d(c_A, theta_A, c_B, theta_B) = (n, n . (e3 x (x_A - c_A)), -n,
  // -n . (e3 x (x_B - c_B))) against central differences of delta (warm-started from the
  // unperturbed normal).
  std::mt19937_64                        rng(23);
  std::uniform_real_distribution<double> U(-1., 1.);
  const double                           h     = 1e-7;
  double                                 error = 0., largest_rotation_term = 0.;
  for (const auto &name_a : shape_names)
    for (const auto &name_b : shape_names)
      {
        Body a(name_a), b(name_b);
        for (unsigned int i = 0; i < 4; ++i)
          {
            a.centre   = vec(U(rng), U(rng));
            a.rotation = pi * U(rng);
            b.rotation = pi * U(rng);
            b.centre   = a.centre + (1.9 + 0.4 * U(rng)) * r0 * direction(pi * U(rng));
            const PairOverlap o = solve(a, b);
            for (unsigned int j = 0; j < 6; ++j)
              {
                const auto depth = [&](const double e) {
                  Body a1 = a, b1 = b;
                  Body &k = j < 3 ? a1 : b1;
                  if (j % 3 < 2)
                    k.centre[j % 3] += e;
                  else
                    k.rotation += e;
                  return solve(a1, b1, o.normal_angle).depth;
                };
                const double fd = (depth(h) - depth(-h)) / (2. * h);
                error = std::max(error, std::abs(fd - o.depth_gradient[j]));
                if (j % 3 == 2)
                  largest_rotation_term = std::max(largest_rotation_term, std::abs(fd));
              }
          }
      }
  std::cout << "  largest difference " << error << " (mm/mm, mm/rad)" << std::endl;
  EXPECT_GT(largest_rotation_term, 0.1 * r0); // the rotations' terms are tested
  EXPECT_LE(error, 1e-6);
}

TEST(SuperellipsePair, TranslatingBothParticlesChangesNothing)
{
  // A rigid translation of the pair (a cell length L0 along e1, or any vector) leaves the
  // depth, the normal and the gradient unchanged and moves the support points with it.
  std::mt19937_64                        rng(29);
  std::uniform_real_distribution<double> U(-1., 1.);
  double depth = 0., normal = 0., points = 0., gradient = 0.;
  for (const auto &name_a : shape_names)
    for (const auto &name_b : shape_names)
      {
        Body a(name_a), b(name_b);
        for (unsigned int i = 0; i < 5; ++i)
          {
            a.centre   = vec(U(rng), U(rng));
            a.rotation = pi * U(rng);
            b.rotation = pi * U(rng);
            b.centre   = a.centre + (1.9 + 0.4 * U(rng)) * r0 * direction(pi * U(rng));
            const PairOverlap o = solve(a, b);
            for (const Tensor<1, 2> shift :
                 {vec(cell_length, 0.), vec(-3. * cell_length, 0.), vec(U(rng), 5. * U(rng))})
              {
                Body a1 = a, b1 = b;
                a1.centre += shift;
                b1.centre += shift;
                const PairOverlap t = solve(a1, b1);
                depth  = std::max(depth, std::abs(t.depth - o.depth));
                normal = std::max(normal, (t.normal - o.normal).norm());
                points = std::max({points,
                                   (t.support_point_a - shift - o.support_point_a).norm(),
                                   (t.support_point_b - shift - o.support_point_b).norm()});
                for (unsigned int j = 0; j < 6; ++j)
                  gradient =
                    std::max(gradient, std::abs(t.depth_gradient[j] - o.depth_gradient[j]));
              }
          }
      }
  std::cout << "  depth " << depth << " mm, normal " << normal << ", points " << points
            << " mm, gradient " << gradient << std::endl;
  EXPECT_LE(depth, 1e-13);
  EXPECT_LE(normal, 1e-12);
  EXPECT_LE(points, 1e-11);
  EXPECT_LE(gradient, 1e-12);
}

TEST(SuperellipsePair, FaceToFaceSquaresConvergeToRoundOff)
{
  // Two square (p = 4) particles with a flat side against a flat side, aligned to within
  // 1e-3 rad, touching or overlapping by up to 0.05 r0: the common normal is solved to
  // round-off (g' = t . (x_A - x_B) at the level of 1e-14 of the size, g'' > 0) in a few
  // evaluations from a warm start at the face normal, and delta is the sampled minimum.
  std::mt19937_64                        rng(31);
  std::uniform_real_distribution<double> U(-1., 1.);
  Body                                   a("square"), b("square");
  const unsigned int                     n_samples = 20000;
  const double                           step      = 2. * pi / n_samples;
  const double sampling_error = (2. * flat_side_radius + r0) * step * step / 8.;
  double       residual = 0., smallest_curvature = std::numeric_limits<double>::max();
  double       above = 0., below = 0., refined = 0., warm = 0.;
  unsigned int warm_evaluations = 0, warm_restarts = 0;
  for (unsigned int i = 0; i < 12; ++i)
    {
      a.centre              = vec(U(rng), U(rng));
      a.rotation            = pi * U(rng);
      const double misalign = 1e-3 * U(rng);
      b.rotation            = a.rotation + std::floor(2. + 2. * U(rng)) * 0.5 * pi + misalign;
      const double face     = a.rotation + std::floor(2. + 2. * U(rng)) * 0.5 * pi; // A's face
      const Sampling s      = sample(a, b, n_samples);
      // B opposite A's face, shifted along it by up to 0.3 r0
      const Tensor<1, 2> u =
        (2. * r0 * direction(face) + 0.3 * r0 * U(rng) * direction(face + 0.5 * pi));
      place_at_depth(s, a, b, u / u.norm(), 0.05 * r0 * U(rng));

      const double sampled           = sampled_minimum(s, b.centre - a.centre).first;
      const auto [phi_ref, g_ref]    = refined_minimum(a, b, s);
      for (const auto &o : {solve(a, b), solve(a, b, face)})
        {
          const double size = (o.support_point_a - a.centre).norm() +
                              (o.support_point_b - b.centre).norm() +
                              (b.centre - a.centre).norm() + o.radius_of_curvature_a +
                              o.radius_of_curvature_b;
          residual = std::max(residual, std::abs(common_normal_residual(o)) / size);
          // g'' = rho_A + rho_B - g at the root
          smallest_curvature = std::min(smallest_curvature,
                                        o.radius_of_curvature_a + o.radius_of_curvature_b -
                                          o.depth);
          above   = std::max(above, o.depth - sampled);
          below   = std::max(below, sampled - o.depth);
          refined = std::max(refined, std::abs(o.depth - g_ref));
          // the face contact, not a corner's: the normal joins the centres of the rounded
          // sides' arcs, within about (misalignment + offset / rho) of the face normal
          EXPECT_LE(std::abs(angle_difference(o.normal_angle, face)), 1e-2);
        }
      const PairOverlap w = solve(a, b, face);
      warm_restarts += w.dense_restart;
      warm_evaluations = std::max(warm_evaluations, w.evaluations);
      warm = std::max(warm, std::abs(angle_difference(w.normal_angle, solve(a, b).normal_angle)));
    }
  std::cout << "  |g'| / size " << residual << ", smallest g'' " << smallest_curvature
            << " mm; delta above the sampled minimum " << above << " mm, below " << below
            << " mm, against the refined one " << refined << " mm; warm from the face normal: "
            << warm_evaluations << " evaluations at most" << std::endl;
  EXPECT_LE(residual, 1e-14);
  EXPECT_GT(smallest_curvature, 0.);
  EXPECT_LE(above, 1e-14);
  EXPECT_LE(below, sampling_error);
  EXPECT_LE(refined, 1e-14);
  EXPECT_LE(warm, 1e-12);
  EXPECT_EQ(warm_restarts, 0u);
  EXPECT_LE(warm_evaluations, 12u);
}

TEST(SuperellipsePair, SupportPointHasTheGivenOutwardNormal)
{
  // support_point(rotation, phi): the surface point whose global outward normal is n(phi),
  // i.e. where n . R y is largest over the whole outline (exact surfaces: its normal is the
  // superellipse's).
  std::mt19937_64                        rng(37);
  std::uniform_real_distribution<double> U(-1., 1.);
  for (const auto &name : shape_names)
    {
      const Superellipse                   shape(SuperellipseShape::named(name, r0));
      const Superellipse::FlatSideRounding exact;
      const auto                           outline = shape.outline(20000);
      double                               normal = 0., excess = 0.;
      for (unsigned int i = 0; i < 200; ++i)
        {
          const double       rotation = 4. * U(rng), phi = 4. * U(rng);
          const Tensor<1, 2> n = direction(phi);
          const SupportPoint p = support_point(shape, exact, rotation, phi);
          normal = std::max(normal, (rotate(rotation, shape.outward_normal(p.point)) - n).norm());
          const double h = n * rotate(rotation, p.point);
          for (const auto &y : outline)
            excess = std::max(excess, n * rotate(rotation, y) - h);
          EXPECT_GT(p.radius_of_curvature, 0.);
        }
      EXPECT_LE(normal, 1e-10) << name;
      EXPECT_LE(excess, 1e-12) << name;
    }
}

TEST(SuperellipsePair, NonFiniteInputIsRejectedNamingTheArgument)
{
  Body         a("square"), b("elliptical");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  b.centre         = vec(2. * r0, 0.);
  const auto expect_rejected = [&](const Body &a1, const Body &b1, const std::optional<double> w,
                                   const std::string &argument) {
    try
      {
        solve(a1, b1, w);
        ADD_FAILURE() << argument << " not rejected";
      }
    catch (const std::invalid_argument &e)
      {
        EXPECT_NE(std::string(e.what()).find(argument), std::string::npos) << e.what();
      }
  };
  Body a1 = a, b1 = b;
  a1.centre[1] = nan;
  expect_rejected(a1, b, std::nullopt, "centre_a");
  b1.centre[0] = inf;
  expect_rejected(a, b1, std::nullopt, "centre_b");
  a1 = a, b1 = b;
  a1.rotation = inf;
  expect_rejected(a1, b, std::nullopt, "rotation_a");
  b1.rotation = nan;
  expect_rejected(a, b1, std::nullopt, "rotation_b");
  expect_rejected(a, b, nan, "warm_start_angle");
  EXPECT_THROW(support_point(a.shape, a.rounding, nan, 0.), std::invalid_argument);
  EXPECT_THROW(support_point(a.shape, a.rounding, 0., inf), std::invalid_argument);
  EXPECT_NO_THROW(solve(a, b, 1e3)); // any branch of the warm start angle
}
