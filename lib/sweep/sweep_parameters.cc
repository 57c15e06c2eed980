#include "sweep/sweep_parameters.h"

#include "base/parameter_entries.h"
#include "base/parameter_error.h"

#include <deal.II/base/utilities.h>

namespace granular
{
  using namespace dealii::Patterns;

  geometry::SuperellipseShape parse_sweep_shape(const std::string &text, double r0)
  {
    return geometry::SuperellipseShape::from_text(text, r0);
  }

  bool SweepParameters::active() const
  {
    return !(pressures.empty() && relaxation_times.empty() && slip_velocities.empty() &&
             shapes.empty() && payne_d.empty() && rubber_models.empty() &&
             particle_numbers.empty() &&
             mixtures.find_first_not_of(" \t") == std::string::npos);
  }

  std::vector<std::string> SweepParameters::mixture_list() const
  {
    std::vector<std::string> list;
    if (mixtures.find_first_not_of(" \t") == std::string::npos)
      return list;
    for (const std::string &mixture : dealii::Utilities::split_string_list(mixtures, ';'))
      {
        const std::vector<std::string> shapes = dealii::Utilities::split_string_list(mixture);
        std::string text;
        for (const std::string &shape : shapes)
          {
            if (shape.empty())
              throw ParameterError("Sweep/Mixtures", "the mixture '" + mixture +
                                                       "' has an empty shape");
            text += (text.empty() ? "" : ", ") + shape;
          }
        if (text.empty())
          throw ParameterError("Sweep/Mixtures",
                               "an empty mixture (two ';' in a row)");
        list.push_back(text);
      }
    return list;
  }

  void SweepParameters::entries(ParameterEntries &e)
  {
    e.subsection("Sweep", [&] {
      e.entry(pressures, "Pressures", "", List(Double(), 0),
              "Macroscopic pressures p in MPa (empty: Loading/Pressure only).");
      e.entry(relaxation_times, "Relaxation times", "", List(Double(), 0),
              "Relaxation times tau0 in s (empty: Rubber/Maxwell branch/Relaxation time).");
      e.entry(slip_velocities, "Slip velocities", "", List(Double(), 0),
              "Slip velocities v_F in mm/s (empty: Loading/Slip velocity).");
      e.entry(shapes, "Shapes", "", List(Anything(), 0),
              "Particle shapes: circular, square, elliptical, rectangular, or "
              "r1:r2:p1:p2 in mm (empty: Particle/Shape).");
      e.entry(payne_d, "Payne parameters", "", List(Double(), 0),
              "Payne d in s (empty: Rubber/Maxwell branch/Payne parameter).");
      e.entry(rubber_models, "Rubber models", "", List(Selection("elastic|viscoelastic"), 0),
              "elastic and/or viscoelastic (empty: Rubber/Maxwell branch/Viscoelastic); an "
              "elastic point takes the lists' first relaxation time and Payne d.");
      e.entry(particle_numbers, "Numbers of particles", "", List(Integer(1, 64), 0),
              "N of the generated layer, Particles/Number (empty: the file's); needs "
              "Particles/List empty.");
      e.entry(mixtures, "Mixtures", "", Anything(),
              "Mixtures of the generated layer, Particles/Mixture, separated by ';', each "
              "a ',' list of shapes cycled over the particles (e.g. 'circular, elliptical; "
              "square, rectangular'); empty: the file's. Needs Particles/List and "
              "Sweep/Shapes empty.");
      e.entry(scale_time_step_with_slip_velocity, "Scale time step with slip velocity",
              "true",
              "true: Delta t = (Loading/Time step) L0 / v_F, i.e. proportional to "
              "1/v_F as in Temizer 2013; false: Delta t fixed at its value for "
              "Loading/Slip velocity.");
    });
  }

  void SweepParameters::validate() const
  {
    for (const double p : pressures)
      require_positive("Sweep/Pressures", p, "every pressure");
    for (const double t : relaxation_times)
      require_positive("Sweep/Relaxation times", t, "every relaxation time");
    for (const double v : slip_velocities)
      require_positive("Sweep/Slip velocities", v, "every slip velocity");
    for (const double d : payne_d)
      if (!(d >= 0.))
        throw ParameterError("Sweep/Payne parameters", "every Payne d must be >= 0");
    for (const std::string &s : shapes)
      {
        try
          {
            parse_sweep_shape(s, 0.5).validate();
          }
        catch (const std::exception &e)
          {
            throw ParameterError("Sweep/Shapes", e.what());
          }
      }
    for (const std::string &mixture : mixture_list())
      for (const std::string &s : dealii::Utilities::split_string_list(mixture))
        try
          {
            parse_sweep_shape(s, 0.5).validate();
          }
        catch (const std::exception &e)
          {
            throw ParameterError("Sweep/Mixtures", "'" + mixture + "': " + e.what());
          }
  }
} // namespace granular
