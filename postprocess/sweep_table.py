"""Reading a sweep's sweep.csv (spec §8.3) for the post-processing scripts.

Shared by kbar_vs_pressure.py and kbar_vs_relaxation.py.
"""
import csv
import os
import sys


def read_sweep(path):
    """Rows of sweep.csv as dicts; `path` is the file or the sweep's output directory."""
    if os.path.isdir(path):
        path = os.path.join(path, "sweep.csv")
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def successful_points(rows, program):
    """The rows with status "ok"; every other row is listed on stderr, prefixed with
    `program`."""
    for r in rows:
        if r["status"] != "ok":
            print(f"{program}: skipping {r['name']} ({r['status']}: {r['error']})",
                  file=sys.stderr)
    return [r for r in rows if r["status"] == "ok"]
