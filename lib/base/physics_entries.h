#pragma once
/**
 * @file physics_entries.h
 * What two runs must share to be parts of one result: every parameter entry outside
 * subsection Output (the physics, the numerics, the loading). A restart compares them with
 * its checkpoint's (coupling/checkpoint.h), a resumed sweep with each completed point's
 * parameters.prm (sweep/sweep_runner.h); only the entries of subsection Output may differ.
 */
#include <string>
#include <utility>
#include <vector>

namespace dealii { class ParameterHandler; }

namespace granular
{
  /// Entries as ("Sub/section/Entry", value), in the handler's order.
  using ParameterEntryList = std::vector<std::pair<std::string, std::string>>;

  /// The entries of @p prm, without subsection Output; the value of Geometry/Mesh file is
  /// its mesh_file_identity() at the time of the call, so that a mesh file changed on disk
  /// under the same name, or a relative name read from another working directory, differs.
  ParameterEntryList physics_entries(const dealii::ParameterHandler &prm);

  /// "ABSOLUTE_PATH (N bytes, CRC-32 HEX)" of the mesh file @p path (relative to the working
  /// directory, as the program reads it); @p path itself if it is not a regular file.
  std::string mesh_file_identity(const std::string &path);

  /// The first line of a run's parameters.prm when it reads a mesh file: a comment
  /// "# Geometry/Mesh file: IDENTITY" (mesh_file_identity()); a resumed sweep compares it.
  std::string mesh_file_comment(const std::string &path);
  /// The identity in the comment line of mesh_file_comment() in the text @p parameters of a
  /// parameters.prm; "" if it has none.
  std::string mesh_file_identity_in(const std::string &parameters);

  /// The entries that differ between @p saved (what a result was computed with) and
  /// @p now (what it would be computed with now).
  struct PhysicsDifferences
  {
    std::string first; ///< the first differing entry (by name), "" if none
    std::string text;  ///< one line per entry, "\n  Entry: "old" SAVED, "new" now"
    bool        empty() const { return first.empty(); }
  };

  /// true if the entry values @p a and @p b are the same text or the same numbers
  /// ("1e-4" and "0.0001"; lists item by item).
  bool same_entry_value(const std::string &a, const std::string &b);

  /// Compares @p saved with @p now (same_entry_value()); @p where_saved says where the
  /// saved values are (e.g. "in the checkpoint"), for the lines of PhysicsDifferences::text.
  PhysicsDifferences physics_differences(const ParameterEntryList &saved,
                                         const ParameterEntryList &now,
                                         const std::string        &where_saved);
} // namespace granular
