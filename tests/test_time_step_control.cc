// Adaptive time steps (Solver/Time step control = adaptive, coupling::TimeStepControl):
// the step-size policy, the interpolated rows of history.csv, and reduced runs that must
// give the physics of the fixed-step runs: the bare interface's k̄ = k_o with the history
// on the grid of Loading/Time step, and the rolling ellipse's k̄ within its run-to-run
// uncertainty.
#include "coupling/micromechanical_run.h"
#include "coupling/run_record.h"
#include "coupling/time_step_control.h"
#include "program/command_line.h"

#include <deal.II/base/parameter_handler.h>

#include "test_helpers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using granular::coupling::TimeStepControl;

TEST(TimeStepControl, GrowsAfterEasyStepsAndShrinksAfterHardOnes)
{
  TimeStepControl c(8, 1e-3);
  const double    W = 1.; // nominal work of a step
  EXPECT_EQ(c.multiple(), 1u);
  // two easy steps (eta = 0.1, 2 Newton iterations) double the step, up to 8
  for (unsigned int expected : {2u, 4u, 8u, 8u})
    {
      c.record(c.multiple(), 2, false, 1e-4 * W, W);
      c.record(c.multiple(), 2, false, 1e-4 * W, W);
      EXPECT_EQ(c.multiple(), expected);
    }
  // a step beyond the tolerance (eta = 2) halves it
  c.record(8, 2, false, 2e-3 * W, W);
  EXPECT_EQ(c.multiple(), 4u);
  // so do more than 6 Newton iterations, and a cut-back
  c.record(4, 7, false, 0., W);
  EXPECT_EQ(c.multiple(), 2u);
  c.record(2, 2, true, 0., W);
  EXPECT_EQ(c.multiple(), 1u);
  c.record(1, 2, true, 0., W);
  EXPECT_EQ(c.multiple(), 1u) << "never below the reference step";
  // moderate steps (eta = 0.5) neither grow nor shrink
  for (int i = 0; i < 5; ++i)
    c.record(1, 2, false, 5e-4 * W, W);
  EXPECT_EQ(c.multiple(), 1u);
  // a step shortened to land on an output time does not count for growth
  c.record(1, 1, false, 0., W);
  c.record(1, 1, false, 0., W);
  EXPECT_EQ(c.multiple(), 2u);
  c.record(1, 1, false, 0., W);
  c.record(1, 1, false, 0., W);
  EXPECT_EQ(c.multiple(), 2u);
  // far beyond the tolerance (eta > 4): back to the reference step at once
  c.record(2, 1, false, 1e-4 * W, W);
  c.record(2, 1, false, 1e-4 * W, W);
  EXPECT_EQ(c.multiple(), 4u);
  c.record(4, 1, false, 5e-3 * W, W);
  EXPECT_EQ(c.multiple(), 1u);
  EXPECT_NEAR(c.last_ratio(), 5., 1e-12);
}

TEST(HistoryInterpolation, LinearColumnsAreExactAndCountsMarkTheRow)
{
  // two rows of a step from t = 1 to t = 3 s; every continuous column linear in t
  granular::coupling::HistoryRow a, b;
  a.t = 1., b.t = 3.;
  a.F_N = 10., b.F_N = 20.;
  a.F_T = -2., b.F_T = -6.;
  a.platen_u1 = 0.5, b.platen_u1 = 1.5;
  a.dissipation_numerical = 1., b.dissipation_numerical = 3.;
  a.particle.emplace(), b.particle.emplace();
  a.particle->theta = 0., b.particle->theta = -1.;
  b.particle->surface_stick = true;
  b.newton_iterations = 4, b.contacts_rubber_surface = 7;
  const auto r = granular::coupling::interpolate(a, b, 0.25, "transition");
  EXPECT_DOUBLE_EQ(r.t, 1.5);
  EXPECT_DOUBLE_EQ(r.F_N, 12.5);
  EXPECT_DOUBLE_EQ(r.F_T, -3.);
  EXPECT_DOUBLE_EQ(r.kI, 3. / 12.5) << "k_I from the interpolated forces";
  EXPECT_DOUBLE_EQ(r.platen_u1, 0.75);
  EXPECT_DOUBLE_EQ(r.dissipation_numerical, 1.5);
  EXPECT_DOUBLE_EQ(r.particle->theta, -0.25);
  EXPECT_TRUE(r.particle->surface_stick) << "states are those of the step's end";
  EXPECT_EQ(r.contacts_rubber_surface, 7u);
  EXPECT_EQ(r.newton_iterations, 0u) << "0 marks an interpolated row";
  EXPECT_STREQ(r.phase, "transition");
}

TEST(HistoryInterpolation, MovingAverageOfAStepThatOpensTheWindowStartsAtTheWindow)
{
  // a step from the window's start (t = 2 s, where k_I* is still 0) to t = 4 s, with
  // k_I = 0.2 at 2 s and 0.4 at 4 s: k_I* at 4 s is the trapezoidal mean 0.3
  granular::coupling::HistoryRow a, b;
  a.t = 2., b.t = 4.;
  a.F_N = 10., b.F_N = 10.;
  a.F_T = 2., b.F_T = 4.;
  a.kI = 0.2, b.kI = 0.4;
  a.kI_avg = 0., b.kI_avg = 0.3;
  const auto r = granular::coupling::interpolate(a, b, 0.5, "averaging");
  EXPECT_DOUBLE_EQ(r.kI, 0.3);
  EXPECT_DOUBLE_EQ(r.kI_avg, 0.25)
    << "k_I* at 3 s averages k_I over [2, 3] s (not half of k_I* at 4 s)";
  // further into the window k_I* is interpolated like every other column
  a.t = 4., b.t = 6.;
  a.kI_avg = 0.3, b.kI_avg = 0.4;
  EXPECT_DOUBLE_EQ(granular::coupling::interpolate(a, b, 0.5, "averaging").kI_avg, 0.35);
  // before the window k_I* stays 0
  a.kI_avg = 0., b.kI_avg = 0.;
  EXPECT_DOUBLE_EQ(granular::coupling::interpolate(a, b, 0.5, "transition").kI_avg, 0.);
}

namespace
{
  /// The quick cell of benchmarks/run.sh (L0 = 3 mm, H0 = 1.5 mm, 12 x 6, T_avg = 0.25 T0)
  /// for @p parameter_file with @p extra entries.
  struct QuickRun
  {
    granular::ProgramParameters parameters;
    granular::RunSummary        summary;
    std::string                 directory;
  };

  QuickRun run_quick_cell(const std::string &name, const std::string &parameter_file,
                          const std::vector<std::string> &extra)
  {
    granular::CommandLineOptions options;
    QuickRun                     run;
    run.directory            = granular::testing::scratch_directory(name);
    options.parameter_file   = std::string(GRANULAR_SOURCE_DIR) + "/params/" + parameter_file;
    options.output_directory = run.directory;
    options.set_entries = {"Geometry/Block length=3", "Geometry/Block height=1.5",
                           "Geometry/Elements in x=12", "Geometry/Elements in y=6",
                           "Loading/Averaging time=0.25", "Output/VTU output interval=0",
                           "Output/Progress interval=100", "Output/Checkpoint interval=0"};
    options.set_entries.insert(options.set_entries.end(), extra.begin(), extra.end());
    dealii::ParameterHandler prm;
    run.parameters = granular::read_parameters(options, prm);
    run.summary    = granular::run_micromechanical_test(run.parameters, prm);
    return run;
  }

  /// Columns t, platen_u1 and newton_iterations of history.csv.
  struct HistoryColumns
  {
    std::vector<double>       t, u1;
    std::vector<unsigned int> newton_iterations;
  };

  HistoryColumns read_history(const std::string &path)
  {
    std::ifstream  in(path);
    std::string    line;
    HistoryColumns h;
    std::getline(in, line); // header: t,phase,F_N,F_T,kI,kI_avg,platen_u1,...
    while (std::getline(in, line))
      {
        std::vector<std::string> v;
        std::istringstream       s(line);
        for (std::string field; std::getline(s, field, ',');)
          v.push_back(field);
        h.t.push_back(std::stod(v[0]));
        h.u1.push_back(std::stod(v[6]));
        h.newton_iterations.push_back(std::stoul(v[25]));
      }
    return h;
  }
} // namespace

// The remaining-time estimate of the progress lines adds the phases ahead at their own
// cost rates (wall s per simulated s): the prior (every reference step a hard step at the
// mean cost of a Newton iteration so far) where nothing is measured, a phase in progress
// blended from its measured rate to that in proportion to how much of its trusted length
// has run, the averaging window at the dragging's rate, with a particle twice that but not
// above the prior (docs/performance.md#remaining-time).
namespace
{
  using granular::coupling::RemainingTime;
  const double dt = 0.01; // reference step (s)

  /// load ramp [0, 1), hold [1, 2), dragging [2, 3), window [3, 5) costing what the dragging
  /// did, with a particle (@p rolls) twice that up to the prior; the window's own rate is
  /// trusted after 1 s (T0) of it
  RemainingTime four_phases(const bool rolls)
  {
    return RemainingTime({{1., 0}, {2., 1}, {3., 2}, {5., 2, rolls ? 2. : 1., 1.}}, dt, 6.);
  }

  /// @p n steps of dt from @p t0, each taking @p wall s and @p iterations Newton iterations
  void steps(RemainingTime &r, const double t0, const int n, const double wall,
             const unsigned int iterations)
  {
    for (int i = 0; i < n; ++i)
      r.record(t0 + i * dt, t0 + (i + 1) * dt, wall, iterations);
  }
} // namespace

TEST(RemainingTime, AddsThePhasesAheadAtTheirOwnCost)
{
  RemainingTime r = four_phases(false);
  // the ramp: 100 steps, 0.01 s and 2 Newton iterations each (1 s per s)
  steps(r, 0., 100, 0.01, 2);
  // nothing ahead measured: the prior, 0.005 s per iteration x 6 / dt = 3 s per s, for the
  // 4 s still to come
  EXPECT_NEAR(r.seconds_left(1.), 4. * 3., 1e-9);
  // half of the hold in one long step, cheap (0.1 s per s): it blends half its own rate and
  // half the prior; the dragging and the window at the prior
  r.record(1., 1.5, 0.05, 2);
  const double prior = 1.05 / 202. * 6. / dt;
  EXPECT_NEAR(r.seconds_left(1.5), 0.5 * (0.5 * 0.1 + 0.5 * prior) + 3. * prior, 1e-9);
  // the rest of the hold, then a tenth of the dragging at 20 s per s, dearer than the prior:
  // the dragging blends 10 % measured with 90 % prior, and the window costs the same
  r.record(1.5, 2., 0.05, 2);
  steps(r, 2., 10, 0.2, 5);
  const double prior_2 = 3.1 / 254. * 6. / dt;
  EXPECT_NEAR(r.seconds_left(2.1), 2.9 * (0.1 * 20. + 0.9 * prior_2), 1e-9);
  // the whole dragging measured: the window costs what it did
  steps(r, 2.1, 90, 0.2, 5);
  EXPECT_NEAR(r.seconds_left(3.), 2. * 20., 1e-9);
  // half of the window's trusted second at 10 s per s: half its own rate, half the
  // dragging's; once the second has run, its own rate alone
  steps(r, 3., 50, 0.1, 5);
  EXPECT_NEAR(r.seconds_left(3.5), 1.5 * (0.5 * 10. + 0.5 * 20.), 1e-9);
  steps(r, 3.5, 50, 0.1, 5);
  EXPECT_NEAR(r.seconds_left(4.), 1. * 10., 1e-9);
  EXPECT_EQ(r.seconds_left(5.), 0.);
}

TEST(RemainingTime, WithAParticleTheWindowCostsTwiceTheDraggingAtMostThePrior)
{
  // ramp and hold at 1 s per s with 2 Newton iterations per step, then the whole dragging
  // at `drag` s per s with 8: the prior is (2 + drag) s / 1200 iterations x 6 / dt. The
  // window ahead costs, with a particle, twice the dragging up to the prior (cheap: 0.5;
  // capped: 1, prior 1.5), or the dragging's own rate if that is above the prior (4, prior
  // 3); without a particle, the dragging's rate
  struct Case
  {
    double drag, window_with_particle;
  };
  for (const Case c : {Case{0.5, 1.}, Case{1., 1.5}, Case{4., 4.}})
    for (const bool rolls : {true, false})
      {
        RemainingTime r = four_phases(rolls);
        steps(r, 0., 200, 0.01, 2);
        steps(r, 2., 100, 0.01 * c.drag, 8);
        const double window = rolls ? c.window_with_particle : c.drag;
        EXPECT_NEAR(r.seconds_left(3.), 2. * window, 1e-9) << "drag " << c.drag << " " << rolls;
      }
}

TEST(AdaptiveTimeStep, BareInterfaceGivesCoulombFrictionWithTheHistoryOnTheGrid)
{
  // steady sliding of the bare interface is the quiet case: long steps, and k̄ = k_o
  // (docs/methods.md §7) within 0.5 % as with fixed steps
  const auto  run = run_quick_cell("adaptive-bare", "bare-interface.prm",
                                   {"Solver/Time step control=adaptive"});
  const auto &P   = run.parameters;
  const auto &s   = run.summary;
  const double k_o = P.contact.rubber_surface.friction_coefficient;
  EXPECT_NEAR(s.kbar, k_o, 0.005 * k_o);
  EXPECT_LT(s.energy_balance_error, 0.005);
  const double       T0 = P.loading.nominal_dragging_time(P.block.length);
  const double       dt = P.loading.time_step(P.block.length);
  const unsigned int n_grid =
    static_cast<unsigned int>(std::llround(P.loading.end_time(P.block.length) / dt));
  EXPECT_LT(s.steps, n_grid / 4) << "the quiet phases take long steps";

  // history.csv: one row per grid time k dt, computed or interpolated; the platen's
  // program u1 = v_F (t - T0) is linear in time, so interpolated rows must carry it exactly
  const HistoryColumns h = read_history(run.directory + "/history.csv");
  ASSERT_EQ(h.t.size(), n_grid);
  unsigned int computed = 0;
  for (unsigned int k = 0; k < n_grid; ++k)
    {
      ASSERT_NEAR(h.t[k], (k + 1) * dt, 1e-9 * dt) << "row " << k;
      const double u1 = h.t[k] > T0 ? P.loading.slip_velocity * (h.t[k] - T0) : 0.;
      ASSERT_NEAR(h.u1[k], u1, 1e-9 * P.block.length) << "row " << k;
      computed += h.newton_iterations[k] > 0;
    }
  EXPECT_EQ(computed, s.steps) << "rows with Newton iterations are the computed steps";
}

TEST(AdaptiveTimeStep, ReproducesTheFixedStepKbarOfTheRollingEllipse)
{
  // the quick cell with the ellipse (params/default.prm), which rolls over in the window:
  // the adaptive run must give the fixed-step k̄ within the run-to-run uncertainty. That
  // uncertainty, measured by five fixed-step runs with the initial rotation perturbed by
  // 0 ... 4e-6 rad (docs/results/default-tests.md), is 0.0001 at eps_N = 1e5 (the default) and
  // 0.0003 at 1e6 (max - min); the bound is three times the larger. The adaptive run must
  // also close its energy balance within 1 % like the fixed one, and take fewer steps.
  const auto fixed    = run_quick_cell("adaptive-ellipse-fixed", "default.prm",
                                       {"Solver/Time step control=fixed"});
  const auto adaptive = run_quick_cell("adaptive-ellipse", "default.prm",
                                       {"Solver/Time step control=adaptive"});
  EXPECT_NEAR(adaptive.summary.kbar, fixed.summary.kbar, 3. * 0.0003)
    << "fixed " << fixed.summary.kbar << ", adaptive " << adaptive.summary.kbar;
  EXPECT_LT(adaptive.summary.energy_balance_error, 0.01);
  EXPECT_LT(fixed.summary.energy_balance_error, 0.01);
  // with a particle the steps stay at dt until T0 (10 000 of the 22 500 grid steps); after
  // it the quiet stretches between roll-overs take long steps
  EXPECT_LT(adaptive.summary.steps, 0.8 * fixed.summary.steps);
  // Newmark's numerical dissipation over the window (part of k̄, docs/methods.md §5.3) does not
  // grow: at most that of the fixed steps plus 1e-3 of the window's normal work
  const double window_normal_work = fixed.summary.mean_normal_force *
                                    fixed.parameters.loading.slip_velocity * 0.25 *
                                    fixed.parameters.loading.nominal_dragging_time(3.);
  EXPECT_LT(adaptive.summary.dissipation_numerical,
            fixed.summary.dissipation_numerical + 1e-3 * window_normal_work);
}

// The solution does not depend on the output settings: the rolling ellipse of the quick cell
// with adaptive steps gives the same history.csv and summary.csv (apart from the times)
// without ParaView output and with a VTU every 37 steps, with another history interval
// (compared on its rows) and other progress and checkpoint intervals. Before, the steps
// were shortened to land on the VTU times: 8678, 9032 and 8628 steps for intervals 0, 37
// and 100 in the cell of params/elliptical.prm.
TEST(AdaptiveTimeStep, SolutionDoesNotDependOnTheOutputSettings)
{
  const auto a = run_quick_cell("output-independent-a", "elliptical.prm",
                                {"Loading/Time step=5e-4"});
  const auto b = run_quick_cell("output-independent-b", "elliptical.prm",
                                {"Loading/Time step=5e-4", "Output/VTU output interval=37",
                                 "Output/History output interval=3",
                                 "Output/Progress interval=0.01",
                                 "Output/Checkpoint step interval=500"});
  EXPECT_EQ(a.summary.steps, b.summary.steps);
  EXPECT_EQ(a.summary.newton_iterations, b.summary.newton_iterations);
  EXPECT_EQ(a.summary.kbar, b.summary.kbar);
  EXPECT_EQ(a.summary.energy_balance_error, b.summary.energy_balance_error);
  // every third row of a's history is b's row (the rows a long step steps over are
  // interpolated from the same computed steps)
  std::ifstream      ha(a.directory + "/history.csv"), hb(b.directory + "/history.csv");
  std::string        line_a, line_b;
  std::getline(ha, line_a);
  std::getline(hb, line_b);
  EXPECT_EQ(line_a, line_b);
  unsigned int row = 0, compared = 0;
  while (std::getline(ha, line_a))
    if (++row % 3 == 0 || ha.peek() == EOF)
      {
        ASSERT_TRUE(std::getline(hb, line_b)) << "row " << row;
        EXPECT_EQ(line_a, line_b) << "row " << row;
        ++compared;
      }
  EXPECT_FALSE(std::getline(hb, line_b)) << "b has more rows";
  EXPECT_GT(compared, 500u);
  // and b wrote its VTUs: one per multiple of 37 reached, at the steps' true times
  std::ifstream pvd(b.directory + "/solution.pvd");
  std::string   text((std::istreambuf_iterator<char>(pvd)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("solution-00037.vtu"), std::string::npos);
}

// A failed write stops the run at once, naming the file and the reason (a full disk: the
// device /dev/full fails every write with ENOSPC), instead of going on with history.csv cut
// mid-row and failing only when summary.csv is written.
TEST(HistoryWriter, AFullDiskStopsTheRunAtTheFirstFailedWrite)
{
  granular::coupling::HistoryWriter history("/dev/full", false, 0);
  granular::coupling::HistoryRow    row;
  row.phase = "compression";
  try
    {
      for (int i = 0; i < 1000; ++i) // the stream's buffer holds a few dozen rows
        history.write(row);
      history.flush();
      FAIL() << "writes to a full device were taken";
    }
  catch (const std::runtime_error &e)
    {
      const std::string message = e.what();
      EXPECT_NE(message.find("/dev/full"), std::string::npos) << message;
      EXPECT_NE(message.find("No space left on device"), std::string::npos) << message;
    }
}
