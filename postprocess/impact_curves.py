#!/usr/bin/python3
"""Figures of one contact-impact output directory (catalogue of contact laws, §8), in the
style of the source studies.

Single impacts (results.csv and curves/<case>__<law>.csv; S1-S3), one figure per case and
kind, every law of the run in it:
  PREFIX_<case>_hysteresis.png   force-indentation loops F(delta)       (S000 Fig. 3)
  PREFIX_<case>_phase.png        phase portraits delta_dot(delta)       (S000 Fig. 4)
  PREFIX_<case>_force_time.png   force histories F(t), with the measured peak force
                                 if the case has one                    (S000 §4)
Damping factors (damping_factors.csv; S0):
  PREFIX_damping_factors.png     chi delta_dot_minus / K against c_r of every law,
                                 linear axis (0 to --ymax) and logarithmic axis
                                                                        (S000 Fig. 2)
Each figure is also written as PDF. Units: N (kN above 10 kN), mm, mm/s, and us or ms for
the time. PREFIX defaults to the name of OUTPUT_DIR (files in the current directory); a
PREFIX with a directory part writes there (the directory is created).

Usage: impact_curves.py OUTPUT_DIR [-o PREFIX] [--cases CASE ...] [--laws LAW ...]
                        [--ymax 6] [--png-only]
(OUTPUT_DIR first, or end a --cases/--laws list with --.)
Example:
  build/contact-impact params/impact/ball-on-specimen.prm --output-directory /tmp/s2
  postprocess/impact_curves.py /tmp/s2 -o /tmp/figures/s2 --cases C2-mod

Exit status 0 on success, 2 if an input file is missing, truncated or malformed, or if a
--cases/--laws name is not in the run. Needs Debian's python3-numpy and
python3-matplotlib. The plotting functions are imported by contact_laws_page.py.
"""
import argparse
import csv
import os
import re
import sys

import numpy as np
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PROGRAM = "impact_curves"

RESULT_COLUMNS = ["case", "law", "F_max", "delta_max", "contact_duration", "v_out",
                  "c_r_effective", "dissipated_energy", "c_r_input",
                  "residual_indentation", "separation", "measured_F_max",
                  "F_max_error_percent"]
# numeric columns that must hold a number in every row, and those that may be empty
RESULT_NUMBERS = ["F_max", "delta_max", "contact_duration", "v_out", "c_r_effective",
                  "dissipated_energy"]
RESULT_OPTIONAL_NUMBERS = ["c_r_input", "residual_indentation", "measured_F_max",
                           "F_max_error_percent"]
CURVE_COLUMNS = ["t", "delta", "delta_dot", "force"]
DAMPING_COLUMNS = ["law", "c_r", "factor"]
KINDS = ["hysteresis", "phase", "force_time"]
LINESTYLES = ["-", "--", "-.", ":"]
# tab10, then darker colours for runs with more than ten laws (S0 has 14)
COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf", "#000080", "#808000", "#800000", "#008080",
           "#ff1493", "#4b0082"]


class InputError(Exception):
    """A missing, truncated or malformed input file, or a bad selection (exit status 2)."""


# ---------------------------------------------------------------------------------------
# reading

def read_csv(path, columns, numbers=(), optional_numbers=()):
    """Header and rows (dicts) of a CSV file that must have `columns`; `numbers` must hold
    a number in every row (converted to float), `optional_numbers` a number or nothing
    (float or None). Raises InputError naming the file if it is missing, empty,
    truncated (no end of line after the last line, a row with too few fields, no data
    row) or malformed."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"{path}: cannot be read ({e})") from None
    if not text.strip():
        raise InputError(f"{path}: empty file")
    if not text.endswith("\n"):
        raise InputError(f"{path}: truncated (no end of line after the last line)")
    reader = csv.reader(text.splitlines())
    header = [h.strip() for h in next(reader)]
    missing = [c for c in columns if c not in header]
    if missing:
        raise InputError(f"{path}: no column {', '.join(missing)} (the header is "
                         f"{','.join(header)})")
    rows = []
    for line, fields in enumerate(reader, start=2):
        if not fields:
            continue
        if len(fields) != len(header):
            raise InputError(f"{path}, line {line}: {len(fields)} fields where the header "
                             f"has {len(header)} (truncated or malformed file)")
        row = dict(zip(header, (v.strip() for v in fields)))
        for c in list(numbers) + list(optional_numbers):
            value = row[c]
            if value == "" and c in optional_numbers:
                row[c] = None
                continue
            try:
                row[c] = float(value)
            except ValueError:
                raise InputError(f"{path}, line {line}: {c} = '{value}' is not a "
                                 "number") from None
        rows.append(row)
    if not rows:
        raise InputError(f"{path}: no data rows (truncated file?)")
    return header, rows


def read_results(directory):
    """Rows of DIR/results.csv (numbers as float, empty optional numbers as None)."""
    _, rows = read_csv(os.path.join(directory, "results.csv"), RESULT_COLUMNS,
                       RESULT_NUMBERS, RESULT_OPTIONAL_NUMBERS)
    return rows


def curve_path(directory, case, law):
    return os.path.join(directory, "curves", f"{case}__{law}.csv")


def read_curve(path):
    """The columns t (s), delta (mm), delta_dot (mm/s), force (N) of a curve file as
    numpy arrays (dict)."""
    _, rows = read_csv(path, CURVE_COLUMNS, CURVE_COLUMNS)
    if len(rows) < 2:
        raise InputError(f"{path}: only {len(rows)} sample (truncated file?)")
    return {c: np.array([r[c] for r in rows]) for c in CURVE_COLUMNS}


def read_damping_factors(directory):
    """{law: (c_r array, factor array)} of DIR/damping_factors.csv, laws in file order."""
    path = os.path.join(directory, "damping_factors.csv")
    _, rows = read_csv(path, DAMPING_COLUMNS, ["c_r", "factor"])
    laws = {}
    for r in rows:
        laws.setdefault(r["law"], []).append((r["c_r"], r["factor"]))
    return {law: (np.array([p[0] for p in points]), np.array([p[1] for p in points]))
            for law, points in laws.items()}


def read_parameters(directory):
    """{"Section/Entry": (value, default or None)} of DIR/parameters.prm (the listing the
    program writes); {} if there is none. The default is the "# default:" annotation the
    listing has where the value differs from it."""
    path = os.path.join(directory, "parameters.prm")
    if not os.path.isfile(path):
        return {}
    entries = {}
    section = []
    try:
        with open(path, encoding="utf-8") as f:
            for raw in f:
                line, _, comment = raw.strip().partition("#")
                line = line.strip()
                if line.startswith("subsection "):
                    section.append(line[len("subsection "):].strip())
                elif line == "end":
                    if section:
                        section.pop()
                elif line.startswith("set ") and "=" in line:
                    key, value = line[4:].split("=", 1)
                    default = None
                    if comment.strip().startswith("default:"):
                        default = comment.strip()[len("default:"):].strip()
                    entries["/".join(section + [key.strip()])] = (value.strip(), default)
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"{path}: cannot be read ({e})") from None
    return entries


def parameter(parameters, key, fallback=""):
    return parameters[key][0] if key in parameters else fallback


def split_list(value):
    return [v.strip() for v in value.split(",")] if value.strip() else []


def case_values(parameters, entry, cases):
    """Per-case values of the list Cases/<entry> (one value per case, one for all, or
    empty): {case: string or None}."""
    values = split_list(parameter(parameters, f"Cases/{entry}"))
    if len(values) == 1:
        values = values * len(cases)
    if len(values) != len(cases):
        return {c: None for c in cases}
    return dict(zip(cases, values))


def scenario_label(title, fallback):
    """The catalogue label of a scenario ("S2") from its title, or `fallback`."""
    match = re.match(r"S(\d+)(?!\w)", title.strip())
    return f"S{match.group(1)}" if match else fallback


def ordered_unique(values):
    seen = []
    for v in values:
        if v not in seen:
            seen.append(v)
    return seen


def select(available, wanted, what, path):
    """`available` restricted to `wanted` (all if None), in the order of `available`."""
    if wanted is None:
        return list(available)
    unknown = [w for w in wanted if w not in available]
    if unknown:
        raise InputError(f"{path}: no {what} {', '.join(unknown)} (there are: "
                         f"{', '.join(available)})")
    return [a for a in available if a in wanted]


# ---------------------------------------------------------------------------------------
# units and styles

def time_unit(t_max):
    """(factor, label) that show times up to t_max (s) in us or ms."""
    return (1e6, "µs") if t_max < 1e-3 else (1e3, "ms")


def force_unit(f_max):
    return (1e-3, "kN") if f_max >= 1e4 else (1.0, "N")


def law_styles(laws):
    """Consistent line style per law: hertz (elastic reference) thin black, the others
    tab10 colours with alternating dash patterns so coinciding curves stay visible."""
    styles = {}
    k = 0
    for law in laws:
        if law == "hertz":
            styles[law] = dict(color="black", linestyle=(0, (1, 1)), linewidth=1.2)
        else:
            styles[law] = dict(color=COLOURS[k % len(COLOURS)],
                               linestyle=LINESTYLES[k % len(LINESTYLES)], linewidth=1.4)
            k += 1
    return styles


def save(fig, prefix, name, formats, dpi):
    """Writes PREFIX_name.<format> for every format; returns the PNG path (or the first)."""
    directory = os.path.dirname(prefix)
    if directory:
        os.makedirs(directory, exist_ok=True)
    paths = []
    for ext in formats:
        path = f"{prefix}_{name}.{ext}"
        fig.savefig(path, dpi=dpi, bbox_inches="tight")
        paths.append(path)
    plt.close(fig)
    return next((p for p in paths if p.endswith(".png")), paths[0])


def outside_legend(ax, title=None):
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0,
              fontsize=8, title=title, title_fontsize=8, frameon=False)


# ---------------------------------------------------------------------------------------
# figures

def plot_case(case, curves, prefix, title="", subtitle="", measured_peak=None,
              formats=("png", "pdf"), dpi=150):
    """The three figures of one case. `curves` is {law: curve dict} (read_curve), `title`
    the scenario's label ("S2"), `subtitle` more about the case ("input c_r = 0.7"),
    `measured_peak` the experiment's peak force in N (drawn in the force history).
    Returns {kind: path of the PNG}."""
    styles = law_styles(list(curves))
    t_max = max(c["t"].max() for c in curves.values())
    f_max = max(c["force"].max() for c in curves.values())
    tf, tlabel = time_unit(t_max)
    ff, flabel = force_unit(max(f_max, measured_peak or 0.0))
    v_in = next(iter(curves.values()))["delta_dot"][0]
    heading = (f"{title + ', ' if title else ''}case {case}: "
               rf"$\dot\delta^{{(-)}}$ = {v_in:.4g} mm/s{', ' + subtitle if subtitle else ''}")
    written = {}

    fig, ax = plt.subplots(figsize=(7.0, 4.4))
    for law, c in curves.items():
        ax.plot(c["delta"], c["force"] * ff, label=law, **styles[law])
    ax.set_xlabel(r"indentation $\delta$ (mm)")
    ax.set_ylabel(f"contact force $F$ ({flabel})")
    ax.set_title(f"{heading}\nforce–indentation hysteresis loops", fontsize=10)
    ax.set_xlim(left=0)
    ax.axhline(0, color="0.5", lw=0.5)
    ax.grid(alpha=0.3)
    outside_legend(ax, "law")
    written["hysteresis"] = save(fig, prefix, f"{case}_hysteresis", formats, dpi)

    fig, ax = plt.subplots(figsize=(7.0, 4.4))
    for law, c in curves.items():
        ax.plot(c["delta"], c["delta_dot"], label=law, **styles[law])
    ax.set_xlabel(r"indentation $\delta$ (mm)")
    ax.set_ylabel(r"indentation rate $\dot\delta$ (mm/s)")
    ax.set_title(f"{heading}\nphase portraits (compression: "
                 r"$\dot\delta > 0$, restitution: $\dot\delta < 0$)", fontsize=10)
    ax.set_xlim(left=0)
    ax.axhline(0, color="0.5", lw=0.5)
    ax.grid(alpha=0.3)
    outside_legend(ax, "law")
    written["phase"] = save(fig, prefix, f"{case}_phase", formats, dpi)

    peaks = [c["force"].max() for c in curves.values()]
    zoom = len(curves) > 1 and max(peaks) - min(peaks) < 0.15 * max(peaks)
    if zoom:  # the peaks nearly coincide (S1, S2): a second panel zooms on them
        fig, (ax, near) = plt.subplots(1, 2, figsize=(10.0, 4.4),
                                       gridspec_kw={"width_ratios": [2, 1]})
    else:
        fig, ax = plt.subplots(figsize=(7.0, 4.4))
    for law, c in curves.items():
        ax.plot(c["t"] * tf, c["force"] * ff, label=law, **styles[law])
    if measured_peak is not None:
        ax.axhline(measured_peak * ff, color="0.3", lw=1.0, linestyle=(0, (6, 3)),
                   label=f"measured peak force\n({measured_peak:g} N)")
    ax.set_xlabel(f"time $t$ ({tlabel})")
    ax.set_ylabel(f"contact force $F$ ({flabel})")
    ax.set_xlim(left=0)
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    if zoom:
        shown = peaks + ([measured_peak] if measured_peak is not None else [])
        low, high = min(shown), max(shown)
        margin = 0.08 * (high - low) + 1e-3 * high
        t_peaks = [c["t"][np.argmax(c["force"])] for c in curves.values()]
        t_margin = 0.1 * t_max
        for law, c in curves.items():
            near.plot(c["t"] * tf, c["force"] * ff, label=law, **styles[law])
        if measured_peak is not None:
            near.axhline(measured_peak * ff, color="0.3", lw=1.0, linestyle=(0, (6, 3)),
                         label=f"measured peak force\n({measured_peak:g} N)")
        near.set_xlim((min(t_peaks) - t_margin) * tf, (max(t_peaks) + t_margin) * tf)
        near.set_ylim((low - margin) * ff, (high + margin) * ff)
        near.set_xlabel(f"time $t$ ({tlabel})")
        near.set_ylabel(f"contact force $F$ ({flabel})")
        near.set_title("near the peaks", fontsize=9)
        near.grid(alpha=0.3)
        ax.set_title("whole contact", fontsize=9)
        fig.suptitle(f"{heading}\nforce histories", fontsize=10)
        outside_legend(near, "law")
        fig.tight_layout()
    else:
        ax.set_title(f"{heading}\nforce histories", fontsize=10)
        outside_legend(ax, "law")
    written["force_time"] = save(fig, prefix, f"{case}_force_time", formats, dpi)
    return written


def case_subtitle(rows):
    """"input c_r = 0.974" of a case from its results rows ("" if the laws differ)."""
    parts = []
    c_r = ordered_unique(r["c_r_input"] for r in rows if r["c_r_input"] is not None)
    if len(c_r) == 1:
        parts.append(f"input $c_r$ = {c_r[0]:.4g}")
    return ", ".join(parts)


def plot_single_impacts(directory, prefix, cases=None, laws=None, formats=("png", "pdf"),
                        dpi=150):
    """All figures of a single-impacts run. Returns [(case, kind, PNG path)]."""
    rows = read_results(directory)
    results = os.path.join(directory, "results.csv")
    all_cases = ordered_unique(r["case"] for r in rows)
    all_laws = ordered_unique(r["law"] for r in rows)
    chosen_cases = select(all_cases, cases, "case", results)
    chosen_laws = select(all_laws, laws, "law", results)
    parameters = read_parameters(directory)
    label = scenario_label(parameter(parameters, "Impact/Title"), "")
    written = []
    for case in chosen_cases:
        case_rows = [r for r in rows if r["case"] == case]
        curves = {law: read_curve(curve_path(directory, case, law)) for law in chosen_laws
                  if any(r["law"] == law for r in case_rows)}
        if not curves:
            continue
        measured = ordered_unique(r["measured_F_max"] for r in case_rows
                                  if r["measured_F_max"] is not None)
        figures = plot_case(case, curves, prefix, label, case_subtitle(case_rows),
                            measured[0] if len(measured) == 1 else None, formats, dpi)
        written += [(case, kind, figures[kind]) for kind in KINDS]
    return written


def plot_damping_factors(directory, prefix, laws=None, formats=("png", "pdf"), dpi=150,
                         ymax=6.0):
    """chi delta_dot_minus / K against c_r (S000 Fig. 2). Returns the PNG path."""
    factors = read_damping_factors(directory)
    chosen = select(list(factors), laws, "law",
                    os.path.join(directory, "damping_factors.csv"))
    styles = law_styles(chosen)
    fig, (linear, logarithmic) = plt.subplots(1, 2, figsize=(11.5, 4.6))
    for law in chosen:
        c_r, f = factors[law]
        linear.plot(c_r, f, label=law, **styles[law])
        positive = f > 0
        logarithmic.plot(c_r[positive], f[positive], label=law, **styles[law])
    linear.set_ylim(0, ymax)
    logarithmic.set_yscale("log")
    for ax in (linear, logarithmic):
        ax.set_xlim(0, 1)
        ax.set_xlabel("coefficient of restitution $c_r$ (-)")
        ax.set_ylabel(r"damping factor $\chi\,\dot\delta^{(-)}/K$ (-)")
        ax.grid(alpha=0.3, which="both" if ax is logarithmic else "major")
    linear.set_title(f"linear axis (0 to {ymax:g})", fontsize=10)
    logarithmic.set_title("logarithmic axis, all values > 0", fontsize=10)
    parameters = read_parameters(directory)
    label = scenario_label(parameter(parameters, "Impact/Title"), "")
    fig.suptitle(f"{label + ': ' if label else ''}damping factors of the Hunt–Crossley "
                 r"family, $F = K\delta^n(1 + (\chi/K)\,\dot\delta)$", fontsize=11)
    outside_legend(logarithmic, "law")
    fig.tight_layout()
    return save(fig, prefix, "damping_factors", formats, dpi)


def plot_directory(directory, prefix, cases=None, laws=None, formats=("png", "pdf"),
                   dpi=150, ymax=6.0):
    """Every figure this script knows for the run in `directory`: [(case, kind, PNG)]
    (case "" for the damping factors). Raises InputError if the directory has neither
    results.csv nor damping_factors.csv."""
    if not os.path.isdir(directory):
        raise InputError(f"{directory}: no such directory")
    written = []
    has_results = os.path.exists(os.path.join(directory, "results.csv"))
    has_factors = os.path.exists(os.path.join(directory, "damping_factors.csv"))
    if has_results:
        written += plot_single_impacts(directory, prefix, cases, laws, formats, dpi)
    if has_factors:
        written.append(("", "damping_factors",
                        plot_damping_factors(directory, prefix, laws, formats, dpi, ymax)))
    if not has_results and not has_factors:
        others = sorted(f for f in os.listdir(directory) if f.endswith(".csv"))
        raise InputError(f"{directory}: no results.csv or damping_factors.csv"
                         + (f" (this script does not plot {', '.join(others)})"
                            if others else ""))
    return written


def main(argv=None):
    parser = argparse.ArgumentParser(prog="impact_curves.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("directory", metavar="OUTPUT_DIR",
                        help="output directory of one contact-impact run")
    parser.add_argument("-o", "--output", metavar="PREFIX",
                        help="prefix of the figure files (default: the name of OUTPUT_DIR)")
    parser.add_argument("--cases", nargs="+", metavar="CASE",
                        help="only these cases (default: all)")
    parser.add_argument("--laws", nargs="+", metavar="LAW",
                        help="only these laws (default: all)")
    parser.add_argument("--ymax", type=float, default=6.0,
                        help="upper limit of the linear damping-factor axis "
                             "(default: %(default)s)")
    parser.add_argument("--png-only", action="store_true", help="no PDF files")
    parser.add_argument("--dpi", type=int, default=150, help="PNG resolution "
                        "(default: %(default)s)")
    args = parser.parse_args(argv)
    prefix = args.output or os.path.basename(os.path.normpath(args.directory))
    # "-o plot.png" names the files plot_<case>_<kind>.png, not plot.png_<case>_...
    prefix = prefix.removesuffix(".png").removesuffix(".pdf")
    formats = ("png",) if args.png_only else ("png", "pdf")
    written = plot_directory(args.directory, prefix, args.cases, args.laws, formats,
                             args.dpi, args.ymax)
    for _, _, path in written:
        print(f"{PROGRAM}: wrote {path}" + ("" if args.png_only else " (and .pdf)"))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except InputError as e:
        print(f"{PROGRAM}: {e}", file=sys.stderr)
        sys.exit(2)
