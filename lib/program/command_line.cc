#include "program/command_line.h"

#include "base/csv_columns.h"
#include "base/parameter_error.h"
#include "base/source_revision.h"
#include "contact/laws/contact_law.h"
#include "contact/laws/temizer_decompression_undamped.h"
#include "contact/normal_contact_law.h"
#include "fem/block_parameters.h"
#include "coupling/checkpoint.h"
#include "coupling/run_output.h"
#include "coupling/run_record.h"
#include "sweep/sweep_runner.h"

#include <deal.II/base/exceptions.h>
#include <deal.II/base/parameter_handler.h>

#include <cmath>
#include <cstdlib>
#include <algorithm>
#include <filesystem>
#include <map>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace granular
{
  namespace
  {
    /// deal.II's exception text without the source-location boilerplate.
    std::string reader_message(const dealii::ExceptionBase &e)
    {
      std::ostringstream s;
      e.print_info(s);
      std::string m = s.str();
      while (!m.empty() && (m.back() == '\n' || m.back() == ' '))
        m.pop_back();
      return m;
    }

    const std::string utf8_bom = "\xEF\xBB\xBF";

    /// The whole content of @p path (a regular file; throws ParameterError if unreadable).
    std::string file_text(const std::string &path)
    {
      std::ifstream in(path, std::ios::binary);
      if (!in)
        throw ParameterError::from_reader(path, "cannot open the parameter file");
      std::ostringstream s;
      s << in.rdbuf();
      return s.str();
    }

    /**
     * Follows the `include FILE` lines of the parameter file @p path (deal.II's
     * ParameterHandler reads FILE as named, from the working directory) and throws
     * ParameterError naming the include line that reads a file already being read: deal.II
     * would include it again and again until the stack overflows. @p chain holds the files
     * being read, outermost first.
     */
    void check_include_cycles(const std::string &path, std::vector<std::string> &chain)
    {
      namespace fs = std::filesystem;
      std::error_code ec;
      if (!fs::is_regular_file(path, ec))
        return; // deal.II's reader names a missing include
      const std::string canonical = fs::weakly_canonical(path, ec).string();
      chain.push_back(canonical);
      std::istringstream in(file_text(path));
      std::string        line;
      for (unsigned int number = 1; std::getline(in, line); ++number)
        {
          std::string code = line.substr(0, line.find('#'));
          const auto  first = code.find_first_not_of(" \t\r");
          if (first == std::string::npos || (code.compare(first, 8, "include ") != 0 &&
                                             code.compare(first, 8, "INCLUDE ") != 0))
            continue;
          code = code.substr(first + 8);
          code.erase(0, code.find_first_not_of(" \t"));
          code.erase(code.find_last_not_of(" \t\r") + 1);
          const std::string included = fs::weakly_canonical(code, ec).string();
          if (std::find(chain.begin(), chain.end(), included) != chain.end())
            throw ParameterError::from_reader(
              path + ":" + std::to_string(number),
              "\"include " + code + "\" reads " +
                (included == canonical ? std::string("this file itself") :
                                         "a file that includes this one") +
                ", again and again; remove the include");
          check_include_cycles(code, chain);
        }
      chain.pop_back();
    }

    /// Calls @p f(path, line, number) for every `set` line of parameter-file @p text, with
    /// path = "Sub/section/Entry" of the subsections open at that line.
    template <class Function>
    void for_each_set_line(const std::string &text, const Function &f)
    {
      std::istringstream       in(text.compare(0, 3, utf8_bom) == 0 ? text.substr(3) : text);
      std::vector<std::string> sections;
      std::string              line;
      for (unsigned int number = 1; std::getline(in, line); ++number)
        {
          std::string code = line.substr(0, line.find('#'));
          const auto  first = code.find_first_not_of(" \t\r");
          if (first == std::string::npos)
            continue;
          code = code.substr(first);
          code.erase(code.find_last_not_of(" \t\r") + 1);
          if (code.compare(0, 11, "subsection ") == 0)
            sections.push_back(code.substr(11));
          else if (code == "end" && !sections.empty())
            sections.pop_back();
          else if (code.compare(0, 4, "set ") == 0)
            {
              std::string entry = code.substr(4, code.find('=') - 4);
              while (!entry.empty() && entry.back() == ' ')
                entry.pop_back();
              std::string path;
              for (const auto &section : sections)
                path += section + "/";
              f(path + entry, line, number);
            }
        }
    }

    /// The retired entry at @p path (fem/block_parameters.h), or nullptr.
    const RetiredEntry *retired_entry(const std::string &path)
    {
      for (const RetiredEntry &r : retired_solver_entries())
        if (r.path == path)
          return &r;
      return nullptr;
    }

    /// The value of the `set` line @p line: after '=' and before a comment, trimmed.
    std::string set_line_value(const std::string &line)
    {
      const auto  eq = line.find('=');
      std::string v  = eq == std::string::npos ? "" : line.substr(eq + 1);
      v              = v.substr(0, v.find('#'));
      const auto first = v.find_first_not_of(" \t\r");
      if (first == std::string::npos)
        return "";
      v = v.substr(first);
      v.erase(v.find_last_not_of(" \t\r") + 1);
      return v;
    }

    /// Whether retired entry @p r set to @p value is the program's own method (the setting
    /// is ignored); throws ParameterError naming the entry, for @p where (the file and line,
    /// or the --set), otherwise.
    bool retired_setting_is_kept(const RetiredEntry &r, const std::string &value,
                                 const std::string &where)
    {
      if (r.kept_value.empty() || value == r.kept_value)
        return true;
      throw ParameterError(r.path, "(" + where + ") was retired with the method '" + value +
                                     "': " + r.replacement + ". Delete the line" +
                                     (r.kept_value.empty() ? std::string() :
                                                             " (or set '" + r.kept_value + "')"));
    }

    /// Parameter-file @p text with the lines that set a retired entry to the program's own
    /// method turned into comments (the line numbers stay); throws ParameterError for a
    /// retired entry set to a retired method (retired_setting_is_kept()).
    std::string without_retired_entries(const std::string &text, const std::string &path)
    {
      std::vector<unsigned int> ignored;
      for_each_set_line(text, [&](const std::string &entry, const std::string &line,
                                  const unsigned int n) {
        if (const RetiredEntry *r = retired_entry(entry))
          if (retired_setting_is_kept(*r, set_line_value(line), path + ":" + std::to_string(n)))
            ignored.push_back(n);
      });
      if (ignored.empty())
        return text;
      std::istringstream in(text);
      std::string        out, line;
      for (unsigned int n = 1; std::getline(in, line); ++n)
        out += (std::find(ignored.begin(), ignored.end(), n) != ignored.end() ? "# " : "") +
               line + "\n";
      return out;
    }

    /// true if parameter-file @p text has a `set` line.
    bool parameter_file_sets_an_entry(const std::string &text)
    {
      bool sets = false;
      for_each_set_line(text, [&](const std::string &, const std::string &, unsigned int) {
        sets = true;
      });
      return sets;
    }

    /// Turns "A/B/C=value" into a parameter-file fragment, so that an override is
    /// checked exactly like a line of the file (undeclared entries, patterns).
    std::string set_entry_as_prm(const std::string &assignment)
    {
      const auto eq = assignment.find('=');
      if (eq == std::string::npos || eq == 0)
        throw ParameterError::from_reader(
          "--set", "expected \"Sub/section/Entry=value\", got \"" + assignment + "\"");
      const std::string path  = assignment.substr(0, eq);
      const std::string value = assignment.substr(eq + 1);
      std::vector<std::string> parts;
      std::size_t              start = 0;
      for (std::size_t slash; (slash = path.find('/', start)) != std::string::npos;
           start = slash + 1)
        parts.push_back(path.substr(start, slash - start));
      parts.push_back(path.substr(start));
      std::string prm;
      for (std::size_t i = 0; i + 1 < parts.size(); ++i)
        prm += "subsection " + parts[i] + "\n";
      prm += "set " + parts.back() + " = " + value + "\n";
      for (std::size_t i = 0; i + 1 < parts.size(); ++i)
        prm += "end\n";
      return prm;
    }
  } // namespace

  std::string usage_text()
  {
    return "Usage: granular-interface [options] PARAMETER_FILE.prm\n"
           "       granular-interface [options] --defaults\n"
           "\n"
           "Coupled DEM-FEM micromechanical test of a granular rubber interface:\n"
           "a rubber block is pressed onto a rigid surface and dragged over it while a\n"
           "rigid superellipse particle rolls in the interface. Reports the macroscopic\n"
           "friction coefficient kbar (summary.csv), the history (history.csv) and\n"
           "ParaView output (solution.pvd, particle.pvd). Units: mm, s, N, t, MPa.\n"
           "\n"
           "Options:\n"
           "  --output-directory DIR           write all results to DIR (overrides\n"
           "                                   Output/Output directory)\n"
           "  --set \"Sub/section/Entry=value\"  override one entry; repeatable\n"
           "  --restart                        continue the interrupted run in the output\n"
           "                                   directory from its checkpoint.bin (same\n"
           "                                   parameters; Output entries may differ)\n"
           "  --print-parameters               print the complete, documented default\n"
           "                                   parameter file (every subsection, also\n"
           "                                   those of all contact laws) and exit\n"
           "  --print-parameters=used          print only the entries the run uses: with\n"
           "                                   a parameter file and --set, their values;\n"
           "                                   of the contact laws' subsections only the\n"
           "                                   selected law's (Contact/Particle-surface/\n"
           "                                   Normal law). Without a file: the default\n"
           "                                   run, which is params/default.prm\n"
           "  --print-parameters=json          print every entry with its default, pattern\n"
           "                                   and documentation as JSON (the source of\n"
           "                                   docs/parameters.md) and exit\n"
           "  --overwrite                      replace the results of an earlier run in the\n"
           "                                   output directory (without it, a directory\n"
           "                                   holding them is refused)\n"
           "  --allow-long-run                 run a very long run: more than 1e7 steps of\n"
           "                                   Loading/Time step (otherwise refused as a\n"
           "                                   mistake; the default run has 40000)\n"
           "  --threads N                      evaluate the rubber block's elements on N\n"
           "                                   threads (default 1; --threads 2 lets one run\n"
           "                                   use two cores). The results do not depend on\n"
           "                                   N (bit for bit below 16384 unknowns). A\n"
           "                                   sweep under mpirun keeps 1 (one point per\n"
           "                                   rank and core); a single run under mpirun\n"
           "                                   needs mpirun --bind-to none\n"
           "  --record-attempts N[,EVERY[,FROM]]\n"
           "                                   write the state before each of the first N\n"
           "                                   Newton attempts that fail (and every EVERY-th\n"
           "                                   attempt), from t/T0 = FROM on (default 0), to\n"
           "                                   OUTPUT/attempts/ for replay-attempt\n"
           "                                   (docs/performance.md#replaying-hard-steps); the\n"
           "                                   run itself does not change\n"
           "  --check                          check the parameter file as a run would (every\n"
           "                                   point of a sweep), print what it would run,\n"
           "                                   and exit: 0 if valid, 2 naming the entry if\n"
           "                                   not; nothing is written\n"
           "  --defaults                       run the documented defaults on purpose: without\n"
           "                                   a parameter file, or with one that sets no\n"
           "                                   entry (otherwise rejected as a mistake)\n"
           "  --list-laws                      print the identifiers of the normal contact\n"
           "                                   laws (Contact/Particle-surface/Normal law),\n"
           "                                   one per line with its source, and exit\n"
           "  --list-laws=markdown             print the table of the contact laws (formula,\n"
           "                                   parameters, data needed, source) as Markdown,\n"
           "                                   which is docs/contact-law-table.md, and exit\n"
           "  --print-columns                  print the columns of summary.csv, history.csv,\n"
           "                                   particles.csv and sweep.csv (name, unit,\n"
           "                                   meaning) as the Markdown tables of\n"
           "                                   docs/outputs.md, and exit\n"
           "  --help                           print this text and exit\n"
           "  --version                        print the version and the source revision\n"
           "                                   (git commit) of this build and exit; every\n"
           "                                   parameters.prm records the revision too\n"
           "\n"
           "A parameter file with a non-empty Sweep subsection runs the Cartesian\n"
           "product of its lists (use mpirun -np N to distribute the points).\n"
           "A single run writes checkpoint.bin every Output/Checkpoint interval minutes\n"
           "and when it receives SIGINT or SIGTERM (then it stops after the step in\n"
           "progress); --restart continues it exactly as if it had not stopped.\n"
           "Exit status: 0 on success, 2 for invalid input, 128 + the signal number\n"
           "when stopped by SIGINT/SIGTERM with a checkpoint written, 1 on other errors.\n";
  }

  std::string version_text()
  {
    return std::string("granular-interface ") + GRANULAR_VERSION + " (source revision " +
           source_revision() + ")\n";
  }

  CommandLineOptions parse_command_line(int argc, const char *const *argv)
  {
    CommandLineOptions options;
    bool               output_directory_given = false;
    for (int i = 1; i < argc; ++i)
      {
        const std::string arg = argv[i];
        auto              value = [&](const std::string &option) {
          if (i + 1 >= argc)
            throw std::invalid_argument("option " + option + " needs a value (see --help)");
          const std::string v = argv[++i];
          if (v.empty())
            throw std::invalid_argument("option " + option +
                                        " needs a non-empty value (see --help)");
          return v;
        };
        if (arg == "--help" || arg == "-h")
          options.help = true;
        else if (arg == "--version")
          options.version = true;
        else if (arg == "--restart")
          options.restart = true;
        else if (arg == "--print-parameters")
          options.print_parameters = true;
        else if (arg == "--print-parameters=used" || arg == "--print-parameters=json")
          {
            options.print_parameters  = true;
            options.parameter_listing = arg == "--print-parameters=used" ?
                                          ParameterListing::used :
                                          ParameterListing::json;
          }
        else if (arg.rfind("--print-parameters=", 0) == 0)
          throw std::invalid_argument("unknown listing in " + arg +
                                      " (--print-parameters, --print-parameters=used or "
                                      "--print-parameters=json; see --help)");
        else if (arg == "--list-laws")
          options.list_laws = true;
        else if (arg == "--list-laws=markdown")
          options.list_laws = options.law_table = true;
        else if (arg.rfind("--list-laws=", 0) == 0)
          throw std::invalid_argument("unknown format in " + arg +
                                      " (--list-laws or --list-laws=markdown; see --help)");
        else if (arg == "--print-columns")
          options.print_columns = true;
        else if (arg == "--defaults")
          options.defaults = true;
        else if (arg == "--overwrite")
          options.overwrite = true;
        else if (arg == "--allow-long-run")
          options.allow_long_run = true;
        else if (arg == "--check")
          options.check = true;
        else if (arg == "--threads" || arg.rfind("--threads=", 0) == 0)
          {
            const std::string n = arg == "--threads" ? value(arg) : arg.substr(10);
            // a whole number from 1 to max_threads, in decimal digits only (no sign, no
            // exponent, nothing after it)
            constexpr unsigned int max_threads = 1024;
            const bool digits = !n.empty() && n.size() <= 6 &&
                                n.find_first_not_of("0123456789") == std::string::npos;
            const unsigned long N = digits ? std::stoul(n) : 0;
            if (N < 1 || N > max_threads)
              throw std::invalid_argument(
                "option --threads needs a whole number of threads from 1 to " +
                std::to_string(max_threads) + ", got \"" + n + "\" (see --help)");
            options.threads = static_cast<unsigned int>(N);
          }
        else if (arg == "--record-attempts" || arg.rfind("--record-attempts=", 0) == 0)
          {
            const std::string text = arg == "--record-attempts" ? value(arg) : arg.substr(18);
            // N[,EVERY[,FROM]]: whole numbers in decimal digits, FROM a number >= 0
            std::vector<std::string> parts;
            for (std::size_t start = 0;;)
              {
                const auto comma = text.find(',', start);
                parts.push_back(text.substr(start, comma - start));
                if (comma == std::string::npos)
                  break;
                start = comma + 1;
              }
            auto whole = [](const std::string &t) {
              return !t.empty() && t.size() <= 9 &&
                     t.find_first_not_of("0123456789") == std::string::npos;
            };
            char        *end  = nullptr;
            const double from = parts.size() > 2 ? std::strtod(parts[2].c_str(), &end) : 0.;
            const bool   from_ok =
              parts.size() < 3 || (!parts[2].empty() && *end == '\0' && from >= 0. && from < 1e6);
            const std::string n = parts[0], every = parts.size() > 1 ? parts[1] : "0";
            if (parts.size() > 3 || !whole(n) || !whole(every) || !from_ok)
              throw std::invalid_argument("option --record-attempts needs N, N,EVERY or "
                                          "N,EVERY,FROM (whole numbers N and EVERY: the "
                                          "failed attempts to write, and every how many "
                                          "attempts one more; FROM: t/T0 from which on), got "
                                          "\"" + text + "\" (see --help)");
            options.record_failed_attempts  = static_cast<unsigned int>(std::stoul(n));
            options.record_attempts_from    = from;
            options.record_attempt_interval = static_cast<unsigned int>(std::stoul(every));
          }
        else if (arg == "--output-directory" || arg.rfind("--output-directory=", 0) == 0)
          {
            // one run, one output directory: a second one is a mistake, not an override
            const std::string directory =
              arg == "--output-directory" ? value(arg) : arg.substr(19);
            if (output_directory_given)
              throw std::invalid_argument("more than one output directory given: " +
                                          options.output_directory + ", " + directory +
                                          " (--output-directory once; see --help)");
            options.output_directory = directory;
            output_directory_given   = true;
          }
        else if (arg == "--set")
          options.set_entries.push_back(value(arg));
        else if (arg.rfind("--set=", 0) == 0)
          options.set_entries.push_back(arg.substr(6));
        else if (arg.rfind("-", 0) == 0)
          throw std::invalid_argument("unknown option " + arg + " (see --help)");
        else if (!options.parameter_file.empty())
          throw std::invalid_argument("more than one parameter file given: " +
                                      options.parameter_file + ", " + arg + " (see --help)");
        else
          options.parameter_file = arg;
      }
    return options;
  }

  std::string default_parameter_file()
  {
    dealii::ParameterHandler prm;
    ProgramParameters::declare_parameters(prm);
    std::ostringstream s;
    prm.print_parameters(s, dealii::ParameterHandler::PRM |
                              dealii::ParameterHandler::KeepDeclarationOrder);
    return s.str();
  }

  std::string used_parameter_file(const CommandLineOptions &options)
  {
    dealii::ParameterHandler prm;
    ProgramParameters::declare_parameters(prm);
    if (!options.parameter_file.empty() || !options.set_entries.empty())
      read_parameter_input(options, prm);
    prm.enter_subsection("Contact");
    prm.enter_subsection("Particle-surface");
    std::string law = prm.get("Normal law");
    prm.leave_subsection();
    prm.leave_subsection();
    if (law == contact::legacy_default_law_name)
      law = contact::DampedHertzDecompressionOff::law_name;
    std::ostringstream full;
    prm.print_parameters(full, dealii::ParameterHandler::PRM |
                                 dealii::ParameterHandler::KeepDeclarationOrder);

    // deal.II's listing without the subsections Contact/Particle-surface/<id> of the other
    // registered laws (each from its "subsection <id>" line to its "end" and the empty line
    // after it); the remaining text is what deal.II prints with only the selected law declared
    std::istringstream       in(full.str());
    std::ostringstream       out;
    std::vector<std::string> path;
    std::string              line;
    bool                     header = true;
    while (std::getline(in, line))
      {
        const auto        first = line.find_first_not_of(' ');
        const std::string code  = first == std::string::npos ? "" : line.substr(first);
        if (header && code.rfind('#', 0) != 0)
          {
            // after deal.II's title lines: say what is left out
            out << "# The entries of the run: of the contact laws' subsections only that of\n"
                   "# Contact/Particle-surface/Normal law = "
                << law
                << ".\n"
                   "# granular-interface --print-parameters lists every law's.\n\n";
            header = false;
          }
        if (code.rfind("subsection ", 0) == 0)
          {
            path.push_back(code.substr(11));
            if (path.size() == 3 && path[0] == "Contact" && path[1] == "Particle-surface" &&
                path[2] != law && contact::laws::find_law(path[2]) != nullptr)
              {
                // skip to the matching end and the empty line that follows it
                for (unsigned int depth = 1; depth > 0 && std::getline(in, line);)
                  {
                    const auto        f = line.find_first_not_of(' ');
                    const std::string c = f == std::string::npos ? "" : line.substr(f);
                    depth += c.rfind("subsection ", 0) == 0 ? 1 : c == "end" ? -1 : 0;
                  }
                if (in.peek() == '\n')
                  std::getline(in, line);
                path.pop_back();
                continue;
              }
          }
        else if (code == "end" && !path.empty())
          path.pop_back();
        out << line << '\n';
      }
    return out.str();
  }

  std::string parameter_listing_json()
  {
    dealii::ParameterHandler prm;
    ProgramParameters::declare_parameters(prm);
    std::ostringstream s;
    prm.print_parameters(s, dealii::ParameterHandler::JSON |
                              dealii::ParameterHandler::KeepDeclarationOrder);
    return s.str();
  }

  std::string parameter_listing(const CommandLineOptions &options)
  {
    switch (options.parameter_listing)
      {
        case ParameterListing::used:
          return used_parameter_file(options);
        case ParameterListing::json:
          return parameter_listing_json();
        case ParameterListing::all:
          break;
      }
    return default_parameter_file();
  }

  std::string check_report(const CommandLineOptions      &options,
                           const ProgramParameters        &parameters,
                           const dealii::ParameterHandler &prm)
  {
    const std::string &dir = parameters.output.output_directory;
    if (parameters.sweep.active())
      check_sweep_directory(parameters, prm, sweep_points(parameters));
    else if (options.restart)
      {
        const coupling::CheckpointFile checkpoint(dir + "/checkpoint.bin", prm);
        const std::string              reason = checkpoint.unusable_reason();
        if (!reason.empty())
          throw ParameterError("--restart", "cannot continue from " + checkpoint.path() +
                                              ": " + reason);
      }
    else
      {
        std::error_code ec;
        if (std::filesystem::exists(dir + "/sweep.csv", ec))
          throw ParameterError("Output/Output directory",
                               dir + " holds the results of a sweep; a single run there "
                                     "would mix its results with the sweep's: give another "
                                     "--output-directory");
        const std::vector<std::string> earlier = coupling::single_run_results(dir);
        if (!earlier.empty() && !options.overwrite)
          throw ParameterError("Output/Output directory",
                               dir + " holds the results of an earlier run (" +
                                 earlier.front() +
                                 (earlier.size() > 1 ? ", ..." : "") +
                                 "); give --overwrite to replace them, another "
                                 "--output-directory, or --restart to continue a stopped run");
      }
    std::ostringstream out;
    out << (options.parameter_file.empty() ? std::string("the defaults") :
                                             options.parameter_file)
        << ": valid\n";
    if (parameters.sweep.active())
      {
        const std::vector<SweepPoint> points = sweep_points(parameters);
        out << "a sweep of " << points.size() << " points (each checked), into "
            << parameters.output.output_directory << "/:\n";
        for (const SweepPoint &p : points)
          out << "  " << p.name << "\n";
        return out.str();
      }
    const auto &b = parameters.block;
    const auto &l = parameters.loading;
    if (options.restart)
      {
        out << "one run, continued from " << dir << "/checkpoint.bin (its parameters match)\n";
        return out.str();
      }
    out << "one run: cell " << b.length << " x " << b.height << " mm on " << b.n_x << " x "
        << b.n_y << " elements, p = " << l.pressure << " MPa, v_F = " << l.slip_velocity
        << " mm/s, " << 2. + l.averaging_ratio << " T0 in "
        << static_cast<unsigned long>(std::llround((2. + l.averaging_ratio) /
                                                   l.time_step_ratio))
        << " steps of Delta t = " << l.time_step_ratio << " T0, into "
        << parameters.output.output_directory << "/\n";
    return out.str();
  }

  std::string contact_law_list()
  {
    std::ostringstream s;
    for (const auto &law : contact::laws::registered_laws())
      s << law.id << "  (" << law.entry << ", " << law.title << "; " << law.source << ")\n";
    return s.str();
  }

  namespace
  {
    /// @p text for a Markdown table cell: `|` escaped, line breaks as spaces.
    std::string table_cell(std::string text)
    {
      std::string out;
      for (const char c : text)
        if (c == '|')
          out += "\\|";
        else if (c == '\n')
          out += ' ';
        else
          out += c;
      return out;
    }

    /// The shortest text that reads back as @p v (3e-05, not 3.0000000000000001e-05).
    std::string shortest(const double v)
    {
      std::string best;
      for (int digits = 1; digits <= 17; ++digits)
        {
          std::ostringstream t;
          t.precision(digits);
          t << v;
          if (std::stod(t.str()) == v && (best.empty() || t.str().size() < best.size()))
            best = t.str();
        }
      return best;
    }

    /// Short names of the ContactData members, for the table.
    std::string symbol(const contact::laws::Needs n)
    {
      using contact::laws::Needs;
      switch (n)
        {
          case Needs::stiffness:
            return "K";
          case Needs::effective_mass:
            return "m_eff";
          case Needs::effective_modulus:
            return "E*";
          case Needs::effective_radius:
            return "R_eff";
          case Needs::yield_strength:
            return "sigma_y";
          case Needs::poisson_ratio:
            return "nu";
          case Needs::youngs_modulus:
            return "E";
        }
      return "?";
    }
  } // namespace

  std::string contact_law_table()
  {
    namespace laws = contact::laws;
    // the default cell: its particle-surface contact parameters and particle mass
    dealii::ParameterHandler prm;
    ProgramParameters::declare_parameters(prm);
    ProgramParameters defaults;
    defaults.parse_parameters(prm);

    std::ostringstream s;
    s << "# Contact law table\n"
         "\n"
         "<!-- Generated by scripts/contact-law-table.sh (granular-interface "
         "--list-laws=markdown)\n"
         "     from the laws' own descriptions in lib/contact/laws/; do not edit. -->\n"
         "\n"
         "The "
      << laws::registered_laws().size()
      << " normal contact force laws of the program, in catalogue order. The identifier\n"
         "selects a law: `Contact/Particle-surface/Normal law` for the particle on the surface,\n"
         "`Impact/Laws` for the impact benchmarks of `contact-impact`. The physics of each law, "
         "the\n"
         "readings of its sources and the verification scenarios are in the catalogue of "
         "contact\n"
         "laws, [contact-law-catalogue.md](contact-law-catalogue.md), under the entry given "
         "here;\n"
         "the source labels (S000 ...) resolve in [references.md](references.md).\n"
         "\n"
         "- **formula**: d is the indentation (mm), d' its rate (mm/s, > 0 in compression), "
         "d'_- the\n"
         "  approach velocity at contact onset, K the contact stiffness.\n"
         "- **parameters**: the entries of the law's own subsection "
         "(`Contact/Particle-surface/<identifier>`,\n"
         "  `Contact laws/<identifier>` in `contact-impact`) with their defaults. In the "
         "micromechanical\n"
         "  cell `Minimum approach velocity` defaults to 100 mm/s, and the default law takes "
         "its c_N\n"
         "  from `Contact/Particle-surface/Damping coefficient`.\n"
         "- **data**: what the law needs besides its parameters: K, the effective mass m_eff, "
         "the\n"
         "  effective modulus E*, the effective radius R_eff, a yield strength sigma_y, Young's "
         "modulus\n"
         "  E, Poisson's ratio nu.\n"
         "- **2D cell**: whether the micromechanical cell, which knows K = k_N and the "
         "particle's mass\n"
         "  only, can use the law with its default parameters (\"with its parameters set\": "
         "only with\n"
         "  values the defaults leave open).\n"
         "\n"
         "| entry | identifier | family | law | formula | parameters (defaults) | data | "
         "2D cell | source |\n"
         "|---|---|---|---|---|---|---|---|---|\n";
    for (const laws::LawInfo &law : laws::registered_laws())
      {
        std::string parameters;
        for (const laws::LawParameter &p : law.all_parameters())
          parameters += (parameters.empty() ? "" : "; ") + p.name + " = " +
                        (p.flag ? (p.default_value == 1. ? "true" : "false") :
                                  shortest(p.default_value));
        std::string needs;
        bool        cell_has_data = true;
        for (const laws::Needs n : law.needs)
          {
            needs += (needs.empty() ? "" : ", ") + symbol(n);
            cell_has_data = cell_has_data && (n == laws::Needs::stiffness ||
                                              n == laws::Needs::effective_mass);
          }
        std::string in_cell = "no";
        if (cell_has_data)
          try
            {
              ParticleSurfaceContactParameters contact = defaults.contact.particle_surface;
              contact.normal_law                       = law.id;
              contact::create_normal_contact_law(contact, defaults.particle.mass());
              in_cell = "yes";
            }
          catch (const std::invalid_argument &)
            {
              in_cell = "with its parameters set";
            }
        s << "| " << law.entry << " | `" << law.id << "` | " << laws::family(law) << " | "
          << table_cell(law.title) << " | `" << table_cell(law.formula) << "` | "
          << table_cell(parameters) << " | " << needs << " | " << in_cell << " | "
          << table_cell(law.source) << " |\n";
      }
    return s.str();
  }

  std::string output_column_tables()
  {
    return "<!-- columns: summary.csv -->\n" + markdown_column_table(summary_columns()) +
           "<!-- /columns -->\n<!-- columns: history.csv -->\n" +
           markdown_column_table(coupling::history_columns(false)) +
           "<!-- /columns -->\n<!-- columns: history.csv, viscoelastic -->\n" +
           [] {
             // the columns a viscoelastic run adds
             const auto &all = coupling::history_columns(true);
             const std::vector<CsvColumn<coupling::HistoryRow>> added(
               all.begin() + coupling::history_columns(false).size(), all.end());
             return markdown_column_table(added);
           }() +
           "<!-- /columns -->\n<!-- columns: particles.csv -->\n" +
           markdown_column_table(coupling::particle_columns()) +
           "<!-- /columns -->\n<!-- columns: sweep.csv -->\n" +
           markdown_column_table(sweep::sweep_point_columns()) + "| `" +
           summary_columns().front().name + "` … `" + summary_columns().back().name +
           "` | | the point's `summary.csv` columns (above); empty unless `ok` |\n"
           "<!-- /columns -->\n";
  }

  std::vector<std::string> parameter_file_warnings(const std::string &path)
  {
    std::vector<std::string> warnings;
    std::error_code          ec;
    if (path.empty() || !std::filesystem::is_regular_file(path, ec))
      return warnings;
    const std::string text = file_text(path);
    if (text.compare(0, 3, utf8_bom) == 0)
      warnings.push_back(path + " starts with a UTF-8 byte-order mark; it was skipped");
    std::map<std::string, unsigned int> first_line;
    for_each_set_line(text, [&](const std::string &entry, const std::string &line,
                                unsigned int n) {
      if (const RetiredEntry *r = retired_entry(entry))
        {
          // a retired method is refused by the reader, naming the entry
          if (r->kept_value.empty() || set_line_value(line) == r->kept_value)
            warnings.push_back(path + ":" + std::to_string(n) + ": " + entry +
                               " is retired and the line is ignored: " + r->replacement);
          return;
        }
      const auto [it, inserted] = first_line.emplace(entry, n);
      if (!inserted)
        warnings.push_back(path + ":" + std::to_string(n) + ": " + entry +
                           " is set again (first at line " + std::to_string(it->second) +
                           "); the last value is used");
    });
    return warnings;
  }

  void read_parameter_input(const CommandLineOptions &options, dealii::ParameterHandler &prm,
                            const std::string &defaults_run)
  {
    if (!options.parameter_file.empty())
      {
        std::error_code ec;
        if (!std::filesystem::is_regular_file(options.parameter_file, ec))
          throw ParameterError::from_reader(
            options.parameter_file,
            std::filesystem::exists(options.parameter_file, ec) ?
              "is not a regular file (a directory?); give a parameter file" :
              "cannot open the parameter file: it does not exist");
        const std::string text = file_text(options.parameter_file);
        std::vector<std::string> chain;
        check_include_cycles(options.parameter_file, chain);
        if (!parameter_file_sets_an_entry(text) && !options.defaults)
          throw ParameterError::from_reader(
            options.parameter_file,
            "sets no entry, so it would " +
              (defaults_run.empty() ? std::string("start a run with all defaults (the default "
                                                  "run of granular-interface takes about 14 "
                                                  "minutes)") :
                                      defaults_run) +
              "; add the entries you want, or give --defaults to run the defaults on purpose");
        // a UTF-8 byte-order mark (some editors write one) would be read as part of the
        // first line: parse the text without it (the line numbers stay right)
        const std::string input = without_retired_entries(
          text.compare(0, 3, utf8_bom) == 0 ? text.substr(3) : text, options.parameter_file);
        try
          {
            std::istringstream in(input);
            prm.parse_input(in, options.parameter_file);
          }
        catch (const dealii::ExceptionBase &e)
          {
            throw ParameterError::from_reader(options.parameter_file, reader_message(e));
          }
      }
    for (const std::string &assignment : options.set_entries)
      try
        {
          const auto eq = assignment.find('=');
          if (eq != std::string::npos)
            if (const RetiredEntry *r = retired_entry(assignment.substr(0, eq)))
              if (retired_setting_is_kept(*r, set_line_value(assignment),
                                          "--set \"" + assignment + "\""))
                continue;
          prm.parse_input_from_string(set_entry_as_prm(assignment));
        }
      catch (const dealii::ExceptionBase &e)
        {
          throw ParameterError::from_reader("--set \"" + assignment + "\"",
                                            reader_message(e));
        }
  }

  ProgramParameters read_parameters_text(const std::string              &parameters,
                                         const std::vector<std::string> &sets)
  {
    dealii::ParameterHandler prm;
    ProgramParameters::declare_parameters(prm);
    try
      {
        prm.parse_input_from_string(parameters);
      }
    catch (const dealii::ExceptionBase &e)
      {
        throw ParameterError::from_reader("the recorded parameters", reader_message(e));
      }
    CommandLineOptions options;
    options.set_entries = sets;
    read_parameter_input(options, prm);
    ProgramParameters P;
    P.parse_parameters(prm);
    P.validate();
    return P;
  }

  ProgramParameters read_parameters(const CommandLineOptions &options,
                                dealii::ParameterHandler &prm)
  {
    ProgramParameters::declare_parameters(prm);
    read_parameter_input(options, prm);
    if (!options.output_directory.empty())
      {
        prm.enter_subsection("Output");
        prm.set("Output directory", options.output_directory);
        prm.leave_subsection();
      }
    // a relative mesh file is looked up in the working directory, then next to the
    // parameter file; the resolved path is stored so parameters.prm reproduces the run
    {
      prm.enter_subsection("Geometry");
      const std::filesystem::path mesh = prm.get("Mesh file");
      if (!mesh.empty() && mesh.is_relative() && !std::filesystem::exists(mesh) &&
          !options.parameter_file.empty())
        {
          const auto beside =
            std::filesystem::path(options.parameter_file).parent_path() / mesh;
          if (std::filesystem::exists(beside))
            prm.set("Mesh file", std::filesystem::absolute(beside).lexically_normal().string());
        }
      prm.leave_subsection();
    }
    ProgramParameters parameters;
    parameters.parse_parameters(prm);
    parameters.loading.allow_long_run = options.allow_long_run;
    parameters.validate();
    if (parameters.sweep.active())
      validate_sweep_points(parameters); // every point, before the first one runs
    parameters.output.restart   = options.restart;
    parameters.output.overwrite = options.overwrite;
    parameters.output.recorded_failed_attempts  = options.record_failed_attempts;
    parameters.output.recorded_attempt_interval = options.record_attempt_interval;
    parameters.output.recorded_attempts_from    = options.record_attempts_from;
    if (options.restart && options.overwrite)
      throw ParameterError("--overwrite", "contradicts --restart (which continues the run in "
                                          "the output directory)");
    if (options.restart && parameters.sweep.active())
      throw ParameterError("--restart", "continues a single run; this parameter file "
                                        "describes a sweep (subsection Sweep)");
    return parameters;
  }
} // namespace granular
