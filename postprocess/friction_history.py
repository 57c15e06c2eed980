#!/usr/bin/python3
"""Plots the instantaneous macroscopic friction coefficient k_I = |F_T/F_N| and its
moving average over the averaging window against t/T0 (like Temizer 2013, Fig. 8) from
one or more runs' history.csv; T0 = L0 / v_F of each run. A history whose last row was cut
by a stopped run is drawn without that row (a warning).

Usage: friction_history.py [-o friction_history] [--dpi 150] RUN_DIR [RUN_DIR ...]
Writes PREFIX.png and PREFIX.pdf (atomically). Exit status 0, or 2 if a run's history.csv
or parameters.prm is missing or damaged.
"""
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import common  # noqa: E402


def main(argv=None):
    parser = common.argument_parser(__doc__)
    parser.add_argument("runs", nargs="+", metavar="RUN_DIR", help="run output directories")
    common.add_output_argument(parser, "friction_history")
    common.add_dpi_argument(parser)
    args = parser.parse_args(argv)
    prefix = common.output_prefix(args.output)

    fig, ax = plt.subplots(figsize=(9, 4.2))
    for run in args.runs:
        h = common.read_history(run, ["t", "kI", "kI_avg", "phase"])
        T0 = common.dragging_time(run)
        s = [t / T0 for t in h["t"]]
        label = os.path.basename(os.path.normpath(run))
        # k_I is the instantaneous |F_T/F_N| (no bar); the bar is for the time average
        line, = ax.plot(s, h["kI"], lw=0.6, alpha=0.6, label=f"{label}: $k_I$")
        window = [i for i, p in enumerate(h["phase"]) if p == "averaging"]
        if window:
            ax.plot([s[i] for i in window], [h["kI_avg"][i] for i in window], lw=2,
                    color=line.get_color(),
                    label=f"{label}: moving average, $\\bar k$ = {h['kI_avg'][-1]:.4f}")
        if run == args.runs[0]:
            common.shade_phases(ax, s, h["phase"])
    ax.set_xlabel("time $t / T_0$ ($T_0 = L_0/\\bar v_F$): compression | transition | averaging")
    ax.set_ylabel("macroscopic friction coefficient $|F_T/F_N|$ (-)")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    common.outside_legend(ax, frameon=True)
    fig.tight_layout()
    common.save_figure(fig, prefix, args.dpi)
    print(f"wrote {prefix}.png and {prefix}.pdf")
    return common.EXIT_OK


if __name__ == "__main__":
    sys.exit(common.run(main))
