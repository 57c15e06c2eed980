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
              "Write the ParaView files (docs/outputs.md) every N time steps of "
              "Loading/Time step (0: none); with adaptive steps, the state at the end of "
              "the step that reaches the time, with its true time in the .pvd files.");
      e.entry(history_interval, "History output interval", "1", Integer(1),
              "Write one row of history.csv every N time steps of Loading/Time step "
              "(rows inside a long adaptive step are interpolated: newton_iterations = 0).");
      e.entry(progress_interval, "Progress interval", "1.0", Double(0.),
              "Wall-clock time in s between progress lines on the terminal.");
      e.entry(verbose, "Verbose", "false", "Print one convergence line per Newton iteration.");
      e.entry(checkpoint_interval, "Checkpoint interval", "10", Double(0.),
              "Wall-clock minutes between checkpoints (checkpoint.bin, also written on "
              "SIGINT or SIGTERM; 0: none by time). --restart continues the run exactly "
              "as if uninterrupted (docs/checkpoints.md).");
      e.entry(checkpoint_step_interval, "Checkpoint step interval", "0",
              "Also write checkpoint.bin every N time steps of Loading/Time step (0: only "
              "by time), for checkpoints at reproducible instants.");
    });
  }

  void OutputParameters::validate() const
  {
    if (output_directory.empty())
      throw ParameterError("Output/Output directory", "must not be empty");
  }
} // namespace granular
