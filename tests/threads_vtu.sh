#!/usr/bin/env bash
# CTest VtkOutput.TwoThreadsWriteTheFilesOfOneThread: the reduced cell with the ellipse run
# on one and on two threads writes the same VTU and .pvd files, byte for byte
# (docs/running.md#threads): the results do not depend on the threads, and the files carry
# no date of writing (deal.II's header line had one).
# Usage: threads_vtu.sh BINARY SOURCE_DIR WORK_DIR
set -euo pipefail
source "$(dirname "$0")/shell_checks.sh"
binary=$1; source_dir=$2; work=$3
fresh_directory "$work"
for n in 1 2; do
  "$binary" "$source_dir/params/default.prm" --threads $n --output-directory "$work/threads-$n" \
    --set "Geometry/Block length=3" --set "Geometry/Block height=1.5" \
    --set "Geometry/Elements in x=12" --set "Geometry/Elements in y=6" \
    --set "Loading/Time step=1e-3" --set "Loading/Averaging time=0.2" \
    --set "Output/VTU output interval=400" --set "Output/Checkpoint interval=0" \
    > "$work/threads-$n.log" 2>&1 || fail "the run on $n threads failed: $(tail -2 "$work/threads-$n.log")"
done
count=0
for f in "$work"/threads-1/*.vtu "$work"/threads-1/*.pvd; do
  name=$(basename "$f")
  cmp -s "$f" "$work/threads-2/$name" || fail "$name differs between one and two threads"
  count=$((count + 1))
done
[ "$count" -ge 12 ] || fail "only $count VTU and .pvd files were written"
echo "PASS: $count VTU and .pvd files alike on one and two threads"
