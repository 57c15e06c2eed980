#include "contact/rubber_surface_contact.h"

#include "contact/coulomb_return_mapping.h"
#include "contact/normal_penalty.h"

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
    const NormalPenaltyResponse normal =
      normal_penalty(x[1], p.normal_penalty, p.regularisation_width);
    const double t_N = normal.traction;
    // A point entering contact sticks where it crossed the surface (x_old[0] is the
    // best available estimate of that place); otherwise keep the stored anchor.
    const double anchor = history.in_contact ? history.anchor : x_old[0];
    const CoulombReturnMapping c =
      coulomb_return_mapping(x[0] - anchor, p.tangential_penalty, p.friction_coefficient, t_N);

    r.trial.in_contact = true;
    r.traction[1]      = t_N;
    r.tangent[1][1]    = -normal.stiffness;
    r.traction[0]      = c.traction;
    if (c.sticking)
      {
        r.tangent[0][0] = c.dtraction_dgap; // d g_T / d x1 = 1
        r.trial.anchor  = anchor;
      }
    else
      {
        r.slipping      = true;
        r.tangent[0][1] = c.dtraction_dpressure * -normal.stiffness; // d t_N / d x2
        // t_T = -eps_T (x1 - anchor)  =>  anchor = x1 + t_T / eps_T
        r.trial.anchor   = x[0] + r.traction[0] / p.tangential_penalty;
        r.slip_increment = std::abs(r.trial.anchor - anchor);
      }
    return r;
  }

  double rubber_surface_step_dissipation(const Tensor<1, 2> &x_old, const Tensor<1, 2> &x,
                                         const SurfaceContactHistory  &start,
                                         const SurfaceContactResponse &end,
                                         const double                  tangential_penalty)
  {
    const double t_n =
      start.in_contact ? -tangential_penalty * (x_old[0] - start.anchor) : 0.;
    if (end.trial.in_contact)
      return coulomb_step_dissipation(t_n, end.traction[0], end.slip_increment);
    if (start.in_contact)
      return coulomb_release_dissipation(t_n, x[0] - x_old[0], tangential_penalty);
    return 0.;
  }
} // namespace granular::contact
