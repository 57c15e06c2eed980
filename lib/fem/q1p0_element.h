#pragma once
/**
 * @file q1p0_element.h
 * The element kernel of the rubber block (docs/methods.md §3.1-3.3): the bilinear plane-strain
 * quadrilateral with element-constant pressure and dilatation (Q1P0, 2 x 2 Gauss points).
 *
 * With element-constant pressure and dilatation the three-field (Simo-Taylor-Pister)
 * functional condenses exactly to the mean-dilatation potential
 *   Pi_e(u) = int_e W_iso(F) dV + V_e U(v_e / V_e),
 * J~ = v_e / V_e (current over reference element area), p~ = U'(J~)
 * (Hughes 1980, "Generalization of selective integration procedures to anisotropic and
 * nonlinear media", IJNME 15; Simo, Taylor & Pister 1985, CMAME 51; step-44 condenses the
 * same fields numerically). q1p0_cell_response() returns its residual and consistent
 * tangent directly. A Maxwell branch (docs/methods.md §3.3-3.4) acts in parallel with the Ogden
 * branch at every Gauss point.
 *
 * Units: mm, s, N (per mm thickness), MPa.
 */
#include "fem/quadrature_point_history.h"
#include "material/maxwell_branch.h"
#include "material/ogden_material.h"

#include <deal.II/base/tensor.h>
#include <deal.II/base/types.h>
#include <deal.II/fe/fe_values.h>
#include <deal.II/lac/full_matrix.h>
#include <deal.II/lac/vector.h>

#include <array>
#include <vector>

namespace granular::fem
{
  /// Dimensions of the Q1P0 element (plane, vector-valued Q1).
  namespace q1p0
  {
    /// displacement dofs (4 nodes x 2 components), Gauss points (2 x 2)
    constexpr unsigned int dofs_per_cell = 8, nodes_per_cell = 4, n_q = 4;
  } // namespace q1p0

  /// Reference-configuration data of one cell, computed once (the mesh never changes):
  /// shape gradients, weights, dof indices, lumped mass.
  struct CellReferenceData
  {
    /// global dof index, vector component (0: x, 1: y) and node of each local dof
    std::array<dealii::types::global_dof_index, q1p0::dofs_per_cell> dofs;
    std::array<unsigned int, q1p0::dofs_per_cell>                    component, node;
    /// reference gradients Grad N_a (1/mm) of the nodes' shape functions at each Gauss
    /// point
    std::array<std::array<dealii::Tensor<1, 2>, q1p0::nodes_per_cell>, q1p0::n_q> grad;
    /// Gauss weight times reference Jacobian (mm^2)
    std::array<double, q1p0::n_q> JxW;
    /// rho int N_a dV of each node (t per mm thickness): the row-sum lumped mass
    std::array<double, q1p0::nodes_per_cell> lumped_mass;
    /// reference area V_e (mm^2)
    double area;
  };

  /**
   * The reference data of the cell @p fe_values was last reinit'ed on (update_values,
   * update_gradients and update_JxW_values; FESystem(FE_Q(1), 2) with a 2 x 2 Gauss
   * rule), with global dof indices @p dofs (8 entries, the cell's get_dof_indices()) and
   * density @p density (t/mm^3).
   */
  CellReferenceData cell_reference_data(const dealii::FEValues<2>                        &fe_values,
                                        const std::vector<dealii::types::global_dof_index> &dofs,
                                        double density);

  /// Deformation gradient F = I + Grad u (2x2, in-plane, dimensionless) at Gauss point
  /// @p q of cell @p d for the global displacement vector @p u (mm).
  dealii::Tensor<2, 2> deformation_gradient(const CellReferenceData &d, unsigned int q,
                                            const dealii::Vector<double> &u);

  /// The constitutive models of the rubber (not owned).
  struct Q1P0Materials
  {
    const material::OgdenMaterial    &ogden;      ///< elastic branch W_iso
    const material::MaxwellBranch    &maxwell;    ///< used only if maxwell.active()
    const material::VolumetricEnergy &volumetric; ///< U(J~)
  };

  /// What q1p0_cell_response() returns for one cell (reused from cell to cell).
  struct Q1P0CellResponse
  {
    /// internal force vector f_e = dPi_e/du_e (N per mm thickness), 8 entries in the
    /// local dof order of CellReferenceData
    dealii::Vector<double> residual = dealii::Vector<double>(q1p0::dofs_per_cell);
    /// consistent tangent d f_e / d u_e (N/mm per mm thickness), 8 x 8; assembled as a
    /// symmetric matrix (upper triangle, mirrored); zero if not requested
    dealii::FullMatrix<double> tangent =
      dealii::FullMatrix<double>(q1p0::dofs_per_cell, q1p0::dofs_per_cell);
    /// element pressure p~ = U'(J~) (MPa)
    double pressure = 0.;
    /// element mean dilatation J~ = v_e / V_e (dimensionless)
    double dilatation = 1.;
  };

  /**
   * Residual and consistent tangent of the Q1P0 mean-dilatation element (see the file
   * comment), without inertia:
   *   f_e,i = sum_q P(F_q)[c_i] . Grad N_a_i JxW_q + p~ B_i,
   *   B_i   = sum_q J_q (F_q^-T Grad N_a_i)[c_i] JxW_q = d v_e / d u_i,
   *   K_ij  = sum_q Grad N_a_i . A[c_i][.][c_j][.] . Grad N_b_j JxW_q
   *           + p~ d B_i / d u_j + U''(J~) / V_e B_i B_j,
   * with P = P_iso + P_v (Ogden branch plus Maxwell branch) and A = dP/dF.
   * @param d           reference data of the cell
   * @param u           global displacement vector (mm) at t_{n+1}
   * @param u_n         global displacement vector (mm) at t_n (only for the Maxwell branch)
   * @param h          time step (s, > 0; only for the Maxwell branch)
   * @param materials   the rubber
   * @param history     the cell's n_q Maxwell-branch histories (nullptr: no branch). The
   *                    update starts from their converged states; the trial states,
   *                    trial energies W_v JxW and dissipation increments Delta D JxW
   *                    (N mm per mm thickness) are overwritten.
   * @param with_matrix compute the tangent (false: residual only, bit for bit the same
   *                    residual)
   * @param out         receives the result
   * @throws NewtonFailure if det F <= 0 at a Gauss point (an inverted element) or the
   *         Maxwell branch's update fails (a trial iterate far off the solution).
   */
  void q1p0_cell_response(const CellReferenceData &d, const dealii::Vector<double> &u,
                          const dealii::Vector<double> &u_n, double h,
                          const Q1P0Materials &materials, MaxwellPointHistory *history,
                          bool with_matrix, Q1P0CellResponse &out);
} // namespace granular::fem
