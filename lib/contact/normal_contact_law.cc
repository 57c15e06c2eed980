// Normal contact force laws (docs/methods.md §5.1, §9). See normal_contact_law.h.
#include "contact/normal_contact_law.h"

#include "contact/laws/contact_law.h"
#include "contact/laws/temizer_decompression_undamped.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace granular::contact
{
  namespace
  {
    /// Smallest x >= 0 with g(x) >= target for a non-decreasing g with g(0) = 0: doubling to a
    /// bracket, then bisection to relative accuracy 1e-12.
    template <typename Function>
    double
    invert_monotone(const Function &g, const double target)
    {
      if (!(target > 0.))
        return 0.;
      double hi = 1e-6;
      for (int i = 0; i < 200 && g(hi) < target; ++i)
        hi *= 2.;
      if (g(hi) < target)
        return hi; // unbounded growth not reached: return the largest probe (conservative)
      double lo = 0.;
      for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i)
        {
          const double mid = 0.5 * (lo + hi);
          (g(mid) < target ? lo : hi) = mid;
        }
      return hi;
    }
  } // namespace

  NormalContactHistory
  NormalContactLaw::updated_history(const double d, const double d_dot, const double dt,
                                    const NormalContactHistory &old) const
  {
    if (!(d > 0.))
      return NormalContactHistory{};
    NormalContactHistory h = old;
    if (!old.active)
      {
        h                   = NormalContactHistory{};
        h.active            = true;
        h.approach_velocity = d_dot;
      }
    else
      h.contact_time += dt;
    h.max_indentation = std::max(h.max_indentation, d);
    h.max_force       = std::max(h.max_force, elastic_force(d, h));
    return h;
  }

  double
  NormalContactLaw::elastic_stiffness(const double d, const NormalContactHistory &h) const
  {
    if (!(d > 0.))
      return 0.;
    const double step = 1e-6 * d;
    return (elastic_force(d + step, h) - elastic_force(d - step, h)) / (2. * step);
  }

  NormalContactLaw::ForceDerivatives
  NormalContactLaw::force_derivatives_on_branch(const double d, const double d_dot,
                                                RateBranch branch,
                                                const NormalContactHistory &h) const
  {
    ForceDerivatives r;
    if (!(d > 0.))
      return r;
    if (branch == RateBranch::by_sign && switches_with_rate())
      branch = d_dot >= 0. ? RateBranch::compression : RateBranch::decompression;
    const double step_d = 1e-6 * d, step_v = 1e-6 * std::max(std::abs(d_dot), 1.);
    r.stiffness = (force_on_branch(d + step_d, d_dot, branch, h) -
                   force_on_branch(d - step_d, d_dot, branch, h)) /
                  (2. * step_d);
    r.damping_coefficient = (force_on_branch(d, d_dot + step_v, branch, h) -
                             force_on_branch(d, d_dot - step_v, branch, h)) /
                            (2. * step_v);
    return r;
  }

  double
  NormalContactLaw::indentation_for_force(const double f, const NormalContactHistory &h) const
  {
    return invert_monotone([&](const double d) { return elastic_force(d, h); }, f);
  }

  double
  NormalContactLaw::indentation_for_energy(const double energy,
                                           const NormalContactHistory &h) const
  {
    return invert_monotone([&](const double d) { return stored_energy(d, h); }, energy);
  }

  // ---------------------------------------------------------------------------------------
  std::vector<std::string>
  normal_contact_law_names()
  {
    std::vector<std::string> names;
    for (const auto &l : laws::registered_laws())
      names.push_back(l.id);
    names.push_back(legacy_default_law_name);
    return names;
  }

  std::shared_ptr<const NormalContactLaw>
  create_normal_contact_law(const ParticleSurfaceContactParameters &p,
                            const double                            effective_mass)
  {
    const std::string id =
      p.normal_law == legacy_default_law_name ? DampedHertzDecompressionOff::law_name :
                                                p.normal_law;
    laws::LawValues values;
    if (const auto it = p.law_parameters.find(id); it != p.law_parameters.end())
      values = it->second;
    if (id == DampedHertzDecompressionOff::law_name)
      values["Damping coefficient"] = p.damping;
    laws::ContactData data;
    data.stiffness      = p.normal_stiffness;
    data.effective_mass = effective_mass;
    return laws::make_law(id, values, data);
  }
} // namespace granular::contact
