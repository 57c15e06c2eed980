// Tests of the single-degree-of-freedom impact integrator (lib/impact/sdof_impact.h) against
// closed forms of docs/contact-law-catalogue.md §2, B1, B4, E1 (S004 eqs.(26)–(27), (55)–(56)),
// with test-local contact laws.
#include "impact/sdof_impact.h"

#include <boost/math/special_functions/beta.hpp>
#include <boost/math/tools/minima.hpp>
#include <boost/math/tools/toms748_solve.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace
{
  using granular::contact::NormalContactHistory;
  using granular::contact::laws::ContactLaw;
  using namespace granular::impact;

  const double pi = std::acos(-1.);

  /// Root of f on [a, b] with Boost's TOMS 748 (full precision).
  template <typename Function>
  double
  root(const Function &f, const double a, const double b)
  {
    std::uintmax_t it = 200;
    const auto r = boost::math::tools::toms748_solve(f, a, b,
                                                     boost::math::tools::eps_tolerance<double>(),
                                                     it);
    return 0.5 * (r.first + r.second);
  }

  /// Undamped power law K d^n (Hertz for n = 3/2, a linear spring for n = 1).
  class PowerSpring : public ContactLaw
  {
  public:
    PowerSpring(const double K_, const double n_)
      : ContactLaw("test_power_spring", false, true)
      , K(K_)
      , n(n_)
    {}
    double
    spring_force(const double d, const NormalContactHistory &) const override
    {
      return K * std::pow(d, n);
    }
    double
    stored_energy(const double d, const NormalContactHistory &) const override
    {
      return d > 0. ? K * std::pow(d, n + 1.) / (n + 1.) : 0.;
    }

  private:
    double K, n;
  };

  /// Kelvin–Voigt k d + c d' (docs/contact-law-catalogue.md B1), optionally ending at F = 0 (B4).
  class KelvinVoigt : public ContactLaw
  {
  public:
    KelvinVoigt(const double k_, const double c_, const bool force_free_, const bool clamp = false)
      : ContactLaw("test_kelvin_voigt", clamp, true)
      , k(k_)
      , c(c_)
      , force_free(force_free_)
    {}
    double
    spring_force(const double d, const NormalContactHistory &) const override
    {
      return k * d;
    }
    double
    damping_force(const double, const double d_dot, const NormalContactHistory &) const override
    {
      return c * d_dot;
    }
    bool
    force_free_separation() const override
    {
      return force_free;
    }

  private:
    double k, c;
    bool   force_free;
  };

  /// Hunt–Crossley K d^n (1 + f d'/delta_dot_minus) with delta_dot_minus from the history
  /// (docs/contact-law-catalogue.md §4.1: chi = f K / delta_dot_minus).
  class HuntCrossley : public ContactLaw
  {
  public:
    HuntCrossley(const double K_, const double n_, const double f_)
      : ContactLaw("test_hunt_crossley", false, true)
      , K(K_)
      , n(n_)
      , f(f_)
    {}
    double
    spring_force(const double d, const NormalContactHistory &) const override
    {
      return K * std::pow(d, n);
    }
    double
    damping_force(const double d, const double d_dot,
                  const NormalContactHistory &h) const override
    {
      return f * K / approach_velocity(h) * std::pow(d, n) * d_dot;
    }

  private:
    double K, n, f;
  };

  /// Standard linear solid: F = k1 d + k2 (d - alpha), c alpha' = k2 (d - alpha) (a spring in
  /// parallel with a Maxwell arm; alpha = the dashpot's displacement, the internal variable).
  class Zener : public ContactLaw
  {
  public:
    Zener(const double k1_, const double k2_, const double c_)
      : ContactLaw("test_zener", false, true)
      , k1(k1_)
      , k2(k2_)
      , c(c_)
    {}
    double
    spring_force(const double d, const NormalContactHistory &h) const override
    {
      return k1 * d + k2 * (d - h.internal_variable);
    }
    bool
    has_internal_variable() const override
    {
      return true;
    }
    double
    internal_variable_rate(const double d, const double,
                           const NormalContactHistory &h) const override
    {
      return k2 * (d - h.internal_variable) / c;
    }

  private:
    double k1, k2, c;
  };

  /// Linear loading K d; unloading below max_indentation along k_u (d - d_p), d_p =
  /// delta_max (1 - K/k_u), unclamped: a permanent indentation that holds d away from 0.
  class PlasticUnloading : public ContactLaw
  {
  public:
    PlasticUnloading(const double K_, const double k_u_)
      : ContactLaw("test_plastic_unloading", false, true)
      , K(K_)
      , k_u(k_u_)
    {}
    double
    spring_force(const double d, const NormalContactHistory &h) const override
    {
      if (d >= h.max_indentation)
        return K * d;
      return k_u * (d - h.max_indentation * (1. - K / k_u));
    }
    bool
    has_unloading_branch() const override
    {
      return true;
    }

  private:
    double K, k_u;
  };

  /// No force at all.
  class NoForce : public ContactLaw
  {
  public:
    NoForce()
      : ContactLaw("test_no_force", false, true)
    {}
    double
    spring_force(const double, const NormalContactHistory &) const override
    {
      return 0.;
    }
  };

  // docs/contact-law-catalogue.md §8 S1 (mm–t–s): two aluminium spheres
  constexpr double m_S1  = 4.6e-5;     // t
  constexpr double v0_S1 = 300.;       // mm/s
  constexpr double K_S1  = 1.73925e5;  // N/mm^1.5

  // a linear oscillator
  constexpr double m_lin = 1e-3; // t
  constexpr double k_lin = 1e3;  // N/mm
  constexpr double v0_lin = 500.; // mm/s

  /// B4 restitution of the force-free Kelvin–Voigt contact (docs/contact-law-catalogue.md B4, xi/s
  /// corrected).
  double
  butcher_segalman(const double xi)
  {
    if (xi < 1.)
      {
        const double w = std::sqrt(1. - xi * xi);
        return std::exp(-(xi / w) * 2. * std::atan(w / xi));
      }
    const double s = std::sqrt(xi * xi - 1.);
    return std::pow((xi - s) / (xi + s), xi / s);
  }
} // namespace

TEST(SdofImpact, HertzClosedForms)
{
  const double      n = 1.5;
  const PowerSpring law(K_S1, n);
  const auto        r = simulate_impact(law, m_S1, v0_S1);

  // S004 eqs.(26)–(27), docs/contact-law-catalogue.md §2
  const double d_max = std::pow((n + 1.) * m_S1 * v0_S1 * v0_S1 / (2. * K_S1), 1. / (n + 1.));
  const double F_max = K_S1 * std::pow(d_max, n);
  // t_c = 2 int_0^dmax dd / sqrt(v0^2 - 2 K d^(n+1)/(m (n+1))) = 2 dmax/v0 B(1/(n+1), 1/2)/(n+1)
  const double t_c = 2. * d_max / v0_S1 * boost::math::beta(1. / (n + 1.), 0.5) / (n + 1.);

  EXPECT_EQ(r.separation, Separation::indentation_zero);
  EXPECT_NEAR(r.max_indentation / d_max, 1., 1e-10);
  EXPECT_NEAR(r.max_force / F_max, 1., 1e-10);
  EXPECT_NEAR(r.contact_duration / t_c, 1., 1e-10);
  EXPECT_NEAR(r.time_of_max_indentation / (0.5 * t_c), 1., 1e-10);
  EXPECT_NEAR(r.restitution, 1., 1e-9);
  EXPECT_NEAR(r.separation_velocity / v0_S1, 1., 1e-9);
  const double E0 = 0.5 * m_S1 * v0_S1 * v0_S1;
  EXPECT_NEAR(r.dissipated_energy / E0, 0., 2e-9);
  EXPECT_NEAR(r.dissipated_energy_from_work / E0, 0., 2e-9);
  EXPECT_EQ(r.residual_indentation, 0.);
  EXPECT_EQ(r.separation_force, 0.); // K (0+)^1.5: no tension
  EXPECT_FALSE(r.force_returned_to_zero);
  EXPECT_NEAR(r.final_history.approach_velocity, v0_S1, 1e-12 * v0_S1);
  EXPECT_NEAR(r.final_history.max_indentation / d_max, 1., 1e-10);
}

TEST(SdofImpact, HertzCurvesConserveEnergy)
{
  const double      n = 1.5;
  const PowerSpring law(K_S1, n);
  ImpactOptions     o;
  o.samples    = 101;
  const auto r = simulate_impact(law, m_S1, v0_S1, o);
  const auto &c = r.curves;
  ASSERT_GE(c.time.size(), 101u);
  ASSERT_EQ(c.delta.size(), c.time.size());
  ASSERT_EQ(c.delta_dot.size(), c.time.size());
  ASSERT_EQ(c.force.size(), c.time.size());
  EXPECT_EQ(c.time.front(), 0.);
  EXPECT_EQ(c.time.back(), r.contact_duration);
  EXPECT_EQ(c.delta_dot.front(), v0_S1);
  const double E0 = 0.5 * m_S1 * v0_S1 * v0_S1;
  bool         has_turning_point = false;
  for (std::size_t i = 0; i < c.time.size(); ++i)
    {
      if (i > 0)
        {
          EXPECT_GT(c.time[i], c.time[i - 1]);
        }
      // kinetic + stored energy = E0 along the dense output, and F = K d^n
      const double E = 0.5 * m_S1 * c.delta_dot[i] * c.delta_dot[i] +
                       K_S1 * std::pow(c.delta[i], n + 1.) / (n + 1.);
      EXPECT_NEAR(E / E0, 1., 1e-10) << "sample " << i;
      EXPECT_NEAR(c.force[i], K_S1 * std::pow(std::max(c.delta[i], 0.), n), 1e-9 * r.max_force);
      if (c.time[i] == r.time_of_max_indentation)
        {
          has_turning_point = true;
          EXPECT_EQ(c.delta_dot[i], 0.);
          EXPECT_EQ(c.delta[i], r.max_indentation);
        }
    }
  EXPECT_TRUE(has_turning_point);
}

TEST(SdofImpact, LinearSpringHalfPeriod)
{
  const PowerSpring law(k_lin, 1.);
  const auto        r = simulate_impact(law, m_lin, v0_lin);
  const double      omega = std::sqrt(k_lin / m_lin);
  EXPECT_NEAR(r.contact_duration / (pi / omega), 1., 1e-10);
  EXPECT_NEAR(r.max_indentation / (v0_lin / omega), 1., 1e-10);
  EXPECT_NEAR(r.max_force / (k_lin * v0_lin / omega), 1., 1e-10);
  EXPECT_NEAR(r.restitution, 1., 1e-9);
}

TEST(SdofImpact, KelvinVoigtClassicalSeparation)
{
  // docs/contact-law-catalogue.md B1: separation at d = 0 -> c_r = exp(-pi xi / sqrt(1 - xi^2)),
  // tension at the end
  const double      xi = 0.3;
  const double      c  = 2. * xi * std::sqrt(k_lin * m_lin);
  const KelvinVoigt law(k_lin, c, /*force_free=*/false);
  const auto        r = simulate_impact(law, m_lin, v0_lin);

  const double omega = std::sqrt(k_lin / m_lin), wd = omega * std::sqrt(1. - xi * xi);
  EXPECT_EQ(r.separation, Separation::indentation_zero);
  EXPECT_NEAR(r.restitution, std::exp(-pi * xi / std::sqrt(1. - xi * xi)), 1e-9);
  EXPECT_NEAR(r.contact_duration / (pi / wd), 1., 1e-10);
  // the force jump c v0 at first contact and the tension -c v_out at separation
  EXPECT_NEAR(r.curves.force.front() / (c * v0_lin), 1., 1e-12);
  EXPECT_LT(r.separation_force, 0.);
  EXPECT_NEAR(r.separation_force / (-c * r.separation_velocity), 1., 1e-12);
  EXPECT_NEAR(r.curves.force.back(), r.separation_force, 1e-12 * c * v0_lin);
  // the force returned to 0 (start of tension) where d'' = 0: w_d t = theta of
  // docs/contact-law-catalogue.md B4
  ASSERT_TRUE(r.force_returned_to_zero);
  const double theta = std::atan2(2. * xi * std::sqrt(1. - xi * xi), 2. * xi * xi - 1.);
  EXPECT_NEAR(r.time_of_zero_force / (theta / wd), 1., 1e-10);
  // F_max inside the compression phase (F'(0) = k v0 (1 - 4 xi^2) > 0): F = k d + c d' with
  // d = v0/w_d exp(-xi w t) sin(w_d t), maximised independently with Brent's method
  const auto F = [&](const double t) {
    const double e = std::exp(-xi * omega * t), s = std::sin(wd * t), co = std::cos(wd * t);
    return k_lin * v0_lin / wd * e * s + c * v0_lin * e * (co - xi * omega / wd * s);
  };
  std::uintmax_t it = 200;
  const auto     mx = boost::math::tools::brent_find_minima([&](const double t) { return -F(t); },
                                                        0., theta / wd, 40, it);
  EXPECT_NEAR(r.max_force / -mx.second, 1., 1e-10);
  EXPECT_NEAR(r.time_of_max_force / mx.first, 1., 1e-5);
  EXPECT_LT(r.time_of_max_force, r.time_of_max_indentation);
}

TEST(SdofImpact, KelvinVoigtClampedMovesFreelyAfterZeroForce)
{
  // clamped: after F = 0 (at w_d t = theta) no force, d' constant until d = 0
  const double      xi = 0.3;
  const double      c  = 2. * xi * std::sqrt(k_lin * m_lin);
  const KelvinVoigt law(k_lin, c, /*force_free=*/false, /*clamp=*/true);
  const auto        r = simulate_impact(law, m_lin, v0_lin);
  const double      e = butcher_segalman(xi);
  const double omega = std::sqrt(k_lin / m_lin), wd = omega * std::sqrt(1. - xi * xi);
  const double theta = std::atan2(2. * xi * std::sqrt(1. - xi * xi), 2. * xi * xi - 1.);
  // the velocity at F = 0 is that of the force-free law; then d = c v_out/k falls at v_out
  EXPECT_EQ(r.separation, Separation::indentation_zero);
  EXPECT_NEAR(r.restitution / e, 1., 1e-9);
  EXPECT_NEAR(r.contact_duration / (theta / wd + c / k_lin), 1., 1e-9);
  EXPECT_EQ(r.separation_force, 0.);
}

TEST(SdofImpact, KelvinVoigtForceFreeSeparation)
{
  // docs/contact-law-catalogue.md B4 (S004 eqs.(55)–(56), exponent xi/s for xi > 1 per §7)
  const double B4_xi2 = 0.0478; // docs/contact-law-catalogue.md B4: xi = 2 by direct integration
  EXPECT_NEAR(butcher_segalman(2.), B4_xi2, 5e-5);
  for (const double xi : {0.3, 2.})
    {
      const double      c = 2. * xi * std::sqrt(k_lin * m_lin);
      const KelvinVoigt law(k_lin, c, /*force_free=*/true);
      const auto        r = simulate_impact(law, m_lin, v0_lin);
      EXPECT_EQ(r.separation, Separation::force_zero) << "xi = " << xi;
      EXPECT_NEAR(r.restitution / butcher_segalman(xi), 1., 1e-9) << "xi = " << xi;
      // k d + c d' = 0 at separation: d = c v_out / k > 0
      EXPECT_GT(r.residual_indentation, 0.);
      EXPECT_NEAR(r.residual_indentation / (c * r.separation_velocity / k_lin), 1., 1e-9)
        << "xi = " << xi;
      EXPECT_NEAR(r.separation_force, 0., 1e-10 * c * v0_lin);
      EXPECT_TRUE(r.final_history.released);
      if (xi < 1.)
        {
          const double wd    = std::sqrt(k_lin / m_lin) * std::sqrt(1. - xi * xi);
          const double theta = 2. * std::atan(std::sqrt(1. - xi * xi) / xi);
          EXPECT_NEAR(r.contact_duration / (theta / wd), 1., 1e-10);
        }
    }
}

TEST(SdofImpact, OverdampedKelvinVoigtEndsAtZeroForce)
{
  // xi > 1 with the classical criterion: d decays to 0 without returning (d > 0 for all t),
  // so the contact ends where the force returned to 0, i.e. at the B4 separation
  const double      xi = 2.;
  const double      c  = 2. * xi * std::sqrt(k_lin * m_lin);
  const KelvinVoigt law(k_lin, c, /*force_free=*/false);
  const auto        r = simulate_impact(law, m_lin, v0_lin);
  EXPECT_EQ(r.separation, Separation::force_zero_no_return);
  EXPECT_FALSE(r.note.empty());
  EXPECT_NEAR(r.restitution / butcher_segalman(xi), 1., 1e-9);
  EXPECT_NEAR(r.residual_indentation / (c * r.separation_velocity / k_lin), 1., 1e-9);
  EXPECT_EQ(r.curves.time.back(), r.contact_duration);
}

TEST(SdofImpact, DissipatedEnergyTwoWays)
{
  const double E0 = 0.5 * m_lin * v0_lin * v0_lin;
  for (const bool force_free : {false, true})
    for (const double xi : {0.1, 0.3, 0.9})
      {
        const KelvinVoigt law(k_lin, 2. * xi * std::sqrt(k_lin * m_lin), force_free);
        const auto        r = simulate_impact(law, m_lin, v0_lin);
        EXPECT_GT(r.dissipated_energy, 0.1 * E0);
        EXPECT_NEAR(r.dissipated_energy / E0, r.dissipated_energy_from_work / E0, 1e-9)
          << "xi = " << xi << (force_free ? ", force-free" : "");
      }
}

TEST(SdofImpact, HuntCrossleyExactChiReturnsItsRestitution)
{
  // docs/contact-law-catalogue.md E1 / §6 exactness check: with d = a c_r v0 fixed, c_r solves
  // (1 + d/c_r)/(1 - d) = exp(d (1 + 1/c_r)); chi = d K/(c_r v0), i.e. f = d/c_r
  const double d   = 0.3;
  const auto   g   = [&](const double cr) {
    return std::log1p(d / cr) - std::log1p(-d) - d * (1. + 1. / cr);
  };
  const double c_r = root(g, 0.01, 1.);
  ASSERT_GT(c_r, 0.5);
  ASSERT_LT(c_r, 0.95);
  for (const double n : {1.5, 1.})
    {
      const HuntCrossley law(K_S1, n, d / c_r);
      const auto         r = simulate_impact(law, m_S1, v0_S1);
      EXPECT_EQ(r.separation, Separation::indentation_zero);
      EXPECT_NEAR(r.restitution, c_r, 1e-9) << "n = " << n;
      const double E0 = 0.5 * m_S1 * v0_S1 * v0_S1;
      EXPECT_NEAR(r.dissipated_energy / E0, 1. - c_r * c_r, 2e-9);
      EXPECT_NEAR(r.dissipated_energy_from_work / E0, 1. - c_r * c_r, 2e-9);
      EXPECT_NEAR(r.separation_force, 0., 1e-12 * r.max_force); // K (0+)^n
    }
}

TEST(SdofImpact, InternalVariableIsIntegrated)
{
  // standard linear solid: m d'' = -k1 d - k2 u, u = d - alpha, u' = d' - u/tau, tau = c/k2.
  // Characteristic polynomial s^3 + s^2/tau + (k1 + k2)/m s + k1/(m tau), one real root r
  // in (-1/tau, 0) and sigma +- i beta; d(0) = 0, d'(0) = v0, d''(0) = 0.
  const double k1 = k_lin, k2 = k_lin, c = 1., m = m_lin, v0 = v0_lin, tau = c / k2;
  const Zener  law(k1, k2, c);
  const auto   p = [&](const double s) {
    return s * s * s + s * s / tau + (k1 + k2) / m * s + k1 / (m * tau);
  };
  const double r_ = root(p, -1. / tau, 0.);
  const double b = 1. / tau + r_, cc = (k1 + k2) / m + b * r_;
  ASSERT_GT(cc, 0.25 * b * b);
  const double sigma = -0.5 * b, beta = std::sqrt(cc - 0.25 * b * b);
  const double q  = r_ * r_ - sigma * sigma + beta * beta;
  const double c1 = v0 / ((r_ - sigma) - q / (2. * sigma));
  const double c2 = -c1, c3 = -q * c1 / (2. * sigma * beta);
  const auto   delta = [&](const double t) {
    return c1 * std::exp(r_ * t) +
           std::exp(sigma * t) * (c2 * std::cos(beta * t) + c3 * std::sin(beta * t));
  };
  const auto delta_dot = [&](const double t) {
    return r_ * c1 * std::exp(r_ * t) +
           std::exp(sigma * t) * ((sigma * c2 + beta * c3) * std::cos(beta * t) +
                                  (sigma * c3 - beta * c2) * std::sin(beta * t));
  };
  // first return of d to 0: between the first zero of d' and 2 pi/beta
  const double t_turn = root(delta_dot, 1e-9 / beta, pi / beta);
  const double t_c    = root(delta, t_turn, 2. * pi / beta);

  const auto res = simulate_impact(law, m, v0);
  EXPECT_EQ(res.separation, Separation::indentation_zero);
  EXPECT_NEAR(res.time_of_max_indentation / t_turn, 1., 1e-10);
  EXPECT_NEAR(res.max_indentation / delta(t_turn), 1., 1e-10);
  EXPECT_NEAR(res.contact_duration / t_c, 1., 1e-10);
  EXPECT_NEAR(res.restitution, -delta_dot(t_c) / v0, 1e-9);
  EXPECT_LT(res.restitution, 0.95); // the Maxwell arm dissipates
  // alpha at separation: k2 (0 - alpha) = -m d''(t_c) -> alpha = m d''/k2; from d'' = -(k1 d +
  // k2 u)/m with d = 0: u = -m d''/k2, alpha = d - u
  const double h   = 1e-6 * t_c;
  const double ddd = (delta_dot(t_c + h) - delta_dot(t_c - h)) / (2. * h);
  EXPECT_NEAR(res.final_history.internal_variable / (m * ddd / k2), 1., 1e-6);
  EXPECT_NEAR(res.dissipated_energy / res.dissipated_energy_from_work, 1., 1e-9);
}

TEST(SdofImpact, PermanentIndentationEndsAtZeroForce)
{
  // loading K d, unloading 4K (d - d_p), d_p = 0.75 delta_max: a law with an unloading
  // branch (permanent indentation), so the contact ends at F = 0, d = d_p, with v_out = v0/2
  // (energy (1/2) k_u (delta_max - d_p)^2 = E0/4)
  const PlasticUnloading law(k_lin, 4. * k_lin);
  ImpactOptions          o;
  o.max_time_factor = 50.;
  const auto   r     = simulate_impact(law, m_lin, v0_lin, o);
  const double omega = std::sqrt(k_lin / m_lin);
  EXPECT_EQ(r.separation, Separation::force_zero);
  EXPECT_NEAR(r.max_indentation / (v0_lin / omega), 1., 1e-10);
  EXPECT_NEAR(r.restitution, 0.5, 1e-9);
  EXPECT_NEAR(r.residual_indentation / (0.75 * v0_lin / omega), 1., 1e-9);
  EXPECT_NEAR(r.contact_duration / (pi / (2. * omega) + pi / (4. * omega)), 1., 1e-9);
  EXPECT_NEAR(r.curves.time.back(), r.contact_duration, 0.);
}

TEST(SdofImpact, GuardThrowsWithoutTurningPoint)
{
  const NoForce law;
  try
    {
      simulate_impact(law, m_lin, v0_lin);
      FAIL() << "expected std::runtime_error";
    }
  catch (const std::runtime_error &e)
    {
      EXPECT_NE(std::string(e.what()).find("no turning point"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("test_no_force"), std::string::npos) << e.what();
    }
  EXPECT_THROW(simulate_impact(law, -1., v0_lin), std::invalid_argument);
  EXPECT_THROW(simulate_impact(law, m_lin, 0.), std::invalid_argument);
}

TEST(SdofImpact, CurvesCsvRoundTrip)
{
  const PowerSpring law(k_lin, 1.);
  ImpactOptions     o;
  o.samples    = 11;
  const auto r = simulate_impact(law, m_lin, v0_lin, o);
  const auto dir = std::filesystem::temp_directory_path() /
                   ("test_sdof_impact." + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "curves.csv").string();
  write_impact_curves_csv(path, r.curves);
  std::ifstream in(path);
  std::string   line;
  ASSERT_TRUE(std::getline(in, line));
  EXPECT_EQ(line, "t,delta,delta_dot,force");
  std::size_t i = 0;
  while (std::getline(in, line))
    {
      std::istringstream s(line);
      double             t, d, v, f;
      char               c1, c2, c3;
      ASSERT_TRUE(s >> t >> c1 >> d >> c2 >> v >> c3 >> f) << line;
      ASSERT_LT(i, r.curves.time.size());
      EXPECT_EQ(t, r.curves.time[i]);
      EXPECT_EQ(d, r.curves.delta[i]);
      EXPECT_EQ(v, r.curves.delta_dot[i]);
      EXPECT_EQ(f, r.curves.force[i]);
      ++i;
    }
  EXPECT_EQ(i, r.curves.time.size());
  // the temporary file was renamed: the directory holds the CSV only
  std::size_t files = 0;
  for (const auto &entry : std::filesystem::directory_iterator(dir))
    {
      ++files;
      EXPECT_EQ(entry.path().filename().string(), "curves.csv");
    }
  EXPECT_EQ(files, 1u);
  std::filesystem::remove_all(dir);
}
