#!/usr/bin/python3
"""CTest Validation.Temizer2013ExperimentsCheckedUpFrontAndShownOnThePage:
scripts/temizer-2013-experiments.sh and the experiments table of the validation page.

- The committed experiment list (params/temizer-2013/experiments.csv) passes the up-front
  check: every experiment's point has its committed parameters.prm and the program accepts
  its settings. Its relative mesh files name meshes of the repository, from any working
  directory; a copied result names its mesh by its path in the repository, and no committed
  result names it by a path of the machine.
- A list whose second experiment sets an invalid value, or names a point that is not
  committed, is refused with exit status 2 naming that experiment and its line, before the
  first (valid) one has run: no output directory, no result.
- One experiment run end to end on the reduced cell (a copy of the committed data; the
  variant Newmark gamma = 0.6): its summary.csv and parameters.prm land in
  DATA/experiments/<name>/ with window.csv (the window's ||D|| and H percentiles, H = 1
  without the Payne effect), its k̄ is that of the same run made directly with the program
  (bit for bit), and the page shows it under Table 5 beside the point with the change from
  the point's k̄ and the signed mean of F_T/F_N with the share of the window with F_T < 0
  of its summary.csv; an experiment not run is listed as "not run yet", not dropped. A second
  call runs nothing. An experiment whose point the data do not hold (its study's CSV file
  absent) is listed with the point marked not computed.

Usage: check_temizer_2013_experiments.py BUILD_DIR SOURCE_DIR WORK_DIR
"""
import csv
import os
import re
import shutil
import subprocess
import sys

build, source, work = (os.path.abspath(a) for a in sys.argv[1:4])
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
script = os.path.join(source, "scripts", "temizer-2013-experiments.sh")
failures = []


def check(ok, message):
    if not ok:
        failures.append(message)


def run(*args):
    return subprocess.run(["bash", script, "--build", build] + list(args),
                          capture_output=True, text=True, cwd=work)


# the committed list, checked as the program would run it
r = run("--check", "--data", os.path.join(source, "docs", "validation", "temizer-2013",
                                          "data"))
check(r.returncode == 0 and "experiment(s) checked" in r.stdout,
      f"the committed experiments do not pass the check:\n{r.stdout}{r.stderr}")

# a result names the repository's mesh by its path in the repository, and the committed
# results hold no path of the machine they were made on
sys.path.insert(0, os.path.join(source, "scripts"))
import temizer_2013_experiments as runner  # noqa: E402
made = os.path.join(work, "made-parameters.prm")
with open(made, "w") as f:
    f.write(f"# Geometry/Mesh file: {runner.ROOT}{os.sep}meshes/corner-104x20.msh (141062 "
            "bytes, CRC-32 6c3ea1f9)\n# Listing of Parameters\n")
runner.without_machine_paths(made)
check(open(made).readline() == "# Geometry/Mesh file: meshes/corner-104x20.msh (141062 bytes, "
      "CRC-32 6c3ea1f9)\n", f"the mesh's identity line keeps the machine's path: "
      f"{open(made).readline()}")
# an absolute --output directory is named from its last component on
with open(made, "w") as f:
    f.write("subsection Output\n  set Output directory = /srv/runs/exp-output/a-variant # x\n")
runner.without_machine_paths(made, "/srv/runs/exp-output")
check("set Output directory = exp-output/a-variant #" in open(made).read(),
      f"an absolute output directory keeps the machine's path: {open(made).read()}")
committed = os.path.join(source, "docs", "validation", "temizer-2013", "data", "experiments")
for name in sorted(os.listdir(committed)) if os.path.isdir(committed) else []:
    with open(os.path.join(committed, name, "parameters.prm")) as f:
        text = f.read()
    check(not text.startswith("# Geometry/Mesh file: /"),
          f"experiments/{name}/parameters.prm names its mesh by a path of the machine")
    check(re.search(r"set Output directory\s*=\s*/", text) is None,
          f"experiments/{name}/parameters.prm names its output by a path of the machine")

# the time left: the work left over the cores, at least the longest running run; unknown
# while an experiment has neither an earlier result nor a progress line to estimate it
class Running:
    def __init__(self, left, estimate=None):
        self.left, self.e = left, {"estimate": estimate}


for running, waiting, jobs, expected in [
        ([], [{"estimate": 100.}, {"estimate": 300.}], 2, "about 3 min left on 2 cores"),
        ([], [{"estimate": 100.}, {"estimate": 300.}], 1, "about 6 min left on 1 core"),
        ([Running(500.)], [{"estimate": 100.}], 2, "about 8 min left on 2 cores"),
        ([Running(None, 240.)], [], 2, "about 4 min left on 2 cores"),
        ([Running(None)], [{"estimate": 100.}], 2, "time left unknown: 1 experiment(s)"),
        ([], [{"estimate": 100.}, {"estimate": None}], 2, "time left unknown: 1 ")]:
    got = runner.time_left(running, waiting, jobs)
    check(got.startswith(expected), f"time_left: {got!r}, expected {expected!r}")
check(runner.seconds_left("    averaging  t/T0 = 5.9908  kI = 0.2293  Newton its = 4  "
                          "left ~ 1 h 05 min") == 3900.,
      "the time left of the program's progress line is not read")

study, point = "fig9-noncircular", "p2_v2500_tau0.001_elliptical_d0_viscoelastic"
data = os.path.join(work, "data")
shutil.copytree(os.path.join(source, "docs", "validation", "temizer-2013", "data"), data,
                ignore=shutil.ignore_patterns("experiments"))
revision = runner.build_revision(os.path.join(build, "granular-interface"))
OTHER = "0123456789abcdef0123456789abcdef01234567"


def set_revision(run_dir, rev):
    """Makes the record in run_dir name the source revision `rev`."""
    prm = os.path.join(run_dir, "parameters.prm")
    lines = [line for line in open(prm, encoding="utf-8")
             if not line.startswith(runner.common.REVISION_COMMENT)]
    with open(prm, "w", encoding="utf-8") as f:
        f.write(f"{runner.common.REVISION_COMMENT}{rev}\n" + "".join(lines))


# the point as if this build had computed it: the page compares an experiment with its
# point only where one build computed both
point_dir = os.path.join(data, "points", study, point)
set_revision(point_dir, revision)
REDUCED = ["Geometry/Block length=3", "Geometry/Block height=1.5",
           "Geometry/Elements in x=12", "Geometry/Elements in y=6",
           "Loading/Time step=5e-4", "Loading/Averaging time=0.25"]
VARIANT = ["Solver/Newmark gamma=0.6", "Solver/Newmark beta=0.3025"]


def page_text(data_dir, page_name, listing):
    """The page that postprocess/temizer_2013_page.py writes into WORK/page_name from
    data_dir and the experiment list `listing`; the generator's message if it fails."""
    page_dir = os.path.join(work, page_name)
    r = subprocess.run(["/usr/bin/python3", os.path.join(source, "postprocess",
                                                         "temizer_2013_page.py"),
                        "--data", data_dir, "--page", page_dir, "--experiments", listing],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return f"exit status {r.returncode}: {r.stderr}"
    return open(os.path.join(page_dir, "temizer-2013.md"), encoding="utf-8").read()


def line_of(text, fragment):
    """The first line of `text` that holds `fragment` ("" if none)."""
    return next((line for line in text.split("\n") if fragment in line), "")


def experiment_list(name, rows):
    path = os.path.join(work, name)
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write("# constructed for the test\n")
        w = csv.writer(f)
        w.writerow(["name", "study", "point", "variant", "settings"])
        for row in rows:
            w.writerow(row)
    return path


good = ["reduced-gamma0.6", study, point, "Newmark γ = 0.6", ";".join(REDUCED + VARIANT)]
for label, second, expected in [
        ("a value the program refuses",
         ["bad-step", study, point, "Δt < 0", ";".join(REDUCED + ["Loading/Time step=-1"])],
         "line 4, experiment bad-step: refused by the program"),
        ("a point not committed",
         ["no-point", study, "p9_v2500_tau0.001_elliptical_d0_viscoelastic", "–", ""],
         "line 4, experiment no-point: ")]:
    path = experiment_list(f"bad-{second[0]}.csv", [good, second])
    r = run("--experiments", path, "--data", data, "--output", "out-bad")
    check(r.returncode == 2 and expected in r.stderr and "Traceback" not in r.stderr,
          f"{label}: exit status {r.returncode}, expected 2 with {expected!r}:\n"
          f"{r.stdout}{r.stderr}")
    check(not os.path.exists(os.path.join(work, "out-bad")) and
          not os.path.exists(os.path.join(data, "experiments")),
          f"{label}: something ran before the list was refused")

# end to end: one run, one listed but not selected
listed = experiment_list("experiments.csv", [
    good, ["reduced-dt2", study, point, "Δt/2", ";".join(REDUCED + ["Loading/Time step=2.5e-4"])]])
page_dir = os.path.join(work, "page")
r = run("--experiments", listed, "--data", data, "--output", "out", "--page", page_dir,
        "--only", "reduced-gamma0.6")
check(r.returncode == 0, f"the run exited with {r.returncode}:\n{r.stdout}{r.stderr}")
result = os.path.join(data, "experiments", "reduced-gamma0.6")
check(all(os.path.isfile(os.path.join(result, n)) for n in ("summary.csv", "parameters.prm")),
      f"no summary.csv and parameters.prm in {result}")
direct = os.path.join(work, "direct")
args = [os.path.join(build, "granular-interface"),
        os.path.join(data, "points", study, point, "parameters.prm"),
        "--output-directory", direct]
for s in REDUCED + VARIANT + ["Output/VTU output interval=0"]:
    args += ["--set", s]
subprocess.run(args, capture_output=True, check=True)


def kbar(path):
    with open(os.path.join(path, "summary.csv")) as f:
        return next(csv.DictReader(f))["kbar"]


if os.path.isfile(os.path.join(result, "summary.csv")):
    check(kbar(result) == kbar(direct),
          f"the experiment's kbar {kbar(result)} is not the direct run's {kbar(direct)}")
    with open(os.path.join(data, "points", study, point, "summary.csv")) as f:
        ours = float(next(csv.DictReader(f))["kbar"])
    md = open(os.path.join(page_dir, "temizer-2013.md"), encoding="utf-8").read()
    k = float(kbar(result))
    row = next((line for line in md.split("\n") if "| Newmark γ = 0.6 |" in line), "")
    check(f"| {k:.4f} (" in row and f"| {k - ours:+.4f} |" in row and "| 0.296 |" in row,
          f"the page's experiment row does not show k̄ {k:.4f}, the change {k - ours:+.4f} "
          f"and the paper's 0.296:\n{row}")
    with open(os.path.join(result, "window.csv")) as f:
        rates = next(csv.DictReader(f))
    d99 = float(rates["D_bottom_p99_median"])
    check(d99 > 0. and float(rates["H_bottom_p99_median"]) == 1. and
          f"| {d99:.3g} 1/s, 1.0000 |" in row,
          f"window.csv or the page's rates are wrong (d = 0: H = 1): {rates}\n{row}")
    # the signed mean of F_T/F_N and the reversed share, as the program wrote them
    with open(os.path.join(result, "summary.csv")) as f:
        summary = next(csv.DictReader(f))
    sign = (f"| {float(summary['kbar_signed']):.4f} "
            f"({100. * float(summary['reversed_fraction']):.0f} %) |")
    check(sign in row, f"the page's experiment row does not show {sign}:\n{row}")
    check(any("| Δt/2 | not run yet |" in line for line in md.split("\n")),
          "the experiment not run is not listed as not run yet")
    check("1 of 2 run." in md, "the page does not count the experiments run")
    # the result names this build, and the page says so
    check(runner.common.recorded_revision(result) == revision,
          f"the result names the revision {runner.common.recorded_revision(result)!r}, not "
          f"this build's {revision}")
    check(row.endswith(f"| {revision[:7]} |") and "other build" not in row,
          f"the page's row does not name the build {revision[:7]} alone:\n{row}")

    # a point of another build: the change is marked, and it is no discretisation error
    set_revision(point_dir, OTHER)
    dt_variant = experiment_list("experiments-dt.csv", [
        ["reduced-dt", study, point, "Δt/2", "Loading/Time step=5e-5"]])
    os.makedirs(os.path.join(data, "experiments", "reduced-dt"))
    for name in ("summary.csv", "parameters.prm"):
        shutil.copy(os.path.join(result, name), os.path.join(data, "experiments",
                                                             "reduced-dt"))
    md = page_text(data, "page-other", dt_variant)
    row = line_of(md, "| Δt/2 | ")
    check(f"| {k - ours:+.4f} (other build) |" in row and
          row.endswith(f"| {revision[:7]} (point: {OTHER[:7]}) |") and
          "1 of 1 run, 1 of them by another build than their point's." in md,
          f"a change between two builds is not marked as such:\n{row}")
    table5 = line_of(md, "| ellipse | 10 | τ0 varied |")
    check(table5 and "(Δt/2)" not in table5,
          f"a change between two builds is taken as the discretisation error:\n{table5}")
    set_revision(point_dir, revision)
    table5 = line_of(page_text(data, "page-other", dt_variant), "| ellipse | 10 | τ0 varied |")
    check("(Δt/2)" in table5, "one build's change under a shorter step is not taken as the "
          f"discretisation error:\n{table5}")
    shutil.rmtree(os.path.join(data, "experiments", "reduced-dt"))
r = run("--experiments", listed, "--data", data, "--output", "out", "--page", page_dir,
        "--only", "reduced-gamma0.6")
check(r.returncode == 0 and "running" not in r.stdout,
      f"the second call ran again:\n{r.stdout}{r.stderr}")
r = run("--experiments", listed, "--data", data, "--output", "out", "--page", page_dir,
        "--only", "reduced-gamma0.6", "--recompute")
check(r.returncode == 0 and "running" not in r.stdout,
      f"--recompute ran a result of this build again:\n{r.stdout}{r.stderr}")
r = run("--experiments", listed, "--data", data, "--since", "HEAD")
check(r.returncode == 2 and "--since is an option of --recompute" in r.stderr,
      f"--since without --recompute: exit status {r.returncode}:\n{r.stderr}")

# --recompute --jobs 2: the result of another build runs again beside the experiment not run
# yet; each replaces its result whole, names this build and equals the direct run
if os.path.isfile(os.path.join(result, "summary.csv")):
    set_revision(result, OTHER)
    before = kbar(result)
    r = run("--experiments", listed, "--data", data, "--output", "out", "--page", page_dir,
            "--recompute", "--jobs", "2")
    check(r.returncode == 0 and "2 experiment(s) to run, 2 at a time, by source revision "
          f"{revision}" in r.stdout and "running reduced-gamma0.6" in r.stdout and
          "running reduced-dt2" in r.stdout and "2 of 2 done" in r.stdout,
          f"--recompute --jobs 2 did not run both:\n{r.stdout}{r.stderr}")
    check(re.search(r"^  reduced-gamma0\.6: ", r.stdout, re.M) is not None and
          re.search(r"^  reduced-dt2: ", r.stdout, re.M) is not None,
          f"the runs' progress lines are not printed with their names:\n{r.stdout}")
    check(re.search(r"^2 experiment\(s\) to run, .*; time left unknown", r.stdout, re.M)
          is not None, f"reduced-dt2 has no earlier result, yet a time left is stated:\n"
          f"{r.stdout}")
    for name in ("reduced-gamma0.6", "reduced-dt2"):
        d = os.path.join(data, "experiments", name)
        check(runner.common.recorded_revision(d) == revision,
              f"{name}: the recomputed result names {runner.common.recorded_revision(d)!r}")
    check(kbar(result) == kbar(direct) == before,
          f"the recomputed kbar {kbar(result)} is not the direct run's {kbar(direct)}")
    check(not any(n.endswith((".partial", ".earlier"))
                  for n in os.listdir(os.path.join(data, "experiments"))),
          "a temporary result directory is left behind")

# an experiment whose point the data do not hold is listed as not computed, not dropped
partial = os.path.join(work, "data-partial")
shutil.copytree(data, partial)
os.remove(os.path.join(partial, f"{study}.csv"))
shutil.rmtree(os.path.join(partial, "experiments", "reduced-dt2"), ignore_errors=True)
md = page_text(partial, "page-partial", listed)
check(f"| {study}/{point} (not computed) |" in md and "| Δt/2 | not run yet |" in md,
      f"an experiment on a point not computed is not listed as such:\n{md[:2000]}")

if failures:
    print("FAILED:\n  " + "\n  ".join(failures))
    sys.exit(1)
print("experiments checked up front, run, copied and shown on the page")
