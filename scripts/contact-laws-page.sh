#!/usr/bin/env bash
# Regenerates the results page of the contact-law library: runs the impact scenarios of
# every params/impact/*.prm (docs/contact-law-catalogue.md §8) with contact-impact into
# output-impact/<name>/ and then writes docs/contact-laws.md and its figures
# docs/contact-laws/*.png (postprocess/contact_laws_page.py).
#
# Usage: bash scripts/contact-laws-page.sh
#        BUILD=build-debug bash scripts/contact-laws-page.sh   # another build directory
# Needs a built contact-impact in $BUILD (default: build; bash scripts/build.sh builds it)
# and Debian's python3-numpy and python3-matplotlib. Stops at the first failing scenario.
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD="${BUILD:-build}"
program="$BUILD/contact-impact"
if [[ ! -x "$program" ]]; then
  echo "contact-laws-page.sh: $program not found or not executable (build it with" \
       "bash scripts/build.sh, or set BUILD to the build directory)" >&2
  exit 2
fi

shopt -s nullglob
parameter_files=(params/impact/*.prm)
if (( ${#parameter_files[@]} == 0 )); then
  echo "contact-laws-page.sh: no params/impact/*.prm" >&2
  exit 2
fi

for prm in "${parameter_files[@]}"; do
  name="$(basename "$prm" .prm)"
  echo "== $name"
  "$program" "$prm" --output-directory "output-impact/$name"
done

/usr/bin/python3 postprocess/contact_laws_page.py output-impact \
  -o docs/contact-laws.md --figures docs/contact-laws --contact-impact "$program"
