// Two-pendulum impact of S004 §6 (catalogue §8 S8). See two_pendulums.h.
#include "impact/two_pendulums.h"

#include "base/atomic_file.h"

#include <boost/math/tools/minima.hpp>
#include <boost/math/tools/toms748_solve.hpp>
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

    /// The indentation used for "d -> 0+" (force at onset), as in sdof_impact.cc.
    constexpr double d_plus = std::numeric_limits<double>::min();

    const std::string impulse_model = "impulse";
    const std::string restitution_entry = "Coefficient of restitution";
    const std::string exponent_entry    = "Elastic exponent";

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

    /// One accepted step of a contact: its dense output on [t0, t1] and the history it used.
    struct Step
    {
      Dense                stepper;
      NormalContactHistory h;
      double               t0;
      double               t1;
    };

    /// A point of a contact: time (absolute), d, d', F.
    struct Point
    {
      double t = 0., d = 0., v = 0., force = 0.;
    };

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
      {}

      TwoPendulumsResult
      run();

    private:
      enum class Phase
      {
        free,     ///< no contact force
        contact,  ///< the law's force acts
        released  ///< force-free separation reached, the tip still overlaps rod 1 (F = 0)
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

      // the current contact
      PendulumImpact current;
      double         energy_before  = 0.;
      double         impulse_before = 0.; // P/P_s at the onset
      bool           first_contact  = true;
      std::vector<Step>  first_steps;  // steps of the first contact (law models)
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

      /// S + D with the damping flag but without the clamp (as sdof_impact.cc).
      double
      unclamped_force(const double d, const double v, const NormalContactHistory &hh) const
      {
        const double dc = std::max(d, d_plus);
        double       f  = law->spring_force(dc, hh);
        if (v >= 0. || law->damping_in_decompression())
          f += law->damping_force(dc, v, hh);
        return f;
      }

      /// Function whose first root in restitution is "F returns to 0" (sdof_impact.cc): F, or
      /// where F is 0 (clamped), the unclamped S + D if negative, else -denorm_min.
      double
      zero_force_function(const Point &q, const NormalContactHistory &hh) const
      {
        const NormalContactHistory a = at(hh, q.t);
        if (q.force != 0.)
          return q.force;
        const double u = unclamped_force(q.d, q.v, a);
        return u < 0. ? u : -std::numeric_limits<double>::denorm_min();
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
        auto it = std::upper_bound(first_steps.begin(), first_steps.end(), t,
                                   [](const double tt, const Step &s) { return tt < s.t0; });
        if (it != first_steps.begin())
          --it;
        State x;
        it->stepper.calc_state(std::clamp(t, it->t0, it->t1), x);
        return point(x, t, it->h);
      }

      void
      start_contact(const State &x, const double t);
      void
      end_contact(const State &x, const double t, const Point &q, const std::string &how,
                  TwoPendulumsResult &r);
      void
      first_contact_curves(TwoPendulumsResult &r) const;
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
                            const std::string &how, TwoPendulumsResult &r)
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
      r.impacts.push_back(current);
    }

    void
    Simulation::first_contact_curves(TwoPendulumsResult &r) const
    {
      const double       ta = first_events.front().t, tb = first_events.back().t;
      std::vector<Point> knots = first_events;
      for (const Step &s : first_steps)
        if (s.t0 > ta && s.t0 < tb)
          knots.push_back(first_point_at(s.t0));
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
            [&](const double tt) { return -first_point_at(tt).force; }, a, b,
            std::numeric_limits<double>::digits / 2, it);
          if (-br.second > fmax.force)
            fmax = first_point_at(br.first);
        }
      r.impacts.front().max_force = fmax.force;

      std::vector<Point> special = first_events;
      special.push_back(fmax);
      std::vector<Point> pts;
      const unsigned int ns    = std::max(p.contact_samples, 2u);
      const double       dedup = 1e-12 * (tb - ta);
      for (unsigned int i = 0; i < ns; ++i)
        {
          const double ti = (i + 1 == ns) ? tb : ta + (tb - ta) * i / (ns - 1);
          bool         near = false;
          for (const Point &e : special)
            near = near || std::abs(e.t - ti) <= dedup;
          if (!near)
            pts.push_back(first_point_at(ti));
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
                       [](const Point &u, const Point &v) { return u.t < v.t; });
      for (const Point &q : pts)
        {
          r.first_contact.time.push_back(q.t - ta);
          r.first_contact.delta.push_back(q.d);
          r.first_contact.delta_dot.push_back(q.v);
          r.first_contact.force.push_back(q.force);
        }
    }

    TwoPendulumsResult
    Simulation::run()
    {
      const auto clock_start = std::chrono::steady_clock::now();
      TwoPendulumsResult r;
      r.model = model;

      // equally spaced output times, the end time included
      std::vector<double> out_times;
      for (std::size_t k = 0;; ++k)
        {
          const double tk = static_cast<double>(k) * p.output_interval;
          if (tk >= p.end_time - 1e-9 * p.output_interval)
            break;
          out_times.push_back(tk);
        }
      out_times.push_back(p.end_time);
      std::size_t next_out = 0;

      State x = {{p.initial_angle_1, p.initial_angle_2, p.initial_angular_velocity_1,
                  p.initial_angular_velocity_2, 0., 0.}};
      r.initial_energy = two_pendulums_energy(p, pendulum(x));

      auto stepper = ode::make_dense_output(p.absolute_tolerance, p.relative_tolerance, Dopri());
      const double T0 = std::sqrt(p.length_1 / p.gravity); // time scale (s)
      stepper.initialize(x, 0., 1e-3 * T0);
      const auto system = [&](const State &xx, State &dxdt, const double tt) {
        rhs(xx, dxdt, tt);
      };

      const auto row = [&](const double t, const State &xx, const double f) {
        r.samples.push_back(PendulumSample{t, pendulum(xx), f});
      };
      // equally spaced rows up to t_until from the current dense output (its phase and h)
      const auto emit_until = [&](const double t_until) {
        while (next_out < out_times.size() && out_times[next_out] <= t_until)
          {
            const double tk = out_times[next_out++];
            State        xk;
            stepper.calc_state(tk, xk);
            row(tk, xk, force(xk, tk, h));
          }
      };
      const auto contact_row = [&](const Point &q, const State &xx) {
        if (q.t <= p.end_time)
          row(q.t, xx, q.force);
      };

      for (unsigned int n = 1;; ++n)
        {
          if (n > p.max_steps)
            fail("the guard TwoPendulumsParameters::max_steps was reached", stepper.current_time(),
                 n - 1);
          std::pair<double, double> step;
          try
            {
              step = stepper.do_step(system);
            }
          catch (const std::exception &e)
            {
              fail(std::string("the integrator failed (") + e.what() + ")",
                   stepper.current_time(), n);
            }
          const auto [t0, t1] = step;
          r.steps             = n;
          if (phase == Phase::contact)
            ++current.steps;
          const State x1 = stepper.current_state();
          if (!std::all_of(x1.begin(), x1.end(), [](const double v) { return std::isfinite(v); }))
            fail("the state became non-finite", t1, n);

          const auto state = [&](const double tt) {
            State xx;
            stepper.calc_state(tt, xx);
            return xx;
          };
          const auto gap  = [&](const double tt) { return kinematics(state(tt)).gap; };
          const auto rate = [&](const double tt) { return kinematics(state(tt)).gap_rate; };
          const auto pt   = [&](const double tt) { return point(state(tt), tt, h); };

          enum class Event
          {
            none,
            onset,
            turning,
            zero_force,
            separation
          };
          Event  event = Event::none;
          double te    = t1;

          if (phase == Phase::free)
            {
              // first crossing of g = 0 from above (a grazing minimum inside the step too)
              const double g0 = gap(t0), g1 = gap(t1);
              if (!(g0 > 0.))
                {
                  if (!(g1 > 0.))
                    fail("the tip of rod 2 did not leave rod 1 within a step after a "
                         "separation (separation velocity ~ 0)",
                         t1, n);
                }
              else if (!(g1 > 0.))
                {
                  event = Event::onset;
                  te    = find_root(gap, t0, t1, g0, g1);
                }
              else if (rate(t0) < 0. && rate(t1) > 0.)
                {
                  std::uintmax_t it = 200;
                  const auto     br = boost::math::tools::brent_find_minima(
                    gap, t0, t1, std::numeric_limits<double>::digits / 2, it);
                  if (!(br.second > 0.))
                    {
                      event = Event::onset;
                      te    = find_root(gap, t0, br.first, g0, br.second);
                    }
                }
            }
          else if (phase == Phase::contact)
            {
              if (compression)
                {
                  const Point q1 = pt(t1);
                  if (q1.v <= 0.)
                    {
                      event = Event::turning;
                      te    = find_root([&](const double tt) { return pt(tt).v; }, t0, t1,
                                     pt(t0).v, q1.v);
                    }
                }
              else
                {
                  double     t_d = std::numeric_limits<double>::quiet_NaN();
                  const auto dd  = [&](const double tt) { return -gap(tt); };
                  const double d1 = dd(t1);
                  if (d1 <= 0.)
                    t_d = find_root(dd, t0, t1, dd(t0), d1);
                  double t_f = std::numeric_limits<double>::quiet_NaN();
                  if (!zero_force)
                    {
                      const auto zf = [&](const double tt) {
                        return zero_force_function(pt(tt), h);
                      };
                      const double z0 = zf(t0);
                      if (!(z0 > 0.))
                        t_f = t0;
                      else if (std::isnan(t_d))
                        {
                          const double z1 = zf(t1);
                          if (!(z1 > 0.))
                            t_f = find_root(zf, t0, t1, z0, z1);
                        }
                      else
                        {
                          // at d -> 0+ a force that vanishes with d is no return to 0
                          const Point  qd = pt(t_d);
                          const double zd = unclamped_force(0., qd.v, at(h, t_d));
                          if (zd < 0.)
                            t_f = find_root(zf, t0, t_d, z0, zd);
                        }
                    }
                  if (!std::isnan(t_f))
                    {
                      event = Event::zero_force;
                      te    = t_f;
                    }
                  else if (!std::isnan(t_d))
                    {
                      event = Event::separation;
                      te    = t_d;
                    }
                }
            }
          else // released: free motion until the tip has left rod 1
            {
              if (!(gap(t1) > 0.) && rate(t1) < 0.)
                fail("the tip of rod 2 approaches rod 1 again after a force-free separation "
                     "before it has left it",
                     t1, n);
            }

          if (event != Event::none && te > p.end_time)
            {
              event = Event::none;
              te    = t1;
            }
          emit_until(std::min(te, p.end_time));
          if (phase == Phase::contact && first_contact)
            first_steps.push_back(Step{stepper, h, t0, te});

          if (event == Event::none)
            {
              if (phase == Phase::contact)
                {
                  // an ordinary accepted step of a contact: advance the history, restart the
                  // stepper (its first-same-as-last derivative must use the new history)
                  const Point q1 = point(x1, t1, h);
                  current.max_force = std::max(current.max_force, q1.force);
                  contact_row(q1, x1);
                  h = advanced(h, q1, t1 - t0);
                  stepper.initialize(x1, t1, stepper.current_time_step());
                }
              else if (phase == Phase::released && gap(t1) > 0.)
                phase = Phase::free;
              if (t1 >= p.end_time)
                break;
              continue;
            }

          State xe = state(te);
          if (event == Event::onset)
            {
              const PendulumContact c = kinematics(xe);
              if (!(c.arm_1 >= 0. && c.arm_1 <= p.length_1))
                fail("the tip of rod 2 meets the line of rod 1 outside the rod (s = " +
                       std::to_string(c.arm_1) + " mm), outside the geometry of this scenario",
                     te, n);
              start_contact(xe, te);
              if (impulse)
                {
                  // S004 §6 (i): M (q'+ - q'-) = J^T P, J q'+ = -e J q'-
                  const double P = -(1. + p.restitution) * c.effective_mass * c.gap_rate;
                  row(te, xe, 0.);
                  const double E_minus = two_pendulums_energy(p, pendulum(xe));
                  xe[2] += P * c.arm_1 / I1;
                  xe[3] += P * c.arm_2 / I2;
                  const double loss = E_minus - two_pendulums_energy(p, pendulum(xe));
                  xe[4] += loss / E_s;
                  xe[5] += P / P_s;
                  Point q;
                  q.t = te;
                  end_contact(xe, te, q, "impulse", r);
                  row(te, xe, 0.);
                }
              else
                {
                  law = make_contact_law(p, model, c.effective_mass);
                  t_onset = te;
                  h = law->updated_history(d_plus, -c.gap_rate, 0., NormalContactHistory{});
                  h.contact_time = 0.;
                  phase          = Phase::contact;
                  compression    = true;
                  zero_force     = false;
                  Point q;
                  q.t     = te;
                  q.v     = -c.gap_rate;
                  q.force = law->force(d_plus, q.v, h);
                  current.max_force = q.force;
                  if (first_contact)
                    first_events.push_back(q);
                  contact_row(q, xe);
                }
            }
          else if (event == Event::turning)
            {
              Point q = pt(te);
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
            {
              const Point q = pt(te);
              zero_force    = true;
              if (first_contact)
                first_events.push_back(q);
              contact_row(q, xe);
              const NormalContactHistory hz = advanced(h, q, te - t0);
              if (law->force_free_separation())
                {
                  // catalogue B5, S004 eq.(20): the contact ends at F = 0, the tip is released
                  end_contact(xe, te, q, "force zero", r);
                  h     = hz;
                  h.released = true;
                  phase = q.d > 0. ? Phase::released : Phase::free;
                  if (first_contact)
                    {
                      first_contact_curves(r);
                      first_contact = false;
                    }
                }
              else
                h = hz; // tension (unclamped) or free motion (clamped) until d = 0
            }
          else // separation d = 0
            {
              Point q = pt(te);
              q.d     = 0.;
              q.force = law->force(d_plus, q.v, at(h, te));
              if (first_contact)
                first_events.push_back(q);
              contact_row(q, xe);
              end_contact(xe, te, q, "indentation zero", r);
              h     = NormalContactHistory{};
              phase = Phase::free;
              if (first_contact)
                {
                  first_contact_curves(r);
                  first_contact = false;
                }
            }
          if (impulse && event == Event::onset)
            first_contact = false;
          stepper.initialize(xe, te, stepper.current_time_step());
        }

      State xf;
      stepper.calc_state(p.end_time, xf);
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
    log << "two pendulums (catalogue §8 S8, S004 §6): m1 = " << p.mass_1
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
