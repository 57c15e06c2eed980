#pragma once
/**
 * @file normal_contact_law.h
 * Normal contact force laws of the particle-surface contact (docs/methods.md §5.1, §9;
 * docs/contact-law-catalogue.md): one interface, laws selected by name.
 *
 * Units: indentation d (pseudo-penetration) in mm, indentation rate d' in mm/s, force in
 * N per mm thickness (2D plane strain, docs/methods.md §1), stiffness dF/dd in N/mm^2, damping
 * coefficient dF/dd' in N s/mm^2, stored energy in N mm per mm thickness.
 * Sign convention (docs/contact-law-catalogue.md §1): d > 0 means contact, d' > 0 is compression
 * (approach), d' < 0 restitution (separation).
 */
#include "contact/contact_parameters.h"

#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace granular::contact
{
  /**
   * Per-contact history of a normal law (docs/contact-law-catalogue.md §6 "History per contact").
   * Laws that need none ignore it. It is reset (value-initialised) when the contact is lost.
   */
  struct NormalContactHistory
  {
    bool   active               = false; ///< d > 0 at the last committed evaluation
    double approach_velocity    = 0.;    ///< delta_dot_minus (mm/s): rate at contact onset
    double max_indentation      = 0.;    ///< delta_max (mm) reached during this contact
    double max_force            = 0.;    ///< F_max (N/mm) reached during this contact
    double residual_indentation = 0.;    ///< delta_p (mm) for elastoplastic laws
    double contact_time         = 0.;    ///< time since the contact began (s)
    double internal_variable    = 0.;    ///< a law's internal state (e.g. Xiong's alpha, mm)
    bool   released             = false; ///< force-free separation reached (B4, B5)

    /// Boost.Serialization (checkpoint/restart).
    template <class Archive>
    void serialize(Archive &ar, const unsigned int)
    {
      ar &active &approach_velocity &max_indentation &max_force &residual_indentation;
      ar &contact_time &internal_variable &released;
    }
  };

  /**
   * Interface of a normal contact force law F(d, d', history) (docs/methods.md §9).
   *
   * Calling protocol (see particle_surface_contact()): for a new evaluation first
   *   h_new = law.updated_history(d, d', dt, h_old);
   * then every other member function is called with h_new. Implementations are immutable
   * and thread-safe (pure functions of their arguments).
   */
  class NormalContactLaw
  {
  public:
    virtual ~NormalContactLaw() = default;

    /// The name under which the law is selected (parameter "normal law").
    virtual std::string
    name() const = 0;

    /// Normal force F (N/mm) for indentation @p d (mm) and rate @p d_dot (mm/s); 0 for d <= 0.
    virtual double
    force(double d, double d_dot, const NormalContactHistory &h) const = 0;

    /// Branch of a law whose form changes with the sign of d' (a kink at d' = 0).
    enum class RateBranch
    {
      by_sign,     ///< the law as defined: the branch follows the sign of d'
      compression, ///< the d' >= 0 form whatever the sign of d'
      decompression ///< the d' < 0 form whatever the sign of d'
    };

    /// true if force() changes its form with the sign of d' (non-smooth at d' = 0).
    virtual bool
    switches_with_rate() const
    {
      return false;
    }

    /**
     * force() on a fixed branch (N/mm), for implicit solvers that must keep the residual
     * smooth within a Newton solve (coupling::MonolithicParticle). Laws without a switch
     * ignore @p branch. Default: force(d, d_dot, h).
     */
    virtual double
    force_on_branch(double d, double d_dot, RateBranch /*branch*/,
                    const NormalContactHistory &h) const
    {
      return force(d, d_dot, h);
    }

    /// Conservative (elastic) part of the force (N/mm); force() - elastic_force() is the
    /// dissipative part whose power is accumulated as damping dissipation. 0 for d <= 0.
    virtual double
    elastic_force(double d, const NormalContactHistory &h) const = 0;

    /// Energy stored in the contact (N mm per mm) = integral of elastic_force() from 0 to d.
    virtual double
    stored_energy(double d, const NormalContactHistory &h) const = 0;

    /// Contact stiffness dF/dd (N/mm^2) at (d, d'); 0 for d <= 0. Used for the stability
    /// estimate of the explicit particle update (docs/methods.md §5.3).
    virtual double
    stiffness(double d, double d_dot, const NormalContactHistory &h) const = 0;

    /// Damping coefficient dF/dd' (N s/mm^2) at (d, d'); 0 for d <= 0 (stability estimate).
    virtual double
    damping_coefficient(double d, double d_dot, const NormalContactHistory &h) const = 0;

    /**
     * dF_el/dd (N/mm^2) of elastic_force() at @p d (mm); 0 for d <= 0. For the exact Jacobian
     * of the particle-surface contact (contact::particle_surface_contact_step_derivatives()).
     * Default: central differences of elastic_force() with the step 1e-6 d; closed forms in
     * the Hertz laws.
     */
    virtual double
    elastic_stiffness(double d, const NormalContactHistory &h) const;

    /// The partial derivatives of force_on_branch() (see force_derivatives_on_branch()).
    struct ForceDerivatives
    {
      double stiffness           = 0.; ///< dF/dd (N/mm^2)
      double damping_coefficient = 0.; ///< dF/dd' (N s/mm^2)
    };

    /**
     * The derivatives of force_on_branch(@p d, @p d_dot, @p branch, @p h) with respect to d
     * (mm) and d' (mm/s), both 0 for d <= 0; RateBranch::by_sign differentiates the branch of
     * the sign of d' (d' >= 0: compression), so the derivatives are one-sided at d' = 0 like
     * the frozen branch of coupling::MonolithicParticle. For the exact Jacobian of the
     * particle-surface contact. Default: central differences of force_on_branch() on that
     * branch (steps 1e-6 d and 1e-6 max(|d'|, 1 mm/s)); closed form in
     * temizer_decompression_undamped.
     */
    virtual ForceDerivatives
    force_derivatives_on_branch(double d, double d_dot, RateBranch branch,
                                const NormalContactHistory &h) const;

    /**
     * History after an evaluation at (d, d') that ends a time step of @p dt (s). Default: at
     * onset (old not active, d > 0) store approach_velocity = d'; while d > 0 track
     * max_indentation and max_force (of the elastic force) and add dt to contact_time; for
     * d <= 0 return a reset history.
     */
    virtual NormalContactHistory
    updated_history(double d, double d_dot, double dt, const NormalContactHistory &old) const;

    /**
     * Smallest d >= 0 with elastic_force(d) >= @p f (mm) for f >= 0 (inverse of the elastic
     * branch; stability estimate). Default: bracketing + bisection; closed forms in laws.
     */
    virtual double
    indentation_for_force(double f, const NormalContactHistory &h) const;

    /// Smallest d >= 0 with stored_energy(d) >= @p energy (mm) for energy >= 0 (inverse of the
    /// stored energy; the maximum indentation of an impact). Default: bracketing + bisection.
    virtual double
    indentation_for_energy(double energy, const NormalContactHistory &h) const;
  };

  /// The name the default law had before the contact-law library (still accepted for
  /// "Normal law"; it selects temizer_decompression_undamped).
  inline constexpr const char *legacy_default_law_name = "damped Hertz decompression off";

  /// Names accepted for "Normal law": the identifiers of the registered laws
  /// (contact/laws/contact_law.h) and legacy_default_law_name.
  std::vector<std::string>
  normal_contact_law_names();

  /**
   * Factory of the particle–surface law of the micromechanical cell (docs/methods.md §5.1, §9): the
   * law named @p p.normal_law, with its own parameters from @p p.law_parameters, the cell's
   * stiffness K = k_N (@p p.normal_stiffness, N/mm^(5/2) per mm) and @p effective_mass (t per
   * mm thickness: the particle's, against the rigid surface; NaN if unknown). The default law
   * temizer_decompression_undamped takes c_N from @p p.damping.
   * @throws std::invalid_argument naming the unknown law and listing the known ones, a
   *         parameter out of range, or a law that needs data the 2D cell does not define.
   */
  std::shared_ptr<const NormalContactLaw>
  create_normal_contact_law(const ParticleSurfaceContactParameters &p,
                            double effective_mass = std::numeric_limits<double>::quiet_NaN());
} // namespace granular::contact
