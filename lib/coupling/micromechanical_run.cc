// One run of the micromechanical test (docs/methods.md §2, §5.3, §8.2). See micromechanical_run.h.
#include "coupling/micromechanical_run.h"

#include "base/atomic_file.h"
#include "base/physics_entries.h"
#include "base/source_revision.h"
#include "base/serialization.h"

#include <deal.II/base/parameter_handler.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>

namespace granular::coupling
{
  namespace
  {
    namespace fs = std::filesystem;

    const char *const section_names[5] = {"assembly", "factorization", "solve", "particle",
                                          "output"};

    double seconds_since(const std::chrono::steady_clock::time_point &start,
                         const std::chrono::steady_clock::time_point &now)
    {
      return std::chrono::duration<double>(now - start).count();
    }

    /// summary.csv's row at the end of the run: the dissipation split of the window
    /// (paper eq. 13), the energy balance (docs/methods.md §2.2), the cell and the run's cost.
    RunSummary summarise(const RunParameters &P, const LoadingProgram &loading, double t_end,
                         const EnergyAccountant &energy, const EnergyLedger &ledger,
                         const MacroscopicFriction &friction, const CouplingScheme &scheme,
                         const fem::RubberBlock &block, const LoopState &S)
    {
      RunSummary s;
      s.created_energy           = ledger.created();
      s.created_energy_in_window = ledger.created_in_window();
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
      s.dissipation_velocity_update  = d_end.velocity_update - d_0.velocity_update;
      s.dissipation_particle_particle = d_end.particle_particle - d_0.particle_particle;
      s.dissipation_particle_particle_damping =
        d_end.particle_particle_damping - d_0.particle_particle_damping;
      s.particles = static_cast<unsigned int>(scheme.particles().size());
      s.pair_overlap_evaluations = scheme.pair_overlap_evaluations();
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
      // the rejected steps' assemblies and factorizations count like those of failed attempts
      s.factorizations = solver_statistics.factorizations + S.rejected_factorizations;
      s.assemblies     = solver_statistics.assemblies + S.rejected_assemblies;
      s.assemblies_line_search =
        solver_statistics.line_search_assemblies + S.rejected_line_search_assemblies;
      s.assemblies_failed = solver_statistics.failed_assemblies + S.rejected_assemblies;
      // the iterations of rejected steps count like those of the attempts cut back
      s.failed_newton_iterations =
        solver_statistics.failed_newton_iterations + S.rejected_newton_iterations;
      s.rejected_steps      = S.rejected_steps;
      s.factorization_flops = solver_statistics.factorization_flops;
      s.steps       = S.steps_taken;
      s.kbar              = friction.kbar();
      s.kbar_spread       = friction.spread();
      s.kbar_signed       = friction.signed_mean();
      s.reversed_fraction = friction.reversed_fraction();
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

  void LoopState::record_penetrations(const fem::RubberBlock &block,
                                      const CouplingScheme   &scheme)
  {
    for (const auto &x : block.contact_point_positions())
      max_penetration_surface = std::max(max_penetration_surface, -x[1]);
    for (const contact::RubberParticleInterface *interface : scheme.interfaces())
      for (unsigned int i = 0; i < interface->n_points(); ++i)
        if (interface->response(i).in_contact)
          max_penetration_particle =
            std::max(max_penetration_particle, -interface->response(i).normal_gap);
  }

  MicromechanicalRun::MicromechanicalRun(const RunParameters            &parameters,
                                           const dealii::ParameterHandler &prm,
                                           std::function<void()>           after_each_step)
    : P(parameters)
    , prm(prm)
    , after_each_step(std::move(after_each_step))
    , wall_start(Clock::now())
    , loading(LoadingProgram::from_parameters(parameters.loading, parameters.block.length))
    , dt(parameters.loading.time_step(parameters.block.length))
    , t_end(parameters.loading.end_time(parameters.block.length))
    , n_steps(static_cast<unsigned int>(std::llround(t_end / dt)))
    , timer(std::cout, dealii::TimerOutput::never, dealii::TimerOutput::wall_times)
    , checkpoint(parameters.output.output_directory + "/checkpoint.bin", prm)
    , checkpoint_schedule(parameters.output.checkpoint_step_interval,
                          parameters.output.checkpoint_interval)
  {
    if (parameters.output.checkpoints() && parameters.output.stop_signal_handlers)
      stop_handlers.emplace(StopSignalHandlers::SecondSignal::ends_process, true);
  }

  MicromechanicalRun::~MicromechanicalRun() = default;

  // The time loop (docs/methods.md §5.3), as in deal.II's step-44: set up, restart or
  // start, steps, finish.
  RunSummary MicromechanicalRun::run()
  {
    lock_output_directory();
    if (!P.output.restart)
      claim_output_directory(P.output.output_directory, P.output.overwrite);
    set_up();
    restart_or_start();
    for (unsigned int k = S.step; k < n_steps; k = S.step)
      {
        const auto         step_start = Clock::now();
        const AcceptedStep step       = advance_accepted_step(k);
        check_and_log(step.plan, step.measurements);
        // record: history.csv, VTU; checkpoint; progress
        record(step.plan, step.stats, step.measurements);
        S.step = step.plan.step;
        checkpoint_or_stop(step.plan);
        output->progress(step.plan, step.measurements, step.stats, *friction,
                         seconds_since(step_start, Clock::now()));
      }
    return finish();
  }

  MicromechanicalRun::AcceptedStep MicromechanicalRun::advance_accepted_step(const unsigned int k)
  {
    AcceptedStep s{planner->next(k), {}, {}};
    for (;;)
      {
        // the state before a step that may be rejected (Solver/Step rejection)
        if (planner->keeps_state(s.plan))
          {
            std::ostringstream kept(std::ios::binary);
            {
              boost::archive::binary_oarchive ar(kept);
              save_state(ar, S);
            }
            kept_state = kept.str();
          }
        const unsigned int cutbacks_before = scheme->cutbacks();
        // advance the particle, solve the rubber at t_{n+1}, the interface forces
        s.stats = scheme->advance(s.plan.t0, s.plan.h);
        // measure (docs/methods.md §2.2) and choose the next step's length
        s.measurements = measure(s.plan, s.stats);
        planner->record(s.plan, s.stats, scheme->cutbacks() > cutbacks_before, *energy,
                        s.measurements.dissipation, s.measurements.total_energy);
        if (!planner->rejects(s.plan))
          return s;
        // rejected: back to the state before it, and again with half the length
        reject(s.stats);
        planner->reject(s.plan);
        s.plan = planner->next(k);
      }
  }

  // One run per output directory: a fresh run creates it and holds its lock before it looks
  // for an earlier run's results there; a restart locks it if it exists (without it there
  // is no checkpoint to read, and nothing is created). With the lock held, the temporary
  // files of a killed run's atomic writes are removed.
  void MicromechanicalRun::lock_output_directory()
  {
    const std::string &dir = P.output.output_directory;
    if (!P.output.restart)
      fs::create_directories(dir);
    else if (!fs::is_directory(dir))
      return;
    output_lock = std::make_unique<DirectoryLock>(dir);
    remove_stale_temporary_files(dir);
  }

  std::string MicromechanicalRun::particle_description() const
  {
    const std::vector<const dem::Particle *> all = scheme->particles();
    if (all.empty())
      return "bare interface (no particle)";
    if (all.size() == 1)
      return "particle " + P.particle.shape_name;
    std::ostringstream s;
    s << all.size() << " particles (";
    const std::vector<ParticlePlacement> placed =
      P.particles.placements(P.particle, P.block.length,
                             P.solver.monolithic_coupling ?
                               P.contact.particle_surface.flat_side_radius :
                               0.);
    for (std::size_t i = 0; i < placed.size(); ++i)
      s << (i ? ", " : "") << placed[i].shape_text << " at x = " << placed[i].x;
    s << " mm)";
    return s.str();
  }

  // The particles (DEM) resting on the surface, the rubber block (FEM) above them, the scheme
  // that couples them, and the parts of the loop.
  void MicromechanicalRun::set_up()
  {
    CoupledModel model = make_coupled_model(P, loading, &timer);
    block    = std::move(model.block);
    scheme   = std::move(model.scheme);
    particle = scheme->particle();

    std::cout << "granular-interface: " << block->n_cells() << " Q1P0 cells, "
              << block->n_dofs() << " dofs, " << block->contact_points().size()
              << " contact points; "
              << (P.solver.adaptive_time_step ?
                    "adaptive steps of 1 to " + std::to_string(P.solver.max_step_multiple) +
                      " x " :
                    std::to_string(n_steps) + " steps of ")
              << dt << " s (T0 = " << loading.T0 << " s); "
              << particle_description() << std::endl;

    friction = std::make_unique<MacroscopicFriction>(2. * loading.T0, t_end);
    energy = std::make_unique<EnergyAccountant>(*block, *scheme);
    ledger = std::make_unique<EnergyLedger>(*block, *scheme, loading);
    // a p > 2 particle keeps the steps at dt until the dragging starts (StepPlanner)
    bool rocks_at_rest = false;
    for (const dem::Particle *p : scheme->particles())
      rocks_at_rest = rocks_at_rest || p->geometry().shape().p1 > 2. ||
                      p->geometry().shape().p2 > 2.;
    planner = std::make_unique<StepPlanner>(
      loading, dt, n_steps, P.solver.adaptive_time_step,
      TimeStepControl(P.solver.max_step_multiple, P.solver.step_energy_tolerance),
      rocks_at_rest, P.solver.step_rejection);
    if (!prescribed_step_ends.empty())
      planner->prescribe_step_ends(prescribed_step_ends);
    output = std::make_unique<RunOutput>(P.output, loading, dt, n_steps, P.block.length,
                                         P.solver.adaptive_time_step, *block, *scheme,
                                         *energy);
  }

  // Everything of a restart is read and checked before any output is touched; then the
  // output directory is made ready.
  void MicromechanicalRun::restart_or_start()
  {
    const std::string dir = P.output.output_directory;
    if (P.output.restart)
      {
        checkpoint.read([&](boost::archive::binary_iarchive &ar) { load_state(ar); });
        if (!(S.step < n_steps))
          throw std::runtime_error("--restart: " + checkpoint.path() +
                                   " is at the end of the run");
        // the records a restart appends to: cut back to their size at the checkpoint
        for (const auto &[name, bytes] : {std::pair<std::string, std::uint64_t>{
                                            "history.csv", S.history_bytes},
                                          {"energy.csv", ledger->bytes()}})
          {
            const std::string path = dir + "/" + name;
            std::error_code   ec;
            const auto        size = fs::is_regular_file(path, ec) ? fs::file_size(path, ec) : 0;
            if (size < bytes)
              throw std::runtime_error("--restart: " + path +
                                       (fs::exists(path, ec) ? " is shorter than at the checkpoint (" +
                                                                 std::to_string(size) + " < " +
                                                                 std::to_string(bytes) + " bytes)" :
                                                               " is missing") +
                                       "; nothing was changed");
          }
        std::cout << "granular-interface: restarting at step " << S.step << " (t/T0 = "
                  << S.step * dt / loading.T0 << ") from " << checkpoint.path() << std::endl;
      }

    fs::create_directories(dir);
    std::ostringstream parameters;
    if (!P.block.mesh_file.empty())
      parameters << mesh_file_comment(P.block.mesh_file);
    parameters << source_revision_comment();
    prm.print_parameters(parameters, dealii::ParameterHandler::PRM |
                                       dealii::ParameterHandler::KeepDeclarationOrder);
    write_file_atomically(dir + "/parameters.prm", parameters.str());
    if (P.output.records_attempts())
      {
        attempts = std::make_unique<AttemptRecorder>(dir, parameters.str(),
                                                     P.output.recorded_failed_attempts,
                                                     P.output.recorded_attempt_interval,
                                                     P.output.recorded_attempts_from *
                                                       loading.T0,
                                                     P.output.restart);
        scheme->set_attempt_observer(attempts.get());
      }
    fs::remove(dir + "/summary.csv"); // never leave a stale result of an earlier run
    if (!P.output.restart)
      fs::remove(checkpoint.path()); // nor a checkpoint of another run
    output->open_history(P.output.restart, S.history_bytes);
    output->open_particles(P.output.restart, S.step * dt);
    ledger->open(dir + "/energy.csv", P.output.restart);
    if (!P.output.restart)
      {
        if (P.output.vtu_interval > 0)
          {
            dealii::TimerOutput::Scope scope(timer, "output");
            output->write_vtu(0, 0.);
          }
        energy->start();
        ledger->start();
        planner->start(*energy);
      }
    last_checkpoint = Clock::now();
  }

  // Step 4 of the loop: the platen's forces and displacements, the work and dissipation,
  // the friction average, the penetrations. Everything it changes is in the state a
  // rejected step restores; what it writes comes after the decision (check_and_log()).
  StepMeasurements MicromechanicalRun::measure(const StepPlan            &plan,
                                                const fem::StepStatistics &stats)
  {
    S.newton_iterations += stats.newton_iterations;
    ++S.steps_taken;
    StepMeasurements m;
    m.t             = plan.t;
    m.h             = plan.h;
    m.platen_forces = block->platen_forces();
    m.u1            = loading.platen_u1(plan.t);
    m.u2            = block->platen_vertical_displacement();
    m.load          = loading.platen_load(plan.t);
    m.in_window     = loading.in_averaging_window(plan.t);
    m.block_energies = block->energies();
    m.dissipation    = energy->dissipation(m.block_energies);
    m.total_energy   = energy->total_energy(m.block_energies);
    m.slip_velocity = P.loading.slip_velocity;
    m.with_particle = particle != nullptr;
    if (particle)
      {
        m.particle_speed = std::abs(particle->state().velocity[0]);
        m.rolling_speed =
          std::abs(particle->state().angular_velocity) * P.particle.reference_radius;
      }
    energy->record_step(m);
    friction->add(plan.t, m.platen_forces.normal, m.platen_forces.tangential);
    S.record_penetrations(*block, *scheme);
    return m;
  }

  // After an accepted step: the energy ledger's row (energy.csv) and the energy guard. The
  // ledger's row comes before the guard, so that a run the guard stops keeps its last step.
  void MicromechanicalRun::check_and_log(const StepPlan &plan, const StepMeasurements &m)
  {
    ledger->record(ledger->row(plan.t, plan.h, *energy, m), m.in_window);
    energy->check(plan.t, loading.T0, P.solver.max_energy_error, loading.full_load,
                  P.block.length, P.loading.slip_velocity, m.dissipation, m.total_energy);
    // the rubber is pressed onto the particle from the first step on: by the start of the
    // dragging it has touched it, unless it passed through it
    if (particle != nullptr && plan.step >= planner->T0_step() &&
        !(S.max_penetration_particle > 0.))
      {
        std::ostringstream message;
        message << "the rubber has not touched the particle by the start of the dragging "
                   "(t/T0 = "
                << plan.t / loading.T0
                << "): it passed through or beside it (a step too long for the contact, or a "
                   "particle too small for the mesh), and the result would be that of the "
                   "bare interface. Reduce Loading/Time step or refine the mesh";
        throw std::runtime_error(message.str());
      }
  }

  // A rejected step (Solver/Step rejection, docs/methods.md §3.6): the state kept before it
  // is read back with the checkpoint's code, so that nothing of the attempt remains but
  // the count of rejected steps and their Newton iterations (@p stats: the accepted
  // attempts of its cut-backs; the failed ones are in the block's counter, which the
  // restore takes back).
  void MicromechanicalRun::reject(const fem::StepStatistics &stats)
  {
    const auto         in_all     = block->linear_solver_statistics();
    const unsigned int rejected   = S.rejected_steps + 1;
    unsigned long      iterations = S.rejected_newton_iterations + stats.newton_iterations;
    unsigned long      assemblies = S.rejected_assemblies,
                  line_search     = S.rejected_line_search_assemblies,
                  factorizations  = S.rejected_factorizations;
    {
      std::istringstream              kept(kept_state, std::ios::binary);
      boost::archive::binary_iarchive ar(kept);
      load_state(ar);
    }
    const auto before = block->linear_solver_statistics();
    iterations += in_all.failed_newton_iterations - before.failed_newton_iterations;
    assemblies += in_all.assemblies - before.assemblies;
    line_search += in_all.line_search_assemblies - before.line_search_assemblies;
    factorizations += in_all.factorizations - before.factorizations;
    S.rejected_steps                  = rejected;
    S.rejected_newton_iterations      = iterations;
    S.rejected_assemblies             = assemblies;
    S.rejected_line_search_assemblies = line_search;
    S.rejected_factorizations         = factorizations;
  }


  // Step 5: history.csv on the grid of dt (rows a long step stepped over are
  // interpolated), VTU output at the grid steps that ask for it.
  void MicromechanicalRun::record(const StepPlan &plan, const fem::StepStatistics &stats,
                                   const StepMeasurements &m)
  {
    const HistoryRow row = output->row(m, stats, *friction);
    output->record_history(plan, S.last_row, row);
    S.last_row = row;
    if (const std::optional<unsigned int> number = output->vtu_due(plan))
      {
        dealii::TimerOutput::Scope scope(timer, "output");
        output->write_vtu(*number, plan.t);
      }
    if (after_each_step)
      after_each_step();
  }

  // A checkpoint when it is due, and the stop a signal asked for.
  void MicromechanicalRun::checkpoint_or_stop(const StepPlan &plan)
  {
    if (!P.output.checkpoints() || plan.step >= n_steps)
      return;
    const int  stop = stop_request();
    const auto now  = Clock::now();
    if (checkpoint_schedule.due(plan.step, plan.m, seconds_since(last_checkpoint, now), stop))
      {
        write_checkpoint();
        last_checkpoint = now;
      }
    if (stop != 0)
      {
        std::ostringstream message;
        message << "stopped by "
                << (stop == SIGTERM ? "SIGTERM" :
                    stop == SIGINT  ? "SIGINT" :
                    stop == SIGPIPE ? "SIGPIPE (its standard output was closed)" :
                                      "request")
                << " at step " << plan.step << " (t/T0 = " << plan.t / loading.T0
                << "); the state is in " << checkpoint.path() << ": continue with --restart";
        throw RunInterrupted(message.str(), stop > 0 ? stop : 0);
      }
  }

  // The loop's counters are written with the times of this process added.
  void MicromechanicalRun::write_checkpoint()
  {
    S.history_bytes = output->flush_history();
    LoopState  saved = S;
    const auto times = timer.get_summary_data(dealii::TimerOutput::total_wall_time);
    for (unsigned int i = 0; i < 5; ++i)
      {
        const auto it = times.find(section_names[i]);
        saved.section_times[i] += it == times.end() ? 0. : it->second;
      }
    saved.wall_time += seconds_since(wall_start, Clock::now());
    checkpoint.write([&](boost::archive::binary_oarchive &ar) { save_state(ar, saved); });
  }

  // The run's state: the loop counters, the energy accountant and ledger, the friction
  // average, the .pvd records, the step planner, the coupling scheme (particle, interface)
  // and the rubber block (solution, quadrature-point history, solvers). A checkpoint and the
  // state kept before a step that may be rejected are this, read back by load_state().
  void MicromechanicalRun::save_state(boost::archive::binary_oarchive &ar,
                                       const LoopState                 &loop) const
  {
    ar &loop &*energy &*friction &output->solution_pvd() &output->particle_pvd() &*planner;
    scheme->save(ar);
    block->save_state(ar);
    ar &*ledger;
  }

  void MicromechanicalRun::load_state(boost::archive::binary_iarchive &ar)
  {
    ar &S &*energy &*friction &output->solution_pvd() &output->particle_pvd() &*planner;
    scheme->load(ar);
    block->load_state(ar);
    ar &*ledger;
  }

  // summary.csv: the dissipation split, the energy balance, the cost.
  RunSummary MicromechanicalRun::finish()
  {
    output->close_history();
    RunSummary summary = summarise(P, loading, t_end, *energy, *ledger, *friction, *scheme, *block, S);
    // times of this process plus those of the processes before a restart
    summary.wall_time = S.wall_time + seconds_since(wall_start, Clock::now());
    const auto times  = timer.get_summary_data(dealii::TimerOutput::total_wall_time);
    auto       section = [&](unsigned int i) {
      const auto it = times.find(section_names[i]);
      return S.section_times[i] + (it == times.end() ? 0. : it->second);
    };
    summary.time_assembly      = section(0);
    summary.time_factorization = section(1);
    summary.time_solve         = section(2);
    summary.time_particle      = section(3);
    summary.time_output        = section(4);
    write_file_atomically(P.output.output_directory + "/summary.csv", summary_csv(summary));
    fs::remove(checkpoint.path()); // the run is complete
    return summary;
  }
} // namespace granular::coupling

namespace granular
{
  RunSummary run_micromechanical_test(const RunParameters            &parameters,
                                      const dealii::ParameterHandler &prm,
                                      const std::function<void()>    &after_each_step)
  {
    coupling::MicromechanicalRun run(parameters, prm, after_each_step);
    return run.run();
  }
} // namespace granular
