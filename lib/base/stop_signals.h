#pragma once
/**
 * @file stop_signals.h
 * The programs' one stop-signal mechanism (docs/checkpoints.md, docs/sweeps.md): SIGINT and
 * SIGTERM (and, during a single run, SIGPIPE: its standard output closed) record a stop
 * request. A run with checkpoints answers it by writing checkpoint.bin after the step in
 * progress and stopping (coupling/checkpoint.h); a sweep starts no further point, and its
 * point in progress stops in the same way (sweep/sweep_point_run.h). Async-signal-safe: the
 * handlers only write one std::sig_atomic_t.
 */
namespace granular
{
  /// The pending stop request: 0 none, > 0 the signal number, -1 a request of the program
  /// itself (request_checkpoint_and_stop()).
  int stop_request();

  /// Records the stop request @p request (> 0 a signal, e.g. one another rank of a sweep
  /// received; -1 the program's own). Async-signal-safe.
  void request_stop(int request);

  /// Installs the SIGINT and SIGTERM handlers that record a stop request for the lifetime of
  /// the object, restores the previous ones at its end, and clears the request at both ends.
  class StopSignalHandlers
  {
  public:
    /// What a second SIGINT or SIGTERM does while a stop is pending.
    enum class SecondSignal
    {
      ends_process, ///< a single run: an impatient Ctrl-C ends the process at once
      is_recorded   ///< a sweep: it is recorded like the first (mpirun may repeat signals)
    };

    /// @p broken_pipe: SIGPIPE records a stop request too (when none is pending), and never
    /// ends the process.
    StopSignalHandlers(SecondSignal second, bool broken_pipe);
    ~StopSignalHandlers();
    StopSignalHandlers(const StopSignalHandlers &) = delete;
    StopSignalHandlers &operator=(const StopSignalHandlers &) = delete;

  private:
    bool broken_pipe_;
    void (*previous_int_)(int)  = nullptr;
    void (*previous_term_)(int) = nullptr;
    void (*previous_pipe_)(int) = nullptr;
  };
} // namespace granular
