#pragma once
/**
 * @file sweep_runner.h
 * Parameter sweeps (docs/methods.md §8.3): the Cartesian product of the lists of subsection
 * "Sweep" is run, one micromechanical test per point, each in its own subdirectory
 * of Output/Output directory, named by the point's values, e.g.
 *   p2_v2500_tau0.0001_circular_d0_elastic
 * (p in MPa, v = slip velocity in mm/s, tau = tau0 in s, d = Payne d in s; a custom
 * shape r1:r2:p1:p2 (mm, mm, -, -) appears as r1xr2xp1xp2).
 *
 * Distribution over MPI ranks (dynamic, master/worker):
 *  - one rank (MPI not initialised, or a communicator of size 1): rank 0 runs every
 *    point itself, in order;
 *  - N > 1 ranks: every rank computes. Ranks 1..N-1 ask rank 0 for a point index
 *    (MPI_Send/MPI_Recv), run it, send back the result and ask again. Rank 0 takes
 *    points itself and answers the others between its time steps (MPI_Iprobe from
 *    the run's per-step hook) and, when no point is left, until all have finished;
 *    it records the results and rewrites sweep.csv. A point's run makes no MPI call.
 *
 * Signals (SIGINT, SIGTERM): wherever one lands, the whole sweep stops. A worker that
 * receives it stops its point after the current time step and reports the signal with
 * that point's result; rank 0 (on its own signal or such a report) hands out no further
 * point and sends every worker one stop message (tag_stop, the signal), which stops the
 * worker's point in progress at its next time step. Rank 0 sends that message with 0 when
 * the sweep ends without a signal, so each worker receives exactly one. At the end the
 * ranks agree on the exit status (the largest of their own: 128 + signal on a rank that
 * saw a signal), so each rank, and hence mpirun, exits with it.
 *
 * One sweep per output directory: rank 0 holds the directory's lock (DirectoryLock) while
 * the sweep runs; a second sweep or a single run there is refused (exit status 2).
 *
 * Resume: a point whose subdirectory holds a complete summary.csv (the header of the
 * current summary_csv() and one row of as many fields) and its parameters.prm is not run
 * again; its row is re-read. A resume with other parameters than a completed point was run
 * with (outside subsection Output) is refused (check_sweep_directory()). summary.csv is written atomically at the end of a run, so a point killed
 * mid-run (even by SIGKILL) has none and is run again.
 *
 * Output: rank 0 writes OUTPUT_DIRECTORY/sweep.csv atomically after every finished
 * point, one row per point with the columns
 *   point,name,point_pressure,point_relaxation_time,point_slip_velocity,point_shape,
 *   point_payne_d,point_rubber_model,status,error,<the columns of summary.csv>
 * status is "ok", "failed" (error = the exception message, summary columns empty) or
 * "pending" (not finished yet). Each point's terminal output goes to run.log in its
 * subdirectory (a failed point also gets error.txt); rank 0 prints one line per point:
 *   point i/N (name) done on rank r, kbar = ...
 */
#include "sweep/program_parameters.h"

#include <mpi.h>

#include <string>
#include <vector>

namespace dealii { class ParameterHandler; }

namespace granular
{
  /// One point of a sweep: the swept values (units of docs/methods.md §1).
  struct SweepPoint
  {
    unsigned int index = 0;          ///< 0-based position in the product
    double       pressure = 0.;      ///< p (MPa)
    double       relaxation_time = 0.; ///< tau0 (s)
    double       slip_velocity = 0.; ///< v_F (mm/s)
    std::string  shape;              ///< named shape or "r1:r2:p1:p2" (mm, mm, -, -)
    double       payne_d = 0.;       ///< Payne d (s)
    std::string  rubber_model;       ///< "elastic" | "viscoelastic"
    std::string  name;               ///< subdirectory name
  };

  /**
   * The Cartesian product of the lists of @p parameters.sweep (an empty list keeps
   * the single value of the parameter file). Order: pressure (outermost), slip
   * velocity, relaxation time, shape, Payne d, rubber model (innermost). An elastic
   * point does not depend on the relaxation time or on d: it is taken once per pressure,
   * velocity and shape, with the first values of those two lists (so a Payne-d sweep
   * with Rubber models = elastic, viscoelastic has one elastic reference point).
   * Throws std::invalid_argument if two points would get the same subdirectory name
   * (a value repeated in a list).
   */
  std::vector<SweepPoint> sweep_points(const ProgramParameters &parameters);

  /**
   * The parameters of one point: @p point_prm (freshly constructed, nothing declared)
   * receives the declarations and the values of @p prm, then the point's values
   * (Loading/Pressure, Loading/Slip velocity, Loading/Time step, Rubber/Maxwell
   * branch/Relaxation time, Payne parameter, Viscoelastic, Particle/Shape (and the
   * custom r1..p2), Output/Output directory = sweep directory/name, and empty Sweep
   * lists so that the point's parameters.prm reruns it as a single run).
   * Loading/Time step is Delta t / T0 with T0 = L0 / v_F, so Delta t scales with
   * 1/v_F; with Sweep/Scale time step with slip velocity = false the fraction is
   * changed so that Delta t stays that of the file's slip velocity.
   * Throws ParameterError (point invalid, e.g. a particle wider than the cell) or
   * another std::exception from deal.II's ParameterHandler.
   */
  ProgramParameters sweep_point_parameters(const ProgramParameters &parameters,
                                       const dealii::ParameterHandler &prm,
                                       const SweepPoint &point,
                                       dealii::ParameterHandler &point_prm);

  /**
   * Checks every point of the sweep of @p parameters before the first one runs:
   * the product has no repeated point and each point's parameters are valid (e.g. a shape
   * of Sweep/Shapes that is wider than the cell). @p prm: the handler read_parameters()
   * filled.
   * @throws ParameterError naming the Sweep list entry (Sweep/Shapes, Sweep/Pressures, ...;
   *         the point's own entry if it is not a swept one), the point and the reason.
   */
  void validate_sweep_points(const ProgramParameters &parameters,
                             const dealii::ParameterHandler &prm);

  /**
   * Checks the output directory of the sweep of @p parameters (with the @p points of
   * sweep_points()) before anything is written: it must not hold a single run's results
   * (summary.csv, history.csv, checkpoint.bin, ... directly in it), and every point that an
   * earlier run completed (a complete summary.csv and its parameters.prm) must have been
   * run with the parameters it would be run with now, except subsection Output. A point
   * without parameters.prm is not complete: it is run again.
   * @throws ParameterError naming Output/Output directory (a single run's results there,
   *         an unreadable parameters.prm) or the first entry that differs, with the list
   *         of differences.
   */
  void check_sweep_directory(const ProgramParameters &parameters,
                             const dealii::ParameterHandler &prm,
                             const std::vector<SweepPoint> &points);

  /// The header line of sweep.csv (with '\n').
  std::string sweep_csv_header();

  /**
   * The wall time (s) until a sweep ends, as its progress lines state it: the ranks go on
   * with the points they are computing, then each free rank takes the next waiting point,
   * until none is left (the dynamic distribution of the file comment).
   * @param running_left the time (s) each running point still needs (its run's own
   *        estimate, the "left ~" of its progress line); at most @p n_ranks entries
   * @param n_waiting the points not yet handed out
   * @param point_cost the wall time (s) a waiting point is expected to take
   * @param n_ranks the ranks that compute points (>= 1)
   * @return the time at which the last rank finishes (s from now), 0 if nothing is left
   * @throws std::invalid_argument if @p n_ranks is 0 or smaller than the number of
   *         running points, or a time is negative
   */
  double sweep_seconds_left(const std::vector<double> &running_left, std::size_t n_waiting,
                            double point_cost, unsigned int n_ranks);

  /**
   * Runs the sweep of @p parameters (parameters.sweep.active() should be true) over
   * the ranks of @p comm as described in the file comment; @p prm is the handler
   * read_parameters() filled. Must be called by every rank of @p comm; works with
   * MPI not initialised (serial).
   * @return the exit status, the same on every rank: 0 if every point succeeded (now
   *         or in an earlier run), 1 if any point failed, 128 + signal if a signal that
   *         reached any rank stopped the sweep.
   * Throws std::invalid_argument for duplicate points and std::runtime_error if
   * sweep.csv cannot be written (with N > 1 ranks rank 0 then calls MPI_Abort).
   * A failure of a single point is never thrown: it becomes that point's row.
   */
  int run_sweep(const ProgramParameters &parameters, dealii::ParameterHandler &prm,
                MPI_Comm comm);
} // namespace granular
