#!/usr/bin/env bash
# CTest CommandLine.ClosedStandardOutputStopsWithACheckpoint: a run whose standard output is a
# pipe that closes (`| head`, a pager quit early) stops like one that gets SIGTERM
# (docs/checkpoints.md): its message on stderr, checkpoint.bin written, exit status 141
# (128 + SIGPIPE); --restart then completes it. It was killed by SIGPIPE at its next progress
# line, without a message or a checkpoint.
# Usage: closed_stdout.sh BINARY SOURCE_DIR WORK_DIR
set -euo pipefail
source "$(dirname "$0")/shell_checks.sh"
binary=$1; source_dir=$2; work=$3
fresh_directory "$work"
args=("$source_dir/params/bare-interface.prm" --output-directory "$work/run"
      --set "Geometry/Elements in x=4" --set "Geometry/Elements in y=2"
      --set "Loading/Averaging time=0.5" --set "Output/Progress interval=0"
      --set "Output/VTU output interval=0")
set +o pipefail
"$binary" "${args[@]}" 2> "$work/stderr" | head -n 1 > "$work/first-line"
status=${PIPESTATUS[0]}
set -o pipefail
[ "$status" -eq 141 ] || fail "exit status $status, expected 141; stderr: $(cat "$work/stderr")"
grep -q "stopped by SIGPIPE" "$work/stderr" || fail "no message on stderr: $(cat "$work/stderr")"
grep -q -- "--restart" "$work/stderr" || fail "the message does not say how to continue"
expect_file "$work/run/checkpoint.bin"
[ ! -e "$work/run/summary.csv" ] || fail "a stopped run wrote summary.csv"
"$binary" "${args[@]}" --restart > "$work/restart.out" 2>&1 ||
  fail "the restart failed: $(tail -3 "$work/restart.out")"
expect_file "$work/run/summary.csv"
echo "PASS"
