#pragma once
/**
 * @file material_point_io.h
 * CSV input and output of the material-point driver (viscoelasticity issue): a
 * homogeneous in-plane deformation-gradient history in, the stress history out, for
 * material calibration against experiments (docs/methods.md §3.2-3.4).
 */
#include "material/material_point_driver.h"

#include <string>
#include <vector>

namespace granular::material
{
  /**
   * Reads a deformation history: a CSV file with the header t,F11,F12,F21,F22 (t in s,
   * F the in-plane deformation gradient, F33 = 1) and one row per time, t increasing.
   * Throws std::invalid_argument naming the file and line for a missing file, a wrong
   * header, a malformed row, det F <= 0 or times that do not increase.
   */
  std::vector<material::DeformationPoint> read_deformation_history(const std::string &path);

  /**
   * The stress history as CSV text: t, F11, F12, F21, F22, the total Cauchy stress
   * sigma_xx, sigma_yy, sigma_xy, sigma_zz (deviatoric part of both branches: the
   * pressure belongs to the volumetric constraint and is not part of the driver,
   * MPa), the Maxwell-branch Kirchhoff stress tau_v_xx, tau_v_yy, tau_v_xy (MPa), the
   * Payne variable q (1/s), the accumulated viscous dissipation density (MPa) and the
   * stored energy densities of both branches (MPa).
   */
  std::string stress_history_csv(const std::vector<material::StressRecord> &records);
} // namespace granular::material
