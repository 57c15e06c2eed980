#pragma once
/**
 * @file contact_parameters.h
 * Subsection "Contact": penalty and friction parameters of the three interfaces
 * (spec §5.1, §5.2, §6; Temizer 2013, Table 3). Penalties in MPa/mm, stiffnesses
 * per unit thickness, damping in s.
 */
#include <string>

namespace granular
{
  class ParameterEntries;

  /// Penalty contact between a rubber boundary and a rigid body (spec §6).
  struct PenaltyContactParameters
  {
    double normal_penalty       = 1e5; ///< epsilon_N (MPa/mm)
    double tangential_penalty   = 1e3; ///< epsilon_T (MPa/mm)
    double friction_coefficient = 0.5; ///< Coulomb coefficient
    /// w (mm): width of the C1 regularisation of the normal penalty (contact/normal_penalty.h;
    /// 0: the sharp law)
    double regularisation_width = 0.;
  };

  /// Particle-surface DEM contact (spec §5.1-5.2).
  struct ParticleSurfaceContactParameters
  {
    std::string normal_law           = "damped Hertz decompression off";
    double      normal_stiffness     = 1e5;  ///< k_N (N/mm^(5/2) per mm thickness)
    double      tangential_stiffness = 1e3;  ///< k_T (N/mm per mm thickness)
    double      damping              = 3e-5; ///< c_N (s)
    double      friction_coefficient = 1.5;  ///< k_PS
  };

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
