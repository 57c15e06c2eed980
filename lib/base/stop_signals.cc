// The programs' stop signals. See stop_signals.h.
#include "base/stop_signals.h"

#include <csignal>

namespace granular
{
  namespace
  {
    /// 0, a signal number, or -1 (see stop_request()).
    volatile std::sig_atomic_t stop_request_flag = 0;

    /// A single run: the first SIGINT/SIGTERM asks for the stop, a second one ends the
    /// process at once.
    extern "C" void on_stop_signal_ending(const int signal)
    {
      if (stop_request_flag > 0)
        {
          std::signal(signal, SIG_DFL);
          std::raise(signal);
          return;
        }
      stop_request_flag = signal;
    }

    /// A sweep: every SIGINT/SIGTERM is recorded.
    extern "C" void on_stop_signal_recorded(const int signal)
    {
      stop_request_flag = signal;
    }

    /// SIGPIPE asks for the same stop, every time, but never ends the process: the next
    /// progress line raises it again before the step's checkpoint is written.
    extern "C" void on_broken_pipe(int)
    {
      if (stop_request_flag == 0)
        stop_request_flag = SIGPIPE;
    }
  } // namespace

  int stop_request()
  {
    return stop_request_flag;
  }

  void request_stop(const int request)
  {
    stop_request_flag = request;
  }

  StopSignalHandlers::StopSignalHandlers(const SecondSignal second, const bool broken_pipe)
    : broken_pipe_(broken_pipe)
  {
    stop_request_flag = 0;
    const auto handler = second == SecondSignal::ends_process ? on_stop_signal_ending :
                                                                 on_stop_signal_recorded;
    previous_int_  = std::signal(SIGINT, handler);
    previous_term_ = std::signal(SIGTERM, handler);
    if (broken_pipe_)
      previous_pipe_ = std::signal(SIGPIPE, on_broken_pipe);
  }

  StopSignalHandlers::~StopSignalHandlers()
  {
    std::signal(SIGINT, previous_int_);
    std::signal(SIGTERM, previous_term_);
    if (broken_pipe_)
      std::signal(SIGPIPE, previous_pipe_);
    stop_request_flag = 0;
  }
} // namespace granular
