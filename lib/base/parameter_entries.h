#pragma once
/**
 * @file parameter_entries.h
 * One list of entries per parameter subsection, from which declaring, parsing and
 * writing back are driven: each entry's name, default, pattern and documentation are
 * written once, in a function `void entries(ParameterEntries &e)` of the subsection's
 * struct, next to the member the entry's value goes to.
 *
 * Unlike dealii::ParameterHandler::add_parameter, nothing is bound: the handler keeps no
 * reference to a parameter struct (so read_parameters may return by value and a sweep
 * point may declare into a fresh handler), and the default is the exact text written
 * here (so the documented defaults keep all their digits, e.g. "1e-4", not "0.0001").
 */
#include "base/meaningful_ranges.h"
#include "base/parameter_error.h"

#include <deal.II/base/parameter_handler.h>
#include <deal.II/base/utilities.h>

#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

namespace granular
{
  /// Declares the entries of a parameter struct in, reads their values from, or writes
  /// their values back to a dealii::ParameterHandler: whichever the mode, the struct's
  /// `entries(e)` walks the same list. Malformed or unknown input is rejected by the
  /// handler itself (deal.II's message names the entry and the line) when the file is
  /// parsed, before any value is read here; ranges and cross-entry checks belong to the
  /// struct's validate().
  class ParameterEntries
  {
  public:
    enum class Mode
    {
      declare, ///< declare every entry (name, default, pattern, documentation)
      parse,   ///< store every entry's value in the member bound to it
      write,   ///< set every entry whose member holds another value than the handler's
      check    ///< check every double member against its meaningful range
    };

    ParameterEntries(dealii::ParameterHandler &prm, Mode mode)
      : prm_(prm)
      , mode_(mode)
    {}

    /// Declares the entries of @p Parameters (a default-constructed one walks them).
    template <class Parameters>
    static void declare(dealii::ParameterHandler &prm)
    {
      ParameterEntries e(prm, Mode::declare);
      Parameters().entries(e);
    }

    /// Reads every entry of @p parameters from @p prm (declared by declare()).
    /// Throws what dealii::ParameterHandler::get throws for an undeclared entry.
    template <class Parameters>
    static void parse(dealii::ParameterHandler &prm, Parameters &parameters)
    {
      ParameterEntries e(prm, Mode::parse);
      parameters.entries(e);
    }

    /// Sets in @p prm (declared by declare(), holding a parameter set) every entry whose
    /// value in @p parameters differs from the one @p prm holds, so that parsing @p prm
    /// gives @p parameters back. An entry of equal value keeps its text as written (e.g.
    /// "1e-4"); a changed number is written with 17 significant digits. Throws what
    /// dealii::ParameterHandler::set throws for a value its pattern refuses.
    template <class Parameters>
    static void write(dealii::ParameterHandler &prm, const Parameters &parameters)
    {
      ParameterEntries e(prm, Mode::write);
      Parameters       walked = parameters; // entries() binds non-const members
      walked.entries(e);
    }

    /// Checks every double member of @p parameters that has a meaningful range
    /// (meaningful_ranges.h), as parsing does: for values set by the program (a sweep
    /// point's) rather than read. Throws ParameterError naming the first entry outside.
    template <class Parameters>
    static void check_meaningful_ranges(const Parameters &parameters)
    {
      dealii::ParameterHandler scratch; // subsections only: no entry is read or set
      ParameterEntries         e(scratch, Mode::check);
      Parameters               walked = parameters;
      walked.entries(e);
    }

    /// Walks the entries that @p body names inside subsection @p name.
    template <class Body>
    void subsection(const std::string &name, Body &&body)
    {
      prm_.enter_subsection(name);
      path_.push_back(name);
      body();
      path_.pop_back();
      prm_.leave_subsection();
    }

    /// The number of @p text, the value of the entry @p entry ("Subsection/Entry"): a
    /// number deal.II's pattern accepted may still lie outside what a double represents
    /// (1e-400 underflows to zero, 1e-320 is denormal, so is held with fewer digits):
    /// ParameterError naming the entry, instead of deal.II's failed conversion.
    static double representable_double(const std::string &text, const std::string &entry)
    {
      errno              = 0;
      char        *end   = nullptr;
      const double value = std::strtod(text.c_str(), &end);
      const bool   range = errno == ERANGE;
      if (end == text.c_str() || text.find_first_not_of(" \t", end - text.c_str()) !=
                                   std::string::npos)
        throw ParameterError(entry, "'" + text + "' is not a number");
      if (range || !std::isfinite(value) || (value != 0. && std::abs(value) < DBL_MIN))
        throw ParameterError(entry,
                             "the value " + text +
                               " is outside the range of double precision numbers (write 0 "
                               "or a magnitude between 2.3e-308 and 1.7e+308)");
      return value;
    }

    /// Declares the entry @p name (declare mode) or stores its value in @p value (parse
    /// mode). T is double (read with get_double), unsigned int (get_integer: @p pattern
    /// must exclude negative values), bool (get_bool), std::string (the text), or
    /// std::vector<double> / std::vector<std::string> (a comma-separated list; empty
    /// text: empty list). Units belong in @p doc. A double entry with a meaningful range
    /// (meaningful_ranges.h) gets it appended to @p doc, and a positive value outside it
    /// is refused (ParameterError naming the entry).
    template <class T>
    void entry(T &value, const std::string &name, const std::string &default_value,
               const dealii::Patterns::PatternBase &pattern, const std::string &doc)
    {
      const MeaningfulRange *range =
        std::is_same_v<T, double> ? meaningful_range(path_of(name)) : nullptr;
      if (mode_ == Mode::declare)
        prm_.declare_entry(name, default_value, pattern,
                           range ? doc + " " + meaningful_range_text(*range) : doc);
      else if (mode_ == Mode::write)
        {
          if (!(get<T>(name) == value))
            prm_.set(name, text_of(value));
        }
      else if (mode_ == Mode::check)
        {
          if constexpr (std::is_same_v<T, double>)
            if (range)
              check_meaningful_range(path_of(name), *range, value);
        }
      else
        {
          value = get<T>(name);
          if constexpr (std::is_same_v<T, double>)
            if (range)
              check_meaningful_range(path_of(name), *range, value);
        }
    }

    /// entry() with the pattern of any value of type T: Double() for a double, Bool()
    /// for a bool, Integer(0) for an unsigned int, Anything() for a std::string.
    template <class T>
    void entry(T &value, const std::string &name, const std::string &default_value,
               const std::string &doc)
    {
      using namespace dealii::Patterns;
      if constexpr (std::is_same_v<T, double>)
        entry(value, name, default_value, Double(), doc);
      else if constexpr (std::is_same_v<T, bool>)
        entry(value, name, default_value, Bool(), doc);
      else if constexpr (std::is_same_v<T, unsigned int>)
        entry(value, name, default_value, Integer(0), doc);
      else
        {
          static_assert(std::is_same_v<T, std::string>,
                        "ParameterEntries::entry: give the pattern of this type");
          entry(value, name, default_value, Anything(), doc);
        }
    }

    /// Like entry(), for a value that @p read makes of the entry's text (e.g. a bool
    /// from a selection) and @p write turns back into text (read(write()) must leave the
    /// value unchanged).
    void text_entry(const std::function<void(const std::string &)> &read,
                    const std::function<std::string()>             &write,
                    const std::string &name, const std::string &default_value,
                    const dealii::Patterns::PatternBase &pattern, const std::string &doc)
    {
      if (mode_ == Mode::declare)
        prm_.declare_entry(name, default_value, pattern, doc);
      else if (mode_ == Mode::check)
        return;
      else if (mode_ == Mode::write)
        {
          // the value as the handler has it, compared through write() (so "yes" and
          // "true" are equal), then the value back
          const std::string value = write();
          read(prm_.get(name));
          const bool equal = write() == value;
          read(value);
          if (!equal)
            prm_.set(name, value);
        }
      else
        read(prm_.get(name));
    }

  private:
    template <class T>
    T get(const std::string &name) const
    {
      using dealii::Utilities::split_string_list;
      if constexpr (std::is_same_v<T, double>)
        return representable_double(prm_.get(name), path_of(name));
      else if constexpr (std::is_same_v<T, unsigned int>)
        return prm_.get_integer(name);
      else if constexpr (std::is_same_v<T, bool>)
        return prm_.get_bool(name);
      else if constexpr (std::is_same_v<T, std::string>)
        return prm_.get(name);
      else if constexpr (std::is_same_v<T, std::vector<double>>)
        {
          std::vector<double> values;
          for (const std::string &item : split_string_list(prm_.get(name)))
            values.push_back(representable_double(item, path_of(name)));
          return values;
        }
      else
        {
          static_assert(std::is_same_v<T, std::vector<std::string>>,
                        "ParameterEntries::entry: unsupported member type");
          return split_string_list(prm_.get(name));
        }
    }

    /// The text of @p value as the handler reads it back (numbers with 17 digits, lists
    /// separated by ", ").
    template <class T>
    static std::string text_of(const T &value)
    {
      if constexpr (std::is_same_v<T, double>)
        {
          char buffer[32];
          std::snprintf(buffer, sizeof(buffer), "%.17g", value);
          return buffer;
        }
      else if constexpr (std::is_same_v<T, unsigned int>)
        return std::to_string(value);
      else if constexpr (std::is_same_v<T, bool>)
        return value ? "true" : "false";
      else if constexpr (std::is_same_v<T, std::string>)
        return value;
      else
        {
          std::string text;
          for (std::size_t i = 0; i < value.size(); ++i)
            text += (i ? ", " : "") + text_of(value[i]);
          return text;
        }
    }

    /// "Subsection/Entry": the path of the entry @p name in the current subsection.
    std::string path_of(const std::string &name) const
    {
      std::string path;
      for (const std::string &s : path_)
        path += s + "/";
      return path + name;
    }

    dealii::ParameterHandler &prm_;
    Mode                      mode_;
    std::vector<std::string>  path_; ///< the subsections entered, outermost first
  };
} // namespace granular
