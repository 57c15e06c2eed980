#include "coupling/loading_parameters.h"

#include "base/parameter_error.h"

#include <deal.II/base/parameter_handler.h>

namespace granular
{
  using namespace dealii::Patterns;

  void LoadingParameters::declare_parameters(dealii::ParameterHandler &prm)
  {
    prm.enter_subsection("Loading");
    prm.declare_entry("Pressure", "2", Double(),
                      "Macroscopic pressure p in MPa (1 MPa = 10 bar); the platen "
                      "carries the vertical load p L0 (N per mm thickness).");
    prm.declare_entry("Slip velocity", "2500", Double(),
                      "Macroscopic slip velocity v_F in mm/s (2500 mm/s = 2.5 m/s). "
                      "Sets the nominal dragging time T0 = L0 / v_F.");
    prm.declare_entry("Load ramp fraction", "0.5", Double(),
                      "The vertical load ramps linearly from 0 to p L0 over this "
                      "fraction of T0, then is held (spec §2.1).");
    prm.declare_entry("Time step", "1e-4", Double(),
                      "Time step Delta t as a fraction of T0 (must be < 1).");
    prm.declare_entry("Averaging time", "2", Double(),
                      "Averaging time T_avg as a multiple of T0; the run ends at "
                      "2 T0 + T_avg.");
    prm.leave_subsection();
  }

  void LoadingParameters::parse_parameters(dealii::ParameterHandler &prm)
  {
    prm.enter_subsection("Loading");
    pressure        = prm.get_double("Pressure");
    slip_velocity   = prm.get_double("Slip velocity");
    ramp_fraction   = prm.get_double("Load ramp fraction");
    time_step_ratio = prm.get_double("Time step");
    averaging_ratio = prm.get_double("Averaging time");
    prm.leave_subsection();
  }

  void LoadingParameters::validate() const
  {
    require_positive("Loading/Pressure", pressure, "the macroscopic pressure");
    require_positive("Loading/Slip velocity", slip_velocity, "the slip velocity");
    if (!(ramp_fraction > 0. && ramp_fraction <= 1.))
      throw ParameterError("Loading/Load ramp fraction", "must lie in (0, 1]");
    require_positive("Loading/Time step", time_step_ratio, "the time step");
    if (!(time_step_ratio < 1.))
      throw ParameterError("Loading/Time step",
                           "the time step must be smaller than T0 = L0 / v_F "
                           "(the value is a fraction of T0)");
    require_positive("Loading/Averaging time", averaging_ratio, "the averaging time");
  }
} // namespace granular
