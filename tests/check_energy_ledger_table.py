#!/usr/bin/python3
"""CTest Postprocess.EnergyLedgerTable: postprocess/energy_ledger.py on a constructed
energy.csv of a run the energy guard stopped (no summary.csv), with known cumulative
created energies in the four phases:
  - each phase's line holds the increments of the cumulative columns over the phase, the
    shares in % of the platen's work over the ledger, and the * on the largest creator;
  - the table says the run did not finish; -o writes the same table to a file;
  - --help describes the table; a directory without energy.csv is exit status 2 with a
    message naming the file and no traceback.

Usage: check_energy_ledger_table.py SOURCE_DIR WORK_DIR
Exit status 0 if every check passes, 1 with one line per failure otherwise.
"""
import os
import shutil
import subprocess
import sys

source, work = sys.argv[1], sys.argv[2]
SCRIPT = os.path.join(source, "postprocess", "energy_ledger.py")
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


COMPONENTS = ["bulk", "rubber_surface", "rubber_particle", "particle_surface"]
HEADER = ["t", "dt", "phase", "platen_work", "balance"] + \
    [f"{q}_{c}" for c in COMPONENTS for q in ("W", "dE", "D", "R")] + ["R_platen", "unassigned"]

# cumulative R per component at the end of each phase: the particle-surface contact
# creates 0.2 N mm/mm in the window, the rubber-particle contact 0.3 in the dragging
R_END = {"ramp": [0., 0., 0.001, 0.002, 0., 0.],
         "hold": [0., 0., 0.001, 0.012, 0., 0.],
         "dragging": [0., 0.01, 0.301, 0.022, 0.001, 0.],
         "window": [0., 0.01, 0.301, 0.222, 0.001, 0.]}
WORK_END = {"ramp": 1., "hold": 1., "dragging": 6., "window": 10.}
T_END = {"ramp": 0.1, "hold": 0.2, "dragging": 0.4, "window": 0.5}

run_dir = os.path.join(work, "stopped-run")
shutil.rmtree(run_dir, ignore_errors=True)
os.makedirs(run_dir)
rows, previous = [], None
for phase in ["ramp", "hold", "dragging", "window"]:
    for k in (1, 2):  # two rows per phase, the second at the phase's end
        R = R_END[phase] if k == 2 or previous is None else \
            [0.5 * (a + b) for a, b in zip(previous, R_END[phase])]
        fields = {"t": T_END[phase] - (0.01 if k == 1 else 0.), "dt": 0.01, "phase": phase,
                  "platen_work": WORK_END[phase], "balance": -sum(R)}
        for c, r in zip(COMPONENTS, R[:4]):
            fields.update({f"W_{c}": -1., f"dE_{c}": 1. + r, f"D_{c}": 0., f"R_{c}": r})
        fields.update({"R_platen": R[4], "unassigned": R[5]})
        rows.append(",".join(str(fields[h]) for h in HEADER))
    previous = R_END[phase]
with open(os.path.join(run_dir, "energy.csv"), "w") as f:
    f.write(",".join(HEADER) + "\n" + "\n".join(rows) + "\n")

out = subprocess.run([sys.executable, SCRIPT, run_dir, "-o",
                      os.path.join(work, "ledger-table.txt")],
                     capture_output=True, text=True)
check(out.returncode == 0, f"exit status {out.returncode}: {out.stderr}")
lines = out.stdout.splitlines()
check(any("did not finish" in line for line in lines), "no note that the run did not finish")


def phase_lines(label):
    for i, line in enumerate(lines):
        if line.startswith(label):
            return line.split(), lines[i + 1].split()
    failures.append(f"no line for {label}")
    return [], []


values, shares = phase_lines("averaging window")
# window: particle-surface created 0.2 (2 % of the platen's work 10), marked largest
check("+2.000e-01*" in values, f"window line without +2.000e-01*: {values}")
check("+2.000" in shares, f"window shares without +2.000 %: {shares}")
check(values[-1] == "+2.000e-01", f"window total is not +2.000e-01: {values}")
values, shares = phase_lines("dragging")
check("+3.000e-01*" in values and "+1.000e-02" in values,
      f"dragging line without the rubber-particle +3.000e-01* and rubber-surface +1.000e-02: "
      f"{values}")
check(values.count("+2.000e-01*") == 0, "dragging marks the wrong component")
values, shares = phase_lines("hold")
check("+1.000e-02*" in values, f"hold line without particle-surface +1.000e-02*: {values}")
values, shares = phase_lines("whole ledger")
check("+3.010e-01*" in values and "+3.010" in shares,
      f"whole-ledger line without rubber-particle +3.010e-01* (3.010 %): {values} {shares}")
with open(os.path.join(work, "ledger-table.txt")) as f:
    check(f.read() == out.stdout, "-o wrote another table than the printed one")

helped = subprocess.run([sys.executable, SCRIPT, "--help"], capture_output=True, text=True)
help_text = " ".join(helped.stdout.split())
check(helped.returncode == 0 and "energy ledger energy.csv" in help_text and
      "per phase" in help_text, "--help does not describe the table")
missing = subprocess.run([sys.executable, SCRIPT, os.path.join(work, "no-such-run")],
                         capture_output=True, text=True)
check(missing.returncode == 2 and "no-such-run/energy.csv" in missing.stderr and
      "Traceback" not in missing.stderr,
      f"a missing energy.csv: exit {missing.returncode}, {missing.stderr}")

for f in failures:
    print(f"FAILED: {f}")
sys.exit(1 if failures else 0)
