#!/usr/bin/python3
"""CTest Postprocess.BoundaryLayerRatesPerPhase: boundary_layer_rates.py splits a
run's history.csv into the load ramp and hold (t < T0), rolling and roll-overs (|omega|
above its 75th percentile after T0), leaves out interpolated rows (newton_iterations = 0),
and gives the median and the largest value of each column per phase; an elastic run's
history.csv (no boundary-layer columns) is exit status 2 with a message.
Usage: check_boundary_layer_rates.py SOURCE_DIR WORK_DIR"""
import os
import subprocess
import sys

source, work = sys.argv[1], sys.argv[2]
script = os.path.join(source, "postprocess", "boundary_layer_rates.py")
run = os.path.join(work, "payne-rates-run")
os.makedirs(run, exist_ok=True)
T0 = 3. / 2500.
with open(os.path.join(run, "summary.csv"), "w") as f:
    f.write("kbar,slip_velocity,block_length\n0.3,2500,3\n")
cols = ["t", "phase", "newton_iterations", "particle_omega", "D_bottom_max", "D_bottom_p99",
        "D_bottom_p50", "H_bottom_max", "H_bottom_p99", "H_bottom_p50"]
rows = []
# before T0: D = 100 (p50), 200 (p99), 300 (max); H = 1.001, 1.002, 1.003
for k in range(10):
    rows.append([0.05 * k * T0, "compression", 3, 0., 300., 200., 100., 1.003, 1.002, 1.001])
# an interpolated row with absurd values: must be left out
rows.append([0.9 * T0, "compression", 0, 0., 1e9, 1e9, 1e9, 9., 9., 9.])
# after T0: 12 rows with |omega| = 1..12; the 75th percentile (exclusive) is 9.75, so
# omega 10, 11, 12 are roll-overs with D = 10 x omega, the others rolling with D = omega
for k in range(1, 13):
    D = 10. * k if k >= 10 else float(k)
    rows.append([T0 * (1. + 0.01 * k), "transition", 2, -float(k), D, D, D, 1. + D / 1e3,
                 1. + D / 1e3, 1. + D / 1e3])
with open(os.path.join(run, "history.csv"), "w") as f:
    f.write(",".join(cols) + "\n")
    for r in rows:
        f.write(",".join(str(v) for v in r) + "\n")
out = subprocess.run(["/usr/bin/python3", script, run], capture_output=True, text=True)
assert out.returncode == 0, out.stderr
lines = {l.split("|")[1].strip(): [c.strip() for c in l.split("|")[2:-1]]
         for l in out.stdout.splitlines() if l.startswith("| ") and "phase" not in l}
assert lines["load ramp and hold"] == ["10", "100 / 100", "200 / 200", "300 / 300",
                                       "1.0010 / 1.0010", "1.0020 / 1.0020",
                                       "1.0030 / 1.0030"], lines
assert lines["rolling"][0] == "9" and lines["rolling"][1] == "5 / 9", lines
assert lines["roll-overs"][0] == "3" and lines["roll-overs"][3] == "110 / 120", lines
assert lines["roll-overs"][6] == "1.1100 / 1.1200", lines

# an elastic run: no boundary-layer columns
elastic = os.path.join(work, "payne-rates-elastic")
os.makedirs(elastic, exist_ok=True)
with open(os.path.join(elastic, "summary.csv"), "w") as f:
    f.write("kbar,slip_velocity,block_length\n0.3,2500,3\n")
with open(os.path.join(elastic, "history.csv"), "w") as f:
    f.write("t,phase,newton_iterations,particle_omega\n0,compression,2,0\n")
out = subprocess.run(["/usr/bin/python3", script, elastic], capture_output=True, text=True)
assert out.returncode == 2, out
assert "no boundary-layer columns" in out.stderr and "Traceback" not in out.stderr, out.stderr
print("boundary_layer_rates.py: phases, medians and maxima as constructed; elastic run rejected")
