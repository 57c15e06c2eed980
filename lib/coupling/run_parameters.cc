#include "coupling/run_parameters.h"

#include "geometry/superellipse.h"
#include "base/parameter_entries.h"
#include "base/parameter_error.h"

#include <sstream>

namespace granular
{
  void RunParameters::entries(ParameterEntries &e)
  {
    output.entries(e);
    block.entries(e);
    loading.entries(e);
    rubber.entries(e);
    particle.entries(e);
    contact.entries(e);
    solver.entries(e);
  }

  void RunParameters::validate() const
  {
    output.validate();
    block.validate();
    loading.validate();
    rubber.validate();
    particle.validate();
    contact.validate();
    solver.validate();

    if (particle.enabled)
      {
        const std::string shape_entry =
          particle.shape_name == "custom" ? "Particle/Semi-axis r1" : "Particle/Shape";
        geometry::SuperellipseShape shape;
        try
          {
            shape = particle.shape();
            shape.validate();
          }
        catch (const std::exception &e)
          {
            throw ParameterError(shape_entry, e.what());
          }
        // Largest distance of the outline from the centre: the particle sweeps a
        // circle of this radius while it rolls, which must fit the periodic cell.
        double radius = 0.;
        for (const auto &y : geometry::Superellipse(shape).outline(1440))
          radius = std::max(radius, y.norm());
        if (!(2. * radius < block.length))
          {
            std::ostringstream s;
            s << "the particle (largest diameter " << 2. * radius
              << " mm over all orientations) is wider than the periodic cell, "
                 "Geometry/Block length = "
              << block.length << " mm";
            throw ParameterError(shape_entry, s.str());
          }
      }
  }
} // namespace granular
