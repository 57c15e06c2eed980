#!/usr/bin/python3
"""Plots the macroscopic friction coefficient kbar and its split kbar = kbar_F + kbar_V
(frictional and viscous parts, Temizer 2013 eq. 13) against the macroscopic pressure p,
one curve per particle shape (and per other swept value, if any), from a sweep's
sweep.csv (spec §8.3, §8.4). Bottom axis p in MPa, top axis p in bar (1 bar = 0.1 MPa).
kbar has error bars ± kbar_spread (the spread of the moving average over the last quarter
of the averaging window, which contains kbar; none for a sweep.csv without that column).
A sweep without particle (the points' parameters.prm say Particle/Enabled = false, or
sweep.csv's r1 = r2 = 0) is labelled "bare interface", not with a shape name.
Only rows with status "ok" are plotted as curves; failed points are marked by a red cross
on the x axis at their pressure ("failed" in the legend), stopped and pending ones by a grey
circle, and all of them are listed on stderr.

Usage: kbar_vs_pressure.py [-o kbar_vs_pressure] SWEEP_CSV_OR_DIR
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

from compare import (InputError, output_prefix, read_sweep_rows, shape_label,  # noqa: E402
                     sweep_paths, to_float, write_figure)
from sweep_table import successful_points  # noqa: E402


def curve_label(sweep_dir, row, varying):
    parts = [shape_label(sweep_dir, row)]
    names = {"point_slip_velocity": ("v_F", "mm/s"),
             "point_relaxation_time": ("tau0", "s"),
             "point_payne_d": ("d", "s"),
             "point_rubber_model": ("", "")}
    for key in varying:
        symbol, unit = names[key]
        parts.append(row[key] if not symbol else f"{symbol}={row[key]} {unit}")
    return ", ".join(parts)


def mark_unfinished(ax, rows, x, with_labels):
    """Failed points: red crosses on the x axis; stopped and pending ones: grey circles."""
    failed = [x(r) for r in rows if r["status"] == "failed"]
    other = [x(r) for r in rows if r["status"] not in ("ok", "failed")]
    style = dict(ls="none", transform=ax.get_xaxis_transform(), clip_on=False, zorder=5)
    if failed:
        ax.plot(failed, [0.] * len(failed), "x", color="red", ms=10, mew=2.5,
                label="failed" if with_labels else None, **style)
    if other:
        ax.plot(other, [0.] * len(other), "o", mfc="none", color="0.4", ms=8, mew=1.5,
                label="not done (stopped or pending)" if with_labels else None, **style)


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="kbar (with error bars ± kbar_spread), kbar_F and kbar_V against "
                    "pressure from a sweep's sweep.csv (one curve per shape, \"bare "
                    "interface\" without particle; failed points marked on the x axis); "
                    "writes OUTPUT.png and OUTPUT.pdf.")
    parser.add_argument("sweep", help="sweep.csv or the sweep's output directory")
    parser.add_argument("-o", "--output", default="kbar_vs_pressure",
                        help="output file name (an extension .png or .pdf is dropped) (default: %(default)s)")
    args = parser.parse_args(argv)
    # "-o plot.png" names the files plot.png and plot.pdf, not plot.png.png
    try:
        args.output = output_prefix(args.output)
        all_rows = read_sweep_rows(args.sweep)
    except InputError as e:
        print(f"kbar_vs_pressure: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"kbar_vs_pressure: {args.output}: {e.strerror}", file=sys.stderr)
        return 2
    sweep_dir, _ = sweep_paths(args.sweep)

    rows = successful_points(all_rows, "kbar_vs_pressure")
    unfinished = [r for r in all_rows if r["status"] != "ok"]
    if not rows:
        print("kbar_vs_pressure: no successful point in the sweep", file=sys.stderr)
        return 1

    others = ["point_slip_velocity", "point_relaxation_time", "point_payne_d",
              "point_rubber_model"]
    varying = [k for k in others if k in all_rows[0] and len({r[k] for r in rows}) > 1]
    curves = defaultdict(list)
    for r in rows:
        curves[curve_label(sweep_dir, r, varying)].append(r)

    def pressure(r):
        return to_float(r["point_pressure"])

    fig, axes = plt.subplots(1, 3, figsize=(13, 4.2), sharey=False)
    quantities = [("kbar", r"$\bar k$"), ("kbar_F", r"$\bar k_F$"), ("kbar_V", r"$\bar k_V$")]
    for n, (ax, (column, title)) in enumerate(zip(axes, quantities)):
        top = 0.
        for label, points in sorted(curves.items()):
            points.sort(key=pressure)
            p = [pressure(r) for r in points]
            k = [to_float(r[column]) for r in points]
            spread = [to_float(r.get("kbar_spread")) for r in points]
            if column == "kbar" and not all(math.isnan(s) for s in spread):
                spread = [0. if math.isnan(s) else abs(s) for s in spread]
                ax.errorbar(p, k, yerr=spread, fmt="o-", capsize=3, label=label)
                top = max([top] + [a + b for a, b in zip(k, spread) if not math.isnan(a)])
            else:
                ax.plot(p, k, "o-", label=label)
                top = max([top] + [a for a in k if not math.isnan(a)])
        mark_unfinished(ax, unfinished, pressure, with_labels=n == 0)
        ax.set_xlabel("pressure p (MPa)")
        ax.set_ylabel(title + (r" (error bars $\pm$ kbar_spread)" if column == "kbar"
                               and "kbar_spread" in all_rows[0] else "") + " (-)")
        ax.grid(True, alpha=0.3)
        bottom = min([0.] + [to_float(r[column]) for r in rows
                             if not math.isnan(to_float(r[column]))])
        ax.set_ylim(1.1 * bottom, 1.12 * top if top > 0. else 1.)
        bar = ax.secondary_xaxis("top", functions=(lambda x: 10. * x, lambda b: 0.1 * b))
        bar.set_xlabel("pressure p (bar)")
    handles, labels = axes[0].get_legend_handles_labels()
    markers = ("failed", "not done (stopped or pending)")   # after the curves
    order = sorted(range(len(labels)), key=lambda i: labels[i] in markers)
    handles, labels = [handles[i] for i in order], [labels[i] for i in order]
    fig.tight_layout()
    # below the panels, so that it never covers the curves
    fig.legend(handles, labels, fontsize="small", loc="upper center",
               bbox_to_anchor=(0.5, 0.0), ncol=min(4, max(1, len(labels))))
    try:
        for extension in ("png", "pdf"):
            write_figure(fig, f"{args.output}.{extension}", extension, 150)
    except OSError as e:
        print(f"kbar_vs_pressure: cannot write {args.output}.png: {e.strerror}",
              file=sys.stderr)
        return 2
    failed = sum(r["status"] == "failed" for r in unfinished)
    print(f"kbar_vs_pressure: wrote {args.output}.png and {args.output}.pdf "
          f"({len(rows)} points, {failed} failed, {len(unfinished) - failed} not done; "
          f"{len(curves)} curves: {'; '.join(sorted(curves))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
