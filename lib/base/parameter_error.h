#pragma once
/**
 * @file parameter_error.h
 * The exception thrown for invalid input (docs/methods.md §8.1): a parameter entry that is
 * unknown, malformed or physically inconsistent. The message always names the entry
 * as "Subsection/Entry" so a user can find it in the parameter file.
 */
#include <stdexcept>
#include <string>

namespace granular
{
  /// Invalid input, detected before any work starts. what() names the entry.
  class ParameterError : public std::runtime_error
  {
  public:
    /// @param entry  the full path of the offending entry, e.g. "Particle/Exponent p1"
    /// @param reason what is wrong with it, in the field's terms
    ParameterError(const std::string &entry, const std::string &reason)
      : std::runtime_error("invalid parameter '" + entry + "': " + reason)
      , entry_(entry)
    {}
    /// An error reported by the parameter file reader (deal.II's message already
    /// names the entry and the line): @p source is the file name or "--set".
    static ParameterError from_reader(const std::string &source,
                                      const std::string &message)
    {
      return ParameterError(source, message, 0);
    }
    /// The full path of the offending entry.
    const std::string &entry() const { return entry_; }

  private:
    ParameterError(const std::string &source, const std::string &message, int)
      : std::runtime_error("invalid parameter input in " + source + ": " + message)
      , entry_(source)
    {}
    std::string entry_;
  };

  /// Throws ParameterError(entry, ...) unless value > 0 and finite.
  void require_positive(const std::string &entry, double value,
                        const std::string &what);
} // namespace granular
