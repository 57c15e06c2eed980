// CSV fields. See csv_fields.h.
#include "base/csv_fields.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace granular
{
  std::string csv_field(std::string s)
  {
    for (char &c : s)
      if (c == '\n' || c == '\r' || c == '\t' || c == '\x1f')
        c = ' ';
    if (s.find_first_of(",\"") == std::string::npos)
      return s;
    std::string q = "\"";
    for (const char c : s)
      q += (c == '"') ? std::string("\"\"") : std::string(1, c);
    return q + '"';
  }

  std::string strip_newline(std::string s)
  {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r'))
      s.pop_back();
    return s;
  }

  std::size_t n_fields(const std::string &line)
  {
    return 1 + std::count(line.begin(), line.end(), ',');
  }

  std::vector<std::string> csv_fields(const std::string &row)
  {
    std::vector<std::string> fields;
    std::istringstream       in(row);
    for (std::string field; std::getline(in, field, ',');)
      fields.push_back(field);
    return fields;
  }

  std::optional<std::string> nth_csv_field(const std::string &row, const std::size_t i)
  {
    const std::vector<std::string> fields = csv_fields(row);
    if (i >= fields.size())
      return std::nullopt;
    return fields[i];
  }

  std::optional<double> csv_number(const std::string &row, const std::size_t i)
  {
    const auto field = nth_csv_field(row, i);
    if (!field)
      return std::nullopt;
    try
      {
        return std::stod(*field);
      }
    catch (const std::logic_error &)
      {
        return std::nullopt;
      }
  }
} // namespace granular
