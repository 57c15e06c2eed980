#include "coupling/output_parameters.h"

#include "base/parameter_entries.h"
#include "base/parameter_error.h"

namespace granular
{
  using dealii::Patterns::Double;
  using dealii::Patterns::Integer;

  void OutputParameters::entries(ParameterEntries &e)
  {
    e.subsection("Output", [&] {
      e.entry(output_directory, "Output directory", "output",
              "Directory for all results (created if missing). The command "
              "line option --output-directory overrides it.");
      e.entry(vtu_interval, "VTU output interval", "100",
              "Write solution-NNNNN.vtu, surface-NNNNN.vtu and (with a particle) "
              "particle-NNNNN.vtu every N time "
              "steps of Loading/Time step, NNNNN = the step (0: no ParaView "
              "output). Adaptive time steps are not shortened to land on these "
              "times (the solution does not depend on any Output entry): the VTU "
              "is the state at the end of the step that reaches the time, and the "
              ".pvd collections carry its true time in s.");
      e.entry(history_interval, "History output interval", "1", Integer(1),
              "Write one row of history.csv every N time steps of Loading/Time "
              "step. With adaptive time steps the rows a long step steps over are "
              "interpolated linearly (newton_iterations = 0 marks them).");
      e.entry(progress_interval, "Progress interval", "1.0", Double(0.),
              "Wall-clock time in s between progress lines on the terminal.");
      e.entry(verbose, "Verbose", "false", "Print one convergence line per Newton iteration.");
      e.entry(checkpoint_interval, "Checkpoint interval", "10", Double(0.),
              "Wall-clock time in minutes between checkpoints: the complete state "
              "of the run is written atomically to checkpoint.bin in the output "
              "directory, also when the run receives SIGINT or SIGTERM (after the "
              "step in progress). Continue an interrupted run with --restart; the "
              "restarted run reproduces the uninterrupted one exactly. 0: no "
              "checkpoints by time. The points of a sweep write theirs in their own "
              "directories, and a resumed sweep continues a stopped point from it.");
      e.entry(checkpoint_step_interval, "Checkpoint step interval", "0",
              "Also write checkpoint.bin every N time steps of Loading/Time step "
              "(adaptive steps: after the step that reaches a multiple of N; 0: "
              "only by time), for checkpoints at reproducible instants.");
    });
  }

  void OutputParameters::validate() const
  {
    if (output_directory.empty())
      throw ParameterError("Output/Output directory", "must not be empty");
  }
} // namespace granular
