// What a run writes about itself (docs/methods.md §8.2). See run_record.h.
#include "coupling/run_record.h"

#include "base/atomic_file.h"
#include "base/csv_columns.h"

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
  const std::vector<CsvColumn<RunSummary>> &summary_columns()
  {
    using S = RunSummary;
    // the energy ledger's created energy of component @p c over the run or the window
    const auto created = [](std::string name, const char *meaning, const bool window,
                            double CreatedEnergy::*c) {
      return CsvColumn<S>{name, "N·mm/mm", meaning,
                          [window, c](std::ostream &o, const S &s) {
                            o << (window ? s.created_energy_in_window : s.created_energy).*c;
                          }};
    };
    static const std::vector<CsvColumn<S>> columns = [&] {
      std::vector<CsvColumn<S>> c = {
        member_column("kbar", "–",
                      "k̄: the time average of k_I = \\|F_T/F_N\\| on the top surface over the window",
                      &S::kbar),
        member_column("kbar_F", "–",
                      "k̄_F: the frictional dissipation of the three interfaces over the window per "
                      "unit of the window's normal work ∫F_N v̄_F dt",
                      &S::kbar_F),
        member_column("kbar_V", "–",
                      "k̄_V: the rubber's viscous dissipation over the window per unit of the same "
                      "normal work (0 for the elastic rubber)",
                      &S::kbar_V),
        member_column("kbar_spread", "–",
                      "max − min of the moving average of k_I over the last quarter of the window: "
                      "how converged k̄ is",
                      &S::kbar_spread),
        member_column("pressure", "MPa",
                      "p̄",
                      &S::pressure),
        member_column("slip_velocity", "mm/s",
                      "v̄_F",
                      &S::slip_velocity),
        member_column("relaxation_time", "s",
                      "τ0 of the Maxwell branch (written also for the elastic rubber)",
                      &S::relaxation_time),
        member_column("payne_d", "s",
                      "the Payne parameter d",
                      &S::payne_d),
        member_column("r1", "mm",
                      "the particle's semi-axes (0 without a particle)",
                      &S::r1),
        member_column("r2", "mm",
                      "the particle's semi-axes (0 without a particle)",
                      &S::r2),
        member_column("p1", "–",
                      "the particle's superellipse exponents",
                      &S::p1),
        member_column("p2", "–",
                      "the particle's superellipse exponents",
                      &S::p2),
        member_column("energy_balance_error", "– (fraction)",
                      "\\|platen work − ΔE − dissipation\\| / \\|platen work\\| at the end of the "
                      "run, Newmark's numerical dissipation counted as dissipation (0.035 = 3.5 %)",
                      &S::energy_balance_error),
        member_column("steps", "–",
                      "time steps computed (an adaptive step counts once)",
                      &S::steps),
        member_column("newton_iterations", "–",
                      "Newton iterations of the accepted attempts",
                      &S::newton_iterations),
        member_column("cutbacks", "–",
                      "step halvings after a failed Newton attempt",
                      &S::cutbacks),
        member_column("wall_time", "s",
                      "wall time of the run (summed over the processes of a restarted run)",
                      &S::wall_time),
        member_column("time_assembly", "s",
                      "wall time in each section",
                      &S::time_assembly),
        member_column("time_factorization", "s",
                      "wall time in each section",
                      &S::time_factorization),
        member_column("time_solve", "s",
                      "wall time in each section",
                      &S::time_solve),
        member_column("time_particle", "s",
                      "wall time in each section",
                      &S::time_particle),
        member_column("time_output", "s",
                      "wall time in each section",
                      &S::time_output),
        member_column("dissipation_rubber_surface", "N·mm/mm",
                      "frictional dissipation of each interface over the window",
                      &S::dissipation_rubber_surface),
        member_column("dissipation_rubber_particle", "N·mm/mm",
                      "frictional dissipation of each interface over the window",
                      &S::dissipation_rubber_particle),
        member_column("dissipation_particle_surface", "N·mm/mm",
                      "frictional dissipation of each interface over the window",
                      &S::dissipation_particle_surface),
        member_column("dissipation_damping", "N·mm/mm",
                      "the particle–surface normal law's damping over the window",
                      &S::dissipation_damping),
        member_column("dissipation_viscous", "N·mm/mm",
                      "the rubber's viscous dissipation over the window",
                      &S::dissipation_viscous),
        member_column("mean_normal_force", "N/mm",
                      "mean F_N over the window",
                      &S::mean_normal_force),
        member_column("mean_particle_speed", "mm/s",
                      "mean \\|v_x\\| of the particle over the window",
                      &S::mean_particle_speed),
        member_column("mean_rolling_speed", "mm/s",
                      "mean \\|ω\\| r0 over the window",
                      &S::mean_rolling_speed),
        member_column("dem_substeps", "–",
                      "explicit particle sub-steps in all (staggered coupling; 0 with the monolithic "
                      "default)",
                      &S::dem_substeps),
        member_column("factorizations", "–",
                      "full LU factorizations of the tangent in all (KLU)",
                      &S::factorizations),
        member_column("coupling_passes", "–",
                      "extra particle/rubber passes of the staggered scheme's sub-iterations",
                      &S::coupling_passes),
        member_column("dissipation_numerical", "N·mm/mm",
                      "Newmark's algorithmic dissipation over the window (rubber and particle): a "
                      "term of the energy balance, not part of `kbar_F` ([docs/methods.md "
                      "§2.2](methods.md#22-what-is-measured))",
                      &S::dissipation_numerical),
        member_column("assemblies", "–",
                      "assemblies of the Newton system: line-search trials included (the shorter ones "
                      "residual-only), and the tangent assembled after such a trial is accepted "
                      "counted again",
                      &S::assemblies),
        member_column("failed_newton_iterations", "–",
                      "Newton iterations of attempts that were cut back and of steps that were "
                      "rejected (`newton_iterations` counts the accepted attempts only)",
                      &S::failed_newton_iterations),
        member_column("max_penetration_rubber_surface", "mm",
                      "the largest penetration of a rubber contact point into the surface over the "
                      "run: how far the penalty lets the constraint be violated",
                      &S::max_penetration_rubber_surface),
        member_column("max_penetration_rubber_particle", "mm",
                      "the same into the particle",
                      &S::max_penetration_rubber_particle),
        member_column("dissipation_velocity_update", "N·mm/mm",
                      "the part of `dissipation_numerical` that `Solver/Rubber-particle velocity "
                      "update` took at the step starts over the window (0 without it; "
                      "[docs/methods.md §6.1](methods.md#61-the-velocity-update-at-the-step-starts-selectable))",
                      &S::dissipation_velocity_update),
        member_column("block_length", "mm",
                      "L0, H0 of the cell",
                      &S::block_length),
        member_column("block_height", "mm",
                      "L0, H0 of the cell",
                      &S::block_height),
        member_column("elements_x", "–",
                      "the structured mesh (0 with a mesh file)",
                      &S::elements_x),
        member_column("elements_y", "–",
                      "the structured mesh (0 with a mesh file)",
                      &S::elements_y),
        member_column("time_step", "s",
                      "Δt = `Loading/Time step` × T0 (the reference step)",
                      &S::time_step),
      };
      // the energy ledger's created energy per component, over the run and over the window,
      // between time_step and rejected_steps
      const std::pair<const char *, double CreatedEnergy::*> components[] = {
        {"bulk", &CreatedEnergy::bulk},
        {"rubber_surface", &CreatedEnergy::rubber_surface},
        {"rubber_particle", &CreatedEnergy::rubber_particle},
        {"particle_surface", &CreatedEnergy::particle_surface},
        {"platen", &CreatedEnergy::platen},
        {"unassigned", &CreatedEnergy::unassigned}};
      for (const bool window : {false, true})
        for (const auto &[name, member] : components)
          c.push_back(created(std::string(window ? "created_window_" : "created_") + name,
                              window ? "the same over the window" :
                                       "the energy ledger's created energy R per component over "
                                       "the whole run ([energy.csv](#energycsv)); their sum is "
                                       "−(platen work − ΔE − dissipation)",
                              window, member));
      for (CsvColumn<S> &column : std::vector<CsvColumn<S>>{
        member_column("rejected_steps", "–",
                      "adaptive steps longer than Δt that were rejected for their energy error and "
                      "repeated with half their length (`Solver/Step rejection`, [docs/methods.md "
                      "§3.6](methods.md#36-rubber-inertia-and-time-integration)); nothing else of a "
                      "rejected attempt is in the outputs but its cost (`failed_newton_iterations`, "
                      "`assemblies`, `assemblies_failed`, `factorizations`)",
                      &S::rejected_steps),
        member_column("assemblies_line_search", "–",
                      "of `assemblies`: the residual-only line-search trials of steps shorter than "
                      "the Newton step",
                      &S::assemblies_line_search),
        member_column("assemblies_failed", "–",
                      "of `assemblies`: all those (Newton iterates, trials, tangents) of attempts "
                      "that were cut back and of steps that were rejected: the work thrown away",
                      &S::assemblies_failed),
        member_column("particles", "–",
                      "N, the particles of the cell (`Particles/Number` or `Particles/List`; 0 "
                      "for the bare interface); with several, `r1` … `p2` are particle 0's",
                      &S::particles),
        member_column("dissipation_particle_particle", "N·mm/mm",
                      "frictional dissipation of the contacts between particles over the window "
                      "(part of `kbar_F`; 0 with one particle)",
                      &S::dissipation_particle_particle),
        member_column("dissipation_particle_particle_damping", "N·mm/mm",
                      "the damping of the contacts between particles over the window (0 with one "
                      "particle)",
                      &S::dissipation_particle_particle_damping),
        member_column("pair_overlap_evaluations", "–",
                      "evaluations of the common-normal condition g′(φ) in the closest-normal "
                      "solves of the contacts between particles over the run, in every assembly "
                      "of the steps kept (each one support point per particle; [docs/methods.md "
                      "§4.3](methods.md#43-overlap-of-two-particles)); 0 with one particle",
                      &S::pair_overlap_evaluations),
        member_column("kbar_signed", "–",
                      "the time average of the signed ratio F_T/F_N over the window: `kbar` "
                      "without the absolute value; equal to `kbar` while F_T resists the dragging "
                      "throughout ([docs/methods.md §2.2](methods.md#22-what-is-measured))",
                      &S::kbar_signed),
        member_column("reversed_fraction", "– (fraction)",
                      "the share of the window's time in which F_T < 0, the rubber pushing the "
                      "platen along (0.25 = 25 %); `kbar` counts that time as friction too",
                      &S::reversed_fraction),
        member_column("factorization_flops", "–",
                      "floating-point operations of one LU factorization of the tangent at the "
                      "end of the run (KLU's count, with the pivots of the last full "
                      "factorization): times `factorizations`, the LU's work in a measure that "
                      "does not depend on the machine",
                      &S::factorization_flops)})
        c.push_back(std::move(column));
      return c;
    }();
    return columns;
  }

  std::string summary_csv(const RunSummary &s)
  {
    std::ostringstream o;
    o << csv_header(summary_columns()) << '\n' << std::setprecision(10);
    write_csv_row(o, summary_columns(), s);
    o << '\n';
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
      << " N mm/mm";
    if (s.dissipation_velocity_update > 0.)
      o << ", of which the velocity update at the step starts took "
        << s.dissipation_velocity_update << ",";
    o << " is part of the balance, not of kbar_F)\n"
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
    if (s.reversed_fraction >= reversed_fraction_noted)
      o << std::setprecision(3) << "  note: F_T < 0 (the rubber pushes the platen along) for "
        << 100. * s.reversed_fraction
        << " % of the window; kbar averages |F_T/F_N| and counts that time as friction, the "
           "signed mean of F_T/F_N is "
        << std::setprecision(5) << s.kbar_signed
        << " (docs/methods.md §2.2, \"When F_T reverses\")\n";
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

    const std::vector<CsvColumn<ParticleRow>> &particle_columns()
    {
      using R = ParticleRow;
      static const std::vector<CsvColumn<R>> columns = {
        member_column("t", "s", "time", &R::t),
        member_column("particle", "–",
                      "the particle's index: the order of `Particles/List`, or of the generated "
                      "layer from x = 0; particle 0 is the one of history.csv",
                      &R::particle),
        member_column("x", "mm", "its centre, x wrapped into the cell [0, L0)", &R::x),
        member_column("y", "mm", "its centre, x wrapped into the cell [0, L0)", &R::y),
        member_column("theta", "rad", "its rotation, counter-clockwise", &R::theta),
        member_column("vx", "mm/s", "its velocity", &R::vx),
        member_column("vy", "mm/s", "its velocity", &R::vy),
        member_column("omega", "rad/s", "its angular velocity", &R::omega),
        member_column("x_unwrapped", "mm", "its centre's x without the periodic wrapping",
                      &R::x_unwrapped),
        member_column("surface_fN", "N/mm",
                      "its particle–surface contact: normal and tangential force", &R::surface_fN),
        member_column("surface_fT", "N/mm",
                      "its particle–surface contact: normal and tangential force", &R::surface_fT),
        member_column("surface_contact", "–",
                      "1 if it touches the surface, 1 if that contact sticks",
                      &R::surface_contact),
        member_column("surface_stick", "–",
                      "1 if it touches the surface, 1 if that contact sticks", &R::surface_stick),
        member_column("contacts_rubber_particle", "–",
                      "the rubber's contact points touching it, and of them those slipping",
                      &R::contacts_rubber_particle),
        member_column("slipping_rubber_particle", "–",
                      "the rubber's contact points touching it, and of them those slipping",
                      &R::slipping_rubber_particle),
        member_column("r1", "mm", "its semi-axes", &R::r1),
        member_column("r2", "mm", "its semi-axes", &R::r2),
        member_column("p1", "–", "its superellipse exponents", &R::p1),
        member_column("p2", "–", "its superellipse exponents", &R::p2)};
      return columns;
    }

    const std::vector<CsvColumn<HistoryRow>> &history_columns(const bool boundary_layer)
    {
      using H = HistoryRow;
      // a particle column: empty without a particle
      const auto particle = [](const char *name, const char *unit, const char *meaning,
                               auto member) {
        return CsvColumn<H>{name, unit, meaning, [member](std::ostream &o, const H &r) {
                              if (r.particle)
                                o << (*r.particle).*member;
                            }};
      };
      // phase is a C string
      const auto phase = [](std::ostream &o, const H &r) { o << r.phase; };
      static const std::vector<CsvColumn<H>> common = {
        member_column("t", "s",
                      "time",
                      &H::t),
        {"phase", "–",
         "`compression` (t ≤ T0: load ramp and hold), `transition` (t ≤ 2 T0: dragging "
         "starts), `averaging` (the window)",
         phase},
        member_column("F_N", "N/mm",
                      "normal and tangential force on the top surface",
                      &H::F_N),
        member_column("F_T", "N/mm",
                      "normal and tangential force on the top surface",
                      &H::F_T),
        member_column("kI", "–",
                      "k_I = \\|F_T/F_N\\|",
                      &H::kI),
        member_column("kI_avg", "–",
                      "the moving average of k_I over the window so far (0 before 2 T0); its last "
                      "value is k̄",
                      &H::kI_avg),
        member_column("platen_u1", "mm",
                      "the platen's horizontal and vertical displacement",
                      &H::platen_u1),
        member_column("platen_u2", "mm",
                      "the platen's horizontal and vertical displacement",
                      &H::platen_u2),
        particle("particle_x", "mm",
                 "the particle's centre (empty without a particle, like all particle columns; "
                 "with several, particle 0's: the others are in particles.csv)",
                 &H::Particle::x),
        particle("particle_y", "mm",
                 "the particle's centre (empty without a particle, like all particle columns)",
                 &H::Particle::y),
        particle("particle_theta", "rad",
                 "its rotation",
                 &H::Particle::theta),
        particle("particle_vx", "mm/s",
                 "its velocity",
                 &H::Particle::vx),
        particle("particle_vy", "mm/s",
                 "its velocity",
                 &H::Particle::vy),
        particle("particle_omega", "rad/s",
                 "its angular velocity",
                 &H::Particle::omega),
        particle("surface_fN", "N/mm",
                 "normal and tangential force of the particle–surface contact",
                 &H::Particle::surface_fN),
        particle("surface_fT", "N/mm",
                 "normal and tangential force of the particle–surface contact",
                 &H::Particle::surface_fT),
        particle("surface_contact", "0/1",
                 "the particle touches the surface; the contact sticks",
                 &H::Particle::surface_contact),
        particle("surface_stick", "0/1",
                 "the particle touches the surface; the contact sticks",
                 &H::Particle::surface_stick),
        particle("rubber_force_x", "N/mm",
                 "force of the rubber on the particle",
                 &H::Particle::rubber_force_x),
        particle("rubber_force_y", "N/mm",
                 "force of the rubber on the particle",
                 &H::Particle::rubber_force_y),
        particle("rubber_moment", "N·mm/mm",
                 "moment of the rubber tractions on the particle about its centre",
                 &H::Particle::rubber_moment),
        member_column("contacts_rubber_surface", "–",
                      "rubber contact points touching the surface, and of those the slipping ones",
                      &H::contacts_rubber_surface),
        member_column("slipping_rubber_surface", "–",
                      "rubber contact points touching the surface, and of those the slipping ones",
                      &H::slipping_rubber_surface),
        member_column("contacts_rubber_particle", "–",
                      "the same for the rubber–particle contact (summed over the particles; "
                      "per particle in particles.csv)",
                      &H::contacts_rubber_particle),
        member_column("slipping_rubber_particle", "–",
                      "the same for the rubber–particle contact (summed over the particles; "
                      "per particle in particles.csv)",
                      &H::slipping_rubber_particle),
        member_column("newton_iterations", "–",
                      "Newton iterations of the step (0: an interpolated row)",
                      &H::newton_iterations),
        member_column("dem_substeps", "–",
                      "explicit particle sub-steps of the step (staggered coupling)",
                      &H::dem_substeps),
        member_column("dissipation_rubber_surface", "N·mm/mm",
                      "frictional dissipation of each interface",
                      &H::dissipation_rubber_surface),
        member_column("dissipation_rubber_particle", "N·mm/mm",
                      "frictional dissipation of each interface",
                      &H::dissipation_rubber_particle),
        member_column("dissipation_particle_surface", "N·mm/mm",
                      "frictional dissipation of each interface",
                      &H::dissipation_particle_surface),
        member_column("dissipation_damping", "N·mm/mm",
                      "the particle–surface normal law's damping",
                      &H::dissipation_damping),
        member_column("dissipation_viscous", "N·mm/mm",
                      "the rubber's viscous dissipation",
                      &H::dissipation_viscous),
        member_column("dissipation_numerical", "N·mm/mm",
                      "Newmark's algorithmic dissipation",
                      &H::dissipation_numerical),
        member_column("energy_total", "N·mm/mm",
                      "energy of rubber and particle: stored, kinetic, contact springs, gravitational",
                      &H::energy_total),
        member_column("platen_work", "N·mm/mm",
                      "work done by the platen",
                      &H::platen_work),
        member_column("particle_energy_residual", "N·mm/mm",
                      "the particle's own balance: its ΔE + dissipation − work of the rubber force; "
                      "non-zero means the particle side creates or loses energy",
                      &H::particle_energy_residual),
      };
      static const std::vector<CsvColumn<H>> with_boundary_layer = [&] {
        std::vector<CsvColumn<H>> c = common;
        for (CsvColumn<H> b : std::vector<CsvColumn<H>>{
        member_column("D_bottom_max", "1/s",
                      "the largest, 99th and 50th percentile (nearest rank) of ‖D‖, the Frobenius "
                      "norm of the step's rate of deformation that drives the Payne variable q, over "
                      "the quadrature points of the cells on the bottom boundary",
                      &H::D_bottom_max),
        member_column("D_bottom_p99", "1/s",
                      "the largest, 99th and 50th percentile (nearest rank) of ‖D‖, the Frobenius "
                      "norm of the step's rate of deformation that drives the Payne variable q, over "
                      "the quadrature points of the cells on the bottom boundary",
                      &H::D_bottom_p99),
        member_column("D_bottom_p50", "1/s",
                      "the largest, 99th and 50th percentile (nearest rank) of ‖D‖, the Frobenius "
                      "norm of the step's rate of deformation that drives the Payne variable q, over "
                      "the quadrature points of the cells on the bottom boundary",
                      &H::D_bottom_p50),
        member_column("H_bottom_max", "–",
                      "the same of the Payne factor H = 1 + d q that divides the viscosity "
                      "([docs/methods.md §3.4](methods.md#34-payne-effect))",
                      &H::H_bottom_max),
        member_column("H_bottom_p99", "–",
                      "the same of the Payne factor H = 1 + d q that divides the viscosity "
                      "([docs/methods.md §3.4](methods.md#34-payne-effect))",
                      &H::H_bottom_p99),
        member_column("H_bottom_p50", "–",
                      "the same of the Payne factor H = 1 + d q that divides the viscosity "
                      "([docs/methods.md §3.4](methods.md#34-payne-effect))",
                      &H::H_bottom_p50),
             })
          c.push_back(std::move(b));
        return c;
      }();
      return boundary_layer ? with_boundary_layer : common;
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
        file_ << csv_header(history_columns(boundary_layer_columns)) << '\n';
      file_ << std::setprecision(10);
    }

    HistoryRow interpolate(const HistoryRow &a, const HistoryRow &b, const double w,
                           const char *phase)
    {
      const auto lerp = [w](double x, double y) { return x + w * (y - x); };
      HistoryRow r       = b;
      r.t                = lerp(a.t, b.t);
      r.phase            = phase;
      r.F_N              = lerp(a.F_N, b.F_N);
      r.F_T              = lerp(a.F_T, b.F_T);
      r.kI = r.F_N != 0. ? std::abs(r.F_T / r.F_N) : 0.;
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
      write_csv_row(file_, history_columns(boundary_layer_columns_), r);
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
