// granular-interface: overlap of two superellipse particles (docs/methods.md §4.3). See
// superellipse_pair.h.
#include "geometry/superellipse_pair.h"

#include <boost/math/tools/roots.hpp>
#include <boost/math/tools/toms748_solve.hpp>

#include <deal.II/base/numbers.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace granular::geometry
{
  namespace
  {
    constexpr double eps = std::numeric_limits<double>::epsilon();
    constexpr double pi  = dealii::numbers::PI;

    /// Samples of g over the full circle of the dense restart.
    constexpr unsigned int n_samples = 72;
    /// Largest distance (rad) of a warm-started root from the warm start angle.
    constexpr double largest_warm_start_jump = 0.3;
    /// Largest depth of a warm-started root, as a fraction of the smaller inscribed radius
    /// min(r1, r2): deeper, g may have several local minima and the dense restart decides.
    constexpr double largest_warm_start_depth = 0.2;
    /// Iteration limits of the root finders (Newton's method needs about 3-5).
    constexpr std::uintmax_t max_newton_iterations = 50;
    constexpr std::uintmax_t max_toms748_iterations = 200;

    void
    require_finite(const double value, const char *function, const char *name)
    {
      if (!std::isfinite(value))
        {
          std::ostringstream msg;
          msg << function << ": " << name << " = " << value << " is not finite";
          throw std::invalid_argument(msg.str());
        }
    }

    void
    require_finite(const Tensor<1, 2> &value, const char *function, const char *name)
    {
      if (!(std::isfinite(value[0]) && std::isfinite(value[1])))
        {
          std::ostringstream msg;
          msg << function << ": " << name << " = (" << value[0] << ", " << value[1]
              << ") is not finite (global frame, mm)";
          throw std::invalid_argument(msg.str());
        }
    }

    /// The angle theta' of Superellipse::lowest_point() whose point has the global outward
    /// normal n(normal_angle) on a particle rotated by rotation: the particle-frame normal is
    /// m' = R(rotation)^T n = n(normal_angle - rotation), and lowest_point(theta') has the
    /// particle-frame normal (-sin theta', -cos theta'); so theta' = atan2(-m'_1, -m'_2) =
    /// rotation - normal_angle - pi/2.
    double
    lowest_point_angle(const double rotation, const double normal_angle)
    {
      return rotation - normal_angle - 0.5 * pi;
    }

    /// One particle of the pair.
    struct Particle
    {
      const Superellipse                   &shape;
      const Superellipse::FlatSideRounding &rounding;
      double                                rotation;
    };

    /// g and g' (and g'' if asked) at one angle phi.
    struct Evaluation
    {
      double       phi = 0.;
      Tensor<1, 2> arm_a, arm_b; ///< R_A y_A, R_B y_B (global, mm)
      Tensor<1, 2> point;        ///< p = x_A - x_B = arm_a - arm_b - d, a point of A - B (mm)
      double       g = 0., dg = 0.;
      double       rho_a = 0., rho_b = 0., d2g = 0.; ///< set if with_curvature
      bool         with_curvature = false;
    };

    class PairFunction
    {
    public:
      PairFunction(const Particle &a, const Particle &b, const Tensor<1, 2> &d)
          : a_(a)
          , b_(b)
          , d_(d)
          , scale_(a.shape.shape().half_width_bound() + b.shape.shape().half_width_bound() +
                   d.norm())
      {}

      /// g, g' (and g'' = rho_A + rho_B - g if @p with_curvature) at @p phi.
      Evaluation
      operator()(const double phi, const bool with_curvature)
      {
        ++evaluations;
        Evaluation e;
        e.phi = phi;
        const double theta_a = lowest_point_angle(a_.rotation, phi);
        const double theta_b = lowest_point_angle(b_.rotation, phi + pi); // normal -n
        e.arm_a = rotate(a_.rotation, a_.shape.lowest_point(theta_a, a_.rounding));
        e.arm_b = rotate(b_.rotation, b_.shape.lowest_point(theta_b, b_.rounding));
        e.point = e.arm_a - e.arm_b - d_;
        const double c = std::cos(phi), s = std::sin(phi);
        e.g  = c * e.point[0] + s * e.point[1];
        e.dg = -s * e.point[0] + c * e.point[1];
        if (with_curvature)
          {
            e.with_curvature = true;
            e.rho_a = a_.shape.lowest_point_radius_of_curvature(theta_a, a_.rounding);
            e.rho_b = b_.shape.lowest_point_radius_of_curvature(theta_b, b_.rounding);
            e.d2g   = e.rho_a + e.rho_b - e.g;
          }
        return e;
      }

      /// Size of the terms of g (mm), for round-off levels.
      double
      scale() const
      {
        return scale_;
      }

      unsigned int evaluations = 0;

    private:
      const Particle    &a_, &b_;
      const Tensor<1, 2> d_;
      const double       scale_;
    };

    /// Newton's method cannot continue (g'' not positive and finite): use toms748.
    struct NewtonUnusable
    {};

    /**
     * The root of g' in the bracket [lo, hi] (g'(lo) < 0 < g'(hi)), starting from @p guess
     * (one of the ends or inside): Boost.Math's newton_raphson_iterate with g'' as the
     * derivative, or toms748_solve (no derivative) if Newton's method fails (g'' <= 0 or
     * infinite on the way, an unbounded radius of curvature on an unrounded flat side, or no
     * convergence). Newton's method iterates u = 3 + (phi - phi_lo) in [3, 3 + (hi - lo)], so
     * that Boost's relative stopping test |step| <= 2^-50 |u| is an absolute one in phi, of a
     * few ulp, for any phi (also near 0).
     */
    double
    root_in_bracket(PairFunction     &f,
                    const Evaluation &lo,
                    const Evaluation &hi,
                    const Evaluation &guess)
    {
      constexpr double offset = 3.;
      const double     phi_lo = lo.phi;
      const auto       phi_of = [&](const double u) { return phi_lo + (u - offset); };
      const double     u0     = offset + (guess.phi - phi_lo);
      try
        {
          std::uintmax_t iterations = max_newton_iterations;
          const double   u          = boost::math::tools::newton_raphson_iterate(
            [&](const double u) {
              // the guess is not evaluated again if g'' is known there
              const Evaluation e =
                u == u0 && guess.with_curvature ? guess : f(phi_of(u), true);
              if (!(e.d2g > 0.) || !std::isfinite(e.d2g))
                throw NewtonUnusable();
              return std::make_pair(e.dg, e.d2g);
            },
            u0,
            offset,
            offset + (hi.phi - phi_lo),
            50,
            iterations);
          if (iterations < max_newton_iterations)
            return phi_of(u);
        }
      catch (const NewtonUnusable &)
        {}
      catch (const boost::math::evaluation_error &)
        {}
      // toms748 in phi, to a bracket of a few ulp (absolute, also near phi = 0).
      std::uintmax_t iterations = max_toms748_iterations;
      const double   tolerance  = 4. * eps * std::max({1., std::abs(lo.phi), std::abs(hi.phi)});
      const auto     bracket    = boost::math::tools::toms748_solve(
        [&](const double phi) { return f(phi, false).dg; },
        lo.phi,
        hi.phi,
        lo.dg,
        hi.dg,
        [tolerance](const double a, const double b) { return std::abs(b - a) <= tolerance; },
        iterations);
      return 0.5 * (bracket.first + bracket.second);
    }

    /// phi in (-pi, pi].
    double
    principal_angle(const double phi)
    {
      const double r = std::remainder(phi, 2. * pi);
      return r <= -pi ? r + 2. * pi : r;
    }

    /**
     * Lower bound of g over [a.phi, b.phi] (an interval shorter than pi): g(phi) >= n(phi) . p
     * for any point p of A - B, here the two sampled ones; the minimum of the larger of two
     * sinusoids lies at an end, where they cross, or at the minimum of one of them.
     */
    double
    lower_bound(const Evaluation &a, const Evaluation &b)
    {
      const auto bound = [&](const double phi) {
        const double c = std::cos(phi), s = std::sin(phi);
        return std::max(c * a.point[0] + s * a.point[1], c * b.point[0] + s * b.point[1]);
      };
      const auto inside = [&](const double phi) {
        // phi shifted by a multiple of 2 pi to at least a.phi
        const double shifted =
          a.phi + std::fmod(std::fmod(phi - a.phi, 2. * pi) + 2. * pi, 2. * pi);
        return shifted <= b.phi ? std::optional<double>(shifted) : std::nullopt;
      };
      double     lowest = std::min(bound(a.phi), bound(b.phi));
      const auto q      = a.point - b.point;
      std::vector<double> candidates;
      if (q.norm() > 0.)
        {
          const double along = std::atan2(q[1], q[0]);
          candidates.push_back(along + 0.5 * pi); // crossings: n . q = 0
          candidates.push_back(along - 0.5 * pi);
        }
      for (const auto &p : {a.point, b.point})
        if (p.norm() > 0.)
          candidates.push_back(std::atan2(p[1], p[0]) + pi); // minimum of n . p
      for (const double phi : candidates)
        if (const auto in = inside(phi))
          lowest = std::min(lowest, bound(*in));
      return lowest;
    }
  } // namespace

  SupportPoint
  support_point(const Superellipse                   &shape,
                const Superellipse::FlatSideRounding &rounding,
                const double                          rotation,
                const double                          normal_angle)
  {
    require_finite(rotation, "support_point", "rotation");
    require_finite(normal_angle, "support_point", "normal_angle");
    const double theta = lowest_point_angle(rotation, normal_angle);
    return {shape.lowest_point(theta, rounding),
            shape.lowest_point_radius_of_curvature(theta, rounding)};
  }

  PairOverlap
  pair_overlap(const Superellipse                   &shape_a,
               const Superellipse::FlatSideRounding &rounding_a,
               const Tensor<1, 2>                   &centre_a,
               const double                          rotation_a,
               const Superellipse                   &shape_b,
               const Superellipse::FlatSideRounding &rounding_b,
               const Tensor<1, 2>                   &centre_b,
               const double                          rotation_b,
               const std::optional<double>           warm_start_angle)
  {
    constexpr const char *function = "pair_overlap";
    require_finite(centre_a, function, "centre_a");
    require_finite(rotation_a, function, "rotation_a");
    require_finite(centre_b, function, "centre_b");
    require_finite(rotation_b, function, "rotation_b");
    if (warm_start_angle)
      require_finite(*warm_start_angle, function, "warm_start_angle");

    const Tensor<1, 2> d = centre_b - centre_a;
    const Particle     a{shape_a, rounding_a, rotation_a}, b{shape_b, rounding_b, rotation_b};
    PairFunction       f(a, b, d);
    // round-off level of g and g' (mm)
    const double round_off = 64. * eps * f.scale();

    const auto inscribed = [](const Superellipse &s) {
      return std::min(s.shape().r1, s.shape().r2);
    };
    const double deepest_warm_start =
      largest_warm_start_depth * std::min(inscribed(shape_a), inscribed(shape_b));

    std::optional<Evaluation> solution;
    bool                      dense = true;

    // ---- warm start: the root of g' in a bracket next to the last normal
    if (warm_start_angle)
      {
        const double     phi0 = *warm_start_angle;
        const Evaluation e0   = f(phi0, true);
        std::optional<double> root;
        if (e0.dg == 0.)
          root = phi0;
        else
          {
            // towards decreasing g; first trial at twice the Newton step
            const double direction = e0.dg < 0. ? 1. : -1.;
            double       width = e0.d2g > 0. && std::isfinite(e0.d2g) ?
                                   std::clamp(2. * std::abs(e0.dg / e0.d2g), 1e-8, 0.3) :
                                   0.05;
            for (;;)
              {
                const Evaluation e1 = f(phi0 + direction * width, false);
                if ((e1.dg > 0.) == (e0.dg < 0.) || e1.dg == 0.)
                  {
                    if (e1.dg == 0.)
                      root = e1.phi;
                    else
                      root = direction > 0. ? root_in_bracket(f, e0, e1, e0) :
                                              root_in_bracket(f, e1, e0, e0);
                    break;
                  }
                if (width >= largest_warm_start_jump)
                  break; // no bracket
                width = std::min(largest_warm_start_jump, 8. * width);
              }
          }
        if (root && std::abs(*root - phi0) <= largest_warm_start_jump)
          {
            const Evaluation e = f(principal_angle(*root), true);
            if (e.d2g > 0. && e.g <= deepest_warm_start)
              {
                solution = e;
                dense    = false;
              }
          }
      }

    // ---- dense restart: sample g, solve the sign changes - -> + of g' that can hold the
    // global minimum, lowest bound first
    if (!solution)
      {
        const double phi_base = d.norm() > 0. ? std::atan2(d[1], d[0]) : 0.;
        std::vector<Evaluation> samples;
        samples.reserve(n_samples + 1);
        for (unsigned int k = 0; k < n_samples; ++k)
          samples.push_back(f(phi_base + 2. * pi * k / n_samples, false));
        Evaluation closing = samples.front();
        closing.phi += 2. * pi;
        samples.push_back(closing);
        double smallest_sample = samples.front().g;
        for (const auto &s : samples)
          smallest_sample = std::min(smallest_sample, s.g);

        struct Bracket
        {
          std::size_t k;
          double      bound;
        };
        std::vector<Bracket> brackets;
        for (std::size_t k = 0; k < n_samples; ++k)
          if (samples[k].dg < 0. && samples[k + 1].dg >= 0.)
            brackets.push_back({k, lower_bound(samples[k], samples[k + 1])});
          else if (samples[k].dg == 0.)
            brackets.push_back({k, samples[k].g});
        std::sort(brackets.begin(), brackets.end(), [](const Bracket &x, const Bracket &y) {
          return x.bound < y.bound;
        });

        for (const auto &bracket : brackets)
          {
            if (solution && bracket.bound >= solution->g)
              break; // no other interval can hold a lower minimum
            const Evaluation &lo = samples[bracket.k], &hi = samples[bracket.k + 1];
            double            root;
            if (lo.dg == 0.)
              root = lo.phi;
            else if (hi.dg == 0.)
              root = hi.phi;
            else
              root = root_in_bracket(f, lo, hi, lo.g <= hi.g ? lo : hi);
            const Evaluation e = f(principal_angle(root), true);
            // a minimum: g'' > 0 (or zero within round-off, e.g. concentric circles)
            if (e.d2g > -round_off && (!solution || e.g < solution->g))
              solution = e;
          }
        if (!solution || solution->g > smallest_sample + round_off)
          {
            std::ostringstream msg;
            msg << "pair_overlap: no minimum of the support function of A - B found below its "
                   "sampled values (smallest sample "
                << smallest_sample << " mm)";
            throw std::runtime_error(msg.str());
          }
      }

    const Evaluation &e = *solution;
    PairOverlap       r;
    r.depth        = e.g;
    r.normal_angle = e.phi;
    r.normal[0]    = std::cos(e.phi);
    r.normal[1]    = std::sin(e.phi);
    r.support_point_a       = centre_a + e.arm_a;
    r.support_point_b       = centre_b + e.arm_b;
    r.radius_of_curvature_a = e.rho_a;
    r.radius_of_curvature_b = e.rho_b;
    // Danskin: d delta / d theta_A = n . (e3 x arm_A), e3 x v = (-v2, v1)
    const Tensor<1, 2> &n = r.normal;
    r.depth_gradient      = {{n[0],
                         n[1],
                         -n[0] * e.arm_a[1] + n[1] * e.arm_a[0],
                         -n[0],
                         -n[1],
                         n[0] * e.arm_b[1] - n[1] * e.arm_b[0]}};
    r.evaluations   = f.evaluations;
    r.dense_restart = dense;
    return r;
  }

} // namespace granular::geometry
