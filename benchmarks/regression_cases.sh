#!/usr/bin/env bash
# Bit-identity harness for refactors (issue 14): runs the reduced-cell cases of the test
# suite, the shape cases of the reduced pressure sweep and a shortened bare interface with
# one binary, and keeps each case's history.csv and summary.csv (without its timing
# columns). Two such directories are compared byte for byte with --compare.
#
#   bash benchmarks/regression_cases.sh BUILD_DIR OUT_DIR      # run all cases
#   bash benchmarks/regression_cases.sh --compare DIR_A DIR_B  # 0 if identical
#
# Each case runs on one core, one after the other (about 5 minutes in all).
set -euo pipefail

if [ "${1:-}" = "--compare" ]; then
  a=$2; b=$3; status=0
  for case_dir in "$a"/*/; do
    name=$(basename "$case_dir")
    for f in history.csv summary-no-times.csv; do
      if ! cmp -s "$a/$name/$f" "$b/$name/$f"; then
        echo "DIFFERENT: $name/$f"
        status=1
      else
        echo "identical: $name/$f"
      fi
    done
  done
  exit $status
fi

build=$(cd "$1" && pwd); out=$2
src=$(cd "$(dirname "$0")/.." && pwd)
exe="$build/granular-interface"
mkdir -p "$out"
out=$(cd "$out" && pwd)

# the cell of the reduced coupled tests (tests/test_coupling.cc)
reduced=(--set "Geometry/Block length=3" --set "Geometry/Block height=1.5"
         --set "Geometry/Elements in x=12" --set "Geometry/Elements in y=6"
         --set "Output/VTU output interval=0" --set "Output/Progress interval=1000")

run_case() {
  local name=$1; shift
  local dir="$out/$name"
  rm -rf "$dir"
  local start=$SECONDS
  "$exe" "$@" --output-directory "$dir" --set "Output/Checkpoint interval=0" \
    > "$out/$name.log" 2>&1 || { echo "$name: FAILED (see $out/$name.log)"; return 1; }
  # summary.csv without wall_time and the time_* columns
  /usr/bin/python3 - "$dir" <<'PY'
import csv, sys
d = sys.argv[1]
rows = list(csv.reader(open(d + "/summary.csv")))
keep = [i for i, h in enumerate(rows[0]) if h != "wall_time" and not h.startswith("time_")]
with open(d + "/summary-no-times.csv", "w") as f:
    for r in rows:
        f.write(",".join(r[i] for i in keep) + "\n")
PY
  echo "$name: $((SECONDS - start)) s"
}

# tests/vtk_readback.sh and test_rubber_block.cc: the tiny bare interface
run_case bare-tiny "$src/params/bare-interface.prm" \
  --set "Geometry/Elements in x=10" --set "Geometry/Elements in y=4" \
  --set "Loading/Time step=2e-3" --set "Loading/Averaging time=0.5" \
  --set "Output/VTU output interval=250" --set "Output/Progress interval=1000"
# params/bare-interface.prm at full mesh, shortened: Delta t = 1e-3 T0, window 0.5 T0
run_case bare-interface-short "$src/params/bare-interface.prm" \
  --set "Loading/Time step=1e-3" --set "Loading/Averaging time=0.5" \
  --set "Output/VTU output interval=0" --set "Output/Progress interval=1000"
# tests/test_coupling.cc: the reduced coupled circle, monolithic and staggered
run_case circle-monolithic "$src/params/circular.prm" "${reduced[@]}" \
  --set "Loading/Time step=1.25e-4" --set "Loading/Averaging time=0.1"
run_case circle-staggered "$src/params/circular.prm" "${reduced[@]}" \
  --set "Loading/Time step=1.25e-4" --set "Loading/Averaging time=0.1" \
  --set "Solver/Coupling scheme=staggered"
# tests/test_checkpoint.cc: the viscoelastic ellipse on 8 x 4, with and without Payne
for payne in 0 1e-5; do
  run_case "ellipse-viscoelastic-d$payne" "$src/params/circular.prm" "${reduced[@]}" \
    --set "Geometry/Elements in x=8" --set "Geometry/Elements in y=4" \
    --set "Particle/Shape=elliptical" --set "Rubber/Maxwell branch/Viscoelastic=true" \
    --set "Rubber/Maxwell branch/Payne parameter=$payne" \
    --set "Loading/Time step=1e-3" --set "Loading/Averaging time=0.2"
done
# params/pressure-sweep-reduced.prm at 2 MPa: the non-circular shapes, which roll over
for shape in elliptical rectangular square; do
  run_case "reduced-$shape" "$src/params/circular.prm" "${reduced[@]}" \
    --set "Particle/Shape=$shape" --set "Loading/Time step=1.25e-4" \
    --set "Loading/Averaging time=0.25"
done
# the Gmsh mesh of params/graded-mesh.prm, bare and shortened
run_case graded-mesh-bare "$src/params/graded-mesh.prm" --set "Particle/Enabled=false" \
  --set "Loading/Time step=1e-3" --set "Loading/Averaging time=0.1" \
  --set "Output/VTU output interval=0" --set "Output/Progress interval=1000"
