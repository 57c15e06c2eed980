#!/usr/bin/env bash
# CTest Benchmarks.ThreadsTableRepeatsTheOneThreadRun (docs/performance.md, Threads):
# benchmarks/run.sh --threads 2 gives every run two threads and says so in the table, whose
# time split (assembly / factorization / solve) is part of the run's wall time; the bare
# interface in the quick cell gives kbar = k_o = 0.5 and the same steps, Newton iterations
# and assemblies as with one thread (the results do not depend on the threads).
# Usage: benchmark_threads.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$1; source=$2; work=$3
rm -rf "$work"; mkdir -p "$work"
for n in 1 2; do
  status=0
  /usr/bin/python3 "$source/benchmarks/run.py" --quick --cases bare --threads $n \
    --build "$build" --work "$work/runs-$n" -o "$work/table-$n.md" > "$work/log-$n.txt" 2>&1 \
    || status=$?
  [ "$status" -eq 0 ] || { echo "run.py --threads $n exited $status"; cat "$work/log-$n.txt"; exit 1; }
done
/usr/bin/python3 - "$work/table-1.md" "$work/table-2.md" <<'PY'
import sys
def table(path):
    text = open(path).read()
    lines = [l for l in text.splitlines() if l.startswith("| ")]
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    row = dict(zip(header, [c.strip() for c in lines[1].strip("|").split("|")]))
    return text, row
one_text, one = table(sys.argv[1])
two_text, two = table(sys.argv[2])
assert "each with --threads 2" in two_text, two_text
assert "each on one core" in one_text, one_text
for row in (one, two):
    assert row["case"] == "bare", row
    assert abs(float(row["kbar"]) - 0.5) <= 0.0025, f"kbar {row['kbar']} is not k_o = 0.5"
    parts = [float(x) for x in row["assembly / factorization / solve (s)"].split("/")]
    assert len(parts) == 3 and all(p >= 0 for p in parts), row
    assert sum(parts) <= float(row["wall time (s)"]) + 0.1, row
for column in ("steps", "Newton its", "assemblies", "kbar", "kbar_F", "energy error"):
    assert one[column] == two[column], f"{column}: {one[column]} with one thread, {two[column]} with two"
print("benchmark threads table: bare kbar", two["kbar"], "with 1 and 2 threads alike")
PY
