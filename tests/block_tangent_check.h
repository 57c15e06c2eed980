#pragma once
// Finite-difference check of the rubber block's Newton tangent (shared by the tests of the
// block and of the monolithic coupling).
#include "fem/rubber_block.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace granular::testing
{
  /**
   * max over unconstrained (i, j) of |K_ij - dr_i/du_j| / max |K|, with dr/du by central
   * differences (step 1e-7 mm or rad) of RubberBlock::residual_and_tangent() at @p u for a
   * step @p dt (s) and platen load @p load (N/mm). @p u may extend the FE dofs by the
   * unknowns of a movable obstacle (those are unconstrained).
   */
  inline double
  relative_tangent_error(fem::RubberBlock &b, const std::vector<double> &u, const double dt,
                         const double load)
  {
    std::vector<double>              r, r_plus, r_minus;
    std::vector<std::vector<double>> K, dummy;
    b.residual_and_tangent(u, dt, load, r, K);
    auto constrained = b.constrained_dofs();
    constrained.resize(u.size(), false);
    double k_max = 0., err = 0.;
    for (const auto &row : K)
      for (const double v : row)
        k_max = std::max(k_max, std::abs(v));
    const double h = 1e-7;
    for (unsigned int j = 0; j < u.size(); ++j)
      {
        if (constrained[j])
          continue;
        std::vector<double> up = u, um = u;
        up[j] += h;
        um[j] -= h;
        b.distribute_constraints(up);
        b.distribute_constraints(um);
        b.residual_and_tangent(up, dt, load, r_plus, dummy);
        b.residual_and_tangent(um, dt, load, r_minus, dummy);
        for (unsigned int i = 0; i < u.size(); ++i)
          if (!constrained[i])
            err = std::max(err, std::abs(K[i][j] - (r_plus[i] - r_minus[i]) / (2. * h)));
      }
    return err / k_max;
  }
} // namespace granular::testing
