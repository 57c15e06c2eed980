#pragma once
// Helpers shared by the GoogleTest files (the one test header): vectors, a scratch
// directory per test, and the finite-difference check of the rubber block's Newton tangent.
#include "fem/rubber_block.h"

#include <deal.II/base/tensor.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace granular::testing
{
  /// The whole content of the file at @p path (empty if it cannot be read).
  inline std::string read_file(const std::string &path)
  {
    std::ifstream      in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }

  /// The 2D vector (a, b) (global or particle frame, units of the caller).
  inline dealii::Tensor<1, 2> vec(const double a, const double b)
  {
    dealii::Tensor<1, 2> v;
    v[0] = a;
    v[1] = b;
    return v;
  }

  /// a x b . e3 = a1 b2 - a2 b1.
  inline double cross(const dealii::Tensor<1, 2> &a, const dealii::Tensor<1, 2> &b)
  {
    return a[0] * b[1] - a[1] * b[0];
  }

  /// A fresh, empty directory "granular-test-NAME" in the system's temporary directory.
  inline std::string scratch_directory(const std::string &name)
  {
    const auto dir = std::filesystem::temp_directory_path() / ("granular-test-" + name);
    std::filesystem::remove_all(dir);
    return dir.string();
  }

  /// A structured mesh of [0, @p L] x [0, @p H] (mm) with @p nx x @p ny quadrilaterals in
  /// Gmsh's format 2.2 at @p path, boundary lines tagged 0 left, 1 right, 2 bottom, 3 top
  /// (meshes/README); its node in row ny / 2, column nx / 2 is moved up by @p shift (mm).
  inline void write_structured_msh(const std::string &path, const double L, const double H,
                                   const unsigned int nx, const unsigned int ny,
                                   const double shift)
  {
    const auto node = [&](unsigned int i, unsigned int j) { return j * (nx + 1) + i + 1; };
    std::ostringstream m;
    m << "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n" << (nx + 1) * (ny + 1) << "\n";
    for (unsigned int j = 0; j <= ny; ++j)
      for (unsigned int i = 0; i <= nx; ++i)
        m << node(i, j) << ' ' << L * i / nx << ' '
          << H * j / ny + (i == nx / 2 && j == ny / 2 ? shift : 0.) << " 0\n";
    std::vector<std::string> elements;
    const auto line = [&](unsigned int id, unsigned int a, unsigned int b) {
      elements.push_back("1 2 " + std::to_string(id) + " 1 " + std::to_string(a) + " " +
                         std::to_string(b));
    };
    for (unsigned int i = 0; i < nx; ++i)
      line(2, node(i, 0), node(i + 1, 0)), line(3, node(i + 1, ny), node(i, ny));
    for (unsigned int j = 0; j < ny; ++j)
      line(1, node(nx, j), node(nx, j + 1)), line(0, node(0, j + 1), node(0, j));
    for (unsigned int j = 0; j < ny; ++j)
      for (unsigned int i = 0; i < nx; ++i)
        elements.push_back("3 2 0 5 " + std::to_string(node(i, j)) + " " +
                           std::to_string(node(i + 1, j)) + " " +
                           std::to_string(node(i + 1, j + 1)) + " " +
                           std::to_string(node(i, j + 1)));
    m << "$EndNodes\n$Elements\n" << elements.size() << "\n";
    for (std::size_t k = 0; k < elements.size(); ++k)
      m << k + 1 << ' ' << elements[k] << "\n";
    m << "$EndElements\n";
    std::ofstream(path) << m.str();
  }

  /// A CSV file with a header line: the column names and the rows, every field read as a
  /// number (a text field such as history.csv's phase reads as NaN).
  struct CsvTable
  {
    std::vector<std::string>         names;
    std::vector<std::vector<double>> rows;

    bool has_column(const std::string &name) const
    {
      return std::find(names.begin(), names.end(), name) != names.end();
    }
    /// Index of column @p name; throws std::out_of_range if there is none.
    unsigned int column(const std::string &name) const
    {
      const auto it = std::find(names.begin(), names.end(), name);
      if (it == names.end())
        throw std::out_of_range("no column " + name);
      return static_cast<unsigned int>(it - names.begin());
    }
  };

  /// Reads @p path (throws std::runtime_error if it cannot be opened).
  inline CsvTable read_csv(const std::string &path)
  {
    std::ifstream in(path);
    if (!in)
      throw std::runtime_error("cannot read " + path);
    CsvTable    table;
    std::string line, field;
    const auto  split = [&](const std::string &l) {
      std::vector<std::string> fields;
      std::istringstream       s(l);
      while (std::getline(s, field, ','))
        fields.push_back(field);
      if (!l.empty() && l.back() == ',')
        fields.emplace_back();
      return fields;
    };
    if (std::getline(in, line))
      table.names = split(line);
    while (std::getline(in, line))
      {
        std::vector<double> row;
        for (const std::string &f : split(line))
          {
            char        *end = nullptr;
            const double v   = std::strtod(f.c_str(), &end);
            row.push_back(!f.empty() && end && *end == '\0' ? v : std::nan(""));
          }
        table.rows.push_back(std::move(row));
      }
    return table;
  }

  /**
   * max over unconstrained (i, j) of |K_ij - dr_i/du_j| / max |K|, with dr/du by central
   * differences (step 1e-7 mm or rad) of RubberBlock::residual_and_tangent() at @p u for a
   * step @p dt (s) and platen load @p load (N/mm). @p u may extend the FE dofs by the
   * unknowns of a movable obstacle (those are unconstrained).
   */
  inline double
  relative_tangent_error(fem::RubberBlock &b, const std::vector<double> &u, const double dt,
                         const double load)
  {
    std::vector<double>              r, r_plus, r_minus;
    std::vector<std::vector<double>> K, dummy;
    b.residual_and_tangent(u, dt, load, r, K);
    auto constrained = b.constrained_dofs();
    constrained.resize(u.size(), false);
    double k_max = 0., err = 0.;
    for (const auto &row : K)
      for (const double v : row)
        k_max = std::max(k_max, std::abs(v));
    const double h = 1e-7;
    for (unsigned int j = 0; j < u.size(); ++j)
      {
        if (constrained[j])
          continue;
        std::vector<double> up = u, um = u;
        up[j] += h;
        um[j] -= h;
        b.distribute_constraints(up);
        b.distribute_constraints(um);
        b.residual_and_tangent(up, dt, load, r_plus, dummy);
        b.residual_and_tangent(um, dt, load, r_minus, dummy);
        for (unsigned int i = 0; i < u.size(); ++i)
          if (!constrained[i])
            err = std::max(err, std::abs(K[i][j] - (r_plus[i] - r_minus[i]) / (2. * h)));
      }
    return err / k_max;
  }
} // namespace granular::testing
