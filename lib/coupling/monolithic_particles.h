#pragma once
/**
 * @file monolithic_particles.h
 * Several particles solved monolithically with the rubber block (docs/methods.md §5.3): the
 * unknowns q = (c1, c2, theta) of particle 0, then of particle 1, ..., appended to the
 * block's Newton system, 3N in all. Each particle is a coupling::MonolithicParticle with its
 * own rubber-particle interface (its own history at every bottom contact point and its own
 * periodic image, contact::RubberParticleInterface) and its own particle-surface contact; a
 * bottom contact point feels the sum of the penalty tractions of all particles, and the
 * particles' equations are coupled through the rubber (the blocks d R_q_i / d x at the
 * shared points).
 *
 * Given the dem::Particle of each, the particles also touch each other: every pair (i < j)
 * and every periodic image k L0 e1 of j next to i whose circumradii overlap at either end of
 * the step acts through contact::particle_particle_contact_step() (docs/methods.md §5.6) with
 * the particle-surface law and parameters of particle i, its forces in R_q and its exact
 * Jacobian in the 6 x 6 blocks of the pair; the pair's history is kept per (i, j, k) and
 * renumbered when a particle is wrapped into the cell. The rate branch of a damping law
 * follows the sign of the pair's rate in the first MonolithicParticle::free_branch_iterations
 * assemblies of a step and is then frozen, as for the particle-surface contact.
 *
 * With one particle every call is that of its MonolithicParticle, so the run is bit for bit
 * the single-particle run.
 *
 * Units: mm, s, N per mm thickness (moments N mm/mm).
 */
#include "base/boundary_obstacle.h"
#include "contact/particle_particle_contact.h"
#include "coupling/monolithic_particle.h"
#include "dem/particle.h"

#include <deal.II/base/tensor.h>

#include <boost/serialization/split_member.hpp>

#include <map>
#include <memory>
#include <tuple>
#include <vector>

namespace granular::coupling
{
  class MonolithicParticles : public BoundaryObstacle
  {
  public:
    /**
     * @param particles the particles' monolithic parts, in the order of their unknowns (not
     *        owned; each with its own dem::Particle and RubberParticleInterface)
     * @throws std::invalid_argument if @p particles is empty or holds a null pointer, or if
     *         their interfaces disagree on whether the traction is the step's force.
     */
    explicit MonolithicParticles(std::vector<MonolithicParticle *> particles);
    /**
     * Several particles that also touch each other: @p bodies[i] is the dem::Particle of
     * @p particles[i] (not owned; its state at t_n gives the pair's start pose). The pair
     * (i, j), i < j, touches through particle i's particle-surface law and parameters, the
     * law made for the pair's effective mass m* = m_i m_j / (m_i + m_j) (docs/methods.md
     * §5.6), which a law with a damping ratio or a restitution-based damping needs.
     * @throws std::invalid_argument as above, if the sizes differ, if a body is null, or if a
     *         particle's circumradius is half the cell length or more (it would touch its own
     *         image).
     */
    MonolithicParticles(std::vector<MonolithicParticle *> particles,
                        std::vector<const dem::Particle *> bodies);

    /// The number of particles N.
    unsigned int n_particles() const { return static_cast<unsigned int>(particles_.size()); }

    // BoundaryObstacle
    /// The sum of the particles' tractions on the rubber at point @p point (MPa) and of
    /// their derivatives with respect to the point's position (MPa/mm).
    void evaluate(unsigned int point, const Tensor<1, 2> &x, const Tensor<1, 2> &x_old,
                  Tensor<1, 2> &traction, Tensor<2, 2> &dtraction_dx) override;
    /// Commits every particle (MonolithicParticle::commit()).
    void commit() override;
    /// Whether the point may have passed through any particle in the step.
    bool may_pass_through(unsigned int point, const Tensor<1, 2> &x,
                          const Tensor<1, 2> &x_old) const override;
    bool traction_is_step_force() const override { return step_force_; }
    /// The first particle, in order, that the point is predicted inside
    /// (MonolithicParticle::predicted_contact()); @p contact's body is its index.
    bool predicted_contact(const Tensor<1, 2> &x, double h,
                           PredictedContact &contact) const override
    {
      for (unsigned int i = 0; i < particles_.size(); ++i)
        if (particles_[i]->predicted_contact(x, h, contact))
          {
            contact.body = i;
            return true;
          }
      return false;
    }
    double apply_impulse(const PredictedContact &contact, const Tensor<1, 2> &impulse) override
    {
      return particles_.at(contact.body)->apply_impulse(contact, impulse);
    }
    unsigned int n_rigid_dofs() const override { return 3 * n_particles(); }
    /// The particles' predictors, particle 0 first.
    std::vector<double> begin_step(double h, double predictor_weight) override;
    /// @p q: 3N values, particle 0's (c1, c2, theta) first.
    /// @throws std::invalid_argument if @p q does not hold 3N values.
    void set_rigid_dofs(const std::vector<double> &q) override;
    /// Particle i's d t / d q_i in entries 3i..3i+2 (zero elsewhere: a particle's pose does
    /// not move another's traction) and its d R_q_i / d x there.
    void coupling_tangent(unsigned int point, std::vector<Tensor<1, 2>> &dtraction_dq,
                          std::vector<Tensor<1, 2>> &dresidual_dx) override;
    /// R_q (3N) and d R_q / d q (3N x 3N): each particle's 3 x 3 block on the diagonal.
    void rigid_residual(std::vector<double>              &residual,
                        std::vector<std::vector<double>> &tangent) override;

    /// @name The contacts between particles (zero without bodies)
    /// @{
    /// Friction and damping dissipated in them since t = 0 (N mm per mm).
    double pair_friction_dissipation() const { return pair_friction_; }
    double pair_damping_dissipation() const { return pair_damping_; }
    /// Energy stored in them at the last committed step: the normal law's and the
    /// tangential springs' (N mm per mm).
    double pair_energy() const { return pair_energy_; }
    /// Pairs (i, j, image) in contact at the last committed step.
    unsigned int pairs_in_contact() const;
    /// g'(phi) evaluations of the pairs' closest-normal solves of the step forces since
    /// t = 0, in every assembly (those of attempts cut back included); the exact Jacobian's
    /// solves repeat them.
    unsigned long overlap_evaluations() const { return overlap_evaluations_; }
    /// @}

    /// Boost.Serialization of what carries over between steps besides the particles' own
    /// parts: the pairs' histories (keyed by (i, j, image)), their dissipation and stored
    /// energy (checkpoint/restart).
    template <class Archive>
    void save(Archive &ar, const unsigned int) const
    {
      std::size_t n = pair_history_.size();
      ar &n;
      for (const auto &[key, history] : pair_history_)
        {
          unsigned int i = std::get<0>(key), j = std::get<1>(key);
          int          k = std::get<2>(key);
          ar &i &j &k &history;
        }
      ar &pair_friction_ &pair_damping_ &pair_energy_ &overlap_evaluations_;
    }
    template <class Archive>
    void load(Archive &ar, const unsigned int)
    {
      std::size_t n = 0;
      ar &n;
      pair_history_.clear();
      for (std::size_t p = 0; p < n; ++p)
        {
          unsigned int i = 0, j = 0;
          int          k = 0;
          contact::ParticleParticleContactHistory history;
          ar &i &j &k &history;
          pair_history_[PairKey(i, j, k)] = history;
        }
      ar &pair_friction_ &pair_damping_ &pair_energy_ &overlap_evaluations_;
    }
    BOOST_SERIALIZATION_SPLIT_MEMBER()

  private:
    /// (i, j, k): particle i and the image c_j + k L0 e1 of particle j
    using PairKey = std::tuple<unsigned int, unsigned int, int>;
    struct PairStep
    {
      PairKey                                   key;
      contact::ParticleParticleContactResult   result;
    };
    /// The pair terms of R_q and its tangent at the current iterate.
    void add_pair_contacts(std::vector<double> &residual, std::vector<std::vector<double>> &tangent);

    std::vector<const dem::Particle *>                        bodies_;
    std::vector<geometry::Superellipse::FlatSideRounding>     roundings_;
    /// the normal law of pair (i, j), i < j, at i N + j: particle i's particle-surface law
    /// and parameters made for the pair's effective mass m* = m_i m_j / (m_i + m_j)
    /// (docs/methods.md §5.6)
    std::vector<std::shared_ptr<const contact::NormalContactLaw>> pair_laws_;
    double                                                     h_ = 0., cell_length_ = 0.;
    std::vector<contact::ParticlePose>                         start_, end_;
    std::map<PairKey, contact::ParticleParticleContactHistory> pair_history_;
    std::vector<PairStep>                                      pair_steps_;
    unsigned int pair_evaluations_ = 0; ///< rigid_residual() calls in this step
    std::map<PairKey, contact::NormalContactLaw::RateBranch> pair_branch_;
    double pair_friction_ = 0., pair_damping_ = 0., pair_energy_ = 0.;
    unsigned long overlap_evaluations_ = 0;

    std::vector<MonolithicParticle *> particles_;
    bool                              step_force_ = false;
    /// work space of evaluate(), coupling_tangent() and rigid_residual()
    std::vector<Tensor<1, 2>>         dt_dq_, dR_dx_;
    std::vector<double>               R_;
    std::vector<std::vector<double>>  K_;
  };
} // namespace granular::coupling
