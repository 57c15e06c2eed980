// The energy accountant of a run (spec §2.2). See energy_balance.h.
#include "coupling/energy_balance.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace granular::coupling
{
  EnergyAccountant::EnergyAccountant(const fem::RubberBlock &block,
                                     const CouplingScheme   &scheme)
    : block_(block)
    , scheme_(scheme)
  {}

  Dissipation EnergyAccountant::dissipation() const
  {
    Dissipation              d;
    const fem::BlockEnergies e = block_.energies();
    d.rubber_surface           = e.surface_friction_dissipation;
    d.viscous                  = e.viscous_dissipation;
    d.numerical                = e.numerical_dissipation;
    scheme_.add_particle_dissipation(d);
    return d;
  }

  double EnergyAccountant::total_energy() const
  {
    const fem::BlockEnergies e = block_.energies();
    double                   E = e.stored + e.surface_springs + e.kinetic;
    if (scheme_.particle() != nullptr)
      E += scheme_.particle_energy();
    return E;
  }

  void EnergyAccountant::record_step(const fem::PlatenForces &f, const double u1,
                                     const double u2, const double load, const bool in_window,
                                     const Dissipation &d, const double slip_velocity,
                                     const double dt, const bool with_particle,
                                     const double speed, const double rolling_speed)
  {
    platen_work_ += 0.5 * (f.tangential + tangential_force_old_) * (u1 - u1_old_) -
                    0.5 * (load + load_old_) * (u2 - u2_old_);
    tangential_force_old_ = f.tangential;
    u1_old_               = u1;
    u2_old_               = u2;
    load_old_             = load;
    if (in_window)
      {
        if (!window_open_)
          {
            window_open_     = true;
            at_window_start_ = d;
          }
        else
          {
            // int F_N v_F dt over the window (trapezoidal rule), paper eq. (13)
            normal_work_window_ += 0.5 * (f.normal + normal_force_old_) * slip_velocity * dt;
            normal_force_integral_ += 0.5 * (f.normal + normal_force_old_) * dt;
            if (with_particle)
              {
                speed_integral_ += speed * dt;
                rolling_integral_ += rolling_speed * dt;
              }
          }
      }
    normal_force_old_ = f.normal;
  }

  void EnergyAccountant::check(const double t, const double T0, const double max_error,
                               const double full_load, const double L0,
                               const Dissipation &d) const
  {
    const double b     = balance(total_energy(), d);
    const double scale = std::max({std::abs(platen_work_), d.total(), 1e-2 * full_load * L0});
    if (!(std::abs(b) > max_error * scale))
      return;
    std::ostringstream m;
    m << "the energy balance fails by " << 100. * std::abs(b) / scale
      << " % of the work done at t = " << t << " s (t/T0 = " << t / T0
      << (b < 0. ? "): the time steps create energy" :
                   "): the time steps lose energy that no mechanism dissipates")
      << scheme_.energy_error_advice();
    throw std::runtime_error(m.str());
  }
} // namespace granular::coupling
