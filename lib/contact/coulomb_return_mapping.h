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
#include <algorithm>
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

  /**
   * Coulomb dissipation over a committed step of a point that is in contact at t_{n+1}, for
   * an interface whose bodies' equations at t_n and t_{n+1} hold the tractions of those
   * times (docs/methods.md §6, "Coulomb dissipation of the penalty contacts"): Newmark's
   * energy identity charges the bodies the trapezoidal work of the traction, and what the
   * contact takes of it beyond the change of its tangential spring's energy t^2 / (2 eps_T)
   * is (t_n + t_{n+1}) / 2 times the stick point's move, i.e.
   *   D = max(0, (|t_{n+1}| + sign(t_{n+1}) t_n) / 2) * slip,
   * the trapezoidal rule for the Coulomb work instead of the return mapping's backward-Euler
   * |t_{n+1}| slip (both tend to the integral of t over the slip, this one at second order).
   * It is 0 if it would be negative, where the slip reverses within the step.
   * @param traction_start t_n (MPa or N/mm), 0 for a point that enters contact in the step
   * @param traction_end   t_{n+1} after the return mapping, on the same axis as t_n
   * @param slip           the slip increment of the step (mm, >= 0; 0 in stick)
   * @return D per unit of the point's weight (N/mm for tractions in MPa), >= 0
   */
  inline double
  coulomb_step_dissipation(const double traction_start, const double traction_end,
                           const double slip)
  {
    const double s = traction_end >= 0. ? 1. : -1.;
    return std::max(0., 0.5 * (std::abs(traction_end) + s * traction_start)) * slip;
  }

  /**
   * Coulomb dissipation over a committed step of a point that was in contact at t_n and
   * is not at t_{n+1} (or whose tangential history was reset in the step): the spring
   * releases t_n^2 / (2 eps_T), of which the traction of t_n does t_n Delta g / 2 on the
   * bodies over the step, so D = max(0, t_n^2 / (2 eps_T) - t_n Delta g / 2)
   * (docs/methods.md §6; a stuck point that springs back by its elastic gap dissipates
   * nothing).
   * @param traction_start t_n (MPa)
   * @param gap_increment  Delta g: the change over the step of the trial tangential gap g^tr
   *                       of coulomb_return_mapping() (t = -eps_T g), i.e. the point's
   *                       tangential motion relative to the other body along t's axis (mm)
   * @param penalty        eps_T (MPa/mm, > 0)
   * @return D per unit of the point's weight (N/mm), >= 0
   */
  inline double
  coulomb_release_dissipation(const double traction_start, const double gap_increment,
                              const double penalty)
  {
    return std::max(0., 0.5 * traction_start * traction_start / penalty -
                          0.5 * traction_start * gap_increment);
  }
} // namespace granular::contact
