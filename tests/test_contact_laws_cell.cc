// The contact-law library in the micromechanical cell (docs/methods.md §9): the default
// law through the library repeats a reference history bit for bit, under its identifier and
// under its former name; the laws of the catalogue that the 2D cell can
// take run in it; a law that needs data the cell does not define is rejected before the run.
#include "coupling/micromechanical_run.h"
#include "program/command_line.h"
#include "test_helpers.h"
#include "base/parameter_error.h"

#include <deal.II/base/multithread_info.h>
#include <deal.II/base/parameter_handler.h>

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace
{
  namespace fs = std::filesystem;

  using granular::testing::read_file;

  /// The reduced cell of test_checkpoint.cc (L0 = 3 mm, 8 x 4, elliptical particle rolling
  /// over, viscoelastic rubber, Delta t = 1e-3 T0, window 0.2 T0), without output files.
  granular::CommandLineOptions reduced_case(const std::string &name,
                                            const std::vector<std::string> &extra = {})
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
                                "Output/VTU output interval=0",
                                "Output/Checkpoint interval=0"};
    options.set_entries.insert(options.set_entries.end(), extra.begin(), extra.end());
    return options;
  }

  granular::RunSummary run(const granular::CommandLineOptions &options)
  {
    fs::remove_all(options.output_directory);
    dealii::ParameterHandler prm;
    const auto               P = granular::read_parameters(options, prm);
    return granular::run_micromechanical_test(P, prm);
  }
} // namespace

// tests/data/reduced_cell_default_law_history.csv was written by the program with exactly
// these entries and the solver's defaults on 2026-12-07, when the rubber-particle contact's
// Coulomb dissipation became the trapezoidal rule's, which the adaptive step control reads
// (CHANGES.md); before, at 237cef5 (the law library's default law repeated the history of the
// code before the library, 7dcc995, bit for bit until the solver's defaults changed). Both
// names of the law must repeat it.
TEST(ContactLawsInTheCell, DefaultLawRepeatsTheReferenceHistoryBitForBit)
{
  // the reference was written by the executable, which runs on one thread
  // (MPI_InitFinalize(argc, argv, 1)); threads would change the summation order of the
  // assembly in the last bits
  dealii::MultithreadInfo::set_thread_limit(1);
  const std::string reference =
    read_file(std::string(GRANULAR_SOURCE_DIR) + "/tests/data/reduced_cell_default_law_history.csv");
  ASSERT_GT(reference.size(), 100000u);
  for (const std::string law : {"temizer_decompression_undamped", "damped Hertz decompression off"})
    {
      SCOPED_TRACE(law);
      // the reference was written by the executable with the solver's defaults (the
      // solver's retired methods removed, CHANGES.md, without changing it)
      const auto options =
        reduced_case("default-law", {"Contact/Particle-surface/Normal law=" + law});
      run(options);
      // the reference's columns, bit for bit; a viscoelastic run has appended the
      // boundary-layer columns (docs/methods.md §3.4) to each row since
      const std::string history = read_file(options.output_directory + "/history.csv");
      std::istringstream ref_lines(reference), lines(history);
      std::string        ref_line, line;
      unsigned int       n = 0, differing = 0, first_differing = 0;
      while (std::getline(ref_lines, ref_line))
        {
          ++n;
          const bool same = std::getline(lines, line) &&
                            line.compare(0, ref_line.size(), ref_line) == 0 &&
                            (line.size() == ref_line.size() || line[ref_line.size()] == ',');
          if (!same && differing++ == 0)
            first_differing = n;
        }
      EXPECT_FALSE(std::getline(lines, line)) << "history.csv has more rows than the reference";
      EXPECT_EQ(differing, 0u) << "of " << n << " lines; the first at line " << first_differing;
      if (differing == 0)
        fs::remove_all(options.output_directory);
    }
}

// The 2D cell defines only k_N and the particle's mass: a law built from E*, R_eff and a
// yield strength is rejected before the run, naming the entry and what is missing.
TEST(ContactLawsInTheCell, LawNeedingDataTheCellLacksIsRejectedBeforeTheRun)
{
  auto options = reduced_case("ma-liu", {"Contact/Particle-surface/Normal law=ma_liu"});
  fs::remove_all(options.output_directory);
  dealii::ParameterHandler prm;
  try
    {
      granular::read_parameters(options, prm);
      FAIL() << "ma_liu accepted in the 2D cell";
    }
  catch (const granular::ParameterError &e)
    {
      const std::string what = e.what();
      EXPECT_EQ(e.entry(), "Contact/Particle-surface/Normal law") << what;
      EXPECT_NE(what.find("ma_liu"), std::string::npos) << what;
      EXPECT_NE(what.find("does not define"), std::string::npos) << what;
    }
  EXPECT_FALSE(fs::exists(options.output_directory + "/history.csv"));
}

// A law's own parameter out of range is rejected naming the entry of its subsection.
TEST(ContactLawsInTheCell, OutOfRangeLawParameterIsRejectedNamingItsEntry)
{
  auto options = reduced_case("hc-bad", {"Contact/Particle-surface/Normal law=hunt_crossley",
                                         "Contact/Particle-surface/hunt_crossley/"
                                         "Coefficient of restitution=0"});
  dealii::ParameterHandler prm;
  try
    {
      granular::read_parameters(options, prm);
      FAIL() << "c_r = 0 accepted";
    }
  catch (const granular::ParameterError &e)
    {
      EXPECT_EQ(e.entry(), "Contact/Particle-surface/hunt_crossley/Coefficient of restitution")
        << e.what();
    }
}

// The Hunt–Crossley, Lankarani–Nikravesh and Flores laws in the particle–surface contact of
// the reduced cell: the run completes with the energy balance closed, and the
// particle–surface damping dissipates (>= 0) — the same physics checks as the default law.
TEST(ContactLawsInTheCell, HuntCrossleyFamilyLawsRunInTheCell)
{
  for (const std::string law : {"hunt_crossley", "lankarani_nikravesh", "flores"})
    {
      SCOPED_TRACE(law);
      const auto options = reduced_case("law-" + law, {"Contact/Particle-surface/Normal law=" + law});
      const granular::RunSummary s = run(options);
      EXPECT_TRUE(std::isfinite(s.kbar));
      EXPECT_GT(s.kbar, 0.);
      EXPECT_LT(std::abs(s.energy_balance_error), 0.05);
      fs::remove_all(options.output_directory);
    }
}
