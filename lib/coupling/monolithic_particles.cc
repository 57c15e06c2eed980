// Several particles solved monolithically with the rubber block. See monolithic_particles.h.
#include "coupling/monolithic_particles.h"

#include "contact/normal_contact_law.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace granular::coupling
{
  MonolithicParticles::MonolithicParticles(std::vector<MonolithicParticle *> particles)
    : particles_(std::move(particles))
  {
    if (particles_.empty())
      throw std::invalid_argument("MonolithicParticles: no particle");
    for (const MonolithicParticle *p : particles_)
      if (p == nullptr)
        throw std::invalid_argument("MonolithicParticles: a particle is null");
    step_force_ = particles_.front()->traction_is_step_force();
    for (const MonolithicParticle *p : particles_)
      if (p->traction_is_step_force() != step_force_)
        throw std::invalid_argument(
          "MonolithicParticles: the particles' rubber contacts must all give the step's "
          "force, or all the force at the end of the step");
  }

  MonolithicParticles::MonolithicParticles(std::vector<MonolithicParticle *> particles,
                                           std::vector<const dem::Particle *> bodies)
    : MonolithicParticles(std::move(particles))
  {
    if (bodies.size() != particles_.size())
      throw std::invalid_argument("MonolithicParticles: one body per particle expected");
    for (const dem::Particle *b : bodies)
      {
        if (b == nullptr)
          throw std::invalid_argument("MonolithicParticles: a body is null");
        if (2. * b->geometry().shape().half_width_bound() >= b->cell_length())
          throw std::invalid_argument(
            "MonolithicParticles: a particle's circumradius is half the cell length or more");
        roundings_.push_back(
          b->geometry().flat_side_rounding(b->surface_contact_parameters().flat_side_radius));
      }
    bodies_      = std::move(bodies);
    cell_length_ = bodies_.front()->cell_length();
    const std::size_t n = bodies_.size();
    pair_laws_.resize(n * n);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j)
        {
          const double mi = bodies_[i]->mass(), mj = bodies_[j]->mass();
          pair_laws_[i * n + j] = contact::create_normal_contact_law(
            bodies_[i]->surface_contact_parameters(), mi * mj / (mi + mj));
        }
  }

  unsigned int MonolithicParticles::pairs_in_contact() const
  {
    unsigned int n = 0;
    for (const auto &[key, history] : pair_history_)
      n += history.in_contact;
    return n;
  }

  void MonolithicParticles::evaluate(const unsigned int point, const Tensor<1, 2> &x,
                                     const Tensor<1, 2> &x_old, Tensor<1, 2> &traction,
                                     Tensor<2, 2> &dtraction_dx)
  {
    // the first particle's values as they are (one particle: bit for bit its own), the
    // others' added
    particles_.front()->evaluate(point, x, x_old, traction, dtraction_dx);
    for (std::size_t i = 1; i < particles_.size(); ++i)
      {
        Tensor<1, 2> t;
        Tensor<2, 2> dt;
        particles_[i]->evaluate(point, x, x_old, t, dt);
        traction += t;
        dtraction_dx += dt;
      }
  }

  void MonolithicParticles::commit()
  {
    for (MonolithicParticle *p : particles_)
      p->commit();
    if (bodies_.empty())
      return;
    // the pairs' histories: those evaluated in the step, the others dropped (apart)
    pair_history_.clear();
    pair_energy_ = 0.;
    for (const PairStep &p : pair_steps_)
      {
        pair_energy_ += p.result.normal_energy + p.result.tangential_energy;
        pair_friction_ += p.result.friction_dissipation;
        pair_damping_ += p.result.damping_dissipation;
        if (p.result.in_contact || p.result.history.has_normal_angle)
          pair_history_[p.key] = p.result.history;
      }
    // a particle wrapped into the cell by s_i L0 renumbers its pairs' images:
    // c_j + k L0 - c_i is kept, so k -> k + s_i - s_j
    std::vector<int> shift(bodies_.size());
    for (std::size_t i = 0; i < bodies_.size(); ++i)
      shift[i] = static_cast<int>(
        std::lround((bodies_[i]->state().centre[0] - end_[i].centre[0]) / cell_length_));
    std::map<PairKey, contact::ParticleParticleContactHistory> shifted;
    for (const auto &[key, history] : pair_history_)
      {
        const auto [i, j, k] = key;
        shifted[{i, j, k + shift[i] - shift[j]}] = history;
      }
    pair_history_ = std::move(shifted);
  }

  bool MonolithicParticles::may_pass_through(const unsigned int point, const Tensor<1, 2> &x,
                                             const Tensor<1, 2> &x_old) const
  {
    for (const MonolithicParticle *p : particles_)
      if (p->may_pass_through(point, x, x_old))
        return true;
    return false;
  }

  std::vector<double> MonolithicParticles::begin_step(const double h,
                                                      const double predictor_weight)
  {
    std::vector<double> q;
    q.reserve(n_rigid_dofs());
    for (MonolithicParticle *p : particles_)
      {
        const std::vector<double> q_i = p->begin_step(h, predictor_weight);
        q.insert(q.end(), q_i.begin(), q_i.end());
      }
    if (!bodies_.empty())
      {
        h_ = h;
        start_.clear();
        for (const dem::Particle *b : bodies_)
          start_.push_back({b->state().centre, b->state().rotation});
        end_ = start_;
        pair_evaluations_ = 0;
        pair_branch_.clear();
        pair_steps_.clear();
      }
    return q;
  }

  void MonolithicParticles::set_rigid_dofs(const std::vector<double> &q)
  {
    if (q.size() != n_rigid_dofs())
      throw std::invalid_argument("MonolithicParticles::set_rigid_dofs: " +
                                  std::to_string(n_rigid_dofs()) + " values expected, not " +
                                  std::to_string(q.size()));
    for (std::size_t i = 0; i < particles_.size(); ++i)
      particles_[i]->set_rigid_dofs({q[3 * i], q[3 * i + 1], q[3 * i + 2]});
    if (!bodies_.empty())
      for (std::size_t i = 0; i < particles_.size(); ++i)
        end_[i] = {Tensor<1, 2>({q[3 * i], q[3 * i + 1]}), q[3 * i + 2]};
  }

  void MonolithicParticles::coupling_tangent(const unsigned int          point,
                                             std::vector<Tensor<1, 2>> &dtraction_dq,
                                             std::vector<Tensor<1, 2>> &dresidual_dx)
  {
    if (particles_.size() == 1)
      {
        particles_.front()->coupling_tangent(point, dtraction_dq, dresidual_dx);
        return;
      }
    dtraction_dq.assign(n_rigid_dofs(), Tensor<1, 2>());
    dresidual_dx.assign(n_rigid_dofs(), Tensor<1, 2>());
    for (std::size_t i = 0; i < particles_.size(); ++i)
      {
        particles_[i]->coupling_tangent(point, dt_dq_, dR_dx_);
        for (unsigned int j = 0; j < 3; ++j)
          {
            dtraction_dq[3 * i + j] = dt_dq_[j];
            dresidual_dx[3 * i + j] = dR_dx_[j];
          }
      }
  }

  void MonolithicParticles::rigid_residual(std::vector<double>              &residual,
                                           std::vector<std::vector<double>> &tangent)
  {
    if (particles_.size() == 1)
      {
        particles_.front()->rigid_residual(residual, tangent);
        return;
      }
    const unsigned int n = n_rigid_dofs();
    residual.assign(n, 0.);
    tangent.assign(n, std::vector<double>(n, 0.));
    for (std::size_t i = 0; i < particles_.size(); ++i)
      {
        particles_[i]->rigid_residual(R_, K_);
        for (unsigned int j = 0; j < 3; ++j)
          {
            residual[3 * i + j] = R_[j];
            for (unsigned int k = 0; k < 3; ++k)
              tangent[3 * i + j][3 * i + k] = K_[j][k];
          }
      }
    if (!bodies_.empty())
      add_pair_contacts(residual, tangent);
  }

  void MonolithicParticles::add_pair_contacts(std::vector<double>              &residual,
                                              std::vector<std::vector<double>> &tangent)
  {
    using Branch = contact::NormalContactLaw::RateBranch;
    ++pair_evaluations_;
    const bool free_branch = pair_evaluations_ <= MonolithicParticle::free_branch_iterations;
    std::vector<PairStep> steps;
    const unsigned int    n = n_particles();
    for (unsigned int i = 0; i < n; ++i)
      for (unsigned int j = i + 1; j < n; ++j)
        {
          const double reach = bodies_[i]->geometry().shape().half_width_bound() +
                               bodies_[j]->geometry().shape().half_width_bound();
          const int k0 = static_cast<int>(
            std::lround((start_[i].centre[0] - start_[j].centre[0]) / cell_length_));
          for (int k = k0 - 1; k <= k0 + 1; ++k)
            {
              const PairKey      key{i, j, k};
              const Tensor<1, 2> offset({k * cell_length_, 0.});
              const auto         history = pair_history_.find(key);
              // broad phase: the circumradii overlap at either end of the step, or the pair
              // was in contact at its start
              const bool near =
                (start_[j].centre + offset - start_[i].centre).norm() <= reach ||
                (end_[j].centre + offset - end_[i].centre).norm() <= reach ||
                (history != pair_history_.end() && history->second.in_contact);
              if (!near)
                continue;
              const contact::ParticleParticleContactHistory old =
                history != pair_history_.end() ? history->second :
                                                 contact::ParticleParticleContactHistory();
              Branch &branch = pair_branch_.try_emplace(key, Branch::by_sign).first->second;
              const auto &law    = *pair_laws_[i * bodies_.size() + j];
              const auto &params = bodies_[i]->surface_contact_parameters();
              const auto &A = bodies_[i]->geometry(), &B = bodies_[j]->geometry();
              PairStep                             step{key, {}};
              std::array<std::array<double, 6>, 6> J;
              try
                {
                  step.result = contact::particle_particle_contact_step(
                    law, params, A, roundings_[i], B, roundings_[j], start_[i], start_[j],
                    end_[i], end_[j], offset, old, h_, branch);
                  J = contact::particle_particle_contact_step_derivatives(
                    law, params, A, roundings_[i], B, roundings_[j], start_[i], start_[j],
                    end_[i], end_[j], offset, old, h_, branch);
                }
              catch (const std::exception &e)
                {
                  // an iterate at which the pair's overlap has no solution: rejected like an
                  // inverted element, so that the step is cut back
                  throw NewtonFailure("contact of particles " + std::to_string(i) + " and " +
                                      std::to_string(j) + ": " + e.what());
                }
              overlap_evaluations_ += step.result.overlap_evaluations;
              // then frozen at the iterate's branch (see the file comment)
              if (!free_branch && branch == Branch::by_sign && law.switches_with_rate() &&
                  step.result.depth > 0.)
                branch = step.result.depth_rate >= 0. ? Branch::compression :
                                                        Branch::decompression;
              const contact::ParticleParticleContactResult &r = step.result;
              const double      f[6] = {r.force_a[0], r.force_a[1], r.moment_a,
                                        r.force_b[0], r.force_b[1], r.moment_b};
              const unsigned int row[6] = {3 * i, 3 * i + 1, 3 * i + 2,
                                           3 * j, 3 * j + 1, 3 * j + 2};
              // R_q is inertia minus the applied forces
              for (unsigned int a = 0; a < 6; ++a)
                {
                  residual[row[a]] -= f[a];
                  for (unsigned int b = 0; b < 6; ++b)
                    tangent[row[a]][row[b]] -= J[a][b];
                }
              steps.push_back(std::move(step));
            }
        }
    pair_steps_ = std::move(steps);
  }
} // namespace granular::coupling
