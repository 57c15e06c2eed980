"""Reading and drawing the outputs of the contact-impact program (catalogue of contact
laws, §8): the library behind impact_curves.py (the figures of one output directory) and
contact_laws_page.py (the results page docs/contact-laws.md).

Readers return numbers in the program's units (mm, s, N, t, N mm) and raise
common.InputError naming the file (and the line) for a missing, truncated or malformed
file. Each plot_* function writes its figures as PREFIX_<kind>.<format> (atomically) and
returns the PNG paths; the figures it knows are listed in impact_curves.py --help.
"""
import csv
import math
import os
import re

import numpy as np
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import common  # noqa: E402
from common import InputError, outside_legend  # noqa: E402

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


# ---------------------------------------------------------------------------------------
# reading: single impacts (S1-S3), damping factors (S0), parameters

def number(value, column, path, line, optional=False):
    """`value` (text) of `column` as a float; None if it is empty and `optional`;
    InputError naming the file and the line if it is no number."""
    if value == "" and optional:
        return None
    try:
        return float(value)
    except ValueError:
        raise InputError(f"{path}, line {line}: {column} = '{value}' is not a "
                         "number") from None


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
            row[c] = number(row[c], c, path, line, c in optional_numbers)
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
    return {key: (value, comment[len("default:"):].strip()
                  if comment.startswith("default:") else None)
            for key, (value, comment) in common.parameter_entries(path).items()}


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
# reading: granular chain (S4), optimal damping (S6, S7), two pendulums (S8)

CHAIN_FORCES = "chain_forces.csv"
CHAIN_BALANCE = "chain_balance.csv"
CHAIN_SUMMARY = "chain_summary.csv"
BALANCE_COLUMNS = ["t", "momentum", "kinetic_energy", "stored_energy", "work",
                   "damping_dissipation", "history_energy"]
SUMMARY_COLUMNS = ["quantity", "bead", "value", "unit"]
SENSOR_COLUMN = re.compile(r"^F_bead_(\d+)$")
# optimal_damping_<part>.csv: the parts of S6 and the files they write
SWEEP_PARTS = {"a": ("m_eff", "slope_mass", "exponent_mass"),
               "b": ("v0", "slope_velocity", "exponent_velocity"),
               "c": ("k", "slope_stiffness", "exponent_stiffness")}
SWEEP_COLUMNS = ["n", "m_eff", "v0", "k", "e", "c", "e_out", "relative_error", "impacts",
                 "zeta", "c_eq49"]
SLOPE_COLUMNS = ["n", "slope_mass", "exponent_mass", "slope_velocity", "exponent_velocity",
                 "slope_stiffness", "exponent_stiffness"]
FIT_COLUMNS = ["n", "alpha_fit", "beta_fit", "alpha_S004", "beta_S004", "rms_residual",
               "rms_residual_S004", "max_relative_error_fit", "max_relative_error_S004"]
RANDOM_COLUMNS = ["index", "n", "m_eff", "v0", "k", "e", "c", "e_out", "abs_error",
                  "relative_error"]
BIN_COLUMNS = ["e_low", "e_high", "systems", "max_abs_error", "max_relative_error"]
KELVIN_VOIGT_COLUMNS = ["e", "c", "xi", "e_exact_B4", "e_simulated", "error_B4",
                        "error_simulated"]
OPTIMAL_DAMPING_FILES = {  # file: its columns
    "optimal_damping_a.csv": SWEEP_COLUMNS, "optimal_damping_b.csv": SWEEP_COLUMNS,
    "optimal_damping_c.csv": SWEEP_COLUMNS, "optimal_damping_d.csv": SWEEP_COLUMNS,
    "optimal_damping_slopes.csv": SLOPE_COLUMNS, "optimal_damping_fit.csv": FIT_COLUMNS,
    "optimal_damping_e.csv": RANDOM_COLUMNS, "optimal_damping_e_bins.csv": BIN_COLUMNS,
    "kelvin_voigt_check.csv": KELVIN_VOIGT_COLUMNS}
PENDULUM_COLUMNS = ["t", "theta1", "theta2", "theta1_dot", "theta2_dot", "force"]
IMPACT_COLUMNS = ["time", "end_time", "approach_velocity", "separation_velocity",
                  "restitution", "effective_mass", "theta1_dot_before", "theta2_dot_before",
                  "theta1_dot_after", "theta2_dot_after", "impulse", "max_force",
                  "max_indentation", "residual_indentation", "dissipated_energy", "steps",
                  "separation"]
PENDULUM_FILE = re.compile(r"^pendulums_(.+)\.csv$")


def read_numeric(path, columns, text=(), optional=(), min_rows=1):
    """Header and {column: numpy array} of a CSV file that must have `columns`; every
    column not in `text` must hold a number in every row (`optional` ones may be empty:
    NaN); `text` columns are returned as lists of strings. Raises InputError naming the
    file (and the row) as read_csv does, and if it has fewer than `min_rows` rows."""
    header, rows = read_csv(path, columns)
    if len(rows) < min_rows:
        raise InputError(f"{path}: only {len(rows)} data row(s), at least {min_rows} "
                         "expected (truncated file?)")
    data = {}
    for h in header:
        values = [r[h] for r in rows]
        if h in text:
            data[h] = values
            continue
        try:
            data[h] = np.array(values, dtype=float)
            continue
        except ValueError:
            pass
        numbers = [number(v, h, path, line, h in optional)
                   for line, v in enumerate(values, start=2)]
        data[h] = np.array([np.nan if v is None else v for v in numbers])
    return header, data


def read_chain(directory):
    """The granular chain run of DIR (S4): {"t": s, "sensors": [bead], "force": array
    [sensor, sample] (N), "balance": {column: array} (t mm/s, N mm), "peaks": {bead:
    {"peak_force" N, "peak_time" s, "segment_speed" mm/s}}, "scalars": {quantity: (value,
    unit)}} from chain_forces.csv, chain_balance.csv and chain_summary.csv."""
    path = os.path.join(directory, CHAIN_FORCES)
    header, forces = read_numeric(path, ["t"], min_rows=2)
    sensors = [int(m.group(1)) for m in map(SENSOR_COLUMN.match, header) if m]
    if not sensors:
        raise InputError(f"{path}: no column F_bead_<i> (the header is {','.join(header)})")
    _, balance = read_numeric(os.path.join(directory, CHAIN_BALANCE), BALANCE_COLUMNS,
                              min_rows=2)
    path = os.path.join(directory, CHAIN_SUMMARY)
    _, summary = read_numeric(path, SUMMARY_COLUMNS, text=("quantity", "bead", "unit"),
                              optional=("value",))
    peaks, scalars = {}, {}
    for quantity, bead, value, unit in zip(summary["quantity"], summary["bead"],
                                           summary["value"], summary["unit"]):
        if bead:
            if not re.fullmatch(r"\d+", bead):
                raise InputError(f"{path}: bead '{bead}' of {quantity} is not a bead index")
            peaks.setdefault(int(bead), {})[quantity] = float(value)
        else:
            scalars[quantity] = (float(value), unit)
    for bead in sensors:
        missing = [q for q in ("peak_force", "peak_time") if q not in peaks.get(bead, {})]
        if missing:
            raise InputError(f"{path}: no {' and '.join(missing)} of sensor bead {bead} "
                             f"(a column of {CHAIN_FORCES}; truncated file?)")
        peaks[bead].setdefault("segment_speed", float("nan"))
    return {"t": forces["t"], "sensors": sensors,
            "force": np.array([forces[f"F_bead_{b}"] for b in sensors]),
            "balance": balance, "peaks": peaks, "scalars": scalars}


def read_optimal_damping(directory, name):
    """{column: array} of one file of the optimal-damping run (OPTIMAL_DAMPING_FILES)."""
    _, data = read_numeric(os.path.join(directory, name), OPTIMAL_DAMPING_FILES[name],
                           min_rows=1)
    return data


def pendulum_models(directory, parameters=None):
    """The models of a two-pendulum run that have a pendulums_<model>.csv, in the order of
    the parameter Two pendulums/Models (the others after them, sorted)."""
    found = sorted(m.group(1) for m in map(PENDULUM_FILE.match, os.listdir(directory)) if m)
    listed = split_list(parameter(parameters or {}, "Two pendulums/Models"))
    return [m for m in listed if m in found] + [m for m in found if m not in listed]


def read_pendulums(directory, model):
    """{column: array} of pendulums_<model>.csv (s, rad, rad/s, N)."""
    _, data = read_numeric(os.path.join(directory, f"pendulums_{model}.csv"),
                           PENDULUM_COLUMNS, min_rows=2)
    return data


def first_contact_path(directory, model):
    return os.path.join(directory, f"first_contact_{model}.csv")


def read_impacts(directory, model):
    """Rows (dicts, numbers as float) of impacts_<model>.csv, one per impact; [] if the
    file has only its header line (no impact)."""
    path = os.path.join(directory, f"impacts_{model}.csv")
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"{path}: cannot be read ({e})") from None
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) == 1 and text.endswith("\n"):
        header = [h.strip() for h in lines[0].split(",")]
        missing = [c for c in IMPACT_COLUMNS if c not in header]
        if missing:
            raise InputError(f"{path}: no column {', '.join(missing)} (the header is "
                             f"{','.join(header)})")
        return []
    _, rows = read_csv(path, IMPACT_COLUMNS, IMPACT_COLUMNS[:-1])
    return rows


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
    """Writes PREFIX_name.<format> for every format (atomically; the directory created)
    and closes the figure; returns the PNG path (or the first)."""
    paths = common.save_figure(fig, common.output_prefix(f"{prefix}_{name}", ()), dpi,
                               formats)
    return next((p for p in paths if p.endswith(".png")), paths[0])


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


# ---------------------------------------------------------------------------------------
# figures: granular chain (S4), optimal damping (S6, S7), two pendulums (S8)

def scenario_title(directory):
    """"S4: " from the title of the run in DIR ("" if it has none)."""
    label = scenario_label(parameter(read_parameters(directory), "Impact/Title"), "")
    return f"{label}: " if label else ""


def below_legend(ax, title=None, ncol=1):
    """A legend under the axes (for panels side by side, where outside_legend would cover
    the next panel)."""
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), borderaxespad=0.0,
              fontsize=8, title=title, title_fontsize=8, frameon=False, ncol=ncol)


def fixed(x, decimals):
    """x with `decimals` decimals, without the sign of a negative zero ("0.0000")."""
    text = f"{x:.{decimals}f}"
    return text[1:] if re.fullmatch(r"-0\.?0*", text) else text


def nearest_values(available, wanted):
    """The values of `available` nearest to each of `wanted`, without repeats, ascending."""
    available = np.unique(np.asarray(available, dtype=float))
    return sorted({float(available[np.abs(available - w).argmin()]) for w in wanted})


def model_styles(models):
    """law_styles, with the piecewise "impulse" model as the black dotted reference, drawn
    on top (it nearly coincides with hertz_linear_damping_optimal)."""
    styles = law_styles([m for m in models if m != "impulse"])
    styles["impulse"] = dict(color="black", linestyle=(0, (1, 1.5)), linewidth=1.4,
                             zorder=3)
    return {m: styles[m] for m in models}


def plot_granular_chain(directory, prefix, formats=("png", "pdf"), dpi=150):
    """S4 figures (S003 §5.2): force histories of the sensor beads, their peak force and
    peak time against the bead index (with the least-squares wave speed), and the energy
    balance. Returns [(kind, PNG path)]."""
    chain = read_chain(directory)
    parameters = read_parameters(directory)
    title = scenario_title(directory)
    t, sensors, force, peaks = chain["t"], chain["sensors"], chain["force"], chain["peaks"]
    law = parameter(parameters, "Granular chain/Law", "")
    v0 = parameter(parameters, "Granular chain/Striker velocity", "")
    heading = (f"{title}granular chain" + (f", law {law}" if law else "")
               + (f", striker at {v0} mm/s" if v0 else ""))
    colours = plt.cm.viridis(np.linspace(0.0, 0.9, len(sensors)))
    written = []

    # force histories up to the end of the last pulse (1 % of its peak), with a margin
    ends = []
    for k in range(len(sensors)):
        above = np.nonzero(force[k] > 0.01 * max(force[k].max(), 1e-300))[0]
        ends.append(t[above[-1]] if len(above) else t[-1])
    t_show = min(t[-1], 1.08 * max(ends))
    tf, tlabel = time_unit(t_show)
    ff, flabel = force_unit(force.max())
    fig, ax = plt.subplots(figsize=(8.0, 4.4))
    for k, bead in enumerate(sensors):
        ax.plot(t * tf, force[k] * ff, color=colours[k], lw=1.3, label=f"bead {bead}")
        ax.plot(peaks[bead]["peak_time"] * tf, peaks[bead]["peak_force"] * ff, "o",
                color=colours[k], ms=3.5)
    ax.set_xlim(0, t_show * tf)
    ax.set_ylim(bottom=0)
    ax.set_xlabel(f"time $t$ ({tlabel})")
    ax.set_ylabel(f"sensor force $F$ ({flabel})")
    ax.set_title(f"{heading}\nforce at the sensor beads (mean of the two contact forces on "
                 "the bead; dots: peaks)", fontsize=10)
    ax.grid(alpha=0.3)
    outside_legend(ax, "sensor")
    written.append(("chain_force_time",
                    save(fig, prefix, "chain_force_time", formats, dpi)))

    # peak force and peak time against the bead index
    beads = np.array(sensors, dtype=float)
    peak_force = np.array([peaks[b]["peak_force"] for b in sensors])
    peak_time = np.array([peaks[b]["peak_time"] for b in sensors])
    speed = chain["scalars"].get("wave_speed", (float("nan"), ""))[0]
    radius = parameter(parameters, "Granular chain/Bead radius", "")
    fig, (left, right) = plt.subplots(1, 2, figsize=(11.5, 4.4))
    left.plot(beads, peak_force * ff, "o-", color=COLOURS[0], lw=1.2, ms=5,
              label="peak force")
    left.set_ylim(0, 1.1 * peak_force.max() * ff)
    left.set_ylabel(f"peak sensor force $F_\\mathrm{{max}}$ ({flabel})")
    left.set_title("peak force along the chain", fontsize=10)
    tf, tlabel = time_unit(peak_time.max())
    right.plot(beads, peak_time * tf, "o", color=COLOURS[1], ms=5, label="peak time")
    j = np.linspace(max(beads.min() - 3, 1), beads.max() + 3, 2)
    if len(sensors) >= 2 and math.isfinite(speed) and radius:
        # the least-squares line of the program: x = 2R (j - 1) = c t + b over the sensors
        x = 2.0 * float(radius) * (beads - 1)
        b = x.mean() - speed * peak_time.mean()
        right.plot(j, (2.0 * float(radius) * (j - 1) - b) / speed * tf, "--",
                   color="0.3", lw=1.0,
                   label=f"least-squares fit,\nwave speed {speed * 1e-3:.4g} m/s")
    elif len(sensors) >= 2:
        slope, intercept = np.polyfit(beads, peak_time, 1)
        right.plot(j, (slope * j + intercept) * tf, "--", color="0.3", lw=1.0,
                   label="least-squares line")
    right.set_ylim(bottom=0)
    right.set_ylabel(f"peak time $t_\\mathrm{{max}}$ ({tlabel})")
    right.set_title("arrival of the peak"
                    + (f" (wave speed {speed * 1e-3:.4g} m/s)" if math.isfinite(speed)
                       else ""), fontsize=10)
    for ax in (left, right):
        ax.set_xlim(0, beads.max() + 5)
        ax.set_xlabel("bead index $j$ (-), bead 1 struck first")
        ax.grid(alpha=0.3)
    fig.suptitle(f"{heading}: sensor peaks", fontsize=11)
    outside_legend(right)
    fig.tight_layout()
    written.append(("chain_peaks", save(fig, prefix, "chain_peaks", formats, dpi)))

    # energy balance
    bal = chain["balance"]
    tb = bal["t"]
    tf, tlabel = time_unit(tb[-1])
    total = (bal["kinetic_energy"] + bal["stored_energy"] + bal["damping_dissipation"]
             - bal["history_energy"])
    fig, ax = plt.subplots(figsize=(8.0, 4.4))
    for key, label, style in [
            ("kinetic_energy", "kinetic energy $T$", dict(color=COLOURS[0], ls="-")),
            ("stored_energy", "stored energy $U$", dict(color=COLOURS[1], ls="-")),
            ("damping_dissipation", "damping dissipation $D$", dict(color=COLOURS[2],
                                                                    ls="-")),
            ("history_energy", "history energy $H$", dict(color=COLOURS[3], ls="-")),
            ("work", "work of the contacts $W$", dict(color=COLOURS[4], ls="--"))]:
        ax.plot(tb * tf, bal[key], lw=1.3, label=label, **style)
    ax.plot(tb * tf, total, color="black", ls=(0, (1, 1)), lw=1.3,
            label="$T + U + D - H$ (= $T(0)$)")
    ax.set_xlim(0, tb[-1] * tf)
    ax.set_ylim(bottom=min(0.0, float(np.min(total))))
    ax.set_xlabel(f"time $t$ ({tlabel})")
    ax.set_ylabel("energy (N mm)")
    ax.set_title(f"{heading}\nenergy balance of the chain", fontsize=10)
    ax.grid(alpha=0.3)
    outside_legend(ax)
    written.append(("chain_balance", save(fig, prefix, "chain_balance", formats, dpi)))
    return written


def plot_optimal_damping(directory, prefix, exponents=(1.0, 1.5, 2.0),
                         formats=("png", "pdf"), dpi=150):
    """S6 and S7 figures (S004 §§4–5), of the files the run has: ln c against ln m_eff,
    ln delta_dot_minus, ln k for the n nearest to `exponents` (sweeps (a)–(c)); zeta =
    c/damping scale against e with the fit and S004 eq.(47) ((d)); alpha(n), beta(n);
    |e_out - e| of the random check ((e)); e_B4 - e of the Kelvin–Voigt check (S7).
    Returns [(kind, PNG path)]; raises InputError if the run has none of these files."""
    have = {name for name in OPTIMAL_DAMPING_FILES
            if os.path.exists(os.path.join(directory, name))}
    if not have:
        raise InputError(f"{directory}: no optimal-damping file "
                         f"({', '.join(OPTIMAL_DAMPING_FILES)})")
    written = []

    sweeps = [p for p in "abc" if f"optimal_damping_{p}.csv" in have]
    if sweeps:
        slopes = (read_optimal_damping(directory, "optimal_damping_slopes.csv")
                  if "optimal_damping_slopes.csv" in have else None)
        labels = {"a": (r"$\ln m_\mathrm{eff}$ ($m_\mathrm{eff}$ in t)", "mass", "n/(n+1)"),
                  "b": (r"$\ln \dot\delta^{(-)}$ ($\dot\delta^{(-)}$ in mm/s)", "velocity",
                        "(n-1)/(n+1)"),
                  "c": (r"$\ln k$ ($k$ in N/mm$^n$)", "stiffness", "1/(n+1)")}
        fig, axes = plt.subplots(1, len(sweeps), figsize=(4.6 * len(sweeps) + 0.8, 4.6),
                                 squeeze=False)
        e_sweep = None
        for ax, part in zip(axes[0], sweeps):
            data = read_optimal_damping(directory, f"optimal_damping_{part}.csv")
            e_sweep = data["e"][0]
            column, slope_column, exponent_column = SWEEP_PARTS[part]
            for k, n in enumerate(nearest_values(data["n"], exponents)):
                rows = np.isclose(data["n"], n, rtol=0, atol=1e-12)
                x, c = np.log(data[column][rows]), np.log(data["c"][rows])
                if slopes is not None and np.any(np.isclose(slopes["n"], n, atol=1e-12)):
                    i = int(np.abs(slopes["n"] - n).argmin())
                    slope, exact = slopes[slope_column][i], slopes[exponent_column][i]
                else:
                    slope, exact = np.polyfit(x, c, 1)[0], float("nan")
                ax.plot(x, c, color=COLOURS[k], lw=1.4, ls=LINESTYLES[k % 4],
                        label=f"n = {n:.3f}: slope {fixed(slope, 4)} (exact "
                              f"{fixed(exact, 4)})")
            ax.set_xlabel(labels[part][0])
            ax.set_ylabel(r"$\ln c$ ($c$ in N s/mm)")
            ax.set_title(f"({part}) {labels[part][1]} sweep, exponent {labels[part][2]}",
                         fontsize=10)
            ax.grid(alpha=0.3)
            below_legend(ax)
        fig.suptitle(f"S6 ({sweeps[0]})–({sweeps[-1]}): exact optimal damping c (S004 "
                     f"eq.(23)) at e = {e_sweep:g}: "
                     "slopes of ln c against the exponents of S004 eq.(49)", fontsize=11)
        fig.tight_layout()
        written.append(("od_sweeps", save(fig, prefix, "od_sweeps", formats, dpi)))

    if "optimal_damping_d.csv" in have and "optimal_damping_fit.csv" in have:
        data = read_optimal_damping(directory, "optimal_damping_d.csv")
        fit = read_optimal_damping(directory, "optimal_damping_fit.csv")
        fig, (left, right) = plt.subplots(1, 2, figsize=(11.5, 4.6))
        for k, n in enumerate(nearest_values(data["n"], exponents)):
            rows = np.isclose(data["n"], n, rtol=0, atol=1e-12)
            e, zeta = data["e"][rows], data["zeta"][rows]
            i = int(np.abs(fit["n"] - n).argmin())
            if abs(fit["n"][i] - n) > 1e-9:
                continue
            ef = np.linspace(e.min(), 1.0, 300)
            zeta_fit = fit["alpha_fit"][i] * (e ** fit["beta_fit"][i] - 1)
            zeta_s004 = fit["alpha_S004"][i] * (e ** fit["beta_S004"][i] - 1)
            step = max(len(e) // 25, 1)
            colour = COLOURS[k]
            left.plot(e[::step], zeta[::step], "o", color=colour, ms=3.5, mfc="none",
                      label=f"n = {n:.3f}: exact (eq.(23))")
            left.plot(ef, fit["alpha_fit"][i] * (ef ** fit["beta_fit"][i] - 1), "-",
                      color=colour, lw=1.3, label=f"n = {n:.3f}: fit of this run")
            left.plot(ef, fit["alpha_S004"][i] * (ef ** fit["beta_S004"][i] - 1), "--",
                      color=colour, lw=1.3, label=f"n = {n:.3f}: S004 eq.(47)")
            inside = (e < 1) & (zeta > 0)
            right.plot(e[inside], (zeta_fit[inside] / zeta[inside] - 1) * 100, "-",
                       color=colour, lw=1.3, label=f"n = {n:.3f}: fit of this run")
            right.plot(e[inside], (zeta_s004[inside] / zeta[inside] - 1) * 100, "--",
                       color=colour, lw=1.3, label=f"n = {n:.3f}: S004 eq.(47)")
        left.set_ylim(bottom=0)
        left.set_ylabel(r"$\zeta = c\,/\,(k\,\dot\delta^{(-)\,n-1} m_\mathrm{eff}^n)"
                        r"^{1/(n+1)}$ (-)")
        left.set_title(r"optimal damping $\zeta$ and $\alpha\,(e^\beta - 1)$", fontsize=10)
        right.axhline(0, color="0.5", lw=0.5)
        right.set_ylabel(r"$\zeta_\mathrm{formula}/\zeta - 1$ (%)")
        right.set_title("relative deviation of the formulas from the exact ζ", fontsize=10)
        for ax in (left, right):
            ax.set_xlabel("coefficient of restitution $e$ (-)")
            ax.grid(alpha=0.3)
        outside_legend(right)
        fig.suptitle("S6 (d): normalized optimal damping against e, "
                     r"fit $\zeta = \alpha\,(e^\beta - 1)$ (S004 eq.(46))", fontsize=11)
        fig.tight_layout()
        written.append(("od_restitution_fit", save(fig, prefix, "od_restitution_fit",
                                                   formats, dpi)))

    if "optimal_damping_fit.csv" in have:
        fit = read_optimal_damping(directory, "optimal_damping_fit.csv")
        fig, (left, right) = plt.subplots(1, 2, figsize=(11.5, 4.4))
        for ax, name, symbol in ((left, "alpha", r"$\alpha$"), (right, "beta", r"$\beta$")):
            ax.plot(fit["n"], fit[f"{name}_fit"], "-", color=COLOURS[0], lw=1.5,
                    label="fit of this run")
            ax.plot(fit["n"], fit[f"{name}_S004"], "--", color="black", lw=1.2,
                    label="S004 eq.(47)")
            ax.set_xlabel("elastic exponent $n$ (-)")
            ax.set_ylabel(f"{symbol}(n) (-)")
            ax.set_title(f"{symbol}(n)", fontsize=10)
            ax.grid(alpha=0.3)
        outside_legend(right)
        fig.suptitle("S6 (d): fitted α(n), β(n) against S004 eq.(47) "
                     "(α and β are strongly correlated on e in [0.45, 1])", fontsize=11)
        fig.tight_layout()
        written.append(("od_alpha_beta", save(fig, prefix, "od_alpha_beta", formats, dpi)))

    if "optimal_damping_e.csv" in have:
        data = read_optimal_damping(directory, "optimal_damping_e.csv")
        bins = (read_optimal_damping(directory, "optimal_damping_e_bins.csv")
                if "optimal_damping_e_bins.csv" in have else None)
        fig, (left, right) = plt.subplots(1, 2, figsize=(11.5, 4.6))
        floor = 1e-16
        for ax, column, bin_column, label in (
                (left, "abs_error", "max_abs_error", r"$|e_\mathrm{out} - e|$ (-)"),
                (right, "relative_error", "max_relative_error",
                 r"$|e_\mathrm{out} - e|\,/\,e$ (-)")):
            points = ax.scatter(data["e"], np.maximum(data[column], floor), c=data["n"],
                                cmap="viridis", s=12, vmin=1, vmax=2,
                                label=f"{len(data['e'])} random systems")
            if bins is not None:
                edges = np.append(bins["e_low"], bins["e_high"][-1])
                ax.stairs(np.maximum(bins[bin_column], floor), edges, baseline=None,
                          color="black", lw=1.2, label="maximum per bin")
            ax.set_yscale("log")
            ax.set_xlim(0, 1)
            ax.set_xlabel("desired coefficient of restitution $e$ (-)")
            ax.set_ylabel(label)
            ax.grid(alpha=0.3, which="both")
        left.set_title("absolute error", fontsize=10)
        right.set_title("relative error", fontsize=10)
        bar = fig.colorbar(points, ax=[left, right], pad=0.02, fraction=0.04)
        bar.set_label("elastic exponent $n$ (-)")
        left.legend(loc="upper center", bbox_to_anchor=(1.1, -0.14), fontsize=8,
                    frameon=False, ncol=2)
        fig.suptitle("S6 (e): restitution of S004 eq.(49)'s damping on random "
                     "systems (S004 §5.1)", fontsize=11)
        written.append(("od_random", save(fig, prefix, "od_random", formats, dpi)))

    if "kelvin_voigt_check.csv" in have:
        data = read_optimal_damping(directory, "kelvin_voigt_check.csv")
        fig, (left, right) = plt.subplots(1, 2, figsize=(11.5, 4.4))
        step = max(len(data["e"]) // 40, 1)
        left.plot(data["e"], data["error_B4"], "-", color=COLOURS[0], lw=1.5,
                  label=r"$e_\mathrm{B4}(\xi) - e$ (exact, B4)")
        left.plot(data["e"][::step], (data["e_simulated"] - data["e"])[::step], "o",
                  color=COLOURS[1], ms=3.5, mfc="none",
                  label=r"$e_\mathrm{simulated} - e$")
        inside = data["e"] > 0
        right.plot(data["e"][inside], data["error_B4"][inside] / data["e"][inside] * 100,
                   "-", color=COLOURS[0], lw=1.5, label=r"$(e_\mathrm{B4} - e)/e$")
        left.set_ylabel(r"$e_\mathrm{B4} - e$ (-)")
        right.set_ylabel(r"$(e_\mathrm{B4} - e)\,/\,e$ (%)")
        left.set_title("absolute deviation", fontsize=10)
        right.set_title("relative deviation", fontsize=10)
        for ax in (left, right):
            ax.set_xscale("log")
            ax.axhline(0, color="0.5", lw=0.5)
            ax.set_xlabel("desired coefficient of restitution $e$ (-)")
            ax.grid(alpha=0.3, which="both")
        below_legend(left)
        fig.suptitle("S7: Kelvin–Voigt damping of S004 eq.(57), "
                     r"$\xi = c/(2\sqrt{k m_\mathrm{eff}})$, against B4's exact "
                     r"$e(\xi)$ (force-free separation)", fontsize=11)
        fig.tight_layout()
        written.append(("od_kelvin_voigt", save(fig, prefix, "od_kelvin_voigt", formats,
                                                dpi)))
    return written


def plot_two_pendulums(directory, prefix, models=None, formats=("png", "pdf"), dpi=150):
    """S8 figures (S004 §6, Figs. 11–12): theta1_dot(t) and theta2_dot(t) of every model,
    and the force–indentation and force–time curves of the first contact of the force
    models. Returns [(kind, PNG path)]."""
    parameters = read_parameters(directory)
    title = scenario_title(directory)
    available = pendulum_models(directory, parameters)
    if not available:
        raise InputError(f"{directory}: no pendulums_<model>.csv")
    chosen = select(available, models, "model",
                    os.path.join(directory, "pendulums_<model>.csv"))
    styles = model_styles(chosen)
    e = parameter(parameters, "Two pendulums/Coefficient of restitution", "")
    heading = f"{title}two-pendulum impact" + (f", e = {e}" if e else "")
    written = []

    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8.5, 6.4), sharex=True)
    t_end = 0.0
    for model in chosen:
        data = read_pendulums(directory, model)
        top.plot(data["t"], data["theta1_dot"], label=model, **styles[model])
        bottom.plot(data["t"], data["theta2_dot"], label=model, **styles[model])
        t_end = max(t_end, data["t"][-1])
    top.set_ylabel(r"$\dot\theta_1$ (rad/s)")
    bottom.set_ylabel(r"$\dot\theta_2$ (rad/s)")
    top.set_title("pendulum 1 (m1, L1)", fontsize=10)
    bottom.set_title("pendulum 2 (m2, L2)", fontsize=10)
    bottom.set_xlabel("time $t$ (s)")
    for ax in (top, bottom):
        ax.set_xlim(0, t_end)
        ax.axhline(0, color="0.5", lw=0.5)
        ax.grid(alpha=0.3)
    outside_legend(top, "impact model")
    fig.suptitle(f"{heading}: angular velocities (S004 Figs. 11–12)", fontsize=11)
    fig.tight_layout()
    written.append(("pendulum_velocities", save(fig, prefix, "pendulum_velocities",
                                                formats, dpi)))

    curves = {m: read_curve(first_contact_path(directory, m)) for m in chosen
              if os.path.exists(first_contact_path(directory, m))}
    if curves:
        t_max = max(c["t"].max() for c in curves.values())
        tf, tlabel = time_unit(t_max)
        ff, flabel = force_unit(max(c["force"].max() for c in curves.values()))
        fig, (left, right) = plt.subplots(1, 2, figsize=(11.5, 4.4))
        for model, c in curves.items():
            left.plot(c["delta"], c["force"] * ff, label=model, **styles[model])
            right.plot(c["t"] * tf, c["force"] * ff, label=model, **styles[model])
        left.set_xlabel(r"indentation $\delta$ (mm)")
        left.set_xlim(left=0)
        left.set_title("force–indentation", fontsize=10)
        right.set_xlabel(f"time since the onset $t$ ({tlabel})")
        right.set_xlim(left=0)
        right.set_title("force history", fontsize=10)
        for ax in (left, right):
            ax.set_ylabel(f"contact force $F$ ({flabel})")
            ax.set_ylim(bottom=0)
            ax.grid(alpha=0.3)
        outside_legend(right, "law")
        fig.suptitle(f"{heading}: first contact of the force models", fontsize=11)
        fig.tight_layout()
        written.append(("pendulum_first_contact", save(fig, prefix,
                                                       "pendulum_first_contact", formats,
                                                       dpi)))
    return written


def run_kinds(directory):
    """The kinds of output in DIR that this script plots: "single impacts" (results.csv),
    "damping factors" (damping_factors.csv), "granular chain" (chain_forces.csv),
    "optimal damping" (an optimal_damping_*.csv or kelvin_voigt_check.csv), "two pendulums"
    (a pendulums_<model>.csv)."""
    files = set(os.listdir(directory))
    kinds = []
    if "results.csv" in files:
        kinds.append("single impacts")
    if "damping_factors.csv" in files:
        kinds.append("damping factors")
    if CHAIN_FORCES in files:
        kinds.append("granular chain")
    if files & set(OPTIMAL_DAMPING_FILES):
        kinds.append("optimal damping")
    if any(PENDULUM_FILE.match(f) for f in files):
        kinds.append("two pendulums")
    return kinds


def plot_directory(directory, prefix, cases=None, laws=None, formats=("png", "pdf"),
                   dpi=150, ymax=6.0, exponents=(1.0, 1.5, 2.0)):
    """Every figure this script knows for the run in `directory`: [(case, kind, PNG)]
    (case "" but for the single impacts). Raises InputError if the directory has none of
    the files run_kinds() looks for."""
    if not os.path.isdir(directory):
        raise InputError(f"{directory}: no such directory")
    kinds = run_kinds(directory)
    written = []
    if "single impacts" in kinds:
        written += plot_single_impacts(directory, prefix, cases, laws, formats, dpi)
    if "damping factors" in kinds:
        written.append(("", "damping_factors",
                        plot_damping_factors(directory, prefix, laws, formats, dpi, ymax)))
    if "granular chain" in kinds:
        written += [("", kind, path)
                    for kind, path in plot_granular_chain(directory, prefix, formats, dpi)]
    if "optimal damping" in kinds:
        written += [("", kind, path) for kind, path in
                    plot_optimal_damping(directory, prefix, exponents, formats, dpi)]
    if "two pendulums" in kinds:
        written += [("", kind, path) for kind, path in
                    plot_two_pendulums(directory, prefix, laws, formats, dpi)]
    if not kinds:
        others = sorted(f for f in os.listdir(directory) if f.endswith(".csv"))
        raise InputError(f"{directory}: no results.csv, damping_factors.csv, "
                         f"{CHAIN_FORCES}, optimal_damping_*.csv, kelvin_voigt_check.csv "
                         "or pendulums_<model>.csv"
                         + (f" (this script does not plot {', '.join(others)})"
                            if others else ""))
    return written
