// The horizontal granular chain (docs/contact-law-catalogue.md §8 S4, S003 §5.2). See
// granular_chain.h.
#include "impact/granular_chain.h"

#include "base/atomic_file.h"

#include "contact/laws/elastoplastic.h"
#include "impact/event_search.h"

#include <boost/numeric/odeint.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
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
    using contact::NormalContactHistory;
    using contact::laws::ContactLaw;

    using State = std::vector<double>;
    using Dopri = ode::runge_kutta_dopri5<State>;
    using Dense = ode::result_of::make_dense_output<Dopri>::type;

    const std::string restitution_entry = "Coefficient of restitution";

    void
    require(const bool ok, const std::string &member, const std::string &what)
    {
      if (!ok)
        throw std::invalid_argument("GranularChainParameters::" + member + " " + what);
    }

    bool
    positive(const double x)
    {
      return std::isfinite(x) && x > 0.;
    }

    /// A registered law's values: p.law_values, plus c_r, xi and psi of the chain for the
    /// law's entries of those names that p.law_values does not set.
    contact::laws::LawValues
    registered_law_values(const GranularChainParameters &p)
    {
      contact::laws::LawValues values(p.law_values.begin(), p.law_values.end());
      const auto *info = contact::laws::find_law(p.law);
      for (const auto &e : info->parameters)
        if (values.count(e.name) == 0)
          {
            if (e.name == restitution_entry)
              values[e.name] = p.restitution;
            else if (e.name == "Plastic limit ratio")
              values[e.name] = p.plastic_limit_ratio;
            else if (e.name == "Hardness ratio")
              values[e.name] = p.hardness_ratio;
          }
      return values;
    }

    contact::laws::MaLiuModel
    ma_liu_model(const GranularChainParameters &p)
    {
      return contact::laws::MaLiuModel(p.effective_modulus(), p.effective_radius(),
                                       p.yield_strength, p.plastic_limit_ratio,
                                       p.hardness_ratio);
    }

    /// What ends a step early.
    enum class Event
    {
      none,
      onset,      ///< d crosses 0 upwards (out of contact)
      separation, ///< d crosses 0 downwards (in contact)
      yield,      ///< S003 rule: d reaches delta_y in the elastic phase
      turning,    ///< d' changes sign (law with switches_with_rate())
      release     ///< F reaches 0 in restitution (force-free-separation law)
    };

    /// One contact: its law (shared, immutable), its history, whether it is in contact.
    struct ChainContact
    {
      std::shared_ptr<const ContactLaw> law;
      NormalContactHistory              h;
      bool                              in_contact = false;
      bool                              turning    = false; ///< law->switches_with_rate()
      bool                              internal   = false; ///< law->has_internal_variable()
      bool                              force_free = false; ///< law->force_free_separation()
    };

    /// The absolute tolerance of the stepper on the scaled state: p.absolute_tolerance, or
    /// p.relative_tolerance / 100 if that is 0.
    double
    absolute_tolerance(const GranularChainParameters &p)
    {
      return p.absolute_tolerance > 0. ? p.absolute_tolerance : p.relative_tolerance / 100.;
    }

    /**
     * The integration of the chain (simulate_granular_chain(), granular_chain.h;
     * docs/contact-law-catalogue.md §8 S4, S003 §5.2). run() advances step by step;
     * locate_contact_event() finds every contact's earliest event in the step (the step is cut at
     * the earliest of all), record_step() writes the samples and refines the sensor peaks on the
     * step's dense output, update_contacts() switches the contacts and advances their histories.
     */
    class ChainIntegrator
    {
    public:
      ChainIntegrator(const GranularChainParameters &p_, const bool record_)
        : p(p_)
        , record(record_)
        , N(p_.number_of_beads)
        , v0(p_.striker_velocity)
        , T0(0.5 * p_.striker_mass * p_.striker_velocity * p_.striker_velocity)
        , stepper(ode::make_dense_output(absolute_tolerance(p_), p_.relative_tolerance,
                                         Dopri()))
      {
        p.validate();
        const double K = p.hertz_stiffness();
        const double m = p.bead_mass, ms = p.striker_mass;
        mass.assign(N + 1, m);
        mass[0]             = ms;
        const double m_eff0 = ms * m / (ms + m);
        L = std::pow(5. * m_eff0 * v0 * v0 / (4. * K), 0.4);

        contacts.resize(N);
        if (p.law == s003_mixed_law)
          {
            mixed = std::make_shared<const S003ChainLaw>(p);
            for (auto &c : contacts)
              c.law = mixed;
          }
        else
          {
            const auto                  values = registered_law_values(p);
            contact::laws::ContactData data;
            data.stiffness         = K;
            data.effective_modulus = p.effective_modulus();
            data.effective_radius  = p.effective_radius();
            data.yield_strength    = p.yield_strength;
            data.poisson_ratio     = p.poisson_ratio;
            data.youngs_modulus    = p.youngs_modulus;
            data.effective_mass    = 0.5 * m;
            const auto law         = contact::laws::make_law(p.law, values, data);
            data.effective_mass    = m_eff0;
            const auto law0 = ms == m ? law : contact::laws::make_law(p.law, values, data);
            for (unsigned int i = 0; i < N; ++i)
              contacts[i].law = i == 0 ? law0 : law;
          }
        for (auto &c : contacts)
          {
            c.turning    = c.law->switches_with_rate();
            c.internal   = c.law->has_internal_variable();
            c.force_free = c.law->force_free_separation();
            internal     = internal || c.internal;
          }
        n_state = 2 * N + 1 + (internal ? N : 0) + 2;
        F.assign(N, 0.);
        S.assign(N, 0.);
      }

      /// The run from t = 0 to the end time (simulate_granular_chain()).
      GranularChainResult
      run();

    private:
      const GranularChainParameters &p;
      const bool                     record;
      const unsigned int             N;
      const double                   v0, T0;
      double                         L = 1.;
      std::vector<double>            mass;
      std::shared_ptr<const S003ChainLaw> mixed;
      std::vector<ChainContact>      contacts;
      bool                           internal = false;
      std::size_t                    n_state  = 0;
      double                         t_start  = 0.; ///< start of the current step
      mutable std::vector<double>    F, S;          ///< scratch: contact and spring forces

      // the integration
      Dense               stepper;
      State               x0, xs, xe; ///< state at the step's start, scratch, at its end
      std::vector<Event>  kind;       ///< per contact: its earliest event in the step
      std::vector<double> when;       ///< ... and its time (s), infinity if none
      std::vector<double> fa, fm, fb; ///< sensor forces at the step's start, middle, end
      double              history_energy = 0.; ///< H (N mm) up to the current step
      unsigned int        next_sample    = 1;  ///< the next equally spaced sample
      unsigned int        stalls         = 0;  ///< successive steps of zero length
      double              step_sum       = 0.; ///< sum of the step lengths (s)

      // state layout: d_i/L (i < N), v_j/v0 (j <= N), alpha_i/L (if internal), W/T0, D/T0
      std::size_t iv(const unsigned int j) const { return N + j; }
      std::size_t ia(const unsigned int i) const { return 2 * N + 1 + i; }
      std::size_t iW() const { return n_state - 2; }
      std::size_t iD() const { return n_state - 1; }

      double indentation(const State &x, const unsigned int i) const { return L * x[i]; }
      double rate(const State &x, const unsigned int i) const
      {
        return v0 * (x[iv(i)] - x[iv(i + 1)]);
      }

      /// The history of contact @p i as seen at time @p t in state @p x.
      NormalContactHistory
      at(const unsigned int i, const State &x, const double t) const
      {
        NormalContactHistory h = contacts[i].h;
        h.contact_time += t - t_start;
        if (contacts[i].internal)
          h.internal_variable = L * x[ia(i)];
        return h;
      }

      /// Force of contact @p i (N): 0 out of contact, else F(max(d, 0+), d', h(t)).
      double
      force(const unsigned int i, const State &x, const double t) const
      {
        const ChainContact &c = contacts[i];
        if (!c.in_contact)
          return 0.;
        return c.law->force(std::max(indentation(x, i), d_plus), rate(x, i), at(i, x, t));
      }

      /// Stored energy of a contact (N mm): 0 out of contact and after a force-free release.
      static double
      stored(const ChainContact &c, const double d, const NormalContactHistory &h)
      {
        if (!c.in_contact || h.released || !(d > 0.))
          return 0.;
        return c.law->stored_energy(d, h);
      }

      void
      rhs(const State &x, State &dxdt, const double t) const
      {
        double power = 0., damping_power = 0.;
        for (unsigned int i = 0; i < N; ++i)
          {
            const ChainContact &c = contacts[i];
            dxdt[i]               = v0 / L * (x[iv(i)] - x[iv(i + 1)]);
            if (c.internal)
              dxdt[ia(i)] = 0.;
            F[i] = S[i] = 0.;
            if (!c.in_contact)
              continue;
            const double               d  = std::max(indentation(x, i), d_plus);
            const double               r  = rate(x, i);
            const NormalContactHistory h  = at(i, x, t);
            F[i]                          = c.law->force(d, r, h);
            S[i]                          = h.released ? 0. : c.law->elastic_force(d, h);
            power += F[i] * r;
            damping_power += (F[i] - S[i]) * r;
            if (c.internal)
              dxdt[ia(i)] = c.law->internal_variable_rate(d, r, h) / L;
          }
        for (unsigned int j = 0; j <= N; ++j)
          {
            const double left  = j > 0 ? F[j - 1] : 0.;
            const double right = j < N ? F[j] : 0.;
            dxdt[iv(j)]        = (left - right) / (mass[j] * v0);
          }
        dxdt[iW()] = power / T0;
        dxdt[iD()] = damping_power / T0;
      }

      /// Sensor forces (N) of the sensor beads in state @p x at time @p t.
      void
      sensor_forces(const State &x, const double t, std::vector<double> &out) const
      {
        out.resize(p.sensor_beads.size());
        for (std::size_t k = 0; k < out.size(); ++k)
          out[k] = sensor_force(x, t, p.sensor_beads[k]);
      }

      /// (F_{j-1} + F_j)/2 of bead j (F_N = 0).
      double
      sensor_force(const State &x, const double t, const unsigned int j) const
      {
        return 0.5 * (force(j - 1, x, t) + (j < N ? force(j, x, t) : 0.));
      }

      /// Appends the sample of state @p x at time @p t to @p r.
      void
      add_sample(GranularChainResult &r, const State &x, const double t,
                 const double history_energy) const;

      void
      initialise_result(GranularChainResult &r) const;
      State
      initial_state(GranularChainResult &r);
      double
      sample_time(unsigned int k) const;
      const State &
      state_at(double t, double tb);
      void
      locate_contact_event(unsigned int i, double ta, double tb);
      void
      record_step(GranularChainResult &r, double ta, double tb, double t_stop);
      bool
      update_contacts(GranularChainResult &r, double ta, double t_stop, bool cut);
      void
      finish(GranularChainResult &r) const;
    };

    void
    ChainIntegrator::add_sample(GranularChainResult &r, const State &x, const double t,
                                const double history_energy) const
    {
      r.time.push_back(t);
      std::vector<double> sf;
      sensor_forces(x, t, sf);
      for (std::size_t k = 0; k < sf.size(); ++k)
        r.sensor_force[k].push_back(sf[k]);
      std::vector<double> v(N + 1);
      double              momentum = 0., kinetic = 0., stored_energy = 0.;
      for (unsigned int j = 0; j <= N; ++j)
        {
          v[j] = v0 * x[iv(j)];
          momentum += mass[j] * v[j];
          kinetic += 0.5 * mass[j] * v[j] * v[j];
        }
      for (unsigned int i = 0; i < N; ++i)
        stored_energy += stored(contacts[i], indentation(x, i), at(i, x, t));
      r.velocity.push_back(std::move(v));
      r.momentum.push_back(momentum);
      r.kinetic_energy.push_back(kinetic);
      r.stored_energy.push_back(stored_energy);
      r.work.push_back(T0 * x[iW()]);
      r.damping_dissipation.push_back(T0 * x[iD()]);
      r.history_energy.push_back(history_energy);
      const double P0 = r.initial_momentum;
      r.max_momentum_error = std::max(r.max_momentum_error, std::abs(momentum - P0) / P0);
      r.max_work_residual =
        std::max(r.max_work_residual, std::abs(kinetic + T0 * x[iW()] - T0) / T0);
      r.max_balance_residual =
        std::max(r.max_balance_residual,
                 std::abs(kinetic + stored_energy + T0 * x[iD()] - history_energy - T0) / T0);
      if (record)
        {
          std::vector<double> d(N), dd(N), f(N);
          for (unsigned int i = 0; i < N; ++i)
            {
              d[i]  = indentation(x, i);
              dd[i] = rate(x, i);
              f[i]  = force(i, x, t);
            }
          r.contact_indentation.push_back(std::move(d));
          r.contact_rate.push_back(std::move(dd));
          r.contact_force.push_back(std::move(f));
        }
    }

    /// Set-up of the result: the constants of the run and the S003 rule's values.
    void
    ChainIntegrator::initialise_result(GranularChainResult &r) const
    {
      r.law          = contacts[0].law->name();
      r.sensor_beads = p.sensor_beads;
      const std::size_t n_sensors = p.sensor_beads.size();
      r.sensor_force.assign(n_sensors, {});
      r.peak_force.assign(n_sensors, -std::numeric_limits<double>::infinity());
      r.peak_time.assign(n_sensors, 0.);
      r.max_indentation.assign(N, 0.);
      r.first_approach_velocity.assign(N, std::numeric_limits<double>::quiet_NaN());
      r.episodes.assign(N, 0);
      r.became_elastoplastic.assign(N, false);
      r.initial_momentum = p.striker_mass * v0;
      r.initial_energy   = T0;
      const double nan   = std::numeric_limits<double>::quiet_NaN();
      r.yield_indentation = r.hertz_stiffness = r.linearized_stiffness = r.flores_chi =
        r.wang_liu_liu_chi                                               = nan;
      if (mixed)
        {
          r.yield_indentation    = mixed->yield_indentation();
          r.hertz_stiffness      = mixed->hertz_stiffness();
          r.linearized_stiffness = mixed->linearized_stiffness();
          r.flores_chi           = mixed->flores_chi();
          r.wang_liu_liu_chi     = mixed->wang_liu_liu_chi();
        }
      const auto model               = ma_liu_model(p);
      r.first_pair_max_indentation   = model.max_indentation_for_energy(T0);
      r.first_pair_ma_liu_restitution =
        model.coefficient_of_restitution(r.first_pair_max_indentation);
    }

    /// The initial state: beads at rest, gaps p.initial_gap, the striker touching bead 1 at
    /// v0; the contacts that touch start with their onset history.
    State
    ChainIntegrator::initial_state(GranularChainResult &r)
    {
      State x(n_state, 0.);
      for (unsigned int i = 1; i < N; ++i)
        x[i] = -p.initial_gap / L;
      x[iv(0)] = 1.;
      for (unsigned int i = 0; i < N; ++i)
        if (x[i] == 0.)
          {
            ChainContact &c = contacts[i];
            const double  r0 = rate(x, i);
            c.in_contact     = true;
            c.h              = c.law->updated_history(d_plus, r0, 0., NormalContactHistory{});
            c.h.contact_time = 0.;
            c.h.internal_variable = 0.;
            r.first_approach_velocity[i] = r0;
            r.episodes[i]                = 1;
          }
      return x;
    }

    /// The time of the equally spaced sample @p k (s), the end time the last.
    double
    ChainIntegrator::sample_time(const unsigned int k) const
    {
      return k + 1 == p.output_samples ? p.end_time :
                                         p.end_time * double(k) / double(p.output_samples - 1);
    }

    /// The state at @p t of the current step [ta, tb] (its end: the stepper's state); a
    /// reference to the scratch state xs, valid until the next call.
    const State &
    ChainIntegrator::state_at(const double t, const double tb)
    {
      if (t == tb)
        return stepper.current_state();
      stepper.calc_state(t, xs);
      return xs;
    }

    /// The earliest event of contact @p i in the step [ta, tb] (kind[i], when[i]): onset,
    /// separation, the S003 rule's yield, the turning point of a rate-switching law, the
    /// release of a force-free-separation law; each located by TOMS 748, the time reported
    /// after the crossing.
    void
    ChainIntegrator::locate_contact_event(const unsigned int i, const double ta,
                                          const double tb)
    {
      kind[i]               = Event::none;
      when[i]               = std::numeric_limits<double>::infinity();
      const ChainContact &c = contacts[i];
      const State        &x1 = stepper.current_state();
      const double        d0 = indentation(x0, i), d1 = indentation(x1, i);
      const auto          note = [&](const Event e, const double te) {
        if (te < when[i])
          {
            when[i] = te;
            kind[i] = e;
          }
      };
      const auto locate = [&](const auto &g, const double ga, const double gb) {
        return locate_sign_change(g, ta, tb, ga, gb, RootReport::after_crossing, 100);
      };
      const auto d_of = [&](const double tt) { return indentation(state_at(tt, tb), i); };
      if (!c.in_contact)
        {
          if (d1 > 0.)
            note(Event::onset, d0 < 0. ? locate(d_of, d0, d1) : ta);
          return;
        }
      if (d0 > 0. && d1 <= 0.)
        note(Event::separation, locate(d_of, d0, d1));
      if (mixed && !mixed->elastoplastic(c.h) && d1 >= mixed->yield_indentation())
        {
          const double dy = mixed->yield_indentation();
          note(Event::yield,
               locate([&](const double tt) { return d_of(tt) - dy; }, d0 - dy, d1 - dy));
        }
      const double r0 = rate(x0, i), r1 = rate(x1, i);
      if (c.turning && ((r0 > 0. && r1 <= 0.) || (r0 < 0. && r1 >= 0.)))
        note(Event::turning,
             locate([&](const double tt) { return rate(state_at(tt, tb), i); }, r0, r1));
      if (c.force_free && !c.h.released && r1 < 0.)
        {
          const double F0 = force(i, x0, ta), F1 = force(i, x1, tb);
          if (F0 > 0. && F1 <= 0.)
            note(Event::release,
                 locate([&](const double tt) { return force(i, state_at(tt, tb), tt); }, F0,
                        F1));
        }
    }

    /// The samples and the sensor peaks on [ta, t_stop] (histories of the step), and the
    /// step statistics. Each sensor's peak is refined by locate_maximum() on the step.
    /// @throws std::runtime_error if events stop the progress (1000 empty steps).
    void
    ChainIntegrator::record_step(GranularChainResult &r, const double ta, const double tb,
                                 const double t_stop)
    {
      while (next_sample < p.output_samples && sample_time(next_sample) <= t_stop)
        {
          const double ts = sample_time(next_sample++);
          add_sample(r, state_at(ts, tb), ts, history_energy);
        }
      if (!(t_stop > ta))
        {
          if (++stalls > 1000)
            throw std::runtime_error("granular chain: events make no progress at t = " +
                                     std::to_string(ta) + " s");
          return;
        }
      const double tm = 0.5 * (ta + t_stop);
      sensor_forces(x0, ta, fa);
      sensor_forces(state_at(tm, tb), tm, fm);
      sensor_forces(xe, t_stop, fb);
      for (std::size_t k = 0; k < fa.size(); ++k)
        {
          const auto consider = [&](const double f, const double tt) {
            if (f > r.peak_force[k])
              {
                r.peak_force[k] = f;
                r.peak_time[k]  = tt;
              }
          };
          if (std::max({fa[k], fm[k], fb[k]}) <= r.peak_force[k])
            continue;
          consider(fa[k], ta);
          consider(fm[k], tm);
          consider(fb[k], t_stop);
          const unsigned int j    = p.sensor_beads[k];
          const Extremum     peak = locate_maximum(
            [&](const double tt) { return sensor_force(state_at(tt, tb), tt, j); }, ta, t_stop,
            100);
          consider(peak.value, peak.t);
        }
      const double h = t_stop - ta;
      r.min_step     = std::min(r.min_step, h);
      r.max_step     = std::max(r.max_step, h);
      step_sum += h;
      ++r.steps;
      stalls = 0;
    }

    /// The contacts' status and histories at t_stop, the end of the step [ta, t_stop]
    /// (@p cut: an event ended it). @return whether the stepper must restart (an event, or
    /// a contact's status or release changed).
    bool
    ChainIntegrator::update_contacts(GranularChainResult &r, const double ta,
                                     const double t_stop, const bool cut)
    {
      bool restart = cut;
      for (unsigned int i = 0; i < N; ++i)
        {
          ChainContact &c  = contacts[i];
          const double  d  = indentation(xe, i);
          const double  dd = rate(xe, i);
          r.max_indentation[i] = std::max(r.max_indentation[i], d);
          const Event e        = cut && when[i] == t_stop ? kind[i] : Event::none;
          if (e == Event::onset)
            {
              c.in_contact = true;
              c.h = c.law->updated_history(std::max(d, d_plus), dd, 0., NormalContactHistory{});
              c.h.contact_time      = 0.;
              c.h.internal_variable = 0.;
              if (c.internal)
                xe[ia(i)] = 0.;
              if (r.episodes[i]++ == 0)
                r.first_approach_velocity[i] = dd;
            }
          else if (c.in_contact &&
                   (e == Event::separation || (d < 0. && !(indentation(x0, i) > 0.))))
            {
              c.in_contact = false;
              c.h          = NormalContactHistory{};
              if (c.internal)
                xe[ia(i)] = 0.;
              restart = true;
            }
          else if (c.in_contact)
            {
              const NormalContactHistory old = at(i, xe, t_stop);
              NormalContactHistory       h =
                c.law->updated_history(std::max(d, d_plus), dd, t_stop - ta, c.h);
              if (c.internal)
                h.internal_variable = L * xe[ia(i)];
              history_energy += stored(c, d, h) - stored(c, d, old);
              restart = restart || h.released != c.h.released;
              c.h     = h;
              if (mixed && mixed->elastoplastic(h))
                r.became_elastoplastic[i] = true;
            }
        }
      return restart;
    }

    /// After the end time: the mean step and the wave speed from the sensors' peak times.
    void
    ChainIntegrator::finish(GranularChainResult &r) const
    {
      const std::size_t n_sensors = p.sensor_beads.size();
      r.mean_step = r.steps > 0 ? step_sum / r.steps : 0.;
      r.segment_speed.assign(n_sensors, std::numeric_limits<double>::quiet_NaN());
      const double a = 2. * p.bead_radius;
      for (std::size_t k = 1; k < n_sensors; ++k)
        r.segment_speed[k] = a * (double(p.sensor_beads[k]) - double(p.sensor_beads[k - 1])) /
                             (r.peak_time[k] - r.peak_time[k - 1]);
      r.wave_speed = std::numeric_limits<double>::quiet_NaN();
      if (n_sensors < 2)
        return;
      double tm = 0., xm = 0.;
      for (std::size_t k = 0; k < n_sensors; ++k)
        {
          tm += r.peak_time[k] / n_sensors;
          xm += a * (p.sensor_beads[k] - 1.) / n_sensors;
        }
      double stt = 0., stx = 0.;
      for (std::size_t k = 0; k < n_sensors; ++k)
        {
          const double dt = r.peak_time[k] - tm;
          stt += dt * dt;
          stx += dt * (a * (p.sensor_beads[k] - 1.) - xm);
        }
      r.wave_speed = stx / stt;
    }

    GranularChainResult
    ChainIntegrator::run()
    {
      const auto          clock_start = std::chrono::steady_clock::now();
      GranularChainResult r;
      initialise_result(r);
      State x = initial_state(r);
      add_sample(r, x, 0., history_energy);

      const double end = p.end_time;
      double       t   = 0.;
      stepper.initialize(x, t, 1e-3 * L / v0);
      t_start = 0.;
      x0      = x;
      xs.resize(n_state);
      xe.resize(n_state);
      const std::size_t n_sensors = p.sensor_beads.size();
      fa.resize(n_sensors);
      fm.resize(n_sensors);
      fb.resize(n_sensors);
      r.min_step = std::numeric_limits<double>::infinity();
      kind.resize(N);
      when.resize(N);

      while (t < end)
        {
          if (r.steps >= p.max_steps)
            throw std::runtime_error("granular chain: " + std::to_string(p.max_steps) +
                                     " steps reached at t = " + std::to_string(t) + " s");
          const auto   span = stepper.do_step([this](const State &s, State &dsdt,
                                                   const double tt) { rhs(s, dsdt, tt); });
          const double ta = span.first, tb = span.second;

          double t_event = std::numeric_limits<double>::infinity();
          for (unsigned int i = 0; i < N; ++i)
            {
              locate_contact_event(i, ta, tb);
              t_event = std::min(t_event, when[i]);
            }
          const bool   cut    = t_event <= std::min(tb, end);
          const double t_stop = cut ? t_event : std::min(tb, end);
          if (cut)
            ++r.events;
          xe = state_at(t_stop, tb);

          record_step(r, ta, tb, t_stop);
          const bool restart = update_contacts(r, ta, t_stop, cut);
          t       = t_stop;
          t_start = t;
          x0      = xe;
          if (restart)
            stepper.initialize(xe, t, stepper.current_time_step());
        }
      finish(r);
      r.wall_time =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - clock_start).count();
      return r;
    }

    /// Writes @p content to @p path atomically (base/atomic_file.h).
    void
    write_atomically(const std::string &path, const std::string &content)
    {
      write_file_atomically(path, content);
    }

    std::string
    csv_number(const double x)
    {
      if (!std::isfinite(x))
        return "";
      std::ostringstream s;
      s << std::setprecision(10) << x;
      return s.str();
    }
  } // namespace

  // ---------------------------------------------------------------------------------------
  void
  GranularChainParameters::validate() const
  {
    require(number_of_beads >= 2, "number_of_beads", "must be at least 2");
    require(positive(bead_radius), "bead_radius", "must be positive (mm)");
    require(positive(bead_mass), "bead_mass", "must be positive (t)");
    require(positive(striker_mass), "striker_mass", "must be positive (t)");
    require(positive(youngs_modulus), "youngs_modulus", "must be positive (MPa)");
    require(std::isfinite(poisson_ratio) && poisson_ratio >= 0. && poisson_ratio < 0.5,
            "poisson_ratio", "must be in [0, 0.5)");
    require(positive(yield_strength), "yield_strength", "must be positive (MPa)");
    require(std::isfinite(plastic_limit_ratio) && plastic_limit_ratio > std::sqrt(2.),
            "plastic_limit_ratio", "(Ma-Liu xi) must be > sqrt(2)");
    require(positive(hardness_ratio), "hardness_ratio", "(Ma-Liu psi) must be positive");
    require(positive(striker_velocity), "striker_velocity", "must be positive (mm/s)");
    require(std::isfinite(restitution) && restitution > 0. && restitution <= 1., "restitution",
            "must be in (0, 1]");
    if (law != s003_mixed_law && contact::laws::find_law(law) == nullptr)
      {
        std::string known = "\"" + s003_mixed_law + "\"";
        for (const auto &l : contact::laws::registered_laws())
          known += ", " + l.id;
        throw std::invalid_argument("GranularChainParameters::law \"" + law +
                                    "\" is neither \"" + s003_mixed_law +
                                    "\" nor a registered law; known: " + known);
      }
    for (const auto j : sensor_beads)
      require(j >= 1 && j <= number_of_beads, "sensor_beads",
              "must be beads 1.." + std::to_string(number_of_beads) + " (got " +
                std::to_string(j) + ")");
    require(std::isfinite(initial_gap) && initial_gap >= 0., "initial_gap",
            "must be >= 0 (mm)");
    require(positive(end_time), "end_time", "must be positive (s)");
    require(output_samples >= 2, "output_samples", "must be at least 2");
    require(positive(relative_tolerance), "relative_tolerance", "must be positive");
    require(std::isfinite(absolute_tolerance) && absolute_tolerance >= 0.,
            "absolute_tolerance", "must be >= 0");
    require(max_steps > 0, "max_steps", "must be positive");
  }

  double
  GranularChainParameters::effective_modulus() const
  {
    return youngs_modulus / (2. * (1. - poisson_ratio * poisson_ratio));
  }

  double
  GranularChainParameters::effective_radius() const
  {
    return 0.5 * bead_radius;
  }

  double
  GranularChainParameters::hertz_stiffness() const
  {
    return 4. / 3. * effective_modulus() * std::sqrt(effective_radius());
  }

  // ---------------------------------------------------------------------------------------
  S003ChainLaw::S003ChainLaw(const double K_, const double K_p, const double delta_y,
                             const double c_r, const double v0)
    : ContactLaw("s003_mixed_flores_wang_liu_liu", false, true)
    , K(K_)
    , Kp(K_p)
    , dy(delta_y)
  {
    if (!(positive(K) && positive(Kp) && positive(dy) && positive(v0) && c_r > 0. && c_r <= 1.))
      throw std::invalid_argument("S003ChainLaw: K, K_p, delta_y and v0 must be positive and "
                                  "finite, c_r in (0, 1]");
    chi_F = 8. * (1. - c_r) / (5. * c_r) * K / v0;   // docs/contact-law-catalogue.md D8
    // S003 eq.(17), docs/contact-law-catalogue.md G4
    chi_W = 3. * Kp * (1. - c_r) / (2. * c_r * v0);
  }

  S003ChainLaw::S003ChainLaw(const GranularChainParameters &p)
    : S003ChainLaw(p.hertz_stiffness(), ma_liu_model(p).linearized_stiffness(),
                   ma_liu_model(p).delta_y(), p.restitution, p.striker_velocity)
  {}

  double
  S003ChainLaw::spring_force(const double d, const NormalContactHistory &h) const
  {
    return elastoplastic(h) ? Kp * d : K * d * std::sqrt(d);
  }

  double
  S003ChainLaw::damping_force(const double d, const double d_dot,
                              const NormalContactHistory &h) const
  {
    return elastoplastic(h) ? chi_W * d * d_dot : chi_F * d * std::sqrt(d) * d_dot;
  }

  double
  S003ChainLaw::stored_energy(const double d, const NormalContactHistory &h) const
  {
    if (!(d > 0.))
      return 0.;
    return elastoplastic(h) ? 0.5 * Kp * d * d : 0.4 * K * d * d * std::sqrt(d);
  }

  // ---------------------------------------------------------------------------------------
  GranularChainResult
  simulate_granular_chain(const GranularChainParameters &p, const bool record_contacts)
  {
    ChainIntegrator integrator(p, record_contacts);
    return integrator.run();
  }

  void
  run_granular_chain(const GranularChainParameters &p, const std::string &output_directory,
                     std::ostream &log)
  {
    log << "granular chain (docs/contact-law-catalogue.md §8 S4): " << p.number_of_beads
        << " beads + striker at " << p.striker_velocity << " mm/s, law " << p.law << ", c_r "
        << p.restitution << ", to t = " << p.end_time << " s\n";
    const GranularChainResult r = simulate_granular_chain(p);
    std::filesystem::create_directories(output_directory);
    const std::string dir = output_directory + "/";

    std::ostringstream forces;
    forces << "t";
    for (const auto j : r.sensor_beads)
      forces << ",F_bead_" << j;
    forces << '\n' << std::setprecision(12);
    for (std::size_t s = 0; s < r.time.size(); ++s)
      {
        forces << r.time[s];
        for (const auto &f : r.sensor_force)
          forces << ',' << f[s];
        forces << '\n';
      }
    write_atomically(dir + "chain_forces.csv", forces.str());

    std::ostringstream velocities;
    velocities << "t";
    for (unsigned int j = 0; j <= p.number_of_beads; ++j)
      velocities << ",v_" << j;
    velocities << '\n' << std::setprecision(12);
    for (std::size_t s = 0; s < r.time.size(); ++s)
      {
        velocities << r.time[s];
        for (const double v : r.velocity[s])
          velocities << ',' << v;
        velocities << '\n';
      }
    write_atomically(dir + "chain_velocities.csv", velocities.str());

    std::ostringstream balance;
    balance << "t,momentum,kinetic_energy,stored_energy,work,damping_dissipation,"
               "history_energy\n"
            << std::setprecision(12);
    for (std::size_t s = 0; s < r.time.size(); ++s)
      balance << r.time[s] << ',' << r.momentum[s] << ',' << r.kinetic_energy[s] << ','
              << r.stored_energy[s] << ',' << r.work[s] << ',' << r.damping_dissipation[s]
              << ',' << r.history_energy[s] << '\n';
    write_atomically(dir + "chain_balance.csv", balance.str());

    std::ostringstream sum;
    sum << "quantity,bead,value,unit\n";
    const auto row = [&](const std::string &q, const std::string &bead, const double v,
                         const std::string &unit) {
      sum << q << ',' << bead << ',' << csv_number(v) << ',' << unit << '\n';
    };
    for (std::size_t k = 0; k < r.sensor_beads.size(); ++k)
      {
        const std::string j = std::to_string(r.sensor_beads[k]);
        row("peak_force", j, r.peak_force[k], "N");
        row("peak_time", j, r.peak_time[k], "s");
        row("segment_speed", j, r.segment_speed[k], "mm/s");
      }
    const std::size_t last = r.time.size() - 1;
    unsigned int      n_ep = 0;
    for (const bool b : r.became_elastoplastic)
      n_ep += b ? 1 : 0;
    row("wave_speed", "", r.wave_speed, "mm/s");
    row("initial_momentum", "", r.initial_momentum, "t mm/s");
    row("final_momentum", "", r.momentum[last], "t mm/s");
    row("max_momentum_error", "", r.max_momentum_error, "relative");
    row("initial_energy", "", r.initial_energy, "N mm");
    row("final_kinetic_energy", "", r.kinetic_energy[last], "N mm");
    row("final_stored_energy", "", r.stored_energy[last], "N mm");
    row("final_work", "", r.work[last], "N mm");
    row("final_damping_dissipation", "", r.damping_dissipation[last], "N mm");
    row("final_history_energy", "", r.history_energy[last], "N mm");
    row("max_work_residual", "", r.max_work_residual, "relative");
    row("max_balance_residual", "", r.max_balance_residual, "relative");
    row("yield_indentation", "", r.yield_indentation, "mm");
    row("hertz_stiffness", "", r.hertz_stiffness, "N/mm^1.5");
    row("linearized_stiffness", "", r.linearized_stiffness, "N/mm");
    row("flores_chi", "", r.flores_chi, "N s/mm^2.5");
    row("wang_liu_liu_chi", "", r.wang_liu_liu_chi, "N s/mm^2");
    row("first_pair_max_indentation", "", r.first_pair_max_indentation, "mm");
    row("first_pair_ma_liu_restitution", "", r.first_pair_ma_liu_restitution, "1");
    row("elastoplastic_contacts", "", n_ep, "1");
    row("steps", "", r.steps, "1");
    row("events", "", r.events, "1");
    row("min_step", "", r.min_step, "s");
    row("mean_step", "", r.mean_step, "s");
    row("max_step", "", r.max_step, "s");
    row("wall_time", "", r.wall_time, "s");
    write_atomically(dir + "chain_summary.csv", sum.str());

    log << "granular chain: " << r.steps << " steps (" << std::setprecision(3) << r.min_step
        << " .. " << r.max_step << " s, mean " << r.mean_step << " s), " << r.events
        << " events, " << r.wall_time << " s; wave speed " << std::setprecision(5)
        << r.wave_speed << " mm/s; peak forces";
    for (std::size_t k = 0; k < r.sensor_beads.size(); ++k)
      log << ' ' << r.sensor_beads[k] << ':' << std::setprecision(4) << r.peak_force[k]
          << " N";
    log << "; momentum error " << std::setprecision(2) << r.max_momentum_error
        << ", energy residual " << r.max_balance_residual << "; results in " << dir
        << "chain_*.csv\n";
  }
} // namespace granular::impact
