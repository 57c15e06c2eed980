#include "dem/particle_parameters.h"

#include "base/parameter_entries.h"
#include "base/parameter_error.h"

#include <deal.II/base/numbers.h>

#include <cmath>

namespace granular
{
  using dealii::Patterns::Selection;

  void ParticleParameters::entries(ParameterEntries &e)
  {
    e.subsection("Particle", [&] {
      e.entry(enabled, "Enabled", "true",
              "false: no particle, the bare interface (k = k_o expected).");
      e.entry(shape_name, "Shape", "elliptical",
              Selection("circular|square|elliptical|rectangular|custom"),
              "Superellipse (|y1|/r1)^p1 + (|y2|/r2)^p2 = 1 (docs/methods.md §4): circular "
              "(r0, r0, 2, 2), square (r0, r0, 4, 4), elliptical (1.5 r0, r0, 2, 2), "
              "rectangular (1.5 r0, r0, 4, 4), or custom (the four entries below).");
      e.entry(reference_radius, "Reference radius", "0.5",
              "r0 in mm: sets the named shapes and, with Inertia = reference circle, "
              "every particle's mass rho_P pi r0^2 and inertia m r0^2 / 2.");
      e.entry(r1, "Semi-axis r1", "0.75", "r1 in mm (Shape = custom).");
      e.entry(r2, "Semi-axis r2", "0.5", "r2 in mm (Shape = custom).");
      e.entry(p1, "Exponent p1", "2", "p1 >= 2 (Shape = custom).");
      e.entry(p2, "Exponent p2", "2", "p2 >= 2 (Shape = custom).");
      e.entry(initial_rotation, "Initial rotation", "0",
              "theta0 in rad, counter-clockwise (0: r1 along the surface).");
      e.entry(density, "Density", "3e-9", "rho_P in t/mm^3 (3e-9 t/mm^3 = 3 g/cm^3).");
      e.entry(gravity, "Gravity", "9810",
              "g in mm/s^2, acting downwards on the particle (0: off).");
      e.entry(inertia, "Inertia", "reference circle", Selection("reference circle|shape"),
              "Mass and moment of inertia of every particle: 'reference circle' (Temizer "
              "2013: those of the circle of radius r0, rho_P pi r0^2 and m r0^2 / 2, so that "
              "only the shape varies) or 'shape' (rho_P times the particle's own area and "
              "polar second moment of area, docs/methods.md §4).");
    });
  }

  geometry::SuperellipseShape ParticleParameters::shape() const
  {
    if (shape_name == "custom")
      return geometry::SuperellipseShape{r1, r2, p1, p2};
    return geometry::SuperellipseShape::named(shape_name, reference_radius);
  }

  double ParticleParameters::mass() const
  {
    return density * dealii::numbers::PI * reference_radius * reference_radius;
  }

  double ParticleParameters::moment_of_inertia() const
  {
    return 0.5 * mass() * reference_radius * reference_radius;
  }

  double ParticleParameters::mass(const geometry::SuperellipseShape &s) const
  {
    return inertia == "shape" ? density * s.area() : mass();
  }

  double ParticleParameters::moment_of_inertia(const geometry::SuperellipseShape &s) const
  {
    return inertia == "shape" ? density * s.polar_moment_of_area() : moment_of_inertia();
  }

  void ParticleParameters::validate() const
  {
    require_positive("Particle/Reference radius", reference_radius, "the reference radius r0");
    require_positive("Particle/Density", density, "the particle density");
    if (!(gravity >= 0.))
      throw ParameterError("Particle/Gravity", "must be >= 0 (it acts downwards)");
    if (!std::isfinite(initial_rotation))
      throw ParameterError("Particle/Initial rotation", "must be finite");
    if (shape_name == "custom")
      {
        require_positive("Particle/Semi-axis r1", r1, "the semi-axis r1");
        require_positive("Particle/Semi-axis r2", r2, "the semi-axis r2");
        if (!(p1 >= 2.))
          throw ParameterError("Particle/Exponent p1",
                               "superellipse exponents must be >= 2 (convex particle)");
        if (!(p2 >= 2.))
          throw ParameterError("Particle/Exponent p2",
                               "superellipse exponents must be >= 2 (convex particle)");
      }
  }
} // namespace granular
