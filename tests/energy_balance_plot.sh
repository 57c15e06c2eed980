#!/usr/bin/env bash
# CTest Postprocess.EnergyBalanceMatchesSummary: postprocess/energy_balance.py rebuilds the
# energy balance of a finished run from its history.csv; --check makes it fail unless the
# balance agrees with summary.csv's to the tolerance. It writes the figure as PNG and PDF.
# Usage: energy_balance_plot.sh SOURCE_DIR RUN_DIR WORK_DIR
set -euo pipefail
src=$1; run=$2; work=$3
source "$src/tests/shell_checks.sh"
fresh_directory "$work"
cd "$work"
"$PYTHON" "$src/postprocess/energy_balance.py" "$run" -o energy_balance --check \
  --tolerance 1e-5
expect_file energy_balance.png
expect_file energy_balance.pdf
