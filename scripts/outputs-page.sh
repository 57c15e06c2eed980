#!/usr/bin/env bash
# Regenerates the column tables of docs/outputs.md (summary.csv, history.csv and the columns a
# viscoelastic run adds), each between "<!-- columns: FILE -->" and "<!-- /columns -->", from
# `granular-interface --print-columns`: the program's one definition of each column (its
# name, unit and meaning beside the code that writes it). The text around the tables is kept.
# Run it after adding or changing a column: the CTest Docs.OutputColumnsAreCurrent fails until
# the committed page holds what the program writes.
#
# Usage: bash scripts/outputs-page.sh [OUTPUT]   (default: docs/outputs.md, updated in place)
#        BUILD=build-debug bash scripts/outputs-page.sh   # another build directory
# Needs a built granular-interface in $BUILD (default: build) and Debian's /usr/bin/python3.
set -euo pipefail
cd "$(dirname "$0")/.."
output="$(realpath -m "${1:-docs/outputs.md}")"
program="$(realpath -m "${BUILD:-build}/granular-interface")"
if [[ ! -x "$program" ]]; then
  echo "outputs-page.sh: $program not found or not executable (build it with" \
       "bash scripts/build.sh, or set BUILD to the build directory)" >&2
  exit 2
fi
"$program" --print-columns > "$output.columns"
/usr/bin/python3 - docs/outputs.md "$output.columns" "$output.new" <<'PY'
import re, sys
page, tables, out = sys.argv[1:]
text = open(page, encoding="utf-8").read()
blocks = re.findall(r"(<!-- columns: [^>]* -->\n.*?<!-- /columns -->\n)",
                    open(tables, encoding="utf-8").read(), re.S)
for block in blocks:
    marker = block.split("\n", 1)[0]
    start = text.find(marker)
    end = text.find("<!-- /columns -->\n", start)
    if start < 0 or end < 0:
        sys.exit(f"outputs-page.sh: {page} has no table marked '{marker}'")
    text = text[:start] + block + text[end + len("<!-- /columns -->\n"):]
open(out, "w", encoding="utf-8").write(text)
PY
rm "$output.columns"
mv "$output.new" "$output"
