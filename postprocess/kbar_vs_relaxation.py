#!/usr/bin/python3
"""Plots the macroscopic friction coefficient kbar with its frictional and viscous parts
kbar_F and kbar_V (Temizer 2013 eq. 13) against the dimensionless product of relaxation
time and slip velocity, tau0 v_F / L0 (log axis), one curve per particle shape (and per
other swept value, if any), from a sweep's sweep.csv (spec §8.3, §8.4). The viscous part
is expected to peak near tau0 ~ L0 / v_F and to vanish in both limits.
Only rows with status "ok" are plotted; failed and pending points are listed on stderr.

Usage: kbar_vs_relaxation.py [-o kbar_vs_relaxation] [--length L0] SWEEP_CSV_OR_DIR
L0 is each point's cell length from sweep.csv (column block_length); --length overrides it
and is needed only for sweeps written before that column existed (then 10 mm is assumed,
with a warning).
Writes OUTPUT.png and OUTPUT.pdf. Needs Debian's python3-matplotlib.
Exit status 1 if there is nothing to plot.
"""
import argparse
import sys
from collections import defaultdict

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sweep_table import read_sweep, successful_points  # noqa: E402




def main(argv=None):
    parser = argparse.ArgumentParser(
        description="kbar, kbar_F and kbar_V against tau0 v_F / L0 (log axis) from a "
                    "sweep's sweep.csv, one curve per shape; writes OUTPUT.png and "
                    "OUTPUT.pdf.")
    parser.add_argument("sweep", help="sweep.csv or the sweep's output directory")
    parser.add_argument("-o", "--output", default="kbar_vs_relaxation",
                        help="output file name (an extension .png or .pdf is dropped) (default: %(default)s)")
    parser.add_argument("--length", type=float, default=None,
                        help="cell length L0 in mm used to make tau0 v_F dimensionless "
                             "(default: each point's block_length from sweep.csv)")
    args = parser.parse_args(argv)
    # "-o plot.png" names the files plot.png and plot.pdf, not plot.png.png
    args.output = args.output.removesuffix(".png").removesuffix(".pdf")

    rows = successful_points(read_sweep(args.sweep), "kbar_vs_relaxation")
    if not rows:
        print("kbar_vs_relaxation: no successful point in the sweep", file=sys.stderr)
        return 1

    others = ["point_pressure", "point_payne_d", "point_rubber_model"]
    varying = [k for k in others if len({r[k] for r in rows}) > 1]
    curves = defaultdict(list)
    for r in rows:
        label = ", ".join([r["point_shape"]] + [f"{k[6:]}={r[k]}" for k in varying])
        curves[label].append(r)

    def length(r):
        if args.length is not None:
            return args.length
        if r.get("block_length"):
            return float(r["block_length"])
        return 10.0

    if args.length is None and any(not r.get("block_length") for r in rows):
        print("kbar_vs_relaxation: warning: sweep.csv does not record the cell length "
              "(block_length; a sweep of an older build): assuming L0 = 10 mm for those "
              "points; give --length L0 if the cell was another", file=sys.stderr)

    def x(r):
        return float(r["point_relaxation_time"]) * float(r["point_slip_velocity"]) / length(r)

    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    for n, (label, points) in enumerate(sorted(curves.items())):
        points.sort(key=x)
        xs = [x(r) for r in points]
        color = f"C{n % 10}"
        ax.plot(xs, [float(r["kbar"]) for r in points], "o-", color=color,
                label=f"{label}: $\\bar k$")
        ax.plot(xs, [float(r["kbar_F"]) for r in points], "s--", color=color, lw=1,
                label=f"{label}: $\\bar k_F$")
        ax.plot(xs, [float(r["kbar_V"]) for r in points], "^:", color=color, lw=1,
                label=f"{label}: $\\bar k_V$")
    ax.set_xscale("log")
    ax.set_xlabel(r"relaxation time $\times$ slip velocity, $\tau_0 \bar v_F / L_0$ (-)")
    ax.set_ylabel("macroscopic friction coefficient (-)")
    ax.set_ylim(bottom=0)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="x-small", ncol=2)
    fig.tight_layout()
    for extension in ("png", "pdf"):
        fig.savefig(f"{args.output}.{extension}", dpi=150)
    print(f"kbar_vs_relaxation: wrote {args.output}.png and {args.output}.pdf "
          f"({len(rows)} points, {len(curves)} curves)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
