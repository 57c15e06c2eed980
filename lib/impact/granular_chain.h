#pragma once
/**
 * @file granular_chain.h
 * The horizontal granular chain of docs/contact-law-catalogue.md §8 S4 (S003 §5.2, Table 8;
 * experiment of Daraio and co-workers, S003 refs [59],[72]): N identical beads on a line, initially
 * touching and at rest, struck at t = 0 by a striker bead (bead 0) moving at v0; frictionless, no
 * track, no gravity, the far end free. Every nearest-neighbour pair is a contact with its own law
 * history; the law is either one registered law (contact/laws/contact_law.h) for every contact
 * or the S003 rule (S003ChainLaw: Flores while elastic, Wang–Liu–Liu once past the Ma–Liu
 * yield indentation, chi of all contacts fixed from the striker impact).
 *
 * Numbering: bead 0 is the striker, beads 1..N the chain (bead 1 is struck first; the sensor
 * beads of S4, 9, 16, 24, 31, 40, 50, 56, 63, count from there). Contact i (0 <= i < N) joins
 * beads i and i+1, indentation d_i = x_i + 2R - x_{i+1} (> 0 in contact), rate
 * d'_i = v_i - v_{i+1} (> 0 approach); its force F_i >= 0 pushes bead i back and bead i+1 on:
 *   m_j v'_j = F_{j-1} - F_j   (F_{-1} = F_N = 0).
 *
 * Units (mm–s–N–t–MPa, docs/contact-law-catalogue.md §1): lengths mm, velocities mm/s, masses t,
 * forces N, moduli and stresses MPa, times s, energies N mm (= mJ), momentum t mm/s (= kg m/s = N
 * s).
 *
 * This layer is free of deal.II.
 */
#include "contact/laws/contact_law.h"

#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace granular::impact
{
  /// The value of GranularChainParameters::law that selects the S003 rule (S003ChainLaw).
  inline const std::string s003_mixed_law = "S003 mixed";

  /**
   * Parameters of the granular chain (docs/contact-law-catalogue.md §8 S4). Defaults = the
   * scenario's inputs in mm–t–s (S003 §5.2, Table 8: stainless steel 316 beads).
   */
  struct GranularChainParameters
  {
    /// N, beads in the chain without the striker (S4: 70); >= 2.
    unsigned int number_of_beads = 70;
    /// R of every bead and of the striker (mm; S4: 2.38 mm). Two beads: R_eff = R/2.
    double bead_radius = 2.38;
    /// m of a chain bead (t; S4: 0.45 g = 4.5e-7 t).
    double bead_mass = 4.5e-7;
    /// Mass of the striker bead (t; S4: a bead of the chain, 4.5e-7 t).
    double striker_mass = 4.5e-7;
    /// E of the beads (MPa; S4: 193 GPa). E* = E/(2 (1 - nu^2)) (docs/contact-law-catalogue.md §2).
    double youngs_modulus = 1.93e5;
    /// nu of the beads (S4: 0.3); in [0, 0.5).
    double poisson_ratio = 0.3;
    /// sigma_y of the beads (MPa; S4: 900 MPa): Ma–Liu yield, docs/contact-law-catalogue.md G3.
    double yield_strength = 900.;
    /// Ma–Liu xi (dimensionless, > sqrt(2); S4: 13), docs/contact-law-catalogue.md G3.
    double plastic_limit_ratio = 13.;
    /// Ma–Liu psi (dimensionless, > 0; S4: 2.84), docs/contact-law-catalogue.md G3.
    double hardness_ratio = 2.84;
    /// v0 of the striker at t = 0 (mm/s, > 0; S4: 1.77 m/s = 1770 mm/s).
    double striker_velocity = 1770.;
    /// c_r of every contact (S4: 0.65, S003's choice below the first-pair Ma–Liu CoR to
    /// account for wave-propagation losses); in (0, 1]. Used by the S003 rule, and given as
    /// "Coefficient of restitution" to a registered law that has that entry unless
    /// law_values sets it.
    double restitution = 0.65;
    /// The law of every contact: s003_mixed_law ("S003 mixed", S003ChainLaw) or the
    /// identifier of a registered law (contact::laws::registered_laws()).
    std::string law = s003_mixed_law;
    /// Own parameter values of a registered law (entry name -> value; missing entries take
    /// the law's defaults). Unused by the S003 rule.
    std::map<std::string, double> law_values;
    /// Beads (1..N) with an embedded force sensor (S4: 9, 16, 24, 31, 40, 50, 56, 63).
    std::vector<unsigned int> sensor_beads = {9, 16, 24, 31, 40, 50, 56, 63};
    /// Gap between neighbouring chain beads at t = 0 (mm, >= 0; S4: 0, touching, no
    /// precompression). The striker always touches bead 1 at t = 0.
    double initial_gap = 0.;
    /// End of the simulation (s, > 0). Default 1 ms: the S4 wave reaches bead 63 at about
    /// 0.33 ms and the far end at 0.37 ms.
    double end_time = 1e-3;
    /// Equally spaced output samples over [0, end_time], both ends included (>= 2).
    unsigned int output_samples = 2001;
    /// Relative tolerance of the controlled Dormand–Prince stepper on the scaled state
    /// (GranularChainResult docs); > 0.
    double relative_tolerance = 1e-9;
    /// Absolute tolerance on the scaled state; 0: relative_tolerance / 100.
    double absolute_tolerance = 0.;
    /// Guard: largest number of accepted steps (> 0).
    unsigned int max_steps = 2000000;

    /// @throws std::invalid_argument naming the member (e.g. "GranularChainParameters::
    ///         bead_radius must be positive") and, for an unknown law, listing the known ones.
    void
    validate() const;

    /// E* = E/(2 (1 - nu^2)) (MPa), two identical beads (docs/contact-law-catalogue.md §2, §8 S4).
    double
    effective_modulus() const;
    /// R_eff = R/2 (mm), two identical beads.
    double
    effective_radius() const;
    /// Hertz K = (4/3) E* sqrt(R_eff) (N/mm^1.5), docs/contact-law-catalogue.md §2.
    double
    hertz_stiffness() const;
  };

  /**
   * The S003 rule for the contacts of the granular chain (S003 §5.2;
   * docs/contact-law-catalogue.md §8 S4 and G4 notes), as read here:
   *  - elastic phase, while the contact's maximum indentation in the current contact episode
   *    (h.max_indentation) is below the Ma–Liu yield indentation delta_y
   *    (docs/contact-law-catalogue.md G3, delta_y = pi^2 R_eff p_y^2/(4 E*^2), p_y = 1.61 sigma_y):
   *      Flores (docs/contact-law-catalogue.md D8) F = K d^1.5 + chi_F d^1.5 d',  chi_F = 8 (1 -
   *      c_r)/(5 c_r) K / v0;
   *  - elastoplastic phase, from the instant d reaches delta_y until the contact separates:
   *    Wang–Liu–Liu (docs/contact-law-catalogue.md G4, S003 eqs.(9),(17))
   *      F = K_p d + chi_W d d',  chi_W = 3 K_p (1 - c_r)/(2 c_r v0),
   *    K_p = (F(delta_p) - F(delta_y))/(delta_p - delta_y) of the Ma–Liu loading curve.
   * v0 is the approach velocity of the striker–first-bead impact (the striker speed; bead 1
   * is at rest): chi_F and chi_W are fixed for every contact (S003: this avoids the
   * d'_- -> 0 singularity of contacts between beads at rest). The phase is a property of the
   * contact episode: once elastoplastic, the contact stays on G4 through its unloading; its
   * history is reset when it separates (d <= 0), so a new contact starts elastic again.
   * "Exceeded delta_y" is read as d >= delta_y (MaLiuModel::phase). At the switch the force
   * jumps from K delta_y^1.5 (+ damping) to K_p delta_y (+ damping) (S4: 1.98 N -> 8.87 N):
   * G4 is linear through the origin (S003 eq.(9)); the integrator locates the switch as an
   * event. The stored energy jumps there too: the G4 line through the origin stores
   * K_p delta_y^2/2 at delta_y, the Hertz path that led there K delta_y^2.5/2.5 (S4:
   * +2.00e-3 N mm per switch, 0.28 % of the striker's energy), and the contact returns that
   * difference to the beads when it unloads along G4: the rule, read this way, creates energy
   * at every switch (GranularChainResult::history_energy accounts for it). Near the
   * threshold the force jump dominates: in a 20-bead S4 chain struck at 80 mm/s (first
   * contact just past delta_y) every contact yields and the pulse grows along the chain
   * (7.1 N at bead 5, 8.3 N at bead 15), at 70 mm/s none yields and it decays (0.82 N, 0.55 N).
   * The Ma–Liu CoR is not used (c_r is the parameter, S4: 0.65).
   * Identifier "s003_mixed_flores_wang_liu_liu". Flags: no clamp, damping in decompression
   * (as both source laws). Units: d mm, d' mm/s, F N. Immutable.
   */
  class S003ChainLaw : public contact::laws::ContactLaw
  {
  public:
    /// @param K Hertz stiffness (N/mm^1.5); @param K_p G4 stiffness (N/mm);
    /// @param delta_y yield indentation (mm); @param c_r in (0, 1]; @param v0 approach
    /// velocity of the striker impact (mm/s).
    /// @throws std::invalid_argument unless all are positive and finite and c_r <= 1.
    S003ChainLaw(double K, double K_p, double delta_y, double c_r, double v0);

    /// From the chain's parameters: K = p.hertz_stiffness(), MaLiuModel(E*, R_eff, sigma_y,
    /// xi, psi) for delta_y and K_p, c_r = p.restitution, v0 = p.striker_velocity.
    explicit S003ChainLaw(const GranularChainParameters &p);

    /// true once the contact has reached delta_y (h.max_indentation >= delta_y).
    bool
    elastoplastic(const contact::NormalContactHistory &h) const
    {
      return h.max_indentation >= dy;
    }

    /// K d^1.5 (elastic phase) or K_p d (elastoplastic phase).
    double
    spring_force(double d, const contact::NormalContactHistory &h) const override;
    /// chi_F d^1.5 d' or chi_W d d'.
    double
    damping_force(double d, double d_dot, const contact::NormalContactHistory &h) const override;
    /// K d^2.5/2.5 or K_p d^2/2 (N mm).
    double
    stored_energy(double d, const contact::NormalContactHistory &h) const override;

    double hertz_stiffness() const { return K; }      ///< K (N/mm^1.5)
    double linearized_stiffness() const { return Kp; } ///< K_p (N/mm)
    double yield_indentation() const { return dy; }    ///< delta_y (mm)
    double flores_chi() const { return chi_F; }        ///< chi_F (N s/mm^2.5)
    double wang_liu_liu_chi() const { return chi_W; }  ///< chi_W (N s/mm^2)

  private:
    double K, Kp, dy, chi_F, chi_W;
  };

  /**
   * Result of simulate_granular_chain(). Units as in the file docstring. Samples are taken at
   * GranularChainParameters::output_samples equally spaced times.
   *
   * Energies: kinetic energy T = sum m v^2/2; stored energy U = sum of the laws' stored
   * energies of the contacts in contact (0 after a force-free release); work W = integral of
   * sum F_i d'_i dt (the energy taken from the beads, an ODE state: T + W = T(0) is an
   * identity of the equations, so its residual measures the integration); damping
   * dissipation D = integral of sum (F_i - S_i) d'_i dt (S the law's spring force, an ODE
   * state); history energy H = sum of the jumps of U at fixed d when a contact's history
   * changes (S003 rule: the Flores -> G4 switch, > 0; an elastoplastic unloading-curve law:
   * the hysteresis loss at each new maximum, < 0; a force-free release: -U). Balance:
   * T + U + D - H = T(0) for every law whose force is S(d, h) + D(d, d', h).
   */
  struct GranularChainResult
  {
    std::string law; ///< the law identifier (s003_mixed_flores_wang_liu_liu for the S003 rule)
    std::vector<unsigned int> sensor_beads; ///< as in the parameters
    std::vector<double>       time;         ///< sample times (s)
    /// sensor_force[k][s]: force of sensor k at sample s (N), the average of the two contact
    /// forces on the bead, (F_{j-1} + F_j)/2 for bead j (an embedded sensor measures the
    /// mean compressive force across the bead; the last bead of the chain: F_{N-1}/2).
    std::vector<std::vector<double>> sensor_force;
    /// velocity[s][j]: v of bead j (0 = striker) at sample s (mm/s).
    std::vector<std::vector<double>> velocity;
    std::vector<double> momentum;        ///< sum m v (t mm/s) at the samples
    std::vector<double> kinetic_energy;  ///< T (N mm)
    std::vector<double> stored_energy;   ///< U (N mm)
    std::vector<double> work;            ///< W (N mm)
    std::vector<double> damping_dissipation; ///< D (N mm)
    std::vector<double> history_energy;  ///< H (N mm), accumulated up to the sample
    /// Per-contact samples [s][i] (d mm, d' mm/s, F N), filled when requested
    /// (simulate_granular_chain(..., record_contacts = true)).
    std::vector<std::vector<double>> contact_indentation, contact_rate, contact_force;

    std::vector<double> peak_force; ///< per sensor: max of the sensor force (N)
    std::vector<double> peak_time;  ///< per sensor: its time (s), refined on the dense output
    /// Wave speed (mm/s): least-squares slope of the bead position 2R (j - 1) against the peak
    /// time over all sensors; NaN with fewer than 2 sensors.
    double wave_speed = 0.;
    /// segment_speed[k] (k >= 1): 2R (j_k - j_{k-1})/(t_k - t_{k-1}) between consecutive
    /// sensors (mm/s); segment_speed[0] = NaN.
    std::vector<double> segment_speed;

    /// Per contact: the largest indentation over the run (mm; at the ends of the steps and at
    /// events, not refined between them), the approach velocity of its first contact episode
    /// (mm/s; contacts touching at rest at t = 0: 0; NaN if never in contact), the number of
    /// contact episodes, and (S003 rule) whether it ever became elastoplastic. In a chain
    /// touching at rest, round-off-level indentations of either sign (|d| ~ 1e-250 mm) ahead
    /// of the wave can end an episode and start another (force 0 to round-off).
    std::vector<double>       max_indentation;
    std::vector<double>       first_approach_velocity;
    std::vector<unsigned int> episodes;
    std::vector<bool>         became_elastoplastic;

    double initial_momentum = 0.;       ///< m_s v0 (t mm/s)
    double initial_energy   = 0.;       ///< T(0) = m_s v0^2/2 (N mm)
    double max_momentum_error = 0.;     ///< max over samples |sum m v - m_s v0|/(m_s v0)
    double max_work_residual  = 0.;     ///< max |T + W - T(0)|/T(0) (integration check)
    double max_balance_residual = 0.;   ///< max |T + U + D - H - T(0)|/T(0)

    /// S003 rule (NaN for a registered law): delta_y (mm), K (N/mm^1.5), K_p (N/mm),
    /// chi_F (N s/mm^2.5), chi_W (N s/mm^2).
    double yield_indentation = 0., hertz_stiffness = 0., linearized_stiffness = 0.,
           flores_chi = 0., wang_liu_liu_chi = 0.;
    /// Ma–Liu first-pair impact (docs/contact-law-catalogue.md §8 S4: m = one bead's mass, not
    /// m_eff): delta_max (mm) and CoR (Stronge, S003 eq.(8)).
    double first_pair_max_indentation = 0., first_pair_ma_liu_restitution = 0.;

    unsigned int steps  = 0;  ///< accepted steps (events cut a step: the part counts)
    unsigned int events = 0;  ///< located events (onset, separation, yield, turning, release)
    double min_step = 0., max_step = 0., mean_step = 0.; ///< accepted step sizes (s)
    double wall_time = 0.;    ///< seconds
  };

  /**
   * Integrates the chain of @p p from t = 0 to p.end_time.
   *
   * Initial state: all beads at rest, touching with the initial gap p.initial_gap (0: every
   * contact at d = 0), the striker touching bead 1 and moving at v0. Contacts at d = 0 are in
   * contact from t = 0 (onset history with d'_- = their rate, v0 for the striker contact, 0
   * for the rest); the others start out of contact.
   *
   * Integration: Boost.Odeint runge_kutta_dopri5 behind make_dense_output on the scaled
   * state (d_i/L, v_j/v0, alpha_i/L for a law with an internal variable, W/T0, D/T0), with
   * L = (5 m_eff v0^2/(4 K))^(2/5) the Hertz maximum indentation of the striker impact and
   * T0 = m_s v0^2/2; tolerances of p. Within a step each contact's history is the one at the
   * step's start (h.contact_time advanced with t, h.internal_variable = alpha(t)); a contact
   * out of contact carries no force; one in contact is evaluated at max(d, 0+) (continuous
   * across d = 0 until its separation is located). After every accepted step each contact's
   * history is advanced with law.updated_history(d, d', dt, h) (h.internal_variable = the
   * integrated alpha).
   * Events, located with Boost.Math TOMS 748 on the dense output (event_search.h, the time
   * reported just after the crossing; the step is cut at the earliest, the history updated
   * there, the stepper restarted): onset (d crosses 0 upwards:
   * onset history with d'_- = d' there), separation (d crosses 0 downwards: history reset),
   * S003 rule yield (d reaches delta_y in the elastic phase), turning points d' = 0 of a law
   * with switches_with_rate() (unloading branches, damping off in decompression), and F = 0
   * in restitution of a force-free-separation law. Only sign changes between the ends of a
   * step are seen (two crossings within one step are missed). A contact in contact at
   * d <= 0 that only goes further below 0 (a contact touching at t = 0 that opens) is ended
   * at the end of the step. The stepper is restarted after events and status changes.
   * Sensor peaks: refined by Boost.Math brent_find_minima on the dense output of every step
   * whose samples exceed the running peak.
   *
   * @param record_contacts also fill the per-contact samples of the result.
   * @throws std::invalid_argument from p.validate() or make_law(); std::runtime_error if the
   *         step guard is reached or events make no progress.
   */
  GranularChainResult
  simulate_granular_chain(const GranularChainParameters &p, bool record_contacts = false);

  /**
   * docs/contact-law-catalogue.md §8 S4: simulate_granular_chain(p), then write into @p
   * output_directory (created), atomically:
   *  - chain_forces.csv: `t,F_bead_<j>,...` — time (s) and the force of each sensor bead (N);
   *  - chain_velocities.csv: `t,v_0,v_1,...,v_N` — time (s), bead velocities (mm/s; 0 is the
   *    striker);
   *  - chain_balance.csv: `t,momentum,kinetic_energy,stored_energy,work,damping_dissipation,
   *    history_energy` — s, t mm/s, N mm;
   *  - chain_summary.csv: `quantity,bead,value,unit` — per sensor bead: peak_force (N),
   *    peak_time (s), segment_speed (mm/s, from the previous sensor); then wave_speed (mm/s,
   *    fit over all sensors), the momentum and energy balance (initial/final momentum, the
   *    momentum error, T(0), final T, U, W, D, H, the residuals), the S003 rule's delta_y,
   *    K, K_p, chi_F, chi_W, the Ma–Liu first-pair delta_max and CoR, contacts that became
   *    elastoplastic, steps, events, step sizes and the run time;
   * and one line per stage to @p log.
   * @throws as simulate_granular_chain(); std::runtime_error naming a file that cannot be
   *         written.
   */
  void
  run_granular_chain(const GranularChainParameters &p, const std::string &output_directory,
                     std::ostream &log);
} // namespace granular::impact
