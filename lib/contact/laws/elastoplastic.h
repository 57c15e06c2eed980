#pragma once
/**
 * @file elastoplastic.h
 * docs/contact-law-catalogue.md §5 G: the elastoplastic and history-dependent normal contact laws
 *   G1 `thornton`, G2 `yigit`, G3 `ma_liu`, G4 `wang_liu_liu_elastoplastic_dashpot`
 * (their classes live in elastoplastic.cc; their LawInfos are catalogue::<identifier>()),
 * and MaLiuModel, the static Ma–Liu force–indentation model (S003 §2) that G3 and G4 are built
 * on and that the impact benchmark program uses for the scenarios of
 * docs/contact-law-catalogue.md §8 S3 and S4.
 *
 * Units (mm–s–N–t–MPa): indentations in mm, forces in N, works in N mm (= mJ), moduli and
 * stresses in MPa, stiffnesses in N/mm^n.
 */
#include "contact/laws/contact_law.h"

namespace granular::contact::laws
{
  /**
   * The Ma–Liu static elastoplastic force–indentation model of two spheres (S003 §2,
   * eqs.(1)–(8), its ref [32]: Ma & Liu, J. Appl. Mech. 82 (2015);
   * docs/contact-law-catalogue.md G3), with the corrections 1–2 of
   * docs/contact-law-catalogue.md (§5 G3, §7 "Ma–Liu eq.(4), eq.(6)").
   *
   * Inputs: effective modulus E* (MPa, docs/contact-law-catalogue.md §2), effective radius R (mm, >
   * 0; for a concave–convex contact R = R1 R2/(R1 - R2), docs/contact-law-catalogue.md §2 and §8
   * S3), uniaxial yield strength sigma_y of the softer body (MPa), xi (dimensionless, > sqrt(2)),
   * psi (dimensionless Brinell hardness / yield strength ratio, > 0).
   *
   * Loading curve (S003 eq.(1)):
   *   d <  delta_y:            F = (4/3) E* sqrt(R) d^1.5                      (Hertz)
   *   delta_y <= d < delta_p:  F = d (c1 + c2 ln(d/delta_y)) + c3              (elastoplastic)
   *   d >= delta_p:            F = F_p + k1 (d - delta_p)                      (plastic)
   * with p_y = 1.61 sigma_y, delta_y = pi^2 R p_y^2/(4 E*^2), delta_p = xi^2 delta_y/2,
   * L = ln(xi^2/2), k1 = 2 pi R psi sigma_y, c1 = pi R (p_y (1 + L) - 2 psi sigma_y)/L,
   * c2 = pi R (2 psi sigma_y - p_y)/L, F_y = pi^3 R^2 p_y^3/(6 E*^2), c3 = F_y - c1 delta_y,
   * F_p = delta_p (c1 + c2 L) + c3. The curve and its slope are continuous at delta_y (slope
   * pi R p_y) and at delta_p (slope k1).
   *
   * Unloading from delta_max (S003 eqs.(3)–(5)), selected by the phase reached at delta_max:
   *   elastic (delta_max < delta_y):   the Hertz curve (reversible), delta_r = 0;
   *   otherwise:                       F = (4/3) E* sqrt(R_e) (d - delta_r)^1.5 for d > delta_r,
   *                                    0 for d <= delta_r,
   *   elastoplastic: R_e = R F_e/F_max, F_e = (4/3) E* sqrt(R) delta_max^1.5
   *                  (correction 1: S003 eq.(4) prints delta_y instead of delta_max),
   *   plastic:       R_e = R F_pe/F_p, F_pe = (4/3) E* sqrt(R) delta_p^1.5 (S003 eq.(5), its
   *                  "R_p" read as R),
   *   delta_r = delta_max - (3 F_max/(4 E* sqrt(R_e)))^(2/3)  (continuity at delta_max),
   * F_max = loading_force(delta_max).
   *
   * Works (S003 eqs.(6)–(8)): U = integral of the loading curve from 0 to delta_max (closed
   * form with correction 2: the c3 (delta_max - delta_y) term S003 eq.(6) omits in the
   * elastoplastic branch), W = (8/15) E* sqrt(R_e) (delta_max - delta_r)^2.5
   * = 0.4 F_max (delta_max - delta_r), CoR = sqrt(W/U) (Stronge, docs/contact-law-catalogue.md §3;
   * 1 in the elastic phase). For an impact, U = the initial kinetic energy 0.5 m v0^2
   * (max_indentation_for_energy()).
   *
   * Consistency of the model (our analysis, not in the source): the loading curve stays below
   * the Hertz curve for all d > delta_y, hence R_e >= R, delta_r >= 0 and CoR <= 1, iff
   * psi <= 0.805 (1 + ln(xi^2/2)/2) (loading_below_hertz(); xi = 13: psi <= 2.591, xi = 20:
   * psi <= 2.938). Otherwise the elastoplastic curve (whose slope is linear in ln d) rises
   * slightly above Hertz just past delta_y, and correction 1 gives R_e < R, a slightly
   * negative delta_r and a CoR slightly above 1 for delta_max just above delta_y. Both
   * benchmark parameter sets are in this case: S3 (xi 13, psi 3.0): CoR <= 1.0072 (maximum
   * near 1.83 delta_y), CoR < 1 from 2.77 delta_y, delta_r >= -0.020 delta_y and >= 0 from
   * 2.98 delta_y; S4 (xi 13, psi 2.84): CoR <= 1.0024 (near 1.52 delta_y), CoR < 1 from
   * 1.98 delta_y, delta_r >= 0 from 2.05 delta_y. Beyond these points the CoR decreases
   * monotonically with delta_max (checked up to 300 delta_y). With delta_r < 0 the unloading
   * curve still carries a small force at d -> 0+, which drops to 0 when the contact ends.
   * The formulas are kept as published (they reproduce the paper's numbers, whose impacts
   * are far beyond delta_y: S3 70.6 and 132.5 delta_y); G4 caps the Ma–Liu CoR it uses at 1.
   *
   * Immutable value type; all members are pure functions.
   */
  class MaLiuModel
  {
  public:
    /// Phase reached at the maximum indentation (S003 eq.(3)).
    enum class Phase
    {
      elastic,       ///< delta_max < delta_y
      elastoplastic, ///< delta_y <= delta_max < delta_p
      plastic        ///< delta_max >= delta_p
    };

    /// @param E_star effective modulus (MPa); @param R_eff effective radius (mm);
    /// @param sigma_y yield strength (MPa); @param xi, @param psi Ma–Liu parameters
    /// (S003 §4: 13 and 3.0).
    /// @throws std::invalid_argument unless E*, R, sigma_y, psi > 0, xi > sqrt(2), all finite.
    MaLiuModel(double E_star, double R_eff, double sigma_y, double xi = 13., double psi = 3.);

    double E_star() const { return E; }        ///< E* (MPa)
    double R_eff() const { return R; }         ///< R (mm)
    double sigma_y() const { return sy; }      ///< sigma_y (MPa)
    double xi() const { return xi_; }          ///< xi
    double psi() const { return psi_; }        ///< psi
    double p_y() const { return py; }          ///< 1.61 sigma_y (MPa)
    double delta_y() const { return dy; }      ///< yield indentation (mm)
    double delta_p() const { return dp; }      ///< onset of the plastic phase (mm)
    double F_y() const { return Fy; }          ///< force at delta_y (N)
    double F_p() const { return Fp; }          ///< force at delta_p (N)
    double c1() const { return c1_; }          ///< N/mm
    double c2() const { return c2_; }          ///< N/mm
    double c3() const { return c3_; }          ///< N
    double k1() const { return k1_; }          ///< plastic slope (N/mm)
    double hertz_stiffness() const { return KH; } ///< (4/3) E* sqrt(R) (N/mm^1.5)

    /// Phase reached at @p delta_max.
    Phase
    phase(double delta_max) const;

    /// (4/3) E* sqrt(R) d^1.5 (N); 0 for d <= 0.
    double
    hertz_force(double d) const;

    /// The loading curve F(d) (N) of S003 eq.(1); 0 for d <= 0.
    double
    loading_force(double d) const;

    /// R_e (mm) of the unloading curve from @p delta_max (R in the elastic phase).
    double
    unloading_radius(double delta_max) const;

    /// delta_r (mm): where the unloading curve from @p delta_max reaches 0 (0 in the elastic
    /// phase; slightly negative in the region described in the class docstring).
    double
    residual_indentation(double delta_max) const;

    /// The unloading curve from @p delta_max at d <= delta_max (N): S003 eq.(3), 0 for
    /// d <= max(delta_r, 0).
    double
    unloading_force(double d, double delta_max) const;

    /// U (N mm): the work of the loading curve from 0 to @p delta_max (closed form,
    /// correction 2).
    double
    loading_work(double delta_max) const;

    /// W (N mm): the work released on unloading from @p delta_max to delta_r (S003 eq.(7));
    /// U in the elastic phase.
    double
    unloading_work(double delta_max) const;

    /// Integral (N mm) of unloading_force(., delta_max) from 0 to @p d <= delta_max (the
    /// elastic energy still stored at d on the unloading curve).
    double
    unloading_work_to(double d, double delta_max) const;

    /// sqrt(W/U) (Stronge, S003 eq.(8)); 1 for delta_max <= delta_y.
    double
    coefficient_of_restitution(double delta_max) const;

    /// The delta_max with loading_work(delta_max) = @p U (mm): the maximum indentation of an
    /// impact of kinetic energy U (N mm). Closed forms in the elastic and plastic phases,
    /// Boost.Math TOMS 748 in the elastoplastic phase. 0 for U <= 0.
    double
    max_indentation_for_energy(double U) const;

    /// K_p = (F(delta_p) - F(delta_y))/(delta_p - delta_y) (N/mm): the linearized
    /// elastoplastic stiffness of G4 (S003 §3).
    double
    linearized_stiffness() const;

    /// true iff psi <= 0.805 (1 + ln(xi^2/2)/2): the loading curve never exceeds the Hertz
    /// curve, so that R_e >= R, delta_r >= 0 and CoR <= 1 (see the class docstring).
    bool
    loading_below_hertz() const;

  private:
    double E, R, sy, xi_, psi_;
    double py, dy, dp, L, k1_, c1_, c2_, c3_, Fy, Fp, KH;
  };

  namespace catalogue
  {
    /// G1 Thornton (registry entry).
    LawInfo
    thornton();
    /// G2 Yigit et al. (registry entry).
    LawInfo
    yigit();
    /// G3 Ma–Liu (registry entry).
    LawInfo
    ma_liu();
    /// G4 Wang–Liu–Liu elastoplastic dashpot (registry entry).
    LawInfo
    wang_liu_liu_elastoplastic_dashpot();
  } // namespace catalogue
} // namespace granular::contact::laws
