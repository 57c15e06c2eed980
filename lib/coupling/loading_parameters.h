#pragma once
/**
 * @file loading_parameters.h
 * Subsection "Loading": macroscopic pressure, slip velocity and the phases of the
 * micromechanical test (docs/methods.md §2.1, §7). Times are given relative to the nominal
 * dragging time T0 = L0 / v_F so that a slip-velocity sweep scales them.
 */
namespace granular
{
  class ParameterEntries;

  /// Parameters of subsection "Loading".
  struct LoadingParameters
  {
    double pressure           = 2.;     ///< p (MPa)
    double slip_velocity      = 2500.;  ///< v_F (mm/s)
    double ramp_fraction      = 0.5;    ///< load ramp duration / T0 (docs/methods.md §2.1 choice)
    double time_step_ratio    = 1e-4;   ///< Delta t / T0
    double averaging_ratio    = 2.;     ///< T_avg / T0
    /// The most steps of Delta t a run may have, (2 T0 + T_avg) / Delta t: far below what
    /// the step counters (unsigned int) hold; the default run has 40000.
    static constexpr double max_reference_steps = 1e8;
    /// A run of more steps of Delta t than this is a very long run (250 times the default
    /// run's 40000: days of computing) and needs allow_long_run.
    static constexpr double long_run_steps = 1e7;
    /// not a parameter entry: the command line's --allow-long-run (run more than
    /// long_run_steps steps of Delta t)
    bool allow_long_run = false;

    /// T0 = L0 / v_F (s) for a cell of length L0 (mm).
    double nominal_dragging_time(double L0) const { return L0 / slip_velocity; }
    /// Delta t (s).
    double time_step(double L0) const { return time_step_ratio * nominal_dragging_time(L0); }
    /// End of the run 2 T0 + T_avg (s).
    double end_time(double L0) const
    {
      return (2. + averaging_ratio) * nominal_dragging_time(L0);
    }

    /// The entries of subsection "Loading", each bound to its member.
    void entries(ParameterEntries &e);
    /// Throws ParameterError naming the entry.
    void validate() const;
  };
} // namespace granular
