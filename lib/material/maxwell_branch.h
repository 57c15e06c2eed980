// granular-interface — finite-strain Maxwell branch (docs/methods.md §3.3) with the Payne
// effect (docs/methods.md §3.4): the material-point kernel only.
//
// Pure function of (converged history, F_n, F_{n+1}, Δt): no global state, no heap
// allocation in update(). Units: mm–s–N–t, so moduli and stresses are in MPa (N/mm²),
// energy and dissipation densities in MPa = N·mm/mm³, times in s, q in 1/s.
#ifndef GRANULAR_MATERIAL_MAXWELL_BRANCH_H
#define GRANULAR_MATERIAL_MAXWELL_BRANCH_H

#include <deal.II/base/symmetric_tensor.h>
#include <deal.II/base/tensor.h>

#include "material/ogden_material.h"

#include <array>
#include <vector>

namespace granular
{
  struct RubberParameters;
}

namespace granular::material
{
  using dealii::SymmetricTensor;
  using dealii::Tensor;

  /**
   * History of one Maxwell branch at one quadrature point (docs/methods.md §3.3, §3.5
   * "plane-strain pitfall"). The caller keeps a trial and a converged copy and
   * commits the result of MaxwellBranch::update() only at a converged step.
   */
  struct MaxwellState
  {
    /// Inverse viscous right Cauchy–Green tensor C_v⁻¹ = F_v⁻¹F_v⁻ᵀ (rank 2,
    /// reference frame, dimensionless), full 3×3: the 33 entry evolves even though
    /// F33 = 1. Block diagonal (C_v⁻¹_13 = C_v⁻¹_23 = 0) in plane strain;
    /// det C_v⁻¹ = 1 is preserved by the (isochoric) viscous flow.
    SymmetricTensor<2, 3> Cv_inv = dealii::unit_symmetric_tensor<3>();
    /// Payne internal variable q (1/s): relaxed Frobenius norm of the rate of
    /// deformation, q̇ = (‖D‖ − q)/λ, q(0) = 0 (docs/methods.md §3.4).
    double q = 0.0;
    /// Accumulated viscous dissipation per unit reference volume (N·mm/mm³ = MPa).
    double dissipation = 0.0;
    /// ‖D‖ (1/s) of the step that produced this state: the Frobenius norm of the
    /// rate of deformation D ≈ sym((F_{n+1} − F_n) F_{n+1}⁻¹)/Δt that drove q
    /// (docs/methods.md §3.4). A diagnostic (history.csv, VTU): it does not enter the next step
    /// and is not part of a checkpoint.
    double rate_of_deformation = 0.0;

    /// Boost.Serialization (checkpoint/restart); rate_of_deformation is not written.
    template <class Archive>
    void serialize(Archive &ar, const unsigned int)
    {
      ar &Cv_inv &q &dissipation;
    }
  };

  /**
   * Maxwell branch of the standard (non)linear solid (docs/methods.md §3.3, §3.4; Reese &
   * Govindjee 1998, Int. J. Solids Struct. 35:3455–3482).
   *
   * Kinematics: F = F_e F_v, b_e = F_e F_eᵀ = F C_v⁻¹ Fᵀ. Energy: the Ogden form of
   * docs/methods.md §3.2 with modulus μ_v (same α_p, γ_p as the elastic branch) on the
   * isochoric part of b_e; no volumetric term, so the branch stress is deviatoric.
   *
   * Evolution:  −½ (L_v b_e) b_e⁻¹ = (1/(2η)) dev τ_v,
   *             η = τ0 μ_v0 / H,  H = 1 + d q,  q̇ = (‖D‖ − q)/λ,
   * with μ_v0 = μ_v · ½Σγ_pα_p the small-strain shear modulus of the branch
   * (initial_shear_modulus(); = μ_v for an exactly normalised set, 0.9995 μ_v for
   * the default set of §3.5 whose rounded constants give ½Σγα = 0.9995). This
   * makes the small-strain relaxation time exactly τ0 (docs/methods.md §3.3: τ0 = η0/μ_v).
   *
   * Time integration (Reese & Govindjee 1998, §4; Simo 1992 exponential map):
   * b_e^tr = F_{n+1} C_v,n⁻¹ F_{n+1}ᵀ (3×3: the in-plane 2×2 eigenproblem plus the
   * 33 entry), ε_a^tr = ½ ln(eigenvalue_a), and the local Newton problem in the
   * three principal logarithmic elastic strains
   *   r_a = ε_a + (Δt/(2η)) τ_a(ε) − ε_a^tr = 0,   τ_a = ∂W_v/∂ε_a (deviatoric),
   * which is the implicit exponential map b_e,n+1 = exp(−(Δt/η) dev τ_v) b_e^tr
   * written in the common principal basis. Small-strain check: τ = 2μ_v dev ε_e
   * gives ε̇_e = −μ_v0 ε_e/η = −ε_e H/τ0, i.e. relaxation time τ0 (d = 0), the
   * standard linear solid. The local problem is the stationarity condition of the
   * strictly convex Φ(ε) = ½|ε − ε^tr|² + (Δt/(2η)) W_v(ε) (all μ_pα_p > 0 for the
   * default set), solved by Newton with a backtracking line search on Φ: it is
   * unconditionally stable (any Δt/τ0) and exactly isochoric (Σε_a = Σε_a^tr).
   *
   * Payne variable: backward Euler q_{n+1} = (q_n + (Δt/λ)‖D‖)/(1 + Δt/λ) with
   * D = sym((F_{n+1} − F_n) F_{n+1}⁻¹)/Δt (in-plane; D_33 = 0). η uses q_{n+1}.
   *
   * Tangent: closed-form consistent algorithmic tangent (spectral form of the
   * isotropic tensor function b_e^tr ↦ τ_v in the in-plane eigenbasis, Miehe 1998 /
   * Simo 1992), with ∂ε/∂ε^tr = (I + (Δt/(2η)) ∂τ/∂ε)⁻¹ from the converged local
   * Newton. Equal in-plane trial eigenvalues (relative separation < 1e-8, e.g. the
   * undeformed state) use the limit of the divided difference. For d > 0 the
   * dependence of H(q_{n+1}(‖D(F_{n+1})‖)) on F_{n+1} is included consistently (not
   * lagged); at ‖D‖ = 0 the (non-differentiable) norm contributes zero.
   *
   * Dissipation increment: ΔD = Σ_a τ_a (ε_a^tr − ε_a) = (Δt/(2η)) Σ_a τ_a² ≥ 0,
   * the backward-Euler value of ∫ dev τ : dev τ/(2η) dt (docs/methods.md §3.3).
   */
  class MaxwellBranch
  {
  public:
    /**
     * @param mu_v    Maxwell shear modulus scale μ_v (MPa, ≥ 0); 0 switches the
     *                branch off (update() then returns zero stress and tangent).
     * @param alpha   Ogden exponents α_p (as for OgdenMaterial).
     * @param gamma   normalised Ogden moduli γ_p (as for OgdenMaterial).
     * @param tau0    relaxation time τ0 = η0/μ_v (s, > 0).
     * @param payne_d Payne parameter d (s, ≥ 0); 0 switches the effect off.
     * @param payne_lambda Payne time constant λ (s, > 0).
     * Every Ogden term must have γ_pα_p > 0 (true for the default set): this makes
     * the local problem strictly convex, hence the local Newton globally convergent.
     * @throws std::invalid_argument naming the offending input (also the errors of
     *         the OgdenMaterial constructor).
     */
    MaxwellBranch(double              mu_v,
                  std::vector<double> alpha,
                  std::vector<double> gamma,
                  double              tau0,
                  double              payne_d,
                  double              payne_lambda);

    /// Branch of the "Rubber" parameter subsection (docs/methods.md §3.5): μ_v =
    /// maxwell_modulus() (0 when the branch is off), τ0 = relaxation_time,
    /// d = payne_d, λ = payne_time_constant_ratio · τ0.
    /// @throws std::invalid_argument as the constructor.
    static MaxwellBranch from_parameters(const RubberParameters &prm);

    /// μ_v (MPa); 0 if the branch is off.
    double mu_v() const { return mu_v_; }
    /// True if μ_v > 0.
    bool active() const { return mu_v_ > 0.0; }
    /// τ0 (s).
    double relaxation_time() const { return tau0_; }
    /// d (s).
    double payne_d() const { return payne_d_; }
    /// λ (s).
    double payne_lambda() const { return payne_lambda_; }
    /// Small-strain shear modulus of the branch μ_v · ½Σγ_pα_p (MPa).
    double initial_shear_modulus() const;

    /// Everything update() returns.
    struct Result
    {
      /// State at t_{n+1} (trial: commit it only at a converged global step).
      MaxwellState state;
      /// Kirchhoff stress τ_v (rank 2, current frame, MPa), full 3×3, deviatoric
      /// (τ_33 is the plane-strain out-of-plane value). Cauchy stress: τ_v / det F.
      SymmetricTensor<2, 3> kirchhoff;
      /// First Piola stress P_v = τ_v F⁻ᵀ (two-point, MPa), in-plane 2×2 block.
      Tensor<2, 2> first_piola;
      /// Consistent algorithmic tangent ∂(P_v)_iJ/∂(F_{n+1})_kL (MPa) at fixed
      /// (old state, F_n, Δt); zero if compute_tangent was false.
      Tensor<4, 2> tangent;
      /// Viscous dissipation increment of this step (N·mm/mm³), ≥ 0.
      double dissipation_increment = 0.0;
      /// Stored energy of the branch W_v(b_e,n+1) (MPa).
      double energy = 0.0;
      /// Payne factor H = 1 + d q_{n+1} used in the step (dimensionless); η = τ0μ_v0/H.
      double payne_factor = 1.0;
      /// Local Newton iterations used.
      unsigned int newton_iterations = 0;
    };

    /**
     * Implicit exponential-map update of one step t_n → t_{n+1} (see class doc).
     * @param old     converged state at t_n.
     * @param F_n     in-plane deformation gradient at t_n (only used by the Payne
     *                rate D; dimensionless, F33 = 1).
     * @param F_np1   in-plane deformation gradient at t_{n+1} (F33 = 1).
     * @param dt      time step Δt = t_{n+1} − t_n (s, > 0, finite).
     * @param compute_tangent skip the tangent if false (stress-only calls).
     * @throws std::invalid_argument if dt is not finite and > 0;
     *         std::domain_error if det F_np1 ≤ 0 or the trial b_e is not positive
     *         definite; std::runtime_error if the local Newton does not converge.
     */
    Result update(const MaxwellState &old,
                  const Tensor<2, 2> &F_n,
                  const Tensor<2, 2> &F_np1,
                  double              dt,
                  bool                compute_tangent = true) const;

    /**
     * Response of a given history at F without viscous flow (the Δt → 0 limit of
     * update(): b_e = F C_v⁻¹ Fᵀ, q unchanged, zero dissipation). The tangent is the
     * instantaneous (glassy) one. Used for the initial point of a path.
     * @throws std::domain_error as update().
     */
    Result frozen_response(const MaxwellState &state,
                           const Tensor<2, 2> &F,
                           bool                compute_tangent = true) const;

  private:
    Result update_impl(const MaxwellState &old,
                       const Tensor<2, 2> &F_n,
                       const Tensor<2, 2> &F,
                       double              dt,
                       bool                compute_tangent,
                       bool                frozen) const;

    double        mu_v_;
    double        tau0_;
    double        payne_d_;
    double        payne_lambda_;
    OgdenMaterial ogden_; // modulus μ_v (or 1 when the branch is off: unused)
  };

} // namespace granular::material

#endif
