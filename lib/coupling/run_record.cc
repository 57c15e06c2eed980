// What a run writes about itself (docs/methods.md §8.2). See run_record.h.
#include "coupling/run_record.h"

#include "base/atomic_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace granular
{
  std::string summary_csv(const RunSummary &s)
  {
    std::ostringstream o;
    o << "kbar,kbar_F,kbar_V,kbar_spread,pressure,slip_velocity,relaxation_time,payne_d,"
         "r1,r2,p1,p2,energy_balance_error,steps,newton_iterations,cutbacks,wall_time,"
         "time_assembly,time_factorization,time_solve,time_particle,time_output,"
         "dissipation_rubber_surface,dissipation_rubber_particle,"
         "dissipation_particle_surface,dissipation_damping,dissipation_viscous,"
         "mean_normal_force,"
         "mean_particle_speed,mean_rolling_speed,dem_substeps,factorizations,"
         "coupling_passes,dissipation_numerical,assemblies,failed_newton_iterations,"
         "max_penetration_rubber_surface,max_penetration_rubber_particle,"
         "block_length,block_height,elements_x,elements_y,time_step";
    for (const char *stretch : {"", "window_"})
      for (const char *c : {"bulk", "rubber_surface", "rubber_particle", "particle_surface",
                            "platen", "unassigned"})
        o << ",created_" << stretch << c;
    o << ",rejected_steps,assemblies_line_search,assemblies_failed\n";
    o << std::setprecision(10) << s.kbar << ',' << s.kbar_F << ',' << s.kbar_V << ','
      << s.kbar_spread << ',' << s.pressure << ',' << s.slip_velocity << ','
      << s.relaxation_time << ',' << s.payne_d << ',' << s.r1 << ',' << s.r2 << ','
      << s.p1 << ',' << s.p2 << ',' << s.energy_balance_error << ',' << s.steps << ','
      << s.newton_iterations << ',' << s.cutbacks << ',' << s.wall_time << ','
      << s.time_assembly << ',' << s.time_factorization << ',' << s.time_solve << ','
      << s.time_particle << ',' << s.time_output << ',' << s.dissipation_rubber_surface
      << ',' << s.dissipation_rubber_particle << ',' << s.dissipation_particle_surface
      << ',' << s.dissipation_damping << ',' << s.dissipation_viscous << ','
      << s.mean_normal_force << ','
      << s.mean_particle_speed << ',' << s.mean_rolling_speed << ',' << s.dem_substeps
      << ',' << s.factorizations << ',' << s.coupling_passes << ','
      << s.dissipation_numerical << ',' << s.assemblies << ',' << s.failed_newton_iterations
      << ',' << s.max_penetration_rubber_surface << ',' << s.max_penetration_rubber_particle
      << ',' << s.block_length << ',' << s.block_height << ',' << s.elements_x << ','
      << s.elements_y << ',' << s.time_step;
    for (const CreatedEnergy *c : {&s.created_energy, &s.created_energy_in_window})
      o << ',' << c->bulk << ',' << c->rubber_surface << ',' << c->rubber_particle << ','
        << c->particle_surface << ',' << c->platen << ',' << c->unassigned;
    o << ',' << s.rejected_steps << ',' << s.assemblies_line_search << ','
      << s.assemblies_failed << '\n';
    return o.str();
  }

  std::string format_summary(const RunSummary &s)
  {
    std::ostringstream o;
    o << std::setprecision(5) << "macroscopic friction coefficient kbar = " << s.kbar
      << "  (spread over the last quarter of the window " << s.kbar_spread << ")\n"
      << "  kbar_F = " << s.kbar_F << ", kbar_V = " << s.kbar_V
      << ", energy balance error = " << s.energy_balance_error
      << " (Newmark's numerical dissipation in the window " << s.dissipation_numerical
      << " N mm/mm is part of the balance, not of kbar_F)\n"
      << "  " << s.steps << " steps, " << s.newton_iterations << " Newton iterations ("
      << std::setprecision(3) << double(s.newton_iterations) / std::max(1u, s.steps)
      << " per step), " << s.cutbacks << " cut-backs, " << s.rejected_steps
      << " rejected steps (" << s.failed_newton_iterations
      << " iterations in failed and rejected attempts), " << s.assemblies << " assemblies ("
      << s.assemblies_line_search << " line-search trials, " << s.assemblies_failed
      << " in failed and rejected attempts), wall time " << s.wall_time
      << " s (assembly " << s.time_assembly << ", factorization " << s.time_factorization
      << ", solve " << s.time_solve << ", particle " << s.time_particle << ", output "
      << s.time_output << ")\n";
    return o.str();
  }

  namespace coupling
  {
    std::string duration_text(double seconds)
    {
      const long         s       = std::lround(std::max(0., seconds));
      const long         minutes = (s + 30) / 60;
      std::ostringstream o;
      if (s < 120)
        o << s << " s";
      else if (minutes < 60)
        o << minutes << " min";
      else
        o << minutes / 60 << " h " << std::setw(2) << std::setfill('0') << minutes % 60
          << " min";
      return o.str();
    }

    double duration_seconds(const std::string &text)
    {
      std::istringstream in(text);
      double             value = 0.;
      std::string        unit;
      if (!(in >> value >> unit) || value < 0.)
        return -1.;
      if (unit == "s")
        return value;
      if (unit == "min")
        return 60. * value;
      if (unit != "h")
        return -1.;
      double minutes = 0.;
      if (!(in >> minutes >> unit) || unit != "min")
        return -1.;
      return 3600. * value + 60. * minutes;
    }

    HistoryWriter::HistoryWriter(const std::string &path, const bool restart,
                                 const std::uint64_t restart_bytes,
                                 const bool          boundary_layer_columns)
      : path_(path)
      , boundary_layer_columns_(boundary_layer_columns)
    {
      if (restart)
        std::filesystem::resize_file(path, restart_bytes); // rows after the checkpoint
      file_.open(path, restart ? std::ios::app : std::ios::trunc);
      if (!file_)
        throw std::runtime_error("cannot write " + path);
      if (!restart) // a restart appends to the rows up to the checkpoint
        file_ << "t,phase,F_N,F_T,kI,kI_avg,platen_u1,platen_u2,particle_x,particle_y,"
                 "particle_theta,particle_vx,particle_vy,particle_omega,surface_fN,surface_fT,"
                 "surface_contact,surface_stick,rubber_force_x,rubber_force_y,rubber_moment,"
                 "contacts_rubber_surface,slipping_rubber_surface,contacts_rubber_particle,"
                 "slipping_rubber_particle,newton_iterations,dem_substeps,"
                 "dissipation_rubber_surface,dissipation_rubber_particle,"
                 "dissipation_particle_surface,dissipation_damping,dissipation_viscous,"
                 "dissipation_numerical,energy_total,platen_work,"
                 "particle_energy_residual"
              << (boundary_layer_columns ? ",D_bottom_max,D_bottom_p99,D_bottom_p50,"
                                           "H_bottom_max,H_bottom_p99,H_bottom_p50" :
                                           "")
              << '\n';
      file_ << std::setprecision(10);
    }

    HistoryRow interpolate(const HistoryRow &a, const HistoryRow &b, const double w,
                           const char *phase)
    {
      const auto lerp = [w](double x, double y) { return x + w * (y - x); };
      HistoryRow r       = b;
      r.t                = lerp(a.t, b.t);
      r.phase            = phase;
      r.normal_force     = lerp(a.normal_force, b.normal_force);
      r.tangential_force = lerp(a.tangential_force, b.tangential_force);
      r.kI = r.normal_force != 0. ? std::abs(r.tangential_force / r.normal_force) : 0.;
      // k_I* is 0 until the window has a length (MacroscopicFriction): if it opens at a,
      // the mean at the row is the trapezoidal mean from a (eq. (12) with the row as the
      // window's second sample), not a blend with that 0
      r.kI_avg = (a.kI_avg == 0. && b.kI_avg != 0.) ? 0.5 * (a.kI + r.kI) :
                                                      lerp(a.kI_avg, b.kI_avg);
      r.platen_u1 = lerp(a.platen_u1, b.platen_u1);
      r.platen_u2 = lerp(a.platen_u2, b.platen_u2);
      if (a.particle && b.particle)
        {
          const HistoryRow::Particle &p = *a.particle, &q = *b.particle;
          HistoryRow::Particle       &o = *r.particle;
          o.x = lerp(p.x, q.x), o.y = lerp(p.y, q.y), o.theta = lerp(p.theta, q.theta);
          o.vx = lerp(p.vx, q.vx), o.vy = lerp(p.vy, q.vy), o.omega = lerp(p.omega, q.omega);
          o.surface_fN     = lerp(p.surface_fN, q.surface_fN);
          o.surface_fT     = lerp(p.surface_fT, q.surface_fT);
          o.rubber_force_x = lerp(p.rubber_force_x, q.rubber_force_x);
          o.rubber_force_y = lerp(p.rubber_force_y, q.rubber_force_y);
          o.rubber_moment  = lerp(p.rubber_moment, q.rubber_moment);
        }
      r.newton_iterations = 0;
      r.dem_substeps      = 0;
      r.dissipation_rubber_surface =
        lerp(a.dissipation_rubber_surface, b.dissipation_rubber_surface);
      r.dissipation_rubber_particle =
        lerp(a.dissipation_rubber_particle, b.dissipation_rubber_particle);
      r.dissipation_particle_surface =
        lerp(a.dissipation_particle_surface, b.dissipation_particle_surface);
      r.dissipation_damping   = lerp(a.dissipation_damping, b.dissipation_damping);
      r.dissipation_viscous   = lerp(a.dissipation_viscous, b.dissipation_viscous);
      r.dissipation_numerical = lerp(a.dissipation_numerical, b.dissipation_numerical);
      r.energy_total          = lerp(a.energy_total, b.energy_total);
      r.platen_work           = lerp(a.platen_work, b.platen_work);
      r.particle_energy_residual = lerp(a.particle_energy_residual, b.particle_energy_residual);
      return r;
    }

    void HistoryWriter::write(const HistoryRow &r)
    {
      file_ << r.t << ',' << r.phase << ',' << r.normal_force << ',' << r.tangential_force << ','
            << r.kI << ',' << r.kI_avg << ',' << r.platen_u1 << ',' << r.platen_u2 << ',';
      if (r.particle)
        {
          const HistoryRow::Particle &p = *r.particle;
          file_ << p.x << ',' << p.y << ',' << p.theta << ',' << p.vx << ',' << p.vy << ','
                << p.omega << ',' << p.surface_fN << ',' << p.surface_fT << ','
                << p.surface_contact << ',' << p.surface_stick << ',' << p.rubber_force_x << ','
                << p.rubber_force_y << ',' << p.rubber_moment << ',';
        }
      else
        file_ << ",,,,,,,,,,,,,";
      file_ << r.contacts_rubber_surface << ',' << r.slipping_rubber_surface << ','
            << r.contacts_rubber_particle << ',' << r.slipping_rubber_particle << ','
            << r.newton_iterations << ',' << r.dem_substeps << ','
            << r.dissipation_rubber_surface << ',' << r.dissipation_rubber_particle << ','
            << r.dissipation_particle_surface << ',' << r.dissipation_damping << ','
            << r.dissipation_viscous << ',' << r.dissipation_numerical << ',' << r.energy_total
            << ',' << r.platen_work << ',' << r.particle_energy_residual;
      if (boundary_layer_columns_)
        file_ << ',' << r.rate_max << ',' << r.rate_p99 << ',' << r.rate_p50 << ','
              << r.payne_factor_max << ',' << r.payne_factor_p99 << ','
              << r.payne_factor_p50;
      file_ << '\n';
      check();
    }

    void HistoryWriter::check()
    {
      if (!file_)
        stop_after_failed_row(file_, path_);
    }

    std::uint64_t HistoryWriter::flush()
    {
      file_.flush();
      check();
      return static_cast<std::uint64_t>(file_.tellp());
    }

    RemainingTime::RemainingTime(std::vector<Phase> phases, const double reference_step,
                                 const double prior_iterations)
      : phases_(std::move(phases))
      , reference_step_(reference_step)
      , prior_iterations_(prior_iterations)
      , wall_(phases_.size(), 0.)
      , simulated_(phases_.size(), 0.)
    {}

    void RemainingTime::record(const double t0, const double t, const double wall_seconds,
                               const unsigned int newton_iterations)
    {
      // steps land on the phases' ends: the step's middle names its phase
      const double middle = 0.5 * (t0 + t);
      unsigned int i      = 0;
      while (i + 1 < phases_.size() && middle > phases_[i].end)
        ++i;
      wall_[i] += wall_seconds;
      simulated_[i] += t - t0;
      total_wall_ += wall_seconds;
      total_iterations_ += newton_iterations;
    }

    double RemainingTime::prior() const
    {
      return total_iterations_ > 0 ?
               total_wall_ / total_iterations_ * prior_iterations_ / reference_step_ :
               0.;
    }

    double RemainingTime::rate(const unsigned int i) const
    {
      const Phase &phase = phases_[i];
      double       base  = prior();
      if (phase.like < i)
        {
          const double like = rate(phase.like);
          base              = std::max(like, std::min(phase.scale * like, prior()));
        }
      if (simulated_[i] <= 0.)
        return base;
      const double trusted = std::min(phase.end - start(i), phase.trust_time);
      const double w       = std::min(1., simulated_[i] / trusted);
      return w * wall_[i] / simulated_[i] + (1. - w) * base;
    }

    double RemainingTime::seconds_left(const double t) const
    {
      double left = 0.;
      for (unsigned int i = 0; i < phases_.size(); ++i)
        if (phases_[i].end > t)
          left += (phases_[i].end - std::max(t, start(i))) * rate(i);
      return left;
    }
  } // namespace coupling
} // namespace granular
