// docs/contact-law-catalogue.md §5 A: purely elastic laws (A1 hooke, A2 hertz) and Goldsmith's
// plastic unloading rule on a Hertz loading branch (A3 goldsmith_plastic_unloading).
#include "contact/laws/contact_law.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

namespace granular::contact::laws
{
  namespace
  {
    /**
     * Power-law spring F = K d^n, no damping (docs/contact-law-catalogue.md A1 with n = 1: S002
     * eq.(5.1) [31,113]; A2 with n = 3/2: S000 eqs.(2)-(4) [104], S002 eqs.(5.2)-(5.6), S004
     * eq.(6), S003 eq.(1) first branch).
     * Units: d in mm, K in N/mm^n (2D cell: N/mm^(n+1) per mm thickness), F in N.
     * History: none. Conservative (c_r = 1); the flags have no effect (no damping, F >= 0);
     * defaults clamp false, damping in decompression true.
     */
    class PowerLawSpring : public ContactLaw
    {
    public:
      PowerLawSpring(const std::string &id, const double K_, const double n_, const bool clamp,
                     const bool damped)
        : ContactLaw(id, clamp, damped)
        , K(K_)
        , n(n_)
      {}

      /// K d^n.
      double
      spring_force(const double d, const NormalContactHistory &) const override
      {
        return n == 1. ? K * d : K * std::pow(d, n);
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

    private:
      double K; ///< N/mm^n
      double n;
    };

    /**
     * Goldsmith's modified Hertz law (S002 eq.(5.7) [34,128]; docs/contact-law-catalogue.md A3):
     * Hertz loading, power-law unloading to a permanent indentation delta_p,
     *   d >= delta_max:          F = K d^(3/2)                                   (loading)
     *   delta_p < d < delta_max: F = F_max ((d - delta_p)/(delta_max - delta_p))^n (unloading)
     *   d <= delta_p:            F = 0,
     * with F_max = K delta_max^(3/2) (reached together with delta_max on the loading branch)
     * and delta_p = r delta_max. Reloading below delta_max follows the unloading curve, then
     * the loading curve (the unloading curve meets it at delta_max).
     * Reading (docs/contact-law-catalogue.md A3: the source only references the loading branch and
     * how delta_p is found, S002 ref [128]): Hertz loading with the caller's K, and delta_p a fixed
     * fraction r of delta_max ("Permanent indentation ratio"). Unloading then returns the work
     * F_max (delta_max - delta_p)/(n + 1) of the loading work F_max delta_max/(5/2): Stronge's
     * restitution is c_r = sqrt(5 (1 - r)/(2 (n + 1))), = sqrt(1 - r) for n = 3/2
     * (velocity independent).
     * Units: d in mm, K in N/mm^1.5 (2D cell: N/mm^2.5 per mm thickness), F in N.
     * History: delta_max = h.max_indentation (tracked by the base class); updated_history()
     * also stores delta_p in h.residual_indentation. F depends on the history, not on d'.
     * Flags: no damping; defaults clamp false, damping in decompression true (F >= 0 anyway).
     */
    class GoldsmithPlasticUnloading : public ContactLaw
    {
    public:
      GoldsmithPlasticUnloading(const double K_, const double n_, const double r_,
                                const bool clamp, const bool damped)
        : ContactLaw("goldsmith_plastic_unloading", clamp, damped)
        , K(K_)
        , n(n_)
        , r(r_)
      {}

      double
      spring_force(const double d, const NormalContactHistory &h) const override
      {
        const double d_max = h.max_indentation;
        if (d >= d_max)
          return K * d * std::sqrt(d);
        const double d_p = r * d_max;
        if (d <= d_p)
          return 0.;
        return K * d_max * std::sqrt(d_max) * std::pow((d - d_p) / (d_max - d_p), n);
      }

      /// Integral of spring_force from 0 to d under @p h: 0 up to delta_p,
      /// F_max (delta_max - delta_p)/(n+1) u^(n+1) on the unloading curve
      /// (u = (d - delta_p)/(delta_max - delta_p)), plus 0.4 K (d^2.5 - delta_max^2.5) above.
      double
      stored_energy(const double d, const NormalContactHistory &h) const override
      {
        if (!(d > 0.))
          return 0.;
        const double d_max = h.max_indentation;
        const double d_p   = r * d_max;
        const double below = std::min(d, d_max);
        double       w     = 0.;
        if (below > d_p)
          w = K * d_max * std::sqrt(d_max) * (d_max - d_p) / (n + 1.) *
              std::pow((below - d_p) / (d_max - d_p), n + 1.);
        if (d > d_max)
          w += 0.4 * K * (d * d * std::sqrt(d) - d_max * d_max * std::sqrt(d_max));
        return w;
      }

      bool
      has_unloading_branch() const override
      {
        return true;
      }

      /// The base update, plus h.residual_indentation = delta_p = r delta_max.
      NormalContactHistory
      updated_history(const double d, const double d_dot, const double dt,
                      const NormalContactHistory &old) const override
      {
        NormalContactHistory h = ContactLaw::updated_history(d, d_dot, dt, old);
        if (h.active)
          h.residual_indentation = r * h.max_indentation;
        return h;
      }

    private:
      double K; ///< N/mm^1.5
      double n; ///< unloading exponent
      double r; ///< delta_p / delta_max
    };

    LawParameter
    elastic_exponent(const double default_value, const std::string &doc)
    {
      LawParameter p;
      p.name          = "Elastic exponent";
      p.default_value = default_value;
      p.lower         = 1.;
      p.upper         = 2.;
      p.doc           = doc;
      return p;
    }
  } // namespace

  namespace catalogue
  {
    LawInfo
    hooke()
    {
      LawInfo i;
      i.id         = "hooke";
      i.entry      = "A1";
      i.title      = "Hooke (linear spring)";
      i.formula    = "F = K d";
      i.source     = "S002 eq.(5.1) [31,113]; docs/contact-law-catalogue.md A1";
      i.parameters = {};
      i.needs      = {Needs::stiffness};
      i.create     = [](const LawValues &v, const ContactData &data)
        -> std::shared_ptr<const ContactLaw> {
        return std::make_shared<const PowerLawSpring>("hooke", data.stiffness, 1.,
                                                      v.at(clamp_flag) == 1.,
                                                      v.at(damping_flag) == 1.);
      };
      return i;
    }

    LawInfo
    hertz()
    {
      LawInfo i;
      i.id      = "hertz";
      i.entry   = "A2";
      i.title   = "Hertz";
      i.formula = "F = K d^n, n = 3/2";
      i.source  = "S000 eqs.(2)-(4) [104]; S002 eqs.(5.2)-(5.6) [104],[118]; S004 eq.(6) [10]; "
                 "S003 eq.(1) first branch; docs/contact-law-catalogue.md A2";
      i.parameters = {elastic_exponent(
        1.5, "n (dimensionless): 3/2 is Hertz's (sphere-sphere, sphere-plane, "
             "docs/contact-law-catalogue.md §2); other values are empirical power laws (S000, "
             "S002). K in N/mm^n.")};
      i.needs  = {Needs::stiffness};
      i.create = [](const LawValues &v, const ContactData &data)
        -> std::shared_ptr<const ContactLaw> {
        return std::make_shared<const PowerLawSpring>("hertz", data.stiffness,
                                                      v.at("Elastic exponent"),
                                                      v.at(clamp_flag) == 1.,
                                                      v.at(damping_flag) == 1.);
      };
      return i;
    }

    LawInfo
    goldsmith_plastic_unloading()
    {
      LawInfo i;
      i.id      = "goldsmith_plastic_unloading";
      i.entry   = "A3";
      i.title   = "Goldsmith (Hertz loading, plastic unloading)";
      i.formula = "F = K d^1.5 for d >= d_max; "
                  "F = F_max ((d - d_p)/(d_max - d_p))^n for d_p < d < d_max, d_p = r d_max";
      i.source  = "S002 eq.(5.7) [34,128] (loading branch and delta_p not given by the source: "
                 "Hertz loading, delta_p = r delta_max); docs/contact-law-catalogue.md A3";
      LawParameter n;
      n.name          = "Unloading exponent";
      n.default_value = 1.5;
      n.lower         = 0.;
      n.lower_open    = true;
      n.doc = "n of the unloading curve (dimensionless); default 3/2 (Hertzian recovery).";
      LawParameter r;
      r.name          = "Permanent indentation ratio";
      r.default_value = 0.51;
      r.lower         = 0.;
      r.upper         = 1.;
      r.doc = "r = delta_p/delta_max (dimensionless; our reading, the source does not say how "
              "delta_p is found). Stronge's restitution is sqrt(5 (1 - r)/(2 (n + 1))); the "
              "default 0.51 gives c_r = 0.7 for n = 3/2 (docs/contact-law-catalogue.md §8 S1). r = "
              "0 with n = 3/2 is Hertz.";
      i.parameters = {n, r};
      i.needs      = {Needs::stiffness};
      i.create     = [](const LawValues &v, const ContactData &data)
        -> std::shared_ptr<const ContactLaw> {
        return std::make_shared<const GoldsmithPlasticUnloading>(
          data.stiffness, v.at("Unloading exponent"), v.at("Permanent indentation ratio"),
          v.at(clamp_flag) == 1., v.at(damping_flag) == 1.);
      };
      return i;
    }
  } // namespace catalogue
} // namespace granular::contact::laws
