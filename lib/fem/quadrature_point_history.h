#pragma once
/**
 * @file quadrature_point_history.h
 * The history of the rubber block's quadrature points: the Maxwell-branch state (docs/methods.md
 * §3.3-3.4) of every Gauss point of every cell, converged at t_n and trial at t_{n+1}, in
 * one owned structure with an explicit commit (the pattern of deal.II's step-44
 * PointHistory, held flat because the block's cell loop is a flat loop over cells).
 *
 * Units: mm, s, N (per mm thickness), MPa.
 */
#include "material/maxwell_branch.h"

#include <vector>

namespace granular::fem
{
  /// Maxwell-branch history of one quadrature point.
  struct MaxwellPointHistory
  {
    /// converged state at t_n
    material::MaxwellState converged;
    /// trial state at t_{n+1} of the last assembly (MaxwellBranch::update())
    material::MaxwellState trial;
    /// branch energy W_v JxW of the converged and of the trial state (N mm per mm
    /// thickness)
    double energy_converged = 0., energy_trial = 0.;
    /// viscous dissipation increment Delta D JxW of the trial (N mm per mm thickness)
    double dissipation_increment = 0.;

    /// Accepts the trial: converged <- trial (the dissipation increment is summed by
    /// QuadraturePointHistory::commit()).
    void commit()
    {
      converged        = trial;
      energy_converged = energy_trial;
    }
    /// Discards the trial: trial <- converged.
    void reset_trial()
    {
      trial        = converged;
      energy_trial = energy_converged;
    }

    /// Boost.Serialization (checkpoint/restart) of the converged state only; the trial is
    /// rebuilt by reset_trial().
    template <class Archive>
    void serialize(Archive &ar, const unsigned int)
    {
      ar &converged &energy_converged;
    }
  };

  /**
   * The Maxwell-branch histories of all quadrature points of the block, point (cell e,
   * Gauss point q) at index e * n_q + q. Empty when the rubber has no Maxwell branch.
   */
  class QuadraturePointHistory
  {
  public:
    /// @p n_cells cells of @p n_q_points quadrature points each, in the initial
    /// (undeformed, unrelaxed) state.
    void reinit(unsigned int n_cells, unsigned int n_q_points)
    {
      n_q = n_q_points;
      points.assign(static_cast<std::size_t>(n_cells) * n_q_points, MaxwellPointHistory());
    }
    void clear() { points.clear(); }

    bool         empty() const { return points.empty(); }
    /// Number of quadrature points (n_cells * n_q).
    std::size_t  size() const { return points.size(); }

    /// The n_q histories of cell @p e (nullptr if empty()).
    MaxwellPointHistory *cell(unsigned int e)
    {
      return points.empty() ? nullptr : points.data() + static_cast<std::size_t>(e) * n_q;
    }
    const MaxwellPointHistory *cell(unsigned int e) const
    {
      return points.empty() ? nullptr : points.data() + static_cast<std::size_t>(e) * n_q;
    }
    const MaxwellPointHistory &operator[](std::size_t k) const { return points[k]; }

    /// Accepts the trial of every point and adds the points' dissipation increments to
    /// @p viscous_dissipation (N mm per mm thickness), in the order of the points.
    void commit(double &viscous_dissipation)
    {
      for (auto &p : points)
        p.commit();
      for (const auto &p : points)
        viscous_dissipation += p.dissipation_increment;
    }
    /// Discards the trial of every point.
    void reset_trial()
    {
      for (auto &p : points)
        p.reset_trial();
    }
    /// All points, in the order e * n_q + q.
    const std::vector<MaxwellPointHistory> &all() const { return points; }

    template <class Archive>
    void serialize(Archive &ar, const unsigned int)
    {
      ar &n_q &points;
    }

  private:
    unsigned int                     n_q = 0;
    std::vector<MaxwellPointHistory> points;
  };
} // namespace granular::fem
