#!/usr/bin/python3
"""CTest Validation.Temizer2013ProgressUsesTheSweepsTimeLeft: the remaining time that
scripts/reproduce-temizer-2013.sh prints over all studies.

On the plan of two real studies (convergence-80x30-dt5e-5, then fig6a-elastic-square) with
three points of the first one finished:
- before the sweep of the running study states a time left, every point not done counts
  with its per-point cost scaled by what the finished points took (measured / estimated);
- once the sweep's progress line states one (from its running points' own estimates), that
  time replaces the running study's estimate, and the studies still to come are added with
  their scaled estimates (the studies run one after the other);
- a sweep line without a time left (no point has an estimate yet) leaves the estimate as
  before;
- the line names the running study only while it has points not done;
- the program's duration texts ("42 s", "17 min", "3 h 05 min") are read back exactly.

Usage: check_reproduce_progress.py SOURCE_DIR
"""
import importlib.util
import os
import re
import sys

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
got = left_of(progress.line(first))
check(got is not None and abs(got - prior) <= 60.,
      f"before the sweep states a time left: {got} s, expected {prior:.0f} s")
got = left_of(progress.line(first, None))
check(got is not None and abs(got - prior) <= 60.,
      f"with a sweep line without a time left: {got} s, expected {prior:.0f} s")

stated = 15720.
expected = stated + spread(rest_second)
got = left_of(progress.line(first, reproduce.sweep_seconds_left(sweep_line)))
check(got is not None and abs(got - expected) <= 60.,
      f"with the sweep's 4 h 22 min: {got} s, expected {expected:.0f} s (the sweep's time "
      f"plus the next study's {spread(rest_second):.0f} s)")
check(abs(expected - prior) > 600., "the check cannot tell the two estimates apart")
check(f"running {first}" in progress.line(first),
      f"a study with a point not done is not named as running: {progress.line(first)}")

# the first study's last point done: it is complete, no longer running
progress.record(first, rows[:3] + [{"status": "ok", "wall_time": "100"}])
line = progress.line(first)
check("1/2 studies complete" in line and "running" not in line,
      f"a complete study is still named as running: {line}")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("the progress over all studies counts the running study with its sweep's time left")
