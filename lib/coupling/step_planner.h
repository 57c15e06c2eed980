#pragma once
/**
 * @file step_planner.h
 * Which step the time loop of the micromechanical test takes next (docs/methods.md §3.6:
 * adaptive time steps). Time runs on the grid of the reference step Δt (Loading/Time
 * step): t = k Δt. A fixed step is one grid step; an adaptive step is m of them
 * (TimeStepControl), shortened so that it lands on the landmarks of the loading: the end
 * of the load ramp, the start of the dragging at T0, the averaging window at 2 T0 and the
 * end of the run. No output setting is a landmark, so that the solution does not depend on
 * the output (a VTU is written at the end of the step that reaches its time, with the true
 * time; history.csv interpolates). After each step the planner gives the control the step's
 * Newton iterations, whether it was cut back, and the energy the time discretisation
 * created or lost in it; with Solver/Step rejection it says whether the step is rejected
 * (repeated with half its length from the state before it, which the loop keeps for every
 * step longer than Δt).
 */
#include "coupling/energy_balance.h"
#include "coupling/loading_program.h"
#include "coupling/time_step_control.h"
#include "fem/rubber_block.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace granular::coupling
{
  /// One step of the time loop: from grid time k Δt to (k + m) Δt.
  struct StepPlan
  {
    unsigned int k = 0;    ///< the grid step it starts from
    unsigned int m = 1;    ///< its length in reference steps
    unsigned int step = 1; ///< the grid step it ends at, k + m
    double       t0 = 0.;  ///< its start k Δt (s)
    double       t = 0.;   ///< its end (k + m) Δt (s)
    double       h = 0.;   ///< its length m Δt (s)
  };

  /// See the file comment. Checkpointed with the run.
  class StepPlanner
  {
  public:
    /**
     * @param loading            the platen's program (T0 and the ramp's end, s)
     * @param dt                 the reference step Δt (s)
     * @param n_steps            the run's length in reference steps
     * @param adaptive           Solver/Time step control = adaptive
     * @param control            the adaptive control (Solver/Maximum time step, Step energy
     *                           tolerance)
     * @param reference_until_T0 keep the steps at Δt until the dragging starts: a p > 2
     *                           particle resting on a flat side rocks in a limit cycle that
     *                           creates energy at every change of its contact point
     *                           (docs/methods.md §5.3.4), and long steps in the load ramp excite it
     *                           (full-size rectangle: -0.42 instead of -0.26 N mm/mm of
     *                           balance by T0, which tripped the energy guard at t/T0 = 0.98)
     * @param step_rejection     Solver/Step rejection: an adaptive step of m > 1 reference
     *                           steps with η > 1 is rejected (rejects(), reject())
     */
    StepPlanner(const LoadingProgram &loading, double dt, unsigned int n_steps,
                bool adaptive, const TimeStepControl &control,
                bool reference_until_T0, bool step_rejection = false)
      : dt_(dt)
      , n_steps_(n_steps)
      , adaptive_(adaptive)
      , reference_until_T0_(reference_until_T0)
      , step_rejection_(step_rejection)
      , fixed_landmarks_{grid_index(loading.ramp_time), grid_index(loading.T0),
                         grid_index(2. * loading.T0)}
      , full_load_(loading.full_load)
      , slip_velocity_(loading.slip_velocity)
      , control_(control)
    {}

    /// The step from grid step @p k (< n_steps).
    StepPlan next(const unsigned int k) const
    {
      const bool reference_only = reference_until_T0_ && k < fixed_landmarks_[1];
      StepPlan   p;
      p.k    = k;
      p.m    = adaptive_ && !reference_only ? std::min(control_.multiple(), next_landmark(k) - k) :
                                              1u;
      if (!prescribed_ends_.empty())
        {
          const auto end = std::upper_bound(prescribed_ends_.begin(), prescribed_ends_.end(), k);
          p.m = std::min(end == prescribed_ends_.end() ? n_steps_ : *end, next_landmark(k)) - k;
        }
      p.step = k + p.m;
      // (with m = 1 these are the fixed-step times (step - 1) dt, step dt and dt, bit for bit)
      p.t0 = k * dt_, p.t = p.step * dt_, p.h = p.m * dt_;
      return p;
    }

    /// The grid step of T0, the start of the dragging.
    unsigned int T0_step() const { return fixed_landmarks_[1]; }

    /// Before the first step of a fresh run: the energy balance and Newmark's dissipation
    /// the first step's measure starts from (a restart reads them from the checkpoint).
    void start(const EnergyAccountant &energy)
    {
      if (!adaptive_)
        return;
      const Dissipation d0 = energy.dissipation();
      balance_before_      = energy.balance(energy.total_energy(), d0);
      numerical_before_    = d0.numerical;
    }

    /**
     * After the step @p plan: tells the control its Newton iterations (@p stats), whether
     * it was cut back (@p cut_back) and its discretisation energy: |Δ balance residual| +
     * Newmark's algorithmic dissipation, against the platen's nominal work p L0 v_F h.
     * @p d and @p total_energy are the dissipation and the accountant's total energy after
     * the step.
     */
    void record(const StepPlan &plan, const fem::StepStatistics &stats, const bool cut_back,
                const EnergyAccountant &energy, const Dissipation &d, const double total_energy)
    {
      if (!adaptive_)
        return;
      const double balance = energy.balance(total_energy, d);
      control_.record(plan.m, stats.newton_iterations, cut_back,
                      std::abs(balance - balance_before_) +
                        std::max(0., d.numerical - numerical_before_),
                      full_load_ * slip_velocity_ * plan.h);
      balance_before_   = balance; // the next step starts from this state
      numerical_before_ = d.numerical;
    }

    /// Whether the state before the step @p plan is to be kept (in memory): it may be
    /// rejected, being adaptive and longer than Δt with Solver/Step rejection.
    bool keeps_state(const StepPlan &plan) const
    {
      return adaptive_ && step_rejection_ && plan.m > 1;
    }

    /// After record(): whether the step @p plan is rejected (keeps_state() and η > 1).
    bool rejects(const StepPlan &plan) const
    {
      return keeps_state(plan) && control_.rejects(plan.m);
    }

    /// After the state before the rejected step @p plan was restored (this planner with
    /// it): the next plan from the same grid step is half as long.
    void reject(const StepPlan &plan) { control_.reject(plan.m); }

    /**
     * For comparisons (tests): the steps end at the grid steps @p ends (ascending) and at
     * the landmarks instead of where the adaptive control would end them; a step after the
     * last of them runs to the next landmark. The control still records every step.
     */
    void prescribe_step_ends(std::vector<unsigned int> ends)
    {
      prescribed_ends_ = std::move(ends);
    }

    /// The adaptive control.
    const TimeStepControl &control() const { return control_; }

    /// Boost.Serialization (checkpoint/restart): the control and the energy measure the
    /// next step starts from, so that a restarted run chooses the steps of the
    /// uninterrupted one.
    template <class Archive>
    void serialize(Archive &ar, const unsigned int)
    {
      ar &control_ &balance_before_ &numerical_before_;
    }

  private:
    unsigned int grid_index(const double time) const
    {
      return static_cast<unsigned int>(std::llround(time / dt_));
    }

    /// The first landmark after grid step @p k.
    unsigned int next_landmark(const unsigned int k) const
    {
      unsigned int next = n_steps_;
      for (const unsigned int l : fixed_landmarks_)
        if (l > k)
          next = std::min(next, l);
      return next;
    }

    double             dt_;
    unsigned int       n_steps_;
    bool               adaptive_, reference_until_T0_, step_rejection_;
    unsigned int       fixed_landmarks_[3];
    double             full_load_, slip_velocity_;
    TimeStepControl    control_;
    /// the energy balance and Newmark's dissipation at the start of the next step
    double             balance_before_ = 0., numerical_before_ = 0.;
    /// prescribe_step_ends() (empty: the control chooses)
    std::vector<unsigned int> prescribed_ends_;
  };
} // namespace granular::coupling
