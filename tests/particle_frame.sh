#!/usr/bin/env bash
# CTest VtkOutput.ParticleAndRubberShareOneFrame: in a reduced viscoelastic cell where the
# ellipse rolls over and the rubber is dragged 2 L0 by the end, particle.pvd and solution.pvd
# share one frame in ParaView: the displaced rubber touches a drawn copy of the particle at
# every output time (tests/check_particle_frame.py). The run in WORK_DIR is also the input of
# Postprocess.RunPicturesAnimationAndComparisons.
# Usage: particle_frame.sh GRANULAR_EXECUTABLE SOURCE_DIR WORK_DIR
set -euo pipefail
exe=$1; src=$2; work=$3
source "$src/tests/shell_checks.sh"
rm -rf "$work" "$work.log"
"$exe" "$src/params/circular.prm" --output-directory "$work" \
  --set 'Geometry/Block length=3' --set 'Geometry/Block height=1.5' \
  --set 'Geometry/Elements in x=8' --set 'Geometry/Elements in y=4' \
  --set 'Particle/Shape=elliptical' --set 'Rubber/Maxwell branch/Viscoelastic=true' \
  --set 'Loading/Time step=1e-3' --set 'Loading/Averaging time=0.2' \
  --set 'Output/VTU output interval=400' --set 'Output/Checkpoint interval=0' > "$work.log"
"$PYTHON" "$src/tests/check_particle_frame.py" "$work"
