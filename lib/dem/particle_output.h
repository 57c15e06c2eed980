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
  /// The outlines of one particle for write_particle_vtu(): the particle first, then its
  /// periodic images (global coordinates, mm), and its rotation (rad).
  struct ParticleOutlines
  {
    std::vector<std::vector<dealii::Tensor<1, 2>>> outlines;
    double                                         rotation = 0.;
  };

  /**
   * Writes @p directory/particle-NNNNN.vtu atomically: one VTK_POLYGON cell per outline of
   * every particle of @p particles (global coordinates, mm, z = 0), with cell data
   * "particle" (its index in @p particles), "image" (0: the particle, 1: a periodic image)
   * and "rotation" (rad). Returns the file name. Throws std::runtime_error if the file cannot
   * be written.
   */
  std::string write_particle_vtu(const std::string &directory, unsigned int index,
                                 const std::vector<ParticleOutlines> &particles);

  /// The same for one particle with @p outlines and @p rotation.
  std::string write_particle_vtu(const std::string &directory, unsigned int index,
                                 const std::vector<std::vector<dealii::Tensor<1, 2>>> &outlines,
                                 double rotation);
} // namespace granular::dem
