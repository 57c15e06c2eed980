#pragma once
/**
 * @file program_parameters.h
 * Everything a parameter file of granular-interface holds: the parameters of one run
 * (RunParameters, assembled in coupling/) and the lists of subsection "Sweep"
 * (docs/methods.md §8.3). A file whose Sweep lists are all empty describes a single run.
 */
#include "coupling/run_parameters.h"
#include "sweep/sweep_parameters.h"

namespace granular
{
  /// A run's parameters plus subsection "Sweep".
  struct ProgramParameters : RunParameters
  {
    SweepParameters sweep;

    /// Declares every subsection in @p prm, in the order of the shipped parameter files
    /// (Sweep last). Throws what dealii::ParameterHandler::declare_entry throws.
    static void declare_parameters(dealii::ParameterHandler &prm);
    /// Stores every entry of @p prm (declared by declare_parameters()) in the members.
    void parse_parameters(dealii::ParameterHandler &prm);
    /// RunParameters::entries() and subsection "Sweep".
    void entries(ParameterEntries &e);
    /// RunParameters::validate() and the Sweep lists. Throws ParameterError naming the
    /// entry.
    void validate() const;
  };
} // namespace granular
