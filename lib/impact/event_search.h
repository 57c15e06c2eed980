#pragma once
/**
 * @file event_search.h
 * The event and peak search shared by the impact integrators (sdof_impact.cc,
 * two_pendulums.cc, granular_chain.cc): an integrator advances with Boost.Odeint's
 * dense-output Dormand–Prince 5(4) stepper, and after every accepted step [t0, t1] it looks
 * for its events on the step's dense output x(t), t0 <= t <= t1 (docs/methods.md §9,
 * docs/contact-law-catalogue.md §8):
 *  - an event is a sign change of an event function g(t) (indentation d, rate d', the force
 *    F or a gap): locate_sign_change() finds it with Boost.Math's TOMS 748 (Alefeld, Potra
 *    and Shi, ACM TOMS 21 (1995) 327–344) to full double precision in t;
 *  - a peak (largest force, smallest gap) inside a step is found by Brent's method
 *    (boost::math::tools::brent_find_minima, half the double digits): locate_minimum(),
 *    locate_maximum();
 *  - a contact of an SDOF-type integrator ends where d returns to 0 or the force first
 *    returns to 0 in restitution (docs/contact-law-catalogue.md §1 criteria (a) and (b));
 *    locate_force_return() and force_return_function() find the second one;
 *  - ContactRecord keeps the dense output of every step of a contact, so that the peak force
 *    (contact_force_peak()) and the equally spaced force–indentation curve
 *    (contact_curves()) are evaluated on the integrated solution after the contact.
 *
 * Units are those of the caller: times in s; indentations mm, rates mm/s, forces N
 * (mm–s–N–t, docs/methods.md §1).
 *
 * This layer is free of deal.II.
 */
#include "contact/laws/contact_law.h"
#include "impact/sdof_impact.h"

#include <boost/math/tools/minima.hpp>
#include <boost/math/tools/toms748_solve.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace granular::impact
{
  /// The indentation used for "d -> 0+" (mm): the force at first contact, at separation and
  /// of a contact held in contact at d <= 0, so that the right-hand side is continuous
  /// across d = 0.
  constexpr double d_plus = std::numeric_limits<double>::min();

  /// Which time locate_sign_change() reports from TOMS 748's final bracket [a', b'].
  enum class RootReport
  {
    /// (a' + b')/2: the root to full double precision (SDOF impact, two pendulums).
    midpoint,
    /// b': the later end, where g already has the sign of g(b), so that the event has
    /// happened at the reported time (granular chain: a contact's status is switched there).
    after_crossing
  };

  /**
   * The time in [a, b] where the event function @p g changes sign, by Boost.Math's TOMS 748
   * (toms748_solve with eps_tolerance<double>, i.e. to full double precision in t).
   *
   * @param g event function of t (s); g(a) = @p ga and g(b) = @p gb of opposite signs or 0
   * @param a, b the step (s), a < b
   * @param report which point of the final bracket is returned
   * @param max_iterations the iteration limit given to toms748_solve (a bracket that is not
   *        closed by then is reported as it is)
   * @return a if ga = 0; else b if gb = 0; else the root as chosen by @p report (s)
   * @throws boost's domain error (std::domain_error) if ga and gb have the same sign
   */
  template <typename Function>
  double
  locate_sign_change(const Function &g, const double a, const double b, const double ga,
                     const double gb, const RootReport report = RootReport::midpoint,
                     const std::uintmax_t max_iterations = 200)
  {
    if (ga == 0.)
      return a;
    if (gb == 0.)
      return b;
    std::uintmax_t iterations = max_iterations;
    const auto     r          = boost::math::tools::toms748_solve(
      g, a, b, ga, gb, boost::math::tools::eps_tolerance<double>(), iterations);
    return report == RootReport::midpoint ? 0.5 * (r.first + r.second) : r.second;
  }

  /// The state at @p t (s) of the current step of the dense-output stepper @p stepper
  /// (Boost.Odeint calc_state(): the step's interpolant, t within the step).
  template <typename Dense>
  typename Dense::state_type
  dense_state(const Dense &stepper, const double t)
  {
    typename Dense::state_type x;
    stepper.calc_state(t, x);
    return x;
  }

  /// An extremum of a function of time: where (s) and its value (the function's units).
  struct Extremum
  {
    double t     = 0.;
    double value = 0.;
  };

  /**
   * The minimum of @p f on [a, b] by Brent's method (boost::math::tools::brent_find_minima,
   * std::numeric_limits<double>::digits / 2 bits, at most @p max_iterations iterations): a
   * local minimum, to be used where f is unimodal on [a, b] (a grazing gap inside one step).
   * @param a, b the interval (s), a < b
   */
  template <typename Function>
  Extremum
  locate_minimum(const Function &f, const double a, const double b,
                 const std::uintmax_t max_iterations = 200)
  {
    std::uintmax_t iterations = max_iterations;
    const auto     m          = boost::math::tools::brent_find_minima(
      f, a, b, std::numeric_limits<double>::digits / 2, iterations);
    return {m.first, m.second};
  }

  /// The maximum of @p f on [a, b] (a peak force inside one step): locate_minimum() of -f.
  template <typename Function>
  Extremum
  locate_maximum(const Function &f, const double a, const double b,
                 const std::uintmax_t max_iterations = 200)
  {
    const Extremum m = locate_minimum([&](const double t) { return -f(t); }, a, b,
                                      max_iterations);
    return {m.t, -m.value};
  }

  /**
   * The force S + D of @p law without the clamp max(0, .) (N): ContactLaw::spring_force()
   * plus, in compression (d' >= 0) or for a law with damping in decompression,
   * ContactLaw::damping_force(), at max(d, 0+). Where a clamped law returns 0 this sign
   * changes smoothly, so the return of the force to 0 is a located root.
   * @param d indentation (mm); @param v rate d' (mm/s, > 0 compression)
   */
  double
  unclamped_force(const contact::laws::ContactLaw &law, double d, double v,
                  const contact::NormalContactHistory &h);

  /**
   * The event function whose first root in restitution is "the force returns to 0"
   * (docs/contact-law-catalogue.md §1 criterion (b)): @p force if it is not 0, else (a
   * clamped law) the unclamped S + D if negative, else -denorm_min (N).
   * @param force the law's force F(max(d, 0+), d', h) at the point (N)
   */
  double
  force_return_function(const contact::laws::ContactLaw &law, double force, double d,
                        double v, const contact::NormalContactHistory &h);

  /**
   * The first time in a restitution step [t0, t1] where the force returns to 0, NaN if it
   * does not in the step (docs/contact-law-catalogue.md §1 criterion (b)).
   * @param g force_return_function() of t on the step's dense output
   * @param t_d the separation d = 0 in the step (s), or NaN: the return is then looked for
   *        on [t0, t_d] only, with @p g_separation() = g at d -> 0+ (a force that vanishes
   *        only with d, Hertz or Hunt–Crossley, is no return to 0 there)
   * @return t0 if g(t0) <= 0 (or NaN); else the root of g by locate_sign_change()
   */
  template <typename Function, typename AtSeparation>
  double
  locate_force_return(const Function &g, const double t0, const double t1, const double t_d,
                      const AtSeparation &g_separation)
  {
    const double g0 = g(t0);
    if (!(g0 > 0.))
      return t0;
    if (std::isnan(t_d))
      {
        const double g1 = g(t1);
        return g1 > 0. ? std::numeric_limits<double>::quiet_NaN() :
                         locate_sign_change(g, t0, t1, g0, g1);
      }
    const double gd = g_separation();
    return gd < 0. ? locate_sign_change(g, t0, t_d, g0, gd) :
                     std::numeric_limits<double>::quiet_NaN();
  }

  /// A point of a contact in physical units: time t (s), indentation d (mm), rate d' (mm/s,
  /// > 0 compression), the law's internal variable alpha (mm), the work of the contact force
  /// W (N mm) and the force F (N). Integrators that do not integrate alpha or W leave them 0.
  struct ContactPoint
  {
    double t = 0., d = 0., v = 0., alpha = 0., work = 0., force = 0.;
  };

  /**
   * The accepted steps of one contact, each with its dense output and the law's history it
   * used, so that any time of the contact can be evaluated after it (peak force, curves).
   * @tparam Dense Boost.Odeint's dense-output stepper type (copied per step)
   * @tparam History the history the step used (e.g. contact::NormalContactHistory)
   */
  template <typename Dense, typename History>
  class ContactRecord
  {
  public:
    /// One step: its dense output, valid on [t0, t1] (s), and the history it used.
    struct Step
    {
      Dense   stepper;
      History h;
      double  t0;
      double  t1;
    };

    std::vector<Step> steps;

    /// Adds the step of @p stepper on [t0, t1] that used history @p h.
    void
    add(const Dense &stepper, const History &h, const double t0, const double t1)
    {
      steps.push_back(Step{stepper, h, t0, t1});
    }

    /// Cuts the last step at @p t (s): an event ended it there.
    void
    end_last_step_at(const double t)
    {
      steps.back().t1 = t;
    }

    /// Removes the steps that start after @p t (s), the contact having ended at t.
    void
    drop_steps_after(const double t)
    {
      while (!steps.empty() && steps.back().t0 > t)
        steps.pop_back();
    }

    /**
     * The point at time @p t: the state of the step containing t (t clamped into it) made a
     * point by @p point(state, t, history).
     */
    template <typename PointOf>
    ContactPoint
    at(const double t, const PointOf &point) const
    {
      auto it = std::upper_bound(steps.begin(), steps.end(), t,
                                 [](const double tt, const Step &s) { return tt < s.t0; });
      if (it != steps.begin())
        --it;
      return point(dense_state(it->stepper, std::clamp(t, it->t0, it->t1)), t, it->h);
    }

    /// The starts of the steps strictly inside (ta, tb) (s): the knots of the peak search.
    std::vector<double>
    step_starts(const double ta, const double tb) const
    {
      std::vector<double> t;
      for (const Step &s : steps)
        if (s.t0 > ta && s.t0 < tb)
          t.push_back(s.t0);
      return t;
    }
  };

  /**
   * The largest force of a contact: the largest of @p knots (its events and step starts),
   * refined by locate_maximum() between the knots next to it (events and step starts are
   * the only kinks of F(t), so F is smooth there).
   * @param knots points of the contact, at least one
   * @param point_at the point at a time of the contact (ContactRecord::at())
   */
  template <typename PointAt>
  ContactPoint
  contact_force_peak(const std::vector<ContactPoint> &knots, const PointAt &point_at)
  {
    ContactPoint fmax = knots.front();
    for (const ContactPoint &q : knots)
      if (q.force > fmax.force)
        fmax = q;
    double a = fmax.t, b = fmax.t;
    for (const ContactPoint &q : knots)
      {
        if (q.t < fmax.t && (a == fmax.t || q.t > a))
          a = q.t;
        if (q.t > fmax.t && (b == fmax.t || q.t < b))
          b = q.t;
      }
    if (a < b)
      {
        const Extremum m = locate_maximum([&](const double t) { return point_at(t).force; },
                                          a, b);
        if (m.value > fmax.force)
          fmax = point_at(m.t);
      }
    return fmax;
  }

  /// The curve of @p samples plus the @p special points not within @p dedup (s) of a
  /// sample, stable-sorted by time, times relative to @p ta (contact_curves()).
  ImpactCurves
  sorted_curves(std::vector<ContactPoint> samples, const std::vector<ContactPoint> &special,
                double ta, double dedup);

  /**
   * The curve of a contact on [ta, tb] (s): @p samples equally spaced times (both ends
   * included; none for 0) plus the @p special points (events, peak), a sample within
   * 1e-12 (tb - ta) of a special point replaced by it, in time order; times relative to ta.
   * @param point_at the point at a time of the contact (ContactRecord::at())
   */
  template <typename PointAt>
  ImpactCurves
  contact_curves(const double ta, const double tb, const unsigned int samples,
                 const std::vector<ContactPoint> &special, const PointAt &point_at)
  {
    std::vector<ContactPoint> pts;
    const double              dedup = 1e-12 * (tb - ta);
    for (unsigned int i = 0; i < samples; ++i)
      {
        const double ti   = (i + 1 == samples) ? tb : ta + (tb - ta) * i / (samples - 1);
        bool         near = false;
        for (const ContactPoint &e : special)
          near = near || std::abs(e.t - ti) <= dedup;
        if (!near)
          pts.push_back(point_at(ti));
      }
    return sorted_curves(pts, special, ta, dedup);
  }
} // namespace granular::impact
