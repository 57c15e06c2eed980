// docs/contact-law-catalogue.md §5 B: linear dashpot laws (B1 kelvin_voigt, B2 anagnostopoulos, B3
// goyal, B4 kelvin_voigt_force_free_separation, B5 hertz_linear_damping_optimal) and the closed
// forms of linear_dashpot.h.
#include "contact/laws/linear_dashpot.h"

#include "contact/laws/contact_law.h"

#include <boost/math/constants/constants.hpp>
#include <boost/math/tools/roots.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace granular::contact::laws
{
  namespace
  {
    constexpr double pi = boost::math::constants::pi<double>();

    void
    require(const bool ok, const char *what)
    {
      if (!ok)
        throw std::invalid_argument(what);
    }

    /// -ln e(xi) of force_free_separation_restitution() (xi >= 0), continuous at xi = 1.
    double
    force_free_log_decrement(const double xi)
    {
      if (xi == 0.)
        return 0.;
      if (xi < 1.)
        return 2. * xi * std::acos(xi) / std::sqrt((1. - xi) * (1. + xi));
      if (xi == 1.)
        return 2.;
      return 2. * xi * std::acosh(xi) / std::sqrt((xi - 1.) * (xi + 1.));
    }

    /// Midpoint of the bracket returned by toms748 on f over [a, b] (f(a), f(b) of opposite
    /// signs), to full double precision.
    template <typename Function>
    double
    root_in(const Function &f, const double a, const double b)
    {
      std::uintmax_t iterations = 200;
      const auto     r          = boost::math::tools::toms748_solve(
        f, a, b, f(a), f(b), boost::math::tools::eps_tolerance<double>(52), iterations);
      return 0.5 * (r.first + r.second);
    }
  } // namespace

  double
  linear_damping_coefficient(const double xi, const double K, const double m_eff)
  {
    require(xi >= 0. && K > 0. && m_eff > 0.,
            "linear_damping_coefficient: needs xi >= 0, K > 0 and m_eff > 0");
    return 2. * xi * std::sqrt(K * m_eff);
  }

  double
  kelvin_voigt_restitution(const double xi)
  {
    require(xi >= 0., "kelvin_voigt_restitution: the damping ratio must be >= 0");
    if (xi >= 1.)
      return 0.;
    return std::exp(-pi * xi / std::sqrt((1. - xi) * (1. + xi)));
  }

  double
  force_free_separation_restitution(const double xi)
  {
    require(xi >= 0., "force_free_separation_restitution: the damping ratio must be >= 0");
    return std::exp(-force_free_log_decrement(xi));
  }

  double
  force_free_separation_damping_ratio(const double e)
  {
    require(e > 0. && e <= 1.,
            "force_free_separation_damping_ratio: the restitution must be in (0, 1]");
    if (e == 1.)
      return 0.;
    const double log_e = std::log(e);
    // e(xi) < (xi + s)^-2 < xi^-2 for xi >= 1, and e(1) = exp(-2): the root lies below
    // max(1, 1/sqrt(e)).
    return root_in([log_e](const double xi) { return -force_free_log_decrement(xi) - log_e; },
                   0.,
                   std::max(1., 1. / std::sqrt(e)));
  }

  double
  anagnostopoulos_damping_ratio(const double c_r)
  {
    require(c_r >= 0. && c_r <= 1.,
            "anagnostopoulos_damping_ratio: the coefficient of restitution must be in [0, 1]");
    if (c_r == 0.)
      return 1.;
    const double l = std::log(c_r);
    return -l / std::sqrt(pi * pi + l * l);
  }

  double
  goyal_restitution(const double xi)
  {
    require(xi >= 0. && xi <= 1., "goyal_restitution: the damping ratio must be in [0, 1]");
    if (xi == 0.)
      return 1.;
    if (xi == 1.)
      return std::exp(-2.);
    const double w = std::sqrt((1. - xi) * (1. + xi));
    return std::exp(-(2. * xi / w) * std::atan(w / xi));
  }

  double
  goyal_damping_ratio(const double c_r)
  {
    require(c_r > 0. && c_r <= 1.,
            "goyal_damping_ratio: the coefficient of restitution must be in (0, 1]");
    if (c_r == 1.)
      return 0.;
    if (c_r <= std::exp(-2.))
      return c_r == std::exp(-2.) ? 1. : force_free_separation_damping_ratio(c_r);
    const double log_c = std::log(c_r);
    return root_in([log_c](const double xi) { return std::log(goyal_restitution(xi)) - log_c; },
                   0.,
                   1.);
  }

  double
  optimal_damping_alpha(const double n)
  {
    require(n >= 1. && n <= 2., "optimal_damping_alpha: the exponent must be in [1, 2]");
    return (((0.3331 * n - 1.48) * n + 3.077) * n - 2.306) * n + 1.794;
  }

  double
  optimal_damping_beta(const double n)
  {
    require(n >= 1. && n <= 2., "optimal_damping_beta: the exponent must be in [1, 2]");
    return 1.285 * std::pow(n, 0.2553) - 1.725;
  }

  double
  optimal_damping_coefficient(const double n, const double k, const double delta_dot_minus,
                              const double m_eff, const double e)
  {
    require(k > 0. && delta_dot_minus >= 0. && m_eff > 0. && e > 0. && e <= 1.,
            "optimal_damping_coefficient: needs k > 0, delta_dot_minus >= 0, m_eff > 0 and "
            "0 < e <= 1");
    return optimal_damping_alpha(n) * (std::pow(e, optimal_damping_beta(n)) - 1.) *
           std::pow(k * std::pow(delta_dot_minus, n - 1.) * std::pow(m_eff, n), 1. / (n + 1.));
  }

  double
  optimal_damping_coefficient_hertz(const double k, const double delta_dot_minus,
                                    const double m_eff, const double e)
  {
    require(k > 0. && delta_dot_minus >= 0. && m_eff > 0. && e > 0. && e <= 1.,
            "optimal_damping_coefficient_hertz: needs k > 0, delta_dot_minus >= 0, m_eff > 0 "
            "and 0 < e <= 1");
    return 1.95 * (std::pow(e, -0.3) - 1.) * std::pow(k, 0.4) * std::pow(delta_dot_minus, 0.2) *
           std::pow(m_eff, 0.6);
  }

  double
  optimal_damping_coefficient_linear(const double k, const double m_eff, const double e)
  {
    require(k > 0. && m_eff > 0. && e > 0. && e <= 1.,
            "optimal_damping_coefficient_linear: needs k > 0, m_eff > 0 and 0 < e <= 1");
    return 1.4181 * (std::pow(e, -0.44) - 1.) * std::sqrt(k * m_eff);
  }

  double
  separation_indentation(const double n, const double k, const double delta_dot_minus,
                         const double c, const double e)
  {
    require(n >= 1. && n <= 2. && k > 0. && delta_dot_minus >= 0. && c >= 0. && e >= 0.,
            "separation_indentation: needs n in [1, 2], k > 0 and non-negative "
            "delta_dot_minus, c, e");
    return std::pow(delta_dot_minus * c * e / k, 1. / n);
  }

  // ---------------------------------------------------------------------------------------
  namespace
  {
    /**
     * Linear spring–dashpot F = K d + D d' (docs/contact-law-catalogue.md B1–B4; S002 eq.(5.8)
     * [34]; S003 §1 [12]; S000 §3 [68]; S004 eq.(54) [8]), with D per law:
     *   B1 kelvin_voigt: D given ("Damping coefficient");
     *   B2 anagnostopoulos: D = 2 xi sqrt(K m_eff), xi = -ln(c_r)/sqrt(pi^2 + ln(c_r)^2)
     *      (S002 eqs.(5.39)-(5.40) [172]; S000 Table 1 [105] has a delta factor on the damping,
     *      dimensionally inconsistent: S002 form, docs/contact-law-catalogue.md §7 register
     *      "Anagnostopoulos");
     *   B3 goyal: D = 2 xi m_eff omega_n = 2 xi sqrt(K m_eff), xi the root of Goyal's c_r(xi)
     *      (S002 eqs.(5.20)-(5.22) [162,163]; D layout and factor 2 in the exponent
     *      reconstructed, docs/contact-law-catalogue.md §7 register "Goyal");
     *   B4 kelvin_voigt_force_free_separation: D = 2 xi sqrt(K m_eff), xi the exact inverse
     *      of the Butcher–Segalman restitution (S004 §5.2 eqs.(55)-(56) [2], xi > 1 exponent
     *      xi/s per docs/contact-law-catalogue.md §7 register "Butcher–Segalman").
     * Units: d in mm, d' in mm/s, K in N/mm, D in N s/mm, m_eff in t, F in N (2D cell: per mm
     * thickness). The force jumps to D d'- at first contact (m = 0 damping,
     * docs/contact-law-catalogue.md §6).
     * Separation: at d = 0 (B1–B3; the force is then negative late in restitution unless the
     * clamp flag is set), or at F = 0 for B4 (force_free_separation(): the base class sets
     * the history's `released` there and the contact carries no force until d <= 0).
     * History: none (B4: `released`).
     * Flags: defaults clamp false, damping in decompression true (as the sources).
     */
    class LinearDashpot : public ContactLaw
    {
    public:
      LinearDashpot(const std::string &id, const double K_, const double D_,
                    const bool force_free, const bool clamp, const bool damped)
        : ContactLaw(id, clamp, damped)
        , K(K_)
        , D(D_)
        , releases(force_free)
      {}

      /// K d.
      double
      spring_force(const double d, const NormalContactHistory &) const override
      {
        return K * d;
      }
      /// D d'.
      double
      damping_force(const double, const double d_dot,
                    const NormalContactHistory &) const override
      {
        return D * d_dot;
      }
      /// K d^2 / 2.
      double
      stored_energy(const double d, const NormalContactHistory &) const override
      {
        return d > 0. ? 0.5 * K * d * d : 0.;
      }
      /// f / K.
      double
      indentation_for_force(const double f, const NormalContactHistory &) const override
      {
        return f > 0. ? f / K : 0.;
      }
      /// sqrt(2 E / K).
      double
      indentation_for_energy(const double energy, const NormalContactHistory &) const override
      {
        return energy > 0. ? std::sqrt(2. * energy / K) : 0.;
      }
      bool
      force_free_separation() const override
      {
        return releases;
      }

    private:
      double K; ///< N/mm
      double D; ///< N s/mm
      bool   releases;
    };

    /**
     * Poursina–Nikravesh's Hertz-type spring with linear damping (S004 §§3–5, eq.(50);
     * docs/contact-law-catalogue.md B5):
     *   F = c d' + K d^n,  c = c_opt(n, K, delta_dot_minus, m_eff, e)   (S004 eq.(49),
     *   optimal_damping_coefficient()),
     * contact released at the first restitution instant with F = 0 (S004 eq.(20);
     * force_free_separation(): the base class sets `released`). The remaining indentation is
     * s_delta = (delta_dot_minus c e/K)^(1/n) (eq.(51), separation_indentation()).
     * Units: K in N/mm^n, m_eff in t, c in N s/mm, delta_dot_minus in mm/s.
     * History: delta_dot_minus = h.approach_velocity (captured at onset; a negative value is
     * taken as 0, which makes c = 0 for n > 1), `released`. The force jump c delta_dot_minus
     * at first contact is the source's (kept deliberately, docs/contact-law-catalogue.md B5).
     * Flags: defaults clamp false, damping in decompression true (as the source; with the
     * release at F = 0 the force never becomes negative).
     */
    class HertzLinearDampingOptimal : public ContactLaw
    {
    public:
      HertzLinearDampingOptimal(const double K_, const double n_, const double m_eff_,
                                const double e_, const bool clamp, const bool damped)
        : ContactLaw("hertz_linear_damping_optimal", clamp, damped)
        , K(K_)
        , n(n_)
        , c_unit(optimal_damping_coefficient(n_, K_, 1., m_eff_, e_))
      {}

      /// K d^n.
      double
      spring_force(const double d, const NormalContactHistory &) const override
      {
        return K * std::pow(d, n);
      }
      /// c_opt(delta_dot_minus) d' = c_opt(1 mm/s) delta_dot_minus^((n-1)/(n+1)) d'.
      double
      damping_force(const double, const double d_dot,
                    const NormalContactHistory &h) const override
      {
        return c_unit * std::pow(approach_velocity(h), (n - 1.) / (n + 1.)) * d_dot;
      }
      /// K d^(n+1)/(n+1).
      double
      stored_energy(const double d, const NormalContactHistory &) const override
      {
        return d > 0. ? K * std::pow(d, n + 1.) / (n + 1.) : 0.;
      }
      /// (f/K)^(1/n).
      double
      indentation_for_force(const double f, const NormalContactHistory &) const override
      {
        return f > 0. ? std::pow(f / K, 1. / n) : 0.;
      }
      /// ((n+1) E/K)^(1/(n+1)).
      double
      indentation_for_energy(const double energy, const NormalContactHistory &) const override
      {
        return energy > 0. ? std::pow((n + 1.) * energy / K, 1. / (n + 1.)) : 0.;
      }
      bool
      force_free_separation() const override
      {
        return true;
      }

    private:
      double K;      ///< N/mm^n
      double n;      ///< elastic exponent
      double c_unit; ///< c_opt for delta_dot_minus = 1 mm/s (N s/mm)
    };

    LawParameter
    restitution_parameter(const std::string &doc)
    {
      LawParameter p;
      p.name          = "Coefficient of restitution";
      p.default_value = 0.8;
      p.lower         = 0.;
      p.lower_open    = true;
      p.upper         = 1.;
      p.doc           = "c_r, Newton's coefficient of restitution (dimensionless). " + doc +
              " Default 0.8, as for every law with this entry: inside the range measured in "
              "the steel-ball experiments of docs/contact-law-catalogue.md §8 S2 (0.757-0.974); "
              "the impact scenarios set their own values.";
      return p;
    }

    /// LawInfo of B2–B4: K d + 2 xi(c_r) sqrt(K m_eff) d'.
    template <typename DampingRatio>
    LawInfo
    restitution_dashpot_info(const std::string &id, const bool force_free,
                             const DampingRatio xi_of)
    {
      LawInfo i;
      i.id    = id;
      i.needs = {Needs::stiffness, Needs::effective_mass};
      i.create =
        [id, force_free, xi_of](const LawValues &v, const ContactData &data)
        -> std::shared_ptr<const ContactLaw> {
        const double xi = xi_of(v.at("Coefficient of restitution"));
        return std::make_shared<const LinearDashpot>(
          id, data.stiffness,
          linear_damping_coefficient(xi, data.stiffness, data.effective_mass), force_free,
          v.at(clamp_flag) == 1., v.at(damping_flag) == 1.);
      };
      return i;
    }
  } // namespace

  namespace catalogue
  {
    LawInfo
    kelvin_voigt()
    {
      LawInfo i;
      i.id      = "kelvin_voigt";
      i.entry   = "B1";
      i.title   = "Kelvin–Voigt (linear spring–dashpot)";
      i.formula = "F = K d + D d'";
      i.source  = "S002 eq.(5.8) [34]; S000 §3 [68]; S003 §1 [12]; S004 eq.(54) [8]; "
                 "docs/contact-law-catalogue.md B1";
      LawParameter D;
      D.name          = "Damping coefficient";
      D.default_value = 0.;
      D.lower         = 0.;
      D.doc = "D in N s/mm (2D cell: N s/mm per mm thickness). The sources give no value "
              "(fitted per contact); the default 0 makes the law Hooke's (A1). D = "
              "2 xi sqrt(K m_eff) gives the damping ratio xi, with restitution "
              "exp(-pi xi/sqrt(1 - xi^2)) for separation at d = 0.";
      i.parameters = {D};
      i.needs      = {Needs::stiffness};
      i.create     = [](const LawValues &v, const ContactData &data)
        -> std::shared_ptr<const ContactLaw> {
        return std::make_shared<const LinearDashpot>("kelvin_voigt", data.stiffness,
                                                     v.at("Damping coefficient"), false,
                                                     v.at(clamp_flag) == 1.,
                                                     v.at(damping_flag) == 1.);
      };
      return i;
    }

    LawInfo
    anagnostopoulos()
    {
      LawInfo i = restitution_dashpot_info("anagnostopoulos", false,
                                           [](const double c_r) {
                                             return anagnostopoulos_damping_ratio(c_r);
                                           });
      i.entry   = "B2";
      i.title   = "Anagnostopoulos (Kelvin–Voigt from c_r)";
      i.formula = "F = K d + D d', D = 2 xi sqrt(K m_eff), "
                  "xi = -ln(c_r)/sqrt(pi^2 + ln(c_r)^2)";
      i.source  = "S002 eqs.(5.39)-(5.40) [172]; S000 Table 1 [105] (its delta factor on the "
                 "damping is dimensionally inconsistent; S002 form per "
                 "docs/contact-law-catalogue.md §7); docs/contact-law-catalogue.md B2";
      i.parameters = {restitution_parameter(
        "xi = -ln(c_r)/sqrt(pi^2 + ln(c_r)^2) reproduces c_r with separation at d = 0.")};
      return i;
    }

    LawInfo
    goyal()
    {
      LawInfo i =
        restitution_dashpot_info("goyal", false,
                                 [](const double c_r) { return goyal_damping_ratio(c_r); });
      i.entry   = "B3";
      i.title   = "Goyal (Kelvin–Voigt from c_r, numerical xi)";
      i.formula = "F = K d + D d', D = 2 xi m_eff omega_n = 2 xi sqrt(K m_eff), "
                  "c_r = exp(-(2 xi/sqrt(1 - xi^2)) atan(sqrt(1 - xi^2)/xi))";
      i.source  = "S002 eqs.(5.20)-(5.22) [162,163] (D = 2 xi m omega and factor 2, "
                 "docs/contact-law-catalogue.md §7 register \"Goyal\"); "
                 "docs/contact-law-catalogue.md B3";
      i.parameters = {restitution_parameter(
        "xi is the root of Goyal's equation (the force-free-separation restitution of B4; "
        "xi > 1 branch of B4 for c_r < exp(-2)). Separation is at d = 0 as in eq.(5.8); with "
        "\"Clamp nonnegative\" the law reproduces c_r exactly (the clamped force vanishes from "
        "the F = 0 instant on, B4's release).")};
      return i;
    }

    LawInfo
    kelvin_voigt_force_free_separation()
    {
      LawInfo i = restitution_dashpot_info("kelvin_voigt_force_free_separation", true,
                                           [](const double c_r) {
                                             return force_free_separation_damping_ratio(c_r);
                                           });
      i.entry   = "B4";
      i.title   = "Kelvin–Voigt with force-free separation (Butcher–Segalman)";
      i.formula = "F = K d + D d' until F = 0 in restitution, D = 2 xi sqrt(K m_eff), "
                  "xi from the exact restitution e(xi)";
      i.source  = "S004 §5.2 eqs.(55)-(56) [2] (xi > 1 exponent xi/s, "
                 "docs/contact-law-catalogue.md §7 register \"Butcher–Segalman\"); "
                 "docs/contact-law-catalogue.md B4";
      i.parameters = {restitution_parameter(
        "xi = e^-1(c_r), the exact inverse of the Butcher–Segalman restitution "
        "(force_free_separation_damping_ratio()); the contact ends at F = 0.")};
      return i;
    }

    LawInfo
    hertz_linear_damping_optimal()
    {
      LawInfo i;
      i.id      = "hertz_linear_damping_optimal";
      i.entry   = "B5";
      i.title   = "Poursina–Nikravesh (power-law spring, optimal linear damping)";
      i.formula = "F = c d' + K d^n until F = 0 in restitution, "
                  "c = alpha(n) (e^beta(n) - 1) (K d'-^(n-1) m_eff^n)^(1/(n+1))";
      i.source  = "S004 §§3-5, eqs.(20),(46),(47),(49),(50); docs/contact-law-catalogue.md B5";
      LawParameter e = restitution_parameter(
        "The desired restitution e of S004 eq.(49); the fit was built for e in [0.45, 1] and "
        "tested by S004 for e in [1e-4, 1].");
      LawParameter n;
      n.name          = "Elastic exponent";
      n.default_value = 1.5;
      n.lower         = 1.;
      n.upper         = 2.;
      n.doc = "n of K d^n (dimensionless), range of S004's fit [1, 2]; default 3/2 (Hertz; "
              "K then in N/mm^1.5).";
      i.parameters = {e, n};
      i.needs      = {Needs::stiffness, Needs::effective_mass};
      i.create     = [](const LawValues &v, const ContactData &data)
        -> std::shared_ptr<const ContactLaw> {
        return std::make_shared<const HertzLinearDampingOptimal>(
          data.stiffness, v.at("Elastic exponent"), data.effective_mass,
          v.at("Coefficient of restitution"), v.at(clamp_flag) == 1.,
          v.at(damping_flag) == 1.);
      };
      return i;
    }
  } // namespace catalogue
} // namespace granular::contact::laws
