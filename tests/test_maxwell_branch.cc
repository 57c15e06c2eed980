// Tests of the finite-strain Maxwell branch (docs/methods.md §3.3), the Payne effect (§3.4) and
// the homogeneous material-point driver: small-strain standard-linear-solid limits
// (storage/loss moduli, relaxation time), dissipation, exact elastic limit, large
// time steps, the consistent tangent against finite differences, the plane-strain
// out-of-plane viscous strain, amplitude dependence.
#include "material/material_point_driver.h"
#include "material/maxwell_branch.h"
#include "material/ogden_material.h"
#include "material/rubber_parameters.h"

#include <deal.II/base/numbers.h>
#include <deal.II/base/tensor.h>

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

namespace
{
  using granular::material::DeformationPoint;
  using granular::material::drive_material_point;
  using granular::material::MaxwellBranch;
  using granular::material::MaxwellState;
  using granular::material::OgdenMaterial;
  using dealii::Tensor;

  const std::vector<double> alpha_default{1.8, -2.0, 7.0};
  const std::vector<double> gamma_default{0.661, -0.231, 0.0496};
  constexpr double          tau0 = 1e-4; // s (docs/methods.md §3.5)
  constexpr double          mu_e = 1.0;  // MPa
  constexpr double          mu_v = 5.0;  // MPa

  MaxwellBranch
  branch(const double d = 0.0, const double mv = mu_v)
  {
    return MaxwellBranch(mv, alpha_default, gamma_default, tau0, d, 0.1 * tau0);
  }

  Tensor<2, 2>
  shear(const double g)
  {
    Tensor<2, 2> F;
    F[0][0] = F[1][1] = 1.0;
    F[0][1]           = g;
    return F;
  }

  struct Moduli
  {
    double storage, loss;
  };

  /// First-harmonic storage and loss moduli of the total shear stress in the last
  /// of n_cycles cycles of γ(t) = γ0 sin ωt (N steps per cycle).
  Moduli
  harmonic_moduli(const OgdenMaterial &el,
                  const MaxwellBranch &mb,
                  const double         gamma0,
                  const double         omega,
                  const unsigned int   N,
                  const unsigned int   n_cycles)
  {
    const double                  h = 2.0 * M_PI / omega / N;
    std::vector<DeformationPoint> path(N * n_cycles + 1);
    for (unsigned int i = 0; i < path.size(); ++i)
      {
        path[i].t = i * h;
        path[i].F = shear(gamma0 * std::sin(omega * path[i].t));
      }
    const auto rec = drive_material_point(el, mb, path);
    double     s = 0.0, c = 0.0;
    for (std::size_t i = rec.size() - N; i < rec.size(); ++i)
      {
        const double sig = rec[i].cauchy[0][1];
        s += sig * std::sin(omega * rec[i].t);
        c += sig * std::cos(omega * rec[i].t);
      }
    return {2.0 * s / (N * gamma0), 2.0 * c / (N * gamma0)};
  }

  double
  norm4(const Tensor<4, 2> &A)
  {
    double s = 0.0;
    for (unsigned int i = 0; i < 2; ++i)
      for (unsigned int j = 0; j < 2; ++j)
        for (unsigned int k = 0; k < 2; ++k)
          for (unsigned int l = 0; l < 2; ++l)
            s += A[i][j][k][l] * A[i][j][k][l];
    return std::sqrt(s);
  }

  /// max |A − FD(A)| / |A| with central differences of P_v w.r.t. F_{n+1}.
  double
  tangent_fd_error(const MaxwellBranch &mb,
                   const MaxwellState  &old,
                   const Tensor<2, 2>  &Fn,
                   const Tensor<2, 2>  &F,
                   const double         dt)
  {
    const auto   r = mb.update(old, Fn, F, dt);
    const double h = 1e-6;
    double       err = 0.0;
    for (unsigned int k = 0; k < 2; ++k)
      for (unsigned int l = 0; l < 2; ++l)
        {
          Tensor<2, 2> Fp = F, Fm = F;
          Fp[k][l] += h;
          Fm[k][l] -= h;
          const auto rp = mb.update(old, Fn, Fp, dt, false);
          const auto rm = mb.update(old, Fn, Fm, dt, false);
          for (unsigned int i = 0; i < 2; ++i)
            for (unsigned int j = 0; j < 2; ++j)
              {
                const double fd =
                  (rp.first_piola[i][j] - rm.first_piola[i][j]) / (2.0 * h);
                err = std::max(err, std::abs(fd - r.tangent[i][j][k][l]));
              }
        }
    return err / norm4(r.tangent);
  }

  /// A nontrivial converged history: a few large-strain steps.
  MaxwellState
  prestrained_state(const MaxwellBranch &mb, Tensor<2, 2> &F_last)
  {
    MaxwellState s;
    Tensor<2, 2> Fn = dealii::unit_symmetric_tensor<2>();
    for (unsigned int i = 1; i <= 5; ++i)
      {
        Tensor<2, 2> F;
        F[0][0] = 1.0 + 0.08 * i;
        F[0][1] = 0.15 * i;
        F[1][0] = -0.03 * i;
        F[1][1] = 1.0 - 0.05 * i;
        s       = mb.update(s, Fn, F, 0.3 * tau0, false).state;
        Fn      = F;
      }
    F_last = Fn;
    return s;
  }
} // namespace

// 1. Small-amplitude harmonic simple shear: storage and loss moduli of the standard
//    linear solid, G' = μ_e + μ_v ω²τ0²/(1+ω²τ0²), G'' = μ_v ωτ0/(1+ω²τ0²).
TEST(MaxwellBranch, SmallStrainStorageAndLossModuli)
{
  const OgdenMaterial el  = OgdenMaterial::default_set(mu_e);
  const MaxwellBranch mb  = branch();
  const double        ge  = el.initial_shear_modulus();
  const double        gv  = mb.initial_shear_modulus();
  const double        gamma0 = 1e-4;
  for (const double wt : {0.1, 1.0, 10.0})
    {
      const double       omega    = wt / tau0;
      const double       period   = 2.0 * M_PI / omega;
      const unsigned int n_cycles = 1 + std::ceil(15.0 * tau0 / period);
      const Moduli m = harmonic_moduli(el, mb, gamma0, omega, 1000, n_cycles);
      const double Gs = ge + gv * wt * wt / (1.0 + wt * wt);
      const double Gl = gv * wt / (1.0 + wt * wt);
      std::printf("[ moduli   ] w*tau0 = %5.1f  G' = %.5f (exact %.5f, err %.3f%%)"
                  "  G'' = %.5f (exact %.5f, err %.3f%%)\n",
                  wt, m.storage, Gs, 100.0 * std::abs(m.storage / Gs - 1.0),
                  m.loss, Gl, 100.0 * std::abs(m.loss / Gl - 1.0));
      EXPECT_NEAR(m.storage / Gs, 1.0, 0.02) << "w*tau0 = " << wt;
      EXPECT_NEAR(m.loss / Gl, 1.0, 0.02) << "w*tau0 = " << wt;
    }
}

// 2. Step strain at small strain: the overstress decays with time constant τ0 to the
//    elastic-branch stress.
TEST(MaxwellBranch, StepStrainRelaxationTime)
{
  const OgdenMaterial el     = OgdenMaterial::default_set(mu_e);
  const MaxwellBranch mb     = branch();
  const double        gamma0 = 1e-4;
  const double        t1     = 1e-8 * tau0; // (almost) instantaneous step
  const double        h      = tau0 / 200.0;
  std::vector<DeformationPoint> path(2002);
  path[0].t = 0.0;
  path[0].F = shear(0.0);
  for (unsigned int i = 1; i < path.size(); ++i)
    {
      path[i].t = t1 + (i - 1) * h;
      path[i].F = shear(gamma0);
    }
  const auto rec = drive_material_point(el, mb, path);
  // instantaneous jump of the Maxwell branch ≈ μ_v γ0
  EXPECT_NEAR(rec[1].kirchhoff_viscous[0][1] / (mb.initial_shear_modulus() * gamma0),
              1.0, 1e-3);
  // least-squares fit of ln(overstress) = a − t/τ over the first 5 τ0
  double sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0;
  unsigned int n = 0;
  for (std::size_t i = 1; i < rec.size() && rec[i].t <= 5.0 * tau0; ++i, ++n)
    {
      const double over = rec[i].kirchhoff[0][1] - rec[i].kirchhoff_elastic[0][1];
      ASSERT_GT(over, 0.0);
      const double x = rec[i].t, y = std::log(over);
      sx += x;
      sy += y;
      sxx += x * x;
      sxy += x * y;
    }
  const double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  const double tau_fit = -1.0 / slope;
  std::printf("[ relax    ] fitted relaxation time %.6e s (tau0 %.1e, err %.3f%%)\n",
              tau_fit, tau0, 100.0 * std::abs(tau_fit / tau0 - 1.0));
  EXPECT_NEAR(tau_fit / tau0, 1.0, 0.02);
  // final state: the elastic-branch stress only (10 τ0: overstress e^-10 · μ_v γ0)
  const auto &last = rec.back();
  EXPECT_NEAR(last.kirchhoff[0][1] / last.kirchhoff_elastic[0][1], 1.0, 1e-3);
  EXPECT_NEAR(last.kirchhoff_elastic[0][1] / (el.initial_shear_modulus() * gamma0),
              1.0, 1e-3);
}

// 3a. Dissipation ≥ 0 at every step of a random large-strain history (with and
//     without Payne); the viscous flow is isochoric (det C_v⁻¹ = 1).
TEST(MaxwellBranch, DissipationNonNegativeRandomLargeStrain)
{
  for (const double d : {0.0, 1e-3})
    {
      const MaxwellBranch              mb = branch(d);
      std::mt19937                     gen(42);
      std::uniform_real_distribution<> u(-1.0, 1.0);
      MaxwellState                     s;
      Tensor<2, 2>                     Fn = shear(0.0);
      double                           sum = 0.0;
      for (unsigned int step = 0; step < 3000; ++step)
        {
          Tensor<2, 2> F = Fn;
          for (unsigned int i = 0; i < 2; ++i)
            for (unsigned int j = 0; j < 2; ++j)
              F[i][j] += 0.08 * u(gen);
          // keep the history in a large but bounded range
          if (dealii::determinant(F) < 0.4 || F.norm() > 3.0)
            continue;
          const double dt = tau0 * std::pow(10.0, 2.0 * u(gen)); // 0.01..100 τ0
          const auto   r  = mb.update(s, Fn, F, dt, false);
          ASSERT_GE(r.dissipation_increment, 0.0) << "step " << step;
          ASSERT_TRUE(std::isfinite(r.dissipation_increment));
          ASSERT_NEAR(dealii::determinant(r.state.Cv_inv), 1.0, 1e-10);
          ASSERT_NEAR(dealii::trace(r.kirchhoff), 0.0, 1e-10 * r.kirchhoff.norm() + 1e-14);
          sum += r.dissipation_increment;
          s  = r.state;
          Fn = F;
        }
      EXPECT_GT(sum, 0.0);
      EXPECT_NEAR(s.dissipation, sum, 1e-12 * sum);
    }
}

// 3b. μ_v = 0 reproduces the elastic response exactly.
TEST(MaxwellBranch, ZeroMaxwellModulusIsElastic)
{
  const OgdenMaterial el = OgdenMaterial::default_set(mu_e);
  const MaxwellBranch off = branch(0.0, 0.0);
  EXPECT_FALSE(off.active());
  std::mt19937                     gen(7);
  std::uniform_real_distribution<> u(-0.3, 0.3);
  std::vector<DeformationPoint>    path(200);
  for (unsigned int i = 0; i < path.size(); ++i)
    {
      path[i].t = i * 0.1 * tau0;
      path[i].F = shear(u(gen));
      path[i].F[0][0] += u(gen);
      path[i].F[1][0] += u(gen);
    }
  const auto               rec = drive_material_point(el, off, path);
  OgdenMaterial::Response  er;
  for (const auto &r : rec)
    {
      el.evaluate(r.F, er);
      for (unsigned int i = 0; i < 3; ++i)
        for (unsigned int j = 0; j < 3; ++j)
          ASSERT_EQ(r.kirchhoff[i][j], er.kirchhoff[i][j]);
      ASSERT_EQ(r.dissipation_increment, 0.0);
    }
  const auto r = off.update(MaxwellState(), shear(0.0), shear(0.5), tau0);
  EXPECT_EQ(r.first_piola.norm(), 0.0);
  EXPECT_EQ(norm4(r.tangent), 0.0);
}

// 3c. Δt/τ0 = 100 is stable and relaxes fully.
TEST(MaxwellBranch, LargeTimeStepStableAndRelaxes)
{
  const MaxwellBranch mb = branch();
  Tensor<2, 2>        F  = shear(1.0);
  F[0][0]                = 1.5;
  F[1][1]                = 0.8;
  const double trial_norm = mb.frozen_response(MaxwellState(), F).kirchhoff.norm();
  ASSERT_GT(trial_norm, 1.0);
  MaxwellState s;
  Tensor<2, 2> Fn = shear(0.0);
  double       norm = 0.0;
  for (unsigned int step = 0; step < 4; ++step)
    {
      const auto r = mb.update(s, Fn, F, 100.0 * tau0);
      norm         = r.kirchhoff.norm();
      ASSERT_TRUE(std::isfinite(norm));
      ASSERT_LT(r.newton_iterations, 40u);
      if (step == 0)
        {
          EXPECT_LT(norm, 0.05 * trial_norm);
        }
      s  = r.state;
      Fn = F;
    }
  std::printf("[ large dt ] |tau_v| after 4 steps of 100 tau0: %.3e (trial %.3e)\n",
              norm, trial_norm);
  EXPECT_LT(norm, 1e-6 * trial_norm);
}

// 4. Consistent algorithmic tangent against central differences of P_v, d = 0 and
//    d > 0 (the Payne factor's dependence on F_{n+1} is part of the tangent).
TEST(MaxwellBranch, TangentMatchesFiniteDifferences)
{
  for (const double d : {0.0, 2e-3})
    {
      const MaxwellBranch mb = branch(d);
      Tensor<2, 2>        Fn;
      const MaxwellState  s  = prestrained_state(mb, Fn);
      Tensor<2, 2>        F  = Fn;
      F[0][0] += 0.03;
      F[0][1] -= 0.05;
      F[1][1] += 0.02;
      for (const double dt : {0.01 * tau0, tau0, 30.0 * tau0})
        {
          const double e = tangent_fd_error(mb, s, Fn, F, dt);
          const auto   r = mb.update(s, Fn, F, dt);
          std::printf("[ tangent  ] d = %.0e s, dt/tau0 = %5.2f, H = %.3f: rel. err %.2e\n",
                      d, dt / tau0, r.payne_factor, e);
          EXPECT_LT(e, 1e-6) << "d = " << d << ", dt = " << dt;
          if (d > 0.0)
            {
              EXPECT_GT(r.payne_factor, 1.05); // the Payne term is exercised
            }
        }
    }
  // undeformed, relaxed state: equal trial eigenvalues (limit formula)
  const MaxwellBranch mb = branch();
  const Tensor<2, 2>  I  = shear(0.0);
  const double e0 = tangent_fd_error(mb, MaxwellState(), I, I, tau0);
  std::printf("[ tangent  ] undeformed (equal eigenvalues): rel. err %.2e\n", e0);
  EXPECT_LT(e0, 1e-6);
  // nearly equal trial eigenvalues, on both sides of the limit-formula switch
  for (const double g : {1e-10, 1e-7, 1e-5})
    {
      const double e = tangent_fd_error(mb, MaxwellState(), I, shear(g), tau0);
      std::printf("[ tangent  ] shear %.0e (nearly equal eigenvalues): rel. err %.2e\n",
                  g, e);
      EXPECT_LT(e, 1e-6) << "shear " << g;
    }
  // small-strain tangent at F = I: the shear entry equals the relaxed modulus of
  // one backward-Euler step, μ_v0/(1 + Δt/τ0) (μ_v0: small-strain modulus)
  const auto r = mb.update(MaxwellState(), I, I, tau0);
  EXPECT_NEAR(r.tangent[0][1][0][1], mb.initial_shear_modulus() / 2.0, 1e-10);
}

// 5. Plane strain: C_v,33 evolves under a sustained in-plane deformation; at full
//    relaxation b_e = J^{2/3} I, i.e. (C_v⁻¹)_33 = J^{2/3}.
TEST(MaxwellBranch, PlaneStrainOutOfPlaneViscousStrainEvolves)
{
  const MaxwellBranch mb = branch();
  Tensor<2, 2>        F  = shear(0.0);
  F[0][0]                = 1.3;
  MaxwellState s;
  Tensor<2, 2> Fn = shear(0.0);
  const auto   r1 = mb.update(s, Fn, F, 0.1 * tau0);
  EXPECT_GT(std::abs(r1.state.Cv_inv[2][2] - 1.0), 1e-3);
  s = r1.state;
  for (unsigned int step = 0; step < 300; ++step)
    s = mb.update(s, F, F, 0.1 * tau0).state;
  std::printf("[ plane    ] (C_v^-1)_33 = %.8f, J^(2/3) = %.8f\n", s.Cv_inv[2][2],
              std::pow(1.3, 2.0 / 3.0));
  EXPECT_NEAR(s.Cv_inv[2][2], std::pow(1.3, 2.0 / 3.0), 1e-8);
  EXPECT_NEAR(dealii::determinant(s.Cv_inv), 1.0, 1e-12);
  EXPECT_LT(mb.update(s, F, F, 0.1 * tau0).kirchhoff.norm(), 1e-8);
}

// 6. Payne: with d > 0 the cyclic (storage) modulus falls with the amplitude; with
//    d = 0 it is amplitude independent (5 %) in the small-strain range.
TEST(MaxwellBranch, PayneAmplitudeDependence)
{
  const OgdenMaterial el    = OgdenMaterial::default_set(mu_e);
  const double        omega = 1.0 / tau0;
  const std::vector<double> amplitudes{1e-4, 1e-3, 1e-2, 1e-1};
  std::vector<double> G0, Gd;
  for (const double g : amplitudes)
    {
      G0.push_back(harmonic_moduli(el, branch(0.0), g, omega, 1000, 4).storage);
      Gd.push_back(harmonic_moduli(el, branch(1e-2), g, omega, 1000, 4).storage);
      std::printf("[ payne    ] gamma0 = %.0e: G'(d=0) = %.4f, G'(d=1e-2 s) = %.4f\n",
                  g, G0.back(), Gd.back());
    }
  for (unsigned int i = 1; i < 3; ++i)
    EXPECT_NEAR(G0[i] / G0[0], 1.0, 0.05) << "d = 0, amplitude " << amplitudes[i];
  for (unsigned int i = 1; i < amplitudes.size(); ++i)
    EXPECT_LT(Gd[i], Gd[i - 1]) << "d > 0, amplitude " << amplitudes[i];
  EXPECT_LT(Gd.back(), 0.7 * Gd.front());
  // small amplitude: the Payne factor is ~1, so d > 0 ≈ d = 0
  EXPECT_NEAR(Gd.front() / G0.front(), 1.0, 0.01);
}

// Steady simple shear F(t) = [[1, γ̇ t], [0, 1]] (docs/methods.md §3.4): the rate of
// deformation is D = γ̇/2 (e1⊗e2 + e2⊗e1), ‖D‖ = γ̇/√2, and the step's
// D = sym((F_{n+1} − F_n) F_{n+1}⁻¹)/Δt is exact for it. Then
//  (a) backward Euler gives q_n = ‖D‖ (1 − (1 + Δt/λ)^−n), which follows the exact
//      q(t) = ‖D‖ (1 − e^{−t/λ}) to first order in Δt/λ;
//  (b) with q at its steady value the viscosity is η0/(1 + d‖D‖): the branch's shear
//      stress rises as μ_v0 τ_eff γ̇ (1 − e^{−t/τ_eff}) with the effective relaxation time
//      τ_eff = τ0/(1 + d‖D‖) (small Weissenberg number γ̇ τ_eff ≈ 1e-3, the small-strain
//      limit), and its steady value is reached also from q = 0.
TEST(MaxwellBranch, PayneSteadySimpleShearRelaxesQAndShortensTheRelaxationTime)
{
  const double        d      = 0.1;                    // s
  const double        normD  = 20.0;                   // 1/s
  const double        gdot   = std::sqrt(2.0) * normD; // γ̇ (1/s)
  const MaxwellBranch mb     = branch(d);
  const double        lambda = mb.payne_lambda();
  const double        H      = 1.0 + d * normD; // 3
  const double        tau_eff = tau0 / H;
  const double        mu0     = mb.initial_shear_modulus();
  const double        steady  = mu0 * tau_eff * gdot; // τ_12 (MPa)

  // (a) q from 0, steps λ/100
  {
    const double h = lambda / 100.0;
    MaxwellState s;
    double       max_continuous_error = 0.0;
    for (unsigned int n = 1; n <= 1000; ++n)
      {
        const auto r = mb.update(s, shear(gdot * (n - 1) * h), shear(gdot * n * h), h, false);
        s            = r.state;
        EXPECT_NEAR(s.rate_of_deformation, normD, 1e-9 * normD) << "step " << n;
        const double discrete = normD * (1.0 - std::pow(1.0 + h / lambda, -double(n)));
        ASSERT_NEAR(s.q, discrete, 1e-9 * normD) << "step " << n;
        EXPECT_NEAR(r.payne_factor, 1.0 + d * s.q, 1e-12);
        max_continuous_error =
          std::max(max_continuous_error,
                   std::abs(s.q - normD * (1.0 - std::exp(-double(n) * h / lambda))) / normD);
      }
    // first order: the largest error is (Δt/λ)/(2e) ≈ 1.8e-3 at t = λ
    EXPECT_LT(max_continuous_error, 2.5e-3);
    EXPECT_GT(max_continuous_error, 1.0e-3); // and it is first order, not zero
    EXPECT_NEAR(s.q, normD, 1e-4 * normD);   // 10 λ: e^-10
  }

  // (b) q steady from the start: the stress rises with τ_eff = τ0/H
  {
    const double h = tau_eff / 400.0;
    MaxwellState s;
    s.q = normD; // the fixed point of the backward-Euler q at this rate
    double       sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0;
    unsigned int n_fit = 0;
    double       tau12 = 0.0;
    for (unsigned int n = 1; n <= 4000; ++n) // 10 τ_eff
      {
        const double t = n * h;
        const auto   r = mb.update(s, shear(gdot * (t - h)), shear(gdot * t), h, false);
        s              = r.state;
        ASSERT_NEAR(s.q, normD, 1e-9 * normD);
        tau12 = r.kirchhoff[0][1];
        if (t <= 4.0 * tau_eff)
          {
            const double y = std::log(steady - tau12);
            sx += t, sy += y, sxx += t * t, sxy += t * y, ++n_fit;
          }
      }
    const double tau_fit = -(n_fit * sxx - sx * sx) / (n_fit * sxy - sx * sy);
    std::printf("[ payne    ] simple shear at |D| = %.0f 1/s, d = %.1f s: fitted relaxation "
                "time %.4e s, tau0/(1 + d|D|) = %.4e s\n",
                normD, d, tau_fit, tau_eff);
    EXPECT_NEAR(tau_fit / tau_eff, 1.0, 0.01);
    EXPECT_NEAR(tau12 / steady, 1.0, 2e-3); // e^-10 and O(γ̇ τ_eff) of the finite strain
  }

  // (b') from q = 0 the same steady stress; with d = 0 it is H times larger
  for (const double dd : {d, 0.0})
    {
      const MaxwellBranch m2 = branch(dd);
      const double        h  = tau_eff / 100.0;
      MaxwellState        s;
      double              tau12 = 0.0;
      for (unsigned int n = 1; n <= 3000; ++n) // 30 τ_eff = 10 τ0 = 100 λ
        {
          const auto r = m2.update(s, shear(gdot * (n - 1) * h), shear(gdot * n * h), h, false);
          s            = r.state;
          tau12        = r.kirchhoff[0][1];
        }
      EXPECT_NEAR(tau12 / (mu0 * tau0 / (1.0 + dd * normD) * gdot), 1.0, 5e-3) << "d = " << dd;
    }
}

// The step's D = sym((F_{n+1} − F_n) F_{n+1}⁻¹)/Δt against the exact rate of deformation
// of a rotating extension F(t) = Q(Ω t) diag(e^{ε t}, e^{−ε t}): its
// D = Q diag(ε, −ε) Qᵀ, ‖D‖ = √2 ε at all times, the spin Ω does not enter. The step's
// norm is second-order accurate here, |error|/‖D‖ ≤ ((ε + Ω) Δt)² (measured: 2.1e-3,
// 2.1e-5, 2.1e-7 at Δt = 4e-6, 4e-7, 4e-8 s): at the rates of the cell (‖D‖ ≲ 1e4 1/s,
// Δt = 4e-7 s) below 1e-4, so the approximation cannot hide a Payne effect.
TEST(MaxwellBranch, StepRateOfDeformationConvergesWithTheTimeStep)
{
  const MaxwellBranch mb = branch(1e-5);
  const double        eps = 1e4, Omega = 2e4; // 1/s
  const auto          F = [&](const double t) {
    const double c = std::cos(Omega * t), s = std::sin(Omega * t);
    const double a = std::exp(eps * t), b = std::exp(-eps * t);
    Tensor<2, 2> f;
    f[0][0] = c * a, f[0][1] = -s * b;
    f[1][0] = s * a, f[1][1] = c * b;
    return f;
  };
  double previous_error = 0.0;
  for (const double dt : {4e-6, 4e-7, 4e-8})
    {
      double       worst = 0.0;
      MaxwellState s;
      for (unsigned int n = 1; n <= 20; ++n)
        {
          const auto r = mb.update(s, F((n - 1) * dt), F(n * dt), dt, false);
          s            = r.state;
          worst = std::max(worst, std::abs(s.rate_of_deformation / (std::sqrt(2.0) * eps) - 1.0));
        }
      std::printf("[ rate     ] dt = %.0e s: largest relative error of ||D|| %.3e\n", dt, worst);
      EXPECT_LE(worst, std::pow((eps + Omega) * dt, 2));
      if (previous_error > 0.0)
        { // second order: a hundred times smaller for a ten times smaller step
          EXPECT_NEAR(previous_error / worst, 100.0, 5.0);
        }
      previous_error = worst;
    }
}

// Input checks (documented throws) and the parameter-subsection factory.
TEST(MaxwellBranch, InputChecksAndFactory)
{
  EXPECT_THROW(MaxwellBranch(-1.0, alpha_default, gamma_default, tau0, 0.0, 1e-5),
               std::invalid_argument);
  EXPECT_THROW(MaxwellBranch(5.0, alpha_default, gamma_default, 0.0, 0.0, 1e-5),
               std::invalid_argument);
  EXPECT_THROW(MaxwellBranch(5.0, alpha_default, gamma_default, tau0, -1.0, 1e-5),
               std::invalid_argument);
  EXPECT_THROW(MaxwellBranch(5.0, alpha_default, gamma_default, tau0, 0.0, 0.0),
               std::invalid_argument);
  EXPECT_THROW(MaxwellBranch(5.0, {2.0}, {-1.0}, tau0, 0.0, 1e-5),
               std::invalid_argument); // γα < 0
  const MaxwellBranch mb = branch();
  const Tensor<2, 2>  I  = shear(0.0);
  EXPECT_THROW(mb.update(MaxwellState(), I, I, 0.0), std::invalid_argument);
  EXPECT_THROW(mb.update(MaxwellState(), I, I, std::nan("")), std::invalid_argument);
  Tensor<2, 2> Fbad = I;
  Fbad[0][0]        = -1.0;
  EXPECT_THROW(mb.update(MaxwellState(), I, Fbad, tau0), std::domain_error);
  const OgdenMaterial           el = OgdenMaterial::default_set(mu_e);
  std::vector<DeformationPoint> path(2);
  path[0].F = path[1].F = I;
  EXPECT_THROW(drive_material_point(el, mb, path), std::invalid_argument); // equal t
  EXPECT_THROW(drive_material_point(el, mb, {}), std::invalid_argument);

  granular::RubberParameters prm;
  EXPECT_FALSE(MaxwellBranch::from_parameters(prm).active());
  prm.viscoelastic = true;
  prm.payne_d      = 1e-3;
  const MaxwellBranch fp = MaxwellBranch::from_parameters(prm);
  EXPECT_DOUBLE_EQ(fp.mu_v(), 5.0);
  EXPECT_DOUBLE_EQ(fp.relaxation_time(), 1e-4);
  EXPECT_DOUBLE_EQ(fp.payne_d(), 1e-3);
  EXPECT_DOUBLE_EQ(fp.payne_lambda(), 1e-5);
}
