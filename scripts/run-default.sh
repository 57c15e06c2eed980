#!/usr/bin/env bash
# Sets everything up, builds, and runs the main job on params/default.prm.
# Results go to output/ (summary.csv, history.csv, solution.pvd, particle.pvd).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
build/granular-interface params/default.prm "$@"
