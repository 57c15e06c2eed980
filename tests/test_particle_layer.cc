// Several particles in the cell (subsection Particles, docs/parameter-files.md#several-particles,
// docs/methods.md §5.7): where they start, what is refused, that one particle through the
// subsection is the single-particle run bit for bit, and that particles pressed against each
// other by the rubber keep the energy balance and restart exactly.
#include "base/parameter_error.h"
#include "coupling/coupling_scheme.h"
#include "coupling/micromechanical_run.h"
#include "dem/particle.h"
#include "dem/particle_layer.h"
#include "dem/particle_parameters.h"
#include "geometry/superellipse_pair.h"
#include "program/command_line.h"
#include "sweep/sweep_points.h"
#include "base/stop_signals.h"
#include "test_helpers.h"

#include <deal.II/base/parameter_handler.h>

#include <gtest/gtest.h>

#include <cmath>
#include <csignal>
#include <filesystem>
#include <sstream>
#include <string>

namespace
{
  namespace fs = std::filesystem;
  using granular::ParticleLayerParameters;
  using granular::ParticleParameters;
  using granular::ParticlePlacement;
  using granular::testing::read_file;

  /// The smallest depth (< 0: apart) between the resting particles @p a and @p b, b's
  /// periodic images in a cell of length @p L0 included (b = a: only its images).
  double smallest_separation(const ParticlePlacement &a, const ParticlePlacement &b,
                             const bool same, const double L0)
  {
    const granular::geometry::Superellipse sa(a.shape), sb(b.shape);
    const auto ra = sa.flat_side_rounding(50.), rb = sb.flat_side_rounding(50.);
    const auto ca = granular::dem::Particle::initial_state_resting(a.shape, a.rotation, a.x, 50.);
    const auto cb = granular::dem::Particle::initial_state_resting(b.shape, b.rotation, b.x, 50.);
    double     deepest = -1e300;
    for (int k = -1; k <= 1; ++k)
      {
        if (same && k == 0)
          continue;
        dealii::Tensor<1, 2> c = cb.centre;
        c[0] += k * L0;
        deepest = std::max(deepest, granular::geometry::pair_overlap(sa, ra, ca.centre,
                                                                     a.rotation, sb, rb, c,
                                                                     b.rotation)
                                      .depth);
      }
    return deepest;
  }

  /// The ParameterError's entry of placements() (or validate()), "" if none is thrown.
  std::string refused_entry(const ParticleLayerParameters &layer, const double L0 = 10.)
  {
    try
      {
        layer.validate();
        layer.placements(ParticleParameters(), L0, 50.);
      }
    catch (const granular::ParameterError &e)
      {
        return e.entry();
      }
    return "";
  }
} // namespace

TEST(ParticleLayer, DefaultSubsectionIsTheSingleParticleAtHalfTheCell)
{
  ParticleParameters particle;
  particle.initial_rotation = 0.3;
  const auto placed = ParticleLayerParameters().placements(particle, 10., 50.);
  ASSERT_EQ(placed.size(), 1u);
  EXPECT_EQ(placed[0].x, 5.);
  EXPECT_EQ(placed[0].rotation, 0.3);
  EXPECT_EQ(placed[0].shape.r1, particle.shape().r1);
  EXPECT_EQ(placed[0].shape.r2, particle.shape().r2);
  EXPECT_EQ(ParticleLayerParameters().n_particles(), 1u);
}

TEST(ParticleLayer, ListGivesShapesPlacesAndRotations)
{
  ParticleLayerParameters layer;
  layer.list = "elliptical @ 2.5 @ 1.5708; circular@6 ; 0.6:0.4:4:4 @ 18.5";
  ASSERT_EQ(layer.n_particles(), 3u);
  const auto placed = layer.placements(ParticleParameters(), 10., 50.);
  ASSERT_EQ(placed.size(), 3u);
  EXPECT_EQ(placed[0].shape.r1, 0.75);
  EXPECT_EQ(placed[0].rotation, 1.5708);
  EXPECT_EQ(placed[1].shape.r1, 0.5);
  EXPECT_EQ(placed[1].x, 6.);
  EXPECT_EQ(placed[1].rotation, 0.); // Particle/Initial rotation
  EXPECT_EQ(placed[2].shape.r1, 0.6);
  EXPECT_EQ(placed[2].shape.p2, 4.);
  EXPECT_DOUBLE_EQ(placed[2].x, 8.5); // taken into the cell
  // the equally spaced layer: (i + 1/2) L0 / N, with the mixture cycled
  ParticleLayerParameters generated;
  generated.number  = 4;
  generated.mixture = "circular, square";
  const auto g      = generated.placements(ParticleParameters(), 10., 50.);
  ASSERT_EQ(g.size(), 4u);
  for (unsigned int i = 0; i < 4; ++i)
    {
      EXPECT_DOUBLE_EQ(g[i].x, (i + 0.5) * 2.5);
      EXPECT_EQ(g[i].shape.p1, i % 2 == 0 ? 2. : 4.);
    }
}

// Particle/Inertia: the reference circle's mass and moment for every shape (Temizer 2013),
// or each particle's own, rho_P A and rho_P J of its shape, and its laws made for it.
TEST(ParticleLayer, InertiaIsTheReferenceCirclesOrTheShapesOwn)
{
  dealii::ParameterHandler     prm;
  granular::CommandLineOptions options;
  options.set_entries = {"Particles/Number=2", "Particles/Mixture=circular, rectangular",
                         "Output/Output directory=" +
                           granular::testing::scratch_directory("inertia")};
  auto P = granular::read_parameters(options, prm);
  const double rho = P.particle.density, r0 = P.particle.reference_radius;
  for (const std::string inertia : {"reference circle", "shape"})
    {
      P.particle.inertia   = inertia;
      const auto particles = granular::coupling::make_particles(P);
      ASSERT_EQ(particles.size(), 2u);
      for (const auto &p : particles)
        {
          const auto &shape = p->geometry().shape();
          const bool  own   = inertia == "shape";
          EXPECT_DOUBLE_EQ(p->mass(), own ? rho * shape.area() : rho * M_PI * r0 * r0)
            << inertia;
          EXPECT_DOUBLE_EQ(p->moment_of_inertia(), own ? rho * shape.polar_moment_of_area() :
                                                         0.5 * rho * M_PI * std::pow(r0, 4))
            << inertia;
        }
      // the rectangle (1.5 r0, r0, p = 4) is 1.77 times as heavy as the circle of its own
      if (inertia == "shape")
        {
          EXPECT_NEAR(particles[1]->mass() / particles[0]->mass(), 1.7705, 1e-4);
        }
    }
}

TEST(ParticleLayer, BadListsAreRejectedNamingTheEntry)
{
  for (const std::string list : {"elliptical", "elliptical @", "elliptical @ 2 @ 1 @ 3",
                                  "oval @ 2", "1:2:3 @ 2", "0.5:0.5:1.5:2 @ 2",
                                  "circular @ 2;", "circular @ x"})
    {
      ParticleLayerParameters layer;
      layer.list = list;
      EXPECT_EQ(refused_entry(layer), "Particles/List") << list;
    }
  ParticleLayerParameters mixture;
  mixture.number  = 2;
  mixture.mixture = "circular, blob";
  EXPECT_EQ(refused_entry(mixture), "Particles/Mixture");
  ParticleLayerParameters none;
  none.number = 0;
  EXPECT_EQ(refused_entry(none), "Particles/Number");
}

TEST(ParticleLayer, TouchingParticlesAreRefusedBeforeTheRun)
{
  // two flat ellipses (width 1.5 mm) 1.49 mm apart touch; 1.51 mm apart they do not
  ParticleLayerParameters layer;
  layer.list = "elliptical @ 2; elliptical @ 3.49";
  EXPECT_EQ(refused_entry(layer), "Particles/List");
  layer.list = "elliptical @ 2; elliptical @ 3.51";
  EXPECT_EQ(refused_entry(layer), "");
  // across the cell's ends: a particle at 0.6 and its neighbour's image from 9.5
  layer.list = "elliptical @ 0.6; circular @ 9.5";
  EXPECT_EQ(refused_entry(layer), "Particles/List");
  // eight flat ellipses need 12 mm, the cell has 10: equally spaced they touch, standing up
  // (1 mm wide each) they fit
  ParticleLayerParameters crowd;
  crowd.number = 8;
  EXPECT_EQ(refused_entry(crowd), "Particles/Number");
  ParticleParameters standing;
  standing.initial_rotation = 0.5 * M_PI;
  EXPECT_EQ(crowd.placements(standing, 10., 50.).size(), 8u);
}

TEST(ParticleLayer, RandomLayerIsReproducibleAndItsParticlesDoNotTouch)
{
  ParticleLayerParameters layer;
  layer.number    = 6;
  layer.mixture   = "elliptical, rectangular, circular";
  layer.placement = "random";
  layer.seed      = 7;
  const auto a    = layer.placements(ParticleParameters(), 10., 50.);
  const auto b    = layer.placements(ParticleParameters(), 10., 50.);
  layer.seed      = 8;
  const auto c    = layer.placements(ParticleParameters(), 10., 50.);
  ASSERT_EQ(a.size(), 6u);
  bool differs = false;
  for (std::size_t i = 0; i < a.size(); ++i)
    {
      EXPECT_EQ(a[i].x, b[i].x);
      EXPECT_EQ(a[i].rotation, b[i].rotation);
      differs = differs || a[i].x != c[i].x;
      EXPECT_GE(a[i].x, 0.);
      EXPECT_LT(a[i].x, 10.);
      for (std::size_t j = i; j < a.size(); ++j)
        EXPECT_LT(smallest_separation(a[i], a[j], i == j, 10.), 0.) << i << ' ' << j;
    }
  EXPECT_TRUE(differs) << "another seed gives another layer";
  // no room: six rectangles standing on their long side need 9 mm of the 5 mm cell
  layer.number  = 6;
  layer.mixture = "rectangular";
  EXPECT_EQ(refused_entry(layer, 5.), "Particles/Number");
}

namespace
{
  /// The reduced cell (L0 = 3 mm, 12 x 6) of the regression cases, shortened to T_avg =
  /// @p averaging T0, with @p extra entries.
  granular::CommandLineOptions reduced(const std::string &name,
                                       const std::vector<std::string> &extra,
                                       const double averaging = 0.05)
  {
    granular::CommandLineOptions options;
    options.parameter_file   = std::string(GRANULAR_SOURCE_DIR) + "/params/circular.prm";
    options.output_directory = granular::testing::scratch_directory(name);
    options.set_entries      = {"Geometry/Block length=3",
                                "Geometry/Block height=1.5",
                                "Geometry/Elements in x=12",
                                "Geometry/Elements in y=6",
                                "Loading/Time step=1.25e-4",
                                "Loading/Averaging time=" + std::to_string(averaging),
                                "Output/VTU output interval=0",
                                "Output/Progress interval=100000",
                                "Output/Checkpoint interval=0"};
    options.set_entries.insert(options.set_entries.end(), extra.begin(), extra.end());
    return options;
  }

  granular::RunSummary run(const granular::CommandLineOptions &options,
                           const std::function<void()>       &after_each_step = {})
  {
    dealii::ParameterHandler prm;
    const auto               P = granular::read_parameters(options, prm);
    return granular::run_micromechanical_test(P, prm, after_each_step);
  }

  /// The column @p name of the rows of the CSV file @p path.
  std::vector<double> csv_column(const std::string &path, const std::string &name)
  {
    const auto          table = granular::testing::read_csv(path);
    std::vector<double> values;
    const unsigned int  c = table.column(name);
    for (const auto &row : table.rows)
      values.push_back(row[c]);
    return values;
  }
} // namespace

TEST(SeveralParticles, OneParticleThroughTheListIsTheSingleParticleRunBitForBit)
{
  // each shape at x = L0/2 through Particles/List gives the run without the subsection
  for (const std::string shape : {"elliptical", "circular", "rectangular", "square"})
    {
      const auto plain  = reduced("one-plain-" + shape, {"Particle/Shape=" + shape});
      const auto listed = reduced("one-listed-" + shape,
                                  {"Particle/Shape=circular", "Particles/List=" + shape + " @ 1.5"});
      run(plain);
      run(listed);
      EXPECT_EQ(read_file(plain.output_directory + "/history.csv"),
                read_file(listed.output_directory + "/history.csv"))
        << shape;
      EXPECT_EQ(read_file(plain.output_directory + "/particles.csv"),
                read_file(listed.output_directory + "/particles.csv"))
        << shape;
      if (shape == "circular")
        {
          // and so does a generated layer of one
          const auto numbered = reduced("one-numbered", {"Particles/Number=1"});
          run(numbered);
          EXPECT_EQ(read_file(plain.output_directory + "/history.csv"),
                    read_file(numbered.output_directory + "/history.csv"));
        }
    }
}

namespace
{
  /// A square and a standing rectangle 0.3 mm apart in the reduced cell: the dragged rubber
  /// presses them against each other.
  const std::vector<std::string> pressed_pair = {
    "Particles/List=square @ 0.8; rectangular @ 2.1 @ 1.5708"};
} // namespace

TEST(SeveralParticles, ParticlesPressedTogetherKeepTheEnergyBalance)
{
  const auto                 options = reduced("pressed-pair", pressed_pair, 0.25);
  const granular::RunSummary s       = run(options);
  EXPECT_EQ(s.particles, 2u);
  // they touched, slid against each other and were damped
  EXPECT_GT(s.dissipation_particle_particle, 0.);
  EXPECT_GT(s.dissipation_particle_particle_damping, 0.);
  EXPECT_GT(s.pair_overlap_evaluations, 0u);
  // the pair contact creates no energy: the ledger, which has no term for it, closes as in
  // the single-particle runs (1e-10 to 1e-9 of the platen's work), and the run's balance is
  // that of the single-particle runs (0.1 % to 1.3 %)
  const double platen_work = csv_column(options.output_directory + "/energy.csv",
                                        "platen_work").back();
  EXPECT_GT(platen_work, 1.);
  EXPECT_LT(std::abs(s.created_energy.unassigned), 1e-8 * platen_work);
  EXPECT_LT(s.energy_balance_error, 0.02);
  // particles.csv: both particles at every output time, inside the cell
  const auto t = csv_column(options.output_directory + "/particles.csv", "t");
  const auto i = csv_column(options.output_directory + "/particles.csv", "particle");
  const auto x = csv_column(options.output_directory + "/particles.csv", "x");
  ASSERT_EQ(t.size() % 2, 0u);
  ASSERT_GT(t.size(), 100u);
  for (std::size_t r = 0; r < t.size(); r += 2)
    {
      EXPECT_EQ(t[r], t[r + 1]);
      EXPECT_EQ(i[r], 0.);
      EXPECT_EQ(i[r + 1], 1.);
    }
  for (const double v : x)
    {
      EXPECT_GE(v, 0.);
      EXPECT_LT(v, 3.);
    }
}

namespace
{
  /// Runs @p interrupted (the entries of @p uninterrupted, checkpointed every 500 steps),
  /// stops it by SIGTERM after 97 % of the @p steps the uninterrupted run computed, restarts
  /// it and expects its history.csv, particles.csv and energy.csv to be those of
  /// @p uninterrupted, byte for byte; returns the restarted run's summary.
  granular::RunSummary interrupted_and_restarted(const granular::CommandLineOptions &uninterrupted,
                                                 granular::CommandLineOptions interrupted,
                                                 const unsigned int steps)
  {
    interrupted.set_entries.push_back("Output/Checkpoint step interval=500");
    const unsigned int stop_step = static_cast<unsigned int>(0.97 * steps);
    unsigned int       step      = 0;
    EXPECT_THROW(run(interrupted,
                     [&]() {
                       if (++step == stop_step)
                         std::raise(SIGTERM);
                     }),
                 granular::RunInterrupted);
    EXPECT_TRUE(fs::exists(interrupted.output_directory + "/checkpoint.bin"));
    auto restart    = interrupted;
    restart.restart = true;
    const granular::RunSummary b = run(restart);
    for (const std::string file : {"history.csv", "particles.csv", "energy.csv"})
      EXPECT_EQ(read_file(uninterrupted.output_directory + "/" + file),
                read_file(interrupted.output_directory + "/" + file))
        << file;
    return b;
  }
} // namespace

TEST(SeveralParticles, RestartWithParticlesInContactRepeatsTheUninterruptedRun)
{
  // the pairs' histories (common normal, tangential spring, the law's history), their
  // dissipation and stored energy travel with the checkpoint
  auto uninterrupted = reduced("pair-restart-a", pressed_pair, 0.25);
  const granular::RunSummary a = run(uninterrupted);
  ASSERT_GT(a.dissipation_particle_particle, 0.);

  // stopped after 97 % of the computed steps, while the pair slides (the particles touch
  // from about 94 % of the steps on)
  const granular::RunSummary b =
    interrupted_and_restarted(uninterrupted, reduced("pair-restart-b", pressed_pair, 0.25),
                              a.steps);
  EXPECT_EQ(a.kbar, b.kbar);
  EXPECT_EQ(a.dissipation_particle_particle, b.dissipation_particle_particle);
  EXPECT_EQ(a.dissipation_particle_particle_damping, b.dissipation_particle_particle_damping);
  EXPECT_EQ(a.steps, b.steps);
  EXPECT_EQ(a.pair_overlap_evaluations, b.pair_overlap_evaluations);
}

TEST(SeveralParticles, VelocityUpdateIsCountedAndRestartsExactly)
{
  // Solver/Rubber-particle velocity update (docs/methods.md §6.1): the energy its impulses
  // take at the step starts is part of the numerical dissipation, so the ledger, which has no
  // other term for it, closes as without it; it travels with the checkpoint
  auto with = pressed_pair;
  with.push_back("Solver/Rubber-particle velocity update=true");
  auto uninterrupted = reduced("velocity-update-a", with, 0.25);
  const granular::RunSummary a = run(uninterrupted);
  EXPECT_GT(a.dissipation_velocity_update, 0.);
  EXPECT_LT(a.dissipation_velocity_update, a.dissipation_numerical);
  const double platen_work = csv_column(uninterrupted.output_directory + "/energy.csv",
                                        "platen_work").back();
  EXPECT_LT(std::abs(a.created_energy.unassigned), 1e-8 * platen_work);
  EXPECT_LT(a.energy_balance_error, 0.02);

  const granular::RunSummary b = interrupted_and_restarted(
    uninterrupted, reduced("velocity-update-b", with, 0.25), a.steps);
  EXPECT_EQ(a.dissipation_velocity_update, b.dissipation_velocity_update);
}

namespace
{
  /// The parameters of the default file with the --set entries @p sets, the output under the
  /// scratch directory @p directory; @p prm receives the entries.
  granular::ProgramParameters read_with(const std::vector<std::string> &sets,
                                        const std::string &directory, dealii::ParameterHandler &prm)
  {
    granular::CommandLineOptions options;
    options.set_entries = sets;
    options.set_entries.push_back("Output/Output directory=" +
                                  granular::testing::scratch_directory(directory));
    return granular::read_parameters(options, prm);
  }

  granular::ProgramParameters read_with(const std::vector<std::string> &sets,
                                        const std::string &directory)
  {
    dealii::ParameterHandler prm;
    return read_with(sets, directory, prm);
  }

  /// The entry that read_with() names when it refuses @p sets; "" if it accepts them.
  std::string refused_entry(const std::vector<std::string> &sets, const std::string &directory)
  {
    try
      {
        read_with(sets, directory);
      }
    catch (const granular::ParameterError &e)
      {
        return e.entry();
      }
    return "";
  }
} // namespace

TEST(SeveralParticles, SweepVariesTheNumberOfParticles)
{
  const auto read = [](const std::vector<std::string> &sets) {
    return read_with(sets, "sweep-particles");
  };
  const auto P      = read({"Sweep/Numbers of particles=1, 2, 4", "Particles/Mixture=circular"});
  const auto points = granular::sweep_points(P);
  ASSERT_EQ(points.size(), 3u);
  EXPECT_EQ(points[2].name, "p2_v2500_tau0.0001_elliptical_d0_elastic_n4");
  const auto Q = granular::sweep_point_parameters(P, points[2]);
  EXPECT_EQ(Q.particles.number, 4u);
  EXPECT_EQ(Q.particles.placements(Q.particle, Q.block.length, 50.).size(), 4u);
  EXPECT_TRUE(Q.sweep.particle_numbers.empty()) << "its parameters.prm is a single run";
  // without the list, the names stay those of earlier sweeps
  EXPECT_EQ(granular::sweep_points(read({"Sweep/Pressures=2"}))[0].name,
            "p2_v2500_tau0.0001_elliptical_d0_elastic");
  // refused before the sweep starts, naming the list: eight flat ellipses do not fit the
  // 10 mm cell, and a Particles/List leaves no layer to vary
  const auto entry = [](const std::vector<std::string> &sets) {
    return refused_entry(sets, "sweep-particles");
  };
  EXPECT_EQ(entry({"Sweep/Numbers of particles=2, 8"}), "Sweep/Numbers of particles");
  EXPECT_EQ(entry({"Sweep/Numbers of particles=2", "Particles/List=circular @ 3"}),
            "Sweep/Numbers of particles");
  // (a value outside 1 ... 64 is refused by the entry's pattern, naming the --set)
  EXPECT_NE(entry({"Sweep/Numbers of particles=0"}).find("Sweep/Numbers of particles"),
            std::string::npos);
}

// Sweep/Mixtures: each point's generated layer cycles its mixture's shapes over the
// particles, the point's parameters.prm reruns it, and what cannot run is refused before
// the sweep starts, naming the list.
TEST(SeveralParticles, SweepVariesTheMixture)
{
  dealii::ParameterHandler prm;
  const auto               P = read_with({"Sweep/Mixtures=circular, elliptical ; 0.5:0.3:2:4",
                                          "Sweep/Numbers of particles=2, 3"},
                                         "sweep-mixtures", prm);
  const auto points = granular::sweep_points(P);
  ASSERT_EQ(points.size(), 4u);
  EXPECT_EQ(points[1].name, "p2_v2500_tau0.0001_mix-circular+elliptical_d0_elastic_n3");
  EXPECT_EQ(points[2].name, "p2_v2500_tau0.0001_mix-0.5x0.3x2x4_d0_elastic_n2");
  EXPECT_EQ(points[1].mixture, "circular, elliptical");

  // the layer of the point: the shapes cycled, circle, ellipse, circle
  const auto Q = granular::sweep_point_parameters(P, points[1]);
  const auto layer = Q.particles.placements(Q.particle, Q.block.length, 50.);
  ASSERT_EQ(layer.size(), 3u);
  const auto circle  = granular::geometry::SuperellipseShape::named("circular", Q.particle.reference_radius);
  const auto ellipse = granular::geometry::SuperellipseShape::named("elliptical", Q.particle.reference_radius);
  for (unsigned int i = 0; i < 3; ++i)
    {
      const auto &expected = i % 2 ? ellipse : circle;
      EXPECT_EQ(layer[i].shape.r1, expected.r1) << i;
      EXPECT_EQ(layer[i].shape.r2, expected.r2) << i;
    }
  EXPECT_EQ(granular::sweep_point_parameters(P, points[2])
              .particles.placements(Q.particle, Q.block.length, 50.)[1]
              .shape.p2,
            4.);

  // its parameters.prm reads back as the point, a single run
  dealii::ParameterHandler point_prm;
  granular::write_sweep_point_parameters(prm, Q, point_prm);
  granular::ProgramParameters R;
  R.parse_parameters(point_prm);
  EXPECT_EQ(R.particles.mixture, "circular, elliptical");
  EXPECT_EQ(R.particles.number, 3u);
  EXPECT_FALSE(R.sweep.active());

  // refused before the sweep starts, naming the list
  const auto entry = [](const std::vector<std::string> &sets) {
    return refused_entry(sets, "sweep-mixtures");
  };
  // seven flat ellipses (1.5 mm wide) do not fit the 10 mm cell, seven circles do (the
  // file's own layer, of Particle/Shape, is checked as a run of its own)
  EXPECT_EQ(entry({"Particle/Shape=circular", "Sweep/Mixtures=circular, 0.5:0.5:2:4",
                   "Particles/Number=7"}),
            "")
    << "accepted";
  EXPECT_EQ(entry({"Particle/Shape=circular", "Sweep/Mixtures=circular; elliptical",
                   "Particles/Number=7"}),
            "Sweep/Mixtures");
  EXPECT_EQ(entry({"Sweep/Mixtures=circular, oval"}), "Sweep/Mixtures");
  EXPECT_EQ(entry({"Sweep/Mixtures=circular;; square"}), "Sweep/Mixtures");
  EXPECT_EQ(entry({"Sweep/Mixtures=circular", "Particles/List=circular @ 3"}),
            "Sweep/Mixtures");
  EXPECT_EQ(entry({"Sweep/Mixtures=circular, square", "Sweep/Shapes=circular, square"}),
            "Sweep/Mixtures");
}

TEST(SeveralParticles, TwoEquallySpacedInTwiceTheCellAreOneInTheCell)
{
  // one circle in the reduced cell (L0 = 3 mm, 12 x 6) against two equally spaced circles in
  // a cell of 6 mm with the same elements (24 x 6) and the same physical time steps and ramp
  // (fractions of T0 = L0 / v_F halved): while the layer stays symmetric each circle is
  // the single one, so the platen's k_I at every slide distance is the single cell's. The
  // drag starts at T0, later in the longer cell; the particles have come to rest by then.
  const std::vector<std::string> fixed = {"Geometry/Block height=1.5",
                                          "Geometry/Elements in y=6",
                                          "Solver/Time step control=fixed"};
  auto one = reduced("equal-spacing-one", fixed, 0.25);
  one.set_entries.push_back("Geometry/Block length=3");
  auto two = reduced("equal-spacing-two", fixed, 0.125);
  for (const std::string e : {"Geometry/Block length=6", "Geometry/Elements in x=24",
                              "Loading/Time step=6.25e-5", "Loading/Load ramp fraction=0.25",
                              "Particles/Number=2"})
    two.set_entries.push_back(e);
  run(one);
  run(two);
  const auto u1_one = csv_column(one.output_directory + "/history.csv", "platen_u1");
  const auto k_one  = csv_column(one.output_directory + "/history.csv", "kI");
  const auto u1_two = csv_column(two.output_directory + "/history.csv", "platen_u1");
  const auto k_two  = csv_column(two.output_directory + "/history.csv", "kI");
  // the rows of the drag, on the same grid of slide distances
  std::size_t a = 0, b = 0;
  while (u1_one[a] == 0.)
    ++a;
  while (u1_two[b] == 0.)
    ++b;
  ASSERT_EQ(u1_one.size() - a, 10000u); // 1.25 T0 of the single cell at 1.25e-4 T0
  double largest = 0., deviation = 0.;
  for (; a < u1_one.size(); ++a, ++b)
    {
      ASSERT_LT(b, u1_two.size());
      ASSERT_EQ(u1_one[a], u1_two[b]);
      largest   = std::max(largest, std::abs(k_one[a]));
      deviation = std::max(deviation, std::abs(k_one[a] - k_two[b]));
    }
  EXPECT_GT(largest, 0.04);               // the circle rolls and snaps
  EXPECT_LT(deviation, 1e-4 * largest);   // measured: 3e-6 of it
  // the layer stayed symmetric: the second circle is L0/2 ahead, turned as the first
  const std::string particles = two.output_directory + "/particles.csv";
  const auto        index     = csv_column(particles, "particle");
  const auto        x         = csv_column(particles, "x_unwrapped");
  const auto        theta     = csv_column(particles, "theta");
  ASSERT_GT(x.back(), 3.5) << "the second circle has rolled across the cell boundary";
  for (std::size_t r = 0; r + 1 < x.size(); r += 2)
    {
      ASSERT_EQ(index[r + 1], 1.);
      EXPECT_NEAR(x[r + 1] - x[r], 3., 1e-9);
      EXPECT_NEAR(theta[r + 1], theta[r], 1e-9);
    }
}
