#pragma once
/**
 * @file impact_parameters.h
 * Parameters of the contact-impact program (docs/contact-law-catalogue.md §8 scenarios
 * S0–S8): which scenario, which laws, the impact cases, and every law's own parameters (one
 * subsection per law under "Contact laws", the same entries as
 * Contact/Particle-surface/<identifier> of the micromechanical test).
 *
 * Units mm–s–N–t–MPa (docs/contact-law-catalogue.md §1 converts the sources' SI values): mass t,
 * velocity mm/s, stiffness K N/mm^n, moduli and strengths MPa, radii mm, force N.
 */
#include "impact/granular_chain.h"
#include "impact/optimal_damping.h"
#include "impact/two_pendulums.h"

#include <map>
#include <string>
#include <vector>

namespace granular
{
  class ParameterEntries;

  namespace impact
  {
    /**
     * The impact cases of a scenario (subsection "Cases"): lists with one value per case,
     * or a single value for all cases, or empty (not defined for these cases).
     */
    struct ImpactCases
    {
      std::vector<std::string> names;              ///< case names, e.g. C1-low
      std::vector<double>      effective_mass;     ///< m_eff (t)
      std::vector<double>      approach_velocity;  ///< delta_dot_minus (mm/s), > 0
      std::vector<double>      stiffness;          ///< K (N/mm^n); empty: 4/3 E* sqrt(R_eff)
      std::vector<double>      restitution;        ///< c_r given to laws that take one
      std::vector<double>      effective_modulus;  ///< E* (MPa)
      std::vector<double>      effective_radius;   ///< R_eff (mm)
      std::vector<double>      yield_strength;     ///< sigma_y (MPa)
      std::vector<double>      poisson_ratio;      ///< nu
      std::vector<double>      youngs_modulus;     ///< E (MPa)
      std::vector<double>      measured_peak_force; ///< experiment's F_max (N), for the error
      /// A law whose effective c_r in the same impact is given as c_r to the others (S3:
      /// ma_liu); empty: the Coefficient of restitution list.
      std::string restitution_from_law;

      std::size_t size() const
      {
        return names.size();
      }
      /// The value of @p list for case @p i: the i-th, the only one, or NaN if empty.
      static double value(const std::vector<double> &list, std::size_t i);
    };

    /// All parameters of the contact-impact program.
    struct ImpactParameters
    {
      /// "single impacts" (S1–S3: SDOF impacts of every law in every case),
      /// "damping factors" (S0: chi delta_dot_minus / K of the Hunt–Crossley family),
      /// "granular chain" (S4), "optimal damping" (S6, S7: Poursina–Nikravesh),
      /// "two pendulums" (S8).
      std::string              scenario = "single impacts";
      std::string              title;            ///< printed and written to the results
      std::vector<std::string> laws;             ///< law identifiers
      std::string              output_directory = "output-impact";
      unsigned int             curve_samples    = 400; ///< samples of each F–delta/F–t curve
      double                   relative_tolerance = 1e-10; ///< of the ODE integrator
      unsigned int             restitution_samples = 200; ///< S0: c_r points in (0, 1]
      ImpactCases              cases;
      GranularChainParameters  granular_chain;  ///< subsection "Granular chain" (S4)
      OptimalDampingParameters optimal_damping; ///< subsection "Optimal damping" (S6, S7)
      TwoPendulumsParameters   two_pendulums;   ///< subsection "Two pendulums" (S8)
      /// Own parameters of every law: identifier -> entry -> value.
      std::map<std::string, std::map<std::string, double>> law_parameters;

      void entries(ParameterEntries &e);
      /// Throws ParameterError naming the entry: unknown law, list lengths that do not match
      /// the case names, a case name given twice (or two names with one file name,
      /// file_name_part()), non-positive masses/velocities, ...
      void validate() const;
    };

    /// @p s usable in a file name: every character other than a letter, a digit, '-', '_'
    /// and '.' becomes '_' (the curve files curves/CASE__LAW.csv).
    std::string file_name_part(std::string s);
  } // namespace impact
} // namespace granular
