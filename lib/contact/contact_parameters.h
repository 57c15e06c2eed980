#pragma once
/**
 * @file contact_parameters.h
 * Subsection "Contact": penalty and friction parameters of the three interfaces
 * (docs/methods.md §5.1, §5.2, §6; Temizer 2013, Table 3). Penalties in MPa/mm, stiffnesses
 * per unit thickness, damping in s.
 */
#include <map>
#include <string>

namespace granular
{
  class ParameterEntries;

  /// Penalty contact between a rubber boundary and a rigid body (docs/methods.md §6).
  struct PenaltyContactParameters
  {
    double normal_penalty       = 1e5; ///< epsilon_N (MPa/mm)
    double tangential_penalty   = 1e3; ///< epsilon_T (MPa/mm)
    double friction_coefficient = 0.5; ///< Coulomb coefficient
    /// w (mm): width of the C1 regularisation of the normal penalty (contact/normal_penalty.h;
    /// 0: the sharp law)
    double regularisation_width = 0.;
  };

  /// Particle-surface DEM contact (docs/methods.md §5.1-5.2).
  struct ParticleSurfaceContactParameters
  {
    /// identifier of the normal contact law (contact/laws/contact_law.h;
    /// docs/contact-law-catalogue.md §5)
    std::string normal_law           = "temizer_decompression_undamped";
    double      normal_stiffness     = 1e5;  ///< k_N (N/mm^(5/2) per mm thickness)
    double      tangential_stiffness = 1e3;  ///< k_T (N/mm per mm thickness)
    double      damping              = 3e-5; ///< c_N (s)
    double      friction_coefficient = 1.5;  ///< k_PS
    /// largest radius of curvature (mm) of the particle's surface seen by the discrete-gradient
    /// contact: flatter sides are rounded to it (geometry::Superellipse::flat_side_rounding())
    double      flat_side_radius = 50.;
    /// Own parameters of each law (entry name -> value; a flag 0/1), by law identifier: the
    /// subsections Contact/Particle-surface/<identifier>. Missing values take the law's
    /// defaults.
    std::map<std::string, std::map<std::string, double>> law_parameters;
  };

  /**
   * One subsection per registered contact law (contact/laws/contact_law.h), named by its
   * identifier, with the entries of LawInfo::all_parameters() (ASPECT's plugin pattern: each
   * law owns its parameters); their values go to @p values[identifier][entry]. @p cell: in the
   * micromechanical cell the default law's c_N is the entry "Damping coefficient" of
   * Contact/Particle-surface itself, so its subsection has only the two flags.
   */
  void contact_law_entries(ParameterEntries                                      &e,
                           std::map<std::string, std::map<std::string, double>> &values,
                           bool                                                  cell);

  /// Parameters of subsection "Contact".
  struct ContactParameters
  {
    PenaltyContactParameters         rubber_surface;   ///< friction k_o
    PenaltyContactParameters         rubber_particle;  ///< friction k_PB
    ParticleSurfaceContactParameters particle_surface; ///< friction k_PS

    /// The entries of subsection "Contact" (its three interfaces), each bound to its member.
    void entries(ParameterEntries &e);
    /// Throws ParameterError naming the entry (non-positive penalty, negative friction, ...).
    void validate() const;
  };
} // namespace granular
