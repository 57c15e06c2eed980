#!/usr/bin/env bash
# Regenerates docs/contact-law-table.md, the table of the registered normal contact laws
# (entry, identifier, family, formula, parameters with their defaults, the data a law needs,
# whether the 2D cell can use it, source), from the laws' own descriptions (their LawInfo in
# lib/contact/laws/) through `granular-interface --list-laws=markdown`. Run it after adding
# or changing a law: the CTest Docs.ContactLawTableIsCurrent fails until the committed page is
# what the program writes.
#
# Usage: bash scripts/contact-law-table.sh [OUTPUT]   (default: docs/contact-law-table.md)
#        BUILD=build-debug bash scripts/contact-law-table.sh   # another build directory
# Needs a built granular-interface in $BUILD (default: build; bash scripts/build.sh).
set -euo pipefail
output="$(realpath -m "${1:-$(dirname "$0")/../docs/contact-law-table.md}")"
cd "$(dirname "$0")/.."
program="$(realpath -m "${BUILD:-build}/granular-interface")"
if [[ ! -x "$program" ]]; then
  echo "contact-law-table.sh: $program not found or not executable (build it with" \
       "bash scripts/build.sh, or set BUILD to the build directory)" >&2
  exit 2
fi
"$program" --list-laws=markdown > "$output.new"
mv "$output.new" "$output"
