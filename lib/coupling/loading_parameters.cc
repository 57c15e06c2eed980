#include "coupling/loading_parameters.h"

#include "base/parameter_entries.h"
#include "base/parameter_error.h"

#include <sstream>

namespace granular
{
  void LoadingParameters::entries(ParameterEntries &e)
  {
    e.subsection("Loading", [&] {
      e.entry(pressure, "Pressure", "2",
              "Macroscopic pressure p in MPa (1 MPa = 10 bar); the platen "
              "carries the vertical load p L0 (N per mm thickness).");
      e.entry(slip_velocity, "Slip velocity", "2500",
              "Macroscopic slip velocity v_F in mm/s; T0 = L0 / v_F. At most a tenth of "
              "the rubber's shear wave speed sqrt(mu_e / rho_B) (5.8e4 mm/s at the "
              "defaults; a value above is refused).");
      e.entry(ramp_fraction, "Load ramp fraction", "0.5",
              "The vertical load ramps linearly from 0 to p L0 over this "
              "fraction of T0, then is held (docs/methods.md §2.1).");
      e.entry(time_step_ratio, "Time step", "1e-4",
              "Time step Delta t as a fraction of T0 (< 1). A run of more than 1e7 steps "
              "needs --allow-long-run, of more than 1e8 is refused; with a particle "
              "Delta t = (Time step) L0 / v_F is at most 5e-6 s "
              "(docs/running.md#meaningful-ranges).");
      e.entry(averaging_ratio, "Averaging time", "2",
              "Averaging time T_avg as a multiple of T0; the run ends at "
              "2 T0 + T_avg.");
    });
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
    // the run counts its steps of Delta t in unsigned ints (1e-19 overflowed them, and the
    // run ended after 0 steps); far below that limit a run would take months
    const double reference_steps = (2. + averaging_ratio) / time_step_ratio;
    if (!(reference_steps <= max_reference_steps))
      {
        std::ostringstream s;
        s << "a run of (2 + Loading/Averaging time) / Loading/Time step = " << reference_steps
          << " steps of Delta t is more than the program runs (at most " << max_reference_steps
          << " steps; the default run takes 40000)";
        throw ParameterError("Loading/Time step", s.str());
      }
    if (reference_steps > long_run_steps && !allow_long_run)
      {
        std::ostringstream s;
        s << "a run of (2 + Loading/Averaging time) / Loading/Time step = " << reference_steps
          << " steps of Delta t is a very long run (more than " << long_run_steps
          << " steps, " << long_run_steps / 40000.
          << " times the default run's 40000: days of computing); check the time step, or "
             "give --allow-long-run to run it";
        throw ParameterError("Loading/Time step", s.str());
      }
  }
} // namespace granular
