#include "contact/contact_parameters.h"

#include "base/parameter_entries.h"
#include "base/parameter_error.h"
#include "contact/laws/contact_law.h"
#include "contact/laws/temizer_decompression_undamped.h"
#include "contact/normal_contact_law.h"

#include <cmath>
#include <sstream>

namespace granular
{
  using dealii::Patterns::Double;
  using dealii::Patterns::Selection;

  namespace
  {
    /// The entries of the penalty interface subsection @p name; @p friction_symbol
    /// names its Coulomb coefficient in the documentation.
    void penalty_entries(ParameterEntries &e, const std::string &name,
                         const std::string &friction_symbol, PenaltyContactParameters &p)
    {
      e.subsection(name, [&] {
        e.entry(p.normal_penalty, "Normal penalty", "1e5",
                "epsilon_N in MPa/mm: normal traction epsilon_N <-g_N> (docs/methods.md §6; "
                "the default is measured in docs/results/penalty-and-solver-studies.md).");
        e.entry(p.tangential_penalty, "Tangential penalty", "1e3",
                "epsilon_T in MPa/mm: tangential stick stiffness before Coulomb "
                "slip (return mapping); epsilon_N / 100 as in the paper.");
        e.entry(p.friction_coefficient, "Friction coefficient", "0.5",
                "Coulomb friction coefficient " + friction_symbol + ".");
        e.entry(p.regularisation_width, "Regularisation width", "0", Double(0.),
                "w in mm: the normal traction rises as epsilon_N g_N^2 / (2 w) over "
                "the first w of penetration and is epsilon_N (-g_N - w/2) beyond, so "
                "that it and its stiffness are continuous when a contact point enters "
                "or leaves contact (docs/methods.md §6). 0: the sharp law "
                "epsilon_N <-g_N>.");
      });
    }

    void validate_penalty(const std::string &name, const PenaltyContactParameters &p)
    {
      const std::string s = "Contact/" + name + "/";
      require_positive(s + "Normal penalty", p.normal_penalty, "the normal penalty");
      require_positive(s + "Tangential penalty", p.tangential_penalty,
                       "the tangential penalty");
      if (!(p.friction_coefficient >= 0.))
        throw ParameterError(s + "Friction coefficient",
                             "a friction coefficient must be >= 0");
    }
  } // namespace

  void contact_law_entries(ParameterEntries                                      &e,
                           std::map<std::string, std::map<std::string, double>> &values,
                           const bool                                            cell)
  {
    using dealii::Patterns::Bool;
    for (const auto &law : contact::laws::registered_laws())
      e.subsection(law.id, [&] {
        for (const auto &p : law.all_parameters())
          {
            if (cell && law.id == contact::DampedHertzDecompressionOff::law_name &&
                p.name == "Damping coefficient")
              continue;
            // in the cell, contacts begin at rest (the particle is placed on the surface, and
            // rocking particles touch down slowly): a guard of 1 mm/s makes the damping of
            // the Hunt-Crossley-type laws ~1e3 times that of an impact at the cell's speeds,
            // and the steps stall; 100 mm/s (4 % of the default slip velocity) is the cell's
            // default (docs/results/contact-laws-in-the-cell.md)
            double      default_value = p.default_value;
            std::string cell_doc;
            if (cell && p.name == "Minimum approach velocity")
              {
                default_value = 100.;
                cell_doc = " In the micromechanical cell the default is 100 mm/s (4 % of the "
                           "default slip velocity): contacts there begin at rest, and with "
                           "1 mm/s the damping of a slow touch-down is so large that the time "
                           "steps stall (docs/results/contact-laws-in-the-cell.md).";
              }
            // the shortest text that reads back as the default (3e-05, not
            // 3.0000000000000001e-05; 1030, not 1.03e+03)
            std::string def;
            for (int digits = 1; digits <= 17; ++digits)
              {
                std::ostringstream t;
                t.precision(digits);
                t << default_value;
                if (std::stod(t.str()) == default_value &&
                    (def.empty() || t.str().size() < def.size()))
                  def = t.str();
              }
            const std::string doc = law.entry + " " + law.id + ": " + p.doc + cell_doc;
            double &v = values[law.id][p.name];
            if (p.flag)
              e.text_entry(
                [&v](const std::string &t) { v = (t == "true" || t == "yes") ? 1. : 0.; },
                [&v] { return std::string(v == 1. ? "true" : "false"); },
                p.name, p.default_value == 1. ? "true" : "false", Bool(), doc);
            else
              e.entry(v, p.name, def,
                      Double(std::isfinite(p.lower) ? p.lower : -Double::max_double_value,
                             std::isfinite(p.upper) ? p.upper : Double::max_double_value),
                      doc);
          }
      });
  }

  void ContactParameters::entries(ParameterEntries &e)
  {
    e.subsection("Contact", [&] {
      penalty_entries(e, "Rubber-surface", "k_o", rubber_surface);
      penalty_entries(e, "Rubber-particle", "k_PB", rubber_particle);
      e.subsection("Particle-surface", [&] {
        ParticleSurfaceContactParameters &p = particle_surface;
        std::string names;
        for (const auto &n : contact::normal_contact_law_names())
          names += (names.empty() ? "" : "|") + n;
        e.entry(p.normal_law, "Normal law", contact::DampedHertzDecompressionOff::law_name,
                Selection(names),
                "Normal force law of the particle on the surface, by its identifier in "
                "docs/contact-law-catalogue.md (`--list-laws`; its own parameters in the "
                "subsection of that name). The default is Temizer 2013 eq. (10), the damped "
                "Hertz law without damping in decompression (docs/methods.md §5.1).");
        e.entry(p.normal_stiffness, "Normal stiffness", "1e5",
                "k_N in N/mm^(5/2) per mm thickness (default 1e5 mu_e).");
        e.entry(p.tangential_stiffness, "Tangential stiffness", "1e3",
                "k_T in N/mm per mm thickness (default 1e3 mu_e).");
        e.entry(p.damping, "Damping coefficient", "3e-5",
                "c_N in s: damping of the default normal law (the other laws have theirs "
                "in their subsections).");
        e.entry(p.friction_coefficient, "Friction coefficient", "1.5",
                "Coulomb friction coefficient k_PS.");
        e.entry(p.flat_side_radius, "Flat side radius", "50",
                "Monolithic coupling: the largest radius of curvature (mm) of the particle "
                "that the surface contact sees; flatter parts of a p > 2 particle's sides are "
                "rounded to it, so that Newton converges on a flat side (docs/methods.md "
                "§5.4). 50 mm moves the rectangle's surface by at most 6.3e-5 mm.");
        contact_law_entries(e, p.law_parameters, /*cell=*/true);
      });
    });
  }

  void ContactParameters::validate() const
  {
    validate_penalty("Rubber-surface", rubber_surface);
    validate_penalty("Rubber-particle", rubber_particle);
    const std::string s = "Contact/Particle-surface/";
    require_positive(s + "Normal stiffness", particle_surface.normal_stiffness,
                     "the normal stiffness k_N");
    require_positive(s + "Tangential stiffness", particle_surface.tangential_stiffness,
                     "the tangential stiffness k_T");
    if (!(particle_surface.damping >= 0.))
      throw ParameterError(s + "Damping coefficient", "must be >= 0");
    if (!(particle_surface.friction_coefficient >= 0.))
      throw ParameterError(s + "Friction coefficient", "a friction coefficient must be >= 0");
    require_positive(s + "Flat side radius", particle_surface.flat_side_radius,
                     "the flat side radius");
  }
} // namespace granular
