#pragma once
/**
 * @file contact_law.h
 * The contact-law library (docs/methods.md §9; docs/contact-law-catalogue.md §5 A–H):
 * every normal contact force law of the catalogue behind one interface, registered by the
 * catalogue's identifier (`hooke` … `jian`).
 *
 * A law is described by a LawInfo (identifier, catalogue entry, source, formula, its own
 * parameters, the contact data it needs) and made by the LawInfo's factory from
 *  - LawValues: the values of its own parameters (its parameter subsection), and
 *  - ContactData: what the caller knows about the contact (generalized stiffness K,
 *    effective mass, and, for a 3D sphere contact, E*, R_eff, yield strength).
 * The micromechanical cell supplies K = k_N and the particle's mass per unit thickness and
 * nothing else (it is 2D); a law that needs more is rejected there with a message saying
 * why (LawInfo::needs).
 *
 * Adding a law: its class and its LawInfo function `catalogue::<identifier>()` in a family
 * file (lib/contact/laws/<family>.cc, or a new file there), and one GRANULAR_LAW(<identifier>)
 * line in lib/contact/laws/registry.cc, which declares the function itself. Everything else
 * follows from the LawInfo: the law's parameter subsection (declared from
 * LawInfo::parameters), the law list of --list-laws, the generated law table
 * (docs/contact-law-table.md, rewritten by scripts/contact-law-table.sh; a test fails while it
 * is not current) and, for a law of the Hunt–Crossley table, its damping-factor curve
 * (LawInfo::damping_factor).
 *
 * This layer is free of deal.II: parameters are declared by lib/contact/contact_parameters.cc
 * (the cell) and by the contact-impact program from LawInfo::parameters.
 *
 * Units (mm–s–N–t, docs/methods.md §1): indentation d in mm, rate d' in mm/s (d' > 0 compression),
 * force in N (3D) or N per mm thickness (2D cell); K in N/mm^n (3D) or N/mm^(n+1) per mm
 * (2D); mass in t (3D) or t per mm thickness (2D); moduli and stresses in MPa.
 */
#include "contact/normal_contact_law.h"

#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace granular::contact::laws
{
  /// Not available (a ContactData member the caller does not know).
  inline constexpr double unknown = std::numeric_limits<double>::quiet_NaN();

  /**
   * What the caller knows about the contact, as opposed to the law's own parameters.
   * Members the caller does not know are `unknown` (NaN); LawInfo::needs lists the ones a
   * law requires, and make_law() rejects a law whose needs are unknown.
   */
  struct ContactData
  {
    /// K: generalized stiffness of the elastic term K d^n (N/mm^n in 3D; N/mm^(n+1) per mm
    /// thickness in the 2D cell, where it is k_N).
    double stiffness = unknown;
    /// m_eff (t; t per mm thickness in the 2D cell). docs/contact-law-catalogue.md §1.
    double effective_mass = unknown;
    /// E* = 1/((1-nu_1^2)/E_1 + (1-nu_2^2)/E_2) (MPa), 3D sphere contact.
    /// docs/contact-law-catalogue.md §2.
    double effective_modulus = unknown;
    /// R_eff (mm), > 0 convex–convex, a concave seat makes it R1 R2/(R1 - R2).
    /// docs/contact-law-catalogue.md §2.
    double effective_radius = unknown;
    /// sigma_y (MPa): yield strength of the softer body (elastoplastic laws, G1–G4).
    double yield_strength = unknown;
    /// Poisson ratio nu of the bodies (same material; Jian H4, Brilliantov F2–F4).
    double poisson_ratio = unknown;
    /// Young's modulus E (MPa) of the bodies (same material; Brilliantov F2–F4).
    double youngs_modulus = unknown;
  };

  /// Names of the ContactData members, as used in LawInfo::needs and in messages.
  enum class Needs
  {
    stiffness,
    effective_mass,
    effective_modulus,
    effective_radius,
    yield_strength,
    poisson_ratio,
    youngs_modulus
  };

  /// "effective radius R_eff (mm)" etc.: the description of @p n used in messages.
  std::string
  describe(Needs n);

  /// The value of @p n in @p data.
  double
  value(const ContactData &data, Needs n);

  /**
   * One parameter of a law (an entry of the law's own parameter subsection).
   * A flag is a bool stored as 0/1 in LawValues.
   */
  struct LawParameter
  {
    std::string name;          ///< entry name, e.g. "Coefficient of restitution"
    double      default_value; ///< default (for a flag: 0 or 1)
    std::string doc;           ///< meaning, unit, source
    double      lower = -std::numeric_limits<double>::infinity(); ///< smallest valid value
    double      upper = std::numeric_limits<double>::infinity();  ///< largest valid value
    bool        lower_open = false; ///< true: the value must be > lower (else >= lower)
    bool        flag       = false; ///< true: a bool (entry pattern Bool)
  };

  /// Values of a law's parameters by entry name (a flag: 0 or 1).
  using LawValues = std::map<std::string, double>;

  /// The two flags every law has (docs/contact-law-catalogue.md §6), with the law's source
  /// behaviour as default.
  inline const std::string clamp_flag   = "Clamp nonnegative";
  inline const std::string damping_flag = "Damping in decompression";

  struct LawInfo;

  /**
   * Base of the catalogue laws: F = S(d, h) + D(d, d', h) for d > 0, 0 otherwise, where S is
   * the rate-independent ("spring", possibly history-dependent) part and D the damping part.
   * The catalogue's flags (§6) act here:
   *  - damping_in_decompression = false: D = 0 for d' < 0 (F6 Jankowski, F7 Temizer);
   *  - clamp_nonnegative = true: F = max(0, S + D) (no tension).
   * A law whose contact ends at F = 0 (B4, B5: force_free_separation()) is "released" when its
   * force reaches 0 in restitution; it then carries no force until d <= 0 (the history is
   * kept while d > 0, docs/contact-law-catalogue.md §6).
   *
   * Derivatives (stiffness(), damping_coefficient()) default to central differences of
   * force(); stored_energy() defaults to a Gauss–Legendre integral of S from 0 to d.
   */
  class ContactLaw : public NormalContactLaw
  {
  public:
    /// @param id the catalogue identifier; flags as above.
    ContactLaw(std::string id, bool clamp_nonnegative, bool damping_in_decompression);

    std::string
    name() const override;

    /// S + D (flags applied); 0 for d <= 0 and for a released contact.
    double
    force(double d, double d_dot, const NormalContactHistory &h) const override;

    /// true if the damping is switched off in decompression or the law has a loading /
    /// unloading switch (has_unloading_branch()).
    bool
    switches_with_rate() const override;

    /// compression: S + D evaluated as for d' >= 0; decompression: as for d' < 0.
    double
    force_on_branch(double d, double d_dot, RateBranch branch,
                    const NormalContactHistory &h) const override;

    /// S(d, h) for d > 0, else 0.
    double
    elastic_force(double d, const NormalContactHistory &h) const override;

    /// Integral of S from 0 to d (8-point Gauss–Legendre on [0, d]; closed forms in laws).
    double
    stored_energy(double d, const NormalContactHistory &h) const override;

    /// dF/dd by central differences of force() (step 1e-6 d); 0 for d <= 0.
    double
    stiffness(double d, double d_dot, const NormalContactHistory &h) const override;

    /// dF/dd' by central differences of force() (step 1e-6 max(|d'|, 1 mm/s)); 0 for d <= 0.
    double
    damping_coefficient(double d, double d_dot, const NormalContactHistory &h) const override;

    /**
     * Base history update (NormalContactLaw::updated_history) plus: contact_time += dt,
     * the released flag of force-free-separation laws, and the law's internal variable
     * (advance_internal_variable()).
     */
    NormalContactHistory
    updated_history(double d, double d_dot, double dt,
                    const NormalContactHistory &old) const override;

    /// The law's rate-independent part S(d, h) (N), called for d > 0 only.
    virtual double
    spring_force(double d, const NormalContactHistory &h) const = 0;

    /// The law's damping part D(d, d', h) (N), called for d > 0 only. Default 0.
    virtual double
    damping_force(double d, double d_dot, const NormalContactHistory &h) const;

    /// true for B4/B5: the contact ends when the force returns to 0 in restitution.
    virtual bool
    force_free_separation() const
    {
      return false;
    }

    /// true if S depends on whether d is below the maximum indentation of the contact
    /// (elastoplastic unloading curves, A3, G1–G3).
    virtual bool
    has_unloading_branch() const
    {
      return false;
    }

    /// true if the law has an internal variable (h.internal_variable, e.g. Xiong's alpha).
    virtual bool
    has_internal_variable() const
    {
      return false;
    }

    /// d(alpha)/dt of the internal variable (1/s times its unit) at (d, d', h); 0 by default.
    /// Used by the impact integrator (as an ODE state) and, explicitly over dt, by
    /// updated_history().
    virtual double
    internal_variable_rate(double d, double d_dot, const NormalContactHistory &h) const;

    bool
    clamp_nonnegative() const
    {
      return clamp;
    }
    bool
    damping_in_decompression() const
    {
      return damped_decompression;
    }

  protected:
    /// Approach velocity used by the laws whose damping depends on it: max(h's
    /// approach_velocity, minimum_approach_velocity) (docs/contact-law-catalogue.md §6: guard
    /// d'- -> 0).
    double
    approach_velocity(const NormalContactHistory &h) const;

    /// Set by laws that depend on the approach velocity (mm/s; 0: no guard).
    double minimum_approach_velocity = 0.;

  private:
    std::string id;
    bool        clamp;
    bool        damped_decompression;
  };

  /// Factory of a law from its own parameter values and the contact data.
  using LawFactory =
    std::function<std::shared_ptr<const ContactLaw>(const LawValues &, const ContactData &)>;

  /// Description of a registered law (docs/contact-law-catalogue.md §5).
  struct LawInfo
  {
    std::string               id;        ///< catalogue identifier, e.g. "lankarani_nikravesh"
    std::string               entry;     ///< catalogue entry, e.g. "D4"
    std::string               title;     ///< e.g. "Lankarani–Nikravesh"
    std::string               formula;   ///< the force law in ASCII math
    std::string               source;    ///< study and equation, e.g. "S002 eqs.(5.41)-(5.43)"
    std::vector<LawParameter> parameters; ///< its own parameters (without the two flags)
    std::vector<Needs>        needs;     ///< ContactData members it requires
    bool                      default_clamp_nonnegative        = false;
    bool                      default_damping_in_decompression = true;
    LawFactory                create;
    /// Laws of the Hunt–Crossley table (docs/contact-law-catalogue.md §4.1): the dimensionless
    /// damping factor f(c_r) = chi d'_-/K for 0 < c_r <= 1 (for wang_yield_zq, at its effective
    /// c_r*); empty for every other law. Read through damping_factor() (hunt_crossley_family.h),
    /// which checks c_r.
    std::function<double(double c_r)> damping_factor;

    /// parameters plus the two flags (clamp_flag, damping_flag) with this law's defaults.
    std::vector<LawParameter>
    all_parameters() const;

    /// Default values of all_parameters().
    LawValues
    default_values() const;
  };

  /// The catalogue family (§5 A–H) of @p law, named from the letter of its entry: "purely
  /// elastic" (A), "linear dashpot" (B), "empirical damping" (C), "Hunt–Crossley, explicit
  /// chi" (D), "Hunt–Crossley, exact chi" (E), "material viscosity" (F), "elastoplastic" (G),
  /// "other" (H). Throws std::invalid_argument for an entry outside A–H.
  std::string
  family(const LawInfo &law);

  /// All registered laws, in catalogue order (A1 … H4). Built once (registry.cc).
  const std::vector<LawInfo> &
  registered_laws();

  /// The law with identifier @p id, or nullptr.
  const LawInfo *
  find_law(const std::string &id);

  /**
   * The law @p id made from @p values (missing entries take their defaults) and @p data.
   * @throws std::invalid_argument naming the law: unknown id (listing the known ones), a
   *         value outside its range (naming the entry), or a ContactData member the law needs
   *         that is unknown (naming it, e.g. "needs the effective radius R_eff (mm), which the
   *         2D micromechanical cell does not define").
   */
  std::shared_ptr<const ContactLaw>
  make_law(const std::string &id, const LawValues &values, const ContactData &data);

  /// Throws std::invalid_argument("contact law <id>: <what>") unless @p ok (the laws'
  /// checks of their parameters and data).
  void
  require(bool ok, const std::string &id, const std::string &what);

  /// Value of entry @p name in @p values, else its default in @p info (throws if neither).
  double
  get(const LawInfo &info, const LawValues &values, const std::string &name);
} // namespace granular::contact::laws
