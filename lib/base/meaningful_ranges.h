#pragma once
/**
 * @file meaningful_ranges.h
 * The meaningful ranges of the physical magnitudes of granular-interface's parameters
 * (docs/running.md, Input is checked before any work starts): a value that double precision
 * holds may still be far outside anything a micromechanical test of a rubber interface can
 * mean (a slip velocity of 1e-300 mm/s, a pressure of 1e308 MPa), and would fail deep in the
 * solver with a message that names no entry. Each range spans many orders of magnitude
 * around the entry's default; ParameterEntries appends it to the entry's documentation (so
 * docs/parameters.md shows it) and refuses a positive value outside it, naming the entry.
 * Zero and negative values are left to the subsections' validate() (which say "must be
 * positive", or allow 0 where it switches something off).
 */
#include <string>

namespace granular
{
  /// A closed range [lower, upper] of positive values in @p unit.
  struct MeaningfulRange
  {
    double      lower;
    double      upper;
    const char *unit; ///< "MPa", "mm/s", ... ("" for a dimensionless number)
  };

  /// The meaningful range of the entry @p path ("Loading/Pressure"), or nullptr if it has
  /// none.
  const MeaningfulRange *meaningful_range(const std::string &path);

  /// The sentence appended to the entry's documentation: "Meaningful range: 1e-06 to
  /// 10 MPa; a value outside it is refused."
  std::string meaningful_range_text(const MeaningfulRange &range);

  /// Throws ParameterError naming @p path if @p value > 0 lies outside @p range.
  void check_meaningful_range(const std::string &path, const MeaningfulRange &range,
                              double value);
} // namespace granular
