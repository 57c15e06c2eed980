#!/usr/bin/env python3
"""Runs the experiments on the points of the Temizer 2013 reproduction that differ from the
paper, and writes their results into the validation page.

Usage:
    bash scripts/temizer-2013-experiments.sh [--only A,B,...] [--check] [--jobs N]
                                             [--recompute [--since REV]]
                                             [--build DIR] [--output DIR] [--data DIR]
                                             [--experiments FILE] [--page DIR]

Each experiment (a row of params/temizer-2013/experiments.csv: name, study, point, variant,
settings) is a single run of the committed parameters.prm of a study's point,
DATA/points/<study>/<point>/parameters.prm, with every entry of its settings (separated by
";") given to the program as --set (a relative `Geometry/Mesh file` names a file of the
repository, such as meshes/corner-104x20.msh). Before any run, every selected experiment
is checked as the program would run it (granular-interface --check): an unknown study or
point, a point without its parameters.prm, or a setting the program refuses stops the
command with exit status 2 naming the experiment, and nothing is run. Then the
experiments that have no result in DATA/experiments/<name>/ run, N at a time (--jobs,
default 1), each on one core, in OUTPUT/<name> (VTU output off, a checkpoint every 10
minutes); the program's own
progress lines, with each run's time left, are printed with the experiment's name in
front, and after each finished run a line counts what is left, with the time left where
earlier results give each waiting experiment's cost. An experiment stopped by SIGINT or
SIGTERM continues from its checkpoint when the command is run again, if the same build runs
it (a run that another build began starts again). After each
finished run its summary.csv and parameters.prm are copied to DATA/experiments/<name>/, with
window.csv for a viscoelastic run: the medians over the averaging window of the boundary
layer's 99th percentiles of ||D|| and of the Payne factor H (history.csv's D_bottom_p99
and H_bottom_p99), the rates at which the Payne effect acts; and
at the end the page is written again (postprocess/temizer_2013_page.py), where the results
stand under Table 5 beside their point and the paper's value.

Each result's parameters.prm names the source revision of the build that computed it, and
the page gives an experiment's change from its point plainly only where the same build
computed both. After the points were computed again (reproduce-temizer-2013.sh
--recompute), --recompute runs again every experiment whose result another build computed;
the old result stays in DATA until the new one replaces it, so the command can stop and
continue anywhere, and the earlier result's wall time is the estimate of its cost.

Options:
    --only L        only these experiments (comma-separated names)
    --check         only check the experiments, run nothing
    --jobs N        run N experiments at a time, one core each (default 1)
    --recompute     run again the experiments whose result names another build's source
                    revision than this build's (granular-interface --version), or none
    --since REV     with --recompute: results of commit REV or a later one count as this
                    build's (as for reproduce-temizer-2013.sh --recompute --since)
    --build DIR     the build directory holding granular-interface (default build)
    --output DIR    where the runs go (default output-temizer-2013-experiments)
    --data DIR      the page's data (default docs/validation/temizer-2013/data)
    --experiments F default params/temizer-2013/experiments.csv
    --page DIR      where the page goes (default docs/validation)

Exit status: 0 when every selected experiment has its result and the page is written; 1 if
a run failed (the program's message is printed; the others still run); 2 for bad input
(nothing run); 128 + the signal number when stopped (every running experiment is stopped
with its checkpoint).
"""
import csv
import os
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "postprocess"))
import common  # noqa: E402
import temizer_2013_page as page  # noqa: E402
from reproduce_temizer_2013 import (Recomputed, build_revision, commit_of,  # noqa: E402
                                    duration, duration_seconds)

stop_signal = None


def in_repository(setting):
    """A relative Geometry/Mesh file of an experiment names a file of the repository
    (meshes/...): given to the program relative to the working directory, wherever the
    command runs from; every other setting unchanged."""
    entry, _, value = setting.partition("=")
    if entry.strip() == "Geometry/Mesh file" and value and not os.path.isabs(value):
        return f"{entry}={os.path.relpath(os.path.join(ROOT, value.strip()))}"
    return setting


def without_machine_paths(prm, output=None):
    """Rewrites the run's parameters.prm @p prm without the paths of this machine
    (common.without_machine_paths: a mesh of the repository by its path in the repository,
    an absolute --output directory @p output from its last component on)."""
    with open(prm, encoding="utf-8") as f:
        text = f.read()
    with open(prm, "w", encoding="utf-8") as f:
        f.write(common.without_machine_paths(text, output))


def command(binary, prm, settings, out):
    args = [binary, prm]
    for s in settings + ["Output/VTU output interval=0", "Output/Checkpoint interval=10"]:
        args += ["--set", in_repository(s)]
    return args + ["--output-directory", out]


def resume_flags(out, current=None):
    """--restart for a run stopped with its checkpoint, --overwrite for the remains of one
    that was not (the program refuses a directory holding results otherwise). With
    `current` (a Recomputed), a checkpoint counts only if the run's parameters.prm names a
    build that `current` accepts: a run that another build began starts again."""
    if os.path.isfile(os.path.join(out, "checkpoint.bin")) and \
            (current is None or current(out)):
        return ["--restart"]
    return ["--overwrite"] if os.path.isdir(out) else []


WINDOW_COLUMNS = ("D_bottom_p99", "H_bottom_p99")


def window_rates(run_dir):
    """{column: median over the averaging window's computed rows (t >= 2 T0, newton_iterations
    > 0)} of the boundary layer's 99th percentiles of ||D|| (1/s) and of the Payne factor H
    in run_dir/history.csv (docs/methods.md §3.4), or None for a run without them (elastic)."""
    T0 = common.dragging_time(run_dir)
    with open(os.path.join(run_dir, "history.csv"), newline="") as f:
        reader = csv.DictReader(f)
        if any(c not in (reader.fieldnames or []) for c in WINDOW_COLUMNS):
            return None
        values = {c: [] for c in WINDOW_COLUMNS}
        for r in reader:
            try:
                if float(r["t"]) >= 2. * T0 and int(r["newton_iterations"]) > 0:
                    row = [float(r[c]) for c in WINDOW_COLUMNS]
                else:
                    continue
            except (TypeError, ValueError):
                continue
            for c, v in zip(WINDOW_COLUMNS, row):
                values[c].append(v)
    if not values[WINDOW_COLUMNS[0]]:
        return None
    return {c: statistics.median(v) for c, v in values.items()}


def on_signal(signum, _frame):
    global stop_signal
    stop_signal = signum


def seconds_left(line):
    """The time left that one of the program's progress lines states ('... left ~ 3 h 05
    min'), None if it states none."""
    at = line.rfind("left ~ ")
    return duration_seconds(line[at + len("left ~ "):]) if at >= 0 else None


def earlier_wall_time(result_dir):
    """The wall time (s) of the result in `result_dir` (its summary.csv), None without one:
    the estimate of the experiment's cost when it runs again."""
    try:
        return float(common.read_table(os.path.join(result_dir, "summary.csv"))[0]
                     ["wall_time"])
    except (OSError, IndexError, KeyError, TypeError, ValueError, common.InputError):
        return None


class Run:
    """One experiment's run of the program: its stdout lines printed with the experiment's
    name in front (the last time left they state kept), its stderr kept for a failure."""

    def __init__(self, e, args):
        self.e, self.left, self.err = e, None, []
        self.child = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      text=True, start_new_session=True)
        self.readers = [threading.Thread(target=self.read_out, daemon=True),
                        threading.Thread(target=self.read_err, daemon=True)]
        for r in self.readers:
            r.start()

    def read_out(self):
        for line in self.child.stdout:
            left = seconds_left(line)
            if left is not None:
                self.left = left
            print(f"  {self.e['name']}: {line.rstrip()}", flush=True)

    def read_err(self):
        self.err += self.child.stderr.readlines()

    def done(self):
        if self.child.poll() is None:
            return False
        for r in self.readers:
            r.join()
        return True


def time_left(running, waiting, jobs):
    """'about 2 h 10 min left on 2 cores' from the running runs' own estimates and the
    waiting experiments' earlier wall times (their "estimate"): the work left over the
    cores, and at least the longest running run; or why there is none yet."""
    running_left = [r.left if r.left is not None else r.e.get("estimate") for r in running]
    unknown = running_left.count(None) + sum(e.get("estimate") is None for e in waiting)
    if unknown:
        return (f"time left unknown: {unknown} experiment(s) without an earlier result or "
                "a progress line to estimate it")
    work = sum(running_left) + sum(e["estimate"] for e in waiting)
    left = max([work / max(1, min(jobs, len(running) + len(waiting)))] + running_left)
    return f"about {duration(left)} left on {jobs} core{'s' if jobs > 1 else ''}"


def save_result(e, out, result_dir, output):
    """Copies the finished run's summary.csv and parameters.prm (without the machine's
    paths) and, for a viscoelastic run, window.csv into `result_dir`, replacing an earlier
    result there: written under a temporary name and renamed, so DATA never holds a partial
    result, and the earlier result stays until the new one is whole."""
    partial = result_dir + ".partial"
    shutil.rmtree(partial, ignore_errors=True)
    os.makedirs(partial)
    for name in ("summary.csv", "parameters.prm"):
        shutil.copy(os.path.join(out, name), partial)
    without_machine_paths(os.path.join(partial, "parameters.prm"), output)
    rates = window_rates(out)
    if rates is not None:
        with open(os.path.join(partial, "window.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow([c + "_median" for c in WINDOW_COLUMNS])
            w.writerow([f"{rates[c]:.6g}" for c in WINDOW_COLUMNS])
    earlier = result_dir + ".earlier"
    shutil.rmtree(earlier, ignore_errors=True)
    if os.path.isdir(result_dir):
        os.replace(result_dir, earlier)
    os.replace(partial, result_dir)
    shutil.rmtree(earlier, ignore_errors=True)


def main(argv):
    parser = common.argument_parser(__doc__)
    parser.add_argument("--only", default="")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--recompute", action="store_true")
    parser.add_argument("--since", default=None)
    parser.add_argument("--build", default="build")
    parser.add_argument("--output", default="output-temizer-2013-experiments")
    parser.add_argument("--data", default=os.path.join("docs", "validation", "temizer-2013",
                                                       "data"))
    parser.add_argument("--experiments", default=page.EXPERIMENTS)
    parser.add_argument("--page", default=os.path.join("docs", "validation"))
    args = parser.parse_args(argv)
    if args.jobs < 1:
        raise common.InputError(f"--jobs {args.jobs}: give a number of experiments of 1 or "
                                "more")
    since = None
    if args.since is not None:
        if not args.recompute:
            raise common.InputError("--since is an option of --recompute")
        since = commit_of(args.since)
        if since is None:
            raise common.InputError(f"--since {args.since}: no commit of this repository's "
                                    "git history")
    binary = os.path.join(args.build, "granular-interface")
    if not os.access(binary, os.X_OK):
        raise common.InputError(f"{binary}: no such program (--build: the build directory; "
                                "build it with bash scripts/build.sh)")
    experiments = page.read_experiment_list(args.experiments)
    only = [x for x in args.only.split(",") if x]
    unknown = [x for x in only if x not in {e["name"] for e in experiments}]
    if unknown:
        raise common.InputError(f"--only: no experiment {', '.join(unknown)} in "
                                f"{args.experiments}")
    selected = [e for e in experiments if not only or e["name"] in only]
    revision = build_revision(binary)
    current = Recomputed(revision, since)

    # every selected experiment checked before anything runs
    for e in selected:
        where = f"{args.experiments}, line {e['line']}, experiment {e['name']}"
        if e["study"] not in page.STUDIES:
            raise common.InputError(f"{where}: study {e['study']!r} is not one of "
                                    "params/temizer-2013/")
        prm = os.path.join(args.data, "points", e["study"], e["point"], "parameters.prm")
        if not os.path.isfile(prm):
            raise common.InputError(f"{where}: {prm} does not exist (the point is not "
                                    "computed or not committed)")
        e["prm"] = prm
        out = os.path.join(args.output, e["name"])
        r = subprocess.run(command(binary, prm, e["settings"], out) +
                           resume_flags(out, current) + ["--check"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise common.InputError(f"{where}: refused by the program:\n"
                                    f"{(r.stderr or r.stdout).strip()}")
    print(f"{len(selected)} experiment(s) checked")
    if args.check:
        return 0

    waiting = []
    for e in selected:
        e["result_dir"] = os.path.join(args.data, "experiments", e["name"])
        if os.path.isfile(os.path.join(e["result_dir"], "summary.csv")):
            if not args.recompute or current(e["result_dir"]):
                continue
            e["estimate"] = earlier_wall_time(e["result_dir"])
        waiting.append(e)
    if waiting:
        print(f"{len(waiting)} experiment(s) to run, {min(args.jobs, len(waiting))} at a "
              f"time" + (f", by source revision {revision}" if args.recompute else "") +
              f"; {time_left([], waiting, min(args.jobs, len(waiting)))}", flush=True)

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    status, running, total, finished = 0, [], len(waiting), 0
    while waiting or running:
        while waiting and len(running) < args.jobs and stop_signal is None:
            e = waiting.pop(0)
            out = os.path.join(args.output, e["name"])
            run = command(binary, e["prm"], e["settings"], out) + resume_flags(out, current)
            print(f"running {e['name']}: {shlex.join(run)}", flush=True)
            running.append(Run(e, run))
        if stop_signal is not None:
            # every running experiment writes its checkpoint after its current step
            for r in running:
                if r.child.poll() is None:
                    r.child.send_signal(stop_signal)
            for r in running:
                r.child.wait()
                r.done()
            if running:
                names = ", ".join(r.e["name"] for r in running)
                what = ("continue from their checkpoints" if len(running) > 1 else
                        "continues from its checkpoint")
                print(f"stopped: {names} {what} when the command is run again",
                      file=sys.stderr)
            else:
                print("stopped before any experiment ran", file=sys.stderr)
            return 128 + stop_signal
        time.sleep(0.2)
        for r in [r for r in running if r.done()]:
            running.remove(r)
            finished += 1
            e, out = r.e, os.path.join(args.output, r.e["name"])
            if r.child.returncode != 0 or not os.path.isfile(os.path.join(out,
                                                                          "summary.csv")):
                print(f"{e['name']} failed (exit status {r.child.returncode}):\n"
                      f"{''.join(r.err).strip()}", file=sys.stderr)
                status = 1
                continue
            save_result(e, out, e["result_dir"], args.output)
            k = common.read_table(os.path.join(e["result_dir"], "summary.csv"))[0]
            print(f"{e['name']}: kbar = {float(k['kbar']):.4f} (spread "
                  f"{float(k['kbar_spread']):.4f}), {float(k['wall_time']):.0f} s; "
                  f"{finished} of {total} done"
                  + (f", {time_left(running, waiting, args.jobs)}"
                     if running or waiting else ""), flush=True)
    page_status = page.main(["--data", args.data, "--page", args.page,
                             "--experiments", args.experiments])
    return status or page_status


if __name__ == "__main__":
    sys.exit(common.run(main))
