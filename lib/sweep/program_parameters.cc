#include "sweep/program_parameters.h"

namespace granular
{
  void ProgramParameters::declare_parameters(dealii::ParameterHandler &prm)
  {
    RunParameters::declare_parameters(prm);
    SweepParameters::declare_parameters(prm);
  }

  void ProgramParameters::parse_parameters(dealii::ParameterHandler &prm)
  {
    RunParameters::parse_parameters(prm);
    sweep.parse_parameters(prm);
  }

  void ProgramParameters::validate() const
  {
    RunParameters::validate();
    sweep.validate();
  }
} // namespace granular
