// The energy accountant of a run (docs/methods.md §2.2). See energy_balance.h.
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

  Dissipation EnergyAccountant::dissipation(const fem::BlockEnergies &e) const
  {
    Dissipation d;
    d.rubber_surface           = e.surface_friction_dissipation;
    d.viscous                  = e.viscous_dissipation;
    d.numerical                = e.numerical_dissipation;
    d.velocity_update          = e.velocity_update_dissipation;
    scheme_.add_particle_dissipation(d);
    return d;
  }

  double EnergyAccountant::total_energy(const fem::BlockEnergies &e) const
  {
    double E = e.stored + e.surface_springs + e.kinetic;
    if (scheme_.particle() != nullptr)
      E += scheme_.particle_energy();
    return E;
  }

  void EnergyAccountant::record_step(const StepMeasurements &m)
  {
    const fem::PlatenForces &f = m.platen_forces;
    platen_work_ += 0.5 * (f.tangential + tangential_force_old_) * (m.u1 - u1_old_) -
                    0.5 * (m.load + load_old_) * (m.u2 - u2_old_);
    tangential_force_old_ = f.tangential;
    u1_old_               = m.u1;
    u2_old_               = m.u2;
    load_old_             = m.load;
    if (m.in_window)
      {
        if (!window_open_)
          {
            window_open_     = true;
            at_window_start_ = m.dissipation;
          }
        else
          {
            // int F_N v_F dt over the window (trapezoidal rule), paper eq. (13)
            normal_work_window_ += 0.5 * (f.normal + normal_force_old_) * m.slip_velocity * m.h;
            normal_force_integral_ += 0.5 * (f.normal + normal_force_old_) * m.h;
            if (m.with_particle)
              {
                speed_integral_ += m.particle_speed * m.h;
                rolling_integral_ += m.rolling_speed * m.h;
              }
          }
      }
    normal_force_old_ = f.normal;
  }

  void EnergyAccountant::check(const double t, const double T0, const double max_error,
                               const double full_load, const double L0,
                               const double slip_velocity, const Dissipation &d,
                               const double energy) const
  {
    const double b     = balance(energy, d);
    const double scale = std::max({std::abs(platen_work_), d.total(), 1e-2 * full_load * L0,
                                   block_.mass() * slip_velocity * slip_velocity});
    if (!(std::abs(b) > max_error * scale))
      return;
    std::ostringstream m;
    m << "the energy balance fails by " << 100. * std::abs(b) / scale
      << " % of the work done (or of M v_F^2 of the dragged block, if larger) at t = " << t << " s (t/T0 = " << t / T0
      << (b < 0. ? "): the time steps create energy" :
                   "): the time steps lose energy that no mechanism dissipates")
      << scheme_.energy_error_advice();
    throw std::runtime_error(m.str());
  }
} // namespace granular::coupling
