#!/usr/bin/python3
"""Checks postprocess/layer_tables.py on a constructed sweep.csv of a layer study: the cost
fit recovers the exponent the costs were made with, a point's line shows its signed mean of
F_T/F_N and reversed share (or "–" from a build without them), a failed point keeps its line, a
sweep given with --discrete-gradient is set beside the same points ("end of step → discrete
gradient"; "–" where there is none) and is an input error if a point's parameters.prm names
other forces, so is one given with --velocity-update ("without → with", and the update's
share), main sweeps run with the update are set beside sweeps without it given with
--without-velocity-update (the same table, each side checked), or both sides are given
whatever the main sweeps ran with, the page's marked tables are replaced and nothing else, and a page without the markers is an
input error (exit status 2) that leaves it unchanged.

Usage: check_layer_tables.py SOURCE_DIR WORK_DIR
"""
import csv
import os
import subprocess
import sys

source, work = sys.argv[1], os.path.join(sys.argv[2], "layer-tables")
SCRIPT = os.path.join(source, "postprocess", "layer_tables.py")
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print(f"FAIL: {message}")


def set_update(sweep_csv, names, setting):
    """Give the points `names` of the sweep `sweep_csv` a parameters.prm that sets
    Solver/Rubber-particle velocity update to `setting`."""
    for name in names:
        os.makedirs(os.path.join(os.path.dirname(sweep_csv), name), exist_ok=True)
        with open(os.path.join(os.path.dirname(sweep_csv), name, "parameters.prm"), "w") as f:
            f.write(f"subsection Solver\n  set Rubber-particle velocity update = {setting}\nend\n")


COLUMNS = ["point", "name", "point_pressure", "point_shape", "point_rubber_model",
           "point_mixture", "status", "error", "kbar", "kbar_F", "kbar_V", "kbar_spread",
           "energy_balance_error", "steps", "newton_iterations", "cutbacks", "assemblies",
           "wall_time", "particles", "dissipation_particle_particle",
           "dissipation_particle_particle_damping", "pair_overlap_evaluations",
           "kbar_signed", "reversed_fraction"]
rows = []
for shape, a in (("circular", 0.5), ("elliptical", 1.25)):
    for n in (1, 2, 3, 6):
        failed = shape == "elliptical" and n == 6
        rows.append(dict(point=len(rows), name=f"p2_{shape}_elastic_n{n}", point_pressure=2,
                         point_shape=shape, point_rubber_model="elastic", point_mixture="",
                         status="failed" if failed else "ok",
                         error="Newton did not converge" if failed else ""))
        if not failed:
            rows[-1].update(kbar=0.3 / n, kbar_F=0.3 / n, kbar_V=0, kbar_spread=0.001,
                            energy_balance_error=0.002, steps=10000,
                            newton_iterations=40000, cutbacks=100,
                            assemblies=50000 * n ** a, wall_time=100 * n ** (2 * a),
                            particles=n, dissipation_particle_particle=0.5 * (n - 1),
                            dissipation_particle_particle_damping=0,
                            pair_overlap_evaluations=1000 * (n - 1))
            if shape == "circular":     # a build that writes the signed mean
                rows[-1].update(kbar_signed=0.2 / n, reversed_fraction=0.25)
sweep = os.path.join(work, "sweep.csv")
os.makedirs(work, exist_ok=True)
with open(sweep, "w", newline="") as f:
    writer = csv.DictWriter(f, fieldnames=COLUMNS)
    writer.writeheader()
    writer.writerows(rows)

out = subprocess.run(["/usr/bin/python3", SCRIPT, sweep], capture_output=True, text=True)
check(out.returncode == 0, f"exit status {out.returncode}: {out.stderr}")
lines = out.stdout.splitlines()
fit = {l.split("|")[1].strip(): [c.strip() for c in l.split("|")[1:-1]]
       for l in lines if l.startswith("| ") and "1, 2, 3" in l}
check(fit.get("circular", [""] * 7)[3:6] == ["0.50", "0.00", "1.00"],
      f"the circles' fit: {fit.get('circular')}")
check(fit.get("elliptical", [""] * 7)[2:6] == ["1, 2, 3", "1.25", "0.00", "2.50"],
      f"the ellipses' fit over the finished points: {fit.get('elliptical')}")
check(any(l.startswith("| elliptical | elastic | 6 | failed") for l in lines),
      "the failed point keeps its line")
check(any(l.startswith("| circular | elastic | 3 | 0.1000 ± 0.0010") and
          "| 0.0667 (25 %) | 1.00 / 0.00 |" in l for l in lines), "a point's line")
check(any(l.startswith("| elliptical | elastic | 3 | 0.1000 ± 0.0010") and
          "| 0.0000 | – | 1.00 / 0.00 |" in l for l in lines),
      "a point of a build without the signed mean shows – there")

# a second sweep, of a mixture, beside the first one (whose points it repeats in part)
mixtures = os.path.join(work, "mixtures", "sweep.csv")
os.makedirs(os.path.dirname(mixtures), exist_ok=True)
with open(mixtures, "w", newline="") as f:
    writer = csv.DictWriter(f, fieldnames=COLUMNS)
    writer.writeheader()
    writer.writerows([rows[0]] + [dict(rows[1], name=f"p2_mix_elastic_n{n}",
                                       point_mixture="circular, elliptical", particles=n)
                                  for n in (2, 4)])
out = subprocess.run(["/usr/bin/python3", SCRIPT, sweep, mixtures], capture_output=True,
                     text=True)
lines = out.stdout.splitlines()
check(out.returncode == 0 and
      sum(l.startswith("| circular + elliptical | elastic |") for l in lines) == 3 and
      sum(l.startswith("| circular | elastic | 1 |") for l in lines) == 1,
      f"two sweeps: the mixture's two points and fit, the repeated point once:\n{out.stdout}")

# the same points with the discrete-gradient rubber-particle forces, beside the first sweep
gradient = os.path.join(work, "gradient", "sweep.csv")
os.makedirs(os.path.dirname(gradient), exist_ok=True)
EXTRA = ["dissipation_numerical", "created_window_rubber_particle"]
for r in rows:
    r.update(dissipation_numerical=0.04, created_window_rubber_particle=-0.5)
with open(sweep, "w", newline="") as f:
    writer = csv.DictWriter(f, fieldnames=COLUMNS + EXTRA)
    writer.writeheader()
    writer.writerows(rows)
gradient_rows = [dict(r, kbar=0.25, dissipation_numerical=3.125,
                      created_window_rubber_particle=-1e-9, energy_balance_error=1e-5)
                 for r in rows[:2]] + [dict(rows[1], name="p2_circular_elastic_n5",
                                            particles=5)]
with open(gradient, "w", newline="") as f:
    writer = csv.DictWriter(f, fieldnames=COLUMNS + EXTRA)
    writer.writeheader()
    writer.writerows(gradient_rows)
for r in gradient_rows:
    os.makedirs(os.path.join(os.path.dirname(gradient), r["name"]), exist_ok=True)
    with open(os.path.join(os.path.dirname(gradient), r["name"], "parameters.prm"), "w") as f:
        f.write("subsection Solver\n  set Rubber-particle contact forces = discrete gradient"
                "\nend\n")
out = subprocess.run(["/usr/bin/python3", SCRIPT, sweep, "--discrete-gradient", gradient],
                     capture_output=True, text=True)
lines = out.stdout.splitlines()
check(out.returncode == 0 and any(
    l.startswith("| circular | elastic | 2 | 0.1500 → 0.2500 | 0.1500 → 0.1500 | "
                 "0.04 → 3.12 | -0.50 → 0.00 | 0.20 % → 0.00 % | 70 711 → 70 711 |")
    for l in lines), f"a discrete-gradient point beside its end-of-step one:\n{out.stdout}"
      f"{out.stderr}")
check(any(l.startswith("| circular | elastic | 5 | – → 0.1500 |") for l in lines),
      "a discrete-gradient point without an end-of-step one shows – before the arrow")
with open(os.path.join(os.path.dirname(gradient), rows[0]["name"], "parameters.prm"),
          "w") as f:
    f.write("subsection Solver\n  set Rubber-particle contact forces = end of step\nend\n")
out = subprocess.run(["/usr/bin/python3", SCRIPT, sweep, "--discrete-gradient", gradient],
                     capture_output=True, text=True)
check(out.returncode == 2 and "end of step" in out.stderr and rows[0]["name"] in out.stderr,
      f"a point run with end-of-step forces given as a discrete-gradient one: "
      f"{out.returncode} {out.stderr}")

# the same points with the velocity update at the step starts, beside the first sweep
update = os.path.join(work, "update", "sweep.csv")
os.makedirs(os.path.dirname(update), exist_ok=True)
update_rows = [dict(r, kbar=0.125, dissipation_numerical=0.5, dissipation_velocity_update=0.25,
                    created_window_rubber_particle=-0.125, energy_balance_error=1e-3)
               for r in rows[:2]]
with open(update, "w", newline="") as f:
    writer = csv.DictWriter(f, fieldnames=COLUMNS + EXTRA + ["dissipation_velocity_update"])
    writer.writeheader()
    writer.writerows(update_rows)
set_update(update, [r["name"] for r in update_rows], "true")
out = subprocess.run(["/usr/bin/python3", SCRIPT, sweep, "--velocity-update", update],
                     capture_output=True, text=True)
check(out.returncode == 0 and any(
    l.startswith("| circular | elastic | 2 | 0.1500 → 0.1250 | 0.1500 → 0.1500 | "
                 "0.04 → 0.50 | 0.250 | -0.50 → -0.12 | 0.20 % → 0.10 % |")
    for l in out.stdout.splitlines()),
      f"a velocity-update point beside the one without:\n{out.stdout}{out.stderr}")
set_update(update, [rows[0]["name"]], "false")
out = subprocess.run(["/usr/bin/python3", SCRIPT, sweep, "--velocity-update", update],
                     capture_output=True, text=True)
check(out.returncode == 2 and "= false" in out.stderr and rows[0]["name"] in out.stderr,
      f"a point run without the update given as one with it: {out.returncode} {out.stderr}")

# the other way round: the sweep with the update is the main one, the first sweep (its
# points' parameters.prm set the update off) the one without it
set_update(update, [rows[0]["name"]], "true")
set_update(sweep, [r["name"] for r in rows], "false")
out = subprocess.run(["/usr/bin/python3", SCRIPT, update, "--without-velocity-update", sweep],
                     capture_output=True, text=True)
check(out.returncode == 0 and any(
    l.startswith("| circular | elastic | 2 | 0.1500 → 0.1250 | 0.1500 → 0.1500 | "
                 "0.04 → 0.50 | 0.250 | -0.50 → -0.12 | 0.20 % → 0.10 % |")
    for l in out.stdout.splitlines()) and "| 0.1250 ± " in out.stdout,
      f"main points with the update beside the same points without:\n{out.stdout}{out.stderr}")
out = subprocess.run(["/usr/bin/python3", SCRIPT, sweep, "--without-velocity-update", update],
                     capture_output=True, text=True)
check(out.returncode == 2 and "= false" in out.stderr,
      f"main points run without the update, with --without-velocity-update: "
      f"{out.returncode} {out.stderr}")
# both sides given: the main sweeps (here the gradient one) are on neither side
out = subprocess.run(["/usr/bin/python3", SCRIPT, gradient, "--without-velocity-update", sweep,
                      "--velocity-update", update], capture_output=True, text=True)
check(out.returncode == 0 and any(
    l.startswith("| circular | elastic | 2 | 0.1500 → 0.1250 | 0.1500 → 0.1500 | "
                 "0.04 → 0.50 | 0.250 |") for l in out.stdout.splitlines())
      and not any(l.startswith("| circular | elastic | 5 | –") for l in out.stdout.splitlines()),
      f"--velocity-update beside --without-velocity-update: {out.returncode}\n{out.stdout}"
      f"{out.stderr}")
for r in rows:
    os.remove(os.path.join(os.path.dirname(sweep), r["name"], "parameters.prm"))

page = os.path.join(work, "page.md")
with open(page, "w") as f:
    f.write("intro\n<!-- layer-table -->\nold\n<!-- /layer-table -->\nmiddle\n"
            "<!-- cost-fit -->\nold\n<!-- /cost-fit -->\nend\n")
out = subprocess.run(["/usr/bin/python3", SCRIPT, sweep, "--page", page],
                     capture_output=True, text=True)
text = open(page).read()
check(out.returncode == 0 and "old" not in text and text.startswith("intro\n")
      and "\nmiddle\n" in text and text.endswith("end\n") and "| 1.25 |" in text
      and all(text.count(m) == 1 for m in ("<!-- layer-table -->", "<!-- /layer-table -->",
                                            "<!-- cost-fit -->", "<!-- /cost-fit -->")),
      f"the page's tables replaced: {out.stderr}\n{text}")

with open(page, "w") as f:
    f.write("no markers\n")
out = subprocess.run(["/usr/bin/python3", SCRIPT, sweep, "--page", page],
                     capture_output=True, text=True)
check(out.returncode == 2 and "layer-table" in out.stderr and
      open(page).read() == "no markers\n", f"a page without markers: {out.returncode} "
      f"{out.stderr}")

if failures:
    print(f"check_layer_tables: {len(failures)} failure(s)")
    sys.exit(1)
print("check_layer_tables: fit exponents recovered, failed point kept, page tables replaced")
