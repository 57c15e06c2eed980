// The rubber block's mesh from a file. See block_mesh.h.
#include "fem/block_mesh.h"

#include "base/parameter_error.h"

#include <deal.II/base/exceptions.h>
#include <deal.II/grid/grid_in.h>
#include <deal.II/grid/grid_tools.h>

#include <cmath>
#include <fstream>
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
    const auto   box = dealii::GridTools::compute_bounding_box(triangulation);
    const double tol = 1e-8 * block.length;
    if (std::abs(box.lower_bound(0)) > tol || std::abs(box.lower_bound(1)) > tol ||
        std::abs(box.upper_bound(0) - block.length) > tol ||
        std::abs(box.upper_bound(1) - block.height) > tol)
      throw ParameterError(entry, block.mesh_file + " does not cover [0, " +
                                    std::to_string(block.length) + "] x [0, " +
                                    std::to_string(block.height) +
                                    "] (Geometry/Block length, Block height; meshes/README)");
    std::set<dealii::types::boundary_id> ids;
    for (const auto &face : triangulation.active_face_iterators())
      if (face->at_boundary())
        ids.insert(face->boundary_id());
    for (const dealii::types::boundary_id id : {0, 1, 2, 3})
      if (ids.count(id) == 0)
        throw ParameterError(entry, block.mesh_file + " has no boundary with id " +
                                      std::to_string(id) +
                                      " (0 left, 1 right, 2 bottom, 3 top: meshes/README)");
  }
} // namespace granular::fem
