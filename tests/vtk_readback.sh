#!/usr/bin/env bash
# CTest: a tiny bare-interface run, then its ParaView output (solution.pvd, surface.pvd)
# read back with python3-meshio and checked (tests/check_vtk_output.py).
# Usage: vtk_readback.sh GRANULAR_EXECUTABLE SOURCE_DIR WORK_DIR
set -euo pipefail
exe=$1; src=$2; work=$3
rm -rf "$work"
"$exe" "$src/params/bare-interface.prm" --output-directory "$work" \
  --set "Geometry/Elements in x=10" --set "Geometry/Elements in y=4" \
  --set "Loading/Time step=2e-3" --set "Loading/Averaging time=0.5" \
  --set "Output/VTU output interval=250" --set "Output/Progress interval=100" > "$work.log"
/usr/bin/python3 "$src/tests/check_vtk_output.py" "$work"
