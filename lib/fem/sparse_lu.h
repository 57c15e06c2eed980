#pragma once
/**
 * @file sparse_lu.h
 * Sparse LU factorization of the Newton tangent with SuiteSparse KLU (Davis & Palamadai
 * Natarajan 2010, "Algorithm 907: KLU", ACM TOMS 37(3)): the ordering (BTF + AMD) is
 * computed once per sparsity pattern, the pivot sequence at a full factorization, and
 * every later factorization of a tangent with the same pattern is a numeric refactorization
 * with the pivots kept (klu_refactor), which skips the pivot search and the symbolic work.
 * A refactorization whose pivots have become poor (reciprocal pivot-condition estimate
 * klu_rcond below 1e-3 of the full factorization's) is replaced by a full factorization.
 * Solves apply the factors without iterative refinement (UMFPACK, through deal.II's
 * SparseDirectUMFPACK, refines twice per solve; here refinement is the job of the GMRES
 * around it, fem::StaleFactorizationSolver).
 *
 * deal.II stores the matrix by rows (CSR); KLU reads it as the column storage (CSC) of the
 * transpose, factors A^T and solves A x = b with klu_tsolve. Not copyable.
 */
#include <deal.II/lac/sparse_matrix.h>
#include <deal.II/lac/sparsity_pattern.h>
#include <deal.II/lac/vector.h>

#include <memory>
#include <vector>

namespace granular::fem
{
  /// See the file comment.
  class SparseLU
  {
  public:
    SparseLU();
    ~SparseLU();
    SparseLU(const SparseLU &)            = delete;
    SparseLU &operator=(const SparseLU &) = delete;

    /// Orders the pattern @p sparsity (square, kept by reference); drops any factors.
    /// Throws std::runtime_error if KLU rejects it.
    void analyze(const dealii::SparsityPattern &sparsity);

    /**
     * Factors @p A (pattern of analyze()): a numeric refactorization with the pivots of the
     * last full factorization when there is one and it stays well conditioned, or
     * @p full_pivoting, else a full factorization. Throws std::runtime_error if @p A is
     * singular.
     */
    void factorize(const dealii::SparseMatrix<double> &A, bool full_pivoting = false);

    /// x = A^{-1} b with the factors of the last factorize() (the preconditioner interface
    /// of deal.II's solvers).
    void vmult(dealii::Vector<double> &x, const dealii::Vector<double> &b) const;

    bool          factorized() const;
    /// full factorizations (pivot searches) and numeric refactorizations so far
    unsigned long full_factorizations() const { return n_full; }
    unsigned long refactorizations() const { return n_refactor; }
    /// Floating-point operations of a factorization with the current pivots (klu_flops of
    /// the last full factorization) and of one solve, 2 (nnz(L) + nnz(U) + the off-diagonal
    /// blocks): a deterministic measure of their cost (0 before the first factorization).
    double factorization_flops() const { return factor_flops; }
    double solve_flops() const { return solve_flops_; }

  private:
    struct Klu;
    std::unique_ptr<Klu>           klu;
    const dealii::SparsityPattern *pattern = nullptr;
    /// KLU's column pointers and sorted row indices of A^T (= A's rows), and for each entry
    /// of deal.II's storage of A (in the order of its iterators) its position in KLU's
    std::vector<int>               Ap, Ai;
    std::vector<std::size_t>       to_klu;
    mutable std::vector<double>    values, work;
    double                         full_rcond = 0.; ///< klu_rcond of the last full factorization
    double                         factor_flops = 0., solve_flops_ = 0.;
    unsigned long                  n_full = 0, n_refactor = 0;
  };
} // namespace granular::fem
