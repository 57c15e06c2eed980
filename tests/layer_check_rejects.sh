#!/usr/bin/env bash
# CTest Architecture.LayerCheckRejectsAnUpwardInclude: tests/check_layers.py run on a small
# tree with one upward include (lib/base including from lib/fem) fails and names the file,
# the line and the layer it reaches up to.
# Usage: layer_check_rejects.sh SOURCE_DIR WORK_DIR
set -euo pipefail
src=$1; work=$2
source "$src/tests/shell_checks.sh"
fresh_directory "$work"
mkdir -p "$work/lib/base" "$work/lib/fem" "$work/app"
echo '#include "fem/rubber_block.h"' > "$work/lib/base/parameter_error.h"
echo '#include "base/parameter_error.h"' > "$work/lib/fem/rubber_block.h"
expect_status 1 "$PYTHON" "$src/tests/check_layers.py" "$work" > "$work/check_layers.out"
expect_match 'lib/base/parameter_error.h:1: upward include of fem/' "$work/check_layers.out"
