#include "sweep/sweep_runner.h"

#include "coupling/checkpoint.h"
#include "coupling/micromechanical_run.h"
#include "coupling/run_output.h"
#include "base/atomic_file.h"
#include "base/directory_lock.h"
#include "base/parameter_error.h"
#include "base/physics_entries.h"

#include <deal.II/base/parameter_handler.h>

#include <csignal>
#include <chrono>
#include <iomanip>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <algorithm>
#include <cctype>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <iterator>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace granular
{
  namespace
  {
    namespace fs = std::filesystem;

    constexpr int tag_ready  = 101; ///< worker -> master: first request
    constexpr int tag_result = 102; ///< worker -> master: result of a point
    constexpr int tag_work   = 103; ///< master -> worker: point index, -1: stop
    /// master -> worker, exactly once per sweep: the signal that stops the sweep, sent as
    /// soon as rank 0 learns of it (its own signal, or a worker's), or 0 at its end
    constexpr int tag_stop   = 104;
    constexpr char field_separator = '\x1f';

    /// Exact text of a double for the ParameterHandler.
    std::string exact(const double x)
    {
      char buffer[64];
      std::snprintf(buffer, sizeof(buffer), "%.17g", x);
      return buffer;
    }

    /// Short text of a value for names and CSV columns.
    std::string shortest(const double x, const int digits = 6)
    {
      char buffer[64];
      std::snprintf(buffer, sizeof(buffer), "%.*g", digits, x);
      return buffer;
    }

    std::string shape_label(const std::string &shape)
    {
      std::string s;
      for (const char c : shape)
        s += (c == ':') ? 'x' : (std::isalnum(static_cast<unsigned char>(c)) || c == '.' ||
                                 c == '-' || c == '+') ?
                          c :
                          '_';
      return s;
    }

    /// One cell of a CSV row: quoted if needed, newlines flattened.
    std::string csv_field(std::string s)
    {
      for (char &c : s)
        if (c == '\n' || c == '\r' || c == '\t' || c == field_separator)
          c = ' ';
      if (s.find_first_of(",\"") == std::string::npos)
        return s;
      std::string q = "\"";
      for (const char c : s)
        q += (c == '"') ? std::string("\"\"") : std::string(1, c);
      return q + '"';
    }

    std::string strip_newline(std::string s)
    {
      while (!s.empty() && (s.back() == '\n' || s.back() == '\r'))
        s.pop_back();
      return s;
    }

    /// The header of summary.csv without '\n'.
    std::string summary_header()
    {
      const std::string csv = summary_csv(RunSummary());
      return csv.substr(0, csv.find('\n'));
    }

    std::size_t n_fields(const std::string &line)
    {
      return 1 + std::count(line.begin(), line.end(), ',');
    }

    /// The column of summary.csv named @p name (0-based).
    std::size_t summary_column(const std::string &name)
    {
      std::istringstream in(summary_header());
      std::string        field;
      for (std::size_t i = 0; std::getline(in, field, ','); ++i)
        if (field == name)
          return i;
      throw std::logic_error("summary.csv has no column " + name);
    }

    /// Field @p i (0-based) of the CSV row @p row; nothing if the row has fewer fields.
    std::optional<std::string> nth_csv_field(const std::string &row, const std::size_t i)
    {
      std::istringstream in(row);
      std::string        field;
      for (std::size_t k = 0; k <= i; ++k)
        if (!std::getline(in, field, ','))
          return std::nullopt;
      return field;
    }

    /// The number in field @p i of the CSV row @p row; nothing if there is none (the row
    /// of a point that has not completed has empty fields).
    std::optional<double> csv_number(const std::string &row, const std::size_t i)
    {
      const auto field = nth_csv_field(row, i);
      if (!field)
        return std::nullopt;
      try
        {
          return std::stod(*field);
        }
      catch (const std::logic_error &)
        {
          return std::nullopt;
        }
    }

    /// Result of one point, as kept by rank 0.
    struct PointResult
    {
      std::string status = "pending"; ///< ok | failed | stopped (by a signal) | pending
      int         signal = 0;         ///< the signal that stopped the sweep, seen by this rank
      std::string error;
      std::string summary_row;        ///< the row of summary.csv, without '\n'
      double      kbar = 0.;
    };

    /// The row of a complete summary.csv in @p dir, or "" if there is none.
    std::string completed_row(const std::string &dir)
    {
      std::ifstream in(dir + "/summary.csv");
      if (!in)
        return "";
      std::string header, row, extra;
      if (!std::getline(in, header) || !std::getline(in, row))
        return "";
      header = strip_newline(header);
      row    = strip_newline(row);
      // an older summary.csv whose columns are a leading part of today's (columns are only
      // ever appended) is complete too: its row gets empty fields for the new columns, so
      // that a sweep resumed by a newer build keeps the points it has
      const std::string current = summary_header();
      if (header != current &&
          !(header.size() < current.size() && current.compare(0, header.size() + 1,
                                                              header + ",") == 0))
        return "";
      if (row.empty() || n_fields(row) != n_fields(header))
        return "";
      return row + std::string(n_fields(current) - n_fields(header), ',');
    }

    /// The row of @p dir's summary.csv if the point there is complete: a complete
    /// summary.csv (completed_row()) and the parameters.prm it was run with; "" otherwise
    /// (the point is run again).
    std::string completed_point_row(const std::string &dir)
    {
      std::error_code ec;
      if (!fs::is_regular_file(dir + "/parameters.prm", ec))
        return "";
      return completed_row(dir);
    }

    double kbar_of_row(const std::string &row)
    {
      try
        {
          return std::stod(row.substr(0, row.find(',')));
        }
      catch (...)
        {
          return 0.;
        }
    }

    /// Restores std::cout's buffer when leaving scope.
    class CoutRedirect
    {
    public:
      explicit CoutRedirect(std::streambuf *b) : old_(std::cout.rdbuf(b)) {}
      /// The terminal's stream while redirected (for reports made meanwhile).
      std::streambuf *terminal() const { return old_; }
      ~CoutRedirect() { std::cout.rdbuf(old_); }
    private:
      std::streambuf *old_;
    };

    /// The signal (SIGINT, SIGTERM) that asked the sweep to stop, 0 while none did.
    volatile std::sig_atomic_t sweep_stop_signal = 0;
    extern "C" void sweep_signal_handler(const int signal)
    {
      sweep_stop_signal = signal;
    }

    /// SIGINT and SIGTERM handlers for the sweep's lifetime (docs/sweeps.md): the point in progress
    /// stops after its current time step, no new point starts, the sweep reports what it did
    /// and exits with 128 + the signal; the previous handlers are restored at the end.
    class SweepSignalHandlers
    {
    public:
      SweepSignalHandlers()
      {
        sweep_stop_signal = 0;
        old_int_          = std::signal(SIGINT, sweep_signal_handler);
        old_term_         = std::signal(SIGTERM, sweep_signal_handler);
      }
      ~SweepSignalHandlers()
      {
        std::signal(SIGINT, old_int_);
        std::signal(SIGTERM, old_term_);
      }

    private:
      void (*old_int_)(int);
      void (*old_term_)(int);
    };

    /// Thrown between two time steps of a point when the sweep was asked to stop.
    struct SweepStopped : std::runtime_error
    {
      SweepStopped()
        : std::runtime_error("stopped by signal " + std::to_string(int(sweep_stop_signal)) +
                             " before it completed; rerun the sweep to run it again")
      {}
    };

    /// Runs one point (serially): from the checkpoint.bin of a stopped attempt if there is
    /// a usable one, else from its start; never throws.
    PointResult run_point(const ProgramParameters &parameters, const dealii::ParameterHandler &prm,
                          const SweepPoint &point,
                          const std::function<void()> &after_each_step = {})
    {
      PointResult result;
      const std::string dir        = parameters.output.output_directory + "/" + point.name;
      const std::string checkpoint = dir + "/checkpoint.bin";
      try
        {
          fs::create_directories(dir);
          fs::remove(dir + "/error.txt");
          dealii::ParameterHandler point_prm;
          ProgramParameters point_parameters =
            sweep_point_parameters(parameters, prm, point, point_prm);
          // a point without a complete summary.csv continues from the checkpoint of its
          // stopped attempt (bit for bit as if it had not stopped: docs/checkpoints.md) or,
          // without a usable one, runs again from its start, replacing the files of the
          // attempt
          std::string not_used;
          if (point_parameters.output.checkpoints() && fs::exists(checkpoint))
            {
              not_used = coupling::CheckpointFile(checkpoint, point_prm).unusable_reason();
              point_parameters.output.restart = not_used.empty();
            }
          point_parameters.output.overwrite = !point_parameters.output.restart;
          std::ofstream log(dir + "/run.log", point_parameters.output.restart ?
                                                std::ios::app :
                                                std::ios::trunc);
          CoutRedirect redirect(log.rdbuf());
          if (!not_used.empty())
            std::cout << "granular-interface: not continuing from " << checkpoint << " ("
                      << not_used << "); the point runs again from its start" << std::endl;
          if (sweep_stop_signal != 0)
            throw SweepStopped();
          const bool     checkpoints = point_parameters.output.checkpoints();
          const RunSummary summary =
            run_micromechanical_test(point_parameters, point_prm, [&]() {
              if (after_each_step)
                after_each_step();
              if (sweep_stop_signal == 0)
                return;
              if (!checkpoints)
                throw SweepStopped(); // between two steps: history.csv holds whole rows
              // the run writes checkpoint.bin after this step and stops (RunInterrupted)
              request_checkpoint_and_stop();
            });
          std::cout << format_summary(summary) << std::flush;
          result.status      = "ok";
          result.kbar        = summary.kbar;
          const std::string csv = summary_csv(summary);
          result.summary_row = strip_newline(csv.substr(csv.find('\n') + 1));
        }
      catch (const SweepStopped &e)
        {
          result.status = "stopped";
          result.signal = int(sweep_stop_signal);
          result.error  = e.what();
        }
      catch (const RunInterrupted &)
        {
          result.status = "stopped";
          result.signal = int(sweep_stop_signal);
          result.error  = "stopped by signal " + std::to_string(int(sweep_stop_signal)) +
                         " with its state in checkpoint.bin; rerun the sweep to continue it";
        }
      catch (const std::exception &e)
        {
          result.status = "failed";
          result.error  = e.what();
        }
      catch (...)
        {
          result.status = "failed";
          result.error  = "unknown exception";
        }
      if (result.status == "failed")
        {
          try
            {
              write_file_atomically(dir + "/error.txt", result.error + "\n");
            }
          catch (...)
            {}
          std::error_code ignored; // a failed attempt is not continued: the next starts over
          fs::remove(checkpoint, ignored);
        }
      return result;
    }

    std::string serialise(const unsigned int index, const PointResult &r)
    {
      std::ostringstream o;
      o << index << field_separator << r.status << field_separator << r.signal
        << field_separator << exact(r.kbar)
        << field_separator << csv_field(r.error) << field_separator << r.summary_row;
      return o.str();
    }

    std::pair<unsigned int, PointResult> deserialise(const std::string &message)
    {
      std::vector<std::string> parts;
      std::string              part;
      std::istringstream       in(message);
      while (std::getline(in, part, field_separator))
        parts.push_back(part);
      if (parts.size() < 5)
        throw std::runtime_error("sweep: malformed result message '" + message + "'");
      PointResult r;
      r.status      = parts[1];
      r.signal      = std::stoi(parts[2]);
      r.kbar        = std::stod(parts[3]);
      r.error       = parts[4];
      r.summary_row = parts.size() > 5 ? parts[5] : "";
      // the error was already CSV-quoted for transport: undo that
      if (r.error.size() >= 2 && r.error.front() == '"')
        {
          std::string e;
          for (std::size_t i = 1; i + 1 < r.error.size(); ++i)
            {
              e += r.error[i];
              if (r.error[i] == '"')
                ++i;
            }
          r.error = e;
        }
      return {static_cast<unsigned int>(std::stoul(parts[0])), r};
    }

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
            const SweepPoint  &p = points_[i];
            const PointResult &r = results_[i];
            o << i << ',' << csv_field(p.name) << ',' << shortest(p.pressure, 10) << ','
              << shortest(p.relaxation_time, 10) << ',' << shortest(p.slip_velocity, 10) << ','
              << csv_field(p.shape) << ',' << shortest(p.payne_d, 10) << ','
              << p.rubber_model << ',' << r.status << ',' << csv_field(r.error) << ',';
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
  } // namespace

  namespace
  {
    /// Waits for @p request without keeping a core busy: Open MPI's blocking calls poll at
    /// 100 % CPU, so a rank that has run out of points (or rank 0 waiting for the last
    /// results) would take the core that another rank's point needs. Polls every 20 ms.
    void wait_idly(MPI_Request &request)
    {
      int done = 0;
      while (MPI_Test(&request, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  } // namespace

  std::vector<SweepPoint> sweep_points(const ProgramParameters &P)
  {
    const SweepParameters &S = P.sweep;
    auto or_single = [](const std::vector<double> &list, const double value) {
      return list.empty() ? std::vector<double>{value} : list;
    };
    const std::vector<double> pressures = or_single(S.pressures, P.loading.pressure);
    const std::vector<double> velocities =
      or_single(S.slip_velocities, P.loading.slip_velocity);
    const std::vector<double> taus = or_single(S.relaxation_times, P.rubber.relaxation_time);
    const std::vector<double> ds   = or_single(S.payne_d, P.rubber.payne_d);
    std::vector<std::string>  shapes = S.shapes;
    if (shapes.empty())
      shapes.push_back(P.particle.shape_name == "custom" ?
                         exact(P.particle.r1) + ":" + exact(P.particle.r2) + ":" +
                           exact(P.particle.p1) + ":" + exact(P.particle.p2) :
                         P.particle.shape_name);
    // a shape written two ways (circular and 0.5:0.5:2:2) would be computed twice under two
    // names
    for (std::size_t i = 0; i < S.shapes.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        {
          const auto a = parse_sweep_shape(S.shapes[j], P.particle.reference_radius),
                     b = parse_sweep_shape(S.shapes[i], P.particle.reference_radius);
          if (a.r1 == b.r1 && a.r2 == b.r2 && a.p1 == b.p1 && a.p2 == b.p2)
            throw ParameterError("Sweep/Shapes", "'" + S.shapes[j] + "' and '" + S.shapes[i] +
                                                   "' are the same shape (r1:r2:p1:p2 = " +
                                                   exact(a.r1) + ":" + exact(a.r2) + ":" +
                                                   exact(a.p1) + ":" + exact(a.p2) +
                                                   "); give it once");
        }
    std::vector<std::string> models = S.rubber_models;
    if (models.empty())
      models.push_back(P.rubber.viscoelastic ? "viscoelastic" : "elastic");

    std::vector<SweepPoint> points;
    std::set<std::string>   names;
    for (const double p : pressures)
      for (const double v : velocities)
        for (const double tau : taus)
          for (const std::string &shape : shapes)
            for (const double d : ds)
              for (const std::string &model : models)
                {
                  // the elastic rubber has no relaxation time and no Payne effect: its
                  // point is run once, with the first values of those lists
                  if (model == "elastic" && (tau != taus.front() || d != ds.front()))
                    continue;
                  SweepPoint pt;
                  pt.index           = points.size();
                  pt.pressure        = p;
                  pt.slip_velocity   = v;
                  pt.relaxation_time = tau;
                  pt.shape           = shape;
                  pt.payne_d         = d;
                  pt.rubber_model    = model;
                  pt.name = "p" + shortest(p) + "_v" + shortest(v) + "_tau" + shortest(tau) +
                            "_" + shape_label(shape) + "_d" + shortest(d) + "_" + model;
                  if (!names.insert(pt.name).second)
                    throw std::invalid_argument(
                      "sweep: two points share the name '" + pt.name +
                      "' (a value repeated in a Sweep list?)");
                  points.push_back(pt);
                }
    return points;
  }

  void validate_sweep_points(const ProgramParameters &P, const dealii::ParameterHandler &prm)
  {
    std::vector<SweepPoint> points;
    try
      {
        points = sweep_points(P);
      }
    catch (const std::invalid_argument &e)
      {
        throw ParameterError("Sweep", e.what());
      }
    // the swept entry of a point's entry
    const std::vector<std::pair<std::string, std::string>> swept = {
      {"Particle/", "Sweep/Shapes"},
      {"Loading/Pressure", "Sweep/Pressures"},
      {"Loading/Slip velocity", "Sweep/Slip velocities"},
      {"Loading/Time step", "Sweep/Slip velocities"},
      {"Rubber/Maxwell branch/Relaxation time", "Sweep/Relaxation times"},
      {"Rubber/Maxwell branch/Payne parameter", "Sweep/Payne parameters"},
      {"Rubber/Maxwell branch/Viscoelastic", "Sweep/Rubber models"}};
    for (const SweepPoint &point : points)
      {
        dealii::ParameterHandler point_prm;
        try
          {
            sweep_point_parameters(P, prm, point, point_prm);
          }
        catch (const ParameterError &e)
          {
            std::string entry = e.entry();
            for (const auto &[prefix, list] : swept)
              if (entry.rfind(prefix, 0) == 0)
                {
                  entry = list;
                  break;
                }
            throw ParameterError(entry, "point " + point.name + " (shape " + point.shape +
                                          ", p = " + exact(point.pressure) + " MPa): " +
                                          e.what());
          }
      }
  }

  ProgramParameters sweep_point_parameters(const ProgramParameters &P,
                                       const dealii::ParameterHandler &prm,
                                       const SweepPoint &point,
                                       dealii::ParameterHandler &point_prm)
  {
    ProgramParameters::declare_parameters(point_prm);
    std::ostringstream text;
    prm.print_parameters(text, dealii::ParameterHandler::PRM);
    point_prm.parse_input_from_string(text.str());

    double time_step_ratio = P.loading.time_step_ratio;
    if (!P.sweep.scale_time_step_with_slip_velocity)
      // keep Delta t = ratio L0 / v_file: ratio' = ratio v_point / v_file
      time_step_ratio *= point.slip_velocity / P.loading.slip_velocity;

    point_prm.enter_subsection("Loading");
    point_prm.set("Pressure", exact(point.pressure));
    point_prm.set("Slip velocity", exact(point.slip_velocity));
    point_prm.set("Time step", exact(time_step_ratio));
    point_prm.leave_subsection();

    point_prm.enter_subsection("Rubber");
    point_prm.enter_subsection("Maxwell branch");
    point_prm.set("Relaxation time", exact(point.relaxation_time));
    point_prm.set("Payne parameter", exact(point.payne_d));
    point_prm.set("Viscoelastic", point.rubber_model == "viscoelastic" ? "true" : "false");
    point_prm.leave_subsection();
    point_prm.leave_subsection();

    point_prm.enter_subsection("Particle");
    const geometry::SuperellipseShape shape =
      parse_sweep_shape(point.shape, P.particle.reference_radius);
    if (point.shape.find(':') == std::string::npos)
      point_prm.set("Shape", point.shape);
    else
      {
        point_prm.set("Shape", "custom");
        point_prm.set("Semi-axis r1", exact(shape.r1));
        point_prm.set("Semi-axis r2", exact(shape.r2));
        point_prm.set("Exponent p1", exact(shape.p1));
        point_prm.set("Exponent p2", exact(shape.p2));
      }
    point_prm.leave_subsection();

    point_prm.enter_subsection("Output");
    point_prm.set("Output directory", P.output.output_directory + "/" + point.name);
    point_prm.leave_subsection();

    point_prm.enter_subsection("Sweep");
    for (const char *entry : {"Pressures", "Relaxation times", "Slip velocities", "Shapes",
                              "Payne parameters", "Rubber models"})
      point_prm.set(entry, "");
    point_prm.leave_subsection();

    ProgramParameters point_parameters;
    point_parameters.parse_parameters(point_prm);
    point_parameters.loading.allow_long_run = P.loading.allow_long_run; // --allow-long-run
    // a point writes checkpoints (Output/Checkpoint interval) in its directory, but the
    // signals are the sweep's: they must stop every rank of mpirun, and the sweep asks the
    // point in progress for its checkpoint (run_point)
    point_parameters.output.stop_signal_handlers = false;
    point_parameters.validate();
    return point_parameters;
  }

  void check_sweep_directory(const ProgramParameters &parameters,
                             const dealii::ParameterHandler &prm,
                             const std::vector<SweepPoint> &points)
  {
    const std::string dir = parameters.output.output_directory;
    const std::vector<std::string> single_run = coupling::single_run_results(dir);
    if (!single_run.empty())
      {
        std::string names;
        for (std::size_t i = 0; i < single_run.size() && i < 4; ++i)
          names += (i ? ", " : "") + single_run[i];
        if (single_run.size() > 4)
          names += ", ...";
        throw ParameterError("Output/Output directory",
                             dir + " holds the results of a single run (" + names +
                               "); a sweep there would mix its results with them: give "
                               "another --output-directory");
      }
    for (const SweepPoint &point : points)
      {
        const std::string point_dir = dir + "/" + point.name;
        if (completed_point_row(point_dir).empty())
          continue; // run (again) anyway
        const std::string saved_file = point_dir + "/parameters.prm";
        dealii::ParameterHandler saved;
        ProgramParameters::declare_parameters(saved);
        std::string saved_mesh; // the mesh file the point read, if its parameters.prm says
        try
          {
            std::ifstream      in(saved_file);
            std::ostringstream text;
            text << in.rdbuf();
            saved_mesh = mesh_file_identity_in(text.str());
            // entries that this build no longer has are left out of the comparison; entries
            // it has added keep their defaults
            saved.parse_input_from_string(text.str(), "", true);
          }
        catch (const std::exception &e)
          {
            throw ParameterError("Output/Output directory",
                                 "cannot read " + saved_file + ", the parameters of the "
                                 "completed point " + point.name + " of the sweep in " + dir +
                                 " (" + e.what() + "); remove that point's directory to run "
                                 "it again");
          }
        dealii::ParameterHandler now;
        sweep_point_parameters(parameters, prm, point, now);
        ParameterEntryList saved_entries = physics_entries(saved);
        if (!saved_mesh.empty())
          for (auto &[name, value] : saved_entries)
            if (name == "Geometry/Mesh file")
              value = saved_mesh;
        const PhysicsDifferences d =
          physics_differences(saved_entries, physics_entries(now), "in its parameters.prm");
        if (!d.empty())
          throw ParameterError(d.first,
                               "the sweep in " + dir + " is resumed with other parameters "
                               "than its completed point " + point.name + " was run with "
                               "(only subsection Output may differ), so sweep.csv would mix "
                               "results of two parameter sets; nothing was changed. Run the "
                               "sweep with the parameters it was started with, or into "
                               "another --output-directory. Differences:" + d.text);
      }
  }

  double sweep_seconds_left(const std::vector<double> &running_left, const std::size_t n_waiting,
                            const double point_cost, const unsigned int n_ranks)
  {
    if (n_ranks == 0 || running_left.size() > n_ranks)
      throw std::invalid_argument("sweep_seconds_left: " + std::to_string(running_left.size()) +
                                  " running points on " + std::to_string(n_ranks) + " ranks");
    if (point_cost < 0. || std::any_of(running_left.begin(), running_left.end(),
                                       [](const double s) { return s < 0.; }))
      throw std::invalid_argument("sweep_seconds_left: a negative time");
    // when each rank is free: after its running point, or now
    std::vector<double> free_at(n_ranks, 0.);
    std::copy(running_left.begin(), running_left.end(), free_at.begin());
    for (std::size_t k = 0; k < n_waiting; ++k)
      *std::min_element(free_at.begin(), free_at.end()) += point_cost;
    return *std::max_element(free_at.begin(), free_at.end());
  }

  std::string sweep_csv_header()
  {
    return "point,name,point_pressure,point_relaxation_time,point_slip_velocity,point_shape,"
           "point_payne_d,point_rubber_model,status,error," +
           summary_header() + "\n";
  }

  namespace
  {
    /**
     * Rank 0 of a sweep (sweep_runner.h, docs/methods.md §8.3): it keeps sweep.csv, hands
     * the pending points out to the other ranks and computes points itself; between its time
     * steps (and afterwards) it answers the other ranks: a result is recorded, the next
     * point handed out.
     */
    class SweepCoordinator
    {
    public:
      SweepCoordinator(const ProgramParameters &parameters, dealii::ParameterHandler &prm,
                       MPI_Comm comm, const int size, const std::vector<SweepPoint> &points,
                       SweepTable &table)
        : parameters_(parameters), prm_(prm), comm_(comm), size_(size), points_(points),
          table_(table), active_(size - 1),
          // a progress line with the running points' t/T0 at least every minute (and at the
          // file's progress interval if longer)
          progress_every_(std::max(60., parameters.output.progress_interval))
      {}

      /// Runs the points (this rank's and the others'); @return this rank's view of the
      /// exit status (0 all points ok, 1 a point failed, 128 + signal if a signal stopped
      /// the sweep). Every worker has been sent its stop message (tag_stop) afterwards.
      int run_points()
      {
        load_completed();
        table_.write();
        hand_out_first_points();
        poll();
        run_own_points();
        wait_for_workers();
        if (size_ > 1 && !stops_sent_)
          send_stops(0); // the sweep ended without a signal
        if (sweep_stop_signal != 0)
          return 128 + int(sweep_stop_signal);
        return table_.all_ok() ? 0 : 1;
      }

      /// Waits until every worker has taken its stop message.
      void wait_for_stop_messages()
      {
        for (MPI_Request &request : stop_requests_)
          wait_idly(request);
      }

      /// The closing line for the exit status @p status that all ranks agreed on.
      void report_end(const int status) const
      {
        const std::string dir = parameters_.output.output_directory;
        if (status < 128)
          {
            std::cout << "granular-interface: sweep " << (status == 0 ? "complete" : "FAILED")
                      << ", " << dir << "/sweep.csv" << std::endl;
            return;
          }
        // say what the stopped sweep did; its points are whole (a stopped point has no
        // summary.csv and is run again on resume)
        std::cout << "granular-interface: sweep stopped by signal " << status - 128 << ": "
                  << table_.count("ok") << " of " << points_.size() << " points complete, "
                  << table_.count("failed") << " failed, " << table_.count("stopped")
                  << " stopped in progress, " << table_.count("pending")
                  << " not started; run the same command again to resume (" << dir
                  << "/sweep.csv)" << std::endl;
      }

    private:
      const ProgramParameters   &parameters_;
      dealii::ParameterHandler  &prm_;
      MPI_Comm                   comm_;
      const int                  size_;
      const std::vector<SweepPoint> &points_;
      SweepTable                &table_;
      std::vector<unsigned int>  pending_; ///< the points without a summary.csv
      std::size_t                next_ = 0; ///< the next pending point to hand out or run
      int                        active_;   ///< workers still to be told to stop
      const double               progress_every_; ///< s between progress lines
      bool                       stops_sent_ = false; ///< tag_stop sent to every worker
      std::vector<int>           stop_values_;   ///< the buffers of those messages
      std::vector<MPI_Request>   stop_requests_; ///< their requests

      /// Tells every worker that the sweep stops (@p signal > 0: its point in progress
      /// stops after the current time step) or ended (0); once per sweep.
      void send_stops(const int signal)
      {
        stops_sent_ = true;
        stop_values_.assign(size_ - 1, signal);
        stop_requests_.assign(size_ - 1, MPI_REQUEST_NULL);
        for (int r = 1; r < size_; ++r)
          MPI_Isend(&stop_values_[r - 1], 1, MPI_INT, r, tag_stop, comm_,
                    &stop_requests_[r - 1]);
      }

      /// A signal that reached this rank, or that a worker reported, stops every rank.
      void propagate_stop()
      {
        if (size_ > 1 && !stops_sent_ && sweep_stop_signal != 0)
          send_stops(int(sweep_stop_signal));
      }

      /// The points completed by an earlier run (their summary.csv) go into the table; the
      /// others are pending.
      void load_completed()
      {
        const std::string dir = parameters_.output.output_directory;
        for (const SweepPoint &p : points_)
          {
            const std::string row = completed_point_row(dir + "/" + p.name);
            if (row.empty())
              pending_.push_back(p.index);
            else
              {
                PointResult r;
                r.status      = "ok";
                r.summary_row = row;
                r.kbar        = kbar_of_row(row);
                table_.set(p.index, r);
              }
          }
        std::cout << "granular-interface: sweep of " << points_.size() << " points ("
                  << points_.size() - pending_.size() << " already complete) on " << size_
                  << (size_ == 1 ? " rank" : " ranks") << ", results in " << dir
                  << "/sweep.csv" << std::endl;
      }

      /// Answers the message of @p st: records a result, then hands out the next point or
      /// tells the worker to stop.
      void handle(const MPI_Status &st)
      {
        int count = 0;
        MPI_Get_count(&st, MPI_CHAR, &count);
        std::string message(static_cast<std::size_t>(count), '\0');
        MPI_Recv(message.data(), count, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG, comm_,
                 MPI_STATUS_IGNORE);
        if (st.MPI_TAG == tag_result)
          {
            const auto [index, r] = deserialise(message);
            // a signal that reached only that rank stops the whole sweep
            if (r.signal != 0 && sweep_stop_signal == 0)
              sweep_stop_signal = r.signal;
            table_.set(index, r);
            table_.write();
            if (r.status != "pending") // "pending": handed out after its rank's signal
              table_.report(index, st.MPI_SOURCE);
          }
        propagate_stop();
        int work = -1;
        if (next_ < pending_.size() && sweep_stop_signal == 0)
          {
            work = static_cast<int>(pending_[next_++]);
            table_.start(static_cast<unsigned int>(work));
          }
        else
          --active_;
        MPI_Send(&work, 1, MPI_INT, st.MPI_SOURCE, tag_work, comm_);
      }

      /// Between rank 0's time steps: a progress line when due, and the waiting messages.
      void poll()
      {
        table_.report_progress(progress_every_);
        if (size_ == 1)
          return;
        propagate_stop();
        int        flag = 0;
        MPI_Status st;
        while (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &flag, &st) == MPI_SUCCESS && flag)
          handle(st);
      }

      /// Every other rank's first point, before rank 0 starts its own: each rank asks once
      /// it has read the parameter file (tag_ready), which takes it a moment longer under
      /// a loaded mpirun; a sweep of short points would otherwise be computed by rank 0
      /// alone. Waits idly, a few milliseconds in practice.
      void hand_out_first_points()
      {
        int asked = 0;
        while (asked < size_ - 1 && sweep_stop_signal == 0)
          {
            int        flag = 0;
            MPI_Status st;
            MPI_Iprobe(MPI_ANY_SOURCE, tag_ready, comm_, &flag, &st);
            if (flag)
              {
                handle(st);
                ++asked;
              }
            else
              std::this_thread::sleep_for(std::chrono::milliseconds(5));
          }
      }

      /// Rank 0's own points, until none is pending or a signal stops the sweep.
      void run_own_points()
      {
        while (next_ < pending_.size() && sweep_stop_signal == 0)
          {
            const unsigned int i = pending_[next_++];
            table_.start(i);
            table_.set(i, run_point(parameters_, prm_, points_[i], [this]() { poll(); }));
            table_.write();
            table_.report(i, 0);
            poll();
          }
      }

      /// The other ranks' last points: idle waiting (wait_idly), with progress lines.
      void wait_for_workers()
      {
        while (active_ > 0)
          {
            int        flag = 0;
            MPI_Status st;
            MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &flag, &st);
            if (flag)
              handle(st);
            else
              {
                propagate_stop();
                table_.report_progress(progress_every_);
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
              }
          }
      }

    };

    /// The exit status of the sweep, the same on every rank: the largest of the ranks'
    /// @p own statuses (128 + signal if any rank saw a signal, else rank 0's 0 or 1).
    int agreed_status(const int own, MPI_Comm comm, const int size)
    {
      if (size == 1)
        return own;
      int         status = own;
      MPI_Request request;
      MPI_Iallreduce(&own, &status, 1, MPI_INT, MPI_MAX, comm, &request);
      wait_idly(request); // until every rank has finished its last point
      return status;
    }

    /// Rank 0: SweepCoordinator, then the exit status agreed with the other ranks.
    /// @throws what SweepCoordinator throws (sweep.csv not writable); with more than one
    ///         rank it calls MPI_Abort instead.
    int run_sweep_coordinator(const ProgramParameters &parameters, dealii::ParameterHandler &prm,
                              MPI_Comm comm, const int size,
                              const std::vector<SweepPoint> &points)
    {
      try
        {
          const std::string dir = parameters.output.output_directory;
          fs::create_directories(dir);
          SweepTable       table(dir + "/sweep.csv", points, size);
          SweepCoordinator coordinator(parameters, prm, comm, size, points, table);
          const int        status = agreed_status(coordinator.run_points(), comm, size);
          coordinator.report_end(status);
          table.print_table();
          coordinator.wait_for_stop_messages();
          return status;
        }
      catch (const std::exception &e)
        {
          if (size > 1)
            {
              std::cerr << "granular-interface: sweep error on rank 0: " << e.what()
                        << std::endl;
              MPI_Abort(comm, 1);
            }
          throw;
        }
    }

    /// A rank other than 0: asks for points and runs them until told to stop; @return the
    /// exit status agreed with the other ranks (agreed_status()).
    int run_sweep_worker(const ProgramParameters &parameters, dealii::ParameterHandler &prm,
                         MPI_Comm comm, const std::vector<SweepPoint> &points)
    {
      // rank 0's stop message (tag_stop): a signal stops this rank's point after its
      // current time step, as if the signal had reached this rank
      bool       stop_received = false;
      const auto take_stop     = [&](const int signal) {
        stop_received = true;
        if (signal != 0 && sweep_stop_signal == 0)
          sweep_stop_signal = signal;
      };
      const auto poll_stop = [&]() {
        int flag = 0;
        MPI_Iprobe(0, tag_stop, comm, &flag, MPI_STATUS_IGNORE);
        if (!flag || stop_received)
          return;
        int signal = 0;
        MPI_Recv(&signal, 1, MPI_INT, 0, tag_stop, comm, MPI_STATUS_IGNORE);
        take_stop(signal);
      };

      MPI_Send(nullptr, 0, MPI_CHAR, 0, tag_ready, comm);
      while (true)
        {
          int         work = -1;
          MPI_Request request;
          MPI_Irecv(&work, 1, MPI_INT, 0, tag_work, comm, &request);
          wait_idly(request); // rank 0 answers between its own time steps
          if (work < 0)
            break;
          poll_stop();
          PointResult r;
          if (sweep_stop_signal != 0)
            r.signal = int(sweep_stop_signal); // not started: it stays pending
          else
            r = run_point(parameters, prm, points.at(work), poll_stop);
          const std::string message = serialise(work, r);
          MPI_Send(message.data(), static_cast<int>(message.size()), MPI_CHAR, 0, tag_result,
                   comm);
        }
      if (!stop_received)
        {
          int         signal = 0;
          MPI_Request request;
          MPI_Irecv(&signal, 1, MPI_INT, 0, tag_stop, comm, &request);
          wait_idly(request); // until rank 0 has finished its own last point
          take_stop(signal);
        }
      const int status =
        agreed_status(sweep_stop_signal != 0 ? 128 + int(sweep_stop_signal) : 0, comm, 2);
      // a signal that arrived while the ranks agreed stops this rank too
      return (status < 128 && sweep_stop_signal != 0) ? 128 + int(sweep_stop_signal) : status;
    }

    /// Rank 0 creates the sweep's output directory and locks it (DirectoryLock), then
    /// removes the temporary files of a killed sweep's atomic writes; the other ranks learn
    /// the outcome. @return the lock (rank 0), nullptr on the other ranks.
    /// @throws ParameterError on every rank if another run holds the directory (rank 0's
    ///         message names it); std::runtime_error if it cannot be created or opened.
    std::unique_ptr<DirectoryLock> lock_sweep_directory(const ProgramParameters &parameters,
                                                        MPI_Comm comm, const int rank,
                                                        const int size)
    {
      const std::string              dir = parameters.output.output_directory;
      std::unique_ptr<DirectoryLock> lock;
      std::exception_ptr             error;
      int                            outcome = 0; // 0 locked, 1 another error, 2 refused
      if (rank == 0)
        try
          {
            fs::create_directories(dir);
            lock = std::make_unique<DirectoryLock>(dir);
            coupling::remove_stale_temporary_files(dir);
          }
        catch (const ParameterError &)
          {
            error   = std::current_exception();
            outcome = 2;
          }
        catch (const std::exception &)
          {
            error   = std::current_exception();
            outcome = 1;
          }
      if (size > 1)
        MPI_Bcast(&outcome, 1, MPI_INT, 0, comm);
      if (error)
        std::rethrow_exception(error);
      if (outcome == 2) // reported by rank 0
        throw ParameterError("Output/Output directory",
                             dir + " is the output directory of another run that is still "
                                   "running");
      if (outcome == 1)
        throw std::runtime_error("rank 0 could not lock the output directory " + dir);
      return lock;
    }
  } // namespace

  int run_sweep(const ProgramParameters &parameters, dealii::ParameterHandler &prm,
                MPI_Comm comm)
  {
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    int rank = 0, size = 1;
    if (initialized && !finalized)
      {
        MPI_Comm_rank(comm, &rank);
        MPI_Comm_size(comm, &size);
      }

    const std::vector<SweepPoint> points = sweep_points(parameters);
    // one run per output directory, sweeps too: rank 0 holds the directory's lock while the
    // sweep runs, so that a second sweep (or a single run) started there, even at the same
    // moment, is refused on all of its ranks before it writes anything
    const std::unique_ptr<DirectoryLock> lock = lock_sweep_directory(parameters, comm, rank, size);
    // every rank checks the directory (the same files, the same answer) so that a refusal
    // is an exit status 2 on all of them, before anything is written
    check_sweep_directory(parameters, prm, points);
    const SweepSignalHandlers     signal_handlers;
    if (rank == 0)
      return run_sweep_coordinator(parameters, prm, comm, size, points);
    return run_sweep_worker(parameters, prm, comm, points);
  }
} // namespace granular
