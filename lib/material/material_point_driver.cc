// granular-interface — homogeneous-deformation material-point driver (docs/methods.md §3.2–§3.4).
#include "material/material_point_driver.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace granular::material
{

  std::vector<StressRecord>
  drive_material_point(const OgdenMaterial                 &elastic,
                       const MaxwellBranch                 &branch,
                       const std::vector<DeformationPoint> &path,
                       const MaxwellState                  &initial)
  {
    if (path.empty())
      throw std::invalid_argument("drive_material_point: empty deformation path");
    std::vector<StressRecord> out;
    out.reserve(path.size());
    MaxwellState          state = initial;
    OgdenMaterial::Response er;
    for (std::size_t i = 0; i < path.size(); ++i)
      {
        StressRecord rec;
        rec.t = path[i].t;
        rec.F = path[i].F;
        MaxwellBranch::Result vr;
        if (i == 0)
          vr = branch.frozen_response(state, path[0].F, false);
        else
          {
            const double dt = path[i].t - path[i - 1].t;
            if (!(dt > 0.0) || !std::isfinite(dt))
              throw std::invalid_argument(
                "drive_material_point: times must strictly increase (point " +
                std::to_string(i) + ", dt = " + std::to_string(dt) + " s)");
            vr = branch.update(state, path[i - 1].F, path[i].F, dt,
                               /*compute_tangent=*/false);
          }
        elastic.evaluate(path[i].F, er);
        state                     = vr.state;
        rec.state                 = state;
        rec.kirchhoff_elastic     = er.kirchhoff;
        rec.kirchhoff_viscous     = vr.kirchhoff;
        rec.kirchhoff             = er.kirchhoff + vr.kirchhoff;
        rec.cauchy                = rec.kirchhoff / dealii::determinant(path[i].F);
        rec.dissipation_increment = vr.dissipation_increment;
        rec.energy_elastic        = er.energy;
        rec.energy_viscous        = vr.energy;
        out.push_back(rec);
      }
    return out;
  }

} // namespace granular::material
