#pragma once
/**
 * @file run_record.h
 * What a run writes about itself (docs/methods.md §8.2): the row of summary.csv, the rows of
 * history.csv, and the progress lines with the remaining-time estimate on the terminal.
 *
 * Units of docs/methods.md §1: mm, s, N per mm thickness, N mm per mm for energies; times in s.
 */
#include <chrono>
#include <cstdint>
#include <fstream>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace granular
{
  /// Energy created per component (R = W + ΔE + D of the energy ledger, > 0 created) over a
  /// stretch of the run (N mm/mm); see coupling/energy_ledger.h and docs/methods.md §2.2.
  struct CreatedEnergy
  {
    double bulk = 0., rubber_surface = 0., rubber_particle = 0., particle_surface = 0.,
           platen = 0., unassigned = 0.;

    CreatedEnergy operator-(const CreatedEnergy &o) const
    {
      return {bulk - o.bulk,
              rubber_surface - o.rubber_surface,
              rubber_particle - o.rubber_particle,
              particle_surface - o.particle_surface,
              platen - o.platen,
              unassigned - o.unassigned};
    }
    template <class Archive>
    void serialize(Archive &ar, const unsigned int)
    {
      ar &bulk &rubber_surface &rubber_particle &particle_surface &platen &unassigned;
    }
  };

  /// The row of summary.csv (docs/methods.md §8.2). Units of docs/methods.md §1; times in s.
  struct RunSummary
  {
    double       kbar = 0., kbar_F = 0., kbar_V = 0., kbar_spread = 0.;
    double       pressure = 0., slip_velocity = 0., relaxation_time = 0., payne_d = 0.;
    double       r1 = 0., r2 = 0., p1 = 0., p2 = 0.;
    double       energy_balance_error = 0.;
    unsigned int steps = 0, newton_iterations = 0, cutbacks = 0;
    double       wall_time = 0.;
    double       time_assembly = 0., time_factorization = 0., time_solve = 0.,
                 time_particle = 0., time_output = 0.;
    /// frictional dissipation per interface and DEM damping dissipation over the
    /// averaging window (N mm per mm thickness)
    double       dissipation_rubber_surface = 0., dissipation_rubber_particle = 0.,
                 dissipation_particle_surface = 0., dissipation_damping = 0.,
                 dissipation_viscous = 0.;
    double       mean_normal_force = 0.;          ///< mean F_N over the window (N/mm)
    double       mean_particle_speed = 0.;        ///< mean |v_x| over the window (mm/s)
    double       mean_rolling_speed  = 0.;        ///< mean |omega| r0 over the window (mm/s)
    unsigned long long dem_substeps = 0;          ///< explicit particle sub-steps in all
    unsigned long      factorizations = 0;        ///< KLU factorizations in all
    unsigned long      coupling_passes = 0;       ///< extra particle/rubber passes (sub-iterations)
    /// algorithmic dissipation of the Newmark integrator over the averaging window (rubber
    /// and, monolithic coupling, particle; fem::BlockEnergies::numerical_dissipation), N mm
    /// per mm: a term of the energy balance, not a physical dissipation (not in kbar_F)
    double             dissipation_numerical = 0.;
    /// the part of dissipation_numerical that the velocity update at the step starts took
    /// over the window (Solver/Rubber-particle velocity update, docs/methods.md §6.1), N mm/mm
    double             dissipation_velocity_update = 0.;
    /// assemblies of the Newton system (line-search trials included) and the Newton
    /// iterations of attempts that failed and were cut back: with newton_iterations (the
    /// accepted attempts only) the whole cost of the nonlinear solves
    unsigned long      assemblies = 0, failed_newton_iterations = 0;
    /// the largest penetration of the rubber's contact points into the surface (-g_N = -x2)
    /// and into the particle (-g_N of the closest-point projection) over the whole run (mm):
    /// how far the penalty regularisation lets the constraints be violated
    double             max_penetration_rubber_surface = 0., max_penetration_rubber_particle = 0.;
    /// the cell: L0 and H0 (mm), the structured mesh's elements (0, 0 with a mesh file) and
    /// the time step Delta t (s) = Loading/Time step * T0, so that a script can make its axes
    /// dimensionless without being told the geometry
    double       block_length = 0., block_height = 0.;
    unsigned int elements_x = 0, elements_y = 0;
    double       time_step = 0.;
    /// energy created per component of the energy ledger over the whole run and over the
    /// averaging window (N mm/mm; coupling/energy_ledger.h, docs/methods.md §2.2)
    CreatedEnergy created_energy, created_energy_in_window;
    /// adaptive steps rejected and repeated with half their length (Solver/Step rejection;
    /// their Newton iterations are in failed_newton_iterations)
    unsigned int  rejected_steps = 0;
    /// of the assemblies: the residual-only line-search trials of steps shorter than the
    /// Newton step, and all those of attempts that failed (cut back) or were rejected
    unsigned long assemblies_line_search = 0, assemblies_failed = 0;
    /// the particles of the cell (subsection Particles; 0 without a particle)
    unsigned int particles = 0;
    /// friction and damping dissipation of the contacts between particles over the averaging
    /// window (N mm per mm; 0 with fewer than two particles)
    double dissipation_particle_particle = 0., dissipation_particle_particle_damping = 0.;
    /// g'(phi) evaluations of the pair contacts' closest-normal solves over the run
    unsigned long pair_overlap_evaluations = 0;
    /// over the window: the time average of the signed F_T/F_N (kbar's ratio without the
    /// absolute value) and the share of the time in which F_T < 0 (MacroscopicFriction)
    double kbar_signed = 0., reversed_fraction = 0.;
    /// floating-point operations of one LU factorization of the tangent at the end of the
    /// run (KLU's count with the pivots of the last full factorization): with
    /// factorizations, the LU's work without the machine's noise
    double factorization_flops = 0.;
  };

  /// The share of the averaging window with F_T < 0 from which the run's terminal summary
  /// notes that kbar counts a forward push as friction (format_summary).
  constexpr double reversed_fraction_noted = 0.01;

  template <class Row>
  struct CsvColumn;

  /// The columns of summary.csv (base/csv_columns.h): its header, its row and the table of
  /// docs/outputs.md are made from them.
  const std::vector<CsvColumn<RunSummary>> &summary_columns();

  /// CSV header and row of summary.csv (summary_columns()).
  std::string summary_csv(const RunSummary &summary);

  /// A few human-readable lines for the terminal.
  std::string format_summary(const RunSummary &summary);

  namespace coupling
  {
    /// One row of history.csv (docs/methods.md §8.2).
    struct HistoryRow
    {
      double      t = 0.;
      const char *phase = "";
      double      F_N = 0., F_T = 0.; ///< normal and tangential force on the top (N/mm)
      double      kI = 0., kI_avg = 0.;
      double      platen_u1 = 0., platen_u2 = 0.; ///< mm
      /// the particle's columns (empty without a particle)
      struct Particle
      {
        double x = 0., y = 0., theta = 0., vx = 0., vy = 0., omega = 0.;
        double surface_fN = 0., surface_fT = 0.;
        bool   surface_contact = false, surface_stick = false;
        double rubber_force_x = 0., rubber_force_y = 0., rubber_moment = 0.;

        template <class Archive>
        void serialize(Archive &ar, const unsigned int)
        {
          ar &x &y &theta &vx &vy &omega &surface_fN &surface_fT &surface_contact
            &surface_stick &rubber_force_x &rubber_force_y &rubber_moment;
        }
      };
      std::optional<Particle> particle;
      unsigned int contacts_rubber_surface = 0, slipping_rubber_surface = 0;
      unsigned int contacts_rubber_particle = 0, slipping_rubber_particle = 0;
      unsigned int newton_iterations = 0, dem_substeps = 0;
      double dissipation_rubber_surface = 0., dissipation_rubber_particle = 0.,
             dissipation_particle_surface = 0., dissipation_damping = 0.,
             dissipation_viscous = 0., dissipation_numerical = 0.;
      double energy_total = 0., platen_work = 0., particle_energy_residual = 0.;
      /// ‖D‖ (1/s) and the Payne factor H = 1 + d q over the boundary layer (largest, 99th
      /// and 50th percentile over the quadrature points of the bottom row of cells:
      /// fem::BoundaryLayerRates); written only by a viscoelastic run
      double D_bottom_max = 0., D_bottom_p99 = 0., D_bottom_p50 = 0.;
      double H_bottom_max = 1., H_bottom_p99 = 1., H_bottom_p50 = 1.;

      /// Boost.Serialization (checkpoint/restart); the phase and the boundary-layer
      /// statistics (taken from the later row when interpolating) are not written.
      template <class Archive>
      void serialize(Archive &ar, const unsigned int)
      {
        ar &t &F_N &F_T &kI &kI_avg &platen_u1 &platen_u2;
        bool has_particle = particle.has_value();
        ar &has_particle;
        if (has_particle && !particle)
          particle.emplace();
        if (!has_particle)
          particle.reset();
        if (particle)
          ar &*particle;
        ar &contacts_rubber_surface &slipping_rubber_surface &contacts_rubber_particle
          &slipping_rubber_particle &newton_iterations &dem_substeps
            &dissipation_rubber_surface &dissipation_rubber_particle
              &dissipation_particle_surface &dissipation_damping &dissipation_viscous
                &dissipation_numerical &energy_total &platen_work &particle_energy_residual;
      }
    };

    /**
     * The history row at the fraction @p w (0 < w < 1) of a step from row @p a to row @p b
     * (adaptive time steps keep history.csv on the grid of Loading/Time step): time, forces,
     * displacements, the particle's state and forces, the dissipations and energies
     * linearly interpolated, k_I recomputed from the interpolated forces, and its moving
     * average k_I* interpolated too, except in a step that opens the averaging window
     * (k_I* = 0 at @p a, > 0 at @p b), where k_I* is the trapezoidal mean of k_I from @p a
     * to the row (Temizer 2013, eq. (12)); the contact states and counts and the
     * boundary-layer statistics of @p b; newton_iterations = dem_substeps = 0, which marks
     * the row as interpolated (every computed step has at least one Newton iteration);
     * @p phase.
     */
    HistoryRow interpolate(const HistoryRow &a, const HistoryRow &b, double w,
                           const char *phase);

    /// The columns of history.csv (base/csv_columns.h), with the six boundary-layer columns
    /// of a viscoelastic run if @p boundary_layer: its header, its rows and the tables of
    /// docs/outputs.md are made from them.
    const std::vector<CsvColumn<HistoryRow>> &history_columns(bool boundary_layer);

    /// One row of particles.csv: one particle at one time (docs/outputs.md#particlescsv).
    struct ParticleRow
    {
      double       t = 0.;          ///< s
      unsigned int particle = 0;    ///< its index (0: the particle of history.csv)
      double       x = 0., y = 0., theta = 0.;          ///< centre (mm, in [0, L0)), rad
      double       vx = 0., vy = 0., omega = 0.;        ///< mm/s, rad/s
      double       x_unwrapped = 0.;                    ///< mm, without periodic wrapping
      double       surface_fN = 0., surface_fT = 0.;    ///< N/mm
      unsigned int surface_contact = 0, surface_stick = 0;
      unsigned int contacts_rubber_particle = 0, slipping_rubber_particle = 0;
      double       r1 = 0., r2 = 0., p1 = 0., p2 = 0.;  ///< its shape (mm, -)
    };

    /// The columns of particles.csv (base/csv_columns.h).
    const std::vector<CsvColumn<ParticleRow>> &particle_columns();

    /// history.csv of a run: the header, then one HistoryRow per recorded step.
    class HistoryWriter
    {
    public:
      /**
       * Opens @p path: a fresh run truncates it and writes the header; a restart first cuts
       * it back to @p restart_bytes (the rows up to the checkpoint) and appends. With
       * @p boundary_layer_columns (a viscoelastic rubber) every row ends with the six
       * columns D_bottom_max ... H_bottom_p50 (history_columns()).
       * @throws std::runtime_error if the file cannot be written.
       */
      HistoryWriter(const std::string &path, bool restart, std::uint64_t restart_bytes,
                    bool boundary_layer_columns = false);
      /// @throws std::runtime_error naming the file if writing failed (a full disk): the
      /// run stops at the first failed write (the stream's buffer holds a few rows).
      void write(const HistoryRow &row);
      /// Flushes and returns the file's size (bytes), for a checkpoint.
      /// @throws std::runtime_error as write().
      std::uint64_t flush();
      void          close() { file_.close(); }

    private:
      void          check();
      std::string   path_;
      std::ofstream file_;
      bool          boundary_layer_columns_;
    };

    /// "42 s", "17 min", "3 h 05 min"
    std::string duration_text(double seconds);

    /**
     * The inverse of duration_text(): the seconds of "42 s", "17 min" or "3 h 05 min"
     * (exact to the text's rounding: a second below 2 min, a minute above). Leading blanks
     * and anything after the duration (the end of a progress line) are ignored.
     * @return the duration in s, or a negative value if @p text does not start with one.
     */
    double duration_seconds(const std::string &text);

    /**
     * The remaining-time estimate of the progress lines, from the cost of the steps still
     * to come. A run's phases cost very different wall time per unit of simulated time
     * (adaptive steps make the load ramp and the hold cheap; a particle that rolls over
     * keeps the steps short and Newton busy while the block is dragged), so the estimate
     * adds, over the phases ahead, their remaining simulated time times a cost rate (wall s
     * per simulated s):
     *  - the prior, where nothing is measured yet: every reference step a hard step
     *    (TimeStepControl::hard_iterations Newton iterations) at the mean wall time of a
     *    Newton iteration so far. It bounds the dragging of most runs from above;
     *  - a phase not reached yet that has the physics of an earlier one (the averaging
     *    window: the dragging) costs that phase's rate times its Phase::scale, but no more
     *    than the prior unless the earlier phase itself cost more;
     *  - a phase in progress blends its own measured rate with that, in proportion to how
     *    much of its Phase::trust_time has run; after that its measured rate alone.
     * With a particle the window is estimated at twice the dragging before it (roll-overs
     * set in while the block starts to slide) and its own rate is trusted after one T0;
     * docs/performance.md#remaining-time gives the measurements behind both and the
     * estimate's accuracy.
     */
    class RemainingTime
    {
    public:
      /// One phase of the run: it ends at @p end (s); before it is reached it costs @p scale
      /// times what the phase @p like (an earlier phase's index, or its own: the prior)
      /// measured; its own measured rate counts in full once @p trust_time (s) of it has run
      /// (by default its whole length).
      struct Phase
      {
        double       end;
        unsigned int like;
        double       scale      = 1.;
        double       trust_time = std::numeric_limits<double>::infinity();
      };

      /**
       * @param phases          the run's phases in order; the last ends with the run
       * @param reference_step  Δt (s)
       * @param prior_iterations the Newton iterations per reference step of the prior
       */
      RemainingTime(std::vector<Phase> phases, double reference_step,
                    double prior_iterations);

      /// After a step from @p t0 to @p t (s) that took @p wall_seconds and
      /// @p newton_iterations.
      void record(double t0, double t, double wall_seconds, unsigned int newton_iterations);

      /// The estimated wall time (s) left at time @p t; 0 at the end.
      double seconds_left(double t) const;

    private:
      /// the cost rate (wall s per simulated s) of phase @p i
      double rate(unsigned int i) const;
      /// the prior cost rate (wall s per simulated s)
      double prior() const;
      double start(unsigned int i) const { return i == 0 ? 0. : phases_[i - 1].end; }

      std::vector<Phase>  phases_;
      double              reference_step_, prior_iterations_;
      /// per phase: wall time (s) and simulated time (s) measured by this process
      std::vector<double> wall_, simulated_;
      double              total_wall_ = 0.;
      unsigned long       total_iterations_ = 0;
    };
  } // namespace coupling
} // namespace granular
