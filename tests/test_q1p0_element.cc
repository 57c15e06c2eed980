// The Q1P0 element kernel (fem/q1p0_element.h) on one cell: a homogeneous deformation
// gives the nodal forces of the analytic first Piola stress (Ogden with alpha = 2, i.e.
// the neo-Hookean W = mu/2 (I1bar - 3), plus p~ J F^-T with p~ = U'(J)), also with the
// Maxwell branch in parallel, whose trial history the kernel writes and the history's
// commit accepts; the residual-only call gives the same residual bit for bit; an inverted
// element is a NewtonFailure.
#include "base/boundary_obstacle.h"
#include "fem/q1p0_element.h"
#include "fem/quadrature_point_history.h"
#include "material/maxwell_branch.h"
#include "material/ogden_material.h"

#include <deal.II/base/quadrature_lib.h>
#include <deal.II/dofs/dof_handler.h>
#include <deal.II/fe/fe_q.h>
#include <deal.II/fe/fe_system.h>
#include <deal.II/fe/fe_values.h>
#include <deal.II/grid/grid_generator.h>
#include <deal.II/grid/tria.h>

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace
{
  using namespace dealii;
  using granular::fem::CellReferenceData;
  using granular::fem::Q1P0CellResponse;
  using granular::fem::Q1P0Materials;
  namespace q1p0 = granular::fem::q1p0;

  constexpr double Lx = 2., Ly = 1.5; // the cell [0, Lx] x [0, Ly] (mm)
  constexpr double mu = 0.5, kappa = 25.; // MPa

  /// One cell, its reference data and the reference positions of its dofs' nodes.
  struct OneCell
  {
    Triangulation<2>      tria;
    FESystem<2>           fe{FE_Q<2>(1), 2};
    DoFHandler<2>         dof_handler;
    CellReferenceData     data;
    std::vector<Point<2>> node_position; // per local dof
    OneCell()
    {
      GridGenerator::hyper_rectangle(tria, Point<2>(0., 0.), Point<2>(Lx, Ly));
      dof_handler.reinit(tria);
      dof_handler.distribute_dofs(fe);
      QGauss<2>   quadrature(2);
      FEValues<2> fe_values(fe, quadrature,
                            update_values | update_gradients | update_JxW_values);
      const auto cell = dof_handler.begin_active();
      fe_values.reinit(cell);
      std::vector<types::global_dof_index> dofs(q1p0::dofs_per_cell);
      cell->get_dof_indices(dofs);
      data = granular::fem::cell_reference_data(fe_values, dofs, 1e-9);
      for (unsigned int k = 0; k < q1p0::dofs_per_cell; ++k)
        node_position.push_back(cell->vertex(data.node[k]));
    }
    /// u = (F - I) X at the nodes (global vector, here equal to the cell's)
    Vector<double> homogeneous(const Tensor<2, 2> &F) const
    {
      Vector<double> u(q1p0::dofs_per_cell);
      for (unsigned int k = 0; k < q1p0::dofs_per_cell; ++k)
        {
          const unsigned int c = data.component[k];
          const Point<2>    &X = node_position[k];
          u[data.dofs[k]]      = F[c][0] * X[0] + F[c][1] * X[1] - X[c];
        }
      return u;
    }
    /// int_e Grad N_a dV of the node of local dof k: (+-Ly/2, +-Lx/2)
    Tensor<1, 2> integrated_gradient(unsigned int k) const
    {
      const Point<2> &X = node_position[k];
      Tensor<1, 2>    G;
      G[0] = (X[0] > 0.5 * Lx ? 1. : -1.) * 0.5 * Ly;
      G[1] = (X[1] > 0.5 * Ly ? 1. : -1.) * 0.5 * Lx;
      return G;
    }
  };

  /// P = mu J^-2/3 (F - I1/3 F^-T) + U'(J) J F^-T, I1 = tr(F^T F) + 1 (plane strain)
  Tensor<2, 2> analytic_first_piola(const Tensor<2, 2> &F)
  {
    const double       J     = determinant(F);
    const double       I1    = scalar_product(F, F) + 1.;
    const Tensor<2, 2> F_invT = transpose(invert(F));
    const double       p      = 0.5 * kappa * (J - 1. / J);
    return mu * std::pow(J, -2. / 3.) * (F - I1 / 3. * F_invT) + p * J * F_invT;
  }

  const Tensor<2, 2> F_homogeneous({{1.2, 0.3}, {-0.1, 0.9}}); // J = 1.11
} // namespace

TEST(Q1P0Element, HomogeneousDeformationGivesTheAnalyticStress)
{
  const OneCell                             cell;
  const granular::material::OgdenMaterial   ogden(mu, {2.}, {1.});
  const granular::material::MaxwellBranch   no_branch(0., {2.}, {1.}, 1., 0., 1.);
  const granular::material::VolumetricEnergy volumetric{kappa};
  const Q1P0Materials materials{ogden, no_branch, volumetric};
  const Vector<double> u = cell.homogeneous(F_homogeneous), u_n(q1p0::dofs_per_cell);

  Q1P0CellResponse r;
  granular::fem::q1p0_cell_response(cell.data, u, u_n, 1e-3, materials, nullptr, true, r);

  const double J = determinant(F_homogeneous);
  EXPECT_NEAR(r.dilatation, J, 1e-14);
  EXPECT_NEAR(r.pressure, 0.5 * kappa * (J - 1. / J), 1e-12 * kappa);
  const Tensor<2, 2> P     = analytic_first_piola(F_homogeneous);
  const double       scale = P.norm() * Lx * Ly;
  for (unsigned int k = 0; k < q1p0::dofs_per_cell; ++k)
    EXPECT_NEAR(r.residual[k], P[cell.data.component[k]] * cell.integrated_gradient(k),
                1e-12 * scale)
      << "local dof " << k;
  // the tangent is symmetric and annihilates the rigid translations
  for (unsigned int i = 0; i < q1p0::dofs_per_cell; ++i)
    {
      double row_x = 0., row_y = 0.;
      for (unsigned int j = 0; j < q1p0::dofs_per_cell; ++j)
        {
          EXPECT_EQ(r.tangent(i, j), r.tangent(j, i));
          (cell.data.component[j] == 0 ? row_x : row_y) += r.tangent(i, j);
        }
      EXPECT_NEAR(row_x, 0., 1e-12 * kappa);
      EXPECT_NEAR(row_y, 0., 1e-12 * kappa);
    }
}

TEST(Q1P0Element, MaxwellBranchAddsItsStressAndWritesTheTrialHistory)
{
  // the homogeneous step F_n = I -> F of one Gauss-point history per point: the nodal
  // forces add the branch's P_v, the trial energies and dissipation increments sum to
  // their densities times the cell area, and only the commit changes the converged state
  const OneCell                              cell;
  const granular::material::OgdenMaterial    ogden(mu, {2.}, {1.});
  const granular::material::MaxwellBranch    branch(2. * mu, {2.}, {1.}, 1e-3, 1e-4, 1e-3);
  const granular::material::VolumetricEnergy volumetric{kappa};
  const Q1P0Materials materials{ogden, branch, volumetric};
  const double        dt = 5e-4;
  const Vector<double> u = cell.homogeneous(F_homogeneous), u_n(q1p0::dofs_per_cell);

  granular::fem::QuadraturePointHistory history;
  history.reinit(1, q1p0::n_q);
  Q1P0CellResponse r;
  granular::fem::q1p0_cell_response(cell.data, u, u_n, dt, materials, history.cell(0), true,
                                    r);

  const Tensor<2, 2> I({{1., 0.}, {0., 1.}});
  const auto v = branch.update(granular::material::MaxwellState(), I, F_homogeneous, dt, false);
  ASSERT_GT(v.dissipation_increment, 0.);
  const Tensor<2, 2> P     = analytic_first_piola(F_homogeneous) + v.first_piola;
  const double       scale = P.norm() * Lx * Ly;
  for (unsigned int k = 0; k < q1p0::dofs_per_cell; ++k)
    EXPECT_NEAR(r.residual[k], P[cell.data.component[k]] * cell.integrated_gradient(k),
                1e-12 * scale)
      << "local dof " << k;

  double energy = 0., dissipation = 0.;
  for (unsigned int q = 0; q < q1p0::n_q; ++q)
    {
      const auto &h = history.cell(0)[q];
      energy += h.energy_trial;
      dissipation += h.dissipation_increment;
      EXPECT_EQ(h.energy_converged, 0.);
      EXPECT_EQ(h.converged.dissipation, 0.);
      EXPECT_NEAR(h.trial.q, v.state.q, 1e-12 * v.state.q);
    }
  EXPECT_NEAR(energy, v.energy * Lx * Ly, 1e-12 * v.energy * Lx * Ly);
  EXPECT_NEAR(dissipation, v.dissipation_increment * Lx * Ly,
              1e-12 * v.dissipation_increment * Lx * Ly);

  double viscous_dissipation = 0.;
  history.commit(viscous_dissipation);
  EXPECT_EQ(viscous_dissipation, dissipation);
  for (unsigned int q = 0; q < q1p0::n_q; ++q)
    {
      const auto &h = history.cell(0)[q];
      EXPECT_EQ(h.energy_converged, h.energy_trial);
      EXPECT_EQ(h.converged.q, h.trial.q);
      EXPECT_EQ(h.converged.dissipation, h.trial.dissipation);
    }
}

TEST(Q1P0Element, ResidualOnlyCallGivesTheSameResidualBitForBit)
{
  // the default Ogden set of docs/methods.md §3.5 and a Maxwell branch with the Payne effect
  const OneCell                              cell;
  const auto ogden = granular::material::OgdenMaterial::default_set(mu);
  const granular::material::MaxwellBranch    branch(2. * mu, {1.8, -2., 7.},
                                                    {0.661, -0.231, 0.0496}, 1e-3, 1e-4, 1e-3);
  const granular::material::VolumetricEnergy volumetric{kappa};
  const Q1P0Materials materials{ogden, branch, volumetric};
  std::mt19937                           rng(7);
  std::uniform_real_distribution<double> U(-0.1, 0.1);
  Vector<double> u(q1p0::dofs_per_cell), u_n(q1p0::dofs_per_cell);
  for (unsigned int i = 0; i < u.size(); ++i)
    {
      u[i]   = U(rng);
      u_n[i] = 0.5 * U(rng);
    }
  granular::fem::QuadraturePointHistory history;
  history.reinit(1, q1p0::n_q);
  Q1P0CellResponse with, without;
  granular::fem::q1p0_cell_response(cell.data, u, u_n, 1e-4, materials, history.cell(0), true,
                                    with);
  granular::fem::q1p0_cell_response(cell.data, u, u_n, 1e-4, materials, history.cell(0), false,
                                    without);
  for (unsigned int i = 0; i < q1p0::dofs_per_cell; ++i)
    {
      EXPECT_EQ(with.residual[i], without.residual[i]);
      for (unsigned int j = 0; j < q1p0::dofs_per_cell; ++j)
        EXPECT_EQ(without.tangent(i, j), 0.);
    }
  EXPECT_EQ(with.pressure, without.pressure);
}

TEST(Q1P0Element, InvertedElementIsANewtonFailure)
{
  const OneCell                              cell;
  const granular::material::OgdenMaterial    ogden(mu, {2.}, {1.});
  const granular::material::MaxwellBranch    no_branch(0., {2.}, {1.}, 1., 0., 1.);
  const granular::material::VolumetricEnergy volumetric{kappa};
  const Q1P0Materials materials{ogden, no_branch, volumetric};
  // a reflection in x: det F = -1 at every Gauss point
  const Vector<double> u = cell.homogeneous(Tensor<2, 2>({{-1., 0.}, {0., 1.}})),
                       u_n(q1p0::dofs_per_cell);
  Q1P0CellResponse r;
  EXPECT_THROW(granular::fem::q1p0_cell_response(cell.data, u, u_n, 1e-3, materials, nullptr,
                                                 true, r),
               granular::NewtonFailure);
}
