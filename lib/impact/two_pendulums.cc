// Two-pendulum impact of S004 §6 (docs/contact-law-catalogue.md §8 S8). See two_pendulums.h.
#include "impact/two_pendulums.h"

#include "base/atomic_file.h"
#include "impact/event_search.h"

#include <boost/numeric/odeint.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <limits>
#include <memory>
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
    using contact::NormalContactHistory;
    using contact::laws::ContactLaw;

    /// Integrated state (theta1, theta2, theta1', theta2', W / E_s, P / P_s).
    using State = std::array<double, 6>;
    using Dopri = ode::runge_kutta_dopri5<State>;
    using Dense = ode::result_of::make_dense_output<Dopri>::type;

    const std::string impulse_model = "impulse";
    const std::string restitution_entry = "Coefficient of restitution";
    const std::string exponent_entry    = "Elastic exponent";

    /// The law's own values set by the scenario: e and n, if the law has these entries.
    contact::laws::LawValues
    law_values(const contact::laws::LawInfo &info, const TwoPendulumsParameters &p)
    {
      contact::laws::LawValues v;
      for (const auto &par : info.parameters)
        {
          if (par.name == restitution_entry)
            v[par.name] = p.restitution;
          if (par.name == exponent_entry)
            v[par.name] = p.exponent;
        }
      return v;
    }

    /// The law @p model for a contact of effective mass @p m_eff (t).
    std::shared_ptr<const ContactLaw>
    make_contact_law(const TwoPendulumsParameters &p, const std::string &model,
                     const double m_eff)
    {
      const contact::laws::LawInfo *info = contact::laws::find_law(model);
      if (info == nullptr)
        throw std::invalid_argument("TwoPendulumsParameters::models: unknown model \"" + model +
                                    "\" (\"impulse\" or a law identifier)");
      contact::laws::ContactData data;
      data.stiffness      = p.stiffness;
      data.effective_mass = m_eff;
      return contact::laws::make_law(model, law_values(*info, p), data);
    }

    /// Checks that @p model can be run (see TwoPendulumsParameters::validate()).
    void
    check_model(const TwoPendulumsParameters &p, const std::string &model)
    {
      if (model == impulse_model)
        return;
      const contact::laws::LawInfo *info = contact::laws::find_law(model);
      if (info == nullptr)
        throw std::invalid_argument("TwoPendulumsParameters::models: unknown model \"" + model +
                                    "\" (\"impulse\" or a law identifier)");
      for (const auto n : info->needs)
        if (n != contact::laws::Needs::stiffness && n != contact::laws::Needs::effective_mass)
          throw std::invalid_argument("TwoPendulumsParameters::models: law \"" + model +
                                      "\" needs " + contact::laws::describe(n) +
                                      ", which the two-pendulum scenario does not define");
      std::shared_ptr<const ContactLaw> law;
      try
        {
          // the effective mass of the defaults' first impact, to check the law's values
          law = make_contact_law(p, model, 1e-4);
        }
      catch (const std::invalid_argument &e)
        {
          throw std::invalid_argument("TwoPendulumsParameters::models: law \"" + model +
                                      "\": " + e.what());
        }
      if (law->has_internal_variable())
        throw std::invalid_argument("TwoPendulumsParameters::models: law \"" + model +
                                    "\" has an internal variable, which the two-pendulum "
                                    "integrator does not integrate");
    }

    using Point = ContactPoint;

    /**
     * The run of one impact model (simulate_two_pendulums(), two_pendulums.h;
     * docs/contact-law-catalogue.md §8 S8, S004 §6). run() integrates from t = 0 to the end time
     * step by step; every accepted step is searched for the event of the current phase (free: the
     * onset g = 0; contact: the turning point, the return of F to 0 and the separation; released:
     * leaving rod 1), which ends the step there; the event's handler records it and restarts the
     * stepper.
     */
    class Simulation
    {
    public:
      Simulation(const TwoPendulumsParameters &p_, std::string model_)
        : p(p_)
        , model(std::move(model_))
        , impulse(model == impulse_model)
        , I1(p_.inertia(1))
        , I2(p_.inertia(2))
        , E_s(0.5 * p_.gravity * (p_.mass_1 * p_.length_1 + p_.mass_2 * p_.length_2))
        , P_s(E_s / std::sqrt(p_.gravity * p_.length_1))
        , stepper(ode::make_dense_output(p_.absolute_tolerance, p_.relative_tolerance, Dopri()))
      {}

      /// The run from t = 0 to the end time (simulate_two_pendulums()).
      TwoPendulumsResult
      run();

    private:
      enum class Phase
      {
        free,     ///< no contact force
        contact,  ///< the law's force acts
        released  ///< force-free separation reached, the tip still overlaps rod 1 (F = 0)
      };

      /// What ends a step early.
      enum class Event
      {
        none,
        onset,      ///< g = 0 from above (free phase)
        turning,    ///< d' = 0 (compression)
        zero_force, ///< F returns to 0 (restitution)
        separation  ///< d = 0 (restitution)
      };

      const TwoPendulumsParameters &p;
      const std::string             model;
      const bool                    impulse;
      const double                  I1, I2, E_s, P_s;

      Phase                             phase = Phase::free;
      std::shared_ptr<const ContactLaw> law;
      NormalContactHistory              h;      // history at the start of the current step
      double                            t_onset = 0.;
      bool                              compression = true;
      bool                              zero_force  = false;

      // the integration and its output
      TwoPendulumsResult  r;
      Dense               stepper;
      std::vector<double> out_times; ///< equally spaced output times, the end time included
      std::size_t         next_out = 0;

      // the current contact
      PendulumImpact current;
      double         energy_before  = 0.;
      double         impulse_before = 0.; // P/P_s at the onset
      bool           first_contact  = true;
      ContactRecord<Dense, NormalContactHistory> first_record; // first contact (law models)
      std::vector<Point> first_events; // its event points

      static PendulumState
      pendulum(const State &x)
      {
        return {{x[0], x[1], x[2], x[3]}};
      }

      PendulumContact
      kinematics(const State &x) const
      {
        return two_pendulums_contact(p, pendulum(x));
      }

      /// @p hh with contact_time = t - t_onset.
      NormalContactHistory
      at(const NormalContactHistory &hh, const double t) const
      {
        NormalContactHistory a = hh;
        a.contact_time         = t - t_onset;
        return a;
      }

      /// The law's force F(max(d, 0+), d') (N) at @p x, whatever the phase.
      double
      law_force(const State &x, const double t, const NormalContactHistory &hh) const
      {
        const PendulumContact c = kinematics(x);
        return law->force(std::max(-c.gap, d_plus), -c.gap_rate, at(hh, t));
      }

      /// The contact force (N): law_force() in the contact phase, else 0.
      double
      force(const State &x, const double t, const NormalContactHistory &hh) const
      {
        return phase == Phase::contact ? law_force(x, t, hh) : 0.;
      }

      void
      rhs(const State &x, State &dxdt, const double t) const
      {
        double F = 0., s = 0., j2 = 0., v = 0.;
        if (phase == Phase::contact)
          {
            const PendulumContact c = kinematics(x);
            v                       = -c.gap_rate;
            F  = law->force(std::max(-c.gap, d_plus), v, at(h, t));
            s  = c.arm_1;
            j2 = c.arm_2;
          }
        dxdt[0] = x[2];
        dxdt[1] = x[3];
        dxdt[2] = (-0.5 * p.mass_1 * p.gravity * p.length_1 * std::sin(x[0]) + F * s) / I1;
        dxdt[3] = (-0.5 * p.mass_2 * p.gravity * p.length_2 * std::sin(x[1]) + F * j2) / I2;
        dxdt[4] = F * v / E_s;
        dxdt[5] = F / P_s;
      }

      /// The contact point of @p x at @p t; its force is the law's (contact phase).
      Point
      point(const State &x, const double t, const NormalContactHistory &hh) const
      {
        const PendulumContact c = kinematics(x);
        Point                 q;
        q.t     = t;
        q.d     = -c.gap;
        q.v     = -c.gap_rate;
        q.force = law_force(x, t, hh);
        return q;
      }

      /// The state at @p t of the current step's dense output.
      State
      state(const double t) const
      {
        return dense_state(stepper, t);
      }
      double
      gap(const double t) const
      {
        return kinematics(state(t)).gap;
      }
      double
      rate(const double t) const
      {
        return kinematics(state(t)).gap_rate;
      }
      /// The contact point at @p t of the current step (its history h).
      Point
      current_point(const double t) const
      {
        return point(state(t), t, h);
      }

      /// History after the contact reached @p q from a step of length @p dt.
      NormalContactHistory
      advanced(const NormalContactHistory &hh, const Point &q, const double dt) const
      {
        NormalContactHistory n = law->updated_history(std::max(q.d, d_plus), q.v, dt, hh);
        n.contact_time         = q.t - t_onset;
        return n;
      }

      [[noreturn]] void
      fail(const std::string &what, const double t, const unsigned int n) const
      {
        std::ostringstream s;
        s << "simulate_two_pendulums (model " << model << "): " << what << " after " << n
          << " steps, t = " << t << " s";
        throw std::runtime_error(s.str());
      }

      /// The first contact's point at absolute time t (from the stored steps).
      Point
      first_point_at(const double t) const
      {
        return first_record.at(t, [this](const State &x, const double ts,
                                         const NormalContactHistory &hh) {
          return point(x, ts, hh);
        });
      }

      /// A row of pendulums_<model>.csv.
      void
      row(const double t, const State &x, const double f)
      {
        r.samples.push_back(PendulumSample{t, pendulum(x), f});
      }
      /// The equally spaced rows up to @p t_until from the current dense output (its phase
      /// and history h).
      void
      emit_until(const double t_until)
      {
        while (next_out < out_times.size() && out_times[next_out] <= t_until)
          {
            const double tk = out_times[next_out++];
            const State  xk = state(tk);
            row(tk, xk, force(xk, tk, h));
          }
      }
      /// A row at the point @p q of a contact (before the end time).
      void
      contact_row(const Point &q, const State &x)
      {
        if (q.t <= p.end_time)
          row(q.t, x, q.force);
      }

      void
      start();
      std::pair<double, double>
      take_step(unsigned int n);
      Event
      locate_event(double t0, double t1, unsigned int n, double &te) const;
      Event
      onset_event(double t0, double t1, unsigned int n, double &te) const;
      Event
      restitution_event(double t0, double t1, double &te) const;
      void
      ordinary_step(double t0, double t1);
      void
      handle_event(Event event, double te, double t0, unsigned int n);
      void
      contact_onset(State &x, double te, unsigned int n);
      void
      impulse_impact(State &x, double te, const PendulumContact &c);
      void
      force_returned_to_zero(const State &x, double te, double t0);
      void
      separated(const State &x, double te);
      void
      finish(const std::chrono::steady_clock::time_point &clock_start);
      void
      start_contact(const State &x, const double t);
      void
      end_contact(const State &x, const double t, const Point &q, const std::string &how,
                  TwoPendulumsResult &res);
      void
      first_contact_curves(TwoPendulumsResult &res) const;
      void
      end_first_contact();
    };

    void
    Simulation::start_contact(const State &x, const double t)
    {
      const PendulumContact c = kinematics(x);
      current                 = PendulumImpact{};
      current.time            = t;
      current.before          = pendulum(x);
      current.approach_velocity = -c.gap_rate;
      current.effective_mass    = c.effective_mass;
      energy_before             = two_pendulums_energy(p, pendulum(x));
      impulse_before            = x[5];
    }

    void
    Simulation::end_contact(const State &x, const double t, const Point &q,
                            const std::string &how, TwoPendulumsResult &res)
    {
      const PendulumContact c = kinematics(x);
      current.end_time        = t;
      current.after           = pendulum(x);
      current.separation_velocity = c.gap_rate;
      current.restitution     = c.gap_rate / current.approach_velocity;
      current.impulse         = (x[5] - impulse_before) * P_s;
      current.residual_indentation = std::max(q.d, 0.);
      current.dissipated_energy    = energy_before - two_pendulums_energy(p, pendulum(x));
      current.separation           = how;
      res.impacts.push_back(current);
    }

    /// The first contact's peak force and curve (law models), once it has ended.
    void
    Simulation::first_contact_curves(TwoPendulumsResult &res) const
    {
      const double ta = first_events.front().t, tb = first_events.back().t;
      const auto   point_of = [this](const double t) { return first_point_at(t); };
      std::vector<Point> knots = first_events;
      for (const double ts : first_record.step_starts(ta, tb))
        knots.push_back(first_point_at(ts));
      const Point fmax = contact_force_peak(knots, point_of);
      res.impacts.front().max_force = fmax.force;

      std::vector<Point> special = first_events;
      special.push_back(fmax);
      res.first_contact =
        contact_curves(ta, tb, std::max(p.contact_samples, 2u), special, point_of);
    }

    /// Set-up: the output times, the initial state and the stepper.
    void
    Simulation::start()
    {
      r       = TwoPendulumsResult{};
      r.model = model;
      for (std::size_t k = 0;; ++k)
        {
          const double tk = static_cast<double>(k) * p.output_interval;
          if (tk >= p.end_time - 1e-9 * p.output_interval)
            break;
          out_times.push_back(tk);
        }
      out_times.push_back(p.end_time);
      next_out = 0;

      const State x = {{p.initial_angle_1, p.initial_angle_2, p.initial_angular_velocity_1,
                        p.initial_angular_velocity_2, 0., 0.}};
      r.initial_energy = two_pendulums_energy(p, pendulum(x));
      const double T0  = std::sqrt(p.length_1 / p.gravity); // time scale (s)
      stepper.initialize(x, 0., 1e-3 * T0);
    }

    /// The accepted step number @p n; its interval [t0, t1] (s).
    /// @throws std::runtime_error (fail()) at the guard max_steps, if the stepper fails or
    ///         the state is not finite.
    std::pair<double, double>
    Simulation::take_step(const unsigned int n)
    {
      if (n > p.max_steps)
        fail("the guard TwoPendulumsParameters::max_steps was reached", stepper.current_time(),
             n - 1);
      std::pair<double, double> step;
      try
        {
          step = stepper.do_step([this](const State &x, State &dxdt, const double t) {
            rhs(x, dxdt, t);
          });
        }
      catch (const std::exception &e)
        {
          fail(std::string("the integrator failed (") + e.what() + ")", stepper.current_time(),
               n);
        }
      r.steps = n;
      if (phase == Phase::contact)
        ++current.steps;
      const State x1 = stepper.current_state();
      if (!std::all_of(x1.begin(), x1.end(), [](const double v) { return std::isfinite(v); }))
        fail("the state became non-finite", step.second, n);
      return step;
    }

    /// The event of the current phase in the step [t0, t1] and its time @p te (t1 if none).
    /// @throws std::runtime_error (fail()) if the tip does not leave rod 1 after a
    ///         separation or approaches it again after a force-free one.
    Simulation::Event
    Simulation::locate_event(const double t0, const double t1, const unsigned int n,
                             double &te) const
    {
      te = t1;
      if (phase == Phase::free)
        return onset_event(t0, t1, n, te);
      if (phase == Phase::contact)
        {
          if (!compression)
            return restitution_event(t0, t1, te);
          const Point q1 = current_point(t1);
          if (q1.v > 0.)
            return Event::none;
          te = locate_sign_change([&](const double t) { return current_point(t).v; }, t0, t1,
                                  current_point(t0).v, q1.v);
          return Event::turning;
        }
      // released: free motion until the tip has left rod 1
      if (!(gap(t1) > 0.) && rate(t1) < 0.)
        fail("the tip of rod 2 approaches rod 1 again after a force-free separation before "
             "it has left it",
             t1, n);
      return Event::none;
    }

    /// Free phase: the first crossing of g = 0 from above, also at a grazing minimum of g
    /// inside the step (Brent).
    Simulation::Event
    Simulation::onset_event(const double t0, const double t1, const unsigned int n,
                            double &te) const
    {
      const auto   g  = [this](const double t) { return gap(t); };
      const double g0 = gap(t0), g1 = gap(t1);
      if (!(g0 > 0.))
        {
          if (!(g1 > 0.))
            fail("the tip of rod 2 did not leave rod 1 within a step after a separation "
                 "(separation velocity ~ 0)",
                 t1, n);
          return Event::none;
        }
      if (!(g1 > 0.))
        {
          te = locate_sign_change(g, t0, t1, g0, g1);
          return Event::onset;
        }
      if (rate(t0) < 0. && rate(t1) > 0.)
        {
          const Extremum g_min = locate_minimum(g, t0, t1);
          if (!(g_min.value > 0.))
            {
              te = locate_sign_change(g, t0, g_min.t, g0, g_min.value);
              return Event::onset;
            }
        }
      return Event::none;
    }

    /// Restitution: the first return of F to 0, else the separation d = 0, in the step.
    Simulation::Event
    Simulation::restitution_event(const double t0, const double t1, double &te) const
    {
      double       t_d = std::numeric_limits<double>::quiet_NaN();
      const auto   dd  = [this](const double t) { return -gap(t); };
      const double d1  = dd(t1);
      if (d1 <= 0.)
        t_d = locate_sign_change(dd, t0, t1, dd(t0), d1);
      double t_f = std::numeric_limits<double>::quiet_NaN();
      if (!zero_force)
        {
          const auto zf = [&](const double t) {
            const Point q = current_point(t);
            return force_return_function(*law, q.force, q.d, q.v, at(h, q.t));
          };
          t_f = locate_force_return(zf, t0, t1, t_d, [&] {
            const Point qd = current_point(t_d);
            return unclamped_force(*law, 0., qd.v, at(h, t_d));
          });
        }
      if (!std::isnan(t_f))
        {
          te = t_f;
          return Event::zero_force;
        }
      if (!std::isnan(t_d))
        {
          te = t_d;
          return Event::separation;
        }
      return Event::none;
    }

    /// A step without an event: in a contact, advance the history and restart the stepper
    /// (its first-same-as-last derivative must use the new history); a released tip that
    /// has left rod 1 moves freely again.
    void
    Simulation::ordinary_step(const double t0, const double t1)
    {
      if (phase == Phase::contact)
        {
          const State x1    = stepper.current_state();
          const Point q1    = point(x1, t1, h);
          current.max_force = std::max(current.max_force, q1.force);
          contact_row(q1, x1);
          h = advanced(h, q1, t1 - t0);
          stepper.initialize(x1, t1, stepper.current_time_step());
        }
      else if (phase == Phase::released && gap(t1) > 0.)
        phase = Phase::free;
    }

    /// The end of the first contact: its curve, and later contacts are not recorded.
    void
    Simulation::end_first_contact()
    {
      if (first_contact)
        {
          first_contact_curves(r);
          first_contact = false;
        }
    }

    /// The impact of the impulse model at the onset (state @p x at @p te, kinematics @p c):
    /// S004 §6 (i), M (q'+ - q'-) = J^T P, J q'+ = -e J q'-.
    void
    Simulation::impulse_impact(State &x, const double te, const PendulumContact &c)
    {
      const double P = -(1. + p.restitution) * c.effective_mass * c.gap_rate;
      row(te, x, 0.);
      const double E_minus = two_pendulums_energy(p, pendulum(x));
      x[2] += P * c.arm_1 / I1;
      x[3] += P * c.arm_2 / I2;
      const double loss = E_minus - two_pendulums_energy(p, pendulum(x));
      x[4] += loss / E_s;
      x[5] += P / P_s;
      Point q;
      q.t = te;
      end_contact(x, te, q, "impulse", r);
      row(te, x, 0.);
      first_contact = false;
    }

    /// The onset g = 0 at @p te: the impulse, or the start of a law's contact (the law made
    /// with m_eff of this configuration, its onset history at d -> 0+).
    /// @throws std::runtime_error (fail()) if the tip meets the line of rod 1 outside it.
    void
    Simulation::contact_onset(State &x, const double te, const unsigned int n)
    {
      const PendulumContact c = kinematics(x);
      if (!(c.arm_1 >= 0. && c.arm_1 <= p.length_1))
        fail("the tip of rod 2 meets the line of rod 1 outside the rod (s = " +
               std::to_string(c.arm_1) + " mm), outside the geometry of this scenario",
             te, n);
      start_contact(x, te);
      if (impulse)
        {
          impulse_impact(x, te, c);
          return;
        }
      law            = make_contact_law(p, model, c.effective_mass);
      t_onset        = te;
      h              = law->updated_history(d_plus, -c.gap_rate, 0., NormalContactHistory{});
      h.contact_time = 0.;
      phase          = Phase::contact;
      compression    = true;
      zero_force     = false;
      Point q;
      q.t               = te;
      q.v               = -c.gap_rate;
      q.force           = law->force(d_plus, q.v, h);
      current.max_force = q.force;
      if (first_contact)
        first_events.push_back(q);
      contact_row(q, x);
    }

    /// F returned to 0 at @p te: a law with force-free separation releases the tip there
    /// (docs/contact-law-catalogue.md B5, S004 eq.(20)); other laws go on in tension (unclamped) or
    /// free motion (clamped) until d = 0.
    void
    Simulation::force_returned_to_zero(const State &x, const double te, const double t0)
    {
      const Point q = current_point(te);
      zero_force    = true;
      if (first_contact)
        first_events.push_back(q);
      contact_row(q, x);
      const NormalContactHistory hz = advanced(h, q, te - t0);
      h                             = hz;
      if (!law->force_free_separation())
        return;
      end_contact(x, te, q, "force zero", r);
      h.released = true;
      phase      = q.d > 0. ? Phase::released : Phase::free;
      end_first_contact();
    }

    /// Separation d = 0 at @p te.
    void
    Simulation::separated(const State &x, const double te)
    {
      Point q = current_point(te);
      q.d     = 0.;
      q.force = law->force(d_plus, q.v, at(h, te));
      if (first_contact)
        first_events.push_back(q);
      contact_row(q, x);
      end_contact(x, te, q, "indentation zero", r);
      h     = NormalContactHistory{};
      phase = Phase::free;
      end_first_contact();
    }

    /// Records the event at @p te of the step [t0, te] and restarts the stepper there.
    void
    Simulation::handle_event(const Event event, const double te, const double t0,
                             const unsigned int n)
    {
      State xe = state(te);
      if (event == Event::onset)
        contact_onset(xe, te, n);
      else if (event == Event::turning)
        {
          Point q = current_point(te);
          q.v     = 0.;
          q.force = law->force(std::max(q.d, d_plus), 0., at(h, te));
          current.max_indentation = q.d;
          current.max_force       = std::max(current.max_force, q.force);
          if (first_contact)
            first_events.push_back(q);
          contact_row(q, xe);
          h           = advanced(h, q, te - t0);
          compression = false;
        }
      else if (event == Event::zero_force)
        force_returned_to_zero(xe, te, t0);
      else
        separated(xe, te);
      stepper.initialize(xe, te, stepper.current_time_step());
    }

    /// The end time: an unfinished contact, the final state and energy balance.
    void
    Simulation::finish(const std::chrono::steady_clock::time_point &clock_start)
    {
      const State xf = state(p.end_time);
      if (phase == Phase::contact)
        {
          Point q = point(xf, p.end_time, h);
          end_contact(xf, p.end_time, q, "unfinished", r);
          if (first_contact && !first_events.empty())
            {
              first_events.push_back(q);
              first_contact_curves(r);
            }
        }
      r.final_state  = pendulum(xf);
      r.final_energy = two_pendulums_energy(p, r.final_state);
      r.contact_work = xf[4] * E_s;
      r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                                     clock_start)
                         .count();
    }

    TwoPendulumsResult
    Simulation::run()
    {
      const auto clock_start = std::chrono::steady_clock::now();
      start();
      for (unsigned int n = 1;; ++n)
        {
          const auto [t0, t1] = take_step(n);
          double     te       = t1;
          Event      event    = locate_event(t0, t1, n, te);
          if (event != Event::none && te > p.end_time)
            {
              event = Event::none;
              te    = t1;
            }
          emit_until(std::min(te, p.end_time));
          if (phase == Phase::contact && first_contact)
            first_record.add(stepper, h, t0, te);

          if (event != Event::none)
            handle_event(event, te, t0, n);
          else
            {
              ordinary_step(t0, t1);
              if (t1 >= p.end_time)
                break;
            }
        }
      finish(clock_start);
      return r;
    }

    /// Writes a file atomically (base/atomic_file.h): what @p write writes.
    void
    write_atomically(const std::string &path, const std::function<void(std::ostream &)> &write)
    {
      std::ostringstream out;
      write(out);
      write_file_atomically(path, out.str());
    }

    /// Largest relative difference of the angular velocities after the first impacts of
    /// @p a and @p b (relative to the larger magnitude of each component).
    double
    post_impact_difference(const PendulumImpact &a, const PendulumImpact &b)
    {
      double d = 0.;
      for (unsigned int i = 2; i < 4; ++i)
        d = std::max(d, std::abs(a.after[i] - b.after[i]) /
                          std::max(std::abs(a.after[i]), std::abs(b.after[i])));
      return d;
    }
  } // namespace

  // -----------------------------------------------------------------------------------------
  double
  TwoPendulumsParameters::inertia(const unsigned int i) const
  {
    if (i == 1)
      return mass_1 * length_1 * length_1 / 3.;
    if (i == 2)
      return mass_2 * length_2 * length_2 / 3.;
    throw std::invalid_argument("TwoPendulumsParameters::inertia: rod 1 or 2");
  }

  void
  TwoPendulumsParameters::validate() const
  {
    const auto positive = [](const double v, const char *name) {
      if (!(std::isfinite(v) && v > 0.))
        throw std::invalid_argument(std::string("TwoPendulumsParameters::") + name +
                                    " must be positive and finite");
    };
    const auto finite = [](const double v, const char *name) {
      if (!std::isfinite(v))
        throw std::invalid_argument(std::string("TwoPendulumsParameters::") + name +
                                    " must be finite");
    };
    positive(mass_1, "mass_1");
    positive(length_1, "length_1");
    positive(mass_2, "mass_2");
    positive(length_2, "length_2");
    positive(pivot_spacing, "pivot_spacing");
    finite(initial_angle_1, "initial_angle_1");
    finite(initial_angle_2, "initial_angle_2");
    finite(initial_angular_velocity_1, "initial_angular_velocity_1");
    finite(initial_angular_velocity_2, "initial_angular_velocity_2");
    positive(gravity, "gravity");
    positive(end_time, "end_time");
    positive(restitution, "restitution");
    positive(stiffness, "stiffness");
    positive(exponent, "exponent");
    positive(output_interval, "output_interval");
    positive(relative_tolerance, "relative_tolerance");
    positive(absolute_tolerance, "absolute_tolerance");
    if (restitution > 1.)
      throw std::invalid_argument("TwoPendulumsParameters::restitution must be in (0, 1]");
    if (pivot_spacing + length_2 > length_1)
      throw std::invalid_argument(
        "TwoPendulumsParameters::pivot_spacing: a + L2 must not exceed L1 (the tip of rod 2 "
        "must meet rod 1 between its pivot and its end, the contact this scenario models)");
    if (contact_samples < 2)
      throw std::invalid_argument("TwoPendulumsParameters::contact_samples must be >= 2");
    if (max_steps == 0)
      throw std::invalid_argument("TwoPendulumsParameters::max_steps must be positive");
    const PendulumContact c = two_pendulums_contact(
      *this, {{initial_angle_1, initial_angle_2, initial_angular_velocity_1,
               initial_angular_velocity_2}});
    if (!(c.gap > 0.))
      throw std::invalid_argument(
        "TwoPendulumsParameters::initial_angle_1/initial_angle_2: the tip of rod 2 starts on "
        "or behind rod 1 (gap " +
        std::to_string(c.gap) + " mm); it must start apart (gap > 0)");
    if (models.empty())
      throw std::invalid_argument("TwoPendulumsParameters::models must not be empty");
    for (const std::string &m : models)
      check_model(*this, m);
  }

  PendulumContact
  two_pendulums_contact(const TwoPendulumsParameters &p, const PendulumState &x)
  {
    const double th1 = x[0], th2 = x[1], w1 = x[2], w2 = x[3];
    const double c1 = std::cos(th1), s1 = std::sin(th1);
    // tip of rod 2 relative to pivot 1
    const double px = -p.pivot_spacing + p.length_2 * std::sin(th2);
    const double py = -p.length_2 * std::cos(th2);
    PendulumContact c;
    c.gap      = -c1 * px - s1 * py;        // n . (P2 - O1), n = (-cos th1, -sin th1)
    c.arm_1    = s1 * px - c1 * py;         // u1 . (P2 - O1), u1 = (sin th1, -cos th1)
    c.arm_2    = -p.length_2 * std::cos(th1 - th2);
    c.gap_rate = c.arm_1 * w1 + c.arm_2 * w2;
    c.effective_mass =
      1. / (c.arm_1 * c.arm_1 / p.inertia(1) + c.arm_2 * c.arm_2 / p.inertia(2));
    return c;
  }

  double
  two_pendulums_energy(const TwoPendulumsParameters &p, const PendulumState &x)
  {
    return 0.5 * p.inertia(1) * x[2] * x[2] + 0.5 * p.inertia(2) * x[3] * x[3] -
           0.5 * p.mass_1 * p.gravity * p.length_1 * std::cos(x[0]) -
           0.5 * p.mass_2 * p.gravity * p.length_2 * std::cos(x[1]);
  }

  TwoPendulumsResult
  simulate_two_pendulums(const TwoPendulumsParameters &p, const std::string &model)
  {
    p.validate();
    check_model(p, model);
    Simulation s(p, model);
    return s.run();
  }

  void
  run_two_pendulums(const TwoPendulumsParameters &p, const std::string &output_directory,
                    std::ostream &log)
  {
    p.validate();
    std::error_code ec;
    std::filesystem::create_directories(output_directory, ec);
    if (ec)
      throw std::runtime_error("run_two_pendulums: cannot create the directory " +
                               output_directory);
    const std::filesystem::path dir(output_directory);
    log << "two pendulums (docs/contact-law-catalogue.md §8 S8, S004 §6): m1 = " << p.mass_1
        << " t, L1 = " << p.length_1 << " mm, m2 = " << p.mass_2 << " t, L2 = " << p.length_2
        << " mm, a = " << p.pivot_spacing << " mm, theta1(0) = " << p.initial_angle_1
        << ", theta2(0) = " << p.initial_angle_2 << " rad, e = " << p.restitution
        << ", K = " << p.stiffness << " N/mm^" << p.exponent << ", " << p.end_time << " s\n";

    std::vector<TwoPendulumsResult> results;
    for (const std::string &model : p.models)
      {
        log << "  " << model << " ..." << std::flush;
        TwoPendulumsResult r = simulate_two_pendulums(p, model);

        write_atomically((dir / ("pendulums_" + model + ".csv")).string(),
                         [&](std::ostream &out) {
                           out << "t,theta1,theta2,theta1_dot,theta2_dot,force\n";
                           for (const PendulumSample &s : r.samples)
                             out << s.t << ',' << s.x[0] << ',' << s.x[1] << ',' << s.x[2]
                                 << ',' << s.x[3] << ',' << s.force << '\n';
                         });
        write_atomically((dir / ("impacts_" + model + ".csv")).string(),
                         [&](std::ostream &out) {
                           out << "time,end_time,approach_velocity,separation_velocity,"
                                  "restitution,effective_mass,theta1_dot_before,"
                                  "theta2_dot_before,theta1_dot_after,theta2_dot_after,impulse,"
                                  "max_force,max_indentation,residual_indentation,"
                                  "dissipated_energy,steps,separation\n";
                           for (const PendulumImpact &i : r.impacts)
                             out << i.time << ',' << i.end_time << ',' << i.approach_velocity
                                 << ',' << i.separation_velocity << ',' << i.restitution << ','
                                 << i.effective_mass << ',' << i.before[2] << ',' << i.before[3]
                                 << ',' << i.after[2] << ',' << i.after[3] << ',' << i.impulse
                                 << ',' << i.max_force << ',' << i.max_indentation << ','
                                 << i.residual_indentation << ',' << i.dissipated_energy << ','
                                 << i.steps << ',' << i.separation << '\n';
                         });
        if (!r.first_contact.time.empty())
          write_impact_curves_csv((dir / ("first_contact_" + model + ".csv")).string(),
                                  r.first_contact);

        const double balance = r.final_energy + r.contact_work - r.initial_energy;
        log << " " << r.impacts.size() << " impacts";
        if (!r.impacts.empty())
          {
            const PendulumImpact &i = r.impacts.front();
            log << "; first at t = " << std::setprecision(9) << i.time
                << " s: d'- = " << i.approach_velocity << " mm/s, m_eff = " << i.effective_mass
                << " t, after: theta1' = " << i.after[2] << ", theta2' = " << i.after[3]
                << " rad/s (before " << i.before[2] << ", " << i.before[3]
                << "), e_eff = " << i.restitution << std::setprecision(6);
            if (i.max_force > 0.)
              log << ", F_max = " << i.max_force << " N, delta_max = " << i.max_indentation
                  << " mm, t_c = " << i.end_time - i.time << " s (" << i.steps << " steps)";
          }
        log << "; E(0) = " << r.initial_energy << " N mm, E(end) + W - E(0) = " << balance
            << " N mm; " << r.steps << " steps, " << r.wall_seconds << " s\n";
        results.push_back(std::move(r));
      }

    // the continuous models' first impact against the piecewise one
    const auto ref = std::find_if(results.begin(), results.end(), [](const TwoPendulumsResult &r) {
      return r.model == impulse_model;
    });
    if (ref != results.end() && !ref->impacts.empty())
      for (const TwoPendulumsResult &r : results)
        if (r.model != impulse_model && !r.impacts.empty())
          log << "  first impact, " << r.model << " vs impulse: largest relative difference of "
              << "the angular velocities after it " << post_impact_difference(r.impacts.front(),
                                                                              ref->impacts.front())
              << ", e_eff - e = " << r.impacts.front().restitution - p.restitution << '\n';
  }
} // namespace granular::impact
