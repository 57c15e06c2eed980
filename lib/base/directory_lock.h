#pragma once
/**
 * @file directory_lock.h
 * One run per output directory (docs/running.md, Output directory): a run holds an
 * exclusive advisory lock (flock(2)) on its output directory while it writes there, so a
 * second run started on the same directory, even at the same moment, is refused instead of
 * mixing its rows into the first one's files. The lock belongs to the open directory and
 * ends with it (also when the process is killed); it leaves no file behind.
 */
#include <string>

namespace granular
{
  /// See the file comment. Not copyable; the lock is released by the destructor.
  class DirectoryLock
  {
  public:
    /**
     * Locks the existing directory @p dir.
     * @throws ParameterError naming Output/Output directory if another process (or another
     *         DirectoryLock of this one) holds the lock; std::runtime_error naming @p dir if
     *         it cannot be opened.
     */
    explicit DirectoryLock(const std::string &dir);
    ~DirectoryLock();
    DirectoryLock(const DirectoryLock &)            = delete;
    DirectoryLock &operator=(const DirectoryLock &) = delete;

  private:
    int fd_ = -1;
  };
} // namespace granular
