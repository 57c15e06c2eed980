// The event and peak search shared by the impact integrators. See event_search.h.
#include "impact/event_search.h"

namespace granular::impact
{
  double
  unclamped_force(const contact::laws::ContactLaw &law, const double d, const double v,
                  const contact::NormalContactHistory &h)
  {
    const double dc = std::max(d, d_plus);
    double       f  = law.spring_force(dc, h);
    if (v >= 0. || law.damping_in_decompression())
      f += law.damping_force(dc, v, h);
    return f;
  }

  double
  force_return_function(const contact::laws::ContactLaw &law, const double force,
                        const double d, const double v, const contact::NormalContactHistory &h)
  {
    if (force != 0.)
      return force;
    const double u = unclamped_force(law, d, v, h);
    return u < 0. ? u : -std::numeric_limits<double>::denorm_min();
  }

  ImpactCurves
  sorted_curves(std::vector<ContactPoint> pts, const std::vector<ContactPoint> &special,
                const double ta, const double dedup)
  {
    for (const ContactPoint &e : special)
      {
        bool dup = false;
        for (const ContactPoint &q : pts)
          dup = dup || std::abs(q.t - e.t) <= dedup;
        if (!dup)
          pts.push_back(e);
      }
    std::stable_sort(pts.begin(), pts.end(),
                     [](const ContactPoint &u, const ContactPoint &v) { return u.t < v.t; });
    ImpactCurves c;
    for (const ContactPoint &q : pts)
      {
        c.time.push_back(q.t - ta);
        c.delta.push_back(q.d);
        c.delta_dot.push_back(q.v);
        c.force.push_back(q.force);
      }
    return c;
  }
} // namespace granular::impact
