#pragma once
/**
 * @file particle_output.h
 * ParaView output of the particle (docs/methods.md §8.2): its outline polygon, and the outlines
 * of its periodic images where they overlap the cell, as VTK polygons in a .vtu file.
 */
#include <deal.II/base/tensor.h>

#include <string>
#include <vector>

namespace granular::dem
{
  /**
   * Writes @p directory/particle-NNNNN.vtu atomically: one VTK_POLYGON cell per
   * outline (global coordinates, mm, z = 0), with cell data "image" (0: the particle,
   * 1: a periodic image) and "rotation" (rad). Returns the file name.
   */
  std::string write_particle_vtu(const std::string &directory, unsigned int index,
                                 const std::vector<std::vector<dealii::Tensor<1, 2>>> &outlines,
                                 double rotation);
} // namespace granular::dem
