// Recorded Newton attempts and their replay (Output/Record failed attempts, replay-attempt;
// docs/performance.md#replaying-hard-steps): recording does not change the run, and a
// recorded attempt replayed with the recorded parameters repeats its iterations bit for
// bit, while another solver setting changes them.
#include "coupling/attempt_record.h"
#include "coupling/micromechanical_run.h"
#include "base/csv_fields.h"
#include "program/command_line.h"
#include "test_helpers.h"

#include <deal.II/base/parameter_handler.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace
{
  namespace fs = std::filesystem;
  using granular::testing::read_file;

  /// The reduced cell (L0 = 3 mm, 8 x 4) with the rectangular particle, which rolls over:
  /// its first steps fail and are cut back. 2.05 T0, about 10 000 steps.
  granular::CommandLineOptions reduced_rectangle(const std::string &name, bool record)
  {
    granular::CommandLineOptions options;
    options.parameter_file   = std::string(GRANULAR_SOURCE_DIR) + "/params/circular.prm";
    options.output_directory = granular::testing::scratch_directory(name);
    options.set_entries = {"Geometry/Block length=3",      "Geometry/Block height=1.5",
                           "Geometry/Elements in x=8",     "Geometry/Elements in y=4",
                           "Particle/Shape=rectangular",   "Loading/Time step=1.25e-4",
                           "Loading/Averaging time=0.05",  "Output/VTU output interval=0",
                           "Output/Progress interval=1000", "Output/Checkpoint interval=0"};
    if (record)
      {
        options.record_failed_attempts  = 3;
        options.record_attempt_interval = 4000;
      }
    return options;
  }

  void run(const granular::CommandLineOptions &options)
  {
    dealii::ParameterHandler prm;
    const auto               P = granular::read_parameters(options, prm);
    granular::run_micromechanical_test(P, prm);
  }

  /// The lines of attempts.csv after its header.
  std::vector<std::string> attempt_rows(const std::string &dir)
  {
    std::ifstream            in(dir + "/attempts/attempts.csv");
    std::vector<std::string> rows;
    std::string              line;
    std::getline(in, line);
    while (std::getline(in, line))
      rows.push_back(line);
    return rows;
  }
} // namespace

TEST(AttemptReplay, RecordedAttemptsReplayBitForBitAndRecordingChangesNothing)
{
  const auto plain    = reduced_rectangle("attempts-plain", false);
  const auto recorded = reduced_rectangle("attempts-recorded", true);
  run(plain);
  run(recorded);
  // the run is the same with and without recording
  EXPECT_EQ(read_file(plain.output_directory + "/history.csv"),
            read_file(recorded.output_directory + "/history.csv"));
  EXPECT_FALSE(fs::exists(plain.output_directory + "/attempts"));

  // the first 3 failed attempts and every 4000th attempt
  const std::vector<std::string> rows = attempt_rows(recorded.output_directory);
  unsigned int failed = 0, converged = 0;
  for (const std::string &row : rows)
    if (granular::nth_csv_field(row, 5).value_or("") == "0")
      ++failed;
    else
      ++converged;
  EXPECT_EQ(failed, 3u);
  EXPECT_GE(converged, 2u);

  // each replayed with the recorded parameters: the same iterations, bit for bit; the
  // failed ones with more Stall iterations: other iterations
  unsigned int changed = 0;
  for (unsigned int i = 0; i < rows.size(); ++i)
    {
      const std::string file = recorded.output_directory + "/attempts/" +
                               *granular::nth_csv_field(rows[i], 0);
      SCOPED_TRACE(file);
      const granular::coupling::AttemptRecord record =
        granular::coupling::read_attempt_record(file);
      EXPECT_EQ(record.parameters, read_file(recorded.output_directory + "/parameters.prm"));
      const granular::ProgramParameters P =
        granular::read_parameters_text(record.parameters, {});
      const granular::coupling::RubberSolveAttempt again =
        granular::coupling::replay_attempt(record, P);
      EXPECT_TRUE(granular::coupling::same_attempt(again, record.attempt))
        << "recorded:\n"
        << granular::coupling::attempt_text(record.attempt) << "replayed:\n"
        << granular::coupling::attempt_text(again);
      if (!record.attempt.converged)
        {
          const granular::ProgramParameters Q =
            granular::read_parameters_text(record.parameters, {"Solver/Stall iterations=25"});
          changed += granular::coupling::same_attempt(granular::coupling::replay_attempt(record, Q),
                                                      record.attempt) ?
                       0 :
                       1;
        }
    }
  EXPECT_EQ(changed, 3u);

  // the program: --expect-same holds with the recorded parameters, not with others
  const std::string first = recorded.output_directory + "/attempts/attempt-000000.bin";
  const std::string log   = recorded.output_directory + "/replay.log";
  const std::string exe   = REPLAY_ATTEMPT_EXECUTABLE;
  EXPECT_EQ(std::system((exe + " --expect-same --cut-backs " + first + " > " + log + " 2>&1")
                          .c_str()),
            0)
    << read_file(log);
  EXPECT_NE(read_file(log).find("same as recorded, bit for bit: yes"), std::string::npos);
  EXPECT_NE(read_file(log).find("with cut-backs: solved"), std::string::npos) << read_file(log);
  EXPECT_NE(std::system((exe + " --expect-same --set \"Solver/Stall iterations=25\" " + first +
                         " > " + log + " 2>&1")
                          .c_str()),
            0)
    << read_file(log);
  EXPECT_NE(std::system((exe + " " + recorded.output_directory + "/parameters.prm > " + log +
                         " 2>&1")
                          .c_str()),
            0);
  EXPECT_NE(read_file(log).find("is not an attempt record"), std::string::npos) << read_file(log);
}
