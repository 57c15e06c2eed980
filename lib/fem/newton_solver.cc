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

  StepStatistics NewtonSolver::solve(NewtonSystem &system)
  {
    const unsigned int n_fe = system.n_fe_dofs(), n_rigid = system.n_unknowns() - n_fe;
    Vector<double> residual(n_fe + n_rigid), increment(n_fe + n_rigid);
    const double   force_scale = std::max(reference_force, 1e-12);
    double         last_increment = std::numeric_limits<double>::max();
    StepStatistics stats;
    // Newton-Raphson with a backtracking line search on |r| (docs/methods.md §3.6): when a
    // full step increases the residual (typically many contact points switching between
    // stick and slip at once) or inverts an element, a shorter step is tried, at most
    // max_trials times and not shorter than 1/256; if |r| still has not decreased, the
    // shortest step is taken. The check reuses the next assembly, so an accepted full step
    // costs nothing extra. Only the full step's trial assembles the tangent with the
    // residual; the shorter trials assemble the residual only, and the tangent follows once
    // a trial is accepted and Newton goes on.
    // The first shorter trial halves the step; each later one minimises the quadratic
    // through phi(a) = |r(x + a du)|^2 at a = 0, where phi'(0) = -2 phi(0) along the Newton
    // direction, and at the rejected trial a, safeguarded to [a/10, a/2] (Dennis & Schnabel
    // 1996, §6.3.2). A step whose |r| has not halved in stall_window = Solver/Stall
    // iterations (0: never) stalls, typically across a contact kink that Newton cannot
    // resolve at this step length, and is given up, so that the caller cuts it back at once
    // (docs/performance.md#the-newton-solver-where-the-assemblies-go).
    constexpr unsigned int max_trials   = 8;
    const double           min_step     = std::ldexp(1., -static_cast<int>(max_trials));
    const unsigned int     stall_window = solver.stall_iterations;
    double       alpha = 1., previous_norm = std::numeric_limits<double>::max();
    unsigned int backtracks = 0;
    const unsigned long assemblies_before = n_assemblies;
    // an attempt that fails: its iterations and assemblies are counted as failed
    const auto fail = [&](const unsigned int iterations) {
      system.reset_to_converged();
      n_failed_iterations += iterations;
      n_failed_assemblies += n_assemblies - assemblies_before;
    };
    for (unsigned int it = 0; it <= solver.max_newton_iterations;)
      {
        double r_norm = std::numeric_limits<double>::infinity();
        // the full step is usually accepted, so it is assembled with the tangent; the
        // shorter trials of the line search are often rejected, so they assemble the
        // residual only, and the tangent follows once a trial is accepted.
        // Convergence test on the next correction: an iterate reached by a full step from
        // |r| below the square root of the Residual tolerance is, with Newton's quadratic
        // convergence, expected to be the last one; it is assembled without the tangent, and
        // its error is estimated by the simplified Newton correction with the tangent of
        // the iterate before (Deuflhard 2004, §2.1). Where that estimate is too large, the
        // tangent follows as after a line-search trial.
        const bool expect_last = it > 0 && backtracks == 0 &&
                                 previous_norm < std::sqrt(solver.residual_tolerance);
        const bool matrix_current = backtracks == 0 && !expect_last;
        try
          {
            ++n_assemblies;
            if (backtracks > 0)
              ++n_line_search_assemblies;
            system.assemble(residual, matrix_current);
            r_norm = residual.l2_norm() / force_scale;
          }
        catch (const NewtonFailure &)
          {
            // an inverted element in a trial iterate: backtrack like a rise of |r|
            if (it == 0 || backtracks >= max_trials || alpha <= min_step)
              {
                fail(it);
                throw;
              }
          }
        // only in the global phase: near convergence (|r|/F < 1e-6) the full
        // Newton step is always taken, and round-off noise must not trigger it
        if (it > 0 && r_norm > previous_norm && r_norm > 1e-6 && backtracks < max_trials &&
            alpha > min_step)
          {
            // the first shorter trial halves; the later ones follow the quadratic model
            double next = 0.5 * alpha;
            if (backtracks > 0 && std::isfinite(r_norm))
              {
                const double phi_0 = previous_norm * previous_norm, phi_a = r_norm * r_norm;
                const double curvature = (phi_a - phi_0 + 2. * phi_0 * alpha) / (alpha * alpha);
                next = std::clamp(curvature > 0. ? phi_0 / curvature : 0., 0.1 * alpha,
                                  0.5 * alpha);
              }
            next = std::max(next, min_step);
            system.add_increment(next - alpha, increment);
            alpha = next;
            ++backtracks;
            if (verbose)
              std::cout << "    line search: step length " << alpha << std::endl;
            continue;
          }
        stats.residual_norms.push_back(r_norm);
        // a stalling attempt is cut back (see above)
        const auto &norms_so_far = stats.residual_norms;
        if (stall_window > 0 && norms_so_far.size() > stall_window && r_norm > 1e-6 &&
            r_norm > 0.5 * norms_so_far[norms_so_far.size() - 1 - stall_window])
          {
            fail(it);
            throw NewtonFailure("Newton-Raphson stalls: |r| has not halved in " +
                                std::to_string(stall_window) + " iterations");
          }
        if (verbose)
          std::cout << "    Newton " << std::setw(2) << it << "  |r|/F = " << std::scientific
                    << std::setprecision(3) << r_norm << "  |du|/H0 = "
                    << (it == 0 ? 0. : last_increment) << std::defaultfloat;
        if (verbose)
          {
            // the obstacle's (particle's) share of the residual
            double r_q = 0.;
            for (unsigned int j = n_fe; j < residual.size(); ++j)
              r_q += residual[j] * residual[j];
            if (n_rigid > 0)
              std::cout << "  |r_q|/F = " << std::sqrt(r_q) / force_scale;
            std::cout << std::endl;
          }
        // converged: residual and increment below tolerance, or the increment at
        // round-off level (then the residual sits on its round-off floor, which
        // large penalties can lift above the tolerance)
        const bool at_round_off = last_increment < 1e3 * std::numeric_limits<double>::epsilon();
        if (it > 0 && ((r_norm < solver.residual_tolerance &&
                        last_increment < solver.increment_tolerance) ||
                       at_round_off))
          {
            stats.newton_iterations = it;
            return stats;
          }
        if (it == solver.max_newton_iterations)
          break;
        // the correction at this iterate (computed into increment from -residual) estimates
        // the iterate's error (Deuflhard 2004, §2.1)
        const auto next_correction_converged = [&]() {
          return it > 0 &&
                 r_norm < solver.residual_tolerance &&
                 increment.l2_norm() / length_scale < solver.increment_tolerance;
        };
        if (expect_last && r_norm < solver.residual_tolerance)
          {
            // the simplified correction, with the tangent of the iterate before; the
            // residual is assembled again below if the step goes on
            residual *= -1.;
            linear.solve(system.matrix(), system.increment_constraints(), residual, increment);
            if (next_correction_converged())
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
        // With the residual below its tolerance as well the iterate is the solution and the
        // correction is not applied, so the step ends without the assembly that would test
        // the next iterate. It counts as an iteration (a correction computed). (Where the
        // residual is what binds, the test above ends the step first.)
        if (next_correction_converged())
          {
            stats.newton_iterations = it + 1;
            return stats;
          }
        // 2-cycle of the non-smooth contact laws (stick/slip, contact onset): the
        // residual returns to its value of two iterations ago and the step has the same
        // length as the last one, i.e. Newton jumps back and forth across a kink. Then
        // the step is halved, which lands between the two iterates.
        const auto  &norms     = stats.residual_norms;
        const double step_norm = increment.l2_norm() / length_scale;
        if (norms.size() >= 3 && r_norm > solver.residual_tolerance &&
            std::abs(r_norm - norms[norms.size() - 3]) < 0.05 * r_norm &&
            std::abs(step_norm - last_increment) < 0.05 * step_norm)
          {
            increment *= 0.5;
            if (verbose)
              std::cout << "    2-cycle: half step" << std::endl;
          }
        system.add_increment(1., increment);
        alpha          = 1.;
        backtracks     = 0;
        previous_norm  = r_norm;
        last_increment = increment.l2_norm() / length_scale;
        ++it;
        if (!std::isfinite(last_increment))
          break;
      }
    fail(solver.max_newton_iterations);
    throw NewtonFailure("Newton-Raphson did not converge in " +
                        std::to_string(solver.max_newton_iterations) + " iterations");
  }
} // namespace granular::fem
