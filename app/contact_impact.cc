// contact-impact: the impact benchmark program of the contact-law library
// (docs/contact-law-catalogue.md §8). Thin: parse, run, report.
#include "base/parameter_entries.h"
#include "base/parameter_error.h"
#include "impact/impact_parameters.h"
#include "impact/impact_program.h"
#include "program/command_line.h"

#include <deal.II/base/parameter_handler.h>

#include <iostream>
#include <sstream>

namespace
{
  const char *usage =
    "Usage: contact-impact [options] PARAMETER_FILE.prm\n"
    "\n"
    "Impact benchmarks of the normal contact force laws (docs/contact-law-catalogue.md §8):\n"
    "the direct central impact m_eff d'' = -F(d, d', history) of every chosen law in every\n"
    "case of the file (Boost.Odeint, dense output, located events), or the damping-factor\n"
    "curves of the Hunt–Crossley family. Writes results.csv (case, law, F_max, delta_max,\n"
    "contact duration, v_out, effective c_r, dissipated energy, ...), the F–delta / F–t\n"
    "curves as CSV and parameters.prm. Units: mm, s, N, t, MPa. Ready-made scenarios:\n"
    "params/impact/*.prm.\n"
    "\n"
    "Options:\n"
    "  --output-directory DIR           write all results to DIR (overrides\n"
    "                                   Impact/Output directory)\n"
    "  --set \"Sub/section/Entry=value\"  override one entry; repeatable\n"
    "  --print-parameters               print the complete, documented default\n"
    "                                   parameter file and exit\n"
    "  --print-parameters=json          the same as JSON (default, pattern and\n"
    "                                   documentation of every entry)\n"
    "  --defaults                       run the documented defaults on purpose (without\n"
    "                                   a parameter file or with one that sets nothing)\n"
    "  --list-laws                      print the identifiers of the registered contact\n"
    "                                   laws, one per line with its source, and exit\n"
    "  --list-laws=markdown             print their table as Markdown (formula,\n"
    "                                   parameters, data needed, source) and exit\n"
    "  --help                           print this text and exit\n"
    "\n"
    "The options of granular-interface's micromechanical runs (--restart, --overwrite,\n"
    "--allow-long-run, --threads, --print-parameters=used) are refused: an impact\n"
    "benchmark is not restarted, its files replace those of an earlier benchmark in its\n"
    "directory, and it runs on one thread.\n"
    "Exit status: 0 on success, 2 for invalid input, 1 on other errors.\n";
} // namespace

int main(int argc, char **argv)
{
  try
    {
      const granular::CommandLineOptions options = granular::parse_command_line(argc, argv);
      if (options.help)
        {
          std::cout << usage;
          return 0;
        }
      if (options.list_laws)
        {
          std::cout << (options.law_table ? granular::contact_law_table() :
                                            granular::contact_law_list());
          return 0;
        }
      dealii::ParameterHandler prm;
      granular::ParameterEntries::declare<granular::impact::ImpactParameters>(prm);
      if (options.print_parameters)
        {
          if (options.parameter_listing == granular::ParameterListing::used)
            throw granular::ParameterError("--print-parameters=used",
                                           "is an option of granular-interface; "
                                           "contact-impact has --print-parameters and "
                                           "--print-parameters=json");
          prm.print_parameters(std::cout,
                               (options.parameter_listing == granular::ParameterListing::json ?
                                  dealii::ParameterHandler::JSON :
                                  dealii::ParameterHandler::PRM) |
                                 dealii::ParameterHandler::KeepDeclarationOrder);
          return 0;
        }
      if (options.restart)
        throw granular::ParameterError("--restart", "is an option of granular-interface; "
                                                    "contact-impact runs are not restarted");
      if (options.overwrite)
        throw granular::ParameterError("--overwrite",
                                       "is an option of granular-interface; contact-impact "
                                       "writes its results into the output directory, "
                                       "replacing those of an earlier benchmark there");
      if (options.allow_long_run)
        throw granular::ParameterError("--allow-long-run",
                                       "is an option of granular-interface (its runs of more "
                                       "than 1e7 time steps); contact-impact integrates each "
                                       "impact with adaptive steps and needs no confirmation");
      if (options.threads != 1)
        throw granular::ParameterError("--threads",
                                       "is an option of granular-interface (the threads of "
                                       "its rubber block's assembly); contact-impact runs on "
                                       "one thread");
      if (options.parameter_file.empty() && !options.defaults)
        {
          std::cerr << "contact-impact: no parameter file given\n\n" << usage;
          return 2;
        }
      for (const std::string &w : granular::parameter_file_warnings(options.parameter_file))
        std::cerr << "contact-impact: warning: " << w << std::endl;
      granular::read_parameter_input(
        options, prm,
        "run the impacts of contact-impact's default case (one case, four laws) instead of "
        "a benchmark of yours (the ready-made ones are params/impact/*.prm)");
      if (!options.output_directory.empty())
        {
          prm.enter_subsection("Impact");
          prm.set("Output directory", options.output_directory);
          prm.leave_subsection();
        }
      granular::impact::ImpactParameters parameters;
      granular::ParameterEntries::parse(prm, parameters);
      parameters.validate();
      granular::impact::check_laws(parameters);
      granular::impact::run_impact_program(parameters, prm, std::cout);
      return 0;
    }
  catch (const granular::ParameterError &e)
    {
      std::cerr << "contact-impact: " << e.what() << std::endl;
      return 2;
    }
  catch (const std::invalid_argument &e)
    {
      std::cerr << "contact-impact: " << e.what() << std::endl;
      return 2;
    }
  catch (const std::exception &e)
    {
      std::cerr << "contact-impact: error: " << e.what() << std::endl;
      return 1;
    }
}
