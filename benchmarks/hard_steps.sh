#!/usr/bin/env bash
# Records the corpus of hard steps (docs/performance.md#replaying-hard-steps): for each case,
# a run with --record-attempts N,EVERY,FROM writes the state before its first N failed Newton
# attempts from t/T0 = FROM on (and every EVERY-th attempt, a sample of ordinary ones), and is
# stopped once it has written them. Of these, the first KEEP failed attempts of whole steps
# (cut-back level 0: each a different step) and the first SAMPLES ordinary attempts are
# copied to OUT/CASE/, with their rows of attempts.csv (the square's records are three times
# the size of the others': it keeps half as many).
#
# Usage: bash benchmarks/hard_steps.sh BUILD OUT [CASE...]
#   CASE: default (params/default.prm), rectangle-4MPa (params/rectangular.prm at 4 MPa),
#         square (params/square.prm); all three without CASE.
# The committed corpus, benchmarks/hard-steps/, was made with OUT = benchmarks/hard-steps.
# Replay it with: build/replay-attempt benchmarks/hard-steps/*/attempt-*.bin
set -euo pipefail
build=$(cd "$1" && pwd); out=$2; shift 2
src=$(cd "$(dirname "$0")/.." && pwd)
cases=("$@"); [ ${#cases[@]} -gt 0 ] || cases=(default rectangle-4MPa square)
failed=60; every=500; from=1
mkdir -p "$out"; out=$(cd "$out" && pwd)
for case in "${cases[@]}"; do
  case $case in
    default)        args=("$src/params/default.prm"); keep=8; samples=1 ;;
    rectangle-4MPa) args=("$src/params/rectangular.prm" --set "Loading/Pressure=4")
                    keep=8; samples=1 ;;
    square)         args=("$src/params/square.prm"); keep=4; samples=1 ;;
    *) echo "hard_steps.sh: unknown case $case" >&2; exit 2 ;;
  esac
  run=$(mktemp -d)
  "$build/granular-interface" "${args[@]}" --output-directory "$run/out" \
    --record-attempts "$failed,$every,$from" --set "Output/Checkpoint interval=0" \
    --set "Output/VTU output interval=0" --set "Output/Progress interval=60" \
    > "$run/log" 2>&1 &
  pid=$!
  csv="$run/out/attempts/attempts.csv"
  # wait for the N failed attempts (column 6, converged = 0), or the end of the run
  while kill -0 "$pid" 2> /dev/null; do
    if [ -f "$csv" ] && [ "$(awk -F, 'NR > 1 && $6 == 0' "$csv" | wc -l)" -ge "$failed" ]; then
      kill -TERM "$pid"; break
    fi
    sleep 2
  done
  wait "$pid" || true
  rm -rf "${out:?}/$case"; mkdir -p "$out/$case"
  # the first KEEP failed whole steps (level 0, column 4) and the first SAMPLES samples
  awk -F, -v keep="$keep" -v samples="$samples" \
    'NR == 1 || ($6 == 1 && m++ < samples) || ($6 == 0 && $4 == 0 && n++ < keep)' \
    "$csv" > "$out/$case/attempts.csv"
  for f in $(awk -F, 'NR > 1 {print $1}' "$out/$case/attempts.csv"); do
    cp "$run/out/attempts/$f" "$out/$case/"
  done
  echo "$case: $(($(wc -l < "$out/$case/attempts.csv") - 1)) of" \
       "$(($(wc -l < "$csv") - 1)) recorded attempts kept in $out/$case"
  rm -rf "$run"
done
