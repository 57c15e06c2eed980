#pragma once
/**
 * @file output_parameters.h
 * Subsection "Output": where and how often results are written (docs/methods.md §8.2).
 */
#include <string>

namespace granular
{
  class ParameterEntries;

  /// Parameters of subsection "Output".
  struct OutputParameters
  {
    std::string  output_directory = "output"; ///< results directory
    unsigned int vtu_interval     = 100;      ///< ParaView output every N steps (0: off)
    unsigned int history_interval = 1;        ///< history.csv row every N steps
    double       progress_interval = 1.0;     ///< wall-clock seconds between progress lines
    bool         verbose          = false;    ///< Newton convergence line per iteration
    /// checkpoint.bin every so many minutes of wall-clock time (0: none by time)
    double       checkpoint_interval = 10.;
    /// checkpoint.bin every N time steps (0: none by step count)
    unsigned int checkpoint_step_interval = 0;
    /// not a parameter entry: the command line's --record-attempts (the most failed Newton
    /// attempts written to attempts/ for replay-attempt; 0: none)
    unsigned int recorded_failed_attempts = 0;
    /// not a parameter entry: --record-attempts' EVERY (also every N-th attempt, failed
    /// or not; 0: none)
    unsigned int recorded_attempt_interval = 0;
    /// not a parameter entry: --record-attempts' FROM (t/T0 from which attempts are
    /// recorded)
    double       recorded_attempts_from = 0.;
    /// true if attempts are recorded at all
    bool records_attempts() const
    {
      return recorded_failed_attempts > 0 || recorded_attempt_interval > 0;
    }
    /// not a parameter entry: the command line's --restart (continue the run in
    /// output_directory from its checkpoint.bin)
    bool         restart = false;
    /// not a parameter entry: the command line's --overwrite (replace the results of an
    /// earlier run in output_directory; without it such a directory is refused)
    bool         overwrite = false;
    /// not a parameter entry: whether a run with checkpoints installs its own SIGINT and
    /// SIGTERM handlers (false for the points of a sweep, whose handlers ask the point in
    /// progress for its checkpoint with request_checkpoint_and_stop())
    bool         stop_signal_handlers = true;
    /// true if checkpoints are written at all
    bool checkpoints() const { return checkpoint_interval > 0. || checkpoint_step_interval > 0; }

    /// The entries of subsection "Output", each bound to its member.
    void entries(ParameterEntries &e);
    /// Throws ParameterError naming the entry.
    void validate() const;
  };
} // namespace granular
