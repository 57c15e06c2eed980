// The rubber block: Q1P0 element, inertia, surface contact, Newton, periodicity and the
// bare-interface limit kbar = k_o (docs/methods.md §2, §3.1-3.2, §3.6, §6, §7).
#include "coupling/micromechanical_run.h"
#include "contact/rubber_surface_contact.h"
#include "base/parameter_error.h"
#include "fem/rubber_block.h"
#include "test_helpers.h"
#include "program/command_line.h"

#include <deal.II/base/parameter_handler.h>

#include "test_helpers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

namespace
{
  using granular::fem::RubberBlock;

  struct SmallBlock
  {
    granular::BlockParameters           block;
    granular::RubberParameters          rubber;
    granular::PenaltyContactParameters  surface;
    granular::SolverParameters          solver;
    SmallBlock()
    {
      block.length = 3.;
      block.height = 2.;
      block.n_x    = 3;
      block.n_y    = 2;
    }
    std::unique_ptr<RubberBlock> make(double bottom_height, double density = 3e-12) const
    {
      return std::make_unique<RubberBlock>(block, rubber, surface, solver, density,
                                           bottom_height, 1., false);
    }
  };

  using granular::testing::relative_tangent_error;

  /// A random state that keeps every bottom point below the surface (in contact).
  std::vector<double> random_state(RubberBlock &b, double amplitude, unsigned int seed)
  {
    std::mt19937                           rng(seed);
    std::uniform_real_distribution<double> U(-1., 1.);
    std::vector<double>                    u(b.n_dofs());
    for (double &v : u)
      v = amplitude * U(rng);
    b.distribute_constraints(u);
    return u;
  }

  /// A fixed obstacle that exerts nothing and records where the block evaluates its bottom
  /// contact points: their current and converged positions x, x_old (mm).
  class PointRecorder : public granular::BoundaryObstacle
  {
  public:
    void evaluate(unsigned int point, const dealii::Tensor<1, 2> &x,
                  const dealii::Tensor<1, 2> &x_old, dealii::Tensor<1, 2> &t,
                  dealii::Tensor<2, 2> &dt) override
    {
      t  = 0;
      dt = 0;
      if (point >= positions.size())
        positions.resize(point + 1);
      positions[point] = {x, x_old};
    }
    void commit() override {}
    std::vector<std::pair<dealii::Tensor<1, 2>, dealii::Tensor<1, 2>>> positions;
  };

  /// The rubber-surface contact state (docs/methods.md §6) of every bottom point of block @p b at
  /// the trial state @p u of a step from the block's first (undeformed, never committed) state:
  /// the return mapping of rubber_surface_contact() at the points' positions, with the
  /// history of a point that has not yet been in contact (as the block's own).
  std::vector<granular::contact::SurfaceContactResponse>
  surface_states(RubberBlock &b, const std::vector<double> &u,
                 const granular::PenaltyContactParameters &surface)
  {
    PointRecorder recorder;
    b.set_obstacle(&recorder);
    std::vector<double>              r;
    std::vector<std::vector<double>> K;
    b.residual_and_tangent(u, 1e-6, 2., r, K);
    b.set_obstacle(nullptr);
    EXPECT_EQ(recorder.positions.size(), b.contact_points().size());
    std::vector<granular::contact::SurfaceContactResponse> states;
    for (const auto &[x, x_old] : recorder.positions)
      states.push_back(granular::contact::rubber_surface_contact(x, x_old, {}, surface));
    return states;
  }
} // namespace

TEST(RubberBlockElement, TangentMatchesFiniteDifferencesInStick)
{
  SmallBlock s;
  s.surface.tangential_penalty = 1e4; // slip threshold k_o eps_N |g| / eps_T ~ 0.5 mm
  auto b = s.make(-0.02);
  // inertia matters at this dt: rho h^2 / (beta dt^2) ~ stiffness
  const auto u = random_state(*b, 0.005, 1);
  // every bottom point is in contact and sticks
  for (const auto &state : surface_states(*b, u, s.surface))
    {
      EXPECT_LT(state.normal_gap, 0.);
      EXPECT_FALSE(state.slipping);
    }
  const double e = relative_tangent_error(*b, u, 1e-6, 2.);
  EXPECT_LT(e, 1e-6);
}

TEST(RubberBlockElement, TangentMatchesFiniteDifferencesInSlip)
{
  SmallBlock s;
  s.surface.tangential_penalty = 1e7; // slip threshold ~ 1e-3 mm: random states slip
  auto b = s.make(-0.02);
  const auto u = random_state(*b, 0.01, 2);
  // every bottom point is in contact and slips, so the slip branch of the tangent is tested
  for (const auto &state : surface_states(*b, u, s.surface))
    {
      EXPECT_LT(state.normal_gap, 0.);
      EXPECT_TRUE(state.slipping);
    }
  const double e = relative_tangent_error(*b, u, 1e-6, 2.);
  EXPECT_LT(e, 1e-6);
}

TEST(RubberBlockElement, TangentWithMaxwellBranchMatchesFiniteDifferences)
{
  // viscoelastic rubber (docs/methods.md §3.3-3.4, Payne on): the algorithmic tangent of the
  // Maxwell branch enters the element tangent consistently
  SmallBlock s;
  s.rubber.viscoelastic = true;
  s.rubber.payne_d      = 1e-5;
  auto b = s.make(-0.02);
  const auto u   = random_state(*b, 0.05, 4);
  const double e = relative_tangent_error(*b, u, 2e-5, 2.); // dt / tau0 = 0.2
  EXPECT_LT(e, 1e-6);
}

TEST(RubberBlockElement, FailedMaxwellUpdateAtAWildIterateIsANewtonFailure)
{
  // A Newton iterate far off the solution, the block squeezed in one step of 2e-5 s to
  // 1e-4 of its height (log strain -9, no element inverted), with the Payne effect on:
  // the Maxwell branch's local Newton fails there. The block must report it as
  // NewtonFailure, which its Newton solver answers by backtracking or cutting the
  // step back, not as an error that ends the run. (A reduced viscoelastic run of the
  // ellipse with the Payne effect at 5e-4 T0 ended that way.)
  SmallBlock s;
  s.rubber.viscoelastic = true;
  s.rubber.payne_d      = 0.5;
  auto                b = s.make(-0.02);
  const auto          X = b->dof_reference_positions();
  std::vector<double> u(b->n_dofs(), 0.);
  for (unsigned int i = 0; i < u.size(); ++i)
    if (X[i].second == 1)
      u[i] = -(1. - 1e-4) * (X[i].first[1] + 0.02); // bottom at y = -0.02 stays
  b->distribute_constraints(u);
  std::vector<double>              residual;
  std::vector<std::vector<double>> tangent;
  try
    {
      b->residual_and_tangent(u, 2e-5, 0., residual, tangent);
      FAIL() << "the wild iterate was accepted";
    }
  catch (const granular::NewtonFailure &e)
    {
      EXPECT_NE(std::string(e.what()).find("Maxwell branch"), std::string::npos) << e.what();
    }
  // and at a moderate squeeze (log strain -0.1) the same call succeeds
  for (unsigned int i = 0; i < u.size(); ++i)
    u[i] *= 0.1 / (1. - 1e-4);
  b->distribute_constraints(u);
  EXPECT_NO_THROW(b->residual_and_tangent(u, 2e-5, 0., residual, tangent));
}

TEST(RubberBlockElement, TangentMatchesFiniteDifferencesAtLargeDeformation)
{
  SmallBlock s;
  auto b = s.make(-0.02);
  const auto u   = random_state(*b, 0.3, 3); // strains of order 30 %
  const double e = relative_tangent_error(*b, u, 1e-4, 0.);
  EXPECT_LT(e, 1e-6);
}

TEST(RubberBlockElement, SimpleShearGivesTheShearModulus)
{
  // bottom stuck to the surface, platen moved by d: simple shear, F_T = mu d / H0 L0
  SmallBlock s;
  s.surface.friction_coefficient = 10.;
  s.surface.tangential_penalty   = 1e8;
  s.solver.residual_tolerance    = 1e-12;
  s.solver.increment_tolerance   = 1e-12;
  auto b = s.make(-1e-6);
  const double d = 1e-4;
  // a light normal load (1e-3 MPa) keeps the bottom in contact
  for (unsigned int step = 0; step < 50; ++step)
    {
      b->solve_step(1e-2, d, 1e-3 * s.block.length);
      b->commit_step();
    }
  const double mu       = 0.5 * (0.661 * 1.8 + 0.231 * 2 + 0.0496 * 7); // 0.9995 mu_e
  const double expected = mu * d / s.block.height * s.block.length;
  EXPECT_NEAR(b->platen_forces().tangential / expected, 1., 1e-3);
}

namespace
{
  /// A frictionless rigid punch at y = height under the middle third of the cell.
  class Punch : public granular::BoundaryObstacle
  {
  public:
    Punch(const RubberBlock &block, double height, double length)
      : block(block), height(height), length(length) {}
    void evaluate(unsigned int point, const dealii::Tensor<1, 2> &x,
                  const dealii::Tensor<1, 2> &, dealii::Tensor<1, 2> &t,
                  dealii::Tensor<2, 2> &dt) override
    {
      t  = 0;
      dt = 0;
      const double X = block.contact_points()[point].reference_position[0];
      if (X > length / 3. && X < 2. * length / 3. && x[1] < height)
        {
          t[1]     = -1e4 * (x[1] - height);
          dt[1][1] = -1e4;
        }
    }
    void commit() override {}
    const RubberBlock &block;
    double             height, length;
  };

  double punch_settlement(double bulk_modulus_ratio)
  {
    SmallBlock s;
    s.block.length = 6.;
    s.block.n_x    = 12;
    s.block.n_y    = 4;
    s.rubber.bulk_modulus_ratio = bulk_modulus_ratio;
    auto  b = s.make(1. - 1e-6, 3e-9); // start touching the punch
    Punch punch(*b, 1., s.block.length);
    b->set_obstacle(&punch);
    for (unsigned int step = 1; step <= 200; ++step)
      {
        b->solve_step(1e-4, 0., 0.05 * s.block.length * std::min(1., step / 100.));
        b->commit_step();
      }
    return -b->platen_vertical_displacement();
  }
} // namespace

TEST(RubberBlockElement, NoVolumetricLockingAtHighBulkModulus)
{
  // Nonuniform, nearly isochoric deformation: the block, supported only by a punch
  // under the middle third, sags around it. A locking element stiffens roughly in
  // proportion to kappa; Q1P0 converges to the incompressible limit, so raising
  // kappa from 1e3 to 1e5 mu_e changes the settlement by O(mu/kappa) only.
  const double w3 = punch_settlement(1e3), w5 = punch_settlement(1e5);
  EXPECT_GT(w3, 1e-3);
  EXPECT_NEAR(w5 / w3, 1., 0.05) << "settlement " << w3 << " vs " << w5;
}

TEST(RubberBlockPatch, UniformFrictionlessCompressionGivesUniformStress)
{
  SmallBlock s;
  s.surface.friction_coefficient = 0.;
  s.solver.residual_tolerance    = 1e-11;
  s.solver.increment_tolerance   = 1e-11;
  // quasi-static limit (vanishing density): the patch test checks statics
  auto         b = s.make(-1e-6, 3e-20); // start touching the surface
  const double p = 2.; // MPa
  const double load = p * s.block.length;
  // quasi-static: dt far above every period of the light block, Newmark damping
  for (unsigned int step = 1; step <= 40; ++step)
    {
      b->solve_step(1e-3, 0., load * std::min(1., step / 20.));
      b->commit_step();
    }
  const auto sigma = b->cell_cauchy_stress();
  for (const auto &s_cell : sigma)
    {
      EXPECT_NEAR(s_cell[1] / -p, 1., 1e-8);                // sigma_yy = -p
      EXPECT_NEAR(s_cell[2] / p, 0., 1e-8);                 // sigma_xy = 0
      EXPECT_NEAR(s_cell[0] / sigma[0][0], 1., 1e-8);       // sigma_xx uniform
      EXPECT_NEAR(s_cell[3] / sigma[0][3], 1., 1e-8);       // sigma_zz uniform
    }
  EXPECT_NEAR(b->platen_forces().normal / load, 1., 1e-8);
}

TEST(RubberBlockNewton, ConvergesQuadratically)
{
  SmallBlock s;
  s.block.n_x = 6;
  s.block.n_y = 4;
  auto b = s.make(0.);
  // compress, then a dragging step large enough to need several iterations
  for (unsigned int step = 1; step <= 20; ++step)
    {
      b->solve_step(1e-4, 0., 6. * std::min(1., step / 10.));
      b->commit_step();
    }
  const auto stats = b->solve_step(1e-4, 0.05, 6.);
  const auto &r    = stats.residual_norms;
  ASSERT_GE(r.size(), 4u) << "too easy a step to observe the rate";
  unsigned int checked = 0;
  for (unsigned int k = 0; k + 1 < r.size(); ++k)
    if (r[k] < 1e-2 && r[k] > 1e-9)
      {
        EXPECT_LT(r[k + 1], 1e3 * r[k] * r[k] + 1e-13)
          << "iteration " << k << ": " << r[k] << " -> " << r[k + 1];
        ++checked;
      }
  EXPECT_GE(checked, 1u);
}

TEST(RubberBlockPeriodicity, LeftAndRightNodesMoveTogether)
{
  SmallBlock s;
  s.block.n_x = 4;
  s.block.n_y = 3;
  auto b = s.make(0.);
  for (unsigned int step = 1; step <= 40; ++step)
    {
      b->solve_step(1e-4, step > 20 ? 0.01 * (step - 20) : 0., 6. * std::min(1., step / 10.));
      b->commit_step();
    }
  double max_displacement = 0.;
  for (const auto &[left, right] : b->periodic_vertex_pairs())
    {
      EXPECT_NEAR(left[0], right[0], 1e-14);
      EXPECT_NEAR(left[1], right[1], 1e-14);
      max_displacement = std::max(max_displacement, left.norm());
    }
  EXPECT_GT(max_displacement, 1e-3); // the block did move
  EXPECT_EQ(b->periodic_vertex_pairs().size(), s.block.n_y + 1);
}

TEST(BareInterface, MacroscopicFrictionEqualsSurfaceFriction)
{
  // docs/methods.md §7: without a particle, steady sliding gives kbar = k_o (reduced mesh/times)
  granular::CommandLineOptions options;
  const std::string dir = granular::testing::scratch_directory("bare");
  options.output_directory = dir;
  options.set_entries      = {"Particle/Enabled=false", "Geometry/Elements in x=10",
                         "Geometry/Elements in y=4", "Loading/Time step=2e-3",
                         "Output/VTU output interval=100", "Output/Progress interval=100"};
  dealii::ParameterHandler prm;
  const auto P = granular::read_parameters(options, prm);
  const auto s = granular::run_micromechanical_test(P, prm);
  EXPECT_NEAR(s.kbar / 0.5, 1., 0.01) << "kbar = " << s.kbar;
  EXPECT_NEAR(s.mean_normal_force / (2. * 10.), 1., 0.01) << s.mean_normal_force;
  // all of the platen's tangential work is dissipated by friction on the surface
  EXPECT_NEAR(s.kbar_F / s.kbar, 1., 0.01) << "kbar_F = " << s.kbar_F;
  EXPECT_LT(s.energy_balance_error, 0.01);
  for (const char *f : {"summary.csv", "history.csv", "parameters.prm", "solution.pvd",
                        "solution-00000.vtu"})
    EXPECT_TRUE(std::filesystem::exists(dir + "/" + f)) << f;
}

TEST(BareInterface, ViscoelasticRubberStillGivesSurfaceFriction)
{
  // docs/methods.md §7 and the viscoelasticity issue: the bare interface gives kbar = k_o also
  // with the Maxwell branch (mu_v = 5 mu_e, tau0 = 1e-4 s); viscous dissipation is
  // accounted for in the energy balance and kbar_F + kbar_V = kbar
  granular::CommandLineOptions options;
  const std::string dir = granular::testing::scratch_directory("bare-visco");
  options.output_directory = dir;
  options.set_entries = {"Particle/Enabled=false", "Geometry/Elements in x=10",
                         "Geometry/Elements in y=4", "Loading/Time step=2e-3",
                         "Rubber/Maxwell branch/Viscoelastic=true",
                         "Output/VTU output interval=0", "Output/Progress interval=100"};
  dealii::ParameterHandler prm;
  const auto P = granular::read_parameters(options, prm);
  const auto s = granular::run_micromechanical_test(P, prm);
  EXPECT_NEAR(s.kbar / 0.5, 1., 0.01) << "kbar = " << s.kbar;
  EXPECT_GE(s.kbar_V, 0.);
  EXPECT_NEAR((s.kbar_F + s.kbar_V) / s.kbar, 1., 0.01)
    << "kbar_F = " << s.kbar_F << ", kbar_V = " << s.kbar_V;
  EXPECT_LT(s.energy_balance_error, 0.01);
}

TEST(RubberBlockMesh, GmshFileWithDocumentedBoundaryIds)
{
  SmallBlock s;
  s.block.length    = 10.;
  s.block.height    = 7.5;
  s.block.mesh_file = std::string(GRANULAR_SOURCE_DIR) + "/meshes/graded-40x15.msh";
  auto b = s.make(0.); // the default density 1e-3 rho_P
  EXPECT_EQ(b->n_cells(), 600u);
  EXPECT_EQ(b->contact_points().size(), 2u * 40u);       // bottom (id 2)
  EXPECT_EQ(b->periodic_vertex_pairs().size(), 16u);     // left (0) / right (1)
  // the graded layers: contact points sit on y = y_b, weights sum to L0
  double length = 0.;
  for (const auto &p : b->contact_points())
    length += p.weight;
  EXPECT_NEAR(length, 10., 1e-12);
  // compression at the default time step, carried through the top (id 3) to the
  // bottom: after the load is held, F_N settles at the load
  for (unsigned int step = 1; step <= 400; ++step)
    {
      b->solve_step(4e-7, 0., 20. * std::min(1., step / 100.));
      b->commit_step();
    }
  EXPECT_NEAR(b->platen_forces().normal / 20., 1., 1e-3);
  EXPECT_LT(b->platen_vertical_displacement(), 0.);
  // a mesh that does not match Geometry/Block length is rejected
  s.block.length = 9.;
  EXPECT_THROW(s.make(0.), std::runtime_error);
}

// A mesh file is checked before work (Geometry/Mesh file): a mesh of triangles (it crashed
// the set-up) and a mesh with a crack, two cells side by side that do not share their
// middle nodes (it ran and gave a wrong k̄), a mesh whose left and right (periodic)
// boundaries have nodes at different heights, boundary ids that do not match their sides and
// a non-convex cell are rejected with ParameterError naming the entry and what is wrong; the
// same two cells sharing their nodes are accepted.
TEST(RubberBlockMesh, TrianglesAndCracksAreRejected)
{
  const std::string dir = granular::testing::scratch_directory("bad-meshes");
  std::filesystem::create_directories(dir);
  const auto write_msh = [&](const std::string &name, const std::string &nodes,
                             const std::string &elements) {
    const std::string path = dir + "/" + name + ".msh";
    std::ofstream(path) << "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n"
                        << nodes << "$EndNodes\n$Elements\n"
                        << elements << "$EndElements\n";
    return path;
  };
  // boundary lines: physical tag = boundary id (0 left, 1 right, 2 bottom, 3 top)
  const std::string triangles = write_msh(
    "triangles", "4\n1 0 0 0\n2 2 0 0\n3 2 1 0\n4 0 1 0\n",
    "6\n1 1 2 2 1 1 2\n2 1 2 1 2 2 3\n3 1 2 3 3 3 4\n4 1 2 0 4 4 1\n"
    "5 2 2 0 5 1 2 3\n6 2 2 0 5 1 3 4\n");
  const std::string quads_nodes = "6\n1 0 0 0\n2 1 0 0\n3 2 0 0\n4 2 1 0\n5 1 1 0\n6 0 1 0\n";
  const std::string quads_lines = "1 1 2 2 1 1 2\n2 1 2 2 1 2 3\n3 1 2 1 2 3 4\n"
                                  "4 1 2 3 3 4 5\n5 1 2 3 3 5 6\n6 1 2 0 4 6 1\n";
  const std::string shared = write_msh("shared", quads_nodes,
                                       "8\n" + quads_lines + "7 3 2 0 5 1 2 5 6\n8 3 2 0 5 2 3 4 5\n");
  // the crack: the right cell has its own copies 7, 8 of the middle nodes 2, 5
  const std::string cracked =
    write_msh("cracked", "8\n1 0 0 0\n2 1 0 0\n3 2 0 0\n4 2 1 0\n5 1 1 0\n6 0 1 0\n7 1 0 0\n8 1 1 0\n",
              "8\n1 1 2 2 1 1 2\n2 1 2 2 1 7 3\n3 1 2 1 2 3 4\n4 1 2 3 3 4 8\n5 1 2 3 3 5 6\n"
              "6 1 2 0 4 6 1\n7 3 2 0 5 1 2 5 6\n8 3 2 0 5 7 3 4 8\n");

  SmallBlock s;
  s.block.length = 2.;
  s.block.height = 1.;
  const auto expect_rejected = [&](const std::string &file, const std::string &why) {
    s.block.mesh_file = file;
    try
      {
        s.make(0.);
        ADD_FAILURE() << file << " was accepted";
      }
    catch (const granular::ParameterError &e)
      {
        EXPECT_EQ(e.entry(), "Geometry/Mesh file") << e.what();
        EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
      }
  };
  // two cells one above the other whose middle line runs from (0, 0.5) to (2, 0.4): the
  // left and right boundaries have nodes at different heights, the periodic cell cannot tie
  // them together
  const std::string unmatched =
    write_msh("unmatched", "6\n1 0 0 0\n2 2 0 0\n3 2 0.4 0\n4 0 0.5 0\n5 2 1 0\n6 0 1 0\n",
              "8\n1 1 2 2 1 1 2\n2 1 2 1 2 2 3\n3 1 2 1 2 3 5\n4 1 2 3 3 5 6\n"
              "5 1 2 0 4 6 4\n6 1 2 0 4 4 1\n7 3 2 0 5 1 2 3 4\n8 3 2 0 5 4 3 5 6\n");
  // boundary ids that do not match their sides: it passed the check and then hung in the
  // periodic constraints (left and right swapped, a bottom face tagged left) or loaded the
  // wrong faces (a foreign id on a top face)
  const auto with_line = [&](const std::string &name, const std::string &from,
                             const std::string &to) {
    std::string lines = quads_lines;
    lines.replace(lines.find(from), from.size(), to);
    return write_msh(name, quads_nodes,
                     "8\n" + lines + "7 3 2 0 5 1 2 5 6\n8 3 2 0 5 2 3 4 5\n");
  };
  expect_rejected(with_line("bottom-face-left", "2 1 2 2 1 2 3", "2 1 2 0 1 2 3"),
                  "the boundary face at (1.500000, 0.000000) on the bottom side has id 0, not 2");
  expect_rejected(with_line("top-face-foreign", "4 1 2 3 3 4 5", "4 1 2 7 3 4 5"),
                  "on the top side has id 7, not 3");
  {
    std::string lines = quads_lines;
    lines.replace(lines.find("3 1 2 1 2 3 4"), 13, "3 1 2 0 2 3 4");
    lines.replace(lines.find("6 1 2 0 4 6 1"), 13, "6 1 2 1 4 6 1");
    expect_rejected(write_msh("left-right-swapped", quads_nodes,
                              "8\n" + lines + "7 3 2 0 5 1 2 5 6\n8 3 2 0 5 2 3 4 5\n"),
                    "the boundary face at (0.000000, 0.500000) on the left side has id 1, not 0");
  }
  // a dart: four cells that tile the block, the upper right one non-convex at the inner
  // node (1.8, 0.8), where its Jacobian is negative although its area is positive
  const std::string dart = write_msh(
    "dart",
    "9\n1 0 0 0\n2 1 0 0\n3 2 0 0\n4 0 0.5 0\n5 1.8 0.8 0\n6 2 0.5 0\n7 0 1 0\n8 1 1 0\n"
    "9 2 1 0\n",
    "12\n1 1 2 2 1 1 2\n2 1 2 2 1 2 3\n3 1 2 1 2 3 6\n4 1 2 1 2 6 9\n5 1 2 3 3 9 8\n"
    "6 1 2 3 3 8 7\n7 1 2 0 4 7 4\n8 1 2 0 4 4 1\n9 3 2 0 5 1 2 5 4\n10 3 2 0 5 2 3 6 5\n"
    "11 3 2 0 5 4 5 8 7\n12 3 2 0 5 5 6 9 8\n");
  expect_rejected(dart, "is not convex or is inverted at its corner (1.800000, 0.800000)");
  expect_rejected(triangles, "not quadrilaterals");
  expect_rejected(cracked, "a crack");
  expect_rejected(unmatched, "the left boundary has a node at y = 0.5 mm that the right one "
                             "has not");
  s.block.mesh_file = shared;
  EXPECT_EQ(s.make(0.)->n_cells(), 2u);
}

namespace
{
  /// The block of @p s, clear of the surface (no contact), sheared by a smooth pulse of the
  /// platen's horizontal displacement, 0.05 mm sin^2(pi t / T) over T = 4e-4 s (about the
  /// period of its lowest shear mode, 4 H0 / c_s = 2.8e-4 s at rubber density, so that the
  /// pulse excites the low modes only), integrated over @p n_steps equal steps (a multiple
  /// of 20) to T: the horizontal position (mm) of the first bottom contact point at
  /// t = k T / 20, k = 1 ... 20, the numerical dissipation and the energy balance residual
  /// of BlockEnergies/BlockWork at T (N mm/mm).
  struct ShearPulseResult
  {
    std::vector<double> bottom_x;
    double              numerical_dissipation = 0., balance_residual = 0., platen_work = 0.;
  };
  ShearPulseResult shear_pulse(const SmallBlock &s, const unsigned int n_steps)
  {
    ShearPulseResult r;
    auto             b = s.make(1., 1.2e-9);
    const double T = 4e-4, dt = T / n_steps;
    for (unsigned int step = 1; step <= n_steps; ++step)
      {
        const double pulse = std::sin(M_PI * step * dt / T);
        b->solve_step(dt, 0.05 * pulse * pulse, 0.);
        b->commit_step();
        if (step % (n_steps / 20) == 0)
          r.bottom_x.push_back(b->contact_point_positions()[0][0]);
      }
    const auto e = b->energies();
    const auto w = b->work();
    r.numerical_dissipation = e.numerical_dissipation;
    r.balance_residual =
      w.bulk + w.surface + w.obstacle + w.platen - e.kinetic - e.numerical_dissipation;
    r.platen_work = w.platen;
    return r;
  }
} // namespace

// docs/methods.md §3.6: Newmark with gamma = 1 (beta = 0.5625, the runs' default) is
// first-order accurate against the trapezoidal rule's converged solution, damps a resolved
// vibration in proportion to the step, and closes the block's energy identity (work =
// Delta kinetic + numerical dissipation) to the Newton tolerance.
TEST(RubberBlockDynamics, NewmarkIsFirstOrderAndClosesItsEnergyIdentity)
{
  SmallBlock newmark;
  newmark.solver.newmark_gamma       = 1.;
  newmark.solver.newmark_beta        = 0.5625;
  newmark.solver.residual_tolerance  = 1e-12;
  newmark.solver.increment_tolerance = 1e-12;

  SmallBlock trapezoidal           = newmark;
  trapezoidal.solver.newmark_gamma = 0.5;
  trapezoidal.solver.newmark_beta  = 0.25;
  const std::vector<double> reference = shear_pulse(trapezoidal, 2560).bottom_x;
  // the largest error of the bottom's displacement over the pulse
  const auto error = [&](const std::vector<double> &x) {
    double e = 0.;
    for (unsigned int k = 0; k < x.size(); ++k)
      e = std::max(e, std::abs(x[k] - reference[k]));
    return e;
  };

  std::vector<double> error_newmark, dissipation;
  for (const unsigned int n : {20u, 40u, 80u})
    {
      const auto r = shear_pulse(newmark, n);
      error_newmark.push_back(error(r.bottom_x));
      dissipation.push_back(r.numerical_dissipation);
      EXPECT_GT(r.numerical_dissipation, 0.);
      EXPECT_LT(std::abs(r.balance_residual), 1e-8 * std::abs(r.platen_work)) << n;
      std::cout << n << " steps: bottom displacement error " << error_newmark.back()
                << " mm; numerical dissipation " << r.numerical_dissipation
                << " of a platen work " << r.platen_work << " N mm/mm" << std::endl;
    }
  // first order: the error halves with the step; the damping of a resolved mode falls in
  // proportion to omega dt
  for (unsigned int k = 0; k + 1 < error_newmark.size(); ++k)
    {
      EXPECT_NEAR(std::log2(error_newmark[k] / error_newmark[k + 1]), 1., 0.3);
      EXPECT_NEAR(std::log2(dissipation[k] / dissipation[k + 1]), 1., 0.4);
    }
}
