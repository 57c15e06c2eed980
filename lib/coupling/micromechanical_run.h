#pragma once
/**
 * @file micromechanical_run.h
 * One run of the micromechanical test (docs/methods.md §2, §5.3, §8.2): the time loop that couples
 * the rubber block (FEM) and the particle (DEM), measures the macroscopic friction
 * coefficient and writes the outputs. The one-call interface of the class
 * coupling::MicromechanicalTest (micromechanical_test.h), where the loop and its parts are.
 */
#include "coupling/checkpoint.h"
#include "coupling/run_parameters.h"
#include "coupling/run_record.h"

#include <functional>

namespace dealii { class ParameterHandler; }

namespace granular
{
  /**
   * Runs the micromechanical test described by @p parameters, writing into
   * parameters.output.output_directory: parameters.prm (the resolved parameter set,
   * from @p prm), history.csv, summary.csv (atomically, at the end), solution.pvd and
   * solution-NNNNN.vtu, particle.pvd and particle-NNNNN.vtu. Prints progress to stdout
   * about once per Output/Progress interval.
   * @p after_each_step, if set, is called after every time step (a sweep's rank 0 uses
   * it to answer the other ranks while it computes a point itself).
   *
   * Checkpoints (Output/Checkpoint interval, Checkpoint step interval): the complete state
   * of the run is written atomically to checkpoint.bin; with parameters.output.restart
   * (--restart) the run continues from there and produces bit for bit the outputs of an
   * uninterrupted run (history.csv is cut back to the checkpoint's last row, the .pvd
   * collections keep their records). checkpoint.bin is removed when the run completes.
   * While a run with checkpoints is in progress, SIGINT and SIGTERM make it write a
   * checkpoint after the current step and throw RunInterrupted.
   *
   * Throws std::runtime_error if the rubber solve fails after all cut-backs or the energy
   * balance fails (nothing is written to summary.csv then); with restart,
   * std::runtime_error before any output is touched if checkpoint.bin is missing or
   * unreadable, or ParameterError naming the entries if it was written with different
   * parameters (entries of subsection Output may differ).
   */
  RunSummary run_micromechanical_test(const RunParameters &parameters,
                                      const dealii::ParameterHandler &prm,
                                      const std::function<void()> &after_each_step = {});
} // namespace granular
