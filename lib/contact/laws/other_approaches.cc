// docs/contact-law-catalogue.md §5 H1–H4, "other approaches" (S002 group 5): Choi et al. (power-law
// damping with a rebound floor), Roy–Carretero (volumetric), Xiong et al. (internal variable,
// residual indentation), Jian et al. (viscoelastic spheres, relaxing damping). See contact_law.h.
//
// Units (mm–s–N–t–MPa): d in mm, d' in mm/s (> 0 compression), F in N; moduli in MPa,
// viscosities in MPa s, radii in mm, times in s.
#include "contact/laws/contact_law.h"
#include "contact/laws/hertz_spring.h"

#include <algorithm>
#include <boost/math/constants/constants.hpp>

#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

namespace granular::contact::laws
{
  namespace
  {
    constexpr double pi = boost::math::constants::pi<double>();

    /**
     * Choi et al. (docs/contact-law-catalogue.md H1; S002 eqs.(5.72)–(5.74) [88]), based on
     * Lankarani–Nikravesh, for triangulated surfaces with several simultaneous contact regions:
     *   F = max(K d^m_s + D d^m_i |d'|^m_d sign(d'),  R_c K d^m_s)
     * (S002: F = max(K d^m_s + chi d^m_i d', F_min), chi = D |d'|^m_d/|d'|,
     * F_min = R_c K d^m_s). R_c in [0, 1], the "rebound normal force coefficient", bounds the
     * force from below in restitution (no attraction; R_c = 0: F >= 0).
     * Units: K in N/mm^m_s (the caller's stiffness, consistent with m_s), D in
     * N s^m_d/mm^(m_i + m_d); exponents and R_c dimensionless.
     * docs/contact-law-catalogue.md §7 "Choi (S002 5.74)": F_min as printed (no minus sign before
     * R_c).
     * Split for the base class: spring K d^m_s; damping max(D d^m_i |d'|^m_d sign(d'),
     * -(1 - R_c) K d^m_s), so that S + D is the law's max(). History: none.
     * Flags: no clamp (the floor is the law's own), damping in decompression.
     */
    class Choi : public ContactLaw
    {
    public:
      static constexpr const char *law_name = "choi";

      Choi(const double K_, const double m_s_, const double D_, const double m_i_,
           const double m_d_, const double R_c_, const bool clamp, const bool damped)
        : ContactLaw(law_name, clamp, damped)
        , K(K_)
        , m_s(m_s_)
        , D(D_)
        , m_i(m_i_)
        , m_d(m_d_)
        , R_c(R_c_)
      {
        require(std::isfinite(K) && K > 0., law_name, "the stiffness K must be positive");
        require(m_s > 0. && m_i >= 0. && m_d > 0., law_name,
                "needs exponents m_s > 0, m_i >= 0, m_d > 0");
        require(D >= 0. && R_c >= 0. && R_c <= 1., law_name, "needs D >= 0 and 0 <= R_c <= 1");
      }

      /// K d^m_s.
      double
      spring_force(const double d, const NormalContactHistory &) const override
      {
        return K * std::pow(d, m_s);
      }
      /// max(D d^m_i |d'|^m_d sign(d'), (R_c - 1) K d^m_s).
      double
      damping_force(const double d, const double d_dot,
                    const NormalContactHistory &) const override
      {
        const double sign  = d_dot > 0. ? 1. : (d_dot < 0. ? -1. : 0.);
        const double raw   = sign * D * std::pow(d, m_i) * std::pow(std::abs(d_dot), m_d);
        const double floor = (R_c - 1.) * K * std::pow(d, m_s);
        return std::max(raw, floor);
      }
      /// K d^(m_s+1)/(m_s+1).
      double
      stored_energy(const double d, const NormalContactHistory &) const override
      {
        return d > 0. ? K * std::pow(d, m_s + 1.) / (m_s + 1.) : 0.;
      }
      /// (f/K)^(1/m_s).
      double
      indentation_for_force(const double f, const NormalContactHistory &) const override
      {
        return f > 0. ? std::pow(f / K, 1. / m_s) : 0.;
      }
      /// ((m_s+1) E/K)^(1/(m_s+1)).
      double
      indentation_for_energy(const double energy, const NormalContactHistory &) const override
      {
        return energy > 0. ? std::pow((m_s + 1.) * energy / K, 1. / (m_s + 1.)) : 0.;
      }

    private:
      double K;   ///< N/mm^m_s
      double m_s; ///< elastic exponent
      double D;   ///< N s^m_d/mm^(m_i+m_d)
      double m_i; ///< indentation exponent of the damping
      double m_d; ///< rate exponent of the damping
      double R_c; ///< rebound normal force coefficient
    };

    /**
     * Roy–Carretero (docs/contact-law-catalogue.md H2; S002 eq.(5.80) [191]): volumetric law with
     * material-based damping, after Gonthier's volumetric model,
     *   F = k_v V + c_v V',
     *   k_v = E1 E2/(R2 E1 + R1 E2) = 1/(R1/E1 + R2/E2),
     *   c_v = D1 D2/(R2 D1 + R1 D2) = 1/(R1/D1 + R2/D2),
     *   V = pi d^2 (R_eff - d/3),  V' = dV/dd d' = pi d (2 R_eff - d) d',
     * V the interference volume of a sphere of radius R_eff pressed by d into a plane (a
     * spherical cap; valid for d << R_eff, the formula holds up to d = 2 R_eff).
     * Dimensional reading: E_i (MPa) Young's moduli and R_i (mm) the bodies' radii acting as
     * the depths of Gonthier's elastic foundations in series, so k_v is in N/mm^3; D_i in
     * MPa s (viscous analog of E_i), c_v in N s/mm^3; F = k_v V + c_v V' in N. R_i = 0 removes
     * body i's compliance (a rigid body).
     * docs/contact-law-catalogue.md §7 "Roy–Carretero (S002 5.80)": S002 prints the damping
     * fraction as D1 D2/(R2 E1 + R1 E2), which is not dimensionally a force; the symmetric form
     * D1 D2/(R2 D1 + R1 D2) (likely intent, docs/contact-law-catalogue.md H2) is used. Unlike the
     * printed form it is invariant under exchanging the bodies. The damping parameters do not
     * depend on the impact speed. History: none. Flags: no clamp, damping in decompression.
     */
    class RoyCarretero : public ContactLaw
    {
    public:
      static constexpr const char *law_name = "roy_carretero";

      RoyCarretero(const double E1, const double E2, const double R1, const double R2,
                   const double D1, const double D2, const double R_eff_, const bool clamp,
                   const bool damped)
        : ContactLaw(law_name, clamp, damped)
        , R_eff(R_eff_)
      {
        require(E1 > 0. && E2 > 0., law_name, "Young's moduli must be positive");
        require(R1 >= 0. && R2 >= 0. && R1 + R2 > 0., law_name,
                "the radii must be non-negative and not both 0");
        require(D1 >= 0. && D2 >= 0., law_name, "the damping parameters must be non-negative");
        require(std::isfinite(R_eff) && R_eff > 0., law_name,
                "the effective radius R_eff must be positive");
        k_v               = E1 * E2 / (R2 * E1 + R1 * E2);
        const double c_den = R2 * D1 + R1 * D2;
        c_v               = c_den > 0. ? D1 * D2 / c_den : 0.;
      }

      /// V = pi d^2 (R_eff - d/3) (mm^3).
      double
      volume(const double d) const
      {
        return pi * d * d * (R_eff - d / 3.);
      }
      /// k_v V.
      double
      spring_force(const double d, const NormalContactHistory &) const override
      {
        return k_v * volume(d);
      }
      /// c_v pi d (2 R_eff - d) d'.
      double
      damping_force(const double d, const double d_dot,
                    const NormalContactHistory &) const override
      {
        return c_v * pi * d * (2. * R_eff - d) * d_dot;
      }
      /// k_v pi (R_eff d^3/3 - d^4/12).
      double
      stored_energy(const double d, const NormalContactHistory &) const override
      {
        return d > 0. ? k_v * pi * d * d * d * (R_eff / 3. - d / 12.) : 0.;
      }

    private:
      double R_eff;   ///< mm
      double k_v = 0; ///< N/mm^3
      double c_v = 0; ///< N s/mm^3
    };

    /**
     * Xiong et al. (docs/contact-law-catalogue.md H3; S002 eqs.(5.81)–(5.82) [192]): nonlinear
     * compliance with residual indentation and an internal variable alpha (h.internal_variable,
     * unit mm^k). Differential–algebraic inclusion (eq.(5.81)): F = K alpha + K (1/gamma + beta1 +
     * beta2 alpha) alpha', made an ODE by the large constant gamma (eq.(5.82)):
     *   P      = d |d|^(k-1),   b = beta1 + beta2 alpha,
     *   alpha' = max(-gamma alpha/(1 + gamma b),  gamma (P - alpha)),
     *   F      = K max(0, P + gamma b (P - alpha)).
     * On the second branch substituting alpha' into the DAI gives F above, on the first F = 0;
     * the max selects the first branch exactly when the second would give F < 0.
     * Units: K in N/mm^k (the caller's stiffness), k >= 1 (dimensionless), gamma in 1/s,
     * beta1 in s, beta2 in s/mm^k, alpha in mm^k.
     * docs/contact-law-catalogue.md §7 "Xiong (S002 5.81–5.82)": the OCR'd DAI is garbled and shows
     * a leading -K (sign of p/force direction unclear); the ODE form with signs reconstructed by
     * the catalogue (above) is used, with p = d > 0 in contact and F > 0 compressive.
     * Behaviour: quasi-static loading (alpha follows P) gives F -> K d^k; beta1 sets the
     * residual indentation and the initial slope; in restitution F reaches 0 at
     * P = gamma b alpha/(1 + gamma b) > 0, a residual indentation, after which alpha relaxes
     * towards 0 at the rate gamma/(1 + gamma b).
     * Onset: the history is reset at contact onset, so alpha = 0 there and
     * F = K (1 + gamma beta1) d^k: continuous (0 at d = 0) with the initial stiffness raised
     * by 1 + gamma beta1; alpha' = gamma d^k >= 0.
     * Split for the base class: spring K P (the quasi-static part, stored energy
     * K d^(k+1)/(k+1)); "damping" K max(-P, gamma b (P - alpha)), which depends on alpha, not
     * on d' (damping_coefficient() is 0). Integration of alpha: the impact integrator uses
     * internal_variable_rate() as an ODE state; ContactLaw::updated_history() takes one
     * explicit Euler step, which needs dt gamma <= 1 to be stable and non-oscillating.
     * Flags: no clamp (the max(0, .) is the law's own), damping in decompression.
     */
    class Xiong : public ContactLaw
    {
    public:
      static constexpr const char *law_name = "xiong";

      Xiong(const double K_, const double k_, const double beta1_, const double beta2_,
            const double gamma_, const bool clamp, const bool damped)
        : ContactLaw(law_name, clamp, damped)
        , K(K_)
        , k(k_)
        , beta1(beta1_)
        , beta2(beta2_)
        , gamma(gamma_)
      {
        require(std::isfinite(K) && K > 0., law_name, "the stiffness K must be positive");
        require(k >= 1. && beta1 >= 0. && beta2 >= 0. && gamma >= 0., law_name,
                "needs k >= 1 and non-negative beta1, beta2, gamma");
      }

      /// P = d |d|^(k-1) (mm^k).
      double
      penetration_measure(const double d) const
      {
        return d * std::pow(std::abs(d), k - 1.);
      }
      /// K P.
      double
      spring_force(const double d, const NormalContactHistory &) const override
      {
        return K * penetration_measure(d);
      }
      /// K max(-P, gamma (beta1 + beta2 alpha)(P - alpha)), alpha = h.internal_variable.
      double
      damping_force(const double d, const double, const NormalContactHistory &h) const override
      {
        const double P = penetration_measure(d), alpha = h.internal_variable;
        return K * std::max(-P, gamma * (beta1 + beta2 * alpha) * (P - alpha));
      }
      /// K d^(k+1)/(k+1).
      double
      stored_energy(const double d, const NormalContactHistory &) const override
      {
        return d > 0. ? K * std::pow(d, k + 1.) / (k + 1.) : 0.;
      }
      /// (f/K)^(1/k).
      double
      indentation_for_force(const double f, const NormalContactHistory &) const override
      {
        return f > 0. ? std::pow(f / K, 1. / k) : 0.;
      }
      /// ((k+1) E/K)^(1/(k+1)).
      double
      indentation_for_energy(const double energy, const NormalContactHistory &) const override
      {
        return energy > 0. ? std::pow((k + 1.) * energy / K, 1. / (k + 1.)) : 0.;
      }
      bool
      has_internal_variable() const override
      {
        return true;
      }
      /// alpha' = max(-gamma alpha/(1 + gamma b), gamma (P - alpha)) (mm^k/s).
      double
      internal_variable_rate(const double d, const double,
                             const NormalContactHistory &h) const override
      {
        const double P = penetration_measure(d), alpha = h.internal_variable;
        const double b = beta1 + beta2 * alpha;
        return std::max(-gamma * alpha / (1. + gamma * b), gamma * (P - alpha));
      }

    private:
      double K;     ///< N/mm^k
      double k;     ///< nonlinearity exponent
      double beta1; ///< s
      double beta2; ///< s/mm^k
      double gamma; ///< 1/s
    };

    /**
     * Jian et al. (docs/contact-law-catalogue.md H4; S002 eqs.(5.83)–(5.91) [193]): viscoelastic
     * spheres of the same standard-linear-solid material, relaxation modulus G(t) = G_e + G0
     * exp(-t/T), T = eta/G0:
     *   F = F_el + F_diss,
     *   F_el   = 4 G_e sqrt(R_eff)/(3 (1 - nu)) d^1.5,
     *   F_diss = (2 eta/(1 - nu)) (1 - exp(-t/T)) sqrt(R_eff d) d',
     * t = h.contact_time, the time since contact onset. (S002's explicit form with the
     * sinusoidal approximation d(t) = d_m sin(pi t/(2 t_m)) is this law evaluated on that
     * path and is not used.) Units: G_e, G0 in MPa, eta in MPa s, R_eff in mm, nu
     * dimensionless, T in s. 4 G_e/(3 (1 - nu)) = (4/3) E* for two equal spheres
     * (E* = G/(1 - nu)). G0 = 0 (no relaxing branch) or eta = 0 gives Hertz with G_e.
     * The source notes the law is accurate when T is small against the time t_m to maximum
     * compression. History: contact_time. Flags: no clamp, damping in decompression.
     */
    class Jian : public HertzSpringLaw
    {
    public:
      static constexpr const char *law_name = "jian";

      Jian(const double G_e, const double G0_, const double eta_, const double R_eff,
           const double nu, const bool clamp, const bool damped)
        : HertzSpringLaw(law_name, 4. * G_e * std::sqrt(R_eff) / (3. * (1. - nu)), clamp,
                         damped)
        , G0(G0_)
        , eta(eta_)
      {
        require(G_e > 0. && G0 >= 0. && eta >= 0., law_name,
                "needs G_e > 0, G0 >= 0 and eta >= 0");
        require(std::isfinite(R_eff) && R_eff > 0., law_name,
                "the effective radius R_eff must be positive");
        require(nu > -1. && nu <= 0.5, law_name, "the Poisson ratio must be in (-1, 0.5]");
        c_diss = 2. * eta * std::sqrt(R_eff) / (1. - nu);
      }

      /// 1 - exp(-t/T), T = eta/G0 (0 if eta = 0 or G0 = 0).
      double
      relaxation_factor(const double t) const
      {
        return eta > 0. ? -std::expm1(-t * G0 / eta) : 0.;
      }
      /// (2 eta/(1 - nu)) (1 - exp(-t/T)) sqrt(R_eff d) d'.
      double
      damping_force(const double d, const double d_dot,
                    const NormalContactHistory &h) const override
      {
        return c_diss * relaxation_factor(h.contact_time) * std::sqrt(d) * d_dot;
      }

    private:
      double G0;         ///< MPa
      double eta;        ///< MPa s
      double c_diss = 0; ///< N s/mm^1.5
    };

    LawParameter
    parameter(const std::string &name, const double default_value, const double lower,
              const std::string &doc, const bool lower_open = false,
              const double upper = std::numeric_limits<double>::infinity())
    {
      LawParameter p;
      p.name          = name;
      p.default_value = default_value;
      p.lower         = lower;
      p.lower_open    = lower_open;
      p.upper         = upper;
      p.doc           = doc;
      return p;
    }
  } // namespace

  namespace catalogue
  {
    LawInfo
    choi()
    {
      LawInfo i;
      i.id      = Choi::law_name;
      i.entry   = "H1";
      i.title   = "Choi et al. (power-law damping with a rebound force floor)";
      i.formula = "F = max(K d^m_s + D d^m_i |d'|^m_d sign(d'), R_c K d^m_s)";
      i.source  = "S002 eqs.(5.72)-(5.74) [88]; docs/contact-law-catalogue.md H1 (F_min as "
                  "printed, docs/contact-law-catalogue.md §7)";
      i.parameters = {
        parameter("Elastic exponent", 1.5, 0.,
                  "m_s (dimensionless); K (the contact's stiffness) is in N/mm^m_s. Default "
                  "1.5 (Hertz, as the Lankarani–Nikravesh law the model is based on).",
                  true),
        parameter("Damping coefficient", 0., 0.,
                  "D in N s^m_d/mm^(m_i + m_d). The source gives no value; the default 0 "
                  "makes the law elastic. With m_i = m_s and m_d = 1, D is a Hunt–Crossley "
                  "chi (e.g. 0.75 (1 - c_r^2) K/delta_dot_minus, Lankarani–Nikravesh)."),
        parameter("Damping exponent", 1.5, 0.,
                  "m_i, exponent of d in the damping term (dimensionless). Default 1.5 "
                  "(Lankarani–Nikravesh form)."),
        parameter("Rate exponent", 1., 0.,
                  "m_d, exponent of |d'| in the damping term (dimensionless). Default 1 "
                  "(Lankarani–Nikravesh form, linear in d').",
                  true),
        parameter("Rebound force coefficient", 0., 0.,
                  "R_c in [0, 1]: the force is at least R_c K d^m_s (prevents attraction in "
                  "restitution). The source gives no value; default 0: F >= 0.",
                  false, 1.)};
      i.needs  = {Needs::stiffness};
      i.create = [](const LawValues &v, const ContactData &data)
        -> std::shared_ptr<const ContactLaw> {
        return std::make_shared<const Choi>(data.stiffness, v.at("Elastic exponent"),
                                            v.at("Damping coefficient"),
                                            v.at("Damping exponent"), v.at("Rate exponent"),
                                            v.at("Rebound force coefficient"),
                                            v.at(clamp_flag) == 1., v.at(damping_flag) == 1.);
      };
      return i;
    }

    LawInfo
    roy_carretero()
    {
      LawInfo i;
      i.id      = RoyCarretero::law_name;
      i.entry   = "H2";
      i.title   = "Roy–Carretero (volumetric, material-based damping)";
      i.formula = "F = E1 E2/(R2 E1 + R1 E2) V + D1 D2/(R2 D1 + R1 D2) V', "
                  "V = pi d^2 (R_eff - d/3)";
      i.source = "S002 eq.(5.80) [191]; docs/contact-law-catalogue.md H2 (symmetric damping "
                 "denominator R2 D1 + R1 D2 instead of the printed R2 E1 + R1 E2, "
                 "docs/contact-law-catalogue.md §7)";
      const std::string E_doc = " (MPa). The source gives no value; default 2.1e5 MPa (steel, "
                                "the S000 §4 ball, docs/contact-law-catalogue.md §8 S2).";
      const std::string R_doc =
        " (mm), the depth of the body's elastic foundation in k_v = 1/(R1/E1 + R2/E2); 0: a "
        "rigid body. The source gives no value; default 25.4 mm (the S000 §4 ball, "
        "docs/contact-law-catalogue.md §8 S2).";
      const std::string D_doc =
        " (MPa s), viscous analog of the body's modulus in c_v = 1/(R1/D1 + R2/D2) "
        "(dimensional reading of the symmetric form). The source gives no value; the default 0 "
        "makes the law elastic.";
      i.parameters = {parameter("Young's modulus of body 1", 2.1e5, 0., "E1" + E_doc, true),
                      parameter("Young's modulus of body 2", 2.1e5, 0., "E2" + E_doc, true),
                      parameter("Radius of body 1", 25.4, 0., "R1" + R_doc),
                      parameter("Radius of body 2", 25.4, 0., "R2" + R_doc),
                      parameter("Damping parameter of body 1", 0., 0., "D1" + D_doc),
                      parameter("Damping parameter of body 2", 0., 0., "D2" + D_doc)};
      i.needs      = {Needs::effective_radius};
      i.create     = [](const LawValues &v, const ContactData &data)
        -> std::shared_ptr<const ContactLaw> {
        return std::make_shared<const RoyCarretero>(
          v.at("Young's modulus of body 1"), v.at("Young's modulus of body 2"),
          v.at("Radius of body 1"), v.at("Radius of body 2"),
          v.at("Damping parameter of body 1"), v.at("Damping parameter of body 2"),
          data.effective_radius, v.at(clamp_flag) == 1., v.at(damping_flag) == 1.);
      };
      return i;
    }

    LawInfo
    xiong()
    {
      LawInfo i;
      i.id      = Xiong::law_name;
      i.entry   = "H3";
      i.title   = "Xiong et al. (nonlinear compliance with residual indentation)";
      i.formula = "alpha' = max(-gamma alpha/(1 + gamma b), gamma (P - alpha)), "
                  "F = K max(0, P + gamma b (P - alpha)), P = d^k, b = beta1 + beta2 alpha";
      i.source = "S002 eqs.(5.81)-(5.82) [192]; docs/contact-law-catalogue.md H3 (ODE form with "
                 "the catalogue's reconstructed signs, docs/contact-law-catalogue.md §7)";
      i.parameters = {
        parameter("Elastic exponent", 1.5, 1.,
                  "k >= 1, nonlinearity exponent (dimensionless): quasi-static force K d^k; K "
                  "(the contact's stiffness) is in N/mm^k. Default 1.5 (Hertz-like curve, the "
                  "property the model targets)."),
        parameter("Damping parameter beta1", 1e-6, 0.,
                  "beta1 in s: sets the residual indentation and the initial force slope "
                  "(1 + gamma beta1) K. The source gives no value; default 1e-6 s "
                  "(gamma beta1 = 0.1 with the default gamma)."),
        parameter("Damping parameter beta2", 0., 0.,
                  "beta2 in s/mm^k: roundness of the force–indentation curve. The source gives "
                  "no value; default 0."),
        parameter("Rate constant gamma", 1e5, 0.,
                  "gamma in 1/s, the large constant that turns the differential–algebraic "
                  "inclusion into an ODE (1/gamma is the lag of alpha behind P). The source "
                  "gives no value; default 1e5 1/s (1/gamma = 10 us, short against the "
                  "contact durations of the catalogue's benchmarks). The explicit update of "
                  "alpha by updated_history() needs dt gamma <= 1.")};
      i.needs  = {Needs::stiffness};
      i.create = [](const LawValues &v, const ContactData &data)
        -> std::shared_ptr<const ContactLaw> {
        return std::make_shared<const Xiong>(data.stiffness, v.at("Elastic exponent"),
                                             v.at("Damping parameter beta1"),
                                             v.at("Damping parameter beta2"),
                                             v.at("Rate constant gamma"),
                                             v.at(clamp_flag) == 1., v.at(damping_flag) == 1.);
      };
      return i;
    }

    LawInfo
    jian()
    {
      LawInfo i;
      i.id      = Jian::law_name;
      i.entry   = "H4";
      i.title   = "Jian et al. (viscoelastic spheres, relaxing damping)";
      i.formula = "F = 4 G_e sqrt(R_eff)/(3 (1 - nu)) d^1.5 + (2 eta/(1 - nu)) "
                  "(1 - exp(-t/T)) sqrt(R_eff d) d', T = eta/G0, t = time since onset";
      i.source  = "S002 eqs.(5.83)-(5.91) [193]; docs/contact-law-catalogue.md H4";
      const std::string origin =
        " Default: the application's rubber (docs/methods.md §3.5, Temizer 2013 Tables 1, 4: mu_e "
        "= 1 MPa, mu_v = 5 mu_e, tau0 = 1e-4 s).";
      i.parameters = {
        parameter("Equilibrium shear modulus", 1., 0.,
                  "G_e in MPa, the relaxed shear modulus (G(t) -> G_e)." + origin, true),
        parameter("Maxwell shear modulus", 5., 0.,
                  "G0 in MPa, the relaxing part of G(t) = G_e + G0 exp(-t/T)." + origin),
        parameter("Shear viscosity", 5e-4, 0.,
                  "eta in MPa s; T = eta/G0 is the relaxation time (default 5e-4 MPa s = "
                  "tau0 mu_v)." +
                    origin)};
      i.needs  = {Needs::effective_radius, Needs::poisson_ratio};
      i.create = [](const LawValues &v, const ContactData &data)
        -> std::shared_ptr<const ContactLaw> {
        return std::make_shared<const Jian>(v.at("Equilibrium shear modulus"),
                                            v.at("Maxwell shear modulus"),
                                            v.at("Shear viscosity"), data.effective_radius,
                                            data.poisson_ratio, v.at(clamp_flag) == 1.,
                                            v.at(damping_flag) == 1.);
      };
      return i;
    }
  } // namespace catalogue
} // namespace granular::contact::laws
