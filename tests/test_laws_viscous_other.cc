// Contact-law library, docs/contact-law-catalogue.md §5 F1–F6 (material-viscosity and d^1/4-damped
// laws, material_viscosity.cc) and H1–H4 (other approaches, other_approaches.cc): closed forms,
// continuity at first contact, the zero-damping limits, the dissipative constants of
// Brilliantov/Zheng against hand-evaluated formulas and the Kelvin–Voigt consistency of their
// readings, Jankowski's two damping ratios, Choi's force floor, Xiong's internal variable
// (quasi-static limit, residual indentation), Jian's relaxing damping, stored energies.
// Units mm–s–N–t–MPa.
#include "contact/laws/contact_law.h"

#include <boost/math/quadrature/tanh_sinh.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace
{
  namespace laws = granular::contact::laws;
  using granular::contact::NormalContactHistory;
  using Law = std::shared_ptr<const laws::ContactLaw>;

  constexpr double pi = 3.14159265358979323846;

  /// Steel ball on a steel specimen (docs/contact-law-catalogue.md §8 S2, C1, in mm–t–s–MPa).
  laws::ContactData
  steel_ball()
  {
    laws::ContactData d;
    d.stiffness        = 7.77920e5; // N/mm^1.5
    d.effective_mass   = 5.4e-4;    // t
    d.effective_radius = 25.4;      // mm
    d.youngs_modulus   = 2.1e5;     // MPa
    d.poisson_ratio    = 0.3;
    return d;
  }

  /// An active contact history with internal variable @p alpha and contact time @p t.
  NormalContactHistory
  history(const double alpha = 0., const double t = 0.)
  {
    NormalContactHistory h;
    h.active            = true;
    h.approach_velocity = 100.;
    h.internal_variable = alpha;
    h.contact_time      = t;
    return h;
  }

  /// chi of a law F = K d^1.5 + chi sqrt(d) d' from two evaluations at (d, d') and (d, 0).
  double
  chi_of(const Law &law, const double d = 0.04, const double d_dot = 250.)
  {
    const auto h = history();
    return (law->force(d, d_dot, h) - law->force(d, 0., h)) / (std::sqrt(d) * d_dot);
  }

  double
  hertz(const double K, const double d)
  {
    return K * std::pow(d, 1.5);
  }
} // namespace

// ------------------------------------------------------------------------------------------
// F1: chi = 2 sqrt(R_eff)/D0; for xi = eta = v each body's term of D0 is 64 v^2/(144 v^3) =
// 4/(9 v), so chi = 4.5 v sqrt(R) against a rigid wall and 2.25 v sqrt(R) for two equal bodies.
TEST(MaterialViscosityLaws, KuwabaraKonoHysteresisFactorByHand)
{
  laws::ContactData data = steel_ball();
  data.effective_radius  = 16.; // sqrt = 4
  const double v         = 1e-3;
  const auto   wall      = laws::make_law("kuwabara_kono",
                                   {{"Bulk viscosity", v}, {"Shear viscosity", v}}, data);
  EXPECT_NEAR(chi_of(wall), 0.018, 1e-12 * 0.018);
  const auto pair = laws::make_law("kuwabara_kono",
                                   {{"Bulk viscosity", v},
                                    {"Shear viscosity", v},
                                    {"Bulk viscosity of the second body", v},
                                    {"Shear viscosity of the second body", v}},
                                   data);
  EXPECT_NEAR(chi_of(pair), 0.009, 1e-12 * 0.009);
  // full closed form at one state, F = K d^1.5 + chi d^0.5 d'
  EXPECT_NEAR(wall->force(0.09, -40., history()),
              hertz(data.stiffness, 0.09) + 0.018 * 0.3 * -40.,
              1e-12 * hertz(data.stiffness, 0.09));
  // the OCR numerator 27 xi^2 + 42 xi eta - 5 eta^2 is negative for xi = eta/10: rejected
  EXPECT_THROW(laws::make_law("kuwabara_kono",
                              {{"Bulk viscosity", 0.1 * v}, {"Shear viscosity", v}}, data),
               std::invalid_argument);
}

// F2: A = (1/3)(3 xi - eta)^2/(3 xi + 2 eta) (1 - nu^2)(1 - 2 nu)/(E nu^2) with xi = 2,
// eta = 1 MPa s, E = 1000 MPa, nu = 0.3: (25/24)(0.364/90) = 9.1/2160 s.
TEST(MaterialViscosityLaws, BrilliantovDissipativeConstantByHand)
{
  laws::ContactData data = steel_ball();
  data.stiffness         = 100.;
  data.youngs_modulus    = 1000.;
  data.poisson_ratio     = 0.3;
  const auto law = laws::make_law("brilliantov_1996",
                                  {{"Bulk viscosity", 2.}, {"Shear viscosity", 1.}}, data);
  const double A = 0.004212962962962963;
  EXPECT_NEAR(chi_of(law), 1.5 * 100. * A, 1e-12 * 1.5 * 100. * A);
}

// A given directly replaces the viscosities and makes E and nu unnecessary (F2, F4); with
// A = 0 the law needs them and says which datum is missing.
TEST(MaterialViscosityLaws, DissipativeConstantGivenDirectly)
{
  laws::ContactData data;
  data.stiffness = 2e4;
  for (const std::string id : {"brilliantov_1996", "brilliantov_generalized"})
    {
      const auto law = laws::make_law(id, {{"Dissipative constant", 3e-5}}, data);
      EXPECT_NEAR(chi_of(law), 1.5 * 2e4 * 3e-5, 1e-12) << id;
      try
        {
          laws::make_law(id, {}, data);
          ADD_FAILURE() << id << " made without E and nu";
        }
      catch (const std::invalid_argument &e)
        {
          EXPECT_NE(std::string(e.what()).find("Young's modulus"), std::string::npos)
            << e.what();
        }
    }
}

// F3: chi = 2 A E/(1 - nu^2) sqrt(R_eff) equals 1.5 K A for a sphere on a rigid plane,
// K = (4/3) E/(1 - nu^2) sqrt(R_eff); A = (1 - 2 nu)(1 + nu)/E (2 xi + eta/3) by hand:
// xi = 2e-3, eta = 1e-3 MPa s, E = 2.1e5 MPa, nu = 0.3 -> 0.52/2.1e5 * 4.3333e-3 s.
TEST(MaterialViscosityLaws, ZhengHysteresisFactorIsOnePointFiveKAOnARigidPlane)
{
  laws::ContactData data = steel_ball();
  data.stiffness         = 4. / 3. * 2.1e5 / (1. - 0.09) * std::sqrt(25.4);
  const auto   law       = laws::make_law("zheng_et_al",
                                  {{"Bulk viscosity", 2e-3}, {"Shear viscosity", 1e-3}}, data);
  const double A         = 1.073015873015873e-08;
  EXPECT_NEAR(chi_of(law), 1.5 * data.stiffness * A, 1e-12 * 1.5 * data.stiffness * A);
}

// Kelvin–Voigt material with proportional viscosities xi = tau Kb, eta = tau G: by the
// correspondence principle F = K (d^1.5 + tau d(d^1.5)/dt), i.e. A = tau. F4's reading of the
// (1 + nu)/(1 - nu) grouping gives exactly tau for every nu; F3's reading (2 xi + eta/3) gives
// tau (5 + 2 nu)/6 (tau at nu = 1/2; the other reading (2 xi + eta)/3 would give tau/3 there).
TEST(MaterialViscosityLaws, ReadingsAgreeWithKelvinVoigtForProportionalViscosities)
{
  const double tau = 2e-5, E = 1000.;
  for (const double nu : {0.1, 0.25, 0.3, 0.45, 0.4999})
    {
      laws::ContactData data = steel_ball();
      data.youngs_modulus    = E;
      data.poisson_ratio     = nu;
      data.stiffness         = 4. / 3. * E / (1. - nu * nu) * std::sqrt(data.effective_radius);
      const double G = E / (2. * (1. + nu)), Kb = E / (3. * (1. - 2. * nu));
      const laws::LawValues v = {{"Bulk viscosity", tau * Kb}, {"Shear viscosity", tau * G}};
      const double K          = data.stiffness;
      EXPECT_NEAR(chi_of(laws::make_law("brilliantov_generalized", v, data)) / (1.5 * K), tau,
                  1e-10 * tau)
        << nu;
      EXPECT_NEAR(chi_of(laws::make_law("zheng_et_al", v, data)) / (1.5 * K),
                  tau * (5. + 2. * nu) / 6., 1e-10 * tau)
        << nu;
    }
}

// Scaling all viscosities by s scales the damping term by s (chi is linear in them): the
// inviscid limit is Hertz, and the damping is not negligible at s = 1.
TEST(MaterialViscosityLaws, ViscosityToZeroGivesHertz)
{
  const laws::ContactData data = steel_ball();
  const double            d = 0.02, d_dot = 500.;
  for (const std::string id :
       {"kuwabara_kono", "brilliantov_1996", "zheng_et_al", "brilliantov_generalized"})
    {
      const auto make = [&](const double s) {
        laws::LawValues v = {{"Bulk viscosity", 3e-2 * s}, {"Shear viscosity", 1e-2 * s}};
        if (id == "kuwabara_kono")
          {
            v["Bulk viscosity of the second body"]  = 2e-2 * s;
            v["Shear viscosity of the second body"] = 2e-2 * s;
          }
        return laws::make_law(id, v, data);
      };
      const double F_hertz = hertz(data.stiffness, d);
      const double damp_1  = make(1.)->force(d, d_dot, history()) - F_hertz;
      const double damp_s  = make(1e-9)->force(d, d_dot, history()) - F_hertz;
      EXPECT_GT(damp_1, 1e-3 * F_hertz) << id;
      EXPECT_NEAR(damp_s, 1e-9 * damp_1, 1e-14 * F_hertz) << id;
      EXPECT_NEAR(make(1e-9)->force(d, -d_dot, history()), F_hertz, 1e-8 * F_hertz) << id;
    }
}

// ------------------------------------------------------------------------------------------
TEST(QuarterPowerDampingLaws, TsujiClosedForm)
{
  const laws::ContactData data = steel_ball();
  const auto   law = laws::make_law("tsuji", {{"Damping constant", 0.3}}, data);
  const double d = 0.0016, root4 = 0.2; // d^(1/4)
  const double D = 0.3 * std::sqrt(data.effective_mass * data.stiffness) * root4;
  for (const double d_dot : {-300., 0., 450.})
    EXPECT_NEAR(law->force(d, d_dot, history()), hertz(data.stiffness, d) + D * d_dot,
                1e-12 * hertz(data.stiffness, d));
}

// Jankowski: damping only in compression (default flag), xi_bar by the second formula,
// (9 sqrt(5)/2)(1 - c_r^2)/(c_r (c_r (9 pi - 16) + 16)) = 0.2981090814836885 at c_r = 0.7.
TEST(QuarterPowerDampingLaws, JankowskiDampsOnlyInCompression)
{
  const laws::ContactData data = steel_ball();
  const auto   law = laws::make_law("jankowski", {{"Coefficient of restitution", 0.7}}, data);
  const double d = 0.0016, root4 = 0.2;
  const double F_h = law->force(d, 0., history()); // K d^1.5 (no damping at d' = 0)
  EXPECT_NEAR(F_h, hertz(data.stiffness, d), 1e-14 * F_h);
  const double D = 2. * 0.2981090814836885 * std::sqrt(data.stiffness * data.effective_mass);
  EXPECT_NEAR(law->force(d, 300., history()), F_h + D * root4 * 300., 1e-12 * F_h);
  for (const double d_dot : {-1e-3, -300., -1e5})
    EXPECT_EQ(law->force(d, d_dot, history()), F_h) << d_dot;
  // the first formula sqrt(5)(1 - c_r^2)/(2 pi c_r) = 0.25928492653054314 by the flag
  const auto first = laws::make_law(
    "jankowski", {{"Coefficient of restitution", 0.7}, {"Approximate damping ratio", 1.}}, data);
  const double D1 = 2. * 0.25928492653054314 * std::sqrt(data.stiffness * data.effective_mass);
  EXPECT_NEAR(first->force(d, 300., history()), F_h + D1 * root4 * 300., 1e-12 * F_h);
}

// The two damping ratios differ (ratio 9 pi/(c_r (9 pi - 16) + 16)) but agree as c_r -> 1:
// the ratio minus 1 is (1 - c_r)(9 pi - 16)/(9 pi) + O((1 - c_r)^2).
TEST(QuarterPowerDampingLaws, JankowskiDampingRatiosAgreeAsRestitutionTendsToOne)
{
  const laws::ContactData data = steel_ball();
  const auto damping = [&](const double c_r, const bool approximate) {
    const auto law = laws::make_law("jankowski",
                                    {{"Coefficient of restitution", c_r},
                                     {"Approximate damping ratio", approximate ? 1. : 0.}},
                                    data);
    return law->force(0.01, 100., history()) - hertz(data.stiffness, 0.01);
  };
  EXPECT_GT(damping(0.5, false) / damping(0.5, true) - 1., 0.25);
  const double slope = (9. * pi - 16.) / (9. * pi);
  for (const double eps : {1e-2, 1e-3, 1e-4})
    {
      const double excess = damping(1. - eps, false) / damping(1. - eps, true) - 1.;
      EXPECT_NEAR(excess / eps, slope, 2. * slope * eps) << eps;
    }
}

// ------------------------------------------------------------------------------------------
// Choi: F = max(K d^m_s + D d^m_i |d'|^m_d sign(d'), R_c K d^m_s) and never below the floor.
TEST(OtherApproachesLaws, ChoiClosedFormAndReboundFloor)
{
  laws::ContactData data;
  data.stiffness              = 5e4;
  const laws::LawValues v     = {{"Elastic exponent", 1.5},
                                 {"Damping coefficient", 50.},
                                 {"Damping exponent", 1.2},
                                 {"Rate exponent", 0.8},
                                 {"Rebound force coefficient", 0.3}};
  const auto            law   = laws::make_law("choi", v, data);
  int                   below = 0, above = 0;
  for (const double d : {1e-4, 3e-3, 0.05, 0.4})
    for (double d_dot = -1e6; d_dot <= 1e6; d_dot += 1e6 / 64.)
      {
        const double spring = 5e4 * std::pow(d, 1.5), floor = 0.3 * spring;
        const double raw    = spring + (d_dot > 0. ? 1. : (d_dot < 0. ? -1. : 0.)) * 50. *
                                       std::pow(d, 1.2) * std::pow(std::abs(d_dot), 0.8);
        const double F = law->force(d, d_dot, history());
        EXPECT_GE(F, floor * (1. - 1e-14)) << d << ' ' << d_dot;
        EXPECT_NEAR(F, std::max(raw, floor), 1e-12 * std::abs(raw) + 1e-300);
        (raw < floor ? below : above) += 1;
      }
  EXPECT_GT(below, 0); // the sweep reaches the floor ...
  EXPECT_GT(above, 0); // ... and the unfloored law
}

// Roy–Carretero: F = k_v V + c_v V', V = pi d^2 (R - d/3), k_v = E1 E2/(R2 E1 + R1 E2),
// c_v = D1 D2/(R2 D1 + R1 D2); V' = dV/dd d' (checked against central differences of the
// undamped law's V), and the symmetric damping form is invariant under exchanging the bodies.
TEST(OtherApproachesLaws, RoyCarreteroVolumetricClosedForm)
{
  laws::ContactData data;
  data.effective_radius = 7.5;
  laws::LawValues v     = {{"Young's modulus of body 1", 2e5},
                           {"Young's modulus of body 2", 7e4},
                           {"Radius of body 1", 10.},
                           {"Radius of body 2", 30.},
                           {"Damping parameter of body 1", 2.},
                           {"Damping parameter of body 2", 5.}};
  const auto   law = laws::make_law("roy_carretero", v, data);
  const double k_v = 2e5 * 7e4 / (30. * 2e5 + 10. * 7e4), c_v = 10. / (30. * 2. + 10. * 5.);
  const double d = 0.05, d_dot = 80.;
  const double V = pi * d * d * (7.5 - d / 3.), V_prime = pi * d * (15. - d);
  EXPECT_NEAR(law->force(d, d_dot, history()), k_v * V + c_v * V_prime * d_dot,
              1e-12 * k_v * V);

  laws::LawValues undamped                = v;
  undamped["Damping parameter of body 1"] = 0.;
  const auto   elastic                    = laws::make_law("roy_carretero", undamped, data);
  const double e                          = 1e-5 * d;
  const double dV_fd = (elastic->force(d + e, 0., history()) -
                        elastic->force(d - e, 0., history())) / (2. * e * k_v);
  EXPECT_NEAR(law->force(d, d_dot, history()) - law->force(d, 0., history()),
              c_v * dV_fd * d_dot, 1e-8 * c_v * V_prime * d_dot);
  EXPECT_NEAR(elastic->force(d, d_dot, history()), k_v * V, 1e-12 * k_v * V);

  laws::LawValues swapped = {{"Young's modulus of body 1", 7e4},
                             {"Young's modulus of body 2", 2e5},
                             {"Radius of body 1", 30.},
                             {"Radius of body 2", 10.},
                             {"Damping parameter of body 1", 5.},
                             {"Damping parameter of body 2", 2.}};
  EXPECT_NEAR(laws::make_law("roy_carretero", swapped, data)->force(d, d_dot, history()),
              law->force(d, d_dot, history()), 1e-12 * k_v * V);
}

// Xiong: on both branches of alpha' the force satisfies the differential–algebraic relation
// F = K alpha + K (1/gamma + beta1 + beta2 alpha) alpha' of S002 eq.(5.81).
TEST(OtherApproachesLaws, XiongForceSatisfiesTheDifferentialAlgebraicRelation)
{
  laws::ContactData data;
  data.stiffness                = 1e3;
  const double          gamma   = 1e5, beta1 = 2e-5, beta2 = 1e-3;
  const laws::LawValues v       = {{"Elastic exponent", 1.5},
                                   {"Damping parameter beta1", beta1},
                                   {"Damping parameter beta2", beta2},
                                   {"Rate constant gamma", gamma}};
  const auto            law     = laws::make_law("xiong", v, data);
  int                   zero    = 0, positive = 0;
  for (const double d : {1e-3, 0.01, 0.1})
    for (const double ratio : {0., 0.5, 0.99, 1.2, 2., 3., 10.}) // alpha / P
      {
        const double P = std::pow(d, 1.5), alpha = ratio * P;
        const auto   h = history(alpha);
        const double F = law->force(d, -10., h);
        const double rate = law->internal_variable_rate(d, -10., h);
        const double dai  = 1e3 * alpha + 1e3 * (1. / gamma + beta1 + beta2 * alpha) * rate;
        EXPECT_NEAR(F, dai, 1e-12 * 1e3 * std::max(P, alpha)) << d << ' ' << ratio;
        EXPECT_GE(F, 0.);
        (F == 0. ? zero : positive) += 1;
      }
  EXPECT_GT(zero, 0);
  EXPECT_GT(positive, 0);
}

// Xiong, integrated by explicit steps of ContactLaw::updated_history (gamma dt = 0.01):
// under slow monotone loading d = d' t alpha lags P by P'/gamma - P''/gamma^2 + ..., so
// F/(K P) - 1 = gamma b (P - alpha)/P ≈ (b k d'/d)(1 - (k - 1) d'/(gamma d)) -> 0 as d' -> 0
// (the explicit Euler step scales the lag by 1 - gamma dt). Unloading, F returns to 0 at a
// residual indentation d_r > 0 with alpha > P(d_r) > 0; quasi-steady estimate
// (alpha - P ≈ |P'|/gamma, F = 0 at P = gamma b (alpha - P)): d_r ≈ beta1 k |d'| for k = 3/2,
// beta2 = 0, to O(1/(gamma beta1)) (1 % with gamma beta1 = 30; d_r is resolved to d' dt).
TEST(OtherApproachesLaws, XiongQuasiStaticLimitAndResidualIndentation)
{
  laws::ContactData data;
  data.stiffness     = 1e3;
  const double gamma = 1e3, k = 1.5, dt = 0.01 / gamma, d_max = 0.1;
  const auto   xiong = [&](const double beta1) {
    return laws::make_law("xiong",
                          {{"Elastic exponent", k},
                           {"Damping parameter beta1", beta1},
                           {"Damping parameter beta2", 0.},
                           {"Rate constant gamma", gamma}},
                          data);
  };
  const auto load = [&](const Law &law, const double rate, NormalContactHistory &h) {
    const auto n = static_cast<long>(std::llround(d_max / (rate * dt)));
    for (long i = 1; i <= n; ++i)
      h = law->updated_history(i * rate * dt, rate, dt, h);
    return law->force(d_max, rate, h) / (1e3 * std::pow(d_max, k)) - 1.;
  };

  const double beta1 = 1e-3; // gamma beta1 = 1
  const Law    law   = xiong(beta1);
  for (const double rate : {1., 0.1, 0.01})
    {
      NormalContactHistory h;
      const double         excess = load(law, rate, h);
      const double predicted = (beta1 * k * rate / d_max) * (1. - gamma * dt) *
                               (1. - (k - 1.) * rate / (gamma * d_max));
      EXPECT_NEAR(excess, predicted, 1e-4 * predicted) << rate;
    }

  const double beta1_r = 3e-2; // gamma beta1 = 30
  const Law    law_r   = xiong(beta1_r);
  NormalContactHistory h;
  load(law_r, 1., h);
  const double unload = -1.;
  double       d      = d_max;
  while (d > 0. && law_r->force(d, unload, h) > 0.)
    {
      d += unload * dt;
      h = law_r->updated_history(d, unload, dt, h);
    }
  ASSERT_GT(d, 0.) << "the force must return to 0 before the indentation does";
  EXPECT_GT(h.internal_variable, std::pow(d, k));
  EXPECT_NEAR(d, beta1_r * k * -unload, 0.01 * beta1_r * k * -unload);
}

// Jian: F_diss = (2 eta/(1 - nu)) (1 - exp(-t/T)) sqrt(R d) d' with t the contact time
// accumulated by updated_history(), T = eta/G0; F_el = 4 G_e sqrt(R)/(3 (1 - nu)) d^1.5.
TEST(OtherApproachesLaws, JianDissipativeFactorGrowsWithContactTime)
{
  laws::ContactData data;
  data.effective_radius = 5.;
  data.poisson_ratio    = 0.45;
  const double G_e = 1., G0 = 5., eta = 5e-4, T = eta / G0, nu = 0.45, R = 5.;
  const auto   law = laws::make_law("jian",
                                  {{"Equilibrium shear modulus", G_e},
                                   {"Maxwell shear modulus", G0},
                                   {"Shear viscosity", eta}},
                                  data);
  const double d = 0.02, d_dot = 150., dt = 0.05 * T;
  const double F_el = 4. * G_e * std::sqrt(R) / (3. * (1. - nu)) * std::pow(d, 1.5);
  const double F_inf = 2. * eta / (1. - nu) * std::sqrt(R * d) * d_dot;
  NormalContactHistory h = law->updated_history(d, d_dot, dt, NormalContactHistory{});
  EXPECT_NEAR(law->force(d, d_dot, h), F_el, 1e-14 * F_el); // t = 0 at onset
  for (int step = 1; step <= 100; ++step)
    {
      h               = law->updated_history(d, d_dot, dt, h);
      const double t  = step * dt;
      const double Fd = law->force(d, d_dot, h) - law->force(d, 0., h);
      EXPECT_NEAR(Fd, F_inf * (1. - std::exp(-t / T)), 1e-12 * F_inf) << step;
      EXPECT_NEAR(law->force(d, 0., h), F_el, 1e-12 * F_el);
    }
}

// ------------------------------------------------------------------------------------------
namespace
{
  struct Configured
  {
    std::string     id;
    laws::LawValues values;
  };

  /// Every law of the two files with damping switched on.
  std::vector<Configured>
  damped_laws()
  {
    return {{"kuwabara_kono", {}},
            {"brilliantov_1996", {{"Bulk viscosity", 3e-3}}},
            {"zheng_et_al", {}},
            {"brilliantov_generalized", {}},
            {"tsuji", {}},
            {"jankowski", {}},
            {"choi", {{"Damping coefficient", 1e3}, {"Rebound force coefficient", 0.2}}},
            {"roy_carretero",
             {{"Damping parameter of body 1", 2.}, {"Damping parameter of body 2", 3.}}},
            {"xiong", {{"Damping parameter beta2", 1e-4}}},
            {"jian", {}}};
  }
} // namespace

// All ten laws are continuous at first contact: the force tends to 0 as d -> 0+ at any rate
// (the slowest, Tsuji's d^(1/4) term, gives a ratio of 3e-5 between d = 1e-20 and 1e-2).
TEST(ViscousAndOtherLaws, ForceVanishesAtZeroIndentation)
{
  const laws::ContactData data = steel_ball();
  for (const auto &c : damped_laws())
    {
      const auto law = laws::make_law(c.id, c.values, data);
      const auto h   = history(0., 2e-4);
      for (const double d_dot : {-500., 500.})
        {
          EXPECT_EQ(law->force(0., d_dot, h), 0.) << c.id;
          const double F_ref = std::abs(law->force(1e-2, d_dot, h));
          EXPECT_GT(F_ref, 0.) << c.id;
          EXPECT_LE(std::abs(law->force(1e-20, d_dot, h)), 1e-3 * F_ref) << c.id << d_dot;
        }
    }
}

// Damping -> 0 gives the elastic law: Tsuji alpha = 0, Jankowski c_r = 1, Choi D = 0,
// Roy–Carretero D = 0 (the volumetric spring k_v V), Xiong beta1 = beta2 = 0 (K d^k for any
// alpha), Jian eta -> 0 (Hertz with G_e).
TEST(ViscousAndOtherLaws, DampingToZeroGivesTheElasticLaw)
{
  const laws::ContactData data = steel_ball();
  const double            K = data.stiffness, d = 0.03;
  const auto force = [&](const std::string &id, const laws::LawValues &v, const double d_dot,
                         const double alpha = 0.) {
    return laws::make_law(id, v, data)->force(d, d_dot, history(alpha, 1e-3));
  };
  for (const double d_dot : {-700., 700.})
    {
      EXPECT_NEAR(force("tsuji", {{"Damping constant", 0.}}, d_dot), hertz(K, d),
                  1e-15 * hertz(K, d));
      EXPECT_NEAR(force("jankowski", {{"Coefficient of restitution", 1.},
                                      {"Damping in decompression", 1.}},
                        d_dot),
                  hertz(K, d), 1e-15 * hertz(K, d));
      EXPECT_NEAR(force("choi", {{"Damping coefficient", 0.}}, d_dot), hertz(K, d),
                  1e-14 * hertz(K, d));
      const double R = data.effective_radius, k_v = 2.1e5 / (2. * 25.4);
      EXPECT_NEAR(force("roy_carretero", {}, d_dot), k_v * pi * d * d * (R - d / 3.),
                  1e-12 * k_v * pi * d * d * R);
      for (const double alpha : {0., 0.5 * std::pow(d, 1.5), 3. * std::pow(d, 1.5)})
        EXPECT_NEAR(force("xiong",
                          {{"Damping parameter beta1", 0.}, {"Damping parameter beta2", 0.}},
                          d_dot, alpha),
                    hertz(K, d), 1e-14 * hertz(K, d));
      const double K_jian = 4. * 1. * std::sqrt(data.effective_radius) / (3. * (1. - 0.3));
      EXPECT_NEAR(force("jian", {{"Shear viscosity", 1e-18}}, d_dot), hertz(K_jian, d),
                  1e-10 * hertz(K_jian, d));
      EXPECT_GT(std::abs(force("jian", {}, d_dot) - hertz(K_jian, d)), 1e-3 * hertz(K_jian, d));
    }
}

// The closed-form stored energies equal the integral of the elastic force from 0 to d.
TEST(ViscousAndOtherLaws, StoredEnergyIsTheIntegralOfTheElasticForce)
{
  const laws::ContactData                     data = steel_ball();
  boost::math::quadrature::tanh_sinh<double> integrator;
  for (const auto &c : damped_laws())
    {
      const auto law = laws::make_law(c.id, c.values, data);
      const auto h   = history(1e-4, 1e-4);
      for (const double d : {1e-3, 0.05, 0.7})
        {
          const double W = integrator.integrate(
            [&](const double x) { return law->elastic_force(x, h); }, 0., d);
          EXPECT_NEAR(law->stored_energy(d, h), W, 1e-12 * W) << c.id << ' ' << d;
        }
    }
  // Choi with another elastic exponent
  laws::ContactData lin = data;
  const auto choi = laws::make_law("choi", {{"Elastic exponent", 1.2}}, lin);
  const double W  = integrator.integrate(
    [&](const double x) { return choi->elastic_force(x, history()); }, 0., 0.3);
  EXPECT_NEAR(choi->stored_energy(0.3, history()), W, 1e-12 * W);
}
