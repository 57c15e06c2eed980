#pragma once
/**
 * @file rubber_block_impl.h
 * The private implementation of RubberBlock (include only from lib/fem's rubber_block*.cc
 * and block_*.cc): the mesh, the constraints, the contact points, the state and the
 * assembly of the global system. The element kernel is fem/q1p0_element.h, the solvers
 * fem/newton_solver.h, the quadrature-point history fem/quadrature_point_history.h.
 * Definitions: rubber_block.cc (set-up, assembly, steps, the public methods' glue),
 * block_output.cc (post-processing of the committed state), block_checkpoint.cc.
 *
 * Units: mm, s, N (per mm thickness), t, MPa.
 */
#include "fem/rubber_block.h"

#include "fem/newton_solver.h"
#include "fem/q1p0_element.h"
#include "fem/quadrature_point_history.h"

#include "contact/rubber_surface_contact.h"
#include "material/maxwell_branch.h"
#include "material/ogden_material.h"

#include <deal.II/dofs/dof_handler.h>
#include <deal.II/fe/fe_q.h>
#include <deal.II/fe/fe_system.h>
#include <deal.II/grid/tria.h>
#include <deal.II/lac/affine_constraints.h>
#include <deal.II/lac/sparse_matrix.h>
#include <deal.II/lac/sparsity_pattern.h>
#include <deal.II/lac/vector.h>

#include <array>
#include <exception>
#include <utility>
#include <vector>

namespace granular::fem
{
  /// A bottom-face contact Gauss point: the 4 dofs of the face and shape values.
  struct ContactPointData
  {
    std::array<dealii::types::global_dof_index, 4> dofs; // (a,x) (a,y) (b,x) (b,y)
    double                                         N_a, N_b;
  };

  /// One cell's share of the global system, from the threaded cell loop of the assembly to
  /// the in-order sum: its internal force (without inertia), its residual and tangent with
  /// inertia and its dofs, or the exception its evaluation threw.
  struct CellContribution
  {
    Q1P0CellResponse                                      response;
    std::array<double, q1p0::dofs_per_cell>               internal_force;
    std::vector<dealii::types::global_dof_index>          dofs =
      std::vector<dealii::types::global_dof_index>(q1p0::dofs_per_cell);
    std::exception_ptr failure;           ///< what the cell's evaluation threw
  };

  struct RubberBlock::Impl : NewtonSystem
  {
    /// cells per task of the threaded cell loop (about 20 tasks on the default 40 x 15 mesh)
    static constexpr unsigned int cell_grain_size = 32;
    BlockParameters                  block;
    PenaltyContactParameters         surface;
    SolverParameters                 solver;
    material::OgdenMaterial          ogden;
    material::MaxwellBranch          maxwell;     ///< inactive when mu_v = 0
    material::VolumetricEnergy       volumetric;
    double                           density;
    double                           reference_force;
    bool                             verbose;

    dealii::Triangulation<2>  triangulation;
    dealii::FESystem<2>       fe{dealii::FE_Q<2>(1), 2};
    dealii::DoFHandler<2>     dof_handler;
    dealii::AffineConstraints<double> constraints; // homogeneous: Newton increments
    dealii::SparsityPattern   sparsity;
    dealii::SparseMatrix<double> system_matrix;
    /// Newton-Raphson and its linear solver (fem/newton_solver.h)
    NewtonSolver              newton;

    std::vector<CellReferenceData>                cells;
    /// indices into cells of the cells with a face on the bottom boundary (the boundary
    /// layer that slides on the surface), ascending
    std::vector<unsigned int>                     bottom_cells;
    std::vector<ContactPoint>                     contact_points;
    std::vector<ContactPointData>                 contact_data;
    std::vector<dealii::types::global_dof_index>  top_x_dofs;
    dealii::types::global_dof_index               platen_dof = 0;
    std::vector<dealii::types::global_dof_index>  top_y_dofs;
    /// (left, right) vertex dofs (x, y) of each periodic pair
    std::vector<std::pair<std::array<dealii::types::global_dof_index, 2>,
                          std::array<dealii::types::global_dof_index, 2>>> periodic_vertices;

    // state: converged (n) and current (n+1)
    dealii::Vector<double> u_n, v_n, a_n, u, v, a;
    dealii::Vector<double> internal_force;  // unconstrained assembly of f_int (for F_N, F_T)
    double         h = 0.;
    double         platen_load = 0.;            ///< of the step being solved (N/mm)
    double         last_step = 0.;              ///< size of the last committed step
    dealii::Vector<double> last_increment_vector; ///< u_n - u_{n-1}
    /// solves left that start from the damped predictor (Solver/Damped predictor steps)
    unsigned int           damped_predictor_left = 0;
    std::vector<contact::SurfaceContactHistory>  surface_history;
    std::vector<contact::SurfaceContactResponse> surface_trial;
    std::vector<double> cell_pressure, cell_dilatation;
    /// the cells' contributions of the assembly in progress (reused storage)
    std::vector<CellContribution> cell_contributions;
    double friction_dissipation = 0.;
    double numerical_dissipation = 0.; ///< Newmark, BlockEnergies::numerical_dissipation
    /// BlockEnergies::velocity_update_dissipation (part of numerical_dissipation)
    double velocity_update_dissipation = 0.;
    double velocity_update_particle_work = 0.; ///< BlockEnergies::velocity_update_particle_work
    /// the energy ledger's works (BlockWork) and what they need of t_n: f_int, the
    /// contact tractions on the rubber per point and the platen load of the committed state
    BlockWork                 work;
    dealii::Vector<double>    internal_force_n;
    std::vector<dealii::Tensor<1, 2>> surface_traction_n, obstacle_traction,
      obstacle_traction_n;
    double                    platen_load_n = 0.;
    /// lumped mass per dof (t), for the platen's reaction f_int + M a
    dealii::Vector<double>    nodal_mass;
    /// Maxwell-branch history per quadrature point (empty without the branch)
    QuadraturePointHistory history;
    double              viscous_dissipation = 0.;

    BoundaryObstacle    *obstacle = nullptr;
    unsigned int         n_rigid  = 0; ///< obstacle->n_rigid_dofs(), appended after the FE dofs
    std::vector<double>  rigid_q;      ///< current iterate of the obstacle's unknowns
    dealii::TimerOutput *timer    = nullptr;

    Impl(const BlockParameters &block, const RubberParameters &rubber,
         const PenaltyContactParameters &surface, const SolverParameters &solver,
         double density, double bottom_height, double reference_force, bool verbose);

    /// The block's mesh: GridGenerator's rectangle, or the mesh file (checked).
    void make_mesh(double bottom_height);
    /// Dofs, constraints (platen, periodicity), cell reference data, contact points, state.
    void setup_system();
    /// Sparsity of the FE system, extended by the n_rigid unknowns of a movable obstacle,
    /// which couple with each other and with every bottom-boundary dof.
    void make_sparsity();
    void set_obstacle(BoundaryObstacle *o);

    /// The velocity update at the start of a step of length h (Solver/Rubber-particle
    /// velocity update, docs/methods.md §6.1): every contact point whose predictor
    /// x_n + h v_n lies inside the obstacle loses its normal velocity relative to it
    /// (contact::remove_approach_velocity(), the obstacle takes the opposite impulse); v_n of
    /// the face's nodes changes, and the kinetic energy taken is numerical dissipation.
    void remove_approach_velocities();

    /// Current position (mm) of contact point @p i for the displacement @p disp.
    dealii::Tensor<1, 2> point_position(unsigned int i, const dealii::Vector<double> &disp) const
    {
      const ContactPointData &c = contact_data[i];
      dealii::Tensor<1, 2>    x = contact_points[i].reference_position;
      x[0] += c.N_a * disp[c.dofs[0]] + c.N_b * disp[c.dofs[2]];
      x[1] += c.N_a * disp[c.dofs[1]] + c.N_b * disp[c.dofs[3]];
      return x;
    }

    /// Newmark's kinematics: a_{n+1}, v_{n+1} from u_{n+1} (solver.newmark_beta, _gamma).
    void newmark_update();
    /// Assembles the tangent and the residual r = f_int + M a - f_contact - f_ext at u.
    /// The cells on MultithreadInfo::n_threads() threads, added in their order: bit for bit
    /// the system of one thread. Throws NewtonFailure if an element inverts (that of the
    /// first failing cell, as on one thread).
    void assemble(dealii::Vector<double> &residual, double platen_load, bool with_matrix);
    /// The cells' internal and inertial forces (and tangents), threaded, added in order.
    void assemble_cells(dealii::Vector<double> &residual, bool with_matrix);
    /// The rubber-surface and obstacle tractions at the bottom contact points, with the
    /// obstacle's coupling blocks.
    void assemble_boundary_contact(dealii::Vector<double> &residual, bool with_matrix);
    /// The obstacle's own residual and tangent (its n_rigid unknowns after the FE dofs).
    void assemble_rigid_unknowns(dealii::Vector<double> &residual, bool with_matrix);
    /// A local residual (and with @p with_matrix its tangent) into the global system.
    void distribute(const dealii::FullMatrix<double> &k, const dealii::Vector<double> &r,
                    const std::vector<dealii::types::global_dof_index> &local_dofs,
                    dealii::Vector<double> &residual, bool with_matrix);
    StepStatistics solve_step(double step, double platen_u1, double load,
                              unsigned int max_iterations);
    void commit_step();
    /// After a converged solve: NewtonFailure if a contact point may have passed through
    /// the obstacle within the step (BoundaryObstacle::may_pass_through()), so that the
    /// step is cut back.
    void reject_tunnelling() const;

    /// @name NewtonSystem
    /// @{
    unsigned int n_unknowns() const override { return u.size() + n_rigid; }
    unsigned int n_fe_dofs() const override { return u.size(); }
    void assemble(dealii::Vector<double> &residual, bool with_matrix) override
    {
      assemble(residual, platen_load, with_matrix);
    }
    const dealii::SparseMatrix<double> &matrix() const override { return system_matrix; }
    const dealii::AffineConstraints<double> &increment_constraints() const override
    {
      return constraints;
    }
    void reset_to_converged() override { u = u_n; }
    /// x += s * increment for the FE dofs and the obstacle's unknowns.
    void add_increment(const double s, const dealii::Vector<double> &increment) override
    {
      for (unsigned int i = 0; i < u.size(); ++i)
        u[i] += s * increment[i];
      for (unsigned int j = 0; j < n_rigid; ++j)
        rigid_q[j] += s * increment[u.size() + j];
    }
    /// @}
  };
} // namespace granular::fem
