#pragma once
/**
 * @file checkpoint.h
 * Checkpoint/restart of a single run (docs/checkpoints.md); the signals that ask for one are
 * base/stop_signals.h's: the first SIGINT/SIGTERM asks the run to write checkpoint.bin after
 * the step in progress and stop with RunInterrupted; a second one ends the process at once.
 * SIGPIPE (standard output closed) asks for the same stop and never ends the process. The file has a
 * text header of four lines (a magic string, the format number, the program version, the
 * payload's size and CRC-32) and then the payload, a Boost binary archive of the run's
 * physics entries (everything outside subsection Output, which a restart must match) and
 * the run's state as the caller archives it. It is written atomically; a checkpoint whose
 * header, size or checksum does not match, or that another version wrote, is refused.
 */
#include "base/archive_fwd.h"

#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace dealii { class ParameterHandler; }

namespace granular
{
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

  namespace coupling
  {
    /// The format of the state the coupling scheme and the rubber block write
    /// (CouplingScheme::saved_state(): what a recorded attempt holds, attempt_record.h).
    /// Up to 13 it was also the checkpoint's format (checkpoint_format): 2 the coupling
    /// scheme, the energy accountant and the loop counters archived apart, the block's
    /// solvers and quadrature-point history with their own archives; 3 the adaptive time
    /// step's state; 4 the energy ledger (docs/methods.md §2.2); 5 the text header with the
    /// program version, the payload's size and its CRC-32; 6 the counters of rejected steps
    /// (Solver/Step rejection); 7 the assemblies by purpose (line-search trials, failed and
    /// rejected attempts); 8 the linear solver's GMRES work since its last factorization;
    /// 9 the rubber-particle contact's tangential gaps of the step form; 10 the cut-back
    /// memory's remembered sub-step; 11 the rubber's inertial acceleration of t_n (Bossak);
    /// 12 the solves left that start from the damped predictor; 13 without the state of the
    /// retired cut-back memory and Bossak integrator (10, 11) and the particle's Newmark
    /// acceleration. A change of what the scheme or the block saves raises it and
    /// checkpoint_format.
    constexpr unsigned int scheme_state_format = 13;
    /// The format of a checkpoint: the scheme's state (scheme_state_format) and the run's
    /// own (loop counters, energy accountant and ledger, friction average, .pvd records,
    /// step planner). 14 the friction average's signed mean of F_T/F_N and its time with
    /// F_T < 0; 15 the energy accountant's velocity-update dissipation at the window's start
    /// (Solver/Rubber-particle velocity update; the rubber block saves its own total only with
    /// that entry on, so scheme_state_format stays). Checkpoints of other formats (earlier
    /// builds) are not read.
    constexpr unsigned int checkpoint_format = 15;

    /// Writes @p payload (a Boost binary archive of a run's state) to @p path atomically,
    /// after a text header of four lines: @p magic, "format N" (@p format: checkpoint_format
    /// or scheme_state_format), "program VERSION" and "payload BYTES crc32 HEX". Throws
    /// std::runtime_error if the file cannot be written.
    void write_state_file(const std::string &path, const std::string &magic,
                          const std::string &payload, unsigned int format);
    /**
     * The payload of a file write_state_file() wrote, read from @p in and checked.
     * @param magic        the first line it must have
     * @param same_program whether a file another program version wrote is refused
     *                     (checkpoints; a recorded attempt of the same format is read)
     * @param format       the format it must have (checkpoint_format, scheme_state_format)
     * @throws std::runtime_error saying what is wrong: another file kind or format, another
     *         program version, a damaged header, a truncated or damaged payload.
     */
    std::string read_state_file(std::istream &in, const std::string &magic, bool same_program,
                                unsigned int format);

    /**
     * When a run with checkpoints writes one: after the first step that reaches a multiple
     * of Output/Checkpoint step interval (checkpoint times are not landmarks of the time
     * steps, so writing checkpoints does not change the run), once Output/Checkpoint
     * interval minutes of wall time have passed since the last one, and after the step in
     * progress when a stop was requested (SIGINT, SIGTERM, request_checkpoint_and_stop()).
     */
    class CheckpointSchedule
    {
    public:
      /// @p step_interval in reference steps (0: none), @p minutes of wall time (0: none)
      CheckpointSchedule(unsigned int step_interval, double minutes)
        : step_interval_(step_interval)
        , seconds_(60. * minutes)
      {}
      /// true if a checkpoint is due after a step of @p m reference steps that ended at
      /// grid step @p step, @p seconds_since_last of wall time after the last checkpoint
      /// (or the start), with the stop request @p stop (stop_request()).
      bool due(unsigned int step, unsigned int m, double seconds_since_last, int stop) const
      {
        const bool by_steps =
          step_interval_ > 0 && step / step_interval_ > (step - m) / step_interval_;
        const bool by_time = seconds_ > 0. && seconds_since_last >= seconds_;
        return stop != 0 || by_steps || by_time;
      }

    private:
      unsigned int step_interval_;
      double       seconds_;
    };

    /// checkpoint.bin of a run with the parameters @p prm.
    class CheckpointFile
    {
    public:
      using Writer = std::function<void(boost::archive::binary_oarchive &)>;
      using Reader = std::function<void(boost::archive::binary_iarchive &)>;

      CheckpointFile(std::string path, const dealii::ParameterHandler &prm);
      const std::string &path() const { return path_; }

      /// Writes the header and then what @p state archives, atomically.
      void write(const Writer &state) const;
      /**
       * Reads the header, checks that the checkpoint was written with the same physics,
       * then lets @p state read the rest. Nothing else is touched.
       * @throws ParameterError naming the entries that differ (only subsection Output may);
       *         std::runtime_error ("--restart: cannot open/use PATH: ...") if the file is
       *         missing, of another format or program version, truncated, damaged (its
       *         CRC-32 does not match) or unreadable.
       */
      void read(const Reader &state) const;
      /**
       * Why read() would refuse the file without reading the run's state: "" if it exists,
       * has this program's format and version, an intact payload (its size and CRC-32)
       * and the physics of now; otherwise the reason (what read() would throw). Touches
       * nothing. Never throws.
       */
      std::string unusable_reason() const;

    private:
      std::string                                      path_;
      std::vector<std::pair<std::string, std::string>> entries_; ///< physics entries now
    };
  } // namespace coupling
} // namespace granular
