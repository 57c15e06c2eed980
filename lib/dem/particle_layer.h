#pragma once
/**
 * @file particle_layer.h
 * Subsection "Particles": how many particles the periodic cell holds, of which shapes and
 * where (docs/parameter-files.md#several-particles). Every particle starts at rest on the
 * surface (its lowest point at y = 0) and has the mass and moment of inertia of subsection
 * "Particle" (the reference circle's). Without this subsection, or with its defaults, the
 * cell holds the one particle of subsection "Particle" at x = L0/2.
 *
 * Lengths in mm, angles in rad.
 */
#include "geometry/superellipse.h"

#include <string>
#include <vector>

namespace granular
{
  class ParameterEntries;
  struct ParticleParameters;

  /// Where one particle of the cell starts: its shape, centre abscissa and rotation.
  struct ParticlePlacement
  {
    geometry::SuperellipseShape shape;
    std::string                 shape_text; ///< as written: a name or r1:r2:p1:p2
    double                      x        = 0.; ///< centre abscissa in [0, L0) (mm)
    double                      rotation = 0.; ///< theta0 (rad, counter-clockwise)
  };

  /// Parameters of subsection "Particles".
  struct ParticleLayerParameters
  {
    /// "shape @ x @ rotation; ..." (rotation optional, default Particle/Initial rotation);
    /// empty: the generated layer of the entries below.
    std::string  list;
    unsigned int number    = 1;                ///< N of the generated layer
    std::string  mixture;                      ///< shapes cycled over the layer; "": Particle/Shape
    std::string  placement = "equally spaced"; ///< "equally spaced" | "random"
    unsigned int seed      = 1;                ///< of Placement = random

    /// The entries of subsection "Particles", each bound to its member.
    void entries(ParameterEntries &e);
    /// Syntax of List and Mixture and the range of Number; throws ParameterError naming the
    /// entry. Overlaps need the cell and the rounding: placements() checks them.
    void validate() const;

    /// The number of particles N (List's when given, else Number).
    unsigned int n_particles() const;

    /**
     * The particles of the cell of length @p cell_length (mm), particle 0 first, each with
     * the shape of its List item, or cycled from Mixture (Particle/Shape when empty) for the
     * generated layer:
     *  - equally spaced: particle i at x = (i + 1/2) L0 / N with Particle/Initial rotation
     *    (N = 1: the single particle at L0/2);
     *  - random: centres and rotations drawn uniformly (x in [0, L0), theta in [0, pi)) from
     *    a Mersenne twister (std::mt19937) seeded with Seed, a draw rejected while the
     *    particle, resting on the surface, would touch one placed before it or an image of
     *    one (at most 10 000 draws per particle).
     * Particles rest on the surface with their flat sides rounded to @p flat_side_radius
     * (mm; 0: exact surfaces), the surface their contacts see.
     * @throws ParameterError naming Particles/List (or Particles/Number for a generated
     *         layer) if two resting particles, or a particle and an image of another or of
     *         itself, overlap or touch, or if random placement finds no room.
     */
    std::vector<ParticlePlacement> placements(const ParticleParameters &particle,
                                              double                    cell_length,
                                              double                    flat_side_radius) const;
  };
} // namespace granular
