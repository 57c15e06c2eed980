#pragma once
/**
 * @file normal_contact_law.h
 * Normal contact force laws of the particle-surface contact (spec §5.1, §9;
 * catalogue ../reference/contact-laws.md): one interface, laws selected by name.
 *
 * Units: indentation d (pseudo-penetration) in mm, indentation rate d' in mm/s, force in
 * N per mm thickness (2D plane strain, spec §1), stiffness dF/dd in N/mm^2, damping
 * coefficient dF/dd' in N s/mm^2, stored energy in N mm per mm thickness.
 * Sign convention (catalogue §1): d > 0 means contact, d' > 0 is compression (approach),
 * d' < 0 restitution (separation).
 */
#include "contact/contact_parameters.h"

#include <memory>
#include <string>
#include <vector>

namespace granular::contact
{
  /**
   * Per-contact history of a normal law (catalogue §6 "History per contact"). Laws that need
   * none ignore it. It is reset (value-initialised) when the contact is lost.
   */
  struct NormalContactHistory
  {
    bool   active               = false; ///< d > 0 at the last committed evaluation
    double approach_velocity    = 0.;    ///< delta_dot_minus (mm/s): rate at contact onset
    double max_indentation      = 0.;    ///< delta_max (mm) reached during this contact
    double max_force            = 0.;    ///< F_max (N/mm) reached during this contact
    double residual_indentation = 0.;    ///< delta_p (mm) for elastoplastic laws (unused so far)

    /// Boost.Serialization (checkpoint/restart).
    template <class Archive>
    void serialize(Archive &ar, const unsigned int)
    {
      ar &active &approach_velocity &max_indentation &max_force &residual_indentation;
    }
  };

  /**
   * Interface of a normal contact force law F(d, d', history) (spec §9).
   *
   * Calling protocol (see particle_surface_contact()): for a new evaluation first
   *   h_new = law.updated_history(d, d', h_old);
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
    /// estimate of the explicit particle update (spec §5.3).
    virtual double
    stiffness(double d, double d_dot, const NormalContactHistory &h) const = 0;

    /// Damping coefficient dF/dd' (N s/mm^2) at (d, d'); 0 for d <= 0 (stability estimate).
    virtual double
    damping_coefficient(double d, double d_dot, const NormalContactHistory &h) const = 0;

    /**
     * History after an evaluation at (d, d'). Default: at onset (old not active, d > 0) store
     * approach_velocity = d'; while d > 0 track max_indentation and max_force (of the elastic
     * force); for d <= 0 return a reset history.
     */
    virtual NormalContactHistory
    updated_history(double d, double d_dot, const NormalContactHistory &old) const;

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

  /**
   * DampedHertzDecompressionOff: damped Hertz law with the damping switched off in
   * decompression (spec §5.1; Temizer 2013 eq. (10); catalogue F7
   * `temizer_decompression_undamped`):
   *   F = max(0, k_N sqrt(d) (d + c_N d'))   if d' >= 0 (compression),
   *   F = k_N d^(3/2)                        if d' <  0 (decompression: no damping),
   *   F = 0                                  if d <= 0.
   * With d' >= 0 the max(0, .) never clips; F > 0 for every d > 0, so the contact is not lost
   * before d returns to 0 (the purpose of the switch). History: none.
   * Units: k_N in N/mm^(5/2) per mm thickness, c_N in s.
   */
  class DampedHertzDecompressionOff : public NormalContactLaw
  {
  public:
    /// Canonical name (the default of ParticleSurfaceContactParameters::normal_law).
    static constexpr const char *law_name = "damped Hertz decompression off";

    /// @throws std::invalid_argument if k_N is not positive and finite or c_N is negative or
    ///         not finite.
    DampedHertzDecompressionOff(double normal_stiffness, double damping);

    std::string
    name() const override;
    double
    force(double d, double d_dot, const NormalContactHistory &h) const override;
    /// true: the damping is switched off for d' < 0.
    bool
    switches_with_rate() const override
    {
      return true;
    }
    /// compression: max(0, k_N sqrt(d) (d + c_N d')) for any d'; decompression: k_N d^(3/2).
    double
    force_on_branch(double d, double d_dot, RateBranch branch,
                    const NormalContactHistory &h) const override;
    /// k_N d^(3/2).
    double
    elastic_force(double d, const NormalContactHistory &h) const override;
    /// (2/5) k_N d^(5/2).
    double
    stored_energy(double d, const NormalContactHistory &h) const override;
    /// Compression: k_N (3/2 sqrt(d) + c_N d' / (2 sqrt(d))); decompression: 3/2 k_N sqrt(d).
    /// (The damping term's derivative is singular at d -> 0+ with d' > 0; callers that need a
    /// bounded value evaluate it at a positive reference indentation.)
    double
    stiffness(double d, double d_dot, const NormalContactHistory &h) const override;
    /// Compression: k_N c_N sqrt(d); decompression: 0.
    double
    damping_coefficient(double d, double d_dot, const NormalContactHistory &h) const override;
    /// (f / k_N)^(2/3).
    double
    indentation_for_force(double f, const NormalContactHistory &h) const override;
    /// (5 E / (2 k_N))^(2/5).
    double
    indentation_for_energy(double energy, const NormalContactHistory &h) const override;

    double
    normal_stiffness() const
    {
      return k_N;
    }
    double
    damping() const
    {
      return c_N;
    }

  private:
    double k_N; ///< N/mm^(5/2) per mm thickness
    double c_N; ///< s
  };

  /// Names accepted by create_normal_contact_law() (canonical names and aliases).
  std::vector<std::string>
  normal_contact_law_names();

  /**
   * Factory: the law named @p p.normal_law with the parameters of @p p (spec §9).
   * Known names: "damped Hertz decompression off" (alias: the catalogue id
   * "temizer_decompression_undamped").
   * @throws std::invalid_argument naming the unknown law and listing the known ones, or if
   *         the parameters are invalid for the law.
   */
  std::shared_ptr<const NormalContactLaw>
  create_normal_contact_law(const ParticleSurfaceContactParameters &p);
} // namespace granular::contact
