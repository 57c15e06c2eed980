#pragma once
/**
 * @file run_output.h
 * What the time loop of the micromechanical test writes while it runs (docs/methods.md §8.2): the
 * output directory's guard, the rows of history.csv on the grid of the reference step
 * (rows a long step steps over are interpolated), the ParaView collections
 * solution.pvd and particle.pvd, and the progress lines with the remaining time.
 */
#include "base/atomic_file.h"
#include "coupling/energy_balance.h"
#include "coupling/loading_program.h"
#include "coupling/macroscopic_friction.h"
#include "coupling/output_parameters.h"
#include "coupling/run_record.h"
#include "coupling/step_planner.h"

#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace granular::coupling
{
  /**
   * Makes @p dir usable for a fresh run: the results of an earlier run there (summary.csv,
   * energy.csv,
   * history.csv, checkpoint.bin, error.txt, the .pvd collections and their VTUs) are
   * removed with @p overwrite, and refused without it.
   * @throws ParameterError naming Output/Output directory if @p dir holds an earlier run's
   *         results and @p overwrite is false, or a sweep's (sweep.csv), with or without
   *         @p overwrite (nothing is touched then).
   */
  void claim_output_directory(const std::string &dir, bool overwrite);

  /// The files directly in @p dir that a single run writes (summary.csv, energy.csv,
  /// history.csv, checkpoint.bin, error.txt, the .pvd collections and their VTUs, the
  /// directory attempts/ of recorded attempts), sorted;
  /// empty if there are none or @p dir is not a directory.
  std::vector<std::string> single_run_results(const std::string &dir);

  /**
   * Removes the temporary files that an atomic write left in @p dir when its process was
   * killed while writing (NAME.tmp.PID, write_file_atomically()). Call it only while
   * holding the directory's lock (DirectoryLock): no other run writes there then.
   */
  void remove_stale_temporary_files(const std::string &dir);

  /**
   * The phases of a run for its remaining-time estimate (RemainingTime): the load ramp, the
   * hold, the dragging before the averaging window, and the window, which costs what the
   * dragging did; with a particle (@p rolls) twice that until one T0 of the window has run
   * (the measurements behind the factor: docs/performance.md#remaining-time).
   * @param loading the platen's program (its ramp time and T0, s)
   * @param t_end   the run's end (s)
   * @param rolls   whether a particle rolls in the interface
   * @return the four phases, in the order of the run
   */
  std::vector<RemainingTime::Phase> remaining_time_phases(const LoadingProgram &loading,
                                                          double t_end, bool rolls);

  /// See the file comment. One per run.
  class RunOutput
  {
  public:
    /**
     * @param output   the Output subsection (directory, intervals)
     * @param loading  the platen's program (T0, the phases)
     * @param dt       the reference step Δt (s), the grid of history.csv
     * @param n_steps  the run's length in reference steps
     * @param L0       the cell's length (mm): the window of the particle's drawn copies
     * @param adaptive Solver/Time step control = adaptive (the progress line shows the
     *                 step's multiple of Δt)
     * @param block, @param scheme, @param energy the run's parts (not owned)
     */
    RunOutput(const OutputParameters &output, const LoadingProgram &loading, double dt,
              unsigned int n_steps, double L0, bool adaptive,
              const fem::RubberBlock &block, const CouplingScheme &scheme,
              const EnergyAccountant &energy);

    /// Opens history.csv (a restart cuts it back to @p restart_bytes and appends).
    void open_history(bool restart, std::uint64_t restart_bytes);

    /// The row of history.csv after the step measured by @p m (docs/methods.md §8.2).
    HistoryRow row(const StepMeasurements &m, const fem::StepStatistics &stats,
                   const MacroscopicFriction &friction) const;

    /**
     * Writes the rows of history.csv on the grid that the step @p plan reaches: those it
     * steps over interpolated between @p previous (the row of the step before) and @p row,
     * then @p row itself where the grid asks for it.
     */
    void record_history(const StepPlan &plan, const HistoryRow &previous,
                        const HistoryRow &row);

    /// Writes the VTUs numbered @p number (the grid step of their output time) with the
    /// state at time @p t (s), and adds them to the .pvd collections: the deformed rubber
    /// (solution), the particle with its periodic images (particle, only with a particle)
    /// and the rigid surface y = 0 under the rubber (surface; its records are those of
    /// solution.pvd, so that a restart needs no records of its own).
    void write_vtu(unsigned int number, double t);
    /// The number of the VTU output due after the step @p plan: the last output time
    /// (a multiple of Output/VTU output interval) that the step reached; none if it
    /// reached none. An adaptive step is not shortened to land on an output time, so the
    /// VTU shows the state at the end of the step, at its true time in the .pvd.
    std::optional<unsigned int> vtu_due(const StepPlan &plan) const
    {
      if (vtu_interval_ == 0 || plan.step / vtu_interval_ == plan.k / vtu_interval_)
        return std::nullopt;
      return plan.step / vtu_interval_ * vtu_interval_;
    }

    /// After a step: the step's wall time for the remaining-time estimate, and the
    /// progress line (docs/methods.md §8.1) once Output/Progress interval has passed or at the end.
    void progress(const StepPlan &plan, const StepMeasurements &m,
                  const fem::StepStatistics &stats, const MacroscopicFriction &friction,
                  double step_seconds);

    /**
     * Opens particles.csv (with a particle; docs/outputs.md#particlescsv): a fresh run writes
     * its header and the rows of t = 0; a restart at @p t_restart (s) keeps the rows up to
     * that time (rewritten atomically) and appends.
     * @throws std::runtime_error if the file cannot be read or written.
     */
    void open_particles(bool restart, double t_restart);

    /// Flushes history.csv and returns its size (bytes), for a checkpoint.
    std::uint64_t flush_history() { return history_->flush(); }
    void          close_history() { history_->close(); }

    /// The ParaView collections (checkpointed with the run).
    PvdCollection &solution_pvd() { return solution_pvd_; }
    PvdCollection &particle_pvd() { return particle_pvd_; }

  private:
    std::string                  dir_;
    unsigned int                 history_interval_, vtu_interval_;
    double                       progress_interval_;
    const LoadingProgram        &loading_;
    double                       dt_;
    unsigned int                 n_steps_;
    double                       L0_;
    const fem::RubberBlock      &block_;
    const CouplingScheme        &scheme_;
    const EnergyAccountant      &energy_;
    bool                         adaptive_;
    PvdCollection                solution_pvd_, particle_pvd_, surface_pvd_;
    std::optional<HistoryWriter> history_;
    /// particles.csv: one row per particle at every step that reaches a history row's time
    std::ofstream particles_csv_;
    /// Writes the rows of particles.csv at time @p t (s), the state at the last committed step.
    void write_particles_csv(double t);
    RemainingTime                remaining_;
    double                       seconds_since_progress_ = 0.;
  };
} // namespace granular::coupling
