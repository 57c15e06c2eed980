#!/usr/bin/env python3
"""Runs the experiments on the points of the Temizer 2013 reproduction that differ from the
paper, and writes their results into the validation page.

Usage:
    bash scripts/temizer-2013-experiments.sh [--only A,B,...] [--check]
                                             [--build DIR] [--output DIR] [--data DIR]
                                             [--experiments FILE] [--page DIR]

Each experiment (a row of params/temizer-2013/experiments.csv: name, study, point, variant,
settings) is a single run of the committed parameters.prm of a study's point,
DATA/points/<study>/<point>/parameters.prm, with every entry of its settings (separated by
";") given to the program as --set (a relative `Geometry/Mesh file` names a file of the
repository, such as meshes/corner-104x20.msh). Before any run, every selected experiment
is checked as the program would run it (granular-interface --check): an unknown study or
point, a point without its parameters.prm, or a setting the program refuses stops the
command with exit status 2 naming the experiment, and nothing is run. Then the experiments that have no
result in DATA/experiments/<name>/ run one after the other, each on one core, in
OUTPUT/<name> (VTU output off, a checkpoint every 10 minutes), each printing the program's
own progress lines with its time left; an experiment stopped by
SIGINT or SIGTERM continues from its checkpoint when the command is run again. After each
finished run its summary.csv and parameters.prm are copied to DATA/experiments/<name>/, with
window.csv for a viscoelastic run: the medians over the averaging window of the boundary
layer's 99th percentiles of ||D|| and of the Payne factor H (history.csv's D_bottom_p99
and H_bottom_p99), the rates at which the Payne effect acts; and
at the end the page is written again (postprocess/temizer_2013_page.py), where the results
stand under Table 5 beside their point and the paper's value.

Options:
    --only L        only these experiments (comma-separated names)
    --check         only check the experiments, run nothing
    --build DIR     the build directory holding granular-interface (default build)
    --output DIR    where the runs go (default output-temizer-2013-experiments)
    --data DIR      the page's data (default docs/validation/temizer-2013/data)
    --experiments F default params/temizer-2013/experiments.csv
    --page DIR      where the page goes (default docs/validation)

Exit status: 0 when every selected experiment has its result and the page is written; 1 if
a run failed (the program's message is printed; the others still run); 2 for bad input
(nothing run); 128 + the signal number when stopped.
"""
import csv
import os
import shlex
import shutil
import signal
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "postprocess"))
import common  # noqa: E402
import temizer_2013_page as page  # noqa: E402

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


def resume_flags(out):
    """--restart for a run stopped with its checkpoint, --overwrite for the remains of one
    that was not (the program refuses a directory holding results otherwise)."""
    if os.path.isfile(os.path.join(out, "checkpoint.bin")):
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


def main(argv):
    parser = common.argument_parser(__doc__)
    parser.add_argument("--only", default="")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--build", default="build")
    parser.add_argument("--output", default="output-temizer-2013-experiments")
    parser.add_argument("--data", default=os.path.join("docs", "validation", "temizer-2013",
                                                       "data"))
    parser.add_argument("--experiments", default=page.EXPERIMENTS)
    parser.add_argument("--page", default=os.path.join("docs", "validation"))
    args = parser.parse_args(argv)
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
        r = subprocess.run(command(binary, prm, e["settings"], out) + resume_flags(out) +
                           ["--check"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise common.InputError(f"{where}: refused by the program:\n"
                                    f"{(r.stderr or r.stdout).strip()}")
    print(f"{len(selected)} experiment(s) checked")
    if args.check:
        return 0

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    status = 0
    for e in selected:
        result_dir = os.path.join(args.data, "experiments", e["name"])
        if os.path.isfile(os.path.join(result_dir, "summary.csv")):
            continue
        out = os.path.join(args.output, e["name"])
        run = command(binary, e["prm"], e["settings"], out) + resume_flags(out)
        print(f"running {e['name']}: {shlex.join(run)}", flush=True)
        # the program's own progress lines (t/T0, time left) go to the terminal
        child = subprocess.Popen(run, stdout=sys.stdout, stderr=subprocess.PIPE,
                                 text=True, start_new_session=True)
        while True:
            try:
                _, err = child.communicate(timeout=1)
                break
            except subprocess.TimeoutExpired:
                if stop_signal is not None:
                    child.send_signal(stop_signal)
        if stop_signal is not None:
            print(f"stopped: {e['name']} continues from its checkpoint when the command "
                  "is run again", file=sys.stderr)
            return 128 + stop_signal
        if child.returncode != 0 or not os.path.isfile(os.path.join(out, "summary.csv")):
            print(f"{e['name']} failed (exit status {child.returncode}):\n{err.strip()}",
                  file=sys.stderr)
            status = 1
            continue
        # written under a temporary name and renamed: no partial result in DATA
        partial = result_dir + ".partial"
        shutil.rmtree(partial, ignore_errors=True)
        os.makedirs(partial)
        for name in ("summary.csv", "parameters.prm"):
            shutil.copy(os.path.join(out, name), partial)
        without_machine_paths(os.path.join(partial, "parameters.prm"), args.output)
        rates = window_rates(out)
        if rates is not None:
            with open(os.path.join(partial, "window.csv"), "w", newline="") as f:
                w = csv.writer(f)
                w.writerow([c + "_median" for c in WINDOW_COLUMNS])
                w.writerow([f"{rates[c]:.6g}" for c in WINDOW_COLUMNS])
        os.replace(partial, result_dir)
        k = common.read_table(os.path.join(result_dir, "summary.csv"))[0]
        print(f"{e['name']}: kbar = {float(k['kbar']):.4f} (spread "
              f"{float(k['kbar_spread']):.4f}), {float(k['wall_time']):.0f} s", flush=True)
    page_status = page.main(["--data", args.data, "--page", args.page,
                             "--experiments", args.experiments])
    return status or page_status


if __name__ == "__main__":
    sys.exit(common.run(main))
