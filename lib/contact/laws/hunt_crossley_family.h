#pragma once
/**
 * @file hunt_crossley_family.h
 * docs/contact-law-catalogue.md §4.1 and §5 D, E: the Hunt–Crossley family of hysteresis-damped
 *   laws F = K d^n + chi d^n d',   chi = f(c_r) K / d'_-
 * (d'_- = delta_dot_minus, the approach velocity stored at contact onset), which differ only
 * in the dimensionless damping factor f(c_r) = chi d'_- / K (docs/contact-law-catalogue.md §4.1
 * table), plus the variants whose chi does not follow that pattern: D1b marhefka_orin (chi = 1.5
 * alpha K), D7 wang_yield_zq (c_r replaced by a velocity-dependent c_r*) and E3 luo_nahon
 * (stiffness from the interference geometry).
 *
 * One class (HuntCrossleyFamilyLaw) parameterized by its relative damping chi/K as a function
 * of d'_-; one LawInfo per catalogue identifier (laws::catalogue::<identifier>()).
 *
 * The free functions below are the damping-factor curves of scenario S0
 * (docs/contact-law-catalogue.md §8 S0, S000 Fig. 2) and the implicit factors of §5 E (E1 exact, E2
 * Khatiwada, E4 Yu), for the impact benchmark program and the tests.
 *
 * Units (mm–s–N–t–MPa): d in mm, d' and d'_- in mm/s, K in N/mm^n, chi in N s/mm^(n+1),
 * F in N; f(c_r), c_r and the exact-solution variable d of E1 are dimensionless.
 */
#include "contact/laws/contact_law.h"

#include <functional>
#include <string>
#include <vector>

namespace granular::contact::laws
{
  /**
   * The damping factor f(c_r) = chi d'_- / K of law @p id (docs/contact-law-catalogue.md §4.1
   * table), for 0 < c_r <= 1: its LawInfo::damping_factor. Identifiers: those of
   * damping_factor_laws(). For wang_yield_zq, @p c_r is its effective c_r* (the law computes
   * c_r* = 1 - 0.26 K* d'_-^(1/3) itself); khatiwada's f is 1/u of E2 (solved separately from E1;
   * equal to hc_exact's d/c_r).
   * @throws std::invalid_argument for another identifier (e.g. marhefka_orin, whose chi does
   *         not depend on c_r, or luo_nahon, which uses hc_exact's factor) or c_r outside (0, 1].
   */
  double
  damping_factor(const std::string &id, double c_r);

  /// The identifiers accepted by damping_factor(): the registered laws with a
  /// LawInfo::damping_factor, in registry (catalogue) order (D1, D2–D12, E1, E2, E4).
  std::vector<std::string>
  damping_factor_laws();

  /**
   * E1 (docs/contact-law-catalogue.md §5 E1; S002 eqs.(5.23)–(5.25); S004 eqs.(18)–(19)): the
   * non-trivial root d in (0, 1) of (1 + d/c_r)/(1 - d) = exp(d (1 + 1/c_r)), for 0 < c_r <= 1 (0
   * at c_r = 1). Then chi = d K/(c_r d'_-), f = d/c_r.
   *
   * Method: the logarithm of the equation, g(d) = ln(1 + d/c) - ln(1 - d) - d (1 + 1/c), has a
   * double root at the trivial d = 0 (g(0) = g'(0) = 0, g''(0) = 1 - 1/c^2 < 0). Its linear
   * terms cancel exactly, and with r(x) = (ln(1 + x) - x + x^2/2)/x^3 (series for |x| <= 3/4,
   * std::log1p beyond) the solver works on
   *   h(d) = g(d)/d^2 = -(1 - c^2)/(2 c^2) + d (r(d/c)/c^3 + r(-d)),
   * which has no root at d = 0, no cancellation as c_r -> 1, is negative at d -> 0+ and tends
   * to +infinity at d -> 1, with one sign change. Bracket [(1 - c_r)/2, 1 - 2^-53] (g is concave
   * on (0, (1 - c_r)/2], hence negative there; the root is ≈ 1.5 (1 - c_r) as c_r -> 1 and tends
   * to 1 as c_r -> 0, 1 - d ≈ (1 + 1/c_r) exp(-(1 + 1/c_r))); Boost.Math toms748_solve to a
   * bracket of 4 eps relative width. For c_r < 0.02, and whenever the root lies closer to 1 than
   * the largest double below 1 (c_r below about 0.025), that double is returned.
   * Achieved accuracy (measured against a 100-digit solve): relative error of d at most
   * 8.2e-16 on 2000 points of [0.03, 1) and below 3e-16 for 1 - c_r in [3e-16, 1e-6]. The
   * logarithmic residual |ln lhs - ln rhs| at the returned double is below 1e-12 for
   * c_r >= 0.11; below that it is set by the spacing of doubles near 1
   * (|g'(d)| ulp ≈ ulp(1)/(1 - d), 1.0e-12 at c_r = 0.1), not by the solver.
   * @throws std::invalid_argument for c_r outside (0, 1].
   */
  double
  exact_hunt_crossley_d(double c_r);

  /**
   * E2 (docs/contact-law-catalogue.md §5 E2; S002 eq.(5.31), Khatiwada): the root u = K/(chi
   * d'_-) > c_r of 1 + c_r = u ln|(u + 1)/(u - c_r)|, solved on its own (not as c_r/d) to show E2 ≡
   * E1 with u = c_r/d (f = 1/u). For u > c_r the absolute value is inactive. The trivial root of E2
   * is u -> infinity (E1's d = 0): F(u) = u ln((u + 1)/(u - c)) - (1 + c) -> 0 from below. The
   * solver works on H(u) = u F(u) = -(1 - c^2)/2 + (r(1/u) + c^3 r(-c/u))/u (r as for E1),
   * which tends to -(1 - c^2)/2 at infinity and to +infinity at u -> c+; bracket
   * [c (1 + 2^-50), 2 c/(1 - c)] (the upper end is the image of E1's (1 - c)/2, where F < 0),
   * Boost.Math toms748_solve. Measured: relative backward error |F/(u F')| at most 8.8e-16
   * on [0.03, 1), |u - c/d| / u below 3e-15. Returns +infinity at c_r = 1 (chi = 0) and the
   * lower bracket end where the root is closer to c_r than representable (c_r below ~0.03).
   * @throws std::invalid_argument for c_r outside (0, 1].
   */
  double
  khatiwada_u(double c_r);

  /**
   * E4 (docs/contact-law-catalogue.md §5 E4; S002 eqs.(5.32)–(5.34), Yu et al.): the piecewise
   * cubic d_Yu(c_r), 1 on [0, 0.25], cubics on (0.25, 0.4], (0.4, 0.6], (0.6, 0.8], (0.8, 1]. Signs
   * as resolved by docs/contact-law-catalogue.md §7 (continuity at 0.4, 0.6, 0.8 to ~1e-4 and
   * d_Yu(1) = 0 to rounding). The jump at c_r = 0.25 (1 vs 0.9602) is genuine (§7): Yu et al. set
   * d = 1 below 0.25, where large plastic deformation makes E1 inapplicable (S002: permanent
   * deformation may be ignored for c_r > 0.25). Measured: max |d_Yu - exact d| on (0.25, 1] is
   * 7.1e-5 (at the piece boundary c_r = 0.6; grid of 7500 points); the pieces differ by 1.4e-5,
   * 9.8e-5 and 5.8e-5 at 0.4, 0.6 and 0.8.
   * @throws std::invalid_argument for c_r outside [0, 1].
   */
  double
  yu_d(double c_r);

  /**
   * D7 (docs/contact-law-catalogue.md §5 D7; S002 eq.(5.59), OCR reading, unresolved per §7): the
   * yield-strength ratio K* of Wang et al.: sigma_1/(sigma_1 - sigma_2) if sigma_1 >= 2 sigma_2;
   * sigma_1/sigma_2 if sigma_2 ≈ sigma_1, read as |sigma_1 - sigma_2| <= @p tolerance
   * max(sigma_1, sigma_2); sigma_1/(sigma_1 + sigma_2) otherwise.
   */
  double
  wang_k_star(double sigma_1, double sigma_2, double tolerance);

  /**
   * D7: c_r* = 1 - 0.26 K* v^(1/3) with v = d'_- in m/s (the constant 0.26 assumes SI
   * velocities; @p approach_velocity is in mm/s and converted), clipped to [0, 1] (a
   * negative c_r* has no meaning; the source gives no range).
   */
  double
  wang_effective_restitution(double k_star, double approach_velocity);

  /**
   * A law of the Hunt–Crossley family (docs/contact-law-catalogue.md §4, §4.1, §5 D, E):
   *   F = K d^n + chi d^n d' = K d^n (1 + (chi/K) d'),   chi/K = a(d'_-)   (d > 0),
   * where a (s/mm) is the law's relative damping as a function of the guarded approach
   * velocity d'_- = max(h.approach_velocity, minimum approach velocity)
   * (docs/contact-law-catalogue.md §6): for the §4.1 laws a(v) = f(c_r)/v with the constant factor
   * f(c_r) of damping_factor(); for marhefka_orin a = 1.5 alpha (no velocity dependence); for
   * wang_yield_zq a(v) = f_D6(c_r*(v))/v; for luo_nahon a(v) = d_E1(c_r)/(c_r v).
   * Units: d mm, d' mm/s, K N/mm^n, chi N s/mm^(n+1), F N.
   * History: h.approach_velocity (d'_-, captured at onset by updated_history()); nothing else.
   * The force is continuous: 0 at first contact and at d = 0, no jump. Flags: no clamp and
   * damping in decompression by default (as in the sources, docs/contact-law-catalogue.md §1:
   * tension appears for d' < -K/chi late in restitution). Immutable and thread-safe.
   */
  class HuntCrossleyFamilyLaw : public ContactLaw
  {
  public:
    /// chi/K (s/mm) as a function of the guarded approach velocity d'_- (mm/s).
    using RelativeDamping = std::function<double(double approach_velocity)>;

    /**
     * @param id catalogue identifier; @param K stiffness (N/mm^n); @param n elastic exponent;
     * @param relative_damping a(d'_-) (s/mm); @param minimum_approach_velocity the guard
     * (mm/s; 0 for a law whose chi does not depend on d'_-).
     * @throws std::invalid_argument if K or n is not positive and finite.
     */
    HuntCrossleyFamilyLaw(std::string id, double K, double n, RelativeDamping relative_damping,
                          double minimum_approach_velocity, bool clamp_nonnegative,
                          bool damping_in_decompression);

    /// K d^n.
    double
    spring_force(double d, const NormalContactHistory &h) const override;
    /// chi(h) d^n d'.
    double
    damping_force(double d, double d_dot, const NormalContactHistory &h) const override;
    /// K d^(n+1)/(n+1) (closed form).
    double
    stored_energy(double d, const NormalContactHistory &h) const override;

    /// chi = K a(d'_-) (N s/mm^(n+1)) of the contact with history @p h.
    double
    hysteresis_factor(const NormalContactHistory &h) const;

    double
    stiffness_constant() const
    {
      return K;
    }
    double
    exponent() const
    {
      return n;
    }

  private:
    double          K;
    double          n;
    RelativeDamping relative_damping;
  };

  /**
   * Registry entries (docs/contact-law-catalogue.md §4.1, §5 D, E). Common to all unless stated
   *   otherwise: F = K d^n + chi d^n d' = K d^n (1 + f(c_r) d'/d'_-)   (d > 0; 0 for d <= 0)
   * with d (mm), d' (mm/s, > 0 approach), K (N/mm^n) = ContactData::stiffness, F (N);
   * history: d'_- = h.approach_velocity (mm/s), the rate at contact onset, guarded from below
   * by "Minimum approach velocity" (docs/contact-law-catalogue.md §6); flags: "Clamp nonnegative"
   * false and "Damping in decompression" true, as in the sources (no clamp, damping in both phases;
   * F < 0 once d' < -K/chi, docs/contact-law-catalogue.md §1). Parameters: "Coefficient of
   * restitution" c_r in (0, 1], default 0.8 (inside the measured range of
   * docs/contact-law-catalogue.md S2, 0.757–0.974, and high enough for the laws derived for c_r
   * near 1, D1–D4); "Elastic exponent" n > 0, default 1.5 (Hertz; the sources use 3/2, the exact
   * theory E1 holds for any n); "Minimum approach velocity" (mm/s, default 1). The output c_r of an
   * impact differs from the input c_r except for E1/E2 (exact) and, to ~1e-4 in d, E4
   * (docs/contact-law-catalogue.md §5 D). S002 groups (§4): G2 exact/implicit chi, G3 explicit chi
   * from a simplifying assumption, G4 explicit chi from an assumed delta–delta' relation.
   */
  namespace catalogue
  {
    /// D1 `hunt_crossley`, G3: f = 1.5 (1 - c_r), F = K d^n (1 + 1.5 (1 - c_r) d'/d'_-)
    /// (S002 eq.(5.12)); internal damping, valid for c_r close to 1. S000 Table 1 [96]
    /// (+ Marhefka–Orin [27]); S002 eqs.(5.9)–(5.12) [105],[46]; S003 [16]; S004 eq.(13) [12].
    LawInfo
    hunt_crossley();
    /// D1b `marhefka_orin`: D1 with c_r = 1 - alpha d'_- inserted (elastic range, S002 [34]):
    /// F = K d^n (1 + 1.5 alpha d'), chi = 1.5 alpha K independent of the approach velocity
    /// (no history used, no guard). Parameters: "Restitution velocity coefficient" alpha
    /// (s/mm, default 1e-3: c_r = 0.7 at 300 mm/s as in docs/contact-law-catalogue.md S1), "Elastic
    /// exponent"; no c_r. S000 Table 1 [27]; S002 [149]; docs/contact-law-catalogue.md D1b.
    LawInfo
    marhefka_orin();
    /// D2 `herbert_mcwhannell`, G2 (approximate solution of the equation of motion, mass
    /// between two thick plates): f = 6 (1 - c_r)/((2 c_r - 1)^2 + 3); only for c_r near 1.
    /// S000 Table 1 [102]; S002 eqs.(5.18)–(5.19) [158].
    LawInfo
    herbert_mcwhannell();
    /// D3 `lee_wang`, G3: f = 0.75 (1 - c_r), the least dissipative of the family; high c_r.
    /// S000 Table 1 [109]; S002 eq.(5.35) [169].
    LawInfo
    lee_wang();
    /// D4 `lankarani_nikravesh`, G3 (energy balance Delta T = 0.5 m v^2 (1 - c_r^2) = hysteresis
    /// work (2/3)(chi/K) m v^3): f = 0.75 (1 - c_r^2); accurate for c_r > 0.9 (S003).
    /// S000 Table 1 [100]; S002 eqs.(5.41)–(5.43) [106]; S003 [20,21]; S004 eq.(14) [15,17].
    LawInfo
    lankarani_nikravesh();
    /// D5 `gonthier_approx`, G2: f = (1 - c_r^2)/c_r (Gonthier et al. / Zhang–Sharf with E1's
    /// d replaced by 1 - c_r^2); whole c_r range. S000 Table 1 [110],[103]; S002 eq.(5.26) [89].
    LawInfo
    gonthier_approx();
    /// D6 `zhiying_qishao`, G3: f = 0.75 (1 - c_r^2) exp(2 (1 - c_r)); low/medium c_r.
    /// S000 Table 1 [111]; S002 eq.(5.56) [184].
    LawInfo
    zhiying_qishao();
    /// D7 `wang_yield_zq` (Wang et al.), G3: D6's factor at c* = 1 - 0.26 K* v^(1/3), v = d'_-
    /// in m/s (the constant 0.26 assumes SI velocity: d'_- in mm/s is multiplied by 1e-3),
    /// c* clipped to [0, 1]; K* = wang_k_star(sigma_1, sigma_2, tolerance). No c_r parameter:
    /// "Yield strength of body 1" sigma_1 and "Yield strength of body 2" sigma_2 (MPa, defaults
    /// 1030 and 30 from docs/contact-law-catalogue.md S3 — no values in the D7 source), "Equal
    /// yield strength tolerance" (reading of "sigma_2 ≈ sigma_1", default 0.05, ours), "Elastic
    /// exponent", "Minimum approach velocity". The reading of S002 eq.(5.59) (minus vs
    /// multiplication in the first fraction, the relation signs of the case conditions, the meaning
    /// of "≈", the units of 0.26) is unresolved (docs/contact-law-catalogue.md §5 D7 and §7: "best
    /// reading given, unresolved"); original paper in Chinese. S002 eqs.(5.58)–(5.60) [185].
    LawInfo
    wang_yield_zq();
    /// D8 `flores` (Flores et al. = Ye et al.), G4 (delta' = delta'_± sqrt(1 - (d/d_max)^2)):
    /// f = 8 (1 - c_r)/(5 c_r); whole c_r range. S000 Table 1 [101]; S002 eqs.(5.61)–(5.62)
    /// [108],[59]; S003 [27],[26]; S004 eq.(16) [6],[29].
    LawInfo
    flores();
    /// D9 `gharib_hurmuzlu`, G3: f = 1/c_r; f(1) = 1, so it dissipates even for c_r = 1 (it is
    /// meant for low c_r). S000 Table 1 [112]; S002 eq.(5.57) [107].
    LawInfo
    gharib_hurmuzlu();
    /// D10 `hu_guo`, G4 (b = 5/2): f = 1.5 (1 - c_r)/c_r. S002 eq.(5.63) [109]; S004 eq.(15)
    /// [11] ("Hu and Gua").
    LawInfo
    hu_guo();
    /// D11 `zhang_et_al_2020`, G4: f = 249 (1 - c_r)/(6 + 160 c_r) (exact slope 1.5 at
    /// c_r = 1). S002 eq.(5.64) [187].
    LawInfo
    zhang_et_al_2020();
    /// D12 `safaeifar_farshidianfar`, G4 (b = 1.5, c = 5.5): f = 5 (1 - c_r)/(4 c_r), kept as
    /// printed although its slope at c_r = 1 is 1.25, not the exact 1.5
    /// (docs/contact-law-catalogue.md §7). S002 eqs.(5.65)–(5.66) [151].
    LawInfo
    safaeifar_farshidianfar();
    /// E1 `hc_exact` (Gonthier et al. / Zhang–Sharf), G2: f = d/c_r with
    /// d = exact_hunt_crossley_d(c_r), solved once when the law is made; an impact reproduces
    /// the input c_r for any n, K, m_eff. S000 [110],[103]; S002 eqs.(5.23)–(5.25) [89],[165];
    /// S004 eqs.(18)–(19) [9].
    LawInfo
    hc_exact();
    /// E2 `khatiwada`, G2: f = 1/u with u = khatiwada_u(c_r) (≡ E1, u = c_r/d).
    /// S002 eq.(5.31) [167].
    LawInfo
    khatiwada();
    /// E3 `luo_nahon`, G2: F = (1 + chi' d') gamma pi E* A0/s0_max d with chi' = chi/K from E1,
    /// chi' = d_E1(c_r)/(c_r d'_-) (s/mm): a Hunt–Crossley law with n = 1 and
    /// K = gamma pi E* A0/s0_max (N/mm). Reading (flagged): S002 eq.(5.30) writes delta_max, "the
    /// maximum normal surface deformation of the interference geometry", a geometric quantity;
    /// it is read here as the current indentation d (the force must vanish at d = 0 and follow
    /// the deformation), which makes the law linear in d. Needs E* (MPa,
    /// ContactData::effective_modulus; not the stiffness K). Parameters: c_r, "Case coefficient"
    /// gamma (dimensionless), "Interference area" A0 (mm^2), "Shape coefficient" s0_max (mm, a
    /// length by dimensions) — defaults 1 (the sources give no values: set them), "Minimum
    /// approach velocity"; no exponent. S002 eqs.(5.27)–(5.30) [166].
    LawInfo
    luo_nahon();
    /// E4 `yu_piecewise` (Yu et al.), G2: f = d_Yu(c_r)/c_r (yu_d()), d_Yu = 1 for c_r <= 0.25:
    /// the jump of f at c_r = 0.25 (d 1 -> 0.9602) is genuine (docs/contact-law-catalogue.md §7),
    /// so the law is discontinuous in its parameter there; signs of the cubics resolved by
    /// continuity (§7). S002 eqs.(5.32)–(5.34) [168].
    LawInfo
    yu_piecewise();
  } // namespace catalogue
} // namespace granular::contact::laws
