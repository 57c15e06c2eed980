// granular-interface — finite-strain Maxwell branch (docs/methods.md §3.3, §3.4).
//
// Derivation of the tangent (plane strain, everything in-plane unless noted).
//   B = F G Fᵀ (G: in-plane block of C_v,n⁻¹), β_1 ≥ β_2 its eigenvalues, n_a its
//   eigenvectors, M_a = n_a⊗n_a; ε_a^tr = ½ ln β_a, ε_3^tr = ½ ln (C_v,n⁻¹)_33 (fixed).
//   Local problem r(ε) = ε + k τ(ε) − ε^tr = 0, k = Δt/(2η) = Δt H/(2 τ0 μ_v0).
//   ∂ε/∂ε^tr = A⁻¹, A = I + kT, T = ∂τ/∂ε  ⇒  ∂τ/∂ε^tr = T A⁻¹,
//   ∂ε/∂k = −A⁻¹τ  ⇒  ∂τ/∂k = −T A⁻¹ τ.
//   τ_v = Σ_a f_a M_a with f_a(β_1, β_2) = τ_a, ∂f_a/∂β_b = (T A⁻¹)_ab / (2β_b):
//   ∂τ_v/∂B = Σ_ab ∂f_a/∂β_b M_a⊗M_b + (c/2) N⊗N,  N = n_1⊗n_2 + n_2⊗n_1,
//   c = (f_1 − f_2)/(β_1 − β_2)  (limit ½[(∂_1f_1 − ∂_2f_1) + (∂_2f_2 − ∂_1f_2)]
//   at coincidence).
//   ∂B_mn/∂F_kL = δ_mk (FG)_nL + (FG)_mL δ_nk ⇒ ∂τ_ij/∂F_kL = 2 L_ijkn (FG)_nL.
//   Payne: ∂k/∂F = (Δt d /(2 τ0 μ_v0)) ∂q/∂F, ∂q/∂F = (Δt/λ)/(1+Δt/λ) ∂‖D‖/∂F,
//   ∂‖D‖/∂F_kL = [(F_n F⁻¹)ᵀ D F⁻ᵀ]_kL / (Δt ‖D‖).
//   P = τ F⁻ᵀ ⇒ ∂P_iJ/∂F_kL = ∂τ_ij/∂F_kL F⁻¹_Jj − P_iL F⁻¹_Jk.
#include "material/maxwell_branch.h"

#include "material/rubber_parameters.h"

#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

namespace granular::material
{
  namespace
  {
    /// Solve the 3×3 system A x = b (A symmetric positive definite here) by
    /// Cramer's rule on the cofactor matrix; returns false if singular.
    bool
    solve3(const double A[3][3], const double b[3], double x[3])
    {
      const double c00 = A[1][1] * A[2][2] - A[1][2] * A[2][1];
      const double c01 = A[1][2] * A[2][0] - A[1][0] * A[2][2];
      const double c02 = A[1][0] * A[2][1] - A[1][1] * A[2][0];
      const double det = A[0][0] * c00 + A[0][1] * c01 + A[0][2] * c02;
      if (!(std::abs(det) > 0.0) || !std::isfinite(det))
        return false;
      const double inv[3][3] = {
        {c00, A[0][2] * A[2][1] - A[0][1] * A[2][2],
         A[0][1] * A[1][2] - A[0][2] * A[1][1]},
        {c01, A[0][0] * A[2][2] - A[0][2] * A[2][0],
         A[0][2] * A[1][0] - A[0][0] * A[1][2]},
        {c02, A[0][1] * A[2][0] - A[0][0] * A[2][1],
         A[0][0] * A[1][1] - A[0][1] * A[1][0]}};
      for (unsigned int i = 0; i < 3; ++i)
        x[i] = (inv[i][0] * b[0] + inv[i][1] * b[1] + inv[i][2] * b[2]) / det;
      return true;
    }

    double
    max_abs3(const double v[3])
    {
      return std::max(std::abs(v[0]), std::max(std::abs(v[1]), std::abs(v[2])));
    }
    /// out = A S A^T for 2 x 2 matrices (A: a Tensor<2, 2> or a double[2][2]), as
    /// (A S) A^T; @p AS receives A S.
    template <class Matrix>
    void congruence(const Matrix &A, const double S[2][2], double out[2][2], double AS[2][2])
    {
      for (unsigned int i = 0; i < 2; ++i)
        for (unsigned int j = 0; j < 2; ++j)
          AS[i][j] = A[i][0] * S[0][j] + A[i][1] * S[1][j];
      for (unsigned int i = 0; i < 2; ++i)
        for (unsigned int j = 0; j < 2; ++j)
          out[i][j] = AS[i][0] * A[j][0] + AS[i][1] * A[j][1];
    }
  } // namespace

  MaxwellBranch::MaxwellBranch(const double        mu_v,
                               std::vector<double> alpha,
                               std::vector<double> gamma,
                               const double        tau0,
                               const double        payne_d,
                               const double        payne_lambda)
    : mu_v_(mu_v)
    , tau0_(tau0)
    , payne_d_(payne_d)
    , payne_lambda_(payne_lambda)
    , ogden_((std::isfinite(mu_v) && mu_v > 0.0) ? mu_v : 1.0,
             std::move(alpha),
             std::move(gamma))
  {
    const auto require = [](const bool valid, const std::string &what, const double value) {
      if (!valid)
        throw std::invalid_argument("MaxwellBranch: " + what + " (got " +
                                    std::to_string(value) + ")");
    };
    require(std::isfinite(mu_v) && mu_v >= 0.0,
            "Maxwell modulus mu_v must be finite and >= 0", mu_v);
    require(std::isfinite(tau0) && tau0 > 0.0, "relaxation time tau0 must be finite and > 0",
            tau0);
    require(std::isfinite(payne_d) && payne_d >= 0.0,
            "Payne parameter d must be finite and >= 0", payne_d);
    require(std::isfinite(payne_lambda) && payne_lambda > 0.0,
            "Payne time constant lambda must be finite and > 0", payne_lambda);
    for (unsigned int p = 0; p < ogden_.n_terms(); ++p)
      if (!(ogden_.gamma(p) * ogden_.alpha(p) > 0.0))
        throw std::invalid_argument(
          "MaxwellBranch: every Ogden term needs gamma_p*alpha_p > 0 (convex "
          "local problem); term " +
          std::to_string(p) + " has " +
          std::to_string(ogden_.gamma(p) * ogden_.alpha(p)));
  }

  MaxwellBranch
  MaxwellBranch::from_parameters(const RubberParameters &prm)
  {
    return MaxwellBranch(prm.maxwell_modulus(),
                         prm.ogden_exponents,
                         prm.ogden_moduli,
                         prm.relaxation_time,
                         prm.payne_d,
                         prm.payne_time_constant_ratio * prm.relaxation_time);
  }

  double
  MaxwellBranch::initial_shear_modulus() const
  {
    return active() ? ogden_.initial_shear_modulus() : 0.0;
  }

  MaxwellBranch::Result
  MaxwellBranch::update(const MaxwellState &old,
                        const Tensor<2, 2> &F_n,
                        const Tensor<2, 2> &F,
                        const double        dt,
                        const bool          compute_tangent) const
  {
    return update_impl(old, F_n, F, dt, compute_tangent, false);
  }

  MaxwellBranch::Result
  MaxwellBranch::frozen_response(const MaxwellState &state,
                                 const Tensor<2, 2> &F,
                                 const bool          compute_tangent) const
  {
    return update_impl(state, F, F, 1.0, compute_tangent, true);
  }

  namespace
  {
    /// The step's rate of deformation (docs/methods.md §3.4): L Δt ≈ (F_{n+1} − F_n) F_{n+1}⁻¹ =
    /// I − F_n F⁻¹, D = sym(L) (1/s), its Frobenius norm, and M_n = F_n F⁻¹.
    struct StepRate
    {
      double Mn[2][2], D[2][2], norm;
    };

    StepRate step_rate(const Tensor<2, 2> &F_n, const double Fi[2][2], const double dt)
    {
      StepRate s;
      for (unsigned int i = 0; i < 2; ++i)
        for (unsigned int j = 0; j < 2; ++j)
          s.Mn[i][j] = F_n[i][0] * Fi[0][j] + F_n[i][1] * Fi[1][j];
      for (unsigned int i = 0; i < 2; ++i)
        for (unsigned int j = 0; j < 2; ++j)
          s.D[i][j] = ((i == j ? 1.0 : 0.0) - 0.5 * (s.Mn[i][j] + s.Mn[j][i])) / dt;
      s.norm = std::sqrt(s.D[0][0] * s.D[0][0] + s.D[1][1] * s.D[1][1] +
                         2.0 * s.D[0][1] * s.D[0][1]);
      return s;
    }

    /// The trial elastic left Cauchy–Green tensor b_e^tr = F C_v,n⁻¹ Fᵀ (in-plane block
    /// B, with F G, G the in-plane block of C_v,n⁻¹): its eigenvalues β_1 ≥ β_2, half
    /// their distance r, its eigenvectors n[a][i], and the trial principal log strains
    /// ε^tr (the third from (C_v,n⁻¹)_33, F33 = 1).
    struct TrialElasticState
    {
      double FG[2][2];
      double beta1, beta2, r;
      double n[2][2];
      double eps_tr[3];
    };

    TrialElasticState trial_elastic_state(const Tensor<2, 2> &F, const MaxwellState &old)
    {
      TrialElasticState s;
      const double      G[2][2] = {{old.Cv_inv[0][0], old.Cv_inv[0][1]},
                                   {old.Cv_inv[0][1], old.Cv_inv[1][1]}};
      double            B[2][2];
      congruence(F, G, B, s.FG); // F C_v^-1 F^T
      const double b33  = old.Cv_inv[2][2];
      const double detB = B[0][0] * B[1][1] - B[0][1] * B[0][1];
      const double mB   = 0.5 * (B[0][0] + B[1][1]);
      const double hB   = 0.5 * (B[0][0] - B[1][1]);
      s.r               = std::hypot(hB, B[0][1]);
      s.beta1           = mB + s.r;
      if (!(detB > 0.0) || !(s.beta1 > 0.0) || !(b33 > 0.0) || !std::isfinite(detB))
        throw std::domain_error(
          "MaxwellBranch::update: trial b_e is not positive definite "
          "(corrupt history C_v^-1?)");
      s.beta2           = detB / s.beta1;
      const double theta = 0.5 * std::atan2(B[0][1], hB);
      s.n[0][0] = std::cos(theta), s.n[0][1] = std::sin(theta);
      s.n[1][0] = -std::sin(theta), s.n[1][1] = std::cos(theta);
      s.eps_tr[0] = 0.5 * std::log(s.beta1);
      s.eps_tr[1] = 0.5 * (std::log(detB) - std::log(s.beta1));
      s.eps_tr[2] = 0.5 * std::log(b33);
      return s;
    }

    /// The local Jacobian A = I + k ∂τ/∂ε of the return mapping.
    void local_jacobian(const OgdenMaterial::PrincipalResponse &pr, const double k,
                        double A[3][3])
    {
      for (unsigned int a = 0; a < 3; ++a)
        for (unsigned int b = 0; b < 3; ++b)
          A[a][b] = (a == b ? 1.0 : 0.0) + k * pr.dtau_dlog[a][b];
    }

    /**
     * The return mapping in principal log strains (Reese & Govindjee 1998, the
     * exponential-map update): solves r(ε) = ε + k τ(ε) − ε^tr = 0 by Newton with
     * backtracking on the convex potential Φ = ½|ε − ε^tr|² + k W(ε), then one more full
     * step (quadratic convergence takes ε to round-off, which the finite-difference
     * checks need). Returns ε; @p pr receives the response at ε, @p iterations the
     * Newton iterations.
     * @throws std::runtime_error if it does not converge in 60 iterations.
     */
    std::array<double, 3> return_mapping(const OgdenMaterial &ogden, const double eps_tr[3],
                                         const double k, const double dt,
                                         OgdenMaterial::PrincipalResponse &pr,
                                         unsigned int                     &iterations)
    {
      std::array<double, 3> eps = {{eps_tr[0], eps_tr[1], eps_tr[2]}};
      ogden.evaluate_principal(eps, pr);
      auto residual = [&](const std::array<double, 3>             &e,
                          const OgdenMaterial::PrincipalResponse &p, double out[3]) {
        for (unsigned int a = 0; a < 3; ++a)
          out[a] = e[a] + k * p.tau[a] - eps_tr[a];
      };
      auto phi = [&](const std::array<double, 3> &e, const OgdenMaterial::PrincipalResponse &p) {
        double s = 0.0;
        for (unsigned int a = 0; a < 3; ++a)
          s += (e[a] - eps_tr[a]) * (e[a] - eps_tr[a]);
        return 0.5 * s + k * p.energy;
      };
      const double       tol = 1e-11 * (1.0 + max_abs3(eps_tr));
      double             rv[3];
      residual(eps, pr, rv);
      const unsigned int max_it = 60;
      for (unsigned int it = 0; it < max_it; ++it)
        {
          const bool small = max_abs3(rv) <= tol;
          double     A[3][3];
          local_jacobian(pr, k, A);
          double neg_r[3] = {-rv[0], -rv[1], -rv[2]}, dx[3];
          if (!solve3(A, neg_r, dx))
            break;
          if (small)
            {
              for (unsigned int a = 0; a < 3; ++a)
                eps[a] += dx[a];
              ogden.evaluate_principal(eps, pr);
              iterations = it + 1;
              return eps;
            }
          const double                     phi0 = phi(eps, pr);
          const double                     rn0  = max_abs3(rv);
          double                           s    = 1.0;
          std::array<double, 3>            trial;
          OgdenMaterial::PrincipalResponse ptrial;
          double                           rtrial[3];
          for (unsigned int ls = 0; ls < 40; ++ls, s *= 0.5)
            {
              for (unsigned int a = 0; a < 3; ++a)
                trial[a] = eps[a] + s * dx[a];
              ogden.evaluate_principal(trial, ptrial);
              residual(trial, ptrial, rtrial);
              const double phit = phi(trial, ptrial);
              if (std::isfinite(phit) && (phit <= phi0 || max_abs3(rtrial) < rn0))
                break;
            }
          eps = trial;
          pr  = ptrial;
          for (unsigned int a = 0; a < 3; ++a)
            rv[a] = rtrial[a];
        }
      throw std::runtime_error(
        "MaxwellBranch::update: local Newton did not converge in " + std::to_string(max_it) +
        " iterations (dt = " + std::to_string(dt) + " s, trial log strains " +
        std::to_string(eps_tr[0]) + ", " + std::to_string(eps_tr[1]) + ", " +
        std::to_string(eps_tr[2]) + ")");
    }

    /// The Kirchhoff stress τ_v = Σ_a τ_a n_a⊗n_a, P_v = τ_v F⁻ᵀ, and the new history
    /// C_v,n+1⁻¹ = F⁻¹ b_e F⁻ᵀ (in-plane), (C_v⁻¹)_33 = exp(2 ε_3).
    void stress_and_history(const std::array<double, 3> &tau, const std::array<double, 3> &eps,
                            const double n[2][2], const double Fi[2][2],
                            MaxwellBranch::Result &res)
    {
      double t2[2][2]; // in-plane τ_v
      for (unsigned int i = 0; i < 2; ++i)
        for (unsigned int j = 0; j < 2; ++j)
          t2[i][j] = tau[0] * n[0][i] * n[0][j] + tau[1] * n[1][i] * n[1][j];
      res.kirchhoff[0][0] = t2[0][0];
      res.kirchhoff[1][1] = t2[1][1];
      res.kirchhoff[0][1] = t2[0][1];
      res.kirchhoff[2][2] = tau[2];
      for (unsigned int i = 0; i < 2; ++i)
        for (unsigned int J2 = 0; J2 < 2; ++J2)
          res.first_piola[i][J2] = t2[i][0] * Fi[J2][0] + t2[i][1] * Fi[J2][1];

      const double be0 = std::exp(2.0 * eps[0]), be1 = std::exp(2.0 * eps[1]);
      double       be[2][2];
      for (unsigned int i = 0; i < 2; ++i)
        for (unsigned int j = 0; j < 2; ++j)
          be[i][j] = be0 * n[0][i] * n[0][j] + be1 * n[1][i] * n[1][j];
      double tmp[2][2], cv[2][2];
      congruence(Fi, be, cv, tmp); // C_v^-1 = F^-1 b_e F^-T
      res.state.Cv_inv       = 0.0;
      res.state.Cv_inv[0][0] = cv[0][0];
      res.state.Cv_inv[1][1] = cv[1][1];
      res.state.Cv_inv[0][1] = 0.5 * (cv[0][1] + cv[1][0]);
      res.state.Cv_inv[2][2] = std::exp(2.0 * eps[2]);
    }

    /// The inverse of the local Jacobian, Ainv = (I + k T)⁻¹, T = ∂τ/∂ε.
    void inverse_local_jacobian(const OgdenMaterial::PrincipalResponse &pr, const double k,
                                double Ainv[3][3])
    {
      double A[3][3];
      local_jacobian(pr, k, A);
      for (unsigned int b = 0; b < 3; ++b)
        {
          double e[3] = {0.0, 0.0, 0.0}, x[3];
          e[b]        = 1.0;
          if (!solve3(A, e, x))
            throw std::runtime_error(
              "MaxwellBranch::update: singular local Jacobian in the tangent");
          for (unsigned int a = 0; a < 3; ++a)
            Ainv[a][b] = x[a];
        }
    }

    /**
     * ∂τ_ij/∂B_mn of the in-plane stress as a function of the trial b_e (file comment):
     * Σ_ab ∂f_a/∂β_b M_a⊗M_b + (c/2) N⊗N with ∂τ/∂ε^tr = T A⁻¹. @p Ma receives
     * M_a = n_a⊗n_a.
     */
    void dtau_dB(const OgdenMaterial::PrincipalResponse &pr, const double Ainv[3][3],
                 const TrialElasticState &trial, double L[2][2][2][2], double Ma[2][2][2])
    {
      const std::array<double, 3> &tau = pr.tau;
      double                       dtde[3][3]; // ∂τ_a/∂ε^tr_b
      for (unsigned int a = 0; a < 3; ++a)
        for (unsigned int b = 0; b < 3; ++b)
          {
            double s = 0.0;
            for (unsigned int c = 0; c < 3; ++c)
              s += pr.dtau_dlog[a][c] * Ainv[c][b];
            dtde[a][b] = s;
          }
      const double beta[2] = {trial.beta1, trial.beta2};
      double       dfdb[2][2]; // ∂f_a/∂β_b
      for (unsigned int a = 0; a < 2; ++a)
        for (unsigned int b = 0; b < 2; ++b)
          dfdb[a][b] = dtde[a][b] / (2.0 * beta[b]);
      double c;
      if (2.0 * trial.r > 1e-8 * trial.beta1)
        c = (tau[0] - tau[1]) / (2.0 * trial.r);
      else
        c = 0.5 * ((dfdb[0][0] - dfdb[0][1]) + (dfdb[1][1] - dfdb[1][0]));

      const auto &n = trial.n;
      double      N[2][2];
      for (unsigned int a = 0; a < 2; ++a)
        for (unsigned int i = 0; i < 2; ++i)
          for (unsigned int j = 0; j < 2; ++j)
            Ma[a][i][j] = n[a][i] * n[a][j];
      for (unsigned int i = 0; i < 2; ++i)
        for (unsigned int j = 0; j < 2; ++j)
          N[i][j] = n[0][i] * n[1][j] + n[1][i] * n[0][j];
      for (unsigned int i = 0; i < 2; ++i)
        for (unsigned int j = 0; j < 2; ++j)
          for (unsigned int m = 0; m < 2; ++m)
            for (unsigned int nn = 0; nn < 2; ++nn)
              {
                double v = 0.5 * c * N[i][j] * N[m][nn];
                for (unsigned int a = 0; a < 2; ++a)
                  for (unsigned int b = 0; b < 2; ++b)
                    v += dfdb[a][b] * Ma[a][i][j] * Ma[b][m][nn];
                L[i][j][m][nn] = v;
              }
    }

    /**
     * The Payne part of the tangent: ∂τ_ij/∂k = −(T A⁻¹ τ) on the eigenbasis, and
     * ∂k/∂F = (Δt d/(2 τ0 μ_v0)) (Δt/λ)/(1 + Δt/λ) ∂‖D‖/∂F with
     * ∂‖D‖/∂F_kL = [(F_n F⁻¹)ᵀ D F⁻ᵀ]_kL / (Δt ‖D‖).
     * @p factor is Δt d /(2 τ0 μ_v0) (Δt/λ)/(1 + Δt/λ) / (Δt ‖D‖).
     */
    void payne_tangent(const OgdenMaterial::PrincipalResponse &pr, const double Ainv[3][3],
                       const double Ma[2][2][2], const StepRate &rate, const double Fi[2][2],
                       const double factor, double dtau_dk[2][2], double dk_dF[2][2])
    {
      const std::array<double, 3> &tau = pr.tau;
      double                       Ait[3], dtk[3];
      for (unsigned int a = 0; a < 3; ++a)
        Ait[a] = Ainv[a][0] * tau[0] + Ainv[a][1] * tau[1] + Ainv[a][2] * tau[2];
      for (unsigned int a = 0; a < 3; ++a)
        dtk[a] = -(pr.dtau_dlog[a][0] * Ait[0] + pr.dtau_dlog[a][1] * Ait[1] +
                   pr.dtau_dlog[a][2] * Ait[2]);
      for (unsigned int i = 0; i < 2; ++i)
        for (unsigned int j = 0; j < 2; ++j)
          dtau_dk[i][j] = dtk[0] * Ma[0][i][j] + dtk[1] * Ma[1][i][j];
      for (unsigned int kk = 0; kk < 2; ++kk)
        for (unsigned int Lx = 0; Lx < 2; ++Lx)
          {
            double s = 0.0;
            for (unsigned int i = 0; i < 2; ++i)
              for (unsigned int j = 0; j < 2; ++j)
                s += rate.Mn[i][kk] * rate.D[i][j] * Fi[Lx][j];
            dk_dF[kk][Lx] = factor * s;
          }
    }

    /// ∂P_iJ/∂F_kL = ∂τ_ij/∂F_kL F⁻¹_Jj − P_iL F⁻¹_Jk with
    /// ∂τ_ij/∂F_kL = 2 L_ijkn (FG)_nL + ∂τ_ij/∂k ∂k/∂F_kL.
    void first_piola_tangent(const double L[2][2][2][2], const double FG[2][2],
                             const double dtau_dk[2][2], const double dk_dF[2][2],
                             const double Fi[2][2], MaxwellBranch::Result &res)
    {
      double dtdF[2][2][2][2]; // ∂τ_ij/∂F_kL
      for (unsigned int i = 0; i < 2; ++i)
        for (unsigned int j = 0; j < 2; ++j)
          for (unsigned int kk = 0; kk < 2; ++kk)
            for (unsigned int Lx = 0; Lx < 2; ++Lx)
              dtdF[i][j][kk][Lx] =
                2.0 * (L[i][j][kk][0] * FG[0][Lx] + L[i][j][kk][1] * FG[1][Lx]) +
                dtau_dk[i][j] * dk_dF[kk][Lx];
      for (unsigned int i = 0; i < 2; ++i)
        for (unsigned int J2 = 0; J2 < 2; ++J2)
          for (unsigned int kk = 0; kk < 2; ++kk)
            for (unsigned int Lx = 0; Lx < 2; ++Lx)
              res.tangent[i][J2][kk][Lx] = dtdF[i][0][kk][Lx] * Fi[J2][0] +
                                           dtdF[i][1][kk][Lx] * Fi[J2][1] -
                                           res.first_piola[i][Lx] * Fi[J2][kk];
    }
  } // namespace

  MaxwellBranch::Result
  MaxwellBranch::update_impl(const MaxwellState &old,
                             const Tensor<2, 2> &F_n,
                             const Tensor<2, 2> &F,
                             const double        dt,
                             const bool          compute_tangent,
                             const bool          frozen) const
  {
    if (!std::isfinite(dt) || !(dt > 0.0))
      throw std::invalid_argument(
        "MaxwellBranch::update: time step dt must be finite and > 0 (got " +
        std::to_string(dt) + ")");
    const double J = F[0][0] * F[1][1] - F[0][1] * F[1][0];
    if (!std::isfinite(J) || !(J > 0.0))
      throw std::domain_error(
        "MaxwellBranch::update: det F_{n+1} must be finite and > 0 (got " +
        std::to_string(J) + ")");

    Result res;
    res.state       = old;
    res.kirchhoff   = 0.0;
    res.first_piola = 0.0;
    res.tangent     = 0.0;
    const double Fi[2][2] = {{F[1][1] / J, -F[0][1] / J}, {-F[1][0] / J, F[0][0] / J}};

    // the Payne variable (backward Euler), docs/methods.md §3.4
    const StepRate rate = step_rate(F_n, Fi, dt);
    const double   rq   = dt / payne_lambda_;
    res.state.q = frozen ? old.q : (old.q + rq * rate.norm) / (1.0 + rq);
    res.state.rate_of_deformation = frozen ? old.rate_of_deformation : rate.norm;
    const double H   = 1.0 + payne_d_ * res.state.q;
    res.payne_factor = H;
    if (!active())
      return res; // branch off: zero stress, tangent, dissipation; q still tracked

    // k = Δt/(2η), η = τ0 μ_v0 / H with the small-strain modulus μ_v0 of the branch
    const double mu_v0 = ogden_.initial_shear_modulus();
    const double k     = frozen ? 0.0 : dt * H / (2.0 * tau0_ * mu_v0);

    // the trial state and the return mapping; stress, energy, dissipation, new history
    const TrialElasticState          trial = trial_elastic_state(F, old);
    OgdenMaterial::PrincipalResponse pr;
    const std::array<double, 3>      eps =
      return_mapping(ogden_, trial.eps_tr, k, dt, pr, res.newton_iterations);
    const std::array<double, 3> &tau = pr.tau;
    res.energy                       = pr.energy;
    res.dissipation_increment = k * (tau[0] * tau[0] + tau[1] * tau[1] + tau[2] * tau[2]);
    res.state.dissipation     = old.dissipation + res.dissipation_increment;
    stress_and_history(tau, eps, trial.n, Fi, res);
    if (!compute_tangent)
      return res;

    // the consistent algorithmic tangent (file comment)
    double Ainv[3][3], L[2][2][2][2], Ma[2][2][2];
    inverse_local_jacobian(pr, k, Ainv);
    dtau_dB(pr, Ainv, trial, L, Ma);
    double dtau_dk[2][2] = {{0.0, 0.0}, {0.0, 0.0}};
    double dk_dF[2][2]   = {{0.0, 0.0}, {0.0, 0.0}};
    if (!frozen && payne_d_ > 0.0 && rate.norm > 0.0)
      payne_tangent(pr, Ainv, Ma, rate, Fi,
                    dt * payne_d_ / (2.0 * tau0_ * mu_v0) * rq / (1.0 + rq) / (dt * rate.norm),
                    dtau_dk, dk_dF);
    first_piola_tangent(L, trial.FG, dtau_dk, dk_dF, Fi, res);
    return res;
  }

} // namespace granular::material
