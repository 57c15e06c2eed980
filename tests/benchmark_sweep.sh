#!/usr/bin/env bash
# CTest Benchmarks.SweepTableOfATwoRankSweep (docs/performance.md, Sweeps): benchmarks/run.sh
# --sweep times a sweep under mpirun -np 2 and writes its table from the sweep's own
# sweep.csv: every point in a row, "ok", and the bare interface's kbar = k_o = 0.5 (Coulomb's
# law of the rubber-surface contact) at both pressures. --resume continues that sweep: its
# completed points are kept, not run again, and the table counts two sittings. Two builds
# of one commit side by side are refused.
# Usage: benchmark_sweep.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$1; source=$2; work=$3
rm -rf "$work"; mkdir -p "$work"
cat > "$work/sweep.prm" <<PRM
subsection Geometry
  set Elements in x = 10
  set Elements in y = 4
end
subsection Loading
  set Time step = 2e-3
  set Averaging time = 0.5
end
subsection Particle
  set Enabled = false
end
subsection Sweep
  set Pressures = 1, 2
end
PRM
status=0
/usr/bin/python3 "$source/benchmarks/run.py" --sweep "$work/sweep.prm" --build "$build" \
  --work "$work/runs" -o "$work/table.md" > "$work/log.txt" 2>&1 || status=$?
[ "$status" -eq 0 ] || { echo "run.py --sweep exited $status"; cat "$work/log.txt"; exit 1; }
/usr/bin/python3 - "$work/table.md" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
assert "mpirun -np 2" in text, text
assert re.search(r"\*\*2 of 2 points ok, wall time \d+ s", text), text
rows = [l for l in text.splitlines() if re.match(r"\| p\d", l)]
assert len(rows) == 2, rows
for r in rows:
    cells = [c.strip() for c in r.strip("|").split("|")]
    assert cells[1] == "ok", r
    assert abs(float(cells[6]) - 0.5) <= 0.0025, f"kbar {cells[6]} is not k_o = 0.5: {r}"
print("benchmark sweep table:", len(rows), "points, kbar = k_o")
PY

# --resume: the same sweep continued; both points are complete, so none runs again (their
# rows in sweep.csv keep their wall times) and the wall time adds up two sittings
cp "$work"/runs/*/sweep.csv "$work/sweep-before.csv"
status=0
/usr/bin/python3 "$source/benchmarks/run.py" --sweep "$work/sweep.prm" --build "$build" \
  --work "$work/runs" --resume -o "$work/table2.md" > "$work/log2.txt" 2>&1 || status=$?
[ "$status" -eq 0 ] || { echo "run.py --sweep --resume exited $status"; cat "$work/log2.txt"; exit 1; }
/usr/bin/python3 - "$work/sweep-before.csv" "$work"/runs/*/sweep.csv "$work/table2.md" <<'PY'
import csv, re, sys
before = {r["name"]: r["wall_time"] for r in csv.DictReader(open(sys.argv[1]))}
after = {r["name"]: r["wall_time"] for r in csv.DictReader(open(sys.argv[2]))}
assert before == after, f"a completed point ran again: {before} -> {after}"
text = open(sys.argv[3]).read()
assert re.search(r"\*\*2 of 2 points ok, wall time \d+ s \([0-9.]+ min\)\*\* in 2 sittings", text), text
print("resumed sweep: no point ran again, 2 sittings")
PY

# two builds of one commit would share a work directory, so the side-by-side table would
# show one build's runs twice: refused before anything runs, naming the commit
status=0
/usr/bin/python3 "$source/benchmarks/run.py" --quick --build "$build" --baseline-build "$build" \
  --work "$work/same" -o "$work/same.md" > "$work/log3.txt" 2>&1 || status=$?
[ "$status" -eq 2 ] || { echo "run.py with the same build twice exited $status"; cat "$work/log3.txt"; exit 1; }
grep -q "both report commit" "$work/log3.txt" || { cat "$work/log3.txt"; exit 1; }
[ ! -e "$work/same" ] && [ ! -e "$work/same.md" ] || { echo "it ran or wrote"; exit 1; }
echo "same build twice: refused"
