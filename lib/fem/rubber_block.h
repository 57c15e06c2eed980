#pragma once
/**
 * @file rubber_block.h
 * The rubber block of the micromechanical test (docs/methods.md §2, §3.1, §3.2, §3.6, §6):
 * finite-strain plane-strain Q1P0 solid in a periodic cell, rigid top platen with one
 * shared vertical unknown, implicit Newmark dynamics, full Newton-Raphson, penalty
 * frictional contact of the bottom boundary with the rigid flat surface y = 0.
 *
 * Q1P0: Q1 displacement with element-constant pressure and dilatation. With
 * element-constant fields the three-field (Simo-Taylor-Pister) functional condenses
 * exactly to the mean-dilatation potential
 *   Pi(u) = sum_e [ int_e W_iso(F) dV + V_e U(v_e / V_e) ],
 * J~_e = v_e / V_e (current over reference element area), p~_e = U'(J~_e)
 * (Hughes 1980; Simo, Taylor & Pister 1985; step-44 condenses the same fields
 * numerically). Its residual and consistent tangent are assembled directly.
 * With a viscoelastic rubber the Maxwell branch (docs/methods.md §3.3-3.4) acts in parallel at
 * every quadrature point, with trial/converged history committed by commit_step().
 *
 * Units: mm, s, N (per mm thickness), t, MPa.
 */
#include "base/archive_fwd.h"
#include "base/boundary_obstacle.h"
#include "contact/contact_parameters.h"
#include "fem/block_parameters.h"
#include "material/rubber_parameters.h"

#include <deal.II/base/tensor.h>

#include <array>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace dealii { class TimerOutput; }

namespace granular::fem
{
  using dealii::Tensor;

  /// Forces on the top surface (docs/methods.md §2.2), N per mm thickness.
  struct PlatenForces
  {
    /// F_N: minus the sum of the vertical internal forces of the top nodes, i.e. the
    /// compressive force the block transmits (positive in compression)
    double normal     = 0.;
    /// F_T: sum of the horizontal internal forces of the top nodes, i.e. the force
    /// the platen exerts to drag the block (positive along +x)
    double tangential = 0.;
  };

  /// Accumulated energies and dissipation (N mm per mm thickness).
  struct BlockEnergies
  {
    double kinetic           = 0.; ///< 1/2 v.M v at the current state
    double stored            = 0.; ///< strain energy: W_iso + U + Maxwell-branch energy
    double surface_springs   = 0.; ///< energy in the rubber-surface penalty springs
    double surface_friction_dissipation = 0.; ///< accumulated since t = 0
    double viscous_dissipation = 0.;          ///< Maxwell branch, accumulated since t = 0
    /// Algorithmic (numerical) dissipation of the Newmark integrator, accumulated since
    /// t = 0: per step the trapezoidal work of the inertial forces minus the change of the
    /// kinetic energy, sum_i M_i [(a_n,i + a_n+1,i)/2 Delta u_i - (v_n+1,i^2 - v_n,i^2)/2]
    /// (lumped M). Identically zero for the trapezoidal rule (gamma = 1/2, beta = 1/4),
    /// where Delta u = h (v_n + v_n+1)/2 and Delta v = h (a_n + a_n+1)/2; for
    /// gamma > 1/2 it is the energy the integrator removes from the high
    /// frequencies (Hughes 2000, §9.3; Krenk 2006, "Energy conservation in Newmark based
    /// time integration algorithms", CMAME 195). Not a physical dissipation: it is not part
    /// of kbar_F or kbar_V (docs/methods.md §3.6).
    double numerical_dissipation = 0.;
    /// What the velocity update at the step starts took (Solver/Rubber-particle velocity
    /// update, docs/methods.md §6.1), accumulated since t = 0: the kinetic energy its impulses
    /// removed from the rubber, which is part of numerical_dissipation, and from the
    /// particles, part of theirs (coupling::MonolithicParticle::numerical_dissipation()).
    double velocity_update_dissipation = 0.;
    /// The work of the velocity update's impulses on the particles, accumulated since t = 0
    /// (N mm/mm): part of the particles' external work (dem::Particle::apply_impulse()), but
    /// no contact force's, so the energy ledger takes it out of the rubber-particle
    /// contact's work (coupling::EnergyLedger).
    double velocity_update_particle_work = 0.;
  };

  /**
   * The trapezoidal work of the forces acting on the rubber's nodes, accumulated over the
   * committed steps since t = 0 (cut-back sub-steps each on their own), the rubber's half of
   * the energy ledger (docs/methods.md §2.2): per step W = (f_n + f_{n+1})/2 . (u_{n+1} - u_n)
   * with f the force ON the nodes. With the equations of motion holding at t_n and t_{n+1},
   * bulk + surface + obstacle + platen = Delta kinetic + Newmark's algorithmic dissipation
   * (up to the Newton tolerance). N mm per mm thickness.
   */
  struct BlockWork
  {
    double bulk     = 0.; ///< of the element forces -f_int (Ogden, volumetric, Maxwell)
    double surface  = 0.; ///< of the rubber-surface contact tractions
    double obstacle = 0.; ///< of the obstacle's (particle's) tractions on the rubber
    /// of the platen: the reaction of the prescribed top dofs (their f_int + M a) and the
    /// vertical load on the platen's shared unknown
    double platen = 0.;
  };

  /**
   * Distribution of the rate of deformation and of the Payne factor over the boundary
   * layer: the quadrature points of the cells with a face on the bottom boundary (the
   * bottom row of a structured mesh), in the committed state (docs/methods.md §3.4).
   */
  struct BoundaryLayerRates
  {
    /// ‖D‖ (1/s), Frobenius norm of the step's rate of deformation at the points: the
    /// largest, the 99th and the 50th percentile (nearest rank)
    double rate_max = 0., rate_p99 = 0., rate_p50 = 0.;
    /// H = 1 + d q (dimensionless), the factor that divides the viscosity: the same
    /// statistics
    double payne_factor_max = 1., payne_factor_p99 = 1., payne_factor_p50 = 1.;
  };

  /// What a time step did.
  struct StepStatistics
  {
    unsigned int newton_iterations = 0;
    std::vector<double> residual_norms; ///< |r|/F_ref before each Newton solve and at the end
    unsigned int contact_points_in_contact = 0;
    unsigned int contact_points_slipping   = 0;
  };

  /// The FEM half of the product; see the file comment.
  class RubberBlock
  {
  public:
    /**
     * @param block        geometry and mesh (mm)
     * @param rubber       material (MPa): the Ogden elastic branch, U(J), and the
     *                     Maxwell branch when Rubber/Maxwell branch/Viscoelastic is on
     * @param surface      rubber-surface penalties (MPa/mm) and k_o
     * @param solver       Newmark and Newton controls
     * @param density      rho_B (t/mm^3)
     * @param bottom_height y_b (mm): the block's bottom before loading
     * @param reference_force force scale for the residual test (N/mm), e.g. p L0
     * @param verbose      print one convergence line per Newton iteration
     * Throws std::runtime_error if a mesh file cannot be read or lacks the
     * boundary ids of meshes/README.
     */
    RubberBlock(const BlockParameters &block, const RubberParameters &rubber,
                const PenaltyContactParameters &surface,
                const SolverParameters &solver, double density,
                double bottom_height, double reference_force, bool verbose);
    ~RubberBlock();

    unsigned int n_dofs() const;
    unsigned int n_cells() const;
    /// The block's mass per unit thickness (t/mm): its lumped mass.
    double mass() const;
    const std::vector<ContactPoint> &contact_points() const;

    /// Optional second obstacle at the contact points (nullptr: none). Not owned. A movable
    /// obstacle (n_rigid_dofs() > 0) extends the Newton system by its unknowns.
    void set_obstacle(BoundaryObstacle *obstacle);

    /**
     * Solves t_n -> t_n + h: top nodes moved horizontally to @p platen_u1 (mm),
     * vertical load @p platen_load (N/mm, pushing down) on the shared vertical unknown, in
     * at most @p max_iterations Newton iterations (0: Solver/Maximum Newton iterations).
     * Does not commit. Throws NewtonFailure (state stays at t_n).
     */
    StepStatistics solve_step(double h, double platen_u1, double platen_load,
                              unsigned int max_iterations = 0);
    /// Accepts the last solved step (Newmark update, contact history, dissipation).
    void commit_step();

    /// F_N, F_T of the last solved (or committed) state.
    PlatenForces platen_forces() const;
    /// Common vertical displacement of the platen (mm).
    double platen_vertical_displacement() const;
    /// Current positions of the contact points (mm) of the committed state.
    std::vector<Tensor<1, 2>> contact_point_positions() const;
    /// The smallest and the largest x (mm) of the deformed block's nodes at t_n.
    std::array<double, 2> deformed_x_range() const;
    /// Nodal displacement of the reference vertex nearest to X (mm), for tests.
    Tensor<1, 2> displacement_at_vertex(const Tensor<1, 2> &X) const;
    /// Pairs of (left, right) boundary vertex displacements (periodicity check).
    std::vector<std::pair<Tensor<1, 2>, Tensor<1, 2>>> periodic_vertex_pairs() const;
    BlockEnergies energies() const;
    /// The work of the forces on the rubber since t = 0 (see BlockWork).
    BlockWork work() const;
    /// Cell-averaged Cauchy stress (xx, yy, xy, zz) per cell (MPa), committed state.
    std::vector<std::array<double, 4>> cell_cauchy_stress() const;
    /// Element pressure p~ = U'(J~) per cell (MPa).
    std::vector<double> cell_pressure() const;
    /// True if the rubber has a Maxwell branch (then boundary_layer_rates() has data).
    bool viscoelastic() const;
    /// ‖D‖ and H = 1 + d q over the boundary layer after the last committed step (see
    /// BoundaryLayerRates); all rates 0 and factors 1 without a Maxwell branch.
    BoundaryLayerRates boundary_layer_rates() const;

    /**
     * Writes @p directory/solution-NNNNN.vtu (deformed mesh via MappingQEulerian:
     * displacement, pressure, Cauchy stress components, principal stresses with
     * tau2 = principal_stress_2, von Mises) atomically. Returns the file name.
     */
    std::string write_vtu(const std::string &directory, unsigned int index) const;

    /// @name Verification (tests): the discrete system at an arbitrary state
    /// @{
    /// Constrained residual r(u) and its consistent tangent dr/du (dense, n_dofs x n_dofs)
    /// at displacement @p u (mm), for a step of size @p h from the last committed state
    /// with platen load @p platen_load (N/mm). Rows/columns of constrained dofs carry the
    /// condensation of deal.II's AffineConstraints. Contact is evaluated as a trial.
    /// With a movable obstacle, @p u has n_dofs() + n_rigid_dofs() entries: the obstacle's
    /// unknowns q follow the displacements, and r and dr/du are extended accordingly.
    void residual_and_tangent(const std::vector<double> &u, double h, double platen_load,
                              std::vector<double>              &residual,
                              std::vector<std::vector<double>> &tangent);
    /// Makes @p u satisfy the homogeneous constraints (periodicity, common platen u2).
    void distribute_constraints(std::vector<double> &u) const;
    /// true for dofs that are constrained (slaves and prescribed platen u1).
    std::vector<bool> constrained_dofs() const;
    /// Reference position X (mm) and component (0: x, 1: y) of every FE dof, to build
    /// displacement fields u(X) for residual_and_tangent().
    std::vector<std::pair<Tensor<1, 2>, unsigned int>> dof_reference_positions() const;
    /// @}

    /// Cost of the solves so far: KLU factorizations, stale-factorization-preconditioned
    /// GMRES solves, assemblies and the Newton iterations of failed attempts.
    struct LinearSolverStatistics
    {
      unsigned long factorizations = 0, preconditioned_solves = 0;
      /// assemblies in solve_step(): line-search trials (the shorter ones residual-only) and
      /// the tangent assembled after an accepted shorter trial
      unsigned long assemblies = 0;
      /// Newton iterations spent in attempts that failed (and were cut back)
      unsigned long failed_newton_iterations = 0;
      /// of the assemblies: the residual-only line-search trials of steps shorter than the
      /// Newton step, and those (of any kind) in attempts that failed
      unsigned long line_search_assemblies = 0, failed_assemblies = 0;
      /// floating-point operations of one factorization with the current pivots (KLU's
      /// count; 0 before the first)
      double factorization_flops = 0.;
    };
    LinearSolverStatistics linear_solver_statistics() const;
    /// |r|/F_ref (relative residual norms) at the iterates of the last solve_step() that
    /// threw NewtonFailure.
    const std::vector<double> &failed_attempt_residual_norms() const;

    /// Time the sections "assembly", "factorization", "solve" in @p timer (not owned;
    /// nullptr: no timing).
    void set_timer(dealii::TimerOutput *timer);

    /// @name Checkpoint/restart
    /// @{
    /// Writes the committed state (u_n, v_n, a_n, the predictor's last increment, the
    /// rubber-surface contact histories, the Maxwell-branch histories, the accumulated
    /// dissipation, the solver statistics, and the matrix of the current KLU
    /// factorization, which later solves reuse as a GMRES preconditioner) to @p archive.
    /// Writing does not change the run.
    void save_state(boost::archive::binary_oarchive &archive) const;
    /// Reads what save_state() wrote into a block built from the same parameters and
    /// refactorizes the saved matrix, so that the run continues bit for bit like the one
    /// that wrote the state.
    /// Throws std::runtime_error if the saved state has a different number of dofs, contact
    /// points or quadrature points (a different mesh).
    void load_state(boost::archive::binary_iarchive &archive);
    /// @}

  private:
    struct Impl;
    std::unique_ptr<Impl> impl;
  };
} // namespace granular::fem
