#pragma once
/**
 * @file micromechanical_run.h
 * One run of the micromechanical test (docs/methods.md §2, §5.3, §8.2), the time loop that
 * couples the rubber block (FEM) and the particle (DEM): set up the block, the particle and
 * the scheme that couples them, restart from a checkpoint or start clean, then the time
 * loop (plan the step, advance it until it is accepted, record, checkpoint), then the
 * summary. Its parts: the step planner (step_planner.h: landmarks and adaptive steps), the
 * energy accountant (energy_balance.h) and its ledger per component (energy_ledger.h:
 * energy.csv), the run's outputs (run_output.h: history.csv, VTU, progress),
 * checkpoint/restart and the stop signals (checkpoint.h). run_micromechanical_test() is its
 * one-call interface.
 */
#include "base/directory_lock.h"
#include "base/stop_signals.h"
#include "coupling/attempt_record.h"
#include "coupling/checkpoint.h"
#include "coupling/coupling_scheme.h"
#include "coupling/energy_balance.h"
#include "coupling/energy_ledger.h"
#include "coupling/loading_program.h"
#include "coupling/macroscopic_friction.h"
#include "coupling/run_output.h"
#include "coupling/run_parameters.h"
#include "coupling/run_record.h"
#include "coupling/step_planner.h"

#include <deal.II/base/timer.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dealii { class ParameterHandler; }

namespace granular::coupling
{
  /// The time loop's counters that a checkpoint carries besides the block, the scheme,
  /// the energy accountant, the friction average and the .pvd records.
  struct LoopState
  {
    /// completed reference time steps (Loading/Time step): t = step dt
    unsigned int step              = 0;
    /// computed time steps (= step with fixed time steps); the accepted ones
    unsigned int steps_taken       = 0;
    unsigned int newton_iterations = 0;
    /// rejected adaptive steps (Solver/Step rejection) and the Newton iterations spent in
    /// them, failed attempts of their cut-backs included
    unsigned int  rejected_steps             = 0;
    unsigned long rejected_newton_iterations = 0;
    /// the assemblies (all, and the line-search trials among them) and factorizations of the
    /// rejected steps, which the restore of the kept state takes out of the block's counters
    unsigned long rejected_assemblies = 0, rejected_line_search_assemblies = 0,
                  rejected_factorizations = 0;
    /// wall time and TimerOutput sections (assembly, factorization, solve, particle,
    /// output) of the processes before this one (s)
    double                wall_time = 0.;
    std::array<double, 5> section_times{};
    std::uint64_t         history_bytes = 0; ///< size of history.csv at the checkpoint
    /// largest penetration so far into the surface and into the particle (mm)
    double max_penetration_surface = 0., max_penetration_particle = 0.;
    /// history row of the last computed step (adaptive steps interpolate from it)
    HistoryRow last_row;

    template <class Archive>
    void serialize(Archive &ar, const unsigned int)
    {
      ar &step &steps_taken &newton_iterations &rejected_steps &rejected_newton_iterations
        &rejected_assemblies &rejected_line_search_assemblies &rejected_factorizations
        &wall_time &section_times &history_bytes &max_penetration_surface
        &max_penetration_particle &last_row;
    }

    /// Takes the penetrations of the committed state after a step into the maxima.
    void record_penetrations(const fem::RubberBlock &block, const CouplingScheme &scheme);
  };

  /// See the file comment and run_micromechanical_test().
  class MicromechanicalRun
  {
  public:
    /**
     * @param parameters      the run (parameters.output.restart: continue from the
     *                        output directory's checkpoint.bin)
     * @param prm             the parsed parameter file (written to parameters.prm, and
     *                        compared with a checkpoint's)
     * @param after_each_step called after every time step, if set
     */
    MicromechanicalRun(const RunParameters &parameters, const dealii::ParameterHandler &prm,
                        std::function<void()> after_each_step = {});
    ~MicromechanicalRun();

    /// Runs the test to its end; see run_micromechanical_test() for outputs and errors.
    RunSummary run();

    /// For comparisons (tests): the adaptive steps end at the grid steps @p ends
    /// (StepPlanner::prescribe_step_ends()). Call before run().
    void take_steps_ending_at(std::vector<unsigned int> ends)
    {
      prescribed_step_ends = std::move(ends);
    }

  private:
    using Clock = std::chrono::steady_clock;

    void set_up();
    /// "particle <shape>", "N particles (<shape> at x = ..., ...)" or "bare interface".
    std::string particle_description() const;
    void restart_or_start();
    /// A step accepted by the step control, with what it measured.
    struct AcceptedStep
    {
      StepPlan            plan;
      fem::StepStatistics stats;
      StepMeasurements    measurements;
    };
    /// Advances the step that starts at the reference step @p k until it is accepted: keep
    /// the state (if the step may be rejected), advance, measure, and on a rejection
    /// restore the state and try again with half the length (Solver/Step rejection).
    AcceptedStep advance_accepted_step(unsigned int k);
    StepMeasurements measure(const StepPlan &plan, const fem::StepStatistics &stats);
    void record(const StepPlan &plan, const fem::StepStatistics &stats,
                const StepMeasurements &m);
    void check_and_log(const StepPlan &plan, const StepMeasurements &m);
    void reject(const fem::StepStatistics &stats);
    void checkpoint_or_stop(const StepPlan &plan);
    void write_checkpoint();
    /// The run's whole state (what a checkpoint carries after its header), with the loop
    /// counters @p loop; load_state() reads it back into this run's objects.
    void save_state(boost::archive::binary_oarchive &ar, const LoopState &loop) const;
    void load_state(boost::archive::binary_iarchive &ar);
    RunSummary finish();

    void lock_output_directory();

    const RunParameters           &P;
    const dealii::ParameterHandler &prm;
    const std::function<void()>    after_each_step;
    const Clock::time_point        wall_start;
    /// a single run with checkpoints: its SIGINT/SIGTERM/SIGPIPE handlers (a sweep's point
    /// answers the sweep's, Output parameters' stop_signal_handlers = false)
    std::optional<StopSignalHandlers> stop_handlers;
    const LoadingProgram           loading;
    const double                   dt, t_end;
    const unsigned int             n_steps;

    std::unique_ptr<DirectoryLock>     output_lock;
    dealii::TimerOutput                timer;
    std::unique_ptr<fem::RubberBlock>  block;
    std::unique_ptr<CouplingScheme>    scheme;
    /// the attempts written for replay-attempt (Output/Record failed attempts), or nullptr
    std::unique_ptr<AttemptRecorder>   attempts;
    const dem::Particle               *particle = nullptr;
    std::unique_ptr<MacroscopicFriction> friction;
    std::unique_ptr<EnergyAccountant>  energy;
    std::unique_ptr<EnergyLedger>      ledger;
    std::unique_ptr<StepPlanner>       planner;
    std::unique_ptr<RunOutput>         output;
    LoopState                          S;
    const CheckpointFile               checkpoint;
    const CheckpointSchedule           checkpoint_schedule;
    Clock::time_point                  last_checkpoint;
    /// the state before a step that may be rejected (save_state(), in memory)
    std::string                        kept_state;
    std::vector<unsigned int>          prescribed_step_ends;
  };
} // namespace granular::coupling

namespace granular
{
  /**
   * Runs the micromechanical test described by @p parameters, writing into
   * parameters.output.output_directory: parameters.prm (the resolved parameter set,
   * from @p prm), history.csv, summary.csv (atomically, at the end), solution.pvd and
   * solution-NNNNN.vtu, particle.pvd and particle-NNNNN.vtu. Prints progress to stdout
   * about once per Output/Progress interval.
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
   * Throws std::runtime_error if the rubber solve fails after all cut-backs or the energy
   * balance fails (nothing is written to summary.csv then); with restart,
   * std::runtime_error before any output is touched if checkpoint.bin is missing or
   * unreadable, or ParameterError naming the entries if it was written with different
   * parameters (entries of subsection Output may differ).
   */
  RunSummary run_micromechanical_test(const RunParameters &parameters,
                                      const dealii::ParameterHandler &prm,
                                      const std::function<void()> &after_each_step = {});
} // namespace granular
