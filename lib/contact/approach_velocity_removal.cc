// The velocity update of a rubber contact point at the start of a step. See
// approach_velocity_removal.h.
#include "contact/approach_velocity_removal.h"

#include <cmath>
#include <stdexcept>

namespace granular::contact
{
  ApproachVelocityRemoval remove_approach_velocity(const double N_a, const double N_b,
                                                   const double m_a, const double m_b,
                                                   const Tensor<1, 2> &v_a,
                                                   const Tensor<1, 2> &v_b,
                                                   const Tensor<1, 2> &normal,
                                                   const Tensor<1, 2> &obstacle_velocity,
                                                   const double obstacle_inverse_mass)
  {
    if (!(m_a > 0.) || !(m_b > 0.))
      throw std::invalid_argument("remove_approach_velocity: the nodal masses must be positive");
    if (!(obstacle_inverse_mass >= 0.))
      throw std::invalid_argument(
        "remove_approach_velocity: the obstacle's inverse mass must be >= 0");
    if (!(N_a * N_a + N_b * N_b > 0.))
      throw std::invalid_argument("remove_approach_velocity: the point has no shape function");
    if (!(std::abs(normal.norm() - 1.) < 1e-8))
      throw std::invalid_argument("remove_approach_velocity: the normal must be a unit vector");
    ApproachVelocityRemoval r;
    r.velocity_a    = v_a;
    r.velocity_b    = v_b;
    const double vN = (N_a * v_a + N_b * v_b - obstacle_velocity) * normal;
    if (!(vN < 0.))
      return r;
    const double mu =
      1. / (N_a * N_a / m_a + N_b * N_b / m_b + obstacle_inverse_mass);
    const double lambda = -vN * mu;
    r.velocity_a += (N_a / m_a * lambda) * normal;
    r.velocity_b += (N_b / m_b * lambda) * normal;
    r.impulse        = lambda;
    r.removed_energy = 0.5 * mu * vN * vN;
    r.updated        = true;
    return r;
  }
} // namespace granular::contact
