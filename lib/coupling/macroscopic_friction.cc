#include "coupling/macroscopic_friction.h"

#include <algorithm>
#include <cmath>

namespace granular
{
  MacroscopicFriction::MacroscopicFriction(double window_start, double window_end)
    : window_start_(window_start)
    , window_end_(window_end)
  {}

  double MacroscopicFriction::instantaneous(double normal_force, double tangential_force)
  {
    return normal_force == 0. ? 0. : std::abs(tangential_force / normal_force);
  }

  void MacroscopicFriction::add(double t, double normal_force, double tangential_force)
  {
    const double tol = 1e-9 * (window_end_ - window_start_);
    if (t < window_start_ - tol)
      return;
    const double ratio = normal_force == 0. ? 0. : tangential_force / normal_force;
    const double k     = std::abs(ratio); // instantaneous(), without a second division
    if (!open_)
      {
        open_    = true;
        t_first_ = t;
      }
    else
      {
        const double dt = t - t_last_;
        integral_ += 0.5 * (k + k_last_) * dt;
        signed_integral_ += 0.5 * (ratio + ratio_last_) * dt;
        const bool now_reversed = tangential_force < 0., was_reversed = tangential_last_ < 0.;
        if (now_reversed && was_reversed)
          reversed_time_ += dt;
        else if (now_reversed != was_reversed)
          {
            // the zero of F_T, linear between the samples
            const double negative = now_reversed ? tangential_force : tangential_last_;
            const double other    = now_reversed ? tangential_last_ : tangential_force;
            reversed_time_ += dt * (-negative) / (other - negative);
          }
      }
    t_last_          = t;
    k_last_          = k;
    ratio_last_      = ratio;
    tangential_last_ = tangential_force;
    if (t >= window_end_ - 0.25 * (window_end_ - window_start_) - tol)
      {
        const double avg = moving_average();
        if (!in_last_quarter_)
          last_quarter_min_ = last_quarter_max_ = avg;
        in_last_quarter_  = true;
        last_quarter_min_ = std::min(last_quarter_min_, avg);
        last_quarter_max_ = std::max(last_quarter_max_, avg);
      }
  }

  double MacroscopicFriction::moving_average() const
  {
    return (open_ && t_last_ > t_first_) ? integral_ / (t_last_ - t_first_) : 0.;
  }

  double MacroscopicFriction::signed_mean() const
  {
    return (open_ && t_last_ > t_first_) ? signed_integral_ / (t_last_ - t_first_) : 0.;
  }

  double MacroscopicFriction::reversed_fraction() const
  {
    return (open_ && t_last_ > t_first_) ? reversed_time_ / (t_last_ - t_first_) : 0.;
  }

  double MacroscopicFriction::spread() const
  {
    return in_last_quarter_ ? last_quarter_max_ - last_quarter_min_ : 0.;
  }
} // namespace granular
