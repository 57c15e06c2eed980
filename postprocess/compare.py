#!/usr/bin/python3
"""Overlays several runs or several sweeps in one figure, the legend built from the
parameters in which they differ.

Runs (directories with history.csv): the instantaneous macroscopic friction coefficient
k_I = |F_T/F_N| (thin) and its moving average over the averaging window (thick; its last
value is k̄) against t/T0, T0 = L0/v_F of each run.
Sweeps (directories with sweep.csv, or the sweep.csv files): k̄ against the pressure p with
error bars ± kbar_spread (the spread of the moving average over the last quarter of the
window, which contains k̄), or against tau0 v_F/L0 (log axis) if the relaxation time varies
within a sweep; one curve per sweep and per other swept value. Failed points are marked by
a cross on the x axis in the colour of their curve.

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

Exit status 0 on success, 2 if an input is missing, damaged, neither a run nor a sweep, or
runs and sweeps are mixed. Needs Debian's python3-numpy and python3-matplotlib. Also the
module that render_run.py, kbar_vs_pressure.py and kbar_vs_relaxation.py read
parameters.prm and label bare-interface sweeps with.
"""
import argparse
import csv
import math
import os
import sys
import tempfile

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from history_table import HistoryError, read_history_rows  # noqa: E402
from sweep_table import read_sweep  # noqa: E402

PROGRAM = "compare.py"


class InputError(Exception):
    """An input file is missing or damaged (the message names the file)."""


# ---------------------------------------------------------------------------------------
# parameters.prm
# ---------------------------------------------------------------------------------------

def read_parameters(path):
    """The entries of a deal.II parameter file as {"Subsection/Entry": "value"} (comments
    and defaults dropped, continuation lines joined). InputError names the file and the
    line if it is missing or malformed."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
    except OSError as e:
        raise InputError(f"{path}: {e.strerror}") from None
    values, section = {}, []
    pending, first = "", 0
    for number, raw in enumerate(lines, start=1):
        text = raw.split("#", 1)[0].rstrip()
        if text.endswith("\\"):            # continued on the next line
            if not pending:
                first = number
            pending += text[:-1] + " "
            continue
        if pending:
            text, pending = pending + text.strip(), ""
        else:
            first = number
        text = text.strip()
        if not text:
            continue
        if text.startswith("subsection "):
            section.append(text[len("subsection "):].strip())
        elif text == "end":
            if not section:
                raise InputError(f"{path}, line {first}: 'end' without a subsection "
                                 "(a damaged parameters.prm?)")
            section.pop()
        elif text.startswith("set "):
            if "=" not in text:
                raise InputError(f"{path}, line {first}: 'set' without '=' "
                                 "(a damaged parameters.prm?)")
            key, value = text[4:].split("=", 1)
            values["/".join(section + [" ".join(key.split())])] = value.strip()
        else:
            raise InputError(f"{path}, line {first}: cannot read {text[:40]!r} "
                             "(not a parameter file?)")
    if section:
        raise InputError(f"{path}: subsection {'/'.join(section)} is not closed "
                         "(a truncated parameters.prm?)")
    if not values:
        raise InputError(f"{path} has no parameter (empty or not a parameter file)")
    return values


def parameter_float(params, key, path):
    """params[key] as a float; InputError naming `path` if it is missing or no number."""
    try:
        return float(params[key])
    except KeyError:
        raise InputError(f"{path} has no entry {key}") from None
    except ValueError:
        raise InputError(f"{path}: {key} = {params[key]!r} is not a number") from None


def nominal_dragging_time(params, path):
    """T0 = L0 / v_F (s) of a run's parameters (`path` names the file in errors)."""
    length = parameter_float(params, "Geometry/Block length", path)
    velocity = parameter_float(params, "Loading/Slip velocity", path)
    if length <= 0. or velocity <= 0.:
        raise InputError(f"{path}: Geometry/Block length and Loading/Slip velocity must be "
                         "positive")
    return length / velocity


def particle_enabled(params):
    """Particle/Enabled as a bool (True when the entry is missing: the default)."""
    value = params.get("Particle/Enabled", "true").strip().lower()
    return value not in ("false", "0", "no", "off")


# ---------------------------------------------------------------------------------------
# sweeps
# ---------------------------------------------------------------------------------------

def sweep_paths(path):
    """(sweep directory, sweep.csv) of a sweep's output directory or its sweep.csv."""
    if os.path.isdir(path):
        return path, os.path.join(path, "sweep.csv")
    return os.path.dirname(path) or ".", path


def read_sweep_rows(path):
    """The rows of a sweep.csv (`path`: the file or the sweep's directory); InputError if
    it is missing, empty or not a sweep.csv."""
    directory, csv_path = sweep_paths(path)
    try:
        rows = read_sweep(csv_path)
    except OSError as e:
        raise InputError(f"{csv_path}: {e.strerror}") from None
    except csv.Error as e:
        raise InputError(f"{csv_path}: {e}") from None
    if not rows:
        raise InputError(f"{csv_path} has no point (empty, or not a sweep.csv)")
    missing = [c for c in ("name", "status", "point_pressure") if c not in rows[0]]
    if missing:
        raise InputError(f"{csv_path} has no column {', '.join(missing)}: not a sweep.csv")
    return rows


def point_parameters(sweep_dir, row):
    """The parameters of one sweep point (its subdirectory's parameters.prm), or None if
    the point has none (not started, or sweep.csv copied without the subdirectories)."""
    path = os.path.join(sweep_dir, row.get("name", ""), "parameters.prm")
    if not row.get("name") or not os.path.isfile(path):
        return None
    return read_parameters(path)


def point_is_bare(sweep_dir, row):
    """True if the point has no particle (a bare interface): from its parameters.prm
    (Particle/Enabled), else from its summary columns (r1 = r2 = 0 for a bare interface);
    False if neither tells."""
    try:
        params = point_parameters(sweep_dir, row)
    except InputError:
        params = None
    if params is not None:
        return not particle_enabled(params)
    try:
        return float(row["r1"]) == 0. and float(row["r2"]) == 0.
    except (KeyError, TypeError, ValueError):
        return False


def shape_label(sweep_dir, row):
    """The point's shape for a legend: "bare interface" for a point without particle."""
    return "bare interface" if point_is_bare(sweep_dir, row) else row.get("point_shape", "?")


def to_float(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return math.nan


# ---------------------------------------------------------------------------------------
# legends from the differing parameters
# ---------------------------------------------------------------------------------------

# the parameters.prm entries that a sweep sets per point, by sweep.csv column
SWEPT_ENTRIES = {
    "point_pressure": ["Loading/Pressure"],
    "point_slip_velocity": ["Loading/Slip velocity"],
    "point_relaxation_time": ["Rubber/Maxwell branch/Relaxation time"],
    "point_shape": ["Particle/Shape", "Particle/Semi-axis r1", "Particle/Semi-axis r2",
                    "Particle/Exponent p1", "Particle/Exponent p2"],
    "point_payne_d": ["Rubber/Maxwell branch/Payne parameter"],
    "point_rubber_model": ["Rubber/Maxwell branch/Viscoelastic"],
}

SWEPT_SYMBOLS = {
    "point_pressure": ("p", "MPa"),
    "point_slip_velocity": ("v_F", "mm/s"),
    "point_relaxation_time": ("tau0", "s"),
    "point_shape": ("", ""),
    "point_payne_d": ("d", "s"),
    "point_rubber_model": ("", ""),
}


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
    if params.get("Rubber/Maxwell branch/Viscoelastic", "").strip().lower() in (
            "false", "0", "no", "off"):
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
    params_path = os.path.join(path, "parameters.prm")
    params = read_parameters(params_path)
    T0 = nominal_dragging_time(params, params_path)
    h = read_history_rows(path, ["t", "kI", "kI_avg", "phase"], PROGRAM)
    kbar = None
    summary = os.path.join(path, "summary.csv")
    if os.path.isfile(summary):
        try:
            with open(summary, newline="") as f:
                kbar = float(next(csv.DictReader(f))["kbar"])
        except (OSError, StopIteration, KeyError, ValueError, csv.Error):
            print(f"{PROGRAM}: warning: {summary} is unreadable: k̄ taken from history.csv",
                  file=sys.stderr)
    return dict(path=path, params=params, T0=T0, history=h, kbar=kbar)


def load_sweep(path):
    directory, _ = sweep_paths(path)
    rows = read_sweep_rows(path)
    varying = [c for c in SWEPT_ENTRIES if c in rows[0] and len({r[c] for r in rows}) > 1]
    params = None
    for r in rows:            # the first point with a parameters.prm
        params = point_parameters(directory, r)
        if params is not None:
            break
    if params is None:
        print(f"{PROGRAM}: warning: {path}: no point has a parameters.prm in its "
              "subdirectory: the legend uses the directory name", file=sys.stderr)
    else:
        params = dict(params)
        for column in varying:
            main, *others = SWEPT_ENTRIES[column]
            values = sorted({r[column] for r in rows}, key=lambda v: normalised(v))
            params[main] = ", ".join(values)
            for key in others:
                params.pop(key, None)
    return dict(path=path, directory=directory, rows=rows, params=params, varying=varying)


def write_figure(fig, path, ext, dpi):
    """fig as `path` (format `ext`), atomically: a temporary file in the same directory
    renamed over the old one."""
    fd, temporary = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp",
                                     dir=os.path.dirname(path) or ".")
    os.close(fd)
    try:
        fig.savefig(temporary, format=ext, dpi=dpi, bbox_inches="tight")
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def legend_by_curve(ax, quantities=("k_F", "k_V")):
    """A legend to the right of the axes (it never covers the curves), grouped per curve:
    the entries labelled "CURVE: $QUANTITY..." in the order k first, then those whose
    quantity contains quantities[0], quantities[1], ... (matplotlib lists error bars last,
    so the order must be made); entries without ": $" (marks such as "failed") at the end."""
    handles, labels = ax.get_legend_handles_labels()

    def rank(i):
        text = labels[i]
        if ": $" not in text:
            return (1, text, 0)
        curve, quantity = text.rsplit(": $", 1)
        return (0, curve, next((n + 1 for n, q in enumerate(quantities) if q in quantity), 0))
    order = sorted(range(len(labels)), key=rank)
    ax.legend([handles[i] for i in order], [labels[i] for i in order], fontsize="x-small",
              loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.)


def output_prefix(prefix):
    """PREFIX without a .png/.pdf extension; its directory created."""
    prefix = prefix.removesuffix(".png").removesuffix(".pdf")
    directory = os.path.dirname(prefix)
    if directory:
        os.makedirs(directory, exist_ok=True)
    return prefix


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
    start = {}
    for t, p in zip(h["t"], h["phase"]):
        start.setdefault(p, t / T0)
    if "transition" in start:
        ax.axvspan(0., start["transition"], color="0.92", lw=0)
        ax.axvspan(start["transition"], start.get("averaging", max(h["t"]) / T0),
                   color="0.96", lw=0)
    ax.set_xlabel("time $t / T_0$ ($T_0 = L_0/\\bar v_F$): compression | transition | "
                  "averaging")
    ax.set_ylabel("macroscopic friction coefficient $|F_T/F_N|$ (-)")
    ax.set_ylim(bottom=0)
    ax.plot([], [], lw=0.6, alpha=0.5, color="0.3", label="thin: instantaneous $k_I$\n"
            "thick: its moving average")


def sweep_x(row, relaxation, length_fallback):
    if not relaxation:
        return to_float(row["point_pressure"])
    length = to_float(row.get("block_length"))
    if not length > 0.:
        length = length_fallback
    return (to_float(row["point_relaxation_time"]) * to_float(row["point_slip_velocity"])
            / length)


def plot_sweeps(ax, sweeps, labels, relaxation):
    curve = 0
    any_failed = False
    top = 0.
    for sweep, label in zip(sweeps, labels):
        rows, directory = sweep["rows"], sweep["directory"]
        others = [c for c in sweep["varying"]
                  if c != ("point_relaxation_time" if relaxation else "point_pressure")
                  and not (relaxation and c == "point_slip_velocity")]
        lengths = {to_float(r.get("block_length")) for r in rows} - {math.nan}
        lengths = {v for v in lengths if v > 0.}
        fallback = lengths.pop() if len(lengths) == 1 else None
        if relaxation and fallback is None:
            try:
                fallback = parameter_float(sweep["params"] or {}, "Geometry/Block length",
                                           "the first point's parameters.prm")
            except InputError:
                fallback = 10.
                print(f"{PROGRAM}: warning: {sweep['path']}: the cell length is not "
                      "recorded: assuming L0 = 10 mm", file=sys.stderr)
        groups = {}
        for r in rows:
            key = []
            for c in others:
                symbol, unit = SWEPT_SYMBOLS[c]
                value = shape_label(directory, r) if c == "point_shape" else r[c]
                key.append(f"{symbol} = {value} {unit}".strip() if symbol else value)
            groups.setdefault(", ".join(key), []).append(r)
        if len(groups) > 1:      # the sweep's label once, then its curves
            ax.plot([], [], ls="none", label=label)
        for key, points in groups.items():
            colour = f"C{curve % 10}"
            curve += 1
            ok = sorted((r for r in points if r["status"] == "ok"),
                        key=lambda r: sweep_x(r, relaxation, fallback))
            text = key if len(groups) > 1 else label + (f"\n{key}" if key else "")
            xs = [sweep_x(r, relaxation, fallback) for r in ok]
            ks = [to_float(r["kbar"]) for r in ok]
            spread = [abs(to_float(r.get("kbar_spread"))) if not math.isnan(
                to_float(r.get("kbar_spread"))) else 0. for r in ok]
            top = max([top] + [k + e for k, e in zip(ks, spread) if not math.isnan(k)])
            if ok:
                ax.errorbar(xs, ks, yerr=spread, fmt="o-", color=colour, capsize=3,
                            label=text)
            else:
                ax.plot([], [], "o-", color=colour, label=text + " (no successful point)")
            failed = [sweep_x(r, relaxation, fallback) for r in points
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
    parser = argparse.ArgumentParser(
        prog=PROGRAM, description=__doc__[:__doc__.index("Usage:")].strip(),
        epilog=__doc__[__doc__.index("Usage:"):],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("inputs", nargs="+", metavar="RUN_OR_SWEEP",
                        help="run output directories (with history.csv), or sweep output "
                             "directories / sweep.csv files (not both kinds)")
    parser.add_argument("-o", "--output", default="compare", metavar="PREFIX",
                        help="output file prefix: writes PREFIX.png and PREFIX.pdf "
                             "(default: %(default)s)")
    parser.add_argument("--dpi", type=float, default=150., help="PNG resolution "
                        "(default: %(default)s)")
    args = parser.parse_args(argv)

    try:
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
        prefix = output_prefix(args.output)
    except (InputError, HistoryError) as e:
        print(f"{PROGRAM}: {e}", file=sys.stderr)
        return 2

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
    # to the right of the axes, so that it never covers the curves
    legend = ax.legend(handles, texts, fontsize=8, loc="upper left",
                       bbox_to_anchor=(1.02, 1.0), borderaxespad=0., labelspacing=0.9,
                       title="differing parameters" if from_parameters else None,
                       title_fontsize=8)
    fig.tight_layout()
    try:
        for ext in ("png", "pdf"):
            write_figure(fig, f"{prefix}.{ext}", ext, args.dpi)
    except OSError as e:
        print(f"{PROGRAM}: cannot write {prefix}.png: {e.strerror}", file=sys.stderr)
        return 2
    print(f"{PROGRAM}: wrote {prefix}.png and {prefix}.pdf ({len(items)} {kind}"
          f"{'s' if len(items) > 1 else ''})")
    print("legend:")
    for text in legend.get_texts():
        print("  " + text.get_text().replace("\n", "\n  "))
    return 0


if __name__ == "__main__":
    sys.exit(main())
