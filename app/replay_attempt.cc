// replay-attempt: solves recorded Newton attempts of the rubber solve again, with the
// recorded or other solver settings (docs/performance.md#replaying-hard-steps). Thin:
// parse, replay, report.
#include "coupling/attempt_record.h"
#include "program/command_line.h"

#include <deal.II/base/mpi.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>

namespace
{
  const char *usage =
    "Usage: replay-attempt [--set \"Sub/section/Entry=value\"]... [--cut-backs] [--verbose]\n"
    "                      [--expect-same] ATTEMPT.bin...\n"
    "\n"
    "Solves each recorded Newton attempt of the rubber solve again from the state it\n"
    "started from (a run writes them with Output/Record failed attempts or Record attempt\n"
    "interval, to OUTPUT/attempts/), with the parameters of its run changed by every --set\n"
    "(a solver setting to judge), and prints the recorded and the replayed attempt: outcome,\n"
    "Newton iterations, assemblies, factorizations, |r|/F at the iterates.\n"
    "\n"
    "  --cut-backs     also solve the attempt's interval as a run would, halving on a\n"
    "                  failure (Solver/Maximum cut-backs), and print its cost\n"
    "  --verbose       one line per Newton iteration (Output/Verbose)\n"
    "  --expect-same   exit with status 1 unless every replay repeats its recorded\n"
    "                  attempt bit for bit (without --set: a check of the record)\n"
    "\n"
    "Ends with a table of all attempts. Exit status 0, 1 (--expect-same failed), 2 (bad\n"
    "command line or unreadable record).\n";

  double seconds_since(const std::chrono::steady_clock::time_point &start)
  {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
} // namespace

int main(int argc, char **argv)
{
  using namespace granular;
  dealii::Utilities::MPI::MPI_InitFinalize mpi(argc, argv, 1);
  std::vector<std::string> sets, files;
  bool                     cut_backs = false, verbose = false, expect_same = false;
  for (int i = 1; i < argc; ++i)
    {
      const std::string a = argv[i];
      if (a == "--help" || a == "-h")
        {
          std::cout << usage;
          return 0;
        }
      if (a == "--set" && i + 1 < argc)
        sets.push_back(argv[++i]);
      else if (a == "--cut-backs")
        cut_backs = true;
      else if (a == "--verbose")
        verbose = true;
      else if (a == "--expect-same")
        expect_same = true;
      else if (a.rfind("-", 0) == 0)
        {
          std::cerr << "replay-attempt: unknown or incomplete option " << a << "\n" << usage;
          return 2;
        }
      else
        files.push_back(a);
    }
  if (files.empty())
    {
      std::cerr << "replay-attempt: give at least one attempt record\n" << usage;
      return 2;
    }
  std::string table = "attempt                              recorded              replayed\n";
  unsigned int differ = 0, converged_recorded = 0, converged_replayed = 0;
  unsigned long assemblies_recorded = 0, assemblies_replayed = 0;
  for (const std::string &file : files)
    try
      {
        const coupling::AttemptRecord record = coupling::read_attempt_record(file);
        ProgramParameters P = read_parameters_text(record.parameters, sets);
        P.output.verbose    = verbose;

        std::cout << "replay-attempt: " << file << "\nrecorded:\n"
                  << coupling::attempt_text(record.attempt) << "replayed:\n"
                  << std::flush;
        const auto                         start = std::chrono::steady_clock::now();
        const coupling::RubberSolveAttempt a     = coupling::replay_attempt(record, P);
        std::cout << coupling::attempt_text(a) << "  wall time "
                  << seconds_since(start) << " s\n";
        const bool same = coupling::same_attempt(a, record.attempt);
        std::cout << "  same as recorded, bit for bit: " << (same ? "yes" : "no") << "\n";
        differ += same ? 0 : 1;
        if (cut_backs)
          {
            const auto                    t = std::chrono::steady_clock::now();
            const coupling::CutBackReplay c = coupling::replay_with_cutbacks(record, P);
            std::cout << "with cut-backs: " << (c.solved ? "solved" : "not solved") << " in "
                      << c.attempts << " attempts (" << c.cutbacks << " cut-backs, "
                      << c.newton_iterations << " Newton iterations of the converged ones), "
                      << c.assemblies << " assemblies, " << c.factorizations
                      << " factorizations, wall time " << seconds_since(t) << " s"
                      << (c.solved ? "" : ": " + c.failure) << "\n";
          }
        std::cout << std::endl;
        auto cell = [](const coupling::RubberSolveAttempt &x) {
          char s[64];
          std::snprintf(s, sizeof(s), "%-9s %2u it %3lu as",
                        x.converged ? "converged" : "failed", x.stats.newton_iterations,
                        x.assemblies);
          return std::string(s);
        };
        // DIRECTORY/attempt-NNNNNN.bin: the case and the attempt
        const std::filesystem::path path(file);
        const std::string           label =
          (path.parent_path().filename() / path.filename()).string();
        char name[48];
        std::snprintf(name, sizeof(name), "%-36s",
                      label.substr(label.size() > 36 ? label.size() - 36 : 0).c_str());
        table += std::string(name) + " " + cell(record.attempt) + "   " + cell(a) +
                 (same ? "\n" : "   (differs)\n");
        converged_recorded += record.attempt.converged ? 1 : 0;
        converged_replayed += a.converged ? 1 : 0;
        assemblies_recorded += record.attempt.assemblies;
        assemblies_replayed += a.assemblies;
      }
    catch (const std::exception &e)
      {
        std::cerr << "replay-attempt: " << file << ": " << e.what() << std::endl;
        return 2;
      }
  std::cout << table << "converged: " << converged_recorded << " recorded, "
            << converged_replayed << " replayed, of " << files.size()
            << "; assemblies: " << assemblies_recorded << " recorded, " << assemblies_replayed
            << " replayed; " << differ << " replay(s) differ from the record" << std::endl;
  return expect_same && differ > 0 ? 1 : 0;
}
