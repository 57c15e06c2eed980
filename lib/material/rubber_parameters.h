#pragma once
/**
 * @file rubber_parameters.h
 * Subsection "Rubber": the finite-strain viscoelastic rubber of docs/methods.md §3.2-§3.5
 * (Temizer 2013, Tables 1 and 4). Moduli in MPa, times in s.
 */
#include <vector>

namespace granular
{
  class ParameterEntries;

  /// Parameters of subsection "Rubber" with its nested "Ogden" and "Maxwell branch".
  struct RubberParameters
  {
    double shear_modulus      = 1.;    ///< mu_e (MPa), elastic branch initial shear modulus
    double bulk_modulus_ratio = 1e3;   ///< kappa_e / mu_e
    double density_ratio      = 1e-3;  ///< rho_B / rho_P (regularising inertia only)
    std::vector<double> ogden_exponents{1.8, -2., 7.};           ///< alpha_p
    std::vector<double> ogden_moduli{0.661, -0.231, 0.0496};     ///< gamma_p = mu_p/mu
    bool   viscoelastic               = false; ///< Maxwell branch on/off
    double maxwell_modulus_ratio      = 5.;    ///< mu_v / mu_e
    double relaxation_time            = 1e-4;  ///< tau0 = eta0/mu_v (s)
    double payne_d                    = 0.;    ///< Payne parameter d (s), 0: off
    double payne_time_constant_ratio  = 0.1;   ///< lambda / tau0

    double bulk_modulus() const { return bulk_modulus_ratio * shear_modulus; }
    /// mu_v (MPa), zero when the Maxwell branch is off.
    double maxwell_modulus() const
    {
      return viscoelastic ? maxwell_modulus_ratio * shear_modulus : 0.;
    }

    /// The entries of subsection "Rubber" (with "Ogden" and "Maxwell branch"), each bound to its member.
    void entries(ParameterEntries &e);
    /// Throws ParameterError naming the entry.
    void validate() const;
  };
} // namespace granular
