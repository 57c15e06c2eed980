#!/usr/bin/env bash
# CTest SweepMpi.SignalStopsEveryRank (docs/sweeps.md, Stopping and resuming): a sweep on two
# MPI ranks (mpirun -np 2) stopped by SIGTERM
#  1. sent to ONE rank only (rank 1, not mpirun): the whole sweep stops after the time step in
#     progress; that rank does not take the remaining points: at most one point per rank is
#     "stopped", the others stay "pending", none "failed"; the points completed before are
#     kept; every rank exits 143, so mpirun does; the same command resumes the sweep and
#     completes it without running the kept points again;
#  2. sent to every rank (what a batch scheduler does): mpirun exits 143;
#  3. sent to mpirun: the sweep stops cleanly too (Open MPI's mpirun then exits 1 itself,
#     whatever its ranks return).
# Usage: sweep_signals.sh GRANULAR_EXECUTABLE WORK_DIR
set -euo pipefail
exe=$1; work=$2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rm -rf "$work"; mkdir -p "$work"

write_prm() {  # $1: output directory; points of a few seconds each (a signal after the first
               # point must find the sweep running on a loaded machine too, and mpirun takes
               # its time to pass a signal on)
  cat <<PRM
subsection Output
  set Output directory = $1
  set VTU output interval = 0
  set Progress interval = 100
end
subsection Geometry
  set Elements in x = 10
  set Elements in y = 4
end
subsection Loading
  set Time step = 5e-5
  set Averaging time = 2
end
subsection Particle
  set Enabled = false
end
subsection Sweep
  set Pressures = 1, 2, 3
  set Slip velocities = 2500, 5000
end
PRM
}

# starts the sweep of $1.prm under mpirun in the background; sets $mpirun_pid
start_sweep() {
  write_prm "$work/$1" > "$work/$1.prm"
  mpirun -np 2 --oversubscribe "$exe" "$work/$1.prm" > "$work/$1.log" 2>&1 &
  mpirun_pid=$!
}

# waits until a point of sweep $1 has completed (its summary.csv)
wait_for_first_point() {
  for _ in $(seq 600); do
    compgen -G "$work/$1/*/summary.csv" > /dev/null && return 0
    sleep 0.05
  done
  echo "no point of $1 completed"; cat "$work/$1.log"; exit 1
}

# the pid of rank $1 among mpirun's children
rank_pid() {
  for c in $(pgrep -P "$mpirun_pid"); do
    if tr '\0' '\n' < "/proc/$c/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$1"; then
      echo "$c"; return 0
    fi
  done
  echo "rank $1 of mpirun $mpirun_pid not found" >&2; exit 1
}

# sweep.csv of $1 after a stop: statuses ok/stopped/pending only, at most one point stopped per
# rank, at least one kept and one left to do, and no summary.csv in a point not "ok"
check_stopped_table() {
  /usr/bin/python3 - "$work/$1" <<'PY'
import csv, os, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(out, "sweep.csv"), newline="")))
assert len(rows) == 6, len(rows)
count = {s: sum(r["status"] == s for r in rows) for s in ("ok", "stopped", "pending", "failed")}
assert count["failed"] == 0, [(r["name"], r["error"]) for r in rows if r["status"] == "failed"]
assert count["ok"] + count["stopped"] + count["pending"] == 6, count
assert count["stopped"] <= 2, f"more points stopped than ranks: {count}"
assert count["ok"] >= 1 and count["stopped"] + count["pending"] >= 1, count
for r in rows:
    summary = os.path.join(out, r["name"], "summary.csv")
    assert (r["status"] == "ok") == os.path.exists(summary), (r["name"], r["status"])
print(out, count)
PY
}

# 1. SIGTERM to rank 1 only
start_sweep one-rank
wait_for_first_point one-rank
kill -TERM "$(rank_pid 1)"
status=0; wait "$mpirun_pid" || status=$?
[ "$status" -eq 143 ] || { echo "SIGTERM to rank 1: mpirun exited $status, not 143"; cat "$work/one-rank.log"; exit 1; }
grep -q "sweep stopped by signal 15" "$work/one-rank.log" || { cat "$work/one-rank.log"; exit 1; }
check_stopped_table one-rank
kept=$(cd "$work/one-rank" && for f in */summary.csv; do echo "$f $(stat -c %Y.%y "$f")"; done)
status=0
mpirun -np 2 --oversubscribe "$exe" "$work/one-rank.prm" > "$work/one-rank-resume.log" 2>&1 || status=$?
[ "$status" -eq 0 ] || { echo "the resumed sweep exited $status"; cat "$work/one-rank-resume.log"; exit 1; }
grep -q "already complete" "$work/one-rank-resume.log"
n_ok=$(grep -c ",ok," "$work/one-rank/sweep.csv" || true)
[ "$n_ok" -eq 6 ] || { echo "after the resume $n_ok of 6 points are ok"; cat "$work/one-rank/sweep.csv"; exit 1; }
while read -r f stamp; do
  [ "$(cd "$work/one-rank" && stat -c %Y.%y "$f")" = "$stamp" ] || { echo "the kept point $f was run again"; exit 1; }
done <<< "$kept"

# 2. SIGTERM to every rank, as a batch scheduler sends it
start_sweep all-ranks
wait_for_first_point all-ranks
kill -TERM "$(rank_pid 0)" "$(rank_pid 1)"
status=0; wait "$mpirun_pid" || status=$?
[ "$status" -eq 143 ] || { echo "SIGTERM to every rank: mpirun exited $status, not 143"; cat "$work/all-ranks.log"; exit 1; }
check_stopped_table all-ranks

# 3. SIGTERM to mpirun: it forwards the signal to the ranks, which stop cleanly
start_sweep mpirun
wait_for_first_point mpirun
kill -TERM "$mpirun_pid"
status=0; wait "$mpirun_pid" || status=$?
[ "$status" -ne 0 ] || { echo "SIGTERM to mpirun: exit status 0"; exit 1; }
grep -q "sweep stopped by signal 15" "$work/mpirun.log" || { cat "$work/mpirun.log"; exit 1; }
check_stopped_table mpirun
echo "SweepMpi: a signal to one rank, to every rank and to mpirun stops the whole sweep"
