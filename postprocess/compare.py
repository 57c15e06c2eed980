#!/usr/bin/python3
"""Overlays several runs or several sweeps in one figure, the legend built from the
parameters in which they differ.

Runs (directories with history.csv): the instantaneous macroscopic friction coefficient
k_I = |F_T/F_N| (thin) and its moving average over the averaging window (thick; its last
value is k̄) against t/T0, T0 = L0/v_F of each run.
Sweeps (directories with sweep.csv, or the sweep.csv files): k̄ against the pressure p with
error bars ± kbar_spread (the spread of the moving average over the last quarter of the
window, which contains k̄), or against tau0 v_F/L0 (log axis) if the relaxation time varies
within a sweep; one curve per sweep and per other swept value. Failed points, and those
whose k̄ is not a finite number (inf, nan), are marked by a cross on the x axis in the
colour of their curve.

The legend: each input's parameters.prm (for a sweep: its first point's, in the point's
subdirectory, with the swept entries replaced by the list of their values) is read as
"Subsection/Entry = value"; the entries whose values differ between the inputs label the
curves, e.g. "Contact/Particle-surface/Normal law = flores". Left out: Output/..., a sweep's
x axis (Loading/Pressure, or the relaxation time and slip velocity), and the entries that
do not matter for an input: without particle (Particle/Enabled = false, a bare interface,
labelled so and never with a shape name) the particle's and its contacts' entries, with an
elastic rubber the Maxwell branch's. Inputs with identical parameters are labelled with
their directory names. The legend is placed to the right of the axes, off the curves; its
text is printed on stdout.

Usage: compare.py RUN_OR_SWEEP [RUN_OR_SWEEP ...] [-o PREFIX] [--dpi 150]
Writes PREFIX.png and PREFIX.pdf (default PREFIX: compare; a directory part is created).
Examples:
  compare.py output/flores output/hunt_crossley -o /tmp/figures/normal_laws
  compare.py output-pressure-sweep/circular output-pressure-sweep/square

Exit status 0 on success, 2 if an input is missing, damaged (a sweep.csv without the column
kbar, a row cut short), neither a run nor a sweep, or runs and sweeps are mixed. Needs
Debian's python3-numpy and python3-matplotlib.
"""
import math
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import common  # noqa: E402
from common import (SWEPT_ENTRIES, InputError, particle_enabled,  # noqa: E402
                    to_float)


# ---------------------------------------------------------------------------------------
# legends from the differing parameters
# ---------------------------------------------------------------------------------------

def normalised(value):
    """A value for comparisons: numbers by value (2 = 2.0 = 2e0), text as written."""
    try:
        return ("number", float(value))
    except (TypeError, ValueError):
        return ("text", " ".join(str(value).split()))


def relevant_parameters(params):
    """The entries of `params` that matter for the run: without particle
    (Particle/Enabled = false) the particle's and its contacts' entries are left out (a
    bare interface has no shape), with an elastic rubber the Maxwell branch's (but
    Particle/Enabled and Rubber/Maxwell branch/Viscoelastic themselves stay)."""
    dropped = []
    if not particle_enabled(params):
        dropped += ["Particle/", "Contact/Rubber-particle/", "Contact/Particle-surface/"]
    if common.is_false(params.get("Rubber/Maxwell branch/Viscoelastic", "")):
        dropped.append("Rubber/Maxwell branch/")
    keep = ("Particle/Enabled", "Rubber/Maxwell branch/Viscoelastic")
    return {k: v for k, v in params.items()
            if k in keep or not any(k.startswith(d) for d in dropped)}


def differing_entries(parameter_sets):
    """The keys (in file order) whose values differ between those dicts of
    `parameter_sets` that have them (Particle/Shape of a bare interface is no value: see
    relevant_parameters), or that some inputs have and some lack while they all matter
    (a key of another build); Output/... is left out."""
    keys = []
    for params in parameter_sets:
        keys += [k for k in params if k not in keys]
    result = []
    for k in keys:
        if k.startswith("Output/"):
            continue
        having = [p for p in parameter_sets if k in p]
        if len({normalised(p[k]) for p in having}) > 1:
            result.append(k)
    return result


def entry_text(key, value):
    text = f"{key} = {value}"
    if key == "Particle/Enabled" and not particle_enabled({key: value}):
        text += " (bare interface)"
    return text


def input_labels(names, parameter_sets, limit=6):
    """(labels, from_parameters): one legend label per input, "Key = value" of the
    differing entries, one a line (at most `limit`); the directory names if none differ
    (or parameters are missing), then from_parameters is False."""
    usable = [relevant_parameters(p) for p in parameter_sets if p is not None]
    keys = differing_entries(usable) if len(usable) == len(parameter_sets) else []
    if not keys:
        short = [os.path.basename(os.path.normpath(n)) or n for n in names]
        return (short if len(set(short)) == len(short) else list(names)), False
    labels = []
    for params in usable:
        own = [k for k in keys if k in params]
        lines = [entry_text(k, params[k]) for k in own[:limit]]
        if len(own) > limit:
            lines.append(f"... ({len(own) - limit} more differing entries)")
        labels.append("\n".join(lines))
    return labels, True


# ---------------------------------------------------------------------------------------
# the inputs
# ---------------------------------------------------------------------------------------

def input_kind(path):
    """"run" or "sweep"; InputError if `path` is neither."""
    if os.path.isfile(path) and os.path.basename(path).endswith(".csv"):
        return "sweep"
    if os.path.isdir(path):
        if os.path.isfile(os.path.join(path, "sweep.csv")):
            return "sweep"
        if os.path.isfile(os.path.join(path, "history.csv")):
            return "run"
        raise InputError(f"{path} has neither history.csv (a run) nor sweep.csv (a sweep)")
    raise InputError(f"{path}: no such run or sweep directory")


def load_run(path):
    """A run: its parameters, T0 (s), history (t, kI, kI_avg, phase) and k̄ (None without a
    readable summary.csv)."""
    params = common.read_parameters(os.path.join(path, "parameters.prm"))
    h = common.read_history(path, ["t", "kI", "kI_avg", "phase"])
    kbar = None
    try:
        summary = common.read_summary(path)
        kbar = None if summary is None else common.summary_float(summary, "kbar", path)
    except InputError as e:
        common.warn(f"{e}: k̄ taken from history.csv")
    return dict(path=path, params=params, T0=common.dragging_time(path), history=h,
                kbar=kbar)


def load_sweep(path):
    """A sweep: its rows, directory, swept columns and the first point's parameters with
    the swept entries replaced by the list of their values (None if no point has a
    parameters.prm)."""
    directory, _ = common.sweep_paths(path)
    rows = common.with_unusable_points_failed(
        common.read_sweep(path, ("name", "status", "point_pressure", "kbar")))
    varying = common.varying_columns(rows, SWEPT_ENTRIES)
    params = None
    for r in rows:            # the first point with a parameters.prm
        params = common.point_parameters(directory, r)
        if params is not None:
            break
    if params is None:
        common.warn(f"{path}: no point has a parameters.prm in its subdirectory: the "
                    "legend uses the directory name")
    else:
        params = dict(params)
        for column in varying:
            main, *others = SWEPT_ENTRIES[column]
            values = sorted({r[column] for r in rows}, key=lambda v: normalised(v))
            params[main] = ", ".join(values)
            for key in others:
                params.pop(key, None)
    return dict(path=path, directory=directory, rows=rows, params=params, varying=varying)


def plot_runs(ax, runs, labels):
    for n, (run, label) in enumerate(zip(runs, labels)):
        h, T0 = run["history"], run["T0"]
        s = [t / T0 for t in h["t"]]
        colour = f"C{n % 10}"
        ax.plot(s, h["kI"], lw=0.6, alpha=0.35, color=colour)
        window = [i for i, p in enumerate(h["phase"]) if p == "averaging"]
        if run["kbar"] is not None:
            text = label + f"\n($\\bar k$ = {run['kbar']:.4f})"
        elif window:       # no summary.csv: stopped or failed before the end
            text = label + f"\n(no summary.csv: moving average {h['kI_avg'][-1]:.4f} " \
                f"at t/T0 = {s[-1]:.3g})"
        else:
            text = label
        if window:
            ax.plot([s[i] for i in window], [h["kI_avg"][i] for i in window], lw=2.2,
                    color=colour, label=text)
        else:      # stopped before the averaging window: the instantaneous curve only
            ax.plot([], [], lw=0.6, color=colour, label=text + " (no averaging window)")
    # the phases of the first run (every run has compression and transition of T0 each)
    h, T0 = runs[0]["history"], runs[0]["T0"]
    common.shade_phases(ax, [t / T0 for t in h["t"]], h["phase"])
    ax.set_xlabel("time $t / T_0$ ($T_0 = L_0/\\bar v_F$): compression | transition | "
                  "averaging")
    ax.set_ylabel("macroscopic friction coefficient $|F_T/F_N|$ (-)")
    ax.set_ylim(bottom=0)
    ax.plot([], [], lw=0.6, alpha=0.5, color="0.3", label="thin: instantaneous $k_I$\n"
            "thick: its moving average")


def sweep_x(row, relaxation, lengths):
    """The point's x: p (MPa), or tau0 v_F / L0 with L0 = lengths[name] (mm)."""
    if not relaxation:
        return to_float(row["point_pressure"])
    return (to_float(row["point_relaxation_time"]) * to_float(row["point_slip_velocity"])
            / lengths[row["name"]])


def plot_sweeps(ax, sweeps, labels, relaxation):
    curve = 0
    any_failed = False
    top = 0.
    for sweep, label in zip(sweeps, labels):
        rows, directory = sweep["rows"], sweep["directory"]
        others = [c for c in sweep["varying"]
                  if c != ("point_relaxation_time" if relaxation else "point_pressure")
                  and not (relaxation and c == "point_slip_velocity")]
        lengths = {r["name"]: common.cell_length(directory, r, rows) for r in rows}
        if relaxation and None in lengths.values():
            common.warn(f"{sweep['path']}: the cell length is not recorded: assuming "
                        "L0 = 10 mm")
        lengths = {name: 10. if length is None else length
                   for name, length in lengths.items()}
        groups = {}
        for r in rows:
            key = []
            for c in others:
                key.append(common.shape_label(directory, r) if c == "point_shape"
                           else common.swept_value_text(c, r[c]))
            groups.setdefault(", ".join(key), []).append(r)
        if len(groups) > 1:      # the sweep's label once, then its curves
            ax.plot([], [], ls="none", label=label)
        for key, points in groups.items():
            colour = f"C{curve % 10}"
            curve += 1
            ok = sorted((r for r in points if r["status"] == "ok"),
                        key=lambda r: sweep_x(r, relaxation, lengths))
            text = key if len(groups) > 1 else label + (f"\n{key}" if key else "")
            xs = [sweep_x(r, relaxation, lengths) for r in ok]
            ks = [to_float(r["kbar"]) for r in ok]
            spread = [abs(to_float(r.get("kbar_spread"))) if not math.isnan(
                to_float(r.get("kbar_spread"))) else 0. for r in ok]
            top = max([top] + [k + e for k, e in zip(ks, spread) if not math.isnan(k)])
            if ok:
                ax.errorbar(xs, ks, yerr=spread, fmt="o-", color=colour, capsize=3,
                            label=text)
            else:
                ax.plot([], [], "o-", color=colour, label=text + " (no successful point)")
            failed = [sweep_x(r, relaxation, lengths) for r in points
                      if r["status"] == "failed"]
            if failed:
                any_failed = True
                ax.plot(failed, [0.] * len(failed), "x", color=colour, ms=10, mew=2.5,
                        transform=ax.get_xaxis_transform(), clip_on=False, zorder=5)
    if any_failed:
        ax.plot([], [], ls="none", marker="x", color="0.3", ms=9, mew=2.5,
                label="failed point (cross on the x axis,\ncolour of its curve)")
    if relaxation:
        ax.set_xscale("log")
        ax.set_xlabel(r"relaxation time $\times$ slip velocity, $\tau_0 \bar v_F / L_0$ (-)")
    else:
        ax.set_xlabel("pressure p (MPa)")
        bar = ax.secondary_xaxis("top", functions=(lambda x: 10. * x, lambda b: 0.1 * b))
        bar.set_xlabel("pressure p (bar)")
    ax.set_ylabel(r"macroscopic friction coefficient $\bar k$ (-)" "\n"
                  r"error bars $\pm$ kbar_spread")
    ax.set_ylim(0., 1.12 * top if top > 0. else 1.)


def main(argv=None):
    parser = common.argument_parser(__doc__)
    parser.add_argument("inputs", nargs="+", metavar="RUN_OR_SWEEP",
                        help="run output directories (with history.csv), or sweep output "
                             "directories / sweep.csv files (not both kinds)")
    common.add_output_argument(parser, "compare")
    common.add_dpi_argument(parser)
    args = parser.parse_args(argv)

    kinds = {input_kind(p) for p in args.inputs}
    if len(kinds) > 1:
        raise InputError("give either runs (directories with history.csv) or sweeps "
                         "(with sweep.csv), not both: "
                         + ", ".join(f"{p} ({input_kind(p)})" for p in args.inputs))
    kind = kinds.pop()
    if kind == "run":
        items = [load_run(p) for p in args.inputs]
    else:
        items = [load_sweep(p) for p in args.inputs]
    relaxation = kind == "sweep" and any("point_relaxation_time" in s["varying"]
                                         for s in items)
    parameter_sets = [i["params"] for i in items]
    if kind == "sweep":   # the x axis's entries need no legend
        axis = (["point_relaxation_time", "point_slip_velocity"] if relaxation
                else ["point_pressure"])
        parameter_sets = [None if p is None else
                          {k: v for k, v in p.items()
                           if not any(k == SWEPT_ENTRIES[c][0] for c in axis)}
                          for p in parameter_sets]
    labels, from_parameters = input_labels(args.inputs, parameter_sets)
    prefix = common.output_prefix(args.output)

    fig, ax = plt.subplots(figsize=(8, 4.6))
    if kind == "run":
        plot_runs(ax, items, labels)
        title = "macroscopic friction coefficient" + (f" of {len(items)} runs"
                                                      if len(items) > 1 else "")
    else:
        plot_sweeps(ax, items, labels, relaxation)
        title = (r"$\bar k$ against " + (r"$\tau_0 \bar v_F / L_0$" if relaxation
                                          else "pressure")
                 + (f" of {len(items)} sweeps" if len(items) > 1 else ""))
    if all(i["params"] is not None and not particle_enabled(i["params"]) for i in items):
        title += " (bare interface)"
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    handles, texts = ax.get_legend_handles_labels()
    if kind == "sweep":    # in the order plotted: matplotlib lists the error bars last
        order = {id(h): n for n, h in enumerate(ax.lines + ax.containers)}
        position = []
        for h in handles:
            first = h.lines[0] if hasattr(h, "lines") and h.lines else h
            position.append(order.get(id(first), order.get(id(h), 0)))
        pairs = sorted(zip(position, range(len(handles))))
        handles = [handles[i] for _, i in pairs]
        texts = [texts[i] for _, i in pairs]
    legend = common.outside_legend(
        ax, "differing parameters" if from_parameters else None, frameon=True,
        handles=handles, labels=texts, labelspacing=0.9)
    fig.tight_layout()
    common.save_figure(fig, prefix, args.dpi)
    print(f"{common.PROGRAM}: wrote {prefix}.png and {prefix}.pdf ({len(items)} {kind}"
          f"{'s' if len(items) > 1 else ''})")
    print("legend:")
    for text in legend.get_texts():
        print("  " + text.get_text().replace("\n", "\n  "))
    return common.EXIT_OK


if __name__ == "__main__":
    sys.exit(common.run(main))
