#!/usr/bin/python3
"""Plots the macroscopic friction coefficient kbar with its frictional and viscous parts
kbar_F and kbar_V (Temizer 2013 eq. 13) against the dimensionless product of relaxation
time and slip velocity, tau0 v_F / L0 (log axis), one curve per particle shape (and per
other swept value, if any), from a sweep's sweep.csv (spec §8.3, §8.4). The viscous part
is expected to peak near tau0 ~ L0 / v_F and to vanish in both limits.
kbar has error bars ± kbar_spread (the spread of the moving average over the last quarter
of the averaging window, which contains kbar; none for a sweep.csv without that column).
A sweep without particle (the points' parameters.prm say Particle/Enabled = false, or
sweep.csv's r1 = r2 = 0) is labelled "bare interface", not with a shape name.
Only rows with status "ok" are plotted as curves; failed points are marked by a red cross
on the x axis at their tau0 v_F / L0 ("failed" in the legend), stopped and pending ones by
a grey circle, and all of them are listed on stderr.

Usage: kbar_vs_relaxation.py [-o kbar_vs_relaxation] [--length L0] SWEEP_CSV_OR_DIR
L0 is each point's cell length from sweep.csv (column block_length; for a point without
summary columns, a failed one, its parameters.prm's Geometry/Block length); --length
overrides it and is needed only for sweeps written before that column existed (then 10 mm
is assumed, with a warning).
Writes OUTPUT.png and OUTPUT.pdf (atomically) and prints the curves' labels. Needs Debian's
python3-matplotlib. Exit status 1 if there is nothing to plot, 2 if sweep.csv is missing or
damaged.
"""
import argparse
import math
import sys
from collections import defaultdict

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from compare import (InputError, legend_by_curve, output_prefix,  # noqa: E402
                     point_parameters, read_sweep_rows, shape_label, sweep_paths, to_float, write_figure)
from kbar_vs_pressure import mark_unfinished  # noqa: E402
from sweep_table import successful_points  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="kbar (with error bars ± kbar_spread), kbar_F and kbar_V against "
                    "tau0 v_F / L0 (log axis) from a sweep's sweep.csv, one curve per "
                    "shape (\"bare interface\" without particle; failed points marked on "
                    "the x axis); writes OUTPUT.png and OUTPUT.pdf.")
    parser.add_argument("sweep", help="sweep.csv or the sweep's output directory")
    parser.add_argument("-o", "--output", default="kbar_vs_relaxation",
                        help="output file name (an extension .png or .pdf is dropped) (default: %(default)s)")
    parser.add_argument("--length", type=float, default=None,
                        help="cell length L0 in mm used to make tau0 v_F dimensionless "
                             "(default: each point's block_length from sweep.csv)")
    args = parser.parse_args(argv)
    # "-o plot.png" names the files plot.png and plot.pdf, not plot.png.png
    try:
        args.output = output_prefix(args.output)
        all_rows = read_sweep_rows(args.sweep)
    except InputError as e:
        print(f"kbar_vs_relaxation: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"kbar_vs_relaxation: {args.output}: {e.strerror}", file=sys.stderr)
        return 2
    sweep_dir, _ = sweep_paths(args.sweep)

    rows = successful_points(all_rows, "kbar_vs_relaxation")
    unfinished = [r for r in all_rows if r["status"] != "ok"]
    if not rows:
        print("kbar_vs_relaxation: no successful point in the sweep", file=sys.stderr)
        return 1

    others = ["point_pressure", "point_payne_d", "point_rubber_model"]
    varying = [k for k in others if k in all_rows[0] and len({r[k] for r in rows}) > 1]
    curves = defaultdict(list)
    for r in rows:
        label = ", ".join([shape_label(sweep_dir, r)] + [f"{k[6:]}={r[k]}" for k in varying])
        curves[label].append(r)

    def length(r):
        if args.length is not None:
            return args.length
        if r.get("block_length"):
            return float(r["block_length"])
        if r["status"] != "ok":       # no summary columns: the point's parameters.prm
            try:
                params = point_parameters(sweep_dir, r)
                if params is not None:
                    return float(params["Geometry/Block length"])
            except (InputError, KeyError, ValueError):
                pass
            known = {float(o["block_length"]) for o in rows if o.get("block_length")}
            if len(known) == 1:
                return known.pop()
        return 10.0

    if args.length is None and any(not r.get("block_length") for r in rows):
        print("kbar_vs_relaxation: warning: sweep.csv does not record the cell length "
              "(block_length; a sweep of an older build): assuming L0 = 10 mm for those "
              "points; give --length L0 if the cell was another", file=sys.stderr)

    def x(r):
        return to_float(r["point_relaxation_time"]) * to_float(r["point_slip_velocity"]) \
            / length(r)

    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    has_spread = "kbar_spread" in all_rows[0]
    top = 0.
    for n, (label, points) in enumerate(sorted(curves.items())):
        points.sort(key=x)
        xs = [x(r) for r in points]
        color = f"C{n % 10}"
        k = [to_float(r["kbar"]) for r in points]
        spread = [to_float(r.get("kbar_spread")) for r in points]
        if has_spread and not all(math.isnan(s) for s in spread):
            spread = [0. if math.isnan(s) else abs(s) for s in spread]
            ax.errorbar(xs, k, yerr=spread, fmt="o-", color=color, capsize=3,
                        label=f"{label}: $\\bar k$ ($\\pm$ kbar_spread)")
        else:
            spread = [0.] * len(k)
            ax.plot(xs, k, "o-", color=color, label=f"{label}: $\\bar k$")
        top = max([top] + [a + b for a, b in zip(k, spread) if not math.isnan(a)])
        ax.plot(xs, [to_float(r["kbar_F"]) for r in points], "s--", color=color, lw=1,
                label=f"{label}: $\\bar k_F$")
        ax.plot(xs, [to_float(r["kbar_V"]) for r in points], "^:", color=color, lw=1,
                label=f"{label}: $\\bar k_V$")
    mark_unfinished(ax, unfinished, x, with_labels=True)
    ax.set_xscale("log")
    ax.set_xlabel(r"relaxation time $\times$ slip velocity, $\tau_0 \bar v_F / L_0$ (-)")
    ax.set_ylabel("macroscopic friction coefficient (-)")
    ax.set_ylim(0., 1.12 * top if top > 0. else 1.)
    ax.grid(True, which="both", alpha=0.3)
    legend_by_curve(ax)
    fig.tight_layout()
    try:
        for extension in ("png", "pdf"):
            write_figure(fig, f"{args.output}.{extension}", extension, 150)
    except OSError as e:
        print(f"kbar_vs_relaxation: cannot write {args.output}.png: {e.strerror}",
              file=sys.stderr)
        return 2
    failed = sum(r["status"] == "failed" for r in unfinished)
    print(f"kbar_vs_relaxation: wrote {args.output}.png and {args.output}.pdf "
          f"({len(rows)} points, {failed} failed, {len(unfinished) - failed} not done; "
          f"{len(curves)} curves: {'; '.join(sorted(curves))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
