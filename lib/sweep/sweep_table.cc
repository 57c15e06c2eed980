// sweep.csv and the resume of a sweep. See sweep_table.h.
#include "sweep/sweep_table.h"

#include "base/csv_columns.h"
#include "base/csv_fields.h"
#include "base/parameter_error.h"
#include "base/physics_entries.h"
#include "coupling/run_output.h"
#include "coupling/run_record.h"

#include <deal.II/base/parameter_handler.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>

namespace granular
{
  namespace
  {
    namespace fs = std::filesystem;
    using sweep::summary_header;

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
  } // namespace

  namespace sweep
  {
    std::string summary_header()
    {
      const std::string csv = summary_csv(RunSummary());
      return csv.substr(0, csv.find('\n'));
    }

    std::size_t summary_column(const std::string &name)
    {
      const std::vector<std::string> fields = csv_fields(summary_header());
      for (std::size_t i = 0; i < fields.size(); ++i)
        if (fields[i] == name)
          return i;
      throw std::logic_error("summary.csv has no column " + name);
    }

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
  } // namespace sweep

  using sweep::completed_point_row;
  using sweep::shortest;
  using sweep::summary_header;

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
        write_sweep_point_parameters(prm, sweep_point_parameters(parameters, point), now);
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

  const std::vector<CsvColumn<sweep::SweepRow>> &sweep::sweep_point_columns()
  {
    using R = SweepRow;
    const auto number = [](double SweepPoint::*value) {
      return [value](std::ostream &o, const R &r) { o << shortest(r.point.*value, 10); };
    };
    static const std::vector<CsvColumn<R>> columns = {
      {"point", "–", "the point's index (0, 1, …)",
       [](std::ostream &o, const R &r) { o << r.point.index; }},
      {"name", "–", "its name and subdirectory, e.g. `p2_v2500_tau0.0001_circular_d0_elastic`",
       [](std::ostream &o, const R &r) { o << csv_field(r.point.name); }},
      {"point_pressure", "MPa", "the point's p̄", number(&SweepPoint::pressure)},
      {"point_relaxation_time", "s", "the point's τ0", number(&SweepPoint::relaxation_time)},
      {"point_slip_velocity", "mm/s", "the point's v̄_F", number(&SweepPoint::slip_velocity)},
      {"point_shape", "–", "the point's shape (a name, or r1:r2:p1:p2)",
       [](std::ostream &o, const R &r) { o << csv_field(r.point.shape); }},
      {"point_payne_d", "s", "the point's Payne d", number(&SweepPoint::payne_d)},
      {"point_rubber_model", "–", "`elastic` or `viscoelastic`",
       [](std::ostream &o, const R &r) { o << r.point.rubber_model; }},
      {"point_mixture", "–",
       "the point's `Particles/Mixture` of `Sweep/Mixtures` (shapes separated by `, `; empty "
       "for a sweep without mixtures)",
       [](std::ostream &o, const R &r) { o << csv_field(r.point.mixture); }},
      {"status", "–", "`ok`, `failed`, `stopped` (by a signal; rerun on resume) or `pending`",
       [](std::ostream &o, const R &r) { o << r.result.status; }},
      {"error", "–", "the message of a failed point",
       [](std::ostream &o, const R &r) { o << csv_field(r.result.error); }}};
    return columns;
  }

  std::string sweep_csv_header()
  {
    return csv_header(sweep::sweep_point_columns()) + "," + summary_header() + "\n";
  }
} // namespace granular
