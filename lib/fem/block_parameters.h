#pragma once
/**
 * @file block_parameters.h
 * Subsections "Geometry" (the rubber block, docs/methods.md §2, §7) and "Solver"
 * (docs/methods.md §3.6). Lengths in mm.
 */
#include <string>
#include <vector>

namespace granular
{
  class ParameterEntries;

  /// Subsection "Geometry": the rubber block C0 = [0, L0] x [y_b, y_b + H0] and its mesh.
  struct BlockParameters
  {
    double       length      = 10.;  ///< L0 (mm), also the period of the cell
    double       height      = 7.5;  ///< H0 (mm)
    double       initial_gap = 0.;   ///< g0 (mm) between particle top and block bottom
    unsigned int n_x         = 40;   ///< N_X elements along x
    unsigned int n_y         = 15;   ///< N_Y elements along y
    std::string  mesh_file;          ///< optional Gmsh/UCD mesh (see meshes/README)

    /// The entries of subsection "Geometry", each bound to its member.
    void entries(ParameterEntries &e);
    /// Throws ParameterError naming the entry; reads the mesh file, and refuses a mesh
    /// whose run_memory_estimate() exceeds the machine's memory.
    void validate() const;
  };

  /// The peak memory (bytes) of a run on a mesh of @p cells cells: about 160 MB for the
  /// program and 12 kB per cell (measured: 344 MB at 16 000 cells, 916 MB at 64 000).
  double run_memory_estimate(double cells);

  /// Subsection "Solver": implicit dynamics and Newton-Raphson controls (docs/methods.md §3.6).
  struct SolverParameters
  {
    double       newmark_beta       = 0.25; ///< Newmark beta (trapezoidal rule: 1/4)
    double       newmark_gamma      = 0.5;  ///< Newmark gamma (> 1/2 adds numerical damping)
    unsigned int max_newton_iterations = 25;
    double       residual_tolerance = 1e-8; ///< relative residual norm
    /// the Newton correction at the iterate relative to the block height, the iterate's own
    /// error estimate (Deuflhard 2004, §2.1)
    double       increment_tolerance = 1e-8;
    unsigned int max_cutbacks       = 6;    ///< step halvings before giving up
    double       max_energy_error   = 0.2;  ///< stop when the energy balance fails by more
    /// true: the particle's unknowns are solved in the rubber's Newton system
    /// (coupling::MonolithicParticle); false: the staggered scheme of docs/methods.md §5.3
    bool         monolithic_coupling = true;
    /// monolithic coupling: gamma_p of the particle's update (docs/methods.md §5.4)
    double       particle_gamma = 0.5;
    /// monolithic coupling: the rubber-particle contact
    /// as the discrete gradient of its potential over the step (docs/methods.md §5.5); false:
    /// the traction at the end of the step
    bool         rubber_particle_discrete_gradient = false;
    /// monolithic coupling: at the start of every step, the rubber's contact points predicted
    /// inside a particle lose their normal velocity relative to it (docs/methods.md §6.1)
    bool         rubber_particle_velocity_update = false;
    unsigned int coupling_iterations = 20;  ///< DEM-FEM sub-iterations per step (0: explicit)
    double       coupling_tolerance  = 1e-3;///< interface work mismatch / platen work per step
    /// GMRES iterations with the LU of an earlier tangent as preconditioner before the
    /// current tangent is factorized (0: a factorization at every Newton iteration)
    unsigned int preconditioned_iterations = 8;
    /// refresh the factorization when the GMRES iterations since the last one have
    /// cost as many floating-point operations as a factorization (Solver/Factorization
    /// refresh = cost); false: after a solve that needed more than half of the allowed ones
    bool         refresh_by_cost = false;
    /// adaptive time steps (coupling::TimeStepControl); false: every step Loading/Time step
    bool         adaptive_time_step   = true;
    unsigned int max_step_multiple    = 16;   ///< longest adaptive step / Loading/Time step
    double       step_energy_tolerance = 1e-3;///< see coupling::TimeStepControl
    /// adaptive steps longer than Loading/Time step whose energy error exceeds the step
    /// tolerance are repeated with half the length from the state before them
    bool         step_rejection = true;
    unsigned int long_step_newton_iterations = 8; ///< Newton iterations of a long step
    /// a step whose |r| has not halved in this many Newton iterations stalls and is given up
    /// (NewtonFailure), so that the caller cuts it back; 0: never (the parameter files'
    /// default is 5, Solver/Stall iterations)
    unsigned int stall_iterations = 0;
    /// a Newton iteration whose backtracking line search has made this many shorter trials
    /// without lowering |r| gives the step up (NewtonFailure), so that the caller cuts it
    /// back; 0: never (the line search then ends at its shortest step, 1/256, and goes on
    /// from there; the parameter files' default, Solver/Line search give-up)
    unsigned int line_search_give_up = 0;
    /// the first Newton iterate of a step adds predictor_weight (Δt/Δt_last) Δu_last to u_n:
    /// 1 (extrapolation) but for the damped_predictor_steps solves after a Newton failure,
    /// which start from damped_predictor_weight instead (the parameter files' default is
    /// 200 steps at 0.25)
    double       damped_predictor_weight = 1.;
    unsigned int damped_predictor_steps  = 0;

    /// The entries of subsection "Solver", each bound to its member.
    void entries(ParameterEntries &e);
    void        validate() const;
  };

  /// An entry of subsection "Solver" that selected a method the program no longer has
  /// (CHANGES.md): a parameter file may still set it to the value of the method
  /// that remains (the line is then ignored, with a warning), any other value is refused.
  struct RetiredEntry
  {
    std::string path;        ///< "Solver/Entry"
    std::string kept_value;  ///< the value that is the program's method; "" for any value
    std::string replacement; ///< what the program does instead, for the messages
  };

  /// The retired entries of subsection "Solver".
  const std::vector<RetiredEntry> &retired_solver_entries();
} // namespace granular
