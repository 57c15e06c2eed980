// Where the time step loses its solution (docs/performance.md#particle-surface-friction-and-the-failing-steps):
// in the reduced cell, once the compression phase is over, the ellipse's steps fail only
// when the particle–surface contact has friction. Without it the particle slides and rolls
// over its ends on solvable steps; with it, sticking below and pressed by the rubber from
// above, the light particle is where the step's equations lose their solution (the
// Painlevé-type jam of a rigid body under Coulomb friction: Champneys & Várkonyi, IMA J.
// Appl. Math. 81 (2016) 538).
#include "base/csv_fields.h"
#include "coupling/micromechanical_run.h"
#include "program/command_line.h"
#include "test_helpers.h"

#include <deal.II/base/parameter_handler.h>

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace
{
  /// The reduced cell of the solver targets (L0 = 3 mm, H0 = 1.5 mm, 12 x 6, T_avg = 0.5 T0:
  /// 2.5 T0 in all, the first T0 compression) with the default ellipse and particle–surface
  /// friction coefficient @p k_ps, recording the first failed Newton attempt from t/T0 =
  /// @p from on.
  granular::CommandLineOptions reduced_ellipse(const std::string &name, const double k_ps,
                                               const double from)
  {
    granular::CommandLineOptions options;
    options.parameter_file   = std::string(GRANULAR_SOURCE_DIR) + "/params/default.prm";
    options.output_directory = granular::testing::scratch_directory(name);
    options.set_entries      = {"Geometry/Block length=3",
                                "Geometry/Block height=1.5",
                                "Geometry/Elements in x=12",
                                "Geometry/Elements in y=6",
                                "Loading/Averaging time=0.5",
                                "Output/VTU output interval=0",
                                "Output/Progress interval=100000",
                                "Output/Checkpoint interval=0",
                                "Contact/Particle-surface/Friction coefficient=" +
                                  std::to_string(k_ps)};
    options.record_failed_attempts = 1;
    options.record_attempts_from   = from;
    return options;
  }

  /// Failed attempts recorded in the run's attempts/attempts.csv (column 6, converged = 0).
  unsigned int failed_attempts(const granular::CommandLineOptions &options)
  {
    dealii::ParameterHandler prm;
    const auto               P = granular::read_parameters(options, prm);
    granular::run_micromechanical_test(P, prm);
    std::ifstream in(options.output_directory + "/attempts/attempts.csv");
    std::string   line;
    unsigned int  failed = 0;
    std::getline(in, line); // header
    while (std::getline(in, line))
      if (granular::nth_csv_field(line, 5).value_or("") == "0")
        ++failed;
    return failed;
  }
} // namespace

TEST(SolvableSteps, WithoutParticleSurfaceFrictionNoStepFailsAfterTheCompression)
{
  // the recording sees failed steps: the compression phase has some at any friction
  EXPECT_EQ(failed_attempts(reduced_ellipse("solvable-k0-from-start", 0., 0.)), 1u);
  // after it (t > T0), none without particle–surface friction ...
  EXPECT_EQ(failed_attempts(reduced_ellipse("solvable-k0", 0., 1.)), 0u);
  // ... and failing steps in the rolling with it (0.5, 1 and the default 1.5)
  EXPECT_EQ(failed_attempts(reduced_ellipse("solvable-k0.5", 0.5, 1.)), 1u);
  EXPECT_EQ(failed_attempts(reduced_ellipse("solvable-k1", 1., 1.)), 1u);
  EXPECT_EQ(failed_attempts(reduced_ellipse("solvable-k1.5", 1.5, 1.)), 1u);
}
