#pragma once
/**
 * @file sdof_impact.h
 * Single-degree-of-freedom direct central impact (docs/contact-law-catalogue.md
 * §1 and §8; S004 eqs.(1)–(5)): the integrator behind the impact benchmark
 * program `contact-impact` (docs/methods.md §9).
 *
 *   m_eff d'' = -F(d, d', history),   d(0) = 0,   d'(0) = v0 > 0,   no gravity,
 *
 * integrated with Boost.Odeint (dense-output Dormand–Prince 5(4)) from first contact through
 * the turning point d' = 0 (maximum indentation) to separation; events are located on the
 * dense output with Boost.Math's TOMS 748 root finder (the search shared by the impact
 * integrators, event_search.h).
 *
 * Units (mm–s–N–t, docs/methods.md §1): d in mm, d' in mm/s (> 0 compression), F in N, m_eff in t,
 * energies in N mm, times in s. (In the 2D cell's per-thickness units the same code gives
 * N/mm, t/mm and N mm/mm.)
 *
 * This layer is free of deal.II.
 */
#include "contact/laws/contact_law.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace granular::impact
{
  /**
   * Accuracy and guards of simulate_impact().
   *
   * The integrated state is scaled to O(1): (d / L, d' / v0, alpha / L, W / E0) with
   * E0 = m_eff v0^2 / 2 and L the elastic indentation that stores E0
   * (law.indentation_for_energy(E0); length_scale overrides it). The tolerances are those of
   * odeint's error checker on the scaled state:
   * err_i = |x_err_i| / (absolute_tolerance + relative_tolerance (|x_i| + dt |x_i'|)) <= 1.
   */
  struct ImpactOptions
  {
    /// Relative tolerance of the controlled Dormand–Prince stepper (scaled state).
    double relative_tolerance = 1e-10;
    /// Absolute tolerance of the controlled stepper on the scaled (dimensionless) state, i.e.
    /// in units of L, v0 and E0; 0: automatic, relative_tolerance / 100 (with an absolute
    /// tolerance equal to the relative one the error near d = 0 and d' = 0 grows ~10 times).
    double absolute_tolerance = 0.;
    /// Number of equally spaced sample times over the contact, both ends included, written
    /// to ImpactResult::curves (the event points are added to them). 0: no equally spaced
    /// samples (the event points only); 1 is taken as 2.
    unsigned int samples = 201;
    /// Guard: largest number of accepted steps. Default 50000 (a Hertz impact takes ~200 at
    /// the default tolerances).
    unsigned int max_steps = 50000;
    /// Guard: before the turning point the contact may last at most max_time_factor * L / v0,
    /// after it at most max_time_factor * (time of the turning point) in total.
    double max_time_factor = 1e4;
    /// L (mm) of the state scaling; 0: automatic (the elastic indentation that stores the
    /// impact energy, law.indentation_for_energy(E0); 1 mm if the law's stored energy does
    /// not reach E0, e.g. a law whose spring acts through its internal variable).
    double length_scale = 0.;
  };

  /// How the contact ended.
  enum class Separation
  {
    /// d returned to 0 (classical criterion, docs/contact-law-catalogue.md §1 (a)); a law whose
    /// damping term does not vanish at d = 0 then ends in tension (ImpactResult::separation_force <
    /// 0).
    indentation_zero,
    /// The force returned to 0 in restitution and the law has force_free_separation()
    /// (docs/contact-law-catalogue.md B4/B5, S004 eq.(20), §1 (b)) or a permanent indentation
    /// (has_unloading_branch(): A3, G1-G3, whose force is 0 below the residual indentation);
    /// the bodies separate with the indentation ImpactResult::residual_indentation.
    force_zero,
    /// d did not return to 0 (a permanent indentation held by the law: the guards were
    /// reached; or an overdamped Kelvin–Voigt-type contact whose d only decays: d reached 0
    /// with |d'| below the integration noise, 1e3 * absolute tolerance * v0), but the force
    /// had returned to 0 in restitution: the contact was ended at that instant
    /// (docs/contact-law-catalogue.md §1 criterion (b); ImpactResult::note says so).
    force_zero_no_return
  };

  /// Name of @p s for messages and tables ("indentation zero", "force zero",
  /// "force zero (d did not return to 0)").
  std::string
  to_string(Separation s);

  /// Curves of an impact: samples (t, d, d', F) in time order. Units s, mm, mm/s, N.
  struct ImpactCurves
  {
    std::vector<double> time;           ///< t (s) since first contact
    std::vector<double> delta;          ///< d (mm)
    std::vector<double> delta_dot;      ///< d' (mm/s), > 0 compression
    std::vector<double> force;          ///< F (N), the law's force on the contact
  };

  /**
   * Result of simulate_impact() (docs/contact-law-catalogue.md §8 "Report"). Units mm–s–N–t.
   *
   * At d = 0 (first contact and, for the classical criterion, separation) the force is the
   * limit from inside the contact, F(0+, d'): the force jump of a law with a velocity term
   * that does not vanish at d = 0 (Kelvin–Voigt: D v0 at onset, -D v_out at the end).
   */
  struct ImpactResult
  {
    double effective_mass    = 0.; ///< m_eff (t), input
    double approach_velocity = 0.; ///< v0 = delta_dot_minus (mm/s), input
    double max_force         = 0.; ///< F_max (N): the largest force over the contact
    double time_of_max_force = 0.; ///< t at F_max (s)
    double max_indentation   = 0.; ///< delta_max (mm): d at the turning point d' = 0
    double time_of_max_indentation = 0.; ///< t at delta_max (s)
    double contact_duration  = 0.; ///< t_c (s): first contact to separation
    /// v_out (mm/s): the relative velocity after the impact, positive = separating
    /// (= -d' at separation; docs/contact-law-catalogue.md §3 cor_newton: -delta_dot_plus).
    double separation_velocity = 0.;
    /// c_r,effective = v_out / v0 (Newton's, docs/contact-law-catalogue.md §3)
    double restitution = 0.;
    /// 0.5 m_eff (v0^2 - v_out^2) (N mm), docs/contact-law-catalogue.md §8. For a force-free
    /// separation it includes the elastic energy left in the residual indentation.
    double dissipated_energy = 0.;
    /// The same from the work of the contact force, integral of F d' dt over the contact
    /// (N mm), integrated as a fourth ODE state: an independent check of the integration.
    double dissipated_energy_from_work = 0.;
    /// d at separation (mm): 0 for Separation::indentation_zero, the (possibly permanent)
    /// indentation at F = 0 otherwise.
    double residual_indentation = 0.;
    /// F at separation (N), the limit from inside the contact: < 0 means tension at the end
    /// of restitution (classical criterion), ~0 for a force-zero separation.
    double separation_force = 0.;
    Separation separation = Separation::indentation_zero; ///< how the contact ended
    /// true if the force returned to 0 in restitution with d > 0 (the start of tension, of
    /// the clamp, or a force-free separation); time_of_zero_force is then its time (s).
    bool   force_returned_to_zero = false;
    double time_of_zero_force     = 0.;
    /// The law's history at the end of the contact (updated_history at the last event, with
    /// d -> 0+ for the classical criterion), e.g. delta_P of an elastoplastic law.
    contact::NormalContactHistory final_history;
    /// accepted integration steps (including those beyond an F = 0 end of the contact)
    unsigned int steps = 0;
    std::string  note;      ///< explanation when the contact did not end normally
    ImpactCurves curves;    ///< ImpactOptions::samples equally spaced samples + event points
  };

  /**
   * Integrates the direct central impact of docs/contact-law-catalogue.md §1/§8 (S004 eqs.(1)–(5)):
   * m_eff d'' = -F(d, d', h), d(0) = 0, d'(0) = approach_velocity, no gravity, until
   * separation, with @p law's force F = law.force(d, d', h) (flags of the law applied).
   *
   * Integration: Boost.Odeint runge_kutta_dopri5 behind make_dense_output with the
   * tolerances of @p options; the state is (d, d', alpha, W) scaled as in ImpactOptions:
   * alpha is the law's internal variable, integrated as an ODE state with
   * law.internal_variable_rate() when law.has_internal_variable() (and written into
   * h.internal_variable before force() is called), W = integral of F d' dt.
   *
   * History: onset history = law.updated_history(0+, v0, 0, {}); after every accepted step
   * and at every event h = law.updated_history(d, d', dt, h) (with h.internal_variable
   * replaced by the integrated alpha). Within a step the force uses the history at the
   * step's start except h.contact_time = t and h.internal_variable = alpha(t). The stepper is
   * restarted after every history update (its first-same-as-last derivative is recomputed
   * with the new history) and at every event, so that no step straddles the turning point
   * (loading-curve laws see d >= max_indentation while loading) or a kink of the force.
   * During the contact the force is evaluated at max(d, 0+), so that the right-hand side is
   * continuous across d = 0 and the separation is located on a smooth solution.
   *
   * Events (TOMS 748 on the dense output, full double precision in t):
   *  - turning point d' = 0: delta_max; the restitution phase starts there (d' set to 0);
   *  - separation d = 0 (classical criterion): Separation::indentation_zero;
   *  - F = 0 in restitution with d > 0 (first time): for a law with force_free_separation()
   *    or has_unloading_branch() (a permanent indentation) the contact ends there
   *    (Separation::force_zero, residual_indentation = d); for other laws the integration
   *    goes on (tension if unclamped; a clamped law carries no force and
   *    the bodies move at constant velocity) until d = 0. The event is located on
   *    F = law.force(), and where a clamped law returns 0 on the unclamped S + D
   *    (spring_force + damping_force with the damping flag), so the root is a smooth sign
   *    change; a force that vanishes only with d (Hertz, Hunt–Crossley at d -> 0+) is no
   *    return to 0.
   *  - d does not return to 0: when the guards (ImpactOptions::max_steps, max_time_factor)
   *    are reached, or d reaches 0 with |d'| < 1e3 * absolute tolerance * v0 (a decay to 0
   *    at the integration noise level, not a return), and the force had returned to 0, the
   *    contact is ended at that F = 0 (Separation::force_zero_no_return, with a note);
   *    guards reached without F = 0: std::runtime_error (a noise-level d = 0 without F = 0
   *    is kept as the separation, with a note).
   * F_max is refined between steps with Boost.Math's brent_find_minima.
   *
   * Accuracy at the default tolerances (relative 1e-10, absolute 1e-12; measured against the
   * closed forms of tests/test_sdof_impact.cc): an undamped power-law (Hertz n = 3/2, n = 1,
   * n = 2) impact returns c_r = 1 to 3e-11, delta_max and F_max to 2e-11 and t_c to 4e-12
   * relative (~170 steps); Kelvin–Voigt c_r to 3e-10 with separation at d = 0 and 3e-11 with
   * force-free separation (docs/contact-law-catalogue.md B1, B4); Hunt–Crossley with E1's exact chi
   * returns its c_r to 7e-10 (c_r from 0.27 to 0.97, n = 1 and 3/2); the two dissipated-energy
   * computations agree to 1e-10 E0. Errors scale about linearly with the tolerances
   * (relative 1e-12: Hertz c_r = 1 to 3e-13, ~420 steps).
   *
   * @param law the contact law (its ContactData were fixed when it was made)
   * @param effective_mass m_eff (t), > 0
   * @param approach_velocity v0 = delta_dot_minus (mm/s), > 0
   * @throws std::invalid_argument for a non-positive or non-finite mass or velocity or
   *         invalid options; std::runtime_error naming the law if the turning point or the
   *         separation is not reached within the guards.
   */
  ImpactResult
  simulate_impact(const contact::laws::ContactLaw &law, double effective_mass,
                  double approach_velocity, const ImpactOptions &options = {});

  /// Writes @p curves as CSV: the header line `t,delta,delta_dot,force` (units s, mm, mm/s,
  /// N), then one line per sample, 17 significant digits.
  void
  write_impact_curves(std::ostream &out, const ImpactCurves &curves);

  /// write_impact_curves() into the file @p path, atomically: written to a temporary name in
  /// the same directory, then renamed over @p path.
  /// @throws std::runtime_error naming the file if writing or renaming fails.
  void
  write_impact_curves_csv(const std::string &path, const ImpactCurves &curves);
} // namespace granular::impact
