// The contact-law library: base class, parameters, make_law(). See contact_law.h.
#include "contact/laws/contact_law.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace granular::contact::laws
{
  std::string
  describe(const Needs n)
  {
    switch (n)
      {
        case Needs::stiffness:
          return "the contact stiffness K";
        case Needs::effective_mass:
          return "the effective mass m_eff (t)";
        case Needs::effective_modulus:
          return "the effective modulus E* (MPa)";
        case Needs::effective_radius:
          return "the effective radius R_eff (mm)";
        case Needs::yield_strength:
          return "the yield strength sigma_y (MPa)";
        case Needs::poisson_ratio:
          return "the Poisson ratio nu";
        case Needs::youngs_modulus:
          return "Young's modulus E (MPa)";
      }
    return "?";
  }

  double
  value(const ContactData &data, const Needs n)
  {
    switch (n)
      {
        case Needs::stiffness:
          return data.stiffness;
        case Needs::effective_mass:
          return data.effective_mass;
        case Needs::effective_modulus:
          return data.effective_modulus;
        case Needs::effective_radius:
          return data.effective_radius;
        case Needs::yield_strength:
          return data.yield_strength;
        case Needs::poisson_ratio:
          return data.poisson_ratio;
        case Needs::youngs_modulus:
          return data.youngs_modulus;
      }
    return unknown;
  }

  // ---------------------------------------------------------------------------------------
  ContactLaw::ContactLaw(std::string id_, const bool clamp_nonnegative,
                         const bool damping_in_decompression)
    : id(std::move(id_))
    , clamp(clamp_nonnegative)
    , damped_decompression(damping_in_decompression)
  {}

  std::string
  ContactLaw::name() const
  {
    return id;
  }

  double
  ContactLaw::damping_force(double, double, const NormalContactHistory &) const
  {
    return 0.;
  }

  double
  ContactLaw::internal_variable_rate(double, double, const NormalContactHistory &) const
  {
    return 0.;
  }

  double
  ContactLaw::approach_velocity(const NormalContactHistory &h) const
  {
    return std::max(h.approach_velocity, minimum_approach_velocity);
  }

  double
  ContactLaw::force(const double d, const double d_dot, const NormalContactHistory &h) const
  {
    return force_on_branch(d, d_dot, RateBranch::by_sign, h);
  }

  double
  ContactLaw::force_on_branch(const double d, const double d_dot, const RateBranch branch,
                              const NormalContactHistory &h) const
  {
    if (!(d > 0.) || h.released)
      return 0.;
    const bool compression =
      branch == RateBranch::by_sign ? d_dot >= 0. : branch == RateBranch::compression;
    double f = spring_force(d, h);
    if (compression || damped_decompression)
      f += damping_force(d, d_dot, h);
    return clamp ? std::max(0., f) : f;
  }

  bool
  ContactLaw::switches_with_rate() const
  {
    return !damped_decompression || has_unloading_branch();
  }

  double
  ContactLaw::elastic_force(const double d, const NormalContactHistory &h) const
  {
    return d > 0. ? spring_force(d, h) : 0.;
  }

  double
  ContactLaw::stored_energy(const double d, const NormalContactHistory &h) const
  {
    if (!(d > 0.))
      return 0.;
    // 8-point Gauss–Legendre on [0, d]: exact for polynomials of degree 15; for the
    // d^(3/2)-type springs of the catalogue the relative error is below 1e-5.
    static constexpr std::array<double, 4> x = {{0.1834346424956498, 0.5255324099163290,
                                                 0.7966664774136267, 0.9602898564975363}};
    static constexpr std::array<double, 4> w = {{0.3626837833783620, 0.3137066458778873,
                                                 0.2223810344533745, 0.1012285362903763}};
    double sum = 0.;
    for (unsigned int i = 0; i < 4; ++i)
      sum += w[i] * (spring_force(0.5 * d * (1. - x[i]), h) + spring_force(0.5 * d * (1. + x[i]), h));
    return 0.5 * d * sum;
  }

  double
  ContactLaw::stiffness(const double d, const double d_dot, const NormalContactHistory &h) const
  {
    if (!(d > 0.))
      return 0.;
    const double e = 1e-6 * d;
    return (force(d + e, d_dot, h) - force(d - e, d_dot, h)) / (2. * e);
  }

  double
  ContactLaw::damping_coefficient(const double d, const double d_dot,
                                  const NormalContactHistory &h) const
  {
    if (!(d > 0.))
      return 0.;
    const double e = 1e-6 * std::max(std::abs(d_dot), 1.);
    // one-sided on the side of d' so that the kink at d' = 0 is not straddled
    if (d_dot >= 0.)
      return (force(d, d_dot + e, h) - force(d, d_dot, h)) / e;
    return (force(d, d_dot, h) - force(d, d_dot - e, h)) / e;
  }

  NormalContactHistory
  ContactLaw::updated_history(const double d, const double d_dot, const double dt,
                              const NormalContactHistory &old) const
  {
    NormalContactHistory h = NormalContactLaw::updated_history(d, d_dot, dt, old);
    if (!h.active)
      return h;
    if (has_internal_variable() && old.active)
      h.internal_variable = old.internal_variable + dt * internal_variable_rate(d, d_dot, old);
    if (force_free_separation() && !h.released && d_dot < 0.)
      {
        NormalContactHistory probe = h;
        probe.released             = false;
        if (force(d, d_dot, probe) <= 0.)
          h.released = true;
      }
    return h;
  }

  // ---------------------------------------------------------------------------------------
  std::vector<LawParameter>
  LawInfo::all_parameters() const
  {
    std::vector<LawParameter> all = parameters;
    LawParameter              clamp;
    clamp.name          = clamp_flag;
    clamp.default_value = default_clamp_nonnegative ? 1. : 0.;
    clamp.flag          = true;
    clamp.doc = "true: F = max(0, F), no tension (docs/contact-law-catalogue.md §6; "
                "default: as the source).";
    LawParameter damping;
    damping.name          = damping_flag;
    damping.default_value = default_damping_in_decompression ? 1. : 0.;
    damping.flag          = true;
    damping.doc = "false: no damping while d' < 0 (docs/contact-law-catalogue.md §6; "
                  "default: as the source).";
    all.push_back(clamp);
    all.push_back(damping);
    return all;
  }

  LawValues
  LawInfo::default_values() const
  {
    LawValues v;
    for (const auto &p : all_parameters())
      v[p.name] = p.default_value;
    return v;
  }

  void
  require(const bool ok, const std::string &id, const std::string &what)
  {
    if (!ok)
      throw std::invalid_argument("contact law " + id + ": " + what);
  }

  double
  get(const LawInfo &info, const LawValues &values, const std::string &name)
  {
    if (const auto it = values.find(name); it != values.end())
      return it->second;
    for (const auto &p : info.all_parameters())
      if (p.name == name)
        return p.default_value;
    throw std::logic_error("contact law " + info.id + ": no parameter \"" + name + "\"");
  }

  std::string
  family(const LawInfo &law)
  {
    static const std::map<char, std::string> families = {
      {'A', "purely elastic"},
      {'B', "linear dashpot"},
      {'C', "empirical damping"},
      {'D', "Hunt–Crossley, explicit chi"},
      {'E', "Hunt–Crossley, exact chi"},
      {'F', "material viscosity"},
      {'G', "elastoplastic"},
      {'H', "other"}};
    const auto it = law.entry.empty() ? families.end() : families.find(law.entry[0]);
    if (it == families.end())
      throw std::invalid_argument("contact law " + law.id + ": catalogue entry \"" + law.entry +
                                  "\" is not in a family A-H");
    return it->second;
  }

  const LawInfo *
  find_law(const std::string &id)
  {
    for (const auto &l : registered_laws())
      if (l.id == id)
        return &l;
    return nullptr;
  }

  std::shared_ptr<const ContactLaw>
  make_law(const std::string &id, const LawValues &values, const ContactData &data)
  {
    const LawInfo *info = find_law(id);
    if (info == nullptr)
      {
        std::ostringstream m;
        m << "unknown contact law \"" << id << "\"; registered laws:";
        for (const auto &l : registered_laws())
          m << ' ' << l.id;
        throw std::invalid_argument(m.str());
      }
    LawValues merged = info->default_values();
    for (const auto &[name, v] : values)
      {
        if (merged.count(name) == 0)
          throw std::invalid_argument("contact law " + id + ": no parameter \"" + name + "\"");
        merged[name] = v;
      }
    for (const auto &p : info->all_parameters())
      {
        const double v = merged.at(p.name);
        std::ostringstream range;
        if (p.flag)
          {
            if (v != 0. && v != 1.)
              throw std::invalid_argument("contact law " + id + ", \"" + p.name +
                                          "\": a flag must be true or false");
            continue;
          }
        const bool below = p.lower_open ? !(v > p.lower) : !(v >= p.lower);
        if (!std::isfinite(v) || below || !(v <= p.upper))
          {
            range << "contact law " << id << ", \"" << p.name << "\" = " << v
                  << ": must be finite and " << (p.lower_open ? "> " : ">= ") << p.lower;
            if (std::isfinite(p.upper))
              range << " and <= " << p.upper;
            throw std::invalid_argument(range.str());
          }
      }
    for (const Needs n : info->needs)
      {
        const double v = value(data, n);
        if (!std::isfinite(v))
          throw std::invalid_argument(
            "contact law " + id + " needs " + describe(n) +
            (std::isnan(v) ? ", which this contact does not define" : ", which is not finite"));
      }
    return info->create(merged, data);
  }
} // namespace granular::contact::laws
