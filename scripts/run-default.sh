#!/usr/bin/env bash
# Sets everything up, builds, and runs the main job on params/default.prm.
# Results go to output/ (summary.csv, history.csv, solution.pvd, particle.pvd).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
# a new run of the main job replaces the results of the previous one in output/ (--restart
# continues a stopped one instead)
case " $* " in
  *" --restart "*) build/granular-interface params/default.prm "$@" ;;
  *) build/granular-interface params/default.prm --overwrite "$@" ;;
esac
