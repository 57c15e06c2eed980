// Single-degree-of-freedom direct central impact (catalogue §1, §8). See sdof_impact.h.
#include "impact/sdof_impact.h"

#include "base/atomic_file.h"

#include <boost/math/tools/minima.hpp>
#include <boost/math/tools/toms748_solve.hpp>
#include <boost/numeric/odeint.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <limits>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <unistd.h>
#include <utility>

namespace granular::impact
{
  namespace
  {
    namespace ode = boost::numeric::odeint;

    /// Scaled state (d / L, d' / v0, alpha / L, W / E0).
    using State = std::array<double, 4>;
    using Dopri = ode::runge_kutta_dopri5<State>;
    using Dense = ode::result_of::make_dense_output<Dopri>::type;

    /// The indentation used for "d -> 0+": the force at first contact and at separation.
    constexpr double d_plus = std::numeric_limits<double>::min();

    /// One accepted step: its dense output, valid on [t0, t1], and the history it used.
    struct Step
    {
      Dense                         stepper;
      contact::NormalContactHistory h;
      double                        t0;
      double                        t1;
    };

    /// A point of the contact in physical units.
    struct Point
    {
      double t = 0., d = 0., v = 0., alpha = 0., work = 0., force = 0.;
    };

    /// Root of @p f on [a, b] (f(a), f(b) of opposite sign or zero) by TOMS 748, to full
    /// double precision in t.
    template <typename Function>
    double
    find_root(const Function &f, const double a, const double b, const double fa,
              const double fb)
    {
      if (fa == 0.)
        return a;
      if (fb == 0.)
        return b;
      std::uintmax_t max_iter = 200;
      const auto     r        = boost::math::tools::toms748_solve(
        f, a, b, fa, fb, boost::math::tools::eps_tolerance<double>(), max_iter);
      return 0.5 * (r.first + r.second);
    }

    class Integrator
    {
    public:
      Integrator(const contact::laws::ContactLaw &law_, const double m_, const double v0_,
                 const ImpactOptions &o_)
        : law(law_)
        , m(m_)
        , v0(v0_)
        , o(o_)
        , E0(0.5 * m_ * v0_ * v0_)
        , internal(law_.has_internal_variable())
      {
        onset = law.updated_history(d_plus, v0, 0., contact::NormalContactHistory{});
        onset.contact_time      = 0.;
        onset.internal_variable = 0.;
        L                       = o.length_scale;
        if (!(L > 0.))
          {
            // the elastic indentation that stores E0; 1 mm if the law's spring does not
            // reach E0 (e.g. a spring acting through the internal variable)
            const double l = law.indentation_for_energy(E0, onset);
            L = (std::isfinite(l) && l > 0. && l < 1e100 &&
                 law.stored_energy(l, onset) >= (1. - 1e-6) * E0) ?
                  l :
                  1.;
          }
      }

      ImpactResult
      run();

    private:
      const contact::laws::ContactLaw &law;
      const double                     m, v0;
      const ImpactOptions             &o;
      const double                     E0;
      const bool                       internal;
      double                           L = 1.;
      contact::NormalContactHistory    onset;
      std::vector<Step>                steps;

      /// @p h as seen at time @p t with internal variable @p alpha.
      contact::NormalContactHistory
      at(const contact::NormalContactHistory &h, const double t, const double alpha) const
      {
        contact::NormalContactHistory hh = h;
        hh.contact_time                  = t;
        if (internal)
          hh.internal_variable = alpha;
        return hh;
      }

      /// The force in contact: F(max(d, 0+), d').
      double
      contact_force(const double d, const double v, const contact::NormalContactHistory &h) const
      {
        return law.force(std::max(d, d_plus), v, h);
      }

      /// S + D with the damping flag but without the clamp (ContactLaw::force_on_branch
      /// without max(0, .)).
      double
      unclamped_force(const double d, const double v,
                      const contact::NormalContactHistory &h) const
      {
        const double dc = std::max(d, d_plus);
        double       f  = law.spring_force(dc, h);
        if (v >= 0. || law.damping_in_decompression())
          f += law.damping_force(dc, v, h);
        return f;
      }

      /// Function whose first root in restitution is "F returns to 0": F, or where F is 0
      /// (clamped), the unclamped S + D if negative, else -denorm_min.
      double
      zero_force_function(const Point &p, const contact::NormalContactHistory &h) const
      {
        const contact::NormalContactHistory hh = at(h, p.t, p.alpha);
        const double                        f  = contact_force(p.d, p.v, hh);
        if (f != 0.)
          return f;
        const double u = unclamped_force(p.d, p.v, hh);
        return u < 0. ? u : -std::numeric_limits<double>::denorm_min();
      }

      void
      rhs(const State &x, State &dxdt, const double t, const contact::NormalContactHistory &h) const
      {
        const double                        d  = L * x[0], v = v0 * x[1];
        const contact::NormalContactHistory hh = at(h, t, L * x[2]);
        const double                        dc = std::max(d, d_plus);
        const double                        F  = law.force(dc, v, hh);
        dxdt[0]                                = (v0 / L) * x[1];
        dxdt[1]                                = -F / (m * v0);
        dxdt[2] = internal ? law.internal_variable_rate(dc, v, hh) / L : 0.;
        dxdt[3] = F * v / E0;
      }

      /// Physical point of a scaled state at t (force with history @p h).
      Point
      point(const State &x, const double t, const contact::NormalContactHistory &h) const
      {
        Point p;
        p.t     = t;
        p.d     = L * x[0];
        p.v     = v0 * x[1];
        p.alpha = L * x[2];
        p.work  = E0 * x[3];
        p.force = contact_force(p.d, p.v, at(h, t, p.alpha));
        return p;
      }

      State
      scaled(const Point &p) const
      {
        return {{p.d / L, p.v / v0, p.alpha / L, p.work / E0}};
      }

      /// The point at time t of the recorded contact (0 <= t <= t_c).
      Point
      point_at(const double t) const
      {
        auto it = std::upper_bound(steps.begin(), steps.end(), t,
                                   [](const double tt, const Step &s) { return tt < s.t0; });
        if (it != steps.begin())
          --it;
        State x;
        it->stepper.calc_state(std::clamp(t, it->t0, it->t1), x);
        return point(x, t, it->h);
      }

      /// History after the contact reached @p p from a step that started with @p h at t0.
      contact::NormalContactHistory
      advanced(const contact::NormalContactHistory &h, const Point &p, const double t0) const
      {
        contact::NormalContactHistory n =
          law.updated_history(std::max(p.d, d_plus), p.v, p.t - t0, h);
        n.contact_time = p.t;
        if (internal)
          n.internal_variable = p.alpha;
        return n;
      }

      [[noreturn]] void
      fail(const std::string &what, const double t, const unsigned int n) const
      {
        std::ostringstream s;
        s << "simulate_impact (law " << law.name() << ", m_eff = " << m << " t, v0 = " << v0
          << " mm/s): " << what << " after " << n << " steps, t = " << t
          << " s (ImpactOptions::max_steps = " << o.max_steps
          << ", max_time_factor = " << o.max_time_factor << ")";
        throw std::runtime_error(s.str());
      }

      void
      finish(ImpactResult &r, const std::vector<Point> &events) const;
    };

    ImpactResult
    Integrator::run()
    {
      ImpactResult r;
      r.effective_mass    = m;
      r.approach_velocity = v0;

      const double abs_tol =
        o.absolute_tolerance > 0. ? o.absolute_tolerance : 1e-2 * o.relative_tolerance;
      auto stepper = ode::make_dense_output(abs_tol, o.relative_tolerance, Dopri());
      contact::NormalContactHistory h = onset; // history at the start of the current step
      double                        t = 0.;
      State                         x = {{0., 1., 0., 0.}};
      stepper.initialize(x, t, 1e-3 * L / v0);

      std::vector<Point> events;
      {
        Point p0;
        p0.v     = v0;
        p0.force = contact_force(0., v0, at(h, 0., 0.));
        events.push_back(p0);
      }
      bool                          compression = true;
      bool                          zero_force  = false; // F returned to 0 in restitution
      Point                         zero_force_point;    // ... first there
      contact::NormalContactHistory zero_force_history;
      double                        t_turn = 0.;

      const auto system = [&](const State &xx, State &dxdt, const double tt) {
        rhs(xx, dxdt, tt, h);
      };

      // d does not return to 0 (a permanent indentation held by the law, an exponential
      // decay): end the contact where the force first returned to 0 in restitution
      const auto end_at_zero_force = [&](const std::string &why) {
        const Point &p                = zero_force_point;
        r.separation                  = Separation::force_zero_no_return;
        r.residual_indentation        = p.d;
        r.separation_force            = p.force;
        r.separation_velocity         = -p.v;
        r.contact_duration            = p.t;
        r.dissipated_energy_from_work = p.work;
        r.final_history               = zero_force_history;
        std::ostringstream s;
        s << why << "; the contact was ended where the force first returned to 0 in "
          << "restitution (t = " << p.t << " s, d = " << p.d << " mm)";
        r.note = s.str();
        while (!steps.empty() && steps.back().t0 > p.t)
          steps.pop_back();
      };
      // a d = 0 crossing slower than this is integration noise of a decaying d (mm/s)
      const double noise_velocity = 1e3 * abs_tol * v0;

      for (unsigned int n = 1;; ++n)
        {
          std::pair<double, double> step;
          try
            {
              step = stepper.do_step(system);
            }
          catch (const std::exception &e)
            {
              fail(std::string("the integrator failed (") + e.what() + ")", t, n);
            }
          const auto [t0, t1] = step;
          const auto state    = [&](const double tt) {
            State xx;
            stepper.calc_state(tt, xx);
            return xx;
          };
          const auto pt = [&](const double tt) { return point(state(tt), tt, h); };
          steps.push_back(Step{stepper, h, t0, t1});
          r.steps = n;

          const State x1 = stepper.current_state();
          if (!std::all_of(x1.begin(), x1.end(), [](const double v) { return std::isfinite(v); }))
            fail("the state became non-finite (the law returned NaN or inf)", t1, n);
          if (compression)
            {
              if (x1[1] <= 0.)
                {
                  // turning point d' = 0: restart there so no step straddles it
                  const double te = find_root([&](const double tt) { return state(tt)[1]; },
                                              t0, t1, state(t0)[1], x1[1]);
                  Point p         = pt(te);
                  p.v             = 0.;
                  p.force         = contact_force(p.d, 0., at(h, te, p.alpha));
                  steps.back().t1 = te;
                  events.push_back(p);
                  r.max_indentation         = p.d;
                  r.time_of_max_indentation = te;
                  t_turn                    = te;
                  h                         = advanced(h, p, t0);
                  compression               = false;
                  t                         = te;
                  stepper.initialize(scaled(p), te, stepper.current_time_step());
                  continue;
                }
            }
          else
            {
              // separation at d = 0 (classical) and first return of F to 0, earliest first
              double t_d = std::numeric_limits<double>::quiet_NaN();
              if (x1[0] <= 0.)
                t_d = find_root([&](const double tt) { return state(tt)[0]; }, t0, t1,
                                state(t0)[0], x1[0]);
              double t_f = std::numeric_limits<double>::quiet_NaN();
              if (!zero_force)
                {
                  const auto g = [&](const double tt) { return zero_force_function(pt(tt), h); };
                  const double g0 = g(t0);
                  if (!(g0 > 0.))
                    t_f = t0;
                  else if (std::isnan(t_d))
                    {
                      const double g1 = g(t1);
                      if (!(g1 > 0.))
                        t_f = find_root(g, t0, t1, g0, g1);
                    }
                  else
                    {
                      // at d -> 0+ a force that vanishes with d (Hertz) is no return to 0
                      const Point  pd = pt(t_d);
                      const double gd = unclamped_force(0., pd.v, at(h, t_d, pd.alpha));
                      if (gd < 0.)
                        t_f = find_root(g, t0, t_d, g0, gd);
                    }
                }

              if (!std::isnan(t_f))
                {
                  const Point p            = pt(t_f);
                  zero_force               = true;
                  zero_force_point         = p;
                  zero_force_history       = advanced(h, p, t0);
                  r.force_returned_to_zero = true;
                  r.time_of_zero_force     = t_f;
                  steps.back().t1          = t_f;
                  events.push_back(p);
                  if (law.force_free_separation() || law.has_unloading_branch())
                    {
                      // catalogue B4/B5, S004 eq.(20): the contact ends at F = 0; an
                      // elastoplastic law (A3, G1-G3) carries no force below its residual
                      // indentation: the bodies separate there with the permanent indentation
                      r.separation                  = Separation::force_zero;
                      r.residual_indentation        = p.d;
                      r.separation_force            = p.force;
                      r.separation_velocity         = -p.v;
                      r.contact_duration            = t_f;
                      r.dissipated_energy_from_work = p.work;
                      r.final_history               = zero_force_history;
                      // released: the event located F = 0 to rounding, whatever its sign
                      r.final_history.released = true;
                      break;
                    }
                  // tension (unclamped) or free motion (clamped) until d = 0: restart at the
                  // kink
                  h = zero_force_history;
                  t = t_f;
                  stepper.initialize(scaled(p), t_f, stepper.current_time_step());
                  continue;
                }
              if (!std::isnan(t_d))
                {
                  Point p = pt(t_d);
                  p.d     = 0.;
                  p.force = contact_force(0., p.v, at(h, t_d, p.alpha));
                  steps.back().t1 = t_d;
                  if (-p.v < noise_velocity)
                    {
                      std::ostringstream s;
                      s << "d decayed to 0 rather than returned (d' = " << p.v
                        << " mm/s at d = 0, t = " << t_d
                        << " s, is at the integration noise level)";
                      if (zero_force)
                        {
                          end_at_zero_force(s.str());
                          break;
                        }
                      r.note = s.str();
                    }
                  r.separation                  = Separation::indentation_zero;
                  r.residual_indentation        = 0.;
                  r.separation_force            = p.force;
                  r.separation_velocity         = -p.v;
                  r.contact_duration            = t_d;
                  r.dissipated_energy_from_work = p.work;
                  r.final_history               = advanced(h, p, t0);
                  events.push_back(p);
                  break;
                }
            }

          // an ordinary accepted step: advance the history, restart the stepper (its
          // first-same-as-last derivative must use the new history)
          const Point p1 = point(x1, t1, h);
          h              = advanced(h, p1, t0);
          t              = t1;
          stepper.initialize(x1, t1, stepper.current_time_step());

          const double t_limit = compression ? o.max_time_factor * L / v0 :
                                               o.max_time_factor * t_turn;
          if (n >= o.max_steps || t > t_limit || !std::isfinite(t1))
            {
              if (compression)
                fail("no turning point d' = 0 reached (the force does not stop the approach)",
                     t, n);
              if (!zero_force)
                fail("no separation reached (neither d nor the force returned to 0 in "
                     "restitution)",
                     t, n);
              std::ostringstream s;
              s << "d did not return to 0 within the guards (t = " << t << " s, d = " << p1.d
                << " mm, d' = " << p1.v << " mm/s after " << n << " steps)";
              end_at_zero_force(s.str());
              break;
            }
        }

      finish(r, events);
      return r;
    }

    void
    Integrator::finish(ImpactResult &r, const std::vector<Point> &events_in) const
    {
      const double       tc = r.contact_duration;
      std::vector<Point> events;
      for (const Point &p : events_in)
        if (p.t <= tc)
          events.push_back(p);

      r.restitution       = r.separation_velocity / v0;
      r.dissipated_energy = 0.5 * m * (v0 * v0 - r.separation_velocity * r.separation_velocity);

      // F_max: the largest force at the step starts and events, refined by Brent's method
      // between the neighbouring knots (other times: events coincide with step starts)
      std::vector<Point> knots = events;
      for (const Step &s : steps)
        if (s.t0 > 0. && s.t0 < tc)
          knots.push_back(point_at(s.t0));
      Point fmax = knots.front();
      for (const Point &q : knots)
        if (q.force > fmax.force)
          fmax = q;
      double a = fmax.t, b = fmax.t;
      for (const Point &q : knots)
        {
          if (q.t < fmax.t && (a == fmax.t || q.t > a))
            a = q.t;
          if (q.t > fmax.t && (b == fmax.t || q.t < b))
            b = q.t;
        }
      if (a < b)
        {
          std::uintmax_t it = 200;
          const auto     br = boost::math::tools::brent_find_minima(
            [&](const double tt) { return -point_at(tt).force; }, a, b,
            std::numeric_limits<double>::digits / 2, it);
          if (-br.second > fmax.force)
            fmax = point_at(br.first);
        }
      r.max_force         = fmax.force;
      r.time_of_max_force = fmax.t;

      // curves: equally spaced samples plus the event points (and the point of F_max)
      std::vector<Point> pts;
      const unsigned int ns = o.samples == 0 ? 0 : std::max(o.samples, 2u);
      const double       dedup = 1e-12 * tc;
      std::vector<Point> special = events;
      special.push_back(fmax);
      for (unsigned int i = 0; i < ns; ++i)
        {
          const double ti = (i + 1 == ns) ? tc : tc * i / (ns - 1);
          bool         near_event = false;
          for (const Point &e : special)
            near_event = near_event || std::abs(e.t - ti) <= dedup;
          if (!near_event)
            pts.push_back(point_at(ti));
        }
      for (const Point &e : special)
        {
          bool dup = false;
          for (const Point &q : pts)
            dup = dup || std::abs(q.t - e.t) <= dedup;
          if (!dup)
            pts.push_back(e);
        }
      std::stable_sort(pts.begin(), pts.end(),
                       [](const Point &a, const Point &b) { return a.t < b.t; });
      for (const Point &p : pts)
        {
          r.curves.time.push_back(p.t);
          r.curves.delta.push_back(p.d);
          r.curves.delta_dot.push_back(p.v);
          r.curves.force.push_back(p.force);
        }
    }
  } // namespace

  std::string
  to_string(const Separation s)
  {
    switch (s)
      {
        case Separation::indentation_zero:
          return "indentation zero";
        case Separation::force_zero:
          return "force zero";
        case Separation::force_zero_no_return:
          return "force zero (d did not return to 0)";
      }
    return "?";
  }

  ImpactResult
  simulate_impact(const contact::laws::ContactLaw &law, const double effective_mass,
                  const double approach_velocity, const ImpactOptions &options)
  {
    if (!(std::isfinite(effective_mass) && effective_mass > 0.))
      throw std::invalid_argument("simulate_impact: the effective mass must be positive and "
                                  "finite");
    if (!(std::isfinite(approach_velocity) && approach_velocity > 0.))
      throw std::invalid_argument("simulate_impact: the approach velocity must be positive "
                                  "and finite (mm/s)");
    if (!(options.relative_tolerance > 0. && options.absolute_tolerance >= 0.))
      throw std::invalid_argument("simulate_impact: the relative tolerance must be positive and "
                                  "the absolute one non-negative");
    if (!(options.max_time_factor > 1.) || options.max_steps == 0 ||
        !(options.length_scale >= 0.))
      throw std::invalid_argument("simulate_impact: invalid guard options (max_time_factor "
                                  "> 1, max_steps > 0, length_scale >= 0)");
    Integrator integrator(law, effective_mass, approach_velocity, options);
    return integrator.run();
  }

  void
  write_impact_curves(std::ostream &out, const ImpactCurves &c)
  {
    out << "t,delta,delta_dot,force\n";
    out << std::setprecision(17);
    for (std::size_t i = 0; i < c.time.size(); ++i)
      out << c.time[i] << ',' << c.delta[i] << ',' << c.delta_dot[i] << ',' << c.force[i]
          << '\n';
  }

  void
  write_impact_curves_csv(const std::string &path, const ImpactCurves &curves)
  {
    std::ostringstream out;
    write_impact_curves(out, curves);
    write_file_atomically(path, out.str());
  }
} // namespace granular::impact
