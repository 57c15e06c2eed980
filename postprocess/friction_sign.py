#!/usr/bin/python3
"""Whether a run's tangential force kept its sign over the averaging window, and what k̄
would be with the sign kept.

k̄ is the time average of k_I = |F_T / F_N| over the window (Temizer 2013, eqs. (11)-(12);
docs/methods.md §2.2). While F_T resists the dragging throughout, that equals the time
average of the signed ratio F_T / F_N, and the platen's work over the window is k̄ times
the normal work, which is what the dissipation split k̄ = k̄_F + k̄_V accounts for. Where
the rubber springs forward after a roll-over, F_T reverses (it pushes the platen along)
and |F_T / F_N| counts those times as friction as well: k̄ then exceeds the signed average,
and k̄ − k̄_F is no longer energy.

For each run this prints, over its averaging window (t >= 2 T0, T0 = L0 / v_F, from
history.csv with the trapezoidal rule, as the program averages): k̄ (the time average of
|F_T / F_N|, as in summary.csv), the time average of the signed F_T / F_N, the share of the
window's time in which F_T < 0, and k̄_F and k̄_V of summary.csv.

With --from A and --to B (in units of T0, default 2 and the run's end) the averages are
over [A T0, B T0] instead, a part of the window, for instance to see whether its halves
agree; k̄_F and k̄_V, which summary.csv gives for the whole window, are then not shown.

Usage: friction_sign.py [--from A] [--to B] RUN_DIR [RUN_DIR ...]
Exit status 0, or 2 if a run's history.csv is missing, damaged or has no row in the
interval, or if the interval is empty (B <= A) or starts before 0.
"""
import math
import os
import sys

import common


def window_averages(run_dir, first=2., last=math.inf):
    """(k̄ from |F_T/F_N|, signed average of F_T/F_N, share of the window with F_T < 0,
    window length in s) over [first T0, last T0] of run_dir/history.csv (by default the
    averaging window, from 2 T0 to the end). The share counts the time between two rows
    with F_T < 0 and, where F_T changes sign between two rows, the part of the interval on
    the negative side (linear in between)."""
    h = common.read_history(run_dir, ["t", "F_T", "F_N"], text_columns=())
    T0 = common.dragging_time(run_dir)
    start, end = first * T0, last * T0
    tol = 1e-9 * T0
    rows = [(t, ft, fn) for t, ft, fn in zip(h["t"], h["F_T"], h["F_N"])
            if start - tol <= t <= end + tol]
    if len(rows) < 2:
        what = "no averaging window" if first == 2. and math.isinf(last) else \
            "no interval to average"
        raise common.InputError(f"{os.path.join(run_dir, 'history.csv')} has {what} (no "
                                f"two rows at {first:g} T0 <= t <= {last:g} T0, T0 = "
                                f"{T0:g} s)")

    def ratio(ft, fn):
        return ft / fn if fn != 0. else 0.

    absolute = signed = reversed_time = 0.
    for (t0, ft0, fn0), (t1, ft1, fn1) in zip(rows, rows[1:]):
        dt = t1 - t0
        r0, r1 = ratio(ft0, fn0), ratio(ft1, fn1)
        absolute += 0.5 * (abs(r0) + abs(r1)) * dt
        signed += 0.5 * (r0 + r1) * dt
        if ft0 < 0. and ft1 < 0.:
            reversed_time += dt
        elif (ft0 < 0.) != (ft1 < 0.):
            negative, other = (ft0, ft1) if ft0 < 0. else (ft1, ft0)
            reversed_time += dt * (-negative) / (other - negative)
    length = rows[-1][0] - rows[0][0]
    return absolute / length, signed / length, reversed_time / length, length


def main(argv=None):
    parser = common.argument_parser(__doc__)
    parser.add_argument("runs", nargs="+", metavar="RUN_DIR", help="run output directories")
    parser.add_argument("--from", dest="first", type=float, default=2., metavar="A",
                        help="start of the interval in units of T0 (default 2)")
    parser.add_argument("--to", dest="last", type=float, default=math.inf, metavar="B",
                        help="end of the interval in units of T0 (default: the run's end)")
    args = parser.parse_args(argv)
    if not (math.isfinite(args.first) and args.first >= 0. and args.last > args.first):
        raise common.InputError(f"--from {args.first:g} --to {args.last:g}: the interval "
                                "must start at 0 T0 or later and end after its start")
    whole_window = args.first == 2. and math.isinf(args.last)
    lines = ["| run | k̄ (mean of abs F_T/F_N) | mean of F_T/F_N | time with F_T < 0 | k̄_F "
             "| k̄_V |", "|---|---|---|---|---|---|"]
    for run in args.runs:
        absolute, signed, share, _ = window_averages(run, args.first, args.last)
        summary = common.read_summary(run) or {}

        def cell(key):
            return f"{common.summary_float(summary, key, run):.4f}" if key in summary and \
                whole_window else "–"

        lines.append(f"| {os.path.basename(os.path.normpath(run))} | {absolute:.4f} | "
                     f"{signed:.4f} | {100. * share:.1f} % | {cell('kbar_F')} | "
                     f"{cell('kbar_V')} |")
    # every run read before anything is printed
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(common.run(main))
