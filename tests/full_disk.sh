#!/usr/bin/env bash
# CTest Guarantees.FullDiskLeavesNoTornRow: a run on a disk that fills up (a 192 KiB tmpfs)
# stops with a message naming the file it could not write, and history.csv and energy.csv
# end with whole rows: every row has the header's number of fields and the files end with
# a line end. history.csv ended with a row cut mid-number at a 4 KiB boundary, and the
# message spoke of a checkpoint that the run had not written.
# Usage: full_disk.sh BINARY SOURCE_DIR WORK_DIR. Skipped (77) where a tmpfs cannot be
# mounted (not root, or a container that forbids it).
set -euo pipefail
source "$(dirname "$0")/shell_checks.sh"
binary=$1; source_dir=$2; work=$3
fresh_directory "$work"
mkdir -p "$work/disk"
if ! mount -t tmpfs -o size=192k tmpfs "$work/disk" 2> /dev/null; then
  echo "SKIP: cannot mount a small tmpfs here (needs root)"
  exit 77
fi
trap 'umount "$work/disk"' EXIT
set +e
"$binary" "$source_dir/params/bare-interface.prm" --output-directory "$work/disk/run" \
  --set "Geometry/Elements in x=4" --set "Geometry/Elements in y=2" \
  --set "Output/VTU output interval=0" --set "Output/Checkpoint interval=0" \
  > "$work/stdout" 2> "$work/stderr"
status=$?
set -e
[ "$status" -eq 1 ] || fail "exit status $status, expected 1; stderr: $(cat "$work/stderr")"
grep -q "cannot write $work/disk/run/" "$work/stderr" ||
  fail "no message naming the file: $(cat "$work/stderr")"
grep -q "No space left" "$work/stderr" || fail "the reason is not given: $(cat "$work/stderr")"
if grep -q "last checkpoint is kept" "$work/stderr"; then
  fail "the message speaks of a checkpoint the run did not write"
fi
for f in history.csv energy.csv; do
  expect_file "$work/disk/run/$f"
  [ "$(tail -c 1 "$work/disk/run/$f" | od -An -c | tr -d ' ')" = '\n' ] ||
    fail "$f does not end with a line end: $(tail -c 80 "$work/disk/run/$f")"
  awk -F, 'NR == 1 { n = NF } NF != n { bad = NR } END { exit bad ? 1 : 0 }' \
    "$work/disk/run/$f" || fail "$f has a row with another number of fields than its header"
done
echo "PASS"
