// RubberBlock's checkpoint/restart (rubber_block.h, "Checkpoint/restart"): the committed
// state of the block, of its quadrature-point history and of its solvers. The format is
// read only by the build that wrote it (base/serialization.h).
#include "fem/rubber_block.h"

#include "fem/rubber_block_impl.h"

#include "base/serialization.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace granular::fem
{
  using namespace dealii;

  namespace
  {
    /// The values of a sparse matrix in the order of its sparsity pattern.
    std::vector<double> matrix_values(const SparseMatrix<double> &A)
    {
      std::vector<double> values;
      values.reserve(A.n_nonzero_elements());
      for (auto it = A.begin(); it != A.end(); ++it)
        values.push_back(it->value());
      return values;
    }

    /// The committed state of a block (Impl or const Impl), one list for writing and
    /// reading.
    template <class Archive, class Block>
    void archive_committed_state(Archive &ar, Block &m)
    {
      ar &m.u_n &m.v_n &m.a_n &m.last_step &m.last_increment_vector &m.damped_predictor_left &m.internal_force;
      ar &m.surface_history &m.friction_dissipation &m.numerical_dissipation;
      // only with the velocity update, so that the state of a run without it keeps its
      // format (scheme_state_format) and the committed hard-step records stay readable
      if (m.solver.rubber_particle_velocity_update)
        ar &m.velocity_update_dissipation &m.velocity_update_particle_work;
      ar &m.history &m.viscous_dissipation;
      ar &m.work.bulk &m.work.surface &m.work.obstacle &m.work.platen;
      ar &m.surface_traction_n &m.obstacle_traction_n &m.platen_load_n;
    }
  } // namespace

  void StaleFactorizationSolver::save(boost::archive::binary_oarchive &ar) const
  {
    ar &n_factorizations &n_preconditioned_solves &has_factorization &refactorize_next;
    ar &last_was_full &iteration_flops;
    if (has_factorization)
      {
        const std::vector<double> values = matrix_values(factorized_matrix);
        ar &values;
        if (!last_was_full)
          {
            const std::vector<double> pivoted = matrix_values(pivoted_matrix);
            ar &pivoted;
          }
      }
  }

  void StaleFactorizationSolver::load(boost::archive::binary_iarchive &ar)
  {
    ar &n_factorizations &n_preconditioned_solves &has_factorization &refactorize_next;
    ar &last_was_full &iteration_flops;
    const auto read_matrix = [&ar](SparseMatrix<double> &A) {
      std::vector<double> values;
      ar &values;
      if (values.size() != A.n_nonzero_elements())
        throw std::runtime_error("the saved rubber block's matrix does not fit its mesh");
      std::size_t k = 0;
      for (auto it = A.begin(); it != A.end(); ++it)
        it->value() = values[k++];
    };
    if (has_factorization)
      {
        // KLU is deterministic: the same matrices give the same factors. Its
        // refactorizations keep the pivots of the last full factorization, so that one is
        // repeated first.
        read_matrix(factorized_matrix);
        if (!last_was_full)
          {
            read_matrix(pivoted_matrix);
            klu.factorize(pivoted_matrix, true);
            klu.factorize(factorized_matrix, false);
          }
        else
          {
            klu.factorize(factorized_matrix, true);
            pivoted_matrix.copy_from(factorized_matrix);
          }
      }
  }

  void NewtonSolver::save(boost::archive::binary_oarchive &ar) const
  {
    ar &n_assemblies &n_failed_iterations &n_line_search_assemblies &n_failed_assemblies;
    linear.save(ar);
  }

  void NewtonSolver::load(boost::archive::binary_iarchive &ar)
  {
    ar &n_assemblies &n_failed_iterations &n_line_search_assemblies &n_failed_assemblies;
    linear.load(ar);
  }

  void RubberBlock::save_state(boost::archive::binary_oarchive &ar) const
  {
    const Impl        &m        = *impl;
    const unsigned int sizes[3] = {static_cast<unsigned int>(m.u_n.size()),
                                   static_cast<unsigned int>(m.contact_points.size()),
                                   static_cast<unsigned int>(m.history.size())};
    ar &sizes;
    archive_committed_state(ar, m);
    m.newton.save(ar);
  }

  void RubberBlock::load_state(boost::archive::binary_iarchive &ar)
  {
    Impl        &m = *impl;
    unsigned int sizes[3];
    ar &sizes;
    if (sizes[0] != m.u_n.size() || sizes[1] != m.contact_points.size() ||
        sizes[2] != m.history.size())
      throw std::runtime_error(
        "the saved rubber block has " + std::to_string(sizes[0]) + " dofs, " +
        std::to_string(sizes[1]) + " contact points and " + std::to_string(sizes[2]) +
        " Maxwell-branch quadrature points; this block has " + std::to_string(m.u_n.size()) +
        ", " + std::to_string(m.contact_points.size()) + " and " +
        std::to_string(m.history.size()) + " (a different mesh or rubber model)");
    archive_committed_state(ar, m);
    m.newton.load(ar);
    m.internal_force_n = m.internal_force; // f_int of the committed state
    m.u = m.u_n;
    m.v = m.v_n;
    m.a = m.a_n;
    m.history.reset_trial();
  }
} // namespace granular::fem
