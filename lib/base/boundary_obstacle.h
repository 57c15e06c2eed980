#pragma once
/**
 * @file boundary_obstacle.h
 * The interface between the rubber block's Newton solve and whatever touches its bottom
 * boundary (docs/methods.md §6): the contact Gauss points, the obstacle that gives a traction at
 * each of them, and the exception that rejects a Newton iterate. The FEM (fem::RubberBlock)
 * calls obstacles; the contact module (contact::RubberParticleInterface) and the coupling
 * (coupling::MonolithicParticle) implement them; so these types live below both.
 *
 * Units: mm, s, N per mm thickness, MPa.
 */
#include <deal.II/base/tensor.h>

#include <stdexcept>
#include <vector>

namespace granular
{
  using dealii::Tensor;

  /// Thrown when Newton-Raphson does not converge within the iteration limit, or at an
  /// iterate where an element inverts or the Maxwell branch's local update fails; the
  /// block is left at its last converged state.
  class NewtonFailure : public std::runtime_error
  {
  public:
    using std::runtime_error::runtime_error;
  };

  /// A contact Gauss point on the bottom boundary (2 per bottom face, docs/methods.md §6).
  struct ContactPoint
  {
    Tensor<1, 2> reference_position; ///< X (mm)
    double       weight;             ///< reference boundary length it represents (mm)
  };

  /**
   * Extra contact (the particle, docs/methods.md §6 "Rubber-particle") acting at the bottom
   * Gauss points. Called in every Newton iteration for every point with its current
   * and converged positions; returns the traction on the rubber (MPa) and its
   * derivative with respect to the current position (MPa/mm) and may keep trial
   * history; commit/reject are forwarded by the block.
   */
  class BoundaryObstacle
  {
  public:
    virtual ~BoundaryObstacle() = default;
    /// @param point index into RubberBlock::contact_points()
    virtual void evaluate(unsigned int point, const Tensor<1, 2> &x,
                          const Tensor<1, 2> &x_old, Tensor<1, 2> &traction,
                          Tensor<2, 2> &dtraction_dx) = 0;
    virtual void commit() = 0;
    /**
     * After a converged solve of a step, before commit(): whether the step was too long for
     * the contact to see it, so that the contact point @p point, which moved from @p x_old
     * (t_n) to @p x (t_{n+1}; global frame, mm), may have passed through the obstacle
     * between the step's ends (tunnelling). The block then rejects the solve like a Newton
     * failure and the step is cut back. Default: never.
     */
    virtual bool may_pass_through(unsigned int /*point*/, const Tensor<1, 2> & /*x*/,
                                  const Tensor<1, 2> & /*x_old*/) const
    {
      return false;
    }
    /// What predicted_contact() finds where a contact point is predicted inside a movable
    /// obstacle (the velocity update of docs/methods.md §6.1).
    struct PredictedContact
    {
      Tensor<1, 2> normal;   ///< the obstacle's outward unit normal there (global frame)
      Tensor<1, 2> velocity; ///< velocity of the obstacle's material point there at t_n (mm/s)
      Tensor<1, 2> arm;      ///< from the obstacle's (image's) centre to the point (mm)
      /// 1/M + (arm x n)^2 / I: the obstacle's inverse mass along n at the point (mm/t)
      double       inverse_mass = 0.;
      unsigned int body         = 0; ///< which rigid body (several particles)
    };
    /**
     * At the start of a step of length @p h (s), before begin_step(): whether the contact
     * point predicted at @p x (x_n + h v_n; global frame, mm) lies inside the obstacle moved
     * by its own predictor c_n + h v_n, theta_n + h omega_n; if so, @p contact says where.
     * Default: never.
     */
    virtual bool predicted_contact(const Tensor<1, 2> & /*x*/, double /*h*/,
                                   PredictedContact & /*contact*/) const
    {
      return false;
    }
    /// Apply the impulse @p impulse (N s/mm, global frame) at @p contact's point to the
    /// obstacle's velocities at t_n; returns the change of its kinetic energy (N mm/mm).
    virtual double apply_impulse(const PredictedContact & /*contact*/,
                                 const Tensor<1, 2> & /*impulse*/)
    {
      return 0.;
    }
    /// true: the traction is the obstacle's force over the step (its work over the step is
    /// w t . Delta x), not the force at t_{n+1} (fem::BlockWork, docs/methods.md §5.5)
    virtual bool traction_is_step_force() const { return false; }

    /// @name Movable obstacle solved monolithically with the block
    /// A movable obstacle (the DEM particle in the monolithic coupling) appends
    /// n_rigid_dofs() unknowns q to the block's Newton system. Its residual R_q follows the
    /// block's sign convention (inertia minus applied forces, N/mm or N mm/mm). Per assembly
    /// the block calls set_rigid_dofs(q), then evaluate() and coupling_tangent() for every
    /// contact point, then rigid_residual(). Fixed obstacles keep the defaults.
    /// @{
    /// Number of rigid-body unknowns (0: the obstacle is held fixed during a solve).
    virtual unsigned int n_rigid_dofs() const { return 0; }
    /// Start of a step of size @p h (s): returns the predictor of q at t_{n+1}, q_n plus
    /// @p predictor_weight times the last increment of q scaled to h (the weight of the
    /// block's predictor, SolverParameters::damped_predictor_weight).
    virtual std::vector<double> begin_step(double /*h*/, double /*predictor_weight*/)
    {
      return {};
    }
    /// The current Newton iterate of q.
    virtual void set_rigid_dofs(const std::vector<double> & /*q*/) {}
    /// After evaluate(@p point, ...): the traction's derivative d t / d q_j (@p dtraction_dq,
    /// MPa per unit of q_j) and the derivative of R_q with respect to the point's position
    /// (@p dresidual_dx, row j: d R_q,j / d x), both of size n_rigid_dofs().
    virtual void coupling_tangent(unsigned int /*point*/,
                                  std::vector<Tensor<1, 2>> & /*dtraction_dq*/,
                                  std::vector<Tensor<1, 2>> & /*dresidual_dx*/)
    {}
    /// After all points: R_q and d R_q / d q (n_rigid_dofs() square) at the current iterate.
    virtual void rigid_residual(std::vector<double> & /*residual*/,
                                std::vector<std::vector<double>> & /*tangent*/)
    {}
    /// @}
  };
} // namespace granular
