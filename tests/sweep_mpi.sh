#!/usr/bin/env bash
# CTest SweepMpi.TwoRanksMatchSerial (docs/methods.md §8.3): the tiny 4-point bare-interface sweep
# (2 pressures x 2 slip velocities) run with `mpirun -np 2` (both ranks compute points;
# rank 0 also hands them out) must write 4 subdirectories and a sweep.csv whose rows equal those
# of the same sweep run serially (no mpirun): same points, status ok, kbar, kbar_F and
# kbar_V equal to 1e-10 relative; the results table at the end of the serial run's terminal
# output shows every point's kbar, kbar_F, kbar_V, spread and energy error as its row of
# sweep.csv states them, to the digits printed. A single run (the same file without the
# Sweep subsection) under mpirun -np 2 is rejected before any work, and invalid input under
# mpirun is reported once (by rank 0).
# Usage: sweep_mpi.sh GRANULAR_EXECUTABLE SOURCE_DIR WORK_DIR
set -euo pipefail
exe=$1; src=$2; work=$3
# OpenMPI refuses to start as root without these (harmless otherwise)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rm -rf "$work"; mkdir -p "$work"

write_prm() {  # $1: output directory
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
  set Time step = 2e-3
  set Averaging time = 0.5
end
subsection Particle
  set Enabled = false
end
subsection Sweep
  set Pressures = 1, 2
  set Slip velocities = 2500, 5000
end
PRM
}
write_prm "$work/serial" > "$work/serial.prm"
write_prm "$work/mpi" > "$work/mpi.prm"

"$exe" "$work/serial.prm" > "$work/serial.log" 2>&1 || { cat "$work/serial.log"; exit 1; }
mpirun -np 2 --oversubscribe "$exe" "$work/mpi.prm" > "$work/mpi.log" 2>&1 \
  || { cat "$work/mpi.log"; exit 1; }
grep "done on rank 1" "$work/mpi.log" > /dev/null || { echo "no point ran on rank 1"; cat "$work/mpi.log"; exit 1; }
# the progress lines name the points running on the other ranks, with their t/T0
grep -E "running: p[0-9.]+_v[0-9]+_[^ ]+ \((t/T0 = [0-9.]+|no progress line yet)\)" "$work/mpi.log" > /dev/null \
  || { echo "no progress line names the running points"; cat "$work/mpi.log"; exit 1; }

# a single run (no Sweep subsection) under mpirun is rejected before any work
sed '/subsection Sweep/,/^end/d' "$work/mpi.prm" | sed "s|$work/mpi|$work/single|" > "$work/single.prm"
if mpirun -np 2 --oversubscribe "$exe" "$work/single.prm" > "$work/single.log" 2>&1; then
  echo "a single run under mpirun -np 2 was accepted"; cat "$work/single.log"; exit 1
fi
grep "describes a single run" "$work/single.log" > /dev/null || { cat "$work/single.log"; exit 1; }
[ ! -e "$work/single" ] || { echo "the rejected single run wrote $work/single"; exit 1; }

# invalid input under mpirun is reported once, by rank 0, exit status 2
sed 's|set Pressures = 1, 2|set Pressures = 1, -2|' "$work/mpi.prm" | sed "s|$work/mpi|$work/invalid|" > "$work/invalid.prm"
status=0
mpirun -np 2 --oversubscribe "$exe" "$work/invalid.prm" > "$work/invalid.log" 2>&1 || status=$?
[ "$status" -ne 0 ] || { echo "an invalid sweep under mpirun was accepted"; cat "$work/invalid.log"; exit 1; }
m=$(grep -c "invalid parameter 'Sweep/Pressures'" "$work/invalid.log" || true)
[ "$m" -eq 1 ] || { echo "the error was printed $m times, not once"; cat "$work/invalid.log"; exit 1; }

n=$(find "$work/mpi" -mindepth 1 -maxdepth 1 -type d | wc -l)
[ "$n" -eq 4 ] || { echo "expected 4 point subdirectories, found $n"; exit 1; }

/usr/bin/python3 - "$work/serial/sweep.csv" "$work/mpi/sweep.csv" "$work/serial.log" <<'PY'
import csv, sys
serial = list(csv.DictReader(open(sys.argv[1], newline="")))
# the results table at the end of the terminal output shows each point's sweep.csv values
table = {}
for line in open(sys.argv[3]):
    f = line.split()
    if len(f) == 7 and f[0].startswith("p") and f[6] == "ok":
        table[f[0]] = f[1:6]
assert set(table) == {r["name"] for r in serial}, (sorted(table), [r["name"] for r in serial])
for r in serial:
    shown = [float(x) for x in table[r["name"]]]
    expected = [float(r[c]) for c in ("kbar", "kbar_F", "kbar_V", "kbar_spread")] \
        + [100 * float(r["energy_balance_error"])]
    for column, a, b, digits in zip(("kbar", "kbar_F", "kbar_V", "spread", "energy %"),
                                    shown, expected, (4, 4, 4, 4, 2)):
        assert abs(a - b) <= 0.5 * 10**-digits + 1e-12, (r["name"], column, a, b)
mpi = list(csv.DictReader(open(sys.argv[2], newline="")))
assert len(serial) == 4 and len(mpi) == 4, (len(serial), len(mpi))
for s, m in zip(serial, mpi):
    assert s["name"] == m["name"], (s["name"], m["name"])
    assert s["status"] == "ok" and m["status"] == "ok", (s["status"], m["status"], m["error"])
    for column in ("kbar", "kbar_F", "kbar_V", "steps", "newton_iterations"):
        a, b = float(s[column]), float(m[column])
        assert abs(a - b) <= 1e-10 * max(abs(a), abs(b), 1e-300), (s["name"], column, a, b)
    assert abs(float(m["kbar"]) - 0.5) < 0.005, (m["name"], m["kbar"])
print("SweepMpi: 4 points, 2 ranks == serial")
PY
