// granular-interface — homogeneous-deformation (single material point) driver for
// the viscoelastic rubber of docs/methods.md §3.2–§3.4.
#ifndef GRANULAR_MATERIAL_MATERIAL_POINT_DRIVER_H
#define GRANULAR_MATERIAL_MATERIAL_POINT_DRIVER_H

#include <deal.II/base/symmetric_tensor.h>
#include <deal.II/base/tensor.h>

#include "material/maxwell_branch.h"
#include "material/ogden_material.h"

#include <vector>

namespace granular::material
{
  /// One point of a prescribed deformation path.
  struct DeformationPoint
  {
    /// Time (s).
    double t = 0.0;
    /// In-plane deformation gradient F(t) (reference → current, dimensionless,
    /// F33 = 1, det F > 0).
    Tensor<2, 2> F;
  };

  /// Material response at one point of the path.
  struct StressRecord
  {
    /// Time (s).
    double t = 0.0;
    /// Deformation gradient at t (copied from the path).
    Tensor<2, 2> F;
    /// Total deviatoric Kirchhoff stress τ_e,iso + τ_v (MPa, current frame, 3×3
    /// incl. the plane-strain τ_33). The pressure (volumetric U(J̃) of docs/methods.md §3.2)
    /// is EXCLUDED: it is carried by the Q1P0 pressure field of the FEM and is not
    /// a function of F alone there.
    SymmetricTensor<2, 3> kirchhoff;
    /// Total deviatoric Cauchy stress kirchhoff / det F (MPa).
    SymmetricTensor<2, 3> cauchy;
    /// Elastic-branch (isochoric Ogden) Kirchhoff stress (MPa).
    SymmetricTensor<2, 3> kirchhoff_elastic;
    /// Maxwell-branch Kirchhoff stress (MPa).
    SymmetricTensor<2, 3> kirchhoff_viscous;
    /// Maxwell history after the step (C_v⁻¹, q, accumulated dissipation).
    MaxwellState state;
    /// Viscous dissipation of the step ending at t (N·mm/mm³).
    double dissipation_increment = 0.0;
    /// Isochoric energies of the elastic and the Maxwell branch (MPa).
    double energy_elastic = 0.0, energy_viscous = 0.0;
  };

  /**
   * Drive one material point through a homogeneous deformation history: the
   * elastic Ogden branch (docs/methods.md §3.2, isochoric part) in parallel with the Maxwell
   * branch (docs/methods.md §3.3, §3.4), the branch history committed at every point (each step
   * is "converged" since F is prescribed).
   *
   * The first path point is the initial state: its record has the elastic stress,
   * the Maxwell stress of the given initial state evaluated without viscous flow
   * (no update, zero dissipation). Every later point i is one MaxwellBranch::update()
   * from point i−1 with Δt = t_i − t_{i−1}.
   *
   * @param elastic  elastic branch (its modulus is μ_e).
   * @param branch   Maxwell branch (μ_v = 0: purely elastic response).
   * @param path     time-ordered points (at least one).
   * @param initial  Maxwell history at path[0] (default: undeformed, relaxed).
   * @return one record per path point.
   * @throws std::invalid_argument if the path is empty or the times do not strictly
   *         increase; the errors of OgdenMaterial::evaluate() and
   *         MaxwellBranch::update() (det F ≤ 0, local Newton failure).
   */
  std::vector<StressRecord>
  drive_material_point(const OgdenMaterial                 &elastic,
                       const MaxwellBranch                 &branch,
                       const std::vector<DeformationPoint> &path,
                       const MaxwellState                  &initial = MaxwellState());

} // namespace granular::material

#endif
