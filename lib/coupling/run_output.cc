// What the time loop writes while it runs (docs/methods.md §8.2). See run_output.h.
#include "coupling/run_output.h"

#include "base/atomic_file.h"
#include "base/csv_columns.h"
#include "base/parameter_error.h"
#include "dem/particle_output.h"

#include <deal.II/base/data_out_base.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>

namespace granular::coupling
{
  namespace fs = std::filesystem;

  std::vector<RemainingTime::Phase> remaining_time_phases(const LoadingProgram &loading,
                                                          const double          t_end,
                                                          const bool            rolls)
  {
    return {{loading.ramp_time, 0},
            {loading.T0, 1},
            {2. * loading.T0, 2},
            {t_end, 2, rolls ? 2. : 1., loading.T0}};
  }

  std::vector<std::string> single_run_results(const std::string &dir)
  {
    std::vector<std::string> names;
    std::error_code          ec;
    if (!fs::is_directory(dir, ec))
      return names;
    for (const auto &entry : fs::directory_iterator(dir, ec))
      {
        const std::string name = entry.path().filename().string();
        const bool        vtu  = entry.path().extension() == ".vtu" &&
                         (name.rfind("solution-", 0) == 0 || name.rfind("particle-", 0) == 0 ||
                          name.rfind("surface-", 0) == 0);
        if (vtu || name == "summary.csv" || name == "history.csv" || name == "energy.csv" ||
            name == "checkpoint.bin" || name == "error.txt" || name == "solution.pvd" ||
            name == "particle.pvd" || name == "surface.pvd" || name == "attempts" ||
            name == "particles.csv")
          names.push_back(name);
      }
    std::sort(names.begin(), names.end());
    return names;
  }

  namespace
  {
    /// surface-NNNNN.vtu for solution-NNNNN.vtu
    std::string surface_vtu_name(const std::string &solution_vtu)
    {
      return "surface-" + solution_vtu.substr(solution_vtu.find('-') + 1);
    }

    /// surface-NNNNN.vtu in @p directory: the rigid surface as one line cell on y = 0 from
    /// @p x_min to @p x_max (mm), written by deal.II's VTU writer.
    void write_surface_vtu(const std::string &directory, const unsigned int number,
                           const double x_min, const double x_max)
    {
      dealii::DataOutBase::Patch<1, 2> line;
      line.vertices[0] = dealii::Point<2>(x_min, 0.);
      line.vertices[1] = dealii::Point<2>(x_max, 0.);
      line.n_subdivisions = 1;
      line.reference_cell = dealii::ReferenceCells::Line;
      dealii::DataOutBase::VtkFlags flags;
      flags.print_date_and_time = false;
      std::ostringstream vtu;
      dealii::DataOutBase::write_vtu(std::vector<dealii::DataOutBase::Patch<1, 2>>{line}, {}, {},
                                     flags, vtu);
      std::ostringstream name;
      name << "surface-" << std::setw(5) << std::setfill('0') << number << ".vtu";
      write_file_atomically(directory + "/" + name.str(), vtu.str());
    }
  } // namespace

  void remove_stale_temporary_files(const std::string &dir)
  {
    std::error_code ec;
    for (const auto &entry : fs::directory_iterator(dir, ec))
      {
        const std::string name = entry.path().filename().string();
        const auto        at   = name.rfind(".tmp.");
        if (at == std::string::npos || at == 0 || at + 5 == name.size() ||
            name.find_first_not_of("0123456789", at + 5) != std::string::npos)
          continue;
        fs::remove(entry.path(), ec);
      }
  }

  void claim_output_directory(const std::string &dir, const bool overwrite)
  {
    // a sweep's directory (its sweep.csv and one subdirectory per point) is never taken,
    // not even with --overwrite, which would remove sweep.csv and leave the points
    std::error_code ec;
    if (fs::exists(dir + "/sweep.csv", ec))
      throw ParameterError(
        "Output/Output directory",
        dir + " holds the results of a sweep (sweep.csv and a subdirectory per point); a "
              "single run there would mix its results with the sweep's: give another "
              "--output-directory");
    const std::vector<std::string> earlier = single_run_results(dir);
    if (!earlier.empty() && !overwrite)
      {
        std::string names;
        for (std::size_t i = 0; i < earlier.size() && i < 4; ++i)
          names += (i ? ", " : "") + earlier[i];
        if (earlier.size() > 4)
          names += ", ...";
        throw ParameterError(
          "Output/Output directory",
          dir + " holds the results of an earlier run (" + names +
            "); give --overwrite to replace them, another --output-directory, or "
            "--restart to continue a stopped run");
      }
    for (const std::string &name : earlier)
      fs::remove_all(dir + "/" + name);
  }

  RunOutput::RunOutput(const OutputParameters &output, const LoadingProgram &loading,
                       const double dt, const unsigned int n_steps, const double L0,
                       const bool adaptive,
                       const fem::RubberBlock &block, const CouplingScheme &scheme,
                       const EnergyAccountant &energy)
    : dir_(output.output_directory)
    , history_interval_(output.history_interval)
    , vtu_interval_(output.vtu_interval)
    , progress_interval_(output.progress_interval)
    , loading_(loading)
    , dt_(dt)
    , n_steps_(n_steps)
    , L0_(L0)
    , block_(block)
    , scheme_(scheme)
    , energy_(energy)
    , adaptive_(adaptive)
    , solution_pvd_(dir_ + "/solution.pvd")
    , particle_pvd_(dir_ + "/particle.pvd")
    , surface_pvd_(dir_ + "/surface.pvd")
    , remaining_(remaining_time_phases(loading, n_steps * dt, scheme.particle() != nullptr), dt,
                 TimeStepControl::hard_iterations)
  {}

  void RunOutput::open_history(const bool restart, const std::uint64_t restart_bytes)
  {
    history_.emplace(dir_ + "/history.csv", restart, restart_bytes, block_.viscoelastic());
  }

  HistoryRow RunOutput::row(const StepMeasurements &m, const fem::StepStatistics &stats,
                            const MacroscopicFriction &friction) const
  {
    const fem::PlatenForces &f = m.platen_forces;
    HistoryRow               r;
    r.t                = m.t;
    r.phase            = loading_.phase_name(m.t);
    r.F_N              = f.normal;
    r.F_T              = f.tangential;
    r.kI               = MacroscopicFriction::instantaneous(f.normal, f.tangential);
    r.kI_avg           = friction.moving_average();
    r.platen_u1        = m.u1;
    r.platen_u2        = m.u2;
    if (const dem::Particle *particle = scheme_.particle())
      {
        const auto          &s = particle->state();
        HistoryRow::Particle p;
        p.x = s.centre[0], p.y = s.centre[1], p.theta = s.rotation;
        p.vx = s.velocity[0], p.vy = s.velocity[1], p.omega = s.angular_velocity;
        p.surface_fN      = particle->surface_contact().normal_force;
        p.surface_fT      = particle->surface_contact().tangential_force;
        p.surface_contact = particle->surface_contact().in_contact;
        p.surface_stick   = particle->surface_contact().sticking;
        p.rubber_force_x  = scheme_.rubber_force()[0];
        p.rubber_force_y  = scheme_.rubber_force()[1];
        p.rubber_moment   = scheme_.rubber_moment();
        r.particle        = p;
        // summed over the particles
        for (const contact::RubberParticleInterface *interface : scheme_.interfaces())
          {
            r.contacts_rubber_particle += interface->n_in_contact();
            r.slipping_rubber_particle += interface->n_slipping();
          }
        r.particle_energy_residual = particle->energy_balance_error();
      }
    r.contacts_rubber_surface = stats.contact_points_in_contact;
    r.slipping_rubber_surface = stats.contact_points_slipping;
    r.newton_iterations       = stats.newton_iterations;
    r.dem_substeps            = scheme_.last_substeps();
    const Dissipation &d           = m.dissipation;
    r.dissipation_rubber_surface   = d.rubber_surface;
    r.dissipation_rubber_particle  = d.rubber_particle;
    r.dissipation_particle_surface = d.particle_surface;
    r.dissipation_damping          = d.damping;
    r.dissipation_viscous          = d.viscous;
    r.dissipation_numerical        = d.numerical;
    r.energy_total                 = m.total_energy;
    r.platen_work                  = energy_.platen_work();
    if (block_.viscoelastic())
      {
        const fem::BoundaryLayerRates b = block_.boundary_layer_rates();
        r.D_bottom_max = b.rate_max, r.D_bottom_p99 = b.rate_p99, r.D_bottom_p50 = b.rate_p50;
        r.H_bottom_max = b.payne_factor_max;
        r.H_bottom_p99 = b.payne_factor_p99;
        r.H_bottom_p50 = b.payne_factor_p50;
      }
    return r;
  }

  void RunOutput::record_history(const StepPlan &plan, const HistoryRow &previous,
                                 const HistoryRow &row)
  {
    const unsigned int every = history_interval_;
    for (unsigned int g = (plan.k / every + 1) * every; g < plan.step; g += every)
      history_->write(interpolate(previous, row, double(g - plan.k) / plan.m,
                                  loading_.phase_name(g * dt_)));
    if (plan.step % every == 0 || plan.step == n_steps_)
      history_->write(row);
    // the particles at the end of a step that reached a row's time
    if (particles_csv_.is_open() &&
        (plan.step / every > plan.k / every || plan.step == n_steps_))
      write_particles_csv(plan.t);
  }

  void RunOutput::open_particles(const bool restart, const double t_restart)
  {
    if (scheme_.particles().empty())
      return;
    const std::string path = dir_ + "/particles.csv";
    if (restart && fs::exists(path))
      {
        // the rows up to the checkpoint's time; those after it are computed again
        std::ifstream in(path);
        std::string   line, kept;
        if (!std::getline(in, line))
          throw std::runtime_error("cannot read " + path);
        kept = line + '\n';
        while (std::getline(in, line))
          {
            const double t = std::strtod(line.c_str(), nullptr);
            if (t <= t_restart * (1. + 1e-12) + 1e-300 && !line.empty())
              kept += line + '\n';
          }
        write_file_atomically(path, kept);
        particles_csv_.open(path, std::ios::app);
      }
    else
      {
        particles_csv_.open(path, std::ios::trunc);
        particles_csv_ << csv_header(particle_columns()) << '\n';
        if (!restart)
          write_particles_csv(0.);
      }
    if (!particles_csv_)
      throw std::runtime_error("cannot write " + path);
  }

  void RunOutput::write_particles_csv(const double t)
  {
    const auto particles  = scheme_.particles();
    const auto interfaces = scheme_.interfaces();
    std::ostringstream o;
    o << std::setprecision(12);
    for (std::size_t i = 0; i < particles.size(); ++i)
      {
        const dem::Particle &p     = *particles[i];
        const auto          &s     = p.state();
        const auto          &c     = p.surface_contact();
        const auto          &shape = p.geometry().shape();
        ParticleRow          r;
        r.t = t, r.particle = static_cast<unsigned int>(i);
        r.x = s.centre[0], r.y = s.centre[1], r.theta = s.rotation;
        r.vx = s.velocity[0], r.vy = s.velocity[1], r.omega = s.angular_velocity;
        r.x_unwrapped     = p.unwrapped_centre()[0];
        r.surface_fN      = c.normal_force;
        r.surface_fT      = c.tangential_force;
        r.surface_contact = c.in_contact, r.surface_stick = c.sticking;
        r.contacts_rubber_particle = interfaces[i]->n_in_contact();
        r.slipping_rubber_particle = interfaces[i]->n_slipping();
        r.r1 = shape.r1, r.r2 = shape.r2, r.p1 = shape.p1, r.p2 = shape.p2;
        write_csv_row(o, particle_columns(), r);
        o << '\n';
      }
    particles_csv_ << o.str() << std::flush;
    if (!particles_csv_)
      throw std::runtime_error("cannot write " + dir_ + "/particles.csv");
  }

  void RunOutput::write_vtu(const unsigned int number, const double t)
  {
    solution_pvd_.add(t, block_.write_vtu(dir_, number));
    // the rigid surface: the line y = 0 under the deformed rubber, L0/2 beyond it at either
    // end
    const std::array<double, 2> block_x = block_.deformed_x_range();
    write_surface_vtu(dir_, number, block_x[0] - 0.5 * L0_, block_x[1] + 0.5 * L0_);
    std::vector<std::pair<double, std::string>> surface_records = solution_pvd_.records();
    for (auto &record : surface_records)
      record.second = surface_vtu_name(record.second);
    surface_pvd_.assign(std::move(surface_records));
    // the particle lives in the periodic cell [0, L0): its copies under the rubber (a
    // window L0/4 wider than the rubber's bottom at either end: the bottom trails the
    // dragged top by the shear), so that the collections share one frame in ParaView
    double x_min = std::numeric_limits<double>::max(), x_max = -x_min;
    for (const auto &x : block_.contact_point_positions())
      x_min = std::min(x_min, x[0]), x_max = std::max(x_max, x[0]);
    std::vector<dem::ParticleOutlines> outlines;
    for (const dem::Particle *particle : scheme_.particles())
      outlines.push_back({particle->outline(200, x_min - 0.25 * L0_, x_max + 0.25 * L0_),
                          particle->state().rotation});
    if (!outlines.empty())
      particle_pvd_.add(t, dem::write_particle_vtu(dir_, number, outlines));
  }

  void RunOutput::progress(const StepPlan &plan, const StepMeasurements &m,
                           const fem::StepStatistics &stats,
                           const MacroscopicFriction &friction, const double step_seconds)
  {
    remaining_.record(plan.t0, plan.t, step_seconds, stats.newton_iterations);
    seconds_since_progress_ += step_seconds;
    if (seconds_since_progress_ < progress_interval_ && plan.step != n_steps_)
      return;
    seconds_since_progress_ = 0.;
    const double             t = m.t;
    const fem::PlatenForces &f = m.platen_forces;
    std::cout << "  " << std::setw(11) << loading_.phase_name(t) << "  t/T0 = " << std::fixed
              << std::setprecision(4) << t / loading_.T0 << "  kI = "
              << MacroscopicFriction::instantaneous(f.normal, f.tangential)
              << "  kI_avg = " << friction.moving_average()
              << "  Newton its = " << stats.newton_iterations;
    if (adaptive_)
      std::cout << "  dt x " << plan.m;
    if (const dem::Particle *particle = scheme_.particle())
      std::cout << "  particle x = " << std::setprecision(3) << particle->state().centre[0]
                << " theta = " << particle->state().rotation;
    std::cout << "  left ~ " << duration_text(remaining_.seconds_left(t)) << std::defaultfloat
              << std::setprecision(6) << std::endl;
  }
} // namespace granular::coupling
