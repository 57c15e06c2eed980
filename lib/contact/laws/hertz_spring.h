#pragma once
/**
 * @file hertz_spring.h
 * Base of the catalogue laws whose rate-independent part is Hertz's spring
 * (docs/contact-law-catalogue.md A2, S000 eqs.(2)-(4)): S = K d^(3/2), with K in N/mm^1.5 (3D) or
 * N/mm^2.5 per mm thickness (2D cell). It gives the spring, its stored energy (2/5) K d^(5/2) in
 * closed form and their inverses; a derived law adds its damping_force().
 */
#include "contact/laws/contact_law.h"

#include <cmath>
#include <string>
#include <utility>

namespace granular::contact::laws
{
  /// A ContactLaw with the Hertz spring K d^(3/2) (see the file comment).
  class HertzSpringLaw : public ContactLaw
  {
  public:
    /// @param stiffness K (N/mm^1.5); the derived law checks it.
    HertzSpringLaw(std::string id, const double stiffness, const bool clamp_nonnegative,
                   const bool damping_in_decompression)
      : ContactLaw(std::move(id), clamp_nonnegative, damping_in_decompression)
      , K(stiffness)
    {}

    /// K d^1.5 (N).
    double
    spring_force(const double d, const NormalContactHistory &) const override
    {
      return K * d * std::sqrt(d);
    }
    /// dS/dd = 3/2 K sqrt(d) (N/mm).
    double
    elastic_stiffness(const double d, const NormalContactHistory &) const override
    {
      return d > 0. ? 1.5 * K * std::sqrt(d) : 0.;
    }
    /// (2/5) K d^2.5 (N mm).
    double
    stored_energy(const double d, const NormalContactHistory &) const override
    {
      return d > 0. ? 0.4 * K * d * d * std::sqrt(d) : 0.;
    }
    /// (f/K)^(2/3) (mm).
    double
    indentation_for_force(const double f, const NormalContactHistory &) const override
    {
      return f > 0. ? std::cbrt((f / K) * (f / K)) : 0.;
    }
    /// (5 E/(2 K))^(2/5) (mm).
    double
    indentation_for_energy(const double energy, const NormalContactHistory &) const override
    {
      return energy > 0. ? std::pow(2.5 * energy / K, 0.4) : 0.;
    }

  protected:
    double K; ///< N/mm^1.5
  };
} // namespace granular::contact::laws
