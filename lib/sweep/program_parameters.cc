#include "sweep/program_parameters.h"

#include "base/parameter_entries.h"

namespace granular
{
  void ProgramParameters::declare_parameters(dealii::ParameterHandler &prm)
  {
    ParameterEntries::declare<ProgramParameters>(prm);
  }

  void ProgramParameters::parse_parameters(dealii::ParameterHandler &prm)
  {
    ParameterEntries::parse(prm, *this);
  }

  void ProgramParameters::entries(ParameterEntries &e)
  {
    RunParameters::entries(e);
    sweep.entries(e);
  }

  void ProgramParameters::validate() const
  {
    RunParameters::validate();
    sweep.validate();
  }
} // namespace granular
