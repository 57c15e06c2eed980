// docs/contact-law-catalogue.md F7 temizer_decompression_undamped. See
// temizer_decompression_undamped.h.
#include "contact/laws/temizer_decompression_undamped.h"

#include "contact/laws/hertz_spring.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace granular::contact
{
  DampedHertzDecompressionOff::DampedHertzDecompressionOff(const double normal_stiffness,
                                                           const double damping)
    : laws::ContactLaw(law_name, /*clamp_nonnegative=*/true,
                       /*damping_in_decompression=*/false)
    , k_N(normal_stiffness)
    , c_N(damping)
  {
    if (!(std::isfinite(k_N) && k_N > 0.))
      throw std::invalid_argument("DampedHertzDecompressionOff: the normal stiffness k_N must "
                                  "be positive and finite");
    if (!(std::isfinite(c_N) && c_N >= 0.))
      throw std::invalid_argument("DampedHertzDecompressionOff: the damping c_N must be "
                                  "non-negative and finite");
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
  DampedHertzDecompressionOff::elastic_stiffness(const double d,
                                                 const NormalContactHistory &) const
  {
    return d > 0. ? 1.5 * k_N * std::sqrt(d) : 0.;
  }

  NormalContactLaw::ForceDerivatives
  DampedHertzDecompressionOff::force_derivatives_on_branch(const double d, const double d_dot,
                                                           const RateBranch            branch,
                                                           const NormalContactHistory &) const
  {
    ForceDerivatives r;
    if (!(d > 0.))
      return r;
    const double s = std::sqrt(d);
    const bool   compression =
      branch == RateBranch::compression || (branch == RateBranch::by_sign && d_dot >= 0.);
    if (!compression)
      r.stiffness = 1.5 * k_N * s;
    else if (k_N * d * s + k_N * c_N * d_dot * s > 0.) // not clipped by max(0, .)
      {
        r.stiffness           = k_N * (1.5 * s + 0.5 * c_N * d_dot / s);
        r.damping_coefficient = k_N * c_N * s;
      }
    return r;
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

  double
  DampedHertzDecompressionOff::spring_force(const double d, const NormalContactHistory &h) const
  {
    return elastic_force(d, h);
  }

  double
  DampedHertzDecompressionOff::damping_force(const double d, const double d_dot,
                                             const NormalContactHistory &) const
  {
    return d > 0. ? k_N * c_N * d_dot * std::sqrt(d) : 0.;
  }

  namespace laws::catalogue
  {
    namespace
    {
      /// F7 with other flags than its own: K d^1.5 + K c_N sqrt(d) d' under the base class's
      /// flag handling (damping in decompression and/or no clamp).
      class TemizerWithFlags : public HertzSpringLaw
      {
      public:
        TemizerWithFlags(const double K_, const double c_N_, const bool clamp, const bool damped)
          : HertzSpringLaw(DampedHertzDecompressionOff::law_name, K_, clamp, damped)
          , c_N(c_N_)
        {}
        double
        damping_force(const double d, const double d_dot,
                      const NormalContactHistory &) const override
        {
          return K * c_N * d_dot * std::sqrt(d);
        }

      private:
        double c_N;
      };
    } // namespace

    LawInfo
    temizer_decompression_undamped()
    {
      LawInfo i;
      i.id      = DampedHertzDecompressionOff::law_name;
      i.entry   = "F7";
      i.title   = "Temizer (damped Hertz, damping off in decompression)";
      i.formula = "F = max(0, K sqrt(d) (d + c_N d')) for d' >= 0; F = K d^1.5 for d' < 0";
      i.source  = "S001 (Temizer 2013) eq.(10); docs/methods.md §5.1; "
                  "docs/contact-law-catalogue.md F7";
      LawParameter c;
      c.name          = "Damping coefficient";
      c.default_value = 3e-5;
      c.lower         = 0.;
      c.doc = "c_N in s (S001 Table 3: 3e-5). In the micromechanical cell the entry "
              "Contact/Particle-surface/Damping coefficient sets it.";
      i.parameters                       = {c};
      i.needs                            = {Needs::stiffness};
      i.default_clamp_nonnegative        = true;
      i.default_damping_in_decompression = false;
      i.create = [](const LawValues &v, const ContactData &data)
        -> std::shared_ptr<const ContactLaw> {
        if (v.at(clamp_flag) != 1. || v.at(damping_flag) != 0.)
          return std::make_shared<const TemizerWithFlags>(data.stiffness,
                                                          v.at("Damping coefficient"),
                                                          v.at(clamp_flag) == 1.,
                                                          v.at(damping_flag) == 1.);
        return std::make_shared<const DampedHertzDecompressionOff>(data.stiffness,
                                                                   v.at("Damping coefficient"));
      };
      return i;
    }
  } // namespace laws::catalogue
} // namespace granular::contact
