// Checkpoint/restart of a single run and the stop signals. See checkpoint.h.
#include "coupling/checkpoint.h"

#include "base/atomic_file.h"
#include "base/parameter_error.h"
#include "base/serialization.h"

#include <deal.II/base/parameter_handler.h>

#include <csignal>
#include <fstream>
#include <map>
#include <sstream>

namespace granular::coupling
{
  namespace
  {
    const std::string      checkpoint_magic  = "granular-interface checkpoint";
    /// 2: the coupling scheme, the energy accountant and the loop counters archived
    /// apart, the block's solvers and quadrature-point history with their own archives;
    /// checkpoints of formats 1 and 2 (earlier builds) are not read; 3 added the adaptive
    /// time step's state; 4 the energy ledger (docs/methods.md §2.2)
    constexpr unsigned int checkpoint_format = 4;

    /// Set by SIGINT/SIGTERM (the signal number) or request_checkpoint_and_stop() (-1).
    volatile std::sig_atomic_t stop_request_flag = 0;

    /// The first SIGINT/SIGTERM asks for a checkpoint and a stop after the step in
    /// progress; a second one (an impatient Ctrl-C) ends the process at once.
    extern "C" void on_stop_signal(int signal)
    {
      if (stop_request_flag > 0)
        {
          std::signal(signal, SIG_DFL);
          std::raise(signal);
          return;
        }
      stop_request_flag = signal;
    }
  } // namespace

  int stop_request() { return stop_request_flag; }

  StopSignalHandlers::StopSignalHandlers(const bool install)
    : installed_(install)
  {
    stop_request_flag = 0;
    if (installed_)
      {
        previous_int_  = std::signal(SIGINT, on_stop_signal);
        previous_term_ = std::signal(SIGTERM, on_stop_signal);
      }
  }

  StopSignalHandlers::~StopSignalHandlers()
  {
    if (installed_)
      {
        std::signal(SIGINT, previous_int_);
        std::signal(SIGTERM, previous_term_);
      }
    stop_request_flag = 0;
  }

  namespace
  {
    /// The entries of @p prm as (Sub/section/Entry, value), without subsection Output: what
    /// a restart must match.
    std::vector<std::pair<std::string, std::string>>
    physics_entries(const dealii::ParameterHandler &prm)
    {
      std::ostringstream text;
      prm.print_parameters(text, dealii::ParameterHandler::ShortPRM);
      std::vector<std::pair<std::string, std::string>> entries;
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
              entries.emplace_back(name, eq == std::string::npos ? "" : trim(line.substr(eq + 1)));
            }
        }
      return entries;
    }

    /// Throws ParameterError naming the entries that differ between a checkpoint and now.
    void check_same_physics(const std::vector<std::pair<std::string, std::string>> &saved,
                            const std::vector<std::pair<std::string, std::string>> &now,
                            const std::string &checkpoint)
    {
      std::map<std::string, std::string> a(saved.begin(), saved.end()), b(now.begin(), now.end());
      std::string differences, first;
      for (const auto &[name, value] : b)
        {
          const auto it = a.find(name);
          const std::string old = it == a.end() ? "(not present)" : it->second;
          if (old != value)
            {
              if (first.empty())
                first = name;
              differences += "\n  " + name + ": \"" + old + "\" in the checkpoint, \"" + value +
                             "\" now";
            }
        }
      for (const auto &[name, value] : a)
        if (b.count(name) == 0)
          {
            if (first.empty())
              first = name;
            differences += "\n  " + name + ": \"" + value + "\" in the checkpoint, not present now";
          }
      if (!differences.empty())
        throw ParameterError(first, "--restart needs the parameters " + checkpoint +
                                      " was written with (only subsection Output may "
                                      "differ); nothing was changed. Differences:" +
                                      differences);
    }
  } // namespace

  CheckpointFile::CheckpointFile(std::string path, const dealii::ParameterHandler &prm)
    : path_(std::move(path))
    , entries_(physics_entries(prm))
  {}

  void CheckpointFile::write(const Writer &state) const
  {
    std::ostringstream buffer;
    {
      boost::archive::binary_oarchive ar(buffer);
      std::string  magic   = checkpoint_magic;
      unsigned int format  = checkpoint_format;
      auto         entries = entries_;
      ar &magic &format &entries;
      state(ar);
    }
    write_file_atomically(path_, buffer.str());
  }

  void CheckpointFile::read(const Reader &state) const
  {
    std::ifstream in(path_, std::ios::binary);
    if (!in)
      throw std::runtime_error("--restart: cannot open " + path_ +
                               " (is its directory the output directory of a run that wrote "
                               "a checkpoint? Output/Checkpoint interval)");
    try
      {
        boost::archive::binary_iarchive ar(in);
        std::string  magic;
        unsigned int format = 0;
        ar &magic &format;
        if (magic != checkpoint_magic || format != checkpoint_format)
          throw std::runtime_error("format " + std::to_string(format) +
                                   " is not this program's format " +
                                   std::to_string(checkpoint_format));
        std::vector<std::pair<std::string, std::string>> entries_saved;
        ar &entries_saved;
        check_same_physics(entries_saved, entries_, path_);
        state(ar);
      }
    catch (const ParameterError &)
      {
        throw;
      }
    catch (const std::exception &e)
      {
        throw std::runtime_error("--restart: cannot read " + path_ + ": " + e.what());
      }
  }
} // namespace granular::coupling

namespace granular
{
  void request_checkpoint_and_stop() { coupling::stop_request_flag = -1; }
} // namespace granular
