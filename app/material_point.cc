// material-point: the rubber model under a homogeneous deformation history, for
// calibration (viscoelasticity issue; docs/methods.md §3.2-3.4). Thin: parse, run, report.
#include "base/atomic_file.h"
#include "program/command_line.h"
#include "material/material_point_io.h"
#include "base/parameter_error.h"
#include "material/material_point_driver.h"

#include <deal.II/base/mpi.h>
#include <deal.II/base/parameter_handler.h>

#include <iostream>

namespace
{
  const char *usage =
    "Usage: material-point [--set \"Sub/section/Entry=value\"]... PARAMETER_FILE.prm\n"
    "                      DEFORMATION.csv [-o STRESS.csv]\n"
    "\n"
    "Runs the rubber model of PARAMETER_FILE (subsection Rubber: Ogden elastic branch\n"
    "and, if Viscoelastic = true, the Maxwell branch with the Payne effect) through the\n"
    "homogeneous plane-strain deformation history DEFORMATION.csv (header\n"
    "t,F11,F12,F21,F22; t in s) and writes the stress history (MPa; docs/outputs.md) to\n"
    "STRESS.csv, or to standard output.\n";
}

int main(int argc, char **argv)
{
  try
    {
      dealii::Utilities::MPI::MPI_InitFinalize mpi(argc, argv, 1);
      granular::CommandLineOptions options;
      std::vector<std::string>     positional;
      std::string                  output;
      for (int i = 1; i < argc; ++i)
        {
          const std::string a = argv[i];
          if (a == "--help" || a == "-h")
            {
              std::cout << usage;
              return 0;
            }
          if (a == "--set" && i + 1 < argc)
            options.set_entries.push_back(argv[++i]);
          else if (a == "--defaults")
            options.defaults = true;
          else if (a == "-o" && i + 1 < argc)
            output = argv[++i];
          else if (a.rfind("-", 0) == 0)
            throw std::invalid_argument("unknown or incomplete option " + a + "\n" + usage);
          else
            positional.push_back(a);
        }
      if (positional.size() != 2)
        throw std::invalid_argument(std::string("expected a parameter file and a "
                                                "deformation history\n") + usage);
      options.parameter_file = positional[0];
      dealii::ParameterHandler prm;
      const auto               P = granular::read_parameters(options, prm);
      const granular::material::OgdenMaterial elastic(P.rubber.shear_modulus,
                                                      P.rubber.ogden_exponents,
                                                      P.rubber.ogden_moduli);
      const auto branch  = granular::material::MaxwellBranch::from_parameters(P.rubber);
      const auto history = granular::material::read_deformation_history(positional[1]);
      const std::string csv = granular::material::stress_history_csv(
        granular::material::drive_material_point(elastic, branch, history));
      if (output.empty())
        std::cout << csv;
      else
        granular::write_file_atomically(output, csv);
      return 0;
    }
  catch (const std::invalid_argument &e)
    {
      // a command-line mistake or a malformed deformation history: invalid input
      std::cerr << "material-point: " << e.what() << std::endl;
      return 2;
    }
  catch (const granular::ParameterError &e)
    {
      std::cerr << "material-point: " << e.what() << std::endl;
      return 2;
    }
  catch (const std::exception &e)
    {
      std::cerr << "material-point: error: " << e.what() << std::endl;
      return 1;
    }
}
