// The energy ledger of a run (docs/methods.md §2.2). See energy_ledger.h.
#include "coupling/energy_ledger.h"

#include "base/atomic_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace granular::coupling
{
  std::string energy_csv_header()
  {
    std::ostringstream o;
    o << "t,dt,phase,platen_work,balance";
    for (const char *c : {"bulk", "rubber_surface", "rubber_particle", "particle_surface"})
      o << ",W_" << c << ",dE_" << c << ",D_" << c << ",R_" << c;
    o << ",R_platen,unassigned\n";
    return o.str();
  }

  std::string energy_csv_row(const LedgerRow &r)
  {
    std::ostringstream o;
    o << std::setprecision(12) << r.t << ',' << r.h << ',' << r.phase << ',' << r.platen_work
      << ',' << r.balance;
    for (const LedgerTerms *c : {&r.bulk, &r.rubber_surface, &r.rubber_particle,
                                 &r.particle_surface})
      o << ',' << c->work << ',' << c->stored << ',' << c->dissipation << ',' << c->created();
    o << ',' << r.platen << ',' << r.unassigned << '\n';
    return o.str();
  }

  EnergyLedger::EnergyLedger(const fem::RubberBlock &block, const CouplingScheme &scheme,
                             const LoadingProgram &loading)
    : block_(block)
    , scheme_(scheme)
    , loading_(loading)
  {}

  void EnergyLedger::start()
  {
    const fem::BlockEnergies e = block_.energies();
    stored_0_                  = e.stored;
    surface_springs_0_         = e.surface_springs;
    // one particle: its energies as they are (bit for bit), several: summed
    const auto interfaces = scheme_.interfaces();
    for (std::size_t i = 0; i < interfaces.size(); ++i)
      particle_springs_0_ = i == 0 ? interfaces[i]->spring_energy() :
                                     particle_springs_0_ + interfaces[i]->spring_energy();
    const auto particles = scheme_.particles();
    for (std::size_t i = 0; i < particles.size(); ++i)
      particle_contact_0_ = i == 0 ? particles[i]->contact_energy() :
                                     particle_contact_0_ + particles[i]->contact_energy();
  }

  LedgerRow EnergyLedger::row(const double t, const double h, const EnergyAccountant &energy,
                              const StepMeasurements &m) const
  {
    LedgerRow r;
    r.t     = t;
    r.h     = h;
    r.phase = t <= loading_.ramp_time * (1. + 1e-12) ? "ramp" :
              t <= loading_.T0 * (1. + 1e-12)        ? "hold" :
              loading_.in_averaging_window(t)        ? "window" :
                                                       "dragging";
    const fem::BlockEnergies &e = m.block_energies;
    const fem::BlockWork      w = block_.work();
    const Dissipation        &d = m.dissipation;
    r.platen_work               = energy.platen_work();
    r.balance                   = energy.balance(m.total_energy, d);

    r.bulk           = {w.bulk, e.stored - stored_0_, e.viscous_dissipation};
    r.rubber_surface = {w.surface, e.surface_springs - surface_springs_0_,
                        e.surface_friction_dissipation};
    // the particles' external work below includes the velocity update's impulses (docs/
    // methods.md §6.1), which are no contact force's: what they took is numerical dissipation
    r.rubber_particle.work = w.obstacle - e.velocity_update_particle_work;
    // summed over the particles (one: its terms as they are); the contacts between
    // particles have no term of their own: their step forces are energy-consistent (docs/
    // methods.md §5.6), and what they would create is left in `unassigned`
    const auto interfaces = scheme_.interfaces();
    for (std::size_t i = 0; i < interfaces.size(); ++i)
      {
        const double stored = interfaces[i]->spring_energy();
        const double dissipation = interfaces[i]->frictional_dissipation();
        r.rubber_particle.stored = i == 0 ? stored : r.rubber_particle.stored + stored;
        r.rubber_particle.dissipation =
          i == 0 ? dissipation : r.rubber_particle.dissipation + dissipation;
      }
    if (!interfaces.empty())
      r.rubber_particle.stored -= particle_springs_0_;
    const auto particles = scheme_.particles();
    for (std::size_t i = 0; i < particles.size(); ++i)
      {
        const dem::Particle &particle = *particles[i];
        // the rubber's force and moment on the particle: the work the particle received
        // (monolithic: trapezoidal; staggered: of the force held over the step)
        r.rubber_particle.work += particle.external_work();
        const LedgerTerms t = {particle.surface_work(), particle.contact_energy(),
                               particle.friction_dissipation() + particle.damping_dissipation()};
        if (i == 0)
          r.particle_surface = t;
        else
          {
            r.particle_surface.work += t.work;
            r.particle_surface.stored += t.stored;
            r.particle_surface.dissipation += t.dissipation;
          }
      }
    if (!particles.empty())
      r.particle_surface.stored -= particle_contact_0_;
    // the platen's work over the sub-steps, with the top nodes' inertia, minus the balance's
    r.platen     = w.platen - r.platen_work;
    r.unassigned = -r.balance - (r.bulk.created() + r.rubber_surface.created() +
                                 r.rubber_particle.created() + r.particle_surface.created() +
                                 r.platen);
    return r;
  }

  void EnergyLedger::open(const std::string &path, const bool restart)
  {
    if (restart)
      std::filesystem::resize_file(path, bytes_); // the rows after the checkpoint
    path_ = path;
    file_.open(path, restart ? std::ios::app : std::ios::trunc);
    if (!file_)
      throw std::runtime_error("cannot write " + path);
    if (!restart)
      {
        file_ << energy_csv_header() << std::flush;
        bytes_ = static_cast<std::uint64_t>(file_.tellp());
      }
  }

  void EnergyLedger::record(const LedgerRow &r, const bool in_window)
  {
    last_ = created_energy(r);
    if (in_window && !window_open_)
      {
        window_open_     = true;
        at_window_start_ = last_;
      }
    if (file_.is_open())
      {
        file_ << energy_csv_row(r) << std::flush;
        if (!file_)
          stop_after_failed_row(file_, path_);
        bytes_ = static_cast<std::uint64_t>(file_.tellp());
      }
  }
} // namespace granular::coupling
