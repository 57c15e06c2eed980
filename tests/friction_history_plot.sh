#!/usr/bin/env bash
# CTest Postprocess.FrictionHistoryPlot: postprocess/friction_history.py on a finished run
# writes the figure as PNG and PDF; "-o name.png" writes name.png and name.pdf (not
# name.png.png).
# Usage: friction_history_plot.sh SOURCE_DIR RUN_DIR WORK_DIR
set -euo pipefail
src=$1; run=$2; work=$3
source "$src/tests/shell_checks.sh"
fresh_directory "$work"
cd "$work"
"$PYTHON" "$src/postprocess/friction_history.py" "$run" -o friction_history.png
expect_file friction_history.png
expect_file friction_history.pdf
expect_no_file friction_history.png.png
expect_no_file friction_history.png.pdf
