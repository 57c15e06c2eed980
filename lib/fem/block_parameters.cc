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
              "Newmark gamma. The default 1 (with beta = (gamma + 1/2)^2/4 = 0.5625) "
              "damps the high-frequency waves of the light rubber (rho_B = 1e-3 rho_P only "
              "regularises) as strongly as Newmark can; the energy it takes is reported as "
              "numerical dissipation. 0.5 with beta = 0.25 is the undamped trapezoidal "
              "rule (docs/methods.md §3.6, docs/results/energy-ledger.md).");
      e.entry(max_newton_iterations, "Maximum Newton iterations", "25", Integer(1),
              "Newton-Raphson iterations per step before the step is cut.");
      e.entry(residual_tolerance, "Residual tolerance", "1e-8", Double(0.),
              "Convergence: residual norm relative to the reference force norm.");
      e.entry(increment_tolerance, "Increment tolerance", "1e-8", Double(0.),
              "Convergence: the Newton correction at the iterate, which estimates the "
              "iterate's own error (Deuflhard 2004, §2.1), relative to the block height; "
              "the step ends when it and the residual are below their tolerances.");
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
                   "are unknowns of the rubber's Newton system, the particle-surface "
                   "contact the discrete gradient of its potential with the mid-point rule "
                   "for the particle (docs/methods.md §5.4), stable at any time step. "
                   "staggered: the paper's explicit coupling (docs/methods.md §5.3), the "
                   "particle advanced explicitly with the rubber force of t_n, then the "
                   "rubber solved with the particle held (with the sub-iterations below); "
                   "kept to compare with Temizer 2013; it fails when the particle moves "
                   "fast, e.g. the default ellipse rolling over its edge.");
      e.entry(particle_gamma, "Particle gamma", "0.5", Double(0.5, 1.),
              "Monolithic scheme: gamma_p of the particle's update q_{n+1} - q_n = dt ((1 - "
              "gamma_p) v_n + gamma_p v_{n+1}) (docs/methods.md §5.4). 0.5: the mid-point "
              "rule, which neither creates nor removes energy; larger values damp the "
              "particle's fast oscillations and remove (gamma_p - 1/2) M (v_{n+1} - v_n)^2 "
              "per step, reported as numerical dissipation.");
      e.text_entry([this](const std::string &forces) {
                     rubber_particle_discrete_gradient = forces == "discrete gradient";
                   },
                   "Rubber-particle contact forces", "end of step",
                   Selection("end of step|discrete gradient"),
                   "Monolithic scheme only: how the penalty contact between the rubber and "
                   "the particle is evaluated over a step (docs/methods.md §5.5). end of "
                   "step: the traction of the positions at the end of the step, with a stick "
                   "point fixed in the particle (default). discrete gradient: the discrete "
                   "gradient of the penalty potential between the rubber point's positions "
                   "relative to the particle at both ends of the step, whose work equals the "
                   "change of the stored energy plus the frictional dissipation at any step "
                   "length. It costs 2-3 times the assemblies and the rectangle at 4 MPa "
                   "does not roll over with it (docs/results/energy-ledger.md); it stays "
                   "selectable as a candidate of the work on solvable steps.");
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
      e.entry(preconditioned_iterations, "Preconditioned GMRES iterations", "8",
              Integer(0, 1000),
              "The Newton tangent is factorized by SuiteSparse KLU (docs/methods.md §3.6). "
              "GMRES iterations allowed with the LU factorization of an earlier tangent "
              "as preconditioner before the current tangent is factorized; 0: a "
              "factorization at every Newton iteration.");
      e.text_entry([this](const std::string &rule) { refresh_by_cost = rule == "cost"; },
                   "Factorization refresh", "iterations", Selection("iterations|cost"),
                   "When the LU that preconditions GMRES is refreshed. iterations: after a "
                   "solve that needed more than half of Preconditioned GMRES iterations; "
                   "cost: when the GMRES iterations since the last factorization have cost "
                   "as many floating-point operations as a factorization. Either way a "
                   "solve that does not converge within Preconditioned GMRES iterations "
                   "factorizes the tangent.");
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
              "energy error exceeds Step energy tolerance is repeated with half its "
              "length from the state before it, down to Loading/Time step, which is "
              "always accepted; it leaves no trace in the results but the counts "
              "rejected_steps and failed_newton_iterations of summary.csv. false: such a "
              "step is accepted and only the next one is shorter.");
      e.entry(long_step_newton_iterations, "Newton iterations of a long step", "8",
              Integer(1),
              "Adaptive time steps: Newton iterations a step longer than Loading/Time "
              "step may take before it is halved.");
      e.entry(stall_iterations, "Stall iterations", "5", Integer(0),
              "A step whose residual norm has not halved within this many Newton "
              "iterations (while above 1e-6 of the reference force) stalls, typically at a "
              "contact kink that Newton cannot resolve at this step length, and is cut "
              "back at once. 0: never (docs/methods.md §3.6).");
      e.entry(damped_predictor_weight, "Damped predictor weight", "0.25", Double(0., 1.),
              "The first Newton iterate of a step is u_n + w (dt/dt_last) du_last, the last "
              "converged increment extrapolated with the weight w: 1 (exact in steady "
              "sliding) except for the Damped predictor steps steps and sub-steps after a "
              "Newton failure, which start from this w, where a roll-over makes the last "
              "increment a poor guide to the next; the particle's pose in the monolithic "
              "coupling likewise (docs/methods.md §3.6).");
      e.entry(damped_predictor_steps, "Damped predictor steps", "200", Integer(0),
              "Steps and sub-steps after a Newton failure that start from Damped predictor "
              "weight (0: none). Kept as a number to tune, since the predictor is a lever "
              "of the work on solvable steps.");
    });
  }

  const std::vector<RetiredEntry> &retired_solver_entries()
  {
    static const std::vector<RetiredEntry> entries = {
      {"Solver/Rubber time integrator", "Newmark",
       "the rubber is integrated with Newmark's method (Solver/Newmark beta and Newmark gamma)"},
      {"Solver/Spectral radius", "", "it belonged to the retired Bossak integrator"},
      {"Solver/Convergence test", "next correction",
       "Newton's convergence test is always on the next correction (Solver/Increment "
       "tolerance)"},
      {"Solver/Particle contact forces", "discrete gradient",
       "the monolithic coupling always integrates the particle-surface contact as a discrete "
       "gradient with the mid-point rule (Solver/Particle gamma)"},
      {"Solver/Particle contact Jacobian", "automatic differentiation",
       "the particle-surface contact's Jacobian is always exact, by automatic "
       "differentiation"},
      {"Solver/Sparse LU", "KLU", "the Newton tangent is always factorized by SuiteSparse KLU"},
      {"Solver/Line search", "quadratic model",
       "the line search always minimises a quadratic model of |r|^2"},
      {"Solver/Cut-back memory", "0",
       "every step is first tried at its full length (Solver/Time step control = adaptive "
       "chooses the lengths)"}};
    return entries;
  }

  void SolverParameters::validate() const
  {
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
