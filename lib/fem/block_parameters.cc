#include "fem/block_parameters.h"

#include "base/parameter_entries.h"
#include "base/parameter_error.h"
#include "fem/block_mesh.h"

#include <filesystem>
#include <sstream>
#include <unistd.h>

namespace granular
{
  using namespace dealii::Patterns;

  void BlockParameters::entries(ParameterEntries &e)
  {
    e.subsection("Geometry", [&] {
      e.entry(length, "Block length", "10",
              "L0 in mm: length of the rubber block and period of the cell.");
      e.entry(height, "Block height", "7.5", "H0 in mm: height of the rubber block.");
      e.entry(initial_gap, "Initial gap", "0",
              "g0 in mm: initial gap between the particle's top and the block's "
              "bottom (docs/methods.md §2, choice g0 = 0). Without particle: the block's "
              "initial height above the surface.");
      e.entry(n_x, "Elements in x", "40", Integer(1), "N_X: elements along the block length.");
      e.entry(n_y, "Elements in y", "15", Integer(1), "N_Y: elements along the block height.");
      e.entry(mesh_file, "Mesh file", "",
              "Optional mesh file (Gmsh .msh or UCD .inp) replacing the N_X x N_Y "
              "mesh; boundary ids as documented in meshes/README. Empty: use "
              "the structured mesh.");
    });
  }

  void BlockParameters::validate() const
  {
    require_positive("Geometry/Block length", length, "the block length L0");
    require_positive("Geometry/Block height", height, "the block height H0");
    if (!(initial_gap >= 0.))
      throw ParameterError("Geometry/Initial gap", "the initial gap must be >= 0");
    if (!mesh_file.empty() && !std::filesystem::exists(mesh_file))
      throw ParameterError("Geometry/Mesh file", "no such file: " + mesh_file);
    if (!mesh_file.empty() && !std::filesystem::is_regular_file(mesh_file))
      throw ParameterError("Geometry/Mesh file", mesh_file + " is not a regular file (a FIFO, "
                                                 "a device or a directory)");
    if (mesh_file.empty() && (n_x == 0 || n_y == 0))
      throw ParameterError(n_x == 0 ? "Geometry/Elements in x" : "Geometry/Elements in y",
                           "must be at least 1");
    // the memory of the mesh, the quadrature-point histories, the sparse tangent and its LU
    // factors grows like the number of cells: estimate it before allocating anything
    double cells = double(n_x) * double(n_y);
    if (!mesh_file.empty())
      {
        // read it now: an unreadable or wrong mesh is invalid input (exit status 2), found
        // before any work starts
        dealii::Triangulation<2> triangulation;
        fem::read_block_mesh(*this, triangulation);
        cells = triangulation.n_active_cells();
      }
    const double estimate  = run_memory_estimate(cells);
    const double available = double(::sysconf(_SC_PHYS_PAGES)) * double(::sysconf(_SC_PAGESIZE));
    if (available > 0. && estimate > available)
      {
        std::ostringstream m;
        m << "a mesh of " << cells << " elements";
        if (mesh_file.empty())
          m << " (" << n_x << " x " << n_y << ")";
        m << " would need about " << estimate / 1e9 << " GB, more than this machine's "
          << available / 1e9 << " GB of memory; "
          << (mesh_file.empty() ?
                "reduce Geometry/Elements in x and Geometry/Elements in y" :
                "use a coarser mesh")
          << " (the paper's meshes are 40 x 15 and 80 x 25)";
        throw ParameterError(!mesh_file.empty() ? "Geometry/Mesh file" :
                             n_x >= n_y         ? "Geometry/Elements in x" :
                                                  "Geometry/Elements in y",
                             m.str());
      }
  }

  double run_memory_estimate(const double cells)
  {
    // measured peak resident memory of runs of 16 000 and 64 000 cells: 344 and 916 MB,
    // i.e. about 160 MB for the program and 12 kB per cell
    return 160e6 + 12e3 * cells;
  }

  void SolverParameters::entries(ParameterEntries &e)
  {
    e.subsection("Solver", [&] {
      e.entry(newmark_beta, "Newmark beta", "0.5625",
              "Newmark beta of the implicit rubber dynamics (docs/methods.md §3.6); "
              "unconditionally stable for beta >= (gamma + 1/2)^2 / 4.");
      e.entry(newmark_gamma, "Newmark gamma", "1.0",
              "Newmark gamma. The default 1 (with beta = (gamma + 1/2)^2/4 = "
              "0.5625) damps the high-frequency waves of the light rubber "
              "(rho_B = 1e-3 rho_P only regularises, docs/methods.md §3.6) as strongly as "
              "Newmark can. Weaker damping keeps the bare interface at kbar = k_o "
              "(measured down to 0.6) but does not lower the numerical dissipation of a "
              "rolling rectangle, which rings harder, and costs more cut-backs "
              "(docs/results/energy-ledger.md). 0.5 with beta = 0.25 is the undamped "
              "trapezoidal rule.");
      e.text_entry([this](const std::string &integrator) { bossak = integrator == "Bossak"; },
                   "Rubber time integrator", "Newmark", Selection("Newmark|Bossak"),
                   "The implicit time integrator of the rubber (docs/methods.md §3.6). "
                   "Newmark: Newmark beta and Newmark gamma above; with gamma > 1/2 it "
                   "is first-order accurate and damps every frequency in proportion to "
                   "the step. Bossak: the generalized-alpha method with alpha_f = 0 (Wood, "
                   "Bossak & Zienkiewicz 1980; Chung & Hulbert 1993): the inertia of the "
                   "equation at t_n+1 is M ((1 - alpha_m) a_n+1 + alpha_m a_n), "
                   "second-order accurate, damping the highest frequencies to the spectral "
                   "radius below and the low ones far less. All forces stay at t_n+1, so "
                   "contacts and particle are integrated as with Newmark. The particle "
                   "of the end-of-step coupling keeps Newmark beta and gamma. Measured "
                   "since 2026-11-27 in the full default.prm and rectangular.prm: the rubber "
                   "rings more after the roll-overs and the numerical share of kbar rises "
                   "(0.0185 against 0.0051, 0.0238 against 0.0107), so Newmark stays the "
                   "default (docs/results/energy-ledger.md).");
      e.entry(spectral_radius, "Spectral radius", "0.333333333333333", Double(0., 1.),
              "Rubber time integrator = Bossak only: rho_inf, the amplification of the "
              "highest frequencies per step (1: no numerical damping, the trapezoidal "
              "rule; 0: annihilated in one step). alpha_m = (rho_inf - 1)/(rho_inf + 1), "
              "gamma = 1/2 - alpha_m, beta = (1 - alpha_m)^2/4; 1/3 gives the gamma = 1 "
              "and beta = 0.5625 of the Newmark default with second-order accuracy.");
      e.entry(max_newton_iterations, "Maximum Newton iterations", "25", Integer(1),
              "Newton-Raphson iterations per step before the step is cut.");
      e.entry(residual_tolerance, "Residual tolerance", "1e-8", Double(0.),
              "Convergence: residual norm relative to the reference force norm.");
      e.entry(increment_tolerance, "Increment tolerance", "1e-8", Double(0.),
              "Convergence: displacement increment norm relative to the block height.");
      e.text_entry([this](const std::string &test) {
                     next_correction_test = test == "next correction";
                   },
                   "Convergence test", "next correction",
                   Selection("next correction|last increment"),
                   "Which increment Newton's convergence test compares with the Increment "
                   "tolerance, beside the residual at the iterate. next correction: the "
                   "Newton correction at the iterate, which estimates the iterate's own "
                   "error (Deuflhard 2004, §2.1); the step ends at the iterate when both are "
                   "below their tolerances, without applying that last correction. last "
                   "increment: the correction that led to the iterate (the method before "
                   "2026-11-27), which lags one iteration behind, so a quadratically "
                   "converging step takes one more assembly (docs/methods.md §3.6).");
      e.entry(max_cutbacks, "Maximum cut-backs", "6",
              "How often a non-converging step is halved before the run stops "
              "with an error.");
      e.entry(max_energy_error, "Maximum energy balance error", "0.2", Double(0.),
              "The run stops with an error when the energy balance of docs/methods.md §2.2 "
              "(platen work = change of stored, kinetic and potential energy + "
              "all dissipation) fails by more than this fraction of the work "
              "done: the sign of an unstable explicit DEM-FEM coupling, which "
              "must never go on silently (docs/methods.md §5.3).");
      e.text_entry([this](const std::string &scheme) {
                     monolithic_coupling = scheme == "monolithic";
                   },
                   "Coupling scheme", "monolithic", Selection("monolithic|staggered"),
                   "How the DEM particle and the rubber are coupled in a time step. "
                   "monolithic (choice, default): the particle's centre and rotation "
                   "are unknowns of the rubber's Newton system (implicit Newmark for "
                   "both, consistent linearisation of both contacts), stable at any "
                   "time step. staggered: docs/methods.md §5.3, the particle advanced explicitly "
                   "with the rubber force of t_n, then the rubber solved with the "
                   "particle held (with the sub-iterations below); it fails when the "
                   "particle moves fast, e.g. the default ellipse rolling over its "
                   "edge (docs/methods.md §5.3).");
      e.text_entry([this](const std::string &forces) {
                     particle_discrete_gradient = forces == "discrete gradient";
                   },
                   "Particle contact forces", "discrete gradient",
                   Selection("discrete gradient|end of step"),
                   "Monolithic scheme only: how the particle's motion and its contact with "
                   "the surface are integrated over a step (docs/methods.md §5.4). "
                   "discrete gradient: the contact force of the step is the discrete "
                   "gradient of the Hertz potential between the lowest points at both ends "
                   "of the step (its work equals the change of the stored energy, friction "
                   "and damping only dissipate) and the particle follows the mid-point rule "
                   "with the rubber's force averaged over the step; the contact cannot "
                   "create energy at any step length (choice, default). end of step: Newmark "
                   "with the "
                   "contact force at the end of the step at one material point of the "
                   "particle, the method of earlier versions, which creates energy "
                   "where the particle rolls over or rocks (docs/methods.md §5.3.4).");
      e.entry(particle_gamma, "Particle gamma", "0.5", Double(0.5, 1.),
              "Particle contact forces = discrete gradient only: gamma_p of the particle's "
              "update q_{n+1} - q_n = dt ((1 - gamma_p) v_n + gamma_p v_{n+1}) "
              "(docs/methods.md §5.4). 0.5: the mid-point rule, which neither creates nor "
              "removes energy; larger values damp the particle's fast oscillations and "
              "remove (gamma_p - 1/2) M (v_{n+1} - v_n)^2 per step, reported as numerical "
              "dissipation.");
      e.text_entry([this](const std::string &jacobian) {
                     particle_jacobian_ad = jacobian == "automatic differentiation";
                   },
                   "Particle contact Jacobian", "automatic differentiation",
                   Selection("automatic differentiation|finite differences"),
                   "Particle contact forces = discrete gradient only: how Newton's method "
                   "gets the derivative of the particle-surface force and moment with "
                   "respect to the particle's position and rotation (docs/methods.md §5.4). "
                   "automatic differentiation: exact, by Trilinos Sacado's forward mode "
                   "through the step force's own arithmetic (default). finite differences: "
                   "central differences, 6 extra evaluations of the contact per Newton "
                   "iteration, the method of earlier versions. The end-of-step forces always "
                   "use central differences.");
      e.text_entry([this](const std::string &forces) {
                     rubber_particle_discrete_gradient = forces == "discrete gradient";
                   },
                   "Rubber-particle contact forces", "end of step",
                   Selection("end of step|discrete gradient"),
                   "Monolithic scheme with Particle contact forces = discrete gradient only: "
                   "how the penalty contact between the rubber and the particle is evaluated "
                   "over a step (docs/methods.md §5.5). end of step: the traction of the "
                   "positions at the end of the step, with a stick point fixed in the "
                   "particle (default). discrete gradient: the traction of the step is the "
                   "discrete gradient of the penalty potential between the rubber point's "
                   "positions relative to the particle at both ends of the step, with an "
                   "incremental tangential gap; its work on the rubber and the particle "
                   "equals minus the change of the stored energy minus the frictional "
                   "dissipation at any step length, so a rubber point that snaps across "
                   "the particle within one step neither creates nor loses energy in the "
                   "contact. Measured on the reduced cell, the energy a snapping rubber point "
                   "gives up then goes into Newmark's numerical dissipation instead, Newton "
                   "needs 2-3 times the assemblies, and the rectangle at 4 MPa no longer "
                   "rolls over (docs/results/energy-ledger.md).");
      e.entry(coupling_iterations, "Coupling iterations", "20",
              "Staggered scheme only: maximum DEM-FEM sub-iterations per time "
              "step. After the explicit "
              "pass of docs/methods.md §5.3 the particle is advanced again from t_n with the "
              "trapezoidal rubber force (F_n + F_{n+1})/2 and the rubber solved "
              "again (Aitken relaxation) until the interface work mismatch is "
              "below the Coupling tolerance; the converged coupling is implicit. "
              "0: the plain explicit staggering of Temizer 2013.");
      e.entry(coupling_tolerance, "Coupling tolerance", "1e-3", Double(0.),
              "Staggered scheme only: accepted mismatch of the interface work "
              "over a step, relative to the platen's work per step p L0 v_F dt.");
      e.text_entry([this](const std::string &lu) { klu = lu == "KLU"; }, "Sparse LU", "KLU",
                   Selection("KLU|UMFPACK"),
                   "The sparse LU factorization of the Newton tangent, which also "
                   "preconditions GMRES while the tangent changes little. KLU "
                   "(SuiteSparse): the pivots of a full factorization are kept and later "
                   "tangents only refactorized numerically, no iterative refinement "
                   "(docs/methods.md §3.6). UMFPACK: deal.II's SparseDirectUMFPACK, a "
                   "full factorization each time (the solver before 2026-11-24).");
      e.entry(preconditioned_iterations, "Preconditioned GMRES iterations", "8",
              Integer(0, 1000),
              "GMRES iterations allowed with the LU factorization of an earlier tangent "
              "as preconditioner before the current tangent is factorized; a solve that "
              "needed more than half of them refreshes the factorization at the next "
              "solve. More iterations mean fewer factorizations and more triangular "
              "solves per Newton iteration; 0: a factorization at every Newton iteration "
              "(docs/methods.md §3.6).");
      e.text_entry([this](const std::string &rule) { refresh_by_cost = rule == "cost"; },
                   "Factorization refresh", "iterations", Selection("iterations|cost"),
                   "When the LU that preconditions GMRES is refreshed. iterations: after a "
                   "solve that needed more than half of Preconditioned GMRES iterations; "
                   "cost (KLU only): when the GMRES iterations since the last factorization "
                   "have cost as many floating-point operations as a factorization (each "
                   "iteration a solve with the LU and a product with the tangent). Either "
                   "way a solve that does not converge within Preconditioned GMRES "
                   "iterations factorizes the tangent (docs/methods.md §3.6).");
      e.text_entry([this](const std::string &control) {
                     adaptive_time_step = control == "adaptive";
                   },
                   "Time step control", "adaptive", Selection("fixed|adaptive"),
                   "fixed: every step is Loading/Time step (halved only when Newton "
                   "fails). adaptive: steps of 1, 2, 4, ... times Loading/Time step, up "
                   "to Maximum time step, chosen after each step from its Newton "
                   "iterations and the energy it created or lost to the time "
                   "discretisation (docs/methods.md §3.6); Loading/Time step stays the "
                   "accuracy reference, the shortest regular step and the grid of "
                   "history.csv and the VTU output.");
      e.entry(max_step_multiple, "Maximum time step", "16", Integer(1, 1024),
              "Adaptive time steps: the longest step, as a multiple of Loading/Time "
              "step.");
      e.entry(step_energy_tolerance, "Step energy tolerance", "1e-3", Double(0.),
              "Adaptive time steps: a step may grow while the energy it creates or "
              "loses to the time discretisation (the step's energy-balance residual "
              "plus Newmark's algorithmic dissipation) stays below a quarter of this "
              "fraction of the platen's nominal work p L0 v_F dt over the step, and "
              "it shrinks when the fraction is exceeded.");
      e.entry(step_rejection, "Step rejection", "true",
              "Adaptive time steps: true: a step longer than Loading/Time step whose "
              "energy error exceeds Step energy tolerance is rejected, and repeated with "
              "half its length from the state before it (kept in memory), down to "
              "Loading/Time step, which is always accepted; a rejected step leaves no "
              "trace in the results, only in the count rejected_steps of summary.csv "
              "and in its Newton iterations (failed_newton_iterations). false: such a "
              "step is accepted and only the next one is shorter (docs/methods.md §3.6).");
      e.entry(long_step_newton_iterations, "Newton iterations of a long step", "8",
              Integer(1),
              "Adaptive time steps: Newton iterations a step longer than Loading/Time "
              "step may take before it is halved (a stalling long step is cut back "
              "early instead of after Maximum Newton iterations).");
      e.text_entry([this](const std::string &search) {
                     quadratic_line_search = search == "quadratic model";
                   },
                   "Line search", "quadratic model", Selection("quadratic model|halving"),
                   "The shorter trials of Newton's backtracking line search on |r| when a "
                   "full step raises it. quadratic model: the first trial halves the step, "
                   "each later one minimises a quadratic model of |r|^2 within a tenth to a "
                   "half of the last trial (Dennis & Schnabel 1996, §6.3.2); halving: every "
                   "trial halves (the method before). Both stop at 8 trials or a step of "
                   "1/256 (docs/methods.md §3.6).");
      e.entry(stall_iterations, "Stall iterations", "5", Integer(0),
              "A step whose residual norm has not halved within this many Newton "
              "iterations (while above 1e-6 of the reference force) stalls, typically at a "
              "contact kink that Newton cannot resolve at this step length, and is cut "
              "back at once instead of using up Maximum Newton iterations. 0: never "
              "(docs/methods.md §3.6).");
      e.entry(damped_predictor_weight, "Damped predictor weight", "0.25", Double(0., 1.),
              "The first Newton iterate of a step is u_n + w (dt/dt_last) du_last, the last "
              "converged increment extrapolated with the weight w: 1 (exact in steady "
              "sliding) except for the Damped predictor steps steps and sub-steps after a "
              "Newton failure, which start from this w; the particle's pose in the "
              "monolithic coupling likewise (the staggered coupling always extrapolates "
              "fully). Where a roll-over has just made a step fail, "
              "the last increment is a poor guide to the next (docs/methods.md §3.6; "
              "docs/performance.md#the-damped-predictor).");
      e.entry(damped_predictor_steps, "Damped predictor steps", "200", Integer(0),
              "Steps and sub-steps after a Newton failure that start from Damped predictor "
              "weight. 0: every step extrapolates the last increment fully (the method "
              "before).");
      e.entry(cutback_memory, "Cut-back memory", "0", Integer(0),
              "After a step that was cut back, the following steps start split into "
              "sub-steps of the length that converged last, instead of first failing at "
              "their full length; that length doubles again after this many steps without "
              "a cut-back. 0: every step is first tried at its full length "
              "(docs/methods.md §3.6). In the full default run 8 takes a third fewer "
              "assemblies, with k̄ within its spread but twice Newmark's numerical "
              "dissipation (docs/performance.md#cut-back-memory), so it is not the "
              "default. The staggered coupling tries every step at its full length first.");
    });
  }

  SolverParameters::RubberIntegrator SolverParameters::rubber_integrator() const
  {
    if (!bossak)
      return {newmark_beta, newmark_gamma, 0.};
    const double alpha_m = (spectral_radius - 1.) / (spectral_radius + 1.);
    return {0.25 * (1. - alpha_m) * (1. - alpha_m), 0.5 - alpha_m, alpha_m};
  }

  void SolverParameters::validate() const
  {
    if (!(spectral_radius >= 0. && spectral_radius <= 1.))
      throw ParameterError("Solver/Spectral radius", "must lie in [0, 1]");
    require_positive("Solver/Newmark beta", newmark_beta, "Newmark beta");
    if (!(newmark_gamma >= 0.5))
      throw ParameterError("Solver/Newmark gamma", "must be >= 1/2 for stability");
    if (!(newmark_beta >= 0.25 * (newmark_gamma + 0.5) * (newmark_gamma + 0.5) - 1e-14))
      throw ParameterError("Solver/Newmark beta",
                           "must be >= (gamma + 1/2)^2 / 4 for unconditional stability");
    require_positive("Solver/Residual tolerance", residual_tolerance, "the tolerance");
    require_positive("Solver/Increment tolerance", increment_tolerance, "the tolerance");
    require_positive("Solver/Step energy tolerance", step_energy_tolerance, "the tolerance");
  }
} // namespace granular
