#pragma once
/**
 * @file monolithic_particle.h
 * The DEM particle as a movable obstacle of the rubber's Newton system: the monolithic
 * (fully implicit) DEM-FEM coupling of Solver/Coupling scheme = monolithic.
 *
 * Why (choice, replaces the explicit staggering of docs/methods.md §5.3 by default): the particle
 * is light (m = rho_P pi r0^2 = 2.4e-9 t/mm at the defaults) and squeezed between two stiff
 * contacts, the rubber penalty (eps_N ~ 1e6 MPa/mm over ~0.1 mm of boundary) and the Hertz
 * surface contact. The coupled oscillation has omega ~ 6e6 rad/s, so omega h ~ 2.6 at
 * h = 1e-4 T0: holding the particle fixed during the rubber solve and moving it with the
 * forces of t_n is outside any stability limit whenever the particle moves fast, e.g. when
 * the ellipse rolls over its edge, and the default run then creates energy and fails
 * (docs/methods.md §5.3). Solving the particle's three unknowns q = (c_1, c_2, theta) in the
 * same Newton iteration as the rubber removes the time-step restriction of the coupling.
 *
 * Particle dynamics (units mm, s, t, N per mm thickness; docs/methods.md §5.4): the
 * mid-point rule with the discrete-gradient surface force S of the step,
 *   R_q = M (v_{n+1} - v_n) / h - (P_n + P(u, q)) / 2 - S(q_n, q) + m g e2 = 0,
 *   q_{n+1} - q_n = h ((1 - gamma_p) v_n + gamma_p v_{n+1}),  M = diag(m, m, I),
 * with P the resultant (force, moment about c) of the rubber tractions on the particle
 * (contact::RubberParticleInterface, consistent linearisation
 * contact::rubber_particle_coupling_tangent(); with the rubber-particle discrete gradient its
 * step force P(u, q) with weight 1) and S the discrete gradient of the Hertz potential between
 * the lowest points at both ends of the step (contact::particle_surface_contact_step()): the
 * surface contact's work equals minus the change of its stored energy minus its
 * dissipation at any step length, and the mid-point rule (gamma_p = 1/2) neither creates nor
 * removes energy. The secant moment arm needs no curvature, so the unbounded curvature of the
 * support function at a flat-most orientation does not enter; the flat sides are rounded
 * (Contact/Particle-surface/Flat side radius). The derivative dS/dq is exact: Sacado's
 * forward mode through the step force's own arithmetic
 * (contact::particle_surface_contact_step_derivatives()); central differences only where a
 * flat side is not rounded.
 *
 * The default normal law switches its damping off in decompression: its force has a kink at
 * d_N' = 0, and a particle rolling on the flat surface sits exactly there (d_N' ~ 0), where
 * Newton alternates between the two linearisations and converges only linearly. So the
 * branch follows the sign of d_N' during the first free_branch_iterations assemblies of a
 * step (Newton iterations and line-search trials) and is then frozen at the branch of the
 * current iterate (choice). Near the kink both branches give almost the same force (they
 * differ by k_N sqrt(d_N) c_N |d_N'|) (docs/performance.md).
 *
 * Energy bookkeeping: the work of the rubber on the particle over a step is the trapezoidal
 * (P_n + P_{n+1}) . (q_{n+1} - q_n), or that of the step force; dissipation increments are
 * those of the surface contact's step.
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
    /**
     * @param particle  the DEM particle at t_n (not owned); commit() moves it to t_{n+1}
     * @param interface the rubber-particle contact of the block's bottom points (not owned)
     * @param particle_gamma gamma_p in [1/2, 1] of the position update
     *        q_{n+1} - q_n = h ((1 - gamma_p) v_n + gamma_p v_{n+1}); 1/2 is the mid-point
     *        rule, larger values remove (gamma_p - 1/2) M (v_{n+1} - v_n)^2 per step
     * @throws std::invalid_argument for gamma_p outside [1/2, 1], or what
     *         geometry::Superellipse::flat_side_rounding() throws for the particle's
     *         Flat side radius.
     */
    MonolithicParticle(dem::Particle &particle, contact::RubberParticleInterface &interface,
                       double particle_gamma = 0.5);

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
    /// Whether @p x lies inside the particle or one of its periodic images at its explicit
    /// predictor c_n + h v_n, theta_n + h omega_n (closest-point projection, docs/methods.md
    /// §4.1); the arm and the velocity of @p contact are those of the image's material point
    /// at x, its body index 0.
    bool predicted_contact(const Tensor<1, 2> &x, double h,
                           PredictedContact &contact) const override;
    /// dem::Particle::apply_impulse() at t_n (before begin_step()); the particle's kinetic
    /// energy lost to it is part of its numerical dissipation, as the rubber's is of the
    /// block's (fem::BlockEnergies::velocity_update_dissipation counts both).
    double apply_impulse(const PredictedContact &contact, const Tensor<1, 2> &impulse) override
    {
      const double work = particle_.apply_impulse(impulse, contact.arm);
      numerical_dissipation_ -= work;
      return work;
    }
    unsigned int n_rigid_dofs() const override { return 3; }
    /// Assemblies per step with the normal-law branch free (see the file comment).
    static constexpr unsigned int free_branch_iterations = 2;
    /// Predictor: q_n plus @p predictor_weight (1, or Solver/Damped predictor weight after a
    /// Newton failure) times the last step's increment of q scaled to @p h (q_n at the first
    /// step).
    std::vector<double> begin_step(double h, double predictor_weight) override;
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

    /// Numerical dissipation of the particle's update since t = 0 (N mm per mm): the work of
    /// the mean inertial force minus the change of the kinetic energy, zero for the
    /// mid-point rule (gamma_p = 1/2).
    double numerical_dissipation() const { return numerical_dissipation_; }

    /// Boost.Serialization of what carries over from step to step besides the particle's own
    /// state (dem::Particle::Checkpoint): the rubber resultant at t_n, the last increment
    /// (predictor) and the accumulated numerical dissipation (checkpoint/restart).
    template <class Archive>
    void serialize(Archive &ar, const unsigned int)
    {
      ar &rubber_resultant_n_ &last_increment_ &last_h_ &numerical_dissipation_;
    }

  private:
    using Vec3 = std::array<double, 3>;
    /// Diagonal mass matrix diag(m, m, I) of q = (c1, c2, theta) (t, t, t mm^2).
    Vec3 mass_matrix() const
    {
      return {{particle_.mass(), particle_.mass(), particle_.moment_of_inertia()}};
    }
    /// The mean acceleration of the step and the velocity at t_{n+1} of iterate q.
    void kinematics(const Vec3 &q, Vec3 &a, Vec3 &v) const;
    /// Weight of the rubber resultant at t_{n+1} in the particle's equation: 1 (the step's
    /// force of the rubber-particle discrete gradient), 1/2 (end-of-step rubber forces, the
    /// other half is that of t_n).
    double rubber_weight() const { return interface_.traction_is_step_force() ? 1. : 0.5; }
    /// Particle-surface contact at iterate q.
    contact::ParticleSurfaceContactResult surface(const Vec3 &q) const;

    dem::Particle                    &particle_;
    contact::RubberParticleInterface &interface_;
    double                            particle_gamma_;
    double                            h_ = 0., last_h_ = 0.;
    Vec3 q_n_{}, v_n_{}, last_increment_{};
    Vec3 q_{};                 ///< current iterate
    Vec3 rubber_resultant_n_{}; ///< P at t_n
    contact::ParticleSurfaceContactResult surface_; ///< at the current iterate
    /// the flat sides' rounding and the lowest point at t_n (particle frame, mm)
    geometry::Superellipse::FlatSideRounding rounding_;
    Tensor<1, 2>                             start_point_;
    /// branch of a rate-switching normal law: free for the first iterations of a step, then
    /// frozen (see the file comment)
    contact::NormalContactLaw::RateBranch branch_ = contact::NormalContactLaw::RateBranch::by_sign;
    unsigned int residual_evaluations_ = 0; ///< rigid_residual() calls in this step
    double       numerical_dissipation_ = 0.;
  };
} // namespace granular::coupling
