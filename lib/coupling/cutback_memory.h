#pragma once
/**
 * @file cutback_memory.h
 * The cut-back memory of the time loop (Solver/Cut-back memory, docs/methods.md §3.6).
 *
 * Without it every step is first tried at its full length and halved (cut back) when Newton
 * fails. Where the particle rolls over, the full-length attempts of consecutive steps fail
 * one after the other: the incremental problem of a snap-through has no solution at that
 * step length (docs/results/penalty-and-solver-studies.md#where-newton-stalls), and each
 * failed attempt costs its Newton iterations and line-search trials for nothing. With the
 * memory, a step that was cut back sets the remembered sub-step to the length of its last
 * converged sub-step, and the steps after it are split into sub-steps of that length at once
 * (no attempt is made at the longer lengths). After @c steps steps without a cut-back the
 * remembered length doubles; once it reaches the step's own length it is forgotten, and the
 * steps are tried at their full length again. This is the rule of step-size controllers for
 * ODEs that a step after a rejected one is not lengthened (Hairer, Nørsett & Wanner 1993,
 * §II.4), applied to Newton failures and kept for a number of steps.
 *
 * Units: step lengths in s.
 */
#include <cmath>

namespace granular::coupling
{
  /// See the file comment. Checkpointed with the coupling scheme.
  class CutbackMemory
  {
  public:
    /// @param steps steps without a cut-back before the remembered sub-step doubles (0: off)
    explicit CutbackMemory(unsigned int steps = 0)
      : steps_(steps)
    {}

    /// Whether the memory is on (Solver/Cut-back memory > 0).
    bool enabled() const { return steps_ > 0; }

    /**
     * Into how many halvings a step of length @p h (s) is split at once: the smallest n
     * with h / 2^n <= 1.5 x the remembered sub-step, at most @p max_halvings; 0 when
     * nothing is remembered or the memory is off.
     */
    unsigned int halvings(const double h, const unsigned int max_halvings) const
    {
      unsigned int n = 0;
      while (remembered_ > 0. && n < max_halvings &&
             std::ldexp(h, -static_cast<int>(n)) > 1.5 * remembered_)
        ++n;
      return n;
    }

    /**
     * After a step of length @p h (s).
     * @param cut_back     whether one of its (sub-)steps failed and was halved
     * @param last_substep the length of its last converged sub-step (s)
     */
    void record(const double h, const bool cut_back, const double last_substep)
    {
      if (!enabled())
        return;
      if (cut_back)
        {
          remembered_ = last_substep, clean_steps_ = 0;
          return;
        }
      if (remembered_ > 0. && ++clean_steps_ >= steps_)
        {
          remembered_ *= 2., clean_steps_ = 0;
          if (remembered_ > h / 1.5) // as long as the step: tried at full length again
            remembered_ = 0.;
        }
    }

    /// The remembered sub-step (s; 0: none).
    double remembered() const { return remembered_; }

    /// Boost.Serialization (checkpoint/restart): the remembered sub-step and the clean
    /// steps since; the number of steps is the run's parameter (set before a restart).
    template <class Archive>
    void serialize(Archive &ar, const unsigned int)
    {
      ar &remembered_ &clean_steps_;
    }

  private:
    unsigned int steps_;
    double       remembered_  = 0.;
    unsigned int clean_steps_ = 0;
  };
} // namespace granular::coupling
