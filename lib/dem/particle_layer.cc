// The particles of the cell: subsection "Particles". See particle_layer.h.
#include "dem/particle_layer.h"

#include "base/parameter_entries.h"
#include "base/parameter_error.h"
#include "dem/particle.h"
#include "dem/particle_parameters.h"
#include "geometry/superellipse_pair.h"

#include <deal.II/base/numbers.h>

#include <cmath>
#include <cstdlib>
#include <random>
#include <sstream>

namespace granular
{
  using dealii::Patterns::Integer;
  using dealii::Patterns::Selection;

  namespace
  {
    std::string trimmed(const std::string &s)
    {
      const auto first = s.find_first_not_of(" \t");
      if (first == std::string::npos)
        return "";
      return s.substr(first, s.find_last_not_of(" \t") - first + 1);
    }

    std::vector<std::string> split(const std::string &text, const char separator)
    {
      std::vector<std::string> parts;
      std::string              part;
      std::istringstream       in(text);
      while (std::getline(in, part, separator))
        parts.push_back(trimmed(part));
      if (!text.empty() && text.back() == separator)
        parts.push_back("");
      return parts;
    }

    double number(const std::string &text, const std::string &item)
    {
      char        *end = nullptr;
      const double v   = std::strtod(text.c_str(), &end);
      if (text.empty() || *end != '\0' || !std::isfinite(v))
        throw ParameterError("Particles/List", "item '" + item + "': '" + text +
                                                 "' is not a finite number");
      return v;
    }

    /// The List items: (shape text, x, rotation or NaN).
    struct ListItem
    {
      std::string shape;
      double      x        = 0.;
      double      rotation = std::nan("");
    };

    std::vector<ListItem> parse_list(const std::string &list, const double r0)
    {
      std::vector<ListItem> items;
      for (const std::string &item : split(list, ';'))
        {
          if (item.empty())
            throw ParameterError("Particles/List",
                                 "an empty item: items are 'shape @ x' or 'shape @ x @ "
                                 "rotation', separated by ';'");
          const std::vector<std::string> f = split(item, '@');
          if (f.size() < 2 || f.size() > 3)
            throw ParameterError("Particles/List",
                                 "item '" + item +
                                   "' is not 'shape @ x' or 'shape @ x @ rotation'");
          ListItem it;
          it.shape = f[0];
          try
            {
              geometry::SuperellipseShape::from_text(f[0], r0);
            }
          catch (const std::invalid_argument &e)
            {
              throw ParameterError("Particles/List", e.what());
            }
          it.x = number(f[1], item);
          if (f.size() == 3)
            it.rotation = number(f[2], item);
          items.push_back(it);
        }
      return items;
    }

    std::vector<std::string> mixture_shapes(const std::string &mixture)
    {
      std::vector<std::string> shapes;
      for (const std::string &s : split(mixture, ','))
        shapes.push_back(s);
      return shapes;
    }

    /// Whether resting particles @p a and @p b (or an image of b, or b = a's own image)
    /// overlap or touch in the cell of length @p L0.
    bool touches(const ParticlePlacement &a, const ParticlePlacement &b, const bool same,
                 const double L0, const double flat_side_radius)
    {
      const geometry::Superellipse sa(a.shape), sb(b.shape);
      // 0: the exact surfaces (the staggered scheme's)
      const geometry::Superellipse::FlatSideRounding
        ra = flat_side_radius > 0. ? sa.flat_side_rounding(flat_side_radius) :
                                     geometry::Superellipse::FlatSideRounding{},
        rb = flat_side_radius > 0. ? sb.flat_side_rounding(flat_side_radius) :
                                     geometry::Superellipse::FlatSideRounding{};
      const auto ca = dem::Particle::initial_state_resting(a.shape, a.rotation, a.x,
                                                           flat_side_radius),
                 cb = dem::Particle::initial_state_resting(b.shape, b.rotation, b.x,
                                                           flat_side_radius);
      const double reach = a.shape.half_width_bound() + b.shape.half_width_bound();
      for (int k = -2; k <= 2; ++k)
        {
          if (same && k == 0)
            continue;
          dealii::Tensor<1, 2> c_b = cb.centre;
          c_b[0] += k * L0;
          if ((c_b - ca.centre).norm() > reach)
            continue;
          const geometry::PairOverlap o =
            geometry::pair_overlap(sa, ra, ca.centre, a.rotation, sb, rb, c_b, b.rotation);
          if (o.depth >= 0.)
            return true;
        }
      return false;
    }
  } // namespace

  void ParticleLayerParameters::entries(ParameterEntries &e)
  {
    e.subsection("Particles", [&] {
      e.entry(list, "List", "",
              "The particles of the cell, each 'shape @ x' or 'shape @ x @ rotation', "
              "separated by ';': shape a name of Particle/Shape (with Particle/Reference "
              "radius) or r1:r2:p1:p2 in mm, x the centre abscissa in mm (taken into [0, L0)), "
              "rotation theta0 in rad (default Particle/Initial rotation). Every particle "
              "starts at rest on the surface. Empty: the generated layer of the entries "
              "below.");
      e.entry(number, "Number", "1", Integer(1),
              "N, the particles of the generated layer (List empty); 1 with Placement = "
              "equally spaced: the single particle of subsection Particle at x = L0/2.");
      e.entry(mixture, "Mixture", "",
              "Shapes of the generated layer, separated by ',' and cycled over the "
              "particles (e.g. 'circular, elliptical'); each a name or r1:r2:p1:p2. Empty: "
              "Particle/Shape for all.");
      e.entry(placement, "Placement", "equally spaced", Selection("equally spaced|random"),
              "Generated layer: 'equally spaced' puts particle i at x = (i + 1/2) L0 / N with "
              "Particle/Initial rotation; 'random' draws x and theta uniformly (seeded by "
              "Seed), rejecting draws that touch a particle placed before.");
      e.entry(seed, "Seed", "1", Integer(0),
              "Seed of Placement = random: the same seed gives the same layer.");
    });
  }

  void ParticleLayerParameters::validate() const
  {
    if (!trimmed(list).empty())
      parse_list(list, 1.);
    if (!(number >= 1 && number <= 64))
      throw ParameterError("Particles/Number", "must be between 1 and 64");
    if (!trimmed(mixture).empty())
      for (const std::string &s : mixture_shapes(mixture))
        try
          {
            geometry::SuperellipseShape::from_text(s, 1.);
          }
        catch (const std::invalid_argument &e)
          {
            throw ParameterError("Particles/Mixture", e.what());
          }
  }

  unsigned int ParticleLayerParameters::n_particles() const
  {
    if (!trimmed(list).empty())
      return static_cast<unsigned int>(split(list, ';').size());
    return number;
  }

  std::vector<ParticlePlacement>
  ParticleLayerParameters::placements(const ParticleParameters &particle,
                                      const double              L0,
                                      const double              flat_side_radius) const
  {
    const double                   r0 = particle.reference_radius;
    std::vector<ParticlePlacement> placed;
    const bool                     from_list = !trimmed(list).empty();
    const std::string entry = from_list ? "Particles/List" : "Particles/Number";
    auto check_new = [&](const ParticlePlacement &p) {
      if (touches(p, p, true, L0, flat_side_radius))
        return false;
      for (const ParticlePlacement &q : placed)
        if (touches(q, p, false, L0, flat_side_radius))
          return false;
      return true;
    };
    if (from_list)
      {
        for (const ListItem &item : parse_list(list, r0))
          {
            ParticlePlacement p;
            p.shape_text = item.shape;
            p.shape      = item.shape == particle.shape_name ?
                             particle.shape() :
                             geometry::SuperellipseShape::from_text(item.shape, r0);
            p.x          = item.x - L0 * std::floor(item.x / L0);
            p.rotation   = std::isnan(item.rotation) ? particle.initial_rotation : item.rotation;
            if (!check_new(p))
              {
                std::ostringstream m;
                m << "particle " << placed.size() << " ('" << item.shape << " @ " << item.x
                  << "') touches another particle or a periodic image at rest on the surface "
                     "(cell length "
                  << L0 << " mm); move it or rotate it";
                throw ParameterError(entry, m.str());
              }
            placed.push_back(p);
          }
        return placed;
      }
    std::vector<std::string> shapes = mixture_shapes(mixture);
    if (trimmed(mixture).empty())
      shapes = {particle.shape_name};
    std::mt19937 generator(seed);
    // uniform in [0, 1) from 32 random bits (the same on every standard library)
    auto uniform = [&generator] { return generator() * (1. / 4294967296.); };
    for (unsigned int i = 0; i < number; ++i)
      {
        ParticlePlacement p;
        p.shape_text = shapes[i % shapes.size()];
        p.shape      = p.shape_text == particle.shape_name ?
                         particle.shape() :
                         geometry::SuperellipseShape::from_text(p.shape_text, r0);
        if (placement == "random")
          {
            bool found = false;
            for (unsigned int draw = 0; draw < 10000 && !found; ++draw)
              {
                p.x        = L0 * uniform();
                p.rotation = dealii::numbers::PI * uniform();
                found      = check_new(p);
              }
            if (!found)
              {
                std::ostringstream m;
                m << "no room for particle " << i << " (" << p.shape_text << ") after 10000 "
                  << "random draws in the cell of length " << L0
                  << " mm: take fewer or smaller particles";
                throw ParameterError(entry, m.str());
              }
          }
        else
          {
            p.x        = (i + 0.5) * L0 / number;
            p.rotation = particle.initial_rotation;
            if (!check_new(p))
              {
                std::ostringstream m;
                m << number << " particles equally spaced by " << L0 / number
                  << " mm in the cell touch each other at rest (particle " << i << ", "
                  << p.shape_text << ", rotation " << p.rotation
                  << " rad): take fewer particles, or Placement = random";
                throw ParameterError(entry, m.str());
              }
          }
        placed.push_back(p);
      }
    return placed;
  }
} // namespace granular
