#!/usr/bin/env bash
# Reproduces the studies of Temizer 2013 §5 (params/temizer-2013/) through mpirun and
# generates the validation page docs/validation/temizer-2013.md. Resumable: rerun it after
# an interruption and it computes only the missing points. Options: --help.
set -euo pipefail
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || PYTHON=python3
exec "$PYTHON" "$(dirname "$0")/reproduce_temizer_2013.py" "$@"
