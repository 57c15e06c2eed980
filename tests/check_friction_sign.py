#!/usr/bin/python3
"""CTest Postprocess.FrictionSignAgainstClosedForms: postprocess/friction_sign.py on
constructed runs.

- A tangential force F_T/F_N = a + b sin(2 pi t / P) over a window of whole periods
  (T0 = 1 s, window [2, 4] s): the time average of |F_T/F_N| is (2 a phi + 2 b cos phi)/pi,
  phi = arcsin(a/b), the signed average is a, and F_T < 0 for the share (pi - 2 phi)/(2 pi)
  of the time. Rows before the window (a large F_T) must not count.
- A force that keeps its sign: both averages equal, no time reversed.
- A part of the window (--from, --to): a force that resists in the window's first half
  and reverses in its second gives each half's own averages (k̄_F, k̄_V, which summary.csv
  has for the whole window, not shown); an empty interval is refused with exit status 2.
- A run whose history ends before 2 T0 and a missing history: exit status 2 with a
  message naming the file, and nothing printed on stdout.

Usage: check_friction_sign.py SOURCE_DIR WORK_DIR
"""
import math
import os
import shutil
import subprocess
import sys

source, work = (os.path.abspath(a) for a in sys.argv[1:3])
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
script = os.path.join(source, "postprocess", "friction_sign.py")
failures = []


def check(ok, message):
    if not ok:
        failures.append(message)


def make_run(name, ratio, t_end=4., n=40000):
    """A run directory with history.csv (t, F_T, F_N, phase) and summary.csv, T0 = 1 s."""
    d = os.path.join(work, name)
    os.makedirs(d)
    with open(os.path.join(d, "history.csv"), "w") as f:
        f.write("t,phase,F_N,F_T,kI\n")
        for i in range(n + 1):
            t = t_end * i / n
            fn = 2.5
            ft = (5. if t < 2. - 1e-12 else ratio(t)) * fn  # before the window: ignored
            phase = "averaging" if t >= 2. - 1e-12 else "transition"
            f.write(f"{t:.12g},{phase},{fn:.17g},{ft:.17g},{abs(ft / fn):.17g}\n")
    with open(os.path.join(d, "summary.csv"), "w") as f:
        f.write("kbar,kbar_F,kbar_V,block_length,slip_velocity\n0.2,0.1,0,10,10\n")
    return d


a, b, period = 0.1, 0.3, 0.25
oscillating = make_run("oscillating",
                       lambda t: a + b * math.sin(2. * math.pi * t / period))
steady = make_run("steady", lambda t: 0.3 + 0.05 * math.sin(2. * math.pi * t / period))
r = subprocess.run([sys.executable, script, oscillating, steady], capture_output=True,
                   text=True)
check(r.returncode == 0, f"exit status {r.returncode}: {r.stderr}")
rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:7]]
        for line in r.stdout.splitlines()[2:]}
phi = math.asin(a / b)
expected_abs = (2. * a * phi + 2. * b * math.cos(phi)) / math.pi
expected_share = (math.pi - 2. * phi) / (2. * math.pi)
try:
    o, s = rows["oscillating"], rows["steady"]
    check(abs(float(o[0]) - expected_abs) < 1e-4,
          f"mean of |F_T/F_N| {o[0]}, expected {expected_abs:.4f}")
    check(abs(float(o[1]) - a) < 1e-4, f"signed mean {o[1]}, expected {a}")
    check(abs(float(o[2].rstrip(" %")) / 100. - expected_share) < 1e-3,
          f"time with F_T < 0 {o[2]}, expected {100. * expected_share:.1f} %")
    check(o[3] == "0.1000" and o[4] == "0.0000", f"k̄_F, k̄_V of summary.csv: {o[3:5]}")
    check(float(s[0]) == float(s[1]) == 0.3 and s[2] == "0.0 %",
          f"a force that keeps its sign: {s}")
except (KeyError, IndexError, ValueError) as e:
    failures.append(f"cannot read the table ({e}):\n{r.stdout}")

# a part of the window (--from, --to in units of T0): a force that resists the dragging in
# the first half and pushes the platen along in the second
halves = make_run("halves", lambda t: 0.1 if t < 3. else -0.2)
for interval, expected in ((["--to", "2.9"], ["0.1000", "0.1000", "0.0 %", "–", "–"]),
                           (["--from", "3.1"], ["0.2000", "-0.2000", "100.0 %", "–", "–"])):
    r = subprocess.run([sys.executable, script] + interval + [halves], capture_output=True,
                       text=True)
    got = [c.strip() for c in r.stdout.splitlines()[-1].split("|")[2:7]] \
        if r.returncode == 0 and r.stdout else []
    check(got == expected, f"{' '.join(interval)}: {got}, expected {expected} "
          f"(exit status {r.returncode}, {r.stderr})")
r = subprocess.run([sys.executable, script, "--from", "3", "--to", "2", halves],
                   capture_output=True, text=True)
check(r.returncode == 2 and "--from 3 --to 2" in r.stderr and r.stdout == "",
      f"an empty interval: exit status {r.returncode}, {r.stderr!r}")

short = make_run("short", lambda t: 0.2, t_end=1.5, n=100)
for bad, text in ((short, "has no averaging window"),
                  (os.path.join(work, "missing"), "history.csv")):
    r = subprocess.run([sys.executable, script, steady, bad], capture_output=True, text=True)
    check(r.returncode == 2 and text in r.stderr and r.stdout == "" and
          "Traceback" not in r.stderr,
          f"{os.path.basename(bad)}: exit status {r.returncode}, stdout {r.stdout!r}, "
          f"stderr {r.stderr!r}")

if failures:
    print("FAILED:\n  " + "\n  ".join(failures))
    sys.exit(1)
print("friction_sign.py: |F_T/F_N|, the signed average and the reversed time agree with "
      "the closed forms")
