// docs/contact-law-catalogue.md §5 C: Hertz spring with empirical damping (S002 group 1): C1
// ristow_lee_herrmann, C2 schafer, C3 falcon, C4 bordbar_hyppanen, C5 alizadeh.
#include "contact/laws/contact_law.h"
#include "contact/laws/hertz_spring.h"

#include <boost/math/constants/constants.hpp>

#include <cmath>
#include <memory>
#include <string>

namespace granular::contact::laws
{
  namespace
  {
    /**
     * Hertz spring with a power-law damper (docs/contact-law-catalogue.md §5 C, S002 group 1, chi
     * fitted to experiments):
     *   F = K d^(3/2) + c d^m sign(d') |d'|^q,
     * c, m, q per law:
     *   C1 ristow_lee_herrmann  c = chi m_eff (or chi), m = 0 (or 1), q = 1
     *                           (S002 eq.(5.13), T1 [152],[153]; S000 T1 [106],[108])
     *   C2 schafer              c = chi, m = 0 (or 1), q = 1      (S002 T1 [154]; S000 T1 [107])
     *   C3 falcon               c = chi, m = gamma, q = 1          (S002 eq.(5.15) [155])
     *   C4 bordbar_hyppanen     c = chi, m = 0.65, q = 1           (S002 eq.(5.16) [156];
     *                                                               S000 T1 [118])
     *   C5 alizadeh             c = 4 pi mu, m = 1, q = n_l        (S002 eq.(5.17) [157])
     * Units: d in mm, d' in mm/s, K in N/mm^1.5 (2D cell: N/mm^2.5 per mm thickness), F in N;
     * c in N s^q/mm^(m+q) (per mm thickness in the 2D cell).
     * History: none. With m = 0 the force jumps to c d'- at first contact and is negative
     * late in restitution (docs/contact-law-catalogue.md §6); m > 0 makes it continuous at d = 0.
     * Flags: defaults clamp false, damping in decompression true (none of the sources clamps
     * or switches the damping off).
     */
    class EmpiricalDamping : public HertzSpringLaw
    {
    public:
      EmpiricalDamping(const std::string &id, const double K_, const double c_, const double m_,
                       const double q_, const bool clamp, const bool damped)
        : HertzSpringLaw(id, K_, clamp, damped)
        , c(c_)
        , m(m_)
        , q(q_)
      {}

      /// c d^m sign(d') |d'|^q.
      double
      damping_force(const double d, const double d_dot,
                    const NormalContactHistory &) const override
      {
        const double rate = q == 1. ? d_dot : std::copysign(std::pow(std::abs(d_dot), q), d_dot);
        return c * (m == 0. ? 1. : std::pow(d, m)) * rate;
      }

    private:
      double c; ///< damping prefactor
      double m; ///< indentation exponent of the damping term
      double q; ///< rate exponent of the damping term
    };

    std::shared_ptr<const ContactLaw>
    make(const std::string &id, const LawValues &v, const ContactData &data, const double c,
         const double m, const double q = 1.)
    {
      return std::make_shared<const EmpiricalDamping>(id, data.stiffness, c, m, q,
                                                      v.at(clamp_flag) == 1.,
                                                      v.at(damping_flag) == 1.);
    }

    LawParameter
    damping_factor(const std::string &units)
    {
      LawParameter p;
      p.name          = "Damping factor";
      p.default_value = 0.;
      p.lower         = 0.;
      p.doc = "chi, " + units + " (2D cell: per mm thickness). Empirical, fitted per material; "
              "the sources give no value, the default 0 leaves the Hertz law (A2).";
      return p;
    }

    /// "Damping indentation exponent" m in [0, 1] of the S002 (0) / S000 (1) forms.
    LawParameter
    indentation_exponent_s002_s000()
    {
      LawParameter p;
      p.name          = "Damping indentation exponent";
      p.default_value = 0.;
      p.lower         = 0.;
      p.upper         = 1.;
      p.doc = "m of the damping term chi d^m d' (dimensionless): 0 = S002 form (default), "
              "1 = S000 Table 1 form (docs/contact-law-catalogue.md §7 register "
              "\"Ristow/Schäfer/Lee–Herrmann\": both selectable).";
      return p;
    }
  } // namespace

  namespace catalogue
  {
    LawInfo
    ristow_lee_herrmann()
    {
      LawInfo i;
      i.id      = "ristow_lee_herrmann";
      i.entry   = "C1";
      i.title   = "Ristow / Lee–Herrmann (Hertz + empirical linear damping)";
      i.formula = "F = K d^1.5 + chi [m_eff] d^m d', default m = 0 with m_eff (S002)";
      i.source  = "S002 eq.(5.13), Table 1 [152],[153]; S000 Table 1 [106],[108] "
                 "(delta factor, m = 1; docs/contact-law-catalogue.md §7: both selectable, S002 "
                 "default); docs/contact-law-catalogue.md C1";
      LawParameter mass;
      mass.name          = "Effective mass factor";
      mass.default_value = 1.;
      mass.flag          = true;
      mass.doc = "true: damping chi m_eff d^m d' (S002 eq.(5.13); S000's Lee–Herrmann [108]); "
                 "false: chi d^m d' (S000's Ristow [106]). The effective mass is needed in "
                 "either case (default form).";
      i.parameters = {damping_factor("in 1/(s mm^m) with the effective mass factor (1/s for "
                                     "m = 0), N s/mm^(1+m) without"),
                      indentation_exponent_s002_s000(), mass};
      i.needs      = {Needs::stiffness, Needs::effective_mass};
      i.create     = [](const LawValues &v, const ContactData &data)
        -> std::shared_ptr<const ContactLaw> {
        const double chi = v.at("Damping factor");
        return make("ristow_lee_herrmann", v, data,
                    v.at("Effective mass factor") == 1. ? chi * data.effective_mass : chi,
                    v.at("Damping indentation exponent"));
      };
      return i;
    }

    LawInfo
    schafer()
    {
      LawInfo i;
      i.id      = "schafer";
      i.entry   = "C2";
      i.title   = "Schäfer (Hertz + empirical linear damping)";
      i.formula = "F = K d^1.5 + chi d^m d', default m = 0 (S002)";
      i.source  = "S002 Table 1 [154]; S000 Table 1 [107] (delta factor, m = 1; "
                 "docs/contact-law-catalogue.md §7: both selectable, S002 default); "
                 "docs/contact-law-catalogue.md C2";
      i.parameters = {damping_factor("in N s/mm^(1+m)"), indentation_exponent_s002_s000()};
      i.needs      = {Needs::stiffness};
      i.create     = [](const LawValues &v, const ContactData &data)
        -> std::shared_ptr<const ContactLaw> {
        return make("schafer", v, data, v.at("Damping factor"),
                    v.at("Damping indentation exponent"));
      };
      return i;
    }

    LawInfo
    falcon()
    {
      LawInfo i;
      i.id      = "falcon";
      i.entry   = "C3";
      i.title   = "Falcon (Hertz + |d|^gamma damping)";
      i.formula = "F = K d^1.5 + chi |d|^gamma d'";
      i.source  = "S002 eq.(5.15) [155]; docs/contact-law-catalogue.md C3";
      LawParameter gamma;
      gamma.name          = "Damping indentation exponent";
      gamma.default_value = 0.25;
      gamma.lower         = 0.;
      gamma.upper         = 2.;
      gamma.doc = "gamma of chi |d|^gamma d' (dimensionless; 0 = linear damping). Default 1/4: "
                  "with negligible gravity it makes c_r independent of the impact velocity "
                  "(S002).";
      i.parameters = {damping_factor("in N s/mm^(1+gamma)"), gamma};
      i.needs      = {Needs::stiffness};
      i.create     = [](const LawValues &v, const ContactData &data)
        -> std::shared_ptr<const ContactLaw> {
        return make("falcon", v, data, v.at("Damping factor"),
                    v.at("Damping indentation exponent"));
      };
      return i;
    }

    LawInfo
    bordbar_hyppanen()
    {
      LawInfo i;
      i.id      = "bordbar_hyppanen";
      i.entry   = "C4";
      i.title   = "Bordbar–Hyppänen (Hertz + d^0.65 damping)";
      i.formula = "F = K d^1.5 + chi d^0.65 d'";
      i.source  = "S002 eq.(5.16) [156]; S000 Table 1 [118]; docs/contact-law-catalogue.md C4";
      i.parameters = {damping_factor("in N s/mm^1.65")};
      i.needs      = {Needs::stiffness};
      i.create     = [](const LawValues &v, const ContactData &data)
        -> std::shared_ptr<const ContactLaw> {
        return make("bordbar_hyppanen", v, data, v.at("Damping factor"), 0.65);
      };
      return i;
    }

    LawInfo
    alizadeh()
    {
      LawInfo i;
      i.id      = "alizadeh";
      i.entry   = "C5";
      i.title   = "Alizadeh (Hertz + non-Newtonian fluid damper)";
      i.formula = "F = K d^1.5 + 4 pi mu d sign(d') |d'|^n_l";
      i.source  = "S002 eq.(5.17) [157] (OCR l = mu, nl = n_l, docs/contact-law-catalogue.md §7; "
                 "sign(d')|d'|^n_l for d' < 0, not specified by the source); "
                 "docs/contact-law-catalogue.md C5";
      LawParameter mu;
      mu.name          = "Fluid viscosity";
      mu.default_value = 0.;
      mu.lower         = 0.;
      mu.doc = "mu in N s^n_l/mm^(1+n_l) (2D cell: per mm thickness; MPa s for n_l = 1). Fitted "
               "per material and collision type; the source gives no value, the default 0 "
               "leaves the Hertz law (A2).";
      LawParameter nl;
      nl.name          = "Velocity exponent";
      nl.default_value = 1.;
      nl.lower         = 0.;
      nl.lower_open    = true;
      nl.doc = "n_l, flow index of the damper (dimensionless); 1 = Newtonian (default).";
      i.parameters = {mu, nl};
      i.needs      = {Needs::stiffness};
      i.create     = [](const LawValues &v, const ContactData &data)
        -> std::shared_ptr<const ContactLaw> {
        return make("alizadeh", v, data,
                    4. * boost::math::constants::pi<double>() * v.at("Fluid viscosity"), 1.,
                    v.at("Velocity exponent"));
      };
      return i;
    }
  } // namespace catalogue
} // namespace granular::contact::laws
