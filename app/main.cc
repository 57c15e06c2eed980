// granular-interface: the command-line front end (docs/methods.md §8.1). Thin: parse, run, report.
#include "coupling/micromechanical_run.h"
#include "program/command_line.h"
#include "base/parameter_error.h"
#include "sweep/sweep_runner.h"

#include <deal.II/base/mpi.h>
#include <deal.II/base/multithread_info.h>
#include <deal.II/base/parameter_handler.h>

#include <cstdlib>
#include <csignal>
#include <iostream>

#ifdef __linux__
#  include <sched.h>
#endif

namespace
{
  /// false on the ranks > 0 of mpirun: invalid input is then reported once, by rank 0
  /// (every rank reads the same file and finds the same error). Read from the launcher's
  /// environment, so that it works wherever the error is caught (OpenMPI, MPICH/PMI, PMIx).
  bool reports_errors()
  {
    for (const char *variable : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"})
      if (const char *rank = std::getenv(variable))
        return std::atoi(rank) == 0;
    return true;
  }

  /// The cores this process may run on: its CPU affinity, which mpirun narrows to one core
  /// per rank unless it is started with --bind-to none (Open MPI binds to cores by default
  /// for up to two ranks). Where the affinity cannot be read, every core of the machine.
  unsigned int cores_allowed()
  {
#ifdef __linux__
    cpu_set_t mask;
    if (sched_getaffinity(0, sizeof(mask), &mask) == 0)
      return static_cast<unsigned int>(CPU_COUNT(&mask));
#endif
    return dealii::MultithreadInfo::n_cores();
  }
} // namespace

int main(int argc, char **argv)
{
  // standard output may be a pipe that closes (`| head`): the write fails instead of killing
  // the process; a run with checkpoints then stops with one (base/stop_signals.h)
  std::signal(SIGPIPE, SIG_IGN);
  try
    {
      dealii::Utilities::MPI::MPI_InitFinalize mpi(argc, argv, 1);
      granular::CommandLineOptions options;
      try
        {
          options = granular::parse_command_line(argc, argv);
        }
      catch (const std::invalid_argument &e)
        {
          // a mistake on the command line is invalid input too (exit status 2)
          if (reports_errors())
            std::cerr << "granular-interface: " << e.what() << std::endl;
          return 2;
        }
      // MPI_InitFinalize(argc, argv, 1) has limited deal.II to one thread; --threads N
      // lifts the limit (the rubber block's assembly; the results do not depend on it)
      dealii::MultithreadInfo::set_thread_limit(options.threads);
      if (options.threads > dealii::MultithreadInfo::n_cores() && reports_errors())
        std::cerr << "granular-interface: warning: --threads " << options.threads
                  << " is more than the " << dealii::MultithreadInfo::n_cores()
                  << " cores of this machine; the run will be slower than with fewer"
                  << std::endl;
      else if (const unsigned int allowed = cores_allowed();
               options.threads > allowed && reports_errors())
        std::cerr << "granular-interface: warning: --threads " << options.threads
                  << ", but this process may only run on " << allowed << " of the "
                  << dealii::MultithreadInfo::n_cores()
                  << " cores of this machine, so its threads share them (under mpirun, "
                     "which binds each rank to one core, start it with mpirun --bind-to "
                     "none)"
                  << std::endl;
      if (options.help)
        {
          std::cout << granular::usage_text();
          return 0;
        }
      if (options.version)
        {
          std::cout << granular::version_text();
          return 0;
        }
      if (options.print_columns)
        {
          std::cout << granular::output_column_tables();
          return 0;
        }
      if (options.list_laws)
        {
          std::cout << (options.law_table ? granular::contact_law_table() :
                                            granular::contact_law_list());
          return 0;
        }
      if (options.print_parameters)
        {
          std::cout << granular::parameter_listing(options);
          return 0;
        }
      if (options.parameter_file.empty() && !options.defaults)
        {
          std::cerr << "granular-interface: no parameter file given\n\n"
                    << granular::usage_text();
          return 2;
        }
      if (reports_errors())
        for (const std::string &w : granular::parameter_file_warnings(options.parameter_file))
          std::cerr << "granular-interface: warning: " << w << std::endl;
      dealii::ParameterHandler prm;
      const granular::ProgramParameters parameters = granular::read_parameters(options, prm);
      if (options.check) // read_parameters() has checked every point of a sweep
        {
          if (reports_errors())
            std::cout << granular::check_report(options, parameters, prm);
          return 0;
        }
      if (parameters.sweep.active())
        return granular::run_sweep(parameters, prm, MPI_COMM_WORLD);
      // a single run is one process: under mpirun -np N it would run N times into the same
      // output directory
      if (dealii::Utilities::MPI::n_mpi_processes(MPI_COMM_WORLD) > 1)
        {
          if (dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0)
            std::cerr << "granular-interface: " << options.parameter_file
                      << " describes a single run, which uses one process; mpirun -np N "
                         "distributes the points of a sweep (subsection Sweep, docs/sweeps.md)"
                      << std::endl;
          return 2;
        }
      const granular::RunSummary summary = granular::run_micromechanical_test(parameters, prm);
      std::cout << granular::format_summary(summary);
      return 0;
    }
  catch (const granular::RunInterrupted &e)
    {
      std::cerr << "granular-interface: " << e.what() << std::endl;
      return e.signal() > 0 ? 128 + e.signal() : 1;
    }
  catch (const granular::ParameterError &e)
    {
      if (reports_errors())
        std::cerr << "granular-interface: " << e.what() << std::endl;
      return 2;
    }
  catch (const std::exception &e)
    {
      std::cerr << "granular-interface: error: " << e.what() << std::endl;
      return 1;
    }
}
