// The rubber block's assembly on several threads (granular-interface --threads N): the cells
// are evaluated on N threads (deal.II's parallel::apply_to_subranges) and added into the
// global system in the order of the cells, so the residual, the tangent and the internal
// force are summed in the same order as on one thread: bit for bit the same. And the option
// --threads itself; and, on the same block, Newton with the LU of an earlier tangent reused
// as GMRES's preconditioner against a factorization at every iteration.
#include "base/boundary_obstacle.h"
#include "fem/rubber_block.h"
#include "program/command_line.h"
#include "test_helpers.h"

#include <deal.II/base/multithread_info.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <sys/wait.h>

namespace
{
  using dealii::MultithreadInfo;
  using granular::fem::RubberBlock;

  /// Sets deal.II's thread limit for the lifetime of the object, then restores the limit
  /// there was before.
  class ThreadLimit
  {
  public:
    explicit ThreadLimit(const unsigned int n)
      : previous(MultithreadInfo::n_threads())
    {
      MultithreadInfo::set_thread_limit(n);
    }
    ~ThreadLimit() { MultithreadInfo::set_thread_limit(previous); }

  private:
    const unsigned int previous;
  };

  /// The reduced cell's block (3 x 1.5 mm, 12 x 6 elements) of viscoelastic rubber with the
  /// Payne effect of @p payne_d (s; so that every cell's evaluation writes its Maxwell
  /// history), density @p density (t/mm^3), reference force @p reference_force (N/mm), its
  /// bottom 0.02 mm below the surface (every bottom point in contact).
  /// @p preconditioned_iterations: Solver/Preconditioned GMRES iterations (0: the tangent
  /// factorized at every Newton iteration).
  std::unique_ptr<RubberBlock> make_block(const double       payne_d = 1e-5,
                                          const double       density = 1.1e-9,
                                          const double       reference_force = 3.,
                                          const unsigned int preconditioned_iterations = 8)
  {
    granular::BlockParameters          block;
    granular::RubberParameters         rubber;
    granular::PenaltyContactParameters surface;
    granular::SolverParameters         solver;
    block.length        = 3.;
    block.height        = 1.5;
    block.n_x           = 12;
    block.n_y           = 6;
    rubber.viscoelastic = true;
    rubber.payne_d      = payne_d;
    solver.preconditioned_iterations = preconditioned_iterations;
    return std::make_unique<RubberBlock>(block, rubber, surface, solver, density, -0.02,
                                         reference_force, false);
  }

  /// Presses the block down and drags it (committed steps), so that the state, the Maxwell
  /// histories and the contact histories are those of a sliding block.
  void press_and_drag(RubberBlock &b)
  {
    for (unsigned int step = 1; step <= 12; ++step)
      {
        b.solve_step(2e-4, step > 6 ? 0.004 * (step - 6) : 0., 3. * std::min(1., step / 6.));
        b.commit_step();
      }
  }

  /// A trial state near the committed one of @p b: its committed displacement of the
  /// reference vertices plus a random perturbation of 2 micrometres.
  std::vector<double> trial_state(const RubberBlock &b)
  {
    const auto          X = b.dof_reference_positions();
    std::vector<double> u(b.n_dofs());
    std::mt19937        rng(7);
    std::uniform_real_distribution<double> U(-1., 1.);
    for (unsigned int i = 0; i < u.size(); ++i)
      u[i] = b.displacement_at_vertex(X[i].first)[X[i].second] + 2e-3 * U(rng);
    b.distribute_constraints(u);
    return u;
  }

  /// The assembled system of block @p b at @p u on @p n_threads threads.
  struct Assembly
  {
    std::vector<double>              residual;
    std::vector<std::vector<double>> tangent;
    granular::fem::PlatenForces      forces; ///< sums of the internal force over the top
  };
  Assembly assemble(RubberBlock &b, const std::vector<double> &u, const unsigned int n_threads)
  {
    const ThreadLimit limit(n_threads);
    EXPECT_EQ(MultithreadInfo::n_threads(), n_threads);
    Assembly a;
    b.residual_and_tangent(u, 2e-4, 3., a.residual, a.tangent);
    a.forces = b.platen_forces();
    return a;
  }

  /// The number of entries of @p a and @p b that are not the same double, and the largest
  /// difference relative to the largest entry.
  struct Difference
  {
    unsigned int entries  = 0;
    double       relative = 0.;
  };
  Difference difference(const std::vector<double> &a, const std::vector<double> &b)
  {
    Difference d;
    double     scale = 0.;
    for (unsigned int i = 0; i < a.size(); ++i)
      {
        d.entries += a[i] != b[i];
        d.relative = std::max(d.relative, std::abs(a[i] - b[i]));
        scale      = std::max(scale, std::abs(a[i]));
      }
    d.relative /= scale > 0. ? scale : 1.;
    return d;
  }
} // namespace

// The residual, the tangent and the platen forces (the internal force summed over the top
// nodes) of a sliding viscoelastic block are the same doubles on one and on two threads.
TEST(ThreadedAssembly, TwoThreadsAssembleBitForBitWhatOneThreadDoes)
{
  auto b = make_block();
  {
    const ThreadLimit one(1);
    press_and_drag(*b);
  }
  ASSERT_GT(b->platen_forces().normal, 1.); // pressed ...
  ASSERT_GT(std::abs(b->platen_forces().tangential), 0.03); // ... and dragged
  const std::vector<double> u = trial_state(*b);

  const Assembly serial   = assemble(*b, u, 1);
  const Assembly threaded = assemble(*b, u, 2);
  ASSERT_EQ(serial.residual.size(), threaded.residual.size());
  const Difference r = difference(serial.residual, threaded.residual);
  EXPECT_EQ(r.entries, 0u) << "of the residual's " << serial.residual.size()
                           << " entries; relative difference up to " << r.relative;
  Difference K;
  for (unsigned int i = 0; i < serial.tangent.size(); ++i)
    {
      const Difference row = difference(serial.tangent[i], threaded.tangent[i]);
      K.entries += row.entries;
      K.relative = std::max(K.relative, row.relative);
    }
  EXPECT_EQ(K.entries, 0u) << "of the tangent's entries; relative difference up to "
                           << K.relative;
  EXPECT_EQ(serial.forces.normal, threaded.forces.normal);
  EXPECT_EQ(serial.forces.tangential, threaded.forces.tangential);
  // and one thread again repeats itself (the comparison above compares like with like)
  const Assembly again = assemble(*b, u, 1);
  EXPECT_EQ(difference(serial.residual, again.residual).entries, 0u);
}

// Whole time steps (Newton with its line search, committed histories) on two threads give
// the same platen forces and displacements as on one.
TEST(ThreadedAssembly, TimeStepsOnTwoThreadsRepeatOneThreadBitForBit)
{
  std::vector<std::vector<double>> record(2);
  for (const unsigned int n_threads : {1u, 2u})
    {
      const ThreadLimit limit(n_threads);
      ASSERT_EQ(MultithreadInfo::n_threads(), n_threads);
      auto b = make_block();
      press_and_drag(*b);
      auto &r = record[n_threads - 1];
      r       = {b->platen_forces().normal, b->platen_forces().tangential,
                 b->platen_vertical_displacement(), b->energies().stored,
                 b->energies().viscous_dissipation};
      for (const auto &x : b->contact_point_positions())
        r.insert(r.end(), {x[0], x[1]});
    }
  const Difference d = difference(record[0], record[1]);
  EXPECT_EQ(d.entries, 0u) << "of " << record[0].size()
                           << " numbers; relative difference up to " << d.relative;
}

// Newton with a reused factorization (the default: GMRES on the exact tangent, preconditioned
// by the LU of an earlier tangent, refreshed only when GMRES needs more than half of its 8
// iterations) reaches the solution of Newton with the tangent factorized at every iteration:
// after the pressing and the dragging (contact points sticking and slipping, Maxwell
// histories) the platen forces, the stored and dissipated energies and the positions of
// the contact points agree to within Newton's tolerances (1e-8), and with far fewer
// factorizations.
TEST(ReusedFactorization, ReachesTheSolutionOfAFactorizationAtEveryIteration)
{
  const auto run = [](const unsigned int preconditioned_iterations,
                      RubberBlock::LinearSolverStatistics &statistics) {
    auto b = make_block(1e-5, 1.1e-9, 3., preconditioned_iterations);
    press_and_drag(*b);
    std::vector<double> r = {b->platen_forces().normal, b->platen_forces().tangential,
                             b->platen_vertical_displacement(), b->energies().stored,
                             b->energies().viscous_dissipation};
    for (const auto &x : b->contact_point_positions())
      r.insert(r.end(), {x[0], x[1]});
    statistics = b->linear_solver_statistics();
    return r;
  };
  const ThreadLimit                   limit(1);
  RubberBlock::LinearSolverStatistics reused, every;
  const std::vector<double>           a = run(8, reused), b = run(0, every);
  const Difference                    d = difference(a, b);
  EXPECT_LT(d.relative, 1e-7) << "of " << a.size() << " numbers";
  EXPECT_GT(a[0], 1.) << "the block is pressed"; // 3 N/mm at the end of the pressing
  // a factorization at every Newton iteration against a few
  EXPECT_EQ(every.preconditioned_solves, 0u);
  EXPECT_GT(reused.preconditioned_solves, 0u);
  EXPECT_LT(3 * reused.factorizations, every.factorizations)
    << reused.factorizations << " against " << every.factorizations;
}

// An element that fails on a worker thread (the Maxwell branch's update at a wild Newton
// iterate) is the NewtonFailure the Newton solver answers by backtracking, as on one thread;
// not an error that ends the program.
TEST(ThreadedAssembly, AFailedCellOnAWorkerThreadIsANewtonFailure)
{
  const auto  block = make_block(0.5, 3e-12, 1.);
  RubberBlock &b    = *block;
  const auto  X = b.dof_reference_positions();
  std::vector<double> u(b.n_dofs(), 0.);
  for (unsigned int i = 0; i < u.size(); ++i)
    if (X[i].second == 1)
      u[i] = -(1. - 1e-4) * (X[i].first[1] + 0.02); // squeezed to 1e-4 of its height
  b.distribute_constraints(u);
  std::vector<double>              residual;
  std::vector<std::vector<double>> tangent;
  for (const unsigned int n_threads : {1u, 2u})
    {
      SCOPED_TRACE(std::to_string(n_threads) + " threads");
      const ThreadLimit limit(n_threads);
      try
        {
          b.residual_and_tangent(u, 2e-5, 0., residual, tangent);
          ADD_FAILURE() << "the wild iterate was accepted";
        }
      catch (const granular::NewtonFailure &e)
        {
          EXPECT_NE(std::string(e.what()).find("Maxwell branch"), std::string::npos)
            << e.what();
        }
    }
}

// --threads N sets the number of threads; anything but a whole number from 1 to 1024 is
// refused naming the option, by the program with exit status 2 before any work; contact-impact
// refuses the option.
TEST(CommandLine, ThreadsOptionNeedsAWholeNumberOfThreads)
{
  {
    const char *argv[] = {"granular-interface", "--threads", "2", "--defaults"};
    EXPECT_EQ(granular::parse_command_line(4, argv).threads, 2u);
  }
  {
    const char *argv[] = {"granular-interface", "--threads=3", "--defaults"};
    EXPECT_EQ(granular::parse_command_line(3, argv).threads, 3u);
  }
  {
    const char *argv[] = {"granular-interface", "--defaults"};
    EXPECT_EQ(granular::parse_command_line(2, argv).threads, 1u); // the default
  }
  for (const std::string n : {"0", "-1", "two", "1.5", "2x", "1e3", "+2", "", "1025",
                              "99999999999999999999"})
    {
      SCOPED_TRACE(n);
      const std::string option = "--threads=" + n;
      const char       *argv[] = {"granular-interface", option.c_str(), "--defaults"};
      try
        {
          granular::parse_command_line(3, argv);
          ADD_FAILURE() << option << " was accepted";
        }
      catch (const std::invalid_argument &e)
        {
          EXPECT_NE(std::string(e.what()).find("--threads"), std::string::npos) << e.what();
        }
    }
  {
    const char *argv[] = {"granular-interface", "--defaults", "--threads"};
    EXPECT_THROW(granular::parse_command_line(3, argv), std::invalid_argument);
  }
  EXPECT_NE(granular::usage_text().find("--threads N"), std::string::npos);

  // the program: exit status 2, the message names the option, nothing is written
  const std::string dir = granular::testing::scratch_directory("threads-0");
  const std::string log = dir + ".log";
  const int         status =
    std::system((std::string(GRANULAR_EXECUTABLE) + " " + GRANULAR_SOURCE_DIR +
                 "/params/bare-interface.prm --output-directory " + dir +
                 " --threads 0 > " + log + " 2>&1")
                  .c_str());
  const std::string out = granular::testing::read_file(log);
  EXPECT_EQ(WEXITSTATUS(status), 2) << out;
  EXPECT_NE(out.find("option --threads needs a whole number of threads"), std::string::npos)
    << out;
  EXPECT_FALSE(std::filesystem::exists(dir));

  // contact-impact shares the parser and refuses the option, which it has no use for
  const int impact = std::system((std::string(CONTACT_IMPACT_EXECUTABLE) + " " +
                                  GRANULAR_SOURCE_DIR +
                                  "/params/impact/two-aluminium-spheres.prm --output-directory " +
                                  dir + " --threads 2 > " + log + " 2>&1")
                                   .c_str());
  const std::string impact_out = granular::testing::read_file(log);
  EXPECT_EQ(WEXITSTATUS(impact), 2) << impact_out;
  EXPECT_NE(impact_out.find("--threads': is an option of granular-interface"), std::string::npos)
    << impact_out;
  EXPECT_FALSE(std::filesystem::exists(dir));
  std::filesystem::remove(log);
}
