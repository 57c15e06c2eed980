#include "fem/newton_solver.h"

#include "base/boundary_obstacle.h"

#include <deal.II/base/timer.h>
#include <deal.II/lac/solver_control.h>
#include <deal.II/lac/solver_gmres.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <limits>
#include <optional>
#include <string>

namespace granular::fem
{
  using namespace dealii;

  void StaleFactorizationSolver::reinit(const SparsityPattern &sparsity,
                                        const unsigned int preconditioned_iterations,
                                        const bool         by_cost)
  {
    max_preconditioned_iterations = preconditioned_iterations;
    refresh_by_cost               = by_cost;
    iteration_flops               = 0.;
    factorized_matrix.reinit(sparsity);
    has_factorization = false;
    pivoted_matrix.reinit(sparsity);
    klu.analyze(sparsity);
  }

  void StaleFactorizationSolver::factorize(const bool full_pivoting)
  {
    const unsigned long full_before = klu.full_factorizations();
    klu.factorize(factorized_matrix, full_pivoting);
    last_was_full = klu.full_factorizations() > full_before;
    if (last_was_full)
      pivoted_matrix.copy_from(factorized_matrix);
  }

  void StaleFactorizationSolver::apply_factorization(Vector<double>       &x,
                                                     const Vector<double> &b) const
  {
    klu.vmult(x, b);
  }

  void StaleFactorizationSolver::solve(const SparseMatrix<double>      &system_matrix,
                                       const AffineConstraints<double> &constraints,
                                       const Vector<double> &rhs, Vector<double> &du)
  {
    if (has_factorization && !refactorize_next && max_preconditioned_iterations > 0)
      {
        std::optional<TimerOutput::Scope> scope;
        if (timer)
          scope.emplace(*timer, "solve");
        SolverControl control(max_preconditioned_iterations,
                              1e-10 * rhs.l2_norm(), false, false);
        SolverGMRES<Vector<double>> gmres(
          control, SolverGMRES<Vector<double>>::AdditionalData(
                     max_preconditioned_iterations + 2));
        try
          {
            du = 0.;
            gmres.solve(system_matrix, du, rhs, klu);
            constraints.distribute(du);
            ++n_preconditioned_solves;
            if (refresh_by_cost)
              {
                // refreshed once its iterations have cost a factorization
                iteration_flops += control.last_step() *
                                   (klu.solve_flops() + 2. * system_matrix.n_nonzero_elements());
                refactorize_next = iteration_flops >= klu.factorization_flops();
              }
            else // a preconditioner that needed many iterations is refreshed next time
              refactorize_next = control.last_step() > max_preconditioned_iterations / 2;
            return;
          }
        catch (const SolverControl::NoConvergence &)
          {
            // the tangent moved too far from the factorized one: refactorize
          }
      }
    {
      std::optional<TimerOutput::Scope> scope;
      if (timer)
        scope.emplace(*timer, "factorization");
      factorized_matrix.copy_from(system_matrix);
      factorize(false);
      has_factorization = true;
      refactorize_next  = false;
      iteration_flops   = 0.;
      ++n_factorizations;
    }
    std::optional<TimerOutput::Scope> scope;
    if (timer)
      scope.emplace(*timer, "solve");
    apply_factorization(du, rhs);
    constraints.distribute(du);
  }

  NewtonSolver::NewtonSolver(const SolverParameters &solver, const double length_scale,
                             const double reference_force, const bool verbose)
    : solver(solver)
    , length_scale(length_scale)
    , reference_force(reference_force)
    , verbose(verbose)
  {}

  namespace
  {
    /// Trials of the backtracking line search per Newton iteration; the shortest step 1/256.
    constexpr unsigned int max_trials = 8;
    const double           min_step   = std::ldexp(1., -static_cast<int>(max_trials));
  } // namespace

  bool NewtonSolver::backtrack(NewtonSystem &system, const Vector<double> &increment,
                               const double r_norm, const unsigned int it, Iterate &x) const
  {
    // only in the global phase: near convergence (|r|/F < 1e-6) the full Newton step is
    // always taken, and round-off noise must not trigger it
    if (!(it > 0 && r_norm > x.previous_norm && r_norm > 1e-6 && x.backtracks < max_trials &&
          x.alpha > min_step))
      return false;
    // the first shorter trial halves; the later ones minimise the quadratic through
    // phi(a) = |r(x + a du)|^2 at a = 0, where phi'(0) = -2 phi(0) along the Newton
    // direction, and at the rejected trial a, within [a/10, a/2] (Dennis & Schnabel 1996,
    // §6.3.2)
    double next = 0.5 * x.alpha;
    if (x.backtracks > 0 && std::isfinite(r_norm))
      {
        const double phi_0 = x.previous_norm * x.previous_norm, phi_a = r_norm * r_norm;
        const double curvature =
          (phi_a - phi_0 + 2. * phi_0 * x.alpha) / (x.alpha * x.alpha);
        next = std::clamp(curvature > 0. ? phi_0 / curvature : 0., 0.1 * x.alpha,
                          0.5 * x.alpha);
      }
    next = std::max(next, min_step);
    system.add_increment(next - x.alpha, increment);
    x.alpha = next;
    ++x.backtracks;
    if (verbose)
      std::cout << "    line search: step length " << x.alpha << std::endl;
    return true;
  }

  bool NewtonSolver::stalls(const std::vector<double> &norms, const double r_norm) const
  {
    const unsigned int window = solver.stall_iterations;
    return window > 0 && norms.size() > window && r_norm > 1e-6 &&
           r_norm > 0.5 * norms[norms.size() - 1 - window];
  }

  bool NewtonSolver::converged(const unsigned int it, const double r_norm,
                               const double last_increment) const
  {
    // residual and increment below tolerance, or the increment at round-off level (then
    // the residual sits on its round-off floor, which large penalties can lift above the
    // tolerance)
    const bool at_round_off = last_increment < 1e3 * std::numeric_limits<double>::epsilon();
    return it > 0 && ((r_norm < solver.residual_tolerance &&
                       last_increment < solver.increment_tolerance) ||
                      at_round_off);
  }

  bool NewtonSolver::next_correction_converged(const unsigned int it, const double r_norm,
                                               const Vector<double> &correction) const
  {
    // the correction at the iterate estimates the iterate's error (Deuflhard 2004, §2.1)
    return it > 0 && r_norm < solver.residual_tolerance &&
           correction.l2_norm() / length_scale < solver.increment_tolerance;
  }

  void NewtonSolver::print_iteration(const unsigned int it, const double r_norm,
                                     const double last_increment,
                                     const Vector<double> &residual,
                                     const unsigned int n_fe, const double force_scale) const
  {
    std::cout << "    Newton " << std::setw(2) << it << "  |r|/F = " << std::scientific
              << std::setprecision(3) << r_norm << "  |du|/H0 = "
              << (it == 0 ? 0. : last_increment) << std::defaultfloat;
    // the obstacle's (particle's) share of the residual
    double r_q = 0.;
    for (unsigned int j = n_fe; j < residual.size(); ++j)
      r_q += residual[j] * residual[j];
    if (residual.size() > n_fe)
      std::cout << "  |r_q|/F = " << std::sqrt(r_q) / force_scale;
    std::cout << std::endl;
  }

  void NewtonSolver::halve_in_two_cycle(const std::vector<double> &norms, const double r_norm,
                                        const double          last_increment,
                                        Vector<double>       &increment) const
  {
    // 2-cycle of the non-smooth contact laws (stick/slip, contact onset): the residual
    // returns to its value of two iterations ago with a step of the last one's length, i.e.
    // Newton jumps back and forth across a kink; the half step lands between
    const double step_norm = increment.l2_norm() / length_scale;
    if (norms.size() >= 3 && r_norm > solver.residual_tolerance &&
        std::abs(r_norm - norms[norms.size() - 3]) < 0.05 * r_norm &&
        std::abs(step_norm - last_increment) < 0.05 * step_norm)
      {
        increment *= 0.5;
        if (verbose)
          std::cout << "    2-cycle: half step" << std::endl;
      }
  }

  StepStatistics NewtonSolver::solve(NewtonSystem &system, unsigned int max_iterations)
  {
    // Newton-Raphson with a backtracking line search on |r| (docs/methods.md §3.6): backtrack()
    // on a rise of |r| or an inverted element, give up a step that stalls() or whose line
    // search finds no descent (Solver/Line search give-up; the caller cuts it back), end at
    // converged() or, one assembly earlier, at next_correction_converged().
    max_iterations = max_iterations > 0 ? max_iterations : solver.max_newton_iterations;
    const unsigned int n_fe = system.n_fe_dofs(), n_rigid = system.n_unknowns() - n_fe;
    Vector<double> residual(n_fe + n_rigid), increment(n_fe + n_rigid);
    const double   force_scale = std::max(reference_force, 1e-12);
    StepStatistics stats;
    Iterate        x;
    const unsigned long assemblies_before = n_assemblies;
    // an attempt that fails: its iterations and assemblies counted as failed, its norms kept
    const auto fail = [&](const unsigned int iterations) {
      system.reset_to_converged();
      failed_norms = stats.residual_norms;
      n_failed_iterations += iterations;
      n_failed_assemblies += n_assemblies - assemblies_before;
    };
    for (unsigned int it = 0; it <= max_iterations;)
      {
        double r_norm = std::numeric_limits<double>::infinity();
        // an iterate reached by a full step from |r| below the square root of the tolerance
        // is expected to be the last: assembled without the tangent, its error is estimated
        // with the tangent of the iterate before (Deuflhard 2004, §2.1)
        const bool expect_last = it > 0 && x.backtracks == 0 &&
                                 x.previous_norm < std::sqrt(solver.residual_tolerance);
        const bool matrix_current = x.backtracks == 0 && !expect_last;
        try
          {
            ++n_assemblies;
            if (x.backtracks > 0)
              ++n_line_search_assemblies;
            system.assemble(residual, matrix_current);
            r_norm = residual.l2_norm() / force_scale;
          }
        catch (const NewtonFailure &)
          {
            // an inverted element in a trial iterate: backtrack like a rise of |r|
            if (it == 0 || x.backtracks >= max_trials || x.alpha <= min_step)
              {
                fail(it);
                throw;
              }
          }
        if (backtrack(system, increment, r_norm, it, x))
          {
            // a step whose Newton direction does not lower |r| after that many trials
            // has no solution near the path: given up (Solver/Line search give-up)
            if (solver.line_search_give_up > 0 && x.backtracks > solver.line_search_give_up)
              {
                fail(it);
                throw NewtonFailure("the line search has not lowered |r| in " +
                                    std::to_string(solver.line_search_give_up) + " trials");
              }
            continue;
          }
        stats.residual_norms.push_back(r_norm);
        if (stalls(stats.residual_norms, r_norm))
          {
            fail(it);
            throw NewtonFailure("Newton-Raphson stalls: |r| has not halved in " +
                                std::to_string(solver.stall_iterations) + " iterations");
          }
        if (verbose)
          print_iteration(it, r_norm, x.last_increment, residual, n_fe, force_scale);
        if (converged(it, r_norm, x.last_increment))
          {
            stats.newton_iterations = it;
            return stats;
          }
        if (it == max_iterations)
          break;
        if (expect_last && r_norm < solver.residual_tolerance)
          {
            // the simplified correction; the residual is assembled again below if the step
            // goes on
            residual *= -1.;
            linear.solve(system.matrix(), system.increment_constraints(), residual, increment);
            if (next_correction_converged(it, r_norm, increment))
              {
                stats.newton_iterations = it + 1;
                return stats;
              }
          }
        if (!matrix_current)
          {
            ++n_assemblies;
            system.assemble(residual, true);
          }
        residual *= -1.;
        linear.solve(system.matrix(), system.increment_constraints(), residual, increment);
        // the iterate is the solution: the correction is not applied, and it counts as an
        // iteration (a correction computed)
        if (next_correction_converged(it, r_norm, increment))
          {
            stats.newton_iterations = it + 1;
            return stats;
          }
        halve_in_two_cycle(stats.residual_norms, r_norm, x.last_increment, increment);
        system.add_increment(1., increment);
        x = Iterate{1., r_norm, increment.l2_norm() / length_scale, 0};
        ++it;
        if (!std::isfinite(x.last_increment))
          break;
      }
    fail(max_iterations);
    throw NewtonFailure("Newton-Raphson did not converge in " +
                        std::to_string(max_iterations) + " iterations");
  }
} // namespace granular::fem
