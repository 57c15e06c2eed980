// The Newton-Raphson solver of the rubber block (fem::NewtonSolver, docs/methods.md §3.6) on
// small systems whose behaviour is known in closed form: the line search must globalise
// Newton where the full steps diverge, and a step on which Newton makes no progress must be
// given up early (and cut back by the caller) without leaving its iterate behind.
#include "fem/newton_solver.h"

#include "base/boundary_obstacle.h"

#include <deal.II/lac/dynamic_sparsity_pattern.h>
#include <deal.II/lac/full_matrix.h>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <tuple>
#include <vector>

namespace
{
  using dealii::Vector;

  /// r(x) given by a function and its Jacobian (dense, n x n) for NewtonSolver.
  class SmallSystem : public granular::fem::NewtonSystem
  {
  public:
    using Residual = std::function<void(const Vector<double> &x, Vector<double> &r,
                                        dealii::FullMatrix<double> &J)>;

    SmallSystem(const Vector<double> &x0, Residual f)
      : x(x0)
      , x_converged(x0)
      , f(std::move(f))
    {
      const unsigned int          n = x0.size();
      dealii::DynamicSparsityPattern dsp(n, n);
      for (unsigned int i = 0; i < n; ++i)
        for (unsigned int j = 0; j < n; ++j)
          dsp.add(i, j);
      pattern.copy_from(dsp);
      K.reinit(pattern);
      constraints.close();
    }

    unsigned int n_unknowns() const override { return x.size(); }
    unsigned int n_fe_dofs() const override { return x.size(); }
    void         assemble(Vector<double> &residual, bool with_matrix) override
    {
      dealii::FullMatrix<double> J(x.size(), x.size());
      residual.reinit(x.size());
      f(x, residual, J);
      if (with_matrix)
        for (unsigned int i = 0; i < x.size(); ++i)
          for (unsigned int j = 0; j < x.size(); ++j)
            K.set(i, j, J(i, j));
    }
    const dealii::SparseMatrix<double> &matrix() const override { return K; }
    const dealii::AffineConstraints<double> &increment_constraints() const override
    {
      return constraints;
    }
    void add_increment(double s, const Vector<double> &dx) override { x.add(s, dx); }
    void reset_to_converged() override { x = x_converged; }

    Vector<double>                    x, x_converged;
    dealii::SparsityPattern           pattern;
    dealii::SparseMatrix<double>      K;
    dealii::AffineConstraints<double> constraints;

  private:
    Residual f;
  };

  granular::SolverParameters tolerances()
  {
    granular::SolverParameters p;
    p.max_newton_iterations = 25;
    p.residual_tolerance    = 1e-10;
    p.increment_tolerance   = 1e-10;
    p.stall_iterations      = 5; // the parameter files' default
    return p;
  }

  /// r_i = atan(x_i): plain Newton, x <- x - (1 + x^2) atan(x), diverges from |x0| > 1.3917.
  void arctan(const Vector<double> &x, Vector<double> &r, dealii::FullMatrix<double> &J)
  {
    for (unsigned int i = 0; i < x.size(); ++i)
      {
        r[i]    = std::atan(x[i]);
        J(i, i) = 1. / (1. + x[i] * x[i]);
      }
  }
} // namespace

// Plain Newton on atan(x) = 0 from x0 = 3 jumps to -9.5, then to 124 and diverges; with the
// line search on |r| every accepted iterate lowers |r|, so it reaches the root x = 0, where
// the convergence is quadratic again.
TEST(NewtonSolver, TheLineSearchFindsTheRootWherePlainNewtonDiverges)
{
  // the divergence of the plain iteration, shown
  double plain = 3.;
  for (int k = 0; k < 4; ++k)
    plain -= (1. + plain * plain) * std::atan(plain);
  ASSERT_GT(std::abs(plain), 1e6);

  Vector<double> x0(2);
  x0[0] = 3.;
  x0[1] = -2.5;
  SmallSystem system(x0, arctan);
  auto        p      = tolerances();
  p.stall_iterations = 0; // |r| = |atan x| falls slowly while far from the root
  granular::fem::NewtonSolver newton(p, 1., 1., false);
  newton.linear_solver().reinit(system.pattern);
  const auto stats = newton.solve(system);
  EXPECT_LT(std::abs(system.x[0]), 1e-10);
  EXPECT_LT(std::abs(system.x[1]), 1e-10);
  EXPECT_GT(newton.line_search_assemblies(), 0u);
  // every accepted iterate lowers |r| in the global phase
  for (std::size_t k = 1; k < stats.residual_norms.size(); ++k)
    if (stats.residual_norms[k - 1] > 1e-6)
      EXPECT_LT(stats.residual_norms[k], stats.residual_norms[k - 1]) << "iterate " << k;
  EXPECT_EQ(newton.failed_iterations(), 0u);
}

// A step whose Newton direction does not lower |r| (here the tangent has the wrong sign, as
// at a contact kink that Newton cannot resolve) is given up once |r| has not halved in 5
// iterations: NewtonFailure, the iterate back at the converged state, and 5 iterations (not
// Solver/Maximum Newton iterations = 25) counted as failed with all their assemblies.
TEST(NewtonSolver, AStallingStepIsGivenUpEarlyAndLeavesNoIterate)
{
  Vector<double> x0(1);
  x0[0] = 0.5;
  SmallSystem system(x0, [](const Vector<double> &x, Vector<double> &r,
                            dealii::FullMatrix<double> &J) {
    r[0]    = x[0] + 0.1 * x[0] * x[0] * x[0];
    J(0, 0) = -(1. + 0.3 * x[0] * x[0]); // an ascent direction
  });
  granular::fem::NewtonSolver newton(tolerances(), 1., 1., false);
  newton.linear_solver().reinit(system.pattern);
  EXPECT_THROW(newton.solve(system), granular::NewtonFailure);
  EXPECT_EQ(system.x[0], 0.5);
  EXPECT_EQ(newton.failed_iterations(), 5u);
  EXPECT_EQ(newton.failed_assemblies(), newton.assemblies());
  // each iteration: the full step, at most 8 shorter trials, the tangent after the last one
  EXPECT_LE(newton.assemblies(), 1u + 5u * 10u);
  EXPECT_GT(newton.line_search_assemblies(), 0u);

  // without the stall test (Solver/Stall iterations = 0) the step uses up all 25
  auto p             = tolerances();
  p.stall_iterations = 0;
  system.x[0]        = 0.5;
  granular::fem::NewtonSolver patient(p, 1., 1., false);
  patient.linear_solver().reinit(system.pattern);
  EXPECT_THROW(patient.solve(system), granular::NewtonFailure);
  EXPECT_EQ(patient.failed_iterations(), 25u);
}

// Solver/Line search give-up: a step whose Newton direction does not lower |r| is given up
// as soon as the line search has made that many shorter trials without a decrease, in its
// first iteration, instead of after the stall test's five iterations and their trials; the
// iterate is back at the converged state. Where the line search finds a decrease within the
// trials, the step is the same bit for bit as without the give-up (the root of atan from
// x0 = 3 and -2.5, which needs backtracking).
TEST(NewtonSolver, TheLineSearchGiveUpEndsAStepWithoutDescentInItsFirstIteration)
{
  const auto ascent = [](const Vector<double> &x, Vector<double> &r,
                         dealii::FullMatrix<double> &J) {
    r[0]    = x[0] + 0.1 * x[0] * x[0] * x[0];
    J(0, 0) = -(1. + 0.3 * x[0] * x[0]); // an ascent direction
  };
  for (const unsigned int give_up : {1u, 2u, 3u})
    {
      Vector<double> x0(1);
      x0[0] = 0.5;
      SmallSystem system(x0, ascent);
      auto        p         = tolerances();
      p.line_search_give_up = give_up;
      granular::fem::NewtonSolver newton(p, 1., 1., false);
      newton.linear_solver().reinit(system.pattern);
      EXPECT_THROW(newton.solve(system), granular::NewtonFailure);
      EXPECT_EQ(system.x[0], 0.5);
      // the first iteration's correction, counted as failed
      EXPECT_EQ(newton.failed_iterations(), 1u) << "give-up " << give_up;
      // the predictor, the full step and the shorter trials
      EXPECT_EQ(newton.assemblies(), 2u + give_up) << "give-up " << give_up;
      EXPECT_EQ(newton.line_search_assemblies(), give_up);
      EXPECT_EQ(newton.failed_assemblies(), newton.assemblies());
    }

  const auto solve_arctan = [](const unsigned int give_up, unsigned int &line_search) {
    Vector<double> x0(2);
    x0[0] = 3.;
    x0[1] = -2.5;
    SmallSystem system(x0, arctan);
    auto        p         = tolerances();
    p.stall_iterations    = 0;
    p.line_search_give_up = give_up;
    granular::fem::NewtonSolver newton(p, 1., 1., false);
    newton.linear_solver().reinit(system.pattern);
    const auto stats = newton.solve(system);
    line_search      = newton.line_search_assemblies();
    return std::make_tuple(stats.residual_norms, system.x[0], system.x[1]);
  };
  unsigned int trials = 0, trials_without = 0;
  const auto   with_give_up = solve_arctan(3, trials);
  const auto   without      = solve_arctan(0, trials_without);
  EXPECT_GT(trials, 0u);
  EXPECT_EQ(trials, trials_without);
  EXPECT_EQ(with_give_up, without);
  // with one trial the first backtracking (to 0.5 of the step) does not lower |r|
  EXPECT_THROW(solve_arctan(1, trials), granular::NewtonFailure);
}

// The convergence test on the next correction. On r(x) = exp(x) - 2 from x0 = 0 Newton
// converges quadratically (errors 0.31, 0.043, 9e-4, 4e-7, 8e-14). The increment that led to
// an iterate is the error of the iterate before it, so a test on it would stop only at the
// iterate after the first one within 1e-10 of ln 2; the next correction, the iterate's own
// error estimate, stops at that first iterate, without the assembly of the one after it
// (Deuflhard 2004, §2.1).
TEST(NewtonSolver, TheNextCorrectionTestEndsAtTheFirstIterateWithinTheTolerance)
{
  const auto exp_minus_two = [](const Vector<double> &x, Vector<double> &r,
                                dealii::FullMatrix<double> &J) {
    r[0]    = std::exp(x[0]) - 2.;
    J(0, 0) = std::exp(x[0]);
  };
  SmallSystem system(Vector<double>(1), exp_minus_two);
  granular::fem::NewtonSolver newton(tolerances(), 1., 1., false);
  newton.linear_solver().reinit(system.pattern);
  const auto stats = newton.solve(system);
  // the plain Newton iterates, and the first whose residual and next correction are below
  // the tolerances
  std::vector<double> x{0.};
  while (std::abs(std::exp(x.back()) - 2.) >= 1e-10 ||
         std::abs((std::exp(x.back()) - 2.) / std::exp(x.back())) >= 1e-10)
    x.push_back(x.back() - (std::exp(x.back()) - 2.) / std::exp(x.back()));
  const std::size_t k = x.size() - 1;
  std::cout << "  accepted iterate " << k << ", " << stats.newton_iterations
            << " Newton iterations, " << newton.assemblies() << " assemblies" << std::endl;
  ASSERT_GE(k, 4u);
  EXPECT_LT(std::abs(system.x[0] - std::log(2.)), 1e-10);
  EXPECT_NEAR(system.x[0], x[k], 1e-15);      // that iterate was accepted,
  EXPECT_GT(std::abs(x[k - 1] - x[k]), 1e-10); // not the one before it
  EXPECT_EQ(stats.newton_iterations, k + 1);   // its correction computed, not applied
  EXPECT_EQ(newton.assemblies(), k + 1);       // and no iterate after it assembled
}

namespace
{
  /// K = tridiag(-1, 4, -1) (diagonally dominant) on a pattern that holds it.
  void set_tridiagonal(dealii::SparseMatrix<double> &K)
  {
    const unsigned int n = K.m();
    K                    = 0.;
    for (unsigned int i = 0; i < n; ++i)
      {
        K.set(i, i, 4.);
        if (i > 0)
          K.set(i, i - 1, -1.);
        if (i + 1 < n)
          K.set(i, i + 1, -1.);
      }
  }

  /// Factorizations of a StaleFactorizationSolver (KLU, @p iterations preconditioned GMRES
  /// iterations, refreshed by cost if @p by_cost) over @p solves solves on an n x n full
  /// (@p dense) or tridiagonal pattern, the k-th with the tangent set_tangent(k, K); each
  /// solution is checked against its own system.
  unsigned long
  factorizations_over(const unsigned int n, const bool dense, const unsigned int iterations,
                      const bool by_cost, const unsigned int solves,
                      const std::function<void(unsigned int, dealii::SparseMatrix<double> &)>
                        &set_tangent)
  {
    dealii::DynamicSparsityPattern dsp(n, n);
    for (unsigned int i = 0; i < n; ++i)
      for (unsigned int j = 0; j < n; ++j)
        if (dense || (j + 1 >= i && j <= i + 1))
          dsp.add(i, j);
    dealii::SparsityPattern pattern;
    pattern.copy_from(dsp);
    dealii::SparseMatrix<double> K(pattern);
    dealii::AffineConstraints<double> constraints;
    constraints.close();
    granular::fem::StaleFactorizationSolver solver;
    solver.reinit(pattern, iterations, by_cost);
    Vector<double> b(n), x(n), r(n);
    for (unsigned int i = 0; i < n; ++i)
      b[i] = 1. + std::sin(3. * i);
    for (unsigned int k = 0; k < solves; ++k)
      {
        set_tangent(k, K);
        solver.solve(K, constraints, b, x);
        K.residual(r, x, b);
        EXPECT_LT(r.l2_norm(), 1e-9 * b.l2_norm()) << "solve " << k;
      }
    return solver.factorizations();
  }

  /// Factorizations over the solves with the tangents K0, K0 + rank 1, K0 + rank 3,
  /// K0 + rank 12, K0 on a full 24 x 24 pattern (K0 = tridiag(-1, 4, -1), the rank-r change
  /// sum_k u_k v_k^T with fixed vectors u_k, v_k), with @p iterations preconditioned GMRES
  /// iterations allowed.
  unsigned long factorizations_for(const unsigned int iterations)
  {
    const unsigned int ranks[] = {0, 1, 3, 12, 0};
    return factorizations_over(24, true, iterations, false, 5,
                               [&ranks](const unsigned int s, dealii::SparseMatrix<double> &K) {
                                 set_tridiagonal(K);
                                 for (unsigned int k = 0; k < ranks[s]; ++k)
                                   for (unsigned int i = 0; i < K.m(); ++i)
                                     for (unsigned int j = 0; j < K.n(); ++j)
                                       K.add(i, j,
                                             0.3 * std::sin(1. + i * (k + 1.)) *
                                               std::cos(0.5 + j * (k + 2.)));
                               });
  }
} // namespace

// GMRES preconditioned by the LU of K solves K + (rank k) in at most k + 1 iterations (the
// preconditioned operator is the identity plus rank k). With 8 iterations allowed, the
// first factorization (K0) serves the rank-1 and rank-3 changes; the rank-12 change needs
// 13 > 8 and is factorized, and so is K0 after it (a rank-12 change back): 3. With 32 the
// first factorization serves every solve; 0 factorizes at every solve.
TEST(StaleFactorizationSolver, FactorizesOnlyWhenTheTangentHasMovedBeyondItsIterations)
{
  EXPECT_EQ(factorizations_for(0), 5u);
  EXPECT_EQ(factorizations_for(8), 3u);
  EXPECT_EQ(factorizations_for(32), 1u);
}

namespace
{
  /// Factorizations over 12 solves of K0 + (a rank-1 change): K0 tridiag(-1, 4, -1) of size
  /// @p n on a full (@p dense) or tridiagonal pattern, the change 0.5 on the first diagonal
  /// entry from the second solve on, 32 GMRES iterations allowed. Each changed solve needs 2
  /// GMRES iterations with the LU of K0.
  unsigned long
  factorizations_with_rank_one_changes(const unsigned int n, const bool dense,
                                       const bool by_cost)
  {
    return factorizations_over(n, dense, 32, by_cost, 12,
                               [](const unsigned int s, dealii::SparseMatrix<double> &K) {
                                 set_tridiagonal(K);
                                 if (s > 0)
                                   K.add(0, 0, 0.5); // a rank-1 change of the factorized K0
                               });
  }
} // namespace

// Refreshing by cost keeps a factorization as long as the GMRES iterations it saves cost
// less than a new one. A dense 60 x 60 LU costs about 2 n^3 / 3 = 1.4e5 operations and a
// GMRES iteration about 4 n^2 = 1.4e4, so the 22 iterations of the 11 changed solves are
// worth about 2 factorizations: more than one, far fewer than 12. A tridiagonal LU of
// size 2000 costs no more than a few iterations, so it is refreshed after nearly every
// solve. The iteration rule (more than 16 of 32 iterations) never refreshes either.
TEST(StaleFactorizationSolver, RefreshingByCostFactorizesWhenIterationsCostMoreThanAnLU)
{
  const unsigned long dense = factorizations_with_rank_one_changes(60, true, true);
  EXPECT_GT(dense, 1u);
  EXPECT_LT(dense, 6u);
  EXPECT_GE(factorizations_with_rank_one_changes(2000, false, true), 6u);
  EXPECT_EQ(factorizations_with_rank_one_changes(60, true, false), 1u);
  EXPECT_EQ(factorizations_with_rank_one_changes(2000, false, false), 1u);
}
