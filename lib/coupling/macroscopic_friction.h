#pragma once
/**
 * @file macroscopic_friction.h
 * The product's main measurement (docs/methods.md §2.2; Temizer 2013, eqs. (11)-(12)):
 * instantaneous k_I(t) = |F_T / F_N|, its moving time average over the averaging
 * window k_I*(t) = 1/(t - 2T0) int_{2T0}^t k_I dt (trapezoidal rule over the time
 * steps), and the macroscopic friction coefficient kbar = k_I*(2T0 + T_avg), with a
 * convergence indicator: the spread (max - min) of k_I* over the last quarter of the
 * averaging window. Beside it, over the same window, the time average of the signed ratio
 * F_T / F_N and the share of the window's time in which F_T < 0 (the rubber pushes the
 * platen along, so |.| counts a forward push as friction; docs/methods.md §2.2, "When F_T
 * reverses").
 */
#include <vector>

namespace granular
{
  /// Accumulates k_I over the averaging window; see the file comment.
  class MacroscopicFriction
  {
  public:
    /// @param window_start 2 T0 (s); @param window_end 2 T0 + T_avg (s)
    MacroscopicFriction(double window_start, double window_end);

    /// Instantaneous k_I = |F_T / F_N| (0 if F_N == 0). Forces in N/mm.
    static double instantaneous(double normal_force, double tangential_force);

    /// Records the state at time t (s); samples before the window are ignored, the
    /// first sample at or after window_start opens it. Times must increase.
    void add(double t, double normal_force, double tangential_force);

    /// k_I* at the last sample (0 before the window has any length).
    double moving_average() const;
    /// kbar: k_I* at the last sample (call after the run).
    double kbar() const { return moving_average(); }
    /// Spread of k_I* over the last quarter of the window (samples with
    /// t >= window_end - T_avg/4).
    double spread() const;
    /// Time integral of k_I over the window so far (s).
    double integral() const { return integral_; }
    /// Time average of the signed ratio F_T / F_N over the window so far (trapezoidal
    /// rule, as kbar; 0 before the window has any length). Equals kbar while F_T keeps
    /// the sign of the dragging; smaller where F_T reverses.
    double signed_mean() const;
    /// Share (0..1) of the window's time so far in which F_T < 0: the time between two
    /// samples with F_T < 0 and, where F_T changes sign between two samples, the part of
    /// the interval on the negative side (F_T linear in between). 0 before the window has
    /// any length.
    double reversed_fraction() const;

    /// Boost.Serialization (checkpoint/restart).
    template <class Archive>
    void serialize(Archive &ar, const unsigned int)
    {
      ar &window_start_ &window_end_ &open_ &t_last_ &k_last_ &t_first_ &integral_
        &last_quarter_min_ &last_quarter_max_ &in_last_quarter_ &signed_integral_
          &reversed_time_ &ratio_last_ &tangential_last_;
    }

  private:
    double window_start_, window_end_;
    bool   open_ = false;
    double t_last_ = 0., k_last_ = 0., t_first_ = 0., integral_ = 0.;
    double last_quarter_min_ = 0., last_quarter_max_ = 0.;
    bool   in_last_quarter_ = false;
    double signed_integral_ = 0., reversed_time_ = 0.;
    double ratio_last_ = 0., tangential_last_ = 0.;
  };
} // namespace granular
