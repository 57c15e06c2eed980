#pragma once
/**
 * @file newton_solver.h
 * The nonlinear and linear solvers of the rubber block (docs/methods.md §3.6): Newton-Raphson with
 * a backtracking line search on |r| and a half step against the 2-cycles of the non-smooth
 * contact laws, and the linear solver of its steps (GMRES preconditioned by a stale
 * SuiteSparse KLU factorization of an earlier tangent). Both work on a NewtonSystem, which the
 * block implements.
 *
 * Units: mm, s, N (per mm thickness).
 */
#include "fem/block_parameters.h"
#include "fem/rubber_block.h"
#include "fem/sparse_lu.h"

#include <deal.II/lac/affine_constraints.h>
#include <deal.II/lac/sparse_matrix.h>
#include <deal.II/lac/sparsity_pattern.h>
#include <deal.II/lac/vector.h>

#include <limits>
#include <vector>

namespace dealii { class TimerOutput; }

namespace granular::fem
{
  /**
   * The discrete nonlinear system r(x) = 0 that NewtonSolver solves: x holds the FE
   * displacements (n_fe_dofs() entries) followed by any further unknowns (a movable
   * obstacle's), n_unknowns() in all.
   */
  class NewtonSystem
  {
  public:
    virtual ~NewtonSystem() = default;
    /// Number of unknowns (the size of the residual and of the increment).
    virtual unsigned int n_unknowns() const = 0;
    /// Number of FE displacement unknowns (the first ones).
    virtual unsigned int n_fe_dofs() const = 0;
    /// Residual r (N per mm thickness) at the current iterate and, if @p with_matrix, the
    /// tangent dr/dx into matrix(). Throws NewtonFailure at an inadmissible iterate (an
    /// inverted element).
    virtual void assemble(dealii::Vector<double> &residual, bool with_matrix) = 0;
    /// The tangent of the last assembly with the matrix.
    virtual const dealii::SparseMatrix<double> &matrix() const = 0;
    /// The homogeneous constraints of the increments.
    virtual const dealii::AffineConstraints<double> &increment_constraints() const = 0;
    /// x += s * increment.
    virtual void add_increment(double s, const dealii::Vector<double> &increment) = 0;
    /// Returns the FE displacements to the last converged state (after a failure).
    virtual void reset_to_converged() = 0;
  };

  /**
   * Solves K du = rhs with the exact Newton tangent K. The LU factorization of an earlier
   * tangent (SuiteSparse KLU with numeric refactorization, fem::SparseLU) preconditions
   * GMRES: between Newton iterations and steps the tangent
   * changes by few contact-point switches (a low-rank change), so GMRES converges in a
   * few iterations and the costly factorization is only redone when it does not (or when
   * there is none yet), and after a solve that needed more than half of the allowed
   * GMRES iterations.
   */
  class StaleFactorizationSolver
  {
  public:
    /// For matrices of pattern @p sparsity (kept by reference); drops the factorization.
    /// @p preconditioned_iterations: GMRES iterations allowed with the stale factorization
    /// before the tangent is factorized (Solver/Preconditioned GMRES iterations; 0: a
    /// factorization at every solve); a solve that needed more than half of them refreshes
    /// the factorization at the next solve.
    /// @p refresh_by_cost: refresh the factorization when the GMRES iterations
    /// since the last one have cost as many floating-point operations as a factorization
    /// (each iteration a KLU solve and a product with the tangent), instead of after a solve
    /// that needed more than half of the allowed iterations.
    void reinit(const dealii::SparsityPattern &sparsity,
                unsigned int preconditioned_iterations = 8, bool refresh_by_cost = false);
    /// Solves @p K @p du = @p rhs and distributes @p constraints to @p du.
    void solve(const dealii::SparseMatrix<double> &K,
               const dealii::AffineConstraints<double> &constraints,
               const dealii::Vector<double> &rhs, dealii::Vector<double> &du);
    /// Time the sections "factorization" and "solve" in @p timer (nullptr: none).
    void set_timer(dealii::TimerOutput *t) { timer = t; }

    unsigned long factorizations() const { return n_factorizations; }
    unsigned long preconditioned_solves() const { return n_preconditioned_solves; }
    /// Floating-point operations of one factorization of the tangent with the pivots of the
    /// last full one (SparseLU::factorization_flops(); 0 before the first): the LU's cost
    /// per factorization, which does not depend on the machine.
    double factorization_flops() const { return klu.factorization_flops(); }

    /// @name Checkpoint/restart: the statistics, the refactorization state and the
    /// factorized matrix, which load() factorizes again (KLU is deterministic, so a
    /// restarted run continues bit for bit). Throws std::runtime_error on load if the
    /// saved matrix does not fit the sparsity pattern.
    /// @{
    void save(boost::archive::binary_oarchive &archive) const;
    void load(boost::archive::binary_iarchive &archive);
    /// @}

  private:
    /// factorizes factorized_matrix (a refactorization if the pivots of the last full
    /// factorization serve, @p full_pivoting forces a new search)
    void factorize(bool full_pivoting);
    /// x = LU^{-1} b
    void apply_factorization(dealii::Vector<double> &x, const dealii::Vector<double> &b) const;

    unsigned int                max_preconditioned_iterations = 8;
    bool                        refresh_by_cost = false;
    /// floating-point operations of the GMRES iterations since the last factorization
    double                      iteration_flops = 0.;
    SparseLU                    klu;
    /// the matrix the LU factorized (kept so a checkpoint can rebuild the same
    /// factorization: the stale factorization preconditions later solves), and the matrix of its last full factorization (whose pivots the refactorizations keep)
    dealii::SparseMatrix<double> factorized_matrix, pivoted_matrix;
    bool                         last_was_full = true;
    bool                         has_factorization = false, refactorize_next = false;
    unsigned long                n_factorizations = 0, n_preconditioned_solves = 0;
    dealii::TimerOutput         *timer = nullptr;
  };

  /**
   * Newton-Raphson with a backtracking line search on |r| (docs/methods.md §3.6); see solve().
   */
  class NewtonSolver
  {
  public:
    /**
     * @param solver          iteration limit and tolerances
     * @param length_scale    length (mm) that makes the increment norm relative (H0)
     * @param reference_force force (N/mm) that makes the residual norm relative
     * @param verbose         print one convergence line per Newton iteration
     */
    NewtonSolver(const SolverParameters &solver, double length_scale,
                 double reference_force, bool verbose);

    /**
     * Solves @p system from its current iterate (the predictor) in at most
     * @p max_iterations Newton iterations (0: Solver/Maximum Newton iterations; the
     * adaptive time step gives its long steps fewer, so that a stalling long step is cut
     * back early). Returns the iterations and the relative residual norms (StepStatistics
     * without the contact counts). Throws NewtonFailure after reset_to_converged() if it
     * does not converge in time, stalls, its line search makes Solver/Line search give-up
     * shorter trials without lowering |r| (when that is > 0), or the first iterate is
     * inadmissible.
     */
    StepStatistics solve(NewtonSystem &system, unsigned int max_iterations = 0);

    StaleFactorizationSolver &linear_solver() { return linear; }
    const StaleFactorizationSolver &linear_solver() const { return linear; }

    /// assemblies so far (line-search trials and the tangents after shorter trials)
    unsigned long assemblies() const { return n_assemblies; }
    /// of these, the residual-only trials of steps shorter than the Newton step
    unsigned long line_search_assemblies() const { return n_line_search_assemblies; }
    /// of these, the assemblies (of any kind) in attempts that failed
    unsigned long failed_assemblies() const { return n_failed_assemblies; }
    /// Newton iterations spent in attempts that failed
    unsigned long failed_iterations() const { return n_failed_iterations; }
    /// |r|/F_ref at the iterates of the last attempt that failed (StepStatistics'
    /// residual_norms of an attempt that converged)
    const std::vector<double> &failed_attempt_norms() const { return failed_norms; }

    /// @name Checkpoint/restart: the statistics and the linear solver
    /// @{
    void save(boost::archive::binary_oarchive &archive) const;
    void load(boost::archive::binary_iarchive &archive);
    /// @}

  private:
    /// The line search's state at the current iterate.
    struct Iterate
    {
      double       alpha          = 1.; ///< length of the current trial step
      double       previous_norm  = std::numeric_limits<double>::max(); ///< |r|/F before it
      double       last_increment = std::numeric_limits<double>::max(); ///< |du|/H0 to it
      unsigned int backtracks     = 0;  ///< shorter trials so far
    };
    /// Sets up the next shorter trial of the line search if the trial at @p x (residual
    /// norm @p r_norm) raised |r| and trials are left; false if the trial is accepted.
    bool backtrack(NewtonSystem &system, const dealii::Vector<double> &increment,
                   double r_norm, unsigned int it, Iterate &x) const;
    /// Whether |r| has not halved within Solver/Stall iterations iterations.
    bool stalls(const std::vector<double> &norms, double r_norm) const;
    /// Residual and the increment to the iterate below their tolerances, or the increment at
    /// round-off.
    bool converged(unsigned int it, double r_norm, double last_increment) const;
    /// Residual and the Newton correction @p correction at the iterate below their
    /// tolerances.
    bool next_correction_converged(unsigned int it, double r_norm,
                                   const dealii::Vector<double> &correction) const;
    /// Halves @p increment where Newton 2-cycles across a contact kink.
    void halve_in_two_cycle(const std::vector<double> &norms, double r_norm,
                            double last_increment, dealii::Vector<double> &increment) const;
    /// The verbose line of iteration @p it.
    void print_iteration(unsigned int it, double r_norm, double last_increment,
                         const dealii::Vector<double> &residual, unsigned int n_fe,
                         double force_scale) const;

    SolverParameters         solver;
    double                   length_scale, reference_force;
    bool                     verbose;
    StaleFactorizationSolver linear;
    unsigned long            n_assemblies = 0, n_failed_iterations = 0;
    unsigned long            n_line_search_assemblies = 0, n_failed_assemblies = 0;
    std::vector<double>      failed_norms;
  };
} // namespace granular::fem
