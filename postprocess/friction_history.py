#!/usr/bin/python3
"""Plots the instantaneous macroscopic friction coefficient k_I = |F_T/F_N| and its
moving average over the averaging window against t/T0 (like Temizer 2013, Fig. 8)
from one or more runs' history.csv.

Usage: friction_history.py [-o friction_history] RUN_DIR [RUN_DIR ...]
Writes OUTPUT.png and OUTPUT.pdf. Needs Debian's python3-numpy and python3-matplotlib.
"""
import argparse
import csv
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from history_table import HistoryError, read_history_rows  # noqa: E402


def read_history(run_dir):
    h = read_history_rows(run_dir, ["t", "kI", "kI_avg", "phase"], "friction_history.py")
    return h["t"], h["kI"], h["kI_avg"], h["phase"]


def nominal_dragging_time(run_dir):
    """T0 = L0 / v_F from the run's parameters.prm (s)."""
    values = {}
    section = []
    with open(os.path.join(run_dir, "parameters.prm")) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line.startswith("subsection "):
                section.append(line[len("subsection "):].strip())
            elif line == "end":
                section.pop()
            elif line.startswith("set "):
                key, value = line[4:].split("=", 1)
                values["/".join(section + [key.strip()])] = value.strip()
    return float(values["Geometry/Block length"]) / float(values["Loading/Slip velocity"])


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", nargs="+", help="run output directories")
    parser.add_argument("-o", "--output", default="friction_history",
                        help="output file name (an extension .png or .pdf is dropped) (default: %(default)s)")
    args = parser.parse_args()
    # "-o plot.png" names the files plot.png and plot.pdf, not plot.png.png
    args.output = args.output.removesuffix(".png").removesuffix(".pdf")

    fig, ax = plt.subplots(figsize=(9, 4.2))
    for run in args.runs:
        t, k, k_avg, phases = read_history(run)
        T0 = nominal_dragging_time(run)
        s = [ti / T0 for ti in t]
        label = os.path.basename(os.path.normpath(run))
        # k_I is the instantaneous |F_T/F_N| (no bar); the bar is for the time average
        line, = ax.plot(s, k, lw=0.6, alpha=0.6, label=f"{label}: $k_I$")
        window = [i for i, p in enumerate(phases) if p == "averaging"]
        if window:
            ax.plot([s[i] for i in window], [k_avg[i] for i in window], lw=2,
                    color=line.get_color(),
                    label=f"{label}: moving average, $\\bar k$ = {k_avg[-1]:.4f}")
    ax.axvspan(0, 1, color="0.92", lw=0)
    ax.axvspan(1, 2, color="0.96", lw=0)
    ax.set_xlabel("time $t / T_0$ ($T_0 = L_0/\\bar v_F$): compression | transition | averaging")
    ax.set_ylabel("macroscopic friction coefficient $|F_T/F_N|$ (-)")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    # outside the axes, so that it never covers the curves
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.)
    fig.tight_layout()
    for ext in ("png", "pdf"):
        fig.savefig(f"{args.output}.{ext}", dpi=150)
    print(f"wrote {args.output}.png and {args.output}.pdf")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except HistoryError as e:
        print(f"friction_history.py: {e}", file=sys.stderr)
        sys.exit(2)
    except Exception as e:
        print(f"friction_history: {e}", file=sys.stderr)
        sys.exit(1)
