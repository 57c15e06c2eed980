#include "contact/rubber_surface_contact.h"

#include <cmath>

namespace granular::contact
{
  SurfaceContactResponse
  rubber_surface_contact(const Tensor<1, 2> &x, const Tensor<1, 2> &x_old,
                         const SurfaceContactHistory &history,
                         const PenaltyContactParameters &p)
  {
    SurfaceContactResponse r;
    r.normal_gap = x[1];
    if (x[1] >= 0.)
      {
        r.trial = SurfaceContactHistory{}; // contact lost: reset the stick point
        return r;
      }
    const double t_N    = -p.normal_penalty * x[1];
    // A point entering contact sticks where it crossed the surface (x_old[0] is the
    // best available estimate of that place); otherwise keep the stored anchor.
    const double anchor = history.in_contact ? history.anchor : x_old[0];
    const double t_T_trial = -p.tangential_penalty * (x[0] - anchor);
    const double limit     = p.friction_coefficient * t_N;

    r.trial.in_contact = true;
    r.traction[1]      = t_N;
    r.tangent[1][1]    = -p.normal_penalty;
    // stick needs a positive Coulomb limit: a frictionless point (k_o = 0) always
    // slips with t_T = 0, also when its trial traction happens to be exactly zero
    if (limit > 0. && std::abs(t_T_trial) <= limit)
      {
        r.traction[0]   = t_T_trial;
        r.tangent[0][0] = -p.tangential_penalty;
        r.trial.anchor  = anchor;
      }
    else
      {
        const double s  = t_T_trial > 0. ? 1. : -1.;
        r.slipping      = true;
        r.traction[0]   = s * limit;
        r.tangent[0][1] = -s * p.friction_coefficient * p.normal_penalty;
        // t_T = -eps_T (x1 - anchor)  =>  anchor = x1 + t_T / eps_T
        r.trial.anchor   = x[0] + r.traction[0] / p.tangential_penalty;
        r.slip_increment = std::abs(r.trial.anchor - anchor);
      }
    return r;
  }
} // namespace granular::contact
