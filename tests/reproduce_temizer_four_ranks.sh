#!/usr/bin/env bash
# CTest Validation.Temizer2013OnMoreRanksThanCores (docs/sweeps.md#on-a-cluster): the
# reproduction command runs a study on more ranks than this machine has cores, as it would
# on the nodes of a cluster: --jobs 4 --oversubscribe on the reduced cell, study fig9-circles
# with two relaxation times (4 points, one per rank), every point done and on a rank of its
# own, the page written. Inside a Slurm allocation the ranks allowed are the allocation's
# tasks (SLURM_NTASKS), not this machine's cores: with SLURM_NTASKS=1, --jobs 2 is refused
# before any work, naming the allocation.
# Usage: reproduce_temizer_four_ranks.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$1; src=$2; work=$3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rm -rf "$work"; mkdir -p "$work"
fail() { echo "FAILED: $*"; exit 1; }
args=(--studies fig9-circles --build "$build" --output "$work/out"
      --data "$work/data" --page "$work/page" --recompute
      --set "Geometry/Block length=3" --set "Geometry/Block height=1.5"
      --set "Geometry/Elements in x=12" --set "Geometry/Elements in y=6"
      --set "Loading/Time step=5e-4" --set "Loading/Averaging time=0.25"
      --set "Sweep/Relaxation times=1e-3, 2e-3")

# inside a Slurm allocation of one task, two ranks are refused before any work
status=0
SLURM_NTASKS=1 bash "$src/scripts/reproduce-temizer-2013.sh" --jobs 2 "${args[@]}" \
  > "$work/slurm.log" 2>&1 || status=$?
[ "$status" -eq 2 ] || { cat "$work/slurm.log"; fail "--jobs 2 in a 1-task allocation: exit $status, not 2"; }
grep -q "SLURM_NTASKS" "$work/slurm.log" || { cat "$work/slurm.log"; fail "the refusal does not name the allocation"; }
[ ! -e "$work/out" ] || fail "the refused call wrote $work/out"

# four ranks on this machine's cores
bash "$src/scripts/reproduce-temizer-2013.sh" --jobs 4 --oversubscribe "${args[@]}" \
  > "$work/four.log" 2>&1 || { cat "$work/four.log"; fail "the call with 4 ranks exited with $?"; }
cat "$work/four.log"
grep -q "4/4 points done, 1/1 studies complete" "$work/four.log" || fail "not 4/4 points done"
csv="$work/data/fig9-circles.csv"
[ "$(grep -c ',ok,' "$csv")" = 4 ] || fail "$csv does not list 4 points done"
# each point on a rank of its own: the sweep's log names ranks 0 to 3
for rank in 0 1 2 3; do
  grep -rq "done on rank $rank" "$work/four.log" "$work/out" ||
    fail "no point was done on rank $rank"
done
[ -f "$work/page/temizer-2013.md" ] || fail "no page"
echo "PASSED"
