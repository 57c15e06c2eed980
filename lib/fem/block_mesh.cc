// The rubber block's mesh from a file. See block_mesh.h.
#include "fem/block_mesh.h"

#include "base/parameter_error.h"

#include <deal.II/base/exceptions.h>
#include <deal.II/grid/grid_in.h>
#include <deal.II/grid/grid_tools.h>

#include <cmath>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>

namespace granular::fem
{
  namespace
  {
    // deal.II's message quotes what it found in the file; of a binary file that is raw bytes,
    // which must not reach the terminal. Every run of bytes that are not printable ASCII
    // becomes one '?' (`binary` tells whether there was one), and a message longer than
    // `max_length` characters is cut.
    std::string printable_excerpt(const std::string &text, const std::size_t max_length,
                                  bool &binary)
    {
      std::string result;
      binary = false;
      for (std::size_t i = 0; i < text.size() && result.size() < max_length; ++i)
        {
          const unsigned char c = text[i];
          if ((c >= 0x20 && c < 0x7f) || c == '\n')
            result += static_cast<char>(c);
          else
            {
              binary = true;
              if (result.empty() || result.back() != '?')
                result += '?';
            }
        }
      if (result.size() >= max_length)
        result += "...";
      return result;
    }
  } // namespace

  void read_block_mesh(const BlockParameters &block, dealii::Triangulation<2> &triangulation)
  {
    const std::string entry = "Geometry/Mesh file";
    std::ifstream     in(block.mesh_file);
    if (!in)
      throw ParameterError(entry, "cannot open " + block.mesh_file);
    const std::string ext    = block.mesh_file.substr(block.mesh_file.find_last_of('.') + 1);
    const bool        gmsh   = ext == "msh";
    dealii::GridIn<2> grid_in(triangulation);
    try
      {
        grid_in.read(in, gmsh ? dealii::GridIn<2>::msh : dealii::GridIn<2>::ucd);
      }
    catch (const dealii::ExceptionBase &e)
      {
        // deal.II's message without its stack trace and source location
        std::ostringstream info;
        e.print_info(info);
        std::string message = info.str();
        message.erase(message.find_last_not_of(" \n") + 1);
        message.erase(0, message.find_first_not_of(" \n"));
        bool binary = false;
        message     = printable_excerpt(message, 200, binary);
        throw ParameterError(entry, block.mesh_file + " cannot be read as a " +
                                      (gmsh ? "Gmsh (.msh)" : "UCD") + " mesh: " +
                                      (message.empty() ? e.get_exc_name() : message) +
                                      (binary ? " (the file holds binary data; the mesh must be a "
                                                "text file: Gmsh .msh in ASCII, or UCD)" :
                                                ""));
      }
    if (!triangulation.all_reference_cells_are_hyper_cube())
      throw ParameterError(entry, block.mesh_file +
                                    " has cells that are not quadrilaterals (triangles); the "
                                    "block needs a mesh of quadrilaterals (Q1P0 elements)");
    const auto   box = dealii::GridTools::compute_bounding_box(triangulation);
    const double tol = 1e-8 * block.length;
    if (std::abs(box.lower_bound(0)) > tol || std::abs(box.lower_bound(1)) > tol ||
        std::abs(box.upper_bound(0) - block.length) > tol ||
        std::abs(box.upper_bound(1) - block.height) > tol)
      throw ParameterError(entry, block.mesh_file + " does not cover [0, " +
                                    std::to_string(block.length) + "] x [0, " +
                                    std::to_string(block.height) +
                                    "] (Geometry/Block length, Block height; meshes/README)");
    // every cell with positive area, together exactly the block's (no overlaps, no gaps)
    double area = 0.;
    for (const auto &cell : triangulation.active_cell_iterators())
      {
        const double a = cell->measure();
        if (!(a > 0.))
          throw ParameterError(entry, block.mesh_file + ": the cell at (" +
                                        std::to_string(cell->center()[0]) + ", " +
                                        std::to_string(cell->center()[1]) +
                                        ") is inverted or degenerate (area " +
                                        std::to_string(a) + " mm^2)");
        // the bilinear map's Jacobian is positive in the whole cell if and only if it is at
        // the four corners: the cross product of the two edges that meet there (vertices
        // in deal.II's order, 0 1 / 2 3 lexicographic)
        static constexpr unsigned int corner[4][3] = {{0, 1, 2}, {1, 3, 0}, {3, 2, 1}, {2, 0, 3}};
        for (const auto &c : corner)
          {
            const dealii::Tensor<1, 2> e1 = cell->vertex(c[1]) - cell->vertex(c[0]),
                                       e2 = cell->vertex(c[2]) - cell->vertex(c[0]);
            if (!(e1[0] * e2[1] - e1[1] * e2[0] > 0.))
              throw ParameterError(
                entry, block.mesh_file + ": the cell at (" + std::to_string(cell->center()[0]) +
                         ", " + std::to_string(cell->center()[1]) +
                         ") is not convex or is inverted at its corner (" +
                         std::to_string(cell->vertex(c[0])[0]) + ", " +
                         std::to_string(cell->vertex(c[0])[1]) +
                         "): its Jacobian is not positive there");
          }
        area += a;
      }
    if (std::abs(area - block.length * block.height) > 1e-8 * block.length * block.height)
      throw ParameterError(entry, block.mesh_file + ": its cells cover " +
                                    std::to_string(area) + " mm^2, the block " +
                                    std::to_string(block.length * block.height) +
                                    " mm^2 (cells overlap or leave gaps)");
    // boundary faces only on the block's sides: one inside it is a crack (nodes not shared)
    std::set<dealii::types::boundary_id> ids;
    for (const auto &face : triangulation.active_face_iterators())
      if (face->at_boundary())
        {
          ids.insert(face->boundary_id());
          const auto c       = face->center();
          const bool on_side = std::abs(c[0]) < tol || std::abs(c[0] - block.length) < tol ||
                               std::abs(c[1]) < tol || std::abs(c[1] - block.height) < tol;
          if (!on_side)
            throw ParameterError(entry, block.mesh_file + " has a boundary face inside the "
                                          "block, at (" + std::to_string(c[0]) + ", " +
                                          std::to_string(c[1]) +
                                          "): a crack (neighbouring cells do not share their "
                                          "nodes) or a hole");
        }
    // each boundary face carries the id of its side: a wrong one ties the wrong nodes
    // together in the periodic constraints or loads the wrong face
    for (const auto &face : triangulation.active_face_iterators())
      if (face->at_boundary())
        {
          const auto c = face->center();
          const dealii::types::boundary_id side =
            std::abs(c[0]) < tol                ? 0 :
            std::abs(c[0] - block.length) < tol ? 1 :
            std::abs(c[1]) < tol                ? 2 :
                                                  3;
          static const char *const side_names[4] = {"left", "right", "bottom", "top"};
          if (face->boundary_id() != side)
            throw ParameterError(entry, block.mesh_file + ": the boundary face at (" +
                                          std::to_string(c[0]) + ", " + std::to_string(c[1]) +
                                          ") on the " + side_names[side] + " side has id " +
                                          std::to_string(face->boundary_id()) + ", not " +
                                          std::to_string(side) +
                                          " (0 left, 1 right, 2 bottom, 3 top: meshes/README)");
        }
    for (const dealii::types::boundary_id id : {0, 1, 2, 3})
      if (ids.count(id) == 0)
        throw ParameterError(entry, block.mesh_file + " has no boundary with id " +
                                      std::to_string(id) +
                                      " (0 left, 1 right, 2 bottom, 3 top: meshes/README)");
    // the cell is periodic in x: u(0, y) = u(L0, y) node by node, so the left (id 0) and
    // the right boundary (id 1) need their nodes at the same heights
    std::set<double> left, right;
    for (const auto &face : triangulation.active_face_iterators())
      if (face->at_boundary() && (face->boundary_id() == 0 || face->boundary_id() == 1))
        for (unsigned int v = 0; v < 2; ++v)
          (face->boundary_id() == 0 ? left : right).insert(face->vertex(v)[1]);
    const double height_tol = 1e-8 * block.height;
    const auto   unmatched  = [&](const std::set<double> &a, const std::set<double> &b) {
      for (const double y : a)
        {
          const auto near = b.lower_bound(y - height_tol);
          if (near == b.end() || *near > y + height_tol)
            return std::optional<double>(y);
        }
      return std::optional<double>();
    };
    const std::optional<double> only_left = unmatched(left, right), only_right = unmatched(right, left);
    if (only_left || only_right)
      {
        std::ostringstream o;
        o << block.mesh_file << ": the nodes of the left boundary (id 0, " << left.size()
          << " nodes) and of the right boundary (id 1, " << right.size()
          << " nodes) are not at the same heights: the "
          << (only_left ? "left" : "right") << " boundary has a node at y = "
          << (only_left ? *only_left : *only_right) << " mm that the "
          << (only_left ? "right" : "left")
          << " one has not. The cell is periodic in x, u(0, y) = u(L0, y) node by node, so "
             "both sides need the same node heights (meshes/README)";
        throw ParameterError(entry, o.str());
      }
  }
} // namespace granular::fem
