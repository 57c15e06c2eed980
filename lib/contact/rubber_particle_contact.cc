#include "contact/rubber_particle_contact.h"

#include "contact/normal_penalty.h"

#include "contact/coulomb_return_mapping.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace granular::contact
{
  namespace
  {
    bool
    finite(const Tensor<1, 2> &v)
    {
      return std::isfinite(v[0]) && std::isfinite(v[1]);
    }

    /// R(theta), the rotation by theta (rad, counter-clockwise).
    Tensor<2, 2>
    rotation_matrix(const double theta)
    {
      Tensor<2, 2> R;
      R[0][0] = std::cos(theta);
      R[0][1] = -std::sin(theta);
      R[1][0] = std::sin(theta);
      R[1][1] = std::cos(theta);
      return R;
    }

    /// R(theta) A R(theta)^T: a particle-frame second-order tensor in the global frame.
    Tensor<2, 2>
    rotate_tensor(const double theta, const Tensor<2, 2> &A)
    {
      const Tensor<2, 2> R = rotation_matrix(theta);
      return R * A * dealii::transpose(R);
    }

    /// e3 x n = (-n2, n1).
    Tensor<1, 2>
    perpendicular(const Tensor<1, 2> &n)
    {
      Tensor<1, 2> a;
      a[0] = -n[1];
      a[1] = n[0];
      return a;
    }
  } // namespace

  ParticleContactResponse
  rubber_particle_contact(const Tensor<1, 2> &x, const ParticleContactHistory &history,
                          const ParticlePose &pose, const geometry::Superellipse &particle,
                          const PenaltyContactParameters &p, const double cell_length)
  {
    if (!finite(x))
      throw std::invalid_argument("rubber_particle_contact: rubber point is not finite");
    if (!finite(pose.centre) || !std::isfinite(pose.rotation))
      throw std::invalid_argument("rubber_particle_contact: particle pose is not finite");
    if (!(cell_length >= 0.) || !std::isfinite(cell_length))
      throw std::invalid_argument("rubber_particle_contact: cell length must be >= 0 and finite");

    ParticleContactResponse r;
    r.normal_gap = std::numeric_limits<double>::infinity();

    // ---- contact search over the periodic images (docs/methods.md §6): the deepest one ----
    const double bound = particle.shape().half_width_bound();
    int          k_lo = 0, k_hi = 0;
    if (cell_length > 0.)
      {
        const int k0 = static_cast<int>(std::lround((x[0] - pose.centre[0]) / cell_length));
        k_lo         = k0 - 1;
        k_hi         = k0 + 1;
      }
    bool                               found = false;
    int                                image = 0;
    Tensor<1, 2>                       m, image_centre;
    geometry::Superellipse::Projection proj;
    for (int k = k_lo; k <= k_hi; ++k)
      {
        Tensor<1, 2> ck = pose.centre;
        ck[0] += k * cell_length;
        const Tensor<1, 2> mk = geometry::global_to_particle(ck, pose.rotation, x);
        // contact check f(m) < 0 (docs/methods.md §4.1 step 1), after a cheap bounding-circle test
        if (mk.norm() > bound || !(particle.implicit_function(mk) < 0.))
          continue;
        const auto pk = particle.closest_point_projection(mk);
        if (!(pk.gap < 0.)) // f < 0 but |g_N| at round-off level: no penetration
          continue;
        if (!found || pk.gap < proj.gap)
          {
            found        = true;
            image        = k;
            m            = mk;
            image_centre = ck;
            proj         = pk;
          }
      }
    if (!found)
      return r; // zero traction and tangent, history reset (no tangential memory)

    // ---- normal part: t_N = eps_N <-g_N> along n -------------------------------------------
    const Tensor<1, 2> &n   = proj.normal; // particle frame
    const Tensor<1, 2>  a   = perpendicular(n);
    const double        g_N = proj.gap;
    const NormalPenaltyResponse normal =
      normal_penalty(g_N, p.normal_penalty, p.regularisation_width);
    const double t_N = normal.traction;
    // d n / d m = (kappa / d) a x a, d a / d m = -(kappa / d) n x a, d g_N / d m = n
    // (geometry::Superellipse::normal_derivative; d = 1 + kappa g_N > 0, else it throws).
    const Tensor<2, 2> dn_dm   = geometry::Superellipse::normal_derivative(proj);
    const double       kappa_d = proj.curvature / (1. + proj.curvature * g_N);

    // ---- tangential part: stick point fixed in the particle frame -------------------------
    const bool continuing = history.in_contact && history.image == image;
    // First contact (choice): stick point at the current projection point, g_T = 0.
    const Tensor<1, 2> Y_s = continuing ? history.stick_point : proj.point;
    const double       g_T = a * (m - Y_s); // = a . (y_p - Y_s)
    const CoulombReturnMapping c =
      coulomb_return_mapping(g_T, p.tangential_penalty, p.friction_coefficient, t_N);

    double       t_T = 0.;
    Tensor<1, 2> dtT_dm; // d t_T / d m (particle frame)
    r.trial.in_contact     = true;
    r.trial.image          = image;
    r.trial.tangent        = a;
    r.trial.relative_point = m;
    if (!continuing)
      {
        // g_T vanishes identically in m (Y_s follows y_p(m)): no tangential traction or
        // stiffness in the step in which contact begins.
        r.trial.stick_point = proj.point;
      }
    else if (c.sticking)
      {
        // stick: d g_T / d m = a + (d a / d m)^T (m - Y_s) = a [1 - (kappa/d) n . (m - Y_s)]
        t_T                 = c.traction;
        dtT_dm              = c.dtraction_dgap * (1. - kappa_d * (n * (m - Y_s))) * a;
        r.trial.stick_point = Y_s;
      }
    else
      {
        // slip: t_T = k_PB t_N sign(t_T^tr); d t_T / d m = k_PB sign(t_T^tr) d t_N / d m with
        // d t_N / d m = -eps_N n
        t_T                 = c.traction;
        dtT_dm              = c.dtraction_dpressure * -normal.stiffness * n;
        r.slipping          = true;
        // new stick point on the tangent line at y_p with a . (m - Y_s) = -t_T / eps_T
        r.trial.stick_point = proj.point + (t_T / p.tangential_penalty) * a;
        r.slip_increment    = c.slip;
      }

    // ---- traction t = t_N n + t_T a and its linearisation (particle frame) ----------------
    //   d t / d m = n x d t_N/d m + t_N d n/d m + a x d t_T/d m + t_T d a/d m
    //             = -eps_N n x n + t_N (kappa/d) a x a + a x d t_T/d m - t_T (kappa/d) n x a
    const Tensor<1, 2> t_particle = t_N * n + t_T * a;
    const Tensor<2, 2> dt_dm = -normal.stiffness * dealii::outer_product(n, n) + t_N * dn_dm +
                               dealii::outer_product(a, dtT_dm) -
                               t_T * kappa_d * dealii::outer_product(n, a);

    // ---- to the global frame: m = R^T (x - c_k)  =>  d t / d x = R (d t / d m) R^T --------
    r.trial.tangential_traction = t_T;
    r.in_contact          = true;
    r.normal_gap          = g_N;
    r.normal_traction     = t_N;
    r.tangential_traction = t_T;
    r.traction            = geometry::rotate(pose.rotation, t_particle);
    r.tangent             = rotate_tensor(pose.rotation, dt_dm);
    r.normal              = geometry::rotate(pose.rotation, n);
    r.projection_point    = geometry::particle_to_global(image_centre, pose.rotation, proj.point);
    r.image_centre        = image_centre;
    r.rubber_point        = x;
    return r;
  }

  double rubber_particle_step_dissipation(const ParticleContactHistory  &start,
                                          const ParticleContactResponse &end,
                                          const Tensor<1, 2>            &m_end,
                                          const double                   tangential_penalty)
  {
    if (!start.in_contact)
      return 0.; // entering contact: no tangential traction in the step
    const double t_n = start.tangential_traction;
    if (end.in_contact && end.trial.image == start.image)
      return coulomb_step_dissipation(t_n, end.tangential_traction, end.slip_increment);
    // contact lost: the spring's energy less the work of the traction of t_n over the step
    return coulomb_release_dissipation(t_n, start.tangent * (m_end - start.relative_point),
                                       tangential_penalty);
  }

  namespace
  {
    /// The penalty potential phi(g_N(m)) at a point m of the particle frame, its gradient and
    /// Hessian (zero outside the particle), and the normal of its projection.
    struct PenaltyPotential
    {
      bool         penetrating = false;
      double       gap = 0.;                                   ///< g_N of the projection
      double       energy = 0., traction = 0., stiffness = 0.; ///< phi, t_N, -dt_N/dg_N
      Tensor<1, 2> normal, gradient;                           ///< n, d phi / d m = -t_N n
      Tensor<2, 2> hessian;                                    ///< k n x n - t_N dn/dm
      double       kappa_d = 0.;                               ///< kappa / (1 + kappa g_N)
    };

    PenaltyPotential
    penalty_potential(const Tensor<1, 2> &m, const geometry::Superellipse &particle,
                      const PenaltyContactParameters &p)
    {
      PenaltyPotential r;
      const auto proj = particle.closest_point_projection(m);
      r.normal        = proj.normal;
      r.gap           = proj.gap;
      r.kappa_d       = proj.curvature / (1. + proj.curvature * proj.gap);
      const Tensor<2, 2> dn_dm = geometry::Superellipse::normal_derivative(proj);
      if (particle.implicit_function(m) < 0. && proj.gap < 0.)
        {
          const NormalPenaltyResponse np =
            normal_penalty(proj.gap, p.normal_penalty, p.regularisation_width);
          r.penetrating = true;
          r.energy      = np.energy;
          r.traction    = np.traction;
          r.stiffness   = np.stiffness;
          r.gradient    = -np.traction * proj.normal;
          r.hessian     = np.stiffness * dealii::outer_product(proj.normal, proj.normal) -
                      np.traction * dn_dm;
        }
      return r;
    }
  } // namespace

  ParticleContactStep
  rubber_particle_contact_step(const Tensor<1, 2> &m0, const Tensor<1, 2> &m1,
                               const ParticleContactStepState &start,
                               const geometry::Superellipse &particle,
                               const PenaltyContactParameters &p)
  {
    if (!finite(m0) || !finite(m1))
      throw std::invalid_argument("rubber_particle_contact_step: rubber point is not finite");
    const double eps_T = p.tangential_penalty;
    const double g0    = start.in_contact ? start.tangential_gap : 0.;
    ParticleContactStep r;
    r.energy_start = 0.5 * eps_T * g0 * g0;

    // the segment m0 -> m1 outside the bounding circle: no contact over the step
    const Tensor<1, 2> dm  = m1 - m0;
    const double       dm2 = dm * dm;
    const double       s_c = dm2 > 0. ? std::clamp(-(m0 * dm) / dm2, 0., 1.) : 0.;
    if ((m0 + s_c * dm).norm() > particle.shape().half_width_bound())
      {
        r.dissipation = r.energy_start; // the tangential spring released at separation
        return r;
      }

    const PenaltyPotential P0 = penalty_potential(m0, particle, p);
    const PenaltyPotential P1 = penalty_potential(m1, particle, p);
    const PenaltyPotential Pm = penalty_potential(0.5 * (m0 + m1), particle, p);
    r.energy_start += P0.energy;
    if (P1.penetrating)
      r.normal_gap = P1.gap;

    // ---- normal: the discrete gradient G of phi (Gonzalez 1996) -------------------------
    Tensor<1, 2>       G  = Pm.gradient;
    Tensor<2, 2>       dG = 0.5 * Pm.hessian;
    const double       tiny = 1e-18; // |Delta m| < 1e-9 mm: the midpoint gradient
    if (dm2 > tiny)
      {
        const double       c  = (P1.energy - P0.energy - Pm.gradient * dm) / dm2;
        const Tensor<1, 2> dc = (P1.gradient - 0.5 * (Pm.hessian * dm) - Pm.gradient) / dm2 -
                                (2. * c / dm2) * dm;
        G += c * dm;
        dG += dealii::outer_product(dm, dc);
        dG[0][0] += c;
        dG[1][1] += c;
      }
    // ---- tangential: incremental gap along the midpoint tangent -------------------------
    const Tensor<1, 2> a = perpendicular(Pm.normal);
    double             f_T = 0.;
    Tensor<1, 2>       df_T; // d f_T / d m1
    if (P1.penetrating && start.in_contact)
      {
        const double       Ds  = a * dm;
        const Tensor<1, 2> dDs = (1. - 0.5 * Pm.kappa_d * (Pm.normal * dm)) * a;
        const double       g_trial = g0 + Ds;
        const double       limit   = p.friction_coefficient * P1.traction;
        double             g1      = g_trial;
        Tensor<1, 2>       dg1     = dDs;
        if (!(eps_T * std::abs(g_trial) <= limit))
          {
            const double sign = g_trial > 0. ? 1. : -1.;
            g1                = sign * limit / eps_T;
            dg1               = (-sign * p.friction_coefficient * P1.stiffness / eps_T) * P1.normal;
            r.slipping        = true;
          }
        const double       delta = g1 - g0, slip = g_trial - g1;
        const Tensor<1, 2> ddelta = dg1, dslip = dDs - dg1;
        // alpha = 1/2 unless the slip's dissipation would be negative
        const double D_half = eps_T * (g0 + 0.5 * delta) * slip;
        double       alpha  = 0.5;
        if (D_half < 0.)
          alpha = Ds != 0. && delta != 0. ?
                    std::clamp((0.5 * delta * delta - g0 * slip) / (delta * Ds), 0.5, 1.) :
                    1.;
        f_T = -eps_T * (g0 + alpha * delta);
        if (alpha == 0.5)
          df_T = (-0.5 * eps_T) * ddelta;
        else if (alpha == 1.)
          df_T = -eps_T * ddelta;
        else
          {
            // f_T = -eps_T (g0 + N / Ds), N = delta^2 / 2 - g0 slip, Ds = delta + slip
            const double       N  = 0.5 * delta * delta - g0 * slip;
            const Tensor<1, 2> dN = delta * ddelta - g0 * dslip;
            df_T                  = (-eps_T / (Ds * Ds)) * (Ds * dN - N * dDs);
          }
        r.dissipation    = eps_T * (alpha - 0.5) * delta * delta - f_T * slip;
        r.end.in_contact = true;
        r.end.tangential_gap = g1;
        r.energy_end     = P1.energy + 0.5 * eps_T * g1 * g1;
      }
    else if (P1.penetrating)
      {
        // entering contact: the tangential spring starts unstressed
        r.end.in_contact = true;
        r.energy_end     = P1.energy;
      }
    else
      {
        // out of contact at t_{n+1}: the spring's energy is released
        r.dissipation = 0.5 * eps_T * g0 * g0;
        r.energy_end  = P1.energy; // 0
      }

    // ---- the step's traction on the rubber and its linearisation ------------------------
    //   d (f_T a) / d m1 = a x d f_T + f_T (1/2) d a / d m_mid,  d a / d m = -(kappa/d) n x a
    r.traction     = -G + f_T * a;
    r.dtraction_dm = -dG + dealii::outer_product(a, df_T) -
                     (0.5 * f_T * Pm.kappa_d) * dealii::outer_product(Pm.normal, a);
    return r;
  }

  namespace
  {
    /// a x b . e3
    double
    cross(const Tensor<1, 2> &a, const Tensor<1, 2> &b)
    {
      return a[0] * b[1] - a[1] * b[0];
    }

    /// sin(h) / h and its derivative (series below 1e-4)
    std::pair<double, double>
    sinc_and_derivative(const double h)
    {
      if (std::abs(h) < 1e-4)
        return {1. - h * h / 6., -h / 3. + h * h * h / 30.};
      return {std::sin(h) / h, (h * std::cos(h) - std::sin(h)) / (h * h)};
    }
  } // namespace

  ParticleContactStepCoupling
  rubber_particle_step_coupling(const Tensor<1, 2> &x0, const Tensor<1, 2> &x1,
                                const ParticlePose &pose0, const ParticlePose &pose1,
                                const double image_offset, const ParticleContactStepState &start,
                                const geometry::Superellipse &particle,
                                const PenaltyContactParameters &p, const double w)
  {
    if (!finite(pose0.centre) || !finite(pose1.centre) || !std::isfinite(pose0.rotation) ||
        !std::isfinite(pose1.rotation) || !std::isfinite(image_offset))
      throw std::invalid_argument("rubber_particle_step_coupling: particle pose is not finite");
    ParticleContactStepCoupling c;
    const Tensor<1, 2> offset({image_offset, 0.});
    const Tensor<1, 2> r0 = x0 - pose0.centre - offset, r1 = x1 - pose1.centre - offset;
    const Tensor<2, 2> R0 = rotation_matrix(pose0.rotation), R1 = rotation_matrix(pose1.rotation);
    const Tensor<2, 2> R1T = dealii::transpose(R1);
    c.step = rubber_particle_contact_step(dealii::transpose(R0) * r0, R1T * r1, start, particle,
                                          p);
    const Tensor<1, 2> &tau = c.step.traction;
    const Tensor<2, 2> &J   = c.step.dtraction_dm;
    c.active = tau.norm_square() > 0. || J.norm_square() > 0.;
    if (!c.active)
      return c;

    const Tensor<2, 2> Rbar = 0.5 * (R0 + R1);
    const double       h    = 0.5 * (pose1.rotation - pose0.rotation);
    const Tensor<2, 2> Rmid = rotation_matrix(pose0.rotation + h);
    const auto [s, ds]      = sinc_and_derivative(h);
    const Tensor<1, 2> rbar = 0.5 * (r0 + r1);

    // derivatives of m_{n+1} = R1^T (x1 - c1 - offset): d/dx = R1^T, d/dc = -R1^T,
    // d/dtheta = -R1^T E r1 (E = rotation by +pi/2, dR/dtheta = E R)
    const Tensor<1, 2> dm_dtheta = -(R1T * perpendicular(r1));
    // t = Rbar tau, u = R_mid tau
    c.traction                 = Rbar * tau;
    const Tensor<1, 2> u       = Rmid * tau;
    const Tensor<2, 2> RbarJ   = Rbar * J;
    const Tensor<2, 2> RmidJ   = Rmid * J;
    c.dtraction_dx             = RbarJ * R1T;
    const Tensor<2, 2> du_dx   = RmidJ * R1T;
    // d Rbar / d theta_1 = E R1 / 2, d R_mid / d theta_1 = E R_mid / 2
    const Tensor<1, 2> dt_dtheta = 0.5 * perpendicular(R1 * tau) + RbarJ * dm_dtheta;
    const Tensor<1, 2> du_dtheta = 0.5 * perpendicular(u) + RmidJ * dm_dtheta;
    for (unsigned int j = 0; j < 2; ++j)
      for (unsigned int a = 0; a < 2; ++a)
        c.dtraction_dq[j][a] = -c.dtraction_dx[a][j];
    c.dtraction_dq[2] = dt_dtheta;

    // on the particle: F = -w t, M = -w s(h) rbar x u
    const double rxu = cross(rbar, u);
    c.resultant      = {{-w * c.traction[0], -w * c.traction[1], -w * s * rxu}};
    for (unsigned int j = 0; j < 2; ++j)
      {
        Tensor<1, 2> e;
        e[j] = 1.;
        const Tensor<1, 2> du = du_dx * e; // d u / d x_j (= -d u / d c_j)
        // d rbar / d x_j = e_j / 2 = -d rbar / d c_j
        const double dM_dx = -w * s * (cross(0.5 * e, u) + cross(rbar, du));
        for (unsigned int k = 0; k < 2; ++k)
          {
            c.dresultant_dx[k][j] = -w * c.dtraction_dx[k][j];
            c.dresultant_dq[k][j] = w * c.dtraction_dx[k][j];
          }
        c.dresultant_dx[2][j] = dM_dx;
        c.dresultant_dq[2][j] = -dM_dx;
      }
    for (unsigned int k = 0; k < 2; ++k)
      c.dresultant_dq[k][2] = -w * dt_dtheta[k];
    c.dresultant_dq[2][2] = -w * (0.5 * ds * rxu + s * cross(rbar, du_dtheta));
    return c;
  }

  PointCouplingTangent
  rubber_particle_coupling_tangent(const ParticleContactResponse &response, const double w)
  {
    PointCouplingTangent c;
    if (!response.in_contact)
      return c;
    const Tensor<1, 2> &t  = response.traction;
    const Tensor<2, 2> &T  = response.tangent;
    const Tensor<1, 2>  r  = response.rubber_point - response.image_centre;
    const Tensor<1, 2>  Et = perpendicular(t), Er = perpendicular(r);
    // dt/dq: columns c1, c2 (= -T e_j) and theta (= E t - T E r)
    const Tensor<1, 2> dt_dtheta = Et - T * Er;
    for (unsigned int j = 0; j < 2; ++j)
      for (unsigned int a = 0; a < 2; ++a)
        c.dtraction_dq[j][a] = -T[a][j];
    c.dtraction_dq[2] = dt_dtheta;
    // P = (-w t, -w r x t), r x t = r1 t2 - r2 t1
    for (unsigned int j = 0; j < 2; ++j)
      {
        for (unsigned int k = 0; k < 2; ++k)
          c.dresultant_dx[k][j] = -w * T[k][j];
        // d(r x t)/dx_j = (e_j x t) + r x T e_j
        const double ej_x_t = j == 0 ? t[1] : -t[0];
        c.dresultant_dx[2][j] = -w * (ej_x_t + r[0] * T[1][j] - r[1] * T[0][j]);
      }
    for (unsigned int j = 0; j < 3; ++j)
      {
        const Tensor<1, 2> &dt = c.dtraction_dq[j];
        c.dresultant_dq[0][j]  = -w * dt[0];
        c.dresultant_dq[1][j]  = -w * dt[1];
        // dr/dc_j = -e_j, dr/dtheta = 0
        const double dr_x_t = j == 0 ? -t[1] : j == 1 ? t[0] : 0.;
        c.dresultant_dq[2][j] = -w * (dr_x_t + r[0] * dt[1] - r[1] * dt[0]);
      }
    return c;
  }

  // ======================================================================================
  // RubberParticleInterface
  // ======================================================================================

  RubberParticleInterface::RubberParticleInterface(std::vector<ContactPoint> points,
                                                   const geometry::Superellipse  &particle,
                                                   const PenaltyContactParameters &p,
                                                   const double       cell_length,
                                                   const ContactForces forces)
    : points_(std::move(points))
    , particle_(particle)
    , parameters_(p)
    , cell_length_(cell_length)
    , converged_(points_.size())
    , responses_(points_.size())
    , evaluated_(points_.size(), false)
    , forces_(forces)
    , step_start_(points_.size())
    , steps_(points_.size())
  {
    if (!(cell_length > 0.) || !std::isfinite(cell_length))
      throw std::invalid_argument("RubberParticleInterface: cell length L0 must be positive");
    if (!(p.normal_penalty > 0.) || !(p.tangential_penalty > 0.))
      throw std::invalid_argument("RubberParticleInterface: penalties must be positive");
    if (!(p.friction_coefficient >= 0.))
      throw std::invalid_argument(
        "RubberParticleInterface: friction coefficient must be non-negative");
  }


  double RubberParticleInterface::tunnelling_length() const
  {
    return 0.5 * std::min(particle_.shape().r1, particle_.shape().r2);
  }

  bool RubberParticleInterface::may_pass_through(const unsigned int /*point*/,
                                                 const Tensor<1, 2> &x,
                                                 const Tensor<1, 2> &x_old) const
  {
    const double spacing = tunnelling_length();
    const double length  = (x - x_old).norm();
    if (!pose_set_ || !(length > spacing))
      return false;
    const double       bound = particle_.shape().half_width_bound();
    const unsigned int n     = static_cast<unsigned int>(std::ceil(length / spacing));
    for (unsigned int i = 0; i <= n; ++i)
      {
        const Tensor<1, 2> y  = x_old + (double(i) / n) * (x - x_old);
        const int          k0 = cell_length_ > 0. ?
                                  static_cast<int>(std::lround((y[0] - pose_.centre[0]) / cell_length_)) :
                                  0;
        for (int k = k0 - 1; k <= k0 + 1; ++k)
          {
            Tensor<1, 2> ck = pose_.centre;
            ck[0] += k * cell_length_;
            const Tensor<1, 2> m = geometry::global_to_particle(ck, pose_.rotation, y);
            if (m.norm() <= bound && particle_.implicit_function(m) < 0.)
              return true;
          }
      }
    return false;
  }

  void
  RubberParticleInterface::set_particle_pose(const Tensor<1, 2> &centre, const double theta)
  {
    if (!finite(centre) || !std::isfinite(theta))
      throw std::invalid_argument("RubberParticleInterface: particle pose is not finite");
    shift_images(centre);
    pose_.centre   = centre;
    pose_.rotation = theta;
    pose_set_      = true;
  }

  void
  RubberParticleInterface::shift_images(const Tensor<1, 2> &centre)
  {
    if (!pose_set_)
      return;
    // Wrapping of the centre into the cell (docs/methods.md §2) moves c by a multiple of L0:
    // the same physical image then has a different index k (c_k = c + k L0 e1 is unchanged).
    const long shift = std::lround((centre[0] - pose_.centre[0]) / cell_length_);
    if (shift != 0)
      for (auto &h : converged_)
        h.image -= static_cast<int>(shift);
  }

  void
  RubberParticleInterface::set_step_start_pose(const Tensor<1, 2> &centre, const double theta)
  {
    set_particle_pose(centre, theta);
    pose_start_     = pose_;
    pose_start_set_ = true;
  }

  const ParticlePose &
  RubberParticleInterface::particle_pose() const
  {
    return pose_;
  }

  void
  RubberParticleInterface::evaluate(const unsigned int point, const Tensor<1, 2> &x,
                                    const Tensor<1, 2> &x_old, Tensor<1, 2> &traction,
                                    Tensor<2, 2> &dtraction_dx)
  {
    if (point >= points_.size())
      throw std::out_of_range("RubberParticleInterface::evaluate: point index " +
                              std::to_string(point) + " out of range");
    if (!pose_set_)
      throw std::logic_error("RubberParticleInterface::evaluate: set_particle_pose() not called");
    try
      {
        if (forces_ == ContactForces::discrete_gradient)
          evaluate_step(point, x, x_old);
        else
          {
            responses_[point] = rubber_particle_contact(x, converged_[point], pose_, particle_,
                                                        parameters_, cell_length_);
            responses_[point].rubber_point = x; // also out of contact: commit() needs it
          }
      }
    catch (const std::domain_error &e)
      {
        // A Newton iterate pushed the point to a centre of curvature of the particle: reject
        // the iterate like an inverted element so that the time step can be cut.
        throw NewtonFailure("rubber-particle contact at point " + std::to_string(point) +
                                 ": " + e.what());
      }
    evaluated_[point] = true;
    traction          = responses_[point].traction;
    dtraction_dx      = responses_[point].tangent;
  }

  void
  RubberParticleInterface::evaluate_step(const unsigned int i, const Tensor<1, 2> &x,
                                         const Tensor<1, 2> &x_old)
  {
    if (!pose_start_set_)
      throw std::logic_error(
        "RubberParticleInterface::evaluate: set_step_start_pose() not called");
    // the image: the one in contact at t_n, else the nearest to the point at t_{n+1} (the
    // particle is narrower than the cell, so a point inside image k is nearest to c_k)
    const int image = step_start_[i].in_contact ?
                        converged_[i].image :
                        static_cast<int>(std::lround((x[0] - pose_.centre[0]) / cell_length_));
    const ParticleContactStepCoupling &c = steps_[i] = rubber_particle_step_coupling(
      x_old, x, pose_start_, pose_, image * cell_length_, step_start_[i], particle_, parameters_,
      points_[i].weight);
    ParticleContactResponse &r = responses_[i];
    r                          = ParticleContactResponse();
    r.in_contact               = c.step.end.in_contact;
    r.slipping                 = c.step.slipping;
    r.normal_gap               = c.step.normal_gap;
    r.traction                 = c.traction;
    r.tangent                  = c.dtraction_dx;
    r.trial.in_contact         = c.step.end.in_contact;
    r.trial.image              = image;
    r.image_centre             = pose_.centre + Tensor<1, 2>({image * cell_length_, 0.});
    r.rubber_point             = x;
    if (r.in_contact)
      {
        r.normal_traction     = normal_penalty(c.step.normal_gap, parameters_.normal_penalty,
                                               parameters_.regularisation_width)
                                  .traction;
        r.tangential_traction = -parameters_.tangential_penalty * c.step.end.tangential_gap;
      }
  }

  void
  RubberParticleInterface::commit()
  {
    for (unsigned int i = 0; i < points_.size(); ++i)
      if (evaluated_[i])
        {
          const auto &r = responses_[i];
          if (forces_ == ContactForces::discrete_gradient)
            {
              dissipation_ += points_[i].weight * steps_[i].step.dissipation;
              step_start_[i] = steps_[i].step.end;
            }
          else
            {
              const ParticleContactHistory &h = converged_[i];
              // the point at t_{n+1} in the frame of the image it touched at t_n
              const Tensor<1, 2> m_end =
                h.in_contact ?
                  geometry::global_to_particle(
                    pose_.centre + Tensor<1, 2>({h.image * cell_length_, 0.}), pose_.rotation,
                    r.rubber_point) :
                  Tensor<1, 2>();
              dissipation_ +=
                points_[i].weight *
                rubber_particle_step_dissipation(h, r, m_end, parameters_.tangential_penalty);
            }
          converged_[i] = r.trial;
          evaluated_[i] = false;
        }
  }

  ParticleContactResultant
  RubberParticleInterface::resultant() const
  {
    ParticleContactResultant res;
    if (forces_ == ContactForces::discrete_gradient)
      {
        for (const auto &c : steps_)
          if (c.active)
            {
              res.force += Tensor<1, 2>({c.resultant[0], c.resultant[1]});
              res.moment += c.resultant[2];
            }
        return res;
      }
    for (unsigned int i = 0; i < points_.size(); ++i)
      {
        const auto &r = responses_[i];
        if (!r.in_contact)
          continue;
        const Tensor<1, 2> f   = -points_[i].weight * r.traction; // on the particle
        const Tensor<1, 2> arm = r.rubber_point - r.image_centre; // work-conjugate arm
        res.force += f;
        res.moment += arm[0] * f[1] - arm[1] * f[0];
      }
    return res;
  }

  PointCouplingTangent
  RubberParticleInterface::point_coupling_tangent(const unsigned int i) const
  {
    if (forces_ == ContactForces::discrete_gradient)
      {
        const ParticleContactStepCoupling &c = steps_.at(i);
        PointCouplingTangent               t;
        if (c.active)
          {
            t.dtraction_dq  = c.dtraction_dq;
            t.dresultant_dx = c.dresultant_dx;
            t.dresultant_dq = c.dresultant_dq;
          }
        return t;
      }
    return rubber_particle_coupling_tangent(responses_.at(i), points_.at(i).weight);
  }

  unsigned int
  RubberParticleInterface::n_in_contact() const
  {
    return std::count_if(responses_.begin(), responses_.end(),
                         [](const ParticleContactResponse &r) { return r.in_contact; });
  }

  unsigned int
  RubberParticleInterface::n_slipping() const
  {
    return std::count_if(responses_.begin(), responses_.end(),
                         [](const ParticleContactResponse &r) { return r.slipping; });
  }

  double
  RubberParticleInterface::frictional_dissipation() const
  {
    return dissipation_;
  }

  double
  RubberParticleInterface::spring_energy() const
  {
    double e = 0.;
    if (forces_ == ContactForces::discrete_gradient)
      {
        for (unsigned int i = 0; i < points_.size(); ++i)
          e += points_[i].weight * steps_[i].step.energy_end;
        return e;
      }
    for (unsigned int i = 0; i < points_.size(); ++i)
      {
        const auto &r = responses_[i];
        if (!r.in_contact)
          continue;
        e += points_[i].weight *
             (normal_penalty(r.normal_gap, parameters_.normal_penalty,
                             parameters_.regularisation_width)
                .energy +
              0.5 * r.tangential_traction * r.tangential_traction / parameters_.tangential_penalty);
      }
    return e;
  }

  unsigned int
  RubberParticleInterface::n_points() const
  {
    return points_.size();
  }

  const ParticleContactResponse &
  RubberParticleInterface::response(const unsigned int i) const
  {
    return responses_.at(i);
  }

  const ParticleContactHistory &
  RubberParticleInterface::converged_history(const unsigned int i) const
  {
    return converged_.at(i);
  }
} // namespace granular::contact
