// Tests of parameter sweeps (docs/methods.md §8.3) and of the sweep post-processing scripts (§8.4).
// The sweeps run through the executable (serial, without mpirun); the two-rank run is
// the CTest test SweepMpi.TwoRanksMatchSerial (tests/sweep_mpi.sh).
#include "program/command_line.h"
#include "coupling/run_record.h"
#include "sweep/sweep_runner.h"
#include "test_helpers.h"

#include <deal.II/base/parameter_handler.h>

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace
{
  namespace fs = std::filesystem;
  using Row    = std::map<std::string, std::string>;

  /// Splits one CSV line (RFC 4180 quoting, no embedded newlines).
  std::vector<std::string> split_csv(const std::string &line)
  {
    std::vector<std::string> fields(1);
    bool                     quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i)
      {
        const char c = line[i];
        if (quoted)
          {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"')
              fields.back() += '"', ++i;
            else if (c == '"')
              quoted = false;
            else
              fields.back() += c;
          }
        else if (c == '"')
          quoted = true;
        else if (c == ',')
          fields.emplace_back();
        else
          fields.back() += c;
      }
    return fields;
  }

  std::vector<Row> read_csv(const std::string &path)
  {
    std::ifstream in(path);
    EXPECT_TRUE(in) << path;
    std::string line;
    std::vector<Row> rows;
    if (!std::getline(in, line))
      return rows;
    const auto header = split_csv(line);
    while (std::getline(in, line))
      {
        const auto fields = split_csv(line);
        EXPECT_EQ(fields.size(), header.size()) << line;
        Row r;
        for (std::size_t i = 0; i < header.size() && i < fields.size(); ++i)
          r[header[i]] = fields[i];
        rows.push_back(r);
      }
    return rows;
  }

  std::string read_text(const std::string &path)
  {
    std::ifstream      in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }

  /// A tiny bare-interface sweep parameter file in a fresh directory; returns its path.
  std::string write_sweep_file(const std::string &dir, const std::string &pressures,
                               const std::string &velocities)
  {
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string prm = dir + "/sweep.prm";
    std::ofstream     out(prm);
    out << "subsection Output\n  set Output directory = " << dir << "/out\n"
        << "  set VTU output interval = 0\n  set Progress interval = 100\nend\n"
        << "subsection Geometry\n  set Elements in x = 10\n  set Elements in y = 4\nend\n"
        << "subsection Loading\n  set Time step = 2e-3\n  set Averaging time = 0.5\nend\n"
        << "subsection Particle\n  set Enabled = false\nend\n"
        << "subsection Sweep\n  set Pressures = " << pressures
        << "\n  set Slip velocities = " << velocities << "\nend\n";
    return prm;
  }

  /// Runs the executable on @p prm (serial, no mpirun); returns its exit status.
  int run_executable(const std::string &prm, const std::string &log)
  {
    const std::string command =
      std::string("\"") + GRANULAR_EXECUTABLE + "\" \"" + prm + "\" > \"" + log + "\" 2>&1";
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  /// Runs the executable on @p prm with the further arguments @p arguments (serial);
  /// returns its exit status.
  int run_executable_with(const std::string &prm, const std::string &arguments,
                          const std::string &log)
  {
    const std::string command = std::string("\"") + GRANULAR_EXECUTABLE + "\" \"" + prm +
                                "\" " + arguments + " > \"" + log + "\" 2>&1";
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  /// Starts @p command (a shell command line) in the background with its output in @p log;
  /// the started process's pid is written to @p dir/pid and, once it has ended, its exit
  /// status to @p dir/status. Returns the status of the shell that started it (0).
  int start_in_background(const std::string &command, const std::string &log,
                          const std::string &dir)
  {
    const std::string script = "(" + command + " > \"" + log + "\" 2>&1 & pid=$!; echo $pid > \"" +
                               dir + "/pid\"; wait $pid; echo $? > \"" + dir + "/status\") &";
    return std::system(("bash -c '" + script + "'").c_str());
  }

  /// Sends SIGTERM to the process started by start_in_background() in @p dir and waits until
  /// it has written its exit status (at most until 180 s after @p start). Returns the status
  /// of the kill command (0 when the signal was sent).
  int terminate_and_wait(const std::string &dir,
                         const std::chrono::steady_clock::time_point &start)
  {
    const int sent = std::system(("kill -TERM $(cat \"" + dir + "/pid\")").c_str());
    while (!fs::exists(dir + "/status") &&
           std::chrono::steady_clock::now() - start < std::chrono::seconds(180))
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::this_thread::sleep_for(std::chrono::milliseconds(100)); // the status file is whole
    return sent;
  }

  /// Every file under @p dir (relative path) with its content.
  std::map<std::string, std::string> tree(const std::string &dir)
  {
    std::map<std::string, std::string> files;
    for (const auto &e : fs::recursive_directory_iterator(dir))
      if (e.is_regular_file())
        {
          std::ifstream      in(e.path(), std::ios::binary);
          std::ostringstream s;
          s << in.rdbuf();
          files[fs::relative(e.path(), dir).string()] = s.str();
        }
    return files;
  }

  std::string temp_dir(const std::string &name)
  {
    return (fs::temp_directory_path() / ("granular-test-sweep-" + name)).string();
  }

  std::vector<std::string> subdirectories(const std::string &dir)
  {
    std::vector<std::string> names;
    for (const auto &e : fs::directory_iterator(dir))
      if (e.is_directory())
        names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }
} // namespace

// The Cartesian product, the names and the per-point parameters, in-process.
TEST(Sweep, ProductNamesAndTimeStepScaling)
{
  dealii::ParameterHandler prm;
  granular::CommandLineOptions options;
  options.set_entries = {"Sweep/Pressures=1, 2, 3", "Sweep/Slip velocities=2500, 5000",
                         "Sweep/Shapes=circular, 0.6:0.4:2:4",
                         "Output/Output directory=/tmp/granular-sweep-names",
                         "Loading/Time step=1e-3"};
  const granular::ProgramParameters P = granular::read_parameters(options, prm);
  ASSERT_TRUE(P.sweep.active());
  const auto points = granular::sweep_points(P);
  ASSERT_EQ(points.size(), 12u);
  EXPECT_EQ(points[0].name, "p1_v2500_tau0.0001_circular_d0_elastic");
  EXPECT_EQ(points[1].name, "p1_v2500_tau0.0001_0.6x0.4x2x4_d0_elastic");
  EXPECT_EQ(points[11].name, "p3_v5000_tau0.0001_0.6x0.4x2x4_d0_elastic");

  // scaled (default): the fraction stays, Delta t = fraction L0 / v_F halves at 2 v_F
  const granular::ProgramParameters Q = granular::sweep_point_parameters(P, points[3]);
  EXPECT_DOUBLE_EQ(Q.loading.slip_velocity, 5000.);
  EXPECT_DOUBLE_EQ(Q.loading.time_step_ratio, 1e-3);
  EXPECT_EQ(Q.particle.shape_name, "custom");
  EXPECT_DOUBLE_EQ(Q.particle.r1, 0.6);
  EXPECT_DOUBLE_EQ(Q.particle.p2, 4.);
  EXPECT_EQ(Q.output.output_directory, "/tmp/granular-sweep-names/" + points[3].name);
  EXPECT_FALSE(Q.sweep.active());

  // not scaled: Delta t of the file's slip velocity is kept
  granular::ProgramParameters P_fixed = P;
  P_fixed.sweep.scale_time_step_with_slip_velocity = false;
  const granular::ProgramParameters R = granular::sweep_point_parameters(P_fixed, points[3]);
  EXPECT_NEAR(R.loading.time_step(R.block.length), P.loading.time_step(P.block.length),
              1e-15);
  EXPECT_DOUBLE_EQ(R.loading.time_step_ratio, 2e-3);

  // a repeated value would give two points with one directory
  granular::ProgramParameters P_dup = P;
  P_dup.sweep.pressures = {1., 1.};
  EXPECT_THROW(granular::sweep_points(P_dup), std::invalid_argument);
}

// A point's parameters are values; its parameters.prm, written from them, reads back as
// the same values in every entry, keeps the file's text where the point does not change
// an entry, and holds the changed numbers with all their digits.
TEST(Sweep, PointParameterFileReadsBackAsThePoint)
{
  dealii::ParameterHandler     prm;
  granular::CommandLineOptions options;
  options.set_entries = {"Sweep/Pressures=0.1, 2", "Sweep/Slip velocities=2500, 3000",
                         "Sweep/Relaxation times=1e-4, 3e-4",
                         "Sweep/Shapes=circular, 0.6:0.4:2:4",
                         "Sweep/Payne parameters=0, 1e-3",
                         "Sweep/Rubber models=elastic, viscoelastic",
                         "Sweep/Scale time step with slip velocity=false",
                         "Loading/Pressure=0.1", "Loading/Time step=1e-3",
                         "Output/Output directory=" + temp_dir("point-file")};
  const granular::ProgramParameters P      = granular::read_parameters(options, prm);
  const auto                        points = granular::sweep_points(P);
  ASSERT_EQ(points.size(), 2u * 2u * 2u * (2u * 2u + 1u));
  for (const auto &point : points)
    {
      SCOPED_TRACE(point.name);
      const granular::ProgramParameters Q = granular::sweep_point_parameters(P, point);
      dealii::ParameterHandler          point_prm;
      granular::write_sweep_point_parameters(prm, Q, point_prm);
      granular::ProgramParameters R;
      R.parse_parameters(point_prm);
      // R == Q in every entry: writing Q over a handler that holds R changes nothing
      dealii::ParameterHandler again;
      granular::write_sweep_point_parameters(point_prm, Q, again);
      std::ostringstream a, b;
      point_prm.print_parameters(a, dealii::ParameterHandler::ShortPRM);
      again.print_parameters(b, dealii::ParameterHandler::ShortPRM);
      EXPECT_EQ(a.str(), b.str());
      EXPECT_EQ(R.loading.pressure, point.pressure);
      EXPECT_EQ(R.loading.slip_velocity, point.slip_velocity);
      EXPECT_EQ(R.loading.time_step_ratio, 1e-3 * point.slip_velocity / 2500.);
      EXPECT_EQ(R.rubber.relaxation_time, point.relaxation_time);
      EXPECT_EQ(R.rubber.payne_d, point.payne_d);
      EXPECT_EQ(R.rubber.viscoelastic, point.rubber_model == "viscoelastic");
      EXPECT_EQ(R.particle.shape().r1, Q.particle.shape().r1);
      EXPECT_EQ(R.particle.shape().r2, Q.particle.shape().r2);
      EXPECT_EQ(R.particle.shape().p1, Q.particle.shape().p1);
      EXPECT_EQ(R.particle.shape().p2, Q.particle.shape().p2);
      EXPECT_EQ(R.output.output_directory, temp_dir("point-file") + "/" + point.name);
      EXPECT_FALSE(R.sweep.active());
      point_prm.enter_subsection("Loading");
      EXPECT_EQ(point_prm.get("Pressure"), point.pressure == 0.1 ? "0.1" : "2");
      EXPECT_EQ(point_prm.get("Time step"), point.slip_velocity == 2500. ?
                                              "1e-3" :
                                              granular::sweep::exact(R.loading.time_step_ratio));
      point_prm.leave_subsection();
    }
}

// An elastic rubber has no relaxation time and no Payne effect: a d-scan with both rubber
// models runs every d on the viscoelastic rubber and the elastic reference once.
TEST(Sweep, ElasticPointIsRunOnceForAllRelaxationTimesAndPayneParameters)
{
  dealii::ParameterHandler     prm;
  granular::CommandLineOptions options;
  options.set_entries = {"Sweep/Payne parameters=0, 1e-5, 1e-3",
                         "Sweep/Relaxation times=1e-4, 1e-3",
                         "Sweep/Rubber models=elastic, viscoelastic",
                         "Output/Output directory=/tmp/granular-sweep-elastic-once"};
  const granular::ProgramParameters P      = granular::read_parameters(options, prm);
  const auto                        points = granular::sweep_points(P);
  ASSERT_EQ(points.size(), 2u * 3u + 1u);
  unsigned int elastic = 0;
  for (const auto &pt : points)
    if (pt.rubber_model == "elastic")
      {
        ++elastic;
        EXPECT_EQ(pt.name, "p2_v2500_tau0.0001_elliptical_d0_elastic");
      }
  EXPECT_EQ(elastic, 1u);
  EXPECT_EQ(points.back().name, "p2_v2500_tau0.001_elliptical_d0.001_viscoelastic");
}

// 2 pressures x 2 slip velocities of the bare interface: 4 subdirectories, 4 rows with
// kbar = k_o = 0.5, and the kbar-against-pressure plot of that sweep.csv.
TEST(Sweep, TinyBareSweepWritesFourPointsAndPlot)
{
  const std::string dir = temp_dir("tiny");
  const std::string prm = write_sweep_file(dir, "1, 2", "2500, 5000");
  ASSERT_EQ(run_executable(prm, dir + "/log.txt"), 0) << read_text(dir + "/log.txt");
  const std::string out = dir + "/out";
  const auto        subdirs = subdirectories(out);
  ASSERT_EQ(subdirs.size(), 4u);
  const auto rows = read_csv(out + "/sweep.csv");
  ASSERT_EQ(rows.size(), 4u);
  for (const Row &r : rows)
    {
      EXPECT_EQ(r.at("status"), "ok") << r.at("name") << ": " << r.at("error");
      EXPECT_NEAR(std::stod(r.at("kbar")), 0.5, 0.005) << r.at("name");
      EXPECT_TRUE(fs::exists(out + "/" + r.at("name") + "/summary.csv")) << r.at("name");
      EXPECT_DOUBLE_EQ(std::stod(r.at("pressure")), std::stod(r.at("point_pressure")));
      EXPECT_DOUBLE_EQ(std::stod(r.at("slip_velocity")), std::stod(r.at("point_slip_velocity")));
      // the geometry is recorded: L0, H0, the mesh and Delta t =
      // (Loading/Time step) L0 / v_F
      EXPECT_EQ(std::stod(r.at("block_length")), 10.) << r.at("name");
      EXPECT_EQ(std::stod(r.at("block_height")), 7.5) << r.at("name");
      EXPECT_EQ(r.at("elements_x"), "10");
      EXPECT_EQ(r.at("elements_y"), "4");
      EXPECT_NEAR(std::stod(r.at("time_step")), 2e-3 * 10. / std::stod(r.at("slip_velocity")),
                  1e-12);
    }
  EXPECT_EQ(rows[0].at("name"), "p1_v2500_tau0.0001_elliptical_d0_elastic");
  EXPECT_EQ(rows[3].at("name"), "p2_v5000_tau0.0001_elliptical_d0_elastic");
  // progress after each point (done / running / waiting) and the results table at the end
  const std::string log = read_text(dir + "/log.txt");
  EXPECT_NE(log.find("; 1 of 4 done, 1 running, 2 waiting"), std::string::npos) << log;
  EXPECT_NE(log.find("; 4 of 4 done, 0 running, 0 waiting"), std::string::npos) << log;
  EXPECT_NE(log.find(" left"), std::string::npos) << log;
  for (const Row &r : rows)
    {
      const auto line = log.find("\n" + r.at("name") + " ");
      ASSERT_NE(line, std::string::npos) << "no table line for " << r.at("name") << "\n" << log;
      const std::string table_line = log.substr(line + 1, log.find('\n', line + 1) - line - 1);
      EXPECT_NE(table_line.find("  ok"), std::string::npos) << table_line;
      EXPECT_NE(table_line.find(" 0.50"), std::string::npos) << table_line;
    }

  // each sweep post-processing script turns the sweep into its figure (PNG and PDF)
  for (const std::string script : {"kbar_vs_pressure", "kbar_vs_relaxation"})
    {
      const std::string plot    = dir + "/" + script;
      const std::string command = std::string("/usr/bin/python3 \"") + GRANULAR_SOURCE_DIR +
                                  "/postprocess/" + script + ".py\" \"" + out +
                                  "/sweep.csv\" -o \"" + plot + "\" > \"" + dir +
                                  "/plot.log\" 2>&1";
      ASSERT_EQ(std::system(command.c_str()), 0) << script << read_text(dir + "/plot.log");
      EXPECT_TRUE(fs::exists(plot + ".png")) << script;
      EXPECT_GT(fs::file_size(plot + ".png"), 1000u) << script;
      EXPECT_TRUE(fs::exists(plot + ".pdf")) << script;
    }
  // and the history of one point (Temizer 2013, Fig. 8 style)
  const std::string history = dir + "/friction_history";
  const std::string command = std::string("/usr/bin/python3 \"") + GRANULAR_SOURCE_DIR +
                              "/postprocess/friction_history.py\" \"" + out + "/" +
                              rows[0].at("name") + "\" -o \"" + history + "\" > \"" + dir +
                              "/history.log\" 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << read_text(dir + "/history.log");
  EXPECT_GT(fs::file_size(history + ".png"), 1000u);
  EXPECT_TRUE(fs::exists(history + ".pdf"));
}

// Rerunning a sweep runs only the missing points: completed summary.csv files are not
// touched (contents and modification time), the deleted point is back.
TEST(Sweep, ResumeRunsOnlyMissingPoints)
{
  const std::string dir = temp_dir("resume");
  const std::string prm = write_sweep_file(dir, "1, 2", "2500, 5000");
  ASSERT_EQ(run_executable(prm, dir + "/log1.txt"), 0) << read_text(dir + "/log1.txt");
  const std::string out     = dir + "/out";
  const auto        subdirs = subdirectories(out);
  ASSERT_EQ(subdirs.size(), 4u);
  std::map<std::string, std::pair<std::string, fs::file_time_type>> before;
  for (const auto &s : subdirs)
    before[s] = {read_text(out + "/" + s + "/summary.csv"),
                 fs::last_write_time(out + "/" + s + "/summary.csv")};
  const std::string removed = subdirs[2];
  fs::remove_all(out + "/" + removed);

  ASSERT_EQ(run_executable(prm, dir + "/log2.txt"), 0) << read_text(dir + "/log2.txt");
  const std::string log2 = read_text(dir + "/log2.txt");
  EXPECT_NE(log2.find("3 already complete"), std::string::npos) << log2;
  ASSERT_EQ(subdirectories(out), subdirs);
  for (const auto &s : subdirs)
    {
      const std::string path = out + "/" + s + "/summary.csv";
      ASSERT_TRUE(fs::exists(path)) << s;
      if (s == removed)
        continue;
      EXPECT_EQ(read_text(path), before[s].first) << s;
      EXPECT_EQ(fs::last_write_time(path), before[s].second) << s;
    }
  const auto rows = read_csv(out + "/sweep.csv");
  ASSERT_EQ(rows.size(), 4u);
  for (const Row &r : rows)
    {
      EXPECT_EQ(r.at("status"), "ok") << r.at("name");
      EXPECT_NEAR(std::stod(r.at("kbar")), 0.5, 0.005) << r.at("name");
    }
}

// A point completed by an older build, whose summary.csv lacks the columns added since
// (columns are only appended), still counts as complete when the sweep is resumed: it is not
// rerun, and its sweep.csv row has empty fields for the new columns.
TEST(Sweep, ResumeKeepsPointsOfAnOlderSummaryFormat)
{
  const std::string dir = temp_dir("resume-old-format");
  const std::string prm = write_sweep_file(dir, "1", "2500, 5000");
  ASSERT_EQ(run_executable(prm, dir + "/log1.txt"), 0) << read_text(dir + "/log1.txt");
  const std::string out  = dir + "/out";
  const std::string name = subdirectories(out)[0];
  const std::string path = out + "/" + name + "/summary.csv";
  // drop the columns from block_length on, as an older build wrote them
  std::istringstream in(read_text(path));
  std::string        header, row;
  std::getline(in, header);
  std::getline(in, row);
  const auto count_fields = [](const std::string &line) {
    return std::count(line.begin(), line.end(), ',') + 1;
  };
  const std::string kept_header = header.substr(0, header.find(",block_length"));
  ASSERT_LT(kept_header.size(), header.size()) << header;
  auto keep_first = [](std::string line, long n) {
    std::size_t end = 0;
    for (long i = 0; i < n; ++i)
      end = line.find(',', end) + 1;
    return line.substr(0, end - 1);
  };
  {
    std::ofstream o(path);
    o << kept_header << '\n' << keep_first(row, count_fields(kept_header)) << '\n';
  }
  const auto before = fs::last_write_time(path);
  fs::remove_all(out + "/" + subdirectories(out)[1]);
  ASSERT_EQ(run_executable(prm, dir + "/log2.txt"), 0) << read_text(dir + "/log2.txt");
  EXPECT_NE(read_text(dir + "/log2.txt").find("1 already complete"), std::string::npos)
    << read_text(dir + "/log2.txt");
  EXPECT_EQ(fs::last_write_time(path), before) << "the older point was rerun";
  const auto rows = read_csv(out + "/sweep.csv");
  ASSERT_EQ(rows.size(), 2u);
  for (const Row &r : rows)
    {
      EXPECT_EQ(r.at("status"), "ok") << r.at("name");
      EXPECT_NEAR(std::stod(r.at("kbar")), 0.5, 0.005) << r.at("name");
      EXPECT_EQ(r.at("block_length").empty(), r.at("name") == name) << r.at("name");
    }
}

// A sweep resumed with other physics than its completed points were run
// with (here the rubber-surface friction coefficient, which is k-bar of the bare interface)
// is refused before any point runs, naming the entry, and nothing is changed; a change of
// subsection Output only still resumes, and a point without its parameters.prm runs again.
TEST(Sweep, ResumeWithOtherPhysicsIsRefused)
{
  const std::string dir = temp_dir("resume-other-physics");
  const std::string prm = write_sweep_file(dir, "1, 2", "2500");
  const std::string out = dir + "/out";
  ASSERT_EQ(run_executable(prm, dir + "/log1.txt"), 0) << read_text(dir + "/log1.txt");
  const auto subdirs = subdirectories(out);
  ASSERT_EQ(subdirs.size(), 2u);
  fs::remove_all(out + "/" + subdirs[1]); // an interrupted sweep: one point left to run
  const auto before = tree(out);

  const std::string friction = "--set \"Contact/Rubber-surface/Friction coefficient=0.3\"";
  EXPECT_EQ(run_executable_with(prm, friction, dir + "/log2.txt"), 2)
    << read_text(dir + "/log2.txt");
  const std::string log2 = read_text(dir + "/log2.txt");
  EXPECT_NE(log2.find("'Contact/Rubber-surface/Friction coefficient'"), std::string::npos)
    << log2;
  EXPECT_NE(log2.find("\"0.5\" in its parameters.prm, \"0.3\" now"), std::string::npos)
    << log2;
  EXPECT_NE(log2.find(subdirs[0]), std::string::npos) << log2;
  EXPECT_TRUE(tree(out) == before) << "the refused resume changed the sweep's directory";

  // another progress interval: the sweep resumes and completes with one friction coefficient
  ASSERT_EQ(run_executable_with(prm, "--set \"Output/Progress interval=50\"",
                                dir + "/log3.txt"),
            0)
    << read_text(dir + "/log3.txt");
  EXPECT_NE(read_text(dir + "/log3.txt").find("1 already complete"), std::string::npos)
    << read_text(dir + "/log3.txt");
  EXPECT_EQ(read_text(out + "/" + subdirs[0] + "/summary.csv"),
            before.at(subdirs[0] + "/summary.csv"));
  const auto rows = read_csv(out + "/sweep.csv");
  ASSERT_EQ(rows.size(), 2u);
  for (const Row &r : rows)
    {
      EXPECT_EQ(r.at("status"), "ok") << r.at("name");
      EXPECT_NEAR(std::stod(r.at("kbar")), 0.5, 0.005) << r.at("name");
    }

  // a completed point without its parameters.prm is not complete: it runs again, with the
  // friction coefficient of now
  for (const std::string &s : subdirs)
    fs::remove(out + "/" + s + "/parameters.prm");
  ASSERT_EQ(run_executable_with(prm, friction, dir + "/log4.txt"), 0)
    << read_text(dir + "/log4.txt");
  EXPECT_NE(read_text(dir + "/log4.txt").find("0 already complete"), std::string::npos)
    << read_text(dir + "/log4.txt");
  for (const Row &r : read_csv(out + "/sweep.csv"))
    EXPECT_NEAR(std::stod(r.at("kbar")), 0.3, 0.005) << r.at("name");
}

// A resumed sweep continues only on the mesh file its completed points were run on: the
// file changed on disk under the same name is refused naming Geometry/Mesh file (sweep.csv
// would hold points of two meshes), and nothing is changed.
TEST(Sweep, ResumeOnAChangedMeshFileIsRefused)
{
  const std::string dir  = temp_dir("resume-mesh");
  const std::string prm  = write_sweep_file(dir, "1, 2", "2500");
  const std::string out  = dir + "/out";
  const std::string mesh = dir + "/block.msh";
  granular::testing::write_structured_msh(mesh, 10., 7.5, 10, 4, 0.);
  const std::string with_mesh = "--set \"Geometry/Mesh file=" + mesh + "\"";
  ASSERT_EQ(run_executable_with(prm, with_mesh, dir + "/log1.txt"), 0)
    << read_text(dir + "/log1.txt");
  const auto subdirs = subdirectories(out);
  ASSERT_EQ(subdirs.size(), 2u);
  fs::remove_all(out + "/" + subdirs[1]); // an interrupted sweep: one point left to run
  const auto before = tree(out);
  granular::testing::write_structured_msh(mesh, 10., 7.5, 10, 4, 0.5); // another mesh
  EXPECT_EQ(run_executable_with(prm, with_mesh, dir + "/log2.txt"), 2)
    << read_text(dir + "/log2.txt");
  const std::string log2 = read_text(dir + "/log2.txt");
  EXPECT_NE(log2.find("'Geometry/Mesh file'"), std::string::npos) << log2;
  EXPECT_TRUE(tree(out) == before) << "the refused resume changed the sweep's directory";
}

// A sweep into a directory holding a single run's results, and a single
// run into a directory holding a sweep, are refused with exit status 2 naming
// Output/Output directory, and neither directory is changed.
TEST(Sweep, SweepAndSingleRunDoNotShareADirectory)
{
  const std::string dir = temp_dir("mixed-directories");
  const std::string prm = write_sweep_file(dir, "1", "2500, 5000");
  const std::string out = dir + "/out";
  ASSERT_EQ(run_executable(prm, dir + "/log1.txt"), 0) << read_text(dir + "/log1.txt");
  ASSERT_TRUE(fs::exists(out + "/sweep.csv"));
  const auto sweep_before = tree(out);
  // a single run (a point's own parameters.prm) into the sweep's directory, also with
  // --overwrite, which would remove sweep.csv and leave the points
  const std::string point_prm = out + "/" + subdirectories(out)[0] + "/parameters.prm";
  for (const std::string option : {"", "--overwrite"})
    {
      EXPECT_EQ(run_executable_with(point_prm, "--output-directory \"" + out + "\" " + option,
                                    dir + "/log2.txt"),
                2)
        << option << read_text(dir + "/log2.txt");
      const std::string log2 = read_text(dir + "/log2.txt");
      EXPECT_NE(log2.find("'Output/Output directory'"), std::string::npos) << log2;
      EXPECT_NE(log2.find("holds the results of a sweep"), std::string::npos) << log2;
      EXPECT_TRUE(tree(out) == sweep_before) << "changed by a refused run " << option;
    }

  // a single run's directory: the sweep is refused before anything is written there
  const std::string single = dir + "/single";
  ASSERT_EQ(run_executable_with(point_prm, "--output-directory \"" + single + "\"",
                                dir + "/log3.txt"),
            0)
    << read_text(dir + "/log3.txt");
  ASSERT_TRUE(fs::exists(single + "/summary.csv"));
  const auto single_before = tree(single);
  EXPECT_EQ(run_executable_with(prm, "--output-directory \"" + single + "\"",
                                dir + "/log4.txt"),
            2)
    << read_text(dir + "/log4.txt");
  const std::string log4 = read_text(dir + "/log4.txt");
  EXPECT_NE(log4.find("'Output/Output directory'"), std::string::npos) << log4;
  EXPECT_NE(log4.find("holds the results of a single run"), std::string::npos) << log4;
  EXPECT_TRUE(tree(single) == single_before) << "changed by the refused sweep";
  EXPECT_TRUE(subdirectories(single).empty());
}

// A point whose run fails gets a row with its error; the other point completes; the exit
// status is non-zero. The failure: with Solver/Maximum energy balance error = 1e-3 the
// energy guard stops the point at p = 1e-4 MPa, whose onset of the dragging moves an energy
// of M v_F^2 / 8, 11 % of the guard's scale there, where p = 2 MPa stays below 1e-3.
TEST(Sweep, FailingPointIsReportedAndOthersComplete)
{
  const std::string dir = temp_dir("failure");
  const std::string prm = write_sweep_file(dir, "2, 1e-4", "2500");
  std::ofstream(prm, std::ios::app)
    << "subsection Solver\n  set Maximum energy balance error = 1e-3\nend\n";
  EXPECT_EQ(run_executable(prm, dir + "/log.txt"), 1) << read_text(dir + "/log.txt");
  const auto rows = read_csv(dir + "/out/sweep.csv");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].at("status"), "ok") << rows[0].at("error");
  EXPECT_NEAR(std::stod(rows[0].at("kbar")), 0.5, 0.005);
  EXPECT_EQ(rows[1].at("status"), "failed");
  EXPECT_NE(rows[1].at("error").find("the energy balance fails"), std::string::npos)
    << rows[1].at("error");
  EXPECT_TRUE(rows[1].at("kbar").empty());
  EXPECT_FALSE(fs::exists(dir + "/out/" + rows[1].at("name") + "/summary.csv"));
  EXPECT_TRUE(fs::exists(dir + "/out/" + rows[1].at("name") + "/error.txt"));
}

// docs/methods.md §8.3 / the sweep issue: a sweep killed with SIGKILL after its first point has
// completed, then rerun, has every point exactly once; the points completed before the
// kill keep their files untouched (contents and modification time).
TEST(Sweep, KilledSweepResumesWithoutTouchingCompletedPoints)
{
  const std::string dir = temp_dir("killed");
  const std::string prm = write_sweep_file(dir, "1, 2", "2500, 5000");
  const std::string out = dir + "/out";
  // longer points (about 2 s each) so that the kill lands inside the sweep
  const std::string run = std::string("\"") + GRANULAR_EXECUTABLE + "\" \"" + prm +
                          "\" --set \"Loading/Time step=5e-4\"";
  ASSERT_EQ(std::system((run + " > \"" + dir + "/log1.txt\" 2>&1 & echo $! > \"" + dir +
                         "/pid\"").c_str()),
            0);
  const auto first_complete = [&]() {
    std::vector<std::string> done;
    if (fs::exists(out))
      for (const std::string &d : subdirectories(out))
        if (fs::exists(out + "/" + d + "/summary.csv"))
          done.push_back(d);
    return done;
  };
  const auto start = std::chrono::steady_clock::now();
  while (first_complete().empty() &&
         std::chrono::steady_clock::now() - start < std::chrono::seconds(120))
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_EQ(std::system(("kill -9 $(cat \"" + dir + "/pid\") 2>/dev/null").c_str()), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const auto done = first_complete();
  ASSERT_FALSE(done.empty()) << "no point completed before the kill";
  ASSERT_LT(done.size(), 4u) << "the sweep finished before the kill: test inconclusive";
  std::map<std::string, std::pair<std::string, fs::file_time_type>> before;
  for (const std::string &d : done)
    before[d] = {read_text(out + "/" + d + "/summary.csv"),
                 fs::last_write_time(out + "/" + d + "/summary.csv")};

  ASSERT_EQ(std::system((run + " > \"" + dir + "/log2.txt\" 2>&1").c_str()), 0)
    << read_text(dir + "/log2.txt");
  const auto rows = read_csv(out + "/sweep.csv");
  ASSERT_EQ(rows.size(), 4u);
  std::set<std::string> names;
  for (const Row &r : rows)
    {
      EXPECT_EQ(r.at("status"), "ok") << r.at("name");
      names.insert(r.at("name"));
    }
  EXPECT_EQ(names.size(), 4u) << "a point appears twice";
  EXPECT_EQ(subdirectories(out).size(), 4u);
  for (const auto &[d, content_time] : before)
    {
      EXPECT_EQ(read_text(out + "/" + d + "/summary.csv"), content_time.first) << d;
      EXPECT_EQ(fs::last_write_time(out + "/" + d + "/summary.csv"), content_time.second) << d;
    }
}

// Every point of a sweep is validated before the first one runs: a shape
// of Sweep/Shapes wider than the cell, or a repeated value (also a shape written two
// ways), is rejected with exit status 2,
// naming the list entry and the point, and nothing is written.
TEST(Sweep, InvalidPointIsRejectedBeforeTheFirstPointRuns)
{
  const std::string dir = temp_dir("invalid-point");
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string prm = dir + "/sweep.prm";
  {
    std::ofstream out(prm);
    out << "subsection Output\n  set Output directory = " << dir << "/out\nend\n"
        << "subsection Geometry\n  set Block length = 3\n  set Block height = 1.5\n"
        << "  set Elements in x = 8\n  set Elements in y = 4\nend\n"
        << "subsection Sweep\n  set Pressures = 1, 2\n"
        << "  set Shapes = circular, 1.7:0.5:2:2\nend\n";
  }
  EXPECT_EQ(run_executable(prm, dir + "/log.txt"), 2) << read_text(dir + "/log.txt");
  const std::string log = read_text(dir + "/log.txt");
  EXPECT_NE(log.find("Sweep/Shapes"), std::string::npos) << log;
  EXPECT_NE(log.find("1.7:0.5:2:2"), std::string::npos) << log;
  EXPECT_NE(log.find("wider than the periodic cell"), std::string::npos) << log;
  EXPECT_FALSE(fs::exists(dir + "/out")) << "a point ran before the sweep was validated";

  const std::string duplicate = write_sweep_file(temp_dir("duplicate"), "1, 1", "2500");
  EXPECT_EQ(run_executable(duplicate, temp_dir("duplicate") + "/log.txt"), 2)
    << read_text(temp_dir("duplicate") + "/log.txt");
  EXPECT_FALSE(fs::exists(temp_dir("duplicate") + "/out"));

  // a shape written two ways: it was computed twice under two names
  const std::string two_ways = dir + "/two-ways.prm";
  std::ofstream(two_ways) << "subsection Output\n  set Output directory = " << dir
                          << "/two-ways\nend\nsubsection Sweep\n"
                          << "  set Shapes = circular, 0.5:0.5:2:2\nend\n";
  EXPECT_EQ(run_executable(two_ways, dir + "/two-ways.txt"), 2) << read_text(dir + "/two-ways.txt");
  const std::string message = read_text(dir + "/two-ways.txt");
  EXPECT_NE(message.find("Sweep/Shapes"), std::string::npos) << message;
  EXPECT_NE(message.find("are the same shape"), std::string::npos) << message;
  EXPECT_FALSE(fs::exists(dir + "/two-ways"));
}

// SIGTERM stops a sweep cleanly: the point in progress stops between two time steps (its
// history.csv has whole rows only; it has no summary.csv and continues from its checkpoint on
// resume), no new point starts, the sweep says what it did, sweep.csv marks the stopped point,
// and the exit status is 128 + 15.
TEST(Sweep, SigtermStopsTheSweepAndSaysWhatItDid)
{
  const std::string dir = temp_dir("sigterm");
  const std::string prm = write_sweep_file(dir, "1, 2", "2500, 5000");
  const std::string out = dir + "/out";
  const std::string run = std::string("\"") + GRANULAR_EXECUTABLE + "\" \"" + prm +
                          "\" --set \"Loading/Time step=5e-4\"";
  ASSERT_EQ(start_in_background(run, dir + "/log1.txt", dir), 0);
  const auto n_complete = [&]() {
    std::size_t n = 0;
    if (fs::exists(out))
      for (const std::string &d : subdirectories(out))
        n += fs::exists(out + "/" + d + "/summary.csv");
    return n;
  };
  // a later point is inside its time loop: it has written time steps to its history.csv but
  // has no summary.csv yet (a fixed delay after the first point's summary.csv can land
  // between two points on a loaded machine, where no point is in progress)
  const auto a_later_point_is_stepping = [&]() {
    if (n_complete() == 0)
      return false;
    for (const std::string &d : subdirectories(out))
      if (!fs::exists(out + "/" + d + "/summary.csv") &&
          fs::exists(out + "/" + d + "/history.csv"))
        {
          const std::string text = read_text(out + "/" + d + "/history.csv");
          if (std::count(text.begin(), text.end(), '\n') >= 3)
            return true;
        }
    return false;
  };
  const auto start = std::chrono::steady_clock::now();
  while (!a_later_point_is_stepping() &&
         std::chrono::steady_clock::now() - start < std::chrono::seconds(120))
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_EQ(terminate_and_wait(dir, start), 0);
  const std::string log = read_text(dir + "/log1.txt");
  ASSERT_LT(n_complete(), 4u) << "the sweep finished before the signal: inconclusive\n" << log;
  EXPECT_EQ(std::stoi(read_text(dir + "/status")), 128 + 15) << log;
  EXPECT_NE(log.find("sweep stopped by signal 15"), std::string::npos) << log;
  EXPECT_NE(log.find("run the same command again to resume"), std::string::npos) << log;
  const auto rows = read_csv(out + "/sweep.csv");
  ASSERT_EQ(rows.size(), 4u);
  unsigned int ok = 0, stopped = 0;
  for (const Row &r : rows)
    {
      EXPECT_NE(r.at("status"), "failed") << r.at("name") << ": " << r.at("error");
      ok += r.at("status") == "ok";
      stopped += r.at("status") == "stopped";
    }
  EXPECT_GE(ok, 1u);
  EXPECT_EQ(stopped, 1u);
  // every history.csv of the sweep has whole rows only (a point that the signal stopped
  // while it was being set up, before its run opened history.csv, has none)
  unsigned int n_histories = 0;
  for (const std::string &d : subdirectories(out))
    {
      if (!fs::exists(out + "/" + d + "/history.csv"))
        continue;
      ++n_histories;
      std::istringstream in(read_text(out + "/" + d + "/history.csv"));
      std::string        header, line;
      ASSERT_TRUE(std::getline(in, header)) << d;
      const auto fields = std::count(header.begin(), header.end(), ',');
      const std::string text = read_text(out + "/" + d + "/history.csv");
      EXPECT_EQ(text.back(), '\n') << d << ": the last row is cut";
      while (std::getline(in, line))
        EXPECT_EQ(std::count(line.begin(), line.end(), ','), fields) << d << ": " << line;
    }
  EXPECT_GE(n_histories, ok);
  // and the rerun completes the sweep
  ASSERT_EQ(std::system((run + " > \"" + dir + "/log2.txt\" 2>&1").c_str()), 0)
    << read_text(dir + "/log2.txt");
  for (const Row &r : read_csv(out + "/sweep.csv"))
    EXPECT_EQ(r.at("status"), "ok") << r.at("name");
}

// A sweep stopped by SIGTERM leaves the point in progress with its checkpoint.bin, and the
// resumed sweep continues the point from it (docs/sweeps.md, Stopping and resuming): the
// point ends bit for bit as the same point computed without a stop, its history.csv the
// same file and its summary.csv the same row but for the wall times. One ellipse point on
// the reduced cell, stopped halfway through its steps.
TEST(Sweep, StoppedPointContinuesFromItsCheckpointBitForBit)
{
  const std::string dir = temp_dir("checkpoint");
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto write_prm = [&](const std::string &name) {
    const std::string prm = dir + "/" + name + ".prm";
    std::ofstream     out(prm);
    out << "subsection Output\n  set Output directory = " << dir << "/" << name
        << "\n  set VTU output interval = 0\n  set Progress interval = 100\nend\n"
        << "subsection Geometry\n  set Block length = 3\n  set Block height = 1.5\n"
        << "  set Elements in x = 12\n  set Elements in y = 6\nend\n"
        << "subsection Loading\n  set Time step = 5e-4\n  set Averaging time = 2\nend\n"
        << "subsection Sweep\n  set Pressures = 2\n  set Shapes = elliptical\nend\n";
    return prm;
  };
  // uninterrupted
  ASSERT_EQ(run_executable(write_prm("a"), dir + "/a.log"), 0) << read_text(dir + "/a.log");
  const std::vector<std::string> points = subdirectories(dir + "/a");
  ASSERT_EQ(points.size(), 1u);
  const std::string a       = dir + "/a/" + points[0];
  const std::string history = read_text(a + "/history.csv");
  const auto        n_rows  = std::count(history.begin(), history.end(), '\n');
  EXPECT_FALSE(fs::exists(a + "/checkpoint.bin")) << "a completed point leaves no checkpoint";

  // stopped by SIGTERM once half of the rows are written
  const std::string prm_b = write_prm("b");
  const std::string b     = dir + "/b/" + points[0];
  ASSERT_EQ(start_in_background("\"" + std::string(GRANULAR_EXECUTABLE) + "\" \"" + prm_b + "\"",
                                dir + "/b1.log", dir),
            0);
  const auto rows_of_b = [&]() -> long {
    if (!fs::exists(b + "/history.csv"))
      return 0;
    const std::string text = read_text(b + "/history.csv");
    return std::count(text.begin(), text.end(), '\n');
  };
  const auto start = std::chrono::steady_clock::now();
  while (rows_of_b() < n_rows / 2 && !fs::exists(dir + "/status") &&
         std::chrono::steady_clock::now() - start < std::chrono::seconds(120))
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_EQ(terminate_and_wait(dir, start), 0);
  const std::string log1 = read_text(dir + "/b1.log");
  ASSERT_FALSE(fs::exists(b + "/summary.csv")) << "the point completed before the signal\n"
                                               << log1;
  EXPECT_EQ(std::stoi(read_text(dir + "/status")), 128 + 15) << log1;
  const auto stopped = read_csv(dir + "/b/sweep.csv");
  ASSERT_EQ(stopped.size(), 1u);
  EXPECT_EQ(stopped[0].at("status"), "stopped") << stopped[0].at("error");
  ASSERT_TRUE(fs::exists(b + "/checkpoint.bin")) << log1;
  const long rows_at_stop = rows_of_b();
  EXPECT_GE(rows_at_stop, n_rows / 2);
  EXPECT_LT(rows_at_stop, n_rows);

  // resumed: the point continues from its checkpoint
  ASSERT_EQ(run_executable(prm_b, dir + "/b2.log"), 0) << read_text(dir + "/b2.log");
  const std::string run_log = read_text(b + "/run.log");
  EXPECT_NE(run_log.find("restarting at step"), std::string::npos) << run_log;
  EXPECT_EQ(read_text(b + "/history.csv"), history);
  const auto without_times = [](const std::string &summary) {
    const std::vector<Row> rows = read_csv(summary);
    EXPECT_EQ(rows.size(), 1u) << summary;
    Row kept;
    for (const auto &[column, value] : rows.empty() ? Row() : rows.front())
      if (column != "wall_time" && column.rfind("time_", 0) != 0)
        kept[column] = value;
    return kept;
  };
  EXPECT_EQ(without_times(b + "/summary.csv"), without_times(a + "/summary.csv"));
  const auto resumed = read_csv(dir + "/b/sweep.csv");
  ASSERT_EQ(resumed.size(), 1u);
  EXPECT_EQ(resumed[0].at("status"), "ok");
  EXPECT_EQ(resumed[0].at("kbar"), read_csv(dir + "/a/sweep.csv").at(0).at("kbar"));
  EXPECT_FALSE(fs::exists(b + "/checkpoint.bin")) << "a completed point leaves no checkpoint";
}

// One run per output directory, sweeps too (docs/running.md, The output directory): of two
// sweeps started at the same moment on one directory, one runs and completes, the other is
// refused with exit status 2 naming the directory, before it writes anything.
TEST(Sweep, TwoSweepsOnOneDirectoryDoNotBothRun)
{
  const std::string dir = temp_dir("concurrent");
  const std::string prm = write_sweep_file(dir, "1, 2", "2500");
  const std::string out = dir + "/out";
  // fixed steps make each point take about 2 s, so that the sweep that wins the directory
  // is still running when the other one starts, also on a loaded machine (with adaptive
  // steps a point took 0.3 s, and a sweep started a second late found the first complete)
  const std::string run = std::string("\"") + GRANULAR_EXECUTABLE + "\" \"" + prm +
                          "\" --set \"Loading/Time step=5e-4\"" +
                          " --set \"Solver/Time step control=fixed\"";
  // both started together; each writes its exit status when it ends
  const std::string script = "(" + run + " > \"" + dir + "/a.log\" 2>&1; echo $? > \"" + dir +
                             "/a.status\") & (" + run + " > \"" + dir + "/b.log\" 2>&1; echo $? > \"" +
                             dir + "/b.status\") & wait";
  const auto start = std::chrono::steady_clock::now();
  ASSERT_EQ(std::system(("bash -c '" + script + "'").c_str()), 0);
  const int a = std::stoi(read_text(dir + "/a.status"));
  const int b = std::stoi(read_text(dir + "/b.status"));
  const std::string refused_log = read_text(dir + (a == 2 ? "/a.log" : "/b.log"));
  ASSERT_EQ(std::min(a, b), 0) << read_text(dir + "/a.log") << read_text(dir + "/b.log");
  ASSERT_EQ(std::max(a, b), 2) << read_text(dir + "/a.log") << read_text(dir + "/b.log");
  EXPECT_NE(refused_log.find(out + " is the output directory of another run that is still "
                                   "running"),
            std::string::npos)
    << refused_log;
  EXPECT_NE(refused_log.find("Output/Output directory"), std::string::npos) << refused_log;
  EXPECT_EQ(refused_log.find("sweep of"), std::string::npos) << "the refused sweep started";
  const auto rows = read_csv(out + "/sweep.csv");
  ASSERT_EQ(rows.size(), 2u);
  for (const Row &r : rows)
    EXPECT_EQ(r.at("status"), "ok") << r.at("name") << ": " << r.at("error");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(60));
}

// The durations of the progress lines read back: the sweep takes each running point's time
// left from the "left ~" of its run.log, so duration_seconds() must invert duration_text()
// to within the text's rounding (a second below 2 min, half a minute above), and reject
// what is not a duration.
TEST(SweepProgress, DurationTextReadsBack)
{
  using granular::coupling::duration_seconds;
  using granular::coupling::duration_text;
  for (const double s : {0., 5., 42., 119., 120., 1000., 3599., 3600., 3630., 7322., 36000.})
    EXPECT_NEAR(duration_seconds(duration_text(s)), s, s < 120. ? 0.5 : 30.) << duration_text(s);
  EXPECT_DOUBLE_EQ(duration_seconds("3 h 05 min"), 3. * 3600. + 5. * 60.);
  EXPECT_DOUBLE_EQ(duration_seconds("17 min\n    averaging  t/T0 = 4.1"), 17. * 60.);
  EXPECT_DOUBLE_EQ(duration_seconds("  42 s"), 42.);
  for (const char *text : {"", "abc", "5 days", "3 h", "3 h 5 s", "-4 min", "min 4"})
    EXPECT_LT(duration_seconds(text), 0.) << '"' << text << '"';
}

// The sweep's time left follows its dynamic distribution (sweep_runner.h): ranks finish
// their running points, then each free rank takes the next waiting point. It is never less
// than the longest running point nor than the remaining work shared evenly among the
// ranks, and at most one point's cost more than that share unless a running point ends
// later (the bound of greedy list scheduling). A sweep whose one slow point runs beside
// finished ones is not estimated from the pace of the finished ones.
TEST(SweepProgress, TimeLeftFollowsTheDynamicDistribution)
{
  using granular::sweep_seconds_left;
  EXPECT_DOUBLE_EQ(sweep_seconds_left({}, 0, 100., 2), 0.);
  // one rank: the points one after the other
  EXPECT_DOUBLE_EQ(sweep_seconds_left({600.}, 2, 1000., 1), 2600.);
  // the waiting point goes to the rank free first; the long point ends last
  EXPECT_DOUBLE_EQ(sweep_seconds_left({3600., 600.}, 1, 1800., 2), 3600.);
  // an idle rank takes a waiting point at once
  EXPECT_DOUBLE_EQ(sweep_seconds_left({300.}, 1, 1000., 2), 1000.);
  // 2 ranks free at 600 s, 3 points of 1000 s: 1600, 1600, then 2600
  EXPECT_DOUBLE_EQ(sweep_seconds_left({600., 600.}, 3, 1000., 2), 2600.);
  // only the last point running: its own estimate
  EXPECT_DOUBLE_EQ(sweep_seconds_left({2400.}, 0, 300., 2), 2400.);
  // the bounds, over a range of cases
  for (unsigned int ranks = 1; ranks <= 4; ++ranks)
    for (std::size_t waiting = 0; waiting <= 7; ++waiting)
      {
        std::vector<double> running;
        for (unsigned int r = 0; r < ranks; ++r)
          running.push_back(100. * (r + 1) * (r + 2));
        const double cost  = 250.;
        const double left  = sweep_seconds_left(running, waiting, cost, ranks);
        double       total = waiting * cost;
        for (const double s : running)
          total += s;
        const double longest = *std::max_element(running.begin(), running.end());
        EXPECT_GE(left, longest);
        EXPECT_GE(left, total / ranks - 1e-9);
        EXPECT_LE(left, std::max(longest, total / ranks + cost) + 1e-9);
      }
  EXPECT_THROW(sweep_seconds_left({}, 1, 100., 0), std::invalid_argument);
  EXPECT_THROW(sweep_seconds_left({1., 2., 3.}, 0, 100., 2), std::invalid_argument);
  EXPECT_THROW(sweep_seconds_left({-1.}, 0, 100., 2), std::invalid_argument);
  EXPECT_THROW(sweep_seconds_left({1.}, 1, -100., 2), std::invalid_argument);
}
