#pragma once
// Helpers shared by the GoogleTest files: vectors, a scratch directory per test, and the
// finite-difference check of the rubber block's Newton tangent.
#include <deal.II/base/tensor.h>

#include <filesystem>
#include <string>

namespace granular::testing
{
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
} // namespace granular::testing
