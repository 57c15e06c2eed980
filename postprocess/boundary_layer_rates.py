#!/usr/bin/python3
"""What the rubber's boundary layer sees, from the history.csv of viscoelastic runs
(docs/methods.md §3.4): the rate of deformation ||D|| (1/s) and the Payne factor
H = 1 + d q over the quadrature points of the bottom row of cells (history.csv columns
D_bottom_max/p99/p50 and H_bottom_max/p99/p50), per phase of the run:

  load ramp and hold   t < T0 (the block is pressed on, then creeps under the load)
  rolling              t >= T0, |omega| of the particle at most its 75th percentile
                       over t >= T0
  roll-overs           t >= T0, |omega| above it (the fast phases: an ellipse over its
                       narrow end, a square over a corner); without a particle all of
                       t >= T0 is "sliding"

For each phase and column: the median over the rows of that phase, and (after "/") the
largest value. Interpolated rows (newton_iterations = 0, adaptive steps) are left out.
T0 = L0 / v_F is read from the run's summary.csv (block_length, slip_velocity), or from
its parameters.prm (common.dragging_time).

Usage: boundary_layer_rates.py RUN_DIR [RUN_DIR ...]
Prints one Markdown table per run. Exit status 2 if a run has no history.csv, or its
history.csv has no boundary-layer columns (an elastic run, or a run of a
version that did not record them).
"""
import math
import os
import statistics
import sys

import common
from common import InputError

COLUMNS = ["D_bottom_p50", "D_bottom_p99", "D_bottom_max",
           "H_bottom_p50", "H_bottom_p99", "H_bottom_max"]


def phases(run_dir):
    """{phase: [rows]} of the computed rows of a run's history.csv."""
    path = os.path.join(run_dir, "history.csv")
    rows = common.read_table(path)
    if not rows or any(c not in rows[0] for c in COLUMNS):
        raise InputError(f"{path} has no boundary-layer columns (D_bottom_max, ...): "
                         "an elastic run, or a run of a version that did not record them")
    T0 = common.dragging_time(run_dir)
    computed = []
    for r in rows:
        try:
            if int(r["newton_iterations"]) > 0 and all(r[c] for c in COLUMNS):
                computed.append(r)
        except (TypeError, ValueError):
            continue   # a row cut by a stopped run
    early = [r for r in computed if float(r["t"]) < T0]
    late = [r for r in computed if float(r["t"]) >= T0]
    out = {"load ramp and hold": early}
    omegas = [abs(float(r["particle_omega"])) for r in late if r.get("particle_omega")]
    if omegas and len(omegas) == len(late):
        limit = statistics.quantiles(omegas, n=4)[2] if len(omegas) > 1 else math.inf
        out["rolling"] = [r for r in late if abs(float(r["particle_omega"])) <= limit]
        out["roll-overs"] = [r for r in late if abs(float(r["particle_omega"])) > limit]
    else:
        out["sliding"] = late
    return out


def table(run_dir):
    lines = [f"{run_dir}:", "",
             "| phase | rows | ‖D‖ p50 | ‖D‖ p99 | ‖D‖ max | H p50 | H p99 | H max |",
             "|---|---|---|---|---|---|---|---|"]
    for name, rows in phases(run_dir).items():
        if not rows:
            lines.append(f"| {name} | 0 |" + " |" * len(COLUMNS))
            continue
        cells = []
        for c in COLUMNS:
            values = [float(r[c]) for r in rows]
            fmt = "{:.3g}" if c.startswith("D") else "{:.4f}"
            cells.append(fmt.format(statistics.median(values)) + " / " +
                         fmt.format(max(values)))
        lines.append(f"| {name} | {len(rows)} | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("(median over the phase's rows / largest; ‖D‖ in 1/s)")
    return "\n".join(lines)


def main(argv=None):
    parser = common.argument_parser(__doc__)
    parser.add_argument("runs", nargs="+", metavar="RUN_DIR", help="output directories of "
                        "runs")
    args = parser.parse_args(argv)
    status = common.EXIT_OK
    for run in args.runs:
        try:
            print(table(run))
            print()
        except (InputError, KeyError, ValueError) as e:
            print(f"{common.PROGRAM}: {run}: {e}", file=sys.stderr)
            status = common.EXIT_INPUT
    return status


if __name__ == "__main__":
    sys.exit(common.run(main))
