#pragma once
/**
 * @file coupling_scheme.h
 * How one time step t_n -> t_n + h advances the rubber block (FEM) and the particle (DEM)
 * together (docs/methods.md §5.3), behind one interface:
 *  - BareInterface: no particle, the rubber alone (docs/methods.md §7, k̄ = k_o check);
 *  - MonolithicCoupling (Solver/Coupling scheme = monolithic, the default): the particle's
 *    three unknowns are solved in the rubber's Newton system (coupling::MonolithicParticle);
 *  - StaggeredCoupling (= staggered): the explicit scheme of docs/methods.md §5.3 (particle first
 *    with the rubber force of t_n, then the rubber with the particle held), with optional
 *    Aitken-relaxed sub-iterations (Solver/Coupling iterations).
 * Each scheme owns its state: the particle, the rubber-particle interface, the rubber force
 * at t_n, its cut-back and coupling-pass counters. Every scheme cuts the step back (halving,
 * up to Solver/Maximum cut-backs times) when the rubber's Newton solve fails
 * (docs/methods.md §3.6).
 *
 * Units: mm, s, N per mm thickness (moments N mm/mm), energies N mm/mm.
 */
#include "base/archive_fwd.h"
#include "contact/rubber_particle_contact.h"
#include "coupling/loading_program.h"
#include "coupling/run_parameters.h"
#include "dem/particle.h"
#include "fem/rubber_block.h"

#include <deal.II/base/tensor.h>

#include <memory>
#include <string>

namespace dealii { class TimerOutput; }

namespace granular::coupling
{
  using dealii::Tensor;

  /// Dissipation accumulated since t = 0, by mechanism (N mm per mm thickness).
  struct Dissipation
  {
    double rubber_surface = 0., rubber_particle = 0., particle_surface = 0., damping = 0.;
    double viscous = 0.; ///< Maxwell branch
    /// Newmark's algorithmic dissipation (rubber and, monolithic, particle); not physical
    double numerical = 0.;
    /// the part of numerical that the velocity update at the step starts took
    /// (Solver/Rubber-particle velocity update; fem::BlockEnergies::velocity_update_dissipation)
    double velocity_update = 0.;
    /// friction and damping of the contacts between particles (several particles)
    double particle_particle = 0., particle_particle_damping = 0.;
    double frictional() const
    {
      return rubber_surface + rubber_particle + particle_surface + particle_particle;
    }
    double total() const
    {
      return frictional() + damping + viscous + numerical + particle_particle_damping;
    }

    template <class Archive>
    void serialize(Archive &ar, const unsigned int)
    {
      ar &rubber_surface &rubber_particle &particle_surface &damping &viscous &numerical;
      ar &particle_particle &particle_particle_damping;
      ar &velocity_update;
    }
  };

  /// One Newton attempt of a scheme's rubber solve (a step, or a sub-step of its
  /// cut-backs): where it starts, what it may do and what it did.
  struct RubberSolveAttempt
  {
    double       t0 = 0.;              ///< start (s)
    double       h  = 0.;              ///< length (s)
    unsigned int level = 0;            ///< cut-back depth (0: the step as planned)
    unsigned int iteration_limit = 0;  ///< 0: Solver/Maximum Newton iterations
    bool         converged = false;
    /// the Newton statistics (residual_norms: |r|/F_ref at the iterates, also of a failed
    /// attempt)
    fem::StepStatistics stats;
    /// assemblies and KLU factorizations the attempt made
    unsigned long assemblies = 0, factorizations = 0;
    std::string   failure; ///< the NewtonFailure's message; "" if converged
  };

  /**
   * Receives every Newton attempt of a scheme's rubber solves (advance_rubber(): the
   * monolithic and the bare scheme's, the staggered scheme's cut-back solves), with the
   * state it started from (CouplingScheme::saved_state()) while keeps_state() says so:
   * coupling/attempt_record.h writes them to files for replay-attempt.
   */
  class AttemptObserver
  {
  public:
    virtual ~AttemptObserver() = default;
    /// Whether the state before the next attempt, which starts at @p t0 (s), is to be
    /// saved (it costs a copy of the block's state per attempt).
    virtual bool keeps_state(double t0) const = 0;
    /// @p attempt has ended; @p state is the state it started from ("" if not kept).
    virtual void observe(const RubberSolveAttempt &attempt, const std::string &state) = 0;
  };

  /// One time step of the coupled rubber and particle; see the file comment.
  class CouplingScheme
  {
  public:
    /**
     * @param block        the rubber block (not owned), at t_n between calls of advance()
     * @param loading      the platen's program
     * @param max_cutbacks step halvings before advance() gives up
     */
    CouplingScheme(fem::RubberBlock &block, const LoadingProgram &loading,
                   unsigned int max_cutbacks);
    virtual ~CouplingScheme() = default;

    /// "bare interface", "monolithic" or "staggered".
    virtual std::string name() const = 0;

    /**
     * Advances rubber and particle from @p t_n (s) by @p h (s) and commits the step
     * (docs/methods.md §5.3: 1. particle, 2. rubber at t_{n+1}, 3. the interface forces at
     * t_{n+1}).
     * @return the rubber's Newton statistics (iterations summed over cut-back sub-steps)
     * @throws std::runtime_error naming the time when the rubber solve fails after
     *         max_cutbacks halvings.
     */
    virtual fem::StepStatistics advance(double t_n, double h) = 0;

    /// The particle (particle 0 of several), or nullptr for the bare interface.
    virtual const dem::Particle *particle() const { return nullptr; }
    /// All particles, particle 0 first (none for the bare interface).
    virtual std::vector<const dem::Particle *> particles() const { return {}; }
    /// The rubber-particle interface of each particle, in the order of particles().
    virtual std::vector<const contact::RubberParticleInterface *> interfaces() const
    {
      return {};
    }
    /// Energy stored in the contacts between particles (N mm/mm) and the pairs (i, j, image)
    /// in contact, at the last committed step (0 with fewer than two particles).
    virtual double       pair_energy() const { return 0.; }
    virtual unsigned int pairs_in_contact() const { return 0; }
    /// The closest-normal evaluations of the contacts between particles since t = 0
    /// (MonolithicParticles::overlap_evaluations()).
    virtual unsigned long pair_overlap_evaluations() const { return 0; }
    /// The rubber-particle interface, or nullptr for the bare interface.
    virtual const contact::RubberParticleInterface *interface() const { return nullptr; }
    /// Force (N/mm) and moment about the centre (N mm/mm) of the rubber on the particle at
    /// the last committed step (0 without a particle).
    virtual Tensor<1, 2> rubber_force() const { return {}; }
    virtual double       rubber_moment() const { return 0.; }

    /// Adds the particle side's accumulated dissipation (rubber-particle and particle-surface
    /// friction, DEM damping, the particle's Newmark dissipation, the contacts between
    /// particles) to @p d.
    virtual void add_particle_dissipation(Dissipation & /*d*/) const {}
    /// Energy of the particle side (N mm/mm): rubber-particle penalty springs, the particles'
    /// kinetic and gravitational energy, their surface-contact springs and the energy stored
    /// in the contacts between them.
    virtual double particle_energy() const { return 0.; }
    /// Explicit DEM sub-steps of the last step (0: the particle is implicit or absent).
    virtual unsigned int last_substeps() const { return 0; }
    /// A sentence on what a failing energy balance of this scheme means.
    virtual std::string energy_error_advice() const;

    /**
     * Adaptive time steps (Solver/Time step control = adaptive): a step longer than 1.5
     * @p reference_step (s, Loading/Time step) gets at most @p long_step_iterations Newton
     * iterations before it is halved, shorter ones @p iterations; and a step is halved
     * down to reference_step / 2^max_cutbacks whatever its length. Without this call
     * (fixed steps) every step has Solver/Maximum Newton iterations and max_cutbacks
     * halvings.
     */
    void set_long_steps(double reference_step, unsigned int long_step_iterations,
                        unsigned int iterations);

    /// Step halvings so far (docs/methods.md §3.6).
    unsigned int cutbacks() const { return cutbacks_; }
    /// Extra particle/rubber passes of the staggered sub-iterations so far.
    unsigned long coupling_passes() const { return coupling_passes_; }

    /// Checkpoint/restart of the scheme's state (particle, interface, the force at t_n,
    /// the counters). Boost binary archives.
    virtual void save(boost::archive::binary_oarchive &archive) const;
    virtual void load(boost::archive::binary_iarchive &archive);

    /// The state a rubber solve starts from: save() and the block's save_state() in one
    /// Boost binary archive. load_state() reads it back into a scheme and block built from
    /// the same parameters (throws what RubberBlock::load_state() throws).
    std::string saved_state() const;
    void        load_state(const std::string &state);

    /// Every later attempt of the rubber solves goes to @p observer (not owned; nullptr:
    /// none).
    void set_attempt_observer(AttemptObserver *observer) { observer_ = observer; }

    /**
     * One Newton attempt of the rubber solve from @p t0 by @p h (s) in at most
     * @p iteration_limit iterations (0: Solver/Maximum Newton iterations), with the
     * particle as the block's obstacle holds it; not committed, not cut back (a failure
     * leaves the state at t0). @p level: its cut-back depth, for the record.
     */
    RubberSolveAttempt try_rubber_solve(double t0, double h, unsigned int iteration_limit,
                                        unsigned int level = 0);

    /// Solves the rubber from @p t0 by @p h (s) with the particle as the block's obstacle
    /// holds it, and commits; halves the step on a NewtonFailure, @p level halvings deep.
    /// @throws std::runtime_error naming the time when the halvings are exhausted.
    fem::StepStatistics advance_rubber(double t0, double h, unsigned int level);

    /// Newton iterations a rubber solve of a step of @p h (s) may take (set_long_steps();
    /// 0: Solver/Maximum Newton iterations).
    unsigned int iteration_limit(double h) const;

  protected:
    /// Appended to the message of a rubber solve that failed after all cut-backs.
    virtual std::string failure_advice() const { return ""; }

    fem::RubberBlock &block_;
    LoadingProgram    loading_;
    unsigned int      max_cutbacks_;
    double            reference_step_ = 0.; ///< > 0: adaptive steps, see set_long_steps()
    unsigned int      long_step_iterations_ = 0, iterations_ = 0;
    unsigned int      cutbacks_        = 0;
    unsigned long     coupling_passes_ = 0;
    AttemptObserver  *observer_        = nullptr;
  };

  /**
   * The scheme of @p P.solver for the run with @p particles (make_particles(); registered
   * with @p block as its obstacle): none, the bare interface; several need the monolithic
   * scheme (the staggered one throws std::invalid_argument). @p timer (not owned, may be
   * nullptr) times the section "particle".
   */
  std::unique_ptr<CouplingScheme>
  make_coupling_scheme(const RunParameters &P, fem::RubberBlock &block,
                       std::vector<std::unique_ptr<dem::Particle>> particles,
                       const LoadingProgram &loading, dealii::TimerOutput *timer);
  /// The same with one particle, or none (@p particle nullptr).
  std::unique_ptr<CouplingScheme>
  make_coupling_scheme(const RunParameters &P, fem::RubberBlock &block,
                       std::unique_ptr<dem::Particle> particle, const LoadingProgram &loading,
                       dealii::TimerOutput *timer);

  /// The DEM particles of @p P at rest on the surface where subsection Particles places them
  /// (ParticleLayerParameters::placements(); by default the one particle at x = L0/2,
  /// docs/methods.md §2), particle 0 first; none when Particle/Enabled is false.
  /// @throws ParameterError as placements() does.
  std::vector<std::unique_ptr<dem::Particle>> make_particles(const RunParameters &P);

  /// The rubber block and the scheme of a run (the scheme refers to the block: it is
  /// destroyed first).
  struct CoupledModel
  {
    std::unique_ptr<fem::RubberBlock> block;
    std::unique_ptr<CouplingScheme>   scheme;
  };

  /**
   * The rubber block of @p P above its highest particle (make_particles()) and
   * the scheme that couples them (make_coupling_scheme()), with the adaptive steps' iteration
   * limits (set_long_steps()) when Solver/Time step control = adaptive. @p timer (not owned,
   * may be nullptr) times the block's and the particle's sections. Throws what the
   * RubberBlock constructor throws (an unreadable mesh file).
   */
  CoupledModel make_coupled_model(const RunParameters &P, const LoadingProgram &loading,
                                  dealii::TimerOutput *timer);
} // namespace granular::coupling
