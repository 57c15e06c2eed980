// Several particles solved monolithically with the rubber block. See monolithic_particles.h.
#include "coupling/monolithic_particles.h"

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
  }
} // namespace granular::coupling
