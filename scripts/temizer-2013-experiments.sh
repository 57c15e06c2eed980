#!/usr/bin/env bash
# Runs the experiments on the points of the Temizer 2013 reproduction that differ from the
# paper (params/temizer-2013/experiments.csv), one after the other, checked up front and
# resumable, and writes their results into the validation page. Options: --help.
set -euo pipefail
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || PYTHON=python3
exec "$PYTHON" "$(dirname "$0")/temizer_2013_experiments.py" "$@"
