#pragma once
/**
 * @file block_parameters.h
 * Subsections "Geometry" (the rubber block, docs/methods.md §2, §7) and "Solver"
 * (docs/methods.md §3.6). Lengths in mm.
 */
#include <string>

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
    /// the rubber's time integrator: false Newmark (newmark_beta, newmark_gamma); true the
    /// Bossak (WBZ-alpha) member of the generalized-alpha family, alpha_f = 0, with the
    /// spectral radius below (docs/methods.md §3.6)
    bool         bossak             = false;
    double       spectral_radius    = 1. / 3.; ///< Bossak: rho_inf in [0, 1]
    unsigned int max_newton_iterations = 25;
    double       residual_tolerance = 1e-8; ///< relative residual norm
    double       increment_tolerance = 1e-8;///< relative increment norm
    /// Newton's convergence test (Solver/Convergence test): false: the residual at the
    /// iterate and the increment that led to it below their tolerances (the method before);
    /// true: the residual and the Newton correction at the iterate, i.e. the iterate's own
    /// error estimate (Deuflhard 2004, §2.1), which ends a quadratically converging step
    /// one assembly earlier
    bool         next_correction_test = false;
    unsigned int max_cutbacks       = 6;    ///< step halvings before giving up
    double       max_energy_error   = 0.2;  ///< stop when the energy balance fails by more
    /// true: the particle's unknowns are solved in the rubber's Newton system
    /// (coupling::MonolithicParticle); false: the staggered scheme of docs/methods.md §5.3
    bool         monolithic_coupling = true;
    /// monolithic coupling: the particle-surface contact as the discrete gradient of its
    /// potential over the step with the mid-point rule for the particle (docs/methods.md
    /// §5.4); false: Newmark with the contact force at the end of the step
    bool         particle_discrete_gradient = true;
    double       particle_gamma = 0.5; ///< discrete gradient: gamma_p of the particle's update
    /// discrete gradient: the particle-surface contact's Jacobian by automatic
    /// differentiation (Trilinos Sacado); false: by central differences
    bool         particle_jacobian_ad = true;
    /// monolithic coupling with the particle's discrete gradient: the rubber-particle contact
    /// as the discrete gradient of its potential over the step (docs/methods.md §5.5); false:
    /// the traction at the end of the step
    bool         rubber_particle_discrete_gradient = false;
    unsigned int coupling_iterations = 20;  ///< DEM-FEM sub-iterations per step (0: explicit)
    double       coupling_tolerance  = 1e-3;///< interface work mismatch / platen work per step
    /// sparse LU of the Newton tangent: SuiteSparse KLU with numeric refactorization
    /// (fem::SparseLU), or UMFPACK through deal.II
    bool         klu = true;
    /// GMRES iterations with the LU of an earlier tangent as preconditioner before the
    /// current tangent is factorized (0: a factorization at every Newton iteration)
    unsigned int preconditioned_iterations = 8;
    /// KLU: refresh the factorization when the GMRES iterations since the last one have
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
    /// (NewtonFailure), so that the caller cuts it back; 0: never (the plain method; the
    /// parameter files' default is 5, Solver/Stall iterations)
    unsigned int stall_iterations = 0;
    /// after a step that was cut back, the steps that follow start from the length of its
    /// last sub-step, which doubles again after this many steps without a cut-back (0: every
    /// step is first tried at its full length, the method before)
    unsigned int cutback_memory = 0;
    /// the first Newton iterate of a step adds predictor_weight (Δt/Δt_last) Δu_last to u_n:
    /// 1 (extrapolation) but for the damped_predictor_steps solves after a Newton failure,
    /// which start from damped_predictor_weight instead (0 steps: never, the method before;
    /// the parameter files' default is 200 steps at 0.25)
    double       damped_predictor_weight = 1.;
    unsigned int damped_predictor_steps  = 0;
    /// the line search's shorter trials after the first: from a quadratic model of |r|^2
    /// (Solver/Line search = quadratic model, the parameter files' default), or halved
    bool         quadratic_line_search = false;

    /// The rubber integrator's parameters: the inertia of the equation at t_{n+1} is
    /// M ((1 - alpha_m) a_{n+1} + alpha_m a_n), the kinematics Newmark's with beta, gamma.
    struct RubberIntegrator
    {
      double beta    = 0.25;
      double gamma   = 0.5;
      double alpha_m = 0.; ///< 0: Newmark
    };
    /// Newmark: (newmark_beta, newmark_gamma, 0). Bossak (Wood, Bossak & Zienkiewicz 1980;
    /// Chung & Hulbert 1993, their generalized-alpha with alpha_f = 0): alpha_m = (rho_inf - 1) /
    /// (rho_inf + 1), gamma = 1/2 - alpha_m, beta = (1 - alpha_m)^2 / 4, second-order
    /// accurate with the spectral radius rho_inf at infinite frequency.
    RubberIntegrator rubber_integrator() const;

    /// The entries of subsection "Solver", each bound to its member.
    void entries(ParameterEntries &e);
    void        validate() const;
  };
} // namespace granular
