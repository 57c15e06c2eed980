#pragma once
/**
 * @file sweep_table.h
 * sweep.csv and the resume of a sweep (docs/sweeps.md): the result of each point, the points an
 * earlier run completed (their summary.csv and parameters.prm), the check that a resumed sweep
 * has the parameters its completed points were run with, the table rank 0 keeps and writes,
 * and the sweep's progress lines with the time left.
 */
#include "base/atomic_file.h"
#include "base/csv_columns.h"
#include "base/csv_fields.h"
#include "coupling/run_record.h"
#include "sweep/sweep_points.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <sstream>
#include <map>
#include <set>
#include <streambuf>
#include <string>
#include <vector>

namespace granular
{
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

  namespace sweep
  {
    namespace fs = std::filesystem;

    /// The header of summary.csv without '\n'.
    std::string summary_header();
    /// The column of summary.csv named @p name (0-based); std::logic_error if none.
    std::size_t summary_column(const std::string &name);

    /// Result of one point, as kept by rank 0.
    struct PointResult
    {
      std::string status = "pending"; ///< ok | failed | stopped (by a signal) | pending
      int         signal = 0;         ///< the signal that stopped the sweep, seen by this rank
      std::string error;
      std::string summary_row;        ///< the row of summary.csv, without '\n'
      double      kbar = 0.;
    };

    /// The row of @p dir's summary.csv if the point there is complete: a complete
    /// summary.csv (the current header, or an older one whose columns are a leading part of
    /// it, the row then padded with empty fields) and the parameters.prm it was run with;
    /// "" otherwise (the point is run again).
    std::string completed_point_row(const std::string &dir);

    /// k-bar, the first field of a summary row (0 if it is not a number).
    double kbar_of_row(const std::string &row);

    /// A row of sweep.csv: a point and its result.
    struct SweepRow
    {
      const SweepPoint  &point;
      const PointResult &result;
    };

    /// The columns of sweep.csv before those of the point's summary.csv (base/csv_columns.h):
    /// the header, the rows and the table of docs/outputs.md are made from them.
    const std::vector<CsvColumn<SweepRow>> &sweep_point_columns();

    /// Rank 0's bookkeeping: results and sweep.csv.
    class SweepTable
    {
    public:
      SweepTable(std::string path, const std::vector<SweepPoint> &points, const int n_ranks = 1)
        : path_(std::move(path)), points_(points), results_(points.size()),
          terminal_(std::cout.rdbuf()), n_ranks_(n_ranks)
      {}

      /// The results table at the end: one line per point with k-bar, its parts,
      /// the spread, the energy balance error and the status.
      void print_table() const
      {
        std::ostream terminal(terminal_);
        auto number = [](const std::string &row, const std::string &column, const int digits,
                         const double scale = 1.) {
          const auto x = csv_number(row, summary_column(column));
          if (!x)
            return std::string("-");
          std::ostringstream o;
          o << std::fixed << std::setprecision(digits) << scale * *x;
          return o.str();
        };
        terminal << std::left << std::setw(48) << "point" << std::right << std::setw(8) << "kbar"
                 << std::setw(8) << "kbar_F" << std::setw(8) << "kbar_V" << std::setw(8)
                 << "spread" << std::setw(11) << "energy %" << "  status\n";
        for (std::size_t i = 0; i < points_.size(); ++i)
          {
            const PointResult &r = results_[i];
            terminal << std::left << std::setw(48) << points_[i].name << std::right
                     << std::setw(8) << number(r.summary_row, "kbar", 4) << std::setw(8)
                     << number(r.summary_row, "kbar_F", 4) << std::setw(8)
                     << number(r.summary_row, "kbar_V", 4) << std::setw(8)
                     << number(r.summary_row, "kbar_spread", 4) << std::setw(11)
                     << number(r.summary_row, "energy_balance_error", 2, 100.) << "  " << r.status
                     << (r.status == "failed" ? ": " + r.error : "") << '\n';
          }
        terminal << std::flush;
      }

      void set(const unsigned int index, const PointResult &r)
      {
        results_.at(index) = r;
        running_.erase(index);
        // the whole cost of the point (a point continued from its checkpoint adds the wall
        // time before the stop), as its summary.csv states it; also for the points that an
        // earlier run completed
        if (r.status == "ok")
          {
            const auto wall = csv_number(r.summary_row, summary_column("wall_time"));
            if (wall && *wall >= 0.)
              point_costs_.push_back(*wall);
          }
      }

      /// Point @p index was handed to a rank.
      void start(const unsigned int index)
      {
        running_.insert(index);
        started_[index] = std::chrono::steady_clock::now();
      }

      /// The last 4 kB of the run.log of point @p i ("" if it has none yet).
      std::string log_tail(const unsigned int i) const
      {
        const std::string dir = fs::path(path_).parent_path().string();
        std::ifstream     log(dir + "/" + points_[i].name + "/run.log", std::ios::ate);
        if (!log)
          return "";
        const std::streamoff size = log.tellg();
        log.seekg(std::max<std::streamoff>(0, size - 4096));
        return std::string((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
      }

      /// The running points with their t/T0, read from the last progress line of their
      /// run.log ("name t/T0 = 1.23, ...").
      std::string running_points() const
      {
        std::string text;
        for (const unsigned int i : running_)
          {
            std::string       t;
            const std::string tail = log_tail(i);
            const auto        at   = tail.rfind("t/T0 = ");
            if (at != std::string::npos)
              t = tail.substr(at + 7, tail.find(' ', at + 7) - at - 7);
            text += (text.empty() ? "" : ", ") + points_[i].name +
                    (t.empty() ? " (no progress line yet)" : " (t/T0 = " + t + ")");
          }
        return text;
      }

      /// A progress line (done / running with t/T0 / waiting, time left) at most every
      /// @p interval seconds, between the points' completions (rank 0 calls it every step).
      void report_progress(const double interval)
      {
        const auto now = std::chrono::steady_clock::now();
        if (std::chrono::duration<double>(now - last_progress_).count() < interval)
          return;
        last_progress_ = now;
        std::ostream terminal(terminal_);
        terminal << "sweep: " << progress() << std::endl;
      }

      void write() const
      {
        const std::size_t n_summary = n_fields(summary_header());
        std::ostringstream o;
        o << sweep_csv_header();
        for (std::size_t i = 0; i < points_.size(); ++i)
          {
            const PointResult &r = results_[i];
            write_csv_row(o, sweep_point_columns(), SweepRow{points_[i], r});
            o << ',';
            if (r.status == "ok")
              o << r.summary_row;
            else
              o << std::string(n_summary - 1, ',');
            o << '\n';
          }
        write_file_atomically(path_, o.str());
      }

      /// Number of points with status @p status.
      std::size_t count(const std::string &status) const
      {
        std::size_t n = 0;
        for (const auto &r : results_)
          n += r.status == status;
        return n;
      }

      bool all_ok() const
      {
        for (const auto &r : results_)
          if (r.status != "ok")
            return false;
        return true;
      }

      void report(const unsigned int index, const int rank) const
      {
        const PointResult &r = results_.at(index);
        // rank 0 may be computing a point with std::cout redirected into its run.log:
        // report on the terminal's stream captured when the table was made
        std::ostream terminal(terminal_);
        terminal << "point " << index + 1 << '/' << points_.size() << " ("
                  << points_[index].name << ") ";
        if (r.status == "ok")
          terminal << "done on rank " << rank << ", kbar = " << shortest(r.kbar, 8);
        else if (r.status == "stopped")
          terminal << "stopped on rank " << rank << " (rerun on resume)";
        else
          terminal << "FAILED on rank " << rank << ": " << r.error;
        terminal << "; " << progress() << std::endl;
      }

      /**
       * The sweep's time left (s), or a negative value while it cannot be estimated: each
       * running point needs what its own progress line says ("left ~", the run's estimate from
       * the cost of its phases, docs/running.md "What a run prints"); a waiting point costs the
       * mean wall time of the sweep's completed points (their summary.csv, also of points an
       * earlier run completed), or, before any is, the mean of the running points' time so far
       * plus their time left; the ranks share them as the sweep hands them out
       * (sweep_seconds_left()).
       */
      double seconds_left() const
      {
        const auto          now = std::chrono::steady_clock::now();
        std::vector<double> left, projected;
        for (const unsigned int i : running_)
          {
            const std::string tail = log_tail(i);
            const auto        at   = tail.rfind("left ~ ");
            double            s    = at == std::string::npos ?
                                       -1. :
                                       coupling::duration_seconds(tail.substr(at + 7));
            const auto        since = started_.find(i);
            const double      elapsed =
              since == started_.end() ? 0. :
                                        std::chrono::duration<double>(now - since->second).count();
            if (s < 0.)
              {
                // no estimate yet (the point has just started): the mean cost of the
                // completed points, if there are any
                if (point_costs_.empty())
                  return -1.;
                s = std::max(0., mean(point_costs_) - elapsed);
              }
            left.push_back(s);
            projected.push_back(elapsed + s);
          }
        const std::size_t pending = count("pending");
        const std::size_t waiting = pending - std::min(pending, running_.size());
        double            cost    = 0.;
        if (waiting > 0)
          {
            if (!point_costs_.empty())
              cost = mean(point_costs_);
            else if (!projected.empty())
              cost = mean(projected);
            else
              return -1.;
          }
        return sweep_seconds_left(left, waiting, cost,
                                  std::max<unsigned int>(n_ranks_, left.size()));
      }

      static double mean(const std::vector<double> &v)
      {
        double sum = 0.;
        for (const double x : v)
          sum += x;
        return sum / v.size();
      }

      /// Progress of the whole sweep: points done / running (with their t/T0) / waiting and
      /// an estimate of the time left (seconds_left()).
      std::string progress() const
      {
        const std::size_t finished = count("ok") + count("failed");
        const std::size_t left     = count("pending");
        const std::size_t running  = std::min<std::size_t>(left, std::size_t(n_ranks_));
        std::ostringstream o;
        o << finished << " of " << points_.size() << " done, " << running << " running, "
          << left - running << " waiting";
        const double seconds = left > 0 ? seconds_left() : -1.;
        if (seconds >= 0.)
          o << ", about " << coupling::duration_text(seconds) << " left";
        if (!running_.empty())
          o << "; running: " << running_points();
        return o.str();
      }

    private:
      std::string                    path_;
      const std::vector<SweepPoint> &points_;
      std::vector<PointResult>       results_;
      std::streambuf *terminal_ = nullptr; ///< std::cout's buffer when the table was made
      int             n_ranks_  = 1;
      std::set<unsigned int> running_; ///< points handed to a rank and not yet reported
      /// when each running point was handed out
      std::map<unsigned int, std::chrono::steady_clock::time_point> started_;
      std::vector<double> point_costs_; ///< wall time (s) of the completed points
      std::chrono::steady_clock::time_point last_progress_ = std::chrono::steady_clock::now();
    };
  } // namespace sweep
} // namespace granular
