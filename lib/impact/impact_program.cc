// The contact-impact program (docs/contact-law-catalogue.md §8). See impact_program.h.
#include "impact/impact_program.h"

#include "base/atomic_file.h"
#include "base/parameter_error.h"
#include "base/source_revision.h"
#include "contact/laws/contact_law.h"
#include "contact/laws/hunt_crossley_family.h"
#include "impact/granular_chain.h"
#include "impact/optimal_damping.h"
#include "impact/sdof_impact.h"
#include "impact/two_pendulums.h"

#include <deal.II/base/parameter_handler.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace granular::impact
{
  namespace
  {
    namespace fs = std::filesystem;
    using contact::laws::ContactData;
    using contact::laws::LawValues;

    const std::string restitution_entry = "Coefficient of restitution";

    /// The law's own values, with the case's c_r where the law has the entry.
    LawValues
    law_values(const ImpactParameters &p, const std::string &law, const double c_r)
    {
      LawValues values;
      if (const auto it = p.law_parameters.find(law); it != p.law_parameters.end())
        values = it->second;
      if (std::isfinite(c_r))
        for (const auto &entry : contact::laws::find_law(law)->parameters)
          if (entry.name == restitution_entry)
            values[restitution_entry] = c_r;
      return values;
    }

    std::string
    csv_number(const double x)
    {
      if (!std::isfinite(x))
        return "";
      std::ostringstream s;
      s << std::setprecision(10) << x;
      return s.str();
    }


    /// The c_r given to the laws in case @p i: from the law named in Restitution from law
    /// (its effective c_r in the same impact), else the Coefficient of restitution list.
    double
    case_restitution(const ImpactParameters &p, const std::size_t i, const ImpactOptions &o)
    {
      const ImpactCases &c = p.cases;
      if (c.restitution_from_law.empty())
        return ImpactCases::value(c.restitution, i);
      const auto law = contact::laws::make_law(c.restitution_from_law,
                                               law_values(p, c.restitution_from_law, NAN),
                                               case_contact_data(c, i));
      return simulate_impact(*law, ImpactCases::value(c.effective_mass, i),
                             ImpactCases::value(c.approach_velocity, i), o)
        .restitution;
    }
  } // namespace

  ContactData
  case_contact_data(const ImpactCases &c, const std::size_t i)
  {
    ContactData d;
    d.effective_mass    = ImpactCases::value(c.effective_mass, i);
    d.effective_modulus = ImpactCases::value(c.effective_modulus, i);
    d.effective_radius  = ImpactCases::value(c.effective_radius, i);
    d.yield_strength    = ImpactCases::value(c.yield_strength, i);
    d.poisson_ratio     = ImpactCases::value(c.poisson_ratio, i);
    d.youngs_modulus    = ImpactCases::value(c.youngs_modulus, i);
    d.stiffness         = ImpactCases::value(c.stiffness, i);
    if (std::isnan(d.stiffness))
      d.stiffness = 4. / 3. * d.effective_modulus * std::sqrt(std::abs(d.effective_radius));
    return d;
  }

  void
  check_laws(const ImpactParameters &p)
  {
    if (p.scenario != "single impacts")
      return;
    std::vector<std::string> laws = p.laws;
    if (!p.cases.restitution_from_law.empty())
      laws.push_back(p.cases.restitution_from_law);
    for (std::size_t i = 0; i < p.cases.size(); ++i)
      for (const auto &law : laws)
        try
          {
            // c_r comes from another law's impact here: any value in (0, 1) checks that the law
            // can be made
            const double c_r = p.cases.restitution_from_law.empty() ?
                                 ImpactCases::value(p.cases.restitution, i) :
                                 0.5;
            contact::laws::make_law(law, law_values(p, law, c_r), case_contact_data(p.cases, i));
          }
        catch (const std::invalid_argument &e)
          {
            std::string message = e.what();
            if (message.find("does not define") != std::string::npos)
              message += " (give it in subsection Cases)";
            throw ParameterError("Impact/Laws", "case " + p.cases.names[i] + ": " + message);
          }
  }

  namespace
  {
    /// The granular chain (docs/contact-law-catalogue.md §8 S4) with the law's own values from
    /// Contact laws (run_granular_chain()).
    void
    run_chain_scenario(const ImpactParameters &p, const std::string &dir, std::ostream &log)
    {
      GranularChainParameters chain = p.granular_chain;
      if (const auto it = p.law_parameters.find(chain.law); it != p.law_parameters.end())
        chain.law_values = it->second;
      // the chain's c_r, xi and psi (subsection Granular chain) go to the law's entries of
      // these names, not the law's own defaults
      for (const char *name :
           {"Coefficient of restitution", "Plastic limit ratio", "Hardness ratio"})
        chain.law_values.erase(name);
      run_granular_chain(chain, dir, log);
    }

    /// docs/contact-law-catalogue.md §8 S0: chi delta_dot_minus / K of every law of the
    /// Hunt–Crossley family against c_r (K / delta_dot_minus = 1) into damping_factors.csv; other
    /// laws are skipped with a note. @throws std::runtime_error if the file cannot be written.
    void
    run_damping_factors(const ImpactParameters &p, const std::string &dir, std::ostream &log)
    {
      std::ostringstream s;
      s << "law,c_r,factor\n";
      std::size_t n_laws = 0;
      for (const auto &law : p.laws)
        {
          bool hunt_crossley_family = true;
          try
            {
              contact::laws::damping_factor(law, 0.5);
            }
          catch (const std::invalid_argument &)
            {
              hunt_crossley_family = false;
            }
          if (!hunt_crossley_family)
            {
              log << "  " << law << ": not a law of the Hunt–Crossley family (catalogue "
                  << "§4.1), skipped\n";
              continue;
            }
          ++n_laws;
          for (unsigned int k = 1; k <= p.restitution_samples; ++k)
            {
              const double c_r = double(k) / p.restitution_samples;
              s << law << ',' << csv_number(c_r) << ','
                << csv_number(contact::laws::damping_factor(law, c_r)) << '\n';
            }
        }
      write_file_atomically(dir + "/damping_factors.csv", s.str());
      log << "contact-impact: damping factors of " << n_laws << " laws at "
          << p.restitution_samples << " values of c_r in " << dir << "/damping_factors.csv\n";
    }

    /// The row of results.csv of the impact @p r of law @p law_id in case @p i.
    ImpactRow
    impact_row(const ImpactParameters &p, const std::size_t i, const std::string &law_id,
               const double c_r, const ImpactResult &r)
    {
      const double F_exp = ImpactCases::value(p.cases.measured_peak_force, i);
      ImpactRow    row;
      row.case_name            = p.cases.names[i];
      row.law                  = law_id;
      row.separation           = to_string(r.separation);
      row.max_force            = r.max_force;
      row.max_indentation      = r.max_indentation;
      row.contact_duration     = r.contact_duration;
      row.separation_velocity  = r.separation_velocity;
      row.restitution          = r.restitution;
      row.dissipated_energy    = r.dissipated_energy;
      row.restitution_input    = c_r;
      row.residual_indentation = r.residual_indentation;
      row.measured_max_force   = F_exp;
      row.max_force_error_percent = (r.max_force - F_exp) / F_exp * 100.;
      return row;
    }

    /// Writes results.csv (ImpactRow, one row per impact) into @p dir.
    /// @throws std::runtime_error if the file cannot be written.
    void
    write_results(const std::vector<ImpactRow> &rows, const std::string &dir)
    {
      std::ostringstream s;
      s << "case,law,F_max,delta_max,contact_duration,v_out,c_r_effective,dissipated_energy,"
           "c_r_input,residual_indentation,separation,measured_F_max,F_max_error_percent\n";
      for (const auto &r : rows)
        s << r.case_name << ',' << r.law << ',' << csv_number(r.max_force) << ','
          << csv_number(r.max_indentation) << ',' << csv_number(r.contact_duration) << ','
          << csv_number(r.separation_velocity) << ',' << csv_number(r.restitution) << ','
          << csv_number(r.dissipated_energy) << ',' << csv_number(r.restitution_input) << ','
          << csv_number(r.residual_indentation) << ',' << r.separation << ','
          << csv_number(r.measured_max_force) << ',' << csv_number(r.max_force_error_percent)
          << '\n';
      write_file_atomically(dir + "/results.csv", s.str());
    }
  } // namespace

  std::vector<ImpactRow>
  run_impact_program(const ImpactParameters &p, const dealii::ParameterHandler &prm,
                     std::ostream &log)
  {
    check_laws(p);
    const std::string dir = p.output_directory;
    fs::create_directories(dir);
    {
      std::ostringstream s;
      s << source_revision_comment();
      prm.print_parameters(s, dealii::ParameterHandler::PRM |
                                dealii::ParameterHandler::KeepDeclarationOrder);
      write_file_atomically(dir + "/parameters.prm", s.str());
    }
    if (!p.title.empty())
      log << "contact-impact: " << p.title << "\n";

    if (p.scenario == "granular chain")
      {
        run_chain_scenario(p, dir, log);
        return {};
      }
    if (p.scenario == "optimal damping")
      {
        run_optimal_damping(p.optimal_damping, dir, log);
        return {};
      }
    if (p.scenario == "two pendulums")
      {
        run_two_pendulums(p.two_pendulums, dir, log);
        return {};
      }
    if (p.scenario == "damping factors")
      {
        run_damping_factors(p, dir, log);
        return {};
      }

    ImpactOptions options;
    options.relative_tolerance = p.relative_tolerance;
    options.samples            = p.curve_samples;
    // the curves of an earlier run into this directory go: the new results.csv lists only
    // the new ones
    fs::create_directories(dir + "/curves");
    for (const auto &entry : fs::directory_iterator(dir + "/curves"))
      {
        const std::string name = entry.path().filename().string();
        if (entry.is_regular_file() && entry.path().extension() == ".csv" &&
            name.find("__") != std::string::npos)
          fs::remove(entry.path());
      }
    std::vector<ImpactRow> rows;
    const auto             start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < p.cases.size(); ++i)
      {
        const ContactData data = case_contact_data(p.cases, i);
        const double      m    = data.effective_mass;
        const double      v0   = ImpactCases::value(p.cases.approach_velocity, i);
        const double      c_r  = case_restitution(p, i, options);
        for (const auto &law_id : p.laws)
          {
            const auto law = contact::laws::make_law(law_id, law_values(p, law_id, c_r), data);
            const ImpactResult r = simulate_impact(*law, m, v0, options);
            const ImpactRow row = impact_row(p, i, law_id, c_r, r);
            rows.push_back(row);
            write_impact_curves_csv(dir + "/curves/" + file_name_part(row.case_name) + "__" +
                                      file_name_part(law_id) + ".csv",
                                    r.curves);
            log << "  " << std::left << std::setw(10) << row.case_name << ' ' << std::setw(36)
                << law_id << std::right << " F_max = " << std::setw(11) << std::setprecision(5)
                << r.max_force << " N  delta_max = " << std::setw(11) << r.max_indentation
                << " mm  c_r = " << std::setw(8) << r.restitution << "  t_c = " << std::setw(11)
                << r.contact_duration << " s\n";
            if (!r.note.empty())
              log << "      note: " << r.note << "\n";
          }
      }
    write_results(rows, dir);
    const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    log << "contact-impact: " << rows.size() << " impacts (" << p.cases.size() << " cases x "
        << p.laws.size() << " laws) in " << std::setprecision(3) << seconds << " s; results in "
        << dir << "/results.csv, curves in " << dir << "/curves/\n";
    return rows;
  }
} // namespace granular::impact
