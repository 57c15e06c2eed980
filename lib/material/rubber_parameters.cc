#include "material/rubber_parameters.h"

#include "base/parameter_error.h"

#include <deal.II/base/parameter_handler.h>
#include <deal.II/base/utilities.h>

#include <cmath>

namespace granular
{
  using namespace dealii::Patterns;

  void RubberParameters::declare_parameters(dealii::ParameterHandler &prm)
  {
    prm.enter_subsection("Rubber");
    prm.declare_entry("Shear modulus", "1", Double(),
                      "mu_e in MPa: initial shear modulus of the elastic branch "
                      "(spec §3.5).");
    prm.declare_entry("Bulk modulus ratio", "1000", Double(),
                      "kappa_e / mu_e: bulk modulus of U(J) = kappa/4 (J^2 - 1 - 2 ln J).");
    prm.declare_entry("Density ratio", "1e-3", Double(),
                      "rho_B / rho_P: rubber density relative to the particle density; "
                      "small, it only regularises the dynamics (spec §3.6).");
    prm.enter_subsection("Ogden");
    prm.declare_entry("Exponents", "1.8, -2, 7", List(Double(), 1, 6),
                      "alpha_p of W_iso = mu sum_p (gamma_p/alpha_p)(sum_a lbar_a^alpha_p - 3) "
                      "(Reese & Govindjee 1998 vulcanised rubber).");
    prm.declare_entry("Normalised moduli", "0.661, -0.231, 0.0496", List(Double(), 1, 6),
                      "gamma_p = mu_p / mu, one per exponent (1/2 sum gamma_p alpha_p = 1 "
                      "makes mu the initial shear modulus).");
    prm.leave_subsection();
    prm.enter_subsection("Maxwell branch");
    prm.declare_entry("Viscoelastic", "false", Bool(),
                      "Switch the Maxwell branch (finite viscoelasticity, spec §3.3) on. "
                      "false: purely elastic rubber (mu_v = 0).");
    prm.declare_entry("Shear modulus ratio", "5", Double(),
                      "mu_v / mu_e: Maxwell-branch shear modulus, same Ogden shape.");
    prm.declare_entry("Relaxation time", "1e-4", Double(),
                      "tau0 = eta0 / mu_v in s.");
    prm.declare_entry("Payne parameter", "0", Double(),
                      "d in s of the Payne effect eta = eta0 / (1 + d q) (spec §3.4); "
                      "0 switches it off.");
    prm.declare_entry("Payne time constant ratio", "0.1", Double(),
                      "lambda / tau0 of the Payne evolution q' = (|D| - q) / lambda.");
    prm.leave_subsection();
    prm.leave_subsection();
  }

  void RubberParameters::parse_parameters(dealii::ParameterHandler &prm)
  {
    prm.enter_subsection("Rubber");
    shear_modulus      = prm.get_double("Shear modulus");
    bulk_modulus_ratio = prm.get_double("Bulk modulus ratio");
    density_ratio      = prm.get_double("Density ratio");
    prm.enter_subsection("Ogden");
    ogden_exponents = dealii::Utilities::string_to_double(
      dealii::Utilities::split_string_list(prm.get("Exponents")));
    ogden_moduli = dealii::Utilities::string_to_double(
      dealii::Utilities::split_string_list(prm.get("Normalised moduli")));
    prm.leave_subsection();
    prm.enter_subsection("Maxwell branch");
    viscoelastic              = prm.get_bool("Viscoelastic");
    maxwell_modulus_ratio     = prm.get_double("Shear modulus ratio");
    relaxation_time           = prm.get_double("Relaxation time");
    payne_d                   = prm.get_double("Payne parameter");
    payne_time_constant_ratio = prm.get_double("Payne time constant ratio");
    prm.leave_subsection();
    prm.leave_subsection();
  }

  void RubberParameters::validate() const
  {
    require_positive("Rubber/Shear modulus", shear_modulus, "the shear modulus mu_e");
    require_positive("Rubber/Bulk modulus ratio", bulk_modulus_ratio, "kappa_e/mu_e");
    require_positive("Rubber/Density ratio", density_ratio, "rho_B/rho_P");
    if (ogden_exponents.size() != ogden_moduli.size())
      throw ParameterError("Rubber/Ogden/Normalised moduli",
                           "needs one value per entry of Rubber/Ogden/Exponents");
    double mu0 = 0.;
    for (unsigned int p = 0; p < ogden_exponents.size(); ++p)
      {
        if (ogden_exponents[p] == 0.)
          throw ParameterError("Rubber/Ogden/Exponents", "an exponent alpha_p is zero");
        mu0 += 0.5 * ogden_exponents[p] * ogden_moduli[p];
      }
    if (!(mu0 > 0.))
      throw ParameterError("Rubber/Ogden/Normalised moduli",
                           "1/2 sum gamma_p alpha_p must be positive (stable initial "
                           "shear modulus)");
    if (!(maxwell_modulus_ratio >= 0.))
      throw ParameterError("Rubber/Maxwell branch/Shear modulus ratio", "must be >= 0");
    require_positive("Rubber/Maxwell branch/Relaxation time", relaxation_time,
                     "the relaxation time tau0");
    if (!(payne_d >= 0.))
      throw ParameterError("Rubber/Maxwell branch/Payne parameter", "must be >= 0");
    require_positive("Rubber/Maxwell branch/Payne time constant ratio",
                     payne_time_constant_ratio, "lambda/tau0");
  }
} // namespace granular
