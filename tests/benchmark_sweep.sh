#!/usr/bin/env bash
# CTest Benchmarks.SweepTableOfATwoRankSweep (docs/performance.md, Sweeps): benchmarks/run.sh
# --sweep times a sweep under mpirun -np 2 and writes its table from the sweep's own
# sweep.csv: every point in a row, "ok", and the bare interface's kbar = k_o = 0.5 (Coulomb's
# law of the rubber-surface contact) at both pressures.
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
