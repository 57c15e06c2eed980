// Monolithic DEM-FEM coupling: the particle's unknowns in the rubber's Newton system.
// See monolithic_particle.h.
#include "coupling/monolithic_particle.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace granular::coupling
{
  MonolithicParticle::MonolithicParticle(dem::Particle                    &particle,
                                         contact::RubberParticleInterface &interface,
                                         const double                      particle_gamma)
    : particle_(particle)
    , interface_(interface)
    , particle_gamma_(particle_gamma)
  {
    if (!(particle_gamma >= 0.5 && particle_gamma <= 1.))
      throw std::invalid_argument("MonolithicParticle: the particle's gamma must be in [1/2, 1]");
    rounding_ = particle_.geometry().flat_side_rounding(
      particle_.surface_contact_parameters().flat_side_radius);
  }

  bool MonolithicParticle::predicted_contact(const Tensor<1, 2> &x, const double h,
                                             PredictedContact &contact) const
  {
    const dem::ParticleState &s     = particle_.state();
    const Tensor<1, 2>        c     = s.centre + h * s.velocity;
    const double              theta = s.rotation + h * s.angular_velocity;
    const double              L     = particle_.cell_length();
    const double              R     = particle_.geometry().shape().half_width_bound();
    // the images c + k L0 e1 nearest to the point, as contact::rubber_particle_contact()
    const double k0 = L > 0. ? std::round((x[0] - c[0]) / L) : 0.;
    for (const double k : {k0, k0 - 1., k0 + 1.})
      {
        const Tensor<1, 2> c_k({c[0] + k * L, c[1]});
        const Tensor<1, 2> arm = x - c_k;
        if (arm.norm() > R)
          continue;
        geometry::Superellipse::Projection p;
        try
          {
            p = particle_.geometry().closest_point_projection(
              geometry::global_to_particle(c_k, theta, x));
          }
        catch (const std::exception &)
          {
            continue; // at the centre of curvature: no unique normal to stop the point along
          }
        if (!(p.gap < 0.))
          continue;
        contact.normal   = geometry::rotate(theta, p.normal);
        contact.arm      = arm;
        contact.velocity = s.velocity + s.angular_velocity * Tensor<1, 2>({-arm[1], arm[0]});
        const double arm_x_n = arm[0] * contact.normal[1] - arm[1] * contact.normal[0];
        contact.inverse_mass =
          1. / particle_.mass() + arm_x_n * arm_x_n / particle_.moment_of_inertia();
        contact.body = 0;
        return true;
      }
    return false;
  }

  std::vector<double>
  MonolithicParticle::begin_step(const double h, const double predictor_weight)
  {
    if (!(h > 0.))
      throw std::invalid_argument("MonolithicParticle::begin_step: h must be positive");
    h_                   = h;
    branch_               = contact::NormalContactLaw::RateBranch::by_sign;
    residual_evaluations_ = 0;
    const auto &s         = particle_.state();
    q_n_                  = {{s.centre[0], s.centre[1], s.rotation}};
    v_n_                  = {{s.velocity[0], s.velocity[1], s.angular_velocity}};
    Vec3 q                = q_n_;
    if (last_h_ > 0.)
      for (unsigned int j = 0; j < 3; ++j)
        q[j] += predictor_weight * h / last_h_ * last_increment_[j];
    if (interface_.traction_is_step_force()) // the rubber-particle contact's pose at t_n
      interface_.set_step_start_pose(s.centre, s.rotation);
    start_point_ = particle_.geometry().lowest_point(s.rotation, rounding_); // at t_n
    set_rigid_dofs({q[0], q[1], q[2]});
    return {q[0], q[1], q[2]};
  }

  void
  MonolithicParticle::set_rigid_dofs(const std::vector<double> &q)
  {
    if (q.size() != 3)
      throw std::invalid_argument("MonolithicParticle::set_rigid_dofs: 3 values expected");
    q_ = {{q[0], q[1], q[2]}};
    interface_.set_particle_pose(Tensor<1, 2>({q_[0], q_[1]}), q_[2]);
  }

  void
  MonolithicParticle::evaluate(const unsigned int point, const Tensor<1, 2> &x,
                               const Tensor<1, 2> &x_old, Tensor<1, 2> &traction,
                               Tensor<2, 2> &dtraction_dx)
  {
    interface_.evaluate(point, x, x_old, traction, dtraction_dx);
  }

  bool MonolithicParticle::may_pass_through(const unsigned int point, const Tensor<1, 2> &x,
                                            const Tensor<1, 2> &x_old) const
  {
    // the particle's own points: its centre's path plus the rotation's at its circumradius
    const double travel =
      std::hypot(q_[0] - q_n_[0], q_[1] - q_n_[1]) +
      particle_.geometry().shape().half_width_bound() * std::abs(q_[2] - q_n_[2]);
    return travel > interface_.tunnelling_length() ||
           interface_.may_pass_through(point, x, x_old);
  }

  void
  MonolithicParticle::coupling_tangent(const unsigned int point,
                                       std::vector<Tensor<1, 2>> &dtraction_dq,
                                       std::vector<Tensor<1, 2>> &dresidual_dx)
  {
    const auto c = interface_.point_coupling_tangent(point);
    dtraction_dq.resize(3);
    dresidual_dx.resize(3);
    for (unsigned int j = 0; j < 3; ++j)
      {
        dtraction_dq[j] = c.dtraction_dq[j];
        dresidual_dx[j] = -rubber_weight() * c.dresultant_dx[j]; // R_q = ... - w P
      }
  }

  void
  MonolithicParticle::kinematics(const Vec3 &q, Vec3 &a, Vec3 &v) const
  {
    for (unsigned int j = 0; j < 3; ++j) // a is the step's mean acceleration
      {
        v[j] = ((q[j] - q_n_[j]) / h_ - (1. - particle_gamma_) * v_n_[j]) / particle_gamma_;
        a[j] = (v[j] - v_n_[j]) / h_;
      }
  }

  contact::ParticleSurfaceContactResult
  MonolithicParticle::surface(const Vec3 &q) const
  {
    return contact::particle_surface_contact_step(
      particle_.normal_law(), particle_.surface_contact_parameters(),
      {Tensor<1, 2>({q_n_[0], q_n_[1]}), q_n_[2]}, start_point_,
      {Tensor<1, 2>({q[0], q[1]}), q[2]}, particle_.geometry().lowest_point(q[2], rounding_),
      particle_.surface_contact().history, h_, branch_);
  }

  void
  MonolithicParticle::rigid_residual(std::vector<double>              &residual,
                                     std::vector<std::vector<double>> &tangent)
  {
    if (!(h_ > 0.))
      throw std::logic_error("MonolithicParticle::rigid_residual: begin_step() not called");
    Vec3 a, v;
    kinematics(q_, a, v);
    const Vec3 M = mass_matrix();
    surface_     = surface(q_);
    if (++residual_evaluations_ > free_branch_iterations &&
        branch_ == contact::NormalContactLaw::RateBranch::by_sign &&
        particle_.normal_law().switches_with_rate() && surface_.indentation > 0.)
      {
        branch_  = surface_.indentation_rate >= 0. ?
                     contact::NormalContactLaw::RateBranch::compression :
                     contact::NormalContactLaw::RateBranch::decompression;
        surface_ = surface(q_);
      }
    const auto P      = interface_.resultant();
    const Vec3 S{{surface_.force[0], surface_.force[1], surface_.moment}};
    const Vec3 Pv{{P.force[0], P.force[1], P.moment}};
    // the rubber's resultant: the mean of t_n and t_{n+1}, or the step's force
    const double w = rubber_weight();
    residual.assign(3, 0.);
    for (unsigned int j = 0; j < 3; ++j)
      residual[j] = M[j] * a[j] - w * Pv[j] - (1. - w) * rubber_resultant_n_[j] - S[j];
    residual[1] += particle_.mass() * particle_.gravity();

    // tangent: inertia - dP/dq (rubber points) - dS/dq (automatic differentiation, or central
    // differences at an unrounded flat side)
    tangent.assign(3, std::vector<double>(3, 0.));
    const double da_dq = 1. / (particle_gamma_ * h_ * h_);
    for (unsigned int j = 0; j < 3; ++j)
      tangent[j][j] = M[j] * da_dq;
    for (unsigned int i = 0; i < interface_.n_points(); ++i)
      {
        const auto c = interface_.point_coupling_tangent(i); // zero if not touching
        for (unsigned int j = 0; j < 3; ++j)
          for (unsigned int k = 0; k < 3; ++k)
            tangent[j][k] -= w * c.dresultant_dq[j][k];
      }
    const double rho = particle_.geometry().lowest_point_radius_of_curvature(q_[2], rounding_);
    if (std::isfinite(rho)) // else (an unrounded flat side) central differences below
      {
        const auto dS = contact::particle_surface_contact_step_derivatives(
          particle_.normal_law(), particle_.surface_contact_parameters(),
          {Tensor<1, 2>({q_n_[0], q_n_[1]}), q_n_[2]}, start_point_,
          {Tensor<1, 2>({q_[0], q_[1]}), q_[2]},
          particle_.geometry().lowest_point(q_[2], rounding_), rho,
          particle_.surface_contact().history, h_, branch_);
        for (unsigned int j = 0; j < 3; ++j)
          for (unsigned int k = 0; k < 3; ++k)
            tangent[j][k] -= dS[j][k];
        return;
      }
    // steps well below the indentation (1e-4 d_N, at most 1e-7 mm: the Hertz force varies
    // on the scale of d_N, which is ~4e-7 mm for a particle under its own weight)
    const double h_c = std::clamp(1e-4 * std::max(surface_.indentation, 0.), 1e-12, 1e-7);
    const double delta[3] = {h_c, h_c, h_c / particle_.geometry().shape().half_width_bound()};
    for (unsigned int k = 0; k < 3; ++k)
      {
        Vec3 qp = q_, qm = q_;
        qp[k] += delta[k];
        qm[k] -= delta[k];
        const auto sp = surface(qp), sm = surface(qm);
        const Vec3 Sp{{sp.force[0], sp.force[1], sp.moment}};
        const Vec3 Sm{{sm.force[0], sm.force[1], sm.moment}};
        for (unsigned int j = 0; j < 3; ++j)
          tangent[j][k] -= (Sp[j] - Sm[j]) / (2. * delta[k]);
      }
  }

  std::array<double, 3>
  MonolithicParticle::surface_resultant() const
  {
    return {{surface_.force[0], surface_.force[1], surface_.moment}};
  }

  void
  MonolithicParticle::commit()
  {
    Vec3 a, v;
    kinematics(q_, a, v);
    const auto P = interface_.resultant();
    const Vec3 P1{{P.force[0], P.force[1], P.moment}};
    Vec3       dq;
    double     work = 0.;
    const Vec3 M = mass_matrix();
    for (unsigned int j = 0; j < 3; ++j)
      {
        dq[j] = q_[j] - q_n_[j];
        // the rubber's work on the particle: of the step's force (discrete gradient of the
        // rubber-particle contact), else trapezoidal
        work += (interface_.traction_is_step_force() ? P1[j] :
                                                       0.5 * (rubber_resultant_n_[j] + P1[j])) *
                dq[j];
        // the work of the mean inertial force M a minus the change of the kinetic energy,
        // (gamma_p - 1/2) M (Delta v)^2: zero for the mid-point rule
        numerical_dissipation_ += M[j] * (a[j] * dq[j] - 0.5 * (v[j] * v[j] - v_n_[j] * v_n_[j]));
      }
    interface_.commit();
    particle_.accept_step(h_, Tensor<1, 2>({dq[0], dq[1]}), dq[2], Tensor<1, 2>({v[0], v[1]}),
                          v[2], surface_, work);
    rubber_resultant_n_ = P1;
    last_increment_     = dq;
    last_h_            = h_;
  }
} // namespace granular::coupling
