// Contact-law library, docs/contact-law-catalogue.md §5 A (elastic), B (linear dashpots), C
// (empirical damping): closed forms of the forces, continuity at d = 0, the undamped limits, the
// restitution and damping-ratio relations of linear_dashpot.h against the sources' formulas and
// numbers, and the stored energies against quadratures of the spring force. Units mm–s–N–t.
#include "contact/laws/contact_law.h"
#include "contact/laws/linear_dashpot.h"

#include <boost/math/quadrature/gauss_kronrod.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace
{
  using granular::contact::NormalContactHistory;
  using namespace granular::contact::laws;

  const double pi = std::acos(-1.);

  // a linear contact (K in N/mm) and a Hertz one (S1 of docs/contact-law-catalogue.md §8: K in
  // N/mm^1.5)
  constexpr double K_lin   = 1.0e3;
  constexpr double K_hertz = 1.73925e5;
  constexpr double m_eff   = 4.6e-5; // t
  constexpr double v0      = 300.;   // mm/s

  ContactData data(const double K)
  {
    ContactData c;
    c.stiffness      = K;
    c.effective_mass = m_eff;
    return c;
  }

  /// History of a contact that began with approach speed v (mm/s), as the base records it.
  NormalContactHistory onset(const ContactLaw &law, const double v)
  {
    return law.updated_history(1e-6, v, 1e-6, NormalContactHistory{});
  }

  /// Integral of the law's spring (elastic) force from a to b (Gauss–Kronrod in s with
  /// d = a + (b - a) s^2, which smooths the (d - a)^n behaviour at a kink or at 0).
  double integral(const ContactLaw &law, const NormalContactHistory &h, const double a,
                  const double b)
  {
    return boost::math::quadrature::gauss_kronrod<double, 61>::integrate(
      [&](const double s) { return 2. * (b - a) * s * law.elastic_force(a + (b - a) * s * s, h); },
      0., 1., 15, 1e-13);
  }

  void expect_relative(const double actual, const double expected, const double tol)
  {
    EXPECT_NEAR(actual, expected, tol * std::abs(expected)) << "expected " << expected;
  }

  /// actual == spring + damping to @p tol relative to |spring| + |damping| (the two terms may
  /// nearly cancel in restitution).
  void expect_sum(const double actual, const double spring, const double damping,
                  const double tol)
  {
    EXPECT_NEAR(actual, spring + damping, tol * (std::abs(spring) + std::abs(damping)))
      << "spring " << spring << ", damping " << damping;
  }

  const std::vector<double> indentations = {1e-4, 3e-3, 0.02, 0.1};
  const std::vector<double> rates        = {-250., -3., 0., 40., 300.};
} // namespace

// ---------------------------------------------------------------------------------------
// A. Elastic laws

TEST(ElasticLaws, ForcesAreTheClosedForms)
{
  const auto hooke  = make_law("hooke", {}, data(K_lin));
  const auto hertz  = make_law("hertz", {}, data(K_hertz));
  const auto power  = make_law("hertz", {{"Elastic exponent", 1.2}}, data(K_hertz));
  const NormalContactHistory h;
  for (const double d : indentations)
    for (const double v : rates)
      {
        expect_relative(hooke->force(d, v, h), K_lin * d, 1e-14);
        expect_relative(hertz->force(d, v, h), K_hertz * std::pow(d, 1.5), 1e-14);
        expect_relative(power->force(d, v, h), K_hertz * std::pow(d, 1.2), 1e-14);
      }
  EXPECT_EQ(hertz->force(0., 100., h), 0.);
  EXPECT_EQ(hertz->force(-1e-3, 100., h), 0.);
}

TEST(ElasticLaws, GoldsmithLoadsOnHertzAndUnloadsToThePermanentIndentation)
{
  const double n = 1.3, r = 0.4;
  const auto   law = make_law("goldsmith_plastic_unloading",
                              {{"Unloading exponent", n}, {"Permanent indentation ratio", r}},
                              data(K_hertz));
  // load to d_max = 0.05 mm in steps
  NormalContactHistory h;
  for (double d = 0.005; d <= 0.0500001; d += 0.005)
    {
      h = law->updated_history(d, v0, 1e-5, h);
      expect_relative(law->force(d, v0, h), K_hertz * std::pow(d, 1.5), 1e-14);
    }
  const double d_max = h.max_indentation, d_p = r * d_max;
  const double F_max = K_hertz * std::pow(d_max, 1.5);
  EXPECT_NEAR(d_max, 0.05, 1e-12);
  expect_relative(h.max_force, F_max, 1e-12);
  expect_relative(h.residual_indentation, d_p, 1e-14);
  // unloading curve S002 eq.(5.7), then no force below delta_p
  for (const double d : {0.045, 0.035, 0.025, 0.021})
    {
      h = law->updated_history(d, -v0, 1e-5, h);
      expect_relative(law->force(d, -v0, h), F_max * std::pow((d - d_p) / (d_max - d_p), n),
                      1e-13);
    }
  h = law->updated_history(0.019, -v0, 1e-5, h);
  EXPECT_EQ(law->force(0.019, -v0, h), 0.);
  EXPECT_TRUE(law->has_unloading_branch());
  // reloading: the unloading curve up to delta_max, the loading curve beyond
  const double d = 0.03;
  h              = law->updated_history(d, v0, 1e-5, h);
  expect_relative(law->force(d, v0, h), F_max * std::pow((d - d_p) / (d_max - d_p), n), 1e-13);
  expect_relative(law->force(d_max * (1. - 1e-9), v0, h), F_max, 1e-8); // continuous at d_max
  h = law->updated_history(0.06, v0, 1e-5, h);
  expect_relative(law->force(0.06, v0, h), K_hertz * std::pow(0.06, 1.5), 1e-14);
  expect_relative(h.residual_indentation, r * 0.06, 1e-14);
}

TEST(ElasticLaws, GoldsmithRestitutionFollowsThePermanentIndentationRatio)
{
  // Stronge: c_r^2 = (unloading work)/(loading work) = 5 (1 - r)/(2 (n + 1)); the default
  // r = 0.51 with n = 3/2 gives 0.7 (documented default)
  const auto law = make_law("goldsmith_plastic_unloading", {}, data(K_hertz));
  NormalContactHistory h = law->updated_history(0.04, v0, 1e-5, NormalContactHistory{});
  const double loading   = law->stored_energy(0.04, NormalContactHistory{});
  const double unloading = law->stored_energy(0.04, h);
  expect_relative(std::sqrt(unloading / loading), 0.7, 1e-13);

  const auto other = make_law("goldsmith_plastic_unloading",
                              {{"Unloading exponent", 2.}, {"Permanent indentation ratio", 0.2}},
                              data(K_hertz));
  h = other->updated_history(0.04, v0, 1e-5, NormalContactHistory{});
  expect_relative(other->stored_energy(0.04, h) / other->stored_energy(0.04, {}),
                  5. * 0.8 / 6., 1e-13);
}

TEST(ElasticLaws, GoldsmithWithoutPermanentIndentationIsHertz)
{
  const auto law = make_law("goldsmith_plastic_unloading",
                            {{"Permanent indentation ratio", 0.}}, data(K_hertz));
  const auto hertz = make_law("hertz", {}, data(K_hertz));
  const NormalContactHistory h = law->updated_history(0.1, v0, 1e-5, NormalContactHistory{});
  for (const double d : indentations)
    expect_relative(law->force(d, -v0, h), hertz->force(d, -v0, h), 1e-13);
}

// ---------------------------------------------------------------------------------------
// B. Linear dashpots: closed forms of linear_dashpot.h

TEST(LinearDashpot, KelvinVoigtRestitutionAndAnagnostopoulosAreInverse)
{
  EXPECT_EQ(kelvin_voigt_restitution(0.), 1.);
  EXPECT_EQ(kelvin_voigt_restitution(1.), 0.);
  EXPECT_EQ(kelvin_voigt_restitution(3.), 0.);
  expect_relative(kelvin_voigt_restitution(0.3), std::exp(-pi * 0.3 / std::sqrt(0.91)), 1e-15);
  for (const double c_r : {1e-4, 0.1, 0.5, 0.7, 0.99, 1.})
    EXPECT_NEAR(kelvin_voigt_restitution(anagnostopoulos_damping_ratio(c_r)), c_r, 1e-14 * c_r);
  EXPECT_EQ(anagnostopoulos_damping_ratio(0.), 1.);
  EXPECT_EQ(anagnostopoulos_damping_ratio(1.), 0.);
}

TEST(LinearDashpot, ForceFreeRestitutionAnalyticBranch)
{
  // S004 eq.(55) as printed, tan^-1 in the right quadrant (atan2)
  for (const double xi : {0.1, 0.5})
    {
      const double w     = std::sqrt(1. - xi * xi);
      const double theta = std::atan2(2. * xi * w, 2. * xi * xi - 1.);
      expect_relative(force_free_separation_restitution(xi), std::exp(-(xi / w) * theta), 1e-14);
    }
  EXPECT_EQ(force_free_separation_restitution(0.), 1.);
}

TEST(LinearDashpot, ForceFreeRestitutionCorrectedOverdampedBranch)
{
  // docs/contact-law-catalogue.md B4: at xi = 2 direct integration gives 0.0478; S004's printed
  // exponent 2 xi s/(2 xi^2 - 1) gives 0.0738
  const double e = force_free_separation_restitution(2.);
  EXPECT_NEAR(e, 0.0478, 5e-5);
  const double s       = std::sqrt(3.);
  const double printed = std::pow((2. - s) / (2. + s), 2. * 2. * s / 7.);
  EXPECT_NEAR(printed, 0.0738, 5e-5); // the printed formula is what the catalogue says
  EXPECT_GT(std::abs(e - printed), 0.02);
  // corrected formula ((xi - s)/(xi + s))^(xi/s) itself
  for (const double xi : {1.5, 2., 7.})
    {
      const double si = std::sqrt(xi * xi - 1.);
      expect_relative(force_free_separation_restitution(xi),
                      std::pow((xi - si) / (xi + si), xi / si), 1e-12);
    }
}

TEST(LinearDashpot, ForceFreeRestitutionIsContinuousAtCriticalDamping)
{
  EXPECT_DOUBLE_EQ(force_free_separation_restitution(1.), std::exp(-2.));
  for (const double dx : {1e-4, 1e-7, 1e-10})
    {
      EXPECT_NEAR(force_free_separation_restitution(1. - dx), std::exp(-2.), 2. * dx);
      EXPECT_NEAR(force_free_separation_restitution(1. + dx), std::exp(-2.), 2. * dx);
    }
  // strictly decreasing across xi = 1
  EXPECT_GT(force_free_separation_restitution(1. - 1e-4), force_free_separation_restitution(1.));
  EXPECT_GT(force_free_separation_restitution(1.), force_free_separation_restitution(1. + 1e-4));
}

TEST(LinearDashpot, ForceFreeDampingRatioInvertsTheRestitution)
{
  for (const double xi : {1e-3, 0.1, 0.5, 0.9, 1., 1.1, 2., 10., 50.})
    EXPECT_NEAR(force_free_separation_damping_ratio(force_free_separation_restitution(xi)), xi,
                1e-10);
  EXPECT_EQ(force_free_separation_damping_ratio(1.), 0.);
  for (const double e : {1e-4, 0.01, 0.3, 0.7, 0.999})
    EXPECT_NEAR(force_free_separation_restitution(force_free_separation_damping_ratio(e)), e,
                1e-12 * e);
}

TEST(LinearDashpot, GoyalDampingRatioSatisfiesGoyalsEquation)
{
  // S002 eq.(5.22) with factor 2 (docs/contact-law-catalogue.md B3): c_r = exp(-(2 xi/w)
  // atan(w/xi)), w = sqrt(1-xi^2)
  for (const double c_r : {0.99, 0.9, 0.7, 0.5, 0.2, 0.14})
    {
      const double xi = goyal_damping_ratio(c_r);
      ASSERT_GT(xi, 0.);
      ASSERT_LT(xi, 1.);
      const double w = std::sqrt(1. - xi * xi);
      EXPECT_NEAR(std::exp(-(2. * xi / w) * std::atan(w / xi)), c_r, 1e-13 * c_r);
    }
  // below exp(-2): the xi > 1 branch of B4
  for (const double c_r : {0.1, 0.01})
    {
      const double xi = goyal_damping_ratio(c_r);
      EXPECT_GT(xi, 1.);
      EXPECT_NEAR(force_free_separation_restitution(xi), c_r, 1e-12 * c_r);
    }
  EXPECT_EQ(goyal_damping_ratio(1.), 0.);
  // differs from Anagnostopoulos (separation at d = 0, where the tension phase also slows the
  // body down): force-free separation needs more damping for the same c_r
  EXPECT_GT(goyal_damping_ratio(0.5), anagnostopoulos_damping_ratio(0.5) + 0.03);
}

TEST(LinearDashpot, ForcesAreTheClosedForms)
{
  const double D  = 0.37; // N s/mm
  const auto   kv = make_law("kelvin_voigt", {{"Damping coefficient", D}}, data(K_lin));
  const double c_r = 0.6;
  const double sqrt_km = std::sqrt(K_lin * m_eff);
  // Anagnostopoulos S002 eq.(5.40), written out
  const double l      = std::log(c_r);
  const double D_anag = 2. * (-l / std::sqrt(pi * pi + l * l)) * sqrt_km;
  const auto   anag =
    make_law("anagnostopoulos", {{"Coefficient of restitution", c_r}}, data(K_lin));
  const double D_goyal = 2. * goyal_damping_ratio(c_r) * sqrt_km;
  const auto   goyal   = make_law("goyal", {{"Coefficient of restitution", c_r}}, data(K_lin));
  const auto   ff      = make_law("kelvin_voigt_force_free_separation",
                                  {{"Coefficient of restitution", c_r}}, data(K_lin));
  const NormalContactHistory h;
  for (const double d : indentations)
    for (const double v : rates)
      {
        expect_sum(kv->force(d, v, h), K_lin * d, D * v, 1e-14);
        expect_sum(anag->force(d, v, h), K_lin * d, D_anag * v, 1e-14);
        expect_sum(goyal->force(d, v, h), K_lin * d, D_goyal * v, 1e-14);
      }
  // B4: D = 2 xi sqrt(K m_eff) with e(xi) = c_r exactly
  const double D_ff = (ff->force(0.01, 100., h) - ff->force(0.01, 0., h)) / 100.;
  expect_relative(force_free_separation_restitution(D_ff / (2. * sqrt_km)), c_r, 1e-12);
  expect_relative(ff->force(0.01, 0., h), K_lin * 0.01, 1e-14);
  EXPECT_TRUE(ff->force_free_separation());
  EXPECT_FALSE(kv->force_free_separation());
  EXPECT_FALSE(goyal->force_free_separation());
}

TEST(LinearDashpot, CriticalDampingMarksTheGoyalBranches)
{
  // c_r = exp(-2) is xi = 1 for both Goyal and B4
  const double sqrt_km = std::sqrt(K_lin * m_eff);
  const auto   law     = make_law("goyal", {{"Coefficient of restitution", std::exp(-2.)}},
                                  data(K_lin));
  const NormalContactHistory h;
  expect_relative(law->force(0.01, 10., h) - K_lin * 0.01, 2. * sqrt_km * 10., 1e-12);
}

// ---------------------------------------------------------------------------------------
// B5. Poursina–Nikravesh optimal damping

TEST(OptimalDamping, SpecialCasesAgreeWithTheGeneralFit)
{
  // eq.(57): n = 1, alpha = 1.4181, beta = -0.44 (printed digits)
  EXPECT_NEAR(optimal_damping_alpha(1.), 1.4181, 5e-5);
  EXPECT_NEAR(optimal_damping_beta(1.), -0.44, 5e-3);
  // eq.(52): n = 3/2, alpha = 1.95, beta = -0.3 (printed digits)
  EXPECT_NEAR(optimal_damping_alpha(1.5), 1.95, 5e-3);
  EXPECT_NEAR(optimal_damping_beta(1.5), -0.3, 5e-2);
  // n = 1: the general fit evaluates to the printed constants (to rounding)
  for (const double e : {0.01, 0.3, 0.7, 0.95})
    expect_relative(optimal_damping_coefficient(1., K_lin, v0, m_eff, e),
                    optimal_damping_coefficient_linear(K_lin, m_eff, e), 1e-12);
  // n = 3/2: the printed constants are alpha(1.5) = 1.949568 and beta(1.5) = -0.299849
  // rounded; |ln(1.95/alpha)| = 2.2e-4, and |d beta| = 1.51e-4 changes ln(e^beta - 1) by
  // |ln e| e^beta/(e^beta - 1) |d beta| <= 6.2 * 1.51e-4 = 9.4e-4 for e >= 0.01: the two
  // coefficients differ by at most 1.16e-3 relative
  for (const double e : {0.01, 0.3, 0.7, 0.95})
    expect_relative(optimal_damping_coefficient(1.5, K_hertz, v0, m_eff, e),
                    optimal_damping_coefficient_hertz(K_hertz, v0, m_eff, e), 1.2e-3);
  // the exponents of eq.(49): c ~ k^(1/(n+1)) v^((n-1)/(n+1)) m^(n/(n+1))
  const double c = optimal_damping_coefficient(1.5, K_hertz, v0, m_eff, 0.5);
  expect_relative(optimal_damping_coefficient(1.5, 32. * K_hertz, v0, m_eff, 0.5), 4. * c,
                  1e-13);
  expect_relative(optimal_damping_coefficient(1.5, K_hertz, 32. * v0, m_eff, 0.5), 2. * c,
                  1e-13);
  expect_relative(optimal_damping_coefficient(1.5, K_hertz, v0, 32. * m_eff, 0.5), 8. * c,
                  1e-13);
  EXPECT_EQ(optimal_damping_coefficient(1.7, K_hertz, v0, m_eff, 1.), 0.);
}

TEST(OptimalDamping, LawForceAndSeparationIndentation)
{
  const double n = 1.5, e = 0.3;
  const auto   law = make_law("hertz_linear_damping_optimal", {{"Coefficient of restitution", e}},
                              data(K_hertz));
  const NormalContactHistory h = onset(*law, v0);
  EXPECT_EQ(h.approach_velocity, v0);
  // S004 eqs.(47),(49) written out
  const double alpha = 0.3331 * std::pow(n, 4) - 1.48 * std::pow(n, 3) + 3.077 * n * n -
                       2.306 * n + 1.794;
  const double beta = 1.285 * std::pow(n, 0.2553) - 1.725;
  const double c    = alpha * (std::pow(e, beta) - 1.) *
                   std::pow(K_hertz * std::pow(v0, n - 1.) * std::pow(m_eff, n), 1. / (n + 1.));
  for (const double d : indentations)
    for (const double v : rates)
      expect_sum(law->force(d, v, h), K_hertz * std::pow(d, n), c * v, 1e-13);
  // the force jump c delta_dot_minus at first contact (source behaviour)
  expect_relative(law->force(1e-300, v0, h), c * v0, 1e-12);
  // eq.(51): the force vanishes at d = s_delta when d' = -e delta_dot_minus
  const double s = separation_indentation(n, K_hertz, v0, c, e);
  EXPECT_NEAR(law->force(s, -e * v0, h), 0., 1e-12 * c * v0);
  EXPECT_GT(law->force(1.01 * s, -e * v0, h), 0.);
  EXPECT_LT(law->force(0.99 * s, -e * v0, h), 0.);
  // n = 1
  const auto lin = make_law("hertz_linear_damping_optimal",
                            {{"Coefficient of restitution", e}, {"Elastic exponent", 1.}},
                            data(K_lin));
  const NormalContactHistory hl = onset(*lin, 50.);
  expect_relative(lin->force(0.01, -20., hl),
                  K_lin * 0.01 - 20. * optimal_damping_coefficient_linear(K_lin, m_eff, e), 1e-12);
}

// ---------------------------------------------------------------------------------------
// Force-free separation (B4, B5): `released` through ContactLaw::updated_history

TEST(LinearDashpot, ForceFreeSeparationReleasesWhenTheForceVanishes)
{
  for (const std::string id :
       {"kelvin_voigt_force_free_separation", "hertz_linear_damping_optimal"})
    {
      const double K   = id == "hertz_linear_damping_optimal" ? K_hertz : K_lin;
      const auto   law = make_law(id, {{"Coefficient of restitution", 0.5}}, data(K));
      NormalContactHistory h = onset(*law, v0);
      ASSERT_TRUE(h.active);
      h = law->updated_history(0.02, 10., 1e-5, h); // compression
      EXPECT_FALSE(h.released) << id;
      // restitution with F > 0
      const double d = 0.01, S = law->elastic_force(d, h);
      const double c = law->damping_coefficient(d, -1., h);
      const double v_zero = -S / c; // rate at which F = 0 at this d
      h = law->updated_history(d, 0.5 * v_zero, 1e-5, h);
      EXPECT_FALSE(h.released) << id;
      EXPECT_GT(law->force(d, 0.5 * v_zero, h), 0.);
      // F reaches 0: released, no force while d > 0 whatever the rate
      h = law->updated_history(d, 1.01 * v_zero, 1e-5, h);
      EXPECT_TRUE(h.released) << id;
      EXPECT_EQ(law->force(d, 1.01 * v_zero, h), 0.);
      h = law->updated_history(0.5 * d, 100., 1e-5, h);
      EXPECT_TRUE(h.released) << id;
      EXPECT_EQ(law->force(0.5 * d, 100., h), 0.);
      // contact lost: reset
      h = law->updated_history(-1e-3, -100., 1e-5, h);
      EXPECT_FALSE(h.released) << id;
      EXPECT_FALSE(h.active) << id;
    }
  // separation at d = 0 (B1): the tension is not a release
  const auto kv = make_law("kelvin_voigt", {{"Damping coefficient", 1.}}, data(K_lin));
  NormalContactHistory h = onset(*kv, v0);
  h = kv->updated_history(0.01, -100., 1e-5, h);
  EXPECT_LT(kv->force(0.01, -100., h), 0.);
  EXPECT_FALSE(h.released);
}

// ---------------------------------------------------------------------------------------
// C. Empirical damping

TEST(EmpiricalDamping, ForcesAreTheClosedForms)
{
  const double chi = 2.5e-2;
  const auto   c1  = make_law("ristow_lee_herrmann", {{"Damping factor", 800.}}, data(K_hertz));
  const auto   c1_s000 = make_law(
    "ristow_lee_herrmann",
    {{"Damping factor", chi}, {"Damping indentation exponent", 1.}, {"Effective mass factor", 0.}},
    data(K_hertz));
  const auto c2      = make_law("schafer", {{"Damping factor", chi}}, data(K_hertz));
  const auto c2_s000 = make_law("schafer",
                                {{"Damping factor", chi}, {"Damping indentation exponent", 1.}},
                                data(K_hertz));
  const auto c3 = make_law("falcon", {{"Damping factor", chi}}, data(K_hertz));
  const auto c3_linear =
    make_law("falcon", {{"Damping factor", chi}, {"Damping indentation exponent", 0.}},
             data(K_hertz));
  const auto c4 = make_law("bordbar_hyppanen", {{"Damping factor", chi}}, data(K_hertz));
  const double mu = 3e-3, n_l = 0.6;
  const auto c5 = make_law("alizadeh", {{"Fluid viscosity", mu}, {"Velocity exponent", n_l}},
                           data(K_hertz));
  const NormalContactHistory h;
  for (const double d : indentations)
    for (const double v : rates)
      {
        const double S   = K_hertz * std::pow(d, 1.5);
        const double tol = 1e-13;
        expect_sum(c1->force(d, v, h), S, 800. * m_eff * v, tol);
        expect_sum(c1_s000->force(d, v, h), S, chi * d * v, tol);
        expect_sum(c2->force(d, v, h), S, chi * v, tol);
        expect_sum(c2_s000->force(d, v, h), S, chi * d * v, tol);
        expect_sum(c3->force(d, v, h), S, chi * std::pow(d, 0.25) * v, tol);
        expect_sum(c3_linear->force(d, v, h), S, chi * v, tol);
        expect_sum(c4->force(d, v, h), S, chi * std::pow(d, 0.65) * v, tol);
        const double sign = v > 0. ? 1. : v < 0. ? -1. : 0.;
        expect_sum(c5->force(d, v, h), S, 4. * pi * mu * d * sign * std::pow(std::abs(v), n_l),
                   tol);
      }
}

// ---------------------------------------------------------------------------------------
// All families: continuity at d = 0, undamped limits, stored energies

TEST(ElasticDashpotLaws, ZeroForceAtZeroIndentationWhereContinuous)
{
  const std::vector<std::pair<std::string, LawValues>> continuous = {
    {"hooke", {}},
    {"hertz", {}},
    {"goldsmith_plastic_unloading", {}},
    {"falcon", {{"Damping factor", 0.1}}},
    {"bordbar_hyppanen", {{"Damping factor", 0.1}}},
    {"alizadeh", {{"Fluid viscosity", 0.1}, {"Velocity exponent", 0.5}}},
    {"ristow_lee_herrmann", {{"Damping factor", 0.1}, {"Damping indentation exponent", 1.}}},
    {"schafer", {{"Damping factor", 0.1}, {"Damping indentation exponent", 1.}}}};
  for (const auto &[id, values] : continuous)
    {
      const auto law = make_law(id, values, data(K_hertz));
      const NormalContactHistory h = onset(*law, v0);
      EXPECT_EQ(law->force(0., v0, h), 0.) << id;
      // |F(d)| -> 0 as d -> 0+ for both signs of the rate (slowest: falcon's d^(1/4))
      for (const double v : {v0, -v0})
        {
          const double f1 = std::abs(law->force(1e-4, v, h));
          const double f2 = std::abs(law->force(1e-24, v, h));
          EXPECT_GT(f1, 0.) << id;
          EXPECT_LT(f2, 1e-3 * f1) << id;
        }
    }
  // the m = 0 laws jump to c d' at first contact (docs/contact-law-catalogue.md §6)
  const std::vector<std::pair<std::string, double>> jumping = {
    {"schafer", 0.1}, {"ristow_lee_herrmann", 0.1 * m_eff}};
  for (const auto &[id, c] : jumping)
    {
      const auto law = make_law(id, {{"Damping factor", 0.1}}, data(K_hertz));
      expect_relative(law->force(1e-300, v0, {}), c * v0, 1e-12);
    }
}

TEST(ElasticDashpotLaws, UndampedLimitIsTheElasticLaw)
{
  const auto hooke = make_law("hooke", {}, data(K_lin));
  const auto hertz = make_law("hertz", {}, data(K_hertz));
  const std::vector<std::pair<std::string, LawValues>> linear = {
    {"kelvin_voigt", {{"Damping coefficient", 0.}}},
    {"anagnostopoulos", {{"Coefficient of restitution", 1.}}},
    {"goyal", {{"Coefficient of restitution", 1.}}},
    {"kelvin_voigt_force_free_separation", {{"Coefficient of restitution", 1.}}},
    {"hertz_linear_damping_optimal",
     {{"Coefficient of restitution", 1.}, {"Elastic exponent", 1.}}}};
  const std::vector<std::pair<std::string, LawValues>> hertzian = {
    {"hertz_linear_damping_optimal", {{"Coefficient of restitution", 1.}}},
    {"ristow_lee_herrmann", {{"Damping factor", 0.}}},
    {"schafer", {{"Damping factor", 0.}, {"Damping indentation exponent", 1.}}},
    {"falcon", {{"Damping factor", 0.}}},
    {"bordbar_hyppanen", {{"Damping factor", 0.}}},
    {"alizadeh", {{"Fluid viscosity", 0.}, {"Velocity exponent", 0.7}}},
    {"goldsmith_plastic_unloading", {{"Permanent indentation ratio", 0.}}}};
  for (const auto &[group, reference, K] :
       {std::tuple{&linear, hooke, K_lin}, std::tuple{&hertzian, hertz, K_hertz}})
    for (const auto &[id, values] : *group)
      {
        const auto           law = make_law(id, values, data(K));
        NormalContactHistory h   = onset(*law, v0);
        h                        = law->updated_history(0.1, v0, 1e-5, h);
        for (const double d : indentations)
          for (const double v : rates)
            EXPECT_NEAR(law->force(d, v, h), reference->force(d, v, h),
                        1e-13 * reference->force(d, v, h))
              << id;
      }
  // and a small damping is a small perturbation (the limit is approached continuously)
  const double xi = force_free_separation_damping_ratio(1. - 1e-9);
  EXPECT_GT(xi, 0.);
  EXPECT_LT(xi, 1e-9);
  EXPECT_LT(goyal_damping_ratio(1. - 1e-9), 1e-9);
  EXPECT_LT(optimal_damping_coefficient(1.5, K_hertz, v0, m_eff, 1. - 1e-9),
            1e-8 * optimal_damping_coefficient(1.5, K_hertz, v0, m_eff, 0.5));
}

TEST(ElasticDashpotLaws, StoredEnergiesAreIntegralsOfTheSpringForce)
{
  const std::vector<std::pair<std::string, LawValues>> laws = {
    {"hooke", {}},
    {"hertz", {}},
    {"hertz", {{"Elastic exponent", 1.3}}},
    {"kelvin_voigt", {{"Damping coefficient", 0.2}}},
    {"anagnostopoulos", {}},
    {"goyal", {}},
    {"kelvin_voigt_force_free_separation", {}},
    {"hertz_linear_damping_optimal", {}},
    {"hertz_linear_damping_optimal", {{"Elastic exponent", 1.8}}},
    {"ristow_lee_herrmann", {{"Damping factor", 10.}}},
    {"schafer", {{"Damping factor", 0.1}}},
    {"falcon", {{"Damping factor", 0.1}}},
    {"bordbar_hyppanen", {{"Damping factor", 0.1}}},
    {"alizadeh", {{"Fluid viscosity", 0.1}}},
    {"goldsmith_plastic_unloading", {}}};
  for (const auto &[id, values] : laws)
    {
      const auto                 law = make_law(id, values, data(K_hertz));
      const NormalContactHistory h   = law->updated_history(0., 0., 0., {}); // fresh contact
      for (const double d : indentations)
        {
          expect_relative(law->stored_energy(d, h), integral(*law, h, 0., d), 1e-12);
          // and the closed-form inverse
          EXPECT_NEAR(law->indentation_for_energy(law->stored_energy(d, h), h), d, 1e-10 * d)
            << id;
        }
    }
  // Goldsmith after loading to delta_max: kinks at delta_p and delta_max
  const auto law = make_law("goldsmith_plastic_unloading", {{"Unloading exponent", 1.2}},
                            data(K_hertz));
  const NormalContactHistory h = law->updated_history(0.05, v0, 1e-5, NormalContactHistory{});
  const double               d_p = h.residual_indentation;
  ASSERT_GT(d_p, 0.);
  for (const double d : {0.5 * d_p, 1.1 * d_p, 0.04, 0.05, 0.07})
    {
      double w = 0.;
      if (d > d_p)
        w += integral(*law, h, d_p, std::min(d, 0.05));
      if (d > 0.05)
        w += integral(*law, h, 0.05, d);
      EXPECT_NEAR(law->stored_energy(d, h), w, 1e-12 * law->stored_energy(0.07, h)) << d;
    }
}
