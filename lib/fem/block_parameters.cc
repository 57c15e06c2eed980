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
              "g0 in mm: initial gap between the particle's top (without particle: the "
              "surface) and the block's bottom (docs/methods.md §2).");
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
    // the methods and the measurements behind each default: docs/methods.md §3.6, §5.3-5.5
    e.subsection("Solver", [&] {
      e.entry(newmark_beta, "Newmark beta", "0.5625",
              "Newmark beta of the rubber (docs/methods.md §3.6); unconditionally stable "
              "for beta >= (gamma + 1/2)^2 / 4.");
      e.entry(newmark_gamma, "Newmark gamma", "1.0",
              "Newmark gamma: 1 damps the light rubber's high-frequency waves as strongly "
              "as Newmark can (reported as numerical dissipation); 0.5 with beta = 0.25 is "
              "the undamped trapezoidal rule.");
      e.entry(max_newton_iterations, "Maximum Newton iterations", "25", Integer(1),
              "Newton-Raphson iterations per step before the step is cut back.");
      e.entry(residual_tolerance, "Residual tolerance", "1e-8", Double(0.),
              "Convergence: residual norm relative to the reference force norm.");
      e.entry(increment_tolerance, "Increment tolerance", "1e-8", Double(0.),
              "Convergence: the Newton correction at the iterate (its error estimate, "
              "Deuflhard 2004, §2.1) relative to the block height.");
      e.entry(max_cutbacks, "Maximum cut-backs", "6",
              "How often a non-converging step is halved before the run stops with an "
              "error.");
      e.entry(max_energy_error, "Maximum energy balance error", "0.2", Double(0.),
              "The run stops with an error when the energy balance (docs/methods.md §2.2) "
              "fails by more than this fraction of the work done (docs/methods.md §5.3.3).");
      e.text_entry([this](const std::string &scheme) {
                     monolithic_coupling = scheme == "monolithic";
                   },
                   [this] { return monolithic_coupling ? "monolithic" : "staggered"; },
                   "Coupling scheme", "monolithic", Selection("monolithic|staggered"),
                   "monolithic (choice): the particle's pose is solved in the rubber's "
                   "Newton system, stable at any step (docs/methods.md §5.3.1, §5.4). "
                   "staggered: the paper's explicit coupling (docs/methods.md §5.3.2), kept "
                   "to compare with Temizer 2013; it fails where the particle moves fast.");
      e.entry(particle_gamma, "Particle gamma", "0.5", Double(0.5, 1.),
              "Monolithic scheme: gamma_p of the particle's update (docs/methods.md §5.4); "
              "0.5, the mid-point rule, neither creates nor removes energy, larger values "
              "damp (reported as numerical dissipation).");
      e.text_entry([this](const std::string &forces) {
                     rubber_particle_discrete_gradient = forces == "discrete gradient";
                   },
                   [this] {
                     return rubber_particle_discrete_gradient ? "discrete gradient" :
                                                                "end of step";
                   },
                   "Rubber-particle contact forces", "end of step",
                   Selection("end of step|discrete gradient"),
                   "Monolithic scheme: the rubber-particle traction at the end of the step, "
                   "or the discrete gradient of its potential over the step "
                   "(docs/methods.md §5.5), which costs 2-3 times the assemblies; kept for "
                   "the work on solvable steps.");
      e.entry(rubber_particle_velocity_update, "Rubber-particle velocity update", "false",
              "Monolithic scheme: at the start of every step, each contact point of the "
              "rubber's bottom that x_n + dt v_n carries into a particle loses its normal "
              "velocity relative to it, in a perfectly inelastic impulse between the face's "
              "nodes and the particle (contact-stabilised Newmark, docs/methods.md §6.1); "
              "the kinetic energy taken is numerical dissipation. For elastic layers of "
              "several particles, which the rubber's bottom strikes.");
      e.entry(coupling_iterations, "Coupling iterations", "20",
              "Staggered scheme: DEM-FEM sub-iterations per step after the explicit pass "
              "(docs/methods.md §5.3.2); 0: the plain explicit staggering of Temizer 2013.");
      e.entry(coupling_tolerance, "Coupling tolerance", "1e-3", Double(0.),
              "Staggered scheme: accepted mismatch of the interface work over a step, "
              "relative to the platen's work per step p L0 v_F dt.");
      e.entry(preconditioned_iterations, "Preconditioned GMRES iterations", "8",
              Integer(0, 1000),
              "GMRES iterations with the KLU factorization of an earlier tangent as "
              "preconditioner before the tangent is factorized (docs/methods.md §3.6); 0: "
              "a factorization at every Newton iteration.");
      e.text_entry([this](const std::string &rule) { refresh_by_cost = rule == "cost"; },
                   [this] { return refresh_by_cost ? "cost" : "iterations"; },
                   "Factorization refresh", "iterations", Selection("iterations|cost"),
                   "When that LU is refreshed: after a solve that needed more than half of "
                   "those iterations, or once the iterations have cost a factorization.");
      e.text_entry([this](const std::string &control) {
                     adaptive_time_step = control == "adaptive";
                   },
                   [this] { return adaptive_time_step ? "adaptive" : "fixed"; },
                   "Time step control", "adaptive", Selection("fixed|adaptive"),
                   "fixed: every step is Loading/Time step. adaptive: 1, 2, 4, ... times it, "
                   "chosen from each step's Newton iterations and energy error "
                   "(docs/methods.md §3.6); Loading/Time step stays the output's grid.");
      e.entry(max_step_multiple, "Maximum time step", "16", Integer(1, 1024),
              "Adaptive steps: the longest step, as a multiple of Loading/Time step.");
      e.entry(step_energy_tolerance, "Step energy tolerance", "1e-3", Double(0.),
              "Adaptive steps: the energy a step may create or lose to the time "
              "discretisation, as a fraction of the platen's nominal work p L0 v_F dt.");
      e.entry(step_rejection, "Step rejection", "true",
              "Adaptive steps: a long step above the Step energy tolerance is repeated "
              "with half its length (counted in rejected_steps of summary.csv).");
      e.entry(long_step_newton_iterations, "Newton iterations of a long step", "8",
              Integer(1),
              "Adaptive steps: Newton iterations of a step longer than Loading/Time step "
              "before it is halved.");
      e.entry(stall_iterations, "Stall iterations", "5", Integer(0),
              "A step whose residual has not halved within this many Newton iterations "
              "is cut back at once (docs/methods.md §3.6); 0: never.");
      e.entry(line_search_give_up, "Line search give-up", "0", Integer(0, 7),
              "A Newton iteration whose line search has tried this many shorter steps "
              "without lowering the residual gives the step up, and it is cut back "
              "(docs/methods.md §3.6); 0: never (the line search stops at 1/256 of the "
              "step and goes on from there).");
      e.entry(damped_predictor_weight, "Damped predictor weight", "0.25", Double(0., 1.),
              "The weight w of the predictor u_n + w (dt/dt_last) du_last after a Newton "
              "failure; 1 otherwise (docs/methods.md §3.6).");
      e.entry(damped_predictor_steps, "Damped predictor steps", "200", Integer(0),
              "Steps and sub-steps after a Newton failure that take the damped predictor "
              "(0: none).");
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
