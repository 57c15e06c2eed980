#!/usr/bin/python3
"""Plots the macroscopic friction coefficient kbar and its split kbar = kbar_F + kbar_V
(frictional and viscous parts, Temizer 2013 eq. 13) against the macroscopic pressure p,
one curve per particle shape (and per other swept value, if any), from a sweep's
sweep.csv (spec §8.3, §8.4). Bottom axis p in MPa, top axis p in bar (1 bar = 0.1 MPa).
Only rows with status "ok" are plotted; failed and pending points are listed on stderr.

Usage: kbar_vs_pressure.py [-o kbar_vs_pressure] SWEEP_CSV_OR_DIR
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




def curve_label(row, varying):
    parts = [row["point_shape"]]
    names = {"point_slip_velocity": ("v_F", "mm/s"),
             "point_relaxation_time": ("tau0", "s"),
             "point_payne_d": ("d", "s"),
             "point_rubber_model": ("", "")}
    for key in varying:
        symbol, unit = names[key]
        parts.append(row[key] if not symbol else f"{symbol}={row[key]} {unit}")
    return ", ".join(parts)


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="kbar, kbar_F and kbar_V against pressure from a sweep's sweep.csv "
                    "(one curve per shape); writes OUTPUT.png and OUTPUT.pdf.")
    parser.add_argument("sweep", help="sweep.csv or the sweep's output directory")
    parser.add_argument("-o", "--output", default="kbar_vs_pressure",
                        help="output file name (an extension .png or .pdf is dropped) (default: %(default)s)")
    args = parser.parse_args(argv)
    # "-o plot.png" names the files plot.png and plot.pdf, not plot.png.png
    args.output = args.output.removesuffix(".png").removesuffix(".pdf")

    rows = successful_points(read_sweep(args.sweep), "kbar_vs_pressure")
    if not rows:
        print("kbar_vs_pressure: no successful point in the sweep", file=sys.stderr)
        return 1

    others = ["point_slip_velocity", "point_relaxation_time", "point_payne_d",
              "point_rubber_model"]
    varying = [k for k in others if len({r[k] for r in rows}) > 1]
    curves = defaultdict(list)
    for r in rows:
        curves[curve_label(r, varying)].append(r)

    fig, axes = plt.subplots(1, 3, figsize=(13, 4.2), sharey=False)
    quantities = [("kbar", r"$\bar k$"), ("kbar_F", r"$\bar k_F$"), ("kbar_V", r"$\bar k_V$")]
    for ax, (column, title) in zip(axes, quantities):
        for label, points in sorted(curves.items()):
            points.sort(key=lambda r: float(r["point_pressure"]))
            p = [float(r["point_pressure"]) for r in points]
            k = [float(r[column]) for r in points]
            ax.plot(p, k, "o-", label=label)
        ax.set_xlabel("pressure p (MPa)")
        ax.set_ylabel(title)
        ax.grid(True, alpha=0.3)
        top = ax.secondary_xaxis("top", functions=(lambda x: 10. * x, lambda b: 0.1 * b))
        top.set_xlabel("pressure p (bar)")
    axes[0].legend(fontsize="small")
    fig.tight_layout()
    for extension in ("png", "pdf"):
        fig.savefig(f"{args.output}.{extension}", dpi=150)
    print(f"kbar_vs_pressure: wrote {args.output}.png and {args.output}.pdf "
          f"({len(rows)} points, {len(curves)} curves)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
