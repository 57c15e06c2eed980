#include "fem/sparse_lu.h"

#include <suitesparse/klu.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace granular::fem
{
  struct SparseLU::Klu
  {
    klu_common   common;
    klu_symbolic *symbolic = nullptr;
    klu_numeric  *numeric  = nullptr;

    Klu() { klu_defaults(&common); }
    ~Klu() { clear(); }
    void free_numeric()
    {
      if (numeric)
        klu_free_numeric(&numeric, &common);
      numeric = nullptr;
    }
    void clear()
    {
      free_numeric();
      if (symbolic)
        klu_free_symbolic(&symbolic, &common);
      symbolic = nullptr;
    }
  };

  SparseLU::SparseLU()
    : klu(std::make_unique<Klu>())
  {}

  SparseLU::~SparseLU() = default;

  bool SparseLU::factorized() const { return klu->numeric != nullptr; }

  void SparseLU::analyze(const dealii::SparsityPattern &sparsity)
  {
    klu->clear();
    pattern           = &sparsity;
    const auto n      = sparsity.n_rows();
    const auto n_nz   = sparsity.n_nonzero_elements();
    Ap.assign(n + 1, 0);
    Ai.resize(n_nz);
    to_klu.resize(n_nz);
    values.assign(n_nz, 0.);
    work.assign(n, 0.);
    // row r of A (= column r of A^T) with its column indices sorted; deal.II stores the
    // diagonal first, then the others in increasing order, at global indices
    // rowstart[r] ... (the order of SparsityPattern::begin(r))
    std::size_t global = 0;
    int         position = 0;
    for (unsigned int r = 0; r < n; ++r)
      {
        Ap[r] = position;
        std::vector<std::pair<int, std::size_t>> row;
        for (auto it = sparsity.begin(r); it != sparsity.end(r); ++it, ++global)
          row.emplace_back(static_cast<int>(it->column()), global);
        std::sort(row.begin(), row.end());
        for (const auto &[column, index] : row)
          {
            Ai[position]          = column;
            to_klu[index]         = position;
            ++position;
          }
      }
    Ap[n] = position;
    klu->symbolic = klu_analyze(static_cast<int>(n), Ap.data(), Ai.data(), &klu->common);
    if (!klu->symbolic)
      throw std::runtime_error("KLU could not order the tangent's sparsity pattern (status " +
                               std::to_string(klu->common.status) + ")");
  }

  void SparseLU::factorize(const dealii::SparseMatrix<double> &A, const bool full_pivoting)
  {
    // A's entries in deal.II's storage order (that of analyze()) into KLU's
    std::size_t global = 0;
    for (auto it = A.begin(); it != A.end(); ++it, ++global)
      values[to_klu[global]] = it->value();
    if (klu->numeric && !full_pivoting)
      {
        if (klu_refactor(Ap.data(), Ai.data(), values.data(), klu->symbolic, klu->numeric,
                         &klu->common) &&
            klu->common.status == KLU_OK &&
            klu_rcond(klu->symbolic, klu->numeric, &klu->common) &&
            klu->common.rcond >= 1e-3 * full_rcond)
          {
            ++n_refactor;
            return;
          }
        // the kept pivots have become poor (or zero): search new ones
      }
    klu->free_numeric();
    klu->numeric = klu_factor(Ap.data(), Ai.data(), values.data(), klu->symbolic, &klu->common);
    if (!klu->numeric || klu->common.status != KLU_OK)
      {
        klu->free_numeric();
        throw std::runtime_error("KLU: the Newton tangent is singular (status " +
                                 std::to_string(klu->common.status) + ")");
      }
    klu_rcond(klu->symbolic, klu->numeric, &klu->common);
    full_rcond = klu->common.rcond;
    klu_flops(klu->symbolic, klu->numeric, &klu->common);
    factor_flops = klu->common.flops;
    solve_flops_ = 2. * (static_cast<double>(klu->numeric->lnz) + klu->numeric->unz +
                         klu->numeric->nzoff);
    ++n_full;
  }

  void SparseLU::vmult(dealii::Vector<double> &x, const dealii::Vector<double> &b) const
  {
    std::copy(b.begin(), b.end(), work.begin());
    klu_tsolve(klu->symbolic, klu->numeric, static_cast<int>(work.size()), 1, work.data(),
               &klu->common);
    std::copy(work.begin(), work.end(), x.begin());
  }
} // namespace granular::fem
