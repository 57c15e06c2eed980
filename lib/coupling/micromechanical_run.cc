// One run of the micromechanical test (docs/methods.md §2, §5.3, §8.2). See micromechanical_run.h.
#include "coupling/micromechanical_run.h"

#include "coupling/micromechanical_test.h"

namespace granular
{
  RunSummary run_micromechanical_test(const RunParameters            &parameters,
                                      const dealii::ParameterHandler &prm,
                                      const std::function<void()>    &after_each_step)
  {
    coupling::MicromechanicalTest test(parameters, prm, after_each_step);
    return test.run();
  }
} // namespace granular
