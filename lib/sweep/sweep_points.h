#pragma once
/**
 * @file sweep_points.h
 * The points of a parameter sweep (docs/sweeps.md): the Cartesian product of the lists of
 * subsection "Sweep", each point's name and its parameters. Units of docs/methods.md §1.
 */
#include "sweep/program_parameters.h"

#include <string>
#include <vector>

namespace dealii { class ParameterHandler; }

namespace granular
{
  /// One point of a sweep: the swept values (units of docs/methods.md §1).
  struct SweepPoint
  {
    unsigned int index = 0;          ///< 0-based position in the product
    double       pressure = 0.;      ///< p (MPa)
    double       relaxation_time = 0.; ///< tau0 (s)
    double       slip_velocity = 0.; ///< v_F (mm/s)
    std::string  shape;              ///< named shape or "r1:r2:p1:p2" (mm, mm, -, -)
    double       payne_d = 0.;       ///< Payne d (s)
    std::string  rubber_model;       ///< "elastic" | "viscoelastic"
    unsigned int particles = 0;      ///< N of Particles/Number (0: the file's)
    std::string  mixture;            ///< Particles/Mixture, shapes joined by ", " ("": the file's)
    std::string  name;               ///< subdirectory name
  };

  /**
   * The Cartesian product of the lists of @p parameters.sweep (an empty list keeps
   * the single value of the parameter file). Order: pressure (outermost), slip
   * velocity, relaxation time, shape, Payne d, rubber model, mixture, number of particles
   * (innermost). A mixture point's name has mix-SHAPE+SHAPE... where the others have the
   * shape; a name ends in _nN only when Sweep/Numbers of particles is given. An elastic
   * point does not depend on the relaxation time or on d: it is taken once per pressure,
   * velocity and shape, with the first values of those two lists (so a Payne-d sweep
   * with Rubber models = elastic, viscoelastic has one elastic reference point).
   * Throws std::invalid_argument if two points would get the same subdirectory name
   * (a value repeated in a list).
   */
  std::vector<SweepPoint> sweep_points(const ProgramParameters &parameters);

  /**
   * The parameters of one point, as values: @p parameters with the point's Loading/Pressure,
   * Loading/Slip velocity, Rubber/Maxwell branch/Relaxation time, Payne parameter,
   * Viscoelastic, Particle/Shape (a custom "r1:r2:p1:p2" sets Shape = custom and r1..p2),
   * Particles/Number and Particles/Mixture (if the point has them),
   * Output/Output directory = sweep directory/name, and empty Sweep lists (so that the
   * point's parameters.prm reruns it as a single run). Loading/Time step is Delta t / T0
   * with T0 = L0 / v_F, so Delta t scales with 1/v_F; with Sweep/Scale time step with slip
   * velocity = false the fraction is changed so that Delta t stays that of the file's slip
   * velocity. The point installs no signal handlers: the sweep's answer them.
   * Throws ParameterError naming the entry if the point is invalid (a value outside its
   * meaningful range, a particle wider than the cell, ...).
   */
  ProgramParameters sweep_point_parameters(const ProgramParameters &parameters,
                                           const SweepPoint        &point);

  /**
   * The record of a point's parameters, from which its parameters.prm and its checkpoint's
   * parameter check are written: @p point_prm (freshly constructed, nothing declared)
   * receives the declarations and entries of @p prm, then every entry in which
   * @p point_parameters (sweep_point_parameters()) differs from them
   * (ParameterEntries::write: numbers with 17 digits). Parsing @p point_prm gives
   * @p point_parameters back. Throws what deal.II's ParameterHandler throws.
   */
  void write_sweep_point_parameters(const dealii::ParameterHandler &prm,
                                    const ProgramParameters        &point_parameters,
                                    dealii::ParameterHandler       &point_prm);

  /**
   * Checks every point of the sweep of @p parameters before the first one runs:
   * the product has no repeated point and each point's parameters are valid (e.g. a shape
   * of Sweep/Shapes that is wider than the cell).
   * @throws ParameterError naming the Sweep list entry (Sweep/Shapes, Sweep/Pressures, ...;
   *         the point's own entry if it is not a swept one), the point and the reason.
   */
  void validate_sweep_points(const ProgramParameters &parameters);

  namespace sweep
  {
    /// The exact text of @p x (17 digits), for a parameter handler.
    std::string exact(double x);
    /// The short text of @p x (@p digits significant digits), for names and CSV columns.
    std::string shortest(double x, int digits = 6);
  } // namespace sweep
} // namespace granular
