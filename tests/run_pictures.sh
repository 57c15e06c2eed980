#!/usr/bin/env bash
# CTest Postprocess.RunPicturesAnimationAndComparisons: the pictures of a run (deformed rubber
# coloured by tau2 with the particle, an animated GIF, the particle's trajectory), compare.py
# and the k-bar figures with error bars, failed points and a bare interface's label
# (tests/check_run_pictures.py), on a finished run with VTU output and on a tiny bare sweep
# over two pressures run here.
# Usage: run_pictures.sh GRANULAR_EXECUTABLE SOURCE_DIR RUN_DIR WORK_DIR
set -euo pipefail
exe=$1; src=$2; run=$3; work=$4
source "$src/tests/shell_checks.sh"
fresh_directory "$work"
work=$(cd "$work" && pwd -P)
cat > "$work/sweep.prm" <<PRM
subsection Output
  set Output directory = $work/sweep
  set VTU output interval = 0
  set Progress interval = 100
end
subsection Geometry
  set Elements in x = 10
  set Elements in y = 4
end
subsection Loading
  set Time step = 2e-3
  set Averaging time = 0.5
end
subsection Particle
  set Enabled = false
end
subsection Sweep
  set Pressures = 1, 2
end
PRM
"$exe" "$work/sweep.prm" > "$work/sweep.log"
"$PYTHON" "$src/tests/check_run_pictures.py" "$run" "$work/sweep" "$work/work"
