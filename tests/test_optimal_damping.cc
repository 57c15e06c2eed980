// Tests of Poursina–Nikravesh's optimal linear damping (lib/impact/optimal_damping.h;
// docs/contact-law-catalogue.md §5 B4/B5, §8 S6/S7; S004 eqs.(23),(46)–(49),(55)–(57)).
#include "impact/optimal_damping.h"

#include "contact/laws/linear_dashpot.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace
{
  using namespace granular::impact;
  namespace laws = granular::contact::laws;

  /// k (N/m^n) in N/mm^n.
  double
  k_mm(const double k_si, const double n)
  {
    return k_si * std::pow(1e-3, n);
  }

  ImpactOptions
  no_curves(const double relative_tolerance = 1e-10)
  {
    ImpactOptions o;
    o.samples            = 0;
    o.relative_tolerance = relative_tolerance;
    return o;
  }

  // S004 eq.(23)/(24): the exact c reproduces e to eps = 1e-8, also when the impact is
  // simulated again independently at a much tighter integrator tolerance.
  TEST(OptimalDamping, ExactDampingReproducesRestitution)
  {
    struct Case
    {
      double n, k_si, m, v0, e;
    };
    // m in t, v0 in mm/s; from a light fast Hooke contact to a heavy slow quadratic one
    for (const Case c : {Case{1., 1e6, 1e-4, 2e3, 0.9}, Case{1.5, 1e9, 5e-4, 500., 0.7},
                         Case{2., 1e7, 1e-2, 50., 0.3}, Case{1.25, 1e5, 1e-6, 1e4, 0.01}})
      {
        const double              k = k_mm(c.k_si, c.n);
        const ExactOptimalDamping r = exact_optimal_damping(c.n, k, c.v0, c.m, c.e, 1e-8,
                                                            no_curves());
        EXPECT_TRUE(r.converged);
        EXPECT_LE(r.relative_error, 1e-8) << "n = " << c.n << ", e = " << c.e;
        EXPECT_GT(r.c, 0.);
        const double e_tight =
          simulate_linear_damping_impact(c.n, k, r.c, c.m, c.v0, no_curves(1e-13)).restitution;
        EXPECT_LE(std::abs(e_tight - c.e) / c.e, 1.2e-8) << "n = " << c.n << ", e = " << c.e;
      }
    // e = 1: no damping
    const ExactOptimalDamping r = exact_optimal_damping(1.5, 1., 1e3, 1e-3, 1.);
    EXPECT_EQ(r.c, 0.);
    EXPECT_NEAR(r.restitution, 1., 1e-9);
  }

  // n = 1 is the Kelvin–Voigt contact with force-free separation, whose exact e(xi) is
  // Butcher–Segalman's (docs/contact-law-catalogue.md B4, xi > 1 branch corrected): the root of the
  // simulated e_out must be c = 2 xi(e) sqrt(k m). e = 0.05 and 0.01 lie on the xi > 1 branch.
  TEST(OptimalDamping, ExactDampingAtNEqualOneIsButcherSegalman)
  {
    const double k = 2.5e-2, m = 3e-3, v0 = 700.;
    for (const double e : {0.95, 0.6, 0.2, 0.05, 0.01})
      {
        const ExactOptimalDamping r  = exact_optimal_damping(1., k, v0, m, e);
        const double              xi = laws::force_free_separation_damping_ratio(e);
        EXPECT_NEAR(r.c / (2. * xi * std::sqrt(k * m)), 1., 1e-7) << "e = " << e;
      }
  }

  // Dimensional analysis: with T = (m/(k v0^(n-1)))^(1/(n+1)), L = v0 T the impact is
  // x'' = -(zeta x' + x^n), x(0) = 0, x'(0) = 1, zeta = c/(k v0^(n-1) m^n)^(1/(n+1)), so e
  // depends on (n, zeta) only and c_opt = zeta*(n, e) (k v0^(n-1) m^n)^(1/(n+1)): the
  // exponents n/(n+1), (n-1)/(n+1), 1/(n+1) of S004 eq.(49) are exact. Each root carries
  // |de/e| <= 1e-8, i.e. |dc/c| ~ 3e-8 at e = 0.7, so slopes over a factor 20 are exact to
  // ~2e-8 (the scaled integration is even identical up to rounding).
  TEST(OptimalDamping, ScalingExponentsOfEq49AreExact)
  {
    const double e = 0.7, m = 1e-3, v0 = 1e3, f = 20.;
    for (const double n : {1., 1.5, 2.})
      {
        const double k  = k_mm(1., n);
        const double c0 = exact_optimal_damping(n, k, v0, m, e).c;
        const double cm = exact_optimal_damping(n, k, v0, f * m, e).c;
        const double cv = exact_optimal_damping(n, k, f * v0, m, e).c;
        const double ck = exact_optimal_damping(n, f * k, v0, m, e).c;
        EXPECT_NEAR(std::log(cm / c0) / std::log(f), n / (n + 1.), 1e-6) << "n = " << n;
        EXPECT_NEAR(std::log(cv / c0) / std::log(f), (n - 1.) / (n + 1.), 1e-6)
          << "n = " << n;
        EXPECT_NEAR(std::log(ck / c0) / std::log(f), 1. / (n + 1.), 1e-6) << "n = " << n;
      }
  }

  // The least-squares fit recovers an exact alpha (e^beta - 1) (eq.(52)'s constants), and on
  // Butcher–Segalman's closed form zeta = 2 xi(e) (n = 1) over S6 (d)'s e in [0.45, 1] it
  // gives the values found independently (golden-section search in a separate script):
  // alpha = 1.5365599, beta = -0.4138877 — not S004 eq.(57)'s 1.4181, -0.44, whose curve has
  // ~100 times the rms residual on these points.
  TEST(OptimalDamping, FitOfAlphaAndBeta)
  {
    std::vector<double> e, z_exact, z_bs;
    for (unsigned int i = 0; i < 599; ++i)
      {
        e.push_back(0.45 + 0.55 * i / 599.);
        z_exact.push_back(1.95 * (std::pow(e.back(), -0.3) - 1.));
        z_bs.push_back(2. * laws::force_free_separation_damping_ratio(e.back()));
      }
    const DampingFit exact = fit_optimal_damping(e, z_exact);
    EXPECT_NEAR(exact.alpha, 1.95, 1e-6);
    EXPECT_NEAR(exact.beta, -0.3, 1e-7);
    EXPECT_LT(exact.rms_residual, 1e-9);

    const DampingFit bs = fit_optimal_damping(e, z_bs);
    EXPECT_NEAR(bs.alpha, 1.5365599, 1e-5);
    EXPECT_NEAR(bs.beta, -0.4138877, 1e-6);
    double rms_s004 = 0.;
    for (std::size_t i = 0; i < e.size(); ++i)
      rms_s004 += std::pow(1.4181 * (std::pow(e[i], -0.44) - 1.) - z_bs[i], 2) / e.size();
    EXPECT_GT(std::sqrt(rms_s004), 50. * bs.rms_residual);
  }

  // S6 (e), S004 §5.1: eq.(49)'s c on random systems returns e to 3.4e-3. With eq.(49) the
  // impact's zeta is alpha (e^beta - 1), so e_out depends on (n, e) only; its sup over
  // n in [1, 2], e in [1e-4, 1] is 3.367e-3 (n = 1, e = 0.6485; measured on a 41 x 2000 grid),
  // slightly above the catalogue's "about 3e-3".
  TEST(OptimalDamping, Eq49OnRandomSystems)
  {
    OptimalDampingParameters p;
    p.random_systems = 40;
    p.seed           = 7;
    double worst     = 0.;
    for (const RandomSystem &s : random_check(p))
      {
        EXPECT_GE(s.n, 1.);
        EXPECT_LE(s.n, 2.);
        EXPECT_NEAR(s.e_out, s.e, 3.4e-3) << "n = " << s.n << ", e = " << s.e;
        worst = std::max(worst, std::abs(s.e_out - s.e));
      }
    EXPECT_GT(worst, 1e-4); // the formula is a fit, not exact
  }

  // S7, S004 §5.2: eq.(57)'s c through B4's exact e(xi) (xi > 1 branch corrected) gives e to
  // max |e_B4 - e| = 3.367e-3 over e in [1e-4, 1] (at e = 0.6486), relative error 0.575 %
  // at most over the fit's range [0.45, 1]; below it the error is small in absolute terms
  // but grows relatively (e = 1e-4 -> 1.55e-4). The simulated impact agrees with B4 to the
  // integration accuracy on both branches (xi > 1 for e < 0.135).
  TEST(OptimalDamping, KelvinVoigtEq57AgainstButcherSegalman)
  {
    double worst = 0., worst_rel_fit_range = 0.;
    for (unsigned int i = 0; i <= 4000; ++i)
      {
        const double e  = std::pow(10., -4. + 4. * i / 4000.);
        const double xi = laws::optimal_damping_coefficient_linear(1e-3, 1e-3, e) /
                          (2. * std::sqrt(1e-3 * 1e-3));
        const double d  = std::abs(laws::force_free_separation_restitution(xi) - e);
        worst           = std::max(worst, d);
        if (e >= 0.45)
          worst_rel_fit_range = std::max(worst_rel_fit_range, d / e);
      }
    EXPECT_LE(worst, 3.37e-3);
    EXPECT_GE(worst, 3.36e-3);
    EXPECT_LE(worst_rel_fit_range, 5.8e-3);

    for (const double e : {0.9, 0.65, 0.2, 0.05, 1e-3})
      {
        const KelvinVoigtCheck r = kelvin_voigt_check(e, 1e-3, 1e-3, 1e3, no_curves());
        EXPECT_NEAR(r.xi, 0.70905 * (std::pow(e, -0.44) - 1.), 1e-12 * (1. + r.xi));
        EXPECT_NEAR(r.e_simulated / r.e_exact, 1., 1e-9) << "e = " << e << ", xi = " << r.xi;
      }
  }

  // The runner's slopes file: the fitted slopes of ln c equal eq.(49)'s exponents.
  TEST(OptimalDamping, RunnerWritesSlopes)
  {
    OptimalDampingParameters p;
    p.use_reduced_sizes();
    p.sweep_values       = 3;
    p.sweep_exponents    = 2;
    p.restitution_fit    = false;
    p.random_check       = false;
    p.kelvin_voigt_check = false;
    const std::string dir =
      (std::filesystem::temp_directory_path() / "granular-test-optimal-damping").string();
    std::filesystem::remove_all(dir);
    std::ostringstream log;
    run_optimal_damping(p, dir, log);
    for (const char *f : {"a", "b", "c"})
      EXPECT_TRUE(std::filesystem::exists(dir + "/optimal_damping_" + f + ".csv"));
    std::ifstream in(dir + "/optimal_damping_slopes.csv");
    std::string   line;
    std::getline(in, line);
    unsigned int rows = 0;
    while (std::getline(in, line))
      {
        std::vector<double> v;
        std::stringstream   s(line);
        std::string         cell;
        while (std::getline(s, cell, ','))
          v.push_back(std::stod(cell));
        ASSERT_EQ(v.size(), 7u);
        for (unsigned int j = 1; j < 7; j += 2)
          EXPECT_NEAR(v[j], v[j + 1], 1e-6) << line;
        ++rows;
      }
    EXPECT_EQ(rows, 2u);
    std::filesystem::remove_all(dir);
  }
} // namespace
