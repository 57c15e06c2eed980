#include "coupling/run_parameters.h"

#include "contact/normal_contact_law.h"

#include "geometry/superellipse.h"
#include "base/parameter_entries.h"
#include "base/parameter_error.h"

#include <algorithm>
#include <cmath>
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
    particles.entries(e);
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
    particles.validate();
    contact.validate();
    solver.validate();

    // the block is dragged well below its shear wave speed c_s = sqrt(mu_e / rho_B): at
    // v_F / c_s = 0.17 the bare interface's k is 1 % off k_o, at 0.34 6 %, at 0.69 20 %
    // (10 x 4 elements at Delta t = 2e-3 T0); faster, the steps also create energy
    const double wave_speed =
      std::sqrt(rubber.shear_modulus / (rubber.density_ratio * particle.density));
    if (loading.slip_velocity > 0.1 * wave_speed)
      {
        std::ostringstream s;
        s << "the slip velocity " << loading.slip_velocity
          << " mm/s is more than a tenth of the rubber's shear wave speed sqrt(mu_e / rho_B) = "
          << wave_speed
          << " mm/s (Rubber/Shear modulus, Rubber/Density ratio times Particle/Density): the "
             "dragged block no longer slides steadily and k-bar depends on its waves; drag "
             "slower or make the rubber stiffer or lighter";
        throw ParameterError("Loading/Slip velocity", s.str());
      }

    // With a particle, the reference step Delta t = (Loading/Time step) L0 / v_F must stay
    // short (docs/running.md#meaningful-ranges): every run at Delta t <= 4e-6 s completed
    // (the four shapes at 0.25 m/s in Temizer 2013's Table 5 on the full cell, the reduced
    // cell at 0.1 m/s), every run at 1e-5 s and longer stalled in Newton's method after its
    // cut-backs (the full default cell at 0.1 m/s, the reduced cell at 30 and 10 mm/s, the
    // four shapes): the light particle then moves quasi-statically between stiff contacts
    // and a step of that length has no solution
    if (particle.enabled && loading.time_step(block.length) > max_particle_time_step)
      {
        std::ostringstream s;
        s << "with a particle the reference step Delta t = (Loading/Time step) L0 / v_F = "
          << loading.time_step(block.length) << " s is longer than " << max_particle_time_step
          << " s, beyond which the steps of the particle's contacts were measured to have no "
             "solution: give Loading/Time step <= "
          << max_particle_time_step * loading.slip_velocity / block.length
          << " (it is a fraction of T0 = L0 / v_F, so a slow slip velocity needs a small one)";
        throw ParameterError("Loading/Time step", s.str());
      }

    if (particle.enabled)
      {
        // a custom shape: blame the larger semi-axis, r1 or r2
        const std::string shape_entry =
          particle.shape_name != "custom" ? "Particle/Shape" :
          particle.r2 > particle.r1       ? "Particle/Semi-axis r2" :
                                            "Particle/Semi-axis r1";
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
        // the rubber sees the particle at its contact Gauss points, two per bottom face: a
        // particle thinner than a face can pass between them (the reduced cell with
        // r1 = 0.05 mm on 0.25 mm faces: the rubber never touched it)
        const double face = block.length / block.n_x;
        if (block.mesh_file.empty() && 2. * std::min(shape.r1, shape.r2) < face)
          {
            std::ostringstream s;
            s << "the particle's thinnest width 2 min(r1, r2) = " << 2. * std::min(shape.r1, shape.r2)
              << " mm is less than the width of the block's bottom elements, L0 / N_X = " << face
              << " mm (Geometry/Block length, Geometry/Elements in x): the rubber's contact "
                 "points would not resolve it; refine the mesh or take a larger particle";
            throw ParameterError(particle.shape_name != "custom" ? "Particle/Reference radius" :
                                 particle.r1 < particle.r2        ? "Particle/Semi-axis r1" :
                                                                    "Particle/Semi-axis r2",
                                 s.str());
          }
        if (solver.rubber_particle_discrete_gradient && !solver.monolithic_coupling)
          throw ParameterError("Solver/Rubber-particle contact forces",
                               "discrete gradient needs Solver/Coupling scheme = monolithic (the "
                               "particle's mid-point rule takes the step's force)");
        if (solver.rubber_particle_velocity_update && !solver.monolithic_coupling)
          throw ParameterError("Solver/Rubber-particle velocity update",
                               "needs Solver/Coupling scheme = monolithic (the staggered "
                               "scheme's particle is not part of the rubber's step)");
        // the discrete-gradient contact's rounded flat sides (docs/methods.md §5.4)
        if (solver.monolithic_coupling)
          try
            {
              geometry::Superellipse(shape).flat_side_rounding(
                contact.particle_surface.flat_side_radius);
            }
          catch (const std::invalid_argument &e)
            {
              throw ParameterError("Contact/Particle-surface/Flat side radius", e.what());
            }
        // the particle-surface law: its own parameters and the data it needs (docs/methods.md §9)
        try
          {
            contact::create_normal_contact_law(contact.particle_surface, particle.mass());
          }
        catch (const std::invalid_argument &e)
          {
            const std::string &law = contact.particle_surface.normal_law;
            std::string        entry = "Contact/Particle-surface/Normal law";
            if (const auto it = contact.particle_surface.law_parameters.find(law);
                it != contact.particle_surface.law_parameters.end())
              for (const auto &[name, value] : it->second)
                if (std::string(e.what()).find("\"" + name + "\"") != std::string::npos)
                  entry = "Contact/Particle-surface/" + law + "/" + name;
            std::string message = e.what();
            if (message.find("does not define") != std::string::npos)
              message += " (the 2D micromechanical cell defines only the stiffness k_N and the "
                         "particle's mass)";
            throw ParameterError(entry, message);
          }
        validate_particle_layer();
      }
  }

  // Several particles (subsection Particles): each fits the cell and the mesh, they are
  // solved monolithically (their contacts with each other are terms of the Newton system,
  // docs/methods.md §5.7), and none touches another at rest.
  void RunParameters::validate_particle_layer() const
  {
    const bool several = particles.n_particles() > 1;
    const std::string entry = particles.list.find_first_not_of(" \t") != std::string::npos ?
                                "Particles/List" :
                                particles.mixture.find_first_not_of(" \t") != std::string::npos ?
                                "Particles/Mixture" :
                                "Particles/Number";
    if (several && !solver.monolithic_coupling)
      throw ParameterError(entry, "several particles need Solver/Coupling scheme = monolithic "
                                  "(their contacts with each other are solved in the "
                                  "rubber's Newton system, docs/methods.md §5.7)");
    const double rounding =
      solver.monolithic_coupling ? contact.particle_surface.flat_side_radius : 0.;
    const std::vector<ParticlePlacement> placed =
      particles.placements(particle, block.length, rounding);
    const double face = block.length / block.n_x;
    for (std::size_t i = 0; i < placed.size(); ++i)
      {
        const geometry::SuperellipseShape &shape = placed[i].shape;
        std::ostringstream                 s;
        s << "particle " << i << " (" << placed[i].shape_text << ") ";
        if (!(2. * shape.half_width_bound() < block.length))
          {
            s << "has a circumradius of " << shape.half_width_bound()
              << " mm, half the cell length Geometry/Block length = " << block.length
              << " mm or more: it would touch its own periodic image";
            throw ParameterError(entry, s.str());
          }
        if (block.mesh_file.empty() && 2. * std::min(shape.r1, shape.r2) < face)
          {
            s << "is thinner (2 min(r1, r2) = " << 2. * std::min(shape.r1, shape.r2)
              << " mm) than the block's bottom elements, L0 / N_X = " << face
              << " mm: the rubber's contact points would not resolve it";
            throw ParameterError(entry, s.str());
          }
        if (solver.monolithic_coupling)
          try
            {
              geometry::Superellipse(shape).flat_side_rounding(rounding);
            }
          catch (const std::invalid_argument &e)
            {
              throw ParameterError("Contact/Particle-surface/Flat side radius", e.what());
            }
      }
  }
} // namespace granular
