#!/usr/bin/env bash
# CTest Postprocess.TruncatedHistoryIsReportedClearly: a history.csv whose last row was cut
# by a stopped run is read without that row (a warning naming the line) by energy_balance.py
# and friction_history.py, which still draw their figure; an empty history.csv gives a clear
# message and exit status 2, without a Python traceback.
# Usage: truncated_history.sh SOURCE_DIR RUN_DIR WORK_DIR
set -euo pipefail
src=$1; run=$2; work=$3
source "$src/tests/shell_checks.sh"
fresh_directory "$work"
cd "$work"
mkdir truncated
cp "$run/parameters.prm" "$run/summary.csv" truncated/
head -c -25 "$run/history.csv" > truncated/history.csv
for s in energy_balance friction_history; do
  "$PYTHON" "$src/postprocess/$s.py" truncated -o "truncated/$s" 2> "$s.err"
  expect_match 'last row (line [0-9]*) is truncated' "$s.err"
  expect_file "truncated/$s.png"
done
: > truncated/history.csv
for s in energy_balance friction_history; do
  expect_status 2 "$PYTHON" "$src/postprocess/$s.py" truncated -o "truncated/$s-empty" \
    2> "$s-empty.err"
  expect_match 'history.csv is empty' "$s-empty.err"
  expect_no_match Traceback "$s-empty.err"
done
