// The sparse LU of the Newton tangent (fem::SparseLU, SuiteSparse KLU): it solves a
// non-symmetric sparse system exactly after a full factorization and after numeric
// refactorizations with the pivots kept, also when the values change by orders of magnitude
// (a contact point switching on: a penalty of 1e6 against 1 on the diagonal).
#include "fem/sparse_lu.h"

#include <deal.II/lac/dynamic_sparsity_pattern.h>

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace
{
  using namespace dealii;

  /// A 2D five-point-stencil pattern on an n x n grid (plus one long-range coupling per row,
  /// like the periodic and the particle's couplings of the tangent).
  void make_pattern(const unsigned int n, SparsityPattern &sparsity)
  {
    const unsigned int     N = n * n;
    DynamicSparsityPattern dsp(N, N);
    for (unsigned int i = 0; i < n; ++i)
      for (unsigned int j = 0; j < n; ++j)
        {
          const unsigned int r = i * n + j;
          dsp.add(r, r);
          if (i > 0) dsp.add(r, r - n);
          if (i + 1 < n) dsp.add(r, r + n);
          if (j > 0) dsp.add(r, r - 1);
          if (j + 1 < n) dsp.add(r, r + 1);
          dsp.add(r, (r * 7 + 3) % N);
        }
    sparsity.copy_from(dsp);
  }

  /// Diagonally dominant, non-symmetric values; @p penalty on every 5th diagonal entry.
  void fill(SparseMatrix<double> &A, const unsigned int seed, const double penalty)
  {
    std::mt19937                           rng(seed);
    std::uniform_real_distribution<double> U(-1., 1.);
    for (unsigned int r = 0; r < A.m(); ++r)
      {
        double off = 0.;
        for (auto it = A.begin(r); it != A.end(r); ++it)
          if (it->column() != r)
            {
              it->value() = U(rng);
              off += std::abs(it->value());
            }
        A.set(r, r, off + 1. + (r % 5 == 0 ? penalty : 0.));
      }
  }

  double relative_residual(const SparseMatrix<double> &A, const Vector<double> &x,
                           const Vector<double> &b)
  {
    Vector<double> r(b.size());
    A.vmult(r, x);
    r -= b;
    return r.l2_norm() / b.l2_norm();
  }
} // namespace

TEST(SparseLU, SolvesAfterFullFactorizationAndAfterRefactorizations)
{
  SparsityPattern sparsity;
  make_pattern(12, sparsity);
  SparseMatrix<double> A(sparsity);
  Vector<double>       b(A.m()), x(A.m());
  for (unsigned int i = 0; i < b.size(); ++i)
    b[i] = std::sin(0.3 * i) + 0.1;

  granular::fem::SparseLU lu;
  lu.analyze(sparsity);
  EXPECT_FALSE(lu.factorized());
  fill(A, 1, 0.);
  lu.factorize(A);
  lu.vmult(x, b);
  EXPECT_LT(relative_residual(A, x, b), 1e-13);
  EXPECT_EQ(lu.full_factorizations(), 1u);

  // new values, same pattern: numeric refactorizations with the kept pivots, exact solves,
  // also with a penalty of 1e6 switched on at every 5th diagonal entry
  for (const auto &[seed, penalty] : {std::pair{2u, 0.}, std::pair{3u, 1e6}, std::pair{4u, 0.}})
    {
      fill(A, seed, penalty);
      lu.factorize(A);
      lu.vmult(x, b);
      EXPECT_LT(relative_residual(A, x, b), 1e-12) << "seed " << seed;
    }
  EXPECT_EQ(lu.full_factorizations() + lu.refactorizations(), 4u);
  EXPECT_GE(lu.refactorizations(), 1u);

  // a forced pivot search gives the same solution
  Vector<double> y(A.m());
  lu.factorize(A, true);
  lu.vmult(y, b);
  y -= x;
  EXPECT_LT(y.l2_norm(), 1e-12 * x.l2_norm());
}

TEST(SparseLU, SingularTangentThrows)
{
  SparsityPattern sparsity;
  make_pattern(4, sparsity);
  SparseMatrix<double> A(sparsity); // all zero
  granular::fem::SparseLU lu;
  lu.analyze(sparsity);
  EXPECT_THROW(lu.factorize(A), std::runtime_error);
}

// The factorization's floating-point count (the summary's factorization_flops) is that of
// Gaussian elimination: for a dense n x n matrix, column k (0-based) of L has n - k - 1
// entries below the diagonal (as many divisions) and updates an (n - k - 1)^2 block with a
// multiply and an add each, so sum_k (n-k-1) + 2 (n-k-1)^2 = n(n-1)/2 + n(n-1)(2n-1)/3.
// A solve is counted as 2 (nnz(L) + nnz(U)), KLU counting both diagonals: 2 n (n + 1).
TEST(SparseLU, FlopCountOfDenseMatrixIsGaussianElimination)
{
  for (const unsigned int n : {1u, 7u, 20u})
    {
      DynamicSparsityPattern dsp(n, n);
      for (unsigned int i = 0; i < n; ++i)
        for (unsigned int j = 0; j < n; ++j)
          dsp.add(i, j);
      SparsityPattern sparsity;
      sparsity.copy_from(dsp);
      SparseMatrix<double> A(sparsity);
      fill(A, 5, 0.);
      granular::fem::SparseLU lu;
      lu.analyze(sparsity);
      EXPECT_EQ(lu.factorization_flops(), 0.);
      lu.factorize(A);
      const double m = n;
      EXPECT_EQ(lu.factorization_flops(), m * (m - 1.) / 2. + m * (m - 1.) * (2. * m - 1.) / 3.)
        << "n = " << n;
      EXPECT_EQ(lu.solve_flops(), 2. * m * (m + 1.)) << "n = " << n;
    }
}
