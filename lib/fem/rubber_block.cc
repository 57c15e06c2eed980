#include "fem/rubber_block.h"

#include "fem/block_mesh.h"
#include "fem/newmark.h"
#include "fem/rubber_block_impl.h"

#include "contact/approach_velocity_removal.h"
#include "contact/rubber_surface_contact.h"
#include "material/maxwell_branch.h"
#include "material/ogden_material.h"

#include <deal.II/base/multithread_info.h>
#include <deal.II/base/quadrature_lib.h>
#include <deal.II/base/timer.h>
#include <deal.II/base/parallel.h>
#include <deal.II/dofs/dof_handler.h>
#include <deal.II/dofs/dof_tools.h>
#include <deal.II/fe/fe_q.h>
#include <deal.II/fe/fe_system.h>
#include <deal.II/fe/fe_values.h>
#include <deal.II/fe/mapping_q.h>
#include <deal.II/grid/grid_generator.h>
#include <deal.II/grid/grid_in.h>
#include <deal.II/grid/grid_tools.h>
#include <deal.II/grid/tria.h>
#include <deal.II/lac/affine_constraints.h>
#include <deal.II/lac/dynamic_sparsity_pattern.h>
#include <deal.II/lac/full_matrix.h>
#include <deal.II/lac/sparse_matrix.h>
#include <deal.II/lac/sparsity_pattern.h>
#include <deal.II/lac/vector.h>

#include <atomic>
#include <cmath>
#include <exception>
#include <fstream>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <sstream>

namespace granular::fem
{
  using namespace dealii;

  namespace
  {
    /// Boundary ids of the block (GridGenerator colorize order; meshes/README).
    constexpr types::boundary_id left_id = 0, right_id = 1, bottom_id = 2, top_id = 3;

    using q1p0::dofs_per_cell;
    using q1p0::n_q;

    /// Limits deal.II to one thread while it lives, then restores the limit before it (for
    /// the set-up of the block, when nothing else runs in parallel).
    class OneThread
    {
    public:
      OneThread()
        : threads(MultithreadInfo::n_threads())
      {
        if (threads > 1)
          MultithreadInfo::set_thread_limit(1);
      }
      ~OneThread()
      {
        if (threads > 1)
          MultithreadInfo::set_thread_limit(threads);
      }
      OneThread(const OneThread &)            = delete;
      OneThread &operator=(const OneThread &) = delete;

    private:
      const unsigned int threads;
    };

  } // namespace

  RubberBlock::Impl::Impl(const BlockParameters &block, const RubberParameters &rubber,
                          const PenaltyContactParameters &surface,
                          const SolverParameters &solver, double density,
                          double bottom_height, double reference_force, bool verbose)
    : block(block)
    , surface(surface)
    , solver(solver)
    , ogden(rubber.shear_modulus, rubber.ogden_exponents, rubber.ogden_moduli)
    , maxwell(material::MaxwellBranch::from_parameters(rubber))
    , volumetric{rubber.bulk_modulus()}
    , density(density)
    , reference_force(reference_force)
    , verbose(verbose)
    , newton(solver, block.height, reference_force, verbose)
  {
    make_mesh(bottom_height);
    setup_system();
  }

  void RubberBlock::Impl::make_mesh(double bottom_height)
  {
    if (block.mesh_file.empty())
      {
        GridGenerator::subdivided_hyper_rectangle(
          triangulation, {block.n_x, block.n_y}, Point<2>(0., bottom_height),
          Point<2>(block.length, bottom_height + block.height), true);
        return;
      }
    read_block_mesh(block, triangulation); // checked already by BlockParameters::validate
    GridTools::shift(Tensor<1, 2>({0., bottom_height}), triangulation);
  }

  void RubberBlock::Impl::setup_system()
  {
    dof_handler.reinit(triangulation);
    dof_handler.distribute_dofs(fe);

    // --- top platen: u1 prescribed on all top nodes, u2 common (master dof) ---
    std::map<double, std::array<types::global_dof_index, 2>> top_nodes; // by x
    std::map<double, std::array<types::global_dof_index, 2>> left_nodes, right_nodes; // by y
    for (const auto &cell : dof_handler.active_cell_iterators())
      for (const unsigned int f : cell->face_indices())
        if (cell->face(f)->at_boundary())
          {
            const auto face = cell->face(f);
            auto *target = face->boundary_id() == top_id   ? &top_nodes :
                           face->boundary_id() == left_id  ? &left_nodes :
                           face->boundary_id() == right_id ? &right_nodes :
                                                             nullptr;
            if (target == nullptr)
              continue;
            for (unsigned int v = 0; v < 2; ++v)
              {
                const double key = face->boundary_id() == top_id ?
                                     face->vertex(v)[0] :
                                     face->vertex(v)[1];
                (*target)[std::round(key * 1e9) / 1e9] = {{face->vertex_dof_index(v, 0),
                                                           face->vertex_dof_index(v, 1)}};
              }
          }
    AssertThrow(!top_nodes.empty(), ExcMessage("the mesh has no top boundary"));
    constraints.clear();
    platen_dof = top_nodes.begin()->second[1];
    top_x_dofs.clear();
    top_y_dofs.clear();
    for (const auto &[x, d] : top_nodes)
      {
        top_x_dofs.push_back(d[0]);
        top_y_dofs.push_back(d[1]);
        constraints.add_line(d[0]);
        if (d[1] != platen_dof)
          {
            constraints.add_line(d[1]);
            constraints.add_entry(d[1], platen_dof, 1.);
          }
      }
    // --- periodicity u(0, y) = u(L0, y), matched by height ---
    if (left_nodes.size() != right_nodes.size())
      throw std::runtime_error("left and right boundaries have different numbers of "
                               "nodes: the mesh is not periodic");
    periodic_vertices.clear();
    for (auto l = left_nodes.begin(), r = right_nodes.begin(); l != left_nodes.end();
         ++l, ++r)
      {
        if (std::abs(l->first - r->first) > 1e-8 * block.height)
          throw std::runtime_error("left and right boundary nodes do not match in "
                                   "height: the mesh is not periodic");
        periodic_vertices.emplace_back(l->second, r->second);
        for (unsigned int c = 0; c < 2; ++c)
          if (!constraints.is_constrained(r->second[c]))
            {
              constraints.add_line(r->second[c]);
              constraints.add_entry(r->second[c], l->second[c], 1.);
            }
      }
    constraints.close();

    // --- reference data of every cell ---
    // computed as on one thread, whatever the program's --threads: deal.II's FEValues
    // reuses the data of the previous cell for a cell that is a translation of it (every cell
    // of a rectangle's mesh) only on one thread and recomputes them on more, which changes
    // their last bits and so every result of the run
    {
      const OneThread one_thread;
      QGauss<2>       quadrature(2);
      FEValues<2>     fe_values(fe, quadrature,
                                update_values | update_gradients | update_JxW_values);
      cells.clear();
      std::vector<types::global_dof_index> local(dofs_per_cell);
      for (const auto &cell : dof_handler.active_cell_iterators())
        {
          fe_values.reinit(cell);
          cell->get_dof_indices(local);
          cells.push_back(cell_reference_data(fe_values, local, density));
        }
    }

    // --- contact Gauss points: 2 per bottom face ---
    contact_points.clear();
    contact_data.clear();
    bottom_cells.clear();
    const double xi[2] = {-1. / std::sqrt(3.), 1. / std::sqrt(3.)};
    for (const auto &cell : dof_handler.active_cell_iterators())
      for (const unsigned int f : cell->face_indices())
        if (cell->face(f)->at_boundary() && cell->face(f)->boundary_id() == bottom_id)
          {
            bottom_cells.push_back(cell->active_cell_index());
            const auto         face = cell->face(f);
            const Tensor<1, 2> Xa = face->vertex(0), Xb = face->vertex(1);
            for (const double s : xi)
              {
                ContactPointData c;
                c.N_a  = 0.5 * (1. - s);
                c.N_b  = 0.5 * (1. + s);
                c.dofs = {{face->vertex_dof_index(0, 0), face->vertex_dof_index(0, 1),
                          face->vertex_dof_index(1, 0), face->vertex_dof_index(1, 1)}};
                contact_data.push_back(c);
                contact_points.push_back(
                  ContactPoint{c.N_a * Xa + c.N_b * Xb, 0.5 * (Xb - Xa).norm()});
              }
          }
    make_sparsity();
    surface_history.assign(contact_points.size(), {});
    surface_trial.assign(contact_points.size(), {});

    for (Vector<double> *vec : {&u_n, &v_n, &a_n, &u, &v, &a, &internal_force,
                                &last_increment_vector,
                                &internal_force_n, &nodal_mass})
      vec->reinit(dof_handler.n_dofs());
    for (const CellReferenceData &d : cells)
      for (unsigned int k = 0; k < dofs_per_cell; ++k)
        nodal_mass[d.dofs[k]] += d.lumped_mass[d.node[k]];
    surface_traction_n.assign(contact_points.size(), Tensor<1, 2>());
    obstacle_traction.assign(contact_points.size(), Tensor<1, 2>());
    obstacle_traction_n.assign(contact_points.size(), Tensor<1, 2>());
    cell_pressure.assign(cells.size(), 0.);
    cell_dilatation.assign(cells.size(), 1.);
    if (maxwell.active())
      history.reinit(cells.size(), n_q);
  }

  /// Sparsity of the FE system, extended by the n_rigid unknowns of a movable obstacle,
  /// which couple with each other and with every bottom-boundary dof.
  void RubberBlock::Impl::make_sparsity()
  {
    const types::global_dof_index n = dof_handler.n_dofs();
    DynamicSparsityPattern        dsp(n + n_rigid);
    DoFTools::make_sparsity_pattern(dof_handler, dsp, constraints, false);
    if (n_rigid > 0)
      {
        std::vector<types::global_dof_index> rigid(n_rigid), boundary;
        for (unsigned int j = 0; j < n_rigid; ++j)
          rigid[j] = n + j;
        std::set<types::global_dof_index> bottom;
        for (const auto &c : contact_data)
          bottom.insert(c.dofs.begin(), c.dofs.end());
        boundary.assign(bottom.begin(), bottom.end());
        constraints.add_entries_local_to_global(rigid, boundary, dsp, false);
        constraints.add_entries_local_to_global(boundary, rigid, dsp, false);
        constraints.add_entries_local_to_global(rigid, rigid, dsp, false);
      }
    system_matrix.clear();
    sparsity.copy_from(dsp);
    system_matrix.reinit(sparsity);
    newton.linear_solver().reinit(sparsity, solver.preconditioned_iterations,
                                  solver.refresh_by_cost);
  }

  void RubberBlock::Impl::set_obstacle(BoundaryObstacle *o)
  {
    obstacle                 = o;
    const unsigned int n_new = o == nullptr ? 0 : o->n_rigid_dofs();
    if (n_new != n_rigid)
      {
        n_rigid = n_new;
        make_sparsity();
      }
    rigid_q.assign(n_rigid, 0.);
  }

  /// Newmark's kinematics: a_{n+1}, v_{n+1} from u_{n+1} (Solver/Newmark beta and gamma).
  void RubberBlock::Impl::newmark_update()
  {
    const double beta = solver.newmark_beta, gamma = solver.newmark_gamma;
    for (unsigned int i = 0; i < u.size(); ++i)
      newmark_kinematics(u[i], u_n[i], v_n[i], a_n[i], h, beta, gamma, a[i], v[i]);
  }

  /// Assembles the tangent and the residual r = f_int + M a - f_contact - f_ext at u.
  /// Throws NewtonFailure if an element inverts.
  void RubberBlock::Impl::assemble(Vector<double> &residual, double platen_load,
                                   bool with_matrix)
  {
    std::optional<TimerOutput::Scope> scope;
    if (timer)
      scope.emplace(*timer, "assembly");
    newmark_update();
    if (with_matrix)
      system_matrix = 0.;
    residual       = 0.;
    internal_force = 0.;
    assemble_cells(residual, with_matrix);
    assemble_boundary_contact(residual, with_matrix);
    if (n_rigid > 0)
      assemble_rigid_unknowns(residual, with_matrix);
    // external load on the platen's shared vertical unknown (downwards)
    residual[platen_dof] += platen_load;
  }

  void RubberBlock::Impl::distribute(const FullMatrix<double> &k, const Vector<double> &r,
                                     const std::vector<types::global_dof_index> &local_dofs,
                                     Vector<double> &residual, const bool with_matrix)
  {
    if (with_matrix)
      constraints.distribute_local_to_global(k, r, local_dofs, system_matrix, residual);
    else
      constraints.distribute_local_to_global(r, local_dofs, residual);
  }

  void RubberBlock::Impl::assemble_cells(Vector<double> &residual, const bool with_matrix)
  {
    // d(acceleration)/du: 1 / (beta h^2)
    const double        mass_factor = 1. / (solver.newmark_beta * h * h);
    const Q1P0Materials materials{ogden, maxwell, volumetric};
    // Each cell's response depends on the shared state only and writes only its own
    // history, pressure and dilatation, so the cells are evaluated on
    // MultithreadInfo::n_threads() threads (granular-interface --threads; deal.II's
    // parallel::apply_to_subranges, ranges of cells to each thread), each into its own
    // CellContribution. Then they are added into the global system one at a time, in the
    // order of the cells, whatever the number of threads, so every sum is formed in the
    // same order: the assembly is bit for bit that of one thread (docs/performance.md,
    // Threads). A cell whose evaluation throws (NewtonFailure: an inverted element, a
    // failed Maxwell update) is rethrown before anything of a later cell is added: the
    // first such cell in order, as on one thread; cells after a cell known to have failed
    // are not evaluated.
    const unsigned int n_cells = static_cast<unsigned int>(cells.size());
    cell_contributions.resize(n_cells);
    std::atomic<unsigned int> first_failed_cell{std::numeric_limits<unsigned int>::max()};
    const auto evaluate = [&](const unsigned int e) {
      CellContribution &copy = cell_contributions[e];
      copy.failure   = nullptr;
      if (e > first_failed_cell.load())
        return;
      const CellReferenceData &d = cells[e];
      try
        {
          // Ogden + Maxwell branches and the mean dilatation (fem/q1p0_element.h)
          q1p0_cell_response(d, u, u_n, h, materials, history.cell(e), with_matrix,
                             copy.response);
        }
      catch (...)
        {
          copy.failure = std::current_exception();
          unsigned int first = first_failed_cell.load();
          while (e < first && !first_failed_cell.compare_exchange_weak(first, e))
            ;
          return;
        }
      cell_pressure[e]   = copy.response.pressure;
      cell_dilatation[e] = copy.response.dilatation;
      FullMatrix<double> &k_cell = copy.response.tangent;
      Vector<double>     &r_cell = copy.response.residual;
      for (unsigned int i = 0; i < dofs_per_cell; ++i)
        copy.internal_force[i] = r_cell(i);
      // inertia (lumped mass)
      for (unsigned int i = 0; i < dofs_per_cell; ++i)
        {
          const double mi = d.lumped_mass[d.node[i]];
          r_cell(i) += mi * a[d.dofs[i]];
          if (with_matrix)
            k_cell(i, i) += mi * mass_factor;
        }
      std::copy(d.dofs.begin(), d.dofs.end(), copy.dofs.begin());
    };
    parallel::apply_to_subranges(
      0u, n_cells,
      [&](const unsigned int begin, const unsigned int end) {
        for (unsigned int e = begin; e < end; ++e)
          evaluate(e);
      },
      cell_grain_size);
    for (unsigned int e = 0; e < n_cells; ++e)
      {
        const CellContribution &copy = cell_contributions[e];
        if (copy.failure)
          std::rethrow_exception(copy.failure);
        for (unsigned int i = 0; i < dofs_per_cell; ++i)
          internal_force[copy.dofs[i]] += copy.internal_force[i];
        distribute(copy.response.tangent, copy.response.residual, copy.dofs, residual,
                   with_matrix);
      }
  }

  void RubberBlock::Impl::assemble_boundary_contact(Vector<double> &residual,
                                                    const bool      with_matrix)
  {
    // the rubber-surface and the obstacle's tractions at the bottom Gauss points
    FullMatrix<double> k_face(4, 4);
    Vector<double>     r_face(4);
    std::vector<types::global_dof_index> face_dofs(4), rigid_dofs(n_rigid);
    for (unsigned int j = 0; j < n_rigid; ++j)
      rigid_dofs[j] = u.size() + j;
    FullMatrix<double> k_uq(4, n_rigid), k_qu(n_rigid, 4);
    std::vector<Tensor<1, 2>> dt_dq(n_rigid), dRq_dx(n_rigid);
    if (n_rigid > 0)
      obstacle->set_rigid_dofs(rigid_q);
    for (unsigned int i = 0; i < contact_points.size(); ++i)
      {
        const ContactPointData &c     = contact_data[i];
        const Tensor<1, 2>      x     = point_position(i, u);
        const Tensor<1, 2>      x_old = point_position(i, u_n);
        surface_trial[i] = contact::rubber_surface_contact(x, x_old, surface_history[i],
                                                           surface);
        Tensor<1, 2> t  = surface_trial[i].traction;
        Tensor<2, 2> dt_dx = surface_trial[i].tangent;
        if (obstacle != nullptr)
          {
            Tensor<1, 2> t2;
            Tensor<2, 2> dt2;
            obstacle->evaluate(i, x, x_old, t2, dt2);
            obstacle_traction[i] = t2; // for the energy ledger only
            t += t2;
            dt_dx += dt2;
          }
        if (t.norm_square() == 0. && dt_dx.norm_square() == 0.)
          continue;
        const double w = contact_points[i].weight;
        const double N[4] = {c.N_a, c.N_a, c.N_b, c.N_b};
        const unsigned int comp[4] = {0, 1, 0, 1};
        for (unsigned int k = 0; k < 4; ++k)
          {
            r_face(k) = -N[k] * t[comp[k]] * w;
            for (unsigned int l = 0; l < 4; ++l)
              k_face(k, l) = -N[k] * N[l] * dt_dx[comp[k]][comp[l]] * w;
          }
        std::copy(c.dofs.begin(), c.dofs.end(), face_dofs.begin());
        distribute(k_face, r_face, face_dofs, residual, with_matrix);
        if (n_rigid > 0 && with_matrix)
          {
            // coupling blocks d r_u / d q and d R_q / d u of the movable obstacle
            obstacle->coupling_tangent(i, dt_dq, dRq_dx);
            for (unsigned int k = 0; k < 4; ++k)
              for (unsigned int j = 0; j < n_rigid; ++j)
                {
                  k_uq(k, j) = -N[k] * dt_dq[j][comp[k]] * w;
                  k_qu(j, k) = dRq_dx[j][comp[k]] * N[k];
                }
            constraints.distribute_local_to_global(k_uq, face_dofs, rigid_dofs,
                                                   system_matrix);
            constraints.distribute_local_to_global(k_qu, rigid_dofs, face_dofs,
                                                   system_matrix);
          }
      }
  }

  void RubberBlock::Impl::assemble_rigid_unknowns(Vector<double> &residual,
                                                  const bool      with_matrix)
  {
    // the movable obstacle's own equations (the particle's: coupling::MonolithicParticle)
    std::vector<double>              R_q(n_rigid);
    std::vector<std::vector<double>> K_qq(n_rigid, std::vector<double>(n_rigid));
    obstacle->rigid_residual(R_q, K_qq);
    for (unsigned int j = 0; j < n_rigid; ++j)
      {
        const auto row = u.size() + j;
        residual[row] += R_q[j];
        if (with_matrix)
          for (unsigned int k = 0; k < n_rigid; ++k)
            system_matrix.add(row, u.size() + k, K_qq[j][k]);
      }
  }


  StepStatistics RubberBlock::Impl::solve_step(const double step, const double platen_u1,
                                               const double load,
                                               const unsigned int max_iterations)
  {
    h = step;
    // predictor: extrapolate the last converged increment (scaled to this step).
    // Exact in steady sliding, regular in quasi-static loading, u_n at the onset
    // of dragging; Newmark's v_n would overshoot in the quasi-static limit of the
    // light block. After a Newton failure (a roll-over), the next Solver/Damped predictor
    // steps solves extrapolate only a fraction of it (docs/methods.md §3.6).
    // (monolithic coupling only: with the staggered scheme's explicit particle a damped
    // predictor made the reduced circle fail the energy guard)
    const double weight = damped_predictor_left > 0 && solver.monolithic_coupling ?
                            solver.damped_predictor_weight :
                            1.;
    u = u_n;
    if (last_step > 0.)
      u.add(weight * h / last_step, last_increment_vector);
    for (const auto dof : top_x_dofs)
      u[dof] = platen_u1;
    if (solver.rubber_particle_velocity_update && n_rigid > 0)
      remove_approach_velocities();
    if (n_rigid > 0)
      rigid_q = obstacle->begin_step(h, weight);
    platen_load = load;
    StepStatistics stats;
    try
      {
        stats = newton.solve(*this, max_iterations);
        reject_tunnelling();
      }
    catch (const NewtonFailure &)
      {
        damped_predictor_left = solver.damped_predictor_steps;
        throw;
      }
    for (const auto &s : surface_trial)
      {
        stats.contact_points_in_contact += s.trial.in_contact;
        stats.contact_points_slipping += s.slipping;
      }
    return stats;
  }

  void RubberBlock::Impl::remove_approach_velocities()
  {
    // a periodic pair's right vertex is constrained to the left one: both move as one node
    // with both lumped masses
    std::vector<types::global_dof_index> node_of(u.size());
    for (types::global_dof_index d = 0; d < u.size(); ++d)
      node_of[d] = d;
    for (const auto &[left, right] : periodic_vertices)
      for (unsigned int d = 0; d < 2; ++d)
        node_of[right[d]] = left[d];
    const auto mass_of = [&](const types::global_dof_index d) {
      double m = nodal_mass[d];
      for (const auto &[left, right] : periodic_vertices)
        if (left[0] == d || left[1] == d)
          m += nodal_mass[right[left[0] == d ? 0 : 1]];
      return m;
    };
    bool changed = false;
    for (unsigned int i = 0; i < contact_points.size(); ++i)
      {
        const ContactPointData &c = contact_data[i];
        const auto ax = node_of[c.dofs[0]], ay = node_of[c.dofs[1]], bx = node_of[c.dofs[2]],
                   by = node_of[c.dofs[3]];
        const Tensor<1, 2> v_a({v_n[ax], v_n[ay]}), v_b({v_n[bx], v_n[by]});
        const Tensor<1, 2> x = point_position(i, u_n) + h * (c.N_a * v_a + c.N_b * v_b);
        BoundaryObstacle::PredictedContact p;
        if (!obstacle->predicted_contact(x, h, p))
          continue;
        const contact::ApproachVelocityRemoval r = contact::remove_approach_velocity(
          c.N_a, c.N_b, mass_of(ax), mass_of(bx), v_a, v_b, p.normal, p.velocity,
          p.inverse_mass);
        if (!r.updated)
          continue;
        // each body counts the kinetic energy it lost in its own numerical dissipation (the
        // particle's may be negative: the impulse can speed it up); together 1/2 mu v_N^2
        velocity_update_particle_work += obstacle->apply_impulse(p, -r.impulse * p.normal);
        numerical_dissipation += 0.5 * mass_of(ax) * (v_a * v_a - r.velocity_a * r.velocity_a) +
                                 0.5 * mass_of(bx) * (v_b * v_b - r.velocity_b * r.velocity_b);
        v_n[ax] = r.velocity_a[0], v_n[ay] = r.velocity_a[1];
        v_n[bx] = r.velocity_b[0], v_n[by] = r.velocity_b[1];
        velocity_update_dissipation += r.removed_energy;
        changed = true;
      }
    if (changed)
      for (const auto &[left, right] : periodic_vertices)
        for (unsigned int d = 0; d < 2; ++d)
          v_n[right[d]] = v_n[left[d]];
  }

  void RubberBlock::Impl::reject_tunnelling() const
  {
    if (obstacle == nullptr)
      return;
    for (unsigned int i = 0; i < contact_points.size(); ++i)
      {
        const Tensor<1, 2> x = point_position(i, u), x_old = point_position(i, u_n);
        if (obstacle->may_pass_through(i, x, x_old))
          {
            std::ostringstream m;
            m << "the step is too long for the rubber-particle contact: contact point " << i
              << " moved " << (x - x_old).norm() << " mm through the particle's place (from ("
              << x_old[0] << ", " << x_old[1] << ") to (" << x[0] << ", " << x[1]
              << ") mm), or the particle moved as far";
            throw NewtonFailure(m.str());
          }
      }
  }

  void RubberBlock::Impl::commit_step()
  {
    newmark_update();
    // the energy ledger (BlockWork): trapezoidal works of the step, then t_n <- t_{n+1}
    for (unsigned int i = 0; i < u.size(); ++i)
      work.bulk -= 0.5 * (internal_force_n[i] + internal_force[i]) * (u[i] - u_n[i]);
    for (const auto i : top_x_dofs)
      work.platen += 0.5 *
                     (internal_force_n[i] + internal_force[i] +
                      nodal_mass[i] * (a_n[i] + a[i])) *
                     (u[i] - u_n[i]);
    work.platen -= 0.5 * (platen_load_n + platen_load) * (u[platen_dof] - u_n[platen_dof]);
    for (unsigned int i = 0; i < contact_points.size(); ++i)
      {
        const Tensor<1, 2> dx = point_position(i, u) - point_position(i, u_n);
        const double       w  = contact_points[i].weight;
        const Tensor<1, 2> t_surface  = surface_trial[i].traction;
        const Tensor<1, 2> t_obstacle = obstacle != nullptr ? obstacle_traction[i] : Tensor<1, 2>();
        work.surface += 0.5 * w * (surface_traction_n[i] + t_surface) * dx;
        if (obstacle != nullptr && obstacle->traction_is_step_force())
          {
            // the obstacle's force of the step does the work w t . dx; the rubber's equations
            // at t_n and t_{n+1} hold the forces of the last step and of this one, whose
            // trapezoidal work Newmark's identity counts, so the difference belongs to the
            // integrator (BlockEnergies::numerical_dissipation, docs/methods.md §5.5)
            work.obstacle += w * t_obstacle * dx;
            numerical_dissipation += 0.5 * w * (t_obstacle - obstacle_traction_n[i]) * dx;
          }
        else
          work.obstacle += 0.5 * w * (obstacle_traction_n[i] + t_obstacle) * dx;
        surface_traction_n[i]  = t_surface;
        obstacle_traction_n[i] = t_obstacle;
      }
    internal_force_n = internal_force;
    platen_load_n    = platen_load;
    // algorithmic dissipation of Newmark over the step (BlockEnergies::numerical_dissipation)
    for (const CellReferenceData &d : cells)
      for (unsigned int k = 0; k < dofs_per_cell; ++k)
        {
          const auto i = d.dofs[k];
          numerical_dissipation += newmark_algorithmic_dissipation(
            d.lumped_mass[d.node[k]], u[i] - u_n[i], v_n[i], v[i], a_n[i], a[i]);
        }
    for (unsigned int i = 0; i < contact_points.size(); ++i)
      {
        const auto &s = surface_trial[i];
        friction_dissipation +=
          contact::rubber_surface_step_dissipation(point_position(i, u_n), point_position(i, u),
                                                   surface_history[i], s,
                                                   surface.tangential_penalty) *
          contact_points[i].weight;
        surface_history[i] = s.trial;
      }
    if (obstacle != nullptr)
      obstacle->commit();
    if (maxwell.active())
      history.commit(viscous_dissipation);
    last_increment_vector = u;
    last_increment_vector -= u_n;
    last_step = h;
    if (damped_predictor_left > 0)
      --damped_predictor_left;
    u_n = u;
    v_n = v;
    a_n = a;
  }

  RubberBlock::RubberBlock(const BlockParameters &block, const RubberParameters &rubber,
                           const PenaltyContactParameters &surface,
                           const SolverParameters &solver, double density,
                           double bottom_height, double reference_force, bool verbose)
    : impl(std::make_unique<Impl>(block, rubber, surface, solver, density, bottom_height,
                                  reference_force, verbose))
  {}

  RubberBlock::~RubberBlock() = default;

  unsigned int RubberBlock::n_dofs() const { return impl->dof_handler.n_dofs(); }
  unsigned int RubberBlock::n_cells() const { return impl->cells.size(); }

  double RubberBlock::mass() const
  {
    // nodal_mass holds each node's mass once per component (x, y)
    return 0.5 * std::accumulate(impl->nodal_mass.begin(), impl->nodal_mass.end(), 0.);
  }
  const std::vector<ContactPoint> &RubberBlock::contact_points() const
  {
    return impl->contact_points;
  }
  void RubberBlock::set_obstacle(BoundaryObstacle *obstacle) { impl->set_obstacle(obstacle); }
  void RubberBlock::set_timer(TimerOutput *timer)
  {
    impl->timer = timer;
    impl->newton.linear_solver().set_timer(timer);
  }

  StepStatistics RubberBlock::solve_step(const double h, const double platen_u1,
                                          const double platen_load,
                                          const unsigned int max_iterations)
  {
    return impl->solve_step(h, platen_u1, platen_load, max_iterations);
  }

  void RubberBlock::commit_step() { impl->commit_step(); }

  BlockWork RubberBlock::work() const { return impl->work; }

  PlatenForces RubberBlock::platen_forces() const
  {
    // internal force of the last assembly, summed over the top nodes (docs/methods.md §2.2)
    PlatenForces f;
    for (const auto d : impl->top_x_dofs)
      f.tangential += impl->internal_force[d];
    for (const auto d : impl->top_y_dofs)
      f.normal -= impl->internal_force[d]; // compression positive
    return f;
  }

  double RubberBlock::platen_vertical_displacement() const
  {
    return impl->u_n[impl->platen_dof];
  }

  std::vector<Tensor<1, 2>> RubberBlock::contact_point_positions() const
  {
    std::vector<Tensor<1, 2>> x(impl->contact_points.size());
    for (unsigned int i = 0; i < x.size(); ++i)
      x[i] = impl->point_position(i, impl->u_n);
    return x;
  }

  Tensor<1, 2> RubberBlock::displacement_at_vertex(const Tensor<1, 2> &X) const
  {
    double       best = std::numeric_limits<double>::max();
    Tensor<1, 2> d;
    for (const auto &cell : impl->dof_handler.active_cell_iterators())
      for (const unsigned int v : cell->vertex_indices())
        {
          const double dist = (cell->vertex(v) - Point<2>(X)).norm();
          if (dist < best)
            {
              best = dist;
              d[0] = impl->u_n[cell->vertex_dof_index(v, 0)];
              d[1] = impl->u_n[cell->vertex_dof_index(v, 1)];
            }
        }
    return d;
  }

  std::vector<std::pair<Tensor<1, 2>, Tensor<1, 2>>>
  RubberBlock::periodic_vertex_pairs() const
  {
    std::vector<std::pair<Tensor<1, 2>, Tensor<1, 2>>> pairs;
    for (const auto &[l, r] : impl->periodic_vertices)
      {
        Tensor<1, 2> ul, ur;
        for (unsigned int c = 0; c < 2; ++c)
          {
            ul[c] = impl->u_n[l[c]];
            ur[c] = impl->u_n[r[c]];
          }
        pairs.emplace_back(ul, ur);
      }
    return pairs;
  }

  void RubberBlock::residual_and_tangent(const std::vector<double> &u, double h,
                                         double platen_load, std::vector<double> &residual,
                                         std::vector<std::vector<double>> &tangent)
  {
    Impl &m = *impl;
    m.h     = h;
    AssertThrow(u.size() == m.u.size() + m.n_rigid,
                ExcMessage("residual_and_tangent: u must have n_dofs + n_rigid_dofs entries"));
    std::copy(u.begin(), u.begin() + m.u.size(), m.u.begin());
    if (m.n_rigid > 0)
      {
        m.obstacle->begin_step(h, 1.);
        std::copy(u.begin() + m.u.size(), u.end(), m.rigid_q.begin());
      }
    Vector<double> r(u.size());
    m.assemble(r, platen_load, true);
    residual.assign(r.begin(), r.end());
    tangent.assign(u.size(), std::vector<double>(u.size(), 0.));
    for (unsigned int i = 0; i < u.size(); ++i)
      for (auto entry = m.system_matrix.begin(i); entry != m.system_matrix.end(i); ++entry)
        tangent[i][entry->column()] = entry->value();
  }

  RubberBlock::LinearSolverStatistics RubberBlock::linear_solver_statistics() const
  {
    const NewtonSolver &n = impl->newton;
    return {n.linear_solver().factorizations(), n.linear_solver().preconditioned_solves(),
            n.assemblies(), n.failed_iterations(), n.line_search_assemblies(),
            n.failed_assemblies(), n.linear_solver().factorization_flops()};
  }

  const std::vector<double> &RubberBlock::failed_attempt_residual_norms() const
  {
    return impl->newton.failed_attempt_norms();
  }

  void RubberBlock::distribute_constraints(std::vector<double> &u) const
  {
    Vector<double> v(u.begin(), u.end());
    impl->constraints.distribute(v);
    std::copy(v.begin(), v.end(), u.begin());
  }

  std::vector<bool> RubberBlock::constrained_dofs() const
  {
    std::vector<bool> c(n_dofs());
    for (unsigned int i = 0; i < c.size(); ++i)
      c[i] = impl->constraints.is_constrained(i);
    return c;
  }

  std::vector<std::pair<Tensor<1, 2>, unsigned int>> RubberBlock::dof_reference_positions() const
  {
    std::vector<Point<2>> points(n_dofs());
    DoFTools::map_dofs_to_support_points(MappingQ<2>(1), impl->dof_handler, points);
    const IndexSet x_dofs = 
      DoFTools::extract_dofs(impl->dof_handler, ComponentMask(std::vector<bool>{true, false}));
    std::vector<std::pair<Tensor<1, 2>, unsigned int>> r(n_dofs());
    for (unsigned int i = 0; i < r.size(); ++i)
      r[i] = {points[i], x_dofs.is_element(i) ? 0u : 1u};
    return r;
  }

} // namespace granular::fem
