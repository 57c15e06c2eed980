#!/usr/bin/env bash
# Regenerates docs/parameters.md, the reference of every parameter-file entry of
# granular-interface (one section per subsection; each entry with its default, the values it
# accepts and its documentation), from `granular-interface --print-parameters=json` through
# scripts/parameters_page.py. Run it after changing a parameter's declaration: the CTest
# Docs.ParameterPageIsCurrent fails until the committed page is what the program declares.
#
# Usage: bash scripts/parameters-page.sh [OUTPUT]   (default: docs/parameters.md)
#        BUILD=build-debug bash scripts/parameters-page.sh   # another build directory
# Needs a built granular-interface in $BUILD (default: build; bash scripts/build.sh) and
# Debian's /usr/bin/python3.
set -euo pipefail
output="$(realpath -m "${1:-$(dirname "$0")/../docs/parameters.md}")"
cd "$(dirname "$0")/.."
program="$(realpath -m "${BUILD:-build}/granular-interface")"
if [[ ! -x "$program" ]]; then
  echo "parameters-page.sh: $program not found or not executable (build it with" \
       "bash scripts/build.sh, or set BUILD to the build directory)" >&2
  exit 2
fi
"$program" --print-parameters=json > "$output.json"
/usr/bin/python3 scripts/parameters_page.py "$output.json" > "$output.new"
rm "$output.json"
mv "$output.new" "$output"
