#!/usr/bin/python3
"""CTest Postprocess.KbarFigureDrawsNoEmptyPanel: postprocess/kbar_vs_parameter.py draws a
quantity only where it has data. On a constructed pressure sweep of an elastic rubber
(k̄_V = 0 at every point, one failed point):
  - the figure against the pressure has two panels, k̄ and k̄_F (no k̄_V panel);
  - the same sweep with a viscoelastic rubber (k̄_V > 0) has all three panels, and a
    sweep.csv without the column kbar_V has two;
  - in the one-panel layout (against tau0 v_F / L0) the elastic sweep has no k̄_V curve,
    the viscoelastic one has one per curve;
  - kbar_vs_pressure.py (the alias) writes its PNG and PDF from the elastic sweep and
    reports the failed point.
  - a point whose k̄ is infinite or nan in sweep.csv counts as failed: the alias draws the
    figure without it, reports it on stderr and stops with no traceback; so does the
    one-panel layout.
  - a sweep.csv without the column kbar is refused by kbar_vs_pressure.py and compare.py
    with exit status 2 and a message naming the column, and no figure is written.
  - against the number of particles, a layer sweep's points (summary.csv's `particles`)
    make one curve per shape, in the order of N.

Usage: check_kbar_vs_parameter.py SOURCE_DIR WORK_DIR
Exit status 0 if every check passes, 1 with one line per failure otherwise. Needs Debian's
/usr/bin/python3 with python3-matplotlib.
"""
import csv
import os
import subprocess
import sys

source, work = sys.argv[1], sys.argv[2]
SCRIPTS = os.path.join(source, "postprocess")
sys.path.insert(0, SCRIPTS)
import common  # noqa: E402
import kbar_vs_parameter  # noqa: E402

COLUMNS = ["point", "name", "point_pressure", "point_relaxation_time",
           "point_slip_velocity", "point_shape", "point_payne_d", "point_rubber_model",
           "status", "error", "kbar", "kbar_F", "kbar_V", "kbar_spread", "block_length"]
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print(f"FAIL: {message}")


def write_sweep(path, viscoelastic, columns=COLUMNS):
    """A pressure sweep of two shapes at p = 1, 2, 3 MPa, tau0 varying with p (so that
    tau0 v_F / L0 is an axis too); the square at 3 MPa failed."""
    rows = []
    for shape, base in (("circular", 0.30), ("square", 0.25)):
        for n, p in enumerate((1, 2, 3)):
            k_V = 0.02 * (n + 1) if viscoelastic else 0.
            k_F = base + 0.01 * n
            row = dict(point=len(rows), name=f"p{p}_{shape}", point_pressure=p,
                       point_relaxation_time=1e-4 * (n + 1), point_slip_velocity=2500,
                       point_shape=shape, point_payne_d=0,
                       point_rubber_model="viscoelastic" if viscoelastic else "elastic",
                       status="ok", error="", kbar=k_F + k_V, kbar_F=k_F, kbar_V=k_V,
                       kbar_spread=0.004, block_length=10)
            if shape == "square" and p == 3:
                row.update(status="failed", error="Newton did not converge", kbar="",
                           kbar_F="", kbar_V="", kbar_spread="", block_length="")
            rows.append(row)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    return path


def panels(path, parameter, layout=None):
    """(number of axes, legend labels of the first axes) of the figure of a sweep."""
    fig, _ = kbar_vs_parameter.plot(common.read_sweep(path), parameter,
                                    os.path.dirname(path), layout)
    labels = [text for ax in fig.axes for text in ax.get_legend_handles_labels()[1]]
    return len(fig.axes), [a.get_ylabel() for a in fig.axes], labels


elastic = write_sweep(os.path.join(work, "kbar-elastic", "sweep.csv"), False)
viscous = write_sweep(os.path.join(work, "kbar-viscoelastic", "sweep.csv"), True)
no_column = write_sweep(os.path.join(work, "kbar-no-kbar-V", "sweep.csv"), True,
                        [c for c in COLUMNS if c != "kbar_V"])

count, ylabels, _ = panels(elastic, "pressure")
check(count == 2 and not any("k_V" in y for y in ylabels),
      f"elastic sweep against the pressure: {count} panels {ylabels}, expected k̄ and k̄_F")
count, ylabels, _ = panels(viscous, "pressure")
check(count == 3 and "k_V" in ylabels[2],
      f"viscoelastic sweep against the pressure: {count} panels {ylabels}, expected 3")
count, ylabels, _ = panels(no_column, "pressure")
check(count == 2, f"sweep.csv without kbar_V: {count} panels {ylabels}, expected 2")

count, _, labels = panels(elastic, "relaxation")
check(count == 1 and not any("k_V" in t for t in labels),
      f"elastic sweep in one panel: a k̄_V curve is drawn: {labels}")
count, _, labels = panels(viscous, "relaxation")
check(sum("k_V" in t for t in labels) == sum("k_F" in t for t in labels) > 0,
      f"viscoelastic sweep in one panel: {labels}, expected a k̄_V curve per curve")

# both rubbers in one sweep: the elastic curve gets no k̄_V line along zero, in one panel
# and in the k̄_V panel
both = os.path.join(work, "kbar-both", "sweep.csv")
os.makedirs(os.path.dirname(both), exist_ok=True)
with open(both, "w", newline="") as f:
    writer = csv.DictWriter(f, fieldnames=COLUMNS)
    writer.writeheader()
    for path in (elastic, viscous):
        with open(path) as g:
            for r in csv.DictReader(g):
                writer.writerow(dict(r, name=r["name"] + r["point_rubber_model"]))
for layout in ("single", "panels"):
    fig, _ = kbar_vs_parameter.plot(common.read_sweep(both), "pressure",
                                    os.path.dirname(both), layout)
    drawn = [line.get_label() for ax in fig.axes for line in ax.get_lines()
             if not line.get_label().startswith("_")]
    # (the failed points' crosses on the axis are markers, not a curve)
    zero_lines = [line.get_label() for ax in fig.axes for line in ax.get_lines()
                  if line.get_linestyle() not in ("None", "") and
                  not line.get_label().startswith("_") and len(line.get_ydata()) and
                  all(y == 0. for y in line.get_ydata())]
    check(not zero_lines and any("viscoelastic" in t and "k_V" in t for t in drawn)
          if layout == "single" else not zero_lines,
          f"both rubbers ({layout}): lines along zero {zero_lines}; lines {drawn}")

prefix = os.path.join(work, "kbar-elastic", "figure")
result = subprocess.run(["/usr/bin/python3", os.path.join(SCRIPTS, "kbar_vs_pressure.py"),
                         elastic, "-o", prefix + ".png"], capture_output=True, text=True)
check(result.returncode == 0 and "1 failed" in result.stdout
      and "Traceback" not in result.stderr,
      f"kbar_vs_pressure.py: exit status {result.returncode}\n{result.stdout}{result.stderr}")
for extension in ("png", "pdf"):
    check(os.path.getsize(f"{prefix}.{extension}") > 1000 if os.path.exists(
        f"{prefix}.{extension}") else False, f"kbar_vs_pressure.py wrote no {prefix}.{extension}")

# k̄ infinite at one point, nan at another (a diverged run's sweep.csv): failed points
infinite = write_sweep(os.path.join(work, "kbar-infinite", "sweep.csv"), True)
with open(infinite) as f:
    table = list(csv.DictReader(f))
table[1].update(kbar="inf", kbar_F="inf")
table[3].update(kbar_V="nan", kbar_spread="inf")
with open(infinite, "w", newline="") as f:
    writer = csv.DictWriter(f, fieldnames=COLUMNS)
    writer.writeheader()
    writer.writerows(table)
prefix = os.path.join(work, "kbar-infinite", "figure")
for extension in ("png", "pdf"):
    if os.path.exists(f"{prefix}.{extension}"):
        os.remove(f"{prefix}.{extension}")
result = subprocess.run(["/usr/bin/python3", os.path.join(SCRIPTS, "kbar_vs_pressure.py"),
                         infinite, "-o", prefix + ".png"], capture_output=True, text=True)
check(result.returncode == 0 and "3 points, 3 failed" in result.stdout
      and "Traceback" not in result.stderr
      and f"skipping {table[1]['name']} (failed: kbar = inf" in result.stderr
      and f"skipping {table[3]['name']} (failed: kbar_V = nan" in result.stderr
      and os.path.exists(prefix + ".png"),
      f"kbar_vs_pressure.py with an infinite k̄: exit status {result.returncode}\n"
      f"{result.stdout}{result.stderr}")
try:
    count, _, labels = panels(infinite, "relaxation")
    check(count == 1 and "failed" in labels, f"infinite k̄ in one panel: {labels}")
except ValueError as e:
    check(False, f"infinite k̄ in one panel: {e}")

# a sweep.csv without the column kbar: exit status 2 naming the column, nothing drawn
no_kbar = write_sweep(os.path.join(work, "kbar-no-kbar", "sweep.csv"), True,
                      [c for c in COLUMNS if c != "kbar"])
for script in ("kbar_vs_pressure.py", "compare.py"):
    prefix = os.path.join(work, "kbar-no-kbar", script[:-3])
    result = subprocess.run(["/usr/bin/python3", os.path.join(SCRIPTS, script), no_kbar,
                             "-o", prefix], capture_output=True, text=True)
    check(result.returncode == 2 and f"{no_kbar} has no column kbar " in result.stderr
          and "Traceback" not in result.stderr and not os.path.exists(prefix + ".png"),
          f"{script} on a sweep.csv without kbar: exit status {result.returncode}\n"
          f"{result.stdout}{result.stderr}")

# against the number of particles (Sweep/Numbers of particles): x is summary.csv's
# `particles`, one curve per shape, the points in the order of N
layer = os.path.join(work, "kbar-particles", "sweep.csv")
os.makedirs(os.path.dirname(layer), exist_ok=True)
with open(layer, "w", newline="") as f:
    writer = csv.DictWriter(f, fieldnames=COLUMNS + ["particles"], extrasaction="ignore")
    writer.writeheader()
    for i, (shape, n, k) in enumerate((("circular", 4, 0.20), ("circular", 1, 0.34),
                                       ("circular", 2, 0.30), ("elliptical", 1, 0.33))):
        writer.writerow(dict(point=i, name=f"{shape}_n{n}", point_pressure=2,
                             point_relaxation_time=1e-4, point_slip_velocity=2500,
                             point_shape=shape, point_payne_d=0, point_rubber_model="elastic",
                             status="ok", error="", kbar=k, kbar_F=k, kbar_V=0,
                             kbar_spread=0.004, block_length=10, particles=n))
_, sweep_of_layer = kbar_vs_parameter.plot(common.read_sweep(layer), "particles",
                                           os.path.dirname(layer))
circles = [c for label, c in sweep_of_layer.curves.items() if "circ" in label.lower()]
check(len(sweep_of_layer.curves) == 2 and circles
      and [float(r["particles"]) for r in circles[0]] == [1., 2., 4.],
      f"against the number of particles: curves {dict(sweep_of_layer.curves)}")

# a sweep of mixtures (Sweep/Mixtures): one curve per mixture, named by its shapes, though
# every point has the file's Particle/Shape
mixed = os.path.join(work, "kbar-mixtures", "sweep.csv")
os.makedirs(os.path.dirname(mixed), exist_ok=True)
with open(mixed, "w", newline="") as f:
    writer = csv.DictWriter(f, fieldnames=COLUMNS + ["point_mixture", "particles"],
                            extrasaction="ignore")
    writer.writeheader()
    for i, (mixture, n, k) in enumerate((("circular, elliptical", 2, 0.25),
                                         ("circular, elliptical", 4, 0.20),
                                         ("square, rectangular", 2, 0.30),
                                         ("square, rectangular", 4, 0.28))):
        writer.writerow(dict(point=i, name=f"mix{i}_n{n}", point_pressure=2,
                             point_relaxation_time=1e-4, point_slip_velocity=2500,
                             point_shape="elliptical", point_payne_d=0,
                             point_rubber_model="elastic", point_mixture=mixture,
                             status="ok", error="", kbar=k, kbar_F=k, kbar_V=0,
                             kbar_spread=0.004, block_length=10, particles=n))
_, sweep_of_mixtures = kbar_vs_parameter.plot(common.read_sweep(mixed), "particles",
                                              os.path.dirname(mixed))
check(sorted(sweep_of_mixtures.curves) == ["circular + elliptical", "square + rectangular"]
      and all(len(c) == 2 for c in sweep_of_mixtures.curves.values()),
      f"mixtures: curves {sorted(sweep_of_mixtures.curves)}")

# the two sweeps drawn together from the command line: every curve of both
prefix = os.path.join(work, "kbar-mixtures", "both")
result = subprocess.run(["/usr/bin/python3", os.path.join(SCRIPTS, "kbar_vs_parameter.py"),
                         "particles", layer, os.path.dirname(mixed), "-o", prefix],
                        capture_output=True, text=True)
check(result.returncode == 0 and "(8 points, 0 failed, 0 not done; 4 curves:" in result.stdout
      and os.path.exists(prefix + ".png"),
      f"two sweeps together: {result.returncode}\n{result.stdout}{result.stderr}")

if failures:
    print(f"check_kbar_vs_parameter: {len(failures)} failure(s)")
    sys.exit(1)
print("check_kbar_vs_parameter: no empty panel, no zero curve; the alias writes its figure; "
      "an infinite k̄ is a failed point")
