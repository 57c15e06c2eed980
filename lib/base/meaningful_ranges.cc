// The meaningful ranges of the physical magnitudes. See meaningful_ranges.h.
#include "base/meaningful_ranges.h"

#include "base/parameter_error.h"

#include <map>
#include <sstream>

namespace granular
{
  namespace
  {
    /// The ranges, each many orders of magnitude around the default (in brackets).
    const std::map<std::string, MeaningfulRange> &ranges()
    {
      static const std::map<std::string, MeaningfulRange> table = {
        // the cell: L0 (10 mm), H0 (7.5 mm)
        {"Geometry/Block length", {1e-3, 1e4, "mm"}},
        {"Geometry/Block height", {1e-3, 1e4, "mm"}},
        // narrowed where the reduced cell's runs with the four shapes fail at the next decade
        // (docs/running.md#meaningful-ranges): the gap at 10 mm
        {"Geometry/Initial gap", {0., 1., "mm"}},
        // p (2 MPa): from a light touch to a thousand times the rubber's modulus
        // (narrowed: at 100 MPa the balance of the ellipse and the circle fails)
        {"Loading/Pressure", {1e-6, 10., "MPa"}},
        // v_F (2500 mm/s): from creep to above the rubber's wave speeds
        {"Loading/Slip velocity", {1e-6, 1e7, "mm/s"}},
        // mu_e (1 MPa), rho_B / rho_P (1e-3), tau0 (1e-4 s)
        // kappa_e / mu_e (1000), mu_v / mu_e (5), Payne d (0 s: off), lambda / tau0 (0.1)
        {"Rubber/Shear modulus", {1e-6, 1e6, "MPa"}},
        {"Rubber/Bulk modulus ratio", {0.1, 1e8, ""}},
        {"Rubber/Density ratio", {1e-5, 1e3, ""}},
        {"Rubber/Maxwell branch/Shear modulus ratio", {1e-6, 1e6, ""}},
        {"Rubber/Maxwell branch/Relaxation time", {1e-12, 1e6, "s"}},
        {"Rubber/Maxwell branch/Payne parameter", {0., 1e5, "s"}},
        {"Rubber/Maxwell branch/Payne time constant ratio", {1e-6, 1e6, ""}},
        // r0 (0.5 mm), r1, r2; rho_P (3e-9 t/mm^3 = 3 g/cm^3)
        {"Particle/Reference radius", {1e-4, 1e3, "mm"}},
        {"Particle/Semi-axis r1", {1e-4, 1e3, "mm"}},
        {"Particle/Semi-axis r2", {1e-4, 1e3, "mm"}},
        {"Particle/Density", {3e-11, 1e-3, "t/mm^3"}},
        // g (9810 mm/s^2; 0: off): up to 1e5 times the earth's
        {"Particle/Gravity", {0., 1e9, "mm/s^2"}},
        // penalties and stiffnesses (1e5, 1e3); friction coefficients (0.5, 1.5), regularisation
        // widths (0 mm) and the damping c_N (3e-5 s): 0 allowed
        {"Contact/Rubber-surface/Normal penalty", {1e-3, 1e12, "MPa/mm"}},
        {"Contact/Rubber-surface/Tangential penalty", {1e-3, 1e11, "MPa/mm"}},
        {"Contact/Rubber-surface/Friction coefficient", {0., 100., ""}},
        {"Contact/Rubber-surface/Regularisation width", {0., 1e3, "mm"}},
        {"Contact/Rubber-particle/Normal penalty", {1e3, 1e7, "MPa/mm"}},
        {"Contact/Rubber-particle/Tangential penalty", {1e-3, 1e6, "MPa/mm"}},
        {"Contact/Rubber-particle/Friction coefficient", {0., 100., ""}},
        {"Contact/Rubber-particle/Regularisation width", {0., 10., "mm"}},
        {"Contact/Particle-surface/Normal stiffness", {1e-3, 1e7, "N/mm^(5/2) per mm"}},
        {"Contact/Particle-surface/Tangential stiffness", {1e-3, 1e7, "N/mm per mm"}},
        {"Contact/Particle-surface/Damping coefficient", {0., 0.03, "s"}},
        {"Contact/Particle-surface/Friction coefficient", {0., 100., ""}},
      };
      return table;
    }

    std::string number(const double x)
    {
      std::ostringstream o;
      o << x;
      return o.str();
    }
  } // namespace

  const MeaningfulRange *meaningful_range(const std::string &path)
  {
    const auto it = ranges().find(path);
    return it == ranges().end() ? nullptr : &it->second;
  }

  std::string meaningful_range_text(const MeaningfulRange &range)
  {
    const std::string unit = *range.unit ? std::string(" ") + range.unit : "";
    return "Meaningful range: " +
           (range.lower > 0. ? number(range.lower) + " to " : "at most ") + number(range.upper) +
           unit + ".";
  }

  void check_meaningful_range(const std::string &path, const MeaningfulRange &range,
                              const double value)
  {
    if (!(value > 0.) || (value >= range.lower && value <= range.upper))
      return;
    const std::string unit = *range.unit ? std::string(" ") + range.unit : "";
    throw ParameterError(path, "the value " + number(value) + unit +
                                 " is outside the meaningful range of this entry (" +
                                 (range.lower > 0. ? number(range.lower) + " to " :
                                                     "at most ") +
                                 number(range.upper) + unit +
                                 "; docs/parameters.md): beyond it lies nothing the program "
                                 "is made for, or runs were measured to fail "
                                 "(docs/running.md#meaningful-ranges)");
  }
} // namespace granular
