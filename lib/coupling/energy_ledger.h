#pragma once
/**
 * @file energy_ledger.h
 * The energy ledger of a run (docs/methods.md §2.2): where the run's energy balance fails,
 * component by component. For the rubber's bulk material and for each of the three
 * interfaces (rubber-surface, rubber-particle, particle-surface), accumulated since t = 0:
 *  - W, the trapezoidal work of the component's forces on the bodies it acts on,
 *    (f_n + f_{n+1})/2 . (q_{n+1} - q_n) per committed step (per cut-back sub-step where a
 *    step was cut back; per DEM sub-step for the explicit particle of the staggered scheme),
 *    on the rubber's nodes and on the particle's centre and rotation (force and moment about
 *    the centre);
 *  - ΔE, the change of the energy it stores (penalty potentials and tangential springs,
 *    the normal law's potential; for the bulk the elastic energy of both branches);
 *  - D, what it dissipated (Coulomb slip, the normal law's damping; the bulk's viscous
 *    dissipation);
 *  - R = W + ΔE + D, the energy the component CREATED (R > 0) or lost without a
 *    mechanism (R < 0). A conservative force does W = -ΔE, friction and dampers W = -D.
 * With the equations of motion at t_n and t_{n+1}, the trapezoidal works of all forces sum to
 * zero over a step, and the inertial forces' trapezoidal work is Δ(kinetic energy) plus
 * Newmark's algorithmic dissipation (fem/newmark.h). So the run's balance (EnergyAccountant)
 * is, up to the Newton tolerance,
 *   platen work - ΔE - dissipation = -(R_bulk + R_rubber-surface + R_rubber-particle
 *                                      + R_particle-surface + R_platen),
 * with R_platen the platen work the balance does not count: the inertial force of the top
 * nodes (the balance takes F_T from their internal forces) and the difference between the
 * trapezoidal rule over the cut-back sub-steps and over the whole step. What is left,
 * "unassigned" = -balance - sum R, is zero to the Newton tolerance for the monolithic scheme
 * and the bare interface; for the staggered scheme it holds the explicit coupling's and the
 * velocity-Verlet integrator's share (see docs/methods.md §2.2).
 *
 * energy.csv gets one row per computed step, written as the run goes (a run stopped by the
 * energy guard keeps the rows up to the failing step). Units: s, N mm per mm thickness.
 */
#include "coupling/coupling_scheme.h"
#include "coupling/energy_balance.h"
#include "coupling/loading_program.h"
#include "coupling/run_record.h"
#include "fem/rubber_block.h"

#include <cstdint>
#include <fstream>
#include <string>

namespace granular::coupling
{
  /// One component's terms accumulated since t = 0 (N mm/mm); see the file comment.
  struct LedgerTerms
  {
    double work = 0., stored = 0., dissipation = 0.;
    /// R = W + ΔE + D: > 0 energy created by the component
    double created() const { return work + stored + dissipation; }
  };

  /// A row of energy.csv: the ledger after the step to t.
  struct LedgerRow
  {
    double      t = 0., h = 0.;
    std::string phase; ///< "ramp", "hold", "dragging" or "window"
    double      platen_work = 0.; ///< the balance's platen work (EnergyAccountant)
    double      balance     = 0.; ///< platen work - ΔE - dissipation (< 0: created)
    LedgerTerms bulk, rubber_surface, rubber_particle, particle_surface;
    double      platen     = 0.; ///< R_platen (see the file comment)
    double      unassigned = 0.; ///< -balance - sum of the R
  };

  /// The created energies (R) of a ledger row.
  inline CreatedEnergy created_energy(const LedgerRow &r)
  {
    return {r.bulk.created(),  r.rubber_surface.created(), r.rubber_particle.created(),
            r.particle_surface.created(), r.platen, r.unassigned};
  }

  /// energy.csv's header line (with '\n') and a row (with '\n').
  std::string energy_csv_header();
  std::string energy_csv_row(const LedgerRow &row);

  /// See the file comment. One per run; checkpointed with the run.
  class EnergyLedger
  {
  public:
    /// @param block, @param scheme, @param loading the run's parts (not owned)
    EnergyLedger(const fem::RubberBlock &block, const CouplingScheme &scheme,
                 const LoadingProgram &loading);

    /// At t = 0 of a fresh run: the stored energies the ΔE are measured from.
    void start();

    /// The ledger after the step to @p t of length @p h (s), with the run's balance from
    /// @p energy (after its record_step()) and the step's measurements @p m (the block's
    /// energies, the dissipation and the total energy at @p t).
    LedgerRow row(double t, double h, const EnergyAccountant &energy,
                  const StepMeasurements &m) const;

    /// Opens @p path (a restart cuts it back to the size at the checkpoint and appends).
    /// @throws std::runtime_error if it cannot be written.
    void open(const std::string &path, bool restart);
    /// Writes @p r to energy.csv (flushed) and keeps it; the first row with @p in_window
    /// opens the averaging window.
    void record(const LedgerRow &r, bool in_window);

    /// The size of energy.csv after the last row written (bytes; a restart's is the
    /// checkpoint's).
    std::uint64_t bytes() const { return bytes_; }

    /// Created energy since t = 0 and since the window's first step (N mm/mm).
    CreatedEnergy created() const { return last_; }
    CreatedEnergy created_in_window() const { return last_ - at_window_start_; }

    template <class Archive>
    void serialize(Archive &ar, const unsigned int)
    {
      ar &stored_0_ &surface_springs_0_ &particle_springs_0_ &particle_contact_0_ &last_
        &at_window_start_ &window_open_ &bytes_;
    }

  private:
    const fem::RubberBlock &block_;
    const CouplingScheme   &scheme_;
    const LoadingProgram   &loading_;
    double        stored_0_ = 0., surface_springs_0_ = 0., particle_springs_0_ = 0.,
                  particle_contact_0_ = 0.;
    CreatedEnergy last_, at_window_start_;
    bool          window_open_ = false;
    std::uint64_t bytes_       = 0; ///< size of energy.csv after the last row
    std::string   path_;
    std::ofstream file_;
  };
} // namespace granular::coupling
