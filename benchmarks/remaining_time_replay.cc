// remaining-time-replay: how well the progress lines' "left ~" estimate
// (coupling::RemainingTime, docs/performance.md#remaining-time) would have read on finished
// runs. Each run's steps are taken from its history.csv (a row with Newton iterations ends a
// computed step; History output interval = 1 is required), each step's wall time is the
// run's wall time (summary.csv) shared in proportion to its Newton iterations, and the
// estimate is replayed through the library's own RemainingTime and remaining_time_phases().
//
//   build/remaining-time-replay [--points] RUN_DIRECTORY...
//
// e.g. build/remaining-time-replay output-temizer-2013/*/*/ prints, as Markdown, the
// estimate's ratio to the true time still to go (sampled at every hundredth of each run's
// wall time, while more than a tenth of it is still to go) per stretch of t/T0, and what the
// averaging window cost against the dragging before it (Newton iterations per reference
// step) in the runs with a particle. Directories without summary.csv or history.csv are
// skipped and named on stderr; exit status 2 if none is left or on a bad file.
#include "coupling/loading_program.h"
#include "coupling/run_output.h"
#include "coupling/run_record.h"
#include "coupling/time_step_control.h"
#include "sweep/program_parameters.h"

#include <deal.II/base/parameter_handler.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace
{
  namespace fs = std::filesystem;

  struct Step
  {
    double       t0, t;
    unsigned int iterations;
  };

  std::vector<std::string> split(const std::string &line)
  {
    std::vector<std::string> cells;
    std::stringstream        in(line);
    std::string              cell;
    while (std::getline(in, cell, ','))
      cells.push_back(cell);
    return cells;
  }

  std::size_t column(const std::vector<std::string> &header, const std::string &name,
                     const std::string &file)
  {
    const auto at = std::find(header.begin(), header.end(), name);
    if (at == header.end())
      throw std::runtime_error(file + " has no column " + name);
    return at - header.begin();
  }

  /// wall_time (s) of summary.csv in @p dir
  double wall_time(const std::string &dir)
  {
    const std::string file = dir + "/summary.csv";
    std::ifstream     in(file);
    std::string       head, row;
    if (!std::getline(in, head) || !std::getline(in, row))
      throw std::runtime_error(file + " has no result row");
    return std::stod(split(row).at(column(split(head), "wall_time", file)));
  }

  /// the computed steps of history.csv in @p dir (rows with Newton iterations end one)
  std::vector<Step> computed_steps(const std::string &dir)
  {
    const std::string file = dir + "/history.csv";
    std::ifstream     in(file);
    std::string       line;
    if (!std::getline(in, line))
      throw std::runtime_error(file + " is empty");
    const auto        header = split(line);
    const std::size_t it     = column(header, "t", file),
                      in_its = column(header, "newton_iterations", file);
    std::vector<Step> steps;
    double            t0 = 0.;
    while (std::getline(in, line))
      {
        const auto cells = split(line);
        if (cells.size() <= std::max(it, in_its))
          break; // a row cut by a stopped run
        const double       t          = std::stod(cells[it]);
        const unsigned int iterations = std::stoul(cells[in_its]);
        if (iterations > 0)
          {
            steps.push_back({t0, t, iterations});
            t0 = t;
          }
      }
    return steps;
  }

  struct Replayed
  {
    /// (t/T0, shown / true) at each sample
    std::vector<std::pair<double, double>> ratios;
    /// Newton iterations per reference step: the dragging before the window, the window,
    /// its first T0
    double dragging = 0., window = 0., window_first_T0 = 0.;
    bool   rolls    = false;
  };

  Replayed replay(const std::string &dir)
  {
    dealii::ParameterHandler prm;
    granular::ProgramParameters::declare_parameters(prm);
    prm.parse_input(dir + "/parameters.prm", "", true);
    granular::ProgramParameters p;
    p.parse_parameters(prm);
    if (p.output.history_interval != 1)
      throw std::runtime_error(dir + "/parameters.prm: Output/History output interval is " +
                               std::to_string(p.output.history_interval) +
                               "; the replay needs every step (1)");
    const double L0      = p.block.length;
    const auto   loading = granular::coupling::LoadingProgram::from_parameters(p.loading, L0);
    const double dt      = p.loading.time_step(L0);
    const double t_end   = std::llround(p.loading.end_time(L0) / dt) * dt;
    const double wall    = wall_time(dir);
    const std::vector<Step> steps = computed_steps(dir);
    if (steps.empty())
      throw std::runtime_error(dir + "/history.csv has no computed step");

    Replayed r;
    r.rolls = p.particle.enabled;
    granular::coupling::RemainingTime estimate(
      granular::coupling::remaining_time_phases(loading, t_end, r.rolls), dt,
      granular::coupling::TimeStepControl::hard_iterations);
    unsigned long iterations = 0;
    for (const Step &s : steps)
      iterations += s.iterations;
    double     to_go       = wall;
    double     next_sample = 0.;
    const auto cost        = [&](const double a, const double b) {
      unsigned long n = 0;
      for (const Step &s : steps)
        n += (0.5 * (s.t0 + s.t) > a && 0.5 * (s.t0 + s.t) <= b) ? s.iterations : 0;
      return n / ((b - a) / dt);
    };
    for (const Step &s : steps)
      {
        const double w = wall * s.iterations / iterations;
        estimate.record(s.t0, s.t, w, s.iterations);
        to_go -= w;
        if (wall - to_go >= next_sample && to_go > 0.1 * wall)
          {
            r.ratios.emplace_back(s.t / loading.T0, estimate.seconds_left(s.t) / to_go);
            next_sample += 0.01 * wall;
          }
      }
    r.dragging        = cost(loading.T0, 2. * loading.T0);
    r.window          = cost(2. * loading.T0, t_end);
    r.window_first_T0 = cost(2. * loading.T0, 3. * loading.T0);
    return r;
  }

  /// the value at fraction @p q of the sorted @p v
  double quantile(std::vector<double> v, const double q)
  {
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<std::size_t>(q * v.size()))];
  }

  void row(const std::string &name, const std::vector<double> &v)
  {
    std::cout << "| " << name << " | " << v.size() << " | " << std::fixed
              << std::setprecision(2) << quantile(v, 0.05) << " | " << quantile(v, 0.5)
              << " | " << quantile(v, 0.95) << " | " << *std::min_element(v.begin(), v.end())
              << " | " << *std::max_element(v.begin(), v.end()) << " |\n";
  }
} // namespace

int main(int argc, char **argv)
{
  std::vector<std::string> dirs;
  bool                     points = false;
  for (int i = 1; i < argc; ++i)
    {
      const std::string a = argv[i];
      if (a == "--help" || a == "-h")
        {
          std::cout
            << "Usage: remaining-time-replay [--points] RUN_DIRECTORY...\n"
               "Replays the progress lines' remaining-time estimate on finished runs (their\n"
               "parameters.prm, summary.csv and history.csv, History output interval = 1):\n"
               "each step's wall time is the run's wall time shared in proportion to its\n"
               "Newton iterations. Prints, as Markdown, the estimate's ratio to the true time\n"
               "to go per stretch of t/T0 and what the averaging window cost against the\n"
               "dragging before it. --points adds one line per run.\n";
          return 0;
        }
      if (a == "--points")
        points = true;
      else
        dirs.push_back(a);
    }

  std::map<int, std::vector<double>> by_stretch;
  std::vector<double>                window_over_dragging, first_T0_over_window;
  unsigned int                       runs = 0;
  try
    {
      for (const std::string &dir : dirs)
        {
          if (!fs::exists(dir + "/summary.csv") || !fs::exists(dir + "/history.csv"))
            {
              std::cerr << "remaining-time-replay: skipping " << dir
                        << " (no summary.csv or history.csv)\n";
              continue;
            }
          const Replayed r = replay(dir);
          ++runs;
          for (const auto &[t, ratio] : r.ratios)
            by_stretch[std::min(3, static_cast<int>(t))].push_back(ratio);
          if (r.rolls && r.dragging > 0. && r.window > 0.)
            {
              window_over_dragging.push_back(r.window / r.dragging);
              first_T0_over_window.push_back(r.window_first_T0 / r.window);
            }
          if (points)
            {
              std::cout << dir << ": shown / true";
              double next = 0.;
              for (const auto &[t, ratio] : r.ratios)
                if (t >= next)
                  {
                    std::cout << "  " << std::fixed << std::setprecision(2) << t << ": "
                              << ratio;
                    next = std::floor(t * 2. + 1.) / 2.;
                  }
              std::cout << "\n";
            }
        }
    }
  catch (const std::exception &e)
    {
      std::cerr << "remaining-time-replay: " << e.what() << "\n";
      return 2;
    }
  if (runs == 0)
    {
      std::cerr << "remaining-time-replay: no finished run among the directories given\n";
      return 2;
    }

  std::cout << "Remaining-time estimate replayed on " << runs
            << " runs: shown / true time to go\n\n"
               "| t/T0 | lines | 5 % | median | 95 % | smallest | largest |\n"
               "|---|---|---|---|---|---|---|\n";
  const char *names[] = {"0-1 (load)", "1-2 (dragging)", "2-3 (window)", "3-end (window)"};
  for (const auto &[stretch, ratios] : by_stretch)
    row(names[stretch], ratios);
  if (!window_over_dragging.empty())
    {
      std::cout << "\nRuns with a particle: cost of the averaging window (Newton iterations "
                   "per reference step)\n\n"
                   "| ratio | runs | 5 % | median | 95 % | smallest | largest |\n"
                   "|---|---|---|---|---|---|---|\n";
      row("window / dragging before it", window_over_dragging);
      row("first T0 of the window / whole window", first_T0_over_window);
    }
  return 0;
}
