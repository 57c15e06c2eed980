// The entries that a restart or a resumed sweep must share with its earlier part. See
// physics_entries.h.
#include "base/physics_entries.h"

#include <deal.II/base/parameter_handler.h>

#include <boost/crc.hpp>

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iterator>
#include <cstdlib>
#include <map>
#include <sstream>

namespace granular
{
  std::string mesh_file_identity(const std::string &path)
  {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path  absolute = fs::absolute(path, ec).lexically_normal();
    if (ec || !fs::is_regular_file(absolute, ec))
      return path;
    std::ifstream      in(absolute, std::ios::binary);
    const std::string  content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    boost::crc_32_type crc;
    crc.process_bytes(content.data(), content.size());
    std::ostringstream s;
    s << absolute.string() << " (" << content.size() << " bytes, CRC-32 " << std::hex
      << std::setw(8) << std::setfill('0') << crc.checksum() << ")";
    return s.str();
  }

  namespace
  {
    const std::string mesh_comment_start = "# Geometry/Mesh file: ";
  }

  std::string mesh_file_comment(const std::string &path)
  {
    return mesh_comment_start + mesh_file_identity(path) + "\n";
  }

  std::string mesh_file_identity_in(const std::string &parameters)
  {
    if (parameters.rfind(mesh_comment_start, 0) != 0)
      return "";
    const auto end = parameters.find('\n');
    return parameters.substr(mesh_comment_start.size(),
                             end == std::string::npos ? std::string::npos :
                                                        end - mesh_comment_start.size());
  }

  ParameterEntryList physics_entries(const dealii::ParameterHandler &prm)
  {
    std::ostringstream text;
    prm.print_parameters(text, dealii::ParameterHandler::ShortPRM);
    ParameterEntryList       entries;
    std::vector<std::string> path;
    std::istringstream       in(text.str());
    std::string              line;
    auto trim = [](const std::string &s) {
      const auto a = s.find_first_not_of(" \t");
      const auto b = s.find_last_not_of(" \t");
      return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
    };
    while (std::getline(in, line))
      {
        line = trim(line);
        if (line.rfind("subsection ", 0) == 0)
          path.push_back(trim(line.substr(11)));
        else if (line == "end" && !path.empty())
          path.pop_back();
        else if (line.rfind("set ", 0) == 0 && (path.empty() || path.front() != "Output"))
          {
            const auto  eq   = line.find('=');
            std::string name;
            for (const auto &p : path)
              name += p + "/";
            name += trim(line.substr(4, eq - 4));
            std::string value = eq == std::string::npos ? "" : trim(line.substr(eq + 1));
            if (name == "Geometry/Mesh file" && !value.empty())
              value = mesh_file_identity(value);
            entries.emplace_back(name, value);
          }
      }
    return entries;
  }

  namespace
  {
    /// @p text as a comma-separated list of numbers; false if an item is no number.
    bool numbers_of(const std::string &text, std::vector<double> &numbers)
    {
      std::istringstream items(text);
      std::string        item;
      while (std::getline(items, item, ','))
        {
          char        *end   = nullptr;
          const double value = std::strtod(item.c_str(), &end);
          if (end == item.c_str() ||
              item.find_first_not_of(" \t", end - item.c_str()) != std::string::npos)
            return false;
          numbers.push_back(value);
        }
      return !numbers.empty();
    }
  } // namespace

  bool same_entry_value(const std::string &a, const std::string &b)
  {
    if (a == b)
      return true;
    std::vector<double> x, y;
    return numbers_of(a, x) && numbers_of(b, y) && x == y;
  }

  PhysicsDifferences physics_differences(const ParameterEntryList &saved,
                                         const ParameterEntryList &now,
                                         const std::string        &where_saved)
  {
    const std::map<std::string, std::string> a(saved.begin(), saved.end()),
      b(now.begin(), now.end());
    PhysicsDifferences d;
    for (const auto &[name, value] : b)
      {
        const auto        it  = a.find(name);
        const std::string old = it == a.end() ? "(not present)" : it->second;
        if (it == a.end() || !same_entry_value(old, value))
          {
            if (d.first.empty())
              d.first = name;
            d.text += "\n  " + name + ": \"" + old + "\" " + where_saved + ", \"" + value +
                      "\" now";
          }
      }
    for (const auto &[name, value] : a)
      if (b.count(name) == 0)
        {
          if (d.first.empty())
            d.first = name;
          d.text += "\n  " + name + ": \"" + value + "\" " + where_saved + ", not present now";
        }
    return d;
  }
} // namespace granular
