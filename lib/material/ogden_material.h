// granular-interface — hyperelastic Ogden material kernel (docs/methods.md §3.2, §3.5).
//
// Pure functions of the deformation: no global state, no heap allocation in the
// evaluation paths. Units: mm–s–N–t, so moduli and stresses are in MPa (N/mm²),
// energy densities in MPa = mJ/mm³; deformation gradients and stretches are
// dimensionless.
#ifndef GRANULAR_MATERIAL_OGDEN_MATERIAL_H
#define GRANULAR_MATERIAL_OGDEN_MATERIAL_H

#include <deal.II/base/symmetric_tensor.h>
#include <deal.II/base/tensor.h>

#include <array>
#include <vector>

namespace granular::material
{
  using dealii::SymmetricTensor;
  using dealii::Tensor;

  /**
   * Ogden isochoric strain energy (docs/methods.md §3.2 "Elastic branch"; Ogden 1972;
   * normalised form of Temizer 2013, Table 4; constants of Reese & Govindjee 1998):
   * @f[
   *   W_{iso}(F) = \mu \sum_p \frac{\gamma_p}{\alpha_p}
   *     \left(\bar\lambda_1^{\alpha_p} + \bar\lambda_2^{\alpha_p}
   *           + \bar\lambda_3^{\alpha_p} - 3\right),
   *   \qquad \bar\lambda_a = J^{-1/3}\lambda_a ,
   * @f]
   * with the Ogden moduli @f$\mu_p = \mu\gamma_p@f$. The small-strain shear modulus
   * is @f$\mu \cdot \tfrac12\sum_p\gamma_p\alpha_p@f$ (see initial_shear_modulus();
   * for the default set of §3.5 the factor is ½(0.661·1.8 + 0.231·2 + 0.0496·7)
   * = ½·1.999 = 0.9995, i.e. approximately 1).
   *
   * Plane strain (docs/methods.md §3.1): the in-plane 2×2 deformation gradient F is given and
   * F33 = 1, so @f$\lambda_3 = 1@f$, @f$J = \det F@f$ and
   * @f$\bar\lambda_3 = J^{-1/3}@f$.
   *
   * Numerics: the principal directions of the in-plane @f$C = F^TF@f$ are never
   * needed where they are ill-defined. The second Piola stress is written as
   * @f$S = 2(\bar w\,I + D\,\Delta)@f$ with @f$\Delta = C - \tfrac12(\mathrm{tr}\,C)I@f$
   * and the divided difference @f$D = (w_1-w_2)/(c_1-c_2)@f$ of
   * @f$w_a = \partial W/\partial c_a@f$, evaluated in closed form without
   * cancellation (expm1/log1p), so it is exact to round-off also at equal stretches
   * (the undeformed state). The tangent only multiplies the unit direction
   * @f$\Delta/|\Delta|@f$ by coefficients that vanish at coincidence, so it is
   * consistent and accurate to round-off everywhere (no perturbation).
   */
  class OgdenMaterial
  {
  public:
    /// Largest number of Ogden terms (storage is a fixed-size array).
    static constexpr unsigned int max_terms = 6;

    /**
     * @param mu    shear modulus scale @f$\mu@f$ (MPa, finite, > 0); with the
     *              normalisation ½Σγα = 1 it is the initial shear modulus μ_e (§3.2).
     * @param alpha Ogden exponents @f$\alpha_p@f$ (dimensionless, finite, ≠ 0).
     * @param gamma normalised moduli @f$\gamma_p = \mu_p/\mu@f$ (dimensionless, finite).
     *
     * alpha and gamma must have the same length, 1..max_terms, and
     * ½Σγ_pα_p must be > 0 (positive initial shear modulus).
     * @throws std::invalid_argument naming the offending input otherwise.
     */
    OgdenMaterial(double mu, std::vector<double> alpha, std::vector<double> gamma);

    /// Default parameter set of docs/methods.md §3.5 (α = (1.8, −2, 7), γ = (0.661, −0.231,
    /// 0.0496); Reese & Govindjee 1998 normalised) with the given μ (MPa).
    static OgdenMaterial default_set(double mu);

    /// Small-strain shear modulus @f$\mu\cdot\tfrac12\sum_p\gamma_p\alpha_p@f$ (MPa).
    double initial_shear_modulus() const;

    /// Shear modulus scale μ (MPa) as given to the constructor.
    double mu() const { return mu_; }
    /// Number of Ogden terms.
    unsigned int n_terms() const { return n_; }
    /// Exponent α_p (dimensionless), p < n_terms().
    double alpha(unsigned int p) const { return alpha_[p]; }
    /// Normalised modulus γ_p (dimensionless), p < n_terms().
    double gamma(unsigned int p) const { return gamma_[p]; }

    /// Everything evaluate() returns at one quadrature point.
    struct Response
    {
      /// Isochoric energy density W_iso (MPa, per unit reference volume).
      double energy = 0.0;
      /// Isochoric first Piola–Kirchhoff stress P_iso = ∂W_iso/∂F (rank 2, two-point:
      /// first index current, second reference; MPa). In-plane 2×2 block.
      Tensor<2, 2> first_piola;
      /// Tangent A_iJkL = ∂(P_iso)_iJ / ∂F_kL (rank 4, two-point, MPa): the
      /// consistent linearisation of first_piola w.r.t. the in-plane F.
      Tensor<4, 2> tangent;
      /// Isochoric Kirchhoff stress τ_iso = P_iso F^T (rank 2, current frame, MPa),
      /// full 3×3 including τ_33 (plane-strain out-of-plane stress); deviatoric.
      /// Cauchy stress: τ/J.
      SymmetricTensor<2, 3> kirchhoff;
    };

    /**
     * Energy, first Piola stress, tangent and Kirchhoff stress of W_iso (docs/methods.md §3.2) in
     * one pass; no heap allocation.
     * @param F in-plane deformation gradient (rank 2, reference → current,
     *          dimensionless); F33 = 1 implied.
     * @param out receives the result (all members overwritten; the tangent is left
     *          untouched when @p with_tangent is false).
     * @param with_tangent compute the tangent A = dP/dF (false: energy and stresses only,
     *          bit for bit the same values, for residual-only assemblies).
     * @throws std::domain_error if det F ≤ 0 (or is not finite).
     */
    void evaluate(const Tensor<2, 2> &F, Response &out, bool with_tangent = true) const;

    /**
     * Isochoric energy density W_iso(F) (MPa) only; same conventions and throws as
     * evaluate(). Accurate also for small strains (expm1-based).
     */
    double energy(const Tensor<2, 2> &F) const;

    /// Result of evaluate_principal().
    struct PrincipalResponse
    {
      /// W_iso (MPa).
      double energy = 0.0;
      /// Principal isochoric Kirchhoff stresses τ_a = λ_a ∂W_iso/∂λ_a = ∂W_iso/∂ε_a
      /// (MPa); they sum to zero (deviatoric).
      std::array<double, 3> tau{};
      /// Symmetric Jacobian ∂τ_a/∂ε_b (MPa), ε_b = ln λ_b.
      std::array<std::array<double, 3>, 3> dtau_dlog{};
    };

    /**
     * Principal-stretch form of W_iso for a three-dimensional isotropic state (meant
     * for the Maxwell branch of docs/methods.md §3.3: Reese & Govindjee 1998 exponential-map
     * update in principal logarithmic elastic strains).
     *
     * @param log_stretch principal logarithmic strains ε_a = ln λ_a, a = 1,2,3
     *        (dimensionless; any volumetric part is removed internally:
     *        ln λ̄_a = ε_a − (ε_1+ε_2+ε_3)/3, so the result depends on dev ε only).
     * @param out energy, τ_a = ∂W_iso/∂ε_a and ∂τ_a/∂ε_b:
     *        τ_a = μ Σ_p γ_p (λ̄_a^{α_p} − ⅓ Σ_c λ̄_c^{α_p}),
     *        ∂τ_a/∂ε_b = μ Σ_p γ_p α_p [λ̄_a^{α_p}(δ_ab − ⅓) − ⅓(λ̄_b^{α_p} − ⅓Σ_c λ̄_c^{α_p})].
     * Throws nothing (non-finite input gives non-finite output).
     */
    void evaluate_principal(const std::array<double, 3> &log_stretch,
                            PrincipalResponse &out) const;

  private:
    double mu_;
    unsigned int n_;
    std::array<double, max_terms> alpha_{};
    std::array<double, max_terms> gamma_{};
  };

  /**
   * Volumetric energy U(J) = κ/4 (J² − 1 − 2 ln J) (docs/methods.md §3.2; the choice of deal.II
   * step-44) and its derivatives. Used with the element mean dilatation J̃ of the
   * Q1P0 three-field formulation (docs/methods.md §3.1).
   * kappa: bulk modulus κ (MPa); J dimensionless. U in MPa, U' = dU/dJ and
   * U'' = d²U/dJ² in MPa.
   * @throws std::domain_error from each function if J ≤ 0 (or not finite).
   */
  struct VolumetricEnergy
  {
    /// Bulk modulus κ (MPa); U''(1) = κ.
    double kappa = 0.0;
    /// U(J) = κ/4 (J² − 1 − 2 ln J) (MPa).
    double U(double J) const;
    /// U'(J) = κ/2 (J − 1/J) (MPa).
    double dU(double J) const;
    /// U''(J) = κ/2 (1 + 1/J²) (MPa).
    double d2U(double J) const;
  };

} // namespace granular::material

#endif
