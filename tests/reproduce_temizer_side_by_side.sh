#!/usr/bin/env bash
# CTest Validation.Temizer2013StudiesShareTheRanks (docs/sweeps.md#reproducing-temizer-2013):
# the reproduction command keeps every rank busy across its studies, on the reduced cell:
#  1. two studies on --jobs 2: when the first has one point left running, the next study
#     starts on the free rank beside it; when the first has ended and no study is left to
#     start, the second, running on one rank with points waiting, is stopped and started
#     again on both (its stopped point continues from its checkpoint). Every point is done,
#     with the same summary (k-bar, k-bar_F, k-bar_V, steps, Newton iterations) as the same
#     studies on one rank, one after the other;
#  2. a study waits while a study with the same parameters runs a point of a name it has,
#     and then takes that point from it instead of computing it;
#  3. SIGTERM to the command while two studies run stops both sweeps (exit status 143, no
#     rank left running), and the same command completes them;
#  4. a study that fails while another runs (its mpirun cannot start) stops the other with
#     its checkpoints, and the command names the failed study, exits with 1 and writes no
#     page; without the fault the same command completes both.
# Usage: reproduce_temizer_side_by_side.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$1; src=$2; work=$3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
source "$src/tests/shell_checks.sh"
fresh_directory "$work"
reduced=(--build "$build"
         --set "Geometry/Block length=3" --set "Geometry/Block height=1.5"
         --set "Geometry/Elements in x=12" --set "Geometry/Elements in y=6"
         --set "Loading/Time step=5e-4" --set "Loading/Averaging time=0.25")
# fig6a-elastic: 4 shapes at 1 MPa (the rectangle's point the longest); fig9-circles: 2
# shapes at 3 relaxation times, 6 points of about a third of the rectangle's time each
two=(--studies fig6a-elastic,fig9-circles "${reduced[@]}"
     --set "Sweep/Pressures=1" --set "Sweep/Relaxation times=1e-3, 2e-3, 4e-3")
reproduce() {  # reproduce LOG ARGS...: the command, its output in LOG
  local log=$1; shift
  bash "$src/scripts/reproduce-temizer-2013.sh" "$@" > "$log" 2>&1 || {
    cat "$log"; fail "the command exited with $? (log above)"; }
}

# 1. side by side on two ranks, and one after the other on one
reproduce "$work/two.log" --jobs 2 "${two[@]}" --output "$work/two-out" \
  --data "$work/two-data" --page "$work/two-page"
cat "$work/two.log"
expect_match "^\[temizer-2013\] fig9-circles: starts on 1 free rank of 2, beside fig6a-elastic$" \
  "$work/two.log"
expect_match "^\[temizer-2013\] fig9-circles: 1 of the 2 ranks free and no study left to start: its sweep stops and starts again on 2 ranks" \
  "$work/two.log"
# the restarted sweep runs on two ranks
sed -n '/starts again on 2 ranks/,$p' "$work/two.log" > "$work/after-restart.log"
expect_match "fig9-circles: point .* done on rank 1" "$work/after-restart.log"
expect_match "^\[temizer-2013\] 10/10 points done, 2/2 studies complete" "$work/two.log"
reproduce "$work/one.log" --jobs 1 "${two[@]}" --output "$work/one-out" \
  --data "$work/one-data" --page "$work/one-page"
expect_no_match "beside\|starts again" "$work/one.log"
"$PYTHON" - "$work/two-data" "$work/one-data" <<'PY'
import csv, glob, os, sys
two, one = sys.argv[1:3]
records = sorted(glob.glob(os.path.join(two, "points", "*", "*", "summary.csv")))
assert len(records) == 10, f"{len(records)} point records, not 10"
for record in records:
    a = next(csv.DictReader(open(record)))
    b = next(csv.DictReader(open(os.path.join(one, os.path.relpath(record, two)))))
    for column in ("kbar", "kbar_F", "kbar_V", "steps", "newton_iterations"):
        assert a[column] == b[column], (record, column, a[column], b[column])
print("10 points side by side on two ranks = one after the other on one rank")
PY

# 2. the twin study waits for fig9-circles' point of the same name and takes it
twins=(--studies fig9-circles,viscoelastic-pressure-circles "${reduced[@]}"
       --set "Sweep/Pressures=2" --set "Sweep/Relaxation times=2e-3"
       --output "$work/twin-out" --data "$work/twin-data" --page "$work/twin-page")
reproduce "$work/twin.log" --jobs 2 "${twins[@]}"
cat "$work/twin.log"
[ "$(grep -c 'viscoelastic-pressure-circles: point .* taken from .*fig9-circles' "$work/twin.log")" = 2 ] ||
  fail "the twin study did not take both points from fig9-circles"
expect_no_match "viscoelastic-pressure-circles: point .* done" "$work/twin.log"
expect_no_match "viscoelastic-pressure-circles: starts .* beside" "$work/twin.log"

# 3. SIGTERM while two studies run
touch "$work/signal-start"
bash "$src/scripts/reproduce-temizer-2013.sh" --jobs 2 "${two[@]}" --output "$work/signal-out" \
  --data "$work/signal-data" --page "$work/signal-page" > "$work/signal.log" 2>&1 &
command_pid=$!
# once fig9-circles' first point runs beside fig6a-elastic's last (its run.log is there)
for _ in $(seq 3000); do
  [ -n "$(find "$work/signal-out/fig9-circles" -name run.log -newer "$work/signal-start" \
          2> /dev/null)" ] && break
  sleep 0.1
done
expect_match "beside fig6a-elastic" "$work/signal.log"
kill -TERM "$command_pid"
status=0; wait "$command_pid" || status=$?
cat "$work/signal.log"
[ "$status" = 143 ] || fail "the command stopped by SIGTERM exited with $status, not 143"
expect_match "stopped by signal 15 in .*fig9-circles" "$work/signal.log"
if pgrep -f "output-directory $work/signal-out" > /dev/null; then
  pkill -KILL -f "output-directory $work/signal-out"; fail "a rank kept running"
fi
expect_match ",stopped," "$work/signal-out/fig9-circles/sweep.csv"
reproduce "$work/signal-rerun.log" --jobs 2 "${two[@]}" --output "$work/signal-out" \
  --data "$work/signal-data" --page "$work/signal-page"
[ "$(cat "$work"/signal-data/{fig6a-elastic,fig9-circles}.csv | grep -c ',ok,')" = 10 ] ||
  fail "the call after the stop did not complete both studies"

# 4. a study that fails beside another (its mpirun finds no slots) stops the other with its
#    checkpoints: exit status 1 naming the failed study and mpirun's message, the other's
#    point in progress stopped; without the fault the same command completes both.
#    fig6a-elastic-square has one point here, so it runs on one rank and fig9-circles starts
#    at once beside it. The failing mpirun waits until that point runs (its run.log is
#    there) and holds its sweep (SIGSTOP to mpirun and the rank), so the point is still in
#    progress when the command's SIGTERM comes, however loaded the machine: mpirun is
#    released once that SIGTERM is pending on it, the rank once mpirun's is pending on it
#    (or mpirun has released it), each after 120 s at the latest so that nothing hangs
fault=(--studies fig6a-elastic-square,fig9-circles "${reduced[@]}"
       --set "Sweep/Pressures=1" --set "Sweep/Relaxation times=1e-3")
mkdir -p "$work/no-slots"
sed -e "s|@WORK@|$work|g" -e "s|@PATH@|$PATH|g" > "$work/no-slots/mpirun" <<'SH'
#!/bin/sh
# term_pending PID: SIGTERM (bit 15 of the pending masks in /proc/PID/status) waits on PID
term_pending() {
  for mask in $(sed -n 's/^\(SigPnd\|ShdPnd\):[[:space:]]*//p' "/proc/$1/status" 2> /dev/null); do
    [ $(( 0x$mask & 0x4000 )) -ne 0 ] && return 0
  done
  return 1
}
# release PID: continues PID once SIGTERM is pending on it or it runs again (120 s at most)
release() {
  for _ in $(seq 1200); do
    kill -0 "$1" 2> /dev/null || return 0
    term_pending "$1" && break
    grep -q '^State:[[:space:]]*T' "/proc/$1/status" 2> /dev/null || break
    sleep 0.1
  done
  kill -CONT "$1" 2> /dev/null || true
}
case "$*" in
  *fig9-circles.prm*)
    other="output-directory @WORK@/fault-out/fig6a-elastic-square"
    for _ in $(seq 1200); do
      ls @WORK@/fault-out/fig6a-elastic-square/*/run.log > /dev/null 2>&1 && break
      sleep 0.1
    done
    pkill -STOP -f "$other"
    launcher=$(pgrep -f "^mpirun .*$other")
    ranks=$(pgrep -f "$other" | grep -v -x "$launcher")
    if ls @WORK@/fault-out/fig6a-elastic-square/*/summary.csv > /dev/null 2>&1; then
      echo "the point of fig6a-elastic-square ended before it was held" >&2
    fi
    (release "$launcher"; for rank in $ranks; do release "$rank"; done) \
      > /dev/null 2>&1 < /dev/null &
    echo "There are not enough slots available in the system" >&2; exit 1 ;;
esac
PATH="@PATH@" exec mpirun "$@"
SH
chmod +x "$work/no-slots/mpirun"
status=0
PATH="$work/no-slots:$PATH" bash "$src/scripts/reproduce-temizer-2013.sh" --jobs 2 "${fault[@]}" \
  --output "$work/fault-out" --data "$work/fault-data" --page "$work/fault-page" \
  > "$work/fault.log" 2>&1 || status=$?
cat "$work/fault.log"
[ "$status" = 1 ] || fail "a study failing beside another: exit status $status, not 1"
expect_match "^\[temizer-2013\] fig9-circles: starts on 1 free rank of 2, beside fig6a-elastic-square$" \
  "$work/fault.log"
expect_match "study fig9-circles failed: mpirun exited with status 1" "$work/fault.log"
expect_match "not enough slots" "$work/fault.log"
expect_match ",stopped," "$work/fault-out/fig6a-elastic-square/sweep.csv"
expect_file "$work/fault-out/fig6a-elastic-square/p1_v2500_tau0.001_square_d0_elastic/checkpoint.bin"
if pgrep -f "output-directory $work/fault-out" > /dev/null; then
  pkill -KILL -f "output-directory $work/fault-out"; fail "a rank kept running"
fi
expect_no_file "$work/fault-page/temizer-2013.md"
reproduce "$work/fault-rerun.log" --jobs 2 "${fault[@]}" --output "$work/fault-out" \
  --data "$work/fault-data" --page "$work/fault-page"
[ "$(cat "$work"/fault-data/{fig6a-elastic-square,fig9-circles}.csv | grep -c ',ok,')" = 3 ] ||
  fail "the call after the fault did not complete both studies"
echo "PASSED"
