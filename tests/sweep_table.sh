#!/usr/bin/env bash
# CTest Postprocess.SweepTableHelpAndTable: postprocess/sweep_table.py has a --help, prints a
# sweep's results table with the failed point's error, flags a point that claims success
# without a finite k̄, and exits with status 2 and a message naming the directory when it
# holds no sweep.csv, the column kbar when sweep.csv lacks it, and the line of a row cut
# short.
# Usage: sweep_table.sh SOURCE_DIR WORK_DIR
set -euo pipefail
src=$1; work=$2
source "$src/tests/shell_checks.sh"
fresh_directory "$work"
cd "$work"
"$PYTHON" "$src/postprocess/sweep_table.py" --help > help.txt
expect_match 'results table' help.txt
mkdir sweep
cat > sweep/sweep.csv <<'CSV'
point,name,status,error,kbar,kbar_F,kbar_V,kbar_spread,energy_balance_error,wall_time
0,p1_a,ok,,0.25,0.2,0.05,0.001,0.003,12
1,p2_a,failed,Newton did not converge,,,,,,
CSV
"$PYTHON" "$src/postprocess/sweep_table.py" sweep > out.txt
expect_match 'p1_a .*0.2500 .*0.2000 .*0.0500 .*0.30 %' out.txt
expect_match 'failed: Newton did not converge' out.txt
expect_status 2 "$PYTHON" "$src/postprocess/sweep_table.py" missing-sweep 2> err.txt
expect_match "missing-sweep: " err.txt
# a point that claims success without a finite k̄ is flagged, not shown as ok
cat > sweep/sweep.csv <<'CSV'
point,name,status,error,kbar,kbar_F,kbar_V,kbar_spread,energy_balance_error,wall_time
0,p1_a,ok,,0.25,0.2,0.05,0.001,0.003,12
1,p2_a,ok,,nan,0.2,0.05,0.001,0.003,12
CSV
"$PYTHON" "$src/postprocess/sweep_table.py" sweep > nan.txt
expect_match 'p1_a .*  ok$' nan.txt
expect_match 'p2_a .*failed: kbar = nan: not a finite number' nan.txt
expect_no_match 'p2_a .*  ok$' nan.txt
# a sweep.csv without the column kbar, or with a row cut short, is exit status 2 naming it
cut -d, -f1-4,6- sweep/sweep.csv > no-kbar.csv
expect_status 2 "$PYTHON" "$src/postprocess/sweep_table.py" no-kbar.csv 2> no-kbar.err
expect_match 'no-kbar.csv has no column kbar\b' no-kbar.err
expect_no_match Traceback no-kbar.err
head -c -12 sweep/sweep.csv > cut.csv
expect_status 2 "$PYTHON" "$src/postprocess/sweep_table.py" cut.csv 2> cut.err
expect_match 'cut.csv, line 3: ' cut.err
