#!/usr/bin/env bash
# CTest Validation.Temizer2013StudyEndToEnd: one study of params/temizer-2013/ through
# scripts/reproduce-temizer-2013.sh on the reduced cell, end to end: the program checks the
# study's points, mpirun runs them on two ranks, the study's sweep.csv and the Fig. 8
# histories and the points' records are copied into the data directory and the page is
# generated; a second call finds every point done and computes nothing; a call without the
# output directory (a fresh clone) takes the points from the data directory, and a study with
# the same parameters outside Output and Sweep takes a point of the same name from another;
# with --threads 2 the points come out bit for bit the same, and the rank may use two cores.
# The data directory names no path of this machine (the absolute --output is cut to its last
# component).
# The wall time adds up over the runs that a stopped study needed (wall-time.csv).
# A recompute stopped before its points finish leaves the data directory as it was; a
# recompute takes the points its build has computed from the data and computes again only
# those of other builds, replacing their rows and records one by one.
# A study whose output directory the program refuses stops the command with exit status 2
# and the program's message, and leaves the page as it was.
# Study fig9-circles with tau0 = 2e-3 s only: the circle and the 1.5 r0 circle, whose
# histories Fig. 8 shows.
# Usage: reproduce_temizer_reduced.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$1; src=$2; work=$3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rm -rf "$work"; mkdir -p "$work"
args=(--jobs 2 --studies fig9-circles --build "$build" --output "$work/out"
      --data "$work/data" --page "$work/page"
      --set "Geometry/Block length=3" --set "Geometry/Block height=1.5"
      --set "Geometry/Elements in x=12" --set "Geometry/Elements in y=6"
      --set "Loading/Time step=5e-4" --set "Loading/Averaging time=0.25"
      --set "Sweep/Relaxation times=2e-3")
bash "$src/scripts/reproduce-temizer-2013.sh" "${args[@]}" > "$work/first.log" 2>&1 || {
  cat "$work/first.log"; echo "FAILED: the first call exited with $?"; exit 1; }
cat "$work/first.log"
fail() { echo "FAILED: $*"; exit 1; }
grep -q "2/2 points done, 1/1 studies complete" "$work/first.log" || fail "no progress line"
csv="$work/data/fig9-circles.csv"
[ -f "$csv" ] || fail "no $csv"
[ "$(grep -c ',ok,' "$csv")" = 2 ] || fail "$csv does not list 2 points done"
for shape in circular 0.75x0.75x2x2; do
  h=$(ls "$work"/data/histories/fig9-circles/*_${shape}_*.csv 2>/dev/null | head -1)
  [ -n "$h" ] || fail "no history of the $shape point"
  [ "$(head -1 "$h")" = "t,kI,kI_avg" ] || fail "$h has the wrong columns"
  [ "$(wc -l < "$h")" -gt 100 ] || fail "$h has too few rows"
done
[ -f "$work/page/temizer-2013.md" ] || fail "no page"
[ -f "$work/page/temizer-2013/fig8.png" ] || fail "no Fig. 8"
# the second call resumes: nothing left to compute
bash "$src/scripts/reproduce-temizer-2013.sh" "${args[@]}" > "$work/second.log" 2>&1 || {
  cat "$work/second.log"; fail "the second call exited with an error"; }
grep -q "fig9-circles: all 2 points done earlier" "$work/second.log" || {
  cat "$work/second.log"; fail "the second call did not resume"; }
if grep -q "mpirun" "$work/second.log"; then fail "the second call ran mpirun again"; fi
# the committed data are where the command resumes from: the point records are there, and a
# fresh clone (no output directory) takes the points from them and computes nothing
for csv_name in $(ls "$work"/data/histories/fig9-circles/); do
  point=${csv_name%.csv}
  cmp -s "$work/out/fig9-circles/$point/summary.csv" \
    "$work/data/points/fig9-circles/$point/summary.csv" ||
    fail "the data directory lacks $point/summary.csv or holds another"
  # parameters.prm without the machine's paths: the absolute --output from "out/" on
  sed "s|$work/out/|out/|g" "$work/out/fig9-circles/$point/parameters.prm" |
    cmp -s - "$work/data/points/fig9-circles/$point/parameters.prm" ||
    fail "the data directory lacks $point/parameters.prm or holds another"
done
if grep -rq "$work" "$work/data"; then
  fail "the data directory names a path of this machine: $(grep -rl "$work" "$work/data" | head -1)"
fi
cp "$csv" "$work/first.csv"
rm -rf "$work/out"
bash "$src/scripts/reproduce-temizer-2013.sh" "${args[@]}" > "$work/fresh.log" 2>&1 || {
  cat "$work/fresh.log"; fail "the call on the committed data exited with an error"; }
cat "$work/fresh.log"
[ "$(grep -c 'taken from .*data/points/fig9-circles/' "$work/fresh.log")" = 2 ] ||
  fail "the call on the committed data did not take both points from there"
grep -q "^\[temizer-2013\] 2/2 points done" "$work/fresh.log" ||
  fail "the points taken from the data are not counted as done"
if grep -q "fig9-circles: point .* done" "$work/fresh.log"; then
  fail "the call on the committed data computed a point"
fi
cmp -s "$csv" "$work/first.csv" || fail "sweep.csv rebuilt from the committed points differs"
# a study that sets the same entries outside Output and Sweep takes a point of the same name
# from it: viscoelastic-pressure-circles at 2 MPa with tau0 = 2e-3 s is fig9-circles' point
bash "$src/scripts/reproduce-temizer-2013.sh" "${args[@]}" --set "Sweep/Pressures=2" \
  --studies viscoelastic-pressure-circles > "$work/twin.log" 2>&1 || {
  cat "$work/twin.log"; fail "the twin study exited with an error"; }
[ "$(grep -c 'taken from .*/fig9-circles/' "$work/twin.log")" = 2 ] || {
  cat "$work/twin.log"; fail "the twin study did not take its points from fig9-circles"; }
if grep -q "circles: point .* done" "$work/twin.log"; then
  fail "the twin study computed a point"
fi
for column in kbar kbar_F kbar_V; do
  a=$(/usr/bin/python3 -c "import csv,sys; print(sorted(r['$column'] for r in csv.DictReader(open(sys.argv[1]))))" "$csv")
  b=$(/usr/bin/python3 -c "import csv,sys; print(sorted(r['$column'] for r in csv.DictReader(open(sys.argv[1]))))" "$work/data/viscoelastic-pressure-circles.csv")
  [ "$a" = "$b" ] || fail "the twin study's $column differ: $a against $b"
done
# SIGTERM to the command (a batch system's time limit) stops the sweep cleanly through
# mpirun: exit status 143, no rank left running, and the next call completes the study
long=("${args[@]/Loading\/Averaging time=0.25/Loading/Averaging time=8}")
long=("${long[@]/$work\/out/$work/signal-out}")
long=("${long[@]/$work\/data/$work/signal-data}")
# run_and_signal LOG TARGET [OUT ARGS...]: the long study (or the command with ARGS, whose
# output directory is OUT) in the background, SIGTERM to TARGET ("command" or "mpirun") 1 s
# after its points have started to run (however loaded the machine is); sets status to the
# command's exit status
run_and_signal() {
  local log=$1 target=$2 out="$work/signal-out" command_args=("${long[@]}")
  if [ $# -gt 2 ]; then out=$3; command_args=("${@:4}"); fi
  touch "$work/signal-start"
  bash "$src/scripts/reproduce-temizer-2013.sh" "${command_args[@]}" > "$log" 2>&1 &
  local command_pid=$!
  for _ in $(seq 3000); do
    [ -n "$(find "$out" -name run.log -newer "$work/signal-start" 2> /dev/null)" ] &&
      break
    sleep 0.1
  done
  sleep 1
  if [ "$target" = command ]; then kill -TERM "$command_pid"
  else pkill -TERM -f "^mpirun .*output-directory $out"; fi
  status=0; wait "$command_pid" || status=$?
  cat "$log"
}
run_and_signal "$work/signal.log" command
[ "$status" = 143 ] || fail "the command stopped by SIGTERM exited with $status, not 143"
grep -q "stopped by signal 15 in fig9-circles" "$work/signal.log" ||
  fail "the stopped command does not say where it stopped"
if pgrep -f "output-directory $work/signal-out" > /dev/null; then
  pkill -KILL -f "output-directory $work/signal-out"; fail "a rank kept running"
fi
grep -q ",stopped," "$work/signal-out/fig9-circles/sweep.csv" ||
  fail "sweep.csv does not mark the points in progress as stopped"
# the same when the signal reaches only mpirun (which then exits 1 itself)
run_and_signal "$work/signal-mpirun.log" mpirun
[ "$status" = 143 ] || fail "the command whose mpirun got SIGTERM exited with $status, not 143"
grep -q "stopped by signal 15 in fig9-circles" "$work/signal-mpirun.log" ||
  fail "the command whose mpirun got SIGTERM does not say where it stopped"
bash "$src/scripts/reproduce-temizer-2013.sh" "${long[@]}" > "$work/signal-rerun.log" 2>&1 || {
  cat "$work/signal-rerun.log"; fail "the call after the stop exited with an error"; }
[ "$(grep -c ',ok,' "$work/signal-data/fig9-circles.csv")" = 2 ] ||
  fail "the call after the stop did not complete the study"
# the wall time adds up over the three runs in that output directory
[ "$(grep -c ',2,' "$work/signal-out/wall-time.csv")" = 3 ] ||
  fail "wall-time.csv does not hold the three runs: $(cat "$work/signal-out/wall-time.csv")"
grep -Eq "^\[temizer-2013\] all 2 points of 1 study done: .* of wall time over 3 runs of the command on 2 ranks" \
  "$work/signal-rerun.log" || fail "the last line does not state the wall time over the runs"
# --recompute into a data directory that holds the study from an older build (records
# without the source revision): stopped before its points finish, it leaves the study's
# sweep.csv and point records there as they were (every point still there, none half
# written)
cp -r "$work/data" "$work/recompute-data"
sed -i '/^# granular-interface source revision: /d' \
  "$work"/recompute-data/points/*/*/parameters.prm
cp -r "$work/recompute-data" "$work/recompute-before"
recompute=("${long[@]/$work\/signal-out/$work/recompute-out}")
recompute=("${recompute[@]/$work\/signal-data/$work/recompute-data}")
run_and_signal "$work/recompute.log" command "$work/recompute-out" "${recompute[@]}" --recompute
[ "$status" = 143 ] || fail "the stopped recompute exited with $status, not 143"
grep -q ",stopped," "$work/recompute-out/fig9-circles/sweep.csv" ||
  fail "the recompute was not stopped while its points ran"
diff -r "$work/recompute-before" "$work/recompute-data" > /dev/null ||
  fail "the stopped recompute changed the committed data: $(diff -rq "$work/recompute-before" "$work/recompute-data" | head -3)"
# every parameters.prm names the source revision of the build (granular-interface
# --version), and --recompute counts a point as recomputed when its record names this
# build's: on another machine (no output directory) it takes both points from the data and
# computes nothing
revision=$("$build/granular-interface" --version | sed -n 's/.*(source revision \(.*\))$/\1/p')
[ -n "$revision" ] || fail "--version names no source revision"
for record in "$work"/data/points/fig9-circles/*/parameters.prm; do
  grep -qx "# granular-interface source revision: $revision" "$record" ||
    fail "$record does not name the build's source revision $revision"
done
cp -r "$work/data" "$work/again-data"
again=("${args[@]/$work\/out/$work/again-out}")
again=("${again[@]/$work\/data/$work/again-data}")
bash "$src/scripts/reproduce-temizer-2013.sh" "${again[@]}" --recompute > "$work/again.log" 2>&1 || {
  cat "$work/again.log"; fail "the recompute on recomputed data exited with an error"; }
[ "$(grep -c 'taken from .*again-data/points/fig9-circles/' "$work/again.log")" = 2 ] || {
  cat "$work/again.log"; fail "the recompute did not take this build's points from the data"; }
if grep -q "fig9-circles: point .* done" "$work/again.log"; then
  fail "the recompute computed a point this build had computed"
fi
# a point whose record names no revision (a build before the program wrote it) is computed
# again, and only it: its row and record in the data are replaced, the other's stay as they
# were, byte for byte
rm -rf "$work/again-out"
old_point=$(basename "$(ls -d "$work"/again-data/points/fig9-circles/*_circular_* | head -1)")
sed -i '/^# granular-interface source revision: /d' \
  "$work"/again-data/points/*/"$old_point"/parameters.prm   # also its twin's
grep -v ",$old_point," "$work/again-data/fig9-circles.csv" > "$work/kept-rows.csv"
bash "$src/scripts/reproduce-temizer-2013.sh" "${again[@]}" --recompute > "$work/older.log" 2>&1 || {
  cat "$work/older.log"; fail "the recompute of an older build's point exited with an error"; }
[ "$(grep -c 'fig9-circles: point .* done' "$work/older.log")" = 1 ] || {
  cat "$work/older.log"; fail "the recompute did not compute exactly the older build's point"; }
grep -q "fig9-circles: point .*($old_point) done" "$work/older.log" ||
  fail "the recompute computed another point than $old_point"
grep -qx "# granular-interface source revision: $revision" \
  "$work/again-data/points/fig9-circles/$old_point/parameters.prm" ||
  fail "the recomputed point's record does not name this build"
grep -v ",$old_point," "$work/again-data/fig9-circles.csv" | cmp -s - "$work/kept-rows.csv" ||
  fail "the recompute changed the rows of points it did not compute"
[ "$(grep -c ',ok,' "$work/again-data/fig9-circles.csv")" = 2 ] ||
  fail "the study lost a point in the recompute"
# --since REV must name a commit, and only with --recompute
status=0
bash "$src/scripts/reproduce-temizer-2013.sh" "${again[@]}" --recompute --since no-such-commit \
  > "$work/since.log" 2>&1 || status=$?
[ "$status" = 2 ] && grep -q "no-such-commit" "$work/since.log" || {
  cat "$work/since.log"; fail "--since with an unknown commit: exit $status"; }
# --threads N evaluates each point's elements on N threads: the points' results are bit for
# bit those of one thread (docs/running.md#threads)
threaded=("${args[@]/$work\/out/$work/threads-out}")
threaded=("${threaded[@]/$work\/data/$work/threads-data}")
threaded=("${threaded[@]/$work\/page/$work/threads-page}")
threaded[1]=1    # --jobs 1
bash "$src/scripts/reproduce-temizer-2013.sh" "${threaded[@]}" --threads 2 --recompute \
  > "$work/threads.log" 2>&1 || { cat "$work/threads.log"; fail "--threads 2 exited with an error"; }
grep -q "mpirun -np 1 .*granular-interface .*--threads 2" "$work/threads.log" || {
  cat "$work/threads.log"; fail "--threads 2 did not reach the program"; }
# and both threads may run on their own core: mpirun does not bind the rank to one core
# (the program warns when it has more threads than cores it may use)
if [ "$(nproc)" -ge 2 ] && grep -q "warning: --threads" "$work/threads.log"; then
  cat "$work/threads.log"; fail "the rank of --jobs 1 --threads 2 may not use two cores"
fi
/usr/bin/python3 - "$work/first.csv" "$work/threads-data/fig9-circles.csv" <<'PY' ||
import csv, sys
one, two = ({r["name"]: r for r in csv.DictReader(open(f))} for f in sys.argv[1:])
assert sorted(one) == sorted(two), (sorted(one), sorted(two))
for name, r in one.items():
    for column in ("status", "kbar", "kbar_F", "kbar_V", "energy_balance_error", "steps",
                   "newton_iterations", "assemblies"):
        assert r[column] == two[name][column], (name, column, r[column], two[name][column])
PY
  fail "the points computed on 2 threads differ from those on one"
# a study file the program rejects stops the command before any run, naming the entry
if bash "$src/scripts/reproduce-temizer-2013.sh" --studies fig9-circles --build "$build" \
     --output "$work/bad" --data "$work/bad-data" --page "$work/bad-page" \
     --set "Loading/Pressure=-1" > "$work/bad.log" 2>&1; then
  fail "a negative pressure was accepted"
fi
grep -q "Pressure" "$work/bad.log" || { cat "$work/bad.log"; fail "the error does not name the entry"; }
[ ! -d "$work/bad" ] || fail "the rejected study wrote its output directory"
# a study whose output directory the program refuses (a single run's results there) stops
# the command before any point runs, when the program checks the study and its directory:
# exit status 2, naming the study file and passing on the program's message; nothing is
# copied to the data and the page stays
refused=("${args[@]/$work\/out/$work/refused}")
refused=("${refused[@]/$work\/data/$work/refused-data}")
refused=("${refused[@]/$work\/page/$work/refused-page}")
mkdir -p "$work/refused/fig9-circles" "$work/refused-page"
touch "$work/refused/fig9-circles/history.csv"
echo "the committed page" > "$work/refused-page/temizer-2013.md"
status=0
bash "$src/scripts/reproduce-temizer-2013.sh" "${refused[@]}" > "$work/refused.log" 2>&1 ||
  status=$?
[ "$status" = 2 ] || { cat "$work/refused.log"; fail "the refused study exited with $status"; }
grep -q "fig9-circles.prm is rejected" "$work/refused.log" ||
  { cat "$work/refused.log"; fail "the refused study is not named"; }
if grep -q "mpirun -np" "$work/refused.log"; then
  fail "a point ran before the study's directory was checked"
fi
grep -q "holds the results of a single run" "$work/refused.log" ||
  fail "the program's message is not passed on"
[ "$(cat "$work/refused-page/temizer-2013.md")" = "the committed page" ] ||
  fail "the page was rewritten after a refused study"
[ ! -e "$work/refused-data/fig9-circles.csv" ] || fail "the refused study's data were copied"
echo "reduced study end to end: ok"
