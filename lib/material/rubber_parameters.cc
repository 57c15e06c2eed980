#include "material/rubber_parameters.h"

#include "base/parameter_entries.h"
#include "base/parameter_error.h"


#include <cmath>

namespace granular
{
  using namespace dealii::Patterns;

  void RubberParameters::entries(ParameterEntries &e)
  {
    e.subsection("Rubber", [&] {
      e.entry(shear_modulus, "Shear modulus", "1",
              "mu_e in MPa: initial shear modulus of the elastic branch "
              "(docs/methods.md §3.5).");
      e.entry(bulk_modulus_ratio, "Bulk modulus ratio", "1000",
              "kappa_e / mu_e: bulk modulus of U(J) = kappa/4 (J^2 - 1 - 2 ln J).");
      e.entry(density_ratio, "Density ratio", "1e-3",
              "rho_B / rho_P: rubber density relative to the particle density; "
              "small, it only regularises the dynamics (docs/methods.md §3.6); the "
              "numerical share of kbar grows with it (docs/results/energy-ledger.md).");
      e.subsection("Ogden", [&] {
        e.entry(ogden_exponents, "Exponents", "1.8, -2, 7", List(Double(), 1, 6),
                "alpha_p of W_iso = mu sum_p (gamma_p/alpha_p)(sum_a lbar_a^alpha_p - 3) "
                "(Reese & Govindjee 1998 vulcanised rubber).");
        e.entry(ogden_moduli, "Normalised moduli", "0.661, -0.231, 0.0496",
                List(Double(), 1, 6),
                "gamma_p = mu_p / mu, one per exponent (1/2 sum gamma_p alpha_p = 1 "
                "makes mu the initial shear modulus).");
      });
      e.subsection("Maxwell branch", [&] {
        e.entry(viscoelastic, "Viscoelastic", "false",
                "Switch the Maxwell branch (finite viscoelasticity, docs/methods.md §3.3) on. "
                "false: purely elastic rubber (mu_v = 0).");
        e.entry(maxwell_modulus_ratio, "Shear modulus ratio", "5",
                "mu_v / mu_e: Maxwell-branch shear modulus, same Ogden shape.");
        e.entry(relaxation_time, "Relaxation time", "1e-4", "tau0 = eta0 / mu_v in s.");
        e.entry(payne_d, "Payne parameter", "0",
                "d in s of the Payne effect eta = eta0 / (1 + d q) (docs/methods.md §3.4); "
                "0 switches it off.");
        e.entry(payne_time_constant_ratio, "Payne time constant ratio", "0.1",
                "lambda / tau0 of the Payne evolution q' = (|D| - q) / lambda.");
      });
    });
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
