#pragma once
/**
 * @file newmark.h
 * The Newmark update of one unknown and its algorithmic dissipation, shared by the rubber
 * block (fem::RubberBlock, docs/methods.md §3.6) and the particle of the monolithic coupling
 * (coupling::MonolithicParticle). Header-only, no deal.II.
 *
 * Units: whatever the unknown's are (mm or rad; velocities per s, accelerations per s^2;
 * the mass in t or t mm^2, so energies in N mm per mm thickness).
 */
namespace granular::fem
{
  /**
   * Newmark (Hughes 2000, eq. 9.1.2): from the unknown @p q at t_{n+1}, its value
   * @p q_n, velocity @p v_n and acceleration @p a_n at t_n, the step @p h (s) and the
   * parameters @p beta > 0, @p gamma:
   *   a = (q - q_n - h v_n) / (beta h^2) - (1 / (2 beta) - 1) a_n,
   *   v = v_n + h ((1 - gamma) a_n + gamma a).
   * No checks (hot loop): the callers validate beta, gamma and h.
   */
  inline void
  newmark_kinematics(const double q, const double q_n, const double v_n, const double a_n,
                     const double h, const double beta, const double gamma, double &a,
                     double &v)
  {
    a = (q - q_n - h * v_n) / (beta * h * h) - (0.5 / beta - 1.) * a_n;
    v = v_n + h * ((1. - gamma) * a_n + gamma * a);
  }

  /**
   * Algorithmic dissipation of one Newmark step for an unknown of (lumped) mass @p mass:
   * the trapezoidal work of its inertial force minus the change of its kinetic energy,
   *   M [(a_n + a_{n+1}) / 2 (q_{n+1} - q_n) - (v_{n+1}^2 - v_n^2) / 2]
   * (Krenk 2006, "Energy conservation in Newmark based time integration algorithms",
   * CMAME 195). Identically zero for the trapezoidal rule (gamma = 1/2, beta = 1/4); for
   * gamma > 1/2 the energy the integrator removes from high frequencies.
   */
  inline double
  newmark_algorithmic_dissipation(const double mass, const double increment, const double v_n,
                                  const double v, const double a_n, const double a)
  {
    return mass * (0.5 * (a_n + a) * increment - 0.5 * (v * v - v_n * v_n));
  }
} // namespace granular::fem
