// The particle's ParaView output (docs/methods.md §8.2): outline polygons of the particle and its
// periodic images, read back by VTK's XML readers (python3-vtk9, as ParaView does).
#include "dem/particle.h"
#include "base/atomic_file.h"
#include "dem/particle_output.h"

#include "test_helpers.h"

#include <gtest/gtest.h>

#include <filesystem>

TEST(ParticleOutput, OutlineWithImagesIsReadByVtk)
{
  namespace fs = std::filesystem;
  const std::string dir = granular::testing::scratch_directory("particle-vtu");
  fs::create_directories(dir);
  const auto shape = granular::geometry::SuperellipseShape::named("rectangular", 0.5);
  granular::ContactParameters contact;
  granular::PvdCollection pvd(dir + "/particle.pvd");
  // near the right end of a 3 mm cell: one periodic image overlaps the cell
  for (unsigned int k = 0; k < 3; ++k)
    {
      granular::dem::Particle particle(
        shape, 2.4e-9, 3e-10, 9810., contact.particle_surface,
        granular::dem::Particle::initial_state_resting(shape, 0.3 * k, 2.8), 3.);
      const auto outlines = particle.outline(64);
      ASSERT_EQ(outlines.size(), 2u) << "particle and one image";
      pvd.add(1e-4 * k, granular::dem::write_particle_vtu(dir, k, outlines, 0.3 * k));
    }
  const std::string command = "/usr/bin/python3 " + std::string(GRANULAR_SOURCE_DIR) +
                              "/tests/check_vtk_output.py --particle-only " + dir +
                              " > " + dir + ".log 2>&1";
  EXPECT_EQ(std::system(command.c_str()), 0) << "see " << dir << ".log";
}
