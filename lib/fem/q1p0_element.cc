#include "fem/q1p0_element.h"

#include "base/boundary_obstacle.h"

#include <deal.II/base/tensor.h>

#include <stdexcept>
#include <string>

namespace granular::fem
{
  using namespace dealii;
  using q1p0::dofs_per_cell;
  using q1p0::n_q;
  using q1p0::nodes_per_cell;

  namespace
  {
    const Tensor<2, 2> identity({{1., 0.}, {0., 1.}});
  } // namespace

  CellReferenceData cell_reference_data(const FEValues<2>                          &fe_values,
                                        const std::vector<types::global_dof_index> &local,
                                        const double                                density)
  {
    const FiniteElement<2> &fe = fe_values.get_fe();
    CellReferenceData       d{};
    d.area = 0.;
    for (unsigned int k = 0; k < dofs_per_cell; ++k)
      {
        d.dofs[k]      = local[k];
        d.component[k] = fe.system_to_component_index(k).first;
        d.node[k]      = fe.system_to_component_index(k).second;
      }
    for (unsigned int q = 0; q < n_q; ++q)
      {
        d.JxW[q] = fe_values.JxW(q);
        d.area += d.JxW[q];
        for (unsigned int k = 0; k < dofs_per_cell; ++k)
          if (d.component[k] == 0)
            {
              d.grad[q][d.node[k]] = fe_values.shape_grad_component(k, q, 0);
              d.lumped_mass[d.node[k]] +=
                density * fe_values.shape_value_component(k, q, 0) * d.JxW[q];
            }
      }
    return d;
  }

  Tensor<2, 2> deformation_gradient(const CellReferenceData &d, unsigned int q,
                                    const Vector<double> &u)
  {
    Tensor<2, 2> F = identity;
    for (unsigned int k = 0; k < dofs_per_cell; ++k)
      F[d.component[k]] += u[d.dofs[k]] * d.grad[q][d.node[k]];
    return F;
  }

  void q1p0_cell_response(const CellReferenceData &d, const Vector<double> &u,
                          const Vector<double> &u_n, const double h,
                          const Q1P0Materials &materials, MaxwellPointHistory *history,
                          const bool with_matrix, Q1P0CellResponse &out)
  {
    FullMatrix<double> &k_cell = out.tangent;
    Vector<double>     &r_cell = out.residual;
    std::array<double, dofs_per_cell>                         B;
    material::OgdenMaterial::Response                         m;
    std::array<std::array<Tensor<1, 2>, nodes_per_cell>, n_q> g; // spatial gradients
    std::array<double, n_q>                                   Jq;

    k_cell = 0.;
    r_cell = 0.;
    B.fill(0.);
    double current_area = 0.;
    for (unsigned int q = 0; q < n_q; ++q)
      {
        const Tensor<2, 2> F = deformation_gradient(d, q, u);
        const double       J = determinant(F);
        if (!(J > 0.))
          throw NewtonFailure("an element inverted (det F <= 0)");
        Jq[q] = J;
        const Tensor<2, 2> F_inv = invert(F);
        for (unsigned int a = 0; a < nodes_per_cell; ++a)
          g[q][a] = d.grad[q][a] * F_inv;
        materials.ogden.evaluate(F, m, with_matrix);
        if (history != nullptr)
          {
            // Maxwell branch in parallel (docs/methods.md §3.3): stress and algorithmic tangent
            MaxwellPointHistory            &point = history[q];
            material::MaxwellBranch::Result v;
            try
              {
                v = materials.maxwell.update(point.converged, deformation_gradient(d, q, u_n), F,
                                             h, with_matrix);
              }
            catch (const std::domain_error &x)
              {
                // a trial iterate far off the solution (e.g. an element compressed
                // to a sliver): rejected like an inverted element, so that the line
                // search backtracks or the step is cut back
                throw NewtonFailure(std::string("Maxwell branch: ") + x.what());
              }
            catch (const std::runtime_error &x)
              {
                throw NewtonFailure(std::string("Maxwell branch: ") + x.what());
              }
            m.first_piola += v.first_piola;
            if (with_matrix)
              m.tangent += v.tangent;
            point.trial                 = v.state;
            point.energy_trial          = v.energy * d.JxW[q];
            point.dissipation_increment = v.dissipation_increment * d.JxW[q];
          }
        current_area += J * d.JxW[q];
        for (unsigned int i = 0; i < dofs_per_cell; ++i)
          {
            const unsigned int c = d.component[i], a = d.node[i];
            r_cell(i) += (m.first_piola[c] * d.grad[q][a]) * d.JxW[q];
            B[i] += J * g[q][a][c] * d.JxW[q];
            if (!with_matrix)
              continue;
            // Grad N_a . A[c][.][c2][.]: reused for every j of component c2
            Tensor<1, 2> GA[2];
            for (unsigned int c2 = 0; c2 < 2; ++c2)
              for (unsigned int L = 0; L < 2; ++L)
                GA[c2][L] = d.grad[q][a][0] * m.tangent[c][0][c2][L] +
                            d.grad[q][a][1] * m.tangent[c][1][c2][L];
            // the hyperelastic tangent has major symmetry: upper triangle only
            for (unsigned int j = i; j < dofs_per_cell; ++j)
              k_cell(i, j) += (GA[d.component[j]] * d.grad[q][d.node[j]]) * d.JxW[q];
          }
      }
    // volumetric part: V_e U(v_e / V_e)
    const double Jt = current_area / d.area;
    const double p  = materials.volumetric.dU(Jt);
    out.pressure    = p;
    out.dilatation  = Jt;
    for (unsigned int i = 0; i < dofs_per_cell; ++i)
      r_cell(i) += p * B[i];
    if (with_matrix)
      {
        const double kv = materials.volumetric.d2U(Jt) / d.area;
        // symmetric in (i, j): upper triangle, then mirror the whole cell matrix
        for (unsigned int i = 0; i < dofs_per_cell; ++i)
          for (unsigned int j = i; j < dofs_per_cell; ++j)
            {
              const unsigned int c = d.component[i], a = d.node[i];
              const unsigned int c2 = d.component[j], b = d.node[j];
              double             geometric = 0.;
              for (unsigned int q = 0; q < n_q; ++q)
                geometric += Jq[q] * (g[q][a][c] * g[q][b][c2] - g[q][a][c2] * g[q][b][c]) *
                     d.JxW[q];
              k_cell(i, j) += p * geometric + kv * B[i] * B[j];
            }
        for (unsigned int i = 0; i < dofs_per_cell; ++i)
          for (unsigned int j = 0; j < i; ++j)
            k_cell(i, j) = k_cell(j, i);
      }
  }
} // namespace granular::fem
