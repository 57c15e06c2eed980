#pragma once
/**
 * @file optimal_damping.h
 * Poursina–Nikravesh's optimal linear damping (docs/contact-law-catalogue.md
 * §5 B4, B5; S004 §§3–5) and the verification scenarios of docs/contact-law-catalogue.md §8:
 *  - S6: parameter sweeps of the exact optimal damping coefficient (S004 §4.2, eq.(23)):
 *    (a) against m_eff, (b) against delta_dot_minus, (c) against k (fitted slopes of
 *    ln c against the exponents n/(n+1), (n-1)/(n+1), 1/(n+1) of S004 eq.(49)),
 *    (d) against e with the fit c = alpha (e^beta - 1) per n (S004 eqs.(46)–(47)),
 *    (e) S004 §5.1's random check of the closed form eq.(49);
 *  - S7: the Kelvin–Voigt case of eq.(57) against Butcher–Segalman's exact e(xi) (B4, with
 *    the corrected xi > 1 branch, docs/contact-law-catalogue.md §7).
 *
 * The impact: m_eff d'' = -F, F = c d' + k d^n (1 <= n <= 2), d(0) = 0, d'(0) = v0 =
 * delta_dot_minus, the contact ends at the first restitution instant with F = 0 (S004
 * eq.(20)); e_out = -d'(s_t)/v0 (S004 eq.(22)). Integrated by simulate_impact()
 * (sdof_impact.h).
 *
 * Dimensional analysis: with T = (m_eff/(k v0^(n-1)))^(1/(n+1)) and L = v0 T the impact is
 * x'' = -(zeta x' + x^n), x(0) = 0, x'(0) = 1, with the single group
 *   zeta = c / (k v0^(n-1) m_eff^n)^(1/(n+1))             (damping_scale()),
 * so e_out = E(n, zeta) and the exact optimal c is zeta*(n, e) (k v0^(n-1) m_eff^n)^(1/(n+1)):
 * the exponents of S004 eq.(49) hold exactly; only zeta*(n, e) = alpha (e^beta - 1) is a fit.
 *
 * Units (mm–s–N–t, docs/methods.md §1): k in N/mm^n, m_eff in t, v0 in mm/s, c in N s/mm; e, xi,
 * zeta, n dimensionless. Exception: the stiffness entries of OptimalDampingParameters are in the
 * catalogue's N/m^n, because the unit of k depends on n (see there).
 *
 * This layer is free of deal.II.
 */
#include "impact/sdof_impact.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace granular::impact
{
  /**
   * The impact of F = c d' + k d^n with release at F = 0 (docs/contact-law-catalogue.md B5 with a
   * given c, S004 eq.(50)/(53)): simulate_impact() of a local ContactLaw (optimal_damping.cc) with
   * force_free_separation() true (hertz_linear_damping_optimal computes its own c).
   * @param n elastic exponent in [1, 2]; @param k N/mm^n, > 0; @param c N s/mm, >= 0;
   * @param m_eff t, > 0; @param v0 delta_dot_minus (mm/s), > 0.
   * ImpactResult::restitution is e_out (S004 eq.(22)). c = 0 gives the undamped impact that
   * ends at d = 0 with e_out = 1.
   * @throws std::invalid_argument for arguments outside these ranges; what simulate_impact()
   *         throws.
   */
  ImpactResult
  simulate_linear_damping_impact(double n, double k, double c, double m_eff, double v0,
                                 const ImpactOptions &options = {});

  /// (k v0^(n-1) m_eff^n)^(1/(n+1)) (N s/mm): the damping scale of the dimensional analysis
  /// above (c / damping_scale() = zeta). Arguments as simulate_linear_damping_impact().
  double
  damping_scale(double n, double k, double v0, double m_eff);

  /// Result of exact_optimal_damping().
  struct ExactOptimalDamping
  {
    double c = 0.;              ///< the damping coefficient (N s/mm)
    double restitution = 1.;    ///< e_out of the impact with this c (simulated)
    double relative_error = 0.; ///< |e_out - e| / e
    bool   converged = true;    ///< relative_error <= eps was reached
    unsigned int impacts = 0;   ///< simulated impacts (function evaluations)
  };

  /**
   * The exact optimal damping of S004 eq.(23) (docs/contact-law-catalogue.md B5 "exact
   * alternative"): the c with
   * |e_out(c) - e| / e <= @p eps (S004 eq.(24), eps = 1e-8), e_out from
   * simulate_linear_damping_impact(). e_out decreases monotonically in c: Boost.Math
   * bracket_and_solve_root (expansion by factors of 1.1 from the eq.(49) value, then TOMS 748)
   * on e_out(c) - e, stopped by S004's criterion: the first simulated c that meets it is
   * returned (with its e_out); if the bracket shrinks to rounding first (eps below the
   * integration error), the best simulated c is returned with converged = false.
   * e = 1 gives c = 0 (one simulated impact, e_out = 1).
   *
   * Integrator accuracy: the relative integration error of e_out is 0.3 to 1.6 times the
   * relative tolerance of @p options (measured against 1e-13 for n = 1, 1.5, 2 and
   * e = 1e-3 ... 0.95): up to 1.6e-8 at 1e-8 (not enough for eps = 1e-8), 1.4e-9 at 1e-9,
   * 1.3e-10 at the default 1e-10. eps = 1e-8 therefore needs a relative tolerance <= 1e-9;
   * the default 1e-10 leaves a factor ~75. Cost: ~5 impacts of ~0.1 ms per root.
   *
   * Arguments as simulate_linear_damping_impact(); 0 < @p e <= 1; @p eps > 0.
   * @throws std::invalid_argument for arguments outside these ranges; std::runtime_error if
   *         no bracket is found (100 expansions) or from simulate_impact().
   */
  ExactOptimalDamping
  exact_optimal_damping(double n, double k, double v0, double m_eff, double e,
                        double eps = 1e-8, const ImpactOptions &options = {});

  /// Least-squares fit of zeta = alpha (e^beta - 1) (S004 eq.(46)).
  struct DampingFit
  {
    double alpha = 0.;
    double beta = 0.;
    double rms_residual = 0.; ///< sqrt(mean (zeta_i - alpha (e_i^beta - 1))^2)
  };

  /**
   * Unweighted least-squares fit of @p zeta (normalized optimal damping, c/damping_scale())
   * against @p e by zeta = alpha (e^beta - 1) (S004 eq.(46), docs/contact-law-catalogue.md §8 S6
   * (d)): alpha is linear (alpha(beta) = sum z g / sum g^2, g = e^beta - 1), beta minimises the
   * residual (Boost.Math brent_find_minima on beta in [-5, -1e-4]; S004 eq.(47) gives beta in
   * [-0.44, -0.19]).
   * @throws std::invalid_argument if the sizes differ, fewer than 2 points have e < 1, or an
   *         e is outside (0, 1].
   */
  DampingFit
  fit_optimal_damping(const std::vector<double> &e, const std::vector<double> &zeta);

  /// One random system of docs/contact-law-catalogue.md §8 S6 (e) (S004 §5.1) and its impact with
  /// eq.(49)'s c.
  struct RandomSystem
  {
    double n = 1.5;        ///< elastic exponent
    double m_eff = 0.;     ///< t
    double k = 0.;         ///< N/mm^n
    double v0 = 0.;        ///< delta_dot_minus (mm/s)
    double e = 0.;         ///< desired restitution
    double c = 0.;         ///< S004 eq.(49) (N s/mm), optimal_damping_coefficient()
    double e_out = 0.;     ///< simulated restitution with c
  };

  /// S7 point: the eq.(57) damping of a Kelvin–Voigt contact against B4's exact e(xi).
  struct KelvinVoigtCheck
  {
    double e = 0.;           ///< desired restitution
    double c = 0.;           ///< S004 eq.(57) (N s/mm), optimal_damping_coefficient_linear()
    double xi = 0.;          ///< c / (2 sqrt(k m_eff))
    double e_exact = 0.;     ///< B4 e(xi), force_free_separation_restitution() (corrected)
    double e_simulated = 0.; ///< simulate_linear_damping_impact() with n = 1
  };

  /**
   * docs/contact-law-catalogue.md §8 S7 at one e: c from S004 eq.(57), xi, B4's exact e(xi) (S004
   * eqs.(55)–(56), xi > 1 exponent corrected) and the simulated e of F = c d' + k d released at
   * F = 0.
   * @p k N/mm, @p m_eff t, @p v0 mm/s (all > 0), 0 < @p e <= 1.
   */
  KelvinVoigtCheck
  kelvin_voigt_check(double e, double k, double m_eff, double v0,
                     const ImpactOptions &options = {});

  /**
   * Parameters of the optimal-damping scenario (docs/contact-law-catalogue.md §8 S6 (a)–(e) and S7;
   * S004 §§4.2, 5.1, 5.2). Defaults: the catalogue's inputs converted to mm–s–N–t, including its
   * sweep sizes (about 33 s in total, measured on 2 busy cores: (a)–(c) 4 s each, (d) 22 s, the
   * rest < 0.1 s); use_reduced_sizes() gives a 0.5 s run for quick checks.
   *
   * Stiffnesses are in N/m^n (SI, the catalogue's unit): the unit of k depends on n, so one
   * range in N/mm^n would be a different physical range for every n. Each value is converted
   * to N/mm^n as k 1e-3^n before use.
   */
  struct OptimalDampingParameters
  {
    // ---- which parts run
    bool mass_sweep = true;         ///< S6 (a): c against m_eff
    bool velocity_sweep = true;     ///< S6 (b): c against delta_dot_minus
    bool stiffness_sweep = true;    ///< S6 (c): c against k
    bool restitution_fit = true;    ///< S6 (d): c against e, fit of alpha(n), beta(n)
    bool random_check = true;       ///< S6 (e): eq.(49) on random systems
    bool kelvin_voigt_check = true; ///< S7: eq.(57) against B4's exact e(xi)

    // ---- common
    double exponent_min = 1.;   ///< smallest n of (a)–(d) (catalogue 1)
    double exponent_max = 2.;   ///< largest n of (a)–(d) (catalogue 2)
    double tolerance = 1e-8;    ///< eps of S004 eq.(24): |e_out - e|/e of the exact c
    /// Relative tolerance of simulate_impact() (ImpactOptions); e_out's integration error
    /// is up to 1.6 times it, so tolerance = 1e-8 needs <= 1e-9; 1e-10 leaves a factor 75.
    double relative_tolerance = 1e-10;

    // ---- (a)–(c)
    unsigned int sweep_values = 200;   ///< values of m, v0, k per sweep (catalogue 200)
    unsigned int sweep_exponents = 50; ///< n values, equally spaced, ends included (catalogue)
    double sweep_restitution = 0.7;   ///< desired e of (a)–(c) (catalogue 0.7)
    double reference_mass = 1e-3;     ///< m_eff (t) when not swept (catalogue 1 kg)
    double reference_velocity = 1e3;  ///< delta_dot_minus (mm/s) when not swept (1 m/s)
    double reference_stiffness = 1.;  ///< k (N/m^n, SI) when not swept (catalogue 1 N/m^n)
    double mass_min = 1e-8;           ///< (a) m_eff range (t), linear spacing (1e-5 kg)
    double mass_max = 5e-2;           ///< (a) (50 kg)
    double velocity_min = 10.;        ///< (b) delta_dot_minus range (mm/s), linear (0.01 m/s)
    double velocity_max = 5e4;        ///< (b) (50 m/s)
    double stiffness_min = 1e5;       ///< (c) k range (N/m^n, SI), linear spacing
    double stiffness_max = 1e10;      ///< (c)

    // ---- (d)
    unsigned int fit_restitutions = 600; ///< e values, equally spaced in [min, 1] (catalogue)
    unsigned int fit_exponents = 100;    ///< n values, ends included (catalogue 100)
    double fit_restitution_min = 0.45;  ///< smallest e of the fit (catalogue 0.45)

    // ---- (e)
    unsigned int random_systems = 300; ///< number of random systems (catalogue 300)
    unsigned int random_bins = 10;     ///< equal-width bins of e for the max |e_out - e|
    unsigned int seed = 2020;          ///< seed of Boost.Random's mt19937
    double random_mass_min = 1e-8;     ///< m_eff (t), log-uniform (catalogue 1e-5 kg)
    double random_mass_max = 0.1;      ///< (catalogue 1e2 kg)
    double random_stiffness_min = 1e5; ///< k (N/m^n, SI), log-uniform
    double random_stiffness_max = 1e10;
    double random_velocity_min = 1.;   ///< delta_dot_minus (mm/s), log-uniform (1e-3 m/s)
    double random_velocity_max = 1e5;  ///< (1e2 m/s)
    double random_restitution_min = 1e-4; ///< desired e, uniform in [min, 1]

    // ---- S7
    unsigned int kelvin_voigt_points = 200; ///< e values, log-spaced in [min, 1]
    double kelvin_voigt_restitution_min = 1e-4; ///< smallest e (catalogue 1e-4)
    double kelvin_voigt_mass = 1e-3;      ///< m_eff (t) (catalogue 1 kg)
    double kelvin_voigt_velocity = 1e3;   ///< delta_dot_minus (mm/s) (catalogue 1 m/s)
    double kelvin_voigt_stiffness = 1e-3; ///< k (N/mm) (catalogue 1 N/m)

    /// Smaller sweeps for quick checks: 20 x 6 for (a)–(c) (n = 1, 1.2, ..., 2), 56 x 11 for
    /// (d) (e = 0.45, 0.46, ..., 1; n = 1, 1.1, ..., 2); (e) and S7 unchanged.
    void
    use_reduced_sizes();

    /// @throws std::invalid_argument naming the member: a range with min >= max or
    ///         non-positive ends, n outside [1, 2], e outside (0, 1], a count too small.
    void
    validate() const;
  };

  /**
   * docs/contact-law-catalogue.md §8 S6 (e) (S004 §5.1): p.random_systems systems drawn with
   * Boost.Random's mt19937 seeded with p.seed, in this order per system: m_eff, k, v0 log-uniform
   * in their ranges (k in N/m^n, converted to N/mm^n), n uniform in [p.exponent_min,
   * p.exponent_max], e uniform in [p.random_restitution_min, 1]; c from S004 eq.(49) and e_out
   * simulated with the relative tolerance p.relative_tolerance. The sampling distribution is not
   * stated by the source; log-uniform is the catalogue's reading for the wide ranges.
   * @throws std::invalid_argument from p.validate(); what simulate_impact() throws.
   */
  std::vector<RandomSystem>
  random_check(const OptimalDampingParameters &p);

  /**
   * Runs the parts of docs/contact-law-catalogue.md §8 S6/S7 selected in @p p, writing into @p
   * output_directory (created; every file atomically) and progress lines (with timings) to @p log:
   *  - optimal_damping_a.csv, _b.csv, _c.csv (sweeps (a)–(c)) and optimal_damping_d.csv:
   *    n, m_eff (t), v0 (mm/s), k (N/mm^n), e, c (N s/mm, exact), e_out, relative_error,
   *    impacts, zeta (= c/damping_scale()), c_eq49 (N s/mm);
   *  - optimal_damping_slopes.csv: n, slope_mass, exponent_mass, slope_velocity,
   *    exponent_velocity, slope_stiffness, exponent_stiffness (least-squares slopes of ln c
   *    against ln m_eff, ln v0, ln k; the exponents of eq.(49); nan for a sweep not run);
   *  - optimal_damping_fit.csv: n, alpha_fit, beta_fit, alpha_S004, beta_S004 (eq.(47)),
   *    rms_residual, rms_residual_S004 (of zeta = c/damping_scale() over the e values),
   *    max_relative_error_fit, max_relative_error_S004 (max |zeta_formula/zeta - 1| over
   *    e < 1): alpha and beta are strongly correlated on [0.45, 1], so compare the curves;
   *  - optimal_damping_e.csv: index, n, m_eff, v0, k, e, c (eq.(49)), e_out, abs_error,
   *    relative_error; optimal_damping_e_bins.csv: e_low, e_high, systems, max_abs_error,
   *    max_relative_error;
   *  - kelvin_voigt_check.csv: e, c (N s/mm), xi, e_exact_B4, e_simulated, error_B4
   *    (e_exact_B4 - e), error_simulated (e_simulated - e_exact_B4).
   * @throws std::invalid_argument from p.validate(); std::runtime_error if a file cannot be
   *         written or an impact fails.
   */
  void
  run_optimal_damping(const OptimalDampingParameters &p, const std::string &output_directory,
                      std::ostream &log);
} // namespace granular::impact
