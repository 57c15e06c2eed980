#pragma once
/**
 * @file energy_balance.h
 * The energy accountant of a run (docs/methods.md §2.2): the work of the top platen, the energy
 * held by rubber and particle, the dissipation by mechanism, and over the averaging window the
 * normal work that normalises the dissipation split k̄ = k̄_F + k̄_V (Temizer 2013,
 * eq. (13)). The balance
 *   platen work = Δ(stored + kinetic + contact springs + gravitational) + dissipation
 * (Newmark's algorithmic dissipation included, docs/methods.md §2.2) guards the run.
 *
 * Units: N mm per mm thickness for energies and work, N/mm forces, mm, s.
 */
#include "coupling/coupling_scheme.h"
#include "fem/rubber_block.h"

namespace granular::coupling
{
  /**
   * What is measured after a time step t0 -> t = t0 + h (docs/methods.md §2.2), the input of the
   * energy accountant and of the run's records. Units: s, mm, N/mm, N mm/mm, mm/s.
   */
  struct StepMeasurements
  {
    double            t = 0.;           ///< the end of the step (s)
    double            h = 0.;           ///< its length (s)
    fem::PlatenForces platen_forces;    ///< F_N, F_T on the top platen at t (N/mm)
    double            u1 = 0., u2 = 0.; ///< the platen's horizontal and vertical displacement (mm)
    double            load = 0.;        ///< the vertical load at t (N/mm)
    bool              in_window = false; ///< t is inside the averaging window
    Dissipation       dissipation;      ///< accumulated since t = 0 (N mm/mm)
    /// the block's energies at t (one pass over its cells, shared by every reader of the
    /// step: the time-step control, energy.csv, the guard, history.csv)
    fem::BlockEnergies block_energies;
    double             total_energy = 0.; ///< EnergyAccountant::total_energy() at t (N mm/mm)
    double            slip_velocity = 0.; ///< v_F (mm/s)
    bool              with_particle = false;
    /// the particle's |v_x| and rolling speed |omega| r0 (mm/s); 0 without a particle
    double            particle_speed = 0., rolling_speed = 0.;
  };

  /// See the file comment. One per run; checkpointed with the run.
  class EnergyAccountant
  {
  public:
    /// @param block, @param scheme the run's rubber block and coupling scheme (not owned)
    EnergyAccountant(const fem::RubberBlock &block, const CouplingScheme &scheme);

    /// Dissipation accumulated since t = 0, by mechanism.
    Dissipation dissipation() const { return dissipation(block_.energies()); }
    /// The same from the block's energies @p e at the current state (RubberBlock::energies(),
    /// a pass over every Gauss point: computed once per step, StepMeasurements).
    Dissipation dissipation(const fem::BlockEnergies &e) const;
    /// Total energy of rubber and particle (N mm/mm): stored, kinetic, contact springs,
    /// gravitational.
    double total_energy() const { return total_energy(block_.energies()); }
    /// The same from the block's energies @p e at the current state.
    double total_energy(const fem::BlockEnergies &e) const;

    /// At t = 0 of a fresh run: the reference energy of the balance.
    void start() { energy_0_ = total_energy(); }

    /**
     * After the step @p m: adds the platen work of the step (trapezoidal rule:
     * F_T du1 - load du2), and, inside the averaging window, the window's integrals of
     * F_N v_F, F_N and the particle's speeds; the dissipation of the window's first step
     * is kept as the window's start.
     */
    void record_step(const StepMeasurements &m);

    /// platen work - (E - E_0) - dissipation (N mm/mm): > 0 lost, < 0 created energy.
    double balance(double energy, const Dissipation &d) const
    {
      return platen_work_ - (energy - energy_0_) - d.total();
    }
    /**
     * The guard of docs/methods.md §2.2 after the step to @p t (s): throws std::runtime_error
     * naming the time, the sign and the scheme's advice when |balance| exceeds @p max_error times
     * the scale max(|platen work|, dissipation, 1e-2 @p full_load L0, M v_F^2): the top of
     * the block (mass M, RubberBlock::mass()) starts moving at @p slip_velocity v_F (mm/s)
     * within one step at T0, and the time discretisation of that jump moves an energy of
     * the order of M v_F^2 that no step length resolves, whatever the pressure (at
     * p < 1e-3 MPa it exceeds the work done so far). @p d and @p energy are the dissipation
     * and total_energy() at @p t.
     */
    void check(double t, double T0, double max_error, double full_load, double L0,
               double slip_velocity, const Dissipation &d, double energy) const;

    double platen_work() const { return platen_work_; }
    /// Dissipation at the start of the averaging window.
    const Dissipation &at_window_start() const { return at_window_start_; }
    /// ∫ F_N v_F dt over the window (N mm/mm), the denominator of k̄_F and k̄_V.
    double normal_work_window() const { return normal_work_window_; }
    /// ∫ F_N dt, ∫ |v_x| dt, ∫ |omega| r0 dt over the window.
    double normal_force_integral() const { return normal_force_integral_; }
    double speed_integral() const { return speed_integral_; }
    double rolling_integral() const { return rolling_integral_; }

    /// Boost.Serialization (checkpoint/restart).
    template <class Archive>
    void serialize(Archive &ar, const unsigned int)
    {
      ar &energy_0_ &platen_work_ &u1_old_ &u2_old_ &load_old_ &tangential_force_old_
        &at_window_start_ &normal_work_window_ &normal_force_integral_ &normal_force_old_
          &speed_integral_ &rolling_integral_ &window_open_;
    }

  private:
    const fem::RubberBlock &block_;
    const CouplingScheme   &scheme_;
    double      energy_0_    = 0.; ///< total energy at t = 0
    double      platen_work_ = 0., u1_old_ = 0., u2_old_ = 0., load_old_ = 0.;
    double      tangential_force_old_ = 0.; ///< F_T of the last step
    Dissipation at_window_start_;
    double      normal_work_window_ = 0., normal_force_integral_ = 0., normal_force_old_ = 0.;
    double      speed_integral_ = 0., rolling_integral_ = 0.;
    bool        window_open_ = false;
  };
} // namespace granular::coupling
