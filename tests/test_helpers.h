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
