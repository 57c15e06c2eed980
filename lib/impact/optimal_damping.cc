// Poursina–Nikravesh optimal linear damping: docs/contact-law-catalogue.md §5 B4/B5, §8 S6/S7 (S004
// §§3–5). See optimal_damping.h.
#include "impact/optimal_damping.h"

#include "base/atomic_file.h"

#include "contact/laws/linear_dashpot.h"

#include <boost/math/tools/minima.hpp>
#include <boost/math/tools/toms748_solve.hpp>
#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_real_distribution.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace granular::impact
{
  namespace
  {
    namespace laws = contact::laws;

    constexpr double nan = std::numeric_limits<double>::quiet_NaN();

    void
    require(const bool ok, const std::string &what)
    {
      if (!ok)
        throw std::invalid_argument(what);
    }

    /**
     * F = c d' + k d^n released at F = 0 (docs/contact-law-catalogue.md B5 with a given c; S004
     * eq.(50)): hertz_linear_damping_optimal computes its own c from eq.(49), the exact optimal
     * damping needs the law for any c. Units: k N/mm^n, c N s/mm, d mm, d' mm/s, F N.
     */
    class PowerLawLinearDashpot : public laws::ContactLaw
    {
    public:
      PowerLawLinearDashpot(const double n_, const double k_, const double c_)
        : ContactLaw("power_law_linear_dashpot", false, true)
        , n(n_)
        , k(k_)
        , c(c_)
      {}

      /// k d^n.
      double
      spring_force(const double d, const contact::NormalContactHistory &) const override
      {
        return k * std::pow(d, n);
      }
      /// c d'.
      double
      damping_force(const double, const double d_dot,
                    const contact::NormalContactHistory &) const override
      {
        return c * d_dot;
      }
      /// k d^(n+1)/(n+1).
      double
      stored_energy(const double d, const contact::NormalContactHistory &) const override
      {
        return d > 0. ? k * std::pow(d, n + 1.) / (n + 1.) : 0.;
      }
      /// (f/k)^(1/n).
      double
      indentation_for_force(const double f,
                            const contact::NormalContactHistory &) const override
      {
        return f > 0. ? std::pow(f / k, 1. / n) : 0.;
      }
      /// ((n+1) E/k)^(1/(n+1)).
      double
      indentation_for_energy(const double energy,
                             const contact::NormalContactHistory &) const override
      {
        return energy > 0. ? std::pow((n + 1.) * energy / k, 1. / (n + 1.)) : 0.;
      }
      bool
      force_free_separation() const override
      {
        return true;
      }

    private:
      double n, k, c;
    };

    /// The options of the scenario's impacts: no curves (only e_out is used).
    ImpactOptions
    impact_options(const double relative_tolerance)
    {
      ImpactOptions o;
      o.relative_tolerance = relative_tolerance;
      o.samples            = 0;
      return o;
    }

    /// k (N/m^n) in N/mm^n.
    double
    stiffness_in_mm(const double k_si, const double n)
    {
      return k_si * std::pow(1e-3, n);
    }

    /// @p count values equally spaced in [a, b], both ends included (a for count 1).
    std::vector<double>
    linspace(const double a, const double b, const unsigned int count)
    {
      std::vector<double> v(count);
      for (unsigned int i = 0; i < count; ++i)
        v[i] = count == 1 ? a : (i + 1 == count ? b : a + (b - a) * i / (count - 1.));
      return v;
    }

    /// Least-squares slope of y against x.
    double
    slope(const std::vector<double> &x, const std::vector<double> &y)
    {
      const double n  = x.size();
      double       mx = 0., my = 0.;
      for (std::size_t i = 0; i < x.size(); ++i)
        {
          mx += x[i] / n;
          my += y[i] / n;
        }
      double sxy = 0., sxx = 0.;
      for (std::size_t i = 0; i < x.size(); ++i)
        {
          sxy += (x[i] - mx) * (y[i] - my);
          sxx += (x[i] - mx) * (x[i] - mx);
        }
      return sxx > 0. ? sxy / sxx : nan;
    }

    /// Writes @p content to @p path atomically (base/atomic_file.h).
    void
    write_atomically(const std::string &path, const std::string &content)
    {
      write_file_atomically(path, content);
    }

    /// A CSV table: header, then rows of numbers at full precision.
    class Csv
    {
    public:
      explicit Csv(const std::string &header)
      {
        s << header << '\n' << std::setprecision(std::numeric_limits<double>::max_digits10);
      }
      void
      row(const std::vector<double> &values)
      {
        for (std::size_t i = 0; i < values.size(); ++i)
          s << (i ? "," : "") << values[i];
        s << '\n';
      }
      void
      write(const std::string &path) const
      {
        write_atomically(path, s.str());
      }

    private:
      std::ostringstream s;
    };

    double
    seconds_since(const std::chrono::steady_clock::time_point start)
    {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }

    /// State shared by the function and the termination test of exact_optimal_damping().
    struct RootSearch
    {
      double             e, eps;
      ExactOptimalDamping best;
      bool               any = false;
    };

    const std::string sweep_header =
      "n,m_eff,v0,k,e,c,e_out,relative_error,impacts,zeta,c_eq49";
  } // namespace

  ImpactResult
  simulate_linear_damping_impact(const double n, const double k, const double c,
                                 const double m_eff, const double v0,
                                 const ImpactOptions &options)
  {
    require(n >= 1. && n <= 2. && k > 0. && c >= 0. && std::isfinite(k) && std::isfinite(c),
            "simulate_linear_damping_impact: needs n in [1, 2], 0 < k < inf and 0 <= c < inf");
    const PowerLawLinearDashpot law(n, k, c);
    return simulate_impact(law, m_eff, v0, options);
  }

  double
  damping_scale(const double n, const double k, const double v0, const double m_eff)
  {
    require(n >= 1. && n <= 2. && k > 0. && v0 > 0. && m_eff > 0.,
            "damping_scale: needs n in [1, 2] and positive k, v0, m_eff");
    return std::pow(k * std::pow(v0, n - 1.) * std::pow(m_eff, n), 1. / (n + 1.));
  }

  ExactOptimalDamping
  exact_optimal_damping(const double n, const double k, const double v0, const double m_eff,
                        const double e, const double eps, const ImpactOptions &options)
  {
    require(n >= 1. && n <= 2. && k > 0. && v0 > 0. && m_eff > 0. && e > 0. && e <= 1. &&
              eps > 0.,
            "exact_optimal_damping: needs n in [1, 2], positive k, v0, m_eff, eps and "
            "0 < e <= 1");
    RootSearch s{e, eps, {}, false};
    // e_out(c) - e, recording the simulated point closest to e
    const auto f = [&](const double c) {
      const double e_out = simulate_linear_damping_impact(n, k, c, m_eff, v0, options)
                             .restitution;
      ++s.best.impacts;
      const double rel = std::abs(e_out - e) / e;
      if (!s.any || rel < s.best.relative_error)
        {
          s.best.c              = c;
          s.best.restitution    = e_out;
          s.best.relative_error = rel;
          s.any                 = true;
        }
      return e_out - e;
    };
    if (e == 1.)
      {
        f(0.);
        s.best.converged = s.best.relative_error <= eps;
        return s.best;
      }
    // S004 eq.(24) on the simulated points, or the bracket at rounding level
    const auto tol = [&s](const double a, const double b) {
      return s.best.relative_error <= s.eps ||
             boost::math::tools::eps_tolerance<double>(50)(a, b);
    };
    const double   guess = laws::optimal_damping_coefficient(n, k, v0, m_eff, e);
    std::uintmax_t iterations = 100;
    try
      {
        boost::math::tools::bracket_and_solve_root(f, guess, 1.1, false, tol, iterations);
      }
    catch (const boost::math::evaluation_error &x)
      {
        throw std::runtime_error(std::string("exact_optimal_damping: ") + x.what());
      }
    s.best.converged = s.best.relative_error <= eps;
    return s.best;
  }

  DampingFit
  fit_optimal_damping(const std::vector<double> &e, const std::vector<double> &zeta)
  {
    require(e.size() == zeta.size(), "fit_optimal_damping: e and zeta differ in size");
    std::size_t below_one = 0;
    for (const double x : e)
      {
        require(x > 0. && x <= 1., "fit_optimal_damping: e must be in (0, 1]");
        below_one += x < 1. ? 1 : 0;
      }
    require(below_one >= 2, "fit_optimal_damping: needs at least 2 points with e < 1");
    // alpha(beta) = sum z g / sum g^2 (linear least squares), and the residual
    const auto alpha_of = [&](const double beta) {
      double zg = 0., gg = 0.;
      for (std::size_t i = 0; i < e.size(); ++i)
        {
          const double g = std::pow(e[i], beta) - 1.;
          zg += zeta[i] * g;
          gg += g * g;
        }
      return zg / gg;
    };
    const auto residual = [&](const double beta) {
      const double a = alpha_of(beta);
      double       r = 0.;
      for (std::size_t i = 0; i < e.size(); ++i)
        {
          const double d = zeta[i] - a * (std::pow(e[i], beta) - 1.);
          r += d * d;
        }
      return r;
    };
    std::uintmax_t iterations = 200;
    const auto     m          = boost::math::tools::brent_find_minima(
      residual, -5., -1e-4, std::numeric_limits<double>::digits / 2, iterations);
    DampingFit fit;
    fit.beta         = m.first;
    fit.alpha        = alpha_of(m.first);
    fit.rms_residual = std::sqrt(m.second / e.size());
    return fit;
  }

  KelvinVoigtCheck
  kelvin_voigt_check(const double e, const double k, const double m_eff, const double v0,
                     const ImpactOptions &options)
  {
    require(e > 0. && e <= 1. && k > 0. && m_eff > 0. && v0 > 0.,
            "kelvin_voigt_check: needs 0 < e <= 1 and positive k, m_eff, v0");
    KelvinVoigtCheck r;
    r.e       = e;
    r.c       = laws::optimal_damping_coefficient_linear(k, m_eff, e);
    r.xi      = r.c / (2. * std::sqrt(k * m_eff));
    r.e_exact = laws::force_free_separation_restitution(r.xi);
    r.e_simulated =
      simulate_linear_damping_impact(1., k, r.c, m_eff, v0, options).restitution;
    return r;
  }

  std::vector<RandomSystem>
  random_check(const OptimalDampingParameters &p)
  {
    p.validate();
    const ImpactOptions                              options = impact_options(p.relative_tolerance);
    boost::random::mt19937                           gen(p.seed);
    boost::random::uniform_real_distribution<double> unit(0., 1.);
    const auto log_uniform = [&](const double a, const double b) {
      return std::exp(std::log(a) + (std::log(b) - std::log(a)) * unit(gen));
    };
    std::vector<RandomSystem> systems(p.random_systems);
    for (RandomSystem &r : systems)
      {
        r.m_eff           = log_uniform(p.random_mass_min, p.random_mass_max);
        const double k_si = log_uniform(p.random_stiffness_min, p.random_stiffness_max);
        r.v0              = log_uniform(p.random_velocity_min, p.random_velocity_max);
        r.n               = p.exponent_min + (p.exponent_max - p.exponent_min) * unit(gen);
        r.e = p.random_restitution_min + (1. - p.random_restitution_min) * unit(gen);
        r.k = stiffness_in_mm(k_si, r.n);
        r.c = laws::optimal_damping_coefficient(r.n, r.k, r.v0, r.m_eff, r.e);
        r.e_out =
          simulate_linear_damping_impact(r.n, r.k, r.c, r.m_eff, r.v0, options).restitution;
      }
    return systems;
  }

  // ---------------------------------------------------------------------------------------
  void
  OptimalDampingParameters::use_reduced_sizes()
  {
    sweep_values     = 20;
    sweep_exponents  = 6;
    fit_restitutions = 56;
    fit_exponents    = 11;
  }

  void
  OptimalDampingParameters::validate() const
  {
    const auto check = [](const bool ok, const std::string &member, const std::string &what) {
      if (!ok)
        throw std::invalid_argument("OptimalDampingParameters::" + member + ": " + what);
    };
    const auto range = [&](const double lo, const double hi, const std::string &lo_name,
                           const std::string &hi_name) {
      check(std::isfinite(lo) && lo > 0., lo_name, "must be positive and finite");
      check(std::isfinite(hi) && hi > lo, hi_name, "must be finite and > " + lo_name);
    };
    check(exponent_min >= 1. && exponent_min <= 2., "exponent_min", "must be in [1, 2]");
    check(exponent_max >= exponent_min && exponent_max <= 2., "exponent_max",
          "must be in [exponent_min, 2]");
    check(tolerance > 0. && tolerance < 1., "tolerance", "must be in (0, 1)");
    check(relative_tolerance > 0. && relative_tolerance < 1e-3, "relative_tolerance",
          "must be in (0, 1e-3)");
    check(sweep_values >= 2, "sweep_values", "must be >= 2 (a slope needs two points)");
    check(sweep_exponents >= 1, "sweep_exponents", "must be >= 1");
    check(sweep_restitution > 0. && sweep_restitution < 1., "sweep_restitution",
          "must be in (0, 1)");
    check(reference_mass > 0. && std::isfinite(reference_mass), "reference_mass",
          "must be positive (t)");
    check(reference_velocity > 0. && std::isfinite(reference_velocity), "reference_velocity",
          "must be positive (mm/s)");
    check(reference_stiffness > 0. && std::isfinite(reference_stiffness),
          "reference_stiffness", "must be positive (N/m^n)");
    range(mass_min, mass_max, "mass_min", "mass_max");
    range(velocity_min, velocity_max, "velocity_min", "velocity_max");
    range(stiffness_min, stiffness_max, "stiffness_min", "stiffness_max");
    check(fit_restitutions >= 3, "fit_restitutions", "must be >= 3");
    check(fit_exponents >= 1, "fit_exponents", "must be >= 1");
    check(fit_restitution_min > 0. && fit_restitution_min < 1., "fit_restitution_min",
          "must be in (0, 1)");
    check(random_systems >= 1, "random_systems", "must be >= 1");
    check(random_bins >= 1, "random_bins", "must be >= 1");
    range(random_mass_min, random_mass_max, "random_mass_min", "random_mass_max");
    range(random_stiffness_min, random_stiffness_max, "random_stiffness_min",
          "random_stiffness_max");
    range(random_velocity_min, random_velocity_max, "random_velocity_min",
          "random_velocity_max");
    check(random_restitution_min > 0. && random_restitution_min < 1.,
          "random_restitution_min", "must be in (0, 1)");
    check(kelvin_voigt_points >= 2, "kelvin_voigt_points", "must be >= 2");
    check(kelvin_voigt_restitution_min > 0. && kelvin_voigt_restitution_min < 1.,
          "kelvin_voigt_restitution_min", "must be in (0, 1)");
    check(kelvin_voigt_mass > 0. && std::isfinite(kelvin_voigt_mass), "kelvin_voigt_mass",
          "must be positive (t)");
    check(kelvin_voigt_velocity > 0. && std::isfinite(kelvin_voigt_velocity),
          "kelvin_voigt_velocity", "must be positive (mm/s)");
    check(kelvin_voigt_stiffness > 0. && std::isfinite(kelvin_voigt_stiffness),
          "kelvin_voigt_stiffness", "must be positive (N/mm)");
  }

  namespace
  {
    /// S6 (a)–(c) (docs/contact-law-catalogue.md §8 S6; S004 §5): the exact optimal c against
    /// m_eff, the approach velocity and k, one sweep per n, with the slopes of ln c against the
    /// S004 exponents; optimal_damping_{a,b,c}.csv and optimal_damping_slopes.csv in @p dir.
    /// @throws std::runtime_error naming a file that cannot be written.
    void
    run_parameter_sweeps(const OptimalDampingParameters &p, const std::string &dir,
                         const ImpactOptions &options, std::ostream &log)
    {
      enum Swept
      {
        mass,
        velocity,
        stiffness
      };
      const std::vector<double> sweep_n =
        linspace(p.exponent_min, p.exponent_max, p.sweep_exponents);
      std::vector<std::vector<double>> slopes(3, std::vector<double>(sweep_n.size(), nan));
      const bool                       run[3] = {p.mass_sweep, p.velocity_sweep,
                                                 p.stiffness_sweep};
      const char                      *part[3] = {"a", "b", "c"};
      const char                      *what[3] = {"m_eff", "delta_dot_minus", "k"};
      for (const Swept s : {mass, velocity, stiffness})
        {
          if (!run[s])
            continue;
          const auto start = std::chrono::steady_clock::now();
          const std::vector<double> values =
            s == mass     ? linspace(p.mass_min, p.mass_max, p.sweep_values) :
            s == velocity ? linspace(p.velocity_min, p.velocity_max, p.sweep_values) :
                            linspace(p.stiffness_min, p.stiffness_max, p.sweep_values);
          Csv          csv(sweep_header);
          unsigned int impacts = 0, failed = 0;
          double       worst = 0., worst_slope = 0.;
          for (std::size_t j = 0; j < sweep_n.size(); ++j)
            {
              const double        n = sweep_n[j];
              std::vector<double> x, y;
              for (const double value : values)
                {
                  const double m  = s == mass ? value : p.reference_mass;
                  const double v0 = s == velocity ? value : p.reference_velocity;
                  const double k =
                    stiffness_in_mm(s == stiffness ? value : p.reference_stiffness, n);
                  const ExactOptimalDamping r =
                    exact_optimal_damping(n, k, v0, m, p.sweep_restitution, p.tolerance,
                                          options);
                  impacts += r.impacts;
                  failed += r.converged ? 0 : 1;
                  worst = std::max(worst, r.relative_error);
                  csv.row({n, m, v0, k, p.sweep_restitution, r.c, r.restitution,
                           r.relative_error, double(r.impacts), r.c / damping_scale(n, k, v0, m),
                           laws::optimal_damping_coefficient(n, k, v0, m, p.sweep_restitution)});
                  x.push_back(std::log(value));
                  y.push_back(std::log(r.c));
                }
              slopes[s][j] = slope(x, y);
              const double exponent =
                s == mass ? n / (n + 1.) : s == velocity ? (n - 1.) / (n + 1.) : 1. / (n + 1.);
              worst_slope = std::max(worst_slope, std::abs(slopes[s][j] - exponent));
            }
          csv.write(dir + "/optimal_damping_" + part[s] + ".csv");
          log << "optimal damping S6 (" << part[s] << "): exact c at " << values.size()
              << " values of " << what[s] << " x " << sweep_n.size() << " values of n, "
              << impacts << " impacts, max |e_out - e|/e = " << worst << " (" << failed
              << " above eps), max |slope - S004 exponent| = " << worst_slope << ", "
              << seconds_since(start) << " s\n";
        }
      if (p.mass_sweep || p.velocity_sweep || p.stiffness_sweep)
        {
          Csv csv("n,slope_mass,exponent_mass,slope_velocity,exponent_velocity,slope_stiffness,"
                  "exponent_stiffness");
          for (std::size_t j = 0; j < sweep_n.size(); ++j)
            {
              const double n = sweep_n[j];
              csv.row({n, slopes[mass][j], n / (n + 1.), slopes[velocity][j],
                       (n - 1.) / (n + 1.), slopes[stiffness][j], 1. / (n + 1.)});
            }
          csv.write(dir + "/optimal_damping_slopes.csv");
        }
    }

    /// S6 (d) (docs/contact-law-catalogue.md §8 S6; S004 eqs.(46)-(47)): the exact c against e per
    /// n and the fit zeta = alpha (e^beta - 1); optimal_damping_d.csv and optimal_damping_fit.csv
    /// in @p dir.
    /// @throws std::runtime_error naming a file that cannot be written.
    void
    run_restitution_fit(const OptimalDampingParameters &p, const std::string &dir,
                        const ImpactOptions &options, std::ostream &log)
    {
      const auto start = std::chrono::steady_clock::now();
      Csv        csv(sweep_header);
      Csv        fit_csv("n,alpha_fit,beta_fit,alpha_S004,beta_S004,rms_residual,"
                         "rms_residual_S004,max_relative_error_fit,max_relative_error_S004");
      const double       m = p.reference_mass, v0 = p.reference_velocity;
      unsigned int       impacts = 0, failed = 0;
      double             worst = 0.;
      for (const double n : linspace(p.exponent_min, p.exponent_max, p.fit_exponents))
        {
          const double        k = stiffness_in_mm(p.reference_stiffness, n);
          std::vector<double> es, zetas;
          for (const double e : linspace(p.fit_restitution_min, 1., p.fit_restitutions))
            {
              const ExactOptimalDamping r =
                exact_optimal_damping(n, k, v0, m, e, p.tolerance, options);
              impacts += r.impacts;
              failed += r.converged ? 0 : 1;
              worst = std::max(worst, r.relative_error);
              const double zeta = r.c / damping_scale(n, k, v0, m);
              csv.row({n, m, v0, k, e, r.c, r.restitution, r.relative_error,
                       double(r.impacts), zeta,
                       laws::optimal_damping_coefficient(n, k, v0, m, e)});
              es.push_back(e);
              zetas.push_back(zeta);
            }
          const DampingFit fit = fit_optimal_damping(es, zetas);
          const double     a = laws::optimal_damping_alpha(n), b = laws::optimal_damping_beta(n);
          double           rms_s004 = 0., max_fit = 0., max_s004 = 0.;
          for (std::size_t i = 0; i < es.size(); ++i)
            {
              const double z_s004 = a * (std::pow(es[i], b) - 1.);
              const double z_fit  = fit.alpha * (std::pow(es[i], fit.beta) - 1.);
              rms_s004 += (z_s004 - zetas[i]) * (z_s004 - zetas[i]) / es.size();
              if (es[i] < 1.)
                {
                  max_fit  = std::max(max_fit, std::abs(z_fit / zetas[i] - 1.));
                  max_s004 = std::max(max_s004, std::abs(z_s004 / zetas[i] - 1.));
                }
            }
          rms_s004 = std::sqrt(rms_s004);
          fit_csv.row(
            {n, fit.alpha, fit.beta, a, b, fit.rms_residual, rms_s004, max_fit, max_s004});
          log << "optimal damping S6 (d): n = " << n << ": alpha = " << fit.alpha
              << " (S004 eq.(47) " << a << "), beta = " << fit.beta << " (" << b
              << "); rms residual of zeta " << fit.rms_residual << " (S004 " << rms_s004
              << "), max relative " << max_fit << " (S004 " << max_s004 << ")\n";
        }
      csv.write(dir + "/optimal_damping_d.csv");
      fit_csv.write(dir + "/optimal_damping_fit.csv");
      log << "optimal damping S6 (d): " << p.fit_restitutions << " values of e x "
          << p.fit_exponents << " values of n, " << impacts
          << " impacts, max |e_out - e|/e = " << worst << " (" << failed << " above eps), "
          << seconds_since(start) << " s\n";
    }

    /// S6 (e) (docs/contact-law-catalogue.md §8 S6; S004 eq.(49), §5.1): the closed-form c on
    /// random systems, with the errors binned by e; optimal_damping_e.csv and
    /// optimal_damping_e_bins.csv.
    /// @throws std::runtime_error naming a file that cannot be written.
    void
    run_random_check(const OptimalDampingParameters &p, const std::string &dir,
                     std::ostream &log)
    {
      const auto start = std::chrono::steady_clock::now();
      Csv          csv("index,n,m_eff,v0,k,e,c,e_out,abs_error,relative_error");
      const double e_lo = p.random_restitution_min;
      std::vector<double> bin_abs(p.random_bins, 0.), bin_rel(p.random_bins, 0.);
      std::vector<double> bin_count(p.random_bins, 0.);
      const std::vector<RandomSystem> systems = random_check(p);
      for (std::size_t i = 0; i < systems.size(); ++i)
        {
          const RandomSystem &r         = systems[i];
          const double        abs_error = std::abs(r.e_out - r.e);
          csv.row({double(i), r.n, r.m_eff, r.v0, r.k, r.e, r.c, r.e_out, abs_error,
                   abs_error / r.e});
          const unsigned int b = std::min<unsigned int>(
            p.random_bins - 1,
            static_cast<unsigned int>((r.e - e_lo) / (1. - e_lo) * p.random_bins));
          bin_abs[b] = std::max(bin_abs[b], abs_error);
          bin_rel[b] = std::max(bin_rel[b], abs_error / r.e);
          bin_count[b] += 1.;
        }
      csv.write(dir + "/optimal_damping_e.csv");
      Csv bins("e_low,e_high,systems,max_abs_error,max_relative_error");
      double worst = 0.;
      for (unsigned int b = 0; b < p.random_bins; ++b)
        {
          const double lo = e_lo + (1. - e_lo) * b / p.random_bins;
          const double hi = e_lo + (1. - e_lo) * (b + 1.) / p.random_bins;
          bins.row({lo, hi, bin_count[b], bin_abs[b], bin_rel[b]});
          worst = std::max(worst, bin_abs[b]);
          log << "optimal damping S6 (e): e in [" << lo << ", " << hi << "]: "
              << bin_count[b] << " systems, max |e_out - e| = " << bin_abs[b] << "\n";
        }
      bins.write(dir + "/optimal_damping_e_bins.csv");
      log << "optimal damping S6 (e): " << p.random_systems << " random systems (seed "
          << p.seed << "), max |e_out - e| = " << worst << " with S004 eq.(49), "
          << seconds_since(start) << " s\n";
    }

    /// S7 (docs/contact-law-catalogue.md §8 S7; S004 eq.(57)): the Kelvin–Voigt damping of eq.(57)
    /// against B4's exact e(xi) and the simulated impact; kelvin_voigt_check.csv in @p dir.
    /// @throws std::runtime_error naming a file that cannot be written.
    void
    run_kelvin_voigt_check(const OptimalDampingParameters &p, const std::string &dir,
                           const ImpactOptions &options, std::ostream &log)
    {
      const auto start = std::chrono::steady_clock::now();
      Csv        csv("e,c,xi,e_exact_B4,e_simulated,error_B4,error_simulated");
      double     worst_b4 = 0., worst_sim = 0., e_worst = 0.;
      const double l0 = std::log(p.kelvin_voigt_restitution_min);
      for (unsigned int i = 0; i < p.kelvin_voigt_points; ++i)
        {
          const double e =
            i + 1 == p.kelvin_voigt_points ?
              1. :
              std::exp(l0 - l0 * double(i) / (p.kelvin_voigt_points - 1.));
          const KelvinVoigtCheck r = kelvin_voigt_check(
            e, p.kelvin_voigt_stiffness, p.kelvin_voigt_mass, p.kelvin_voigt_velocity,
            options);
          csv.row({r.e, r.c, r.xi, r.e_exact, r.e_simulated, r.e_exact - r.e,
                   r.e_simulated - r.e_exact});
          if (std::abs(r.e_exact - r.e) > worst_b4)
            {
              worst_b4 = std::abs(r.e_exact - r.e);
              e_worst  = e;
            }
          worst_sim = std::max(worst_sim, std::abs(r.e_simulated - r.e_exact));
        }
      csv.write(dir + "/kelvin_voigt_check.csv");
      log << "optimal damping S7: " << p.kelvin_voigt_points
          << " values of e, max |e_B4(xi(eq.(57))) - e| = " << worst_b4 << " at e = "
          << e_worst << ", max |e_simulated - e_B4| = " << worst_sim << ", "
          << seconds_since(start) << " s\n";
    }
  } // namespace

  void
  run_optimal_damping(const OptimalDampingParameters &p, const std::string &dir,
                      std::ostream &log)
  {
    p.validate();
    std::filesystem::create_directories(dir);
    const ImpactOptions options = impact_options(p.relative_tolerance);
    const auto          total   = std::chrono::steady_clock::now();

    if (p.mass_sweep || p.velocity_sweep || p.stiffness_sweep)
      run_parameter_sweeps(p, dir, options, log);
    if (p.restitution_fit)
      run_restitution_fit(p, dir, options, log);
    if (p.random_check)
      run_random_check(p, dir, log);
    if (p.kelvin_voigt_check)
      run_kelvin_voigt_check(p, dir, options, log);
    log << "optimal damping: results in " << dir << ", " << seconds_since(total) << " s\n";
  }
} // namespace granular::impact
