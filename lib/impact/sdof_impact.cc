// Single-degree-of-freedom direct central impact (docs/contact-law-catalogue.md §1, §8). See
// sdof_impact.h.
#include "impact/sdof_impact.h"

#include "base/atomic_file.h"
#include "impact/event_search.h"

#include <boost/numeric/odeint.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <iomanip>
#include <limits>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace granular::impact
{
  namespace
  {
    namespace ode = boost::numeric::odeint;
    using contact::NormalContactHistory;

    /// Scaled state (d / L, d' / v0, alpha / L, W / E0).
    using State = std::array<double, 4>;
    using Dopri = ode::runge_kutta_dopri5<State>;
    using Dense = ode::result_of::make_dense_output<Dopri>::type;
    using Point = ContactPoint;

    /// The absolute tolerance of the stepper on the scaled state (ImpactOptions).
    double
    absolute_tolerance(const ImpactOptions &o)
    {
      return o.absolute_tolerance > 0. ? o.absolute_tolerance : 1e-2 * o.relative_tolerance;
    }

    /**
     * The integration of one impact (simulate_impact(), sdof_impact.h;
     * docs/contact-law-catalogue.md §1 and §8 S1–S3, S004 eqs.(1)–(5)). run() sets up the onset,
     * then integrates step by step: every accepted step is searched for its events (turning point
     * in compression, separation and return of the force to 0 in restitution), which end the step
     * and restart the stepper; finish() evaluates F_max and the curves on the recorded dense
     * output.
     */
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
        , abs_tol(absolute_tolerance(o_))
        , noise_velocity(1e3 * abs_tol * v0_)
        , stepper(ode::make_dense_output(abs_tol, o_.relative_tolerance, Dopri()))
      {
        onset = law.updated_history(d_plus, v0, 0., NormalContactHistory{});
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

      /// The impact from first contact to separation (simulate_impact()).
      ImpactResult
      run();

    private:
      const contact::laws::ContactLaw &law;
      const double                     m, v0;
      const ImpactOptions             &o;
      const double                     E0;
      const bool                       internal;
      const double                     abs_tol;
      /// a d = 0 crossing slower than this is integration noise of a decaying d (mm/s)
      const double                     noise_velocity;
      double                           L = 1.;
      NormalContactHistory             onset;
      ContactRecord<Dense, NormalContactHistory> record;

      // the integration
      ImpactResult         r;
      Dense                stepper;
      NormalContactHistory h;       ///< history at the start of the current step
      double               t = 0.;  ///< start of the current step (s)
      std::vector<Point>   events;  ///< onset, turning point, F = 0, separation
      bool                 compression = true;
      bool                 zero_force  = false; ///< F returned to 0 in restitution
      Point                zero_force_point;    ///< ... first there
      NormalContactHistory zero_force_history;
      double               t_turn = 0.;

      /// @p hh as seen at time @p tt with internal variable @p alpha.
      NormalContactHistory
      at(const NormalContactHistory &hh, const double tt, const double alpha) const
      {
        NormalContactHistory a = hh;
        a.contact_time         = tt;
        if (internal)
          a.internal_variable = alpha;
        return a;
      }

      /// The force in contact: F(max(d, 0+), d') (N).
      double
      contact_force(const double d, const double v, const NormalContactHistory &hh) const
      {
        return law.force(std::max(d, d_plus), v, hh);
      }

      /// The right-hand side of the scaled state with the history @p hh of the step.
      void
      rhs(const State &x, State &dxdt, const double tt, const NormalContactHistory &hh) const
      {
        const double               d  = L * x[0], v = v0 * x[1];
        const NormalContactHistory a  = at(hh, tt, L * x[2]);
        const double               dc = std::max(d, d_plus);
        const double               F  = law.force(dc, v, a);
        dxdt[0]                       = (v0 / L) * x[1];
        dxdt[1]                       = -F / (m * v0);
        dxdt[2] = internal ? law.internal_variable_rate(dc, v, a) / L : 0.;
        dxdt[3] = F * v / E0;
      }

      /// Physical point of a scaled state at tt (force with history @p hh).
      Point
      point(const State &x, const double tt, const NormalContactHistory &hh) const
      {
        Point p;
        p.t     = tt;
        p.d     = L * x[0];
        p.v     = v0 * x[1];
        p.alpha = L * x[2];
        p.work  = E0 * x[3];
        p.force = contact_force(p.d, p.v, at(hh, tt, p.alpha));
        return p;
      }

      State
      scaled(const Point &p) const
      {
        return {{p.d / L, p.v / v0, p.alpha / L, p.work / E0}};
      }

      /// The state at tt of the current step's dense output.
      State
      state(const double tt) const
      {
        return dense_state(stepper, tt);
      }

      /// The point at tt of the current step (its history h).
      Point
      current_point(const double tt) const
      {
        return point(state(tt), tt, h);
      }

      /// The point at time tt of the recorded contact (0 <= tt <= t_c).
      Point
      point_at(const double tt) const
      {
        return record.at(tt, [this](const State &x, const double ts,
                                    const NormalContactHistory &hh) { return point(x, ts, hh); });
      }

      /// History after the contact reached @p p from a step that started with @p hh at t0.
      NormalContactHistory
      advanced(const NormalContactHistory &hh, const Point &p, const double t0) const
      {
        NormalContactHistory n = law.updated_history(std::max(p.d, d_plus), p.v, p.t - t0, hh);
        n.contact_time         = p.t;
        if (internal)
          n.internal_variable = p.alpha;
        return n;
      }

      /// Restarts the stepper at the point @p p (its first-same-as-last derivative is
      /// recomputed with the current history).
      void
      restart_at(const Point &p)
      {
        t = p.t;
        stepper.initialize(scaled(p), p.t, stepper.current_time_step());
      }

      [[noreturn]] void
      fail(const std::string &what, const double tt, const unsigned int n) const
      {
        std::ostringstream s;
        s << "simulate_impact (law " << law.name() << ", m_eff = " << m << " t, v0 = " << v0
          << " mm/s): " << what << " after " << n << " steps, t = " << tt
          << " s (ImpactOptions::max_steps = " << o.max_steps
          << ", max_time_factor = " << o.max_time_factor << ")";
        throw std::runtime_error(s.str());
      }

      /// What an accepted step came to.
      enum class StepEnd
      {
        ordinary, ///< no event in the step
        restarted, ///< an event ended the step; the stepper restarted there
        ended      ///< the contact ended
      };

      void
      start();
      std::pair<double, double>
      take_step(unsigned int n);
      StepEnd
      turning_point(double t0, double t1);
      StepEnd
      restitution_events(double t0, double t1);
      StepEnd
      force_returned_to_zero(double t_f, double t0);
      void
      separated(double t_d, double t0);
      void
      end_contact(const Point &p, Separation how, const NormalContactHistory &final_history);
      void
      end_at_zero_force(const std::string &why);
      bool
      ordinary_step(double t0, double t1, unsigned int n);
      void
      finish();
    };

    /// Set-up: the onset d = 0, d' = v0 with the onset history.
    void
    Integrator::start()
    {
      r                   = ImpactResult{};
      r.effective_mass    = m;
      r.approach_velocity = v0;
      h                   = onset;
      t                   = 0.;
      const State x       = {{0., 1., 0., 0.}};
      stepper.initialize(x, t, 1e-3 * L / v0);
      Point p0;
      p0.v     = v0;
      p0.force = contact_force(0., v0, at(h, 0., 0.));
      events.push_back(p0);
    }

    /// The accepted step number @p n of the stepper, recorded; its interval [t0, t1] (s).
    /// @throws std::runtime_error (fail()) if the stepper fails or the state is not finite.
    std::pair<double, double>
    Integrator::take_step(const unsigned int n)
    {
      std::pair<double, double> step;
      try
        {
          step = stepper.do_step([this](const State &x, State &dxdt, const double tt) {
            rhs(x, dxdt, tt, h);
          });
        }
      catch (const std::exception &e)
        {
          fail(std::string("the integrator failed (") + e.what() + ")", t, n);
        }
      record.add(stepper, h, step.first, step.second);
      r.steps        = n;
      const State x1 = stepper.current_state();
      if (!std::all_of(x1.begin(), x1.end(), [](const double v) { return std::isfinite(v); }))
        fail("the state became non-finite (the law returned NaN or inf)", step.second, n);
      return step;
    }

    /// Compression: the turning point d' = 0 (delta_max) if the step reaches it; the
    /// restitution phase starts there (d' set to 0), so that no step straddles it.
    Integrator::StepEnd
    Integrator::turning_point(const double t0, const double t1)
    {
      const double v1 = stepper.current_state()[1];
      if (v1 > 0.)
        return StepEnd::ordinary;
      const double te =
        locate_sign_change([&](const double tt) { return state(tt)[1]; }, t0, t1,
                           state(t0)[1], v1);
      Point p = current_point(te);
      p.v     = 0.;
      p.force = contact_force(p.d, 0., at(h, te, p.alpha));
      record.end_last_step_at(te);
      events.push_back(p);
      r.max_indentation         = p.d;
      r.time_of_max_indentation = te;
      t_turn                    = te;
      h                         = advanced(h, p, t0);
      compression               = false;
      restart_at(p);
      return StepEnd::restarted;
    }

    /// Restitution: separation at d = 0 (classical) and the first return of F to 0,
    /// whichever comes first in the step.
    Integrator::StepEnd
    Integrator::restitution_events(const double t0, const double t1)
    {
      const double d1  = stepper.current_state()[0];
      double       t_d = std::numeric_limits<double>::quiet_NaN();
      if (d1 <= 0.)
        t_d = locate_sign_change([&](const double tt) { return state(tt)[0]; }, t0, t1,
                                 state(t0)[0], d1);
      if (!zero_force)
        {
          const auto g = [&](const double tt) {
            const Point p = current_point(tt);
            return force_return_function(law, p.force, p.d, p.v, at(h, tt, p.alpha));
          };
          const double t_f = locate_force_return(g, t0, t1, t_d, [&] {
            const Point pd = current_point(t_d);
            return unclamped_force(law, 0., pd.v, at(h, t_d, pd.alpha));
          });
          if (!std::isnan(t_f))
            return force_returned_to_zero(t_f, t0);
        }
      if (std::isnan(t_d))
        return StepEnd::ordinary;
      separated(t_d, t0);
      return StepEnd::ended;
    }

    /// F returned to 0 at @p t_f in restitution: the contact ends there for a law with a
    /// force-free separation or an unloading branch; else the integration restarts there.
    Integrator::StepEnd
    Integrator::force_returned_to_zero(const double t_f, const double t0)
    {
      const Point p            = current_point(t_f);
      zero_force               = true;
      zero_force_point         = p;
      zero_force_history       = advanced(h, p, t0);
      r.force_returned_to_zero = true;
      r.time_of_zero_force     = t_f;
      record.end_last_step_at(t_f);
      events.push_back(p);
      if (law.force_free_separation() || law.has_unloading_branch())
        {
          // docs/contact-law-catalogue.md B4/B5, S004 eq.(20): the contact ends at F = 0; an
          // elastoplastic law (A3, G1-G3) carries no force below its residual indentation: the
          // bodies separate there with the permanent indentation
          end_contact(p, Separation::force_zero, zero_force_history);
          // released: the event located F = 0 to rounding, whatever its sign
          r.final_history.released = true;
          return StepEnd::ended;
        }
      // tension (unclamped) or free motion (clamped) until d = 0: restart at the kink
      h = zero_force_history;
      restart_at(p);
      return StepEnd::restarted;
    }

    /// Separation at d = 0 at @p t_d (classical criterion), unless d only decayed to 0 at the
    /// noise level after F had returned to 0 (end_at_zero_force()).
    void
    Integrator::separated(const double t_d, const double t0)
    {
      Point p = current_point(t_d);
      p.d     = 0.;
      p.force = contact_force(0., p.v, at(h, t_d, p.alpha));
      record.end_last_step_at(t_d);
      if (-p.v < noise_velocity)
        {
          std::ostringstream s;
          s << "d decayed to 0 rather than returned (d' = " << p.v << " mm/s at d = 0, t = "
            << t_d << " s, is at the integration noise level)";
          if (zero_force)
            {
              end_at_zero_force(s.str());
              return;
            }
          r.note = s.str();
        }
      end_contact(p, Separation::indentation_zero, advanced(h, p, t0));
      events.push_back(p);
    }

    /// Records the end of the contact at @p p.
    void
    Integrator::end_contact(const Point &p, const Separation how,
                            const NormalContactHistory &final_history)
    {
      r.separation                  = how;
      r.residual_indentation        = how == Separation::indentation_zero ? 0. : p.d;
      r.separation_force            = p.force;
      r.separation_velocity         = -p.v;
      r.contact_duration            = p.t;
      r.dissipated_energy_from_work = p.work;
      r.final_history               = final_history;
    }

    /// d does not return to 0 (a permanent indentation held by the law, an exponential
    /// decay): the contact ends where the force first returned to 0 in restitution.
    void
    Integrator::end_at_zero_force(const std::string &why)
    {
      const Point &p = zero_force_point;
      end_contact(p, Separation::force_zero_no_return, zero_force_history);
      std::ostringstream s;
      s << why << "; the contact was ended where the force first returned to 0 in "
        << "restitution (t = " << p.t << " s, d = " << p.d << " mm)";
      r.note = s.str();
      record.drop_steps_after(p.t);
    }

    /// An accepted step without an event: advance the history, restart the stepper (its
    /// first-same-as-last derivative must use the new history), check the guards.
    /// @return true if the contact was ended at the guards (end_at_zero_force()).
    /// @throws std::runtime_error (fail()) at the guards without a return of F to 0.
    bool
    Integrator::ordinary_step(const double t0, const double t1, const unsigned int n)
    {
      const State x1 = stepper.current_state();
      const Point p1 = point(x1, t1, h);
      h              = advanced(h, p1, t0);
      t              = t1;
      stepper.initialize(x1, t1, stepper.current_time_step());

      const double t_limit =
        compression ? o.max_time_factor * L / v0 : o.max_time_factor * t_turn;
      if (!(n >= o.max_steps || t > t_limit || !std::isfinite(t1)))
        return false;
      if (compression)
        fail("no turning point d' = 0 reached (the force does not stop the approach)", t, n);
      if (!zero_force)
        fail("no separation reached (neither d nor the force returned to 0 in restitution)",
             t, n);
      std::ostringstream s;
      s << "d did not return to 0 within the guards (t = " << t << " s, d = " << p1.d
        << " mm, d' = " << p1.v << " mm/s after " << n << " steps)";
      end_at_zero_force(s.str());
      return true;
    }

    ImpactResult
    Integrator::run()
    {
      start();
      for (unsigned int n = 1;; ++n)
        {
          const auto [t0, t1] = take_step(n);
          const StepEnd end =
            compression ? turning_point(t0, t1) : restitution_events(t0, t1);
          if (end == StepEnd::ended)
            break;
          if (end == StepEnd::ordinary && ordinary_step(t0, t1, n))
            break;
        }
      finish();
      return r;
    }

    /// After the contact: restitution, dissipated energy, F_max and the curves.
    void
    Integrator::finish()
    {
      const double       tc = r.contact_duration;
      std::vector<Point> contact_events;
      for (const Point &p : events)
        if (p.t <= tc)
          contact_events.push_back(p);

      r.restitution       = r.separation_velocity / v0;
      r.dissipated_energy = 0.5 * m * (v0 * v0 - r.separation_velocity * r.separation_velocity);

      const auto point_of = [this](const double tt) { return point_at(tt); };
      // F_max: the largest force at the step starts and events, refined between the
      // neighbouring knots
      std::vector<Point> knots = contact_events;
      for (const double ts : record.step_starts(0., tc))
        knots.push_back(point_at(ts));
      const Point fmax    = contact_force_peak(knots, point_of);
      r.max_force         = fmax.force;
      r.time_of_max_force = fmax.t;

      // curves: equally spaced samples plus the event points (and the point of F_max)
      std::vector<Point> special = contact_events;
      special.push_back(fmax);
      r.curves = contact_curves(0., tc, o.samples == 0 ? 0 : std::max(o.samples, 2u), special,
                                point_of);
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
