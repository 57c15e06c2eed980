#!/usr/bin/python3
"""Plots the macroscopic friction coefficient kbar with its frictional and viscous parts
kbar_F and kbar_V (Temizer 2013 eq. 13) against the Payne parameter d (s, log axis) from
a d-scan's sweep.csv (params/payne-sweep.prm; spec §3.4, §7; issue 18). With the Payne
effect the viscosity is eta0 / (1 + d q), so kbar is expected to move from the
viscoelastic value (small d) towards the elastic one (large d).

Reference lines: kbar of the viscoelastic rubber without the Payne effect (the d = 0
point; d = 0 has no place on a log axis) and kbar of the elastic rubber (a point with
point_rubber_model = elastic, which the sweep runs once when Sweep/Rubber models =
elastic, viscoelastic), each with its ± kbar_spread as a band. One curve per particle
shape (and per other swept value: pressure, slip velocity, relaxation time). kbar has
error bars ± kbar_spread. Failed points are marked by a red cross on the x axis at their
d, stopped and pending ones by a grey circle, and all of them are listed on stderr.

Usage: kbar_vs_payne.py [-o kbar_vs_payne] SWEEP_CSV_OR_DIR
Writes OUTPUT.png and OUTPUT.pdf (atomically) and prints one line per curve with kbar at
the smallest and the largest d and the two references. Needs Debian's
python3-matplotlib. Exit status 1 if no point with d > 0 succeeded, 2 if sweep.csv is
missing or damaged.
"""
import argparse
import math
import sys
from collections import defaultdict

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from compare import (InputError, legend_by_curve, output_prefix,  # noqa: E402
                     read_sweep_rows, shape_label, sweep_paths, to_float, write_figure)
from kbar_vs_pressure import mark_unfinished  # noqa: E402
from sweep_table import successful_points  # noqa: E402

PROGRAM = "kbar_vs_payne"


def curve_key(sweep_dir, row, varying):
    """The label of the curve a row belongs to: its shape and the other swept values."""
    return ", ".join([shape_label(sweep_dir, row)] +
                     [f"{k[6:]}={row[k]}" for k in varying])


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="kbar (± kbar_spread), kbar_F and kbar_V against the Payne parameter "
                    "d (log axis) from a d-scan's sweep.csv, with kbar of d = 0 and of "
                    "the elastic rubber as reference lines; writes OUTPUT.png and "
                    "OUTPUT.pdf.")
    parser.add_argument("sweep", help="sweep.csv or the sweep's output directory")
    parser.add_argument("-o", "--output", default="kbar_vs_payne",
                        help="output file name (an extension .png or .pdf is dropped) "
                             "(default: %(default)s)")
    args = parser.parse_args(argv)
    try:
        args.output = output_prefix(args.output)
        all_rows = read_sweep_rows(args.sweep)
    except InputError as e:
        print(f"{PROGRAM}: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"{PROGRAM}: {args.output}: {e.strerror}", file=sys.stderr)
        return 2
    sweep_dir, _ = sweep_paths(args.sweep)

    rows = successful_points(all_rows, PROGRAM)
    unfinished = [r for r in all_rows if r["status"] != "ok"]
    others = ["point_pressure", "point_slip_velocity", "point_relaxation_time"]
    varying = [k for k in others if k in all_rows[0] and len({r[k] for r in all_rows}) > 1]

    def d(r):
        return to_float(r["point_payne_d"])

    scans, zero, elastic = defaultdict(list), {}, {}
    for r in rows:
        key = curve_key(sweep_dir, r, varying)
        if r["point_rubber_model"] == "elastic":
            elastic[key] = r
        elif d(r) > 0.:
            scans[key].append(r)
        else:
            zero[key] = r
    if not scans:
        print(f"{PROGRAM}: no successful point with d > 0 in the sweep", file=sys.stderr)
        return 1

    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    top, summary = 0., []
    all_d = [d(r) for r in all_rows if d(r) > 0.]
    span = (min(all_d) / 3., max(all_d) * 3.)
    for n, (label, points) in enumerate(sorted(scans.items())):
        points.sort(key=d)
        color = f"C{n % 10}"
        xs = [d(r) for r in points]
        k = [to_float(r["kbar"]) for r in points]
        spread = [to_float(r.get("kbar_spread")) for r in points]
        spread = [0. if math.isnan(s) else abs(s) for s in spread]
        ax.errorbar(xs, k, yerr=spread, fmt="o-", color=color, capsize=3,
                    label=f"{label}: $\\bar k$ ($\\pm$ kbar_spread)")
        ax.plot(xs, [to_float(r["kbar_F"]) for r in points], "s--", color=color, lw=1,
                label=f"{label}: $\\bar k_F$")
        ax.plot(xs, [to_float(r["kbar_V"]) for r in points], "^:", color=color, lw=1,
                label=f"{label}: $\\bar k_V$")
        top = max([top] + [a + b for a, b in zip(k, spread) if not math.isnan(a)])
        line = f"{label}: kbar {k[0]:.4f} at d = {xs[0]:g} s, {k[-1]:.4f} at d = {xs[-1]:g} s"
        for name, ref, style in (("viscoelastic, d = 0", zero.get(label), "-."),
                                 ("elastic rubber", elastic.get(label), "-")):
            if ref is None:
                continue
            value, s = to_float(ref["kbar"]), abs(to_float(ref.get("kbar_spread")))
            s = 0. if math.isnan(s) else s
            ax.axhline(value, color=color if name.startswith("visco") else "0.3",
                       ls=style, lw=1.2, label=f"{label}: $\\bar k$ of the {name}")
            ax.axhspan(value - s, value + s, color="0.5", alpha=0.12, lw=0)
            top = max(top, value + s)
            line += f"; {name} {value:.4f}"
        summary.append(line)
    mark_unfinished(ax, [r for r in unfinished if d(r) > 0.], d, with_labels=True)
    ax.set_xscale("log")
    ax.set_xlim(*span)
    ax.set_xlabel(r"Payne parameter $d$ (s);  $\eta = \eta_0 / (1 + d\,q)$")
    ax.set_ylabel("macroscopic friction coefficient (-)")
    ax.set_ylim(0., 1.12 * top if top > 0. else 1.)
    ax.grid(True, which="both", alpha=0.3)
    legend_by_curve(ax, ("k_F", "k_V", "of the"))  # the references after k_V
    fig.tight_layout()
    try:
        for extension in ("png", "pdf"):
            write_figure(fig, f"{args.output}.{extension}", extension, 150)
    except OSError as e:
        print(f"{PROGRAM}: cannot write {args.output}.png: {e.strerror}", file=sys.stderr)
        return 2
    print(f"{PROGRAM}: wrote {args.output}.png and {args.output}.pdf")
    for line in summary:
        print(f"  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
