#!/usr/bin/env bash
# CTest Postprocess.PaynePlotWithItsReferences: postprocess/kbar_vs_payne.py draws k-bar
# against the Payne parameter d with the d = 0 and elastic-rubber references, reports k-bar at
# both ends of the scan, skips a failed point with a message, and exits with status 1 and a
# message when the sweep has no successful point with d > 0. postprocess/payne_protocol.py
# refuses a cycle, step or point count below its minimum and a relaxation time that is not
# positive with exit status 2 naming the option.
# Usage: payne_plot.sh SOURCE_DIR WORK_DIR
set -euo pipefail
src=$1; work=$2
source "$src/tests/shell_checks.sh"
fresh_directory "$work"
cd "$work"
h='point,name,point_pressure,point_relaxation_time,point_slip_velocity,point_shape,point_payne_d,point_rubber_model,status,error,kbar,kbar_F,kbar_V,kbar_spread'
cat > sweep.csv <<CSV
$h
0,a,2,1e-4,2500,elliptical,0,elastic,ok,,0.33,0.30,0,0.01
1,b,2,1e-4,2500,elliptical,0,viscoelastic,ok,,0.41,0.05,0.36,0.01
2,c,2,1e-4,2500,elliptical,1e-5,viscoelastic,ok,,0.40,0.05,0.35,0.01
3,d,2,1e-4,2500,elliptical,1e-3,viscoelastic,ok,,0.35,0.2,0.15,0.01
4,e,2,1e-4,2500,elliptical,1e-2,viscoelastic,failed,Newton,,,,
CSV
"$PYTHON" "$src/postprocess/kbar_vs_payne.py" sweep.csv -o payne > out.txt 2> err.txt
expect_match 'kbar 0.4000 at d = 1e-05 s, 0.3500 at d = 0.001 s; viscoelastic, d = 0 0.4100; elastic rubber 0.3300' out.txt
expect_match 'skipping e (failed' err.txt
expect_file payne.png
expect_file payne.pdf
# only the elastic and the d = 0 point: no scan to draw
head -3 sweep.csv > zero.csv
expect_status 1 "$PYTHON" "$src/postprocess/kbar_vs_payne.py" zero.csv -o zero 2> zero.err
expect_match 'no successful point with d > 0' zero.err
expect_no_file zero.png
# payne_protocol.py refuses a count that is not positive before it runs anything: argparse's
# error naming the option, exit status 2, no traceback
for option in --cycles --steps --points; do
  expect_status 2 "$PYTHON" "$src/postprocess/payne_protocol.py" "$option" -1 -o protocol \
    --material-point /nonexistent 2> protocol.err
  expect_match "argument $option: needs a whole number >= " protocol.err
  expect_no_match Traceback protocol.err
done
expect_status 2 "$PYTHON" "$src/postprocess/payne_protocol.py" --tau0 0 -o protocol \
  --material-point /nonexistent 2> protocol.err
expect_match "argument --tau0: needs a number > 0 (s)" protocol.err
expect_no_file protocol.csv
