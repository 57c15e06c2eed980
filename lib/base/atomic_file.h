#pragma once
/**
 * @file atomic_file.h
 * Result files are written atomically (docs/methods.md §8.2): the content goes to a temporary
 * name in the same directory, which is then renamed over the target, so a killed run
 * never leaves a truncated file where a complete one is expected.
 */
#include <string>
#include <utility>
#include <vector>

namespace granular
{
  /// Writes @p content to @p path atomically (temporary file + rename).
  /// Throws std::runtime_error naming the path if writing fails.
  void write_file_atomically(const std::string &path, const std::string &content);

  /**
   * A ParaView collection (.pvd) of (time, file) records, rewritten atomically after
   * every added record, so it stays valid while the run is in progress.
   */
  class PvdCollection
  {
  public:
    /// @param path the .pvd file; the records name files relative to its directory
    explicit PvdCollection(std::string path);
    /// Adds a record (time in s) and rewrites the .pvd.
    void add(double time, const std::string &file);

    /// Boost.Serialization of the records (checkpoint/restart); the path is not saved.
    template <class Archive>
    void serialize(Archive &ar, const unsigned int)
    {
      ar &records_;
    }

  private:
    std::string                                 path_;
    std::vector<std::pair<double, std::string>> records_;
  };
} // namespace granular
