#pragma once
/**
 * @file rubber_surface_contact.h
 * Frictional penalty contact of a rubber boundary point with the rigid flat surface
 * y = 0 (docs/methods.md §6, "Rubber-surface"; Temizer & Wriggers 2008, penalty regularised
 * Coulomb law with return mapping; Wriggers, Computational Contact Mechanics, §5.2).
 *
 * Units: positions in mm, penalties in MPa/mm, tractions in MPa (force per reference
 * boundary length and unit thickness).
 */
#include "contact/contact_parameters.h"

#include <deal.II/base/tensor.h>

namespace granular::contact
{
  using dealii::Tensor;

  /// History of one contact Gauss point on the flat surface: the stick point
  /// ("anchor") on the surface, tracked in the global x1 coordinate.
  struct SurfaceContactHistory
  {
    bool   in_contact = false; ///< converged contact state at t_n
    double anchor     = 0.;    ///< x1 of the stick point on the surface (mm)

    /// Boost.Serialization (checkpoint/restart).
    template <class Archive>
    void serialize(Archive &ar, const unsigned int)
    {
      ar &in_contact &anchor;
    }
  };

  /// Result of the return mapping at one point.
  struct SurfaceContactResponse
  {
    Tensor<1, 2> traction;       ///< t = t_T e1 + t_N e2 acting ON THE RUBBER (MPa)
    Tensor<2, 2> tangent;        ///< d t / d x (MPa/mm), non-symmetric in slip
    SurfaceContactHistory trial; ///< history at t_{n+1} if this state is accepted
    bool   slipping      = false;
    double normal_gap    = 0.;   ///< g_N = x2 (mm), negative = penetration
    double slip_increment = 0.;  ///< |anchor_{n+1} - anchor_n| in slip (mm), 0 in stick
  };

  /**
   * Penalty normal contact t_N = eps_N <-x2> and penalty tangential stick
   * t_T = -eps_T (x1 - anchor), with the Coulomb return mapping
   * |t_T| <= k_o t_N (docs/methods.md §6 and §5.2: contact::coulomb_return_mapping() with the trial
   * gap x1 - anchor); in slip the anchor moves to x1 + t_T / eps_T.
   * When contact is lost the anchor is reset (no tangential memory).
   * A point that enters contact starts sticking where it touches.
   *
   * @param x        current position of the rubber point (global frame, mm)
   * @param x_old    position at the converged step t_n (used for first contact)
   * @param history  converged history at t_n
   * @param p        penalties and friction coefficient k_o
   * The tangent is consistent with the algorithm (stick: -eps_T e1 x e1 - eps_N e2 x e2;
   * slip: d t_T/d x2 = -k_o sign(t_T) eps_N).
   */
  SurfaceContactResponse
  rubber_surface_contact(const Tensor<1, 2> &x, const Tensor<1, 2> &x_old,
                         const SurfaceContactHistory &history,
                         const PenaltyContactParameters &p);

  /**
   * Coulomb dissipation of one rubber point on the surface over a committed step, per unit
   * reference boundary length (multiply by the point's weight; N/mm), docs/methods.md §6
   * ("Coulomb dissipation of the penalty contacts"): the trapezoidal work that Newmark's
   * energy identity charges the bodies for the tangential traction, less the change of the
   * tangential spring's energy eps_T (x1 - anchor)^2 / 2 (the normal penalty's energy is
   * stored, not dissipated).
   *  - in contact at t_{n+1}: contact::coulomb_step_dissipation() with
   *    t_T,n = -eps_T (x1_n - anchor_n) (0 for a point entering contact, whose stick point
   *    is x1_n) and the step's slip increment;
   *  - in contact at t_n only: contact::coulomb_release_dissipation() with the tangential
   *    motion x1_{n+1} - x1_n;
   *  - otherwise D = 0.
   * The backward-Euler count |t_T,n+1| |Delta anchor| of the return mapping leaves a
   * first-order error of the step in the energy balance, where the bodies do the
   * trapezoidal work.
   *
   * @param x_old  the point at t_n (global frame, mm)
   * @param x      the point at t_{n+1} (mm)
   * @param start  the converged history at t_n
   * @param end    the committed response at t_{n+1} (rubber_surface_contact() of x, x_old,
   *               start)
   * @param tangential_penalty eps_T (MPa/mm, > 0)
   * @return D (N/mm), >= 0
   */
  double rubber_surface_step_dissipation(const Tensor<1, 2> &x_old, const Tensor<1, 2> &x,
                                         const SurfaceContactHistory  &start,
                                         const SurfaceContactResponse &end,
                                         double                        tangential_penalty);
} // namespace granular::contact
