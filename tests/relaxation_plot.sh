#!/usr/bin/env bash
# CTest Postprocess.RelaxationPlotReadsTheCellLength: postprocess/kbar_vs_relaxation.py takes
# the cell length L0 from sweep.csv (column block_length) without a warning, and warns when an
# older sweep.csv lacks that column; a --length that is not a positive number is refused by
# the command line (exit status 2 naming the option).
# Usage: relaxation_plot.sh SOURCE_DIR WORK_DIR
set -euo pipefail
src=$1; work=$2
source "$src/tests/shell_checks.sh"
fresh_directory "$work"
cd "$work"
h='point,name,point_pressure,point_relaxation_time,point_slip_velocity,point_shape,point_payne_d,point_rubber_model,status,error,kbar,kbar_F,kbar_V'
cat > new.csv <<CSV
$h,block_length
0,a,2,1e-4,2500,circular,0,elastic,ok,,0.4,0.3,0.1,3
1,b,2,1e-3,2500,circular,0,elastic,ok,,0.4,0.3,0.1,3
CSV
cat > old.csv <<CSV
$h
0,a,2,1e-4,2500,circular,0,elastic,ok,,0.4,0.3,0.1
1,b,2,1e-3,2500,circular,0,elastic,ok,,0.4,0.3,0.1
CSV
"$PYTHON" "$src/postprocess/kbar_vs_relaxation.py" new.csv -o new 2> new.err
expect_no_match warning new.err
expect_file new.png
"$PYTHON" "$src/postprocess/kbar_vs_relaxation.py" old.csv -o old 2> old.err
expect_match 'does not record the cell length' old.err
# --length must be a positive number of mm: argparse's error naming the option, exit status 2
for length in 0 -3 nan; do
  expect_status 2 "$PYTHON" "$src/postprocess/kbar_vs_parameter.py" relaxation new.csv \
    --length "$length" -o bad 2> bad.err
  expect_match "argument --length: needs a number > 0 (mm), not '$length'" bad.err
  expect_no_match Traceback bad.err
done
expect_no_file bad.png
