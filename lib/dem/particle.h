#pragma once
/**
 * @file particle.h
 * The rigid superellipse DEM particle: its state, its contact with the rigid flat surface
 * y = 0, and the explicit time integration with automatic sub-cycling (docs/methods.md §2, §4, §5).
 *
 * Units (docs/methods.md §1): lengths mm, time s, mass t (per mm thickness), forces N per mm
 * thickness, moments N mm per mm, energies N mm per mm, angles rad (counter-clockwise positive),
 * gravity mm/s^2 acting in -e2. All vectors are in the GLOBAL frame {e1, e2}.
 *
 * Ownership (style.md "one owner per state"): the Particle owns the particle state
 * (c, v, theta, omega) and the particle-surface contact history (d_T, normal-law history) and
 * the particle's energy and dissipation accumulators.
 */
#include "contact/contact_parameters.h"
#include "contact/normal_contact_law.h"
#include "contact/particle_surface_contact.h"
#include "geometry/superellipse.h"

#include <deal.II/base/tensor.h>

#include <memory>
#include <vector>

namespace granular::dem
{
  using dealii::Tensor;

  /// Kinematic state of the rigid particle (docs/methods.md §5).
  struct ParticleState
  {
    Tensor<1, 2> centre;                 ///< c (mm), c_1 wrapped into [0, L0)
    Tensor<1, 2> velocity;               ///< v (mm/s)
    double       rotation         = 0.;  ///< theta (rad, ccw from e1 to d1)
    double       angular_velocity = 0.;  ///< omega (rad/s, ccw)

    /// Boost.Serialization (checkpoint/restart).
    template <class Archive>
    void serialize(Archive &ar, const unsigned int)
    {
      ar &centre &velocity &rotation &angular_velocity;
    }
  };

  /// Numerical settings of the explicit particle update (docs/methods.md §5.3).
  struct ParticleIntegrationSettings
  {
    /// Sub-step h <= stability_fraction * h_crit (see Particle::critical_time_step()).
    /// Values >= 1 are accepted (for testing the instability detection) but unsafe.
    double stability_fraction = 0.2;
    /// Maximum number of sub-steps in one advance() call (guard against runaway stiffness).
    unsigned int max_substeps = 10000000;
    /// Check the particle's energy balance at the end of every advance() call.
    bool check_energy = true;
    /// Relative tolerance of the energy-growth check (see Particle::advance()).
    double energy_tolerance = 0.1;
  };

  /**
   * Rigid superellipse particle on the rigid flat surface y = 0 (docs/methods.md §5), periodic in x
   * with period L0 (docs/methods.md §2).
   *
   * Forces: gravity -m g e2; the particle-surface contact force f_T e1 + f_N e2 at x_c
   * (contact::particle_surface_contact(), docs/methods.md §5.1-5.2); the external (rubber) force
   * and moment about c, held constant over each advance() call (docs/methods.md §5.3).
   *
   * Mass and moment of inertia are those of the reference circle (docs/methods.md §4:
   * m = rho_P pi r0^2, I = m r0^2 / 2), supplied by the caller.
   *
   * The class is copyable (the contact law is shared and immutable); checkpoint()/restore()
   * save and restore all mutable data (for step cut-backs and restart).
   */
  class Particle
  {
  public:
    /// All mutable data of the particle (state, contact history, accumulators).
    struct Checkpoint
    {
      ParticleState state;            ///< c (wrapped), v, theta, omega
      Tensor<1, 2>  unwrapped_centre; ///< c without periodic wrapping (mm)
      /// last surface-contact evaluation; its .history is the contact history (d_T, law)
      contact::ParticleSurfaceContactResult contact;
      double friction_dissipation = 0.; ///< N mm per mm
      double damping_dissipation  = 0.; ///< N mm per mm
      double external_work        = 0.; ///< work of the external force and moment (N mm/mm)
      /// trapezoidal work of the surface contact's force and moment on the particle
      /// (N mm/mm), see surface_work()
      double surface_work = 0.;
      double gross_external_work  = 0.; ///< sum of |increments| of external_work
      double energy_scale         = 0.; ///< max of kinetic + contact energy so far
      double max_height_change    = 0.; ///< max |c_2 - c_2,0| so far (mm)
      unsigned int       last_substeps  = 0;
      unsigned long long total_substeps = 0;
      double             time           = 0.; ///< s

      /// Boost.Serialization (checkpoint/restart of a run).
      template <class Archive>
      void serialize(Archive &ar, const unsigned int)
      {
        ar &state &unwrapped_centre &contact &friction_dissipation &damping_dissipation
          &external_work &gross_external_work &energy_scale &max_height_change
            &last_substeps &total_substeps &time &surface_work;
      }
    };

    /**
     * @param shape superellipse shape (docs/methods.md §4; validated).
     * @param mass m > 0 (t per mm thickness); @param moment_of_inertia I > 0 (t mm^2 per mm).
     * @param gravity g >= 0 (mm/s^2), acting in -e2.
     * @param contact particle-surface contact parameters (docs/methods.md §5.1-5.2, Table 3); the
     *        normal law is created by name with contact::create_normal_contact_law().
     * @param initial initial state (centre_1 is wrapped into [0, L0)).
     * @param cell_length L0 > 0 (mm), period of the particle distribution.
     * @param settings numerical settings of the explicit update.
     * @throws std::invalid_argument on invalid shape, non-positive m, I or L0, negative g, k_T
     *         or k_PS, an unknown normal law, a non-finite state or invalid settings.
     */
    Particle(const geometry::SuperellipseShape               &shape,
             double                                           mass,
             double                                           moment_of_inertia,
             double                                           gravity,
             const ParticleSurfaceContactParameters           &contact,
             const ParticleState                              &initial,
             double                                           cell_length,
             const ParticleIntegrationSettings                &settings = {});

    /// As above, with an explicitly given normal contact law (contact.normal_law is ignored).
    Particle(const geometry::SuperellipseShape               &shape,
             double                                           mass,
             double                                           moment_of_inertia,
             double                                           gravity,
             const ParticleSurfaceContactParameters           &contact,
             std::shared_ptr<const contact::NormalContactLaw> law,
             const ParticleState                              &initial,
             double                                           cell_length,
             const ParticleIntegrationSettings                &settings = {});

    /**
     * State of a particle at rest, rotated by @p theta0 (rad), with its lowest point exactly on
     * the surface y = 0 (d_N = 0) and centre abscissa @p x_centre (mm) (docs/methods.md §2: the
     * particle initially rests on the surface at x = L0/2). Uses Superellipse::lowest_point()
     * (docs/methods.md §4.2, Temizer 2013 eq. (8)); with @p flat_side_radius > 0 (mm) the
     * lowest point of the surface with its flat sides rounded to that radius
     * (Superellipse::flat_side_rounding(), the surface the discrete-gradient contact sees).
     * @throws std::invalid_argument on an invalid shape or non-finite arguments.
     */
    static ParticleState
    initial_state_resting(const geometry::SuperellipseShape &shape, double theta0,
                          double x_centre, double flat_side_radius = 0.);

    /**
     * Advance the particle from t to t + @p dt (docs/methods.md §5.3 step 1) with the external
     * (rubber) force @p external_force (N/mm) and moment @p external_moment about c (N mm per mm)
     * held constant over dt.
     *
     * Scheme: velocity Verlet (kick-drift-kick) per sub-step h:
     *   v_{1/2} = v_n + h/2 F_n / m,            omega_{1/2} = omega_n + h/2 M_n / I,
     *   c_{n+1} = c_n + h v_{1/2},              theta_{n+1} = theta_n + h omega_{1/2},
     *   contact evaluated at (c_{n+1}, theta_{n+1}) with the drift velocity (v_{1/2},
     *   omega_{1/2}) for the indentation rate and the tangential increment (v_c)_1 h,
     *   v_{n+1} = v_{1/2} + h/2 F_{n+1} / m,    omega_{n+1} = omega_{1/2} + h/2 M_{n+1} / I,
     * with F = -m g e2 + external_force + f_contact and M = external_moment + M_contact. The
     * constant forces are integrated exactly; the elastic contact forces to second order; the
     * velocity-dependent parts (damping, friction) explicitly with the drift velocity (first
     * order). Then c_1 is wrapped into [0, L0).
     *
     * Dissipation bookkeeping: the friction dissipation is that of the return mapping (slip
     * increment times |f_T|); the damping dissipation of the force f_d = f_N - f_N,el of t_n is
     * its leapfrog work f_d h (d_N'(v_{n-1/2}) + d_N'(v_{n+1/2})) / 2 (half added when the force
     * is evaluated, half after the next drift), which makes the energy balance close to
     * second order.
     *
     * Sub-cycling: before every sub-step h_crit is computed (critical_time_step()), and the
     * remaining interval is split into ceil(remaining / (stability_fraction h_crit)) equal
     * parts, of which one is taken. The number of sub-steps is returned (1: no sub-cycling).
     *
     * Energy check (if settings.check_energy): with E = kinetic + gravitational + contact
     * spring energy, D the accumulated dissipation (friction + damping) and W the work of
     * the external force and moment, the balance error r = (E - E_0) + D - W must satisfy
     * r <= energy_tolerance * S + 1e-12 m g r_b, where S = max over the history of the
     * kinetic + contact energy, plus m g max |c_2 - c_2,0|, plus D, plus the gross external
     * work sum |dW| (r_b: bounding radius). Growth beyond it means the explicit update has gone
     * unstable.
     *
     * @return number of sub-steps used.
     * @throws std::invalid_argument if dt < 0 or an input is not finite.
     * @throws std::runtime_error on spurious energy growth, a non-finite state, or more than
     *         settings.max_substeps sub-steps; the particle is then left in the failed state
     *         (use checkpoint()/restore() to retry).
     */
    unsigned int
    advance(double dt, const Tensor<1, 2> &external_force, double external_moment);

    /**
     * Critical (stability) time step h_crit (s) of the explicit update in the current state
     * under the given external load, over a window of length @p horizon (s) (docs/methods.md §5.3):
     *   h_crit = 2 / (sqrt(omega_c^2 + beta^2) + beta),
     * the exact stability limit of the scheme for a damped oscillator x'' + 2 beta x' +
     * omega_c^2 x = 0 (-> 2/omega_c without damping). omega_c^2 is the largest eigenvalue of
     * K^(1/2) W K^(1/2) with K = diag(k_T, k_c) (tangential penalty, normal law stiffness dF/dd)
     * and W the inverse mass matrix of the contact point (translation and rotation:
     * W = I_2 / m + (e3 x a)(e3 x a)^T / I, a = x_c - c), or k_c W_slip if larger, where
     * W_slip = W_NN + k_PS |W_TN| accounts for the coupling of the normal force into the normal
     * rate through the sliding friction force; beta = c_c W_slip / 2 with the law's damping
     * coefficient c_c = dF/dd' (with the default c_N = 3e-5 s the contact is strongly
     * overdamped, beta >> omega_c, and beta sets the sub-step: h_crit ~ 1/beta).
     * k_c and c_c are evaluated on the compression branch
     * at a reference indentation d_ref = max(d_N, d_impact, d_static): d_impact from
     * stored_energy(d) = 1/2 v_c2^2 / W_NN + F_load <gap>, d_static from elastic_force(d) =
     * 2 F_load, F_load = m g + |external_force|. If the surface cannot be reached within the
     * horizon (gap larger than the distance the particle can travel), +infinity.
     */
    double
    critical_time_step(double horizon, const Tensor<1, 2> &external_force,
                       double external_moment) const;

    /**
     * Accept a step t -> t + @p dt computed by an implicit update outside this class (the
     * monolithic DEM-FEM coupling, coupling::MonolithicParticle): the centre and rotation
     * move by @p centre_increment (mm) and @p rotation_increment (rad), the velocities become
     * @p velocity (mm/s) and @p angular_velocity (rad/s), @p contact is the particle-surface
     * contact evaluated at the new state (its history becomes the contact history, its
     * friction and damping dissipation increments are accumulated), and @p external_work
     * (N mm/mm) is the work of the rubber force and moment over the step. c_1 is wrapped.
     * Counts as one sub-step; no energy check (the caller's coupled balance applies).
     * @throws std::invalid_argument if dt < 0 or an argument is not finite.
     */
    void
    accept_step(double dt, const Tensor<1, 2> &centre_increment, double rotation_increment,
                const Tensor<1, 2> &velocity, double angular_velocity,
                const contact::ParticleSurfaceContactResult &contact, double external_work);

    /**
     * An impulse @p impulse (N s/mm, global frame) at the arm @p arm (mm, from the centre to
     * where it acts) changes the velocities by impulse / m and (arm x impulse) / I; the change
     * of the kinetic energy is the impulse's work, counted as external work like the rubber's
     * (the velocity update of docs/methods.md §6.1). Returns that change (N mm/mm).
     * @throws std::invalid_argument if an argument is not finite.
     */
    double
    apply_impulse(const Tensor<1, 2> &impulse, const Tensor<1, 2> &arm);

    // ---- state and contact ----------------------------------------------------------------
    const ParticleState &
    state() const;
    /// Centre without the periodic wrapping (mm): the total travel is unwrapped - initial.
    Tensor<1, 2>
    unwrapped_centre() const;
    /// Simulated time (s): sum of all dt.
    double
    time() const;
    /// Last particle-surface contact evaluation (force, point, indentation, history, ...).
    const contact::ParticleSurfaceContactResult &
    surface_contact() const;

    // ---- energies (N mm per mm) -------------------------------------------------------------
    double
    friction_dissipation() const; ///< accumulated particle-surface friction dissipation
    double
    damping_dissipation() const; ///< accumulated particle-surface damping dissipation (leapfrog
                                 ///< work of the damping force, see advance())
    double
    kinetic_energy() const; ///< 1/2 m |v|^2 + 1/2 I omega^2
    double
    gravitational_energy() const; ///< m g c_2 (datum y = 0)
    double
    contact_energy() const; ///< energy in the contact springs: normal law + 1/2 k_T d_T^2
    double
    external_work() const; ///< accumulated work of the external force and moment
    /**
     * Work of the particle-surface contact's force and moment about the centre on the
     * particle since t = 0 (N mm/mm), by the trapezoidal rule over each step of the
     * particle's own integrator: per sub-step of advance() (f_n + f_{n+1})/2 . Delta c +
     * (M_n + M_{n+1})/2 Delta theta with Delta c = h v_{1/2}, Delta theta = h omega_{1/2};
     * per accept_step() the same with its increments. The contact's part of the energy
     * ledger (docs/methods.md §2.2): work + Delta(contact energy) + friction and damping
     * dissipation is the energy the contact created.
     */
    double
    surface_work() const;
    /// r = (E - E_0) + D - W (see advance()); ~0 up to time-discretisation error.
    double
    energy_balance_error() const;

    // ---- sub-cycling statistics -------------------------------------------------------------
    unsigned int
    last_substeps() const; ///< sub-steps of the last advance() call
    unsigned long long
    total_substeps() const; ///< sub-steps since construction

    // ---- geometry ---------------------------------------------------------------------------
    const geometry::Superellipse &
    geometry() const;
    double
    mass() const;
    double
    moment_of_inertia() const;
    double
    cell_length() const;
    /// g (mm/s^2), acting in -e2.
    double
    gravity() const;
    /// The particle-surface normal contact law (docs/methods.md §5.1).
    const contact::NormalContactLaw &
    normal_law() const;
    /// k_T, k_PS and the normal-law parameters of the particle-surface contact.
    const ParticleSurfaceContactParameters &
    surface_contact_parameters() const;
    /// Highest point of the particle (global, mm): c - R(theta) y_c (central symmetry).
    Tensor<1, 2>
    highest_point() const;
    /// Height of the highest point (mm), for placing the rubber block (docs/methods.md §2).
    double
    top() const;
    /**
     * Outline polygons in global coordinates (mm) for output (docs/methods.md §8.2): the periodic
     * copies c + k L0 e1 of the particle (@p n_vertices points each, counter-clockwise,
     * Superellipse::outline()) that overlap the window [x_lo, x_hi] in x (default: the cell
     * [0, L0]); first the copy whose centre lies in [x_lo, x_lo + L0), then the others.
     * The run draws the window under the dragged rubber, so that particle.pvd and
     * solution.pvd share one frame in ParaView.
     */
    std::vector<std::vector<Tensor<1, 2>>>
    outline(unsigned int n_vertices, double x_lo = 0., double x_hi = -1.) const;

    // ---- checkpointing ----------------------------------------------------------------------
    Checkpoint
    checkpoint() const;
    void
    restore(const Checkpoint &c);

  private:
    void
    wrap();
    void
    evaluate_contact(const Tensor<1, 2> &velocity, double angular_velocity, double dt);

    geometry::Superellipse                           geometry_;
    double                                           m;
    double                                           I;
    double                                           g;
    ParticleSurfaceContactParameters                 parameters;
    std::shared_ptr<const contact::NormalContactLaw> law;
    double                                           L0;
    ParticleIntegrationSettings                      settings;
    double                                           bounding_radius;
    // reference energies at construction
    double kinetic_0, contact_0, height_0;

    Checkpoint data;
  };
} // namespace granular::dem
