#pragma once
/**
 * @file sweep_parameters.h
 * Subsection "Sweep" (docs/methods.md §8.3): lists whose Cartesian product is run, one point per
 * combination. An empty list keeps the single value of the parameter file.
 */
#include "geometry/superellipse.h"

#include <string>
#include <vector>

namespace granular
{
  class ParameterEntries;

  /// Parameters of subsection "Sweep".
  struct SweepParameters
  {
    std::vector<double>      pressures;        ///< MPa
    std::vector<double>      relaxation_times; ///< s
    std::vector<double>      slip_velocities;  ///< mm/s
    std::vector<std::string> shapes;           ///< named shapes or "r1:r2:p1:p2"
    std::vector<double>      payne_d;          ///< s
    std::vector<std::string> rubber_models;    ///< "elastic" | "viscoelastic"
    /// N of Particles/Number (whole numbers 1..64; a generated layer, Particles/List empty)
    std::vector<double>      particle_numbers;
    /// mixtures of Particles/Mixture, separated by ';' (each a ',' list of shapes; "": none)
    std::string mixtures;
    bool scale_time_step_with_slip_velocity = true;

    /// true if any list is non-empty.
    bool active() const;

    /// The mixtures of Sweep/Mixtures, each as Particles/Mixture takes it: its shapes
    /// trimmed and joined by ", " (e.g. "circular, elliptical"). Empty text: no mixture.
    /// @throws ParameterError naming Sweep/Mixtures for an empty mixture (";;"; a trailing ';'
    ///         is ignored) or an empty shape in one (",,").
    std::vector<std::string> mixture_list() const;

    /// The entries of subsection "Sweep", each bound to its member.
    void entries(ParameterEntries &e);
    /// Throws ParameterError naming the entry.
    void validate() const;
  };

  /// A sweep shape: a named shape of docs/methods.md §4 with reference radius r0 (mm), or
  /// "r1:r2:p1:p2" in mm. Throws std::invalid_argument for anything else.
  geometry::SuperellipseShape parse_sweep_shape(const std::string &text, double r0);
} // namespace granular
