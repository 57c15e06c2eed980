// docs/contact-law-catalogue.md §4.1, §5 D, E: the Hunt–Crossley family. See
// hunt_crossley_family.h.
#include "contact/laws/hunt_crossley_family.h"

#include <boost/math/constants/constants.hpp>
#include <boost/math/tools/roots.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <utility>

namespace granular::contact::laws
{
  namespace
  {
    void
    check_restitution(const double c_r, const char *where)
    {
      if (!(c_r > 0. && c_r <= 1.))
        throw std::invalid_argument(std::string(where) +
                                    ": the coefficient of restitution must be in (0, 1]");
    }

    /// D6 factor 0.75 (1 - c^2) exp(2 (1 - c)) (also D7's, at c_r*).
    double
    zhiying_qishao_factor(const double c)
    {
      return 0.75 * (1. - c * c) * std::exp(2. * (1. - c));
    }

    /**
     * r(x) = (ln(1 + x) - x + x^2/2)/x^3 for x > -1, so that ln(1 + x) - x = -x^2/2 + x^3 r(x):
     * the part of ln(1 + x) beyond its quadratic Taylor polynomial, to near full relative
     * accuracy (max relative error 1.2e-15 against a 100-digit evaluation on (-1, 3]): the series
     * 1/3 - x/4 + x^2/5 - ... for |x| <= 3/4, std::log1p beyond (where the cancellation with
     * x - x^2/2 loses at most a factor 6). (Boost's log1pmx is less accurate for x < 0: 4e-15.)
     */
    double
    log1p_cubic_remainder(const double x)
    {
      if (std::abs(x) <= 0.75)
        {
          double sum = 0., power = 1.;
          for (int k = 3; k < 200; ++k, power *= -x)
            {
              const double term = power / k;
              sum += term;
              if (std::abs(term) <= 1e-17 * std::abs(sum))
                break;
            }
          return sum;
        }
      return ((std::log1p(x) - x) + 0.5 * x * x) / (x * x * x);
    }

    /// Root of a bracketed sign change by Boost's TOMS 748 to 4 eps relative width.
    template <typename Function>
    double
    solve_bracketed(const Function &f, const double lo, const double hi)
    {
      std::uintmax_t max_iter = 200;
      const auto     r        = boost::math::tools::toms748_solve(
        f, lo, hi, boost::math::tools::eps_tolerance<double>(std::numeric_limits<double>::digits),
        max_iter);
      if (max_iter >= 200)
        throw std::runtime_error("Hunt–Crossley family: the root finder did not converge");
      return 0.5 * (r.first + r.second);
    }
  } // namespace

  // ---------------------------------------------------------------------------------------
  double
  exact_hunt_crossley_d(const double c)
  {
    check_restitution(c, "exact_hunt_crossley_d");
    if (c == 1.)
      return 0.;
    const double largest_below_one = std::nextafter(1., 0.);
    if (c < 0.02)
      return largest_below_one; // 1 - d ≈ (1 + 1/c) exp(-(1 + 1/c)) < 1e-20: below ulp(1)
    // ln lhs - ln rhs = g(d) = ln(1 + d/c) - ln(1 - d) - d (1 + 1/c): the linear terms cancel,
    // g(d) = d^2 (A + d (r(d/c)/c^3 + r(-d))),  A = -(1 - c^2)/(2 c^2);
    // h(d) = g(d)/d^2 has no root at the trivial d = 0 and no cancellation as c -> 1.
    const double A = -(1. - c) * (1. + c) / (2. * c * c);
    const auto   h = [c, A](const double d) {
      return A + d * (log1p_cubic_remainder(d / c) / (c * c * c) + log1p_cubic_remainder(-d));
    };
    const double lo = 0.5 * (1. - c); // g concave on (0, lo] with g(0) = g'(0) = 0: h(lo) < 0
    if (!(h(largest_below_one) > 0.))
      return largest_below_one; // root closer to 1 than representable
    return solve_bracketed(h, lo, largest_below_one);
  }

  double
  khatiwada_u(const double c)
  {
    check_restitution(c, "khatiwada_u");
    if (c == 1.)
      return std::numeric_limits<double>::infinity();
    // F(u) = u ln((u + 1)/(u - c)) - (1 + c) = u (ln(1 + 1/u) - ln(1 - c/u)) - (1 + c) vanishes at
    // u -> infinity (E1's trivial root); H(u) = u F(u) = -(1 - c^2)/2 + (r(1/u) + c^3 r(-c/u))/u
    // tends to -(1 - c^2)/2 there and to +infinity at u -> c+.
    const double A = -0.5 * (1. - c) * (1. + c);
    const auto   H = [c, A](const double u) {
      return A + (log1p_cubic_remainder(1. / u) + c * c * c * log1p_cubic_remainder(-c / u)) / u;
    };
    const double hi = 2. * c / (1. - c); // image of E1's (1 - c)/2: H(hi) < 0
    const double lo = c * (1. + std::ldexp(1., -50));
    if (!(H(lo) > 0.))
      return lo; // root closer to c than representable (c below about 0.03)
    return solve_bracketed(H, lo, hi);
  }

  double
  yu_d(const double c)
  {
    if (!(c >= 0. && c <= 1.))
      throw std::invalid_argument("yu_d: the coefficient of restitution must be in [0, 1]");
    // S002 eq.(5.34), signs per docs/contact-law-catalogue.md §5 E4 / §7
    if (c <= 0.25)
      return 1.;
    if (c <= 0.4)
      return ((2.1663 * c - 3.7216) * c + 0.8724) * c + 0.9409;
    if (c <= 0.6)
      return ((1.1664 * c - 2.4893) * c + 0.3625) * c + 1.0117;
    if (c <= 0.8)
      return ((0.5048 * c - 1.3255) * c - 0.3236) * c + 1.1472;
    return ((0.2256 * c - 0.6663) * c - 0.8437) * c + 1.2844;
  }

  double
  wang_k_star(const double sigma_1, const double sigma_2, const double tolerance)
  {
    if (sigma_1 >= 2. * sigma_2)
      return sigma_1 / (sigma_1 - sigma_2);
    if (std::abs(sigma_1 - sigma_2) <= tolerance * std::max(sigma_1, sigma_2))
      return sigma_1 / sigma_2;
    return sigma_1 / (sigma_1 + sigma_2);
  }

  double
  wang_effective_restitution(const double k_star, const double approach_velocity)
  {
    const double v_si = 1e-3 * std::max(approach_velocity, 0.); // mm/s -> m/s
    return std::clamp(1. - 0.26 * k_star * std::cbrt(v_si), 0., 1.);
  }

  std::vector<std::string>
  damping_factor_laws()
  {
    std::vector<std::string> ids;
    for (const LawInfo &law : registered_laws())
      if (law.damping_factor)
        ids.push_back(law.id);
    return ids;
  }

  double
  damping_factor(const std::string &id, const double c)
  {
    const LawInfo *law = find_law(id);
    if (law == nullptr || !law->damping_factor)
      throw std::invalid_argument("damping_factor: \"" + id +
                                  "\" is not a law of the Hunt–Crossley table "
                                  "(docs/contact-law-catalogue.md §4.1)");
    check_restitution(c, ("damping_factor(" + id + ")").c_str());
    return law->damping_factor(c);
  }

  // ---------------------------------------------------------------------------------------
  HuntCrossleyFamilyLaw::HuntCrossleyFamilyLaw(std::string id, const double K_, const double n_,
                                               RelativeDamping relative_damping_,
                                               const double    minimum_velocity,
                                               const bool      clamp_nonnegative,
                                               const bool      damping_in_decompression)
    : ContactLaw(std::move(id), clamp_nonnegative, damping_in_decompression)
    , K(K_)
    , n(n_)
    , relative_damping(std::move(relative_damping_))
  {
    if (!(std::isfinite(K) && K > 0.))
      throw std::invalid_argument(name() + ": the stiffness K must be positive and finite");
    if (!(std::isfinite(n) && n > 0.))
      throw std::invalid_argument(name() + ": the elastic exponent must be positive and finite");
    minimum_approach_velocity = minimum_velocity;
  }

  double
  HuntCrossleyFamilyLaw::spring_force(const double d, const NormalContactHistory &) const
  {
    return K * std::pow(d, n);
  }

  double
  HuntCrossleyFamilyLaw::hysteresis_factor(const NormalContactHistory &h) const
  {
    return K * relative_damping(approach_velocity(h));
  }

  double
  HuntCrossleyFamilyLaw::damping_force(const double d, const double d_dot,
                                       const NormalContactHistory &h) const
  {
    return hysteresis_factor(h) * std::pow(d, n) * d_dot;
  }

  double
  HuntCrossleyFamilyLaw::stored_energy(const double d, const NormalContactHistory &) const
  {
    return d > 0. ? K * std::pow(d, n + 1.) / (n + 1.) : 0.;
  }

  // ---------------------------------------------------------------------------------------
  namespace catalogue
  {
    namespace
    {
      constexpr const char *restitution_name = "Coefficient of restitution";
      constexpr const char *exponent_name    = "Elastic exponent";
      constexpr const char *guard_name       = "Minimum approach velocity";

      LawParameter
      restitution_parameter()
      {
        LawParameter p;
        p.name          = restitution_name;
        p.default_value = 0.8;
        p.lower         = 0.;
        p.lower_open    = true;
        p.upper         = 1.;
        p.doc = "c_r (Newton's, dimensionless) that the damping factor f(c_r) is built for "
                "(docs/contact-law-catalogue.md §4.1). Default 0.8: inside the range measured in "
                "the catalogue's steel-ball experiments (S000 Table 3, "
                "docs/contact-law-catalogue.md S2: 0.757-0.974) and high enough for the laws "
                "derived for c_r near 1 (D1-D4); the benchmarks set their own values (S1: 0.7).";
        return p;
      }

      LawParameter
      exponent_parameter()
      {
        LawParameter p;
        p.name          = exponent_name;
        p.default_value = 1.5;
        p.lower         = 0.;
        p.lower_open    = true;
        p.doc = "n of K d^n and of the damping term chi d^n d' (dimensionless). Default 1.5: "
                "Hertz, as in the sources (docs/contact-law-catalogue.md §4.1); the exact theory "
                "(E1) holds for any n.";
        return p;
      }

      LawParameter
      guard_parameter()
      {
        LawParameter p;
        p.name          = guard_name;
        p.default_value = 1.;
        p.lower         = 0.;
        p.lower_open    = true;
        p.doc = "Lower bound (mm/s) on the approach velocity d'_- that chi divides by "
                "(docs/contact-law-catalogue.md §6: guard d'_- -> 0 for contacts that start at "
                "rest). Default 1 mm/s, far below the benchmark speeds (94-8000 mm/s).";
        return p;
      }

      bool
      flag(const LawValues &v, const std::string &name)
      {
        return v.at(name) == 1.;
      }

      /// A §4.1 law: chi = f(c_r) K/d'_- with the damping factor f = @p factor (written as
      /// @p factor_formula), evaluated once when the law is made.
      LawInfo
      factor_law(const std::string &id, const std::string &entry, const std::string &title,
                 const std::string &factor_formula, std::function<double(double)> factor,
                 const std::string &source)
      {
        LawInfo i;
        i.id      = id;
        i.entry   = entry;
        i.title   = title;
        i.formula = "F = K d^n (1 + f(c_r) d'/d'_-), f(c_r) = " + factor_formula +
                    " (d'_- = approach velocity at onset)";
        i.source  = source;
        i.parameters     = {restitution_parameter(), exponent_parameter(), guard_parameter()};
        i.needs          = {Needs::stiffness};
        i.damping_factor = factor;
        i.create         = [id, factor](const LawValues &v, const ContactData &data)
          -> std::shared_ptr<const ContactLaw> {
          const double c_r = v.at(restitution_name);
          check_restitution(c_r, ("damping_factor(" + id + ")").c_str());
          const double f = factor(c_r);
          return std::make_shared<const HuntCrossleyFamilyLaw>(
            id, data.stiffness, v.at(exponent_name),
            [f](const double approach) { return f / approach; }, v.at(guard_name),
            flag(v, clamp_flag), flag(v, damping_flag));
        };
        return i;
      }
    } // namespace

    LawInfo
    hunt_crossley()
    {
      return factor_law(
        "hunt_crossley", "D1", "Hunt–Crossley [S002 group G3]", "1.5 (1 - c_r)",
        [](const double c) { return 1.5 * (1. - c); },
        "S000 Table 1 [96] (+ Marhefka–Orin [27]); S002 eqs.(5.9)-(5.12) [105],[46]; "
        "S003 [16]; S004 eq.(13) [12]; docs/contact-law-catalogue.md §4.1, D1");
    }

    LawInfo
    marhefka_orin()
    {
      LawInfo i;
      i.id      = "marhefka_orin";
      i.entry   = "D1b";
      i.title   = "Marhefka–Orin (Hunt–Crossley with c_r = 1 - alpha d'_-) [S002 group G3]";
      i.formula = "F = K d^n (1 + 1.5 alpha d')";
      i.source  = "S000 Table 1 [27]; S002 [149] (c_r = 1 - alpha d'_-: S002 [34]); "
                 "docs/contact-law-catalogue.md D1b";
      LawParameter a;
      a.name          = "Restitution velocity coefficient";
      a.default_value = 1e-3;
      a.lower         = 0.;
      a.doc = "alpha (s/mm) of the linear law c_r = 1 - alpha d'_- (elastic range). Default "
              "1e-3 s/mm: c_r = 0.7 at d'_- = 300 mm/s, the inputs of "
              "docs/contact-law-catalogue.md S1 where hunt_crossley is used in its Marhefka–Orin "
              "form.";
      i.parameters = {a, exponent_parameter()};
      i.needs      = {Needs::stiffness};
      i.create     = [](const LawValues &v, const ContactData &data)
        -> std::shared_ptr<const ContactLaw> {
        const double ratio = 1.5 * v.at("Restitution velocity coefficient");
        return std::make_shared<const HuntCrossleyFamilyLaw>(
          "marhefka_orin", data.stiffness, v.at(exponent_name),
          [ratio](const double) { return ratio; }, 0., flag(v, clamp_flag),
          flag(v, damping_flag));
      };
      return i;
    }

    LawInfo
    herbert_mcwhannell()
    {
      return factor_law("herbert_mcwhannell", "D2",
                        "Herbert–McWhannell [S002 group G2, approximate]",
                        "6 (1 - c_r)/((2 c_r - 1)^2 + 3)",
                        [](const double c) {
                          return 6. * (1. - c) / ((2. * c - 1.) * (2. * c - 1.) + 3.);
                        },
                        "S000 Table 1 [102]; S002 eqs.(5.18)-(5.19) [158]; "
                        "docs/contact-law-catalogue.md D2");
    }

    LawInfo
    lee_wang()
    {
      return factor_law("lee_wang", "D3", "Lee–Wang [S002 group G3]", "0.75 (1 - c_r)",
                        [](const double c) { return 0.75 * (1. - c); },
                        "S000 Table 1 [109]; S002 eq.(5.35) [169]; "
                        "docs/contact-law-catalogue.md D3");
    }

    LawInfo
    lankarani_nikravesh()
    {
      return factor_law("lankarani_nikravesh", "D4", "Lankarani–Nikravesh [S002 group G3]",
                        "0.75 (1 - c_r^2)", [](const double c) { return 0.75 * (1. - c * c); },
                        "S000 Table 1 [100]; S002 eqs.(5.41)-(5.43) [106]; S003 [20,21]; "
                        "S004 eq.(14) [15,17]; docs/contact-law-catalogue.md D4");
    }

    LawInfo
    gonthier_approx()
    {
      return factor_law("gonthier_approx", "D5",
                        "Gonthier et al. / Zhang–Sharf, approximated [S002 group G2]",
                        "(1 - c_r^2)/c_r", [](const double c) { return (1. - c * c) / c; },
                        "S000 Table 1 [110],[103]; S002 eq.(5.26) [89]; "
                        "docs/contact-law-catalogue.md D5");
    }

    LawInfo
    zhiying_qishao()
    {
      return factor_law("zhiying_qishao", "D6", "Zhiying–Qishao [S002 group G3]",
                        "0.75 (1 - c_r^2) exp(2 (1 - c_r))", zhiying_qishao_factor,
                        "S000 Table 1 [111]; S002 eq.(5.56) [184]; "
                        "docs/contact-law-catalogue.md D6");
    }

    LawInfo
    wang_yield_zq()
    {
      LawInfo i;
      i.id      = "wang_yield_zq";
      i.entry   = "D7";
      i.title   = "Wang et al. (Zhiying–Qishao with a yield-strength c_r*) [S002 group G3]";
      i.formula = "F = K d^n (1 + f(c*) d'/d'_-), f(c) = 0.75 (1 - c^2) exp(2 (1 - c)), "
                  "c* = 1 - 0.26 K* (d'_- [m/s])^(1/3); K* = s1/(s1 - s2) if s1 >= 2 s2, "
                  "s1/s2 if s1 ≈ s2, s1/(s1 + s2) otherwise";
      i.source = "S002 eqs.(5.58)-(5.60) [185] (OCR reading of eq.(5.59) unresolved, "
                 "docs/contact-law-catalogue.md §7); docs/contact-law-catalogue.md D7";
      LawParameter s1;
      s1.name          = "Yield strength of body 1";
      s1.default_value = 1030.;
      s1.lower         = 0.;
      s1.lower_open    = true;
      s1.doc = "sigma_1 (MPa). Default 1030 MPa: body 1 of docs/contact-law-catalogue.md S3 (S003 "
               "Table 1), a plausible pair with the default of body 2; no value in the D7 source.";
      LawParameter s2 = s1;
      s2.name          = "Yield strength of body 2";
      s2.default_value = 30.;
      s2.doc = "sigma_2 (MPa). Default 30 MPa: body 2 of docs/contact-law-catalogue.md S3 (S003 "
               "Table 1).";
      LawParameter tol;
      tol.name          = "Equal yield strength tolerance";
      tol.default_value = 0.05;
      tol.lower         = 0.;
      tol.upper         = 0.5;
      tol.doc = "Relative tolerance reading the condition \"sigma_2 ≈ sigma_1\" of S002 "
                "eq.(5.59) as |sigma_1 - sigma_2| <= tolerance max(sigma_1, sigma_2) "
                "(dimensionless). The source gives no tolerance (docs/contact-law-catalogue.md §7: "
                "unresolved); default 0.05 is ours.";
      i.parameters = {s1, s2, tol, exponent_parameter(), guard_parameter()};
      i.needs      = {Needs::stiffness};
      i.damping_factor = zhiying_qishao_factor; // of its effective c_r*
      i.create     = [](const LawValues &v, const ContactData &data)
        -> std::shared_ptr<const ContactLaw> {
        const double k_star = wang_k_star(v.at("Yield strength of body 1"),
                                          v.at("Yield strength of body 2"),
                                          v.at("Equal yield strength tolerance"));
        return std::make_shared<const HuntCrossleyFamilyLaw>(
          "wang_yield_zq", data.stiffness, v.at(exponent_name),
          [k_star](const double approach) {
            return zhiying_qishao_factor(wang_effective_restitution(k_star, approach)) /
                   approach;
          },
          v.at(guard_name), flag(v, clamp_flag), flag(v, damping_flag));
      };
      return i;
    }

    LawInfo
    flores()
    {
      return factor_law("flores", "D8", "Flores et al. / Ye et al. [S002 group G4]",
                        "8 (1 - c_r)/(5 c_r)",
                        [](const double c) { return 8. * (1. - c) / (5. * c); },
                        "S000 Table 1 [101]; S002 eqs.(5.61)-(5.62) [108],[59]; S003 [27],[26]; "
                        "S004 eq.(16) [6],[29]; docs/contact-law-catalogue.md D8");
    }

    LawInfo
    gharib_hurmuzlu()
    {
      return factor_law("gharib_hurmuzlu", "D9", "Gharib–Hurmuzlu [S002 group G3]", "1/c_r",
                        [](const double c) { return 1. / c; },
                        "S000 Table 1 [112]; S002 eq.(5.57) [107]; "
                        "docs/contact-law-catalogue.md D9");
    }

    LawInfo
    hu_guo()
    {
      return factor_law("hu_guo", "D10", "Hu–Guo [S002 group G4]", "1.5 (1 - c_r)/c_r",
                        [](const double c) { return 1.5 * (1. - c) / c; },
                        "S002 eq.(5.63) [109]; S004 eq.(15) [11] (\"Hu and Gua\"); "
                        "docs/contact-law-catalogue.md D10");
    }

    LawInfo
    zhang_et_al_2020()
    {
      return factor_law("zhang_et_al_2020", "D11", "Zhang et al. 2020 [S002 group G4]",
                        "249 (1 - c_r)/(6 + 160 c_r)",
                        [](const double c) { return 249. * (1. - c) / (6. + 160. * c); },
                        "S002 eq.(5.64) [187]; docs/contact-law-catalogue.md D11");
    }

    LawInfo
    safaeifar_farshidianfar()
    {
      return factor_law(
        "safaeifar_farshidianfar", "D12", "Safaeifar–Farshidianfar [S002 group G4]",
        "5 (1 - c_r)/(4 c_r)", [](const double c) { return 5. * (1. - c) / (4. * c); },
        "S002 eqs.(5.65)-(5.66) [151] (slope 1.25 at c_r = 1 kept as printed, "
        "docs/contact-law-catalogue.md §7); docs/contact-law-catalogue.md D12");
    }

    LawInfo
    hc_exact()
    {
      return factor_law("hc_exact", "E1",
                        "Hunt–Crossley with exact chi (Gonthier et al. / Zhang–Sharf) "
                        "[S002 group G2]",
                        "d/c_r, (1 + d/c_r)/(1 - d) = exp(d (1 + 1/c_r)), d in (0, 1)",
                        [](const double c) { return exact_hunt_crossley_d(c) / c; },
                        "S000 [110],[103]; S002 eqs.(5.23)-(5.25) [89],[165]; S004 eqs.(18)-(19) "
                        "[9]; docs/contact-law-catalogue.md E1");
    }

    LawInfo
    khatiwada()
    {
      return factor_law("khatiwada", "E2", "Khatiwada et al. (exact chi) [S002 group G2]",
                        "1/u, 1 + c_r = u ln|(u + 1)/(u - c_r)|",
                        [](const double c) { return 1. / khatiwada_u(c); },
                        "S002 eq.(5.31) [167]; docs/contact-law-catalogue.md E2");
    }

    LawInfo
    luo_nahon()
    {
      LawInfo i;
      i.id      = "luo_nahon";
      i.entry   = "E3";
      i.title   = "Luo–Nahon (exact chi, interference-geometry stiffness) [S002 group G2]";
      i.formula = "F = (1 + chi' d') gamma pi E* A0/s0_max d, chi' = d_E1(c_r)/(c_r d'_-) "
                  "(delta_max read as the current indentation d)";
      i.source = "S002 eqs.(5.27)-(5.30) [166] (delta_max read as the current indentation d: "
                 "our reading); docs/contact-law-catalogue.md E3";
      LawParameter gamma;
      gamma.name          = "Case coefficient";
      gamma.default_value = 1.;
      gamma.lower         = 0.;
      gamma.lower_open    = true;
      gamma.doc = "gamma (dimensionless), set by the pressure distribution and the contact vs "
                  "interference geometry (S002 eq.(5.27)). The sources give no value: set it for "
                  "your contact (the default 1 leaves the law's stiffness pi E* A0/s0_max).";
      LawParameter area;
      area.name          = "Interference area";
      area.default_value = 1.;
      area.lower         = 0.;
      area.lower_open    = true;
      area.doc = "A0 (mm^2): area of the interference geometry. The sources give no value: set "
                 "it for your contact (default 1 mm^2).";
      LawParameter shape;
      shape.name          = "Shape coefficient";
      shape.default_value = 1.;
      shape.lower         = 0.;
      shape.lower_open    = true;
      shape.doc = "s0_max (mm): shape coefficient of the contact polygon; a length by dimensions "
                  "(F in N = MPa mm^2 mm / s0_max). The sources give no value: set it for your "
                  "contact (default 1 mm).";
      i.parameters = {restitution_parameter(), gamma, area, shape, guard_parameter()};
      i.needs      = {Needs::effective_modulus};
      i.create     = [](const LawValues &v, const ContactData &data)
        -> std::shared_ptr<const ContactLaw> {
        const double c_r = v.at(restitution_name);
        const double f   = exact_hunt_crossley_d(c_r) / c_r;
        const double K   = v.at("Case coefficient") * boost::math::constants::pi<double>() *
                         data.effective_modulus * v.at("Interference area") /
                         v.at("Shape coefficient");
        return std::make_shared<const HuntCrossleyFamilyLaw>(
          "luo_nahon", K, 1., [f](const double approach) { return f / approach; },
          v.at(guard_name), flag(v, clamp_flag), flag(v, damping_flag));
      };
      return i;
    }

    LawInfo
    yu_piecewise()
    {
      return factor_law("yu_piecewise", "E4", "Yu et al. (piecewise exact chi) [S002 group G2]",
                        "d_Yu(c_r)/c_r, d_Yu piecewise cubic (1 for c_r <= 0.25)",
                        [](const double c) { return yu_d(c) / c; },
                        "S002 eqs.(5.32)-(5.34) [168] (signs by continuity; jump at c_r = 0.25 "
                        "genuine, docs/contact-law-catalogue.md §7); "
                        "docs/contact-law-catalogue.md E4");
    }
  } // namespace catalogue
} // namespace granular::contact::laws
