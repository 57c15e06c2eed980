// granular-interface — finite-strain Maxwell branch (spec §3.3, §3.4).
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
    res.state = old;
    res.kirchhoff = 0.0;
    res.first_piola = 0.0;
    res.tangent = 0.0;

    // F⁻¹ (in-plane)
    double Fi[2][2] = {{F[1][1] / J, -F[0][1] / J}, {-F[1][0] / J, F[0][0] / J}};

    // ---- Payne variable (backward Euler), spec §3.4 --------------------------------
    // L Δt ≈ (F_{n+1} − F_n) F_{n+1}⁻¹ = I − F_n F⁻¹;  D = sym(L)
    double Mn[2][2]; // F_n F⁻¹
    for (unsigned int i = 0; i < 2; ++i)
      for (unsigned int j = 0; j < 2; ++j)
        Mn[i][j] = F_n[i][0] * Fi[0][j] + F_n[i][1] * Fi[1][j];
    double D[2][2];
    for (unsigned int i = 0; i < 2; ++i)
      for (unsigned int j = 0; j < 2; ++j)
        D[i][j] = ((i == j ? 1.0 : 0.0) - 0.5 * (Mn[i][j] + Mn[j][i])) / dt;
    const double normD = std::sqrt(D[0][0] * D[0][0] + D[1][1] * D[1][1] +
                                   2.0 * D[0][1] * D[0][1]);
    const double rq = dt / payne_lambda_;
    res.state.q = frozen ? old.q : (old.q + rq * normD) / (1.0 + rq);
    res.state.rate_of_deformation = frozen ? old.rate_of_deformation : normD;
    const double H = 1.0 + payne_d_ * res.state.q;
    res.payne_factor = H;

    if (!active())
      return res; // branch off: zero stress, tangent, dissipation; q still tracked

    // Δt/(2η), η = τ0 μ_v0 / H with the small-strain modulus μ_v0 of the branch
    const double mu_v0 = ogden_.initial_shear_modulus();
    const double k     = frozen ? 0.0 : dt * H / (2.0 * tau0_ * mu_v0);

    // ---- trial elastic left Cauchy–Green tensor, in-plane block ------------------
    const double G[2][2] = {{old.Cv_inv[0][0], old.Cv_inv[0][1]},
                            {old.Cv_inv[0][1], old.Cv_inv[1][1]}};
    double FG[2][2], B[2][2];
    congruence(F, G, B, FG); // F C_v^-1 F^T
    const double b33  = old.Cv_inv[2][2];
    const double detB = B[0][0] * B[1][1] - B[0][1] * B[0][1];
    const double mB   = 0.5 * (B[0][0] + B[1][1]);
    const double hB   = 0.5 * (B[0][0] - B[1][1]);
    const double r    = std::hypot(hB, B[0][1]);
    const double beta1 = mB + r;
    if (!(detB > 0.0) || !(beta1 > 0.0) || !(b33 > 0.0) || !std::isfinite(detB))
      throw std::domain_error(
        "MaxwellBranch::update: trial b_e is not positive definite "
        "(corrupt history C_v^-1?)");
    const double beta2 = detB / beta1;
    const double theta = 0.5 * std::atan2(B[0][1], hB);
    const double n[2][2] = {{std::cos(theta), std::sin(theta)},
                            {-std::sin(theta), std::cos(theta)}}; // n[a][i]

    const double eps_tr[3] = {0.5 * std::log(beta1),
                              0.5 * (std::log(detB) - std::log(beta1)),
                              0.5 * std::log(b33)};

    // ---- local Newton with backtracking on Φ = ½|ε−ε^tr|² + k W(ε) --------------
    std::array<double, 3>             eps = {{eps_tr[0], eps_tr[1], eps_tr[2]}};
    OgdenMaterial::PrincipalResponse  pr;
    ogden_.evaluate_principal(eps, pr);
    auto residual = [&](const std::array<double, 3> &e,
                        const OgdenMaterial::PrincipalResponse &p,
                        double out[3]) {
      for (unsigned int a = 0; a < 3; ++a)
        out[a] = e[a] + k * p.tau[a] - eps_tr[a];
    };
    auto phi = [&](const std::array<double, 3> &e,
                   const OgdenMaterial::PrincipalResponse &p) {
      double s = 0.0;
      for (unsigned int a = 0; a < 3; ++a)
        s += (e[a] - eps_tr[a]) * (e[a] - eps_tr[a]);
      return 0.5 * s + k * p.energy;
    };
    const double tol  = 1e-11 * (1.0 + max_abs3(eps_tr));
    double       rv[3];
    residual(eps, pr, rv);
    bool         converged  = false;
    unsigned int it         = 0;
    const unsigned int max_it = 60;
    for (; it < max_it; ++it)
      {
        const bool small = max_abs3(rv) <= tol;
        double A[3][3];
        for (unsigned int a = 0; a < 3; ++a)
          for (unsigned int b = 0; b < 3; ++b)
            A[a][b] = (a == b ? 1.0 : 0.0) + k * pr.dtau_dlog[a][b];
        double neg_r[3] = {-rv[0], -rv[1], -rv[2]}, dx[3];
        if (!solve3(A, neg_r, dx))
          break;
        if (small)
          {
            // one more full Newton step: quadratic convergence takes the
            // solution to round-off, which the finite-difference checks need
            for (unsigned int a = 0; a < 3; ++a)
              eps[a] += dx[a];
            ogden_.evaluate_principal(eps, pr);
            converged = true;
            ++it;
            break;
          }
        const double phi0 = phi(eps, pr);
        const double rn0  = max_abs3(rv);
        double       s    = 1.0;
        std::array<double, 3>            trial;
        OgdenMaterial::PrincipalResponse ptrial;
        double                           rtrial[3];
        for (unsigned int ls = 0; ls < 40; ++ls, s *= 0.5)
          {
            for (unsigned int a = 0; a < 3; ++a)
              trial[a] = eps[a] + s * dx[a];
            ogden_.evaluate_principal(trial, ptrial);
            residual(trial, ptrial, rtrial);
            const double phit = phi(trial, ptrial);
            if (std::isfinite(phit) &&
                (phit <= phi0 || max_abs3(rtrial) < rn0))
              break;
          }
        eps = trial;
        pr  = ptrial;
        for (unsigned int a = 0; a < 3; ++a)
          rv[a] = rtrial[a];
      }
    if (!converged)
      throw std::runtime_error(
        "MaxwellBranch::update: local Newton did not converge in " +
        std::to_string(max_it) + " iterations (dt = " + std::to_string(dt) +
        " s, trial log strains " + std::to_string(eps_tr[0]) + ", " +
        std::to_string(eps_tr[1]) + ", " + std::to_string(eps_tr[2]) + ")");
    res.newton_iterations = it;

    // ---- stress, energy, dissipation, new history ----------------------------------
    const std::array<double, 3> &tau = pr.tau;
    res.energy = pr.energy;
    res.dissipation_increment =
      k * (tau[0] * tau[0] + tau[1] * tau[1] + tau[2] * tau[2]);
    res.state.dissipation = old.dissipation + res.dissipation_increment;

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

    // C_v,n+1⁻¹ = F⁻¹ b_e F⁻ᵀ (in-plane), 33: exp(2ε_3)
    {
      const double be0 = std::exp(2.0 * eps[0]), be1 = std::exp(2.0 * eps[1]);
      double be[2][2];
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

    if (!compute_tangent)
      return res;

    // ---- consistent algorithmic tangent ------------------------------------------------
    // Ainv = (I + kT)⁻¹, dtau/deps_tr = T Ainv
    double A[3][3], Ainv[3][3];
    for (unsigned int a = 0; a < 3; ++a)
      for (unsigned int b = 0; b < 3; ++b)
        A[a][b] = (a == b ? 1.0 : 0.0) + k * pr.dtau_dlog[a][b];
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
    double dtde[3][3]; // ∂τ_a/∂ε^tr_b
    for (unsigned int a = 0; a < 3; ++a)
      for (unsigned int b = 0; b < 3; ++b)
        {
          double s = 0.0;
          for (unsigned int c = 0; c < 3; ++c)
            s += pr.dtau_dlog[a][c] * Ainv[c][b];
          dtde[a][b] = s;
        }
    const double beta[2] = {beta1, beta2};
    double       dfdb[2][2]; // ∂f_a/∂β_b
    for (unsigned int a = 0; a < 2; ++a)
      for (unsigned int b = 0; b < 2; ++b)
        dfdb[a][b] = dtde[a][b] / (2.0 * beta[b]);
    double c;
    if (2.0 * r > 1e-8 * beta1)
      c = (tau[0] - tau[1]) / (2.0 * r);
    else
      c = 0.5 * ((dfdb[0][0] - dfdb[0][1]) + (dfdb[1][1] - dfdb[1][0]));

    double Ma[2][2][2], N[2][2];
    for (unsigned int a = 0; a < 2; ++a)
      for (unsigned int i = 0; i < 2; ++i)
        for (unsigned int j = 0; j < 2; ++j)
          Ma[a][i][j] = n[a][i] * n[a][j];
    for (unsigned int i = 0; i < 2; ++i)
      for (unsigned int j = 0; j < 2; ++j)
        N[i][j] = n[0][i] * n[1][j] + n[1][i] * n[0][j];
    double L[2][2][2][2]; // ∂τ_ij/∂B_mn
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

    // Payne: ∂τ_ij/∂k and ∂k/∂F
    double dtau_dk_ij[2][2] = {{0.0, 0.0}, {0.0, 0.0}};
    double dk_dF[2][2]      = {{0.0, 0.0}, {0.0, 0.0}};
    const bool payne = !frozen && payne_d_ > 0.0 && normD > 0.0;
    if (payne)
      {
        double Ait[3], dtk[3];
        for (unsigned int a = 0; a < 3; ++a)
          Ait[a] = Ainv[a][0] * tau[0] + Ainv[a][1] * tau[1] + Ainv[a][2] * tau[2];
        for (unsigned int a = 0; a < 3; ++a)
          dtk[a] = -(pr.dtau_dlog[a][0] * Ait[0] + pr.dtau_dlog[a][1] * Ait[1] +
                     pr.dtau_dlog[a][2] * Ait[2]);
        for (unsigned int i = 0; i < 2; ++i)
          for (unsigned int j = 0; j < 2; ++j)
            dtau_dk_ij[i][j] = dtk[0] * Ma[0][i][j] + dtk[1] * Ma[1][i][j];
        const double fac = dt * payne_d_ / (2.0 * tau0_ * mu_v0) * rq /
                           (1.0 + rq) / (dt * normD);
        // [(F_n F⁻¹)ᵀ D F⁻ᵀ]_kL
        for (unsigned int kk = 0; kk < 2; ++kk)
          for (unsigned int Lx = 0; Lx < 2; ++Lx)
            {
              double s = 0.0;
              for (unsigned int i = 0; i < 2; ++i)
                for (unsigned int j = 0; j < 2; ++j)
                  s += Mn[i][kk] * D[i][j] * Fi[Lx][j];
              dk_dF[kk][Lx] = fac * s;
            }
      }

    double dtdF[2][2][2][2]; // ∂τ_ij/∂F_kL
    for (unsigned int i = 0; i < 2; ++i)
      for (unsigned int j = 0; j < 2; ++j)
        for (unsigned int kk = 0; kk < 2; ++kk)
          for (unsigned int Lx = 0; Lx < 2; ++Lx)
            dtdF[i][j][kk][Lx] = 2.0 * (L[i][j][kk][0] * FG[0][Lx] +
                                        L[i][j][kk][1] * FG[1][Lx]) +
                                 dtau_dk_ij[i][j] * dk_dF[kk][Lx];

    for (unsigned int i = 0; i < 2; ++i)
      for (unsigned int J2 = 0; J2 < 2; ++J2)
        for (unsigned int kk = 0; kk < 2; ++kk)
          for (unsigned int Lx = 0; Lx < 2; ++Lx)
            res.tangent[i][J2][kk][Lx] =
              dtdF[i][0][kk][Lx] * Fi[J2][0] + dtdF[i][1][kk][Lx] * Fi[J2][1] -
              res.first_piola[i][Lx] * Fi[J2][kk];
    return res;
  }

} // namespace granular::material
