#!/usr/bin/python3
"""Reading a sweep's sweep.csv (spec §8.3): the module shared by kbar_vs_pressure.py and
kbar_vs_relaxation.py, and a script that prints a sweep's results table.

Usage: sweep_table.py SWEEP_DIR_OR_CSV
Prints one line per point: its name, k̄, k̄_F, k̄_V, the spread of k̄ (over the last quarter
of the averaging window), the energy balance error, the wall time and the status; failed
points with their error. Exit status 2 with a message naming the file if it is missing or
not a sweep.csv.
"""
import argparse
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


def format_table(rows):
    """The results table of a sweep's rows (a string, one line per point)."""
    head = f"{'point':<48} {'kbar':>8} {'kbar_F':>8} {'kbar_V':>8} {'spread':>8} " \
           f"{'energy err':>10} {'wall (s)':>9}  status"
    lines = [head, "-" * len(head)]

    def number(row, key, digits=4):
        try:
            return f"{float(row[key]):.{digits}f}"
        except (KeyError, ValueError):
            return "-"
    for r in rows:
        status = r.get("status", "?")
        if status != "ok" and r.get("error"):
            status += f": {r['error']}"
        try:
            error = f"{100 * float(r['energy_balance_error']):.2f} %"
        except (KeyError, ValueError):
            error = "-"
        lines.append(f"{r.get('name', '?'):<48} {number(r, 'kbar'):>8} {number(r, 'kbar_F'):>8} "
                     f"{number(r, 'kbar_V'):>8} {number(r, 'kbar_spread'):>8} {error:>10} "
                     f"{number(r, 'wall_time', 0):>9}  {status}")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(
        description="Prints the results table of a sweep (one line per point: k̄, k̄_F, "
                    "k̄_V, spread, energy balance error, wall time, status) from its "
                    "sweep.csv. Also the module that kbar_vs_pressure.py and "
                    "kbar_vs_relaxation.py read sweeps with.")
    parser.add_argument("sweep", help="the sweep's output directory or its sweep.csv")
    args = parser.parse_args()
    try:
        rows = read_sweep(args.sweep)
        if rows and ("name" not in rows[0] or "status" not in rows[0]):
            raise ValueError("no columns name and status: not a sweep.csv")
    except (OSError, ValueError, csv.Error) as e:
        print(f"sweep_table.py: {args.sweep}: {e}", file=sys.stderr)
        return 2
    print(format_table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
