#pragma once
/**
 * @file impact_program.h
 * The contact-impact program (docs/contact-law-catalogue.md §8): runs a scenario of
 * ImpactParameters and writes its tables and curves.
 *
 * Output directory (written atomically, file by file):
 *  - results.csv (single impacts): one row per case and law, columns
 *    case,law,F_max,delta_max,contact_duration,v_out,c_r_effective,dissipated_energy,
 *    c_r_input,residual_indentation,separation,measured_F_max,F_max_error_percent
 *    (units N, mm, s, mm/s, –, N mm, –, mm, –, N, %);
 *  - curves/<case>__<law>.csv: t,delta,delta_dot,force (s, mm, mm/s, N);
 *  - damping_factors.csv (damping factors): law,c_r,factor with factor = chi delta_dot_minus/K;
 *  - parameters.prm: the complete parameters of the run.
 */
#include "contact/laws/contact_law.h"
#include "impact/impact_parameters.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace dealii
{
  class ParameterHandler;
}

namespace granular::impact
{
  /// One row of results.csv.
  struct ImpactRow
  {
    std::string case_name, law, separation;
    double      max_force = 0., max_indentation = 0., contact_duration = 0.,
           separation_velocity = 0., restitution = 0., dissipated_energy = 0.,
           restitution_input = 0., residual_indentation = 0., measured_max_force = 0.,
           max_force_error_percent = 0.;
  };

  /// The contact data of case @p i (K from the case or 4/3 E* sqrt(R_eff)).
  contact::laws::ContactData
  case_contact_data(const ImpactCases &cases, std::size_t i);

  /**
   * Checks that every law of @p p can be made for every case (its parameters and the data it
   * needs), before anything runs. @throws ParameterError naming the law's entry.
   */
  void
  check_laws(const ImpactParameters &p);

  /**
   * Runs the scenario of @p p; progress lines go to @p log. Writes the files listed above
   * to p.output_directory (with @p prm as parameters.prm). Returns the rows of results.csv
   * (empty for the damping-factor scenario).
   */
  std::vector<ImpactRow>
  run_impact_program(const ImpactParameters &p, const dealii::ParameterHandler &prm,
                     std::ostream &log);
} // namespace granular::impact
