#pragma once
/**
 * @file linear_dashpot.h
 * Closed forms of the linear-dashpot laws of docs/contact-law-catalogue.md §5 B (kelvin_voigt,
 * anagnostopoulos, goyal, kelvin_voigt_force_free_separation, hertz_linear_damping_optimal):
 * damping ratios, restitution coefficients and Poursina–Nikravesh's optimal damping coefficient, as
 * free functions for the laws (linear_dashpot.cc) and for the contact-impact benchmark program.
 *
 * Notation (docs/contact-law-catalogue.md §1): single-degree-of-freedom impact m_eff d'' = -F with
 * F = K d + D d' (n = 1) or F = c d' + K d^n (B5); damping ratio xi = D/(2 sqrt(K m_eff));
 * e, c_r: Newton's coefficient of restitution -d'(separation)/d'(onset), 0 < e <= 1.
 * Units (mm–s–N–t): K in N/mm^n, m_eff in t, D and c in N s/mm, approach speed
 * delta_dot_minus in mm/s, indentation in mm; xi, e, c_r are dimensionless. Every relation
 * here is dimensionally homogeneous, so it holds unchanged in SI.
 *
 * All functions are pure and throw std::invalid_argument for arguments outside their domain.
 */

namespace granular::contact::laws
{
  /// D = 2 xi sqrt(K m_eff) (N s/mm): linear damping coefficient of damping ratio @p xi for
  /// stiffness @p K (N/mm) and effective mass @p m_eff (t). docs/contact-law-catalogue.md B1–B4;
  /// S002 eq.(5.40).
  double
  linear_damping_coefficient(double xi, double K, double m_eff);

  /**
   * Restitution of the Kelvin–Voigt law F = K d + D d' with separation at d = 0
   * (docs/contact-law-catalogue.md B1, S000 §3 [68], S002 eq.(5.8) [34]): the half period of the
   * damped oscillator,
   *   c_r(xi) = exp(-pi xi / sqrt(1 - xi^2))   for 0 <= xi < 1,
   *   c_r(xi) = 0                              for xi >= 1 (an overdamped oscillator that
   *                                             starts at d = 0 never returns to d = 0).
   * @p xi >= 0.
   */
  double
  kelvin_voigt_restitution(double xi);

  /**
   * Exact restitution of the Kelvin–Voigt law with separation at F = 0 (Butcher–Segalman;
   * S004 eqs.(55)–(56) [2]; docs/contact-law-catalogue.md B4), @p xi >= 0:
   *   xi < 1: e = exp(-(xi/w) theta), w = sqrt(1 - xi^2), theta = atan2(2 xi w, 2 xi^2 - 1)
   *           = 2 atan(w/xi) = acos(2 xi^2 - 1) in (0, pi] (S004's tan^-1 taken in the right
   *           quadrant), i.e. e = exp(-2 xi acos(xi)/w);
   *   xi = 1: e = exp(-2);
   *   xi > 1: e = ((xi - s)/(xi + s))^(xi/s), s = sqrt(xi^2 - 1), i.e.
   *           e = exp(-2 xi acosh(xi)/s).
   * The xi > 1 exponent is xi/s, not S004's printed 2 xi s/(2 xi^2 - 1)
   * (docs/contact-law-catalogue.md §7 register "Butcher–Segalman xi > 1": the printed one gives
   * 0.0738 at xi = 2, direct integration 0.0478, which xi/s reproduces; xi/s is also the analytic
   * continuation of the xi < 1 branch). e is continuous and strictly decreasing, e(0) = 1, e -> 0
   * as xi -> inf.
   */
  double
  force_free_separation_restitution(double xi);

  /**
   * Inverse of force_free_separation_restitution(): the damping ratio xi >= 0 with
   * e(xi) = @p e, 0 < e <= 1 (Boost.Math toms748 on ln e(xi) - ln e, bracket
   * [0, max(1, 1/sqrt(e))] since e(xi) < 1/xi^2 for xi >= 1). docs/contact-law-catalogue.md B4.
   */
  double
  force_free_separation_damping_ratio(double e);

  /**
   * Anagnostopoulos's damping ratio xi = -ln(c_r)/sqrt(pi^2 + ln(c_r)^2) (S002 eq.(5.40)
   * [172]; docs/contact-law-catalogue.md B2), the inverse of kelvin_voigt_restitution() on xi in
   * [0, 1); 0 <= @p c_r <= 1 (c_r = 0 gives xi = 1).
   */
  double
  anagnostopoulos_damping_ratio(double c_r);

  /**
   * Goyal's restitution as printed (S002 eq.(5.22) [162,163]; docs/contact-law-catalogue.md B3,
   * reconstruction of the factor "4" as 2 per docs/contact-law-catalogue.md §7 register "Goyal"):
   *   c_r = exp(-(2 xi/sqrt(1 - xi^2)) atan(sqrt(1 - xi^2)/xi)),  0 <= @p xi <= 1
   * (c_r(0) = 1, c_r(1) = exp(-2) as a limit). It equals the xi <= 1 branch of
   * force_free_separation_restitution().
   */
  double
  goyal_restitution(double xi);

  /**
   * Goyal's damping ratio for restitution @p c_r in (0, 1]: for c_r >= exp(-2) the root
   * xi in [0, 1] of goyal_restitution(xi) = c_r (Boost.Math toms748, S002 eq.(5.22) solved
   * numerically as the source does); for c_r < exp(-2), where Goyal's equation has no root,
   * the xi > 1 branch of B4 (force_free_separation_damping_ratio();
   * docs/contact-law-catalogue.md B3).
   */
  double
  goyal_damping_ratio(double c_r);

  /// alpha(n) = 0.3331 n^4 - 1.48 n^3 + 3.077 n^2 - 2.306 n + 1.794, 1 <= @p n <= 2
  /// (S004 eq.(47); docs/contact-law-catalogue.md B5).
  double
  optimal_damping_alpha(double n);

  /// beta(n) = 1.285 n^0.2553 - 1.725, 1 <= @p n <= 2 (S004 eq.(47);
  /// docs/contact-law-catalogue.md B5).
  double
  optimal_damping_beta(double n);

  /**
   * Poursina–Nikravesh optimal linear damping coefficient (N s/mm) of F = c d' + k d^n with
   * release at F = 0, for the desired restitution @p e (S004 eqs.(46),(47),(49);
   *   docs/contact-law-catalogue.md B5): c_opt = alpha(n) (e^beta(n) - 1) (k delta_dot_minus^(n-1)
   *   m_eff^n)^(1/(n+1)).
   * @p n in [1, 2]; @p k (N/mm^n) > 0; @p delta_dot_minus (mm/s) >= 0; @p m_eff (t) > 0;
   * 0 < @p e <= 1 (c_opt = 0 at e = 1, -> inf as e -> 0). The fit was built from
   * e in [0.45, 1] and tested by S004 for e in [1e-4, 1].
   */
  double
  optimal_damping_coefficient(double n, double k, double delta_dot_minus, double m_eff,
                              double e);

  /// S004 eq.(52), the n = 3/2 case with its printed constants:
  /// c_opt = 1.95 (e^-0.3 - 1) k^0.4 delta_dot_minus^0.2 m_eff^0.6 (N s/mm).
  double
  optimal_damping_coefficient_hertz(double k, double delta_dot_minus, double m_eff, double e);

  /// S004 eq.(57), the n = 1 (Kelvin–Voigt) case with its printed constants:
  /// c_opt = 1.4181 (e^-0.44 - 1) sqrt(k m_eff) (N s/mm); independent of delta_dot_minus.
  double
  optimal_damping_coefficient_linear(double k, double m_eff, double e);

  /**
   * Indentation at separation (mm) of the B5 law, S004 eq.(51):
   *   s_delta = (delta_dot_minus c e / k)^(1/n)
   * (F = 0 at d' = -e delta_dot_minus). @p n in [1, 2], @p k > 0, the others >= 0.
   */
  double
  separation_indentation(double n, double k, double delta_dot_minus, double c, double e);
} // namespace granular::contact::laws
