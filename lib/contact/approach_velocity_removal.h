#pragma once
/**
 * @file approach_velocity_removal.h
 * The velocity update of a rubber contact point at the start of a step
 * (docs/methods.md §6.1, `Solver/Rubber-particle velocity update`): a point of a bottom face
 * that the step's explicit predictor x_n + h v_n carries into a particle loses its normal
 * velocity relative to the particle, as in a perfectly inelastic impact between the face's
 * nodes and the particle. The impulse acts along the normal on both bodies, equal and
 * opposite, and changes the face's two nodal velocities by the least amount in the norm of
 * their lumped masses; the kinetic energy it takes is returned and counted as numerical
 * dissipation. This is the predictor of the
 * contact-stabilised Newmark method (Deuflhard, Krause & Ertel, Int. J. Numer. Meth. Engng 73
 * (2008) 1274, §3: the predictor's L2 projection onto the admissible set; Doyen, Ern &
 * Piperno, SIAM J. Sci. Comput. 33 (2011) 223, compare it with other schemes), applied to the velocities of the contact points of a
 * two-node face against a rigid body (the velocity update of Laursen & Love, Int. J. Numer.
 * Meth. Engng 53 (2002) 245), with the particle's own inertia in the impulse as in a
 * rigid-body impact (Brach, Mechanical Impact Dynamics, Wiley (1991)).
 *
 * Units: velocities in mm/s, masses in t per mm thickness, energy in N mm per mm.
 */
#include <deal.II/base/tensor.h>

namespace granular::contact
{
  using dealii::Tensor;

  /// What remove_approach_velocity() returns.
  struct ApproachVelocityRemoval
  {
    Tensor<1, 2> velocity_a, velocity_b; ///< the face's nodal velocities after the update (mm/s)
    /// lambda >= 0 (N s/mm): the point receives the impulse lambda n, the obstacle -lambda n
    double impulse = 0.;
    /// the kinetic energy the two bodies lose, 1/2 mu v_N^2 >= 0 (N mm/mm); 0 if the point
    /// does not approach
    double removed_energy = 0.;
    bool   updated        = false; ///< whether the point approached (v_N < 0)
  };

  /**
   * Remove the normal approach velocity of a face's contact point x = N_a x_a + N_b x_b.
   *
   * With the point's velocity v = N_a v_a + N_b v_b and its normal velocity relative to the
   * obstacle v_N = (v - w) . n, a point with v_N < 0 gets
   *   v_a' = v_a + (N_a/m_a) lambda n,   v_b' = v_b + (N_b/m_b) lambda n,
   *   lambda = -v_N mu,   1/mu = N_a^2/m_a + N_b^2/m_b + 1/m_o,
   * and the obstacle the impulse -lambda n (the caller applies it), which makes v_N' = 0. The
   * nodes' change is the least in the norm sum_k m_k |dv_k|^2 that delivers the impulse to the
   * point: it leaves the point's tangential velocity unchanged. Momentum is conserved and the
   * two bodies lose the kinetic energy 1/2 mu v_N^2 (a perfectly inelastic impact along n of
   * the point's effective mass and the obstacle's). A point with v_N >= 0 keeps its velocities.
   *
   * @param N_a, N_b   the point's shape-function values on the face, >= 0 (N_a + N_b = 1)
   * @param m_a, m_b   the nodes' lumped masses (t/mm), > 0
   * @param v_a, v_b   the nodes' velocities at t_n (global frame, mm/s)
   * @param normal     the obstacle's outward unit normal at the point (global frame)
   * @param obstacle_velocity  the velocity of the obstacle's material point there (mm/s)
   * @param obstacle_inverse_mass  1/m_o = 1/M + (r x n)^2/I of the obstacle at the point
   *                   (mm/t, >= 0; 0: a fixed or infinitely heavy obstacle)
   * @throws std::invalid_argument if a mass is not positive, obstacle_inverse_mass is negative,
   *         both N are zero or the normal is not a unit vector (to 1e-8)
   */
  ApproachVelocityRemoval remove_approach_velocity(double N_a, double N_b, double m_a,
                                                   double m_b, const Tensor<1, 2> &v_a,
                                                   const Tensor<1, 2> &v_b,
                                                   const Tensor<1, 2> &normal,
                                                   const Tensor<1, 2> &obstacle_velocity,
                                                   double obstacle_inverse_mass);
} // namespace granular::contact
