// The energy ledger per component (docs/methods.md §2.2, coupling/energy_ledger.h): its
// remainders add up to the run's energy-balance residual on the reduced cell, with the
// ellipse and on the bare interface, and the trapezoidal work of a single Hertz contact
// creates or loses the energy the closed forms say.
#include "contact/contact_parameters.h"
#include "coupling/micromechanical_run.h"
#include "dem/particle.h"
#include "program/command_line.h"

#include <deal.II/base/parameter_handler.h>

#include "test_helpers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using granular::testing::vec;

namespace
{
  /// energy.csv of the reduced cell (L0 = 3 mm, 12 x 6, Δt = 5e-4 T0, window 0.25 T0) of
  /// params/default.prm (the ellipse at 2 MPa) with @p extra entries.
  granular::testing::CsvTable run_reduced_cell(const std::string              &name,
                                               const std::vector<std::string> &extra)
  {
    granular::CommandLineOptions options;
    options.parameter_file   = std::string(GRANULAR_SOURCE_DIR) + "/params/default.prm";
    options.output_directory = granular::testing::scratch_directory(name);
    options.set_entries = {"Geometry/Block length=3",      "Geometry/Block height=1.5",
                           "Geometry/Elements in x=12",    "Geometry/Elements in y=6",
                           "Loading/Time step=5e-4",       "Loading/Averaging time=0.25",
                           "Output/VTU output interval=0", "Output/Progress interval=1000",
                           "Output/Checkpoint interval=0"};
    options.set_entries.insert(options.set_entries.end(), extra.begin(), extra.end());
    dealii::ParameterHandler prm;
    const auto               parameters = granular::read_parameters(options, prm);
    granular::run_micromechanical_test(parameters, prm);
    return granular::testing::read_csv(options.output_directory + "/energy.csv");
  }

  const char *const components[4] = {"bulk", "rubber_surface", "rubber_particle",
                                     "particle_surface"};

  /// The ledger's identity at every row: -balance = sum of the remainders R (platen
  /// included), to 1e-7 of the platen's final work (the Newton tolerance's order); returns
  /// the final row.
  std::vector<double> expect_identity(const granular::testing::CsvTable &e)
  {
    EXPECT_GT(e.rows.size(), 100u);
    const double scale = std::abs(e.rows.back()[e.column("platen_work")]);
    const double tol   = 1e-7 * scale;
    double       worst = 0.;
    for (const auto &row : e.rows)
      {
        double sum = row[e.column("R_platen")];
        for (const char *c : components)
          {
            const std::string C = c;
            // R = W + ΔE + D as written (12 digits)
            const double W = row[e.column("W_" + C)], dE = row[e.column("dE_" + C)],
                         D = row[e.column("D_" + C)];
            EXPECT_NEAR(row[e.column("R_" + C)], W + dE + D,
                        1e-11 * (std::abs(W) + std::abs(dE) + std::abs(D)));
            sum += row[e.column("R_" + C)];
          }
        worst = std::max(worst, std::abs(sum + row[e.column("balance")]));
      }
    std::cout << "[ ledger  ] max |sum R + balance| / platen work = " << worst / scale
              << ", final balance / platen work = "
              << e.rows.back()[e.column("balance")] / scale << std::endl;
    EXPECT_LT(worst, tol);
    return e.rows.back();
  }

  /// The largest |R| of @p component ("particle_surface", ...) over the rows of @p e.
  double largest_remainder(const granular::testing::CsvTable &e, const std::string &component)
  {
    double worst = 0.;
    for (const auto &row : e.rows)
      worst = std::max(worst, std::abs(row[e.column("R_" + component)]));
    return worst;
  }
} // namespace

// The ellipse at 2 MPa, squeezed between the rubber and the surface and rolling over its
// ends. The remainders of the bulk, the rubber-particle contact and the platen are each more
// than ten times the identity's tolerance (1e-7 of the work), so the identity fails if one
// of them is left out; the
// discrete-gradient particle-surface contact (docs/methods.md §5.4) does work, stores and
// dissipates energy, but creates none (the end-of-step evaluation it replaced created about
// 2 % of the platen's work here, docs/results/energy-ledger.md).
TEST(EnergyLedger, RemaindersAddUpAndTheParticleContactCreatesNoEnergyWithTheEllipse)
{
  const auto   e     = run_reduced_cell("ledger-ellipse", {});
  const auto   last  = expect_identity(e);
  const double scale = std::abs(last[e.column("platen_work")]);
  for (const char *c : {"R_bulk", "R_rubber_particle", "R_platen"})
    EXPECT_GT(std::abs(last[e.column(c)]), 10. * 1e-7 * scale) << c;
  // the particle carries the block here: the rubber never touches the surface
  EXPECT_EQ(last[e.column("W_rubber_surface")], 0.);
  // friction and damping only dissipate, and each conservative part is close to -W
  for (const char *c : components)
    EXPECT_GE(last[e.column(std::string("D_") + c)], 0.) << c;
  EXPECT_NEAR(-last[e.column("W_bulk")], last[e.column("dE_bulk")], 1e-3 * scale);
  const double worst = largest_remainder(e, "particle_surface");
  std::cout << "[ ledger  ] particle-surface contact: largest |R| / platen work = "
            << worst / scale << ", W = " << last[e.column("W_particle_surface")] / scale
            << ", D = " << last[e.column("D_particle_surface")] / scale << std::endl;
  EXPECT_LT(worst, 1e-9 * scale);
  EXPECT_GT(std::abs(last[e.column("W_particle_surface")]), 1e-3 * scale);
  EXPECT_GT(last[e.column("D_particle_surface")], 1e-4 * scale);
  // the balance now closes to what the rubber-particle penalty contact loses
  EXPECT_LT(std::abs(last[e.column("balance")]), 1e-2 * scale);
}

// The same ellipse with the rubber-particle contact's step force as well (Solver/Rubber-
// particle contact forces = discrete gradient, docs/methods.md §5.5): the rubber-particle
// contact, whose end-of-step tractions lose about 0.4 % of the platen's work here where the
// rubber's points snap around the ellipse's ends (docs/results/energy-ledger.md), creates and
// loses nothing at any row, and the run's balance closes to 1e-3 of the work.
TEST(EnergyLedger, TheRubberParticleStepForceLosesNothingWhenTheEllipseRollsOver)
{
  const auto e = run_reduced_cell("ledger-ellipse-rubber-dg",
                                  {"Solver/Rubber-particle contact forces=discrete gradient"});
  const auto   last  = expect_identity(e);
  const double scale = std::abs(last[e.column("platen_work")]);
  const double worst = largest_remainder(e, "rubber_particle");
  std::cout << "[ ledger  ] rubber-particle contact: largest |R| / platen work = "
            << worst / scale << ", W = " << last[e.column("W_rubber_particle")] / scale
            << ", D = " << last[e.column("D_rubber_particle")] / scale
            << "; balance / platen work = " << last[e.column("balance")] / scale << std::endl;
  EXPECT_LT(worst, 1e-9 * scale);
  EXPECT_GT(std::abs(last[e.column("W_rubber_particle")]), 1e-3 * scale);
  EXPECT_LT(std::abs(last[e.column("balance")]), 1e-3 * scale);
}

// The bare interface: no particle terms; the rubber-surface contact and the bulk close it.
// The contact's points stay in contact on the linear normal penalty, whose trapezoidal
// work is its energy, and its Coulomb dissipation is counted by the trapezoidal rule
// (rubber_surface_step_dissipation()), so it creates and loses nothing (the backward-Euler
// count |t_T,n+1| Delta anchor left 7e-5 of the platen's work here).
TEST(EnergyLedger, RemaindersAddUpToTheBalanceOnTheBareInterface)
{
  const auto e    = run_reduced_cell("ledger-bare", {"Particle/Enabled=false",
                                                     "Loading/Averaging time=0.05"});
  const auto last = expect_identity(e);
  for (const char *c : {"W_rubber_particle", "dE_rubber_particle", "D_rubber_particle",
                        "W_particle_surface", "dE_particle_surface", "D_particle_surface"})
    EXPECT_EQ(last[e.column(c)], 0.) << c;
  const double scale = std::abs(last[e.column("platen_work")]);
  // the rubber slides on the surface: nearly all of the platen's work is Coulomb slip
  EXPECT_GT(last[e.column("D_rubber_surface")], 0.5 * scale);
  const double worst = largest_remainder(e, "rubber_surface");
  std::cout << "[ ledger  ] rubber-surface contact: largest |R| / platen work = "
            << worst / scale << std::endl;
  EXPECT_LT(worst, 1e-8 * scale);
}

namespace
{
  using namespace granular;

  /// An undamped, frictionless Hertz contact of a disc (r0 = 0.5 mm, no gravity).
  struct HertzDisc
  {
    static constexpr double r0 = 0.5, k = 1e5, L0 = 10.;
    const geometry::SuperellipseShape shape = geometry::SuperellipseShape::named("circular", r0);
    ParticleSurfaceContactParameters  contact;
    double                            m = 3e-9 * std::acos(-1.) * r0 * r0;

    HertzDisc()
    {
      contact.normal_stiffness     = k;
      contact.damping              = 0.;
      contact.friction_coefficient = 0.;
    }
    /// The particle with its lowest point at height @p gap (> 0: above the surface).
    dem::Particle at(const double gap, const double gravity = 0.) const
    {
      dem::ParticleState s = dem::Particle::initial_state_resting(shape, 0., 0.5 * L0);
      s.centre[1] += gap;
      return dem::Particle(shape, m, 0.5 * m * r0 * r0, gravity, contact, s, L0);
    }
    /// The implicit (monolithic) step of @p p to the lowest point's height @p gap.
    void step_to(dem::Particle &p, const double gap) const
    {
      const double dt = 1e-6;
      const double dy = gap - p.surface_contact().contact_point[1];
      Tensor<1, 2> c  = p.state().centre;
      c[1] += dy;
      const auto r = contact::particle_surface_contact(
        p.geometry(), p.normal_law(), contact, {c, vec(0., dy / dt), 0., 0.},
        p.surface_contact().history, dt, vec(0., dy), 0., p.geometry().lowest_point(0.));
      p.accept_step(dt, vec(0., dy), 0., vec(0., dy / dt), 0., r, 0.);
    }
    /// R = W + ΔE + D of the contact since @p E0 (its energy at the start).
    static double created(const dem::Particle &p, const double E0)
    {
      return p.surface_work() + p.contact_energy() - E0 + p.friction_dissipation() +
             p.damping_dissipation();
    }
  };
} // namespace

// A contact that closes inside a step: the trapezoidal work (0 + F_1)/2 (g_0 + d_1) the
// particle loses exceeds the energy (2/5) F_1 d_1 the Hertz potential stores, so the step
// loses F_1 (g_0/2 + d_1/10); the step that opens it again creates the same. A contact that
// closes from a small gap and opens to a large one therefore creates energy.
TEST(EnergyLedger, TrapezoidalWorkOfAHertzContactClosingAndOpening)
{
  const HertzDisc disc;
  const double    d1 = 1e-4, g0 = 5e-5, g2 = 2e-4; // mm
  const double    F1 = HertzDisc::k * std::pow(d1, 1.5);
  dem::Particle   p  = disc.at(g0);
  ASSERT_EQ(p.contact_energy(), 0.);
  disc.step_to(p, -d1); // closes
  EXPECT_NEAR(p.surface_contact().normal_force, F1, 1e-9 * F1);
  EXPECT_NEAR(p.contact_energy(), 0.4 * F1 * d1, 1e-9 * F1 * d1);
  const double closing = HertzDisc::created(p, 0.);
  EXPECT_NEAR(closing, -F1 * (0.5 * g0 + 0.1 * d1), 1e-9 * F1 * d1);
  disc.step_to(p, g2); // opens to a larger gap
  EXPECT_EQ(p.contact_energy(), 0.);
  const double opening = HertzDisc::created(p, 0.) - closing;
  EXPECT_NEAR(opening, F1 * (0.5 * g2 + 0.1 * d1), 1e-9 * F1 * d1);
  EXPECT_GT(closing + opening, 0.); // net energy created: F1 (g2 - g0) / 2
  EXPECT_NEAR(closing + opening, 0.5 * F1 * (g2 - g0), 1e-9 * F1 * d1);
}

// The explicit particle (velocity Verlet, one sub-step per call): an undamped bounce under
// gravity from free flight to free flight gains or loses exactly the energy the ledger's
// particle-surface remainder says (the integrator's own term M h^2 (a_1^2 - a_0^2) / 8
// telescopes to zero between two instants of free flight).
TEST(EnergyLedger, ExplicitBounceGainsWhatTheContactCreates)
{
  const HertzDisc disc;
  const double    g = 9810., h0 = 0.01;
  dem::Particle   p = disc.at(h0, g);
  const auto energy = [](const dem::Particle &q) {
    return q.kinetic_energy() + q.gravitational_energy() + q.contact_energy();
  };
  const double E0 = energy(p);
  bool         touched = false;
  double       t = 0.;
  const double dt = 3e-7, t_fall = std::sqrt(2. * h0 / g);
  while (t < 2.2 * t_fall)
    {
      ASSERT_EQ(p.advance(dt, vec(0., 0.), 0.), 1u);
      t += dt;
      touched = touched || p.surface_contact().in_contact;
    }
  ASSERT_TRUE(touched);
  ASSERT_FALSE(p.surface_contact().in_contact);
  const double R = HertzDisc::created(p, 0.);
  std::cout << "[ bounce  ] created by the contact " << R / (p.mass() * g * h0)
            << " m g h0, energy change " << (energy(p) - E0) / (p.mass() * g * h0) << " m g h0"
            << std::endl;
  EXPECT_GT(std::abs(R), 1e-9 * p.mass() * g * h0);
  EXPECT_NEAR(energy(p) - E0, R, 1e-9 * p.mass() * g * h0);
}
