// The coupling schemes of one time step (docs/methods.md §5.3). See coupling_scheme.h.
#include "coupling/coupling_scheme.h"

#include "base/serialization.h"
#include "coupling/monolithic_particle.h"
#include "coupling/monolithic_particles.h"

#include <deal.II/base/timer.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace granular::coupling
{
  // ---- the base: cut-backs ----------------------------------------------------------------

  CouplingScheme::CouplingScheme(fem::RubberBlock &block, const LoadingProgram &loading,
                                 const unsigned int max_cutbacks)
    : block_(block)
    , loading_(loading)
    , max_cutbacks_(max_cutbacks)
  {}

  std::string CouplingScheme::energy_error_advice() const
  {
    return " (" + name() + "). Reduce Loading/Time step";
  }

  void CouplingScheme::set_long_steps(const double reference_step,
                                      const unsigned int long_step_iterations,
                                      const unsigned int iterations)
  {
    reference_step_       = reference_step;
    long_step_iterations_ = long_step_iterations;
    iterations_           = iterations;
  }

  unsigned int CouplingScheme::iteration_limit(const double h) const
  {
    if (!(reference_step_ > 0.))
      return 0; // fixed steps: Solver/Maximum Newton iterations
    return h > 1.5 * reference_step_ ? long_step_iterations_ : iterations_;
  }

  RubberSolveAttempt CouplingScheme::try_rubber_solve(const double t0, const double h,
                                                      const unsigned int iteration_limit,
                                                      const unsigned int level)
  {
    RubberSolveAttempt a;
    a.t0              = t0;
    a.h               = h;
    a.level           = level;
    a.iteration_limit = iteration_limit;
    const auto before = block_.linear_solver_statistics();
    try
      {
        const double t1 = t0 + h;
        a.stats = block_.solve_step(h, loading_.platen_u1(t1), loading_.platen_load(t1),
                                    iteration_limit);
        a.converged = true;
      }
    catch (const NewtonFailure &e)
      {
        // its iterations: the corrections between the iterates it assembled
        a.stats.residual_norms    = block_.failed_attempt_residual_norms();
        a.stats.newton_iterations = a.stats.residual_norms.empty() ?
                                      0 :
                                      a.stats.residual_norms.size() - 1;
        a.failure                 = e.what();
      }
    const auto after = block_.linear_solver_statistics();
    a.assemblies     = after.assemblies - before.assemblies;
    a.factorizations = after.factorizations - before.factorizations;
    return a;
  }

  fem::StepStatistics CouplingScheme::advance_rubber(const double t0, const double h,
                                                     const unsigned int level)
  {
    const std::string state =
      observer_ != nullptr && observer_->keeps_state(t0) ? saved_state() : std::string();
    const RubberSolveAttempt a = try_rubber_solve(t0, h, iteration_limit(h), level);
    if (observer_ != nullptr)
      observer_->observe(a, state);
    if (a.converged)
      {
        block_.commit_step();
        return a.stats;
      }
    // adaptive steps: halve down to reference_step / 2^max_cutbacks, whatever the length of
    // the step that failed
    const bool exhausted =
      reference_step_ > 0. ?
        !(h > 1.5 * std::ldexp(reference_step_, -static_cast<int>(max_cutbacks_))) :
        level >= max_cutbacks_;
    if (exhausted)
      {
        std::ostringstream m;
        m << "the rubber solve failed at t = " << t0 + h << " s (t/T0 = "
          << (t0 + h) / loading_.T0 << ") after " << level
          << " cut-backs of the time step: " << a.failure << failure_advice();
        throw std::runtime_error(m.str());
      }
    ++cutbacks_;
    fem::StepStatistics first  = advance_rubber(t0, 0.5 * h, level + 1);
    fem::StepStatistics second = advance_rubber(t0 + 0.5 * h, 0.5 * h, level + 1);
    second.newton_iterations += first.newton_iterations;
    return second;
  }

  std::string CouplingScheme::saved_state() const
  {
    std::ostringstream out(std::ios::binary);
    {
      boost::archive::binary_oarchive ar(out);
      save(ar);
      block_.save_state(ar);
    }
    return out.str();
  }

  void CouplingScheme::load_state(const std::string &state)
  {
    std::istringstream              in(state, std::ios::binary);
    boost::archive::binary_iarchive ar(in);
    load(ar);
    block_.load_state(ar);
  }

  void CouplingScheme::save(boost::archive::binary_oarchive &ar) const
  {
    ar &cutbacks_ &coupling_passes_;
  }

  void CouplingScheme::load(boost::archive::binary_iarchive &ar)
  {
    ar &cutbacks_ &coupling_passes_;
  }

  namespace
  {
    // ---- no particle ----------------------------------------------------------------------

    /// The bare interface: the rubber alone on the rigid surface (docs/methods.md §7).
    class BareInterface : public CouplingScheme
    {
    public:
      using CouplingScheme::CouplingScheme;
      std::string name() const override { return "bare interface, no particle"; }
      fem::StepStatistics advance(const double t_n, const double h) override
      {
        return advance_rubber(t_n, h, 0);
      }
    };

    // ---- a particle: what both coupled schemes share -----------------------------------

    /// A scheme with the DEM particles and their rubber-particle interfaces, all owned;
    /// particle 0 is the one of the history's particle columns.
    class ParticleCoupling : public CouplingScheme
    {
    public:
      ParticleCoupling(fem::RubberBlock &block, const LoadingProgram &loading,
                       const RunParameters                          &P,
                       std::vector<std::unique_ptr<dem::Particle>> particles)
        : CouplingScheme(block, loading, P.solver.max_cutbacks)
        , particles_(std::move(particles))
        , interfaces_(make_interfaces(block, P, particles_))
        , particle_(particles_.front().get())
        , interface_(*interfaces_.front())
      {}

      const dem::Particle *particle() const override { return particle_; }
      const contact::RubberParticleInterface *interface() const override
      {
        return &interface_;
      }
      std::vector<const dem::Particle *> particles() const override
      {
        std::vector<const dem::Particle *> r;
        for (const auto &p : particles_)
          r.push_back(p.get());
        return r;
      }
      std::vector<const contact::RubberParticleInterface *> interfaces() const override
      {
        std::vector<const contact::RubberParticleInterface *> r;
        for (const auto &i : interfaces_)
          r.push_back(i.get());
        return r;
      }

      void add_particle_dissipation(Dissipation &d) const override
      {
        // particle 0's as they are (one particle: bit for bit), the others' added
        d.rubber_particle  = interface_.frictional_dissipation();
        d.particle_surface = particle_->friction_dissipation();
        d.damping          = particle_->damping_dissipation();
        for (std::size_t i = 1; i < particles_.size(); ++i)
          {
            d.rubber_particle += interfaces_[i]->frictional_dissipation();
            d.particle_surface += particles_[i]->friction_dissipation();
            d.damping += particles_[i]->damping_dissipation();
          }
      }
      double particle_energy() const override
      {
        double e = 0.;
        for (std::size_t i = 0; i < particles_.size(); ++i)
          {
            const dem::Particle &p = *particles_[i];
            const double e_i = interfaces_[i]->spring_energy() + p.kinetic_energy() +
                               p.gravitational_energy() + p.contact_energy();
            e = i == 0 ? e_i : e + e_i;
          }
        return e;
      }
      unsigned int last_substeps() const override { return particle_->last_substeps(); }

      void save(boost::archive::binary_oarchive &ar) const override
      {
        CouplingScheme::save(ar);
        for (std::size_t i = 0; i < particles_.size(); ++i)
          {
            dem::Particle::Checkpoint c = particles_[i]->checkpoint();
            ar &c & *interfaces_[i];
          }
      }
      void load(boost::archive::binary_iarchive &ar) override
      {
        CouplingScheme::load(ar);
        for (std::size_t i = 0; i < particles_.size(); ++i)
          {
            dem::Particle::Checkpoint c;
            ar &c & *interfaces_[i];
            particles_[i]->restore(c);
          }
      }

    protected:
      /// " (particle x = ... mm, theta = ... rad)"
      std::string particle_position() const
      {
        std::ostringstream m;
        m << "particle x = " << particle_->state().centre[0]
          << " mm, theta = " << particle_->state().rotation << " rad";
        return m.str();
      }

      /// One rubber-particle interface per particle, at the block's bottom contact points.
      static std::vector<std::unique_ptr<contact::RubberParticleInterface>>
      make_interfaces(const fem::RubberBlock &block, const RunParameters &P,
                      const std::vector<std::unique_ptr<dem::Particle>> &particles)
      {
        if (particles.empty())
          throw std::invalid_argument("ParticleCoupling: no particle");
        std::vector<std::unique_ptr<contact::RubberParticleInterface>> interfaces;
        for (const auto &p : particles)
          interfaces.push_back(std::make_unique<contact::RubberParticleInterface>(
            block.contact_points(), p->geometry(), P.contact.rubber_particle, P.block.length,
            P.solver.rubber_particle_discrete_gradient ?
              contact::RubberParticleInterface::ContactForces::discrete_gradient :
              contact::RubberParticleInterface::ContactForces::end_of_step));
        return interfaces;
      }

      std::vector<std::unique_ptr<dem::Particle>>                    particles_;
      std::vector<std::unique_ptr<contact::RubberParticleInterface>> interfaces_;
      /// particle 0 and its interface
      dem::Particle                    *particle_;
      contact::RubberParticleInterface &interface_;
    };

    // ---- monolithic ------------------------------------------------------------------------

    /// The particle's unknowns in the rubber's Newton system (coupling::MonolithicParticle);
    /// its rubber resultant at t_n is MonolithicParticle's.
    class MonolithicCoupling : public ParticleCoupling
    {
    public:
      MonolithicCoupling(fem::RubberBlock &block, const LoadingProgram &loading,
                         const RunParameters                          &P,
                         std::vector<std::unique_ptr<dem::Particle>> particles)
        : ParticleCoupling(block, loading, P, std::move(particles))
        , parts_(make_parts(particles_, interfaces_, P.solver.particle_gamma))
        , obstacle_(particles_.size() == 1 ? MonolithicParticles(raw(parts_)) :
                                             MonolithicParticles(raw(parts_), bodies(particles_)))
      {
        block.set_obstacle(&obstacle_);
      }
      ~MonolithicCoupling() override { block_.set_obstacle(nullptr); }

      std::string name() const override { return "monolithic DEM-FEM coupling"; }
      fem::StepStatistics advance(const double t_n, const double h) override
      {
        return advance_rubber(t_n, h, 0);
      }
      /// on particle 0
      Tensor<1, 2> rubber_force() const override
      {
        const auto P = parts_.front()->rubber_resultant();
        return Tensor<1, 2>({P[0], P[1]});
      }
      double rubber_moment() const override { return parts_.front()->rubber_resultant()[2]; }
      void add_particle_dissipation(Dissipation &d) const override
      {
        ParticleCoupling::add_particle_dissipation(d);
        for (const auto &part : parts_)
          d.numerical += part->numerical_dissipation();
        d.particle_particle         = obstacle_.pair_friction_dissipation();
        d.particle_particle_damping = obstacle_.pair_damping_dissipation();
      }
      double particle_energy() const override
      {
        // one particle: its energy alone, bit for bit
        const double e = ParticleCoupling::particle_energy();
        return particles_.size() == 1 ? e : e + obstacle_.pair_energy();
      }
      double       pair_energy() const override { return obstacle_.pair_energy(); }
      unsigned int pairs_in_contact() const override { return obstacle_.pairs_in_contact(); }
      unsigned long pair_overlap_evaluations() const override
      {
        return obstacle_.overlap_evaluations();
      }
      std::string energy_error_advice() const override
      {
        return " (" + name() + "; " + particle_position() +
               "). Reduce Loading/Time step; snap-throughs and fast rocking of elongated "
               "particles are the known cause (docs/methods.md §5.3)";
      }
      void save(boost::archive::binary_oarchive &ar) const override
      {
        ParticleCoupling::save(ar);
        for (const auto &part : parts_)
          ar & *part;
        if (particles_.size() > 1) // the pairs (one particle: the state of earlier builds)
          ar &obstacle_;
      }
      void load(boost::archive::binary_iarchive &ar) override
      {
        ParticleCoupling::load(ar);
        for (const auto &part : parts_)
          ar & *part;
        if (particles_.size() > 1) // the pairs (one particle: the state of earlier builds)
          ar &obstacle_;
      }

    private:
      static std::vector<std::unique_ptr<MonolithicParticle>>
      make_parts(const std::vector<std::unique_ptr<dem::Particle>> &particles,
                 const std::vector<std::unique_ptr<contact::RubberParticleInterface>> &interfaces,
                 const double gamma)
      {
        std::vector<std::unique_ptr<MonolithicParticle>> parts;
        for (std::size_t i = 0; i < particles.size(); ++i)
          parts.push_back(std::make_unique<MonolithicParticle>(*particles[i], *interfaces[i], gamma));
        return parts;
      }
      static std::vector<const dem::Particle *>
      bodies(const std::vector<std::unique_ptr<dem::Particle>> &particles)
      {
        std::vector<const dem::Particle *> r;
        for (const auto &p : particles)
          r.push_back(p.get());
        return r;
      }
      static std::vector<MonolithicParticle *>
      raw(const std::vector<std::unique_ptr<MonolithicParticle>> &parts)
      {
        std::vector<MonolithicParticle *> r;
        for (const auto &part : parts)
          r.push_back(part.get());
        return r;
      }

      /// each particle's unknowns and equations
      std::vector<std::unique_ptr<MonolithicParticle>> parts_;
      /// all particles' unknowns in the block's Newton system (one particle: bit for bit
      /// its MonolithicParticle alone)
      MonolithicParticles obstacle_;
    };

    // ---- staggered ---------------------------------------------------------------------------

    /// docs/methods.md §5.3: the particle moves first with the rubber force of t_n (explicit,
    /// sub-cycled velocity Verlet), then the rubber is solved with the particle held; optionally
    /// sub-iterated (see advance()).
    class StaggeredCoupling : public ParticleCoupling
    {
    public:
      StaggeredCoupling(fem::RubberBlock &block, const LoadingProgram &loading,
                        const RunParameters                          &P,
                        std::vector<std::unique_ptr<dem::Particle>> particles,
                        dealii::TimerOutput                         *timer)
        : ParticleCoupling(block, loading, P, std::move(particles))
        , iterations_(P.solver.coupling_iterations)
        , tolerance_(P.solver.coupling_tolerance)
        , r0_(P.particle.reference_radius)
        , timer_(timer)
      {
        if (particles_.size() != 1)
          throw std::invalid_argument(
            "the staggered coupling moves one particle; several need Solver/Coupling "
            "scheme = monolithic");
        block.set_obstacle(&interface_);
      }
      ~StaggeredCoupling() override { block_.set_obstacle(nullptr); }

      std::string name() const override { return "staggered DEM-FEM coupling"; }
      fem::StepStatistics advance(double t_n, double h) override;
      Tensor<1, 2> rubber_force() const override { return rubber_force_; }
      double       rubber_moment() const override { return rubber_moment_; }
      std::string  energy_error_advice() const override
      {
        return ", the sign of an unstable explicit DEM-FEM coupling (" + particle_position() +
               "). Use Solver/Coupling scheme = monolithic; a smaller Loading/Time step "
               "helps only partly (docs/methods.md §5.3)";
      }
      void save(boost::archive::binary_oarchive &ar) const override
      {
        ParticleCoupling::save(ar);
        ar &rubber_force_ &rubber_moment_;
      }
      void load(boost::archive::binary_iarchive &ar) override
      {
        ParticleCoupling::load(ar);
        ar &rubber_force_ &rubber_moment_;
      }

    protected:
      std::string failure_advice() const override
      {
        return ". With a particle this usually means that the explicit DEM-FEM coupling "
               "became unstable: use Solver/Coupling scheme = monolithic or reduce "
               "Loading/Time step (docs/methods.md §5.3)";
      }

    private:
      /// The explicit particle update over @p h with force @p F and moment @p M (held),
      /// and the new pose for the rubber's obstacle.
      void advance_particle(double h, const Tensor<1, 2> &F, double M);
      /// The sub-iterations after the explicit pass; commits the rubber step. Returns the
      /// Newton iterations of the extra rubber solves.
      unsigned int iterate(const dem::Particle::Checkpoint &at_t_n, double t1, double h,
                           fem::StepStatistics &stats);

      unsigned int         iterations_;
      double               tolerance_;
      double               r0_;
      dealii::TimerOutput *timer_;
      /// rubber force and moment on the particle at t_n (zero before the first solve)
      Tensor<1, 2> rubber_force_;
      double       rubber_moment_ = 0.;
    };

    void StaggeredCoupling::advance_particle(const double h, const Tensor<1, 2> &F,
                                             const double M)
    {
      std::optional<dealii::TimerOutput::Scope> scope;
      if (timer_)
        scope.emplace(*timer_, "particle");
      particle_->advance(h, F, M);
      interface_.set_particle_pose(particle_->state().centre, particle_->state().rotation);
    }

    fem::StepStatistics StaggeredCoupling::advance(const double t_n, const double h)
    {
      // 1. particle update with the forces and moment of t_n (explicit)
      const dem::Particle::Checkpoint at_t_n = particle_->checkpoint();
      advance_particle(h, rubber_force_, rubber_moment_);
      // 2. rubber solve at t_{n+1} with the particle held; 3. forces at t_{n+1}
      const double        t1     = t_n + h;
      bool                solved = false;
      fem::StepStatistics stats;
      try
        {
          stats  = block_.solve_step(h, loading_.platen_u1(t1), loading_.platen_load(t1),
                                    iteration_limit(h));
          solved = true;
        }
      catch (const NewtonFailure &)
        {
          stats = advance_rubber(t_n, h, 0); // cut-backs, commits (no iterations)
        }
      if (solved) // commits the rubber step (also when it falls back to cut-backs)
        stats.newton_iterations += iterate(at_t_n, t1, h, stats);
      const auto r   = interface_.resultant();
      rubber_force_  = r.force;
      rubber_moment_ = r.moment;
      return stats;
    }

    // Sub-iterated staggering (Solver/Coupling iterations): after the explicit pass, the
    // particle is advanced again from t_n with the trapezoidal interface force
    // (F_n + F_{n+1}) / 2 and the rubber solved again, with Aitken relaxation on
    // (F_1, F_2, M / r0), until the work mismatch of the interface force over the step,
    // |(F_used - F_avg) . (dc, r0 dtheta)|, is below Solver/Coupling tolerance times the
    // platen's work per step p L0 v_F h. The converged scheme is implicit and
    // energy-consistent; 0 iterations is the explicit scheme of Temizer 2013.
    unsigned int StaggeredCoupling::iterate(const dem::Particle::Checkpoint &at_t_n,
                                            const double t1, const double h,
                                            fem::StepStatistics &stats)
    {
      using Vec3                 = std::array<double, 3>;
      const double work_per_step = loading_.full_load * loading_.slip_velocity * h;
      const Vec3   F_n{{rubber_force_[0], rubber_force_[1], rubber_moment_ / r0_}};
      Vec3         used = F_n; // what the particle was advanced with
      Vec3         previous_residual{};
      double       omega  = 0.5;
      unsigned int newton = 0;
      for (unsigned int k = 0; k <= iterations_; ++k)
        {
          const auto r = interface_.resultant();
          const Vec3 F_1{{r.force[0], r.force[1], r.moment / r0_}};
          Vec3       target, residual;
          for (unsigned int i = 0; i < 3; ++i)
            {
              target[i]   = 0.5 * (F_n[i] + F_1[i]);
              residual[i] = target[i] - used[i];
            }
          const auto   state = particle_->state();
          const double d[3]  = {particle_->unwrapped_centre()[0] - at_t_n.unwrapped_centre[0],
                                particle_->unwrapped_centre()[1] - at_t_n.unwrapped_centre[1],
                                r0_ * (state.rotation - at_t_n.state.rotation)};
          const double mismatch =
            std::abs(residual[0] * d[0] + residual[1] * d[1] + residual[2] * d[2]);
          if (mismatch <= tolerance_ * work_per_step || k == iterations_)
            {
              block_.commit_step();
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
          particle_->restore(at_t_n);
          advance_particle(h, Tensor<1, 2>({used[0], used[1]}), used[2] * r0_);
          ++coupling_passes_;
          try
            {
              const fem::StepStatistics s =
                block_.solve_step(h, loading_.platen_u1(t1), loading_.platen_load(t1),
                                    iteration_limit(h));
              newton += s.newton_iterations;
              stats.contact_points_in_contact = s.contact_points_in_contact;
              stats.contact_points_slipping   = s.contact_points_slipping;
            }
          catch (const NewtonFailure &)
            {
              // keep this particle state and take the rubber step with cut-backs
              const fem::StepStatistics s  = advance_rubber(t1 - h, 0.5 * h, 1);
              const fem::StepStatistics s2 = advance_rubber(t1 - 0.5 * h, 0.5 * h, 1);
              ++cutbacks_;
              newton += s.newton_iterations + s2.newton_iterations;
              stats.contact_points_in_contact = s2.contact_points_in_contact;
              stats.contact_points_slipping   = s2.contact_points_slipping;
              return newton; // committed
            }
        }
      block_.commit_step();
      return newton;
    }
  } // namespace

  std::vector<std::unique_ptr<dem::Particle>> make_particles(const RunParameters &P)
  {
    std::vector<std::unique_ptr<dem::Particle>> particles;
    if (!P.particle.enabled)
      return particles;
    const double rounding =
      P.solver.monolithic_coupling ? P.contact.particle_surface.flat_side_radius : 0.;
    for (const ParticlePlacement &p : P.particles.placements(P.particle, P.block.length, rounding))
      particles.push_back(std::make_unique<dem::Particle>(
        p.shape, P.particle.mass(p.shape), P.particle.moment_of_inertia(p.shape),
        P.particle.gravity,
        P.contact.particle_surface,
        dem::Particle::initial_state_resting(p.shape, p.rotation, p.x, rounding),
        P.block.length));
    return particles;
  }

  CoupledModel make_coupled_model(const RunParameters &P, const LoadingProgram &loading,
                                  dealii::TimerOutput *timer)
  {
    std::vector<std::unique_ptr<dem::Particle>> particles = make_particles(P);
    // the block's bottom above the highest particle
    double bottom_height = P.block.initial_gap;
    if (!particles.empty())
      {
        double top = particles.front()->top();
        for (const auto &p : particles)
          top = std::max(top, p->top());
        bottom_height += top;
      }
    CoupledModel m;
    m.block = std::make_unique<fem::RubberBlock>(P.block, P.rubber, P.contact.rubber_surface,
                                                 P.solver,
                                                 P.rubber.density_ratio * P.particle.density,
                                                 bottom_height, loading.full_load,
                                                 P.output.verbose);
    m.block->set_timer(timer);
    m.scheme = make_coupling_scheme(P, *m.block, std::move(particles), loading, timer);
    if (P.solver.adaptive_time_step)
      m.scheme->set_long_steps(P.loading.time_step(P.block.length),
                               P.solver.long_step_newton_iterations,
                               P.solver.max_newton_iterations);
    return m;
  }

  std::unique_ptr<CouplingScheme>
  make_coupling_scheme(const RunParameters &P, fem::RubberBlock &block,
                       std::vector<std::unique_ptr<dem::Particle>> particles,
                       const LoadingProgram &loading, dealii::TimerOutput *timer)
  {
    if (particles.empty())
      return std::make_unique<BareInterface>(block, loading, P.solver.max_cutbacks);
    if (P.solver.monolithic_coupling)
      return std::make_unique<MonolithicCoupling>(block, loading, P, std::move(particles));
    return std::make_unique<StaggeredCoupling>(block, loading, P, std::move(particles), timer);
  }

  std::unique_ptr<CouplingScheme>
  make_coupling_scheme(const RunParameters &P, fem::RubberBlock &block,
                       std::unique_ptr<dem::Particle> particle, const LoadingProgram &loading,
                       dealii::TimerOutput *timer)
  {
    std::vector<std::unique_ptr<dem::Particle>> particles;
    if (particle)
      particles.push_back(std::move(particle));
    return make_coupling_scheme(P, block, std::move(particles), loading, timer);
  }
} // namespace granular::coupling
