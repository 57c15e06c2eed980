#!/usr/bin/env bash
# CTest CommandLine.ThreadsBeyondTheAllowedCoresWarn: granular-interface --threads N warns
# when the process may run on fewer than N cores (docs/running.md#threads), as under
# mpirun's default binding of a rank to one core, and is silent when it may use N cores,
# as under the documented remedy mpirun --bind-to none.
# Usage: threads_affinity.sh BINARY WORK_DIR. Skipped (77) on a machine with one core.
set -euo pipefail
source "$(dirname "$0")/shell_checks.sh"
binary=$1; work=$2
fresh_directory "$work"
if [ "$(nproc)" -lt 2 ]; then
  echo "SKIP: this machine has one core"
  exit 77
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
warning="may only run on 1 of the"

taskset -c 0 "$binary" --threads 2 --help > "$work/one-core.out" 2> "$work/one-core.err"
grep -q -- "$warning" "$work/one-core.err" ||
  fail "--threads 2 on one core: no warning ($(cat "$work/one-core.err"))"
grep -q -- "--bind-to none" "$work/one-core.err" ||
  fail "the warning does not name mpirun --bind-to none"
expect_file "$work/one-core.out"   # the usage text is still printed

taskset -c 0,1 "$binary" --threads 2 --help > /dev/null 2> "$work/two-cores.err"
if grep -q "warning" "$work/two-cores.err"; then
  fail "--threads 2 on two cores warns: $(cat "$work/two-cores.err")"
fi

mpirun -np 1 --bind-to none "$binary" --threads 2 --help > /dev/null 2> "$work/unbound.err"
if grep -q "warning" "$work/unbound.err"; then
  fail "mpirun --bind-to none with --threads 2 warns: $(cat "$work/unbound.err")"
fi
echo "ok: the warning on one core, none on two or under mpirun --bind-to none"
