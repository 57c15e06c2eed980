#!/usr/bin/env bash
# The benchmark harness (README, Performance): see benchmarks/run.py --help.
#   bash benchmarks/run.sh --quick                       # reduced cell, a few minutes
#   bash benchmarks/run.sh --baseline-build OLD/build    # side by side with another build
set -euo pipefail
exec /usr/bin/python3 "$(dirname "$0")/run.py" "$@"
