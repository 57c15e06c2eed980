// Normal contact force laws (spec §5.1, §9). See normal_contact_law.h.
#include "contact/normal_contact_law.h"

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
  NormalContactLaw::updated_history(const double d, const double d_dot,
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
    h.max_indentation = std::max(h.max_indentation, d);
    h.max_force       = std::max(h.max_force, elastic_force(d, h));
    return h;
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
  DampedHertzDecompressionOff::DampedHertzDecompressionOff(const double normal_stiffness,
                                                           const double damping)
    : k_N(normal_stiffness)
    , c_N(damping)
  {
    if (!(std::isfinite(k_N) && k_N > 0.))
      throw std::invalid_argument("DampedHertzDecompressionOff: the normal stiffness k_N must "
                                  "be positive and finite");
    if (!(std::isfinite(c_N) && c_N >= 0.))
      throw std::invalid_argument("DampedHertzDecompressionOff: the damping c_N must be "
                                  "non-negative and finite");
  }

  std::string
  DampedHertzDecompressionOff::name() const
  {
    return law_name;
  }

  double
  DampedHertzDecompressionOff::force(const double d, const double d_dot,
                                     const NormalContactHistory &) const
  {
    if (!(d > 0.))
      return 0.;
    // same operation order as elastic_force(): force >= elastic_force exactly for d' >= 0
    const double s = std::sqrt(d), elastic = k_N * d * s;
    if (d_dot >= 0.)
      return std::max(0., elastic + k_N * c_N * d_dot * s);
    return elastic;
  }

  double
  DampedHertzDecompressionOff::force_on_branch(const double d, const double d_dot,
                                               const RateBranch            branch,
                                               const NormalContactHistory &h) const
  {
    if (branch == RateBranch::by_sign)
      return force(d, d_dot, h);
    if (!(d > 0.))
      return 0.;
    const double s = std::sqrt(d), elastic = k_N * d * s;
    return branch == RateBranch::compression ? std::max(0., elastic + k_N * c_N * d_dot * s) :
                                               elastic;
  }

  double
  DampedHertzDecompressionOff::elastic_force(const double d, const NormalContactHistory &) const
  {
    return d > 0. ? k_N * d * std::sqrt(d) : 0.;
  }

  double
  DampedHertzDecompressionOff::stored_energy(const double d, const NormalContactHistory &) const
  {
    return d > 0. ? 0.4 * k_N * d * d * std::sqrt(d) : 0.;
  }

  double
  DampedHertzDecompressionOff::stiffness(const double d, const double d_dot,
                                         const NormalContactHistory &) const
  {
    if (!(d > 0.))
      return 0.;
    const double s = std::sqrt(d);
    if (d_dot >= 0.)
      return k_N * (1.5 * s + 0.5 * c_N * d_dot / s);
    return 1.5 * k_N * s;
  }

  double
  DampedHertzDecompressionOff::damping_coefficient(const double d, const double d_dot,
                                                   const NormalContactHistory &) const
  {
    if (!(d > 0.) || d_dot < 0.)
      return 0.;
    return k_N * c_N * std::sqrt(d);
  }

  double
  DampedHertzDecompressionOff::indentation_for_force(const double f,
                                                     const NormalContactHistory &) const
  {
    return f > 0. ? std::cbrt((f / k_N) * (f / k_N)) : 0.;
  }

  double
  DampedHertzDecompressionOff::indentation_for_energy(const double energy,
                                                      const NormalContactHistory &) const
  {
    return energy > 0. ? std::pow(2.5 * energy / k_N, 0.4) : 0.;
  }

  // ---------------------------------------------------------------------------------------
  std::vector<std::string>
  normal_contact_law_names()
  {
    return {DampedHertzDecompressionOff::law_name, "temizer_decompression_undamped"};
  }

  std::shared_ptr<const NormalContactLaw>
  create_normal_contact_law(const ParticleSurfaceContactParameters &p)
  {
    if (p.normal_law == DampedHertzDecompressionOff::law_name ||
        p.normal_law == "temizer_decompression_undamped")
      return std::make_shared<const DampedHertzDecompressionOff>(p.normal_stiffness, p.damping);

    std::ostringstream m;
    m << "create_normal_contact_law: unknown normal contact law \"" << p.normal_law
      << "\"; known laws:";
    for (const auto &n : normal_contact_law_names())
      m << " \"" << n << "\"";
    throw std::invalid_argument(m.str());
  }
} // namespace granular::contact
