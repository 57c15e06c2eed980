// Tests of the Ogden material kernel (docs/methods.md §3.2, §3.5): derivatives against finite
// differences (also at equal principal stretches), small-strain and analytic limits,
// objectivity, the principal-stretch entry, the volumetric energy, input checks.
#include "material/ogden_material.h"

#include <deal.II/base/numbers.h>
#include <deal.II/base/tensor.h>

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace
{
  using granular::material::OgdenMaterial;
  using granular::material::VolumetricEnergy;
  using dealii::SymmetricTensor;
  using dealii::Tensor;

  constexpr double mu_test = 1.7; // MPa; ≠ 1 so that a missing μ factor shows

  OgdenMaterial
  default_material()
  {
    return OgdenMaterial::default_set(mu_test);
  }

  /// μ · ½ Σ γ_p α_p for the default set, written out independently.
  double
  expected_shear_modulus()
  {
    return mu_test * 0.5 * (0.661 * 1.8 + (-0.231) * (-2.0) + 0.0496 * 7.0);
  }

  Tensor<2, 2>
  rotation(const double t)
  {
    Tensor<2, 2> R;
    R[0][0] = std::cos(t);
    R[0][1] = -std::sin(t);
    R[1][0] = std::sin(t);
    R[1][1] = std::cos(t);
    return R;
  }

  Tensor<2, 2>
  diag(const double a, const double b)
  {
    Tensor<2, 2> D;
    D[0][0] = a;
    D[1][1] = b;
    return D;
  }

  Tensor<2, 2>
  identity()
  {
    return diag(1.0, 1.0);
  }

  struct Case
  {
    std::string  name;
    Tensor<2, 2> F;
    double       h_energy; // FD step for ∂W/∂F
  };

  /// Large deformations (stretches 0.5..2, rotations, shear) and (near-)equal
  /// principal stretches, including F = I exactly.
  std::vector<Case>
  deformation_cases()
  {
    std::vector<Case>                      cases;
    std::mt19937                           gen(20240611);
    std::uniform_real_distribution<double> stretch(0.5, 2.0);
    std::uniform_real_distribution<double> angle(-dealii::numbers::PI, dealii::numbers::PI);
    std::uniform_real_distribution<double> shear(-0.8, 0.8);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    for (int n = 0; n < 8; ++n)
      {
        Tensor<2, 2> G = identity();
        G[0][1]        = shear(gen);
        const double l1 = stretch(gen), l2 = stretch(gen);
        const double t1 = angle(gen), t2 = angle(gen);
        cases.push_back({"random large #" + std::to_string(n),
                         rotation(t1) * diag(l1, l2) * rotation(t2) * G,
                         1e-6});
      }
    {
      Tensor<2, 2> G = identity();
      G[0][1]        = 1.0;
      cases.push_back({"simple shear g=1", G, 1e-6});
    }
    for (int n = 0; n < 3; ++n)
      {
        Tensor<2, 2> F = identity();
        for (unsigned int i = 0; i < 2; ++i)
          for (unsigned int j = 0; j < 2; ++j)
            F[i][j] += 1e-7 * unit(gen);
        cases.push_back({"I + 1e-7 random #" + std::to_string(n), F, 1e-8});
      }
    for (const double l : {0.6, 1.0, 1.7})
      cases.push_back({"rotation*diag(l,l), l=" + std::to_string(l),
                       rotation(0.7) * diag(l, l),
                       l == 1.0 ? 1e-8 : 1e-6});
    cases.push_back(
      {"rotation*diag(l(1+1e-10),l)", rotation(-1.1) * diag(1.3 * (1 + 1e-10), 1.3), 1e-6});
    cases.push_back({"F = I exactly", identity(), 1e-8});
    return cases;
  }

  double
  rel_error(const double err, const double ref_norm, const double floor)
  {
    return err / std::max(ref_norm, floor);
  }

  OgdenMaterial::Response
  eval(const OgdenMaterial &m, const Tensor<2, 2> &F)
  {
    OgdenMaterial::Response r;
    m.evaluate(F, r);
    return r;
  }
} // namespace

// 1. P_iso = ∂W_iso/∂F (central differences of the energy).
TEST(OgdenMaterial, FirstPiolaMatchesEnergyDerivative)
{
  const OgdenMaterial mat = default_material();
  for (const Case &c : deformation_cases())
    {
      const auto   r = eval(mat, c.F);
      Tensor<2, 2> P_fd;
      for (unsigned int k = 0; k < 2; ++k)
        for (unsigned int l = 0; l < 2; ++l)
          {
            Tensor<2, 2> Fp = c.F, Fm = c.F;
            Fp[k][l] += c.h_energy;
            Fm[k][l] -= c.h_energy;
            P_fd[k][l] = (mat.energy(Fp) - mat.energy(Fm)) / (2 * c.h_energy);
          }
      // floor μh: at F = I exactly P = 0 and the FD quotient is O(h² μ)
      const double e = rel_error((P_fd - r.first_piola).norm(),
                                 r.first_piola.norm(),
                                 mu_test * c.h_energy);
      EXPECT_LE(e, 1e-6) << c.name << "  |P| = " << r.first_piola.norm();
      EXPECT_NEAR(r.energy, mat.energy(c.F), 1e-14 * (1 + std::abs(r.energy)))
        << c.name;
    }
}

// The stress-only evaluation (residual-only assemblies of the line search) gives the
// energy and stresses of the full evaluation bit for bit: the solution path of a run must
// not depend on which assemblies compute the tangent.
TEST(OgdenMaterial, StressOnlyEvaluationIsBitwiseTheFullOne)
{
  const OgdenMaterial mat = default_material();
  for (const Case &c : deformation_cases())
    {
      OgdenMaterial::Response full, stress_only;
      mat.evaluate(c.F, full, true);
      mat.evaluate(c.F, stress_only, false);
      EXPECT_EQ(full.energy, stress_only.energy) << c.name;
      for (unsigned int i = 0; i < 2; ++i)
        for (unsigned int j = 0; j < 2; ++j)
          {
            EXPECT_EQ(full.first_piola[i][j], stress_only.first_piola[i][j]) << c.name;
            EXPECT_EQ(full.kirchhoff[i][j], stress_only.kirchhoff[i][j]) << c.name;
          }
      EXPECT_EQ(full.kirchhoff[2][2], stress_only.kirchhoff[2][2]) << c.name;
    }
}

// 2. A_iso = ∂P_iso/∂F (central differences of P_iso).
TEST(OgdenMaterial, TangentMatchesStressDerivative)
{
  const OgdenMaterial mat = default_material();
  const double        h   = 1e-6;
  for (const Case &c : deformation_cases())
    {
      const auto   r = eval(mat, c.F);
      Tensor<4, 2> A_fd;
      for (unsigned int k = 0; k < 2; ++k)
        for (unsigned int l = 0; l < 2; ++l)
          {
            Tensor<2, 2> Fp = c.F, Fm = c.F;
            Fp[k][l] += h;
            Fm[k][l] -= h;
            const Tensor<2, 2> dP =
              (eval(mat, Fp).first_piola - eval(mat, Fm).first_piola) / (2 * h);
            for (unsigned int i = 0; i < 2; ++i)
              for (unsigned int J = 0; J < 2; ++J)
                A_fd[i][J][k][l] = dP[i][J];
          }
      const double e = rel_error((A_fd - r.tangent).norm(), r.tangent.norm(), 0.0);
      EXPECT_LE(e, 1e-6) << c.name;
      // major symmetry A_iJkL = A_kLiJ (hyperelastic)
      for (unsigned int i = 0; i < 2; ++i)
        for (unsigned int J = 0; J < 2; ++J)
          for (unsigned int k = 0; k < 2; ++k)
            for (unsigned int l = 0; l < 2; ++l)
              EXPECT_NEAR(r.tangent[i][J][k][l],
                          r.tangent[k][l][i][J],
                          1e-12 * r.tangent.norm())
                << c.name;
    }
}

// Equal-stretch robustness: P and A at F = R diag(l(1+δ), l) tend to their values at
// δ = 0 like O(δ) all the way down to round-off (a naive divided difference
// (c1^k − c2^k)/(c1 − c2) loses ~ε/δ and fails here).
TEST(OgdenMaterial, ContinuousAtEqualStretches)
{
  const OgdenMaterial mat = default_material();
  for (const double l : {0.55, 1.0, 1.9})
    {
      const Tensor<2, 2> R  = rotation(0.37);
      const auto         r0 = eval(mat, R * diag(l, l));
      const double       nP = r0.first_piola.norm() + mu_test;
      const double       nA = r0.tangent.norm();
      for (double delta = 1e-3; delta > 1e-16; delta /= 10.0)
        {
          const auto r = eval(mat, R * diag(l * (1.0 + delta), l));
          EXPECT_LE((r.first_piola - r0.first_piola).norm(), 10.0 * delta * nP + 1e-14 * nP)
            << "l = " << l << ", delta = " << delta;
          EXPECT_LE((r.tangent - r0.tangent).norm(), 10.0 * delta * nA + 1e-13 * nA)
            << "l = " << l << ", delta = " << delta;
        }
    }
}

// 3. Small-strain shear modulus μ ½Σγα (= 0.99909… μ for the default set).
TEST(OgdenMaterial, SmallStrainShearModulus)
{
  const OgdenMaterial mat = default_material();
  const double        G   = expected_shear_modulus();
  EXPECT_NEAR(mat.initial_shear_modulus(), G, 1e-14 * G);
  // ½(0.661·1.8 + 0.231·2 + 0.0496·7) = ½·1.999 = 0.9995 (≈ 1, docs/methods.md §3.5)
  EXPECT_NEAR(mat.initial_shear_modulus() / mu_test, 0.9995, 1e-12);

  const double g  = 1e-6;
  Tensor<2, 2> F  = identity();
  F[0][1]         = g;
  const auto r    = eval(mat, F);
  EXPECT_NEAR(r.first_piola[0][1] / g, G, 1e-6 * G);

  // A at F = I: isotropic deviatoric plane-strain elasticity
  // A_iJkL = G(δ_ik δ_JL + δ_iL δ_Jk) − (2G/3) δ_iJ δ_kL
  const auto r0 = eval(mat, identity());
  EXPECT_EQ(r0.first_piola.norm(), 0.0);
  EXPECT_EQ(r0.energy, 0.0);
  for (unsigned int i = 0; i < 2; ++i)
    for (unsigned int J = 0; J < 2; ++J)
      for (unsigned int k = 0; k < 2; ++k)
        for (unsigned int l = 0; l < 2; ++l)
          {
            const double expected =
              G * ((i == k && J == l) + (i == l && J == k)) -
              2.0 * G / 3.0 * (i == J && k == l);
            EXPECT_NEAR(r0.tangent[i][J][k][l], expected, 1e-13 * G)
              << i << J << k << l;
          }
}

// 4. Isochoric plane-strain stretch F = diag(l, 1/l):
//    σ11 − σ22 = Σ μ_p (l^α_p − l^−α_p), μ_p = μ γ_p  (Ogden 1972).
TEST(OgdenMaterial, PlaneStrainStretchMatchesAnalyticOgden)
{
  const OgdenMaterial mat = default_material();
  for (const double l : {0.5, 0.65, 0.8, 0.95, 1.05, 1.3, 1.6, 2.0})
    {
      const auto r = eval(mat, diag(l, 1.0 / l));
      // J = 1: Cauchy = Kirchhoff
      const double diff = r.kirchhoff[0][0] - r.kirchhoff[1][1];
      double       expected = 0.0;
      for (unsigned int p = 0; p < mat.n_terms(); ++p)
        expected += mu_test * mat.gamma(p) *
                    (std::pow(l, mat.alpha(p)) - std::pow(l, -mat.alpha(p)));
      EXPECT_NEAR(diff, expected, 1e-12 * std::max(std::abs(expected), mu_test))
        << "l = " << l;
      EXPECT_NEAR(r.kirchhoff[0][1], 0.0, 1e-14 * mu_test);
      // same from P: σ = P Fᵀ, σ11 − σ22 = P11 l − P22 / l
      EXPECT_NEAR(r.first_piola[0][0] * l - r.first_piola[1][1] / l,
                  expected,
                  1e-12 * std::max(std::abs(expected), mu_test));
    }
}

// 5. τ_iso deviatoric; τ33 analytic for F = diag(l, 1/l) and for a compressed state.
TEST(OgdenMaterial, KirchhoffIsDeviatoricWithAnalyticTau33)
{
  const OgdenMaterial mat = default_material();
  for (const Case &c : deformation_cases())
    {
      const auto r = eval(mat, c.F);
      // round-off floor ~ε μ from forming C = FᵀF
      EXPECT_LE(std::abs(dealii::trace(r.kirchhoff)),
                1e-13 * r.kirchhoff.norm() + 1e-15 * mu_test)
        << c.name;
      // τ = P Fᵀ in-plane
      const Tensor<2, 2> tau2 = r.first_piola * dealii::transpose(c.F);
      for (unsigned int i = 0; i < 2; ++i)
        for (unsigned int j = 0; j < 2; ++j)
          EXPECT_NEAR(r.kirchhoff[i][j], tau2[i][j], 1e-13 * tau2.norm() + 1e-15 * mu_test)
            << c.name;
      EXPECT_EQ(r.kirchhoff[0][2], 0.0);
      EXPECT_EQ(r.kirchhoff[1][2], 0.0);
    }
  // analytic principal values for F = diag(l1, l2) (λ3 = 1, J = l1 l2)
  const std::vector<std::array<double, 2>> stretches = {
    {{2.0, 0.5}}, {{0.5, 2.0}}, {{1.4, 1.0 / 1.4}}, {{1.3, 0.9}}, {{0.8, 0.7}}, {{1.2, 1.2}}};
  for (const auto &ls : stretches)
    {
      const auto   r      = eval(mat, diag(ls[0], ls[1]));
      const double J      = ls[0] * ls[1];
      const double lam[3] = {ls[0], ls[1], 1.0};
      double       tau[3] = {0.0, 0.0, 0.0};
      for (unsigned int p = 0; p < mat.n_terms(); ++p)
        {
          double x[3], sum = 0.0;
          for (unsigned int a = 0; a < 3; ++a)
            {
              x[a] = std::pow(std::pow(J, -1.0 / 3.0) * lam[a], mat.alpha(p));
              sum += x[a];
            }
          for (unsigned int a = 0; a < 3; ++a)
            tau[a] += mu_test * mat.gamma(p) * (x[a] - sum / 3.0);
        }
      const double tol = 1e-12 * mu_test * 10;
      EXPECT_NEAR(r.kirchhoff[0][0], tau[0], tol) << ls[0] << "," << ls[1];
      EXPECT_NEAR(r.kirchhoff[1][1], tau[1], tol) << ls[0] << "," << ls[1];
      EXPECT_NEAR(r.kirchhoff[2][2], tau[2], tol) << ls[0] << "," << ls[1];
      if (std::abs(J - 1.0) < 1e-14)
        {
          // F = diag(l, 1/l): τ33 = Σ μ_p (1 − (l^α + l^−α + 1)/3)
          double expected = 0.0;
          for (unsigned int p = 0; p < mat.n_terms(); ++p)
            {
              const double a = mat.alpha(p);
              expected += mu_test * mat.gamma(p) *
                          (1.0 - (std::pow(ls[0], a) + std::pow(ls[0], -a) + 1.0) / 3.0);
            }
          EXPECT_NEAR(r.kirchhoff[2][2], expected, tol);
        }
    }
}

// 6. Objectivity (W(QF) = W(F), P(QF) = Q P, τ(QF) = Q τ Qᵀ, A rotates) and isotropy
//    (W(FQ) = W(F)).
TEST(OgdenMaterial, ObjectivityAndIsotropy)
{
  const OgdenMaterial mat = default_material();
  for (const Case &c : deformation_cases())
    for (const double t : {0.3, -2.1, 3.0})
      {
        const Tensor<2, 2> Q  = rotation(t);
        const auto         r  = eval(mat, c.F);
        const auto         rq = eval(mat, Q * c.F);
        // absolute floors: C = FᵀF carries an O(ε) absolute error, which near F = I
        // (strain 1e-7) limits the relative accuracy of W, P, τ to ~1e-9
        const double       sW = 1e-13 * std::abs(r.energy) + 1e-21 * mu_test;
        EXPECT_NEAR(rq.energy, r.energy, sW) << c.name;
        EXPECT_NEAR(mat.energy(c.F * Q), r.energy, sW) << c.name;
        const double sP = 1e-12 * r.first_piola.norm() + 1e-14 * mu_test;
        EXPECT_LE((rq.first_piola - Q * r.first_piola).norm(), sP) << c.name;
        Tensor<2, 2> tau, tauq;
        for (unsigned int i = 0; i < 2; ++i)
          for (unsigned int j = 0; j < 2; ++j)
            {
              tau[i][j]  = r.kirchhoff[i][j];
              tauq[i][j] = rq.kirchhoff[i][j];
            }
        EXPECT_LE((tauq - Q * tau * dealii::transpose(Q)).norm(), sP) << c.name;
        EXPECT_NEAR(rq.kirchhoff[2][2], r.kirchhoff[2][2], sP) << c.name;
        Tensor<4, 2> A_rot;
        for (unsigned int i = 0; i < 2; ++i)
          for (unsigned int J = 0; J < 2; ++J)
            for (unsigned int k = 0; k < 2; ++k)
              for (unsigned int L = 0; L < 2; ++L)
                for (unsigned int a = 0; a < 2; ++a)
                  for (unsigned int b = 0; b < 2; ++b)
                    A_rot[i][J][k][L] += Q[i][a] * Q[k][b] * r.tangent[a][J][b][L];
        EXPECT_LE((rq.tangent - A_rot).norm(), 1e-12 * r.tangent.norm()) << c.name;
      }
}

// Consistent tangent ⇒ quadratic Newton convergence: minimise W_iso(U) − T:U over
// symmetric in-plane U (3 unknowns), starting from the undeformed state U = I.
TEST(OgdenMaterial, NewtonConvergesQuadratically)
{
  const OgdenMaterial mat = default_material();
  Tensor<2, 2>        T; // prescribed (symmetric) Biot-type load, MPa
  T[0][0] = 0.45 * mu_test;
  T[1][1] = -0.2 * mu_test;
  T[0][1] = T[1][0] = 0.3 * mu_test;
  std::array<Tensor<2, 2>, 3> B; // basis of symmetric 2×2
  B[0][0][0] = 1.0;
  B[1][1][1] = 1.0;
  B[2][0][1] = B[2][1][0] = 1.0;

  Tensor<2, 2>        U = identity();
  std::vector<double> res;
  for (int it = 0; it < 30; ++it)
    {
      const auto   r = eval(mat, U);
      Tensor<1, 3> g;
      Tensor<2, 3> H;
      for (unsigned int a = 0; a < 3; ++a)
        {
          g[a] = dealii::scalar_product(r.first_piola - T, B[a]);
          for (unsigned int b = 0; b < 3; ++b)
            for (unsigned int i = 0; i < 2; ++i)
              for (unsigned int J = 0; J < 2; ++J)
                for (unsigned int k = 0; k < 2; ++k)
                  for (unsigned int L = 0; L < 2; ++L)
                    H[a][b] += B[a][i][J] * r.tangent[i][J][k][L] * B[b][k][L];
        }
      res.push_back(g.norm() / mu_test);
      if (res.back() < 1e-13)
        break;
      const Tensor<1, 3> du = -dealii::invert(H) * g;
      for (unsigned int a = 0; a < 3; ++a)
        U += du[a] * B[a];
    }
  ASSERT_LT(res.back(), 1e-13) << "Newton did not converge in 30 iterations";
  EXPECT_LE(res.size(), 10u);
  // asymptotic rate: r_{k+1} ≤ C r_k² once in the quadratic regime
  int checked = 0;
  for (std::size_t k = 0; k + 1 < res.size(); ++k)
    if (res[k] < 1e-2 && res[k] > 1e-6)
      {
        EXPECT_LE(res[k + 1], 10.0 * res[k] * res[k]) << "iteration " << k;
        ++checked;
      }
  EXPECT_GE(checked, 1);
}

// Principal-stretch entry (for the Maxwell branch): τ_a = ∂W/∂ε_a, ∂τ_a/∂ε_b by
// finite differences, deviatoric, and consistent with evaluate() in plane strain.
TEST(OgdenMaterial, PrincipalEntryIsConsistent)
{
  const OgdenMaterial mat = default_material();
  const std::vector<std::array<double, 3>> strains = {
    {{0.3, -0.5, 0.1}}, {{0.0, 0.0, 0.0}}, {{0.2, 0.2, 0.2}}, {{-0.6, 0.1, 0.45}}, {{1e-7, -2e-7, 0.0}}};
  for (const auto &e : strains)
    {
      OgdenMaterial::PrincipalResponse r;
      mat.evaluate_principal(e, r);
      EXPECT_NEAR(r.tau[0] + r.tau[1] + r.tau[2], 0.0, 1e-14 * mu_test * 10);
      const double h = 1e-6;
      for (unsigned int b = 0; b < 3; ++b)
        {
          auto ep = e, em = e;
          ep[b] += h;
          em[b] -= h;
          OgdenMaterial::PrincipalResponse rp, rm;
          mat.evaluate_principal(ep, rp);
          mat.evaluate_principal(em, rm);
          EXPECT_NEAR((rp.energy - rm.energy) / (2 * h), r.tau[b], 1e-8 * mu_test);
          for (unsigned int a = 0; a < 3; ++a)
            {
              EXPECT_NEAR((rp.tau[a] - rm.tau[a]) / (2 * h),
                          r.dtau_dlog[a][b],
                          1e-8 * mu_test);
              EXPECT_NEAR(r.dtau_dlog[a][b], r.dtau_dlog[b][a], 1e-14 * mu_test * 50);
            }
        }
    }
  // plane strain: F = R diag(l1, l2) Rᵀ has principal τ = evaluate_principal(ln l1, ln l2, 0)
  const double       l1 = 1.45, l2 = 0.62, t = 0.4;
  const Tensor<2, 2> R  = rotation(t);
  const auto         rf = eval(mat, R * diag(l1, l2) * dealii::transpose(R));
  OgdenMaterial::PrincipalResponse rp;
  mat.evaluate_principal({{std::log(l1), std::log(l2), 0.0}}, rp);
  EXPECT_NEAR(rf.energy, rp.energy, 1e-13 * mu_test);
  Tensor<2, 2> tau;
  for (unsigned int i = 0; i < 2; ++i)
    for (unsigned int j = 0; j < 2; ++j)
      tau[i][j] = rf.kirchhoff[i][j];
  const Tensor<2, 2> tau_principal = dealii::transpose(R) * tau * R;
  EXPECT_NEAR(tau_principal[0][0], rp.tau[0], 1e-12 * mu_test);
  EXPECT_NEAR(tau_principal[1][1], rp.tau[1], 1e-12 * mu_test);
  EXPECT_NEAR(tau_principal[0][1], 0.0, 1e-12 * mu_test);
  EXPECT_NEAR(rf.kirchhoff[2][2], rp.tau[2], 1e-12 * mu_test);
}

// 7a. U(J) = κ/4 (J² − 1 − 2 ln J): derivatives by finite differences, values at J = 1.
TEST(OgdenMaterial, VolumetricEnergyDerivatives)
{
  const VolumetricEnergy vol{1000.0};
  EXPECT_EQ(vol.U(1.0), 0.0);
  EXPECT_EQ(vol.dU(1.0), 0.0);
  EXPECT_DOUBLE_EQ(vol.d2U(1.0), 1000.0);
  EXPECT_NEAR(vol.U(2.0), 250.0 * (3.0 - 2.0 * std::log(2.0)), 1e-12 * 1000.0);
  const double h = 1e-6;
  for (const double J : {0.3, 0.8, 0.999, 1.0, 1.001, 1.25, 2.5})
    {
      const double fd1 = (vol.U(J + h) - vol.U(J - h)) / (2 * h);
      const double fd2 = (vol.dU(J + h) - vol.dU(J - h)) / (2 * h);
      EXPECT_NEAR(fd1, vol.dU(J), 1e-6 * std::abs(vol.dU(J)) + 1e-7 * vol.kappa)
        << "J = " << J;
      EXPECT_NEAR(fd2, vol.d2U(J), 1e-6 * std::abs(vol.d2U(J))) << "J = " << J;
      EXPECT_GE(vol.U(J), 0.0);
    }
  EXPECT_THROW(vol.U(0.0), std::domain_error);
  EXPECT_THROW(vol.dU(-1.0), std::domain_error);
  EXPECT_THROW(vol.d2U(std::nan("")), std::domain_error);
}

// 7b. Input validation.
TEST(OgdenMaterial, RejectsInvalidInput)
{
  const auto throws_with = [](auto &&make, const std::string &needle) {
    try
      {
        make();
        ADD_FAILURE() << "no exception; expected one mentioning '" << needle << "'";
      }
    catch (const std::invalid_argument &e)
      {
        EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
      }
  };
  throws_with([] { OgdenMaterial(1.0, {1.8, -2.0}, {0.661, -0.231, 0.0496}); },
              "same length");
  throws_with([] { OgdenMaterial(0.0, {2.0}, {1.0}); }, "mu");
  throws_with([] { OgdenMaterial(-1.0, {2.0}, {1.0}); }, "mu");
  throws_with([] { OgdenMaterial(std::nan(""), {2.0}, {1.0}); }, "mu");
  throws_with([] { OgdenMaterial(1.0, {}, {}); }, "number of Ogden terms");
  throws_with([] { OgdenMaterial(1.0, std::vector<double>(7, 2.0), std::vector<double>(7, 0.1)); },
              "number of Ogden terms");
  throws_with([] { OgdenMaterial(1.0, {2.0, 0.0}, {1.0, 0.1}); }, "alpha[1]");
  throws_with([] { OgdenMaterial(1.0, {2.0}, {std::nan("")}); }, "gamma[0]");
  throws_with([] { OgdenMaterial(1.0, {2.0}, {-1.0}); }, "1/2 sum gamma_p alpha_p");
  EXPECT_NO_THROW(OgdenMaterial(1.0, {2.0}, {1.0})); // neo-Hookean
  EXPECT_NO_THROW(OgdenMaterial(1.0, std::vector<double>(6, 2.0), std::vector<double>(6, 1.0 / 6)));

  const OgdenMaterial     mat = default_material();
  OgdenMaterial::Response r;
  EXPECT_THROW(mat.evaluate(diag(1.0, -1.0), r), std::domain_error);
  EXPECT_THROW(mat.evaluate(Tensor<2, 2>(), r), std::domain_error);
  EXPECT_THROW(mat.energy(diag(-1.0, 0.5)), std::domain_error);
}

// The neo-Hookean special case (α = 2, γ = 1): W = μ/2 (Ī1 − 3), closed form.
TEST(OgdenMaterial, NeoHookeanSpecialCase)
{
  const OgdenMaterial nh(2.0, {2.0}, {1.0});
  EXPECT_DOUBLE_EQ(nh.initial_shear_modulus(), 2.0);
  for (const Case &c : deformation_cases())
    {
      const double J  = dealii::determinant(c.F);
      const double I1 = dealii::scalar_product(c.F, c.F) + 1.0;
      const double W  = 0.5 * 2.0 * (std::pow(J, -2.0 / 3.0) * I1 - 3.0);
      EXPECT_NEAR(nh.energy(c.F), W, 1e-13 * 10) << c.name;
      // P = μ J^{-2/3} (F − I1/3 F^{-T})
      const Tensor<2, 2> P = 2.0 * std::pow(J, -2.0 / 3.0) *
                             (c.F - I1 / 3.0 * dealii::transpose(dealii::invert(c.F)));
      EXPECT_LE((eval(nh, c.F).first_piola - P).norm(), 1e-12 * (P.norm() + 1.0)) << c.name;
    }
}
