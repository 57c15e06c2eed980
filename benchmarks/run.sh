#!/usr/bin/env bash
# The benchmark harness (docs/performance.md): see benchmarks/run.py --help.
#   bash benchmarks/run.sh --quick                       # reduced cell, a few minutes
#   bash benchmarks/run.sh --baseline-build OLD/build    # side by side with another build
set -euo pipefail
exec /usr/bin/python3 "$(dirname "$0")/run.py" "$@"
