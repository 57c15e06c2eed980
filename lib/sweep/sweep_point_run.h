#pragma once
/**
 * @file sweep_point_run.h
 * One point of a sweep, run serially in its own subdirectory (from the checkpoint of a stopped
 * attempt if there is a usable one), and the signals that stop a sweep: SIGINT and SIGTERM
 * stop the point in progress after its current time step (with its checkpoint), no new point
 * starts, and the sweep exits with 128 + the signal (docs/sweeps.md).
 */
#include "base/stop_signals.h"
#include "sweep/sweep_table.h"

#include <functional>

namespace dealii { class ParameterHandler; }

namespace granular::sweep
{
  /// The signal (SIGINT, SIGTERM) that asked the sweep to stop, 0 while none did
  /// (base/stop_signals.h's stop request).
  int stop_signal();
  /// Records @p signal as the one that stops the sweep (a signal another rank received).
  void set_stop_signal(int signal);

  /// SIGINT and SIGTERM handlers for the sweep's lifetime (base/stop_signals.h: every signal
  /// is recorded, none ends the process); the previous handlers are restored at the end.
  class SweepSignalHandlers
  {
  public:
    SweepSignalHandlers();

  private:
    StopSignalHandlers handlers_;
  };

  /**
   * Runs @p point of the sweep of @p parameters (@p prm: the sweep's handler) in its
   * subdirectory, its terminal output into run.log there: from the checkpoint.bin of a stopped
   * attempt if there is a usable one, else from its start. @p after_each_step is called after
   * every time step. Never throws: a failure is the result "failed" with its message (also in
   * error.txt), a stop by a signal the result "stopped".
   */
  PointResult run_point(const ProgramParameters &parameters, const dealii::ParameterHandler &prm,
                        const SweepPoint &point,
                        const std::function<void()> &after_each_step = {});
} // namespace granular::sweep
