#pragma once
/**
 * @file micromechanical_test.h
 * One run of the micromechanical test (spec §2, §5.3, §8.2): the time loop that
 * couples the rubber block (FEM) and the particle (DEM), measures the macroscopic
 * friction coefficient and writes the outputs.
 */
#include "coupling/run_parameters.h"

#include <functional>
#include <stdexcept>
#include <string>

namespace granular
{
  /// The row of summary.csv (spec §8.2). Units of spec §1; times in s.
  struct RunSummary
  {
    double       kbar = 0., kbar_F = 0., kbar_V = 0., kbar_spread = 0.;
    double       pressure = 0., slip_velocity = 0., relaxation_time = 0., payne_d = 0.;
    double       r1 = 0., r2 = 0., p1 = 0., p2 = 0.;
    double       energy_balance_error = 0.;
    unsigned int steps = 0, newton_iterations = 0, cutbacks = 0;
    double       wall_time = 0.;
    double       time_assembly = 0., time_factorization = 0., time_solve = 0.,
                 time_particle = 0., time_output = 0.;
    /// frictional dissipation per interface and DEM damping dissipation over the
    /// averaging window (N mm per mm thickness)
    double       dissipation_rubber_surface = 0., dissipation_rubber_particle = 0.,
                 dissipation_particle_surface = 0., dissipation_damping = 0.,
                 dissipation_viscous = 0.;
    double       mean_normal_force = 0.;          ///< mean F_N over the window (N/mm)
    double       mean_particle_speed = 0.;        ///< mean |v_x| over the window (mm/s)
    double       mean_rolling_speed  = 0.;        ///< mean |omega| r0 over the window (mm/s)
    unsigned long long dem_substeps = 0;          ///< explicit particle sub-steps in all
    unsigned long      factorizations = 0;        ///< UMFPACK factorizations in all
    unsigned long      coupling_passes = 0;       ///< extra particle/rubber passes (sub-iterations)
    /// algorithmic dissipation of the Newmark integrator over the averaging window (rubber
    /// and, monolithic coupling, particle; fem::BlockEnergies::numerical_dissipation), N mm
    /// per mm: a term of the energy balance, not a physical dissipation (not in kbar_F)
    double             dissipation_numerical = 0.;
    /// assemblies of the Newton system (line-search trials included) and the Newton
    /// iterations of attempts that failed and were cut back: with newton_iterations (the
    /// accepted attempts only) the whole cost of the nonlinear solves
    unsigned long      assemblies = 0, failed_newton_iterations = 0;
  };

  /// Thrown by run_micromechanical_test() when it stopped on request (SIGINT, SIGTERM or
  /// request_checkpoint_and_stop()) after writing checkpoint.bin; continue with --restart.
  class RunInterrupted : public std::runtime_error
  {
  public:
    RunInterrupted(const std::string &message, int signal)
      : std::runtime_error(message)
      , signal_(signal)
    {}
    /// The signal that stopped the run (0: a programmatic request).
    int signal() const { return signal_; }

  private:
    int signal_;
  };

  /// Asks the running test to write checkpoint.bin after the step in progress and stop with
  /// RunInterrupted (what SIGINT and SIGTERM do while a run with checkpoints is in progress).
  /// Async-signal-safe. Ignored by runs without checkpoints (Output/Checkpoint interval and
  /// Checkpoint step interval both 0).
  void request_checkpoint_and_stop();

  /// CSV header and row of summary.csv (same column order).
  std::string summary_csv(const RunSummary &summary);

  /// A few human-readable lines for the terminal.
  std::string format_summary(const RunSummary &summary);

  /**
   * Runs the micromechanical test described by @p parameters, writing into
   * parameters.output.output_directory: parameters.prm (the resolved parameter set,
   * from @p prm), history.csv, summary.csv (atomically, at the end), solution.pvd and
   * solution-NNNNN.vtu. Prints progress to stdout about once per
   * Output/Progress interval.
   * @p after_each_step, if set, is called after every time step (a sweep's rank 0 uses
   * it to answer the other ranks while it computes a point itself).
   *
   * Checkpoints (Output/Checkpoint interval, Checkpoint step interval): the complete state
   * of the run is written atomically to checkpoint.bin; with parameters.output.restart
   * (--restart) the run continues from there and produces bit for bit the outputs of an
   * uninterrupted run (history.csv is cut back to the checkpoint's last row, the .pvd
   * collections keep their records). checkpoint.bin is removed when the run completes.
   * While a run with checkpoints is in progress, SIGINT and SIGTERM make it write a
   * checkpoint after the current step and throw RunInterrupted.
   *
   * Throws std::runtime_error if the rubber solve fails after all cut-backs (nothing
   * is written to summary.csv then); with restart, std::runtime_error before any output
   * is touched if checkpoint.bin is missing or unreadable, or ParameterError naming the
   * entries if it was written with different parameters (entries of subsection Output may
   * differ).
   */
  RunSummary run_micromechanical_test(const RunParameters &parameters,
                                      const dealii::ParameterHandler &prm,
                                      const std::function<void()> &after_each_step = {});
} // namespace granular
