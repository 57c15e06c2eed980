// RubberBlock's post-processing of the committed state (rubber_block.h): energies, cell
// stresses and pressures, and the ParaView output.
#include "fem/rubber_block.h"

#include "fem/rubber_block_impl.h"

#include "contact/normal_penalty.h"

#include "base/atomic_file.h"

#include <deal.II/dofs/dof_tools.h>
#include <deal.II/fe/component_mask.h>
#include <deal.II/fe/mapping_q1.h>
#include <deal.II/fe/mapping_q_eulerian.h>
#include <deal.II/numerics/data_out.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>

namespace granular::fem
{
  using namespace dealii;
  using q1p0::dofs_per_cell;
  using q1p0::n_q;

  BlockEnergies RubberBlock::energies() const
  {
    BlockEnergies e;
    const Impl   &m = *impl;
    material::OgdenMaterial::Response r;
    for (unsigned int c = 0; c < m.cells.size(); ++c)
      {
        const CellReferenceData &d    = m.cells[c];
        double          area = 0.;
        for (unsigned int q = 0; q < n_q; ++q)
          {
            const Tensor<2, 2> F = deformation_gradient(d, q, m.u_n);
            e.stored += m.ogden.energy(F) * d.JxW[q];
            area += determinant(F) * d.JxW[q];
          }
        e.stored += d.area * m.volumetric.U(area / d.area);
        for (unsigned int k = 0; k < dofs_per_cell; ++k)
          e.kinetic += 0.5 * d.lumped_mass[d.node[k]] * m.v_n[d.dofs[k]] * m.v_n[d.dofs[k]];
      }
    for (unsigned int i = 0; i < m.contact_points.size(); ++i)
      {
        const Tensor<1, 2> x = m.point_position(i, m.u_n);
        if (x[1] < 0.)
          {
            const double w = m.contact_points[i].weight;
            e.surface_springs +=
              w * contact::normal_penalty(x[1], m.surface.normal_penalty,
                                          m.surface.regularisation_width)
                    .energy;
            const double gt = x[0] - m.surface_history[i].anchor;
            e.surface_springs += 0.5 * w * m.surface.tangential_penalty * gt * gt;
          }
      }
    e.surface_friction_dissipation = m.friction_dissipation;
    e.numerical_dissipation        = m.numerical_dissipation;
    e.velocity_update_dissipation  = m.velocity_update_dissipation;
    e.velocity_update_particle_work = m.velocity_update_particle_work;
    for (const MaxwellPointHistory &h : m.history.all())
      e.stored += h.energy_converged;
    e.viscous_dissipation = m.viscous_dissipation;
    return e;
  }

  std::vector<std::array<double, 4>> RubberBlock::cell_cauchy_stress() const
  {
    const Impl &m = *impl;
    std::vector<std::array<double, 4>> sigma(m.cells.size());
    material::OgdenMaterial::Response  r;
    for (unsigned int c = 0; c < m.cells.size(); ++c)
      {
        const CellReferenceData &d = m.cells[c];
        double          area = 0., Jt_area = 0.;
        std::array<double, 4> s{};
        for (unsigned int q = 0; q < n_q; ++q)
          {
            const Tensor<2, 2> F = deformation_gradient(d, q, m.u_n);
            m.ogden.evaluate(F, r);
            if (m.maxwell.active())
              r.kirchhoff +=
                m.maxwell.frozen_response(m.history.cell(c)[q].converged, F, false).kirchhoff;
            const double J = determinant(F);
            // Cauchy sigma = tau_iso / J + p~ I, averaged over the current cell area
            const double w = J * d.JxW[q];
            s[0] += r.kirchhoff[0][0] / J * w;
            s[1] += r.kirchhoff[1][1] / J * w;
            s[2] += r.kirchhoff[0][1] / J * w;
            s[3] += r.kirchhoff[2][2] / J * w;
            area += w;
            Jt_area += d.JxW[q];
          }
        const double Jt = area / Jt_area;
        const double p  = m.volumetric.dU(Jt);
        for (unsigned int k = 0; k < 4; ++k)
          sigma[c][k] = s[k] / area + (k == 2 ? 0. : p);
      }
    return sigma;
  }

  bool RubberBlock::viscoelastic() const
  {
    return impl->maxwell.active();
  }

  BoundaryLayerRates RubberBlock::boundary_layer_rates() const
  {
    const Impl        &m = *impl;
    BoundaryLayerRates out;
    if (!m.maxwell.active() || m.bottom_cells.empty())
      return out;
    std::vector<double> rates, q;
    rates.reserve(m.bottom_cells.size() * n_q);
    q.reserve(m.bottom_cells.size() * n_q);
    for (const unsigned int c : m.bottom_cells)
      for (unsigned int k = 0; k < n_q; ++k)
        {
          rates.push_back(m.history.cell(c)[k].converged.rate_of_deformation);
          q.push_back(m.history.cell(c)[k].converged.q);
        }
    // nearest-rank percentile: the smallest value with at least a fraction f at or below
    const auto percentile = [](std::vector<double> &x, const double f) {
      const std::size_t rank =
        std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(f * x.size())));
      std::nth_element(x.begin(), x.begin() + (rank - 1), x.end());
      return x[rank - 1];
    };
    const double d = m.maxwell.payne_d();
    out.rate_max   = *std::max_element(rates.begin(), rates.end());
    out.rate_p99   = percentile(rates, 0.99);
    out.rate_p50   = percentile(rates, 0.50);
    out.payne_factor_max = 1. + d * *std::max_element(q.begin(), q.end());
    out.payne_factor_p99 = 1. + d * percentile(q, 0.99);
    out.payne_factor_p50 = 1. + d * percentile(q, 0.50);
    return out;
  }

  std::vector<double> RubberBlock::cell_pressure() const
  {
    const Impl         &m = *impl;
    std::vector<double> p(m.cells.size());
    for (unsigned int c = 0; c < m.cells.size(); ++c)
      {
        const CellReferenceData &d    = m.cells[c];
        double          area = 0.;
        for (unsigned int q = 0; q < n_q; ++q)
          {
            const Tensor<2, 2> F = deformation_gradient(d, q, m.u_n);
            area += determinant(F) * d.JxW[q];
          }
        p[c] = m.volumetric.dU(area / d.area);
      }
    return p;
  }

  std::array<double, 2> RubberBlock::deformed_x_range() const
  {
    const Impl            &m = *impl;
    std::vector<Point<2>> X(m.dof_handler.n_dofs());
    DoFTools::map_dofs_to_support_points(MappingQ1<2>(), m.dof_handler, X);
    const IndexSet x_dofs = DoFTools::extract_dofs(m.dof_handler, ComponentMask(std::vector<bool>{true, false}));
    std::array<double, 2> range{{std::numeric_limits<double>::max(),
                                 -std::numeric_limits<double>::max()}};
    for (const auto i : x_dofs)
      {
        const double x = X[i][0] + m.u_n[i];
        range[0] = std::min(range[0], x), range[1] = std::max(range[1], x);
      }
    return range;
  }

  std::string RubberBlock::write_vtu(const std::string &directory, unsigned int index) const
  {
    const Impl &m = *impl;
    std::ostringstream name;
    name << "solution-" << std::setw(5) << std::setfill('0') << index << ".vtu";

    const auto sigma = cell_cauchy_stress();
    const unsigned int n = m.cells.size();
    Vector<double> p(n), sxx(n), syy(n), sxy(n), szz(n), s1(n), s2(n), mises(n);
    const auto pressure = cell_pressure();
    for (unsigned int c = 0; c < n; ++c)
      {
        const auto &s = sigma[c];
        p[c] = pressure[c];
        sxx[c] = s[0]; syy[c] = s[1]; sxy[c] = s[2]; szz[c] = s[3];
        const double mean = 0.5 * (s[0] + s[1]);
        const double rad  = std::sqrt(0.25 * (s[0] - s[1]) * (s[0] - s[1]) + s[2] * s[2]);
        s1[c] = mean + rad;
        s2[c] = mean - rad;
        mises[c] = std::sqrt(0.5 * ((s[0] - s[1]) * (s[0] - s[1]) +
                                    (s[1] - s[3]) * (s[1] - s[3]) +
                                    (s[3] - s[0]) * (s[3] - s[0])) +
                             3. * s[2] * s[2]);
      }
    // Maxwell branch: accumulated viscous dissipation density (MPa = N mm/mm^3) and the
    // Payne variable q (1/s), cell averages of the converged quadrature-point history
    // and the rate of deformation ||D|| (1/s) of the last step that drove q
    Vector<double> viscous(n), payne_q(n), rate(n);
    if (m.maxwell.active())
      for (unsigned int c = 0; c < n; ++c)
        for (unsigned int q = 0; q < n_q; ++q)
          {
            viscous[c] += m.history.cell(c)[q].converged.dissipation / n_q;
            payne_q[c] += m.history.cell(c)[q].converged.q / n_q;
            rate[c] += m.history.cell(c)[q].converged.rate_of_deformation / n_q;
          }
    DataOut<2> data_out;
    data_out.attach_dof_handler(m.dof_handler);
    data_out.add_data_vector(viscous, "viscous_dissipation_density",
                             DataOut<2>::type_cell_data);
    data_out.add_data_vector(payne_q, "payne_q", DataOut<2>::type_cell_data);
    data_out.add_data_vector(rate, "rate_of_deformation", DataOut<2>::type_cell_data);
    const std::vector<DataComponentInterpretation::DataComponentInterpretation>
      vector_interp(2, DataComponentInterpretation::component_is_part_of_vector);
    // the mesh is written in its deformed shape (MappingQEulerian below): the displacement
    // is two scalars, not a vector, so that ParaView's Warp By Vector cannot move the
    // block a second time
    data_out.add_data_vector(m.u_n, std::vector<std::string>{"displacement_x", "displacement_y"},
                             DataOut<2>::type_dof_data);
    data_out.add_data_vector(m.v_n, std::vector<std::string>(2, "velocity"),
                             DataOut<2>::type_dof_data, vector_interp);
    // tr(sigma)/3 of the Cauchy stress: negative in compression
    data_out.add_data_vector(p, "mean_stress", DataOut<2>::type_cell_data);
    data_out.add_data_vector(sxx, "cauchy_stress_xx", DataOut<2>::type_cell_data);
    data_out.add_data_vector(syy, "cauchy_stress_yy", DataOut<2>::type_cell_data);
    data_out.add_data_vector(sxy, "cauchy_stress_xy", DataOut<2>::type_cell_data);
    data_out.add_data_vector(szz, "cauchy_stress_zz", DataOut<2>::type_cell_data);
    data_out.add_data_vector(s1, "principal_stress_1", DataOut<2>::type_cell_data);
    data_out.add_data_vector(s2, "principal_stress_2", DataOut<2>::type_cell_data);
    data_out.add_data_vector(mises, "von_mises_stress", DataOut<2>::type_cell_data);
    MappingQEulerian<2, Vector<double>> mapping(1, m.dof_handler, m.u_n);
    data_out.build_patches(mapping, 1);
    // no date in the header: the same state gives the same file
    DataOutBase::VtkFlags flags;
    flags.print_date_and_time = false;
    data_out.set_flags(flags);
    std::ostringstream vtu;
    data_out.write_vtu(vtu);
    write_file_atomically(directory + "/" + name.str(), vtu.str());
    return name.str();
  }
} // namespace granular::fem
