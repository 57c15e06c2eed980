#pragma once
/**
 * @file normal_penalty.h
 * The normal penalty law of the rubber's contacts (docs/methods.md §6): t_N = eps_N <-g_N>, and its
 * C¹ regularisation over a penetration width w (Contact/.../Regularisation width):
 *
 *     t_N = 0                           g_N >= 0
 *     t_N = eps_N g_N^2 / (2 w)          -w < g_N < 0
 *     t_N = eps_N (-g_N - w / 2)         g_N <= -w
 *
 * The traction and its stiffness -dt_N/dg_N = eps_N min(1, -g_N / w) are continuous, so the
 * tangent no longer jumps by eps_N when a contact point enters or leaves contact between
 * Newton iterates; deeper than w the law is the sharp one shifted by w/2 (the penetration
 * at a given pressure grows by w/2). w = 0 is the sharp law (traction and stiffness bit for bit). The stored energy
 * phi(g_N) (with t_N = -dphi/dg_N) is eps_N (-g_N)^3 / (6 w) in the ramp and
 * eps_N (g_N^2 / 2 + w g_N / 2 + w^2 / 6) beyond it. This is the quadratic regularisation of
 * the penalty's kink used in contact codes (e.g. Wriggers 2006, "Computational Contact
 * Mechanics", §10.3.3), applied on the penetrated side only so that the contact search is
 * unchanged.
 *
 * Units: g_N and w in mm, eps_N in MPa/mm, t_N in MPa, phi in N/mm (per unit area).
 */
namespace granular::contact
{
  /// t_N, -dt_N/dg_N and phi at one gap; see the file comment.
  struct NormalPenaltyResponse
  {
    double traction  = 0.; ///< t_N >= 0 (MPa)
    double stiffness = 0.; ///< -d t_N / d g_N >= 0 (MPa/mm)
    double energy    = 0.; ///< phi(g_N) >= 0 (N/mm)
  };

  /**
   * The (regularised) penalty law at the normal gap @p g_N (mm, < 0 penetrated) for the
   * penalty @p eps_N (MPa/mm, > 0) and the width @p width (mm, >= 0; 0: sharp).
   */
  inline NormalPenaltyResponse normal_penalty(const double g_N, const double eps_N,
                                              const double width)
  {
    NormalPenaltyResponse r;
    if (!(g_N < 0.))
      return r;
    if (width > 0. && g_N > -width)
      {
        r.traction  = eps_N * g_N * g_N / (2. * width);
        r.stiffness = -eps_N * g_N / width;
        r.energy    = -eps_N * g_N * g_N * g_N / (6. * width);
        return r;
      }
    r.traction  = -eps_N * g_N - 0.5 * eps_N * width;
    r.stiffness = eps_N;
    r.energy    = width > 0. ?
                    eps_N * (0.5 * g_N * g_N + 0.5 * width * g_N + width * width / 6.) :
                    0.5 * eps_N * g_N * g_N;
    return r;
  }
} // namespace granular::contact
