#pragma once
/**
 * @file run_parameters.h
 * The complete parameter set of one run of the micromechanical test: every module
 * lists the entries of its own subsection once (base/parameter_entries.h; step-44 /
 * ASPECT pattern); this aggregate only collects them and adds the checks that span
 * modules (docs/methods.md §8.1). The Sweep subsection
 * is not part of a run: ProgramParameters (sweep/program_parameters.h) adds it.
 */
#include "contact/contact_parameters.h"
#include "coupling/loading_parameters.h"
#include "coupling/output_parameters.h"
#include "dem/particle_layer.h"
#include "dem/particle_parameters.h"
#include "fem/block_parameters.h"
#include "material/rubber_parameters.h"

namespace dealii { class ParameterHandler; }

namespace granular
{
  /// All parameters of a run, one member per subsection (Sweep excepted).
  struct RunParameters
  {
    OutputParameters   output;
    BlockParameters    block;
    LoadingParameters  loading;
    RubberParameters   rubber;
    ParticleParameters particle;
    ParticleLayerParameters particles; ///< subsection Particles: N, shapes, places
    ContactParameters  contact;
    SolverParameters   solver;

    /// The entries of every subsection, in the order of the shipped parameter files
    /// (base/parameter_entries.h; ProgramParameters declares and parses them).
    void entries(ParameterEntries &e);
    /// Module checks plus cross-module consistency: the particle must fit the cell in
    /// every orientation, the slip velocity stay below a tenth of the rubber's shear wave
    /// speed, and with a particle the reference step not exceed max_particle_time_step.
    /// Throws ParameterError naming the entry.
    void validate() const;

  private:
    /// validate()'s checks of subsection Particles against the cell, mesh and solver.
    void validate_particle_layer() const;
  };

  /// The longest reference step Delta t (s) of a run with a particle: the runs measured at
  /// 4e-6 s completed, those at 1e-5 s stalled (docs/running.md#meaningful-ranges).
  inline constexpr double max_particle_time_step = 5e-6;
} // namespace granular
