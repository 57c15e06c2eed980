#include "impact/impact_parameters.h"

#include "base/parameter_entries.h"
#include "base/parameter_error.h"
#include "contact/contact_parameters.h"
#include "contact/laws/contact_law.h"

#include <cctype>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace granular::impact
{
  using dealii::Patterns::Anything;
  using dealii::Patterns::Double;
  using dealii::Patterns::Integer;
  using dealii::Patterns::List;
  using dealii::Patterns::Selection;

  double
  ImpactCases::value(const std::vector<double> &list, const std::size_t i)
  {
    if (list.empty())
      return std::numeric_limits<double>::quiet_NaN();
    return list.size() == 1 ? list[0] : list.at(i);
  }

  namespace
  {
    /// Subsection Impact: the scenario, the laws, the output and the integrator's accuracy.
    void
    impact_entries(ParameterEntries &e, ImpactParameters &p)
    {
      std::string law_names;
      for (const auto &l : contact::laws::registered_laws())
        law_names += (law_names.empty() ? "" : "|") + l.id;
      e.entry(p.scenario, "Scenario", "single impacts",
              Selection("single impacts|damping factors|granular chain|optimal damping|"
                        "two pendulums"),
              "single impacts: the direct central impact m_eff d'' = -F(d, d', history), "
              "d(0) = 0, d'(0) = approach velocity, of every law in every case "
              "(docs/contact-law-catalogue.md §8 S1–S3; Boost.Odeint dopri5 with dense output and "
              "located events); damping factors: chi delta_dot_minus / K of the Hunt–Crossley "
              "family against c_r (docs/contact-law-catalogue.md §8 S0); granular chain: a chain "
              "of beads struck by a striker (S4), subsection Granular chain; optimal damping: "
              "Poursina–Nikravesh's sweeps, fit and random check (S6) and the Kelvin–Voigt check "
              "(S7), subsection Optimal damping; two pendulums: the impact of two pendulums "
              "(S8), subsection Two pendulums.");
      e.entry(p.title, "Title", "", "A title for the results (the scenario and its source).");
      e.entry(p.laws, "Laws", "hertz, hunt_crossley, lankarani_nikravesh, flores",
              List(Selection(law_names), 1),
              "Identifiers of the laws to run (contact-impact --list-laws).");
      e.entry(p.output_directory, "Output directory", "output-impact",
              "Directory of results.csv, the curves and parameters.prm.");
      e.entry(p.curve_samples, "Curve samples", "400", Integer(2),
              "Samples of each force–indentation / force–time curve (equally spaced in time "
              "over the contact, plus the events).");
      e.entry(p.relative_tolerance, "Relative tolerance", "1e-10", Double(1e-14, 1e-3),
              "Relative error tolerance of the adaptive ODE integrator (Boost.Odeint "
              "dopri5) on the state scaled by the impact's indentation and velocity scales; "
              "the absolute one is 1/100 of it. At 1e-10 an undamped Hertz impact returns "
              "c_r = 1 to ~3e-11.");
      e.entry(p.restitution_samples, "Restitution samples", "200", Integer(2),
              "damping factors: number of c_r values, equally spaced in (0, 1].");
    }

    /// Subsection Cases: the impact cases (ImpactCases; docs/contact-law-catalogue.md §8 S1–S3).
    void
    case_entries(ParameterEntries &e, ImpactCases &c)
    {
      e.entry(c.names, "Names", "case", List(Anything(), 1),
              "Case names, e.g. C1-low, C1-mod (docs/contact-law-catalogue.md §8). Every list "
              "below has one value per case, or one value for all cases, or is empty (undefined).");
      auto list = [&](std::vector<double> &v, const std::string &name,
                      const std::string &def, const std::string &doc) {
        e.entry(v, name, def, List(Double(), 0), doc);
      };
      list(c.effective_mass, "Effective mass", "5.4e-4",
           "m_eff in t (docs/contact-law-catalogue.md §1: m_i m_j/(m_i + m_j); a massive body: the "
           "other's mass).");
      list(c.approach_velocity, "Approach velocity", "94",
           "delta_dot_minus in mm/s: the relative normal velocity at first contact (> 0).");
      list(c.stiffness, "Stiffness", "7.7792e5",
           "K in N/mm^n (Hertz: N/mm^1.5). Empty: 4/3 E* sqrt(R_eff) from the two entries "
           "below (docs/contact-law-catalogue.md §2).");
      list(c.restitution, "Coefficient of restitution", "",
           "c_r given to every law that has the parameter \"Coefficient of restitution\" "
           "(it overrides the law's own value). Empty: the laws' own values.");
      list(c.effective_modulus, "Effective modulus", "",
           "E* in MPa: 1/((1 - nu_1^2)/E_1 + (1 - nu_2^2)/E_2).");
      list(c.effective_radius, "Effective radius", "",
           "R_eff in mm: R_1 R_2/(R_1 + R_2); a concave seat: R_1 R_2/(R_1 - R_2).");
      list(c.yield_strength, "Yield strength", "",
           "sigma_y in MPa (elastoplastic laws: the softer body's).");
      list(c.poisson_ratio, "Poisson ratio", "", "nu of the bodies (same material).");
      list(c.youngs_modulus, "Youngs modulus", "", "E in MPa of the bodies (same material).");
      list(c.measured_peak_force, "Measured peak force", "",
           "The experiment's peak force in N: results.csv gets each law's relative error "
           "(F_model - F_exp)/F_exp * 100.");
      e.entry(c.restitution_from_law, "Restitution from law", "",
              "If set (a law identifier, e.g. ma_liu): that law's effective c_r in the same "
              "impact is the c_r given to the others (docs/contact-law-catalogue.md §8 S3).");
    }

    /// Subsection Granular chain (docs/contact-law-catalogue.md §8 S4; S003 §5.2).
    void
    granular_chain_entries(ParameterEntries &e, GranularChainParameters &c)
    {
      e.entry(c.number_of_beads, "Number of beads", "70", Integer(2),
              "Beads of the chain, struck at one end by the striker (S003 §5.2: 70).");
      e.entry(c.bead_radius, "Bead radius", "2.38", Double(0.), "R (mm).");
      e.entry(c.bead_mass, "Bead mass", "4.5e-7", Double(0.), "m (t): 0.45 g.");
      e.entry(c.striker_mass, "Striker mass", "4.5e-7", Double(0.), "m_s (t).");
      e.entry(c.youngs_modulus, "Youngs modulus", "1.93e5", Double(0.),
              "E (MPa) of the beads (stainless steel 316).");
      e.entry(c.poisson_ratio, "Poisson ratio", "0.3", Double(0., 0.5), "nu.");
      e.entry(c.yield_strength, "Yield strength", "900", Double(0.), "sigma_y (MPa).");
      e.entry(c.plastic_limit_ratio, "Plastic limit ratio", "13", Double(1.5),
              "Ma–Liu xi (S4: 13).");
      e.entry(c.hardness_ratio, "Hardness ratio", "2.84", Double(0.), "Ma–Liu psi (S4: 2.84).");
      e.entry(c.striker_velocity, "Striker velocity", "1770", Double(0.),
              "v0 (mm/s): 1.77 m/s.");
      e.entry(c.restitution, "Coefficient of restitution", "0.65", Double(0., 1.),
              "c_r of every contact (S003: 0.65, below the first pair's CoR to account for "
              "wave-propagation losses).");
      e.entry(c.law, "Law", "S003 mixed",
              "\"S003 mixed\": Flores (D8) while a contact has not exceeded the Ma–Liu yield "
              "indentation, Wang–Liu–Liu (G4) once it has, chi of all contacts fixed from the "
              "striker impact (S003 §5.2; the switch makes the linear G4 force jump, "
              "docs/contact-laws.md); "
              "or the identifier of one law for every contact (its own parameters from "
              "Contact laws).");
      e.text_entry(
        [&c](const std::string &t) {
          c.sensor_beads.clear();
          for (const auto &v : dealii::Utilities::split_string_list(t))
            c.sensor_beads.push_back(static_cast<unsigned int>(std::stoul(v)));
        },
        [&c] {
          std::string text;
          for (std::size_t i = 0; i < c.sensor_beads.size(); ++i)
            text += (i ? ", " : "") + std::to_string(c.sensor_beads[i]);
          return text;
        },
        "Sensor beads", "9, 16, 24, 31, 40, 50, 56, 63", List(Integer(1), 1),
        "Beads with a force sensor (1 = the first bead after the striker); the sensor force "
        "is the mean of the bead's two contact forces.");
      e.entry(c.end_time, "End time", "1e-3", Double(0.), "Simulated time (s).");
      e.entry(c.output_samples, "Output samples", "2001", Integer(2),
              "Rows of chain_forces.csv.");
      e.entry(c.relative_tolerance, "Relative tolerance", "1e-9", Double(1e-14, 1e-3),
              "Of the Dormand–Prince stepper on the scaled state.");
    }

    /// Subsection Optimal damping (docs/contact-law-catalogue.md §8 S6, S7; S004 §5).
    void
    optimal_damping_entries(ParameterEntries &e, OptimalDampingParameters &o)
    {
      e.entry(o.mass_sweep, "Mass sweep", "true", "S6 (a): the exact optimal c against m_eff.");
      e.entry(o.velocity_sweep, "Velocity sweep", "true", "S6 (b): c against d'_-.");
      e.entry(o.stiffness_sweep, "Stiffness sweep", "true", "S6 (c): c against k.");
      e.entry(o.restitution_fit, "Restitution fit", "true",
              "S6 (d): c against e in [0.45, 1] per n, and the fit c = alpha (e^beta - 1) "
              "against S004 eqs.(46)-(47).");
      e.entry(o.random_check, "Random check", "true",
              "S6 (e): S004 eq.(49) on random systems (S004 §5.1).");
      e.entry(o.kelvin_voigt_check, "Kelvin-Voigt check", "true",
              "S7: S004 eq.(57) through the exact force-free-separation restitution (B4).");
      e.entry(o.sweep_values, "Sweep values", "200", Integer(2),
              "Values of m, d'_-, k per sweep (a)-(c) (catalogue: 200).");
      e.entry(o.sweep_exponents, "Sweep exponents", "50", Integer(1),
              "Values of n in [1, 2] of (a)-(c) (catalogue: 50).");
      e.entry(o.fit_restitutions, "Fit restitutions", "600", Integer(2),
              "Values of e in [0.45, 1] of (d) (catalogue: 600).");
      e.entry(o.fit_exponents, "Fit exponents", "100", Integer(1),
              "Values of n in [1, 2] of (d) (catalogue: 100).");
      e.entry(o.random_systems, "Random systems", "300", Integer(1),
              "Systems of (e) (catalogue: 300).");
      e.entry(o.seed, "Seed", "2020", Integer(0), "Seed of the random systems (mt19937).");
      e.entry(o.kelvin_voigt_points, "Kelvin-Voigt points", "200", Integer(2),
              "Values of e, log-spaced in [1e-4, 1], of S7.");
      e.entry(o.tolerance, "Restitution tolerance", "1e-8", Double(1e-12, 1e-2),
              "eps of S004 eq.(24): the exact c gives |e_out - e|/e <= eps.");
    }

    /// Subsection Two pendulums (docs/contact-law-catalogue.md §8 S8; S004 §6).
    void
    two_pendulums_entries(ParameterEntries &e, TwoPendulumsParameters &t)
    {
      e.entry(t.mass_1, "Mass 1", "1e-3", Double(0.), "m1 (t): 1 kg (S004 §6).");
      e.entry(t.length_1, "Length 1", "6000", Double(0.), "L1 (mm): 6 m.");
      e.entry(t.mass_2, "Mass 2", "2e-4", Double(0.), "m2 (t): 0.2 kg.");
      e.entry(t.length_2, "Length 2", "4000", Double(0.), "L2 (mm): 4 m.");
      e.entry(t.pivot_spacing, "Pivot spacing", "2000", Double(0.),
              "a (mm): horizontal spacing of the pivots (our reading of S004 Fig. 10, "
              "docs/contact-law-catalogue.md §8 S8); a + L2 <= L1.");
      e.entry(t.initial_angle_1, "Initial angle 1", "0.26179938779914941",
              "theta1(0) (rad) from the downward vertical, counter-clockwise: pi/12.");
      e.entry(t.initial_angle_2, "Initial angle 2", "-1.5707963267948966",
              "theta2(0) (rad): -pi/2 (rod 2 horizontal, pointing away from rod 1).");
      e.entry(t.gravity, "Gravity", "9810", Double(0.), "g (mm/s^2).");
      e.entry(t.end_time, "End time", "8", Double(0.), "Simulated time (s).");
      e.entry(t.restitution, "Coefficient of restitution", "0.3", Double(0., 1.),
              "e of the impulse model and c_r of the laws (S004 §6: 0.3).");
      e.entry(t.stiffness, "Stiffness", "3162.2776601683795", Double(0.),
              "K (N/mm^n) of the laws: 1e8 N/m^1.5.");
      e.entry(t.exponent, "Elastic exponent", "1.5", Double(1., 2.), "n of the laws.");
      e.entry(t.models, "Models", "impulse, hertz_linear_damping_optimal, flores",
              List(Anything(), 1),
              "impulse (piecewise impulse-momentum with e) and/or law identifiers that "
              "need only K and m_eff (S004 §6: impulse, B5, flores).");
      e.entry(t.output_interval, "Output interval", "1e-3", Double(0.),
              "Spacing (s) of the rows of pendulums_<model>.csv.");
    }
  } // namespace

  void
  ImpactParameters::entries(ParameterEntries &e)
  {
    e.subsection("Impact", [&] { impact_entries(e, *this); });
    e.subsection("Cases", [&] { case_entries(e, cases); });
    e.subsection("Granular chain", [&] { granular_chain_entries(e, granular_chain); });
    e.subsection("Optimal damping", [&] { optimal_damping_entries(e, optimal_damping); });
    e.subsection("Two pendulums", [&] { two_pendulums_entries(e, two_pendulums); });
    e.subsection("Contact laws", [&] { contact_law_entries(e, law_parameters, false); });
  }

  std::string
  file_name_part(std::string s)
  {
    for (char &c : s)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'))
        c = '_';
    return s;
  }

  void
  ImpactParameters::validate() const
  {
    const std::size_t n = cases.size();
    // each case writes curves/CASE__LAW.csv: two cases of one name, or of names that give
    // the same file name, would overwrite each other's curves
    for (std::size_t i = 0; i < cases.names.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (file_name_part(cases.names[i]) == file_name_part(cases.names[j]))
          throw ParameterError("Cases/Names",
                               cases.names[i] == cases.names[j] ?
                                 "lists the case " + cases.names[i] + " twice" :
                                 "the cases " + cases.names[j] + " and " + cases.names[i] +
                                   " give the same curve file name " +
                                   file_name_part(cases.names[i]) + "__LAW.csv");
    auto check_list = [&](const std::vector<double> &v, const std::string &name,
                          const bool positive) {
      const std::string entry = "Cases/" + name;
      if (!(v.empty() || v.size() == 1 || v.size() == n))
        throw ParameterError(entry, "has " + std::to_string(v.size()) +
                                      " values for " + std::to_string(n) +
                                      " cases (give one per case, one for all, or none)");
      for (const double x : v)
        if (!std::isfinite(x) || (positive && !(x > 0.)))
          throw ParameterError(entry, positive ? "values must be positive and finite" :
                                                 "values must be finite");
    };
    check_list(cases.effective_mass, "Effective mass", true);
    check_list(cases.approach_velocity, "Approach velocity", true);
    check_list(cases.stiffness, "Stiffness", true);
    check_list(cases.restitution, "Coefficient of restitution", true);
    check_list(cases.effective_modulus, "Effective modulus", true);
    check_list(cases.effective_radius, "Effective radius", false);
    check_list(cases.yield_strength, "Yield strength", true);
    check_list(cases.poisson_ratio, "Poisson ratio", false);
    check_list(cases.youngs_modulus, "Youngs modulus", true);
    check_list(cases.measured_peak_force, "Measured peak force", true);
    for (const double c : cases.restitution)
      if (c > 1.)
        throw ParameterError("Cases/Coefficient of restitution", "must be <= 1");
    if (scenario == "single impacts")
      {
        if (cases.effective_mass.empty())
          throw ParameterError("Cases/Effective mass", "is needed for single impacts");
        if (cases.approach_velocity.empty())
          throw ParameterError("Cases/Approach velocity", "is needed for single impacts");
        if (cases.stiffness.empty() &&
            (cases.effective_modulus.empty() || cases.effective_radius.empty()))
          throw ParameterError("Cases/Stiffness",
                               "is empty and E*, R_eff are not both given to compute it");
      }
    if (!cases.restitution_from_law.empty() &&
        contact::laws::find_law(cases.restitution_from_law) == nullptr)
      throw ParameterError("Cases/Restitution from law",
                           "unknown law \"" + cases.restitution_from_law + "\"");
    for (std::size_t i = 0; i < laws.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (laws[i] == laws[j])
          throw ParameterError("Impact/Laws", "lists " + laws[i] + " twice");
    if (output_directory.empty())
      throw ParameterError("Impact/Output directory", "must not be empty");
    // the scenario structs name their member in the message
    if (scenario == "granular chain")
      try
        {
          granular_chain.validate();
        }
      catch (const std::invalid_argument &e)
        {
          throw ParameterError("Granular chain", e.what());
        }
    if (scenario == "optimal damping")
      try
        {
          optimal_damping.validate();
        }
      catch (const std::invalid_argument &e)
        {
          throw ParameterError("Optimal damping", e.what());
        }
    if (scenario == "two pendulums")
      try
        {
          two_pendulums.validate();
        }
      catch (const std::invalid_argument &e)
        {
          throw ParameterError("Two pendulums", e.what());
        }
  }
} // namespace granular::impact
