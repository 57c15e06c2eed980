#pragma once
/**
 * @file block_mesh.h
 * The rubber block's mesh from a file (Geometry/Mesh file; meshes/README): read, checked
 * against the block's size and boundary ids. Used by the block and by the validation of the
 * parameters, so that an unreadable or wrong mesh file is rejected before any work starts.
 */
#include "fem/block_parameters.h"

#include <deal.II/grid/tria.h>

namespace granular::fem
{
  /**
   * Reads @p block.mesh_file (Gmsh .msh, else UCD) into @p triangulation (empty), in the
   * block's reference position [0, L0] x [0, H0], and checks that it covers that rectangle
   * and has the boundary ids 0 left, 1 right, 2 bottom, 3 top.
   * @throws ParameterError naming Geometry/Mesh file: the file cannot be opened or read as a
   *         mesh (deal.II's reader message), has cells that are not quadrilaterals, an
   *         inverted or degenerate cell, overlaps, gaps or a crack, does not cover the block,
   *         lacks a boundary id, or has nodes on its left and right (periodic) boundaries at
   *         different heights.
   */
  void read_block_mesh(const BlockParameters &block, dealii::Triangulation<2> &triangulation);
} // namespace granular::fem
