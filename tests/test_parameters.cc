// Parameter file, command line and bad-input rejection (docs/methods.md §8.1; issue: foundation).
#include "program/command_line.h"
#include "base/parameter_entries.h"
#include "base/parameter_error.h"
#include "base/physics_entries.h"
#include "base/source_revision.h"
#include "fem/block_parameters.h"
#include "contact/laws/contact_law.h"

#include <deal.II/base/parameter_handler.h>

#include "test_helpers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

namespace
{
  using granular::CommandLineOptions;
  using granular::ParameterError;

  std::string read_file(const std::string &path)
  {
    std::ifstream      in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }

  /// Reads the defaults with the given --set overrides.
  granular::ProgramParameters read_with(const std::vector<std::string> &sets,
                                    const std::string           &file = "")
  {
    CommandLineOptions options;
    options.parameter_file = file;
    options.set_entries    = sets;
    dealii::ParameterHandler prm;
    return granular::read_parameters(options, prm);
  }

  /// Expects read_with(sets) to throw a ParameterError whose message names @p entry.
  void expect_rejected(const std::vector<std::string> &sets, const std::string &entry)
  {
    try
      {
        read_with(sets);
        FAIL() << "accepted invalid input naming " << entry;
      }
    catch (const ParameterError &e)
      {
        EXPECT_NE(std::string(e.what()).find(entry), std::string::npos)
          << "message does not name the entry '" << entry << "': " << e.what();
      }
  }

  /// The complete listing (deal.II's PRM output) of the parameters read from @p file with the
  /// --set entries @p sets: equal for two inputs exactly when every entry has the same value.
  std::string listing_after_reading(const std::string              &file,
                                    const std::vector<std::string> &sets)
  {
    CommandLineOptions options;
    options.parameter_file = file;
    options.set_entries    = sets;
    dealii::ParameterHandler prm;
    granular::ProgramParameters::declare_parameters(prm);
    granular::read_parameter_input(options, prm);
    std::ostringstream s;
    prm.print_parameters(s, dealii::ParameterHandler::PRM |
                              dealii::ParameterHandler::KeepDeclarationOrder);
    return s.str();
  }

  std::string temporary_file(const std::string &name, const std::string &content)
  {
    const std::string path =
      (std::filesystem::temp_directory_path() / ("granular-test-" + name)).string();
    std::ofstream(path) << content;
    return path;
  }

  /// Runs the executable, returns the exit status; stderr+stdout into @p output.
  int run_executable(const std::string &arguments, std::string &output)
  {
    // one log per test and call: CTest runs the tests of this file in parallel
    static unsigned int call = 0;
    const std::string   log =
      (std::filesystem::temp_directory_path() /
       ("granular-test-exe-" +
        std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "-" +
        std::to_string(++call) + ".log"))
        .string();
    const int status =
      std::system((std::string(GRANULAR_EXECUTABLE) + " " + arguments + " > " + log +
                   " 2>&1")
                    .c_str());
    output = read_file(log);
    return WEXITSTATUS(status);
  }
} // namespace

TEST(Parameters, DefaultsMatchTheSpecification)
{
  const granular::ProgramParameters p = read_with({});
  EXPECT_DOUBLE_EQ(p.block.length, 10.);
  EXPECT_DOUBLE_EQ(p.block.height, 7.5);
  EXPECT_EQ(p.block.n_x, 40u);
  EXPECT_EQ(p.block.n_y, 15u);
  EXPECT_DOUBLE_EQ(p.loading.pressure, 2.);
  EXPECT_DOUBLE_EQ(p.loading.slip_velocity, 2500.);
  EXPECT_DOUBLE_EQ(p.loading.nominal_dragging_time(p.block.length), 4e-3);
  EXPECT_DOUBLE_EQ(p.loading.time_step(p.block.length), 4e-7);
  EXPECT_DOUBLE_EQ(p.loading.end_time(p.block.length), 4. * 4e-3);
  EXPECT_DOUBLE_EQ(p.rubber.shear_modulus, 1.);
  EXPECT_DOUBLE_EQ(p.rubber.bulk_modulus(), 1e3);
  EXPECT_DOUBLE_EQ(p.rubber.maxwell_modulus(), 0.); // default run: elastic rubber
  EXPECT_DOUBLE_EQ(p.particle.density, 3e-9);
  EXPECT_DOUBLE_EQ(p.particle.mass(), 3e-9 * M_PI * 0.25);
  EXPECT_DOUBLE_EQ(p.particle.moment_of_inertia(), 0.5 * p.particle.mass() * 0.25);
  EXPECT_EQ(p.particle.shape_name, "elliptical");
  EXPECT_DOUBLE_EQ(p.particle.shape().r1, 0.75);
  EXPECT_DOUBLE_EQ(p.contact.rubber_surface.normal_penalty, 1e5);
  EXPECT_DOUBLE_EQ(p.contact.rubber_surface.tangential_penalty, 1e3);
  EXPECT_DOUBLE_EQ(p.contact.rubber_surface.friction_coefficient, 0.5);
  EXPECT_DOUBLE_EQ(p.contact.rubber_particle.friction_coefficient, 0.5);
  EXPECT_DOUBLE_EQ(p.contact.particle_surface.friction_coefficient, 1.5);
  EXPECT_DOUBLE_EQ(p.contact.particle_surface.normal_stiffness, 1e5);
  EXPECT_DOUBLE_EQ(p.contact.particle_surface.tangential_stiffness, 1e3);
  EXPECT_DOUBLE_EQ(p.contact.particle_surface.damping, 3e-5);
}

// params/default.prm lists what the default run sets: it is the output of
// --print-parameters=used without a parameter file (every subsection, of the contact laws only
// the default law's), and read back it gives every entry its default.
TEST(Parameters, ShippedDefaultFileListsTheDefaultRun)
{
  const std::string path = std::string(GRANULAR_SOURCE_DIR) + "/params/default.prm";
  const std::string text = read_file(path);
  EXPECT_EQ(text, granular::used_parameter_file(CommandLineOptions{}))
    << "params/default.prm is not current: build/granular-interface --print-parameters=used "
       "> params/default.prm";
  EXPECT_EQ(listing_after_reading(path, {}), granular::default_parameter_file());
  // of the laws' subsections only the default law's
  for (const auto &law : granular::contact::laws::registered_laws())
    EXPECT_EQ(text.find("    subsection " + law.id + "\n") != std::string::npos,
              law.id == "temizer_decompression_undamped")
      << law.id;
  EXPECT_LT(text.size(), granular::default_parameter_file().size() / 2);
}

// --print-parameters=used with a file and --set: the run's values, the selected law's
// subsection only; the listing read back gives the run's parameters.
TEST(Parameters, UsedListingOfARunReadsBackAsThatRun)
{
  const std::string file = temporary_file(
    "used-listing.prm", "subsection Loading\n  set Pressure = 3\nend\n"
                        "subsection Contact\n  subsection Particle-surface\n"
                        "    set Normal law = hunt_crossley\n  end\nend\n");
  CommandLineOptions options;
  options.parameter_file = file;
  options.set_entries    = {
    "Contact/Particle-surface/hunt_crossley/Coefficient of restitution=0.7"};
  const std::string used = granular::used_parameter_file(options);
  EXPECT_NE(used.find("    subsection hunt_crossley\n"), std::string::npos);
  EXPECT_EQ(used.find("    subsection temizer_decompression_undamped\n"), std::string::npos);
  EXPECT_EQ(used.find("    subsection lee_wang\n"), std::string::npos);
  EXPECT_NE(used.find("set Coefficient of restitution = 0.7"), std::string::npos) << used;
  const std::string copy = temporary_file("used-listing-copy.prm", used);
  EXPECT_EQ(listing_after_reading(copy, {}), listing_after_reading(file, options.set_entries));
}

TEST(Parameters, EveryShippedParameterFileIsValid)
{
  unsigned int n = 0;
  for (const auto &entry :
       std::filesystem::directory_iterator(std::string(GRANULAR_SOURCE_DIR) + "/params"))
    if (entry.path().extension() == ".prm")
      {
        SCOPED_TRACE(entry.path().string());
        EXPECT_NO_THROW(read_with({}, entry.path().string()));
        ++n;
      }
  EXPECT_GE(n, 2u);
}

TEST(Parameters, SetOverridesAnEntry)
{
  const auto p = read_with({"Loading/Pressure=3.5", "Contact/Rubber-surface/Friction coefficient=0.3"});
  EXPECT_DOUBLE_EQ(p.loading.pressure, 3.5);
  EXPECT_DOUBLE_EQ(p.contact.rubber_surface.friction_coefficient, 0.3);
}

// Every entry of every subsection reaches its own member (base/parameter_entries.h: the
// declaration and the parsing are one list per subsection): each is set to a value that
// differs from its default and from the other entries of its subsection.
namespace
{
  /// --set lines that give every entry of a parameter file another value than its
  /// default (Geometry/Mesh file aside: it needs a mesh of the block's size).
  std::vector<std::string> every_entry_changed()
  {
    return {"Output/Output directory=elsewhere",
            "Output/VTU output interval=7",
            "Output/History output interval=3",
            "Output/Progress interval=2.5",
            "Output/Verbose=true",
            "Output/Checkpoint interval=11",
            "Output/Checkpoint step interval=13",
            "Geometry/Block length=12",
            "Geometry/Block height=6.5",
            "Geometry/Initial gap=0.125",
            "Geometry/Elements in x=41",
            "Geometry/Elements in y=17",
            "Loading/Pressure=2.25",
            "Loading/Slip velocity=2600",
            "Loading/Load ramp fraction=0.375",
            "Loading/Time step=2e-4",
            "Loading/Averaging time=1.5",
            "Rubber/Shear modulus=1.25",
            "Rubber/Bulk modulus ratio=900",
            "Rubber/Density ratio=2e-3",
            "Rubber/Ogden/Exponents=2, -2",
            "Rubber/Ogden/Normalised moduli=0.5, 0.25",
            "Rubber/Maxwell branch/Viscoelastic=true",
            "Rubber/Maxwell branch/Shear modulus ratio=4",
            "Rubber/Maxwell branch/Relaxation time=3e-4",
            "Rubber/Maxwell branch/Payne parameter=0.01",
            "Rubber/Maxwell branch/Payne time constant ratio=0.2",
            "Particle/Enabled=false",
            "Particle/Shape=custom",
            "Particle/Reference radius=0.4",
            "Particle/Semi-axis r1=0.7",
            "Particle/Semi-axis r2=0.45",
            "Particle/Exponent p1=2.5",
            "Particle/Exponent p2=3",
            "Particle/Initial rotation=0.1",
            "Particle/Density=2e-9",
            "Particle/Gravity=9000",
            "Contact/Rubber-surface/Normal penalty=2e6",
            "Contact/Rubber-surface/Tangential penalty=2e4",
            "Contact/Rubber-surface/Friction coefficient=0.4",
            "Contact/Rubber-particle/Normal penalty=3e6",
            "Contact/Rubber-particle/Tangential penalty=3e4",
            "Contact/Rubber-particle/Friction coefficient=0.6",
            "Contact/Particle-surface/Normal stiffness=2e5",
            "Contact/Particle-surface/Tangential stiffness=2e3",
            "Contact/Particle-surface/Damping coefficient=4e-5",
            "Contact/Particle-surface/Friction coefficient=1.25",
            "Solver/Newmark beta=0.6",
            "Solver/Newmark gamma=0.9",
            "Solver/Maximum Newton iterations=30",
            "Solver/Residual tolerance=1e-9",
            "Solver/Increment tolerance=1e-7",
            "Solver/Maximum cut-backs=5",
            "Solver/Maximum energy balance error=0.3",
            "Solver/Coupling scheme=staggered",
            "Solver/Coupling iterations=21",
            "Solver/Coupling tolerance=2e-3",
            "Sweep/Pressures=1, 3",
            "Sweep/Relaxation times=1e-4",
            "Sweep/Slip velocities=2000",
            "Sweep/Shapes=circular, 0.6:0.5:2:2",
            "Sweep/Payne parameters=0, 0.01",
            "Sweep/Rubber models=elastic, viscoelastic",
            "Sweep/Scale time step with slip velocity=false"};
  }
} // namespace

TEST(Parameters, EveryEntryReachesItsMember)
{
  const std::string mesh = std::string(GRANULAR_SOURCE_DIR) + "/meshes/graded-40x15.msh";
  const auto        p    = read_with(every_entry_changed());
  EXPECT_EQ(p.output.output_directory, "elsewhere");
  EXPECT_EQ(p.output.vtu_interval, 7u);
  EXPECT_EQ(p.output.history_interval, 3u);
  EXPECT_EQ(p.output.progress_interval, 2.5);
  EXPECT_TRUE(p.output.verbose);
  EXPECT_EQ(p.output.checkpoint_interval, 11.);
  EXPECT_EQ(p.output.checkpoint_step_interval, 13u);
  EXPECT_EQ(p.block.length, 12.);
  EXPECT_EQ(p.block.height, 6.5);
  EXPECT_EQ(p.block.initial_gap, 0.125);
  EXPECT_EQ(p.block.n_x, 41u);
  EXPECT_EQ(p.block.n_y, 17u);
  // a mesh file is read and checked against the block's size when the parameters are
  // validated, so it is set with the block it was made for (10 x 7.5 mm)
  EXPECT_EQ(read_with({"Geometry/Mesh file=" + mesh}).block.mesh_file, mesh);
  EXPECT_EQ(p.loading.pressure, 2.25);
  EXPECT_EQ(p.loading.slip_velocity, 2600.);
  EXPECT_EQ(p.loading.ramp_fraction, 0.375);
  EXPECT_EQ(p.loading.time_step_ratio, 2e-4);
  EXPECT_EQ(p.loading.averaging_ratio, 1.5);
  EXPECT_EQ(p.rubber.shear_modulus, 1.25);
  EXPECT_EQ(p.rubber.bulk_modulus_ratio, 900.);
  EXPECT_EQ(p.rubber.density_ratio, 2e-3);
  EXPECT_EQ(p.rubber.ogden_exponents, (std::vector<double>{2., -2.}));
  EXPECT_EQ(p.rubber.ogden_moduli, (std::vector<double>{0.5, 0.25}));
  EXPECT_TRUE(p.rubber.viscoelastic);
  EXPECT_EQ(p.rubber.maxwell_modulus_ratio, 4.);
  EXPECT_EQ(p.rubber.relaxation_time, 3e-4);
  EXPECT_EQ(p.rubber.payne_d, 0.01);
  EXPECT_EQ(p.rubber.payne_time_constant_ratio, 0.2);
  EXPECT_FALSE(p.particle.enabled);
  EXPECT_EQ(p.particle.shape_name, "custom");
  EXPECT_EQ(p.particle.reference_radius, 0.4);
  EXPECT_EQ(p.particle.r1, 0.7);
  EXPECT_EQ(p.particle.r2, 0.45);
  EXPECT_EQ(p.particle.p1, 2.5);
  EXPECT_EQ(p.particle.p2, 3.);
  EXPECT_EQ(p.particle.initial_rotation, 0.1);
  EXPECT_EQ(p.particle.density, 2e-9);
  EXPECT_EQ(p.particle.gravity, 9000.);
  EXPECT_EQ(p.contact.rubber_surface.normal_penalty, 2e6);
  EXPECT_EQ(p.contact.rubber_surface.tangential_penalty, 2e4);
  EXPECT_EQ(p.contact.rubber_surface.friction_coefficient, 0.4);
  EXPECT_EQ(p.contact.rubber_particle.normal_penalty, 3e6);
  EXPECT_EQ(p.contact.rubber_particle.tangential_penalty, 3e4);
  EXPECT_EQ(p.contact.rubber_particle.friction_coefficient, 0.6);
  EXPECT_EQ(p.contact.particle_surface.normal_law, "temizer_decompression_undamped");
  EXPECT_EQ(p.contact.particle_surface.normal_stiffness, 2e5);
  EXPECT_EQ(p.contact.particle_surface.tangential_stiffness, 2e3);
  EXPECT_EQ(p.contact.particle_surface.damping, 4e-5);
  EXPECT_EQ(p.contact.particle_surface.friction_coefficient, 1.25);
  EXPECT_EQ(p.solver.newmark_beta, 0.6);
  EXPECT_EQ(p.solver.newmark_gamma, 0.9);
  EXPECT_EQ(p.solver.max_newton_iterations, 30u);
  EXPECT_EQ(p.solver.residual_tolerance, 1e-9);
  EXPECT_EQ(p.solver.increment_tolerance, 1e-7);
  EXPECT_EQ(p.solver.max_cutbacks, 5u);
  EXPECT_EQ(p.solver.max_energy_error, 0.3);
  EXPECT_FALSE(p.solver.monolithic_coupling);
  EXPECT_EQ(p.solver.coupling_iterations, 21u);
  EXPECT_EQ(p.solver.coupling_tolerance, 2e-3);
  EXPECT_EQ(p.sweep.pressures, (std::vector<double>{1., 3.}));
  EXPECT_EQ(p.sweep.relaxation_times, (std::vector<double>{1e-4}));
  EXPECT_EQ(p.sweep.slip_velocities, (std::vector<double>{2000.}));
  EXPECT_EQ(p.sweep.shapes, (std::vector<std::string>{"circular", "0.6:0.5:2:2"}));
  EXPECT_EQ(p.sweep.payne_d, (std::vector<double>{0., 0.01}));
  EXPECT_EQ(p.sweep.rubber_models, (std::vector<std::string>{"elastic", "viscoelastic"}));
  EXPECT_FALSE(p.sweep.scale_time_step_with_slip_velocity);
}

// Writing the values back (ParameterEntries::write, how a sweep point's parameters.prm is
// made) is the inverse of reading: a parameter set whose every entry differs from its
// default, written into a handler of defaults, gives the same value in every entry; an
// entry of unchanged value keeps its text, a changed number is written with all its digits.
TEST(Parameters, WritingTheValuesBackGivesTheSameEntries)
{
  CommandLineOptions options;
  options.set_entries = every_entry_changed();
  dealii::ParameterHandler          read;
  const granular::ProgramParameters p = granular::read_parameters(options, read);
  dealii::ParameterHandler          written;
  granular::ProgramParameters::declare_parameters(written);
  granular::ParameterEntries::write(written, p);
  const granular::PhysicsDifferences d = granular::physics_differences(
    granular::physics_entries(read), granular::physics_entries(written), "read");
  EXPECT_TRUE(d.empty()) << d.text;
  written.enter_subsection("Output");
  EXPECT_EQ(written.get("Output directory"), "elsewhere");
  EXPECT_EQ(written.get("Progress interval"), "2.5");
  written.leave_subsection();

  dealii::ParameterHandler defaults;
  granular::ProgramParameters::declare_parameters(defaults);
  granular::ProgramParameters q;
  q.parse_parameters(defaults);
  q.loading.pressure = 0.3;
  granular::ParameterEntries::write(defaults, q);
  defaults.enter_subsection("Loading");
  EXPECT_EQ(defaults.get("Time step"), "1e-4");
  EXPECT_EQ(defaults.get("Pressure"), "0.29999999999999999");
  defaults.leave_subsection();
}

TEST(Parameters, RejectsUnknownEntryInFile)
{
  const std::string path = temporary_file(
    "unknown.prm", "subsection Loading\n  set Presure = 2\nend\n");
  try
    {
      read_with({}, path);
      FAIL() << "unknown entry accepted";
    }
  catch (const ParameterError &e)
    {
      EXPECT_NE(std::string(e.what()).find("Presure"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("Line <2>"), std::string::npos) << e.what();
    }
}

TEST(Parameters, RejectsMalformedValueInFile)
{
  const std::string path = temporary_file(
    "malformed.prm", "subsection Loading\n  set Pressure = two\nend\n");
  try
    {
      read_with({}, path);
      FAIL() << "malformed value accepted";
    }
  catch (const ParameterError &e)
    {
      EXPECT_NE(std::string(e.what()).find("Pressure"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("two"), std::string::npos) << e.what();
    }
}

TEST(Parameters, RejectsUnknownSetEntry)
{
  expect_rejected({"Loading/Not an entry=1"}, "Not an entry");
  expect_rejected({"Loading/Pressure"}, "--set");
}

TEST(Parameters, RejectsSuperellipseExponentBelowTwo)
{
  expect_rejected({"Particle/Shape=custom", "Particle/Exponent p1=1.5"},
                  "Particle/Exponent p1");
  expect_rejected({"Particle/Shape=custom", "Particle/Exponent p2=1.99"},
                  "Particle/Exponent p2");
}

TEST(Parameters, RejectsNonPositiveRadius)
{
  expect_rejected({"Particle/Reference radius=0"}, "Particle/Reference radius");
  expect_rejected({"Particle/Shape=custom", "Particle/Semi-axis r1=-0.5"},
                  "Particle/Semi-axis r1");
  expect_rejected({"Particle/Shape=custom", "Particle/Semi-axis r2=0"},
                  "Particle/Semi-axis r2");
}

// The rubber-particle contact's step force needs the particle's mid-point rule to take it
// (docs/methods.md §5.5): with the staggered scheme it is refused before the run starts; with
// the defaults it is accepted.
TEST(Parameters, RubberParticleStepForceNeedsTheParticlesDiscreteGradient)
{
  const std::string entry = "Solver/Rubber-particle contact forces";
  expect_rejected({entry + "=discrete gradient", "Solver/Coupling scheme=staggered"}, entry);
  EXPECT_TRUE(read_with({entry + "=discrete gradient"}).solver.rubber_particle_discrete_gradient);
}

// The velocity update at the step starts acts on the particle of the rubber's step
// (docs/methods.md §6.1): with the staggered scheme it is refused before the run starts.
TEST(Parameters, RubberParticleVelocityUpdateNeedsTheMonolithicScheme)
{
  const std::string entry = "Solver/Rubber-particle velocity update";
  expect_rejected({entry + "=true", "Solver/Coupling scheme=staggered"}, entry);
  EXPECT_TRUE(read_with({entry + "=true"}).solver.rubber_particle_velocity_update);
  EXPECT_FALSE(read_with({}).solver.rubber_particle_velocity_update);
}

TEST(Parameters, RejectsNonPositiveModulus)
{
  expect_rejected({"Rubber/Shear modulus=0"}, "Rubber/Shear modulus");
  expect_rejected({"Rubber/Bulk modulus ratio=-1"}, "Rubber/Bulk modulus ratio");
  expect_rejected({"Contact/Particle-surface/Normal stiffness=0"},
                  "Contact/Particle-surface/Normal stiffness");
}

TEST(Parameters, RejectsNonPositiveDensity)
{
  expect_rejected({"Particle/Density=-3e-9"}, "Particle/Density");
  expect_rejected({"Rubber/Density ratio=0"}, "Rubber/Density ratio");
}

TEST(Parameters, RejectsNonPositiveTimeStep)
{
  expect_rejected({"Loading/Time step=0"}, "Loading/Time step");
}

TEST(Parameters, RejectsTimeStepNotBelowT0)
{
  expect_rejected({"Loading/Time step=1"}, "Loading/Time step");
  expect_rejected({"Loading/Time step=2.5"}, "Loading/Time step");
  // (without a particle: with one, so long a step is refused, RunParameters::validate)
  EXPECT_NO_THROW(read_with({"Particle/Enabled=false", "Loading/Time step=0.5"}));
}

// A particle thinner than the bottom elements can pass between the rubber's contact points
// (r1 = 0.05 mm on the reduced cell's 0.25 mm faces: the rubber never touched it), so it is
// refused naming the radius or the semi-axis that is too small.
TEST(Parameters, RejectsParticleThinnerThanTheBottomElements)
{
  expect_rejected({"Particle/Reference radius=0.1"}, "Particle/Reference radius"); // 0.2 < 0.25
  EXPECT_NO_THROW(read_with({"Particle/Reference radius=0.125"}));
  expect_rejected({"Particle/Shape=custom", "Particle/Semi-axis r1=0.05"}, "Particle/Semi-axis r1");
  expect_rejected({"Particle/Shape=custom", "Particle/Semi-axis r2=0.05"}, "Particle/Semi-axis r2");
  // a finer mesh resolves it
  EXPECT_NO_THROW(read_with({"Particle/Reference radius=0.1", "Geometry/Elements in x=80"}));
}

TEST(Parameters, RejectsParticleWiderThanCell)
{
  // elliptical: r1 = 1.5 r0 = 0.75 mm, diameter 1.5 mm
  expect_rejected({"Geometry/Block length=1.4"}, "Particle/Shape");
  EXPECT_NO_THROW(read_with({"Geometry/Block length=1.6"}));
  // a rectangular superellipse's corners reach beyond max(r1, r2): largest
  // diameter 1.569 mm, so a 1.55 mm cell fits the ellipse but not the rectangle
  EXPECT_NO_THROW(read_with({"Geometry/Block length=1.55"}));
  expect_rejected({"Particle/Shape=rectangular", "Geometry/Block length=1.55"},
                  "Particle/Shape");
  // without a particle the same cell is fine
  EXPECT_NO_THROW(read_with({"Particle/Enabled=false", "Geometry/Block length=1.4"}));
  // a custom shape names the semi-axis that is too large: r2 here, not r1
  expect_rejected({"Particle/Shape=custom", "Particle/Semi-axis r1=0.5",
                   "Particle/Semi-axis r2=6"},
                  "Particle/Semi-axis r2");
  expect_rejected({"Particle/Shape=custom", "Particle/Semi-axis r1=6",
                   "Particle/Semi-axis r2=0.5"},
                  "Particle/Semi-axis r1");
}

TEST(Parameters, RejectsNegativeFrictionCoefficient)
{
  expect_rejected({"Contact/Rubber-surface/Friction coefficient=-0.1"},
                  "Contact/Rubber-surface/Friction coefficient");
  expect_rejected({"Contact/Rubber-particle/Friction coefficient=-1"},
                  "Contact/Rubber-particle/Friction coefficient");
  expect_rejected({"Contact/Particle-surface/Friction coefficient=-1.5"},
                  "Contact/Particle-surface/Friction coefficient");
}

TEST(CommandLine, ParsesTheSpecifiedOptions)
{
  const char *argv[] = {"granular-interface", "--set", "Loading/Pressure=1",
                        "--output-directory", "out", "--set", "Loading/Time step=1e-3",
                        "run.prm"};
  const auto o = granular::parse_command_line(8, argv);
  EXPECT_EQ(o.parameter_file, "run.prm");
  EXPECT_EQ(o.output_directory, "out");
  ASSERT_EQ(o.set_entries.size(), 2u);
  EXPECT_EQ(o.set_entries[1], "Loading/Time step=1e-3");
  const char *bad[] = {"granular-interface", "--frobnicate"};
  EXPECT_THROW(granular::parse_command_line(2, bad), std::invalid_argument);
  const char *missing[] = {"granular-interface", "--set"};
  EXPECT_THROW(granular::parse_command_line(2, missing), std::invalid_argument);
  const char *two[] = {"granular-interface", "a.prm", "b.prm"};
  EXPECT_THROW(granular::parse_command_line(3, two), std::invalid_argument);
  // one output directory per run: a second --output-directory is refused, in either spelling
  const char *two_directories[] = {"granular-interface", "--output-directory", "x",
                                   "--output-directory=y", "run.prm"};
  EXPECT_THROW(granular::parse_command_line(5, two_directories), std::invalid_argument);
  const char *same_twice[] = {"granular-interface", "--output-directory=x",
                              "--output-directory", "x"};
  EXPECT_THROW(granular::parse_command_line(4, same_twice), std::invalid_argument);
  const char *restart[] = {"granular-interface", "--restart", "run.prm"};
  EXPECT_TRUE(granular::parse_command_line(3, restart).restart);
  EXPECT_FALSE(o.restart);
  // --record-attempts N[,EVERY]
  const char *record[] = {"granular-interface", "--record-attempts", "20,500", "run.prm"};
  const auto  r        = granular::parse_command_line(4, record);
  EXPECT_EQ(r.record_failed_attempts, 20u);
  EXPECT_EQ(r.record_attempt_interval, 500u);
  const char *record_failed[] = {"granular-interface", "--record-attempts=7", "run.prm"};
  EXPECT_EQ(granular::parse_command_line(3, record_failed).record_failed_attempts, 7u);
  EXPECT_EQ(granular::parse_command_line(3, record_failed).record_attempt_interval, 0u);
  EXPECT_EQ(o.record_failed_attempts, 0u);
  const char *record_from[] = {"granular-interface", "--record-attempts", "3,0,1.5", "r.prm"};
  EXPECT_EQ(granular::parse_command_line(4, record_from).record_attempts_from, 1.5);
  EXPECT_EQ(r.record_attempts_from, 0.);
  for (const char *bad_record : {"-1", "5,", "x", "5,2,1x", "5,2,-1", "5,2,1,1", "1e3"})
    {
      const char *argv_bad[] = {"granular-interface", "--record-attempts", bad_record, "r.prm"};
      EXPECT_THROW(granular::parse_command_line(4, argv_bad), std::invalid_argument)
        << bad_record;
    }
}

TEST(CommandLine, RestartIsForSingleRuns)
{
  // a sweep's points do not checkpoint, so --restart with a sweep file is invalid input
  granular::CommandLineOptions options;
  options.parameter_file =
    std::string(GRANULAR_SOURCE_DIR) + "/params/pressure-sweep-reduced.prm";
  options.restart = true;
  dealii::ParameterHandler prm;
  try
    {
      granular::read_parameters(options, prm);
      FAIL() << "--restart with a sweep was accepted";
    }
  catch (const granular::ParameterError &e)
    {
      EXPECT_EQ(e.entry(), "--restart") << e.what();
    }
  options.restart = false;
  dealii::ParameterHandler prm2;
  EXPECT_TRUE(granular::read_parameters(options, prm2).sweep.active());
}

TEST(CommandLine, ExecutableHelpAndPrintParameters)
{
  std::string out;
  EXPECT_EQ(run_executable("--help", out), 0);
  EXPECT_NE(out.find("--output-directory"), std::string::npos);
  EXPECT_NE(out.find("--print-parameters"), std::string::npos);
  EXPECT_NE(out.find("--print-parameters=used"), std::string::npos);
  EXPECT_NE(out.find("--list-laws=markdown"), std::string::npos);
  EXPECT_EQ(run_executable("--print-parameters", out), 0);
  EXPECT_EQ(out, granular::default_parameter_file());
  EXPECT_EQ(run_executable("--print-parameters=used", out), 0);
  EXPECT_EQ(out, granular::used_parameter_file(CommandLineOptions{}));
  EXPECT_EQ(run_executable("--print-parameters=json", out), 0);
  EXPECT_EQ(out, granular::parameter_listing_json());
  EXPECT_EQ(run_executable("--print-parameters=short", out), 2);
  EXPECT_EQ(run_executable("--list-laws=markdown", out), 0);
  EXPECT_EQ(out, granular::contact_law_table());
}

// --version names the build's source revision: the git commit of the source tree it was
// built from (40 hex digits, "-modified" if its code differed), or "unknown" outside a git
// checkout; a run's parameters.prm records the same (source_revision_comment()).
TEST(CommandLine, ExecutableVersionNamesTheSourceRevision)
{
  std::string out;
  EXPECT_EQ(run_executable("--version", out), 0);
  const std::regex line("granular-interface [0-9.]+ \\(source revision "
                        "(unknown|[0-9a-f]{40}(-modified)?)\\)\n");
  std::smatch match;
  ASSERT_TRUE(std::regex_match(out, match, line)) << out;
  EXPECT_EQ(match[1].str(), granular::source_revision());
  EXPECT_EQ(granular::source_revision_comment(),
            "# granular-interface source revision: " + match[1].str() + "\n");
}

TEST(CommandLine, ExecutableRejectsBadInputBeforeWork)
{
  const std::string dir = granular::testing::scratch_directory("rejected");
  const std::string path = temporary_file(
    "bad-exponent.prm",
    "subsection Particle\n  set Shape = custom\n  set Exponent p1 = 1.2\nend\n");
  std::string out;
  EXPECT_NE(run_executable(path + " --output-directory " + dir, out), 0);
  EXPECT_NE(out.find("Particle/Exponent p1"), std::string::npos) << out;
  EXPECT_FALSE(std::filesystem::exists(dir)) << "work started before validation";
  EXPECT_NE(run_executable("/nonexistent/file.prm", out), 0);
  EXPECT_NE(run_executable("--no-such-option", out), 0);
}

// An empty parameter file, a file of comments only, or a directory named
// like a parameter file would start the full default run; they are rejected (exit status 2)
// before anything is written, unless --defaults asks for the defaults on purpose.
TEST(CommandLine, FileThatSetsNothingOrIsNoFileIsRejected)
{
  const std::string dir = granular::testing::scratch_directory("sets-nothing");
  std::string       out;
  const std::string empty = temporary_file("empty.prm", "");
  EXPECT_EQ(run_executable(empty + " --output-directory " + dir, out), 2) << out;
  EXPECT_NE(out.find("sets no entry"), std::string::npos) << out;
  EXPECT_NE(out.find("--defaults"), std::string::npos) << out;
  const std::string comments =
    temporary_file("comments.prm", "# a parameter file\n  # set Loading/Pressure = 1\n\n");
  EXPECT_EQ(run_executable(comments + " --output-directory " + dir, out), 2) << out;
  const std::string directory =
    (std::filesystem::temp_directory_path() / "granular-test-directory.prm").string();
  std::filesystem::create_directories(directory);
  EXPECT_EQ(run_executable(directory + " --output-directory " + dir, out), 2) << out;
  EXPECT_NE(out.find("not a regular file"), std::string::npos) << out;
  EXPECT_FALSE(std::filesystem::exists(dir)) << "work started";
  // --defaults makes the empty file acceptable (checked without running: the file is read
  // and validated by read_parameters)
  granular::CommandLineOptions options;
  options.parameter_file = empty;
  options.defaults       = true;
  dealii::ParameterHandler prm;
  EXPECT_NO_THROW(granular::read_parameters(options, prm));
  options.defaults = false;
  dealii::ParameterHandler prm2;
  EXPECT_THROW(granular::read_parameters(options, prm2), granular::ParameterError);
}

// Mistakes on the command line are invalid input: exit status 2.
TEST(CommandLine, CommandLineMistakesExitWithStatusTwo)
{
  std::string out;
  EXPECT_EQ(run_executable("--no-such-option", out), 2) << out;
  const std::string a =
    temporary_file("a.prm", "subsection Geometry\n  set Block length = 3\nend\n");
  EXPECT_EQ(run_executable(a + " " + a, out), 2) << out;
  EXPECT_NE(out.find("more than one parameter file"), std::string::npos) << out;
  EXPECT_EQ(run_executable(a + " --set", out), 2) << out;
  EXPECT_NE(out.find("--set"), std::string::npos) << out;
  EXPECT_EQ(run_executable(a + " --output-directory x --output-directory y", out), 2) << out;
  EXPECT_NE(out.find("more than one output directory"), std::string::npos) << out;
}

// A mesh too large for the machine's memory is rejected before anything is
// allocated (exit status 2, naming the entries), not by std::bad_alloc after minutes.
TEST(CommandLine, HugeMeshIsRejectedBeforeAllocating)
{
  const std::string dir = granular::testing::scratch_directory("huge-mesh");
  std::string       out;
  const std::string file = std::string(GRANULAR_SOURCE_DIR) + "/params/bare-interface.prm";
  EXPECT_EQ(run_executable(file + " --output-directory " + dir +
                             " --set \"Geometry/Elements in x=100000\""
                             " --set \"Geometry/Elements in y=100000\"",
                           out),
            2)
    << out;
  EXPECT_NE(out.find("Geometry/Elements in x"), std::string::npos) << out;
  EXPECT_NE(out.find("Elements in y"), std::string::npos) << out;
  EXPECT_FALSE(std::filesystem::exists(dir)) << "work started";
}

// An entry set twice is taken silently by deal.II (the last value): the
// program warns, naming the file, both lines and the entry; a UTF-8 byte-order mark (some
// editors write one) is skipped instead of being read as part of the first line.
TEST(CommandLine, DuplicateSetLinesWarnAndByteOrderMarkIsSkipped)
{
  const std::string twice = temporary_file(
    "twice.prm", "subsection Loading\n  set Pressure = 1\n  # a comment\n  set Pressure = 3\nend\n"
                 "subsection Geometry\n  set Block length = -1\nend\n");
  const auto warnings = granular::parameter_file_warnings(twice);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("twice.prm:4: Loading/Pressure is set again (first at line 2)"),
            std::string::npos)
    << warnings[0];
  std::string out;
  EXPECT_EQ(run_executable(twice, out), 2) << out;
  EXPECT_NE(out.find("warning: "), std::string::npos) << out;
  EXPECT_NE(out.find("Loading/Pressure is set again"), std::string::npos) << out;

  const std::string bom =
    temporary_file("bom.prm", "\xEF\xBB\xBFsubsection Loading\n  set Pressure = 1.5\nend\n");
  granular::CommandLineOptions options;
  options.parameter_file = bom;
  dealii::ParameterHandler prm;
  const auto               P = granular::read_parameters(options, prm);
  EXPECT_EQ(P.loading.pressure, 1.5);
  EXPECT_EQ(granular::parameter_file_warnings(bom).size(), 1u);
}

// A retired Solver entry (CHANGES.md) set to a retired method is refused before work,
// naming the entry, the line and what replaced it; set to the method that remains (as in
// every parameters.prm an earlier build wrote) the line is ignored with a warning, and the
// run is the run without it.
TEST(CommandLine, RetiredSolverEntriesAreRefusedOrIgnored)
{
  for (const auto &[entry, retired] :
       std::vector<std::pair<std::string, std::string>>{{"Solver/Convergence test", "last increment"},
                                                        {"Solver/Sparse LU", "UMFPACK"},
                                                        {"Solver/Line search", "halving"},
                                                        {"Solver/Cut-back memory", "4"},
                                                        {"Solver/Rubber time integrator", "Bossak"},
                                                        {"Solver/Particle contact forces", "end of step"},
                                                        {"Solver/Particle contact Jacobian",
                                                         "finite differences"}})
    try
      {
        read_with({entry + "=" + retired});
        ADD_FAILURE() << entry << " = " << retired << " was accepted";
      }
    catch (const ParameterError &e)
      {
        EXPECT_EQ(e.entry(), entry) << e.what();
        EXPECT_NE(std::string(e.what()).find("retired"), std::string::npos) << e.what();
      }
  const std::string refused = temporary_file(
    "retired.prm", "subsection Loading\n  set Pressure = 1\nend\nsubsection Solver\n"
                   "  set Sparse LU = UMFPACK # the old LU\nend\n");
  try
    {
      read_with({}, refused);
      ADD_FAILURE() << "Sparse LU = UMFPACK was accepted";
    }
  catch (const ParameterError &e)
    {
      EXPECT_EQ(e.entry(), "Solver/Sparse LU") << e.what();
      EXPECT_NE(std::string(e.what()).find("retired.prm:5"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("KLU"), std::string::npos) << e.what();
    }
  // the methods that remain: ignored, with one warning per line
  const std::string kept = temporary_file(
    "kept.prm", "subsection Loading\n  set Pressure = 1.5\nend\nsubsection Solver\n"
                "  set Sparse LU = KLU\n  set Spectral radius = 0.5\n"
                "  set Convergence test = next correction\nend\n");
  EXPECT_EQ(read_with({"Solver/Line search=quadratic model"}, kept).loading.pressure, 1.5);
  const auto warnings = granular::parameter_file_warnings(kept);
  ASSERT_EQ(warnings.size(), 3u);
  EXPECT_NE(warnings[0].find("kept.prm:5: Solver/Sparse LU is retired"), std::string::npos)
    << warnings[0];
  // a parameters.prm of the Temizer 2013 reproduction, written with every entry of its
  // build, still reads
  EXPECT_NO_THROW(read_with({}, std::string(GRANULAR_SOURCE_DIR) +
                                  "/docs/validation/temizer-2013/data/points/fig6a-elastic/"
                                  "p2_v2500_tau0.0001_elliptical_d0_elastic/parameters.prm"));
}

// An output directory that holds the results of an earlier run is refused
// (exit status 2, nothing touched) unless --overwrite, which replaces them: no VTU of the first
// run is left beside the new summary.csv.
TEST(CommandLine, OutputDirectoryOfAnEarlierRunNeedsOverwrite)
{
  const std::string dir = granular::testing::scratch_directory("earlier-run");
  std::filesystem::remove_all(dir);
  const std::string prm = temporary_file(
    "tiny-bare.prm",
    "subsection Output\n  set Output directory = " + dir +
      "\n  set VTU output interval = 200\n  set Progress interval = 100\n"
      "  set Checkpoint interval = 0\nend\n"
      "subsection Geometry\n  set Elements in x = 10\n  set Elements in y = 4\nend\n"
      "subsection Loading\n  set Time step = 2e-3\n  set Averaging time = 0.5\nend\n"
      "subsection Particle\n  set Enabled = false\nend\n");
  std::string out;
  ASSERT_EQ(run_executable(prm, out), 0) << out;
  ASSERT_TRUE(std::filesystem::exists(dir + "/solution.pvd"));
  const auto history_time = std::filesystem::last_write_time(dir + "/history.csv");

  EXPECT_EQ(run_executable(prm + " --set \"Output/VTU output interval=0\"", out), 2) << out;
  EXPECT_NE(out.find("Output/Output directory"), std::string::npos) << out;
  EXPECT_NE(out.find("--overwrite"), std::string::npos) << out;
  EXPECT_EQ(std::filesystem::last_write_time(dir + "/history.csv"), history_time);
  EXPECT_TRUE(std::filesystem::exists(dir + "/solution.pvd"));

  ASSERT_EQ(run_executable(prm + " --set \"Output/VTU output interval=0\" --overwrite", out), 0)
    << out;
  EXPECT_TRUE(std::filesystem::exists(dir + "/summary.csv"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/solution.pvd"));
  for (const auto &entry : std::filesystem::directory_iterator(dir))
    EXPECT_NE(entry.path().extension(), ".vtu") << entry.path();
  std::filesystem::remove_all(dir);
}

// A garbage mesh file is invalid input: exit status 2 and a message naming
// Geometry/Mesh file (not a raw deal.II ExcIO with a stack trace, exit 1).
TEST(CommandLine, GarbageMeshFileIsRejectedNamingTheEntry)
{
  const std::string mesh = temporary_file("garbage.msh", "this is not a mesh\n1 2 3\n");
  const std::string dir  = granular::testing::scratch_directory("garbage-mesh");
  std::string       out;
  EXPECT_EQ(run_executable(std::string(GRANULAR_SOURCE_DIR) + "/params/bare-interface.prm" +
                             " --output-directory " + dir + " --set \"Geometry/Mesh file=" +
                             mesh + "\"",
                           out),
            2)
    << out;
  EXPECT_NE(out.find("Geometry/Mesh file"), std::string::npos) << out;
  EXPECT_NE(out.find("cannot be read as a Gmsh"), std::string::npos) << out;
  EXPECT_EQ(out.find("Stacktrace"), std::string::npos) << out;
  EXPECT_FALSE(std::filesystem::exists(dir));
}

// A binary file given as the mesh is rejected without echoing its bytes to
// the terminal (only printable characters, a short excerpt), and so is a text file with a
// very long first word.
TEST(CommandLine, BinaryMeshFileIsNotEchoedToTheTerminal)
{
  std::string bytes = "\x7f" "ELF\x02\x01\x01";
  for (unsigned int n = 0; n < 4 * 256; ++n)
    bytes += static_cast<char>(n % 256);
  for (const std::string &content : {bytes, std::string(5000, 'x') + "\n"})
    {
      const std::string mesh = temporary_file("binary.msh", content);
      const std::string dir  = granular::testing::scratch_directory("binary-mesh");
      std::string       out;
      EXPECT_EQ(run_executable(std::string(GRANULAR_SOURCE_DIR) + "/params/bare-interface.prm" +
                                 " --output-directory " + dir + " --set \"Geometry/Mesh file=" +
                                 mesh + "\"",
                               out),
                2)
        << out;
      EXPECT_NE(out.find("Geometry/Mesh file"), std::string::npos) << out;
      EXPECT_LT(out.size(), 600u) << out;
      EXPECT_EQ(std::count_if(out.begin(), out.end(),
                              [](const char c) { return (c < 0x20 || c >= 0x7f) && c != '\n'; }),
                0)
        << "bytes that are not printable in " << out;
      EXPECT_EQ(out.find("binary data") != std::string::npos, content == bytes) << out;
      EXPECT_FALSE(std::filesystem::exists(dir));
    }
}

// Extreme but finite values of the physical magnitudes (a slip velocity of 1e-300 mm/s, a
// pressure of 1e308 MPa) are refused before work, naming the entry and its meaningful range
// (lib/base/meaningful_ranges.cc), which the entry's documentation states; the ends of a
// range are accepted, and zero keeps its own check ("must be positive", or allowed).
TEST(Parameters, ExtremeMagnitudesAreRefusedNamingTheRange)
{
  const auto expect_out_of_range = [](const std::string &set, const std::string &entry,
                                      const std::string &range) {
    try
      {
        read_with({set});
        ADD_FAILURE() << set << " was accepted";
      }
    catch (const ParameterError &e)
      {
        EXPECT_EQ(e.entry(), entry) << e.what();
        EXPECT_NE(std::string(e.what()).find("outside the meaningful range of this entry (" +
                                             range),
                  std::string::npos)
          << e.what();
      }
  };
  expect_out_of_range("Loading/Slip velocity=1e-300", "Loading/Slip velocity", "1e-06 to 1e+07 mm/s");
  expect_out_of_range("Loading/Pressure=1e308", "Loading/Pressure", "1e-06 to 10 MPa");
  expect_out_of_range("Geometry/Block height=1e300", "Geometry/Block height", "0.001 to 10000 mm");
  expect_out_of_range("Rubber/Shear modulus=1e-200", "Rubber/Shear modulus", "1e-06 to 1e+06 MPa");
  expect_out_of_range("Rubber/Maxwell branch/Relaxation time=1e100",
                      "Rubber/Maxwell branch/Relaxation time", "1e-12 to 1e+06 s");
  expect_out_of_range("Particle/Density=1e-300", "Particle/Density", "3e-11 to 0.001 t/mm^3");
  expect_out_of_range("Contact/Rubber-surface/Normal penalty=1e300",
                      "Contact/Rubber-surface/Normal penalty", "0.001 to 1e+12 MPa/mm");
  expect_out_of_range("Contact/Particle-surface/Friction coefficient=1e10",
                      "Contact/Particle-surface/Friction coefficient", "at most 100");
  expect_out_of_range("Particle/Gravity=1e300", "Particle/Gravity", "at most 1e+09 mm/s^2");
  expect_out_of_range("Rubber/Bulk modulus ratio=1e-300", "Rubber/Bulk modulus ratio",
                      "0.1 to 1e+08");
  EXPECT_NO_THROW(read_with({"Loading/Pressure=10"}));
  EXPECT_NO_THROW(read_with({"Particle/Enabled=false", "Loading/Slip velocity=1e-6"}));
  EXPECT_NO_THROW(read_with({"Contact/Rubber-surface/Friction coefficient=0"}));
  expect_rejected({"Loading/Pressure=0"}, "Loading/Pressure");
  // the documentation of the entry states the range (docs/parameters.md)
  const std::string listing = granular::parameter_listing_json();
  EXPECT_NE(listing.find("Meaningful range: 1e-06 to 10 MPa."),
            std::string::npos);
}

// A very long run (more than 1e7 steps of Loading/Time step) needs --allow-long-run; without
// it the run is refused before work naming Loading/Time step and the number of steps; more
// than 1e8 steps are refused even with it.
TEST(CommandLine, VeryLongRunNeedsAllowLongRun)
{
  try
    {
      read_with({"Loading/Time step=1e-7"});
      ADD_FAILURE() << "a run of 4e7 steps was accepted without --allow-long-run";
    }
  catch (const ParameterError &e)
    {
      EXPECT_EQ(e.entry(), "Loading/Time step");
      EXPECT_NE(std::string(e.what()).find("= 4e+07 steps of Delta t is a very long run"),
                std::string::npos)
        << e.what();
      EXPECT_NE(std::string(e.what()).find("--allow-long-run"), std::string::npos) << e.what();
    }
  const char *argv[] = {"granular-interface", "--allow-long-run", "--set",
                        "Loading/Time step=1e-7", "--defaults"};
  const CommandLineOptions options = granular::parse_command_line(5, argv);
  EXPECT_TRUE(options.allow_long_run);
  dealii::ParameterHandler prm;
  EXPECT_NO_THROW(granular::read_parameters(options, prm));
  // the confirmation does not lift the hard limit
  CommandLineOptions too_long = options;
  too_long.set_entries        = {"Loading/Time step=1e-9"};
  dealii::ParameterHandler prm2;
  EXPECT_THROW(granular::read_parameters(too_long, prm2), ParameterError);
  EXPECT_NO_THROW(read_with({"Loading/Time step=1e-6"})); // 4e6 steps: no confirmation
  EXPECT_NE(granular::usage_text().find("--allow-long-run"), std::string::npos);
}

// A parameter file that includes itself, directly or through another file, is refused
// naming the include line (deal.II's reader would include it until the stack overflows:
// the programs ended with SIGSEGV and nothing on stderr); an include of another file is
// read.
TEST(CommandLine, ParameterFileThatIncludesItselfIsRejectedNamingTheLine)
{
  const std::string dir = granular::testing::scratch_directory("include-cycle");
  std::filesystem::create_directories(dir);
  const std::string a = dir + "/a.prm", b = dir + "/b.prm", c = dir + "/c.prm";
  std::ofstream(a) << "subsection Loading\n  set Pressure = 1\nend\ninclude " << a << "\n";
  std::ofstream(b) << "# through another file\ninclude " << c << "\n";
  std::ofstream(c) << "subsection Loading\n  set Pressure = 1\nend\n  include " << b
                   << "  # back\n";
  const auto expect_rejected = [](const std::string &file, const std::string &where,
                                  const std::string &why) {
    dealii::ParameterHandler     prm;
    granular::CommandLineOptions options;
    options.parameter_file = file;
    try
      {
        granular::read_parameters(options, prm);
        ADD_FAILURE() << file << " was accepted";
      }
    catch (const granular::ParameterError &e)
      {
        EXPECT_EQ(e.entry(), where) << e.what();
        EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
      }
  };
  expect_rejected(a, a + ":4", "reads this file itself");
  expect_rejected(b, c + ":4", "reads a file that includes this one");
  // the same with the executable: exit status 2 and the line on stderr
  std::string out;
  EXPECT_EQ(run_executable(a + " --check", out), 2) << out;
  EXPECT_NE(out.find(a + ":4"), std::string::npos) << out;
  // an include without a cycle is read
  const std::string d = dir + "/d.prm";
  std::ofstream(d) << "include " << std::string(GRANULAR_SOURCE_DIR)
                   << "/params/bare-interface.prm\nsubsection Loading\n  set Pressure = 1.5\nend\n";
  dealii::ParameterHandler     prm;
  granular::CommandLineOptions options;
  options.parameter_file = d;
  EXPECT_DOUBLE_EQ(granular::read_parameters(options, prm).loading.pressure, 1.5);
}

// A mesh file that is not a regular file (a FIFO: reading it would block, /dev/zero would
// be read without end) is refused naming Geometry/Mesh file, before anything is read.
TEST(CommandLine, MeshFileThatIsNotARegularFileIsRejected)
{
  const std::string dir = granular::testing::scratch_directory("fifo-mesh");
  std::filesystem::create_directories(dir);
  const std::string fifo = dir + "/mesh.msh";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string &mesh : {fifo, std::string("/dev/zero")})
    {
      std::string out;
      EXPECT_EQ(run_executable(std::string(GRANULAR_SOURCE_DIR) + "/params/bare-interface.prm" +
                                 " --check --set \"Geometry/Mesh file=" + mesh + "\"",
                               out),
                2)
        << out;
      EXPECT_NE(out.find("Geometry/Mesh file"), std::string::npos) << out;
      EXPECT_NE(out.find("is not a regular file"), std::string::npos) << out;
    }
}

// The memory a mesh needs is estimated as a run measures it (about 12 kB per cell; 4 kB
// let a mesh pass --check that would be killed by the system): a mesh of 8 kB per cell of
// this machine's memory is refused by --check, naming the entries, before any allocation.
TEST(CommandLine, MeshThatCannotFitIsRefusedByCheck)
{
  const double memory = double(::sysconf(_SC_PHYS_PAGES)) * double(::sysconf(_SC_PAGESIZE));
  const unsigned int n = static_cast<unsigned int>(std::sqrt(memory / 8192.));
  EXPECT_GT(granular::run_memory_estimate(double(n) * n), memory);
  EXPECT_NEAR(granular::run_memory_estimate(16000.) / 344e6, 1., 0.1);
  EXPECT_NEAR(granular::run_memory_estimate(64000.) / 916e6, 1., 0.1);
  std::string out;
  EXPECT_EQ(run_executable(std::string(GRANULAR_SOURCE_DIR) + "/params/bare-interface.prm" +
                             " --check --set \"Geometry/Elements in x=" + std::to_string(n) +
                             "\" --set \"Geometry/Elements in y=" + std::to_string(n) + "\"",
                           out),
            2)
    << out;
  EXPECT_NE(out.find("Geometry/Elements in"), std::string::npos) << out;
  EXPECT_NE(out.find("GB of memory"), std::string::npos) << out;
}

// --check answers as the run would: it refuses (exit status 2, naming what) a fresh run into
// a directory with an earlier run's results, a sweep into a single run's directory, and a
// --restart without a usable checkpoint, where it answered "valid"; it touches nothing.
TEST(CommandLine, CheckRefusesWhatTheRunWouldRefuse)
{
  const std::string dir = granular::testing::scratch_directory("check-directory");
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/summary.csv") << "kbar\n0.5\n";
  const std::string bare = std::string(GRANULAR_SOURCE_DIR) + "/params/bare-interface.prm";
  std::string       out;
  EXPECT_EQ(run_executable(bare + " --check --output-directory " + dir, out), 2) << out;
  EXPECT_NE(out.find("holds the results of an earlier run"), std::string::npos) << out;
  EXPECT_EQ(run_executable(bare + " --check --overwrite --output-directory " + dir, out), 0)
    << out;
  EXPECT_EQ(run_executable(bare + " --check --set \"Sweep/Pressures=1, 2\" --output-directory " +
                             dir,
                           out),
            2)
    << out;
  EXPECT_NE(out.find("holds the results of a single run"), std::string::npos) << out;
  EXPECT_EQ(run_executable(bare + " --check --restart --output-directory " + dir, out), 2) << out;
  EXPECT_NE(out.find("--restart"), std::string::npos) << out;
  EXPECT_NE(out.find("checkpoint.bin"), std::string::npos) << out;
  std::ofstream(dir + "/checkpoint.bin") << "not a checkpoint";
  EXPECT_EQ(run_executable(bare + " --check --restart --output-directory " + dir, out), 2) << out;
  EXPECT_EQ(granular::testing::read_file(dir + "/summary.csv"), "kbar\n0.5\n");
}
