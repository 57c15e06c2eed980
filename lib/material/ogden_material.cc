// granular-interface — hyperelastic Ogden material kernel (docs/methods.md §3.2).
//
// Derivation (plane strain, λ3 = 1). Let c1 ≥ c2 be the eigenvalues of the in-plane
// C = FᵀF, e_a = ½ ln c_a (e3 = 0), ē_a = e_a − (e1+e2+e3)/3 and x_a = exp(α ē_a) = λ̄_a^α.
// Per term (a = μγ):  τ_a = a (x_a − m),  m = (x1+x2+x3)/3    (principal Kirchhoff)
//                     T_ab = ∂τ_a/∂e_b = aα [x_a(δ_ab − ⅓) − ⅓(x_b − m)]
// With w_a = ∂W/∂c_a = τ_a/(2c_a) and w_ab = T_ab/(4 c_a c_b) − δ_ab τ_a/(2c_a²):
//   ∂W/∂C = w̄ I + D Δ,   w̄ = (w1+w2)/2,   Δ = C − c̄ I,   c̄ = tr C / 2,
//   D = (w1−w2)/(c1−c2) = a/2 [ J^{−α/3} (c1^k − c2^k)/(c1 − c2) + m/J² ],  k = α/2 − 1,
// where the divided difference of the power function is evaluated as
//   (c1^k − c2^k)/(c1−c2) = c2^k expm1(k ln(c1/c2)) / (c1 − c2),  ln(c1/c2) = log1p(2r/c2),
// exact to round-off for every separation r = (c1−c2)/2 ≥ 0 (limit k c2^{k−1} at r = 0).
// Second derivative (isotropic-function theorem in 2D, E_a = ½(I ± Δ̂), Δ̂ = Δ/r):
//   ∂²W/∂C∂C = K I⊗I + L (I⊗Δ̂ + Δ̂⊗I) + M Δ̂⊗Δ̂ + D (𝕀 − ½ I⊗I),
//   K = ¼(w11+2w12+w22), L = ¼(w11−w22), M = ¼(w11−2w12+w22) − ½D.
// L = O(r) and M = O(r²) vanish at coincidence, so the arbitrary Δ̂ there is harmless.
// S = 2∂W/∂C, ℂ = 4∂²W/∂C∂C, P = F S, A_iJkL = δ_ik S_JL + F_iI F_kN ℂ_IJLN.
#include "material/ogden_material.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace granular::material
{
  namespace
  {
    /// Principal kinematics of the in-plane C = FᵀF (plane strain).
    struct PlaneKinematics
    {
      double J;       // det F
      double c1, c2;  // eigenvalues of C, c1 ≥ c2 > 0
      double d, C12;  // Δ = [[d, C12], [C12, −d]]
      double r;       // (c1 − c2)/2 = |Δ|/√2
      double two_eta; // ln(c1/c2) ≥ 0
      double ln_c2;   // ln c2
      double ebar[3]; // isochoric principal log strains (sum zero)
    };

    PlaneKinematics
    plane_kinematics(const Tensor<2, 2> &F)
    {
      PlaneKinematics k;
      k.J = F[0][0] * F[1][1] - F[0][1] * F[1][0];
      if (!(k.J > 0.0) || !std::isfinite(k.J))
        throw std::domain_error(
          "OgdenMaterial: det F must be finite and > 0 (got " +
          std::to_string(k.J) + ")");
      const double C11 = F[0][0] * F[0][0] + F[1][0] * F[1][0];
      const double C22 = F[0][1] * F[0][1] + F[1][1] * F[1][1];
      k.C12            = F[0][0] * F[0][1] + F[1][0] * F[1][1];
      k.d              = 0.5 * (C11 - C22);
      k.r              = std::hypot(k.d, k.C12);
      k.c1             = 0.5 * (C11 + C22) + k.r;
      // c1 c2 = det C = J²: no cancellation in c2 for strongly unequal stretches.
      k.c2             = k.J * k.J / k.c1;
      k.two_eta        = std::log1p(2.0 * k.r / k.c2);
      const double lnJ = std::log(k.J);
      // ln c1 + ln c2 = 2 ln J,  ln c1 − ln c2 = 2η.
      k.ln_c2   = lnJ - 0.5 * k.two_eta;
      k.ebar[0] = lnJ / 6.0 + 0.25 * k.two_eta;
      k.ebar[1] = lnJ / 6.0 - 0.25 * k.two_eta;
      k.ebar[2] = -lnJ / 3.0;
      return k;
    }
  } // namespace

  OgdenMaterial::OgdenMaterial(const double        mu,
                               std::vector<double> alpha,
                               std::vector<double> gamma)
    : mu_(mu)
    , n_(0)
  {
    if (!std::isfinite(mu) || !(mu > 0.0))
      throw std::invalid_argument(
        "OgdenMaterial: shear modulus scale mu must be finite and > 0 (got " +
        std::to_string(mu) + ")");
    if (alpha.size() != gamma.size())
      throw std::invalid_argument(
        "OgdenMaterial: alpha and gamma must have the same length (got " +
        std::to_string(alpha.size()) + " and " + std::to_string(gamma.size()) +
        ")");
    if (alpha.empty() || alpha.size() > max_terms)
      throw std::invalid_argument(
        "OgdenMaterial: number of Ogden terms must be 1.." +
        std::to_string(max_terms) + " (got " + std::to_string(alpha.size()) +
        ")");
    for (std::size_t p = 0; p < alpha.size(); ++p)
      {
        if (!std::isfinite(alpha[p]) || alpha[p] == 0.0)
          throw std::invalid_argument("OgdenMaterial: alpha[" +
                                      std::to_string(p) +
                                      "] must be finite and nonzero (got " +
                                      std::to_string(alpha[p]) + ")");
        if (!std::isfinite(gamma[p]))
          throw std::invalid_argument("OgdenMaterial: gamma[" +
                                      std::to_string(p) +
                                      "] must be finite (got " +
                                      std::to_string(gamma[p]) + ")");
        alpha_[p] = alpha[p];
        gamma_[p] = gamma[p];
      }
    n_ = static_cast<unsigned int>(alpha.size());
    if (!(initial_shear_modulus() > 0.0))
      throw std::invalid_argument(
        "OgdenMaterial: 1/2 sum gamma_p alpha_p must be > 0 (initial shear "
        "modulus would be " +
        std::to_string(initial_shear_modulus()) + " MPa)");
  }

  OgdenMaterial
  OgdenMaterial::default_set(const double mu)
  {
    return OgdenMaterial(mu, {1.8, -2.0, 7.0}, {0.661, -0.231, 0.0496});
  }

  double
  OgdenMaterial::initial_shear_modulus() const
  {
    double s = 0.0;
    for (unsigned int p = 0; p < n_; ++p)
      s += gamma_[p] * alpha_[p];
    return mu_ * 0.5 * s;
  }

  double
  OgdenMaterial::energy(const Tensor<2, 2> &F) const
  {
    const PlaneKinematics k = plane_kinematics(F);
    double                W = 0.0;
    for (unsigned int p = 0; p < n_; ++p)
      {
        const double al = alpha_[p];
        W += mu_ * gamma_[p] / al *
             (std::expm1(al * k.ebar[0]) + std::expm1(al * k.ebar[1]) +
              std::expm1(al * k.ebar[2]));
      }
    return W;
  }

  void
  OgdenMaterial::evaluate(const Tensor<2, 2> &F, Response &out, const bool with_tangent) const
  {
    const PlaneKinematics k = plane_kinematics(F);

    double W = 0.0, tau1 = 0.0, tau2 = 0.0, tau3 = 0.0;
    double T11 = 0.0, T12 = 0.0, T22 = 0.0, D = 0.0;
    const double J2 = k.J * k.J;
    for (unsigned int p = 0; p < n_; ++p)
      {
        const double al  = alpha_[p];
        const double a   = mu_ * gamma_[p];
        const double em1 = std::expm1(al * k.ebar[0]);
        const double em2 = std::expm1(al * k.ebar[1]);
        const double em3 = std::expm1(al * k.ebar[2]);
        W += a / al * (em1 + em2 + em3);
        const double x1 = 1.0 + em1, x2 = 1.0 + em2, x3 = 1.0 + em3;
        const double m  = (x1 + x2 + x3) / 3.0;
        // x_a − m from the expm1 values: accurate also for small strains
        tau1 += a * (2.0 * em1 - em2 - em3) / 3.0;
        tau2 += a * (2.0 * em2 - em1 - em3) / 3.0;
        tau3 += a * (2.0 * em3 - em1 - em2) / 3.0;
        const double aa = a * al;
        T11 += aa * (2.0 / 3.0 * x1 - (x1 - m) / 3.0);
        T22 += aa * (2.0 / 3.0 * x2 - (x2 - m) / 3.0);
        T12 += aa * (-x1 / 3.0 - (x2 - m) / 3.0);
        // divided difference (c1^e − c2^e)/(c1 − c2), e = α/2 − 1
        const double e    = 0.5 * al - 1.0;
        const double dd   = (k.two_eta > 0.0) ?
                              std::exp(e * k.ln_c2) * std::expm1(e * k.two_eta) /
                              (2.0 * k.r) :
                              e * std::exp((e - 1.0) * k.ln_c2);
        D += 0.5 * a * (x3 * dd + m / J2);
      }

    const double c1 = k.c1, c2 = k.c2;
    const double w1 = tau1 / (2.0 * c1), w2 = tau2 / (2.0 * c2);
    const double wbar = 0.5 * (w1 + w2);

    // second Piola S = 2(w̄ I + D Δ)
    double S[2][2];
    S[0][0] = 2.0 * (wbar + D * k.d);
    S[1][1] = 2.0 * (wbar - D * k.d);
    S[0][1] = S[1][0] = 2.0 * D * k.C12;

    out.energy = W;
    // P = F S
    for (unsigned int i = 0; i < 2; ++i)
      for (unsigned int Jx = 0; Jx < 2; ++Jx)
        out.first_piola[i][Jx] = F[i][0] * S[0][Jx] + F[i][1] * S[1][Jx];

    // τ = P Fᵀ (in-plane), τ33 = principal out-of-plane value
    const Tensor<2, 2> &P = out.first_piola;
    out.kirchhoff         = 0.0;
    out.kirchhoff[0][0]   = P[0][0] * F[0][0] + P[0][1] * F[0][1];
    out.kirchhoff[1][1]   = P[1][0] * F[1][0] + P[1][1] * F[1][1];
    out.kirchhoff[0][1] =
      0.5 * ((P[0][0] * F[1][0] + P[0][1] * F[1][1]) +
             (P[1][0] * F[0][0] + P[1][1] * F[0][1]));
    out.kirchhoff[2][2] = tau3;
    if (!with_tangent)
      return;

    const double w11 = T11 / (4.0 * c1 * c1) - tau1 / (2.0 * c1 * c1);
    const double w22 = T22 / (4.0 * c2 * c2) - tau2 / (2.0 * c2 * c2);
    const double w12 = T12 / (4.0 * c1 * c2);
    const double K   = 0.25 * (w11 + 2.0 * w12 + w22);
    const double L   = 0.25 * (w11 - w22);
    const double M   = 0.25 * (w11 - 2.0 * w12 + w22) - 0.5 * D;

    // unit direction of Δ (any unit direction at exact coincidence: L = M = 0)
    double Dh[2][2];
    if (k.r > 0.0)
      {
        Dh[0][0] = k.d / k.r;
        Dh[0][1] = Dh[1][0] = k.C12 / k.r;
        Dh[1][1]            = -Dh[0][0];
      }
    else
      {
        Dh[0][0] = 1.0;
        Dh[1][1] = -1.0;
        Dh[0][1] = Dh[1][0] = 0.0;
      }

    // material tangent ℂ = 4 ∂²W/∂C∂C
    double Cm[2][2][2][2];
    for (unsigned int I = 0; I < 2; ++I)
      for (unsigned int Jx = 0; Jx < 2; ++Jx)
        for (unsigned int Kx = 0; Kx < 2; ++Kx)
          for (unsigned int Lx = 0; Lx < 2; ++Lx)
            {
              const double dIJ = (I == Jx) ? 1.0 : 0.0;
              const double dKL = (Kx == Lx) ? 1.0 : 0.0;
              const double sym = 0.5 * (((I == Kx) && (Jx == Lx) ? 1.0 : 0.0) +
                                        ((I == Lx) && (Jx == Kx) ? 1.0 : 0.0));
              Cm[I][Jx][Kx][Lx] =
                4.0 * (K * dIJ * dKL +
                       L * (dIJ * Dh[Kx][Lx] + Dh[I][Jx] * dKL) +
                       M * Dh[I][Jx] * Dh[Kx][Lx] + D * (sym - 0.5 * dIJ * dKL));
            }

    // A_iJkL = δ_ik S_JL + F_iI F_kN ℂ_IJLN
    for (unsigned int i = 0; i < 2; ++i)
      for (unsigned int Jx = 0; Jx < 2; ++Jx)
        for (unsigned int kk = 0; kk < 2; ++kk)
          for (unsigned int Lx = 0; Lx < 2; ++Lx)
            {
              double v = (i == kk) ? S[Jx][Lx] : 0.0;
              for (unsigned int I = 0; I < 2; ++I)
                for (unsigned int N = 0; N < 2; ++N)
                  v += F[i][I] * F[kk][N] * Cm[I][Jx][Lx][N];
              out.tangent[i][Jx][kk][Lx] = v;
            }
  }

  void
  OgdenMaterial::evaluate_principal(const std::array<double, 3> &log_stretch,
                                    PrincipalResponse           &out) const
  {
    const double mean =
      (log_stretch[0] + log_stretch[1] + log_stretch[2]) / 3.0;
    const double ebar[3] = {log_stretch[0] - mean,
                            log_stretch[1] - mean,
                            log_stretch[2] - mean};
    out.energy = 0.0;
    out.tau.fill(0.0);
    for (auto &row : out.dtau_dlog)
      row.fill(0.0);
    for (unsigned int p = 0; p < n_; ++p)
      {
        const double al = alpha_[p];
        const double a  = mu_ * gamma_[p];
        double       em[3], x[3];
        for (unsigned int c = 0; c < 3; ++c)
          {
            em[c] = std::expm1(al * ebar[c]);
            x[c]  = 1.0 + em[c];
          }
        out.energy += a / al * (em[0] + em[1] + em[2]);
        const double m = (x[0] + x[1] + x[2]) / 3.0;
        for (unsigned int i = 0; i < 3; ++i)
          {
            out.tau[i] +=
              a * (2.0 * em[i] - em[(i + 1) % 3] - em[(i + 2) % 3]) / 3.0;
            for (unsigned int j = 0; j < 3; ++j)
              out.dtau_dlog[i][j] +=
                a * al *
                (x[i] * ((i == j ? 1.0 : 0.0) - 1.0 / 3.0) - (x[j] - m) / 3.0);
          }
      }
  }

  namespace
  {
    void
    check_J(const double J)
    {
      if (!(J > 0.0) || !std::isfinite(J))
        throw std::domain_error(
          "VolumetricEnergy: J must be finite and > 0 (got " +
          std::to_string(J) + ")");
    }
  } // namespace

  double
  VolumetricEnergy::U(const double J) const
  {
    check_J(J);
    const double t = J - 1.0;
    // J² − 1 − 2 ln J = t(2 + t) − 2 log1p(t)
    return 0.25 * kappa * (t * (2.0 + t) - 2.0 * std::log1p(t));
  }

  double
  VolumetricEnergy::dU(const double J) const
  {
    check_J(J);
    return 0.5 * kappa * (J - 1.0 / J);
  }

  double
  VolumetricEnergy::d2U(const double J) const
  {
    check_J(J);
    return 0.5 * kappa * (1.0 + 1.0 / (J * J));
  }

} // namespace granular::material
