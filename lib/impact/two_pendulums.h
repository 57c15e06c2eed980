#pragma once
/**
 * @file two_pendulums.h
 * Two-pendulum impact of S004 §6 (Figs. 10–12; docs/contact-law-catalogue.md
 * §8 S8): two uniform slender rods hinged at fixed pivots swing under gravity and strike each
 * other; the impact is modelled (i) piecewise, by Newton's restitution on the normal relative
 * velocity (impulse–momentum), or (ii)/(iii) continuously, by a contact force law of the
 * library (docs/contact-law-catalogue.md B5 `hertz_linear_damping_optimal`, D8 `flores`, or any
 * other law that needs at most K and m_eff).
 *
 * Our reading of the geometry (S004 shows it only in its Fig. 10; the catalogue notes that
 * the meaning of the offset a is not in the text). With the pivots on one horizontal line
 * and angles from the downward vertical, it is the placement in which the published initial
 * angles start free of overlap and lead to a collision:
 *  - the plane is vertical, x horizontal, y up; gravity g acts along -y;
 *  - pivot 1 (of rod 1: mass m1, length L1) is at O1 = (0, 0); pivot 2 (rod 2: m2, L2) is at
 *    O2 = (-a, 0), i.e. a is the horizontal spacing of the two pivots;
 *  - theta_i is the angle of rod i from the downward vertical, counter-clockwise positive:
 *    the point at distance r from pivot i along rod i is O_i + r (sin theta_i, -cos theta_i);
 *  - initially theta1 = pi/12 (rod 1 hangs tilted 15 degrees away from rod 2, i.e. to the
 *    right) and theta2 = -pi/2 (rod 2 horizontal, pointing away from rod 1, its tip at
 *    (-a - L2, 0)); both at rest. Rod 2 falls (counter-clockwise) and rod 1 swings back,
 *    and the tip of rod 2 strikes the side of rod 1 from the left; with the defaults first
 *    at t = 1.142 s, 3.575 m from pivot 1 along rod 1 (theta1 = -3.1 degrees, theta2 =
 *    26.8 degrees, approach speed 10.31 m/s, m_eff = 0.0811 kg), then twice more in 8 s;
 *  - with theta2 = -pi/2 and O2 on the other side of O1 (x = +a), rod 2 would lie across
 *    pivot 1 at t = 0; with the clockwise convention the picture is the mirror image of this
 *    one (same motion). The contact is therefore always the tip P2 = O2 + L2 (sin theta2,
 *    -cos theta2) of rod 2 against the side of rod 1: any point of rod 2 is within a + L2
 *    of O1, so for a + L2 <= L1 (the defaults: 2 + 4 = 6 m) the tip can only reach rod 1
 *    between its pivot and its end, and the end of rod 1 (at distance L1 from O1) cannot
 *    touch rod 2 (for a + L2 = L1 only at rod 2's tip in its horizontal start position);
 *  - the other reading the catalogue mentions, a = distance of the impact point from a
 *    pivot, leaves the pivot positions undetermined; it is not used. With the spacing
 *    reading the impact point is an outcome (s below).
 * The rods are rigid lines (no thickness); the contact is frictionless.
 *
 * Contact kinematics (q = (theta1, theta2), ' = d/dt):
 *  - normal of rod 1 towards rod 2: n = (-cos theta1, -sin theta1); tangent
 *    u1 = (sin theta1, -cos theta1);
 *  - gap g = n . (P2 - O1) (> 0 apart), indentation d = -g (docs/contact-law-catalogue.md §1: d > 0
 *  is contact);
 *  - contact point on rod 1 at the distance s = u1 . (P2 - O1) from pivot 1;
 *  - gap rate (normal relative velocity of the tip and the material point of rod 1 under it)
 *    g' = J q', J = (s, -L2 cos(theta1 - theta2)), so d' = -g' (> 0 approach);
 *  - a normal force F >= 0 on the tip (along +n, and -F n on rod 1 at distance s) gives the
 *    generalized forces Q = F J^T: moment F s on rod 1 and -F L2 cos(theta1 - theta2) on
 *    rod 2, equal and opposite in the contact point;
 *  - effective mass along the normal m_eff = 1/(J M^-1 J^T) = 1/(s^2/I1 + L2^2 cos^2(theta1
 *    - theta2)/I2) with M = diag(I1, I2).
 * Equations of motion (I_i = m_i L_i^2/3 about the pivot):
 *   I1 theta1'' = -m1 g (L1/2) sin theta1 + F s,
 *   I2 theta2'' = -m2 g (L2/2) sin theta2 - F L2 cos(theta1 - theta2).
 * Mechanical energy E = I1 theta1'^2/2 + I2 theta2'^2/2 - m1 g (L1/2) cos theta1
 * - m2 g (L2/2) cos theta2 satisfies E' = -F d': E + W = E(0), W = integral of F d' dt.
 *
 * Impact models:
 *  - "impulse" (piecewise, S004 §6 (i)): free motion to the contact event g = 0 (g' < 0),
 *    there the impulse–momentum jump M (q'+ - q'-) = J^T P with Newton's restitution
 *    J q'+ = -e J q'-, i.e. P = -(1 + e) m_eff J q'- (N s), kinetic energy loss
 *    m_eff (J q'-)^2 (1 - e^2)/2 (docs/contact-law-catalogue.md §3; S004 eqs.(11)–(12)); then free
 *    motion again.
 *  - a law identifier (continuous, S004 §6 (ii)/(iii)): F = law.force(d, d', h) while in
 *    contact; the law is made at each contact onset by contact::laws::make_law with
 *    ContactData{K, m_eff at the onset configuration} and the law values "Coefficient of
 *    restitution" = e and "Elastic exponent" = n (if the law has them; other entries take
 *    their defaults). The law's history is handled as simulate_impact() does
 *    (sdof_impact.h): onset history law.updated_history(0+, d'-, 0, {}) with d'- the
 *    approach velocity at the located onset; after every accepted step and at every event
 *    h = law.updated_history(d, d', dt, h) and the stepper is restarted; events (TOMS 748 on
 *    the dense output): the turning point d' = 0, separation d = 0, the first return of F to
 *    0 in restitution, which ends the contact for a law with force_free_separation() (B5,
 *    S004 eq.(20)): the tip is released and moves freely until it has left rod 1 (g > 0).
 *
 * Units (mm–s–N–t, docs/methods.md §1; the catalogue's SI inputs converted): lengths mm, masses t,
 * moments of inertia t mm^2, angles rad, angular velocities rad/s, g = 9810 mm/s^2, K in
 * N/mm^n (1e8 N/m^1.5 = 3162.28 N/mm^1.5), forces N, impulses N s, energies N mm.
 *
 * This layer is free of deal.II.
 */
#include "impact/sdof_impact.h"

#include <array>
#include <iosfwd>
#include <string>
#include <vector>

namespace granular::impact
{
  /// State of the two pendulums: theta1, theta2 (rad), theta1', theta2' (rad/s).
  using PendulumState = std::array<double, 4>;

  /**
   * Parameters of the two-pendulum impact (docs/contact-law-catalogue.md §8 S8, S004 §6). Defaults
   * are the catalogue's inputs in mm–s–N–t; the geometry is our reading of S004 Fig. 10 (file
   * comment).
   */
  struct TwoPendulumsParameters
  {
    double mass_1   = 1e-3;   ///< m1 (t): 1 kg
    double length_1 = 6000.;  ///< L1 (mm): 6 m
    double mass_2   = 2e-4;   ///< m2 (t): 0.2 kg
    double length_2 = 4000.;  ///< L2 (mm): 4 m
    /// a (mm): horizontal spacing of the pivots, pivot 2 on the side of rod 2 (2 m). Our
    /// reading of S004 Fig. 10; a + L2 <= L1 is required (the tip of rod 2 then always
    /// meets rod 1 between its pivot and its end).
    double pivot_spacing = 2000.;
    /// theta1(0) (rad), from the downward vertical, counter-clockwise positive: pi/12.
    double initial_angle_1 = 0.26179938779914941;
    /// theta2(0) (rad): -pi/2 (rod 2 horizontal, pointing away from rod 1).
    double initial_angle_2 = -1.5707963267948966;
    double initial_angular_velocity_1 = 0.; ///< theta1'(0) (rad/s)
    double initial_angular_velocity_2 = 0.; ///< theta2'(0) (rad/s)
    double gravity  = 9810.; ///< g (mm/s^2)
    double end_time = 8.;    ///< simulated time (s)
    /// e: Newton's coefficient of restitution of the impulse model and the "Coefficient of
    /// restitution" of the laws, in (0, 1]: 0.3.
    double restitution = 0.3;
    /// K (N/mm^n) of the laws: 1e8 N/m^1.5 = 1e8 * 1000^-1.5 N/mm^1.5.
    double stiffness = 3162.2776601683795;
    /// n, the laws' "Elastic exponent": 3/2.
    double exponent = 1.5;
    /// Impact models: "impulse" and/or law identifiers (docs/contact-law-catalogue.md §5). Default:
    /// the three of S004 §6.
    std::vector<std::string> models = {"impulse", "hertz_linear_damping_optimal", "flores"};
    /// Spacing (s) of the equally spaced rows of pendulums_<model>.csv (every integration
    /// step and event inside a contact is written too).
    double output_interval = 1e-3;
    /// Equally spaced samples of the first contact's curve (both ends included; the events
    /// are added); >= 2.
    unsigned int contact_samples = 401;
    /// Relative tolerance of the controlled Dormand–Prince stepper (on theta, theta', W, P).
    double relative_tolerance = 1e-10;
    /// Absolute tolerance of the stepper (rad, rad/s; W and P are scaled to O(1)).
    double absolute_tolerance = 1e-12;
    /// Guard: largest number of accepted integration steps of one model's run.
    unsigned int max_steps = 1000000;

    /// The moment of inertia of rod i about its pivot, m_i L_i^2/3 (t mm^2), i = 1, 2.
    double inertia(unsigned int i) const;

    /**
     * @throws std::invalid_argument naming the member: a non-positive or non-finite mass,
     *         length, gravity, end time, stiffness, output interval or tolerance; restitution
     *         outside (0, 1]; exponent not positive; pivot_spacing not in (0, L1 - L2];
     *         contact_samples < 2; max_steps 0; an initial configuration in which the tip of
     *         rod 2 is not apart from rod 1 (g <= 0); an unknown model, or a law that needs
     *         contact data other than K and m_eff or has an internal variable.
     */
    void validate() const;
  };

  /// Contact kinematics of a configuration (file comment; units mm, mm/s, t).
  struct PendulumContact
  {
    double gap      = 0.; ///< g (mm) = n . (P2 - O1), > 0 apart; d = -g
    double gap_rate = 0.; ///< g' = J q' (mm/s), < 0 approaching; d' = -g'
    double arm_1    = 0.; ///< J_1 = s (mm): distance from pivot 1 of the contact point
    double arm_2    = 0.; ///< J_2 = -L2 cos(theta1 - theta2) (mm)
    double effective_mass = 0.; ///< m_eff = 1/(J M^-1 J^T) (t)
  };

  /// The contact kinematics of state @p x (file comment).
  PendulumContact
  two_pendulums_contact(const TwoPendulumsParameters &p, const PendulumState &x);

  /// Mechanical energy T + V (N mm) of state @p x, V = 0 at the pivots' level.
  double
  two_pendulums_energy(const TwoPendulumsParameters &p, const PendulumState &x);

  /// One impact (contact) of a run. Units s, mm/s, t, N s, N, mm, N mm.
  struct PendulumImpact
  {
    double        time     = 0.; ///< onset g = 0 (s)
    double        end_time = 0.; ///< separation (s); = time for the impulse model
    PendulumState before{};      ///< state at the onset
    PendulumState after{};       ///< state at the separation (impulse model: after the jump)
    double approach_velocity   = 0.; ///< d'- = -g' at the onset (mm/s), > 0
    double separation_velocity = 0.; ///< g' at the separation (mm/s), > 0 separating
    double restitution         = 0.; ///< separation_velocity / approach_velocity
    double effective_mass      = 0.; ///< m_eff at the onset (t)
    double impulse             = 0.; ///< P = integral of F dt (N s)
    double max_force           = 0.; ///< F_max (N) (0 for the impulse model)
    double max_indentation     = 0.; ///< delta_max (mm)
    double residual_indentation = 0.; ///< d at the separation (mm), > 0 for a force-zero end
    /// E(before) - E(after) (N mm): mechanical energy (kinetic + gravity) lost in the
    /// contact, = the work integral of F d' dt over it.
    double       dissipated_energy = 0.;
    unsigned int steps             = 0; ///< accepted integration steps in the contact
    /// "impulse", "indentation zero", "force zero" or "unfinished" (contact at the end time)
    std::string separation;
  };

  /// A row of pendulums_<model>.csv.
  struct PendulumSample
  {
    double        t = 0.;  ///< s
    PendulumState x{};     ///< rad, rad/s
    double        force = 0.; ///< contact force F (N); 0 outside contacts and for "impulse"
  };

  /// Result of simulate_two_pendulums().
  struct TwoPendulumsResult
  {
    std::string                 model;
    std::vector<PendulumSample> samples; ///< time order; an impulse gives two rows at its t
    std::vector<PendulumImpact> impacts; ///< in time order
    /// The first contact's curve (t since onset, d, d', F); empty for "impulse".
    ImpactCurves  first_contact;
    PendulumState final_state{};     ///< at end_time
    double        initial_energy = 0.; ///< E(0) (N mm)
    double        final_energy   = 0.; ///< E(end_time) (N mm)
    /// W = energy removed by the contacts (N mm): integral of F d' dt (continuous models,
    /// integrated as an ODE state) or the sum of the impulse losses.
    double       contact_work = 0.;
    unsigned int steps        = 0; ///< accepted integration steps
    double       wall_seconds = 0.; ///< wall-clock time of the run (s)
  };

  /**
   * Integrates the two pendulums from the initial state of @p p to p.end_time with impact
   * model @p model ("impulse" or a law identifier), Boost.Odeint runge_kutta_dopri5 behind
   * make_dense_output (tolerances of @p p); events located on the dense output with
   * Boost.Math's TOMS 748 (and brent_find_minima for a grazing minimum of g within a step;
   * event_search.h).
   * The integrated state is (theta1, theta2, theta1', theta2', W/E_s, P/P_s) with E_s =
   * (m1 L1 + m2 L2) g/2 and P_s = E_s/(g L1)^(1/2) (N s).
   * @throws std::invalid_argument (p.validate(), or @p model not in the sense of
   *         p.validate()); std::runtime_error if the guards are reached, the state becomes
   *         non-finite, the tip meets the line of rod 1 outside the rod, or a contact does
   *         not end.
   */
  TwoPendulumsResult
  simulate_two_pendulums(const TwoPendulumsParameters &p, const std::string &model);

  /**
   * Runs docs/contact-law-catalogue.md §8 S8: simulate_two_pendulums() for every model of @p p and
   * writes into
   * @p output_directory (created), atomically file by file:
   *  - pendulums_<model>.csv: t,theta1,theta2,theta1_dot,theta2_dot,force
   *    (s, rad, rad, rad/s, rad/s, N);
   *  - first_contact_<model>.csv (law models): t,delta,delta_dot,force (s since onset, mm,
   *    mm/s, N), write_impact_curves();
   *  - impacts_<model>.csv: one row per impact, columns
   *    time,end_time,approach_velocity,separation_velocity,restitution,effective_mass,
   *    theta1_dot_before,theta2_dot_before,theta1_dot_after,theta2_dot_after,impulse,
   *    max_force,max_indentation,residual_indentation,dissipated_energy,steps,separation
   *    (s, s, mm/s, mm/s, –, t, rad/s x4, N s, N, mm, mm, N mm, –, –).
   * Progress and one summary line per model go to @p log (number of impacts, velocities
   * after the first impact, its effective restitution, energy balance, steps, time).
   * @throws as simulate_two_pendulums(); std::runtime_error naming a file that cannot be
   *         written.
   */
  void
  run_two_pendulums(const TwoPendulumsParameters &p, const std::string &output_directory,
                    std::ostream &log);
} // namespace granular::impact
