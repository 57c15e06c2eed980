// One run of the micromechanical test (spec §2, §5.3, §8.2). See micromechanical_run.h.
#include "coupling/micromechanical_run.h"

#include "base/atomic_file.h"
#include "base/parameter_error.h"
#include "base/serialization.h"
#include "coupling/coupling_scheme.h"
#include "coupling/energy_balance.h"
#include "coupling/loading_program.h"
#include "coupling/macroscopic_friction.h"
#include "coupling/time_step_control.h"
#include "dem/particle_output.h"

#include <deal.II/base/parameter_handler.h>
#include <deal.II/base/timer.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace granular
{
  namespace
  {
    using namespace coupling;
    namespace fs = std::filesystem;
    using Clock  = std::chrono::steady_clock;

    const char *const section_names[5] = {"assembly", "factorization", "solve", "particle",
                                          "output"};

    /// The time loop's counters that a checkpoint carries besides the block, the scheme,
    /// the energy accountant, the friction average and the .pvd records.
    struct LoopState
    {
      /// completed reference time steps (Loading/Time step): t = step dt
      unsigned int step              = 0;
      /// computed time steps (= step with fixed time steps)
      unsigned int steps_taken       = 0;
      unsigned int newton_iterations = 0;
      /// wall time and TimerOutput sections (assembly, factorization, solve, particle,
      /// output) of the processes before this one (s)
      double                wall_time = 0.;
      std::array<double, 5> section_times{};
      std::uint64_t         history_bytes = 0; ///< size of history.csv at the checkpoint
      /// largest penetration so far into the surface and into the particle (mm)
      double max_penetration_surface = 0., max_penetration_particle = 0.;
      /// history row of the last computed step (adaptive steps interpolate from it)
      HistoryRow last_row;

      template <class Archive>
      void serialize(Archive &ar, const unsigned int)
      {
        ar &step &steps_taken &newton_iterations &wall_time &section_times &history_bytes
          &max_penetration_surface &max_penetration_particle &last_row;
      }

      /// Takes the penetrations of the committed state after a step into the maxima.
      void record_penetrations(const fem::RubberBlock &block, const CouplingScheme &scheme)
      {
        for (const auto &x : block.contact_point_positions())
          max_penetration_surface = std::max(max_penetration_surface, -x[1]);
        if (const contact::RubberParticleInterface *interface = scheme.interface())
          for (unsigned int i = 0; i < interface->n_points(); ++i)
            if (interface->response(i).in_contact)
              max_penetration_particle =
                std::max(max_penetration_particle, -interface->response(i).normal_gap);
      }
    };

    double seconds_since(const Clock::time_point &start, const Clock::time_point &now)
    {
      return std::chrono::duration<double>(now - start).count();
    }

    /// The row of history.csv after a step (spec §8.2).
    HistoryRow history_row(double t, const LoadingProgram &loading,
                           const fem::PlatenForces &f, double u1, double u2,
                           const MacroscopicFriction &friction, const CouplingScheme &scheme,
                           const fem::StepStatistics &stats, const Dissipation &d,
                           const EnergyAccountant &energy)
    {
      HistoryRow r;
      r.t                = t;
      r.phase            = loading.phase_name(t);
      r.normal_force     = f.normal;
      r.tangential_force = f.tangential;
      r.kI               = MacroscopicFriction::instantaneous(f.normal, f.tangential);
      r.kI_avg           = friction.moving_average();
      r.platen_u1        = u1;
      r.platen_u2        = u2;
      const dem::Particle *particle = scheme.particle();
      if (particle)
        {
          const auto          &s = particle->state();
          HistoryRow::Particle p;
          p.x = s.centre[0], p.y = s.centre[1], p.theta = s.rotation;
          p.vx = s.velocity[0], p.vy = s.velocity[1], p.omega = s.angular_velocity;
          p.surface_fN      = particle->surface_contact().normal_force;
          p.surface_fT      = particle->surface_contact().tangential_force;
          p.surface_contact = particle->surface_contact().in_contact;
          p.surface_stick   = particle->surface_contact().sticking;
          p.rubber_force_x  = scheme.rubber_force()[0];
          p.rubber_force_y  = scheme.rubber_force()[1];
          p.rubber_moment   = scheme.rubber_moment();
          r.particle        = p;
          r.contacts_rubber_particle = scheme.interface()->n_in_contact();
          r.slipping_rubber_particle = scheme.interface()->n_slipping();
          r.particle_energy_residual = particle->energy_balance_error();
        }
      r.contacts_rubber_surface      = stats.contact_points_in_contact;
      r.slipping_rubber_surface      = stats.contact_points_slipping;
      r.newton_iterations            = stats.newton_iterations;
      r.dem_substeps                 = scheme.last_substeps();
      r.dissipation_rubber_surface   = d.rubber_surface;
      r.dissipation_rubber_particle  = d.rubber_particle;
      r.dissipation_particle_surface = d.particle_surface;
      r.dissipation_damping          = d.damping;
      r.dissipation_viscous          = d.viscous;
      r.dissipation_numerical        = d.numerical;
      r.energy_total                 = energy.total_energy();
      r.platen_work                  = energy.platen_work();
      return r;
    }

    /// The progress line of spec §8.1.
    void print_progress(double t, const LoadingProgram &loading, const fem::PlatenForces &f,
                        const MacroscopicFriction &friction, const fem::StepStatistics &stats,
                        const dem::Particle *particle, double seconds_left,
                        int step_multiple)
    {
      std::cout << "  " << std::setw(11) << loading.phase_name(t) << "  t/T0 = " << std::fixed
                << std::setprecision(4) << t / loading.T0 << "  kI = "
                << MacroscopicFriction::instantaneous(f.normal, f.tangential)
                << "  kI_avg = " << friction.moving_average()
                << "  Newton its = " << stats.newton_iterations;
      if (step_multiple > 0)
        std::cout << "  dt x " << step_multiple;
      if (particle)
        std::cout << "  particle x = " << std::setprecision(3) << particle->state().centre[0]
                  << " theta = " << particle->state().rotation;
      std::cout << "  left ~ " << duration_text(seconds_left) << std::defaultfloat
                << std::setprecision(6) << std::endl;
    }

    /// The files in @p dir that a run writes (results of an earlier run there): summary.csv,
    /// history.csv, checkpoint.bin, error.txt, the .pvd collections and their VTUs.
    std::vector<std::string> earlier_results(const std::string &dir)
    {
      std::vector<std::string> names;
      std::error_code          ec;
      if (!fs::is_directory(dir, ec))
        return names;
      for (const auto &entry : fs::directory_iterator(dir, ec))
        {
          const std::string name = entry.path().filename().string();
          const bool        vtu  = entry.path().extension() == ".vtu" &&
                           (name.rfind("solution-", 0) == 0 || name.rfind("particle-", 0) == 0);
          if (vtu || name == "summary.csv" || name == "history.csv" || name == "checkpoint.bin" ||
              name == "error.txt" || name == "solution.pvd" || name == "particle.pvd")
            names.push_back(name);
        }
      std::sort(names.begin(), names.end());
      return names;
    }

    /// summary.csv's row at the end of the run: the dissipation split of the window
    /// (paper eq. 13), the energy balance (spec §2.2) and the run's cost.
    RunSummary summarise(const RunParameters &P, const LoadingProgram &loading, double t_end,
                         const EnergyAccountant &energy,
                         const MacroscopicFriction &friction, const CouplingScheme &scheme,
                         const fem::RubberBlock &block, const LoopState &S)
    {
      RunSummary s;
      s.pressure        = P.loading.pressure;
      s.slip_velocity   = P.loading.slip_velocity;
      s.relaxation_time = P.rubber.relaxation_time;
      s.payne_d         = P.rubber.payne_d;
      if (const dem::Particle *particle = scheme.particle())
        {
          const auto &shape = particle->geometry().shape();
          s.r1 = shape.r1, s.r2 = shape.r2, s.p1 = shape.p1, s.p2 = shape.p2;
          s.dem_substeps = particle->total_substeps();
        }
      const Dissipation  d_end = energy.dissipation();
      const Dissipation &d_0   = energy.at_window_start();
      s.dissipation_rubber_surface   = d_end.rubber_surface - d_0.rubber_surface;
      s.dissipation_rubber_particle  = d_end.rubber_particle - d_0.rubber_particle;
      s.dissipation_particle_surface = d_end.particle_surface - d_0.particle_surface;
      s.dissipation_damping          = d_end.damping - d_0.damping;
      s.dissipation_viscous          = d_end.viscous - d_0.viscous;
      s.dissipation_numerical        = d_end.numerical - d_0.numerical;
      const double normal_work = energy.normal_work_window();
      if (normal_work > 0.) // paper eq. (13)
        {
          s.kbar_F = (d_end.frictional() - d_0.frictional()) / normal_work;
          s.kbar_V = s.dissipation_viscous / normal_work;
        }
      const double window   = t_end - 2. * loading.T0;
      s.mean_normal_force   = energy.normal_force_integral() / window;
      s.mean_particle_speed = energy.speed_integral() / window;
      s.mean_rolling_speed  = energy.rolling_integral() / window;
      s.energy_balance_error =
        std::abs(energy.balance(energy.total_energy(), d_end)) /
        std::max(std::abs(energy.platen_work()), 1e-300);
      s.coupling_passes   = scheme.coupling_passes();
      s.newton_iterations = S.newton_iterations;
      s.cutbacks          = scheme.cutbacks();
      const auto solver_statistics = block.linear_solver_statistics();
      s.factorizations             = solver_statistics.factorizations;
      s.assemblies                 = solver_statistics.assemblies;
      s.failed_newton_iterations   = solver_statistics.failed_newton_iterations;
      s.steps       = S.steps_taken;
      s.kbar        = friction.kbar();
      s.kbar_spread = friction.spread();
      s.max_penetration_rubber_surface  = S.max_penetration_surface;
      s.max_penetration_rubber_particle = S.max_penetration_particle;
      s.block_length = P.block.length;
      s.block_height = P.block.height;
      s.elements_x   = P.block.mesh_file.empty() ? P.block.n_x : 0;
      s.elements_y   = P.block.mesh_file.empty() ? P.block.n_y : 0;
      s.time_step    = P.loading.time_step_ratio * loading.T0;
      return s;
    }
  } // namespace

  RunSummary run_micromechanical_test(const RunParameters &P,
                                      const dealii::ParameterHandler &prm,
                                      const std::function<void()> &after_each_step)
  {
    const auto               wall_start = Clock::now();
    const std::string        dir        = P.output.output_directory;
    const StopSignalHandlers stop_handlers(P.output.checkpoints());

    // ---- an earlier run's results in the directory: refused, or replaced with --overwrite
    if (!P.output.restart)
      {
        const std::vector<std::string> earlier = earlier_results(dir);
        if (!earlier.empty() && !P.output.overwrite)
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
          fs::remove(dir + "/" + name);
      }

    const double         L0      = P.block.length;
    const LoadingProgram loading = LoadingProgram::from_parameters(P.loading, L0);
    const double         T0      = loading.T0;
    const double         dt      = P.loading.time_step(L0);
    const double         t_end   = P.loading.end_time(L0);
    const unsigned int   n_steps = static_cast<unsigned int>(std::llround(t_end / dt));

    dealii::TimerOutput timer(std::cout, dealii::TimerOutput::never,
                              dealii::TimerOutput::wall_times);

    // ---- the particle (DEM) resting at x = L0/2, the rubber block (FEM) above it, and the
    // scheme that couples them -------------------------------------------------------------
    std::unique_ptr<dem::Particle> new_particle = make_particle(P);
    double                         bottom_height = P.block.initial_gap;
    if (new_particle)
      bottom_height += new_particle->top();
    fem::RubberBlock block(P.block, P.rubber, P.contact.rubber_surface, P.solver,
                           P.rubber.density_ratio * P.particle.density, bottom_height,
                           loading.full_load, P.output.verbose);
    block.set_timer(&timer);
    const std::unique_ptr<CouplingScheme> scheme =
      make_coupling_scheme(P, block, std::move(new_particle), loading, &timer);
    const dem::Particle *particle = scheme->particle();

    std::cout << "granular-interface: " << block.n_cells() << " Q1P0 cells, "
              << block.n_dofs() << " dofs, " << block.contact_points().size()
              << " contact points; "
              << (P.solver.adaptive_time_step ?
                    "adaptive steps of 1 to " + std::to_string(P.solver.max_step_multiple) +
                      " x " :
                    std::to_string(n_steps) + " steps of ")
              << dt << " s (T0 = " << T0 << " s); "
              << (particle ? "particle " + P.particle.shape_name : "bare interface (no particle)")
              << std::endl;

    MacroscopicFriction friction(2. * T0, t_end);
    TimeStepControl     step_control(P.solver.max_step_multiple, P.solver.step_energy_tolerance);
    if (P.solver.adaptive_time_step)
      scheme->set_long_steps(dt, P.solver.long_step_newton_iterations,
                             P.solver.max_newton_iterations);
    PvdCollection       solution_pvd(dir + "/solution.pvd");
    PvdCollection       particle_pvd(dir + "/particle.pvd");
    EnergyAccountant    energy(block, *scheme);
    LoopState           S;

    // ---- checkpoint/restart: everything is read and checked before any output is touched
    const CheckpointFile checkpoint(dir + "/checkpoint.bin", prm);
    if (P.output.restart)
      {
        checkpoint.read([&](boost::archive::binary_iarchive &ar) {
          ar &S &energy &friction &solution_pvd &particle_pvd &step_control;
          scheme->load(ar);
          block.load_state(ar);
        });
        if (!(S.step < n_steps))
          throw std::runtime_error("--restart: " + checkpoint.path() +
                                   " is at the end of the run");
        const auto history_size =
          fs::exists(dir + "/history.csv") ? fs::file_size(dir + "/history.csv") : 0;
        if (history_size < S.history_bytes)
          throw std::runtime_error("--restart: " + dir + "/history.csv is shorter than at the "
                                   "checkpoint (" + std::to_string(history_size) + " < " +
                                   std::to_string(S.history_bytes) + " bytes)");
        std::cout << "granular-interface: restarting at step " << S.step << " (t/T0 = "
                  << S.step * dt / T0 << ") from " << checkpoint.path() << std::endl;
      }
    // the loop's counters are written with the times of this process added
    auto write_checkpoint = [&](HistoryWriter &history, double seconds_here) {
      S.history_bytes = history.flush();
      LoopState  saved = S;
      const auto times = timer.get_summary_data(dealii::TimerOutput::total_wall_time);
      for (unsigned int i = 0; i < 5; ++i)
        {
          const auto it = times.find(section_names[i]);
          saved.section_times[i] += it == times.end() ? 0. : it->second;
        }
      saved.wall_time += seconds_here;
      checkpoint.write([&](boost::archive::binary_oarchive &ar) {
        ar &saved &energy &friction &solution_pvd &particle_pvd &step_control;
        scheme->save(ar);
        block.save_state(ar);
      });
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
      fs::remove(checkpoint.path()); // nor a checkpoint of another run
    HistoryWriter history(dir + "/history.csv", P.output.restart, S.history_bytes,
                          block.viscoelastic());
    auto write_output = [&](unsigned int step, double t) {
      dealii::TimerOutput::Scope scope(timer, "output");
      solution_pvd.add(t, block.write_vtu(dir, step));
      if (particle)
        {
          // solution.pvd shows the rubber displaced (MappingQEulerian), dragged by the
          // platen's u1; the particle lives in the periodic cell [0, L0): draw its copies
          // under the rubber (a window around [u1, u1 + L0], wider by the rubber's shear),
          // so that both collections share one frame in ParaView (issue 17)
          const double u1 = loading.platen_u1(t);
          particle_pvd.add(t, dem::write_particle_vtu(
                                dir, step, particle->outline(200, u1 - 0.25 * L0, u1 + 1.25 * L0),
                                particle->state().rotation));
        }
    };
    if (P.output.vtu_interval > 0 && !P.output.restart)
      write_output(0, 0.);
    if (!P.output.restart)
      energy.start();

    // ---- the time loop (spec §5.3) ---------------------------------------------------------
    // Time runs on the grid of the reference step dt: t = k dt. A fixed step is one grid
    // step; an adaptive step is m of them (TimeStepControl), shortened so that it lands on
    // the landmarks below (the loading program's kinks, the window, the VTU times).
    // history.csv keeps its grid by interpolating the rows of the grid times that a long
    // step steps over. The control also records the steps held at dt (p > 2 before T0).
    const auto grid_index = [&](double time) {
      return static_cast<unsigned int>(std::llround(time / dt));
    };
    const unsigned int fixed_landmarks[] = {grid_index(loading.ramp_time), grid_index(T0),
                                            grid_index(2. * T0)};
    const auto next_landmark = [&](unsigned int k) {
      unsigned int next = n_steps;
      for (const unsigned int l : fixed_landmarks)
        if (l > k)
          next = std::min(next, l);
      if (P.output.vtu_interval > 0)
        next = std::min(next, (k / P.output.vtu_interval + 1) * P.output.vtu_interval);
      return next;
    };
    const bool rocks_at_rest =
      particle != nullptr && (particle->geometry().shape().p1 > 2. ||
                              particle->geometry().shape().p2 > 2.);
    // the energy balance and Newmark's dissipation at the start of the next step (the
    // adaptive control's measure is their change over a step)
    double balance_before = 0., numerical_before = 0.;
    if (P.solver.adaptive_time_step)
      {
        const Dissipation d0 = energy.dissipation();
        balance_before       = energy.balance(energy.total_energy(), d0);
        numerical_before     = d0.numerical;
      }
    auto          last_progress   = Clock::now();
    auto          last_checkpoint = last_progress;
    RemainingTime remaining(S.step);
    for (unsigned int k = S.step; k < n_steps;)
      {
        // With a p > 2 particle the steps stay at dt until the dragging starts (choice):
        // resting on a flat side it rocks in a limit cycle that creates energy at every
        // change of its contact point (README, Known limitation; p = 2 has finite
        // curvature and does not rock), and long steps in the load ramp excite it more
        // (full-size rectangle: -0.42 instead of -0.26 N mm/mm of balance by T0, which
        // tripped the energy guard at t/T0 = 0.98).
        const bool         reference_only = rocks_at_rest && k < fixed_landmarks[1];
        const unsigned int m =
          P.solver.adaptive_time_step && !reference_only ?
            std::min(step_control.multiple(), next_landmark(k) - k) :
            1u;
        const unsigned int step = k + m;
        // (with m = 1 these are the fixed-step times (step - 1) dt, step dt and dt, bit for bit)
        const double t0 = k * dt, t = step * dt, h = m * dt;
        const unsigned int cutbacks_before = scheme->cutbacks();
        // 1. advance the particle, 2. solve the rubber at t_{n+1}, 3. the interface forces
        const fem::StepStatistics stats = scheme->advance(t0, h);
        S.newton_iterations += stats.newton_iterations;
        ++S.steps_taken;

        // 4. measure (spec §2.2): platen forces, work, dissipation, friction average
        const fem::PlatenForces f  = block.platen_forces();
        const double            u1 = loading.platen_u1(t);
        const double            u2 = block.platen_vertical_displacement();
        const Dissipation       d  = energy.dissipation();
        energy.record_step(f, u1, u2, loading.platen_load(t), loading.in_averaging_window(t),
                           d, P.loading.slip_velocity, h, particle != nullptr,
                           particle ? std::abs(particle->state().velocity[0]) : 0.,
                           particle ? std::abs(particle->state().angular_velocity) *
                                        P.particle.reference_radius :
                                      0.);
        friction.add(t, f.normal, f.tangential);
        S.record_penetrations(block, *scheme);
        energy.check(t, T0, P.solver.max_energy_error, loading.full_load, L0, d);
        if (P.solver.adaptive_time_step)
          {
            const double balance = energy.balance(energy.total_energy(), d);
            step_control.record(m, stats.newton_iterations,
                                scheme->cutbacks() > cutbacks_before,
                                std::abs(balance - balance_before) +
                                  std::max(0., d.numerical - numerical_before),
                                loading.full_load * P.loading.slip_velocity * h);
            balance_before   = balance; // the next step starts from this state
            numerical_before = d.numerical;
          }

        // 5. record and output: history.csv on the grid of dt (rows a long step stepped over
        //    are interpolated), VTU output at the grid steps (landmarks of the long steps)
        {
          HistoryRow row =
            history_row(t, loading, f, u1, u2, friction, *scheme, stats, d, energy);
          if (block.viscoelastic())
            {
              const fem::BoundaryLayerRates b = block.boundary_layer_rates();
              row.rate_max = b.rate_max, row.rate_p99 = b.rate_p99, row.rate_p50 = b.rate_p50;
              row.payne_factor_max = b.payne_factor_max;
              row.payne_factor_p99 = b.payne_factor_p99;
              row.payne_factor_p50 = b.payne_factor_p50;
            }
          const unsigned int every = P.output.history_interval;
          for (unsigned int g = (k / every + 1) * every; g < step; g += every)
            {
              const double tg = g * dt;
              history.write(interpolate(S.last_row, row, double(g - k) / m,
                                        loading.phase_name(tg)));
            }
          if (step % every == 0 || step == n_steps)
            history.write(row);
          S.last_row = row;
        }
        if (P.output.vtu_interval > 0 && step % P.output.vtu_interval == 0)
          write_output(step, t);
        if (after_each_step)
          after_each_step();
        S.step = step;
        k      = step;

        // checkpoint (by steps, by wall time, or on SIGINT/SIGTERM) and stop on request
        const auto now = Clock::now();
        if (P.output.checkpoints() && step < n_steps)
          {
            const int  stop     = stop_request();
            // at the first step that reaches a multiple of the interval (checkpoint times
            // are not landmarks: writing checkpoints must not change the run)
            const unsigned int every    = P.output.checkpoint_step_interval;
            const bool         by_steps = every > 0 && step / every > (step - m) / every;
            const bool by_time  = P.output.checkpoint_interval > 0. &&
                                 seconds_since(last_checkpoint, now) >=
                                   60. * P.output.checkpoint_interval;
            if (stop != 0 || by_steps || by_time)
              {
                write_checkpoint(history, seconds_since(wall_start, now));
                last_checkpoint = now;
              }
            if (stop != 0)
              {
                std::ostringstream message;
                message << "stopped by "
                  << (stop > 0 ? (stop == SIGTERM ? "SIGTERM" : "SIGINT") : "request")
                  << " at step " << step << " (t/T0 = " << t / T0 << "); the state is in "
                  << checkpoint.path() << ": continue with --restart";
                throw RunInterrupted(message.str(), stop > 0 ? stop : 0);
              }
          }
        if (seconds_since(last_progress, now) >= P.output.progress_interval || step == n_steps)
          {
            last_progress = now;
            print_progress(t, loading, f, friction, stats, particle,
                           remaining.seconds_left(seconds_since(wall_start, now), step, n_steps),
                           P.solver.adaptive_time_step ? int(m) : -1);
          }
      }
    history.close();

    // ---- summary.csv: the dissipation split, the energy balance, the cost ------------------
    RunSummary summary = summarise(P, loading, t_end, energy, friction, *scheme, block, S);
    // times of this process plus those of the processes before a restart
    summary.wall_time  = S.wall_time + seconds_since(wall_start, Clock::now());
    const auto times   = timer.get_summary_data(dealii::TimerOutput::total_wall_time);
    auto       section = [&](unsigned int i) {
      const auto it = times.find(section_names[i]);
      return S.section_times[i] + (it == times.end() ? 0. : it->second);
    };
    summary.time_assembly      = section(0);
    summary.time_factorization = section(1);
    summary.time_solve         = section(2);
    summary.time_particle      = section(3);
    summary.time_output        = section(4);
    write_file_atomically(dir + "/summary.csv", summary_csv(summary));
    fs::remove(checkpoint.path()); // the run is complete
    return summary;
  }
} // namespace granular
