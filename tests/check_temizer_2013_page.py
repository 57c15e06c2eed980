#!/usr/bin/python3
"""CTest Validation.Temizer2013PageFromConstructedData: postprocess/temizer_2013_page.py on a
constructed set of the studies' CSV files, whose k̄ are known functions of the points.

Every study of params/temizer-2013/ gets a sweep.csv with one row per point, except that one
point of fig6a-elastic is left out (missing) and one of fig9-noncircular has failed, and the
Fig. 8 points get histories. The page must have every figure (six PNG files) and every
section, mark the missing and the failed point in their studies' tables (with the failure's
error) instead of dropping them, say under which figures points are missing, give Table 5's
cells and the convergence study's largest change from the constructed values, and use that
change as the error bar it states; Fig. 8's moving average is eq. (12) from the window's start.

A study without its CSV file has not been computed: its points are missing, as is a point
whose row claims success without a finite k̄, which is listed as failed. Damaged inputs stop
the generator with exit status 2, a message naming the directory, the file and its line or
column, and the page and its figures left as they were: a --data directory that does not
exist, a study's CSV file whose last row is cut short, and one without the column kbar_F.

Usage: check_temizer_2013_page.py SOURCE_DIR WORK_DIR
"""
import csv
import math
import os
import shutil
import subprocess
import sys

source, work = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(source, "postprocess"))
import temizer_2013_page as page  # noqa: E402

shutil.rmtree(work, ignore_errors=True)
data = os.path.join(work, "data")
os.makedirs(os.path.join(data, "histories"))

COLUMNS = ["point", "name", "point_pressure", "point_relaxation_time", "point_slip_velocity",
           "point_shape", "point_payne_d", "point_rubber_model", "status", "error", "kbar",
           "kbar_F", "kbar_V", "kbar_spread", "energy_balance_error", "wall_time",
           "block_length", "slip_velocity", "mean_normal_force", "dissipation_numerical"]
SHAPE_OFFSET = {"circular": 0.0, "elliptical": 0.01, "rectangular": 0.02, "square": 0.03,
                "0.75:0.75:2:2": 0.04, "0.5:0.5:3:3": 0.05}


def kbar(study, p):
    """The constructed k̄ of a point: distinct in every swept value and in the study."""
    k = 0.1 + 0.02 * p["pressure"] + SHAPE_OFFSET[p["shape"]]
    if p["model"] == "viscoelastic":
        k += 0.1 + 0.01 * math.log10(p["relaxation_time"]) + 0.3 * p["payne_d"] * 1e4
        k += 0.001 * math.log10(p["slip_velocity"])
    if study.startswith("convergence-"):
        k += {"40x15-dt1e-4": 0., "40x15-dt5e-5": 0.001, "60x22-dt1e-4": 0.002,
              "60x22-dt5e-5": 0.0025, "80x30-dt1e-4": 0.003,
              "80x30-dt5e-5": 0.0035}[study[len("convergence-"):]]
        if p["model"] == "viscoelastic" and p["shape"] == "elliptical" and \
                study == "convergence-80x30-dt5e-5":
            k += 0.004                      # the largest change: 0.0075
    return k


missing_name = failed_name = None
for study in page.STUDIES:
    plan = page.study_points(os.path.join(source, "params", "temizer-2013", f"{study}.prm"))
    rows = []
    for i, p in enumerate(plan):
        name = (f"p{p['pressure']:g}_v{p['slip_velocity']:g}_tau{p['relaxation_time']:g}_"
                f"{p['shape'].replace(':', 'x')}_d{p['payne_d']:g}_{p['model']}")
        row = {"point": i, "name": name, "point_pressure": p["pressure"],
               "point_relaxation_time": p["relaxation_time"],
               "point_slip_velocity": p["slip_velocity"], "point_shape": p["shape"],
               "point_payne_d": p["payne_d"], "point_rubber_model": p["model"],
               "status": "ok", "error": "", "kbar": kbar(study, p), "kbar_F": 0.05,
               "kbar_V": 0.02 if p["model"] == "viscoelastic" else 0., "kbar_spread": 0.001,
               "energy_balance_error": 0.002, "wall_time": 100., "block_length": 10.,
               "slip_velocity": p["slip_velocity"], "mean_normal_force": 20.,
               "dissipation_numerical": 0.01}
        if study == "fig6a-elastic" and p["shape"] == "rectangular" and p["pressure"] == 3.:
            missing_name = name
            continue                        # not computed
        if study == "fig9-noncircular" and p["shape"] == "elliptical" and \
                math.isclose(p["relaxation_time"], 1e-3):
            failed_name = name
            row.update(status="failed", error="Newton failed at t/T0 = 1.5",
                       kbar="", kbar_F="", kbar_V="")
        rows.append(row)
        fig8 = (study in ("fig6a-elastic", "fig6a-elastic-square") and p["pressure"] == 1.) or \
            (study.startswith("fig9-") and math.isclose(p["relaxation_time"], 2e-3))
        if fig8:
            os.makedirs(os.path.join(data, "histories", study), exist_ok=True)
            with open(os.path.join(data, "histories", study, f"{name}.csv"), "w") as f:
                f.write("t,kI,kI_avg\n")
                for k in range(100):
                    t = 0.016 * k / 100.
                    f.write(f"{t},{0.3 + 0.1 * math.sin(k)},{0.3 if t > 0.008 else 0}\n")
    with open(os.path.join(data, f"{study}.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, COLUMNS)
        w.writeheader()
        w.writerows(rows)

out = os.path.join(work, "page")
r = subprocess.run(["/usr/bin/python3", os.path.join(source, "postprocess", "temizer_2013_page.py"),
                    "--data", data, "--page", out], capture_output=True, text=True)
print(r.stdout, r.stderr)
assert r.returncode == 0, r.returncode

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


for fig in ("fig6a", "fig6b", "fig7", "fig8", "fig9", "fig10"):
    path = os.path.join(out, "temizer-2013", f"{fig}.png")
    check(os.path.isfile(path) and os.path.getsize(path) > 10000, f"{fig}.png not drawn")
text = open(os.path.join(out, "temizer-2013.md"), encoding="utf-8").read()
for title in ("Fig. 6a", "Fig. 6b", "Fig. 7", "Fig. 8", "Fig. 9", "Table 5", "Fig. 10",
              "Convergence of k̄", "Every number"):
    check(f"## {title}" in text, f"no section {title}")
for study in page.STUDIES:
    check(f"### {study}\n" in text, f"no table of {study}")
total = sum(len(page.study_points(os.path.join(source, "params", "temizer-2013", f"{s}.prm")))
            for s in page.STUDIES)
check(f"**Computed: {total - 2} of {total} points** (1 failed, 1 not yet computed)" in text,
      "the count of computed points")
check("listed as missing in its table" in text.split("## Fig. 6a")[0],
      "the header says where missing points are shown")
# the missing and the failed point are rows of their tables, not dropped
check("| rectangle, elastic, p = 3 MPa | **missing** |" in text, "the missing point's row")
check("| ellipse, viscoelastic, p = 2 MPa, τ0 = 0.001 s, d = 0 s | **failed**: Newton failed "
      "at t/T0 = 1.5 |" in text, "the failed point's row with its error")
figure_notes = text.split("## Fig. 6a")[1].split("## Fig. 6b")[0]
check("Not computed yet or failed: 1 point(s)" in figure_notes, "Fig. 6a names its missing point")
fig9_notes = text.split("## Fig. 9")[1].split("## Table 5")[0]
check("Not computed yet or failed: 1 point(s)" in fig9_notes, "Fig. 9 names its failed point")
# Table 5: (a) through tau0 at ratio 0.1 = tau0 1e-5 for the circle; the failed point shows
t5 = text.split("## Table 5")[1].split("## Fig. 10")[0]
circle_a = kbar("fig9-circles", {"pressure": 2., "shape": "circular", "model": "viscoelastic",
                                 "relaxation_time": 1e-5, "payne_d": 0., "slip_velocity": 2500.})
check(f"| circle | (a) τ0, d = 0 | {circle_a:.4f} |" in t5, "Table 5 (a) of the circle")
ellipse_b = [kbar("table5-velocity-noncircular",
                  {"pressure": 2., "shape": "elliptical", "model": "viscoelastic",
                   "relaxation_time": 1e-4, "payne_d": 1e-5, "slip_velocity": v})
             for v in (250., 2500., 25000.)]
check("| ellipse | (b) v̄_F, d = 1e-05 s | " + " | ".join(f"{k:.4f}" for k in ellipse_b) + " |"
      in t5, "Table 5 (b) of the ellipse at d = 1e-5 s")
check("| ellipse | (a) τ0, d = 0 | " in t5 and "| failed |" in t5,
      "Table 5 marks the failed point")
# the convergence study: the largest change and the error bars it gives
conv = text.split("## Convergence of k̄")[1].split("## Every number")[0]
check("| ellipse | viscoelastic |" in conv and "| 0.0075 | 0.0010 |" in conv,
      "the convergence table's largest change of the viscoelastic ellipse")
check("(elastic 0.0035, viscoelastic 0.0075)" in text, "the error bars stated")
# Fig. 8's moving average, eq. (12): a row before the window is ignored, and with k_I linear
# from 0.2 at the window's start t = 2 the mean at t is (0.2 + k_I(t)) / 2, whatever the
# history's kI_avg column holds
ma = page.moving_average([1., 2., 2.5, 3., 4.], [9., 0.2, 0.3, 0.4, 0.6], 2.)
check([x for x, _ in ma] == [2.5, 3., 4.] and
      all(math.isclose(m, e) for (_, m), e in zip(ma, [0.25, 0.3, 0.4])),
      f"Fig. 8's moving average from the window's start: {ma}")
# a shape computed in one panel of Fig. 10 only (the square's pressure points, none of its
# tau0 points) is still in the legend, and every shape has one colour in both panels
import matplotlib.colors  # noqa: E402
studies = page.load(data)
studies["fig9-square"] = []
drawn = {}
save_figure = page.common.save_figure
page.common.save_figure = lambda fig, path, **kw: drawn.update({os.path.basename(path): fig})
try:
    page.figures(studies, {}, os.path.join(work, "figures"))
finally:
    page.common.save_figure = save_figure
axes = drawn["fig10"].axes
legend_labels = [t.get_text() for t in axes[-1].get_legend().get_texts()]
check(legend_labels == ["circle", "ellipse", "rectangle", "square", "circle 1.5 r0"],
      f"Fig. 10's legend with the square drawn in one panel only: {legend_labels}")
colours = {}
for ax in axes:
    for line in ax.get_lines():
        if not line.get_label().startswith("_"):
            colours.setdefault(line.get_label(), set()).add(
                matplotlib.colors.to_hex(line.get_color()))
check(colours and all(len(c) == 1 for c in colours.values()),
      f"a shape drawn in two colours in Fig. 10: {colours}")

# a study not computed (no CSV file) has every point missing; a row that claims success
# without a finite k̄ is a failed point
partial = os.path.join(work, "data-partial")
shutil.copytree(data, partial)
os.remove(os.path.join(partial, "fig6b-payne-ellipse.csv"))
with open(os.path.join(partial, "fig6a-elastic.csv"), newline="") as f:
    rows = list(csv.DictReader(f))
rows[0]["kbar"] = "nan"
with open(os.path.join(partial, "fig6a-elastic.csv"), "w", newline="") as f:
    w = csv.DictWriter(f, COLUMNS)
    w.writeheader()
    w.writerows(rows)
studies = page.load(partial)
check(studies["fig6b-payne-ellipse"] and
      all(p.status == "missing" for p in studies["fig6b-payne-ellipse"]),
      "a study without its CSV file: its points are not all missing")
first = next(p for p in studies["fig6a-elastic"]
             if p.row and p.row["name"] == rows[0]["name"])
check(first.status == "failed" and "kbar = nan" in first.row.get("error", ""),
      f"a row with kbar = nan is {first.status}, not failed with its reason")

# damaged inputs: exit status 2 naming what is damaged; the page and its figures untouched
committed = os.path.join(work, "committed")
os.makedirs(os.path.join(committed, "temizer-2013"))
for name in ("temizer-2013.md", os.path.join("temizer-2013", "fig6a.png")):
    with open(os.path.join(committed, name), "w") as f:
        f.write("the committed version\n")


def damaged(name, change):
    """A copy of the data whose fig9-circles.csv is changed by change(text)."""
    copy = os.path.join(work, name)
    shutil.copytree(data, copy)
    path = os.path.join(copy, "fig9-circles.csv")
    with open(path) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write(change(text))
    return copy, path


cut, cut_csv = damaged("data-cut", lambda text: text[:-40])
lines = open(cut_csv).read().count("\n") + 1
header = open(os.path.join(data, "fig9-circles.csv")).readline().rstrip("\n").split(",")
no_kbar_F, no_kbar_F_csv = damaged("data-no-kbar_F", lambda text: "\n".join(
    ",".join(f for f, c in zip(line.split(","), header) if c != "kbar_F")
    for line in text.split("\n")))
for data_dir, expected in [
        (os.path.join(work, "no-such-data"),
         f"{os.path.join(work, 'no-such-data')}: no such directory"),
        (cut, f"{cut_csv}, line {lines}: "),
        (no_kbar_F, f"{no_kbar_F_csv} has no column kbar_F")]:
    r = subprocess.run(["/usr/bin/python3",
                        os.path.join(source, "postprocess", "temizer_2013_page.py"),
                        "--data", data_dir, "--page", committed], capture_output=True,
                       text=True)
    check(r.returncode == 2 and expected in r.stderr and "Traceback" not in r.stderr,
          f"--data {os.path.basename(data_dir)}: exit status {r.returncode}, expected 2 "
          f"with {expected!r}:\n{r.stdout}{r.stderr}")
    check(sorted(os.listdir(os.path.join(committed, "temizer-2013"))) == ["fig6a.png"] and
          all(open(os.path.join(committed, n)).read() == "the committed version\n"
              for n in ("temizer-2013.md", os.path.join("temizer-2013", "fig6a.png"))),
          f"--data {os.path.basename(data_dir)}: the committed page or a figure changed")

if failures:
    print("FAILED:\n  " + "\n  ".join(failures))
    sys.exit(1)
print(f"page with {total} planned points checked")
