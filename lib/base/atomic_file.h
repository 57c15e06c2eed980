#pragma once
/**
 * @file atomic_file.h
 * Result files are written atomically (docs/methods.md §8.2): the content goes to a temporary
 * name in the same directory, which is then renamed over the target, so a killed run
 * never leaves a truncated file where a complete one is expected.
 */
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace granular
{
  /// Writes @p content to @p path atomically (temporary file + rename).
  /// Throws std::runtime_error naming the path if writing fails.
  void write_file_atomically(const std::string &path, const std::string &content);

  /**
   * After a failed write to the line-oriented file @p path (a CSV file that a run appends
   * to, a full disk): cuts it back to its last complete line, so that it ends with '\n' and
   * holds no torn row. Does nothing if the file cannot be read. Never throws.
   */
  void cut_to_last_whole_line(const std::string &path);

  /**
   * After a failed write to the row file @p file at @p path (history.csv, energy.csv):
   * closes it, cuts it back to its last whole row (cut_to_last_whole_line()) and throws.
   * @throws std::runtime_error naming @p path and the system's reason (errno).
   */
  [[noreturn]] void stop_after_failed_row(std::ofstream &file, const std::string &path);

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
    /// Replaces the records by @p records (time in s, file name) and rewrites the .pvd.
    void assign(std::vector<std::pair<double, std::string>> records);
    /// The records: time (s) and file name, in the order they were added.
    const std::vector<std::pair<double, std::string>> &records() const { return records_; }

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
