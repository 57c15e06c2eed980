#include "contact/contact_parameters.h"

#include "base/parameter_error.h"

#include <deal.II/base/parameter_handler.h>

namespace granular
{
  using namespace dealii::Patterns;

  namespace
  {
    void declare_penalty(dealii::ParameterHandler &prm, const std::string &name,
                         const std::string &friction_symbol)
    {
      prm.enter_subsection(name);
      prm.declare_entry("Normal penalty", "1e6", Double(),
                        "epsilon_N in MPa/mm: normal traction epsilon_N <-g_N> (spec §6).");
      prm.declare_entry("Tangential penalty", "1e4", Double(),
                        "epsilon_T in MPa/mm: tangential stick stiffness before Coulomb "
                        "slip (return mapping).");
      prm.declare_entry("Friction coefficient", "0.5", Double(),
                        "Coulomb friction coefficient " + friction_symbol + ".");
      prm.leave_subsection();
    }

    void parse_penalty(dealii::ParameterHandler &prm, const std::string &name,
                       PenaltyContactParameters &p)
    {
      prm.enter_subsection(name);
      p.normal_penalty       = prm.get_double("Normal penalty");
      p.tangential_penalty   = prm.get_double("Tangential penalty");
      p.friction_coefficient = prm.get_double("Friction coefficient");
      prm.leave_subsection();
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

  void ContactParameters::declare_parameters(dealii::ParameterHandler &prm)
  {
    prm.enter_subsection("Contact");
    declare_penalty(prm, "Rubber-surface", "k_o");
    declare_penalty(prm, "Rubber-particle", "k_PB");
    prm.enter_subsection("Particle-surface");
    prm.declare_entry("Normal law", "damped Hertz decompression off",
                      Selection("damped Hertz decompression off"),
                      "Normal contact force law of the DEM particle on the surface "
                      "(spec §5.1): f_N = k_N sqrt(d_N)(d_N + c_N d_N') in compression, "
                      "k_N d_N^(3/2) in decompression.");
    prm.declare_entry("Normal stiffness", "1e5", Double(),
                      "k_N in N/mm^(5/2) per mm thickness (default 1e5 mu_e).");
    prm.declare_entry("Tangential stiffness", "1e3", Double(),
                      "k_T in N/mm per mm thickness (default 1e3 mu_e).");
    prm.declare_entry("Damping coefficient", "3e-5", Double(),
                      "c_N in s: hysteresis damping of the normal law.");
    prm.declare_entry("Friction coefficient", "1.5", Double(),
                      "Coulomb friction coefficient k_PS.");
    prm.leave_subsection();
    prm.leave_subsection();
  }

  void ContactParameters::parse_parameters(dealii::ParameterHandler &prm)
  {
    prm.enter_subsection("Contact");
    parse_penalty(prm, "Rubber-surface", rubber_surface);
    parse_penalty(prm, "Rubber-particle", rubber_particle);
    prm.enter_subsection("Particle-surface");
    particle_surface.normal_law           = prm.get("Normal law");
    particle_surface.normal_stiffness     = prm.get_double("Normal stiffness");
    particle_surface.tangential_stiffness = prm.get_double("Tangential stiffness");
    particle_surface.damping              = prm.get_double("Damping coefficient");
    particle_surface.friction_coefficient = prm.get_double("Friction coefficient");
    prm.leave_subsection();
    prm.leave_subsection();
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
  }
} // namespace granular
