#pragma once
/**
 * @file csv_fields.h
 * Reading and writing the fields of the program's CSV files (summary.csv, sweep.csv): comma
 * separated, a field with a comma or a quote quoted as in RFC 4180.
 */
#include <optional>
#include <string>
#include <vector>

namespace granular
{
  /// One cell of a CSV row: quoted if it holds a comma or a quote; newlines, tabs and the
  /// unit separator 0x1f flattened to blanks.
  std::string csv_field(std::string s);

  /// @p s without its trailing '\n' and '\r'.
  std::string strip_newline(std::string s);

  /// The number of fields of the CSV line @p line (unquoted fields).
  std::size_t n_fields(const std::string &line);

  /// The fields of the CSV row @p row (unquoted fields; an empty last field is not one).
  std::vector<std::string> csv_fields(const std::string &row);

  /// Field @p i (0-based) of the CSV row @p row; nothing if the row has fewer fields.
  std::optional<std::string> nth_csv_field(const std::string &row, std::size_t i);

  /// The number in field @p i of the CSV row @p row; nothing if there is none (an empty
  /// field, or one that is not a number).
  std::optional<double> csv_number(const std::string &row, std::size_t i);
} // namespace granular
