#!/usr/bin/python3
"""CTest Validation.Temizer2013ProgressUsesTheSweepsTimeLeft: the remaining time that
scripts/reproduce-temizer-2013.sh prints over all studies.

On the plan of two real studies (convergence-80x30-dt5e-5, then fig6a-elastic-square) with
three points of the first one finished:
- before the sweep of the running study states a time left, every point not done counts
  with its per-point cost scaled by what the finished points took (measured / estimated);
- once the sweep's progress line states one (from its running points' own estimates), that
  time, on the ranks the study keeps busy, replaces the running study's estimate: the time
  left is the work left over the ranks (the studies share them), and at least the running
  study's time left and the longest point's;
- with two studies running, each counts with its own sweep's time left, and both are named;
- a sweep line without a time left (no point has an estimate yet) leaves the estimate as
  before;
- the line names the running study only while it has points not done;
- the program's duration texts ("42 s", "17 min", "3 h 05 min") are read back exactly;
- the wall time adds up over the runs of one build in an output directory
  (wall-time.csv): an earlier run of the same build counts, one of another build and a
  damaged row (left out with a warning naming its line) do not, and this run's row is
  written beside the earlier ones, rewritten at each update.

And the command reports what did not run, never success: it goes on after a study only if
the study's sweep has finished every point and mpirun exited with 0, or with 1 and a failed
point in sweep.csv. With a stand-in for the program and for mpirun, in a temporary
directory whose page and data stand for the committed ones and must stay as they were:
- --jobs above the cores this command may use (without --oversubscribe), a number too large
  for any machine and a text that is no whole number are refused before anything runs,
  with exit status 2 and one line naming --jobs;
- --oversubscribe lets --jobs exceed the cores and passes --oversubscribe on to mpirun; a
  sweep that ends without having computed its points is a failed study;
- a program that refuses the study (exit status 2 under the real mpirun) and an mpirun that
  cannot start (not enough slots, exit status 1) make the command name the study, mpirun's
  exit status and the program's or mpirun's message, and exit with 2 and 1.

Usage: check_reproduce_progress.py SOURCE_DIR
"""
import contextlib
import importlib.util
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile

source = sys.argv[1]
spec = importlib.util.spec_from_file_location(
    "reproduce", os.path.join(source, "scripts", "reproduce_temizer_2013.py"))
reproduce = importlib.util.module_from_spec(spec)
spec.loader.exec_module(reproduce)

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def left_of(line):
    """The seconds of '... about X left on ...' in a progress line."""
    m = re.search(r"about (.*?) left on", line)
    check(m is not None, f"no time left in {line!r}")
    return reproduce.duration_seconds(m.group(1)) if m else None


for text, seconds in [("42 s", 42.), ("17 min", 1020.), ("3 h 05 min", 11100.),
                      ("0 h 59 min", 3540.), ("  4 h 22 min left; running: x", 15720.)]:
    got = reproduce.duration_seconds(text)
    check(got == seconds, f"duration_seconds({text!r}) = {got}, expected {seconds}")
check(reproduce.duration_seconds("soon") is None, "'soon' read as a duration")

# the sweep's progress line as the program writes it (lib/sweep/sweep_runner.cc)
sweep_line = ("sweep: 3 of 4 done, 1 running, 0 waiting, about 4 h 22 min left; running: "
              "p2_v2500_tau0.0001_elliptical_d0_elastic (t/T0 = 2.4734)")
check(reproduce.sweep_seconds_left(sweep_line) == 15720.,
      f"sweep_seconds_left read {reproduce.sweep_seconds_left(sweep_line)} s, not 4 h 22 min")
no_estimate = ("sweep: 0 of 4 done, 1 running, 3 waiting; running: "
               "p2_v2500_tau0.0001_circular_d0_elastic (no progress line yet)")
check(reproduce.sweep_seconds_left(no_estimate) is None,
      "a sweep line without a time left gave one")

first, second = "convergence-80x30-dt5e-5", "fig6a-elastic-square"
plan = {s: reproduce.study_points(os.path.join(source, "params", "temizer-2013", f"{s}.prm"),
                                  {}) for s in (first, second)}
check(len(plan[first]) == 4 and len(plan[second]) > 1,
      f"unexpected plan sizes {len(plan[first])}, {len(plan[second])}")
jobs = 2
progress = reproduce.Progress(plan, jobs)
# three of the first study's four points finished, each at twice its prior estimate
rows = [{"status": "ok", "wall_time": str(2. * reproduce.estimated_seconds(p))}
        for p in plan[first][:3]] + [{}]
progress.record(first, rows)
scale = 2.
rest_first = [scale * reproduce.estimated_seconds(plan[first][3])]
rest_second = [scale * reproduce.estimated_seconds(p) for p in plan[second]]


def spread(costs):
    """Wall time of points shared by the ranks (no point is shared)."""
    return max(sum(costs) / jobs, max(costs))


prior = spread(rest_first + rest_second)
got = left_of(progress.line())
check(got is not None and abs(got - prior) <= 60.,
      f"before the sweep states a time left: {got} s, expected {prior:.0f} s")
got = left_of(progress.line({first: (1, None)}))
check(got is not None and abs(got - prior) <= 60.,
      f"with a sweep line without a time left: {got} s, expected {prior:.0f} s")

stated = reproduce.sweep_seconds_left(sweep_line)
expected = max((stated + sum(rest_second)) / jobs, stated, max(rest_second))
got = left_of(progress.line({first: (1, stated)}))
check(got is not None and abs(got - expected) <= 60.,
      f"with the sweep's 4 h 22 min on one rank: {got} s, expected {expected:.0f} s (the "
      f"sweep's time and the next study's {sum(rest_second):.0f} s over {jobs} ranks)")
check(abs(expected - prior) > 600., "the check cannot tell the two estimates apart")
check(f"running {first}" in progress.line({first: (1, None)}),
      f"a study with a point not done is not named as running: "
      f"{progress.line({first: (1, None)})}")

# the next study beside it, with its sweep's own time left
second_left = 0.5 * sum(rest_second)
expected = max((stated + second_left) / jobs, stated, second_left)
line = progress.line({first: (1, stated), second: (1, second_left)})
got = left_of(line)
check(got is not None and abs(got - expected) <= 60.,
      f"two studies running: {got} s, expected {expected:.0f} s")
check(f"running {first}, {second}" in line, f"not both studies named as running: {line}")

# the first study's last point done: it is complete, no longer running
progress.record(first, rows[:3] + [{"status": "ok", "wall_time": "100"}])
line = progress.line({first: (0, None)})
check("1/2 studies complete" in line and "running" not in line,
      f"a complete study is still named as running: {line}")

# ---------------------------------------------------------------------------------------
# the command's failures
# ---------------------------------------------------------------------------------------

def study_exit(status, statuses):
    """The exit status with which a study's mpirun status and its points' statuses in
    sweep.csv end the command, None if the command goes on (a finished study)."""
    rows = [{"name": n, "status": s} for n, s in zip("ab", statuses)]
    problem = reproduce.study_problem("x", status, [], rows, [{"name": "a"}, {"name": "b"}])
    return None if problem is None else problem[1]


for status, statuses, expected in [(0, ["ok", "ok"], None), (1, ["ok", "failed"], None),
                                   (1, ["ok", "ok"], 1), (0, ["ok", "pending"], 1),
                                   (1, ["failed", "pending"], 1), (2, [], 2), (0, [], 1)]:
    got = study_exit(status, statuses)
    check(got == expected, f"mpirun status {status} with points {statuses}: the command "
          f"{'goes on' if got is None else f'exits {got}'}, expected "
          f"{'to go on' if expected is None else f'exit status {expected}'}")
work = tempfile.mkdtemp(prefix="reproduce-failures-")
STUDY = "fig6a-elastic"
SCRIPT = os.path.join(source, "scripts", "reproduce-temizer-2013.sh")
REFUSAL = "granular-interface: the output directory is in use by another sweep"


def executable(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + text)
    os.chmod(path, 0o755)


# the program: checks pass, the sweep itself refuses its directory with exit status 2
calls = os.path.join(work, "build", "calls.txt")
executable(os.path.join(work, "build", "granular-interface"), f"""echo "$*" >> {calls}
case " $* " in *" --check "*|*" --print-parameters "*) exit 0 ;; esac
echo "{REFUSAL}" >&2
exit 2
""")
# mpirun that finds too few slots, and one that records its arguments and runs nothing
executable(os.path.join(work, "slots", "mpirun"), """echo "There are not enough slots \
available in the system to satisfy the 1 slots that were requested by the application:" >&2
exit 1
""")
mpirun_args = os.path.join(work, "idle", "arguments.txt")
executable(os.path.join(work, "idle", "mpirun"), f'echo "$*" > {mpirun_args}\n')
page_md = os.path.join(work, "page", "temizer-2013.md")
marker = os.path.join(work, "data", "committed.txt")
for path in (page_md, marker):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("the committed version\n")
cores = len(os.sched_getaffinity(0))


def command(*args, mpirun_dir=None):
    """The command on STUDY with the stand-in program; (exit status, stderr); the committed
    page and data are checked to be untouched."""
    env = dict(os.environ)
    if mpirun_dir:
        env["PATH"] = os.path.join(work, mpirun_dir) + os.pathsep + env["PATH"]
    shutil.rmtree(os.path.join(work, "out"), ignore_errors=True)
    r = subprocess.run(["bash", SCRIPT, "--studies", STUDY, "--build",
                        os.path.join(work, "build"), "--output", os.path.join(work, "out"),
                        "--data", os.path.join(work, "data"), "--page",
                        os.path.join(work, "page"), *args],
                       capture_output=True, text=True, env=env, timeout=120)
    check("Traceback" not in r.stderr, f"{args}: a traceback\n{r.stderr}")
    check(os.listdir(os.path.dirname(page_md)) == ["temizer-2013.md"] and
          open(page_md).read() == open(marker).read() == "the committed version\n" and
          os.listdir(os.path.dirname(marker)) == ["committed.txt"],
          f"{args}: the committed page or data were changed")
    return r.returncode, r.stderr


help_text = subprocess.run(["bash", SCRIPT, "--help"], capture_output=True, text=True).stdout
check("--oversubscribe" in help_text, "--help does not describe --oversubscribe")
for jobs in (str(cores + 1), "99999999999999999999999", "\u00b2", "0"):
    if os.path.exists(calls):
        os.remove(calls)
    status, err = command("--jobs", jobs)
    check(status == 2 and "--jobs" in err and len(err.strip().splitlines()) == 1,
          f"--jobs {jobs} on {cores} cores: exit status {status}, expected 2 and one line "
          f"naming --jobs:\n{err}")
    check(not os.path.exists(calls),
          f"--jobs {jobs}: the program ran before --jobs was refused")

status, err = command("--jobs", str(cores + 1), "--oversubscribe", mpirun_dir="idle")
arguments = open(mpirun_args).read() if os.path.exists(mpirun_args) else ""
check(f"-np {cores + 1} " in arguments and "--oversubscribe" in arguments,
      f"--oversubscribe: mpirun was run with {arguments!r}")
check(status == 1 and f"study {STUDY} failed" in err and "0 of " in err,
      f"a sweep that computed nothing: exit status {status}, expected 1 naming the study:\n"
      f"{err}")

status, err = command("--jobs", "1", mpirun_dir="slots")
check(status == 1 and f"study {STUDY} failed" in err and "status 1" in err and
      "not enough slots" in err,
      f"mpirun without slots: exit status {status}, expected 1 with mpirun's message:\n"
      f"{err}")

if shutil.which("mpirun"):
    status, err = command("--jobs", "1")
    check(status == 2 and f"study {STUDY} failed" in err and "status 2" in err and
          REFUSAL in err,
          f"the program refusing the study under mpirun: exit status {status}, expected 2 "
          f"with the program's message:\n{err}")
else:
    check(False, "mpirun not found: the program's refusal under mpirun is not checked")
shutil.rmtree(work)

# the wall time over the runs of one build in an output directory
clock_dir = tempfile.mkdtemp()
with open(os.path.join(clock_dir, "wall-time.csv"), "w") as f:
    f.write("started,seconds,ranks,revision\n"
            "2026-12-01T10:00:00Z,3600,2,aaaa\n"
            "2026-12-01T12:00:00Z,7200,2,bbbb\n"
            "2026-12-01T14:00:00Z,lots,2,aaaa\n")
warnings = io.StringIO()
with contextlib.redirect_stderr(warnings):
    clock = reproduce.WallClock(clock_dir, "aaaa", 2)
text = clock.text()
clock.update()
check(text == "elapsed 0 s (1 h 00 min over 2 runs)" and
      "wall-time.csv, line 4: not a run's wall time" in warnings.getvalue(),
      f"the wall time over the runs of one build: {text!r} {warnings.getvalue()!r}")
with open(os.path.join(clock_dir, "wall-time.csv")) as f:
    written = f.read().splitlines()
check(len(written) == 4 and written[1:3] == ["2026-12-01T10:00:00Z,3600,2,aaaa",
                                             "2026-12-01T12:00:00Z,7200,2,bbbb"] and
      re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ,0,2,aaaa", written[3]) is not None,
      f"wall-time.csv after an update: {written}")
shutil.rmtree(clock_dir)

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("the progress over all studies counts the running study with its sweep's time left; "
      "a study that did not run is reported, never taken for success")
