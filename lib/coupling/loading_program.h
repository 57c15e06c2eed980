#pragma once
/**
 * @file loading_program.h
 * The loading program of the micromechanical test (docs/methods.md §2.1): the top platen's
 * horizontal displacement and vertical load as functions of time, and the phases.
 *
 * Units: time s, displacement mm, velocity mm/s, load N per mm thickness.
 */
#include "coupling/loading_parameters.h"

#include <algorithm>

namespace granular::coupling
{
  /// Platen u1(t) and vertical load P(t) of docs/methods.md §2.1.
  struct LoadingProgram
  {
    double T0;            ///< nominal dragging time L0 / v_F (s)
    double ramp_time;     ///< the load ramps from 0 to full_load over [0, ramp_time] (s)
    double slip_velocity; ///< v_F (mm/s)
    double full_load;     ///< p L0 (N/mm)

    /// The program of @p loading for a cell of length @p L0 (mm).
    static LoadingProgram from_parameters(const LoadingParameters &loading, double L0)
    {
      const double T0 = loading.nominal_dragging_time(L0);
      return {T0, loading.ramp_fraction * T0, loading.slip_velocity, loading.pressure * L0};
    }

    /// u1 (mm): 0 during compression, v_F (t - T0) once the block is dragged.
    double platen_u1(double t) const
    {
      return t > T0 ? slip_velocity * (t - T0) : 0.;
    }
    /// Vertical load (N/mm, pushing down): linear ramp, then held.
    double platen_load(double t) const
    {
      return full_load * std::min(1., t / ramp_time);
    }
    /// "compression" (t <= T0), "transition" (t <= 2 T0) or "averaging".
    const char *phase_name(double t) const
    {
      return t <= T0 * (1. + 1e-12) ? "compression" :
             t <= 2. * T0 * (1. + 1e-12) ? "transition" : "averaging";
    }
    /// true once t is in the averaging window (t >= 2 T0, up to round-off).
    bool in_averaging_window(double t) const
    {
      return t >= 2. * T0 * (1. - 1e-12);
    }
  };
} // namespace granular::coupling
