// The points of a sweep and their parameters. See sweep_points.h.
#include "sweep/sweep_points.h"

#include "base/parameter_entries.h"
#include "base/parameter_error.h"

#include <deal.II/base/parameter_handler.h>
#include <deal.II/base/utilities.h>

#include <cctype>
#include <cstdio>
#include <set>
#include <sstream>
#include <stdexcept>

namespace granular
{
  namespace sweep
  {
    std::string exact(const double x)
    {
      char buffer[64];
      std::snprintf(buffer, sizeof(buffer), "%.17g", x);
      return buffer;
    }

    std::string shortest(const double x, const int digits)
    {
      char buffer[64];
      std::snprintf(buffer, sizeof(buffer), "%.*g", digits, x);
      return buffer;
    }
  } // namespace sweep

  namespace
  {
    using sweep::exact;
    using sweep::shortest;

    std::string shape_label(const std::string &shape)
    {
      std::string s;
      for (const char c : shape)
        s += (c == ':') ? 'x' : (std::isalnum(static_cast<unsigned char>(c)) || c == '.' ||
                                 c == '-' || c == '+') ?
                          c :
                          '_';
      return s;
    }

    /// "mix-circular+elliptical" of the mixture "circular, elliptical"
    std::string mixture_label(const std::string &mixture)
    {
      std::string label = "mix";
      for (const std::string &shape : dealii::Utilities::split_string_list(mixture))
        label += (label == "mix" ? "-" : "+") + shape_label(shape);
      return label;
    }

    /// Whether the Particles/List of @p P gives the particles (no generated layer)
    bool has_particle_list(const ProgramParameters &P)
    {
      return P.particles.list.find_first_not_of(" \t") != std::string::npos;
    }
  } // namespace

  std::vector<SweepPoint> sweep_points(const ProgramParameters &P)
  {
    const SweepParameters &S = P.sweep;
    auto or_single = [](const std::vector<double> &list, const double value) {
      return list.empty() ? std::vector<double>{value} : list;
    };
    const std::vector<double> pressures = or_single(S.pressures, P.loading.pressure);
    const std::vector<double> velocities =
      or_single(S.slip_velocities, P.loading.slip_velocity);
    const std::vector<double> taus = or_single(S.relaxation_times, P.rubber.relaxation_time);
    const std::vector<double> ds   = or_single(S.payne_d, P.rubber.payne_d);
    std::vector<std::string>  shapes = S.shapes;
    if (shapes.empty())
      shapes.push_back(P.particle.shape_name == "custom" ?
                         exact(P.particle.r1) + ":" + exact(P.particle.r2) + ":" +
                           exact(P.particle.p1) + ":" + exact(P.particle.p2) :
                         P.particle.shape_name);
    // a shape written two ways (circular and 0.5:0.5:2:2) would be computed twice under two
    // names
    for (std::size_t i = 0; i < S.shapes.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        {
          const auto a = parse_sweep_shape(S.shapes[j], P.particle.reference_radius),
                     b = parse_sweep_shape(S.shapes[i], P.particle.reference_radius);
          if (a.r1 == b.r1 && a.r2 == b.r2 && a.p1 == b.p1 && a.p2 == b.p2)
            throw ParameterError("Sweep/Shapes", "'" + S.shapes[j] + "' and '" + S.shapes[i] +
                                                   "' are the same shape (r1:r2:p1:p2 = " +
                                                   exact(a.r1) + ":" + exact(a.r2) + ":" +
                                                   exact(a.p1) + ":" + exact(a.p2) +
                                                   "); give it once");
        }
    std::vector<std::string> models = S.rubber_models;
    if (models.empty())
      models.push_back(P.rubber.viscoelastic ? "viscoelastic" : "elastic");

    std::vector<unsigned int> numbers;
    for (const double n : S.particle_numbers)
      numbers.push_back(static_cast<unsigned int>(n));
    if (numbers.empty())
      numbers.push_back(0); // the file's
    std::vector<std::string> mixtures = S.mixture_list();
    if (mixtures.empty())
      mixtures.push_back(""); // the file's

    std::vector<SweepPoint> points;
    std::set<std::string>   names;
    for (const double p : pressures)
      for (const double v : velocities)
        for (const double tau : taus)
          for (const std::string &shape : shapes)
            for (const double d : ds)
              for (const std::string &model : models)
                for (const std::string &mixture : mixtures)
                  for (const unsigned int n : numbers)
                  {
                    // the elastic rubber has no relaxation time and no Payne effect: its
                    // point is run once, with the first values of those lists
                    if (model == "elastic" && (tau != taus.front() || d != ds.front()))
                      continue;
                    SweepPoint pt;
                    pt.index           = points.size();
                    pt.pressure        = p;
                    pt.slip_velocity   = v;
                    pt.relaxation_time = tau;
                    pt.shape           = shape;
                    pt.payne_d         = d;
                    pt.rubber_model    = model;
                    // a mixture point has the mixture where the others have the shape
                    const std::string what =
                      mixture.empty() ? shape_label(shape) : mixture_label(mixture);
                    pt.name = "p" + shortest(p) + "_v" + shortest(v) + "_tau" + shortest(tau) +
                              "_" + what + "_d" + shortest(d) + "_" + model +
                              (n > 0 ? "_n" + std::to_string(n) : "");
                    pt.particles = n;
                    pt.mixture   = mixture;
                    if (!names.insert(pt.name).second)
                      throw std::invalid_argument(
                        "sweep: two points share the name '" + pt.name +
                        "' (a value repeated in a Sweep list?)");
                    points.push_back(pt);
                  }
    return points;
  }

  void validate_sweep_points(const ProgramParameters &P)
  {
    if (!P.sweep.particle_numbers.empty() && has_particle_list(P))
      throw ParameterError("Sweep/Numbers of particles",
                           "varies Particles/Number, the generated layer, but Particles/List "
                           "gives the particles: empty the list");
    const bool mixtures = !P.sweep.mixture_list().empty();
    if (mixtures && has_particle_list(P))
      throw ParameterError("Sweep/Mixtures",
                           "varies Particles/Mixture, the generated layer, but Particles/List "
                           "gives the particles: empty the list");
    if (mixtures && !P.sweep.shapes.empty())
      throw ParameterError("Sweep/Mixtures",
                           "the mixtures give the particles' shapes: leave Sweep/Shapes "
                           "empty (a one-shape mixture is a shape)");
    std::vector<SweepPoint> points;
    try
      {
        points = sweep_points(P);
      }
    catch (const std::invalid_argument &e)
      {
        throw ParameterError("Sweep", e.what());
      }
    // the swept entry of a point's entry
    const std::vector<std::pair<std::string, std::string>> swept = {
      {"Particle/", "Sweep/Shapes"},
      {"Loading/Pressure", "Sweep/Pressures"},
      {"Loading/Slip velocity", "Sweep/Slip velocities"},
      {"Loading/Time step", "Sweep/Slip velocities"},
      {"Rubber/Maxwell branch/Relaxation time", "Sweep/Relaxation times"},
      {"Rubber/Maxwell branch/Payne parameter", "Sweep/Payne parameters"},
      {"Rubber/Maxwell branch/Viscoelastic", "Sweep/Rubber models"},
      {"Particles/Mixture", "Sweep/Mixtures"},
      {"Particles/", P.sweep.particle_numbers.empty() && mixtures ?
                       "Sweep/Mixtures" :
                       "Sweep/Numbers of particles"}};
    for (const SweepPoint &point : points)
      {
        try
          {
            sweep_point_parameters(P, point);
          }
        catch (const ParameterError &e)
          {
            std::string entry = e.entry();
            for (const auto &[prefix, list] : swept)
              if (entry.rfind(prefix, 0) == 0)
                {
                  entry = list;
                  break;
                }
            throw ParameterError(entry, "point " + point.name + " (shape " + point.shape +
                                          ", p = " + exact(point.pressure) + " MPa): " +
                                          e.what());
          }
      }
  }

  ProgramParameters sweep_point_parameters(const ProgramParameters &P, const SweepPoint &point)
  {
    ProgramParameters Q = P;
    Q.loading.pressure      = point.pressure;
    Q.loading.slip_velocity = point.slip_velocity;
    if (!P.sweep.scale_time_step_with_slip_velocity)
      // keep Delta t = ratio L0 / v_file: ratio' = ratio v_point / v_file
      Q.loading.time_step_ratio *= point.slip_velocity / P.loading.slip_velocity;
    Q.rubber.relaxation_time = point.relaxation_time;
    Q.rubber.payne_d         = point.payne_d;
    Q.rubber.viscoelastic    = point.rubber_model == "viscoelastic";
    if (point.shape.find(':') == std::string::npos)
      Q.particle.shape_name = point.shape;
    else
      {
        const geometry::SuperellipseShape shape =
          parse_sweep_shape(point.shape, P.particle.reference_radius);
        Q.particle.shape_name = "custom";
        Q.particle.r1         = shape.r1;
        Q.particle.r2         = shape.r2;
        Q.particle.p1         = shape.p1;
        Q.particle.p2         = shape.p2;
      }
    if (point.particles > 0)
      {
        if (has_particle_list(P))
          throw ParameterError("Sweep/Numbers of particles",
                               "varies Particles/Number, the generated layer, but "
                               "Particles/List gives the particles: empty the list");
        Q.particles.number = point.particles;
      }
    if (!point.mixture.empty())
      {
        if (has_particle_list(P))
          throw ParameterError("Sweep/Mixtures",
                               "varies Particles/Mixture, the generated layer, but "
                               "Particles/List gives the particles: empty the list");
        Q.particles.mixture = point.mixture;
      }
    Q.output.output_directory = P.output.output_directory + "/" + point.name;
    Q.output.restart          = false;
    // the point's parameters.prm reruns it as a single run
    Q.sweep.pressures.clear();
    Q.sweep.relaxation_times.clear();
    Q.sweep.slip_velocities.clear();
    Q.sweep.shapes.clear();
    Q.sweep.payne_d.clear();
    Q.sweep.rubber_models.clear();
    Q.sweep.particle_numbers.clear();
    Q.sweep.mixtures.clear();
    // a point writes checkpoints (Output/Checkpoint interval) in its directory, but the
    // signals are the sweep's: they must stop every rank of mpirun, and the sweep asks the
    // point in progress for its checkpoint (run_point)
    Q.output.stop_signal_handlers = false;
    ParameterEntries::check_meaningful_ranges(Q);
    Q.validate();
    return Q;
  }

  void write_sweep_point_parameters(const dealii::ParameterHandler &prm,
                                    const ProgramParameters        &point_parameters,
                                    dealii::ParameterHandler       &point_prm)
  {
    ProgramParameters::declare_parameters(point_prm);
    std::ostringstream text; // a ParameterHandler has no copy: its entries go through text
    prm.print_parameters(text, dealii::ParameterHandler::PRM);
    point_prm.parse_input_from_string(text.str());
    ParameterEntries::write(point_prm, point_parameters);
  }
} // namespace granular
