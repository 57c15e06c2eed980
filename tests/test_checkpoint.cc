// Checkpoint/restart of a single run (Output/Checkpoint interval, --restart): a run
// stopped by SIGTERM and restarted from its checkpoint.bin produces bit for bit the
// history and summary of the uninterrupted run; a restart with other physics is rejected
// before any output is touched.
#include "coupling/micromechanical_run.h"
#include "program/command_line.h"
#include "test_helpers.h"
#include "base/directory_lock.h"
#include "base/parameter_error.h"
#include "base/physics_entries.h"
#include "base/source_revision.h"

#include <deal.II/base/parameter_handler.h>

#include <gtest/gtest.h>

#include <cmath>
#include <csignal>
#include <filesystem>
#include <functional>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <sys/stat.h>

namespace
{
  namespace fs = std::filesystem;

  using granular::testing::read_file;

  /// The reduced cell of the coupled tests (L0 = 3 mm, here 8 x 4) with the elliptical particle,
  /// which rolls over during the run, and a viscoelastic rubber, so that every kind of
  /// history is in the state: the Maxwell branch per quadrature point, the rubber-surface
  /// and rubber-particle stick points, the particle's
  /// contact history, the moving average of kI and the energy accumulators. Delta t =
  /// 1e-3 T0 (monolithic coupling), window 0.2 T0: 2200 steps.
  granular::CommandLineOptions reduced_case(const std::string &name)
  {
    granular::CommandLineOptions options;
    options.parameter_file   = std::string(GRANULAR_SOURCE_DIR) + "/params/circular.prm";
    options.output_directory = (fs::temp_directory_path() / ("granular-test-" + name)).string();
    options.set_entries      = {"Geometry/Block length=3",
                                "Geometry/Block height=1.5",
                                "Geometry/Elements in x=8",
                                "Geometry/Elements in y=4",
                                "Particle/Shape=elliptical",
                                "Rubber/Maxwell branch/Viscoelastic=true",
                                "Loading/Time step=1e-3",
                                "Loading/Averaging time=0.2",
                                "Output/VTU output interval=500",
                                "Output/Progress interval=100",
                                "Output/Checkpoint interval=0",
                                "Output/Checkpoint step interval=300"};
    return options;
  }

  granular::RunSummary run(const granular::CommandLineOptions &options,
                           const std::function<void()>       &after_each_step = {})
  {
    dealii::ParameterHandler prm;
    const auto               P = granular::read_parameters(options, prm);
    return granular::run_micromechanical_test(P, prm, after_each_step);
  }

  /// The reduced case @p name run from scratch and stopped by a request after 300 steps,
  /// so that its output directory holds the checkpoint of that step; its options.
  granular::CommandLineOptions stopped_reduced_case(const std::string &name)
  {
    auto options = reduced_case(name);
    fs::remove_all(options.output_directory);
    unsigned int steps = 0;
    EXPECT_THROW(run(options,
                     [&]() {
                       if (++steps == 300)
                         granular::request_checkpoint_and_stop();
                     }),
                 granular::RunInterrupted);
    return options;
  }

  /// summary.csv without the timing columns (wall time and TimerOutput sections).
  std::string summary_without_times(const std::string &dir)
  {
    std::istringstream       in(read_file(dir + "/summary.csv"));
    std::string              header, row, h, v;
    std::getline(in, header);
    std::getline(in, row);
    std::istringstream       hs(header), rs(row);
    std::string              kept;
    while (std::getline(hs, h, ',') && std::getline(rs, v, ','))
      if (h != "wall_time" && h.rfind("time_", 0) != 0)
        kept += h + "=" + v + " ";
    return kept;
  }
} // namespace

namespace
{
  /// Runs the reduced case with @p extra entries uninterrupted, then again stopped by
  /// SIGTERM after its @p stop_fraction of computed steps (in the averaging window, after
  /// the particle has rolled over) and restarted, and expects the same history, summary
  /// and .pvd records bit for bit; the uninterrupted run's summary in @p summary if given.
  void expect_restart_repeats_the_uninterrupted_run(const std::string              &name,
                                                    const std::vector<std::string> &extra,
                                                    const double stop_fraction,
                                                    granular::RunSummary *summary = nullptr)
  {
    // uninterrupted and without checkpoints; the interrupted run below writes one every
    // 300 reference steps, so the comparison also shows that writing a checkpoint does not
    // change a run
    auto uninterrupted = reduced_case(name + "-a");
    uninterrupted.set_entries.insert(uninterrupted.set_entries.end(), extra.begin(),
                                     extra.end());
    uninterrupted.set_entries.push_back("Output/Checkpoint step interval=0");
    fs::remove_all(uninterrupted.output_directory);
    const granular::RunSummary a = run(uninterrupted);
    if (summary)
      *summary = a;
    EXPECT_FALSE(fs::exists(uninterrupted.output_directory + "/checkpoint.bin"))
      << "a completed run leaves no checkpoint";

    auto interrupted = reduced_case(name + "-b");
    interrupted.set_entries.insert(interrupted.set_entries.end(), extra.begin(), extra.end());
    fs::remove_all(interrupted.output_directory);
    const unsigned int stop_step =
      static_cast<unsigned int>(stop_fraction * a.steps); // computed steps
    unsigned int steps = 0;
    try
      {
        run(interrupted, [&]() {
          if (++steps == stop_step)
            std::raise(SIGTERM); // the run's handler turns it into a checkpoint and a stop
        });
        FAIL() << "SIGTERM did not stop the run";
      }
    catch (const granular::RunInterrupted &e)
      {
        EXPECT_EQ(e.signal(), SIGTERM);
        EXPECT_NE(std::string(e.what()).find("--restart"), std::string::npos) << e.what();
      }
    const std::string dir = interrupted.output_directory;
    ASSERT_TRUE(fs::exists(dir + "/checkpoint.bin"));
    EXPECT_FALSE(fs::exists(dir + "/summary.csv"));
    EXPECT_EQ(std::signal(SIGTERM, SIG_DFL), SIG_DFL) << "the run left its handler installed";

    // restart; entries of subsection Output may differ
    auto restart = interrupted;
    restart.restart = true;
    restart.set_entries.push_back("Output/Progress interval=50");
    const granular::RunSummary b = run(restart);

    EXPECT_EQ(read_file(uninterrupted.output_directory + "/history.csv"),
              read_file(dir + "/history.csv"));
    EXPECT_EQ(summary_without_times(uninterrupted.output_directory),
              summary_without_times(dir));
    EXPECT_EQ(a.kbar, b.kbar);
    EXPECT_EQ(a.steps, b.steps);
    EXPECT_EQ(a.newton_iterations, b.newton_iterations);
    EXPECT_EQ(a.factorizations, b.factorizations);
    EXPECT_GT(b.dissipation_viscous, 0.);
    {
      // the state at the stop was not a trivial one: the ellipse had turned over
      const std::string history = read_file(dir + "/history.csv");
      std::istringstream last(history.substr(history.rfind('\n', history.size() - 2) + 1));
      std::string        value;
      for (unsigned int column = 0; column <= 10; ++column) // particle_theta
        std::getline(last, value, ',');
      EXPECT_GT(std::abs(std::stod(value)), 1.5) << "theta = " << value;
    }
    // the ParaView collections list every output once, also those written before the stop,
    // and every VTU file is that of the uninterrupted run, bit for bit
    for (const std::string pvd : {"solution.pvd", "particle.pvd", "surface.pvd"})
      EXPECT_EQ(read_file(uninterrupted.output_directory + "/" + pvd),
                read_file(dir + "/" + pvd))
        << pvd;
    EXPECT_NE(read_file(dir + "/particle.pvd").find("particle-02000.vtu"), std::string::npos);
    unsigned int vtu_files = 0;
    for (const auto &entry : fs::directory_iterator(uninterrupted.output_directory))
      if (entry.path().extension() == ".vtu")
        {
          ++vtu_files;
          const std::string name = entry.path().filename().string();
          EXPECT_EQ(read_file(entry.path().string()), read_file(dir + "/" + name)) << name;
        }
    EXPECT_EQ(vtu_files, 3u * 5u); // solution, particle, surface at t = 0, 500 ... 2000 dt
    EXPECT_FALSE(fs::exists(dir + "/checkpoint.bin"));
    EXPECT_EQ(a.rejected_steps, b.rejected_steps);
  }
} // namespace

TEST(Checkpoint, RestartAfterSigtermRepeatsTheUninterruptedRun)
{
  // fixed steps: stopped at step 2100 of 2200
  expect_restart_repeats_the_uninterrupted_run(
    "checkpoint", {"Solver/Time step control=fixed"}, 2100. / 2200.);
}

TEST(Checkpoint, RestartWithTheRubberParticleStepForceRepeatsTheUninterruptedRun)
{
  // the rubber-particle contact over the step (docs/methods.md §5.5): its tangential gaps at
  // t_n travel with the checkpoint (format 9); stopped at step 2100 of 2200
  expect_restart_repeats_the_uninterrupted_run(
    "checkpoint-rubber-dg",
    {"Solver/Time step control=fixed", "Solver/Rubber-particle contact forces=discrete gradient"},
    2100. / 2200.);
}

TEST(Checkpoint, RestartWithTheDampedPredictorRepeatsTheUninterruptedRun)
{
  // Solver/Damped predictor steps: the solves left that start from the damped predictor
  // travel with the checkpoint. Kept for 100 000 solves, they are set at the first Newton
  // failure and still damp the predictor at the stop (step 2100 of 2200); a restart that
  // extrapolated fully would take another Newton path
  granular::RunSummary a;
  expect_restart_repeats_the_uninterrupted_run(
    "checkpoint-damped-predictor",
    {"Solver/Time step control=fixed", "Solver/Damped predictor steps=100000"}, 2100. / 2200.,
    &a);
  EXPECT_GT(a.cutbacks, 0u);
}

TEST(Checkpoint, RestartOfAnAdaptiveRunRepeatsTheUninterruptedRun)
{
  // adaptive steps: the step control's state and the last history row (from which the
  // rows of long steps are interpolated) travel with the checkpoint; with step rejection
  // (the default), also the count of rejected steps, and a rejected step after the restart
  // is repeated from the state the restarted process kept (stopped after 80 % of its
  // computed steps, at t/T0 = 2.0, this run rejects 11 steps before the stop and one after)
  granular::RunSummary a;
  expect_restart_repeats_the_uninterrupted_run(
    "checkpoint-adaptive", {"Solver/Time step control=adaptive"}, 0.8, &a);
  EXPECT_GT(a.rejected_steps, 0u);
}

TEST(Checkpoint, RestartWithOtherPhysicsIsRejectedBeforeAnythingIsTouched)
{
  const auto        options = stopped_reduced_case("checkpoint-c");
  const std::string dir     = options.output_directory;
  ASSERT_TRUE(fs::exists(dir + "/checkpoint.bin"));
  const std::string history    = read_file(dir + "/history.csv");
  const std::string parameters = read_file(dir + "/parameters.prm");
  const std::string checkpoint = read_file(dir + "/checkpoint.bin");

  auto other = options;
  other.restart = true;
  other.set_entries.push_back("Loading/Pressure=3");
  try
    {
      run(other);
      FAIL() << "a restart with another pressure was accepted";
    }
  catch (const granular::ParameterError &e)
    {
      EXPECT_EQ(e.entry(), "Loading/Pressure") << e.what();
      EXPECT_NE(std::string(e.what()).find("\"2\" in the checkpoint, \"3\" now"),
                std::string::npos)
        << e.what();
    }
  EXPECT_EQ(read_file(dir + "/history.csv"), history);
  EXPECT_EQ(read_file(dir + "/parameters.prm"), parameters);
  EXPECT_EQ(read_file(dir + "/checkpoint.bin"), checkpoint);

  // a directory without a checkpoint
  auto elsewhere             = options;
  elsewhere.restart          = true;
  elsewhere.output_directory = dir + "-empty";
  fs::remove_all(elsewhere.output_directory);
  try
    {
      run(elsewhere);
      FAIL() << "a restart without checkpoint.bin was accepted";
    }
  catch (const std::runtime_error &e)
    {
      EXPECT_NE(std::string(e.what()).find("checkpoint.bin"), std::string::npos) << e.what();
    }
  EXPECT_FALSE(fs::exists(elsewhere.output_directory));

  // a run started afresh in the directory is refused (the stopped run's files are kept) ...
  auto fresh = options;
  fresh.set_entries.push_back("Loading/Averaging time=0.001"); // ends at once after 2 T0
  fresh.set_entries.push_back("Output/Checkpoint step interval=0");
  fresh.set_entries.push_back("Output/Checkpoint interval=0");
  EXPECT_THROW(run(fresh), granular::ParameterError);
  EXPECT_EQ(read_file(dir + "/checkpoint.bin"), checkpoint);
  // ... unless --overwrite: it discards the old checkpoint (so a later --restart cannot mix
  // two runs)
  fresh.overwrite = true;
  run(fresh);
  EXPECT_FALSE(fs::exists(dir + "/checkpoint.bin"));
}

// A restart appends to history.csv and energy.csv from their sizes at the checkpoint: if
// either is shorter than that, or missing, the restart is refused before anything is touched
// (energy.csv was padded with NUL bytes, or a raw "cannot resize file" came after
// parameters.prm had been rewritten).
TEST(Checkpoint, RecordsShorterThanAtTheCheckpointAreRefused)
{
  const auto        options = stopped_reduced_case("checkpoint-records");
  const std::string dir     = options.output_directory;
  ASSERT_TRUE(fs::exists(dir + "/checkpoint.bin"));
  auto restart    = options;
  restart.restart = true;
  restart.set_entries.push_back("Output/Progress interval=50"); // parameters.prm would change
  for (const std::string name : {"energy.csv", "history.csv"})
    for (const bool missing : {false, true})
      {
        const std::string path  = dir + "/" + name;
        const std::string whole = read_file(path);
        if (missing)
          fs::remove(path);
        else
          fs::resize_file(path, whole.size() - 10);
        const std::string parameters = read_file(dir + "/parameters.prm");
        const std::string other      = read_file(dir + "/" + (name == "energy.csv" ? "history.csv" :
                                                                                      "energy.csv"));
        try
          {
            run(restart);
            ADD_FAILURE() << "a restart with " << name << (missing ? " missing" : " cut short")
                          << " was accepted";
          }
        catch (const std::runtime_error &e)
          {
            const std::string why = missing ? name + " is missing" :
                                              name + " is shorter than at the checkpoint";
            EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
          }
        EXPECT_EQ(read_file(dir + "/parameters.prm"), parameters) << name;
        EXPECT_EQ(read_file(dir + "/" + (name == "energy.csv" ? "history.csv" : "energy.csv")),
                  other)
          << name;
        EXPECT_EQ(fs::exists(path), !missing) << name;
        std::ofstream(path, std::ios::binary) << whole;
      }
}


// A restart, and a resumed sweep, continue only on the mesh the run started with: a mesh
// file changed on disk under the same name is refused naming Geometry/Mesh file (the rest of
// the run was computed on the other mesh and mixed with the first part), and so is the same
// relative name read from another working directory.
TEST(Checkpoint, RestartOnAChangedMeshFileIsRefused)
{
  const std::string mesh_dir = granular::testing::scratch_directory("checkpoint-mesh-files");
  fs::create_directories(mesh_dir + "/a");
  fs::create_directories(mesh_dir + "/b");
  const std::string mesh = mesh_dir + "/a/reduced.msh";
  granular::testing::write_structured_msh(mesh, 3., 1.5, 8, 4, 0.);
  granular::testing::write_structured_msh(mesh_dir + "/b/reduced.msh", 3., 1.5, 8, 4, 0.05);

  auto options = reduced_case("checkpoint-mesh");
  options.set_entries.push_back("Geometry/Mesh file=" + mesh);
  fs::remove_all(options.output_directory);
  unsigned int steps = 0;
  EXPECT_THROW(run(options,
                   [&]() {
                     if (++steps == 100)
                       granular::request_checkpoint_and_stop();
                   }),
               granular::RunInterrupted);
  const std::string dir = options.output_directory;
  ASSERT_TRUE(fs::exists(dir + "/checkpoint.bin"));
  EXPECT_EQ(granular::mesh_file_identity_in(read_file(dir + "/parameters.prm")),
            granular::mesh_file_identity(mesh));
  // the build's source revision follows the mesh file's comment, before the entries
  EXPECT_EQ(read_file(dir + "/parameters.prm").find(granular::source_revision_comment()),
            granular::mesh_file_comment(mesh).size());
  const std::string history = read_file(dir + "/history.csv");

  granular::testing::write_structured_msh(mesh, 3., 1.5, 8, 4, 0.05); // another valid mesh
  auto restart    = options;
  restart.restart = true;
  try
    {
      run(restart);
      FAIL() << "a restart on a changed mesh file was accepted";
    }
  catch (const granular::ParameterError &e)
    {
      EXPECT_EQ(e.entry(), "Geometry/Mesh file") << e.what();
    }
  EXPECT_EQ(read_file(dir + "/history.csv"), history);

  // the same relative name from two working directories names two files
  const fs::path cwd = fs::current_path();
  fs::current_path(mesh_dir + "/a");
  const std::string in_a = granular::mesh_file_identity("reduced.msh");
  fs::current_path(mesh_dir + "/b");
  const std::string in_b = granular::mesh_file_identity("reduced.msh");
  fs::current_path(cwd);
  EXPECT_NE(in_a, in_b);
  EXPECT_NE(in_b.find(mesh_dir + "/b/reduced.msh ("), std::string::npos) << in_b;
}

// A checkpoint.bin that is not a regular file (a FIFO) is refused at once: it was read
// without bound, ignoring SIGTERM.
TEST(Checkpoint, CheckpointThatIsNotARegularFileIsRefused)
{
  auto options    = reduced_case("checkpoint-fifo");
  options.restart = true;
  fs::remove_all(options.output_directory);
  fs::create_directories(options.output_directory);
  const std::string fifo = options.output_directory + "/checkpoint.bin";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  try
    {
      run(options);
      FAIL() << "a FIFO was read as a checkpoint";
    }
  catch (const std::runtime_error &e)
    {
      EXPECT_NE(std::string(e.what()).find(fifo + " is not a regular file"), std::string::npos)
        << e.what();
    }
}

// A checkpoint is used only if it is whole and this program wrote it: one byte changed in
// the middle of its payload, a truncated file, or another program version in its header is
// refused, naming the file and what is wrong, and nothing in the directory is touched; the
// undamaged checkpoint then restarts the run.
TEST(Checkpoint, DamagedOrForeignCheckpointIsRefused)
{
  const auto        options = stopped_reduced_case("checkpoint-damaged");
  const std::string dir     = options.output_directory;
  const std::string path       = dir + "/checkpoint.bin";
  const std::string checkpoint = read_file(path);
  const std::string history    = read_file(dir + "/history.csv");
  ASSERT_GT(checkpoint.size(), 1000u);

  auto restart    = options;
  restart.restart = true;
  const auto expect_refused = [&](const std::string &damaged, const std::string &why) {
    {
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      out << damaged;
    }
    try
      {
        run(restart);
        ADD_FAILURE() << "a checkpoint that " << why << " was used";
      }
    catch (const granular::RunInterrupted &)
      {
        ADD_FAILURE() << why;
      }
    catch (const std::runtime_error &e)
      {
        const std::string message = e.what();
        EXPECT_NE(message.find(path), std::string::npos) << message;
        EXPECT_NE(message.find(why), std::string::npos) << message;
      }
    EXPECT_EQ(read_file(dir + "/history.csv"), history) << why;
    EXPECT_FALSE(fs::exists(dir + "/summary.csv")) << why;
  };
  std::string flipped = checkpoint;
  flipped[flipped.size() / 2] ^= 0x10;
  expect_refused(flipped, "damaged: the CRC-32");
  expect_refused(checkpoint.substr(0, checkpoint.size() - 100), "truncated");
  std::string foreign = checkpoint;
  const auto  at      = foreign.find("program ");
  ASSERT_NE(at, std::string::npos);
  foreign.insert(at + 8, "1.");
  expect_refused(foreign, "written by program 1.");

  // the checkpoint as written restarts the run to its end
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << checkpoint;
  }
  EXPECT_GT(run(restart).kbar, 0.);
  EXPECT_FALSE(fs::exists(path));
}

// A run killed at any time after a checkpoint (SIGKILL: no chance to write another) and
// restarted from it repeats the uninterrupted run bit for bit, also with adaptive time
// steps: the step control and the energy measure it chooses the next step from travel with
// the checkpoint. The kill is emulated by copying the output directory as it is right after
// the first checkpoint (at t = T0, a landmark) while the run goes on.
TEST(Checkpoint, RestartAfterAKillRepeatsTheUninterruptedAdaptiveRun)
{
  granular::CommandLineOptions options;
  options.parameter_file   = std::string(GRANULAR_SOURCE_DIR) + "/params/elliptical.prm";
  options.output_directory = (fs::temp_directory_path() / "granular-test-killed").string();
  options.set_entries      = {"Geometry/Block length=3",        "Geometry/Block height=1.5",
                              "Geometry/Elements in x=12",      "Geometry/Elements in y=6",
                              "Loading/Time step=5e-4",         "Loading/Averaging time=0.25",
                              "Output/VTU output interval=0",   "Output/Progress interval=100",
                              "Output/Checkpoint interval=0",   "Output/Checkpoint step interval=2000",
                              "Solver/Time step control=adaptive"};
  const std::string dir    = options.output_directory;
  const std::string killed = dir + "-killed";
  fs::remove_all(dir);
  fs::remove_all(killed);
  bool copied = false;
  run(options, [&]() {
    if (!copied && fs::exists(dir + "/checkpoint.bin"))
      {
        fs::copy(dir, killed);
        copied = true;
      }
  });
  ASSERT_TRUE(copied);

  auto restart             = options;
  restart.output_directory = killed;
  restart.restart          = true;
  run(restart);
  EXPECT_EQ(read_file(dir + "/history.csv"), read_file(killed + "/history.csv"));
  EXPECT_EQ(summary_without_times(dir), summary_without_times(killed));
}

// One run per output directory: while a run holds its output directory (here: a lock held by
// the test, as a second process would), another run started there, fresh or --restart, is
// refused with ParameterError naming Output/Output directory and touches nothing; once the
// lock is released it runs.
TEST(OutputDirectory, ASecondRunOnTheSameDirectoryIsRefused)
{
  auto options = reduced_case("locked");
  options.set_entries.push_back("Loading/Averaging time=0.001"); // ends soon after 2 T0
  options.set_entries.push_back("Output/Checkpoint step interval=0");
  const std::string dir = options.output_directory;
  fs::remove_all(dir);
  fs::create_directories(dir);
  {
    std::ofstream(dir + "/history.csv") << "rows of the other run\n";
    granular::DirectoryLock other_run(dir);
    for (const bool restart : {false, true})
      {
        auto second    = options;
        second.restart = restart;
        try
          {
            run(second);
            ADD_FAILURE() << "a second run on a locked directory was started";
          }
        catch (const granular::ParameterError &e)
          {
            EXPECT_EQ(e.entry(), "Output/Output directory") << e.what();
            EXPECT_NE(std::string(e.what()).find("another run"), std::string::npos) << e.what();
          }
        EXPECT_EQ(read_file(dir + "/history.csv"), "rows of the other run\n");
      }
  }
  options.overwrite = true;
  EXPECT_GT(run(options).steps, 0u);
}

// The temporary files of atomic writes that a killed run left (NAME.tmp.PID) are removed by
// the next run in the directory, which holds its lock; other files stay.
TEST(OutputDirectory, TemporaryFilesOfAKilledRunAreRemoved)
{
  auto options = reduced_case("stale-temporaries");
  options.set_entries.push_back("Loading/Averaging time=0.001");
  options.set_entries.push_back("Output/Checkpoint step interval=0");
  const std::string dir = options.output_directory;
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const std::string name : {"summary.csv.tmp.4242", "checkpoint.bin.tmp.7",
                                 "notes.tmp.txt", "my.tmp."})
    std::ofstream(dir + "/" + name) << "x";
  run(options);
  EXPECT_FALSE(fs::exists(dir + "/summary.csv.tmp.4242"));
  EXPECT_FALSE(fs::exists(dir + "/checkpoint.bin.tmp.7"));
  EXPECT_TRUE(fs::exists(dir + "/notes.tmp.txt"));
  EXPECT_TRUE(fs::exists(dir + "/my.tmp."));
  EXPECT_TRUE(fs::exists(dir + "/summary.csv"));
  // and the run's own atomic writes left none
  for (const auto &entry : fs::directory_iterator(dir))
    EXPECT_FALSE(std::regex_search(entry.path().filename().string(),
                                   std::regex("\\.tmp\\.[0-9]+$")))
      << entry.path() << " left behind";
}
