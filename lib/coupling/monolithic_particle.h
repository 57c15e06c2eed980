#pragma once
/**
 * @file monolithic_particle.h
 * The DEM particle as a movable obstacle of the rubber's Newton system: the monolithic
 * (fully implicit) DEM-FEM coupling of Solver/Coupling scheme = monolithic.
 *
 * Why (choice, replaces the explicit staggering of docs/methods.md §5.3 by default): the particle
 * is light (m = rho_P pi r0^2 = 2.4e-9 t/mm at the defaults) and squeezed between two stiff
 * contacts, the rubber penalty (eps_N ~ 1e6 MPa/mm over ~0.1 mm of boundary) and the Hertz
 * surface contact. The coupled oscillation has omega ~ 6e6 rad/s, so omega dt ~ 2.6 at
 * dt = 1e-4 T0: holding the particle fixed during the rubber solve and moving it with the
 * forces of t_n is outside any stability limit whenever the particle moves fast, e.g. when
 * the ellipse rolls over its edge, and the default run then creates energy and fails
 * (docs/methods.md §5.3). Solving the particle's three unknowns q = (c_1, c_2, theta) in the
 * same Newton iteration as the rubber removes the time-step restriction of the coupling.
 *
 * Particle dynamics (units mm, s, t, N per mm thickness):
 *   R_q = M a(q) - P(u, q) - S(q) + m g e2 = 0,  M = diag(m, m, I),
 * with Newmark (beta, gamma of the Solver section, the rubber's integrator)
 *   a = (q - q_n - dt v_n) / (beta dt^2) - (1/(2 beta) - 1) a_n,
 *   v = v_n + dt ((1 - gamma) a_n + gamma a),
 * P the resultant (force, moment about c) of the rubber tractions on the particle
 * (contact::RubberParticleInterface, consistent linearisation
 * contact::rubber_particle_coupling_tangent()), and S the particle-surface force and moment
 * (contact::particle_surface_contact() with the indentation rate from v_{n+1} and the
 * tangential increment from the displacement over the step). Within a step the surface
 * contact acts at one material point of the particle (choice): the lowest point itself is
 * not differentiable in theta where a p > 2 superellipse is flat-most (it moves like
 * |theta|^(1/3)), and Newton diverged there (a square resting on its side: 100+ iterations
 * per step); a material point moves rigidly. The material point is the lowest point at the
 * predicted mid-step rotation theta_n + Delta theta_pred / 2 (Delta theta_pred: the last
 * step's increment). Why mid-step: switching to a new material point between steps changes
 * the indentation at fixed pose, and with it the stored contact energy. Each material
 * point's indentation falls short of the true (lowest-point) one by ~C (theta -
 * theta_sel)^2 / 2, so with theta_sel = theta_n every switch raises the energy by
 * ~f_N C Delta theta^2 / 2, always upward: energy is created at every step of a rolling or
 * rocking particle (reduced rectangle at 4 MPa: 0.72 N mm/mm by t/T0 = 2.3, half of the
 * particle's kinetic energy scale). With the mid-step choice the shortfalls at the end of
 * one step and the start of the next are equal to leading order, the switches telescope
 * and the same run gains 0.018 N mm/mm. The 3 x 3 derivative dS/dq
 * (including dv/dq = gamma / (beta dt)) is taken by central differences of S (6 extra
 * evaluations of the closed-form contact per Newton iteration).
 *
 * The default normal law switches its damping off in decompression: its force has a kink at
 * d_N' = 0, and a particle rolling on the flat surface sits exactly there (d_N' ~ 0), where
 * Newton alternates between the two linearisations and converges only linearly (about 30
 * iterations per step instead of 3.6 in the reduced coupled case). So the branch follows
 * the sign of d_N' during the first free_branch_iterations assemblies of a step (Newton
 * iterations and line-search trials) and is then frozen at the branch of the current
 * iterate (choice). Near the kink both branches give almost the same force (they differ by
 * k_N sqrt(d_N) c_N |d_N'|). Until the freeze Newton still converges only linearly there,
 * so it comes early: after 2 assemblies. Measured on the reduced cell at 2 MPa (L0 = 3 mm,
 * 12 x 6, T_avg = 0.5 T0): the ellipse takes 3.13 Newton iterations per step instead of
 * 3.91 with 4 free assemblies (kbar 0.1327 both), the rectangle 3.38 instead of 4.09
 * (kbar 0.1839 and 0.1831, within the scatter of its rocking), with fewer cut-backs.
 *
 * Energy bookkeeping: the work of the rubber on the particle over a step is the trapezoidal
 * (P_n + P_{n+1}) . (q_{n+1} - q_n); dissipation increments are those of the surface
 * contact at t_{n+1}.
 *
 * SurfaceForces::discrete_gradient (docs/methods.md §5.4) replaces the material point and
 * Newmark's end-of-step forces by the mid-point rule with the discrete-gradient surface
 * force of the step: the residual is
 *   R_q = M 2 (q - q_n - dt v_n) / dt^2 - (P_n + P(u, q)) / 2 - S(q_n, q) + m g e2,
 * its rubber coupling carries the weight 1/2, and the surface contact acts at the lowest
 * point at both ends of the step (its secant moment arm needs no curvature, so the
 * unbounded curvature of the support function at a flat-most orientation does not enter).
 * Its derivative dS/dq is exact by default (SurfaceJacobian::automatic_differentiation,
 * Solver/Particle contact Jacobian): Sacado's forward mode through the step force's own
 * arithmetic (contact::particle_surface_contact_step_derivatives()).
 */
#include "contact/particle_surface_contact.h"
#include "contact/rubber_particle_contact.h"
#include "dem/particle.h"
#include "fem/rubber_block.h"

#include <array>
#include <vector>

namespace granular::coupling
{
  using dealii::Tensor;

  class MonolithicParticle : public BoundaryObstacle
  {
  public:
    /// How the particle's dynamics and its surface contact are integrated over a step.
    enum class SurfaceForces
    {
      /// Newmark (beta, gamma) with the surface force and moment at t_{n+1}, evaluated at one
      /// material point of the particle (the lowest point at the predicted mid-step rotation);
      /// the rubber's resultant at t_{n+1}. The method before the energy-consistent contact.
      end_of_step,
      /// The mid-point rule M (v_{n+1} - v_n) / dt = (P_n + P_{n+1}) / 2 + S - m g e2,
      /// q_{n+1} - q_n = dt (v_n + v_{n+1}) / 2, with S the discrete-gradient force of the
      /// surface contact over the step (contact::particle_surface_contact_step()): the
      /// surface contact's work equals minus the change of its stored energy minus its
      /// dissipation at any step length, and the integrator itself neither creates nor
      /// removes energy (docs/methods.md §5.4).
      discrete_gradient
    };

    /// How Newton's method gets the derivative dS/dq of the particle-surface force and
    /// moment S with respect to the particle's pose q.
    enum class SurfaceJacobian
    {
      /// SurfaceForces::discrete_gradient only: exact, by automatic differentiation of the
      /// step's force (contact::particle_surface_contact_step_derivatives(), Trilinos
      /// Sacado); with end_of_step the central differences are used.
      automatic_differentiation,
      /// central differences of S (6 evaluations of the contact per Newton iteration, steps
      /// 1e-4 d_N clamped to [1e-12, 1e-7] mm and that over the half width in rad)
      finite_differences
    };

    /**
     * @param particle  the DEM particle at t_n (not owned); commit() moves it to t_{n+1}
     * @param interface the rubber-particle contact of the block's bottom points (not owned)
     * @param newmark_beta, newmark_gamma Newmark parameters (beta > 0, gamma >= 1/2) of the
     *        end-of-step evaluation
     * @param surface_forces how the particle-surface contact and the particle's equation of
     *        motion are integrated over a step (see SurfaceForces)
     * @param particle_gamma discrete gradient only: gamma_p in [1/2, 1] of the position update
     *        q_{n+1} - q_n = dt ((1 - gamma_p) v_n + gamma_p v_{n+1}); 1/2 is the mid-point
     *        rule, larger values remove (gamma_p - 1/2) M (v_{n+1} - v_n)^2 per step
     * @param surface_jacobian how dS/dq is obtained (see SurfaceJacobian)
     * @throws std::invalid_argument for invalid Newmark parameters or gamma_p.
     */
    MonolithicParticle(dem::Particle &particle, contact::RubberParticleInterface &interface,
                       double newmark_beta, double newmark_gamma,
                       SurfaceForces surface_forces = SurfaceForces::end_of_step,
                       double particle_gamma = 0.5,
                       SurfaceJacobian surface_jacobian =
                         SurfaceJacobian::automatic_differentiation);

    // BoundaryObstacle
    void evaluate(unsigned int point, const Tensor<1, 2> &x, const Tensor<1, 2> &x_old,
                  Tensor<1, 2> &traction, Tensor<2, 2> &dtraction_dx) override;
    /// Accepts the last iterate: interface history, particle state (Particle::accept_step()).
    void commit() override;
    /// The interface's test of the rubber point's path
    /// (contact::RubberParticleInterface::may_pass_through()), and whether the particle's own
    /// points moved farther than contact::RubberParticleInterface::tunnelling_length() in
    /// the step: its centre's path plus its circumradius times its rotation.
    bool may_pass_through(unsigned int point, const Tensor<1, 2> &x,
                          const Tensor<1, 2> &x_old) const override;
    bool traction_is_step_force() const override { return interface_.traction_is_step_force(); }
    unsigned int n_rigid_dofs() const override { return 3; }
    /// Assemblies per step with the normal-law branch free (see the file comment).
    static constexpr unsigned int free_branch_iterations = 2;
    /// Predictor: q_n plus @p predictor_weight (1, or Solver/Damped predictor weight after a
    /// Newton failure) times the last step's increment of q scaled to @p dt (q_n at the first
    /// step).
    std::vector<double> begin_step(double dt, double predictor_weight) override;
    void set_rigid_dofs(const std::vector<double> &q) override;
    void coupling_tangent(unsigned int point, std::vector<Tensor<1, 2>> &dtraction_dq,
                          std::vector<Tensor<1, 2>> &dresidual_dx) override;
    void rigid_residual(std::vector<double> &residual,
                        std::vector<std::vector<double>> &tangent) override;

    /// Resultant P = (F_1, F_2, M) of the rubber on the particle at the last committed step
    /// (N/mm, N mm/mm about the centre; zero before the first step): what the rubber did at
    /// t_n, for the energy bookkeeping and the run's records.
    const std::array<double, 3> &rubber_resultant() const { return rubber_resultant_n_; }

    /// The particle-surface contact at the current iterate.
    const contact::ParticleSurfaceContactResult &surface_contact() const { return surface_; }

    /// Surface force and moment S = (f_1, f_2, M) of the current iterate (N/mm, N mm/mm).
    std::array<double, 3> surface_resultant() const;

    /// Algorithmic dissipation of Newmark in the particle's motion since t = 0 (N mm per
    /// mm), defined as fem::BlockEnergies::numerical_dissipation with M = diag(m, m, I).
    double numerical_dissipation() const { return numerical_dissipation_; }

    /// Boost.Serialization of what carries over from step to step besides the particle's own
    /// state (dem::Particle::Checkpoint): a_n, the rubber resultant at t_n, the last increment
    /// (predictor) and the accumulated numerical dissipation (checkpoint/restart).
    template <class Archive>
    void serialize(Archive &ar, const unsigned int)
    {
      ar &a_n_ &rubber_resultant_n_ &last_increment_ &last_dt_ &numerical_dissipation_;
    }

  private:
    using Vec3 = std::array<double, 3>;
    /// Diagonal mass matrix diag(m, m, I) of q = (c1, c2, theta) (t, t, t mm^2).
    Vec3 mass_matrix() const
    {
      return {{particle_.mass(), particle_.mass(), particle_.moment_of_inertia()}};
    }
    /// Acceleration and velocity of iterate q at t_{n+1} (Newmark), or the mean acceleration
    /// of the step and the velocity at t_{n+1} (mid-point rule).
    void kinematics(const Vec3 &q, Vec3 &a, Vec3 &v) const;
    /// Weight of the rubber resultant at t_{n+1} in the particle's equation: 1 (Newmark, or
    /// the step's force of the rubber-particle discrete gradient), 1/2 (mid-point rule with
    /// end-of-step rubber forces, the other half is that of t_n).
    double rubber_weight() const
    {
      return surface_forces_ == SurfaceForces::discrete_gradient &&
                 !interface_.traction_is_step_force() ?
               0.5 :
               1.;
    }
    /// Particle-surface contact at iterate q.
    contact::ParticleSurfaceContactResult surface(const Vec3 &q) const;

    dem::Particle                    &particle_;
    contact::RubberParticleInterface &interface_;
    double                            beta_, gamma_;
    SurfaceForces                     surface_forces_;
    double                            particle_gamma_;
    SurfaceJacobian                   surface_jacobian_;
    double                            dt_ = 0., last_dt_ = 0.;
    Vec3 q_n_{}, v_n_{}, a_n_{}, last_increment_{};
    Vec3 q_{};                 ///< current iterate
    Vec3 rubber_resultant_n_{}; ///< P at t_n
    contact::ParticleSurfaceContactResult surface_; ///< at the current iterate
    /// end of step: the surface contact's material point of the step, the lowest point at the
    /// predicted mid-step rotation (particle frame, mm)
    Tensor<1, 2> contact_point_;
    /// discrete gradient: the flat sides' rounding and the lowest point at t_n (particle
    /// frame, mm)
    geometry::Superellipse::FlatSideRounding rounding_;
    Tensor<1, 2>                             start_point_;
    /// branch of a rate-switching normal law: free for the first iterations of a step, then
    /// frozen (see the file comment)
    contact::NormalContactLaw::RateBranch branch_ = contact::NormalContactLaw::RateBranch::by_sign;
    unsigned int residual_evaluations_ = 0; ///< rigid_residual() calls in this step
    double       numerical_dissipation_ = 0.;
  };
} // namespace granular::coupling
