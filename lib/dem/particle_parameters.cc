#include "dem/particle_parameters.h"

#include "base/parameter_error.h"

#include <deal.II/base/numbers.h>
#include <deal.II/base/parameter_handler.h>

#include <cmath>

namespace granular
{
  using namespace dealii::Patterns;

  void ParticleParameters::declare_parameters(dealii::ParameterHandler &prm)
  {
    prm.enter_subsection("Particle");
    prm.declare_entry("Enabled", "true", Bool(),
                      "false: no particle, the bare rubber-surface interface (then "
                      "k = k_o is expected).");
    prm.declare_entry("Shape", "elliptical",
                      Selection("circular|square|elliptical|rectangular|custom"),
                      "Superellipse (|y1|/r1)^p1 + (|y2|/r2)^p2 = 1 (spec §4): circular "
                      "(r0, r0, 2, 2), square (r0, r0, 4, 4), elliptical (1.5 r0, r0, 2, 2), "
                      "rectangular (1.5 r0, r0, 4, 4), or custom (the four entries below).");
    prm.declare_entry("Reference radius", "0.5", Double(),
                      "r0 in mm: sets the named shapes and, for every shape, the mass "
                      "rho_P pi r0^2 and inertia m r0^2 / 2 of the reference circle.");
    prm.declare_entry("Semi-axis r1", "0.75", Double(), "r1 in mm (Shape = custom).");
    prm.declare_entry("Semi-axis r2", "0.5", Double(), "r2 in mm (Shape = custom).");
    prm.declare_entry("Exponent p1", "2", Double(), "p1 >= 2 (Shape = custom).");
    prm.declare_entry("Exponent p2", "2", Double(), "p2 >= 2 (Shape = custom).");
    prm.declare_entry("Initial rotation", "0", Double(),
                      "theta0 in rad, counter-clockwise (0: r1 along the surface).");
    prm.declare_entry("Density", "3e-9", Double(),
                      "rho_P in t/mm^3 (3e-9 t/mm^3 = 3 g/cm^3).");
    prm.declare_entry("Gravity", "9810", Double(),
                      "g in mm/s^2, acting downwards on the particle (0: off).");
    prm.leave_subsection();
  }

  void ParticleParameters::parse_parameters(dealii::ParameterHandler &prm)
  {
    prm.enter_subsection("Particle");
    enabled          = prm.get_bool("Enabled");
    shape_name       = prm.get("Shape");
    reference_radius = prm.get_double("Reference radius");
    r1               = prm.get_double("Semi-axis r1");
    r2               = prm.get_double("Semi-axis r2");
    p1               = prm.get_double("Exponent p1");
    p2               = prm.get_double("Exponent p2");
    initial_rotation = prm.get_double("Initial rotation");
    density          = prm.get_double("Density");
    gravity          = prm.get_double("Gravity");
    prm.leave_subsection();
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
