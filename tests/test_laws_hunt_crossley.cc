// Tests of the Hunt–Crossley family (docs/contact-law-catalogue.md §4.1, §5 D, E): damping factors
// against the table, slopes at c_r = 1, the exact factor E1 against a 50-digit solution, E2 ≡ E1,
// Yu's piecewise fit E4, and the force law F = K d^n (1 + (chi/K) d') with the onset velocity.
#include "contact/laws/hunt_crossley_family.h"

#include <boost/math/constants/constants.hpp>
#include <boost/math/tools/roots.hpp>
#include <boost/multiprecision/cpp_bin_float.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace
{
  using namespace granular::contact;
  using namespace granular::contact::laws;
  using Big = boost::multiprecision::cpp_bin_float_100;
  const double pi = boost::math::constants::pi<double>();

  /// ln((1 + d/c)/(1 - d)) - d (1 + 1/c) in 100 digits (E1's equation in logarithmic form).
  Big
  exact_equation_log_residual(const Big &d, const Big &c)
  {
    return log((1 + d / c) / (1 - d)) - d * (1 + 1 / c);
  }

  /// E1's non-trivial root in 100 digits (reference; TOMS 748 on g/d^2, the trivial root
  /// divided out; 50 digits are not enough for 1 - c_r < 1e-13, where g ~ (1 - c_r)^3).
  Big
  reference_d(const double c_r)
  {
    const Big  c = c_r;
    const auto h = [&c](const Big &d) { return exact_equation_log_residual(d, c) / (d * d); };
    std::uintmax_t it = 500;
    const auto     r  = boost::math::tools::toms748_solve(
      h, Big((1 - c) / 4), Big(1) - Big("1e-80"), boost::math::tools::eps_tolerance<Big>(300),
      it);
    return (r.first + r.second) / 2;
  }

  /// The table formulas of docs/contact-law-catalogue.md §4.1, written out independently of the
  /// library.
  const std::map<std::string, std::function<double(double)>> &
  table()
  {
    static const std::map<std::string, std::function<double(double)>> t = {
      {"hunt_crossley", [](double c) { return 1.5 - 1.5 * c; }},
      {"herbert_mcwhannell", [](double c) { return (6. - 6. * c) / (4. * c * c - 4. * c + 4.); }},
      {"lee_wang", [](double c) { return 0.75 - 0.75 * c; }},
      {"lankarani_nikravesh", [](double c) { return 0.75 * (1. - c) * (1. + c); }},
      {"gonthier_approx", [](double c) { return 1. / c - c; }},
      {"zhiying_qishao", [](double c) { return 0.75 * (1. - c * c) * std::exp(2. - 2. * c); }},
      {"wang_yield_zq", [](double c) { return 0.75 * (1. - c * c) * std::exp(2. - 2. * c); }},
      {"flores", [](double c) { return 1.6 * (1. - c) / c; }},
      {"gharib_hurmuzlu", [](double c) { return 1. / c; }},
      {"hu_guo", [](double c) { return 1.5 / c - 1.5; }},
      {"zhang_et_al_2020", [](double c) { return 249. * (1. - c) / (6. + 160. * c); }},
      {"safaeifar_farshidianfar", [](double c) { return 1.25 / c - 1.25; }},
    };
    return t;
  }

  /// S002 eq.(5.34) in expanded form (docs/contact-law-catalogue.md §5 E4).
  double
  yu_table(const double c)
  {
    const double c2 = c * c, c3 = c2 * c;
    if (c <= 0.25)
      return 1.;
    if (c <= 0.4)
      return 2.1663 * c3 - 3.7216 * c2 + 0.8724 * c + 0.9409;
    if (c <= 0.6)
      return 1.1664 * c3 - 2.4893 * c2 + 0.3625 * c + 1.0117;
    if (c <= 0.8)
      return 0.5048 * c3 - 1.3255 * c2 - 0.3236 * c + 1.1472;
    return 0.2256 * c3 - 0.6663 * c2 - 0.8437 * c + 1.2844;
  }

  double
  relative_error(const double a, const double b)
  {
    return std::abs(a - b) / std::abs(b);
  }

  /// History of a contact that began with approach velocity @p v (mm/s).
  NormalContactHistory
  onset(const double v)
  {
    NormalContactHistory h;
    h.active            = true;
    h.approach_velocity = v;
    return h;
  }

  ContactData
  sphere_data()
  {
    ContactData data;
    data.stiffness         = 1.73925e5; // docs/contact-law-catalogue.md S1, N/mm^1.5
    data.effective_mass    = 4.6e-5;
    data.effective_modulus = 7.5e4; // MPa
    return data;
  }

  /// The registered laws of the family that take a "Coefficient of restitution".
  std::vector<std::string>
  restitution_laws()
  {
    std::vector<std::string> ids;
    for (const auto &id : damping_factor_laws())
      if (id != "wang_yield_zq")
        ids.push_back(id);
    ids.push_back("luo_nahon");
    return ids;
  }

  const std::vector<double> rates = {-2000., -300., -1., 0., 1e-3, 17., 300., 5000.};
} // namespace

TEST(HuntCrossleyFamily, FactorLawsInCatalogueOrder)
{
  const std::vector<std::string> expected = {
    "hunt_crossley", "herbert_mcwhannell", "lee_wang", "lankarani_nikravesh", "gonthier_approx",
    "zhiying_qishao", "wang_yield_zq", "flores", "gharib_hurmuzlu", "hu_guo", "zhang_et_al_2020",
    "safaeifar_farshidianfar", "hc_exact", "khatiwada", "yu_piecewise"};
  EXPECT_EQ(damping_factor_laws(), expected);
  EXPECT_THROW(damping_factor("marhefka_orin", 0.5), std::invalid_argument);
  EXPECT_THROW(damping_factor("hertz", 0.5), std::invalid_argument);
  EXPECT_THROW(damping_factor("flores", 0.), std::invalid_argument);
  EXPECT_THROW(damping_factor("flores", 1.01), std::invalid_argument);
}

TEST(HuntCrossleyFamily, FactorsMatchTableFormulas)
{
  for (const double c : {0.05, 0.2, 0.3, 0.45, 0.5, 0.7, 0.85, 0.95, 0.999, 1.})
    {
      for (const auto &[id, f] : table())
        EXPECT_NEAR(damping_factor(id, c), f(c), 1e-14 * std::max(1., f(c))) << id << " " << c;
      // E1 and E2: d/c_r with the 100-digit root; E4: d_Yu/c_r
      const double exact = c == 1. ? 0. : static_cast<double>(reference_d(c)) / c;
      EXPECT_NEAR(damping_factor("hc_exact", c), exact, 1e-14 * std::max(1., exact)) << c;
      EXPECT_NEAR(damping_factor("khatiwada", c), exact, 1e-14 * std::max(1., exact)) << c;
      EXPECT_NEAR(damping_factor("yu_piecewise", c), yu_table(c) / c, 1e-13) << c;
    }
}

TEST(HuntCrossleyFamily, SlopesAtFullRestitution)
{
  // -df/dc_r at c_r = 1 (docs/contact-law-catalogue.md §4.1), second-order one-sided difference
  // (c_r <= 1)
  const std::map<std::string, double> slope = {
    {"hunt_crossley", 1.5},  {"herbert_mcwhannell", 1.5},     {"lankarani_nikravesh", 1.5},
    {"zhiying_qishao", 1.5}, {"wang_yield_zq", 1.5},          {"hu_guo", 1.5},
    {"zhang_et_al_2020", 1.5}, {"flores", 1.6},               {"gonthier_approx", 2.},
    {"safaeifar_farshidianfar", 1.25}, {"lee_wang", 0.75},    {"hc_exact", 1.5},
    {"khatiwada", 1.5},      {"gharib_hurmuzlu", 1.},
    // E4: -(d_Yu'(1) - d_Yu(1)) = -(3 0.2256 - 2 0.6663 - 0.8437) = 1.4995
    {"yu_piecewise", 1.4995}};
  EXPECT_EQ(slope.size(), damping_factor_laws().size());
  const double e = 1e-4;
  for (const auto &[id, s] : slope)
    {
      const double f0 = damping_factor(id, 1.), f1 = damping_factor(id, 1. - e),
                   f2 = damping_factor(id, 1. - 2. * e);
      const double fd = (4. * f1 - f2 - 3. * f0) / (2. * e);
      EXPECT_NEAR(fd, s, 1e-6) << id;
    }
}

TEST(HuntCrossleyFamily, FactorVanishesAtFullRestitutionExceptGharibHurmuzlu)
{
  for (const auto &id : damping_factor_laws())
    if (id == "gharib_hurmuzlu")
      EXPECT_EQ(damping_factor(id, 1.), 1.);
    else if (id == "yu_piecewise")
      EXPECT_NEAR(damping_factor(id, 1.), 0., 1e-15); // printed coefficients, rounding
    else
      EXPECT_EQ(damping_factor(id, 1.), 0.) << id;
}

TEST(HuntCrossleyFamily, ExactRootMatchesHundredDigitSolution)
{
  double worst = 0.;
  for (const double c : {0.03, 0.05, 0.1, 0.2, 0.25, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.97, 0.99,
                         0.999, 1. - 1e-4, 1. - 1e-6, 1. - 1e-9, 1. - 1e-12})
    {
      const double d = exact_hunt_crossley_d(c);
      worst          = std::max(worst, relative_error(d, static_cast<double>(reference_d(c))));
    }
  EXPECT_LT(worst, 1e-15); // measured max 8.2e-16 on 2000 points of [0.03, 1)
}

TEST(HuntCrossleyFamily, ExactRootSatisfiesItsEquation)
{
  // (below c_r ≈ 0.11 the residual at the best double is |g'(d)| ulp ≈ ulp(1)/(1 - d) > 1e-12:
  //  the accuracy of d itself is checked above)
  for (const double c : {0.11, 0.15, 0.25, 0.5, 0.7, 0.9, 0.99, 0.999, 1. - 1e-6})
    {
      const double d = exact_hunt_crossley_d(c);
      ASSERT_GT(d, 0.);
      ASSERT_LT(d, 1.);
      // |ln((1 + d/c)/(1 - d)) - d (1 + 1/c)| at the returned double, evaluated in 100 digits
      EXPECT_LT(abs(exact_equation_log_residual(Big(d), Big(c))), 1e-12) << c;
    }
}

TEST(HuntCrossleyFamily, ExactRootLimits)
{
  // c_r -> 1: d = 1.5 (1 - c_r) (1 + O((1 - c_r)^2)); measured ratio - 1 ≈ -0.1 (1 - c_r)^2
  for (const double s : {1e-2, 1e-3, 1e-4})
    {
      const double ratio = exact_hunt_crossley_d(1. - s) / (1.5 * s);
      EXPECT_LT(std::abs(ratio - 1.), 0.2 * s * s) << s;
      EXPECT_GT(std::abs(ratio - 1.), 0.05 * s * s) << s; // the correction is really O(s^2)
    }
  // c_r -> 0: 1 - d -> (1 + 1/c) exp(-(1 + 1/c)) (from the equation at d -> 1)
  for (const double c : {0.1, 0.07, 0.05})
    {
      const double a         = 1. + 1. / c;
      const double predicted = a * std::exp(-a);
      // ratio - 1 ≈ (a - 1/(c a)) (1 - d) > 0 to leading order
      const double ratio = (1. - exact_hunt_crossley_d(c)) / predicted;
      EXPECT_GT(ratio, 1.) << c;
      EXPECT_LT(ratio - 1., 1.5 * a * predicted) << c;
    }
  EXPECT_EQ(exact_hunt_crossley_d(1e-3), std::nextafter(1., 0.));
  EXPECT_EQ(exact_hunt_crossley_d(1.), 0.);
  // d increases monotonically as c_r decreases
  double previous = 0.;
  for (double c = 1.; c > 0.02; c -= 0.01)
    {
      const double d = exact_hunt_crossley_d(c);
      EXPECT_GE(d, previous) << c;
      previous = d;
    }
}

TEST(HuntCrossleyFamily, KhatiwadaEqualsExactWithUEqualToCOverD)
{
  for (const double c : {0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 0.99, 0.999, 1. - 1e-6})
    {
      const double u = khatiwada_u(c);
      // E2's own equation F(u) = u ln|(u + 1)/(u - c)| - (1 + c) = 0, in 100 digits: the
      // relative change of u that zeroes the residual, |F/(u F')|, is a few ulp
      const Big ub = u, cb = c;
      const Big F  = ub * log(abs((ub + 1) / (ub - cb))) - (1 + cb);
      const Big dF = log((ub + 1) / (ub - cb)) + ub * (1 / (ub + 1) - 1 / (ub - cb));
      EXPECT_LT(abs(F / (ub * dF)), 1e-15) << c; // measured max 8.8e-16 on [0.03, 1)
      // E2 ≡ E1 with u = c_r/d
      EXPECT_LT(relative_error(u, c / exact_hunt_crossley_d(c)), 3e-15) << c;
    }
  EXPECT_TRUE(std::isinf(khatiwada_u(1.)));
}

TEST(HuntCrossleyFamily, YuPiecewiseFitsExactRoot)
{
  // continuity of the pieces at 0.4, 0.6, 0.8 (S002's printed coefficients: ~1e-4)
  for (const double b : {0.4, 0.6, 0.8})
    EXPECT_LT(std::abs(yu_d(b) - yu_d(std::nextafter(b, 1.))), 1e-4) << b;
  EXPECT_NEAR(yu_d(1.), 0., 1e-15);
  // the genuine jump at 0.25 (docs/contact-law-catalogue.md §7): 1 below, 0.9602 just above
  EXPECT_EQ(yu_d(0.25), 1.);
  EXPECT_NEAR(yu_d(std::nextafter(0.25, 1.)), 0.9602, 1e-4);
  EXPECT_EQ(yu_d(0.1), 1.);
  // max |d_Yu - d_exact| on (0.25, 1]: measured 7.1e-5 (near c_r = 0.6)
  double worst = 0.;
  for (int i = 1; i <= 7500; ++i)
    {
      const double c = 0.25 + 0.75 * i / 7500.;
      worst          = std::max(worst, std::abs(yu_d(c) - exact_hunt_crossley_d(c)));
    }
  EXPECT_LT(worst, 8e-5);
  EXPECT_GT(worst, 6e-5);
}

TEST(HuntCrossleyFamily, FullRestitutionGivesHertzForEveryRate)
{
  const ContactData data = sphere_data();
  for (const auto &id : restitution_laws())
    {
      if (id == "gharib_hurmuzlu")
        continue; // f(1) = 1: damped even at c_r = 1
      const auto   law = make_law(id, {{"Coefficient of restitution", 1.}}, data);
      const double K   = id == "luo_nahon" ? pi * data.effective_modulus : data.stiffness;
      const double n   = id == "luo_nahon" ? 1. : 1.5;
      for (const double d : {1e-4, 0.01, 0.3})
        for (const double r : rates)
          EXPECT_NEAR(law->force(d, r, onset(300.)), K * std::pow(d, n),
                      1e-14 * K * std::pow(d, n))
            << id << " d=" << d << " rate=" << r;
    }
  // marhefka_orin with alpha = 0 (c_r = 1 - alpha d'_- = 1)
  const auto mo = make_law("marhefka_orin", {{"Restitution velocity coefficient", 0.}}, data);
  for (const double r : rates)
    EXPECT_DOUBLE_EQ(mo->force(0.01, r, onset(300.)), data.stiffness * std::pow(0.01, 1.5));
  // and gharib_hurmuzlu is not Hertz at c_r = 1: F = K d^n (1 + d'/d'_-)
  const auto gh = make_law("gharib_hurmuzlu", {{"Coefficient of restitution", 1.}}, data);
  EXPECT_DOUBLE_EQ(gh->force(0.01, 150., onset(300.)), 1.5 * data.stiffness * std::pow(0.01, 1.5));
}

TEST(HuntCrossleyFamily, ZeroForceAtZeroIndentation)
{
  const ContactData data = sphere_data();
  for (const auto &info : registered_laws())
    {
      // the Hunt–Crossley family (docs/contact-law-catalogue.md D, E): its own source files
      if (info.entry.empty() || (info.entry[0] != 'D' && info.entry[0] != 'E'))
        continue;
      const auto law = make_law(info.id, {}, data);
      for (const double r : rates)
        {
          EXPECT_EQ(law->force(0., r, onset(300.)), 0.) << info.id;
          // continuous at d = 0+ (no jump): F = O(d^n), n >= 1, at a fixed rate
          EXPECT_LE(std::abs(law->force(1e-12, r, onset(300.))),
                    1.000001e-6 * std::abs(law->force(1e-6, r, onset(300.))))
            << info.id << " " << r;
        }
    }
}

TEST(HuntCrossleyFamily, OnsetApproachVelocityIsWhatChiUses)
{
  const ContactData data = sphere_data();
  const double      c    = 0.7, v0 = 300., K = data.stiffness;
  for (const auto &id : {"hunt_crossley", "flores", "hc_exact"})
    {
      const auto law = make_law(id, {{"Coefficient of restitution", c}}, data);
      // contact onset at rate v0, then two later steps at other rates
      NormalContactHistory h = law->updated_history(0.001, v0, 1e-6, NormalContactHistory{});
      h                      = law->updated_history(0.05, 120., 1e-6, h);
      h                      = law->updated_history(0.04, -90., 1e-6, h);
      ASSERT_EQ(h.approach_velocity, v0);
      const double chi = damping_factor(id, c) * K / v0;
      const double d = 0.04, r = -90.;
      EXPECT_NEAR(law->force(d, r, h), K * std::pow(d, 1.5) + chi * std::pow(d, 1.5) * r,
                  1e-13 * K * std::pow(d, 1.5))
        << id;
      // a contact that begins at rest uses the guard ("Minimum approach velocity" = 1 mm/s)
      const NormalContactHistory rest = law->updated_history(1e-3, 0., 1e-6, {});
      EXPECT_NEAR(law->force(d, r, rest),
                  K * std::pow(d, 1.5) * (1. + damping_factor(id, c) * r / 1.),
                  1e-12 * K * std::pow(d, 1.5))
        << id;
    }
}

TEST(HuntCrossleyFamily, ForceIsLinearInRateWithSlopeChiDn)
{
  const ContactData data = sphere_data();
  const double      K = data.stiffness, c = 0.6, v0 = 8000.; // (8 m/s)^(1/3) = 2
  // expected chi of every law at c_r = 0.6, d'_- = 8000 mm/s
  std::map<std::string, double> chi;
  for (const auto &id : damping_factor_laws())
    chi[id] = damping_factor(id, c) * K / v0;
  // D7 with the default yield strengths 1030, 30 MPa: K* = 1030/1000; c* = 1 - 0.26 K* 2
  chi["wang_yield_zq"] = table().at("zhiying_qishao")(1. - 0.52 * 1.03) * K / v0;
  chi["marhefka_orin"] = 1.5 * 1e-3 * K; // default alpha = 1e-3 s/mm
  const double K_ln    = 2. * pi * data.effective_modulus * 3. / 0.5;
  chi["luo_nahon"]     = static_cast<double>(reference_d(c)) / (c * v0) * K_ln;

  for (const auto &[id, x] : chi)
    {
      const bool   ln  = id == "luo_nahon";
      const double Kl  = ln ? K_ln : K, n = ln ? 1. : 1.5;
      LawValues    values;
      if (ln)
        values = {{"Case coefficient", 2.}, {"Interference area", 3.}, {"Shape coefficient", 0.5}};
      if (id != "wang_yield_zq" && id != "marhefka_orin")
        values["Coefficient of restitution"] = c;
      const auto   law = make_law(id, values, data);
      const auto   h   = onset(v0);
      const double d   = 0.02, dn = std::pow(d, n);
      EXPECT_NEAR(law->force(d, 0., h), Kl * dn, 1e-14 * Kl * dn) << id;
      for (const double r : rates)
        EXPECT_NEAR(law->force(d, r, h), Kl * dn + x * dn * r, 1e-13 * (Kl * dn + x * dn * 5000.))
          << id << " rate=" << r;
      // linear: equal differences for equal rate steps
      const double s1 = law->force(d, 200., h) - law->force(d, 100., h);
      const double s2 = law->force(d, -400., h) - law->force(d, -500., h);
      EXPECT_NEAR(s1, s2, 1e-9 * std::abs(s1)) << id;
      EXPECT_NEAR(s1 / 100., x * dn, 1e-9 * x * dn) << id;
    }
}

TEST(HuntCrossleyFamily, WangYieldStrengthReading)
{
  // K* cases of docs/contact-law-catalogue.md §5 D7 (S002 eq.(5.59), unresolved reading)
  EXPECT_DOUBLE_EQ(wang_k_star(300., 100., 0.05), 1.5);      // sigma_1 >= 2 sigma_2
  EXPECT_DOUBLE_EQ(wang_k_star(100., 98., 0.05), 100. / 98.); // sigma_2 ≈ sigma_1
  EXPECT_DOUBLE_EQ(wang_k_star(150., 100., 0.05), 0.6);      // otherwise
  EXPECT_DOUBLE_EQ(wang_k_star(100., 150., 0.05), 0.4);
  // c* = 1 - 0.26 K* (v/[m/s])^(1/3), v in mm/s converted: 1 m/s and 8 m/s
  EXPECT_NEAR(wang_effective_restitution(1.5, 1000.), 1. - 0.26 * 1.5, 1e-15);
  EXPECT_NEAR(wang_effective_restitution(1.5, 8000.), 1. - 0.26 * 1.5 * 2., 1e-15);
  EXPECT_EQ(wang_effective_restitution(1.5, 0.), 1.);
  EXPECT_EQ(wang_effective_restitution(2., 1e6), 0.); // 1 - 0.26 2 10 < 0: clipped
  // chi of the law at d'_- = 1000 mm/s with sigma = 300, 100 MPa
  const ContactData data = sphere_data();
  const auto        law  = make_law(
    "wang_yield_zq", {{"Yield strength of body 1", 300.}, {"Yield strength of body 2", 100.}},
    data);
  const double chi = table().at("zhiying_qishao")(0.61) * data.stiffness / 1000.;
  const double d = 0.01, r = 250.;
  const double dn = std::pow(d, 1.5);
  EXPECT_NEAR(law->force(d, r, onset(1000.)), data.stiffness * dn + chi * dn * r,
              1e-13 * (data.stiffness * dn + chi * dn * r));
}

TEST(HuntCrossleyFamily, StoredEnergyIsIntegralOfSpringForce)
{
  const ContactData data = sphere_data();
  for (const auto &id : {"hunt_crossley", "luo_nahon", "marhefka_orin"})
    {
      for (const double n : {1., 1.5, 2.2})
        {
          if (std::string(id) == "luo_nahon" && n != 1.)
            continue; // n = 1 by construction
          LawValues v;
          if (std::string(id) != "luo_nahon")
            v["Elastic exponent"] = n;
          const auto   law = make_law(id, v, data);
          const auto   h   = onset(300.);
          const double d = 0.07, e = 1e-6;
          const double dE =
            (law->stored_energy(d + e, h) - law->stored_energy(d - e, h)) / (2. * e);
          EXPECT_NEAR(dE, law->elastic_force(d, h), 1e-8 * law->elastic_force(d, h)) << id;
          EXPECT_EQ(law->stored_energy(0., h), 0.);
        }
    }
}

TEST(HuntCrossleyFamily, RejectsRestitutionOutsideUnitInterval)
{
  const ContactData data = sphere_data();
  EXPECT_THROW(make_law("hc_exact", {{"Coefficient of restitution", 0.}}, data),
               std::invalid_argument);
  EXPECT_THROW(make_law("flores", {{"Coefficient of restitution", 1.2}}, data),
               std::invalid_argument);
  ContactData no_modulus = data;
  no_modulus.effective_modulus = unknown;
  EXPECT_THROW(make_law("luo_nahon", {}, no_modulus), std::invalid_argument);
}
