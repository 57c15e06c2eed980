#pragma once
/**
 * @file rubber_particle_contact.h
 * Frictional penalty contact of a rubber boundary point with the rigid superellipse
 * particle and its periodic images (docs/methods.md §6, "Rubber-particle"; closest-point projection
 * of docs/methods.md §4.1 / Temizer 2013 Table 2; penalty-regularised Coulomb law with return
 * mapping and its consistent linearisation for a curved rigid master surface as in Wriggers,
 * Computational Contact Mechanics, 2nd ed. (2006), chapters on contact kinematics, friction
 * laws and the linearisation of 2D frictional contact; Temizer 2013; Temizer & Wriggers 2008).
 *
 * Units: positions in mm, angles in rad, penalties in MPa/mm, tractions in MPa (force per
 * reference boundary length and unit thickness), forces in N/mm, moments in N mm/mm,
 * energies in N mm/mm.
 *
 * Frames: the GLOBAL frame {e1, e2}; the PARTICLE frame {d1, d2} of image k has its origin at
 * the image centre c_k = c + k L0 e1 and is rotated by theta: x = c_k + R(theta) y
 * (geometry::particle_to_global).
 *
 * Kinematics (the choices of this module):
 *  - Normal: y_p = closest-point projection of m = R^T (x - c_k) onto the particle surface,
 *    n its outward normal, g_N = (m - y_p) . n < 0 in penetration; t_N = eps_N <-g_N>.
 *  - Tangential: the stick point Y_s is a point FIXED IN THE PARTICLE FRAME (it moves with the
 *    particle, so rolling and rotation shear the penalty spring). The tangential gap is the
 *    component of the (global) vector from the stick point to the rubber point along the
 *    current tangent a_T = e3 x n at the projection:
 *        g_T = a_T . (m - Y_s)   (= a_T . (y_p - Y_s), since a_T . (m - y_p) = 0),
 *    i.e. in 2D the tangential part (I - n x n)(x - x_s) of x - x_s, x_s = c_k + R Y_s.
 *    Trial traction t_T^tr = -eps_T g_T along a_T.
 *  - Return mapping (Coulomb limit k_PB t_N; contact::coulomb_return_mapping() with the
 *    trial gap g_T): stick if |t_T^tr| <= k_PB t_N (and k_PB t_N > 0); otherwise
 *    t_T = k_PB t_N sign(t_T^tr) and the stick point is moved to the point of the TANGENT LINE
 *    at y_p that reproduces the returned traction exactly:  Y_s <- y_p + (t_T / eps_T) a_T
 *    (off the surface by O(kappa g_T^2), about 1e-6 mm at the defaults). Slip increment
 *    |g_T^tr - g_T| = (|t_T^tr| - k_PB t_N) / eps_T.
 *  - First contact (choice): a point entering contact (no contact at t_n, or contact with a
 *    different periodic image) gets its stick point at its current projection point,
 *    Y_s = y_p(x), i.e. the tangential spring starts unstressed and carries no traction during
 *    the step in which contact begins (consistently, no tangential stiffness in that step).
 *  - Contact loss resets the history (no tangential memory).
 *  - Periodic images (docs/methods.md §6; generalised): the images c + k L0 e1 with
 *    k in {k0 - 1, k0, k0 + 1}, k0 = round((x1 - c1) / L0), are tested, i.e. the image nearest
 *    to x and its two neighbours. For a point inside the cell [0, L0] and c in [0, L0) this
 *    includes c and c +- L0 e1 of docs/methods.md, and it stays correct when the rubber has been
 *    dragged by several cell lengths (positions are not wrapped). The deepest penetrated
 *    image is used (contact check f(m) < 0 of docs/methods.md §4.1); its index k is stored in the
 *    history and a change of k resets the tangential history.
 *
 * The particle pose is fixed during a call: the particle is a rigid obstacle during the FEM
 * Newton solve (docs/methods.md §5.3), so the consistent tangent is d t / d x at fixed pose.
 */
#include "base/boundary_obstacle.h"
#include "contact/contact_parameters.h"
#include "contact/particle_pose.h"
#include "geometry/superellipse.h"

#include <deal.II/base/tensor.h>

#include <array>
#include <limits>
#include <vector>

namespace granular::contact
{
  using dealii::Tensor;

  /// Converged history of one rubber contact Gauss point against the particle.
  struct ParticleContactHistory
  {
    bool         in_contact = false; ///< contact at t_n
    int          image      = 0;     ///< k: the contact is with the image centred at c + k L0 e1
    Tensor<1, 2> stick_point;        ///< Y_s (PARTICLE frame, mm), meaningful if in_contact
    /// the state at t_n that the step's Coulomb dissipation needs
    /// (rubber_particle_step_dissipation()), meaningful if in_contact:
    double       tangential_traction = 0.; ///< t_T (MPa) along tangent
    Tensor<1, 2> tangent;        ///< a_T = e3 x n at the projection (PARTICLE frame, unit)
    Tensor<1, 2> relative_point; ///< m = R^T (x - c_k), the rubber point (PARTICLE frame, mm)

    /// Boost.Serialization (checkpoint/restart); an archive of class version 0 lacks the
    /// state for the dissipation, which then starts from zero traction
    template <class Archive>
    void serialize(Archive &ar, const unsigned int version)
    {
      ar &in_contact &image &stick_point;
      if (version >= 1)
        ar &tangential_traction &tangent &relative_point;
    }
  };

  /// Result of the contact evaluation at one point (all vectors in the GLOBAL frame).
  struct ParticleContactResponse
  {
    Tensor<1, 2> traction;  ///< t = t_N n + t_T a_T acting ON THE RUBBER (MPa)
    Tensor<2, 2> tangent;   ///< d t / d x (MPa/mm), consistent; non-symmetric in slip
    ParticleContactHistory trial; ///< history at t_{n+1} if this state is accepted
    bool   in_contact = false;
    bool   slipping   = false;
    /// g_N (mm) of the penetrated image (< 0); +infinity when not in contact (the projection
    /// is only computed for penetrating points, docs/methods.md §4.1 step 1)
    double normal_gap          = 0.;
    double normal_traction     = 0.; ///< t_N = eps_N <-g_N> >= 0 (MPa)
    double tangential_traction = 0.; ///< t_T (MPa), component along a_T = e3 x n
    Tensor<1, 2> normal;           ///< outward particle normal n at y_p (global, unit)
    Tensor<1, 2> projection_point; ///< x_p = c_k + R y_p (global, mm): where the reaction acts
    Tensor<1, 2> image_centre;     ///< c_k = c + k L0 e1 (global, mm) of the penetrated image
    /// x (global, mm): the rubber point the traction acts at (RubberParticleInterface: also
    /// out of contact)
    Tensor<1, 2> rubber_point;
    /// |Delta g_T| of the return mapping (mm): (|t_T^tr| - k_PB t_N) / eps_T in slip, else 0
    double slip_increment = 0.;
  };

  /**
   * Rubber-particle penalty contact with Coulomb friction at one rubber point (docs/methods.md §6,
   * §4.1; see the file comment for the kinematics). Pure function.
   *
   * @param x           current position of the rubber point (GLOBAL frame, mm)
   * @param history     converged history at t_n (stick point in the PARTICLE frame)
   * @param pose        particle centre c (global, mm) and rotation theta (rad), fixed
   * @param particle    particle geometry (particle frame)
   * @param p           eps_N, eps_T (MPa/mm) and the friction coefficient k_PB
   * @param cell_length L0 (mm), period of the images c + k L0 e1; 0 switches the images off
   *                    (only k = 0 is tested)
   * @return traction on the rubber, consistent tangent d t / d x including the change of the
   *         projection point and normal on the curved particle (see the .cc for the formulas),
   *         trial history, state and bookkeeping (see ParticleContactResponse).
   * @throws std::invalid_argument if x or the pose is not finite, or cell_length is negative
   *         or not finite.
   * @throws std::domain_error (from geometry::Superellipse) if the point has reached the
   *         centre of curvature of the projection (1 + kappa g_N <= 0, e.g. the centre of a
   *         circle), where the projection is not differentiable.
   */
  ParticleContactResponse
  rubber_particle_contact(const Tensor<1, 2> &x, const ParticleContactHistory &history,
                          const ParticlePose &pose, const geometry::Superellipse &particle,
                          const PenaltyContactParameters &p, double cell_length = 0.);

  /// Tangential state of a rubber point's contact at one end of a step, in the
  /// energy-consistent step form (rubber_particle_contact_step()).
  struct ParticleContactStepState
  {
    bool   in_contact     = false; ///< the point penetrates the particle
    double tangential_gap = 0.;    ///< elastic tangential gap g_T (mm); 0 if not in contact

    /// Boost.Serialization (checkpoint/restart).
    template <class Archive>
    void serialize(Archive &ar, const unsigned int)
    {
      ar &in_contact &tangential_gap;
    }
  };

  /// The rubber-particle contact of one rubber point over a step (t_n, t_{n+1}), all vectors
  /// in the PARTICLE frame of the contact's image (rubber_particle_contact_step()).
  struct ParticleContactStep
  {
    /// the step's traction on the rubber (MPa): its work over the step, traction . Delta m,
    /// is -(energy_end - energy_start) - dissipation
    Tensor<1, 2> traction;
    Tensor<2, 2> dtraction_dm;    ///< d traction / d m_{n+1} (MPa/mm), consistent
    double energy_start = 0.;     ///< stored energy at t_n: phi(g_N) + eps_T g_T^2 / 2 (N/mm)
    double energy_end   = 0.;     ///< stored energy at t_{n+1} (N/mm)
    double dissipation  = 0.;     ///< Coulomb slip and the spring released at separation, >= 0 (N/mm)
    ParticleContactStepState end; ///< the state at t_{n+1} if the step is accepted
    bool   slipping = false;
    /// g_N (mm, < 0) at t_{n+1} if the point penetrates the particle there, else +infinity
    double normal_gap = std::numeric_limits<double>::infinity();
  };

  /**
   * Coulomb dissipation of one rubber point over a committed step of the end-of-step contact
   * (rubber_particle_contact()), per unit reference boundary length (multiply by the point's
   * weight; N/mm), docs/methods.md §6 ("Coulomb dissipation of the penalty
   * contacts"). The bodies' equations at t_n and t_{n+1} hold the
   * tractions of those times, so Newmark's energy identity charges them the trapezoidal work
   * of the contact's traction over the step; the dissipation is that work less the change of
   * the tangential spring's energy eps_T g_T^2 / 2 (the normal penalty's energy is stored,
   * not dissipated):
   *  - in contact at t_n and t_{n+1} with the same image: coulomb_step_dissipation() of
   *    t_T,n, t_T,n+1 and |Delta g_T,slip|;
   *  - in contact at t_n only (contact lost, or the point moved to another image, which
   *    resets the history): coulomb_release_dissipation() of t_T,n and the tangential
   *    motion a_T,n . (m_end - m_n);
   *  - otherwise (entering contact, no contact) D = 0.
   *
   * @param start the converged history at t_n (its tangential traction, tangent and relative
   *              point)
   * @param end   the committed response at t_{n+1}
   * @param m_end the rubber point at t_{n+1} in the PARTICLE frame of start's image (mm);
   *              used only when contact is lost
   * @param tangential_penalty eps_T (MPa/mm, > 0)
   * @return D (N/mm), >= 0
   */
  double rubber_particle_step_dissipation(const ParticleContactHistory  &start,
                                          const ParticleContactResponse &end,
                                          const Tensor<1, 2>            &m_end,
                                          double                         tangential_penalty);

  /**
   * Energy-consistent rubber-particle penalty contact over one step, in the relative
   * coordinate m = R(theta)^T (x - c_k) of the rubber point in the particle frame (the
   * contact's energy depends on the rubber point and the particle's pose only through m):
   *
   * - normal: the discrete gradient of the penalty potential phi(g_N(m)) (normal_penalty();
   *   Gonzalez 1996, as in docs/methods.md §5.4; for penalty contact Armero & Petocz 1998):
   *       G = grad phi(m_mid) + [Delta phi - grad phi(m_mid) . Delta m] Delta m / |Delta m|^2,
   *   m_mid = (m_n + m_{n+1}) / 2, so that G . Delta m = Delta phi exactly, also when the point
   *   enters or leaves contact or its projection changes side within the step; the normal
   *   traction on the rubber is -G (grad phi(m_mid) when |Delta m| < 1e-9 mm);
   * - tangential (choice: an incremental elastic gap instead of rubber_particle_contact()'s
   *   stick point): the slide of the step is Delta s = a_mid . Delta m along the tangent a_mid
   *   = e3 x n(m_mid) of the midpoint's projection; the trial gap g_T,n + Delta s is returned
   *   onto the Coulomb limit k_PB t_N(m_{n+1}), and the step's tangential traction is
   *   f_T a_mid with f_T = -eps_T (g_T,n + alpha (g_T,n+1 - g_T,n)): alpha = 1/2 (the
   *   mid-point force, no dissipation in stick) unless the slip's dissipation would then be
   *   negative (a slip that reverses against a falling normal traction), where alpha in
   *   (1/2, 1] makes it zero, as in particle_surface_contact_step() (docs/methods.md §5.4).
   *   Its work is f_T Delta s = -Delta(eps_T g_T^2 / 2) - D_T. A point entering contact
   *   starts with g_T = 0; a point leaving it releases eps_T g_T,n^2 / 2, counted as
   *   dissipated.
   *
   * So traction . (m_{n+1} - m_n) = -(energy_end - energy_start) - dissipation to round-off
   * at any step length, and the traction tends to the exact one at the midpoint at second
   * order in the step. Per unit reference boundary length: multiply by the point's weight.
   *
   * @param m_start, m_end the rubber point in the particle frame at t_n and t_{n+1} (mm)
   * @param start  the state at t_n
   * @param particle the particle's geometry; @param p eps_N, eps_T (MPa/mm), k_PB, width
   * @throws std::invalid_argument if m_start or m_end is not finite.
   * @throws std::domain_error (geometry::Superellipse) if a point reached a centre of
   *         curvature of its projection (1 + kappa g_N <= 0).
   */
  ParticleContactStep
  rubber_particle_contact_step(const Tensor<1, 2> &m_start, const Tensor<1, 2> &m_end,
                               const ParticleContactStepState &start,
                               const geometry::Superellipse &particle,
                               const PenaltyContactParameters &p);

  /**
   * One rubber point's energy-consistent contact over a step in the GLOBAL frame, with the
   * particle moving from pose_start to pose_end: the step's traction on the rubber, the
   * generalised force on the particle and their derivatives with respect to the end of the
   * step, for the monolithic coupling (coupling::MonolithicParticle with
   * RubberParticleInterface::ContactForces::discrete_gradient; docs/methods.md §5.5).
   *
   * With r = x - c_k and m = R(theta)^T r at both ends, the exact split
   *     Delta m = Rbar^T (Delta x - Delta c) + (R_{n+1}^T - R_n^T) rbar,
   * Rbar = (R_n + R_{n+1}) / 2, rbar = (r_n + r_{n+1}) / 2, gives the particle-frame traction
   * tau of rubber_particle_contact_step() to the bodies:
   *   - on the rubber: t = Rbar tau (MPa), whose work is w t . Delta x;
   *   - on the particle: F = -w t (N/mm) and the moment about its centre
   *         M = -w sinc(Delta theta / 2) rbar x (R_mid tau)   (N mm/mm),
   *     R_mid = R((theta_n + theta_{n+1}) / 2), whose work is F . Delta c + M Delta theta;
   * so that their works add up to w tau . Delta m = -w (Delta E + D) exactly.
   */
  struct ParticleContactStepCoupling
  {
    ParticleContactStep step;     ///< the particle-frame step (energies, state at t_{n+1})
    bool         active = false;  ///< the step's traction is not zero
    Tensor<1, 2> traction;        ///< t on the rubber (MPa, global)
    Tensor<2, 2> dtraction_dx;    ///< d t / d x_{n+1} (MPa/mm)
    std::array<Tensor<1, 2>, 3> dtraction_dq; ///< d t / d q_{n+1}, q = (c_1, c_2, theta)
    std::array<double, 3> resultant{};        ///< (F_1, F_2, M) on the particle, weight w
    std::array<Tensor<1, 2>, 3> dresultant_dx; ///< d (F_1, F_2, M) / d x_{n+1}
    std::array<std::array<double, 3>, 3> dresultant_dq{}; ///< d (F_1, F_2, M)_k / d q_j
  };

  /**
   * See ParticleContactStepCoupling.
   * @param x_start, x_end the rubber point at t_n and t_{n+1} (global, mm)
   * @param pose_start, pose_end the particle at t_n and t_{n+1} (global, mm and rad)
   * @param image_offset k L0 (mm): the contact is with the image centred at c + k L0 e1
   * @param start the point's state at t_n; @param particle, @param p as for
   *        rubber_particle_contact_step(); @param weight the point's reference boundary
   *        length w (mm)
   * @throws as rubber_particle_contact_step(); std::invalid_argument for a non-finite pose.
   */
  ParticleContactStepCoupling
  rubber_particle_step_coupling(const Tensor<1, 2> &x_start, const Tensor<1, 2> &x_end,
                                const ParticlePose &pose_start, const ParticlePose &pose_end,
                                double image_offset, const ParticleContactStepState &start,
                                const geometry::Superellipse &particle,
                                const PenaltyContactParameters &p, double weight);

  /**
   * Resultant of the rubber contact tractions acting ON THE PARTICLE (docs/methods.md §5, §6).
   * The moment arm is the rubber point x_i (choice): the contact energy depends on the
   * pose only through m = R^T (x - c_k), so the generalised force work-conjugate to theta is
   * sum_i (x_i - c_k,i) x f_i. Arms to the projection points x_p,i = x_i - g_N n would add a
   * non-conservative moment sum_i w_i g_N t_T (g_N ~ 1e-6 mm at the defaults).
   */
  struct ParticleContactResultant
  {
    Tensor<1, 2> force;       ///< -sum_i w_i t_i (N/mm, global frame)
    double       moment = 0.; ///< sum_i (x_i - c_k,i) x f_i . e3 about the centre (N mm/mm)
  };

  /**
   * Linearisation of one rubber point's contact with respect to the particle pose
   * q = (c_1, c_2, theta) (mm, mm, rad), for the monolithic DEM-FEM coupling
   * (coupling::MonolithicParticle). With r = x - c_k, E = e3 x (rotation by +pi/2), T = dt/dx:
   *   dt/dc = -T,  dt/dtheta = E t - T E r
   * (t = R t_p(m), m = R^T (x - c_k), the stick point fixed in the particle frame); the
   * point's contribution P = (f, r x f) with f = -w t to the resultant on the particle is
   * differentiated with respect to x and q by the product rule.
   */
  struct PointCouplingTangent
  {
    std::array<Tensor<1, 2>, 3> dtraction_dq; ///< d t / d q_j (MPa/mm for c, MPa/rad for theta)
    /// d P_k / d x (row k: d F_1, d F_2 in N/mm per mm, d M in N mm/mm per mm)
    std::array<Tensor<1, 2>, 3> dresultant_dx;
    std::array<std::array<double, 3>, 3> dresultant_dq{}; ///< d P_k / d q_j
  };

  /// PointCouplingTangent of a response of rubber_particle_contact() for a point of reference
  /// boundary length @p weight (mm); all zero if the point is not in contact.
  PointCouplingTangent
  rubber_particle_coupling_tangent(const ParticleContactResponse &response, double weight);

  /**
   * The rubber-particle interface as an obstacle of the FEM bottom boundary
   * (BoundaryObstacle, docs/methods.md §6): owns the per-Gauss-point contact history (trial and
   * converged; commit at converged steps, docs/methods.md §3.5), evaluates
   * rubber_particle_contact() for the FEM, and gives the equal and opposite force and moment on the
   * particle for the DEM (docs/methods.md §5.3 step 3), the contact statistics, the frictional
   * dissipation and the penalty spring energy (docs/methods.md §2.2 energy balance).
   *
   * Usage per time step: set_particle_pose() with the particle at t_{n+1}; the FEM Newton solve
   * calls evaluate() for every point in every iteration; after the solve resultant() etc. give
   * the state of the last evaluation (the converged iterate); commit() (called by the FEM's
   * commit_step) accepts the trial history and accumulates the dissipation.
   *
   * With ContactForces::discrete_gradient each point's traction is that of the step
   * (rubber_particle_step_coupling()): set_step_start_pose() gives the pose at t_n, evaluate()
   * uses the point's position at t_n as well, and the traction on the rubber, the resultant
   * on the particle and the spring energy are those of the step, whose works equal minus the
   * change of the stored energy minus the dissipation.
   */
  class RubberParticleInterface : public BoundaryObstacle
  {
  public:
    /// How a point's contact force is evaluated (Solver/Rubber-particle contact forces).
    enum class ContactForces
    {
      /// rubber_particle_contact() at the end of the step: the traction of the current
      /// positions, a stick point fixed in the particle frame
      end_of_step,
      /// rubber_particle_step_coupling(): the discrete gradient over the step
      discrete_gradient
    };

    /**
     * @param points      the FEM contact points (RubberBlock::contact_points()); the weights
     *                    (reference boundary length, mm) scale the tractions to forces
     * @param particle    particle geometry (copied)
     * @param p           eps_N, eps_T (MPa/mm), k_PB
     * @param cell_length L0 (mm) > 0, period of the cell
     * @param forces      how the contact force is evaluated (see ContactForces)
     * @throws std::invalid_argument if cell_length is not positive and finite, or a penalty is
     *         not positive, or the friction coefficient is negative.
     */
    RubberParticleInterface(std::vector<ContactPoint> points,
                            const geometry::Superellipse &particle,
                            const PenaltyContactParameters &p, double cell_length,
                            ContactForces forces = ContactForces::end_of_step);

    ContactForces contact_forces() const { return forces_; }
    /// BoundaryObstacle: the tractions are those of the step (ContactForces::discrete_gradient)
    bool traction_is_step_force() const override
    {
      return forces_ == ContactForces::discrete_gradient;
    }

    /**
     * Discrete gradient: the particle's pose at t_n, at the start of a step (before the
     * set_particle_pose() of its iterates); shifts the stored image indices like
     * set_particle_pose() when the centre was wrapped into the cell.
     * @throws std::invalid_argument if the pose is not finite.
     */
    void set_step_start_pose(const Tensor<1, 2> &centre, double theta);

    /**
     * Pose of the particle (global frame) for the next FEM solve; call after commit() and
     * before the solve. If the centre jumped by a multiple of L0 since the previous pose (it was
     * wrapped into the cell, docs/methods.md §2), the stored image indices are shifted so that the
     * contacts keep their history.
     * @throws std::invalid_argument if the pose is not finite.
     */
    void set_particle_pose(const Tensor<1, 2> &centre, double theta);
    const ParticlePose &particle_pose() const;

    /**
     * BoundaryObstacle: traction on the rubber (MPa) and d t / d x (MPa/mm) at point
     * @p point with current position @p x (global, mm); stores the trial state. @p x_old, the
     * point at t_n, is used by the discrete gradient only (at the end of the step a point
     * entering contact starts at its projection point).
     * @throws std::out_of_range for a bad point index; std::logic_error if no pose was set
     *         (for the discrete gradient: no pose at t_n either);
     *         NewtonFailure if the point reached a centre of curvature of the particle
     *         (the std::domain_error of rubber_particle_contact(): the iterate is rejected like
     *         an inverted element, so the driver can cut the step); std::invalid_argument for a
     *         non-finite x.
     */
    void evaluate(unsigned int point, const Tensor<1, 2> &x, const Tensor<1, 2> &x_old,
                  Tensor<1, 2> &traction, Tensor<2, 2> &dtraction_dx) override;

    /// Accepts the trial history of the points evaluated since the last commit and adds their
    /// Coulomb dissipation over the step, w rubber_particle_step_dissipation() (end of step)
    /// or the step's own (discrete gradient).
    void commit() override;

    /**
     * BoundaryObstacle: whether the straight path of a rubber point from @p x_old (t_n) to
     * @p x (t_{n+1}; global, mm) is longer than a quarter of the particle's thinnest width,
     * min(r1, r2) / 2, and meets the particle or one of its periodic images at the current
     * pose (docs/methods.md §6, "Rubber-particle": a point that moves so far within a step may
     * have passed through the particle, which the contact, evaluated at the step's end only,
     * cannot see). The path is tested at points min(r1, r2) / 2 apart. Shorter paths are not
     * tested: they cannot cross the particle.
     */
    bool may_pass_through(unsigned int point, const Tensor<1, 2> &x,
                          const Tensor<1, 2> &x_old) const override;

    /// The longest path (mm) of a rubber point, or of the particle's points relative to its
    /// centre's and its rotation's motion, that a step may take without a test for
    /// tunnelling: a quarter of the particle's thinnest width, min(r1, r2) / 2.
    double tunnelling_length() const;

    /// Force (N/mm) and moment about c (N mm/mm) on the particle from the last evaluation.
    ParticleContactResultant resultant() const;
    /// rubber_particle_coupling_tangent() of point @p i's last evaluation (the step's
    /// derivatives for the discrete gradient); zero if the point does not touch the particle.
    PointCouplingTangent point_coupling_tangent(unsigned int i) const;
    /// Number of points in contact / slipping in the last evaluation.
    unsigned int n_in_contact() const;
    unsigned int n_slipping() const;
    /// Frictional dissipation accumulated over committed steps (N mm/mm), >= 0.
    double frictional_dissipation() const;
    /// Energy in the penalty springs, sum_i w_i (eps_N g_N^2 / 2 + t_T^2 / (2 eps_T)), of the
    /// last evaluation (N mm/mm); the discrete gradient's energy at the end of the step,
    /// sum_i w_i (phi(g_N) + eps_T g_T^2 / 2).
    double spring_energy() const;

    /// Boost.Serialization of the converged state (pose, contact histories, accumulated
    /// dissipation) for checkpoint/restart. The responses of the last evaluation are not
    /// saved: after a restart resultant() and spring_energy() are valid after the next solve.
    template <class Archive>
    void serialize(Archive &ar, const unsigned int)
    {
      ar &pose_ &pose_set_ &converged_ &step_start_ &dissipation_;
    }

    unsigned int n_points() const;
    /// Response of the last evaluation of point @p i (std::out_of_range if bad).
    const ParticleContactResponse &response(unsigned int i) const;
    /// Converged history of point @p i (std::out_of_range if bad).
    const ParticleContactHistory &converged_history(unsigned int i) const;

  private:
    std::vector<ContactPoint>       points_;
    geometry::Superellipse               particle_;
    PenaltyContactParameters             parameters_;
    double                               cell_length_;
    ParticlePose                         pose_;
    bool                                 pose_set_ = false;
    std::vector<ParticleContactHistory>  converged_;
    std::vector<ParticleContactResponse> responses_;
    std::vector<bool>                    evaluated_;
    double                               dissipation_ = 0.;
    ContactForces                        forces_;
    ParticlePose                         pose_start_; ///< discrete gradient: the pose at t_n
    bool                                 pose_start_set_ = false;
    std::vector<ParticleContactStepState>    step_start_; ///< discrete gradient: state at t_n
    std::vector<ParticleContactStepCoupling> steps_;      ///< discrete gradient: last evaluation
    /// the image shift of the stored histories when the centre moved by a multiple of L0
    void shift_images(const Tensor<1, 2> &centre);
    /// discrete gradient: evaluate() of point @p i from @p x_old at t_n to @p x
    void evaluate_step(unsigned int i, const Tensor<1, 2> &x, const Tensor<1, 2> &x_old);
  };
} // namespace granular::contact

#include <boost/serialization/version.hpp>
BOOST_CLASS_VERSION(granular::contact::ParticleContactHistory, 1)
