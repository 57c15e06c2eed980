#!/usr/bin/env python3
"""Reproduces the studies of Temizer 2013 §5 and generates their validation page.

Usage:
    bash scripts/reproduce-temizer-2013.sh [--jobs N [--oversubscribe]] [--threads N]
                                           [--studies A,B,...]
                                           [--build DIR] [--output DIR] [--data DIR]
                                           [--page DIR]
                                           [--set "Sub/section/Entry=value"]... [--page-only]
                                           [--recompute [--since REV]]

Runs every study of params/temizer-2013/ (one parameter file with a Sweep subsection each)
through `mpirun -np N --bind-to none build/granular-interface` (unbound, so that a rank's
threads and two sweeps run side by side each get a core) in a fixed order, cheapest first,
and then writes the page docs/validation/temizer-2013.md with its figures
(postprocess/temizer_2013_page.py). The studies share the N ranks: a study's sweep gets as
many as it has points left, up to those free, and the ranks a study leaves idle while its
last points run start the next study beside it. When no study is left to start, a sweep
that has points waiting is stopped and started again on the free ranks as well (its points
in progress continue from their checkpoints). A study waits while a study with the same
parameters (below) runs a point of the same name, which it then takes from there. Where
and on how many ranks a point runs changes none of its results.

Resumable: a study whose sweep.csv lists every point as done is skipped, and inside a
study the sweep itself runs only the points that have no complete summary.csv
(docs/sweeps.md), so rerunning the command after an interruption only computes what is
missing. While it runs it prints each finished point and the progress over
all studies with an estimate of the remaining time: before a point of a kind has finished,
from the per-point costs measured on this 2-core machine (docs/performance.md), then scaled
by what the finished points took. Between two finished points it prints, a minute after
a study starts and then every five minutes, how far the running points are (t/T0) and the
study's own estimate of its time left, which comes from the running points' own estimates
(docs/running.md) and replaces the prior one of that study in the progress over all
studies printed with it (the work left over the ranks, and at least the longest running
study's time left): an hour-long point is visibly running, and a point that costs
more than its kind did elsewhere (the elastic ellipse on a fine mesh) is counted as such.

After each finished point its study's sweep.csv is copied to DATA/<study>.csv, the point's
record (its summary.csv and the parameters.prm it was run with, without the paths of this
machine: an absolute --output is named from its last component on) to
DATA/points/<study>/<point>/, and the k_I histories of the points that Fig. 8 shows to
DATA/histories/<study>/<point>.csv (time, k_I and its moving average, at most 4000 rows):
the page is generated from DATA alone, so DATA is what gets committed. Each point's
parameters.prm names the source revision (git commit) of the build that computed it
(granular-interface --version), and the page lists, per study, which builds computed its
points.

The committed points are where the command resumes from, also in a fresh clone: before a
study runs, every point of it that OUTPUT lacks is placed there from DATA/points/<study>/,
or, when another study sets the same entries outside Output and Sweep (its file over the
program's defaults), from that study's point of the same name (in OUTPUT or DATA).
The sweep's own resumption then compares each placed point's parameters.prm entry by entry
with what the point would be run with now and refuses to mix two parameter sets
(docs/sweeps.md), so a placed point is one the study would compute bit for bit the same.
--recompute computes every point again except those already recomputed: a point counts as
recomputed when its parameters.prm names the source revision of this build, or, with
--since REV, the commit REV or a later one (a descendant in this repository's git
history). Only such points are placed, from DATA and from twin studies, and a point in
OUTPUT from another build is computed again. Each finished point replaces its own row and
record in DATA at once, so a recompute stopped anywhere, even on another machine, leaves
DATA complete (every point there, each naming its build) and the rerun continues from DATA.

Options:
    --jobs N       MPI ranks, one point per rank and core: a whole number from 1 to the
                   cores this command may use (default 2, or 1 on a one-core machine);
                   inside a Slurm allocation up to its tasks, SLURM_NTASKS, on all its
                   nodes (docs/sweeps.md#on-a-cluster)
    --oversubscribe
                   let --jobs exceed the cores (up to the points of the selected
                   studies): mpirun then starts more ranks than cores (its --oversubscribe),
                   which share them and each run slower
    --threads N    threads per rank for the rubber block's elements (default 1): with
                   --jobs 1 --threads 2 both cores work on one point, e.g. the last one
                   left (docs/running.md#threads); the results do not depend on it
    --studies L    only these studies (comma-separated names of params/temizer-2013/*.prm)
    --build DIR    the build directory holding granular-interface (default build)
    --output DIR   where the sweeps run (default output-temizer-2013, one subdirectory per
                   study)
    --data DIR     the CSV files of the page (default docs/validation/temizer-2013/data)
    --page DIR     where the page and its figures go (default docs/validation)
    --set E=V      override an entry in every study (repeatable; e.g. the reduced cell of
                   the tests). Such a run is not the paper's: write its data elsewhere.
    --page-only    only generate the page from DATA
    --recompute    compute every point again that no build of this revision (or of
                   --since REV or later) has computed; each finished point replaces its
                   row and record in DATA
    --since REV    with --recompute: points computed by commit REV or a later one count
                   as recomputed (e.g. the last commit that changed the results)

SIGINT or SIGTERM (Ctrl-C, kill, a batch system's time limit) is passed on to mpirun: the
points in progress stop after their current time step with their state in checkpoint.bin,
the finished ones are in DATA, and the command exits with 128 + the signal number; rerun
it to continue (the stopped points continue from their checkpoints).

The wall time of a reproduction that runs in several sittings is added up: each run of the
command keeps its start, wall time and ranks in OUTPUT/wall-time.csv (updated with every
progress line, so a run that is killed loses at most the minutes since its last one). The
progress lines give the elapsed time of this run and, after an earlier run of the same
build, of all of them; the last line states the whole wall time, the number of runs and
the ranks (the page states the sum of the points' own wall times).

A study whose mpirun exits otherwise than its sweep does when it has computed every point
(0, or 1 with a failed point in sweep.csv) has failed: mpirun did not start (too few
slots), the program refused the study (its output directory in use by another sweep, or
holding a single run's results or points of other parameters) or stopped. The command then names the study, mpirun's
exit status and the end of its output, and stops: DATA holds only the points the study
finished, and the page is not written but stays as it was.

Exit status: 0 when every point of the selected studies is done and the page is written;
1 if a point failed (its error is in the study's sweep.csv and the page marks it) or a
study failed otherwise; 2 for invalid arguments, a study file the program rejects (checked
for every point before any run starts) or a study that the program refuses when it runs it
(exit status 2); 128 + N when stopped by signal N.
"""
import argparse
import collections
import csv
import io
import math
import os
import queue
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "postprocess"))
import common  # noqa: E402  (postprocess/common.py)
from temizer_2013_page import STUDIES as PAGE_STUDIES, split_list, study_points  # noqa: E402

STUDY_DIR = os.path.join(ROOT, "params", "temizer-2013")

# The order in which the studies run: the 40 x 15 studies first (the page's figures fill
# early), the square's 80 x 25 studies last (each of its points costs about an hour).
STUDIES = [
    "fig6a-elastic",
    "viscoelastic-pressure-circles",
    "viscoelastic-pressure-noncircular",
    "fig6b-payne-ellipse",
    "fig9-circles",
    "fig9-noncircular",
    "table5-velocity-circle",
    "table5-velocity-noncircular",
    "convergence-40x15-dt1e-4",
    "convergence-40x15-dt5e-5",
    "convergence-60x22-dt1e-4",
    "convergence-60x22-dt5e-5",
    "convergence-80x30-dt1e-4",
    "convergence-80x30-dt5e-5",
    "fig6a-elastic-square",
    "viscoelastic-pressure-square",
    "fig9-square",
    "table5-velocity-square",
]

assert sorted(STUDIES) == sorted(PAGE_STUDIES), "the page and the runs list other studies"

# Wall time of one point on one core of the 2-core machine (s) on the 40 x 15 mesh with
# T_avg = 2 T0 and the reference step 1e-4 T0, by shape and rubber model
# (docs/performance.md, benchmarks/results/): the estimate before a point has finished.
# A custom shape counts as the named shape it is closest to (p = 2: circle or ellipse,
# p > 2: rectangle).
POINT_SECONDS = {
    ("circular", "elastic"): 190., ("circular", "viscoelastic"): 200.,
    ("elliptical", "elastic"): 750., ("elliptical", "viscoelastic"): 200.,
    ("rectangular", "elastic"): 500., ("rectangular", "viscoelastic"): 250.,
    ("square", "elastic"): 1150., ("square", "viscoelastic"): 400.,
}

# Fig. 8: the histories k_I(t) of the four shapes, elastic at 1 MPa and viscoelastic at
# 2 MPa with tau0 = 2e-3 s, d = 0 (study, point-name fragment).
HISTORY_POINTS = [
    ("fig6a-elastic", "p1_"), ("fig6a-elastic-square", "p1_"),
    ("fig9-circles", "_tau0.002_"), ("fig9-noncircular", "_tau0.002_"),
    ("fig9-square", "_tau0.002_"),
]
HISTORY_COLUMNS = ("t", "kI", "kI_avg")
HISTORY_ROWS = 4000

# Seconds between two of the sweep's progress lines (running points' t/T0) passed on while
# no point finishes; the program writes one every minute.
HEARTBEAT_SECONDS = 300.


def fail(message, status=2):
    print(f"reproduce-temizer-2013: {message}", file=sys.stderr)
    sys.exit(status)


def whole_number(option, text):
    """The value of `option` as a whole number >= 1; exit status 2 naming it otherwise."""
    try:
        return common.argument_number(int, minimum=1)(text)
    except argparse.ArgumentTypeError as e:
        fail(f"{option} {e}")


def cores():
    """The cores this command may use: inside a Slurm allocation the tasks it holds
    (SLURM_NTASKS, on all its nodes: mpirun places the ranks there), else this machine's
    (the command's CPU affinity)."""
    tasks = os.environ.get("SLURM_NTASKS", "")
    if tasks.isdigit() and int(tasks) > 0:
        return int(tasks)
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
        os.cpu_count() or 1


def where_cores():
    """Where cores() counts: 'the Slurm allocation's tasks' or 'this machine's cores'."""
    tasks = os.environ.get("SLURM_NTASKS", "")
    return "tasks of the Slurm allocation (SLURM_NTASKS)" if tasks.isdigit() and \
        int(tasks) > 0 else "cores this command may use"


def duration(seconds):
    """'3 h 05 min', '12 min', '40 s'."""
    seconds = max(0, int(round(seconds)))
    if seconds >= 3600:
        return f"{seconds // 3600} h {(seconds % 3600) // 60:02d} min"
    if seconds >= 60:
        return f"{seconds // 60} min"
    return f"{seconds} s"


def duration_seconds(text):
    """The seconds of a duration as the program prints it ('42 s', '17 min', '3 h 05 min'),
    at the start of text; None if text does not start with one."""
    m = re.match(r"\s*(\d+) h (\d+) min|\s*(\d+) min|\s*(\d+) s", text)
    if not m:
        return None
    if m.group(1):
        return 3600. * int(m.group(1)) + 60. * int(m.group(2))
    return 60. * int(m.group(3)) if m.group(3) else float(m.group(4))


def sweep_seconds_left(line):
    """The time left that a sweep's progress line states ('..., about 4 h 22 min left;
    running: ...'), None if it states none (its points have no estimate yet)."""
    at = line.rfind("about ")
    return duration_seconds(line[at + len("about "):]) if at >= 0 else None


def shape_class(shape):
    """The named shape whose cost a shape's points are estimated with."""
    if ":" not in shape:
        return shape
    r1, r2, p1, p2 = (float(x) for x in shape.split(":"))
    if max(p1, p2) > 2.:
        return "rectangular"
    return "circular" if abs(r1 - r2) <= 1e-12 * max(r1, r2) else "elliptical"


def estimated_seconds(point):
    """The prior estimate of one point's wall time on one core (s)."""
    base = POINT_SECONDS[(shape_class(point["shape"]), point["model"])]
    nx, ny = point["mesh"]
    return (base * (nx * ny) / 600. * (2. + point["averaging_time"]) / 4. *
            1e-4 / point["time_step"])


def read_rows(csv_path):
    if not os.path.isfile(csv_path):
        return []
    try:
        return common.read_table(csv_path)
    except common.InputError:
        return []


def finished(rows):
    return [r for r in rows if r.get("status") in ("ok", "failed")]


WALL_TIME_COLUMNS = ["started", "seconds", "ranks", "revision"]


class WallClock:
    """The wall time of the reproduction over the runs of the command in one output
    directory: OUTPUT/wall-time.csv holds a row per run (its start in UTC, its wall time in
    s, its ranks and the source revision of its build), this run's row rewritten (whole,
    under a temporary name) at each update(). A row that cannot be read is left out with a
    warning; the runs of another build do not count. Without `output`, this run alone and
    no file."""

    def __init__(self, output, revision, jobs):
        self.path = os.path.join(output, "wall-time.csv") if output else None
        self.revision, self.jobs = revision, jobs
        self.start = time.time()
        self.started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self.start))
        self.earlier = []
        if self.path and os.path.isfile(self.path):
            with open(self.path, newline="", encoding="utf-8") as f:
                for line, row in enumerate(csv.DictReader(f), start=2):
                    try:
                        row["seconds"] = float(row["seconds"])
                        int(row["ranks"])
                        if not math.isfinite(row["seconds"]) or row["seconds"] < 0 or \
                                not row["revision"]:
                            raise ValueError
                    except (KeyError, TypeError, ValueError):
                        common.warn(f"{self.path}, line {line}: not a run's wall time "
                                    "(started, seconds, ranks, revision); left out")
                        continue
                    self.earlier.append(row)

    def elapsed(self):
        """This run's wall time (s)."""
        return time.time() - self.start

    def runs(self):
        """The earlier runs of this build (rows of wall-time.csv)."""
        return [r for r in self.earlier if r["revision"] == self.revision]

    def total(self):
        """The wall time (s) of this run and the earlier runs of this build."""
        return self.elapsed() + sum(r["seconds"] for r in self.runs())

    def text(self):
        """'elapsed 12 min' or, after earlier runs of this build, 'elapsed 12 min (25 h 10
        min over 9 runs)'."""
        text = f"elapsed {duration(self.elapsed())}"
        if self.runs():
            text += f" ({duration(self.total())} over {len(self.runs()) + 1} runs)"
        return text

    def update(self):
        """Writes wall-time.csv with this run's wall time so far."""
        if not self.path:
            return
        out = io.StringIO()
        w = csv.DictWriter(out, WALL_TIME_COLUMNS, lineterminator="\n",
                           extrasaction="ignore")
        w.writeheader()
        for r in self.earlier + [dict(started=self.started, seconds=self.elapsed(),
                                      ranks=self.jobs, revision=self.revision)]:
            w.writerow(dict(r, seconds=f"{float(r['seconds']):.0f}"))
        common.write_text(self.path, out.getvalue())


class Progress:
    """Points done over all studies, with the remaining time: the prior estimates of the
    points not done, scaled by (measured / estimated) over the points finished so far;
    each line also updates the wall clock (WallClock)."""

    def __init__(self, plan, jobs, clock=None):
        self.plan, self.jobs = plan, jobs
        self.clock = clock or WallClock(None, "", jobs)
        self.done = {}       # (study, index) -> measured wall time (s) or None (failed)

    def record(self, study, rows):
        for i, r in enumerate(rows):
            if r.get("status") in ("ok", "failed") and (study, i) not in self.done:
                try:
                    self.done[(study, i)] = float(r.get("wall_time", "nan"))
                except ValueError:
                    self.done[(study, i)] = float("nan")

    def complete(self, study):
        """Whether every point of `study` is done."""
        return all((study, i) in self.done for i in range(len(self.plan[study])))

    def left(self, study):
        """The points of `study` not done."""
        return len(self.plan[study]) - sum(1 for s, _ in self.done if s == study)

    def line(self, running=None):
        """The progress line; running: {study: (busy ranks, time left or None)} of the
        studies whose sweeps run now, the time left as the sweep states it (from its running
        points' own estimates), which then replaces the prior estimates of that study's
        points not done."""
        running = running or {}
        total = sum(len(p) for p in self.plan.values())
        measured = estimated = 0.
        for (study, i), seconds in self.done.items():
            if seconds is not None and math.isfinite(seconds) and i < len(self.plan[study]):
                measured += seconds
                estimated += estimated_seconds(self.plan[study][i])
        scale = measured / estimated if estimated > 0 else 1.
        stated = {s: v for s, v in running.items() if v[1] is not None}
        remaining = [scale * estimated_seconds(pt) for s, pts in self.plan.items()
                     for i, pt in enumerate(pts) if (s, i) not in self.done
                     and s not in stated]
        # the ranks share the points, and a study's free ranks start the next study; no
        # point is shared: the time left is the work left over the ranks, and at least the
        # longest point or running study
        work = sum(remaining) + sum(busy * left for busy, left in stated.values())
        left = max([work / self.jobs, max(remaining, default=0.)] +
                   [left for _, left in stated.values()])
        complete = sum(1 for s in self.plan if self.complete(s))
        names = [s for s in running if not self.complete(s)]
        basis = ("measured" if estimated > 0 else "prior") + " costs"
        if stated:
            basis += "; " + ", ".join(stated) + \
                (": its sweep's estimate" if len(stated) == 1 else ": their sweeps' estimates")
        self.clock.update()
        return (f"[temizer-2013] {len(self.done)}/{total} points done, {complete}/"
                f"{len(self.plan)} studies complete"
                f"{'; running ' + ', '.join(names) if names else ''}; "
                f"{self.clock.text()}; about {duration(left)}"
                f" left on {self.jobs} rank{'s' if self.jobs != 1 else ''} ({basis})")


def merged_table(sweep_csv, data_csv):
    """The text of DATA/<study>.csv during a recompute: the lines of `sweep_csv` in its
    order, where a point the sweep has not finished (pending, stopped) keeps its line of
    `data_csv` if that has one (as it is there when both files have the same columns, else
    with the sweep's columns, one the committed file lacks left empty)."""
    def lines(path):
        """(header, [(row as a dict, its line)]) of a CSV file written one row per line."""
        try:
            with open(path, encoding="utf-8", newline="") as f:
                text = f.read().splitlines()
        except OSError:
            return None, []
        if not text:
            return None, []
        header = next(csv.reader([text[0]]))
        return text[0], [(dict(zip(header, next(csv.reader([l])))), l)
                         for l in text[1:] if l.strip()]
    header, rows = lines(sweep_csv)
    data_header, data_rows = lines(data_csv)
    committed = {r.get("name"): (r, l) for r, l in data_rows}
    columns = next(csv.reader([header]))
    out = [header]
    for r, line in rows:
        if r.get("status") not in ("ok", "failed") and r.get("name") in committed:
            old, line = committed[r["name"]]
            if data_header != header:
                buffer = io.StringIO()
                csv.writer(buffer, lineterminator="").writerow(
                    [old.get(c, "") for c in columns])
                line = buffer.getvalue()
        out.append(line)
    return "\n".join(out) + "\n"


def copy_data(study, out_dir, data_dir, merge=False):
    """sweep.csv -> DATA/<study>.csv, the points' records (their parameters.prm without the
    paths of this machine: the output directory from its last component on) and the Fig. 8
    histories of the study's points. `merge` (--recompute): only the finished points
    replace theirs in DATA (merged_table()); a failed one's earlier record is removed."""
    output = os.path.dirname(os.path.normpath(os.path.abspath(out_dir)))
    sweep_csv = os.path.join(out_dir, "sweep.csv")
    data_csv = os.path.join(data_dir, f"{study}.csv")
    if merge:
        common.write_text(data_csv, merged_table(sweep_csv, data_csv))
    else:
        with open(sweep_csv, encoding="utf-8") as f:
            common.write_text(data_csv, f.read())
    for r in read_rows(sweep_csv):
        if merge and r.get("status") == "failed":
            shutil.rmtree(os.path.join(data_dir, "points", study, r["name"]),
                          ignore_errors=True)
        if r.get("status") != "ok" or not point_complete(os.path.join(out_dir, r["name"])):
            continue
        for f in POINT_RECORD:
            source = os.path.join(out_dir, r["name"], f)
            target = os.path.join(data_dir, "points", study, r["name"], f)
            with open(source, encoding="utf-8") as src:
                text = common.without_machine_paths(src.read(), output)
            if not os.path.isfile(target) or open(target, encoding="utf-8").read() != text:
                common.write_text(target, text)
    for s, fragment in HISTORY_POINTS:
        if s != study:
            continue
        for r in read_rows(sweep_csv):
            if r.get("status") != "ok" or fragment not in r["name"] + "_":
                continue
            if not os.path.isfile(os.path.join(out_dir, r["name"], "history.csv")):
                continue    # a point placed from DATA: its history is there already
            h = common.read_history(os.path.join(out_dir, r["name"]), HISTORY_COLUMNS)
            n = len(h["t"])
            stride = max(1, math.ceil(n / HISTORY_ROWS))
            rows = list(range(0, n, stride)) + ([n - 1] if (n - 1) % stride else [])
            text = ",".join(HISTORY_COLUMNS) + "\n" + "".join(
                ",".join(f"{h[c][k]:.8g}" for c in HISTORY_COLUMNS) + "\n" for k in rows)
            common.write_text(os.path.join(data_dir, "histories", study, f"{r['name']}.csv"),
                              text)


# The files that make a point complete for the sweep's resumption (docs/sweeps.md).
POINT_RECORD = ("summary.csv", "parameters.prm")


def point_complete(directory):
    """Whether `directory` holds a completed point: its parameters.prm and a summary.csv
    with a header and one row."""
    try:
        with open(os.path.join(directory, "summary.csv"), encoding="utf-8") as f:
            lines = [l for l in f.read().splitlines() if l.strip()]
    except OSError:
        return False
    return len(lines) == 2 and os.path.isfile(os.path.join(directory, "parameters.prm"))


def build_revision(binary):
    """The source revision of the build `binary` (its --version), "unknown" if it does not
    say (a build before --version)."""
    r = subprocess.run([binary, "--version"], capture_output=True, text=True)
    m = re.search(r"\(source revision ([^)\s]+)\)", r.stdout)
    return m.group(1) if r.returncode == 0 and m else "unknown"


def commit_of(revision):
    """The full hash of the commit `revision` (a hash, a tag, a branch) in this repository's
    git history; None if it names none, is a modified tree's or git cannot tell."""
    if not revision or revision.endswith("-modified") or revision == "unknown":
        return None
    try:
        r = subprocess.run(["git", "-C", ROOT, "rev-parse", "--verify", "--quiet",
                            f"{revision}^{{commit}}"], capture_output=True, text=True)
    except OSError:
        return None
    return r.stdout.strip() if r.returncode == 0 else None


class Recomputed:
    """Whether a completed point counts as recomputed under --recompute: its parameters.prm
    names the source revision of this build, or one that is the commit `since` or a later
    one (git merge-base --is-ancestor)."""

    def __init__(self, build, since):
        self.build, self.since, self.known = build, since, {}

    def __call__(self, directory):
        revision = common.recorded_revision(directory)
        if revision and revision == self.build:
            return True
        if self.since is None or commit_of(revision) is None:
            return False
        if revision not in self.known:
            r = subprocess.run(["git", "-C", ROOT, "merge-base", "--is-ancestor", self.since,
                                revision], capture_output=True)
            self.known[revision] = r.returncode == 0
        return self.known[revision]


def physics_listings(binary, studies, sets):
    """{study: {"Sub/section/Entry": value}}: every entry outside Output and Sweep with which
    each study file runs its points, i.e. the program's defaults (--print-parameters), the
    file's entries and the --set entries, in that order of precedence. Two studies with
    equal listings run a point of the same name with the same parameters; an entry that
    one file writes otherwise than the other ("4" against "4.0") only makes them differ,
    and the sweep's own comparison of each placed point's parameters.prm is the check."""
    r = subprocess.run([binary, "--print-parameters"], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"{binary} --print-parameters failed:\n{r.stderr.strip()}")
    defaults, section = {}, []
    for line in r.stdout.splitlines():
        code = line.strip()
        if code.startswith("subsection "):
            section.append(code[len("subsection "):].strip())
        elif code == "end":
            section.pop()
        elif code.startswith("set "):
            name, _, value = code[len("set "):].partition("=")
            defaults["/".join(section + [name.strip()])] = value.split("#", 1)[0].strip()
    overrides = dict(s.split("=", 1) for s in sets)
    listings = {}
    for study in studies:
        entries = dict(defaults)
        entries.update(common.read_parameters(os.path.join(STUDY_DIR, f"{study}.prm")))
        entries.update(overrides)
        listings[study] = {k: v for k, v in entries.items()
                           if k.split("/", 1)[0] not in ("Output", "Sweep")}
    return listings


def place_points(study, plan, listings, output, data, accept=None):
    """Places in OUTPUT/<study> the completed points the study would otherwise compute:
    its own committed ones (DATA/points/<study>/<point>) and those of the same name that a
    study with the same listing has completed (OUTPUT/<other>/<point> or
    DATA/points/<other>/<point>). An interrupted attempt of a point is replaced. With
    `accept` (--recompute: a Recomputed) only points it accepts are placed, and a completed
    point in OUTPUT that it does not accept is removed, to be computed again. Returns
    [(point name, where it came from)]."""
    out_dir = os.path.join(output, study)
    twins = [o for o in STUDIES if o != study and o in listings and
             listings[o] == listings[study]]
    placed = []
    for point in plan:
        target = os.path.join(out_dir, point["name"])
        if point_complete(target):
            if accept is None or accept(target):
                continue
            by = common.recorded_revision(target) or "a build that did not record its revision"
            print(f"  {study}: point {point['name']} in {out_dir} was computed by {by}: it is "
                  "computed again", flush=True)
            shutil.rmtree(target)
        sources = [os.path.join(data, "points", study, point["name"])]
        sources += [os.path.join(root, other, point["name"]) for other in twins
                    for root in (output, os.path.join(data, "points"))]
        source = next((d for d in sources if point_complete(d) and
                       (accept is None or accept(d))), None)
        if source is None:
            continue
        if os.path.isdir(target):
            shutil.rmtree(target)
        os.makedirs(target)
        for f in POINT_RECORD + ("history.csv",):
            if os.path.isfile(os.path.join(source, f)):
                shutil.copyfile(os.path.join(source, f), os.path.join(target, f))
        placed.append((point["name"], os.path.relpath(source, ROOT)
                       if os.path.abspath(source).startswith(ROOT + os.sep) else source))
    return placed


def placed_rows(study, plan, output):
    """Rows (status, wall_time) of the study's points that OUTPUT holds complete, by their
    index in the plan (for the progress before the sweep has listed them)."""
    rows = []
    for point in plan:
        directory = os.path.join(output, study, point["name"])
        row = {}
        if point_complete(directory):
            summary = read_rows(os.path.join(directory, "summary.csv"))
            row = {"status": "ok", "wall_time": summary[0].get("wall_time", "nan")
                   if summary else "nan"}
        rows.append(row)
    return rows


def check_study(binary, path, sets, out_dir):
    """The program's own check of every point of the study and of its output directory
    `out_dir`, as the sweep will use it (exit 2 and its message if one is rejected)."""
    command = [binary, "--check", "--output-directory", out_dir] + \
        [a for s in sets for a in ("--set", s)] + [path]
    r = subprocess.run(command, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"{os.path.relpath(path, ROOT)} is rejected:\n{r.stderr.strip()}")


# The signal (SIGINT, SIGTERM) that asked the command to stop, 0 while none did, and the
# mpiruns of the studies in progress, to which it is passed on.
STOP = {"signal": 0, "processes": [], "signalled": set()}


def stop_handler(signum, _frame):
    """Passes SIGINT or SIGTERM on to every mpirun, which passes it on to its ranks: the
    sweeps stop their points in progress after their current time step (docs/sweeps.md) and
    the command exits with 128 + the signal number once every mpirun has ended. mpirun runs
    in a process group of its own, so a Ctrl-C in the terminal reaches it once, through
    here."""
    STOP["signal"] = STOP["signal"] or signum
    for process in STOP["processes"]:
        signal_process(process, signum)


def signal_process(process, signum):
    """Sends `signum` to mpirun `process` once: a second signal would end its ranks at once,
    without their checkpoints (docs/checkpoints.md)."""
    if process.pid in STOP["signalled"] or process.poll() is not None:
        return
    STOP["signalled"].add(process.pid)
    try:
        process.send_signal(signum)
    except ProcessLookupError:
        pass


def stopped(where):
    """Exits with 128 + the signal if one asked the command to stop."""
    if STOP["signal"]:
        fail(f"stopped by signal {STOP['signal']} {where}; rerun the command to continue "
             "where it stopped", 128 + STOP["signal"])


class StudyRun:
    """One study's sweep under `mpirun -np ranks`, its output read on a thread of its own
    into `lines` as (study, line), and (study, None) when it has ended."""

    def __init__(self, study, ranks, binary, threads, oversubscribe, out_dir, sets, lines):
        self.study, self.ranks, self.out_dir = study, ranks, out_dir
        self.grow_to = None        # set while it is stopped to start again on more ranks
        self.left = None           # the time left that its sweep last stated (s)
        self.tail = collections.deque(maxlen=12)
        # --bind-to none: Open MPI binds each rank to one core by default (up to two
        # ranks), which would put a rank's --threads on one core, and the ranks of two
        # sweeps run side by side on the same cores; unbound, the system spreads them over
        # the free cores
        command = ["mpirun", "-np", str(ranks)] + ["--oversubscribe"] * oversubscribe + \
            ["--bind-to", "none", binary, "--output-directory", out_dir]
        if threads > 1:
            command += ["--threads", str(threads)]
        command += [a for s in sets for a in ("--set", s)]
        command.append(os.path.join(STUDY_DIR, f"{study}.prm"))
        print(f"[temizer-2013] {study}: {shlex.join(command)}", flush=True)
        env = dict(os.environ)
        if os.geteuid() == 0:      # Open MPI refuses root without these (containers, CI)
            env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True, bufsize=1,
                                        env=env, start_new_session=True)
        STOP["processes"].append(self.process)
        if STOP["signal"]:         # a signal that came before mpirun existed
            signal_process(self.process, STOP["signal"])
        self.heartbeat = time.monotonic() - HEARTBEAT_SECONDS  # the first line passes

        def read():
            for line in self.process.stdout:
                lines.put((study, line.rstrip("\n")))
            lines.put((study, None))
        threading.Thread(target=read, daemon=True).start()

    def wait(self):
        """mpirun's exit status, once its output has ended."""
        status = self.process.wait()
        STOP["processes"].remove(self.process)
        return status


def run_studies(studies, plan, listings, progress, place, binary, jobs, threads,
                oversubscribe, output, data_dir, sets, merge):
    """Runs the sweeps of `studies` (their points not done) on `jobs` ranks in all.

    The studies start in their order. A study's sweep gets as many ranks as it has points
    left, up to the ranks free; when a sweep has fewer points left than ranks (its last
    points run), its idle ranks start the next study, and when no study is left to start,
    a sweep with more points left than ranks is stopped (its points in progress write
    their checkpoints) and started again on the free ranks as well (if they are at least
    half as many as it has), its stopped points continuing from their checkpoints. A study waits while a study with the same
    parameters outside Output and Sweep runs a point of a name it has (place_points() takes
    that point from there once it is done). Every sweep's point lines are passed on with
    the progress, and the data directory follows every finished point (copy_data(), with
    `merge` under --recompute), so an interrupted study's points are there too.

    Returns {study: its sweep.csv rows} of the studies that ended; exits (fail(), stopped())
    when a study failed or a signal asked the command to stop, once every sweep has ended.
    """
    lines = queue.Queue()
    waiting, running, ended = list(studies), {}, {}
    failure = []     # (study, message, exit status) of the first study that failed

    def busy(run):
        return run.grow_to or min(run.ranks, progress.left(run.study))

    def conflict(study):
        names = {p["name"] for p in plan[study]}
        for other in running:
            if listings.get(other) == listings.get(study) and names & {
                    p["name"] for i, p in enumerate(plan[other])
                    if (other, i) not in progress.done}:
                return other
        return None

    def estimates():
        return {s: (busy(r), r.left) for s, r in running.items()}

    def start(study, ranks):
        running[study] = StudyRun(study, ranks, binary, threads, oversubscribe,
                                  os.path.join(output, study), sets, lines)

    def schedule():
        if STOP["signal"] or failure:
            return
        free = jobs - sum(busy(r) for r in running.values())
        while free > 0:
            study = next((s for s in waiting if conflict(s) is None), None)
            if study is not None:
                waiting.remove(study)
                place(study)    # also the points that the studies before it have computed
                progress.record(study, placed_rows(study, plan[study], output))
                ranks = max(1, min(free, progress.left(study)))
                beside = [s for s in running if progress.left(s) > 0]
                if beside:
                    print(f"[temizer-2013] {study}: starts on {ranks} free "
                          f"rank{'s' if ranks != 1 else ''} of {jobs}, beside "
                          f"{', '.join(beside)}", flush=True)
                start(study, ranks)
                free -= ranks
                continue
            # at least half its ranks more, so that a sweep is started again a few times,
            # not once per rank that frees up on a cluster
            grow = next((r for r in running.values() if r.grow_to is None and
                         progress.left(r.study) > r.ranks and 2 * free >= r.ranks), None)
            if grow is None:
                return
            grow.grow_to = min(progress.left(grow.study), grow.ranks + free)
            print(f"[temizer-2013] {grow.study}: {free} of the {jobs} ranks free and no "
                  f"study left to start: its sweep stops and starts again on "
                  f"{grow.grow_to} ranks (its points in progress continue from their "
                  "checkpoints)", flush=True)
            signal_process(grow.process, signal.SIGTERM)
            return

    schedule()
    while running:
        try:
            study, line = lines.get(timeout=1.)
        except queue.Empty:
            continue
        run = running[study]
        out_dir = run.out_dir
        if line is None:
            status = run.wait()
            del running[study]
            rows = read_rows(os.path.join(out_dir, "sweep.csv"))
            progress.record(study, rows)
            if run.grow_to is not None and not STOP["signal"] and not failure:
                copy_data(study, out_dir, data_dir, merge)
                start(study, run.grow_to)
                continue
            if status < 128 and not STOP["signal"] and not failure:
                unplanned = sorted({r["name"] for r in rows} -
                                   {p["name"] for p in plan[study]})
                if unplanned:
                    failure.append((study, f"{study}: the sweep ran points this command does not "
                                    f"know ({', '.join(unplanned)}); the names of "
                                    "postprocess/temizer_2013_page.py:point_name() no longer "
                                    "match the sweep's", 1))
                else:
                    problem = study_problem(study, status, list(run.tail), rows,
                                            plan[study])
                    if problem:
                        failure.append((study,) + problem)
                if failure:    # the other sweeps stop with their checkpoints
                    for other in running.values():
                        signal_process(other.process, signal.SIGTERM)
            if status >= 128 and not STOP["signal"] and not failure:
                STOP["signal"] = status - 128
            if not failure or failure[0][0] != study:
                copy_data(study, out_dir, data_dir, merge)
            if not STOP["signal"] and not failure:
                ended[study] = rows
            schedule()
            continue
        if line.strip("- ") and not line.startswith(("point ", "sweep: ")):
            run.tail.append(line)
        if line.startswith("point ") and " done " in line:
            run.heartbeat = time.monotonic()
            run.left = None
            print(f"  {study}: {line}", flush=True)
            progress.record(study, read_rows(os.path.join(out_dir, "sweep.csv")))
            copy_data(study, out_dir, data_dir, merge)
            print(progress.line(estimates()), flush=True)
            schedule()
        elif "sweep stopped by signal" in line:
            print(f"  {study}: {line}", flush=True)
            if run.grow_to is not None:
                continue       # the stop that starts it again on more ranks
            # the signal reached mpirun or the ranks, not this command: stop here too
            # (mpirun itself exits 1 once it has been signalled)
            number = line.split("sweep stopped by signal", 1)[1].split(":", 1)[0].strip()
            if not STOP["signal"] and not failure:
                STOP["signalled"].add(run.process.pid)      # it has had its signal
                stop_handler(int(number) if number.isdigit() else signal.SIGTERM, None)
        elif line.startswith("sweep: "):
            run.left = sweep_seconds_left(line)
            if time.monotonic() - run.heartbeat >= HEARTBEAT_SECONDS:
                run.heartbeat = time.monotonic()
                print(f"  {study}: {line[len('sweep: '):]}", flush=True)
                print(progress.line(estimates()), flush=True)
        elif any(word in line.lower() for word in ("error", "failed", "warning")):
            print(f"  {study}: {line}", flush=True)
    if failure:
        fail(*failure[0][1:])
    if STOP["signal"]:
        interrupted = [s for s in studies if s not in waiting and progress.left(s) > 0]
        stopped("in " + ", ".join(interrupted) if interrupted else
                f"before {waiting[0]}" if waiting else "as its last study ended")
    return ended


def study_problem(study, status, output, rows, plan):
    """None if the sweep computed every point of the plan and mpirun exited as the sweep
    then does (0, or 1 with a failed point); else the message naming the study, mpirun's
    exit status and the end of its output, and the command's exit status for it (1, or 2 if
    the program refused the study with exit status 2)."""
    done = {r["name"] for r in finished(rows)}
    missing = [p["name"] for p in plan if p["name"] not in done]
    expected = 1 if any(r["status"] == "failed" for r in rows) else 0
    if not missing and status == expected:
        return None
    text = f"study {study} failed: mpirun exited with status {status}"
    if missing:
        text += f", {len(plan) - len(missing)} of {len(plan)} points done"
    text += "; the page is left as it was"
    if output:
        text += "; the end of mpirun's output:\n  " + "\n  ".join(output)
    return text, 2 if status == 2 else 1


def main(argv):
    studies, build, sets, page_only = None, os.path.join(ROOT, "build"), [], False
    jobs, threads, since = None, 1, None
    recompute = oversubscribe = False
    output = "output-temizer-2013"
    data = os.path.join(ROOT, "docs", "validation", "temizer-2013", "data")
    page = os.path.join(ROOT, "docs", "validation")
    args = list(argv)
    while args:
        a = args.pop(0)
        if a in ("-h", "--help"):
            print(__doc__)
            return 0
        if a == "--page-only":
            page_only = True
            continue
        if a == "--recompute":
            recompute = True
            continue
        if a == "--oversubscribe":
            oversubscribe = True
            continue
        if a not in ("--jobs", "--threads", "--studies", "--build", "--output", "--data",
                     "--page", "--set", "--since"):
            fail(f"unknown argument {a!r} (see --help)")
        if not args:
            fail(f"{a} needs a value")
        value = args.pop(0)
        if a == "--jobs":
            jobs = whole_number(a, value)
        elif a == "--threads":
            threads = whole_number(a, value)
        elif a == "--studies":
            studies = split_list(value)
            unknown = [s for s in studies if s not in STUDIES]
            if unknown:
                fail(f"unknown study {', '.join(unknown)}; the studies are "
                     f"{', '.join(STUDIES)}")
        elif a == "--build":
            build = value
        elif a == "--output":
            output = value
        elif a == "--data":
            data = value
        elif a == "--page":
            page = value
        elif a == "--since":
            since = value
        elif a == "--set":
            if "=" not in value:
                fail(f"--set needs \"Sub/section/Entry=value\", not {value!r}")
            sets.append(value)
    studies = studies or STUDIES
    if since is not None:
        if not recompute:
            fail("--since is an option of --recompute")
        commit = commit_of(since)
        if commit is None:
            fail(f"--since {since}: no commit of this repository's git history")
        since = commit
    if jobs is None:
        jobs = min(2, cores())
    elif jobs > cores() and not oversubscribe:
        fail(f"--jobs {jobs} is more ranks than the {cores()} {where_cores()}: "
             f"give at most --jobs {cores()}, or add --oversubscribe to share the cores")
    python = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable
    generator = [python, os.path.join(ROOT, "postprocess", "temizer_2013_page.py"),
                 "--data", data, "--page", page]
    if page_only:
        return subprocess.run(generator).returncode

    binary = os.path.join(build, "granular-interface")
    if not os.access(binary, os.X_OK):
        fail(f"{binary} not found: build first (bash scripts/build.sh)")
    if shutil.which("mpirun") is None:
        fail("mpirun not found (bash scripts/install-dependencies.sh installs it)")
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, stop_handler)
    overrides = dict(s.split("=", 1) for s in sets)
    plan = {}
    for study in STUDIES:
        path = os.path.join(STUDY_DIR, f"{study}.prm")
        if study in studies:
            # every point, before any point runs
            check_study(binary, path, sets, os.path.join(output, study))
            plan[study] = study_points(path, overrides)
    points = sum(len(p) for p in plan.values())
    if jobs > max(points, cores()):
        fail(f"--jobs {jobs} is more ranks than the cores and than the points of the "
             f"selected studies ({points}): the ranks beyond them would have nothing to do")

    listings = physics_listings(binary, STUDIES, sets)
    accept = None
    revision = build_revision(binary)
    if recompute:
        accept = Recomputed(revision, since)
        print(f"[temizer-2013] recomputing with source revision {revision}: every point "
              f"not computed by it{f' or by {since[:12]} and later commits' if since else ''}",
              flush=True)

    def place(study):
        placed = place_points(study, plan[study], listings, output, data, accept)
        for name, source in placed:
            print(f"  {study}: point {name} taken from {source}", flush=True)

    clock = WallClock(output, revision, jobs)
    try:
        return reproduce(studies, plan, listings, place, binary, jobs, threads,
                         oversubscribe, output, data, sets, recompute, generator, revision,
                         clock)
    finally:
        clock.update()        # also when a signal or a failure ends the command


def reproduce(studies, plan, listings, place, binary, jobs, threads, oversubscribe, output,
              data, sets, recompute, generator, revision, clock):
    """Runs the selected studies (main()'s arguments, checked) and writes the page; the
    command's exit status."""
    points = sum(len(p) for p in plan.values())
    progress = Progress(plan, jobs, clock)

    def copy_study(study, out_dir, rows):
        if rows:
            copy_data(study, out_dir, data, recompute)
    for study in studies:
        place(study)
        progress.record(study, placed_rows(study, plan[study], output))
    print(progress.line(None), flush=True)

    done_earlier = {}
    for study in studies:
        out_dir = os.path.join(output, study)
        rows = read_rows(os.path.join(out_dir, "sweep.csv"))
        if rows and len(finished(rows)) == len(rows) == len(plan[study]) and \
                all(r["status"] == "ok" for r in rows) and \
                all(point_complete(os.path.join(out_dir, p["name"])) for p in plan[study]):
            print(f"[temizer-2013] {study}: all {len(rows)} points done earlier", flush=True)
            copy_study(study, out_dir, rows)
            done_earlier[study] = rows
    stopped(f"before {next((s for s in studies if s not in done_earlier), studies[-1])}")
    ran = run_studies([s for s in studies if s not in done_earlier], plan, listings,
                      progress, place, binary, jobs, threads, oversubscribe, output, data,
                      sets, recompute)
    failed = [f"{study}/{r['name']}: {r.get('error', '')}" for study in studies
              for r in {**done_earlier, **ran}[study] if r.get("status") != "ok"]
    status = subprocess.run(generator).returncode
    if failed:
        print("reproduce-temizer-2013: points that did not complete:\n  " +
              "\n  ".join(failed), file=sys.stderr)
        return 1
    ranks = sorted({int(r["ranks"]) for r in clock.runs()} | {jobs})
    print(f"[temizer-2013] all {points} points of {len(studies)} "
          f"stud{'y' if len(studies) == 1 else 'ies'} done: {duration(clock.total())} of wall "
          f"time over {len(clock.runs()) + 1} run{'s' if clock.runs() else ''} of the command "
          f"on {' or '.join(map(str, ranks))} rank{'s' if ranks != [1] else ''} "
          f"(build {revision}; {clock.path})", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
