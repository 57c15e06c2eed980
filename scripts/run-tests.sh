#!/usr/bin/env bash
# Sets everything up, builds, and runs the whole test suite (GoogleTest via CTest).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
cd build
ctest --output-on-failure -j2
