#include "material/material_point_io.h"

#include "base/csv_fields.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace granular::material
{
  std::vector<material::DeformationPoint> read_deformation_history(const std::string &path)
  {
    std::error_code ec;
    if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
      throw std::invalid_argument("the deformation history " + path +
                                  " is not a regular file (a FIFO, a device or a directory)");
    std::ifstream in(path);
    if (!in)
      throw std::invalid_argument("cannot open the deformation history " + path);
    std::string line;
    std::getline(in, line);
    if (line.rfind("t,F11,F12,F21,F22", 0) != 0)
      throw std::invalid_argument(path + ", line 1: expected the header t,F11,F12,F21,F22");
    std::vector<material::DeformationPoint> path_points;
    for (unsigned int n = 2; std::getline(in, line); ++n)
      {
        if (line.empty())
          continue;
        std::vector<double> v;
        for (const std::string &cell : csv_fields(line))
          {
            // the whole cell is the number (only blanks and a line end around it): 1.1abc is
            // a mistake, not 1.1; inf and nan are no deformation either
            std::size_t used  = 0;
            double      value = 0.;
            try
              {
                value = std::stod(cell, &used);
              }
            catch (const std::exception &)
              {
                used = 0;
              }
            if (used == 0 || cell.find_first_not_of(" \t\r", used) != std::string::npos ||
                !std::isfinite(value))
              throw std::invalid_argument(path + ", line " + std::to_string(n) +
                                          ": not a finite number: '" + cell + "'");
            v.push_back(value);
          }
        if (v.size() != 5)
          throw std::invalid_argument(path + ", line " + std::to_string(n) +
                                   ": expected 5 values t,F11,F12,F21,F22");
        material::DeformationPoint p;
        p.t       = v[0];
        p.F[0][0] = v[1];
        p.F[0][1] = v[2];
        p.F[1][0] = v[3];
        p.F[1][1] = v[4];
        const double det_F = p.F[0][0] * p.F[1][1] - p.F[0][1] * p.F[1][0];
        if (!(std::isfinite(det_F) && det_F > 0.))
          {
            std::ostringstream m;
            m << path << ", line " << n << ": det F = F11 F22 - F12 F21 = " << det_F
              << " must be > 0 (the deformation gradient of a material point cannot "
                 "invert it or collapse it to zero volume)";
            throw std::invalid_argument(m.str());
          }
        if (!path_points.empty() && !(p.t > path_points.back().t))
          throw std::invalid_argument(path + ", line " + std::to_string(n) +
                                   ": times must increase");
        path_points.push_back(p);
      }
    if (path_points.empty())
      throw std::invalid_argument(path + ": no deformation points");
    return path_points;
  }

  std::string stress_history_csv(const std::vector<material::StressRecord> &records)
  {
    std::ostringstream o;
    o << "t,F11,F12,F21,F22,sigma_xx,sigma_yy,sigma_xy,sigma_zz,tau_v_xx,tau_v_yy,"
         "tau_v_xy,payne_q,viscous_dissipation,energy_elastic,energy_viscous\n";
    o << std::setprecision(12);
    for (const auto &r : records)
      o << r.t << ',' << r.F[0][0] << ',' << r.F[0][1] << ',' << r.F[1][0] << ','
        << r.F[1][1] << ',' << r.cauchy[0][0] << ',' << r.cauchy[1][1] << ','
        << r.cauchy[0][1] << ',' << r.cauchy[2][2] << ',' << r.kirchhoff_viscous[0][0]
        << ',' << r.kirchhoff_viscous[1][1] << ',' << r.kirchhoff_viscous[0][1] << ','
        << r.state.q << ',' << r.state.dissipation << ',' << r.energy_elastic << ','
        << r.energy_viscous << '\n';
    return o.str();
  }
} // namespace granular::material
