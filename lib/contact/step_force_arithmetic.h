#pragma once
/**
 * @file step_force_arithmetic.h
 * The arithmetic that the particle contacts over a step share (docs/methods.md §5.4, §5.6),
 * written once for double (the forces) and for Sacado's forward-mode SFad numbers (their
 * exact Jacobians): the normal law's secant plus its damping at t_{n+1}, and the tangential
 * penalty with the Coulomb return mapping and the alpha rule of the spring force. Used by
 * contact::particle_surface_contact_step() and contact::particle_particle_contact_step() and
 * their _derivatives(); every branch is taken on the values.
 *
 * Units: depths and slides mm, rates mm/s, time s, forces N per mm thickness.
 */
#include "contact/contact_parameters.h"
#include "contact/coulomb_return_mapping.h"
#include "contact/normal_contact_law.h"

#include <Sacado.hpp>

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace granular::contact::step_arithmetic
{
  inline double
  value(const double x)
  {
    return x;
  }
  template <int n>
  double
  value(const Sacado::Fad::SFad<double, n> &x)
  {
    return x.val();
  }

  /// f(x) from f's value @p f and derivative @p df at value(x) (the chain rule; a double
  /// passes f through).
  inline double
  chain(const double f, const double, const double)
  {
    return f;
  }
  template <int n>
  Sacado::Fad::SFad<double, n>
  chain(const double f, const double df, const Sacado::Fad::SFad<double, n> &x)
  {
    Sacado::Fad::SFad<double, n> r(f);
    for (int i = 0; i < n; ++i)
      r.fastAccessDx(i) = df * x.fastAccessDx(i);
    return r;
  }
  /// f(x, y) from its value and partial derivatives.
  template <int n>
  Sacado::Fad::SFad<double, n>
  chain(const double f, const double dfdx, const Sacado::Fad::SFad<double, n> &x,
        const double dfdy, const Sacado::Fad::SFad<double, n> &y)
  {
    Sacado::Fad::SFad<double, n> r(f);
    for (int i = 0; i < n; ++i)
      r.fastAccessDx(i) = dfdx * x.fastAccessDx(i) + dfdy * y.fastAccessDx(i);
    return r;
  }

  /// The normal force of a step (see normal_step_force()).
  template <typename Number>
  struct NormalStep
  {
    NormalContactHistory h;           ///< the law's history at t_{n+1}
    Number               f_el{}, f_N{}; ///< the secant, and the secant plus damping (N/mm)
    bool                 in_contact = false; ///< d_{n+1} > 0 and the law's force there > 0
  };

  /**
   * The step's normal force from the depths @p d_0 (t_n) and @p d_1 (t_{n+1}), d_d = d_1 - d_0
   * and rate = d_d / dt (mm, mm/s): the secant f_el = [V(d_1) - V(d_0)] / (d_1 - d_0) of the
   * law's stored energy V (its elastic force at the mean depth when |d_d| <= 1e-6 of the
   * larger depth), plus the damping f_D = f(d_1, rate) - F_el(d_1) at t_{n+1} on @p branch;
   * f_N = f_el + f_D, not tensile (docs/methods.md §5.4). The law's history is updated from
   * @p old at the values and held there for the derivatives.
   */
  template <typename Number>
  NormalStep<Number>
  normal_step_force(const NormalContactLaw &law, const double d_0, const Number &d_1_n,
                    const Number &d_d, const Number &rate_n, const double dt,
                    const NormalContactHistory &old, const NormalContactLaw::RateBranch branch)
  {
    constexpr bool     differentiate = !std::is_same_v<Number, double>;
    NormalStep<Number> r;
    const double       d_1 = value(d_1_n), rate = value(rate_n);
    r.h                    = law.updated_history(d_1, rate, dt, old);
    const auto &h          = r.h;
    // the law's stored energy V and elastic force F_el = V' at a depth d
    const auto V = [&](const auto &d) -> Number {
      const double dv = value(d);
      if (!(dv > 0.))
        return Number(0.);
      if constexpr (differentiate)
        return chain(law.stored_energy(dv, h), law.elastic_force(dv, h), d);
      else
        return law.stored_energy(dv, h);
    };
    const auto F_el = [&](const auto &d) -> Number {
      const double dv = value(d);
      if constexpr (differentiate)
        return chain(law.elastic_force(dv, h), law.elastic_stiffness(dv, h), d);
      else
        return law.elastic_force(dv, h);
    };
    if (std::abs(value(d_d)) > 1e-6 * std::max(std::abs(d_0), std::abs(d_1)))
      r.f_el = (V(d_1_n) - V(d_0)) / d_d;
    else if (0.5 * (d_0 + d_1) > 0.)
      r.f_el = F_el(Number(0.5 * (d_0 + d_1_n))); // the secant's limit
    Number f_end(0.), f_D(0.);
    if (d_1 > 0.)
      {
        if constexpr (differentiate)
          {
            const auto derivatives = law.force_derivatives_on_branch(d_1, rate, branch, h);
            f_end = chain(law.force_on_branch(d_1, rate, branch, h), derivatives.stiffness,
                          d_1_n, derivatives.damping_coefficient, rate_n);
          }
        else
          f_end = law.force_on_branch(d_1, rate, branch, h);
        f_D = f_end - F_el(d_1_n);
      }
    const Number f_sum = r.f_el + f_D;
    r.f_N              = value(f_sum) < 0. ? Number(0.) : f_sum; // no tensile force
    r.in_contact       = d_1 > 0. && value(f_end) > 0.;
    return r;
  }

  /// The tangential force of a step (see tangential_step_force()).
  template <typename Number>
  struct TangentialStep
  {
    Number d_T1{}; ///< the spring's extension at t_{n+1} (mm)
    Number f_T{};  ///< the step's tangential force (N/mm)
    bool   sticking = false;
  };

  /**
   * The step's tangential force on the slide @p slide (mm) from the spring's extension
   * @p d_T0 at t_n, with the normal force @p f_N: the Coulomb return mapping of the trial
   * d_T0 + slide (stiffness k_T, coefficient mu of @p parameters), and the spring force at
   * d_T0 + alpha (d_T1 - d_T0) with alpha = 1/2 unless the slip's dissipation would then be
   * negative, then the smallest alpha <= 1 that makes it zero (docs/methods.md §5.4).
   */
  template <typename Number>
  TangentialStep<Number>
  tangential_step_force(const ParticleSurfaceContactParameters &parameters, const double d_T0,
                        const Number &slide, const Number &f_N)
  {
    TangentialStep<Number>     r;
    const double               k_T   = parameters.tangential_stiffness;
    const Number               trial = d_T0 + slide;
    const CoulombReturnMapping m     = coulomb_return_mapping(
      value(trial), k_T, parameters.friction_coefficient, value(f_N));
    if (m.sticking)
      r.d_T1 = trial;
    else // the slip traction mu f_N sign(trial traction)
      r.d_T1 = -Number(chain(m.traction, m.dtraction_dpressure, f_N)) / k_T;
    Number       alpha(0.5);
    const Number D_half = 0.5 * k_T * (d_T0 + r.d_T1) * (trial - r.d_T1);
    if (value(D_half) < 0.)
      {
        const Number a = 0.5 - D_half / (k_T * (r.d_T1 - d_T0) * slide);
        alpha          = value(a) < 1. ? a : Number(1.); // std::min(1., a)
      }
    r.f_T      = -k_T * (d_T0 + alpha * (r.d_T1 - d_T0));
    r.sticking = m.sticking;
    return r;
  }
} // namespace granular::contact::step_arithmetic
