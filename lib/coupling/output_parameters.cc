#include "coupling/output_parameters.h"

#include "base/parameter_error.h"

#include <deal.II/base/parameter_handler.h>

namespace granular
{
  using dealii::Patterns::Anything;
  using dealii::Patterns::Bool;
  using dealii::Patterns::Double;
  using dealii::Patterns::Integer;

  void OutputParameters::declare_parameters(dealii::ParameterHandler &prm)
  {
    prm.enter_subsection("Output");
    prm.declare_entry("Output directory", "output", Anything(),
                      "Directory for all results (created if missing). The command "
                      "line option --output-directory overrides it.");
    prm.declare_entry("VTU output interval", "100", Integer(0),
                      "Write solution-NNNNN.vtu and particle-NNNNN.vtu every N time "
                      "steps (0: no ParaView output). The .pvd collections carry the "
                      "physical time in s.");
    prm.declare_entry("History output interval", "1", Integer(1),
                      "Write one row of history.csv every N time steps.");
    prm.declare_entry("Progress interval", "1.0", Double(0.),
                      "Wall-clock time in s between progress lines on the terminal.");
    prm.declare_entry("Verbose", "false", Bool(),
                      "Print one convergence line per Newton iteration.");
    prm.declare_entry("Checkpoint interval", "10", Double(0.),
                      "Wall-clock time in minutes between checkpoints: the complete state "
                      "of the run is written atomically to checkpoint.bin in the output "
                      "directory, also when the run receives SIGINT or SIGTERM (after the "
                      "step in progress). Continue an interrupted run with --restart; the "
                      "restarted run reproduces the uninterrupted one exactly. 0: no "
                      "checkpoints by time. Single runs only (not the points of a sweep).");
    prm.declare_entry("Checkpoint step interval", "0", Integer(0),
                      "Also write checkpoint.bin every N time steps (0: only by time), for "
                      "checkpoints at reproducible instants.");
    prm.leave_subsection();
  }

  void OutputParameters::parse_parameters(dealii::ParameterHandler &prm)
  {
    prm.enter_subsection("Output");
    output_directory  = prm.get("Output directory");
    vtu_interval      = prm.get_integer("VTU output interval");
    history_interval  = prm.get_integer("History output interval");
    progress_interval = prm.get_double("Progress interval");
    verbose           = prm.get_bool("Verbose");
    checkpoint_interval      = prm.get_double("Checkpoint interval");
    checkpoint_step_interval = prm.get_integer("Checkpoint step interval");
    prm.leave_subsection();
  }

  void OutputParameters::validate() const
  {
    if (output_directory.empty())
      throw ParameterError("Output/Output directory", "must not be empty");
  }
} // namespace granular
