#pragma once
/**
 * @file sweep_runner.h
 * Parameter sweeps (docs/methods.md §8.3), in parts: the points and their parameters
 * (sweep_points.h), sweep.csv and the resume (sweep_table.h), one point and the stop signals
 * (sweep_point_run.h), and here the MPI coordinator and workers (run_sweep()). the Cartesian product of the lists of subsection
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
#include "sweep/sweep_points.h"
#include "sweep/sweep_table.h"

#include <mpi.h>

#include <string>
#include <vector>

namespace dealii { class ParameterHandler; }

namespace granular
{
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
