// granular-interface: superellipse particle geometry (docs/methods.md §4). See superellipse.h.
#include "geometry/superellipse.h"

#include <boost/math/tools/toms748_solve.hpp>

#include <deal.II/base/numbers.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>
#include <array>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace granular::geometry
{
  namespace
  {
    constexpr double eps = std::numeric_limits<double>::epsilon();

    /// Maximum number of iterations of safeguarded_newton() before it gives up.
    constexpr unsigned int max_newton_iterations = 200;

    /// Work budget (evaluations) of the branch-and-bound refinement in closest_point_projection().
    constexpr int max_refinement_evaluations = 64;

    /// Scan of closest_point_projection(): samples per arc uniform in the arc parameter s, and
    /// samples per quadrant uniform in the normal angle (dense where the curvature is high, where
    /// the distance function can have several local minima).
    constexpr unsigned int scan_uniform_per_arc = 8;
    constexpr unsigned int scan_normal_angles   = 16;

    bool
    is_positive_finite(const double x)
    {
      return std::isfinite(x) && x > 0.;
    }

    /**
     * Safeguarded Newton-Raphson for a scalar root in the bracket [lo, hi] (lo < hi) with
     * fun(lo) < 0 < fun(hi) or fun(lo) > 0 > fun(hi) (signs given by @p f_lo, @p f_hi).
     * @p fun(x) returns {value, derivative}. A Newton step that leaves the current bracket, or
     * one after a step that neither halved |value| nor was half the step before it, is replaced
     * by regula falsi and bisection in turn, so the bracket at least halves every two fallback
     * steps and convergence is guaranteed (cf. Numerical Recipes "rtsafe"). Stops when
     * |value| <= f_tol (its round-off level) or when the step or the bracket is below
     * max(x_tol_abs, 4 eps |x|).
     * @throws std::runtime_error after max_newton_iterations iterations.
     */
    template <typename Function>
    double
    safeguarded_newton(Function    &&fun,
                       double        lo,
                       double        hi,
                       const double  f_lo,
                       const double  f_hi,
                       const double  x_tol_abs,
                       const double  f_tol,
                       unsigned int &iterations)
    {
      if (!(f_lo * f_hi < 0.))
        throw std::runtime_error("superellipse: safeguarded Newton called without a sign change");
      // Bracket: the function is negative at x_neg and positive at x_pos.
      double     x_neg = f_lo < 0. ? lo : hi, f_neg = f_lo < 0. ? f_lo : f_hi;
      double     x_pos = f_lo < 0. ? hi : lo, f_pos = f_lo < 0. ? f_hi : f_lo;
      const auto regula_falsi = [&]() { return x_neg - f_neg * (x_pos - x_neg) / (f_pos - f_neg); };
      iterations              = 0;
      if (std::abs(f_lo) <= f_tol || std::abs(f_hi) <= f_tol)
        return std::abs(f_lo) <= std::abs(f_hi) ? lo : hi;

      double x = regula_falsi();
      if (!(x > lo && x < hi))
        x = 0.5 * (lo + hi);
      double dx = hi - lo, dx_old = hi - lo;
      double f_previous   = std::max(std::abs(f_lo), std::abs(f_hi));
      bool   next_bisects = false; // fallback steps alternate regula falsi / bisection

      for (iterations = 1; iterations <= max_newton_iterations; ++iterations)
        {
          const auto [f, df] = fun(x);
          if (std::abs(f) <= f_tol)
            return x;
          if (f < 0.)
            x_neg = x, f_neg = f;
          else
            x_pos = x, f_pos = f;
          const double a = std::min(x_neg, x_pos), b = std::max(x_neg, x_pos);

          const double x_newton = x - f / df; // NaN/inf if df == 0: rejected below
          if (std::abs(f / df) <= std::max(x_tol_abs, 4. * eps * std::abs(x)))
            return x_newton; // converged (the step may round to x itself)
          dx_old = dx;
          // Newton is accepted inside the closed bracket (a root may lie within round-off of an
          // end) unless the last step neither halved |f| nor was half the step before it.
          const bool slow =
              std::abs(f) > 0.5 * f_previous && std::abs(2. * f) > std::abs(dx_old * df);
          double x_new;
          if (x_newton >= a && x_newton <= b && !slow)
            x_new = x_newton;
          else if (!next_bisects && regula_falsi() > a && regula_falsi() < b)
            {
              x_new        = regula_falsi();
              next_bisects = true;
            }
          else
            {
              x_new        = 0.5 * (a + b);
              next_bisects = false;
            }
          dx         = x_new - x;
          x          = x_new;
          f_previous = std::abs(f);

          const double tol = std::max(x_tol_abs, 4. * eps * std::abs(x));
          if (std::abs(dx) <= tol || b - a <= tol)
            return x;
        }
      throw std::runtime_error("superellipse: safeguarded Newton did not converge");
    }

    /// Circumradius max |y| of the superellipse (r1, r2, p, p) (see half_width_bound()).
    double
    circumradius_equal_exponents(const double r1, const double r2, const double p)
    {
      double r = std::max(r1, r2);
      if (p > 2.)
        {
          // Interior stationary point of |y|^2 on u^p + v^p = 1: u / v = (r1/r2)^(2/(p-2)).
          const double k = std::pow(r1 / r2, 2. / (p - 2.));
          double       u, v;
          if (k <= 1.)
            {
              v = std::pow(1. + std::pow(k, p), -1. / p);
              u = k * v;
            }
          else
            {
              u = std::pow(1. + std::pow(1. / k, p), -1. / p);
              v = u / k;
            }
          r = std::max(r, std::hypot(r1 * u, r2 * v));
        }
      return r;
    }

    /// A point of the first-quadrant arc: u = y'_1/r1, v = y'_2/r2, and on which arc it lies
    /// (first: between the d2 axis and P_o, unknown y'_1; else between P_o and the d1 axis).
    struct ArcSolution
    {
      double u, v;
      bool   first_arc;
    };

    /**
     * The first-quadrant surface point whose outward normal is parallel to (a1, a2), a_i >= 0,
     * not both zero (inverse Gauss map; Temizer 2013 eq. 8 with the slope s' = -a1/a2). @p w
     * locates P_o = (r1 w, r2 w). Solved by safeguarded Newton in y'_1 if |s'| <= |s_o| (first
     * arc), else in y'_2, with the well-conditioned unknown z = u^(p1-1) (resp. z = v^(p2-1)):
     * the residual psi(z) = f_1 a2 - f_2 a1 (resp. f_2 a1 - f_1 a2) is increasing and nearly
     * linear in z.
     */
    ArcSolution
    point_with_normal(const SuperellipseShape &sh, const double w, const double a1, const double a2)
    {
      if (a1 == 0.)
        return {0., 1., true};
      if (a2 == 0.)
        return {1., 0., false};
      const double p1 = sh.p1, p2 = sh.p2, r1 = sh.r1, r2 = sh.r2;
      // Gradient at P_o: f_1/f_2 = |s_o| there.
      const double f1o = p1 / r1 * std::pow(w, p1 - 1.), f2o = p2 / r2 * std::pow(w, p2 - 1.);
      const bool   first_arc = a1 * f2o <= a2 * f1o;
      // Unknown z on the chosen arc: (ua, ub) = (u, v) on the first arc, (v, u) on the second.
      const double pa = first_arc ? p1 : p2, pb = first_arc ? p2 : p1;
      const double ra = first_arc ? r1 : r2, rb = first_arc ? r2 : r1;
      const double aa = first_arc ? a2 : a1, ab = first_arc ? a1 : a2;
      const auto   point = [&](const double z) {
        const double ua = std::pow(z, 1. / (pa - 1.));
        return std::make_pair(ua, std::pow(std::max(0., 1. - std::pow(ua, pa)), 1. / pb));
      };
      const auto psi = [&](const double z) {
        const auto [ua, ub] = point(z);
        const double value  = pa / ra * z * aa - pb / rb * std::pow(ub, pb - 1.) * ab;
        const double deriv =
            pa / ra * aa + pb / rb * ab * (pb - 1.) * pa * ua / (pb * (pa - 1.) * ub);
        return std::make_pair(value, deriv);
      };
      const double z_max = std::pow(w, pa - 1.);
      const double f_lo = psi(0.).first, f_hi = psi(z_max).first;
      unsigned int its = 0;
      const double z =
          f_hi <= 0. ? z_max :
                       safeguarded_newton(
                           psi, 0., z_max, f_lo, f_hi, std::numeric_limits<double>::min(), 0., its);
      const auto [ua, ub] = point(z);
      return first_arc ? ArcSolution{ua, ub, true} : ArcSolution{ub, ua, false};
    }
  } // namespace

  // ------------------------------------------------------------------------------------------
  // SuperellipseShape
  // ------------------------------------------------------------------------------------------

  SuperellipseShape
  SuperellipseShape::named(const std::string &name, const double r0)
  {
    if (!is_positive_finite(r0))
      {
        std::ostringstream msg;
        msg << "SuperellipseShape::named: reference radius r0 must be a positive finite length "
               "(mm), got "
            << r0;
        throw std::invalid_argument(msg.str());
      }
    SuperellipseShape s;
    if (name == "circular")
      s = {r0, r0, 2., 2.};
    else if (name == "square")
      s = {r0, r0, 4., 4.};
    else if (name == "elliptical")
      s = {1.5 * r0, r0, 2., 2.};
    else if (name == "rectangular")
      s = {1.5 * r0, r0, 4., 4.};
    else
      throw std::invalid_argument("SuperellipseShape::named: unknown particle shape \"" + name +
                                  "\" (known: circular, square, elliptical, rectangular)");
    s.validate();
    return s;
  }

  SuperellipseShape
  SuperellipseShape::from_text(const std::string &text, const double r0)
  {
    std::vector<std::string> fields;
    std::string              field;
    std::istringstream       in(text);
    while (std::getline(in, field, ':'))
      {
        const auto first = field.find_first_not_of(" \t");
        const auto last  = field.find_last_not_of(" \t");
        fields.push_back(first == std::string::npos ? "" :
                                                      field.substr(first, last - first + 1));
      }
    if (fields.size() == 1)
      return named(fields[0], r0);
    if (fields.size() != 4)
      throw std::invalid_argument("shape '" + text +
                                  "' is neither a named shape nor r1:r2:p1:p2");
    double v[4];
    for (unsigned int i = 0; i < 4; ++i)
      {
        char *end = nullptr;
        v[i]      = std::strtod(fields[i].c_str(), &end);
        if (fields[i].empty() || end == nullptr || *end != '\0')
          throw std::invalid_argument("shape '" + text + "': r1:r2:p1:p2 must be numbers");
      }
    const SuperellipseShape s{v[0], v[1], v[2], v[3]};
    try
      {
        s.validate();
      }
    catch (const std::invalid_argument &e)
      {
        throw std::invalid_argument("shape '" + text + "': " + e.what());
      }
    return s;
  }

  void
  SuperellipseShape::validate() const
  {
    std::ostringstream msg;
    if (!is_positive_finite(r1))
      msg << "r1 = " << r1 << " must be a positive finite length (mm); ";
    if (!is_positive_finite(r2))
      msg << "r2 = " << r2 << " must be a positive finite length (mm); ";
    if (!(std::isfinite(p1) && p1 >= 2.))
      msg << "p1 = " << p1 << " must be a finite exponent >= 2 (convexity); ";
    if (!(std::isfinite(p2) && p2 >= 2.))
      msg << "p2 = " << p2 << " must be a finite exponent >= 2 (convexity); ";
    if (!msg.str().empty())
      throw std::invalid_argument("invalid superellipse shape: " + msg.str());
  }

  double
  SuperellipseShape::aspect_ratio() const
  {
    return r1 / r2;
  }

  double
  SuperellipseShape::half_width_bound() const
  {
    // The particle (p1, p2) lies inside the superellipse with p = max(p1, p2): for t in [0, 1],
    // t^p <= t^p_i.
    return circumradius_equal_exponents(r1, r2, std::max(p1, p2));
  }

  double
  SuperellipseShape::area() const
  {
    validate();
    return 4. * r1 * r2 * std::tgamma(1. + 1. / p1) * std::tgamma(1. + 1. / p2) /
           std::tgamma(1. + 1. / p1 + 1. / p2);
  }

  double
  SuperellipseShape::polar_moment_of_area() const
  {
    validate();
    // ∫∫_{u, v >= 0, u^p + v^q <= 1} u^(a-1) v^(b-1) du dv = Γ(a/p) Γ(b/q) / (p q Γ(1 + a/p + b/q))
    const auto dirichlet = [](const double a, const double p, const double b, const double q) {
      return std::tgamma(a / p) * std::tgamma(b / q) / (p * q * std::tgamma(1. + a / p + b / q));
    };
    return 4. * r1 * r2 * (r1 * r1 * dirichlet(3., p1, 1., p2) + r2 * r2 * dirichlet(1., p1, 3., p2));
  }

  // ------------------------------------------------------------------------------------------
  // Superellipse
  // ------------------------------------------------------------------------------------------

  Superellipse::Superellipse(const SuperellipseShape &shape)
      : shape_(shape)
      , w_(0.)
  {
    shape_.validate();
    const double p1 = shape_.p1, p2 = shape_.p2;
    if (p1 == p2)
      w_ = std::pow(0.5, 1. / p1);
    else
      {
        unsigned int its = 0;
        w_               = safeguarded_newton(
            [p1, p2](const double w) {
              return std::make_pair(std::pow(w, p1) + std::pow(w, p2) - 1.,
                                    p1 * std::pow(w, p1 - 1.) + p2 * std::pow(w, p2 - 1.));
            },
            0.,
            1.,
            -1.,
            1.,
            4. * eps,
            0.,
            its);
      }

    // Scan grid of the projection in the arc parameter s in [0, 2] (see evaluate_arc(): s = u/w
    // on the first arc, s = 2 - v/w on the second).
    for (unsigned int j = 0; j <= 2 * scan_uniform_per_arc; ++j)
      scan_.push_back(static_cast<double>(j) / scan_uniform_per_arc);
    for (unsigned int k = 1; k < scan_normal_angles; ++k)
      {
        const double      alpha = 0.5 * dealii::numbers::PI * k / scan_normal_angles;
        const ArcSolution a     = point_with_normal(shape_, w_, std::cos(alpha), std::sin(alpha));
        scan_.push_back(a.first_arc ? std::min(1., a.u / w_) : std::max(1., 2. - a.v / w_));
      }
    std::sort(scan_.begin(), scan_.end());
    scan_.erase(std::unique(scan_.begin(),
                            scan_.end(),
                            [](const double a, const double b) { return b - a < 1e-9; }),
                scan_.end());
    scan_.back() = 2.;
  }

  const SuperellipseShape &
  Superellipse::shape() const
  {
    return shape_;
  }

  double
  Superellipse::implicit_function(const Tensor<1, 2> &y) const
  {
    return std::pow(std::abs(y[0]) / shape_.r1, shape_.p1) +
           std::pow(std::abs(y[1]) / shape_.r2, shape_.p2) - 1.;
  }

  namespace
  {
    /// First and second derivatives of f at y: {f_1, f_2, f_11, f_22} (f_12 = 0).
    std::array<double, 4>
    implicit_derivatives(const SuperellipseShape &s, const Tensor<1, 2> &y)
    {
      if (!(std::isfinite(y[0]) && std::isfinite(y[1])))
        throw std::domain_error("superellipse: point is not finite");
      const double a = std::abs(y[0]) / s.r1, b = std::abs(y[1]) / s.r2;
      const double a2 = std::pow(a, s.p1 - 2.), b2 = std::pow(b, s.p2 - 2.); // pow(0,0) = 1
      const double f1  = std::copysign(s.p1 / s.r1 * a2 * a, y[0]);
      const double f2  = std::copysign(s.p2 / s.r2 * b2 * b, y[1]);
      const double f11 = s.p1 * (s.p1 - 1.) / (s.r1 * s.r1) * a2;
      const double f22 = s.p2 * (s.p2 - 1.) / (s.r2 * s.r2) * b2;
      if (f1 == 0. && f2 == 0.)
        throw std::domain_error(
            "superellipse: the normal is undefined where grad f = 0 (point at the centre)");
      return {{f1, f2, f11, f22}};
    }
  } // namespace

  Tensor<1, 2>
  Superellipse::outward_normal(const Tensor<1, 2> &y) const
  {
    const auto   d    = implicit_derivatives(shape_, y);
    const double norm = std::hypot(d[0], d[1]);
    Tensor<1, 2> n;
    n[0] = d[0] / norm;
    n[1] = d[1] / norm;
    return n;
  }

  Tensor<1, 2>
  Superellipse::tangent(const Tensor<1, 2> &y) const
  {
    const Tensor<1, 2> n = outward_normal(y);
    Tensor<1, 2>       t;
    t[0] = -n[1];
    t[1] = n[0];
    return t;
  }

  double
  Superellipse::curvature(const Tensor<1, 2> &y) const
  {
    const auto   d    = implicit_derivatives(shape_, y);
    const double norm = std::hypot(d[0], d[1]);
    return (d[2] * d[1] * d[1] + d[3] * d[0] * d[0]) / (norm * norm * norm);
  }

  namespace
  {
    /**
     * A point of the first-quadrant arc and the orthogonality residual of the projection of m'.
     *
     * Arc parameter s in [0, 2], running clockwise from the d2 axis (s = 0, y' = (0, r2)) via the
     * reference point P_o (s = 1) to the d1 axis (s = 2). With u = y'_1/r1, v = y'_2/r2:
     *   s <= 1: unknown u = w s,       v = (1 - u^p1)^(1/p2)   (arc d2-axis .. P_o)
     *   s >  1: unknown v = w (2 - s), u = (1 - v^p2)^(1/p1)   (arc P_o .. d1-axis)
     * i.e. the constraint is eliminated in the well-conditioned component (Temizer 2013 Table 2).
     */
    struct ArcPoint
    {
      double s  = 0.;
      double y1 = 0., y2 = 0.; ///< y' (mm)
      double n1 = 0., n2 = 0.; ///< outward unit normal
      double kappa = 0.;       ///< curvature (1/mm)
      double gap   = 0.;       ///< n . (m' - y') (mm)
      double phi   = 0.;       ///< a_T . (m' - y') (mm), a_T = (-n2, n1)
      double dphi  = 0.;       ///< d phi / d s = (1 + kappa gap) |d y'/d s| (mm)
      double dist2 = 0.;       ///< |m' - y'|^2 (mm^2)
    };

    ArcPoint
    evaluate_arc(const SuperellipseShape &sh,
                 const double             w,
                 const double             m1,
                 const double             m2,
                 const double             s)
    {
      ArcPoint     a;
      const double p1 = sh.p1, p2 = sh.p2, r1 = sh.r1, r2 = sh.r2;
      const bool   first_arc = s <= 1.;
      double       u, v;
      if (first_arc)
        {
          u = w * s;
          v = std::pow(std::max(0., 1. - std::pow(u, p1)), 1. / p2);
        }
      else
        {
          v = w * (2. - s);
          u = std::pow(std::max(0., 1. - std::pow(v, p2)), 1. / p1);
        }
      const double u2 = std::pow(u, p1 - 2.), v2 = std::pow(v, p2 - 2.); // pow(0, 0) = 1
      const double f1 = p1 / r1 * u2 * u, f2 = p2 / r2 * v2 * v;
      const double f11 = p1 * (p1 - 1.) / (r1 * r1) * u2, f22 = p2 * (p2 - 1.) / (r2 * r2) * v2;
      const double g = std::hypot(f1, f2); // > 0: max(u, v) >= w > 0

      a.s     = s;
      a.y1    = r1 * u;
      a.y2    = r2 * v;
      a.n1    = f1 / g;
      a.n2    = f2 / g;
      a.kappa = (f11 * f2 * f2 + f22 * f1 * f1) / (g * g * g);

      const double d1 = m1 - a.y1, d2 = m2 - a.y2;
      a.gap   = a.n1 * d1 + a.n2 * d2;
      a.phi   = -a.n2 * d1 + a.n1 * d2;
      a.dist2 = d1 * d1 + d2 * d2;
      // |dy'/ds|: first arc dy'_1/ds = r1 w, |dy'| = |dy'_1| |grad f| / f_2; second arc likewise.
      const double speed = first_arc ? r1 * w * g / f2 : r2 * w * g / f1;
      // d phi / d(arc length, counter-clockwise) = -(1 + kappa gap); s runs clockwise.
      a.dphi = (1. + a.kappa * a.gap) * speed;
      return a;
    }
  } // namespace

  Superellipse::Projection
  Superellipse::closest_point_projection(const Tensor<1, 2> &m) const
  {
    if (!(std::isfinite(m[0]) && std::isfinite(m[1])))
      throw std::invalid_argument("Superellipse::closest_point_projection: point is not finite");

    const SuperellipseShape &sh = shape_;
    Projection               result;

    if (m[0] == 0. && m[1] == 0.)
      {
        // Centre: every direction is equally "deep"; take the nearer axis end.
        Tensor<1, 2> y;
        if (sh.r2 <= sh.r1)
          y[1] = sh.r2;
        else
          y[0] = sh.r1;
        result.point      = y;
        result.normal     = outward_normal(y);
        result.gap        = -(sh.r2 <= sh.r1 ? sh.r2 : sh.r1);
        result.curvature  = curvature(y);
        result.iterations = 0;
        return result;
      }

    // (i) Quadrant reduction.
    const double q1 = m[0] < 0. ? -1. : 1., q2 = m[1] < 0. ? -1. : 1.;
    const double m1 = std::abs(m[0]), m2 = std::abs(m[1]);
    const double w    = w_;
    const auto   eval = [&](const double s) { return evaluate_arc(sh, w, m1, m2, s); };

    // The best local minimum of the distance found so far.
    ArcPoint     best;
    bool         have_best       = false;
    unsigned int best_iterations = 0;
    const auto   consider        = [&](const ArcPoint &a, const unsigned int its) {
      if (!have_best || a.dist2 < best.dist2)
        {
          best            = a;
          best_iterations = its;
          have_best       = true;
        }
    };

    // Round-off level of phi = a_T . (m' - y'): terms of size |m'| and |y'| <= max(r1, r2).
    const double phi_round_off = 4. * eps * (m1 + m2 + std::max(sh.r1, sh.r2));

    // Solve phi = 0 in a bracket with phi(lo) < 0 < phi(hi): a local minimum of the distance.
    const auto solve = [&](const ArcPoint &lo, const ArcPoint &hi) {
      unsigned int its = 0;
      const double s   = safeguarded_newton(
          [&](const double x) {
            const ArcPoint a = eval(x);
            return std::make_pair(a.phi, a.dphi);
          },
          lo.s,
          hi.s,
          lo.phi,
          hi.phi,
          4. * eps,
          phi_round_off,
          its);
      consider(eval(s), its);
      return its + 1;
    };

    // Lower bound of |m' - y| over the arc between a and b: the convex arc lies in the triangle
    // of its chord and its end tangents, i.e. within (c/2) tan(dpsi/2) of the chord (c: chord
    // length, dpsi <= pi/2: turning of the normal between a and b).
    const auto lower_bound = [&](const ArcPoint &a, const ArcPoint &b) {
      const double cx = b.y1 - a.y1, cy = b.y2 - a.y2, c2 = cx * cx + cy * cy;
      const double t =
          c2 > 0. ? std::clamp(((m1 - a.y1) * cx + (m2 - a.y2) * cy) / c2, 0., 1.) : 0.;
      const double cross = std::abs(a.n1 * b.n2 - a.n2 * b.n1), dot = a.n1 * b.n1 + a.n2 * b.n2;
      const double sag = 0.5 * std::sqrt(c2) * cross / (1. + dot);
      return std::hypot(m1 - a.y1 - t * cx, m2 - a.y2 - t * cy) - sag;
    };
    // phi is monotone between a and b if phi' has the same strict sign at both ends; otherwise a
    // fold (1 + kappa g_N = 0) lies in between and the interval may hide a pair of roots.
    const auto monotone = [](const ArcPoint &a, const ArcPoint &b) {
      return (a.dphi > 0. && b.dphi > 0.) || (a.dphi < 0. && b.dphi < 0.);
    };
    struct Interval
    {
      ArcPoint a, b;
      double   bound; ///< lower bound of the distance over the arc (mm)
      bool
      operator<(const Interval &other) const
      {
        return bound > other.bound;
      } // min-heap
    };
    std::vector<Interval> suspicious;

    // (ii)-(iii) Pass 1: scan the quadrant arc; every sign change phi: - -> + (phi is
    // proportional to d|m' - y'|^2 / ds) brackets a local minimum of the distance: solve it.
    ArcPoint a = eval(scan_.front());
    if (a.phi == 0.)
      consider(a, 0);
    for (std::size_t j = 1; j < scan_.size(); ++j)
      {
        const ArcPoint b = eval(scan_[j]);
        if (b.phi == 0.)
          consider(b, 0);
        if (a.phi < 0. && b.phi > 0.)
          solve(a, b);
        if (!monotone(a, b))
          suspicious.push_back({a, b, lower_bound(a, b)});
        a = b;
      }

    // Pass 2: branch and bound on the non-monotone intervals, most promising first: bisect those
    // whose distance lower bound is below the best distance found, solve new brackets. Bounded
    // work: only near-degenerate points (e.g. near the centre of a circle, where all candidates
    // are equally far within the bound) exhaust the budget, and there any candidate is fine.
    std::make_heap(suspicious.begin(), suspicious.end());
    int budget = max_refinement_evaluations;
    while (!suspicious.empty() && budget > 0)
      {
        std::pop_heap(suspicious.begin(), suspicious.end());
        const Interval interval = suspicious.back();
        suspicious.pop_back();
        if (have_best && interval.bound >= std::sqrt(best.dist2))
          break; // no interval left can contain a closer point
        if (interval.b.s - interval.a.s <= 64. * eps)
          continue;
        const ArcPoint c = eval(0.5 * (interval.a.s + interval.b.s));
        --budget;
        if (c.phi == 0.)
          consider(c, 0);
        for (const auto &[x, y] : {std::make_pair(interval.a, c), std::make_pair(c, interval.b)})
          {
            if (x.phi < 0. && y.phi > 0.)
              budget -= static_cast<int>(solve(x, y));
            if (!monotone(x, y))
              {
                suspicious.push_back({x, y, lower_bound(x, y)});
                std::push_heap(suspicious.begin(), suspicious.end());
              }
          }
      }
    if (!have_best)
      throw std::runtime_error("Superellipse::closest_point_projection: no stationary point found");

    // (iv) Map back from the first quadrant.
    result.point[0]   = q1 * best.y1;
    result.point[1]   = q2 * best.y2;
    result.normal[0]  = q1 * best.n1;
    result.normal[1]  = q2 * best.n2;
    result.gap        = best.gap;
    result.curvature  = best.kappa;
    result.iterations = best_iterations;
    return result;
  }

  namespace
  {
    double
    stiffness_factor(const Superellipse::Projection &p)
    {
      const double d = 1. + p.curvature * p.gap;
      if (!(d > 0.))
        throw std::domain_error("Superellipse: projection not differentiable (1 + kappa g_N <= 0, "
                                "the point is at or beyond the centre of curvature)");
      return d;
    }
  } // namespace

  Tensor<2, 2>
  Superellipse::projection_point_derivative(const Projection &p)
  {
    Tensor<1, 2> t;
    t[0] = -p.normal[1];
    t[1] = p.normal[0];
    return dealii::outer_product(t, t) / stiffness_factor(p);
  }

  Tensor<2, 2>
  Superellipse::normal_derivative(const Projection &p)
  {
    Tensor<1, 2> t;
    t[0] = -p.normal[1];
    t[1] = p.normal[0];
    return (p.curvature / stiffness_factor(p)) * dealii::outer_product(t, t);
  }

  Tensor<1, 2>
  Superellipse::lowest_point(const double theta) const
  {
    if (!std::isfinite(theta))
      throw std::invalid_argument("Superellipse::lowest_point: theta is not finite");
    const SuperellipseShape &sh = shape_;

    // Particle-frame outward normal of the lowest point: R(theta)^T (-e2) = (-sin, -cos).
    const double n1 = -std::sin(theta), n2 = -std::cos(theta);
    const double q1 = n1 < 0. ? -1. : 1., q2 = n2 < 0. ? -1. : 1.;
    const double a1 = std::abs(n1), a2 = std::abs(n2); // first-quadrant normal direction

    const ArcSolution sol = point_with_normal(sh, w_, a1, a2);
    const double      y1 = sh.r1 * sol.u, y2 = sh.r2 * sol.v;
    Tensor<1, 2>      y;
    y[0] = q1 * y1;
    y[1] = q2 * y2;
    return y;
  }

  Superellipse::FlatSideRounding
  Superellipse::flat_side_rounding(const double radius) const
  {
    if (!(radius > 0.) || !std::isfinite(radius))
      throw std::invalid_argument("Superellipse::flat_side_rounding: the radius must be "
                                  "positive and finite");
    FlatSideRounding r;
    r.radius = radius;
    // For the side whose axis normal is e_axis: the first-quadrant surface point P(delta)
    // whose normal makes the angle delta with that axis, and its tangential offset from the
    // axis minus that of the arc, radius sin(delta): positive near the axis of a flat side.
    for (const bool top : {true, false})
      {
        const auto point = [&](const double delta) {
          const double a_t = std::sin(delta), a_n = std::cos(delta);
          const ArcSolution sol = top ? point_with_normal(shape_, w_, a_t, a_n) :
                                        point_with_normal(shape_, w_, a_n, a_t);
          return std::array<double, 2>{{top ? shape_.r1 * sol.u : shape_.r2 * sol.v,
                                        top ? shape_.r2 * sol.v : shape_.r1 * sol.u}};
        };
        const auto f = [&](const double delta) { return point(delta)[0] - radius * std::sin(delta); };
        const double lo = 1e-12, hi = 0.25 * dealii::numbers::PI;
        const double f_lo = f(lo), f_hi = f(hi);
        if (!(f_lo > 0.))
          continue; // curvature radius at the axis below the largest radius: not rounded
        if (!(f_hi < 0.))
          throw std::invalid_argument(
            "the radius " + std::to_string(radius) +
            " mm is too small to round the flat sides of this particle (an arc of that radius "
            "cannot be tangent to the surface within 45 degrees of its axis; the default is 50 "
            "mm)");
        std::uintmax_t iterations = 200;
        const auto     root       = boost::math::tools::toms748_solve(
          f, lo, hi, f_lo, f_hi, boost::math::tools::eps_tolerance<double>(50), iterations);
        const double delta = 0.5 * (root.first + root.second);
        const auto   P     = point(delta);
        const double centre = P[1] - radius * std::cos(delta); // the arc's centre on the axis
        (top ? r.top_angle : r.side_angle)     = delta;
        (top ? r.top_centre : r.side_centre)   = centre;
        const double axis_extent = top ? shape_.r2 : shape_.r1;
        r.largest_offset = std::max(r.largest_offset, centre + radius - axis_extent);
      }
    return r;
  }

  Tensor<1, 2>
  Superellipse::lowest_point(const double theta, const FlatSideRounding &rounding) const
  {
    if (!std::isfinite(theta))
      throw std::invalid_argument("Superellipse::lowest_point: theta is not finite");
    const double n1 = -std::sin(theta), n2 = -std::cos(theta);
    const double a1 = std::abs(n1), a2 = std::abs(n2);
    Tensor<1, 2> y;
    if (rounding.top_angle > 0. && a1 < std::sin(rounding.top_angle) && a2 > 0.)
      {
        // on the arc of the side y2 = +-r2: centre (0, +-top_centre), radius rho (the centre
        // lies beyond the opposite side: top_centre = r2 - rho + offset < 0 for rho > r2)
        y[0] = rounding.radius * n1;
        y[1] = (n2 < 0. ? -rounding.top_centre : rounding.top_centre) + rounding.radius * n2;
        return y;
      }
    if (rounding.side_angle > 0. && a2 < std::sin(rounding.side_angle) && a1 > 0.)
      {
        y[0] = (n1 < 0. ? -rounding.side_centre : rounding.side_centre) + rounding.radius * n1;
        y[1] = rounding.radius * n2;
        return y;
      }
    return lowest_point(theta);
  }

  double
  Superellipse::lowest_point_radius_of_curvature(const double              theta,
                                                 const FlatSideRounding &rounding) const
  {
    if (!std::isfinite(theta))
      throw std::invalid_argument("Superellipse::lowest_point_radius_of_curvature: theta is "
                                  "not finite");
    // the same case distinction as lowest_point(theta, rounding)
    const double a1 = std::abs(std::sin(theta)), a2 = std::abs(std::cos(theta));
    if ((rounding.top_angle > 0. && a1 < std::sin(rounding.top_angle) && a2 > 0.) ||
        (rounding.side_angle > 0. && a2 < std::sin(rounding.side_angle) && a1 > 0.))
      return rounding.radius;
    const double kappa = curvature(lowest_point(theta));
    return kappa > 0. ? 1. / kappa : std::numeric_limits<double>::infinity();
  }

  std::vector<Tensor<1, 2>>
  Superellipse::outline(const unsigned int n_vertices) const
  {
    if (n_vertices < 3)
      throw std::invalid_argument("Superellipse::outline: need at least 3 vertices");
    std::vector<Tensor<1, 2>> points(n_vertices);
    for (unsigned int k = 0; k < n_vertices; ++k)
      {
        const double t = 2. * dealii::numbers::PI * k / n_vertices;
        const double c = std::cos(t), s = std::sin(t);
        points[k][0] = std::copysign(shape_.r1 * std::pow(std::abs(c), 2. / shape_.p1), c);
        points[k][1] = std::copysign(shape_.r2 * std::pow(std::abs(s), 2. / shape_.p2), s);
      }
    return points;
  }

  Tensor<1, 2>
  Superellipse::reference_point() const
  {
    Tensor<1, 2> p;
    p[0] = shape_.r1 * w_;
    p[1] = shape_.r2 * w_;
    return p;
  }

  double
  Superellipse::reference_slope() const
  {
    const SuperellipseShape &s  = shape_;
    const double             f1 = s.p1 / s.r1 * std::pow(w_, s.p1 - 1.);
    const double             f2 = s.p2 / s.r2 * std::pow(w_, s.p2 - 1.);
    return -f1 / f2;
  }

  // ------------------------------------------------------------------------------------------
  // Frame maps
  // ------------------------------------------------------------------------------------------

  Tensor<1, 2>
  rotate(const double theta, const Tensor<1, 2> &v)
  {
    const double c = std::cos(theta), s = std::sin(theta);
    Tensor<1, 2> r;
    r[0] = c * v[0] - s * v[1];
    r[1] = s * v[0] + c * v[1];
    return r;
  }

  Tensor<1, 2>
  particle_to_global(const Tensor<1, 2> &c, const double theta, const Tensor<1, 2> &y)
  {
    return c + rotate(theta, y);
  }

  Tensor<1, 2>
  global_to_particle(const Tensor<1, 2> &c, const double theta, const Tensor<1, 2> &x)
  {
    return rotate(-theta, x - c);
  }

} // namespace granular::geometry
