#pragma once
/**
 * @file particle_pose.h
 * The rigid particle's pose, shared by its two contacts (rubber-particle and
 * particle-surface).
 */
#include <deal.II/base/tensor.h>

namespace granular::contact
{
  using dealii::Tensor;

  /// Pose of the rigid particle: centre c (global frame, mm) and rotation theta (rad,
  /// counter-clockwise) of the particle frame, x = c + R(theta) y.
  struct ParticlePose
  {
    Tensor<1, 2> centre;        ///< c (global, mm)
    double       rotation = 0.; ///< theta (rad)

    /// Boost.Serialization (checkpoint/restart).
    template <class Archive>
    void serialize(Archive &ar, const unsigned int)
    {
      ar &centre &rotation;
    }
  };
} // namespace granular::contact
