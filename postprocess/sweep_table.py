#!/usr/bin/python3
"""Prints the results table of a sweep from its sweep.csv (docs/methods.md §8.3): one line
per point with its name, k̄, k̄_F, k̄_V, the spread of k̄ (over the last quarter of the
averaging window), the energy balance error, the wall time and the status; failed points
with their error. A point whose k̄ (or k̄_F, k̄_V) is not a finite number (inf, nan, or k̄
missing) is listed as failed, with the value, even where sweep.csv says ok.

Usage: sweep_table.py SWEEP_DIR_OR_CSV
Exit status 0, or 2 with a message naming the file if it is missing or not a sweep.csv,
the column if it lacks kbar, and the line if a row has more or fewer fields than the
header.
"""
import sys

import common


def number(row, key, digits=4):
    """row[key] with `digits` decimals; "-" if it is empty or no number."""
    value = common.to_float(row.get(key))
    return "-" if value != value else f"{value:.{digits}f}"


def format_table(rows):
    """The results table of a sweep's rows (a string, one line per point)."""
    head = f"{'point':<48} {'kbar':>8} {'kbar_F':>8} {'kbar_V':>8} {'spread':>8} " \
           f"{'energy err':>10} {'wall (s)':>9}  status"
    lines = [head, "-" * len(head)]
    for r in rows:
        status = r.get("status", "?")
        if status != "ok" and r.get("error"):
            status += f": {r['error']}"
        error = common.to_float(r.get("energy_balance_error"))
        error = "-" if error != error else f"{100 * error:.2f} %"
        lines.append(f"{r.get('name', '?'):<48} {number(r, 'kbar'):>8} "
                     f"{number(r, 'kbar_F'):>8} {number(r, 'kbar_V'):>8} "
                     f"{number(r, 'kbar_spread'):>8} {error:>10} "
                     f"{number(r, 'wall_time', 0):>9}  {status}")
    return "\n".join(lines)


def main(argv=None):
    parser = common.argument_parser(__doc__)
    parser.add_argument("sweep", help="the sweep's output directory or its sweep.csv")
    args = parser.parse_args(argv)
    rows = common.read_sweep(args.sweep, ("name", "status", "kbar"))
    print(format_table(common.with_unusable_points_failed(rows)))
    return common.EXIT_OK


if __name__ == "__main__":
    sys.exit(common.run(main))
