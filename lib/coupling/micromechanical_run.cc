#include "coupling/micromechanical_run.h"

#include "contact/rubber_particle_contact.h"
#include "coupling/macroscopic_friction.h"
#include "coupling/monolithic_particle.h"
#include "dem/particle.h"
#include "fem/rubber_block.h"
#include "base/atomic_file.h"
#include "base/parameter_error.h"
#include "dem/particle_output.h"
#include "base/serialization.h"

#include <deal.II/base/parameter_handler.h>
#include <deal.II/base/timer.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

namespace granular
{
  namespace
  {
    /// Phases of spec §2.1.
    const char *phase_name(double t, double T0)
    {
      return t <= T0 * (1. + 1e-12) ? "compression" :
             t <= 2. * T0 * (1. + 1e-12) ? "transition" : "averaging";
    }

    /// Loading program of spec §2.1: platen u1(t) and vertical load (N/mm) at t.
    struct LoadingProgram
    {
      double T0, ramp_time, slip_velocity, full_load;
      double platen_u1(double t) const
      {
        return t > T0 ? slip_velocity * (t - T0) : 0.;
      }
      double platen_load(double t) const
      {
        return full_load * std::min(1., t / ramp_time);
      }
    };

    /// Accumulated dissipation by mechanism (N mm per mm thickness).
    struct Dissipation
    {
      double rubber_surface = 0., rubber_particle = 0., particle_surface = 0., damping = 0.;
      double viscous = 0.; ///< Maxwell branch
      /// Newmark's algorithmic dissipation (rubber and, monolithic, particle); not physical
      double numerical = 0.;
      double frictional() const { return rubber_surface + rubber_particle + particle_surface; }
      double total() const { return frictional() + damping + viscous + numerical; }

      template <class Archive>
      void serialize(Archive &ar, const unsigned int)
      {
        ar &rubber_surface &rubber_particle &particle_surface &damping &viscous &numerical;
      }
    };

    /// The time loop's accumulators: everything besides the block, particle and interface
    /// that a checkpoint must carry so that a restarted run repeats the uninterrupted one.
    struct LoopState
    {
      unsigned int step     = 0;  ///< completed time steps
      double       energy_0 = 0.; ///< total energy at t = 0 (N mm/mm)
      double       platen_work = 0., u1_old = 0., u2_old = 0., load_old = 0.;
      /// F_N, F_T of the last step (F_T enters the platen work; F_N is not read, but it is
      /// part of checkpoint format 1)
      double       normal_force_old_platen = 0., tangential_force_old_platen = 0.;
      Dissipation  at_window_start;
      double       normal_work_window = 0., normal_force_integral = 0., normal_force_old = 0.;
      double       speed_integral = 0., rolling_integral = 0.;
      bool         window_open = false;
      /// rubber force and moment on the particle at t_n (zero before the first solve)
      dealii::Tensor<1, 2> rubber_force;
      double               rubber_moment   = 0.;
      unsigned long        coupling_passes = 0;
      unsigned int         newton_iterations = 0, cutbacks = 0;
      /// wall time and TimerOutput sections (assembly, factorization, solve, particle,
      /// output) of the processes before this one (s)
      double                wall_time = 0.;
      std::array<double, 5> section_times{};
      std::uint64_t         history_bytes = 0; ///< size of history.csv at the checkpoint

      template <class Archive>
      void serialize(Archive &ar, const unsigned int)
      {
        ar &step &energy_0 &platen_work &u1_old &u2_old &load_old &normal_force_old_platen
          &tangential_force_old_platen &at_window_start &normal_work_window
            &normal_force_integral &normal_force_old &speed_integral &rolling_integral
              &window_open &rubber_force &rubber_moment &coupling_passes &newton_iterations
                &cutbacks &wall_time &section_times &history_bytes;
      }
    };

    /// "42 s", "17 min", "3 h 05 min"
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

    const char *const section_names[5] = {"assembly", "factorization", "solve", "particle",
                                          "output"};
    const std::string checkpoint_magic   = "granular-interface checkpoint";
    constexpr unsigned int checkpoint_format = 1;

    /// Set by SIGINT/SIGTERM (the signal number) or request_checkpoint_and_stop() (-1).
    volatile std::sig_atomic_t stop_request = 0;

    /// The first SIGINT/SIGTERM asks for a checkpoint and a stop after the step in
    /// progress; a second one (an impatient Ctrl-C) ends the process at once.
    extern "C" void on_stop_signal(int signal)
    {
      if (stop_request > 0)
        {
          std::signal(signal, SIG_DFL);
          std::raise(signal);
          return;
        }
      stop_request = signal;
    }

    /// Installs the SIGINT/SIGTERM handlers for the lifetime of a run with checkpoints.
    class StopSignalHandlers
    {
    public:
      explicit StopSignalHandlers(bool install)
        : installed_(install)
      {
        stop_request = 0;
        if (installed_)
          {
            previous_int_  = std::signal(SIGINT, on_stop_signal);
            previous_term_ = std::signal(SIGTERM, on_stop_signal);
          }
      }
      ~StopSignalHandlers()
      {
        if (installed_)
          {
            std::signal(SIGINT, previous_int_);
            std::signal(SIGTERM, previous_term_);
          }
        stop_request = 0;
      }
      StopSignalHandlers(const StopSignalHandlers &) = delete;
      StopSignalHandlers &operator=(const StopSignalHandlers &) = delete;

    private:
      bool installed_;
      void (*previous_int_)(int)  = SIG_DFL;
      void (*previous_term_)(int) = SIG_DFL;
    };

    /// The entries of @p prm as (Sub/section/Entry, value), without subsection Output: what
    /// a restart must match.
    std::vector<std::pair<std::string, std::string>>
    physics_entries(const dealii::ParameterHandler &prm)
    {
      std::ostringstream text;
      prm.print_parameters(text, dealii::ParameterHandler::ShortPRM);
      std::vector<std::pair<std::string, std::string>> entries;
      std::vector<std::string> path;
      std::istringstream       in(text.str());
      std::string              line;
      auto trim = [](const std::string &s) {
        const auto a = s.find_first_not_of(" \t");
        const auto b = s.find_last_not_of(" \t");
        return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
      };
      while (std::getline(in, line))
        {
          line = trim(line);
          if (line.rfind("subsection ", 0) == 0)
            path.push_back(trim(line.substr(11)));
          else if (line == "end" && !path.empty())
            path.pop_back();
          else if (line.rfind("set ", 0) == 0 && (path.empty() || path.front() != "Output"))
            {
              const auto  eq   = line.find('=');
              std::string name;
              for (const auto &p : path)
                name += p + "/";
              name += trim(line.substr(4, eq - 4));
              entries.emplace_back(name, eq == std::string::npos ? "" : trim(line.substr(eq + 1)));
            }
        }
      return entries;
    }

    /// Throws ParameterError naming the entries that differ between a checkpoint and now.
    void check_same_physics(const std::vector<std::pair<std::string, std::string>> &saved,
                            const std::vector<std::pair<std::string, std::string>> &now,
                            const std::string &checkpoint)
    {
      std::map<std::string, std::string> a(saved.begin(), saved.end()), b(now.begin(), now.end());
      std::string differences, first;
      for (const auto &[name, value] : b)
        {
          const auto it = a.find(name);
          const std::string old = it == a.end() ? "(not present)" : it->second;
          if (old != value)
            {
              if (first.empty())
                first = name;
              differences += "\n  " + name + ": \"" + old + "\" in the checkpoint, \"" + value +
                             "\" now";
            }
        }
      for (const auto &[name, value] : a)
        if (b.count(name) == 0)
          {
            if (first.empty())
              first = name;
            differences += "\n  " + name + ": \"" + value + "\" in the checkpoint, not present now";
          }
      if (!differences.empty())
        throw ParameterError(first, "--restart needs the parameters " + checkpoint +
                                      " was written with (only subsection Output may "
                                      "differ); nothing was changed. Differences:" +
                                      differences);
    }
  } // namespace

  void request_checkpoint_and_stop() { stop_request = -1; }

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
         "coupling_passes,dissipation_numerical,assemblies,failed_newton_iterations\n";
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
      << '\n';
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
      << " per step), " << s.cutbacks << " cut-backs (" << s.failed_newton_iterations
      << " iterations in failed attempts), " << s.assemblies
      << " assemblies with the line-search trials, wall time " << s.wall_time
      << " s (assembly " << s.time_assembly << ", factorization " << s.time_factorization
      << ", solve " << s.time_solve << ", particle " << s.time_particle << ", output "
      << s.time_output << ")\n";
    return o.str();
  }

  RunSummary run_micromechanical_test(const RunParameters &P,
                                      const dealii::ParameterHandler &prm,
                                      const std::function<void()> &after_each_step)
  {
    namespace fs = std::filesystem;
    const auto        wall_start = std::chrono::steady_clock::now();
    const std::string dir        = P.output.output_directory;
    const std::string checkpoint_file = dir + "/checkpoint.bin";
    const StopSignalHandlers stop_handlers(P.output.checkpoints());

    const double       L0      = P.block.length;
    const double       T0      = P.loading.nominal_dragging_time(L0);
    const double       dt      = P.loading.time_step(L0);
    const double       t_end   = P.loading.end_time(L0);
    const unsigned int n_steps = static_cast<unsigned int>(std::llround(t_end / dt));
    const LoadingProgram loading{T0, P.loading.ramp_fraction * T0, P.loading.slip_velocity,
                                 P.loading.pressure * L0};

    dealii::TimerOutput timer(std::cout, dealii::TimerOutput::never,
                              dealii::TimerOutput::wall_times);

    // ---- the particle (DEM), initially resting on the surface at x = L0/2 ---------------
    std::unique_ptr<dem::Particle> particle;
    double                         bottom_height = P.block.initial_gap;
    if (P.particle.enabled)
      {
        const geometry::SuperellipseShape shape = P.particle.shape();
        particle = std::make_unique<dem::Particle>(
          shape, P.particle.mass(), P.particle.moment_of_inertia(), P.particle.gravity,
          P.contact.particle_surface,
          dem::Particle::initial_state_resting(shape, P.particle.initial_rotation, 0.5 * L0),
          L0);
        bottom_height += particle->top();
      }

    // ---- the rubber block (FEM) and the rubber-particle interface ------------------------
    fem::RubberBlock block(P.block, P.rubber, P.contact.rubber_surface, P.solver,
                           P.rubber.density_ratio * P.particle.density, bottom_height,
                           loading.full_load, P.output.verbose);
    block.set_timer(&timer);
    std::unique_ptr<contact::RubberParticleInterface> interface;
    std::unique_ptr<coupling::MonolithicParticle>     monolithic;
    if (particle)
      {
        interface = std::make_unique<contact::RubberParticleInterface>(
          block.contact_points(), particle->geometry(), P.contact.rubber_particle, L0);
        interface->set_particle_pose(particle->state().centre, particle->state().rotation);
        if (P.solver.monolithic_coupling)
          {
            monolithic = std::make_unique<coupling::MonolithicParticle>(
              *particle, *interface, P.solver.newmark_beta, P.solver.newmark_gamma);
            block.set_obstacle(monolithic.get());
          }
        else
          block.set_obstacle(interface.get());
      }

    std::cout << "granular-interface: " << block.n_cells() << " Q1P0 cells, "
              << block.n_dofs() << " dofs, " << block.contact_points().size()
              << " contact points; " << n_steps << " steps of " << dt << " s (T0 = " << T0
              << " s); "
              << (particle ? "particle " + P.particle.shape_name : "bare interface (no particle)")
              << std::endl;

    MacroscopicFriction friction(2. * T0, t_end);
    PvdCollection   solution_pvd(dir + "/solution.pvd");
    PvdCollection   particle_pvd(dir + "/particle.pvd");
    LoopState           S;
    RunSummary          summary;

    // ---- checkpoint/restart: the archive's layout -----------------------------------------
    const auto entries_now = physics_entries(prm);
    // the loop's state is an argument: written with the times of this process added
    auto archive_state = [&](auto &ar, LoopState &loop) {
      ar &loop &friction &solution_pvd &particle_pvd;
      if (particle)
        {
          dem::Particle::Checkpoint c = particle->checkpoint();
          ar &c;
          particle->restore(c); // a no-op when writing
          ar &*interface;
          if (monolithic)
            ar &*monolithic;
        }
    };
    if (P.output.restart)
      {
        // everything is read and checked before any output is touched
        std::ifstream in(checkpoint_file, std::ios::binary);
        if (!in)
          throw std::runtime_error("--restart: cannot open " + checkpoint_file +
                                   " (is " + dir + " the output directory of a run that wrote "
                                   "a checkpoint? Output/Checkpoint interval)");
        try
          {
            boost::archive::binary_iarchive ar(in);
            std::string  magic;
            unsigned int format = 0;
            ar &magic &format;
            if (magic != checkpoint_magic || format != checkpoint_format)
              throw std::runtime_error("format " + std::to_string(format) +
                                       " is not this program's format " +
                                       std::to_string(checkpoint_format));
            std::vector<std::pair<std::string, std::string>> entries_saved;
            ar &entries_saved;
            check_same_physics(entries_saved, entries_now, checkpoint_file);
            archive_state(ar, S);
            block.load_state(ar);
          }
        catch (const ParameterError &)
          {
            throw;
          }
        catch (const std::exception &e)
          {
            throw std::runtime_error("--restart: cannot read " + checkpoint_file + ": " +
                                     e.what());
          }
        if (!(S.step < n_steps))
          throw std::runtime_error("--restart: " + checkpoint_file + " is at the end of the run");
        const auto history_size = fs::exists(dir + "/history.csv") ?
                                    fs::file_size(dir + "/history.csv") : 0;
        if (history_size < S.history_bytes)
          throw std::runtime_error("--restart: " + dir + "/history.csv is shorter than at the "
                                   "checkpoint (" + std::to_string(history_size) + " < " +
                                   std::to_string(S.history_bytes) + " bytes)");
        std::cout << "granular-interface: restarting at step " << S.step << " (t/T0 = "
                  << S.step * dt / T0 << ") from " << checkpoint_file << std::endl;
      }
    auto write_checkpoint = [&](std::ofstream &history, double seconds_here) {
      history.flush();
      S.history_bytes = static_cast<std::uint64_t>(history.tellp());
      LoopState  saved = S;
      const auto times = timer.get_summary_data(dealii::TimerOutput::total_wall_time);
      for (unsigned int i = 0; i < 5; ++i)
        {
          const auto it = times.find(section_names[i]);
          saved.section_times[i] += it == times.end() ? 0. : it->second;
        }
      saved.wall_time += seconds_here;
      std::ostringstream buffer;
      {
        boost::archive::binary_oarchive ar(buffer);
        std::string  magic  = checkpoint_magic;
        unsigned int format = checkpoint_format;
        auto         entries = entries_now;
        ar &magic &format &entries;
        archive_state(ar, saved);
        block.save_state(ar);
      }
      write_file_atomically(checkpoint_file, buffer.str());
    };

    // ---- outputs: only now, after a restart's checks -------------------------------------
    fs::create_directories(dir);
    {
      std::ostringstream s;
      prm.print_parameters(s, dealii::ParameterHandler::PRM |
                                dealii::ParameterHandler::KeepDeclarationOrder);
      write_file_atomically(dir + "/parameters.prm", s.str());
    }
    fs::remove(dir + "/summary.csv"); // never leave a stale result of an earlier run
    if (!P.output.restart)
      fs::remove(checkpoint_file); // nor a checkpoint of another run
    else
      fs::resize_file(dir + "/history.csv", S.history_bytes); // rows after the checkpoint
    std::ofstream history(dir + "/history.csv", P.output.restart ? std::ios::app : std::ios::trunc);
    if (!history)
      throw std::runtime_error("cannot write " + dir + "/history.csv");
    if (!P.output.restart) // a restart appends to the rows up to the checkpoint
      history << "t,phase,F_N,F_T,kI,kI_avg,platen_u1,platen_u2,particle_x,particle_y,"
                 "particle_theta,particle_vx,particle_vy,particle_omega,surface_fN,surface_fT,"
                 "surface_contact,surface_stick,rubber_force_x,rubber_force_y,rubber_moment,"
                 "contacts_rubber_surface,slipping_rubber_surface,contacts_rubber_particle,"
                 "slipping_rubber_particle,newton_iterations,dem_substeps,"
                 "dissipation_rubber_surface,dissipation_rubber_particle,"
                 "dissipation_particle_surface,dissipation_damping,dissipation_viscous,"
                 "dissipation_numerical,energy_total,platen_work,"
                 "particle_energy_residual\n";
    history << std::setprecision(10);

    auto write_output = [&](unsigned int step, double t) {
      dealii::TimerOutput::Scope scope(timer, "output");
      solution_pvd.add(t, block.write_vtu(dir, step));
      if (particle)
        particle_pvd.add(t, dem::write_particle_vtu(dir, step, particle->outline(200),
                                                   particle->state().rotation));
    };
    if (P.output.vtu_interval > 0 && !P.output.restart)
      write_output(0, 0.);

    summary.pressure        = P.loading.pressure;
    summary.slip_velocity   = P.loading.slip_velocity;
    summary.relaxation_time = P.rubber.relaxation_time;
    summary.payne_d         = P.rubber.payne_d;
    if (particle)
      {
        const auto &shape = particle->geometry().shape();
        summary.r1 = shape.r1;
        summary.r2 = shape.r2;
        summary.p1 = shape.p1;
        summary.p2 = shape.p2;
      }

    // ---- energy bookkeeping (spec §2.2) ------------------------------------------------
    auto dissipation = [&]() {
      Dissipation d;
      const fem::BlockEnergies e = block.energies();
      d.rubber_surface = e.surface_friction_dissipation;
      d.viscous        = e.viscous_dissipation;
      d.numerical      = e.numerical_dissipation;
      if (monolithic)
        d.numerical += monolithic->numerical_dissipation();
      if (particle)
        {
          d.rubber_particle  = interface->frictional_dissipation();
          d.particle_surface = particle->friction_dissipation();
          d.damping          = particle->damping_dissipation();
        }
      return d;
    };
    auto total_energy = [&]() {
      const fem::BlockEnergies e = block.energies();
      double E = e.stored + e.surface_springs + e.kinetic;
      if (particle)
        E += interface->spring_energy() + particle->kinetic_energy() +
             particle->gravitational_energy() + particle->contact_energy();
      return E;
    };
    if (!P.output.restart)
      S.energy_0 = total_energy();
    // the loop's accumulators live in S (checkpointed)
    const double energy_0 = S.energy_0;
    double &platen_work = S.platen_work, &u1_old = S.u1_old, &u2_old = S.u2_old,
           &load_old = S.load_old;
    Dissipation &at_window_start = S.at_window_start;
    double &normal_work_window = S.normal_work_window,
           &normal_force_integral = S.normal_force_integral,
           &normal_force_old = S.normal_force_old;
    double &speed_integral = S.speed_integral, &rolling_integral = S.rolling_integral;
    bool   &window_open = S.window_open;
    dealii::Tensor<1, 2> &rubber_force  = S.rubber_force;
    double               &rubber_moment = S.rubber_moment;

    // advance the rubber by h with up to max_cutbacks halvings (spec §3.6); the
    // particle is held at its t_{n+1} pose meanwhile (spec §5.3)
    std::function<fem::StepStatistics(double, double, unsigned int)> advance_rubber =
      [&](double t0, double h, unsigned int level) -> fem::StepStatistics {
      try
        {
          const double        t1 = t0 + h;
          fem::StepStatistics s =
            block.solve_step(h, loading.platen_u1(t1), loading.platen_load(t1));
          block.commit_step();
          return s;
        }
      catch (const NewtonFailure &e)
        {
          if (level >= P.solver.max_cutbacks)
            {
              std::ostringstream m;
              m << "the rubber solve failed at t = " << t0 + h << " s (t/T0 = " << (t0 + h) / T0
                << ") after " << level << " cut-backs of the time step: " << e.what();
              if (particle && !monolithic)
                m << ". With a particle this usually means that the explicit DEM-FEM "
                     "coupling became unstable: use Solver/Coupling scheme = monolithic "
                     "or reduce Loading/Time step (README, Coupling)";
              throw std::runtime_error(m.str());
            }
          ++S.cutbacks;
          fem::StepStatistics a = advance_rubber(t0, 0.5 * h, level + 1);
          fem::StepStatistics b = advance_rubber(t0 + 0.5 * h, 0.5 * h, level + 1);
          b.newton_iterations += a.newton_iterations;
          return b;
        }
    };

    // Sub-iterated staggering (Solver/Coupling iterations): after the explicit pass,
    // the particle is advanced again from t_n with the trapezoidal interface force
    // (F_n + F_{n+1}) / 2 and the rubber solved again, with Aitken relaxation on
    // (F_1, F_2, M / r0), until the work mismatch of the interface force over the step,
    // |(F_used - F_avg) . (dc, r0 dtheta)|, is below Solver/Coupling tolerance times
    // the platen's work per step p L0 v_F dt. The converged scheme is implicit and
    // energy-consistent; 0 iterations is the explicit scheme of Temizer 2013.
    const double r0               = P.particle.reference_radius;
    const double work_per_step    = loading.full_load * P.loading.slip_velocity * dt;
    unsigned long &coupling_passes = S.coupling_passes;
    auto iterate_coupling = [&](const dem::Particle::Checkpoint &at_t_n,
                                const std::function<void(const dealii::Tensor<1, 2> &,
                                                         double)> &advance_particle,
                                double t1, fem::StepStatistics &stats) -> unsigned int {
      using Vec3 = std::array<double, 3>;
      const Vec3 F_n{{rubber_force[0], rubber_force[1], rubber_moment / r0}};
      Vec3       used = F_n; // what the particle was advanced with
      Vec3       previous_residual{};
      double     omega = 0.5;
      unsigned int newton = 0;
      for (unsigned int k = 0; k <= P.solver.coupling_iterations; ++k)
        {
          const auto r = interface->resultant();
          const Vec3 F_1{{r.force[0], r.force[1], r.moment / r0}};
          Vec3       target, residual;
          for (unsigned int i = 0; i < 3; ++i)
            {
              target[i]   = 0.5 * (F_n[i] + F_1[i]);
              residual[i] = target[i] - used[i];
            }
          const auto   state = particle->state();
          const double d[3]  = {particle->unwrapped_centre()[0] - at_t_n.unwrapped_centre[0],
                                particle->unwrapped_centre()[1] - at_t_n.unwrapped_centre[1],
                                r0 * (state.rotation - at_t_n.state.rotation)};
          const double mismatch =
            std::abs(residual[0] * d[0] + residual[1] * d[1] + residual[2] * d[2]);
          if (mismatch <= P.solver.coupling_tolerance * work_per_step ||
              k == P.solver.coupling_iterations)
            {
              block.commit_step();
              return newton;
            }
          // Aitken-relaxed fixed point on the interface force
          if (k > 0)
            {
              double num = 0., den = 0.;
              for (unsigned int i = 0; i < 3; ++i)
                {
                  const double dr = residual[i] - previous_residual[i];
                  num += previous_residual[i] * dr;
                  den += dr * dr;
                }
              if (den > 0.)
                omega = std::clamp(-omega * num / den, 0.05, 1.);
            }
          previous_residual = residual;
          for (unsigned int i = 0; i < 3; ++i)
            used[i] += omega * residual[i];
          particle->restore(at_t_n);
          advance_particle(dealii::Tensor<1, 2>({used[0], used[1]}), used[2] * r0);
          ++coupling_passes;
          try
            {
              const fem::StepStatistics s = block.solve_step(
                dt, loading.platen_u1(t1), loading.platen_load(t1));
              newton += s.newton_iterations;
              stats.contact_points_in_contact = s.contact_points_in_contact;
              stats.contact_points_slipping   = s.contact_points_slipping;
            }
          catch (const NewtonFailure &)
            {
              // keep this particle state and take the rubber step with cut-backs
              const fem::StepStatistics s = advance_rubber(t1 - dt, 0.5 * dt, 1);
              const fem::StepStatistics s2 = advance_rubber(t1 - 0.5 * dt, 0.5 * dt, 1);
              ++S.cutbacks;
              newton += s.newton_iterations + s2.newton_iterations;
              stats.contact_points_in_contact = s2.contact_points_in_contact;
              stats.contact_points_slipping   = s2.contact_points_slipping;
              return newton; // committed
            }
        }
      block.commit_step();
      return newton;
    };

    auto               last_progress   = std::chrono::steady_clock::now();
    auto               last_checkpoint = last_progress;
    const unsigned int first_step      = S.step + 1;
    /// (wall time since this process started, step) at the progress lines of the last
    /// ~10 minutes, for the estimate of the time left
    std::deque<std::pair<double, unsigned int>> rate_samples{{0., S.step}};
    for (unsigned int step = first_step; step <= n_steps; ++step)
      {
        const double t0 = (step - 1) * dt, t = step * dt;
        // 1. particle update with the forces and moment of t_n (explicit)
        unsigned int substeps = 0;
        dem::Particle::Checkpoint particle_at_t_n;
        auto advance_particle = [&](const dealii::Tensor<1, 2> &F, double M) {
          dealii::TimerOutput::Scope scope(timer, "particle");
          substeps = particle->advance(dt, F, M);
          interface->set_particle_pose(particle->state().centre, particle->state().rotation);
        };
        if (particle && !monolithic)
          {
            particle_at_t_n = particle->checkpoint();
            advance_particle(rubber_force, rubber_moment);
          }
        // 2. rubber solve at t_{n+1} with the particle held; 3. forces at t_{n+1}
        // (monolithic: the particle moves with the rubber inside the Newton solve)
        fem::StepStatistics stats;
        if (!particle)
          stats = advance_rubber(t0, dt, 0);
        else if (monolithic)
          {
            stats         = advance_rubber(t0, dt, 0);
            substeps      = particle->last_substeps();
            const auto r  = interface->resultant();
            rubber_force  = r.force;
            rubber_moment = r.moment;
          }
        else
          {
            const double t1 = t0 + dt;
            bool         solved = false;
            try
              {
                stats  = block.solve_step(dt, loading.platen_u1(t1), loading.platen_load(t1));
                solved = true;
              }
            catch (const NewtonFailure &)
              {
                stats = advance_rubber(t0, dt, 0); // cut-backs, commits (no iterations)
              }
            if (solved)
              {
                // commits the rubber step (also when it falls back to cut-backs)
                stats.newton_iterations +=
                  iterate_coupling(particle_at_t_n, advance_particle, t1, stats);
              }
            const auto r  = interface->resultant();
            rubber_force  = r.force;
            rubber_moment = r.moment;
          }
        S.newton_iterations += stats.newton_iterations;

        // measurements (spec §2.2)
        const fem::PlatenForces f    = block.platen_forces();
        const double            u1   = loading.platen_u1(t);
        const double            u2   = block.platen_vertical_displacement();
        const double            load = loading.platen_load(t);
        platen_work += 0.5 * (f.tangential + S.tangential_force_old_platen) * (u1 - u1_old) -
                       0.5 * (load + load_old) * (u2 - u2_old);
        S.tangential_force_old_platen = f.tangential;
        S.normal_force_old_platen     = f.normal;
        u1_old     = u1;
        u2_old     = u2;
        load_old   = load;
        friction.add(t, f.normal, f.tangential);

        const Dissipation d = dissipation();
        // energy guard: an unstable explicit coupling creates energy (spec §5.3)
        {
          const double E       = total_energy();
          const double balance = platen_work - (E - energy_0) - d.total();
          const double scale   = std::max({std::abs(platen_work), d.total(),
                                           1e-2 * loading.full_load * L0});
          if (std::abs(balance) > P.solver.max_energy_error * scale)
            {
              std::ostringstream m;
              m << "the energy balance fails by " << 100. * std::abs(balance) / scale
                << " % of the work done at t = " << t << " s (t/T0 = " << t / T0
                << (balance < 0. ? "): the time steps create energy" :
                                   "): the time steps lose energy that no mechanism dissipates")
                << (monolithic ? " (monolithic DEM-FEM coupling; particle x = " :
                                 ", the sign of an unstable explicit DEM-FEM coupling "
                                 "(particle x = ")
                << (particle ? particle->state().centre[0] : 0.) << " mm, theta = "
                << (particle ? particle->state().rotation : 0.)
                << " rad). "
                << (monolithic ? "Reduce Loading/Time step; snap-throughs and fast rocking "
                                 "of elongated particles are the known cause (README, "
                                 "Coupling)" :
                                 "Use Solver/Coupling scheme = monolithic; a smaller "
                                 "Loading/Time step helps only partly (README, Coupling)");
              throw std::runtime_error(m.str());
            }
        }
        if (t >= 2. * T0 * (1. - 1e-12))
          {
            if (!window_open)
              {
                window_open     = true;
                at_window_start = d;
              }
            else
              {
                // int F_N v_F dt over the window (trapezoidal rule), paper eq. (13)
                normal_work_window +=
                  0.5 * (f.normal + normal_force_old) * P.loading.slip_velocity * dt;
                normal_force_integral += 0.5 * (f.normal + normal_force_old) * dt;
                if (particle)
                  {
                    speed_integral += std::abs(particle->state().velocity[0]) * dt;
                    rolling_integral += std::abs(particle->state().angular_velocity) *
                                        P.particle.reference_radius * dt;
                  }
              }
          }
        normal_force_old = f.normal;

        if (step % P.output.history_interval == 0 || step == n_steps)
          {
            history << t << ',' << phase_name(t, T0) << ',' << f.normal << ','
                    << f.tangential << ','
                    << MacroscopicFriction::instantaneous(f.normal, f.tangential) << ','
                    << friction.moving_average() << ',' << u1 << ',' << u2 << ',';
            if (particle)
              {
                const auto &s = particle->state();
                history << s.centre[0] << ',' << s.centre[1] << ',' << s.rotation << ','
                        << s.velocity[0] << ',' << s.velocity[1] << ','
                        << s.angular_velocity << ',' << particle->normal_force() << ','
                        << particle->tangential_force() << ',' << particle->in_contact()
                        << ',' << particle->sticking() << ',' << rubber_force[0] << ','
                        << rubber_force[1] << ',' << rubber_moment << ',';
              }
            else
              history << ",,,,,,,,,,,,,";
            history << stats.contact_points_in_contact << ','
                    << stats.contact_points_slipping << ','
                    << (particle ? interface->n_in_contact() : 0) << ','
                    << (particle ? interface->n_slipping() : 0) << ','
                    << stats.newton_iterations << ',' << substeps << ','
                    << d.rubber_surface << ',' << d.rubber_particle << ','
                    << d.particle_surface << ',' << d.damping << ',' << d.viscous << ','
                    << d.numerical << ','
                    << total_energy()
                    << ',' << platen_work << ','
                    << (particle ? particle->energy_balance_error() : 0.) << '\n';
          }
        if (P.output.vtu_interval > 0 && step % P.output.vtu_interval == 0)
          write_output(step, t);
        if (after_each_step)
          after_each_step();
        S.step = step;

        const auto now = std::chrono::steady_clock::now();
        // checkpoint (by steps, by wall time, or on SIGINT/SIGTERM) and stop on request
        if (P.output.checkpoints() && step < n_steps)
          {
            const int  stop     = stop_request;
            const bool by_steps = P.output.checkpoint_step_interval > 0 &&
                                  step % P.output.checkpoint_step_interval == 0;
            const bool by_time =
              P.output.checkpoint_interval > 0. &&
              std::chrono::duration<double>(now - last_checkpoint).count() >=
                60. * P.output.checkpoint_interval;
            if (stop != 0 || by_steps || by_time)
              {
                write_checkpoint(history,
                                 std::chrono::duration<double>(now - wall_start).count());
                last_checkpoint = now;
              }
            if (stop != 0)
              {
                std::ostringstream m;
                m << "stopped by " << (stop > 0 ? (stop == SIGTERM ? "SIGTERM" : "SIGINT") :
                                                  "request")
                  << " at step " << step << " (t/T0 = " << t / T0 << "); the state is in "
                  << checkpoint_file << ": continue with --restart";
                throw RunInterrupted(m.str(), stop > 0 ? stop : 0);
              }
          }

        if (std::chrono::duration<double>(now - last_progress).count() >=
              P.output.progress_interval ||
            step == n_steps)
          {
            last_progress        = now;
            const double elapsed = std::chrono::duration<double>(now - wall_start).count();
            // time left at the pace of the last ~10 minutes: the cost per step changes by
            // 10x between the compression and the roll-overs, so the average since the start
            // misleads
            rate_samples.emplace_back(elapsed, step);
            while (rate_samples.size() > 2 && rate_samples[1].first < elapsed - 600.)
              rate_samples.pop_front();
            const auto  &oldest       = rate_samples.front();
            const double seconds_left = step > oldest.second ?
                                          (elapsed - oldest.first) * (n_steps - step) /
                                            (step - oldest.second) :
                                          elapsed * (n_steps - step) / (step - first_step + 1);
            std::cout << "  " << std::setw(11) << phase_name(t, T0) << "  t/T0 = " << std::fixed
                      << std::setprecision(4) << t / T0 << "  kI = "
                      << MacroscopicFriction::instantaneous(f.normal, f.tangential)
                      << "  kI_avg = " << friction.moving_average()
                      << "  Newton its = " << stats.newton_iterations;
            if (particle)
              std::cout << "  particle x = " << std::setprecision(3)
                        << particle->state().centre[0] << " theta = "
                        << particle->state().rotation;
            std::cout << "  left ~ " << duration_text(seconds_left) << std::defaultfloat
                      << std::setprecision(6) << std::endl;
          }
      }
    history.close();

    // ---- dissipation split (paper eq. 13) and energy balance (spec §2.2) --------------
    const Dissipation d_end = dissipation();
    summary.dissipation_rubber_surface   = d_end.rubber_surface - at_window_start.rubber_surface;
    summary.dissipation_rubber_particle  = d_end.rubber_particle - at_window_start.rubber_particle;
    summary.dissipation_particle_surface =
      d_end.particle_surface - at_window_start.particle_surface;
    summary.dissipation_damping = d_end.damping - at_window_start.damping;
    summary.dissipation_viscous = d_end.viscous - at_window_start.viscous;
    summary.dissipation_numerical = d_end.numerical - at_window_start.numerical;
    if (normal_work_window > 0.)
      summary.kbar_F = (d_end.frictional() - at_window_start.frictional()) / normal_work_window;
    if (normal_work_window > 0.) // paper eq. (13)
      summary.kbar_V = summary.dissipation_viscous / normal_work_window;
    const double window         = t_end - 2. * T0;
    summary.mean_normal_force   = normal_force_integral / window;
    summary.mean_particle_speed = speed_integral / window;
    summary.mean_rolling_speed  = rolling_integral / window;
    const double balance = platen_work - (total_energy() - energy_0) - d_end.total();
    summary.energy_balance_error =
      std::abs(balance) / std::max(std::abs(platen_work), 1e-300);
    if (particle)
      summary.dem_substeps = particle->total_substeps();
    summary.coupling_passes   = coupling_passes;
    summary.newton_iterations = S.newton_iterations;
    summary.cutbacks          = S.cutbacks;

    const auto solver_statistics     = block.linear_solver_statistics();
    summary.factorizations           = solver_statistics.factorizations;
    summary.assemblies               = solver_statistics.assemblies;
    summary.failed_newton_iterations = solver_statistics.failed_newton_iterations;
    summary.steps          = n_steps;
    summary.kbar        = friction.kbar();
    summary.kbar_spread = friction.spread();
    // times of this process plus those of the processes before a restart
    summary.wall_time =
      S.wall_time +
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    const auto times = timer.get_summary_data(dealii::TimerOutput::total_wall_time);
    auto       get   = [&](unsigned int i) {
      const auto it = times.find(section_names[i]);
      return S.section_times[i] + (it == times.end() ? 0. : it->second);
    };
    summary.time_assembly      = get(0);
    summary.time_factorization = get(1);
    summary.time_solve         = get(2);
    summary.time_particle      = get(3);
    summary.time_output        = get(4);
    write_file_atomically(dir + "/summary.csv", summary_csv(summary));
    fs::remove(checkpoint_file); // the run is complete
    return summary;
  }
} // namespace granular
