// docs/contact-law-catalogue.md §5 F1–F6: the material-viscosity laws (damping ∝ d^1/2:
// Kuwabara–Kono, Brilliantov 1996, Zheng et al., Brilliantov generalized) and the laws with a
// velocity-independent c_r (damping ∝ d^1/4: Tsuji, Jankowski). F7 is in
// temizer_decompression_undamped.cc. See contact_law.h.
//
// Units (mm–s–N–t–MPa): d in mm, d' in mm/s (> 0 compression), F in N; K in N/mm^1.5;
// m_eff in t; R_eff in mm; E in MPa; bulk (xi) and shear (eta) viscosities in MPa s;
// the dissipative constant A in s; chi of the d^1/2 laws in N s/mm^1.5.
#include "contact/laws/contact_law.h"
#include "contact/laws/hertz_spring.h"

#include <boost/math/constants/constants.hpp>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

namespace granular::contact::laws
{
  namespace
  {
    constexpr double pi = boost::math::constants::pi<double>();

    /**
     * Checks a ContactData member that a law needs only in some configurations (so it is not
     * in LawInfo::needs): throws std::invalid_argument naming the law, the datum, and why
     * it is needed, if @p data does not define it.
     */
    void
    require_datum(const std::string &id, const ContactData &data, const Needs n,
                  const std::string &why)
    {
      const double v = value(data, n);
      if (!std::isfinite(v))
        throw std::invalid_argument(
          "contact law " + id + " needs " + describe(n) + " " + why + ", which this contact " +
          (std::isnan(v) ? "does not define" : "defines as a non-finite value"));
    }

    /**
     * Hertz spring with a viscous term ∝ sqrt(d) (docs/contact-law-catalogue.md §5 F1–F4, the
     * "material viscosity" family; S000 Table 1 m = 1/2):
     *   F = K d^1.5 + chi d^0.5 d'                       (d > 0; 0 otherwise).
     * K in N/mm^1.5, chi in N s/mm^1.5. The damping term vanishes at d = 0, so the force is
     * continuous at first contact (docs/contact-law-catalogue.md §6). History: none. The derived
     * laws differ only in how chi is obtained from material data.
     */
    class ViscoelasticHertz : public HertzSpringLaw
    {
    public:
      ViscoelasticHertz(const std::string &id, const double K_, const double chi_,
                        const bool clamp, const bool damped)
        : HertzSpringLaw(id, K_, clamp, damped)
        , chi(chi_)
      {
        require(std::isfinite(K) && K > 0., id, "the stiffness K must be positive and finite");
        require(std::isfinite(chi) && chi >= 0., id,
                "the damping factor chi must be non-negative and finite");
      }

      /// chi sqrt(d) d'.
      double
      damping_force(const double d, const double d_dot,
                    const NormalContactHistory &) const override
      {
        return chi * std::sqrt(d) * d_dot;
      }

    private:
      double chi; ///< N s/mm^1.5
    };

    // ---------------------------------------------------------------------------------------
    /// Viscosities (MPa s) of one body: xi bulk, eta shear.
    struct Viscosities
    {
      double bulk  = 0.;
      double shear = 0.;
    };

    /**
     * Kuwabara–Kono (docs/contact-law-catalogue.md F1; S002 eqs.(5.36)–(5.38) [170]; S000 Table 1
     *   [113]): F = K d^1.5 + chi d^0.5 d',   chi = 2 sqrt(R_eff) / D0,
     *   D0 = sum over the bodies i of N_i / (36 (3 xi_i + eta_i) xi_i eta_i),
     *   N_i = 4 (3 xi_i + eta_i)^2 - 9 (xi_i - eta_i)^2          (the OCR reading).
     * xi_i bulk and eta_i shear viscosity of body i (MPa s), R_eff (mm), K (N/mm^1.5) the
     * caller's Hertz stiffness; chi in N s/mm^1.5, D0 in 1/(MPa s).
     *
     * Readings (docs/contact-law-catalogue.md §7 "Kuwabara–Kono chi (S002 5.37)"): S002's OCR
     * layout "2 sqrt(R_eff) D0" is taken as the quotient 2 sqrt(R_eff)/D0, the only dimensionally
     * consistent reading. The numerator N_i is **unresolved** (docs/contact-law-catalogue.md F1):
     * the OCR'd 4 (3 xi + eta)^2 - 9 (xi - eta)^2 is implemented as read, although the denominator
     * matches the elastic identity (1 - nu^2)/E = (4 (3 Kb + G)^2 - (3 Kb - 2 G)^2)/
     * (36 Kb G (3 Kb + G)) with the moduli replaced by viscosities, which would suggest
     * N_i = 4 (3 xi + eta)^2 - (3 xi - 2 eta)^2. The OCR numerator 27 xi^2 + 42 xi eta -
     * 5 eta^2 is positive only for xi > eta/9; smaller bulk viscosities are rejected (the
     * elastic-identity numerator, 9 xi (3 xi + 4 eta), would be positive for every xi > 0).
     * Check Kuwabara & Kono (Jpn. J. Appl. Phys. 26 (1987) 1230) before relying on the
     * numbers. S000 Table 1 lumps the law with Brilliantov's (F2 form).
     *
     * A rigid second body (a wall) is given as zero viscosities: its term is omitted (the
     * viscous analog of E -> infinity, whose term vanishes as 1/viscosity).
     * History: none. Flags: no clamp, damping in decompression (the source's law).
     */
    class KuwabaraKono : public ViscoelasticHertz
    {
    public:
      static constexpr const char *law_name = "kuwabara_kono";

      /// @p second with both viscosities 0: a rigid second body.
      KuwabaraKono(const double K, const double R_eff, const Viscosities &first,
                   const Viscosities &second, const bool clamp, const bool damped)
        : ViscoelasticHertz(law_name, K, hysteresis_factor(R_eff, first, second), clamp,
                            damped)
      {}

      /// N_i/(36 (3 xi + eta) xi eta) (1/(MPa s)), the body's term of D0 (OCR numerator).
      static double
      viscous_compliance(const Viscosities &v)
      {
        const double xi = v.bulk, eta = v.shear;
        require(std::isfinite(xi) && std::isfinite(eta) && xi > 0. && eta > 0., law_name,
                "the bulk and shear viscosities of a viscous body must be positive");
        const double s = 3. * xi + eta;
        const double N = 4. * s * s - 9. * (xi - eta) * (xi - eta);
        require(N > 0., law_name,
                "the OCR-read numerator 4 (3 xi + eta)^2 - 9 (xi - eta)^2 of S002 eq.(5.38) is "
                "not positive (it needs a bulk viscosity xi > eta/9; "
                "docs/contact-law-catalogue.md F1, unresolved reading)");
        return N / (36. * s * xi * eta);
      }

      /// chi = 2 sqrt(R_eff)/D0 (N s/mm^1.5).
      static double
      hysteresis_factor(const double R_eff, const Viscosities &first,
                        const Viscosities &second)
      {
        require(std::isfinite(R_eff) && R_eff > 0., law_name,
                "the effective radius R_eff must be positive");
        double D0 = viscous_compliance(first);
        const bool rigid_second = second.bulk == 0. && second.shear == 0.;
        if (!rigid_second)
          D0 += viscous_compliance(second);
        return 2. * std::sqrt(R_eff) / D0;
      }
    };

    /**
     * Brilliantov et al. 1996 (docs/contact-law-catalogue.md F2; S002 eqs.(5.47)–(5.48) [178]; S000
     * Table 1 [114,115]):
     *   F = K d^1.5 + chi d^0.5 d' = K (d^1.5 + 1.5 A d^0.5 d'),   chi = 1.5 K A,
     *   A = (1/3) (3 xi - eta)^2/(3 xi + 2 eta) (1 - nu^2)(1 - 2 nu)/(E nu^2),
     * xi bulk and eta shear viscosity (MPa s), E Young's modulus (MPa) and nu the Poisson
     * ratio of the (same-material) bodies, K (N/mm^1.5) the caller's stiffness, A in s.
     * A may also be given directly (it is usually fitted, S000).
     * docs/contact-law-catalogue.md §7 "Kuwabara–Kono/Brilliantov (S000 vs S002)": S002's form
     * (factor 3/2, (1 - nu^2)) is used; S000 Table 1's chi = (K/3)(3 eta_2 - eta_1)^2/(3 eta_2 + 2
     * eta_1) (1 - nu)(1 - 2 nu)/(E nu^2) (no 3/2, (1 - nu)) is not.
     * History: none. Flags: no clamp, damping in decompression. c_r falls with impact speed.
     */
    class Brilliantov1996 : public ViscoelasticHertz
    {
    public:
      static constexpr const char *law_name = "brilliantov_1996";

      /// @p A in s.
      Brilliantov1996(const double K, const double A, const bool clamp, const bool damped)
        : ViscoelasticHertz(law_name, K, 1.5 * K * A, clamp, damped)
      {}

      /// A (s) of S002 eq.(5.48), 0 < nu <= 0.5.
      static double
      dissipative_constant(const Viscosities &v, const double E, const double nu)
      {
        require(v.bulk >= 0. && v.shear >= 0., law_name, "viscosities must be non-negative");
        require(E > 0. && nu > 0. && nu <= 0.5, law_name,
                "A needs Young's modulus E > 0 and a Poisson ratio 0 < nu <= 0.5");
        const double xi = v.bulk, eta = v.shear;
        if (3. * xi + 2. * eta == 0.)
          return 0.;
        return (3. * xi - eta) * (3. * xi - eta) / (3. * (3. * xi + 2. * eta)) *
               (1. - nu * nu) * (1. - 2. * nu) / (E * nu * nu);
      }
    };

    /**
     * Zheng et al. (docs/contact-law-catalogue.md F3; S002 eqs.(5.49)–(5.50) [179]): viscoelastic
     * sphere on a rigid plane, a corrected derivation of Brilliantov's A:
     *   F = K d^1.5 + chi d^0.5 d',   chi = 2 A E/(1 - nu^2) sqrt(R_eff),
     *   A = (1 - 2 nu)(1 + nu)/E (2 xi + eta/3),
     * E (MPa), nu, R_eff (mm) of the sphere, xi, eta (MPa s), A (s), K (N/mm^1.5) the caller's
     * stiffness. chi = 1.5 K A when K is the sphere–rigid-plane Hertz stiffness
     * (4/3) E/(1 - nu^2) sqrt(R_eff); chi is computed from E, nu, R_eff as the source writes
     * it, so the law needs them even when A is given directly.
     * **Unresolved reading** (docs/contact-law-catalogue.md §7 "Zheng A (S002 5.49)"): the OCR
     * fraction is read (2 xi + eta/3), not (2 xi + eta)/3. Reason for the choice: for a
     * Kelvin–Voigt material with proportional viscosities (xi = tau Kb, eta = tau G) the chosen
     * reading gives A = tau (5 + 2 nu)/6, i.e. A -> tau in the incompressible limit nu -> 1/2 where
     * the correspondence principle makes A = tau exact (as F4 gives for every nu); the other
     * reading gives tau/3 there.
     * History: none. Flags: no clamp, damping in decompression.
     */
    class ZhengEtAl : public ViscoelasticHertz
    {
    public:
      static constexpr const char *law_name = "zheng_et_al";

      /// @p A in s; E, nu, R_eff of the sphere.
      ZhengEtAl(const double K, const double A, const double E, const double nu,
                const double R_eff, const bool clamp, const bool damped)
        : ViscoelasticHertz(law_name, K, hysteresis_factor(A, E, nu, R_eff), clamp, damped)
      {}

      /// chi = 2 A E/(1 - nu^2) sqrt(R_eff) (N s/mm^1.5).
      static double
      hysteresis_factor(const double A, const double E, const double nu, const double R_eff)
      {
        require(E > 0. && nu > -1. && nu < 1. && R_eff > 0., law_name,
                "chi needs E > 0, -1 < nu < 1 and R_eff > 0");
        return 2. * A * E / (1. - nu * nu) * std::sqrt(R_eff);
      }

      /// A (s) of S002 eq.(5.49), reading (2 xi + eta/3); -1 < nu <= 0.5.
      static double
      dissipative_constant(const Viscosities &v, const double E, const double nu)
      {
        require(v.bulk >= 0. && v.shear >= 0., law_name, "viscosities must be non-negative");
        require(E > 0. && nu > -1. && nu <= 0.5, law_name,
                "A needs Young's modulus E > 0 and a Poisson ratio -1 < nu <= 0.5");
        return (1. - 2. * nu) * (1. + nu) / E * (2. * v.bulk + v.shear / 3.);
      }
    };

    /**
     * Brilliantov et al., generalized (docs/contact-law-catalogue.md F4; S002 eq.(5.51) [180]): the
     * upgrade of F2 valid for a wide range of material parameters,
     *   F = K d^1.5 + chi d^0.5 d',   chi = 1.5 K A,
     *   A = (1/E) ((1 + nu)/(1 - nu)) ((4/3) eta (1 - nu + nu^2) + xi (1 - 2 nu)^2),
     * units as F2. docs/contact-law-catalogue.md §7 "Brilliantov upgrade (S002 5.51)": the grouping
     * of the (1 + nu)/(1 - nu) prefactor is uncertain in the OCR; the best reading (above,
     * prefactor on the whole bracket) is used. Support for it: for a Kelvin–Voigt material with
     * proportional viscosities (xi = tau Kb, eta = tau G) it gives A = tau for every nu, the
     * correspondence-principle result (F = K (d^1.5 + tau d(d^1.5)/dt)).
     * History: none. Flags: no clamp, damping in decompression.
     */
    class BrilliantovGeneralized : public ViscoelasticHertz
    {
    public:
      static constexpr const char *law_name = "brilliantov_generalized";

      /// @p A in s.
      BrilliantovGeneralized(const double K, const double A, const bool clamp,
                             const bool damped)
        : ViscoelasticHertz(law_name, K, 1.5 * K * A, clamp, damped)
      {}

      /// A (s) of S002 eq.(5.51); -1 < nu <= 0.5.
      static double
      dissipative_constant(const Viscosities &v, const double E, const double nu)
      {
        require(v.bulk >= 0. && v.shear >= 0., law_name, "viscosities must be non-negative");
        require(E > 0. && nu > -1. && nu <= 0.5, law_name,
                "A needs Young's modulus E > 0 and a Poisson ratio -1 < nu <= 0.5");
        return (1. + nu) / ((1. - nu) * E) *
               (4. / 3. * v.shear * (1. - nu + nu * nu) +
                v.bulk * (1. - 2. * nu) * (1. - 2. * nu));
      }
    };

    // ---------------------------------------------------------------------------------------
    /**
     * Hertz spring with a damping ∝ d^(1/4) scaled by sqrt(K m_eff)
     *   (docs/contact-law-catalogue.md F5, F6): F = K d^1.5 + c sqrt(K m_eff) d^0.25 d'        (d >
     *   0; 0 otherwise),
     * c dimensionless (Tsuji's alpha, Jankowski's 2 xi_bar), K in N/mm^1.5, m_eff in t.
     * The damping coefficient c sqrt(K m_eff) d^(1/4) is that of a linear oscillator with the
     * Hertz contact's secant-type stiffness K sqrt(d), which makes c_r independent of the
     * impact speed. Continuous at d = 0. History: none.
     */
    class QuarterPowerDampedHertz : public HertzSpringLaw
    {
    public:
      QuarterPowerDampedHertz(const std::string &id, const double K_, const double m_eff,
                              const double c, const bool clamp, const bool damped)
        : HertzSpringLaw(id, K_, clamp, damped)
        , D(c * std::sqrt(K_ * m_eff))
      {
        require(std::isfinite(K) && K > 0., id, "the stiffness K must be positive and finite");
        require(std::isfinite(m_eff) && m_eff > 0., id,
                "the effective mass must be positive and finite");
        require(std::isfinite(D) && D >= 0., id, "the damping must be non-negative and finite");
      }

      /// c sqrt(K m_eff) d^(1/4) d'.
      double
      damping_force(const double d, const double d_dot,
                    const NormalContactHistory &) const override
      {
        return D * std::sqrt(std::sqrt(d)) * d_dot;
      }

    private:
      double D; ///< c sqrt(K m_eff), N s/mm^1.25
    };

    /**
     * Tsuji et al. (docs/contact-law-catalogue.md F5; S002 eqs.(5.45)–(5.46) [177]; S000 Table 1
     *   [116]): F = K d^1.5 + alpha sqrt(m_eff K) d^(1/4) d',
     * alpha dimensionless (an empirical constant related to c_r, read by Tsuji from a
     * heuristic curve), K in N/mm^1.5, m_eff in t. c_r does not depend on the impact speed.
     * docs/contact-law-catalogue.md §7 "Tsuji (S000 T1)": S000 prints d^(1/2) in the law but
     * m = 1/4 in its exponent column; the exponent 1/4 (S002, and the m column) is used.
     * History: none. Flags: no clamp, damping in decompression.
     */
    class Tsuji : public QuarterPowerDampedHertz
    {
    public:
      static constexpr const char *law_name = "tsuji";

      Tsuji(const double K, const double m_eff, const double alpha, const bool clamp,
            const bool damped)
        : QuarterPowerDampedHertz(law_name, K, m_eff, alpha, clamp, damped)
      {}
    };

    /**
     * Jankowski (docs/contact-law-catalogue.md F6; S002 eqs.(5.52)–(5.55) [182,183]; S000 Table 1
     * [117]), structural pounding, an improvement of Anagnostopoulos's model:
     *   F = K d^1.5 + 2 xi_bar sqrt(K m_eff) d^(1/4) d'   for d' > 0 (compression),
     *   F = K d^1.5                                        for d' <= 0 (restitution),
     *   xi_bar = (9 sqrt(5)/2) (1 - c_r^2)/(c_r (c_r (9 pi - 16) + 16))   (second, more
     *            precise formula; default), or
     *   xi_bar = sqrt(5) (1 - c_r^2)/(2 pi c_r)                            (first,
     *            approximate formula; parameter "Approximate damping ratio").
     * Both agree as c_r -> 1 (their ratio is 9 pi/(c_r (9 pi - 16) + 16)). K in N/mm^1.5,
     * m_eff in t, c_r Newton's coefficient of restitution. The force is continuous (the
     * damping term is 0 at d = 0 and at d' = 0).
     * docs/contact-law-catalogue.md §7 "Jankowski (S000 T1)": S000 writes K d^1.5 + chi d d' with
     * chi = 2 xi_bar sqrt(K d^(1/2) m_eff) (an extra factor d); the S002 form is used.
     * History: none. Flags: damping_in_decompression = false (the source's switch), no clamp.
     */
    class Jankowski : public QuarterPowerDampedHertz
    {
    public:
      static constexpr const char *law_name = "jankowski";

      Jankowski(const double K, const double m_eff, const double c_r, const bool approximate,
                const bool clamp, const bool damped)
        : QuarterPowerDampedHertz(law_name, K, m_eff,
                                  2. * (approximate ? approximate_damping_ratio(c_r) :
                                                      damping_ratio(c_r)),
                                  clamp, damped)
      {}

      /// xi_bar = sqrt(5) (1 - c_r^2)/(2 pi c_r), 0 < c_r <= 1 (first formula).
      static double
      approximate_damping_ratio(const double c_r)
      {
        require(c_r > 0. && c_r <= 1., law_name, "c_r must be in (0, 1]");
        return std::sqrt(5.) * (1. - c_r * c_r) / (2. * pi * c_r);
      }

      /// xi_bar = (9 sqrt(5)/2) (1 - c_r^2)/(c_r (c_r (9 pi - 16) + 16)), 0 < c_r <= 1
      /// (second formula).
      static double
      damping_ratio(const double c_r)
      {
        require(c_r > 0. && c_r <= 1., law_name, "c_r must be in (0, 1]");
        return 4.5 * std::sqrt(5.) * (1. - c_r * c_r) /
               (c_r * (c_r * (9. * pi - 16.) + 16.));
      }
    };

    // ---------------------------------------------------------------------------------------
    LawParameter
    viscosity_parameter(const std::string &name, const std::string &doc,
                        const bool positive)
    {
      LawParameter p;
      p.name          = name;
      p.default_value = 5e-4;
      p.lower         = 0.;
      p.lower_open    = positive;
      p.doc           = doc +
              " (MPa s). The sources give no value (bulk viscosities are rarely known, "
              "S000). Default 5e-4 MPa s: the Maxwell-branch viscosity tau0 mu_v = 1e-4 s * "
              "5 MPa of the application's rubber (docs/methods.md §3.5, Temizer 2013 Tables 1, 4).";
      return p;
    }

    LawParameter
    dissipative_constant_parameter()
    {
      LawParameter p;
      p.name          = "Dissipative constant";
      p.default_value = 0.;
      p.lower         = 0.;
      p.doc = "A in s (chi = 1.5 K A). 0 (default): compute A from the bulk and shear "
              "viscosities and from Young's modulus E and the Poisson ratio nu of the contact "
              "data; > 0: use this A (then E and nu are not needed; A is usually fitted, "
              "S000).";
      return p;
    }

    Viscosities
    viscosities(const LawValues &v)
    {
      return {v.at("Bulk viscosity"), v.at("Shear viscosity")};
    }

    /// A from "Dissipative constant" or, if it is 0, from @p formula(viscosities, E, nu)
    /// (which then needs E and nu in @p data).
    template <typename Formula>
    double
    dissipative_constant(const std::string &id, const LawValues &v, const ContactData &data,
                         const Formula &formula)
    {
      const double A = v.at("Dissipative constant");
      if (A > 0.)
        return A;
      const std::string why = "to compute the dissipative constant A from the viscosities "
                              "(or give \"Dissipative constant\" > 0)";
      require_datum(id, data, Needs::youngs_modulus, why);
      require_datum(id, data, Needs::poisson_ratio, why);
      return formula(viscosities(v), data.youngs_modulus, data.poisson_ratio);
    }
  } // namespace

  namespace catalogue
  {
    LawInfo
    kuwabara_kono()
    {
      LawInfo i;
      i.id      = KuwabaraKono::law_name;
      i.entry   = "F1";
      i.title   = "Kuwabara–Kono (viscoelastic spheres)";
      i.formula = "F = K d^1.5 + chi d^0.5 d', chi = 2 sqrt(R_eff)/D0, D0 = sum_i "
                  "(4 (3 xi_i + eta_i)^2 - 9 (xi_i - eta_i)^2)/(36 (3 xi_i + eta_i) xi_i eta_i)";
      i.source = "S002 eqs.(5.36)-(5.38) [170]; S000 Table 1 [113]; "
                 "docs/contact-law-catalogue.md F1 (quotient 2 sqrt(R_eff)/D0 by dimensions, "
                 "docs/contact-law-catalogue.md §7; numerator as OCR'd, unresolved)";
      LawParameter xi1 = viscosity_parameter(
        "Bulk viscosity", "xi_1, bulk viscosity of the first body (the sphere)", true);
      LawParameter eta1 = viscosity_parameter(
        "Shear viscosity", "eta_1, shear viscosity of the first body (the sphere)", true);
      LawParameter xi2, eta2;
      xi2.name          = "Bulk viscosity of the second body";
      xi2.default_value = 0.;
      xi2.lower         = 0.;
      xi2.doc = "xi_2 (MPa s). 0 together with a zero shear viscosity of the second body "
                "(default): a rigid second body (wall), whose term of D0 vanishes. For two "
                "spheres of the same material set both to the first body's values. The OCR "
                "numerator needs xi > eta/9 for a viscous body.";
      eta2               = xi2;
      eta2.name          = "Shear viscosity of the second body";
      eta2.doc           = "eta_2 (MPa s); 0 with a zero bulk viscosity of the second body "
                           "(default): a rigid second body.";
      i.parameters = {xi1, eta1, xi2, eta2};
      i.needs      = {Needs::stiffness, Needs::effective_radius};
      i.create     = [](const LawValues &v, const ContactData &data)
        -> std::shared_ptr<const ContactLaw> {
        const Viscosities second{v.at("Bulk viscosity of the second body"),
                                 v.at("Shear viscosity of the second body")};
        require((second.bulk == 0.) == (second.shear == 0.), KuwabaraKono::law_name,
                "the second body's viscosities must both be 0 (rigid) or both be positive");
        return std::make_shared<const KuwabaraKono>(data.stiffness, data.effective_radius,
                                                    viscosities(v), second,
                                                    v.at(clamp_flag) == 1.,
                                                    v.at(damping_flag) == 1.);
      };
      return i;
    }

    LawInfo
    brilliantov_1996()
    {
      LawInfo i;
      i.id      = Brilliantov1996::law_name;
      i.entry   = "F2";
      i.title   = "Brilliantov et al. 1996 (viscoelastic spheres)";
      i.formula = "F = K d^1.5 + chi d^0.5 d', chi = 1.5 K A, A = (1/3) (3 xi - eta)^2/"
                  "(3 xi + 2 eta) (1 - nu^2)(1 - 2 nu)/(E nu^2)";
      i.source = "S002 eqs.(5.47)-(5.48) [178]; S000 Table 1 [114,115]; "
                 "docs/contact-law-catalogue.md F2 (S002 form, not S000's, per "
                 "docs/contact-law-catalogue.md §7)";
      i.parameters = {viscosity_parameter("Bulk viscosity", "xi, bulk viscosity", false),
                      viscosity_parameter("Shear viscosity", "eta, shear viscosity", false),
                      dissipative_constant_parameter()};
      i.needs      = {Needs::stiffness}; // E and nu: checked by create() when A is computed
      i.create     = [](const LawValues &v, const ContactData &data)
        -> std::shared_ptr<const ContactLaw> {
        const double A =
          dissipative_constant(Brilliantov1996::law_name, v, data,
                               [](const Viscosities &visc, const double E, const double nu) {
                                 return Brilliantov1996::dissipative_constant(visc, E, nu);
                               });
        return std::make_shared<const Brilliantov1996>(data.stiffness, A,
                                                       v.at(clamp_flag) == 1.,
                                                       v.at(damping_flag) == 1.);
      };
      return i;
    }

    LawInfo
    zheng_et_al()
    {
      LawInfo i;
      i.id      = ZhengEtAl::law_name;
      i.entry   = "F3";
      i.title   = "Zheng et al. (viscoelastic sphere on a rigid plane)";
      i.formula = "F = K d^1.5 + chi d^0.5 d', chi = 2 A E/(1 - nu^2) sqrt(R_eff), "
                  "A = (1 - 2 nu)(1 + nu)/E (2 xi + eta/3)";
      i.source = "S002 eqs.(5.49)-(5.50) [179]; docs/contact-law-catalogue.md F3 (reading (2 xi + "
                 "eta/3) of the unresolved OCR fraction, docs/contact-law-catalogue.md §7)";
      i.parameters = {viscosity_parameter("Bulk viscosity", "xi, bulk viscosity", false),
                      viscosity_parameter("Shear viscosity", "eta, shear viscosity", false),
                      dissipative_constant_parameter()};
      i.parameters.back().doc =
        "A in s. 0 (default): compute A from the bulk and shear viscosities, E and nu; > 0: "
        "use this A. chi = 2 A E/(1 - nu^2) sqrt(R_eff) needs E, nu and R_eff in either case.";
      i.needs  = {Needs::stiffness, Needs::effective_radius, Needs::youngs_modulus,
                  Needs::poisson_ratio};
      i.create = [](const LawValues &v, const ContactData &data)
        -> std::shared_ptr<const ContactLaw> {
        const double A =
          dissipative_constant(ZhengEtAl::law_name, v, data,
                               [](const Viscosities &visc, const double E, const double nu) {
                                 return ZhengEtAl::dissipative_constant(visc, E, nu);
                               });
        return std::make_shared<const ZhengEtAl>(data.stiffness, A, data.youngs_modulus,
                                                 data.poisson_ratio, data.effective_radius,
                                                 v.at(clamp_flag) == 1.,
                                                 v.at(damping_flag) == 1.);
      };
      return i;
    }

    LawInfo
    brilliantov_generalized()
    {
      LawInfo i;
      i.id      = BrilliantovGeneralized::law_name;
      i.entry   = "F4";
      i.title   = "Brilliantov et al., generalized";
      i.formula = "F = K d^1.5 + chi d^0.5 d', chi = 1.5 K A, A = (1/E) ((1 + nu)/(1 - nu)) "
                  "((4/3) eta (1 - nu + nu^2) + xi (1 - 2 nu)^2)";
      i.source = "S002 eq.(5.51) [180]; docs/contact-law-catalogue.md F4 (best reading of the (1 + "
                 "nu)/(1 - nu) grouping, docs/contact-law-catalogue.md §7)";
      i.parameters = {viscosity_parameter("Bulk viscosity", "xi, bulk viscosity", false),
                      viscosity_parameter("Shear viscosity", "eta, shear viscosity", false),
                      dissipative_constant_parameter()};
      i.needs      = {Needs::stiffness}; // E and nu: checked by create() when A is computed
      i.create     = [](const LawValues &v, const ContactData &data)
        -> std::shared_ptr<const ContactLaw> {
        const double A = dissipative_constant(
          BrilliantovGeneralized::law_name, v, data,
          [](const Viscosities &visc, const double E, const double nu) {
            return BrilliantovGeneralized::dissipative_constant(visc, E, nu);
          });
        return std::make_shared<const BrilliantovGeneralized>(data.stiffness, A,
                                                              v.at(clamp_flag) == 1.,
                                                              v.at(damping_flag) == 1.);
      };
      return i;
    }

    LawInfo
    tsuji()
    {
      LawInfo i;
      i.id      = Tsuji::law_name;
      i.entry   = "F5";
      i.title   = "Tsuji et al. (c_r independent of the impact speed)";
      i.formula = "F = K d^1.5 + alpha sqrt(m_eff K) d^0.25 d'";
      i.source  = "S002 eqs.(5.45)-(5.46) [177]; S000 Table 1 [116] (exponent 1/4 per "
                 "docs/contact-law-catalogue.md §7); docs/contact-law-catalogue.md F5";
      LawParameter alpha;
      alpha.name          = "Damping constant";
      alpha.default_value = 0.25;
      alpha.lower         = 0.;
      alpha.doc = "alpha (dimensionless), related to c_r by Tsuji's heuristic curve (S002). "
                  "Default 0.25: c_r = 0.7 (the c_r of docs/contact-law-catalogue.md §8 S1) by the "
                  "approximation of that curve common in DEM codes, alpha = sqrt(5) (-ln c_r)/"
                  "sqrt(ln(c_r)^2 + pi^2) (not from the catalogue's sources; check the c_r "
                  "with the impact benchmark).";
      i.parameters = {alpha};
      i.needs      = {Needs::stiffness, Needs::effective_mass};
      i.create     = [](const LawValues &v, const ContactData &data)
        -> std::shared_ptr<const ContactLaw> {
        return std::make_shared<const Tsuji>(data.stiffness, data.effective_mass,
                                             v.at("Damping constant"), v.at(clamp_flag) == 1.,
                                             v.at(damping_flag) == 1.);
      };
      return i;
    }

    LawInfo
    jankowski()
    {
      LawInfo i;
      i.id      = Jankowski::law_name;
      i.entry   = "F6";
      i.title   = "Jankowski (structural pounding, damping only in compression)";
      i.formula = "F = K d^1.5 + 2 xi_bar sqrt(K m_eff) d^0.25 d' for d' > 0, K d^1.5 for "
                  "d' <= 0; xi_bar = (9 sqrt(5)/2) (1 - c_r^2)/(c_r (c_r (9 pi - 16) + 16)) "
                  "or sqrt(5) (1 - c_r^2)/(2 pi c_r)";
      i.source = "S002 eqs.(5.52)-(5.55) [182,183]; S000 Table 1 [117] (S002 form per "
                 "docs/contact-law-catalogue.md §7); docs/contact-law-catalogue.md F6";
      LawParameter c_r;
      c_r.name          = "Coefficient of restitution";
      c_r.default_value = 0.8;
      c_r.lower         = 0.;
      c_r.lower_open    = true;
      c_r.upper         = 1.;
      c_r.doc = "c_r, Newton's coefficient of restitution (dimensionless), from which "
                "xi_bar is computed. Default 0.8, as for every law with this entry (the "
                "range of docs/contact-law-catalogue.md §8 S2: 0.757-0.974).";
      LawParameter approx;
      approx.name          = "Approximate damping ratio";
      approx.default_value = 0.;
      approx.flag          = true;
      approx.doc = "false (default): xi_bar by Jankowski's second, more precise formula "
                   "(9 sqrt(5)/2) (1 - c_r^2)/(c_r (c_r (9 pi - 16) + 16)); true: by the first, "
                   "approximate one sqrt(5) (1 - c_r^2)/(2 pi c_r). They agree as c_r -> 1.";
      i.parameters                       = {c_r, approx};
      i.needs                            = {Needs::stiffness, Needs::effective_mass};
      i.default_damping_in_decompression = false;
      i.create = [](const LawValues &v, const ContactData &data)
        -> std::shared_ptr<const ContactLaw> {
        return std::make_shared<const Jankowski>(
          data.stiffness, data.effective_mass, v.at("Coefficient of restitution"),
          v.at("Approximate damping ratio") == 1., v.at(clamp_flag) == 1.,
          v.at(damping_flag) == 1.);
      };
      return i;
    }
  } // namespace catalogue
} // namespace granular::contact::laws
