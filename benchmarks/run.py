#!/usr/bin/env python3
"""The benchmark harness of granular-interface (docs/performance.md).

Runs the benchmark cases with one build (or two, side by side) and writes one Markdown
table to benchmarks/results/<commit>[-quick].md: wall time (and its assembly, factorization
and solve parts), computed steps (an adaptive step
covers up to Solver/Maximum time step reference steps), Newton iterations in all and per
step, cut-backs, rejected steps (Solver/Step rejection), assemblies in all and per step (and
the line-search trials and the assemblies of failed and rejected attempts per step),
factorizations per step and KLU's floating-point operations per factorization, kbar,
kbar_F, the share of Newmark's numerical dissipation (per unit of the window's normal work,
like kbar_F) and the energy-balance error. Every number comes from the runs' own
summary.csv; the runs go one after the other, one core each.

    benchmarks/run.sh [--quick] [--build DIR] [--baseline-build DIR] [--cases A,B,...]
                      [--set "Sub/section/Entry=value"]... [--label TEXT] [--jobs N]
                      [--threads N]

--threads 2 gives every run two threads (granular-interface --threads): with --jobs 1 each
run has the machine to itself, which is how the speed-up of one run on two cores is
measured against a table of the same cases with one thread.

--quick runs the cases in the reduced cell of the tests (L0 = 3 mm, H0 = 1.5 mm, 12 x 6,
T_avg = 0.25 T0) in a few minutes; without it the full parameter files run (hours: the
square alone took 4 h at b07a6e3).

    benchmarks/run.sh --sweep FILE [--resume] [--ranks N] [--build DIR] [--set ...]
                      [--label TEXT]

--sweep times the sweep of a parameter file with a Sweep section (e.g.
params/pressure-sweep-reduced.prm) under `mpirun -np N` (default 2, one rank per core) and
writes its table: the sweep's wall time, and per point its status, wall time, computed
steps, Newton iterations and assemblies per step, kbar, kbar_F and energy error from the
sweep's own sweep.csv. A sweep longer than one sitting is continued with the same command
and --resume: the sweep's own resumption computes only the missing points, and the table's
wall time adds up the sittings.
"""
import argparse
import concurrent.futures
import csv
import datetime
import os
import platform
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# name -> (parameter file, extra --set entries)
CASES = {
    "bare": ("params/bare-interface.prm", []),
    "default": ("params/default.prm", []),
    "circular": ("params/circular.prm", []),
    "rectangular": ("params/rectangular.prm", []),
    "square": ("params/square.prm", []),
    "viscoelastic": ("params/viscoelastic.prm", []),
}
QUICK = ["Geometry/Block length=3", "Geometry/Block height=1.5", "Geometry/Elements in x=12",
         "Geometry/Elements in y=6", "Loading/Averaging time=0.25"]
COMMON = ["Output/VTU output interval=0", "Output/Checkpoint interval=0",
          "Output/Progress interval=60"]


def read_prm(path):
    """The entries of a parameter file as {"Sub/section/Entry": "value"}."""
    entries, section = {}, []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line.startswith("subsection "):
                section.append(line[len("subsection "):].strip())
            elif line == "end" and section:
                section.pop()
            elif line.startswith("set ") and "=" in line:
                name, value = line[4:].split("=", 1)
                entries["/".join(section + [name.strip()])] = value.strip()
    return entries


def parameter_file(prm, commit, out_root, name):
    """The parameter file @p prm as of @p commit (a build of another commit may not know the
    entries of today's files), or today's when it is the same or unknown to git."""
    head = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True).stdout.strip()
    if commit in ("unknown", head):
        return os.path.join(ROOT, prm)
    old = subprocess.run(["git", "-C", ROOT, "show", f"{commit}:{prm}"],
                         capture_output=True, text=True)
    if old.returncode != 0:
        return os.path.join(ROOT, prm)
    os.makedirs(out_root, exist_ok=True)
    path = os.path.join(out_root, name + ".prm")
    with open(path, "w") as f:
        f.write(old.stdout)
    return path


def run_case(build, name, quick, out_root, sets=(), threads=1):
    prm, extra = CASES[name]
    directory = os.path.join(out_root, name)
    shutil.rmtree(directory, ignore_errors=True)
    command = [os.path.join(build, "granular-interface"),
               parameter_file(prm, commit_of(build), out_root, name),
               "--output-directory", directory]
    for entry in (QUICK if quick else []) + extra + COMMON + list(sets):
        command += ["--set", entry]
    if threads > 1:
        command += ["--threads", str(threads)]
    os.makedirs(out_root, exist_ok=True)
    start = time.monotonic()
    with open(directory + ".log", "w") as log:
        status = subprocess.call(command, stdout=log, stderr=subprocess.STDOUT)
    elapsed = time.monotonic() - start
    if status != 0 or not os.path.exists(os.path.join(directory, "summary.csv")):
        # the log by its name in the work directory (no path of this machine in a table)
        log_name = os.path.join(os.path.basename(out_root), name) + ".log"
        return {"status": f"failed (exit {status}, see {log_name})", "elapsed": elapsed}
    with open(os.path.join(directory, "summary.csv")) as f:
        summary = next(csv.DictReader(f))
    parameters = read_prm(os.path.join(directory, "parameters.prm"))
    return {"status": "ok", "elapsed": elapsed, "summary": summary, "parameters": parameters}


def row(result):
    """The table's numbers of one run (strings)."""
    if result["status"] != "ok":
        return {"status": result["status"]}
    s, p = result["summary"], result["parameters"]
    steps = int(s["steps"])
    L0 = float(p["Geometry/Block length"])
    v_F = float(s["slip_velocity"])
    window = float(p["Loading/Averaging time"]) * L0 / v_F
    normal_work = float(s["mean_normal_force"]) * window * v_F  # = int F_N v_F dt
    share = float(s["dissipation_numerical"]) / normal_work if normal_work > 0 else float("nan")
    return {
        "status": "ok",
        "wall time (s)": f"{float(s['wall_time']):.1f}",
        "assembly / factorization / solve (s)": time_split(s),
        "steps": f"{steps}",
        "Newton its": s["newton_iterations"],
        "Newton its/step": f"{int(s['newton_iterations']) / steps:.2f}",
        "cut-backs": s["cutbacks"],
        "failed its": s["failed_newton_iterations"],
        "rejected steps": s.get("rejected_steps") or "-",
        "assemblies": s["assemblies"],
        "assemblies/step": f"{int(s['assemblies']) / steps:.2f}",
        "line-search trials/step": per_step(s, "assemblies_line_search", steps),
        "failed assemblies/step": per_step(s, "assemblies_failed", steps),
        "factorizations/step": f"{int(s['factorizations']) / steps:.2f}",
        "LU Mflop/factorization": mega(s, "factorization_flops"),
        "kbar": f"{float(s['kbar']):.4f}",
        "kbar_F": f"{float(s['kbar_F']):.4f}",
        "numerical diss. share": f"{share:.4f}",
        "energy error": f"{100 * float(s['energy_balance_error']):.2f} %",
        "max pen. surface (mm)": penetration(s, "max_penetration_rubber_surface"),
        "max pen. particle (mm)": penetration(s, "max_penetration_rubber_particle"),
    }


def time_split(summary):
    """summary.csv's wall times of the assembly, the factorizations and the solves (builds
    before the columns: "-")."""
    columns = ["time_assembly", "time_factorization", "time_solve"]
    if not all(summary.get(c) for c in columns):
        return "-"
    return " / ".join(f"{float(summary[c]):.1f}" for c in columns)


def per_step(summary, column, steps):
    """A count of summary.csv per computed step (builds before the column: "-")."""
    return f"{int(summary[column]) / steps:.2f}" if column in summary else "-"


def mega(summary, column):
    """A count of summary.csv in millions (builds before the column: "-")."""
    return f"{float(summary[column]) / 1e6:.2f}" if summary.get(column) else "-"


def penetration(summary, column):
    """A penetration column of summary.csv (builds before 44b6eb0 have none: "-")."""
    return f"{float(summary[column]):.2e}" if column in summary else "-"


COLUMNS = ["wall time (s)", "assembly / factorization / solve (s)", "steps", "Newton its", "Newton its/step", "cut-backs",
           "failed its", "rejected steps", "assemblies", "assemblies/step",
           "line-search trials/step", "failed assemblies/step", "factorizations/step",
           "LU Mflop/factorization", "kbar", "kbar_F",
           "numerical diss. share", "energy error", "max pen. surface (mm)",
           "max pen. particle (mm)"]


def file_label(label):
    """--label as a part of a file or directory name: every run of characters other than
    letters, digits, '.', '_' and '-' (a '/' or a space) becomes one '-'."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", label).strip("-")


def commit_of(build):
    """The commit of the source tree a build directory was configured from (or, for a copy
    of a binary kept for a later comparison, the first line of the file `commit` beside it)."""
    stamp = os.path.join(build, "commit")
    if os.path.exists(stamp):
        return open(stamp).readline().strip() or "unknown"
    source = ROOT
    cache = os.path.join(build, "CMakeCache.txt")
    if os.path.exists(cache):
        for line in open(cache):
            if line.startswith("granular-interface_SOURCE_DIR:STATIC="):
                source = line.split("=", 1)[1].strip()
    try:
        return subprocess.check_output(["git", "-C", source, "rev-parse", "--short", "HEAD"],
                                       text=True).strip()
    except (subprocess.CalledProcessError, FileNotFoundError):
        return "unknown"


def run_sweep(args, parser):
    """--sweep: the sweep of args.sweep under mpirun -np args.ranks, timed, and its table."""
    build = os.path.abspath(args.build)
    if not os.access(os.path.join(build, "granular-interface"), os.X_OK):
        parser.error(f"no granular-interface in {build} (build first: bash scripts/build.sh)")
    if not os.path.exists(args.sweep):
        parser.error(f"no parameter file {args.sweep}")
    if shutil.which("mpirun") is None:
        parser.error("mpirun not found (apt-get install openmpi-bin)")
    commit = commit_of(build)
    name = os.path.splitext(os.path.basename(args.sweep))[0]
    label = f"sweep-{name}" + (f"-{file_label(args.label)}" if args.label else "")
    directory = os.path.join(args.work, f"{commit}-{label}")
    # the wall times of the sittings of a sweep (one per call; --resume adds one)
    sittings_file = directory + ".sittings"
    if not args.resume:
        shutil.rmtree(directory, ignore_errors=True)
        if os.path.exists(sittings_file):
            os.remove(sittings_file)
    elif not os.path.isdir(directory):
        parser.error(f"--resume: no earlier sweep in {directory} (same build, file and label)")
    os.makedirs(args.work, exist_ok=True)
    command = ["mpirun", "-np", str(args.ranks), "--oversubscribe",
               os.path.join(build, "granular-interface"), os.path.abspath(args.sweep),
               "--output-directory", directory]
    for entry in COMMON + list(args.set):
        command += ["--set", entry]
    env = dict(os.environ)
    if hasattr(os, "geteuid") and os.geteuid() == 0:  # Open MPI refuses root otherwise
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    start = time.monotonic()
    with open(directory + ".log", "a" if args.resume else "w") as log:
        status = subprocess.call(command, stdout=log, stderr=subprocess.STDOUT, env=env)
    with open(sittings_file, "a") as f:
        f.write(f"{time.monotonic() - start:.1f}\n")
    with open(sittings_file) as f:
        sittings = [float(line) for line in f if line.strip()]
    elapsed = sum(sittings)
    table = os.path.join(directory, "sweep.csv")
    if not os.path.exists(table):
        print(f"benchmark: the sweep wrote no sweep.csv (exit {status}, see "
              f"{os.path.basename(directory)}.log)", file=sys.stderr)
        return 1
    with open(table, newline="") as f:
        points = list(csv.DictReader(f))
    ok = [p for p in points if p["status"] == "ok"]
    point_time = sum(float(p["wall_time"]) for p in ok)
    lines = [f"# Benchmarks, sweep {os.path.basename(args.sweep)}" +
             (f", {args.label}" if args.label else ""), "",
             f"{datetime.date.today()}, {platform.node()}, {os.cpu_count()} cores; build "
             f"{commit}; mpirun -np {args.ranks} (benchmarks/run.sh --sweep)." +
             "".join(f" --set \"{e}\"" for e in args.set), "",
             f"**{len(ok)} of {len(points)} points ok, wall time {elapsed:.0f} s "
             f"({elapsed / 60:.1f} min)**" +
             (f" in {len(sittings)} sittings (--resume; the points interrupted at the end of "
              "a sitting started again in the next)" if len(sittings) > 1 else "") +
             f"; the points' own wall times add up to "
             f"{point_time:.0f} s, {point_time / max(elapsed, 1e-9):.2f} times the sweep's.", "",
             "| point | status | wall time (s) | steps | Newton its/step | assemblies/step | "
             "kbar | kbar_F | energy error |", "|---|---|---|---|---|---|---|---|---|"]
    for p in points:
        if p["status"] != "ok":
            lines.append(f"| {p['name']} | {p['status']} | | | | | | | |")
            continue
        steps = int(p["steps"])
        lines.append(
            f"| {p['name']} | ok | {float(p['wall_time']):.1f} | {steps} | "
            f"{int(p['newton_iterations']) / steps:.2f} | "
            f"{int(p['assemblies']) / steps:.2f} | {float(p['kbar']):.4f} | "
            f"{float(p['kbar_F']):.4f} | {100 * float(p['energy_balance_error']):.2f} % |")
    text = "\n".join(lines) + "\n"
    output = args.output or os.path.join(ROOT, "benchmarks", "results", f"{commit}-{label}.md")
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    with open(output + ".tmp", "w") as f:
        f.write(text)
    os.replace(output + ".tmp", output)
    print(text)
    print(f"benchmark: table written to {output}")
    return 0 if status == 0 and len(ok) == len(points) else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="reduced-cell versions")
    parser.add_argument("--build", default=os.path.join(ROOT, "build"),
                        help="build directory with granular-interface (default: build/)")
    parser.add_argument("--baseline-build", help="a second build, run side by side")
    parser.add_argument("--cases", default=",".join(CASES),
                        help="comma-separated subset of " + ", ".join(CASES))
    parser.add_argument("--work", default=os.path.join(ROOT, "benchmarks", "work"),
                        help="where the runs write (default: benchmarks/work/)")
    parser.add_argument("--set", action="append", default=[], metavar="ENTRY=VALUE",
                        help="one more parameter entry for every run (repeatable), e.g. "
                        "a parameter study")
    parser.add_argument("--label", default="",
                        help="appended to the table's title, and to its file name and the "
                        "runs' directory with every character other than letters, digits, "
                        "'.', '_' and '-' replaced by '-' (e.g. eps1e4)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="runs at the same time (default 1: wall times of runs that "
                        "share the machine are not comparable)")
    parser.add_argument("--threads", type=int, default=1,
                        help="granular-interface --threads for every run (default 1); with "
                        "2 threads a run wants the machine to itself (--jobs 1)")
    parser.add_argument("-o", "--output", help="the table (default: "
                        "benchmarks/results/<commit>[-quick][-label].md)")
    parser.add_argument("--resume", action="store_true",
                        help="--sweep: continue the interrupted sweep of an earlier call with "
                        "the same build, file, --set entries and label (its completed points "
                        "are kept; the table's wall time adds up the sittings)")
    parser.add_argument("--sweep", metavar="FILE",
                        help="time the sweep of this parameter file under mpirun instead of "
                        "the cases")
    parser.add_argument("--ranks", type=int, default=2,
                        help="--sweep: MPI ranks (default 2, one per core)")
    args = parser.parse_args()
    if args.sweep:
        if args.baseline_build or args.quick or args.jobs != 1:
            parser.error("--sweep runs one build's sweep: without --baseline-build, --quick "
                         "and --jobs")
        return run_sweep(args, parser)
    cases = [c.strip() for c in args.cases.split(",") if c.strip()]
    unknown = [c for c in cases if c not in CASES]
    if unknown:
        parser.error(f"unknown case(s) {', '.join(unknown)}; known: {', '.join(CASES)}")
    builds = [("new", os.path.abspath(args.build))]
    if args.baseline_build:
        builds.append(("old", os.path.abspath(args.baseline_build)))
    for _, b in builds:
        if not os.access(os.path.join(b, "granular-interface"), os.X_OK):
            parser.error(f"no granular-interface in {b} (build first: bash scripts/build.sh)")
    commits = {label: commit_of(b) for label, b in builds}
    if len(builds) > 1 and commits["new"] == commits["old"]:
        parser.error(f"--build and --baseline-build both report commit {commits['new']}: the "
                     "runs would share one work directory; for a copy of a binary, write its "
                     "commit into a file named commit beside it")
    results = {}
    work = lambda label: os.path.join(args.work, commits[label] +
                                      (f"-{file_label(args.label)}" if args.label else ""))
    jobs = [(case, label, b) for case in cases for label, b in builds]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(run_case, b, case, args.quick, work(label), args.set,
                               args.threads):
                   (case, label) for case, label, b in jobs}
        for future in concurrent.futures.as_completed(futures):
            case, label = futures[future]
            r = future.result()
            results[(case, label)] = row(r)
            print(f"benchmark: {case} with {commits[label]}: {r['status']}, "
                  f"{r['elapsed']:.0f} s", flush=True)

    mode = "quick (reduced cell: L0 = 3 mm, 12 x 6, T_avg = 0.25 T0)" if args.quick else "full"
    lines = [f"# Benchmarks, {mode}" + (f", {args.label}" if args.label else ""), "",
             f"{datetime.date.today()}, {platform.node()}, {os.cpu_count()} cores; builds: " +
             ", ".join(f"{label} = {commits[label]}" for label, _ in builds) +
             (f". {args.jobs} runs at a time" if args.jobs > 1 else
              ". One run after the other") +
             (f", each with --threads {args.threads}" if args.threads > 1 else
              ", each on one core") + " (benchmarks/run.sh)." +
             ("".join(f" --set \"{e}\"" for e in args.set)), "",
             "numerical diss. share: Newmark's algorithmic dissipation over the window per "
             "unit of the window's normal work, the same normalisation as kbar_F.", ""]
    header = ["case"] + (["build"] if len(builds) > 1 else []) + COLUMNS
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "---|" * len(header))
    for case in cases:
        for label, _ in builds:
            r = results[(case, label)]
            cells = [case] + ([f"{label} ({commits[label]})"] if len(builds) > 1 else [])
            if r["status"] != "ok":
                cells += [r["status"]] + [""] * (len(COLUMNS) - 1)
            else:
                cells += [r[c] for c in COLUMNS]
            lines.append("| " + " | ".join(cells) + " |")
    text = "\n".join(lines) + "\n"
    output = args.output or os.path.join(
        ROOT, "benchmarks", "results",
        "-".join(commits[label] for label, _ in builds) + ("-quick" if args.quick else "") +
        (f"-{file_label(args.label)}" if args.label else "") + ".md")
    os.makedirs(os.path.dirname(output), exist_ok=True)
    with open(output + ".tmp", "w") as f:
        f.write(text)
    os.replace(output + ".tmp", output)
    print(text)
    print(f"benchmark: table written to {output}")
    return 0 if all(r["status"] == "ok" for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
