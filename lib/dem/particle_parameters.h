#pragma once
/**
 * @file particle_parameters.h
 * Subsection "Particle": the rigid superellipse DEM particle (docs/methods.md §4, §5, §7).
 * Lengths in mm, density in t/mm^3, gravity in mm/s^2, angles in rad.
 */
#include "geometry/superellipse.h"

#include <string>

namespace granular
{
  class ParameterEntries;

  /// Parameters of subsection "Particle".
  struct ParticleParameters
  {
    bool        enabled          = true;          ///< false: bare interface
    std::string shape_name       = "elliptical";  ///< named shape or "custom"
    double      reference_radius = 0.5;           ///< r0 (mm)
    double      r1 = 0.75, r2 = 0.5, p1 = 2., p2 = 2.; ///< used when shape_name == "custom"
    double      initial_rotation = 0.;            ///< theta0 (rad)
    double      density          = 3e-9;          ///< rho_P (t/mm^3)
    double      gravity          = 9810.;         ///< g (mm/s^2), acts in -e2
    /// "reference circle" (Temizer 2013: every shape has the mass and inertia of the circle
    /// of radius r0) | "shape" (rho_P times the shape's own area and polar moment)
    std::string inertia          = "reference circle";

    /// The resolved shape: the named one (docs/methods.md §4 table) or the custom (r1, r2, p1, p2).
    geometry::SuperellipseShape shape() const;
    /// m = rho_P pi r0^2 (t per mm thickness): the reference circle's mass.
    double mass() const;
    /// I = 1/2 m r0^2 (t mm^2 per mm thickness): the reference circle's moment of inertia.
    double moment_of_inertia() const;
    /// The mass of a particle of shape @p shape (t per mm thickness): mass() with Inertia =
    /// reference circle, rho_P A (SuperellipseShape::area()) with Inertia = shape.
    double mass(const geometry::SuperellipseShape &shape) const;
    /// Its moment of inertia about its centre (t mm^2 per mm thickness): moment_of_inertia()
    /// with Inertia = reference circle, rho_P J (SuperellipseShape::polar_moment_of_area())
    /// with Inertia = shape.
    double moment_of_inertia(const geometry::SuperellipseShape &shape) const;

    /// The entries of subsection "Particle", each bound to its member.
    void entries(ParameterEntries &e);
    /// Throws ParameterError naming the entry (p_i < 2, r <= 0, rho <= 0, g < 0).
    void validate() const;
  };
} // namespace granular
