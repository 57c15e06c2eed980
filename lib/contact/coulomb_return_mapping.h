#pragma once
/**
 * @file coulomb_return_mapping.h
 * The return mapping of the penalty-regularised Coulomb friction law, shared by the three
 * frictional interfaces of the micromechanical test (docs/methods.md §5.2 particle-surface, §6
 * rubber-surface and rubber-particle): elastic predictor (trial traction), stick test,
 * radial return onto the Coulomb limit, and the consistent tangent of the algorithm
 * (Simo & Hughes, Computational Inelasticity (1998), §1.2 (the 1D return mapping);
 * Wriggers, Computational Contact Mechanics, 2nd ed. (2006), §5.2 and §10.3.1 (penalty
 * regularised Coulomb law and its linearisation); Temizer 2013, §2).
 *
 * In 2D the tangential part of each interface is one component, so the mapping is scalar:
 *   trial traction   t^tr = -eps_T g^tr              (g^tr: trial tangential gap,
 *                                                      the elastic spring's extension)
 *   stick            |t^tr| <= mu p  and  mu p > 0:  t = t^tr
 *   slip             otherwise:                       t = mu p sign(t^tr),
 *                    slip increment  (|t^tr| - mu p) / eps_T  >= 0.
 * A frictionless contact (mu p = 0) always slips with t = 0: it has no tangential
 * stiffness, also when its trial traction happens to be exactly zero.
 * Each interface keeps its own kinematics (what g^tr is, where the stick point moves so
 * that the returned gap -t / eps_T is restored) and chains the tangent below with them.
 *
 * Units: whatever the caller's are, consistently: the gap in mm, eps_T in MPa/mm and p in
 * MPa for the rubber interfaces (tractions per reference length and unit thickness); the
 * displacement in mm, k_T in N/mm^2 and f_N in N/mm for the particle-surface contact.
 */
#include <cmath>

namespace granular::contact
{
  /// What coulomb_return_mapping() returns.
  struct CoulombReturnMapping
  {
    double trial_traction = 0.; ///< t^tr = -eps_T g^tr
    double traction       = 0.; ///< t after the mapping
    bool   sticking       = false;
    /// slip increment of the step, (|t^tr| - mu p) / eps_T >= 0 (units of the gap), 0 in stick
    double slip = 0.;
    /// Consistent tangent of the algorithm: dt = dtraction_dgap dg^tr + dtraction_dpressure dp,
    /// i.e. -eps_T and 0 in stick, 0 and mu sign(t^tr) in slip.
    double dtraction_dgap      = 0.;
    double dtraction_dpressure = 0.;
  };

  /**
   * ReturnMapping of the penalty-regularised Coulomb law (see the file comment).
   * @param trial_gap   g^tr, the trial tangential gap (the stick spring's extension, mm)
   * @param penalty     eps_T > 0, the tangential penalty (MPa/mm, or N/mm^2 for a force law)
   * @param friction_coefficient mu >= 0
   * @param pressure    p, the normal traction (MPa) or force (N/mm); a negative value is
   *                    taken as 0 (no friction without compression)
   * No checks (hot loop): the callers validate eps_T > 0 and mu >= 0.
   */
  inline CoulombReturnMapping
  coulomb_return_mapping(const double trial_gap, const double penalty,
                         const double friction_coefficient, const double pressure)
  {
    CoulombReturnMapping r;
    r.trial_traction   = -penalty * trial_gap;
    const double limit = friction_coefficient * (pressure > 0. ? pressure : 0.);
    const double size  = std::abs(r.trial_traction);
    if (limit > 0. && size <= limit)
      {
        r.traction       = r.trial_traction;
        r.sticking       = true;
        r.dtraction_dgap = -penalty;
        return r;
      }
    // radial return onto the Coulomb limit
    const double s        = r.trial_traction > 0. ? 1. : -1.;
    r.traction            = s * limit;
    r.dtraction_dpressure = s * friction_coefficient;
    r.slip                = penalty > 0. ? (size - limit) / penalty : 0.;
    return r;
  }
} // namespace granular::contact
