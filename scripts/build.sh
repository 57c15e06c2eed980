#!/usr/bin/env bash
# Installs the dependencies (idempotent) and builds granular-interface in build/
# (Release). Usage: bash scripts/build.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-dependencies.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release > build-configure.log 2>&1 \
  || { cat build-configure.log; exit 1; }
cmake --build build -j2
