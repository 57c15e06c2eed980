#pragma once
/**
 * @file time_step_control.h
 * Adaptive time steps of the micromechanical test (Solver/Time step control = adaptive;
 * docs/methods.md §3.6). Loading/Time step Δt stays the accuracy reference and the grid
 * of the output: a step is m Δt with m = 1, 2, 4, ... up to Solver/Maximum time step,
 * shortened where it would cross a landmark (the end of the load ramp, the start of the
 * dragging at T0, the averaging window at 2 T0, the end; no output time), and
 * halved (cut back) when Newton fails. With a p > 2 particle the loop keeps the
 * steps at Δt until the dragging starts at T0 (coupling/micromechanical_run.cc: resting on a
 * flat side it rocks in a limit cycle that long steps in the load ramp excite).
 *
 * After each step the control looks at two measures of how hard the step was:
 *  - its Newton iterations (more than 6: the step was near losing its solution);
 *  - the energy the time discretisation created or lost in it, |Δ(balance residual)| plus
 *    Newmark's algorithmic dissipation (N mm/mm), relative to the platen's nominal work
 *    over the step p L0 v_F h. This is the error summary.csv reports for every run (energy
 *    balance of docs/methods.md §2.2, numerical dissipation share of k̄): controlling it per step
 *    keeps both in the range of the fixed-step runs while quiet phases take long steps. Its
 *    ratio to Solver/Step energy tolerance is η.
 * The step doubles after two consecutive steps with η < 1/4 and at most 3 Newton
 * iterations, halves after a step with η > 1, more than 6 iterations or a cut-back, and
 * drops to Δt after a step with η > 4. With Solver/Step rejection (the default) a step of
 * m > 1 reference steps with η > 1 is not accepted: the time loop restores the state
 * before it and repeats it with m/2 (reject()), down to m = 1, which is always accepted
 * (coupling/micromechanical_run.cc). Without it such a step is accepted and only the next
 * one is shorter. This is the step-size selection by Newton effort of implicit FE codes
 * (e.g. the automatic time stepping of ABAQUS/Standard) with the energy residual as the
 * accuracy check.
 */
#include <algorithm>

namespace granular::coupling
{
  /// See the file comment. Checkpointed with the run.
  class TimeStepControl
  {
  public:
    /// η below which a step counts as easy
    static constexpr double easy_ratio = 0.25;
    /// Newton iterations of an easy step, and above which a step counts as hard
    static constexpr unsigned int easy_iterations = 3, hard_iterations = 6;

    /**
     * @param max_multiple     longest step in reference steps (>= 1)
     * @param energy_tolerance Solver/Step energy tolerance (> 0)
     */
    TimeStepControl(unsigned int max_multiple, double energy_tolerance)
      : max_multiple_(std::max(1u, max_multiple))
      , tolerance_(energy_tolerance)
    {}

    /// The step the control asks for next, in reference steps.
    unsigned int multiple() const { return multiple_; }

    /**
     * After a committed step of @p m reference steps.
     * @param newton_iterations   its Newton iterations (summed over cut-back sub-steps)
     * @param cut_back            whether it was halved
     * @param discretisation_energy |Δ balance residual| + Newmark's algorithmic
     *                            dissipation over the step (N mm/mm, >= 0)
     * @param nominal_work        p L0 v_F h of the step (N mm/mm, > 0)
     */
    void record(unsigned int m, unsigned int newton_iterations, bool cut_back,
                double discretisation_energy, double nominal_work)
    {
      const double eta = discretisation_energy / (tolerance_ * nominal_work);
      last_ratio_      = eta;
      const unsigned int taken = std::min(m, multiple_);
      if (eta > 4.)
        {
          multiple_ = 1, easy_steps_ = 0;
          return;
        }
      if (cut_back || eta > 1. || newton_iterations > hard_iterations)
        {
          multiple_ = std::max(1u, taken / 2), easy_steps_ = 0;
          return;
        }
      if (eta < easy_ratio && newton_iterations <= easy_iterations)
        {
          if (++easy_steps_ >= 2 && m >= multiple_)
            multiple_ = std::min(2 * multiple_, max_multiple_), easy_steps_ = 0;
        }
      else
        easy_steps_ = 0;
    }

    /// Whether the last recorded step, of @p m reference steps, is to be rejected (Solver/Step
    /// rejection): m > 1 and η > 1.
    bool rejects(unsigned int m) const { return m > 1 && last_ratio_ > 1.; }

    /**
     * After the state before a rejected step of @p m > 1 reference steps was restored
     * (and with it this control as it was before the step): the step is repeated with m/2,
     * and growth starts counting again.
     */
    void reject(unsigned int m)
    {
      multiple_   = std::max(1u, m / 2);
      easy_steps_ = 0;
    }

    /// η of the last recorded step.
    double last_ratio() const { return last_ratio_; }

    /// Boost.Serialization (checkpoint/restart).
    template <class Archive>
    void serialize(Archive &ar, const unsigned int)
    {
      ar &max_multiple_ &tolerance_ &multiple_ &easy_steps_ &last_ratio_;
    }

  private:
    unsigned int max_multiple_;
    double       tolerance_;
    unsigned int multiple_   = 1;
    unsigned int easy_steps_ = 0;
    double       last_ratio_ = 0.;
  };
} // namespace granular::coupling
