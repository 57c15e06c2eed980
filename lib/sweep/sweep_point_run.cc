// One point of a sweep and the sweep's stop signals. See sweep_point_run.h.
#include "sweep/sweep_point_run.h"

#include "base/atomic_file.h"
#include "base/csv_fields.h"
#include "base/stop_signals.h"
#include "coupling/checkpoint.h"
#include "coupling/micromechanical_run.h"

#include <deal.II/base/parameter_handler.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>

namespace granular::sweep
{
  namespace
  {
    namespace fs = std::filesystem;

    /// Restores std::cout's buffer when leaving scope.
    class CoutRedirect
    {
    public:
      explicit CoutRedirect(std::streambuf *b) : old_(std::cout.rdbuf(b)) {}
      /// The terminal's stream while redirected (for reports made meanwhile).
      std::streambuf *terminal() const { return old_; }
      ~CoutRedirect() { std::cout.rdbuf(old_); }
    private:
      std::streambuf *old_;
    };

    /// Thrown between two time steps of a point when the sweep was asked to stop.
    struct SweepStopped : std::runtime_error
    {
      SweepStopped()
        : std::runtime_error("stopped by signal " + std::to_string(stop_signal()) +
                             " before it completed; rerun the sweep to run it again")
      {}
    };
  } // namespace

  int stop_signal()
  {
    return std::max(stop_request(), 0);
  }

  void set_stop_signal(const int signal)
  {
    request_stop(signal);
  }

  SweepSignalHandlers::SweepSignalHandlers()
    : handlers_(StopSignalHandlers::SecondSignal::is_recorded, false)
  {}

  PointResult run_point(const ProgramParameters &parameters, const dealii::ParameterHandler &prm,
                        const SweepPoint &point, const std::function<void()> &after_each_step)
  {
    PointResult result;
    const std::string dir        = parameters.output.output_directory + "/" + point.name;
    const std::string checkpoint = dir + "/checkpoint.bin";
    try
      {
        fs::create_directories(dir);
        fs::remove(dir + "/error.txt");
        ProgramParameters        point_parameters = sweep_point_parameters(parameters, point);
        dealii::ParameterHandler point_prm;
        write_sweep_point_parameters(prm, point_parameters, point_prm);
        // a point without a complete summary.csv continues from the checkpoint of its
        // stopped attempt (bit for bit as if it had not stopped: docs/checkpoints.md) or,
        // without a usable one, runs again from its start, replacing the files of the
        // attempt
        std::string not_used;
        if (point_parameters.output.checkpoints() && fs::exists(checkpoint))
          {
            not_used = coupling::CheckpointFile(checkpoint, point_prm).unusable_reason();
            point_parameters.output.restart = not_used.empty();
          }
        point_parameters.output.overwrite = !point_parameters.output.restart;
        std::ofstream log(dir + "/run.log", point_parameters.output.restart ?
                                              std::ios::app :
                                              std::ios::trunc);
        CoutRedirect redirect(log.rdbuf());
        if (!not_used.empty())
          std::cout << "granular-interface: not continuing from " << checkpoint << " ("
                    << not_used << "); the point runs again from its start" << std::endl;
        if (stop_signal() != 0)
          throw SweepStopped();
        const bool     checkpoints = point_parameters.output.checkpoints();
        const RunSummary summary =
          run_micromechanical_test(point_parameters, point_prm, [&]() {
            if (after_each_step)
              after_each_step();
            if (stop_signal() == 0)
              return;
            if (!checkpoints)
              throw SweepStopped(); // between two steps: history.csv holds whole rows
            // else the run writes checkpoint.bin after this step and stops (RunInterrupted):
            // it answers the same stop request (base/stop_signals.h)
          });
        std::cout << format_summary(summary) << std::flush;
        result.status      = "ok";
        result.kbar        = summary.kbar;
        const std::string csv = summary_csv(summary);
        result.summary_row = strip_newline(csv.substr(csv.find('\n') + 1));
      }
    catch (const SweepStopped &e)
      {
        result.status = "stopped";
        result.signal = stop_signal();
        result.error  = e.what();
      }
    catch (const RunInterrupted &)
      {
        result.status = "stopped";
        result.signal = stop_signal();
        result.error  = "stopped by signal " + std::to_string(stop_signal()) +
                       " with its state in checkpoint.bin; rerun the sweep to continue it";
      }
    catch (const std::exception &e)
      {
        result.status = "failed";
        result.error  = e.what();
      }
    catch (...)
      {
        result.status = "failed";
        result.error  = "unknown exception";
      }
    if (result.status == "failed")
      {
        try
          {
            write_file_atomically(dir + "/error.txt", result.error + "\n");
          }
        catch (...)
          {}
        std::error_code ignored; // a failed attempt is not continued: the next starts over
        fs::remove(checkpoint, ignored);
      }
    return result;
  }
} // namespace granular::sweep
