"""The sections of the contact-law results page docs/contact-laws.md (written by
contact_laws_page.py): for each scenario type of the contact-impact program (catalogue of
contact laws, §8) the Markdown of its inputs, its tables and its figures (drawn by
impact_figures.py), and the Markdown helpers they share.

Each *_section(scenario, page, figures_dir, out, dpi) appends its Markdown lines to `out`,
writes its figures (PNG, `dpi`) into `figures_dir`, links them relative to `page` and
returns their paths. Numbers are shown in the program's units (mm, s, N, t, MPa, N mm).
Readers raise common.InputError naming the damaged file.
"""
import math
import os
import re

import numpy as np

import impact_figures as ic
from common import warn

# files of the scenarios with their own section, named when a run has none of them (the
# section is then the generic one)
EXPECTED = {
    "S4": (["chain_forces.csv", "chain_balance.csv", "chain_summary.csv"],
           "granular chain"),
    "S6": ([f"optimal_damping_{x}.csv" for x in "abcde"]
           + ["optimal_damping_fit.csv", "kelvin_voigt_check.csv"],
           "optimal linear damping and Kelvin–Voigt check"),
    "S8": (["pendulums_<model>.csv", "first_contact_<model>.csv", "impacts_<model>.csv"],
           "two-pendulum impact"),
}
CASE_ENTRIES = {  # Cases/<entry> of parameters.prm: column heading
    "Effective mass": "m_eff (t)",
    "Approach velocity": "δ̇⁻ (mm/s)",
    "Stiffness": "K (N/mm^n)",
    "Coefficient of restitution": "c_r",
    "Effective modulus": "E* (MPa)",
    "Effective radius": "R_eff (mm)",
    "Yield strength": "σ_y (MPa)",
    "Poisson ratio": "ν",
    "Youngs modulus": "E (MPa)",
    "Measured peak force": "measured F_max (N)",
}
GENERIC_TABLE_ROWS = 40
GENERIC_TABLE_COLUMNS = 12


def sig(x, digits=4):
    """x with `digits` significant digits, fixed point between 1e-4 and 1e6 (no exponent
    for large numbers: 41710, not 4.171e+04); '–' for None or NaN."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    if x == 0:
        return "0"
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    magnitude = math.floor(math.log10(abs(x)))
    if magnitude < -4 or magnitude >= 6:
        return f"{x:.{max(digits - 1, 0)}e}"
    decimals = max(digits - 1 - magnitude, 0)
    return f"{x:.{decimals}f}"


def signed(x, decimals=2):
    return "–" if x is None else f"{x:+.{decimals}f}"


def md(text):
    """Text safe in a Markdown table cell."""
    return str(text).replace("|", "\\|").replace("*", "\\*").replace("\n", " ")


def table(header, rows, align=None):
    """A Markdown table; `align` is a string of 'l'/'r' per column (default: first
    column left, the others right)."""
    align = align or "l" + "r" * (len(header) - 1)
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join(":---" if a == "l" else "---:" for a in align) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------
# scenarios

class Scenario:
    def __init__(self, root, name):
        self.name = name
        self.directory = os.path.join(root, name)
        self.parameters = ic.read_parameters(self.directory)
        self.title = ic.parameter(self.parameters, "Impact/Title") or name
        self.label = ic.scenario_label(self.title, "")
        self.kind = ic.parameter(self.parameters, "Impact/Scenario")
        self.laws = []  # laws the scenario ran (for the law table)

    def sort_key(self):
        number = int(self.label[1:]) if self.label else 1000
        return (number, self.name)


def figure_link(page, path, alt):
    relative = os.path.relpath(path, os.path.dirname(os.path.abspath(page)))
    return f"![{alt}]({relative.replace(os.sep, '/')})"


def input_value(text):
    """A value of the parameter file as written, long numbers to 6 significant digits."""
    if not text:
        return "–"
    try:
        return sig(float(text), 6) if len(text) > 10 else md(text)
    except ValueError:
        return md(text)


def force_free_end(curve):
    """(delta, t) where the force of a contact vanished for good while the indentation was
    still positive (a law that separates at a residual indentation but was integrated on to
    delta = 0), or None. Resolution: the curve's samples."""
    force, delta = curve["force"], curve["delta"]
    peak = int(force.argmax())
    tiny = 1e-12 * force[peak]
    after = [i for i in range(peak, len(force)) if force[i] <= tiny]
    if not after:
        return None
    first = after[0]
    if all(force[i] <= tiny for i in range(first, len(force))) \
            and delta[first] > 1e-3 * delta[peak] and len(force) - first > 2:
        return float(delta[first]), float(curve["t"][first])
    return None


def case_inputs(scenario, cases, rows):
    """Markdown table of the cases' inputs (non-empty Cases/* entries of parameters.prm
    and the c_r the laws were given)."""
    header = ["case"]
    columns = []
    for entry, heading in CASE_ENTRIES.items():
        values = ic.case_values(scenario.parameters, entry, cases)
        if any(v for v in values.values()):
            header.append(heading)
            columns.append(values)
    given = {}
    for case in cases:
        c_r = ic.ordered_unique(r["c_r_input"] for r in rows
                                if r["case"] == case and r["c_r_input"] is not None)
        given[case] = sig(c_r[0]) if len(c_r) == 1 else ("per law" if c_r else "–")
    source = ic.parameter(scenario.parameters, "Cases/Restitution from law")
    header.append(f"c_r given to the laws{' (from ' + source + ')' if source else ''}")
    body = [[case] + [input_value(v[case]) for v in columns] + [given[case]]
            for case in cases]
    return table(header, body)


def law_parameters(scenario, laws):
    """Lines naming the law parameters of the run that differ from their defaults."""
    lines = []
    for key, (value, default) in scenario.parameters.items():
        parts = key.split("/")
        if len(parts) != 3 or parts[0] != "Contact laws" or parts[1] not in laws:
            continue
        if default is None:
            continue
        try:
            if float(value) == float(default):
                continue
        except ValueError:
            pass
        lines.append(f"`{parts[1]}`: {parts[2]} = {value}")
    return lines


def single_impacts_section(scenario, page, figures_dir, out, dpi):
    rows = ic.read_results(scenario.directory)
    cases = ic.ordered_unique(r["case"] for r in rows)
    laws = ic.ordered_unique(r["law"] for r in rows)
    scenario.laws = laws
    t_max = max(r["contact_duration"] for r in rows)
    tf, tunit = ic.time_unit(t_max)
    measured = any(r["measured_F_max"] is not None for r in rows)
    reference = ic.parameter(scenario.parameters, "Cases/Restitution from law")
    if reference not in laws:
        reference = ""
    separation = any((r["residual_indentation"] or 0.0) != 0.0
                     or r["separation"] not in ("indentation zero", "") for r in rows)

    out.append("Inputs of the cases (mm–t–s–N–MPa):\n")
    out.append(case_inputs(scenario, cases, rows) + "\n")
    changed = law_parameters(scenario, laws)
    if changed:
        out.append("Law parameters of the run: " + "; ".join(changed) + ".\n")

    header = ["case", "law", "F_max (N)"]
    if measured:
        header += ["measured F_max (N)", "error (%)"]
    header += ["δ_max (mm)", f"t_c ({tunit})", "v_out (mm/s)", "c_r,eff (-)", "ΔE (N mm)"]
    if reference:
        header += ["E% (S003 eq.19)", "F% (S003 eq.19)"]
    if separation:
        header += ["δ_res (mm)", "separation"]
    body = []
    for r in rows:
        line = [r["case"], f"`{r['law']}`", sig(r["F_max"])]
        if measured:
            error = r["F_max_error_percent"]
            if error is None and r["measured_F_max"]:
                error = (r["F_max"] - r["measured_F_max"]) / r["measured_F_max"] * 100.0
            line += ["–" if r["measured_F_max"] is None else f"{r['measured_F_max']:g}",
                     signed(error)]
        line += [sig(r["delta_max"]), sig(r["contact_duration"] * tf), sig(r["v_out"]),
                 f"{r['c_r_effective']:.4f}",
                 f"{r['dissipated_energy']:.1e}" if abs(r["dissipated_energy"]) < 1e-4
                 else sig(r["dissipated_energy"])]
        if reference:
            ref = next((s for s in rows if s["case"] == r["case"] and s["law"] == reference),
                       None)
            if r["law"] == reference or ref is None:
                line += ["reference", "reference"] if ref is not None else ["–", "–"]
            else:
                dU, dE = ref["dissipated_energy"], r["dissipated_energy"]
                Fs, Fd = ref["F_max"], r["F_max"]
                line += [f"{abs(dU - dE) / abs(dU) * 100.0:.2f}" if dU else "–",
                         f"{abs(Fs - Fd) / abs(Fs) * 100.0:.2f}" if Fs else "–"]
        if separation:
            line += [sig(r["residual_indentation"]), md(r["separation"])]
        body.append(line)
    out.append("Results (t_c contact duration, v_out rebound speed, c_r,eff = v_out/δ̇⁻, "
               "ΔE = ½ m_eff (δ̇⁻² − v_out²) dissipated energy):\n")
    out.append(table(header, body, "ll" + "r" * (len(header) - 2)) + "\n")

    notes = []
    if "hertz" in laws:
        notes.append("`hertz` is conservative: its ΔE is integration round-off.")
    if measured:
        notes.append("error = (F_max − measured F_max)/measured F_max × 100 "
                     "(> 0: the law overestimates the peak).")
    if reference:
        notes.append(f"S003 eq.(19) against `{reference}` (s) for every other law (d): "
                     "E% = |ΔU − ΔE|/ΔU × 100 with ΔU, ΔE the dissipated energies of "
                     f"`{reference}` and the law, F% = |F_s − F_d|/F_s × 100 with the peak "
                     "forces.")
    odd = [r for r in rows if r["c_r_input"] is not None and r["law"] != "hertz"
           and abs(r["c_r_effective"] - r["c_r_input"]) > 0.05]
    if odd:
        notes.append("c_r,eff differs from the c_r given to the law by more than 0.05 for: "
                     + ", ".join(f"`{r['law']}` ({r['case']}: {r['c_r_effective']:.3f} "
                                 f"for {r['c_r_input']:.3f})" for r in odd)
                     + " (expected for laws whose damping factor is not exact at that c_r; "
                     "see the catalogue, §4.1).")
    for r in rows:
        path = ic.curve_path(scenario.directory, r["case"], r["law"])
        end = force_free_end(ic.read_curve(path)) if os.path.exists(path) else None
        if end is not None:
            notes.append(f"`{r['law']}` ({r['case']}): the force vanishes at δ ≈ "
                         f"{sig(end[0], 3)} mm, t ≈ {sig(end[1] * tf, 3)} {tunit}, but the "
                         "impact is integrated on (force-free) until δ = 0: residual "
                         f"indentation {sig(r['residual_indentation'])} mm and t_c "
                         f"{sig(r['contact_duration'] * tf)} {tunit} in results.csv "
                         f"(separation: {md(r['separation'])}).")
    for note in notes:
        out.append(f"* {note}")
    if notes:
        out.append("")

    if measured:
        header = ["law"] + [f"{c} (%)" for c in cases] + [md("mean |error| (%)")]
        body = []
        for law in laws:
            errors = []
            for case in cases:
                r = next((s for s in rows if s["case"] == case and s["law"] == law), None)
                e = None
                if r and r["measured_F_max"]:
                    e = r["F_max_error_percent"]
                    if e is None:
                        e = (r["F_max"] - r["measured_F_max"]) / r["measured_F_max"] * 100
                errors.append(e)
            known = [abs(e) for e in errors if e is not None]
            body.append([f"`{law}`"] + [signed(e) for e in errors]
                        + [f"{sum(known) / len(known):.2f}" if known else "–"])
        out.append("Peak-force error against the measurement, per law and case:\n")
        out.append(table(header, body) + "\n")

    prefix = os.path.join(figures_dir, scenario.name)
    figures = ic.plot_single_impacts(scenario.directory, prefix, formats=("png",), dpi=dpi)
    names = {"hysteresis": "force–indentation", "phase": "phase portrait",
             "force_time": "force–time"}
    for case in cases:
        links = [figure_link(page, path, f"{scenario.label} {case} {names[kind]}")
                 for c, kind, path in figures if c == case]
        if links:
            out.append(f"**Case {case}:** force–indentation loops, phase portraits, "
                       "force histories.\n")
            out.append("\n".join(links) + "\n")
    return [path for _, _, path in figures]


def damping_factors_section(scenario, page, figures_dir, out, dpi):
    factors = ic.read_damping_factors(scenario.directory)
    scenario.laws = list(factors)
    points = [0.1, 0.25, 0.5, 0.7, 0.9, 1.0]
    header = ["law"] + [f"c_r = {p:g}" for p in points] + ["slope −df/dc_r at 1"]
    body = []
    for law, (c_r, f) in factors.items():
        cells = []
        for p in points:
            i = int(abs(c_r - p).argmin())
            near = abs(c_r[i] - p) <= 0.5 * (c_r.max() - c_r.min()) / max(len(c_r) - 1, 1)
            cells.append(sig(float(f[i]), 4) if near else "–")
        slope = "–"
        if len(c_r) > 1 and abs(c_r[-1] - 1.0) < 1e-12:
            slope = sig(float(-(f[-1] - f[-2]) / (c_r[-1] - c_r[-2])), 3)
        body.append([f"`{law}`"] + cells + [slope])
    out.append("Damping factor f(c_r) = χ δ̇⁻/K (dimensionless) of every law at a few c_r "
               f"({len(next(iter(factors.values()))[0])} samples in (0, 1]; the slope at "
               "c_r = 1 is the last finite difference):\n")
    out.append(table(header, body) + "\n")
    prefix = os.path.join(figures_dir, scenario.name)
    path = ic.plot_damping_factors(scenario.directory, prefix, formats=("png",), dpi=dpi)
    out.append(figure_link(page, path, f"{scenario.label} damping factors") + "\n")
    return [path]


def generic_section(scenario, out):
    """Scenarios whose output this script does not recognise: small CSV files as tables,
    the others listed; a note about the expected files that are missing."""
    files = sorted(f for f in os.listdir(scenario.directory)
                   if os.path.isfile(os.path.join(scenario.directory, f)))
    csvs = [f for f in files if f.endswith(".csv")]
    expected, what = EXPECTED.get(scenario.label, ([], ""))
    missing = []
    for name in expected:
        if "<model>" in name:
            pattern = re.compile("^" + re.escape(name).replace(re.escape("<model>"), ".+")
                                 + "$")
            if not any(pattern.match(f) for f in files):
                missing.append(name)
        elif name not in files:
            missing.append(name)
    if missing:
        out.append(f"*Not available:* {', '.join(f'`{m}`' for m in missing)} "
                   f"(expected from the {scenario.label} scenario, {what}; the run "
                   "failed or is incomplete, this page shows what is there).\n")
        warn(f"{scenario.directory}: no {', '.join(missing)}")
    if not csvs:
        out.append("*No CSV results in this output directory.*\n")
        return
    for name in csvs:
        path = os.path.join(scenario.directory, name)
        header, rows = ic.read_csv(path, [])
        if len(rows) <= GENERIC_TABLE_ROWS and len(header) <= GENERIC_TABLE_COLUMNS:
            body = []
            for r in rows:
                cells = []
                for h in header:
                    if re.fullmatch(r"[+-]?\d+", r[h]):  # counts, indices: as written
                        cells.append(r[h])
                        continue
                    try:
                        cells.append(sig(float(r[h])))
                    except ValueError:
                        cells.append(md(r[h]) if r[h] else "–")
                body.append(cells)
            out.append(f"`{name}` (as written by contact-impact; units as in its header):\n")
            out.append(table([md(h) for h in header], body) + "\n")
        else:
            out.append(f"`{name}`: {len(rows)} rows × {len(header)} columns "
                       f"({', '.join(header[:8])}{', …' if len(header) > 8 else ''}); "
                       "not tabulated or plotted by this page yet.\n")


# ---------------------------------------------------------------------------------------
# granular chain (S4), optimal damping (S6, S7), two pendulums (S8)

CHAIN_INPUTS = [  # (Granular chain/<entry>, symbol, unit)
    ("Number of beads", "N", "beads"), ("Bead radius", "R", "mm"),
    ("Bead mass", "m", "t"), ("Striker mass", "m_striker", "t"),
    ("Youngs modulus", "E", "MPa"), ("Poisson ratio", "ν", ""),
    ("Yield strength", "σ_y", "MPa"), ("Plastic limit ratio", "ξ", ""),
    ("Hardness ratio", "ψ", ""), ("Striker velocity", "v0", "mm/s"),
    ("Coefficient of restitution", "c_r", ""), ("Law", "law", ""),
    ("Sensor beads", "sensor beads", ""), ("Initial gap", "initial gap", "mm"),
    ("End time", "end time", "s"), ("Output samples", "output samples", "")]
PENDULUM_INPUTS = [  # (Two pendulums/<entry>, symbol, unit)
    ("Mass 1", "m1", "t"), ("Length 1", "L1", "mm"), ("Mass 2", "m2", "t"),
    ("Length 2", "L2", "mm"), ("Pivot spacing", "a (pivot spacing)", "mm"),
    ("Initial angle 1", "θ1(0)", "rad"), ("Initial angle 2", "θ2(0)", "rad"),
    ("Gravity", "g", "mm/s²"), ("Coefficient of restitution", "e", ""),
    ("Stiffness", "K", "N/mm^n"), ("Elastic exponent", "n", ""),
    ("End time", "end time", "s")]
OPTIMAL_DAMPING_PARTS = [  # (file, Optimal damping/<flag>, part)
    ("optimal_damping_a.csv", "Mass sweep", "S6 (a)"),
    ("optimal_damping_b.csv", "Velocity sweep", "S6 (b)"),
    ("optimal_damping_c.csv", "Stiffness sweep", "S6 (c)"),
    ("optimal_damping_d.csv", "Restitution fit", "S6 (d)"),
    ("optimal_damping_fit.csv", "Restitution fit", "S6 (d)"),
    ("optimal_damping_e.csv", "Random check", "S6 (e)"),
    ("optimal_damping_e_bins.csv", "Random check", "S6 (e)"),
    ("kelvin_voigt_check.csv", "Kelvin-Voigt check", "S7")]
# registered laws the scenarios stand for (for the table of registered laws)
CHAIN_RULE_LAWS = ["flores", "wang_liu_liu_elastoplastic_dashpot"]
OPTIMAL_DAMPING_LAWS = ["hertz_linear_damping_optimal",
                        "kelvin_voigt_force_free_separation"]


def entry_inputs(scenario, subsection, entries):
    """"symbol = value unit" of the entries of a subsection of parameters.prm, joined by
    "; " ("" if none is there)."""
    parts = []
    for entry, symbol, unit in entries:
        key = f"{subsection}/{entry}"
        if key not in scenario.parameters:
            continue
        value = ic.parameter(scenario.parameters, key)
        if entry in ("Law", "Models"):
            value = f"`{value}`"
        elif "," not in value:
            text = input_value(value) + (f" {unit}" if unit else "")
            if unit == "rad":
                try:
                    text += f" ({math.degrees(float(value)):.4g}°)"
                except ValueError:
                    pass
            parts.append(f"{symbol} = {text}")
            continue
        parts.append(f"{symbol} = {value}{' ' + unit if unit else ''}")
    return "; ".join(parts)


def short(x):
    """x with up to 4 significant digits, trailing zeros dropped: 50000, 0.05, 1e5, 1e-8."""
    if x != 0 and 1e-4 <= abs(x) < 1e5:
        return np.format_float_positional(x, precision=4, unique=True, fractional=False,
                                          trim="-")
    mantissa, _, exponent = f"{x:.3g}".partition("e")
    return mantissa + (f"e{int(exponent)}" if exponent else "")


def percent(x, of):
    return "–" if not of or x is None or math.isnan(x) else f"{x / of * 100:.2f} %"


def link_figures(page, out, figures, captions, label):
    """The figures [(kind, path)] with one bold caption line each."""
    for kind, path in figures:
        caption = captions.get(kind, kind.replace("_", " "))
        alt = caption.rstrip(".")
        if not re.match(r"S\d", alt):
            alt = f"{label} {alt}"
        out.append(f"**{caption}**\n")
        out.append(figure_link(page, path, alt) + "\n")
    return [path for _, path in figures]


def granular_chain_section(scenario, page, figures_dir, out, dpi):
    chain = ic.read_chain(scenario.directory)
    scalars = chain["scalars"]

    def value(name):
        return scalars[name][0] if name in scalars else None

    law = ic.parameter(scenario.parameters, "Granular chain/Law", "")
    rule = law in ("", "S003 mixed")
    scenario.laws = CHAIN_RULE_LAWS if rule else [law]
    inputs = entry_inputs(scenario, "Granular chain", CHAIN_INPUTS)
    if inputs:
        out.append(f"Inputs (mm–t–s–N–MPa): {inputs}.\n")
    out.append("The striker (bead 0) hits bead 1 of a chain of beads touching at rest; every "
               "neighbouring pair is a contact with its own history. A sensor bead j reports "
               "the mean of its two contact forces, (F_{j−1} + F_j)/2 (chain_forces.csv).\n")
    constants = [("yield_indentation", "δ_y", "mm"), ("hertz_stiffness", "K", "N/mm^1.5"),
                 ("linearized_stiffness", "K_p", "N/mm"),
                 ("flores_chi", "χ_F", "N s/mm^2.5"), ("wang_liu_liu_chi", "χ_W", "N s/mm^2")]
    known = [(s, value(q), u) for q, s, u in constants
             if value(q) is not None and not math.isnan(value(q))]
    if known:
        text = "S003 rule (Flores while elastic, Wang–Liu–Liu G4 from δ ≥ δ_y on): " + \
            ", ".join(f"{s} = {sig(v)} {u}" for s, v, u in known)
        if value("first_pair_max_indentation") is not None:
            text += (f"; Ma–Liu first-pair impact (m = one bead): δ_max = "
                     f"{sig(value('first_pair_max_indentation'))} mm, CoR = "
                     f"{sig(value('first_pair_ma_liu_restitution'))}")
        if value("elastoplastic_contacts") is not None:
            beads = ic.parameter(scenario.parameters, "Granular chain/Number of beads", "")
            text += (f"; contacts that became elastoplastic: "
                     f"{value('elastoplastic_contacts'):.0f}" + (f" of {beads}" if beads
                                                                  else ""))
        out.append(text + ".\n")

    sensors, peaks = chain["sensors"], chain["peaks"]
    first = peaks[sensors[0]]["peak_force"]
    tf, tunit = ic.time_unit(max(peaks[b]["peak_time"] for b in sensors))
    body = [[str(b), sig(peaks[b]["peak_force"]),
             f"{peaks[b]['peak_force'] / first:.3f}" if first else "–",
             sig(peaks[b]["peak_time"] * tf),
             sig(peaks[b]["segment_speed"] * 1e-3)] for b in sensors]
    out.append("Peaks of the sensor forces (t_max refined on the dense output; segment speed "
               "2R (j_k − j_{k−1})/(t_k − t_{k−1}) from the previous sensor):\n")
    out.append(table(["sensor bead", "F_max (N)", "F_max / first", f"t_max ({tunit})",
                      "segment speed (m/s)"], body) + "\n")
    speed = value("wave_speed")
    segments = [peaks[b]["segment_speed"] for b in sensors
                if not math.isnan(peaks[b]["segment_speed"])]
    if speed is not None and not math.isnan(speed):
        out.append(f"Wave speed (least-squares slope of the bead position 2R (j − 1) against "
                   f"the peak time over the {len(sensors)} sensors): **{sig(speed * 1e-3)} "
                   "m/s**" + (f"; segment speeds {sig(min(segments) * 1e-3)} to "
                              f"{sig(max(segments) * 1e-3)} m/s" if segments else "")
                   + f". The peak force falls from {sig(first)} N at bead {sensors[0]} to "
                   f"{sig(peaks[sensors[-1]]['peak_force'])} N at bead {sensors[-1]}.\n")

    t0 = value("initial_energy")
    rows = [("momentum m_s v0 at t = 0", value("initial_momentum"), "t mm/s (= N s)", None),
            ("momentum at the end", value("final_momentum"), "t mm/s", None),
            ("max relative momentum error", value("max_momentum_error"), "–", None),
            ("kinetic energy T(0) of the striker", t0, "N mm", t0),
            ("kinetic energy T at the end", value("final_kinetic_energy"), "N mm", t0),
            ("stored energy U at the end", value("final_stored_energy"), "N mm", t0),
            ("work of the contacts W", value("final_work"), "N mm", t0),
            ("damping dissipation D", value("final_damping_dissipation"), "N mm", t0),
            ("history energy H", value("final_history_energy"), "N mm", t0),
            ("max |T + W − T(0)| / T(0) (integration)", value("max_work_residual"), "–",
             None),
            ("max |T + U + D − H − T(0)| / T(0) (balance)", value("max_balance_residual"),
             "–", None)]
    body = [[md(name), sig(v), unit, percent(v, of) if of else "–"]
            for name, v, unit, of in rows if v is not None]
    if body:
        out.append("Momentum and energy balance (chain_summary.csv; T + U + D − H = T(0) "
                   "holds for every law of the form S(δ, h) + D(δ, δ̇, h)):\n")
        out.append(table(["quantity", "value", "unit", "of T(0)"], body) + "\n")
    history = value("final_history_energy")
    if rule and history is not None and history > 0:
        out.append("The S003 rule's switch from Flores to the linear Wang–Liu–Liu law (a "
                   "line through the origin) raises the stored energy of a contact at fixed "
                   "indentation, so every switch creates energy: this is the history "
                   "energy "
                   f"H = {sig(history)} N mm ({percent(history, t0)} of T(0)), reported "
                   "separately and subtracted in the balance.\n")
    stats = [(value("steps"), "accepted steps", "{:.0f}"),
             (value("events"), "events", "{:.0f}")]
    text = ", ".join(fmt.format(v) + " " + name for v, name, fmt in stats if v is not None)
    if value("min_step") is not None and value("max_step") is not None:
        text += f", steps {sig(value('min_step'), 2)} to {sig(value('max_step'), 2)} s"
    if value("wall_time") is not None:
        text += f", {sig(value('wall_time'), 2)} s run time"
    if text:
        out.append(f"Integration: {text.lstrip(', ')}. The bead velocities "
                   "(chain_velocities.csv) are not shown.\n")

    prefix = os.path.join(figures_dir, scenario.name)
    figures = ic.plot_granular_chain(scenario.directory, prefix, formats=("png",), dpi=dpi)
    captions = {"chain_force_time": "Force histories of the sensor beads (S003 §5.2).",
                "chain_peaks": "Peak force and peak time against the bead index"
                + (f" (wave speed {sig(speed * 1e-3)} m/s)."
                   if speed is not None and not math.isnan(speed) else "."),
                "chain_balance": "Energy balance: T, U, D, H, W and T + U + D − H."}
    return link_figures(page, out, figures, captions, scenario.label)


def nearest_rows(values, wanted):
    """Indices of the entries of `values` nearest to each of `wanted`, without repeats, in
    the order of the values."""
    values = np.asarray(values)
    return sorted({int(np.abs(values - w).argmin()) for w in wanted})


def optimal_damping_section(scenario, page, figures_dir, out, dpi):
    scenario.laws = OPTIMAL_DAMPING_LAWS
    directory = scenario.directory
    have = {name for name in ic.OPTIMAL_DAMPING_FILES
            if os.path.exists(os.path.join(directory, name))}
    missing = []
    for name, flag, part in OPTIMAL_DAMPING_PARTS:
        setting = ic.parameter(scenario.parameters, f"Optimal damping/{flag}", "")
        if name not in have and setting.lower() != "false":
            missing.append((name, part))
    if missing:
        out.append("*Not in the output directory (the run failed or is incomplete): "
                   + ", ".join(f"`{name}` ({part})" for name, part in missing) + ".*\n")
        warn(f"{directory}: no {', '.join(name for name, _ in missing)}")
    out.append("S6 computes the exact optimal linear damping c of F = c δ̇ + k δ^n, released "
               "at F = 0 (docs/contact-law-catalogue.md B5), by root finding on the "
               "simulated restitution (S004 eq.(23): |e_out − e|/e ≤ ε) and compares it "
               "with the closed form S004 eq.(49); ζ = c/(k δ̇⁻^(n−1) m_eff^n)^(1/(n+1)) "
               "is the only group of the impact, so the exponents of eq.(49) are exact and "
               "only ζ(n, e) = α (e^β − 1) is a fit. S7 checks eq.(57) (n = 1) against "
               "Butcher–Segalman's exact e(ξ) (B4, corrected ξ > 1 branch).\n")

    sweeps = [p for p in "abc" if f"optimal_damping_{p}.csv" in have]
    if sweeps:
        names = {"a": ("m_eff", "t"), "b": ("δ̇⁻", "mm/s"), "c": ("k", "N/m^n")}
        errors, impacts, ratios, ranges = [], [], [], []
        counts = None
        for part in sweeps:
            data = ic.read_optimal_damping(directory, f"optimal_damping_{part}.csv")
            errors.append(data["relative_error"].max())
            impacts += [data["impacts"].min(), data["impacts"].max()]
            ratios.append(np.abs(data["c_eq49"] / data["c"] - 1).max())
            column = ic.SWEEP_PARTS[part][0]
            values = data[column] * (1e3 ** data["n"] if part == "c" else 1.0)
            ranges.append(f"({part}) {names[part][0]} in [{short(values.min())}, "
                          f"{short(values.max())}] {names[part][1]}")
            exponents = len(np.unique(data["n"]))
            counts = (len(data["n"]) // exponents, exponents, data["e"][0])
        eps = ic.parameter(scenario.parameters, "Optimal damping/Restitution tolerance", "–")
        out.append(f"**S6 (a)–(c), sweeps** ({counts[0]} values × {counts[1]} n, e = "
                   f"{counts[2]:g}; " + "; ".join(ranges) + "): exact c found with "
                   f"max |e_out − e|/e = {sig(max(errors), 3)} (ε = {eps})"
                   f" in {min(impacts):.0f}–{max(impacts):.0f} simulated impacts per root; "
                   "eq.(49)'s c differs from the exact one by up to "
                   f"{max(ratios) * 100:.2f} % (the same factor all along a sweep).\n")
    if "optimal_damping_slopes.csv" in have:
        slopes = ic.read_optimal_damping(directory, "optimal_damping_slopes.csv")
        columns = [("slope_mass", "exponent_mass", "ln m_eff", "n/(n+1)"),
                   ("slope_velocity", "exponent_velocity", "ln δ̇⁻", "(n−1)/(n+1)"),
                   ("slope_stiffness", "exponent_stiffness", "ln k", "1/(n+1)")]
        columns = [c for c in columns if not np.all(np.isnan(slopes[c[0]]))]
        header = ["n"]
        for _, _, x, exponent in columns:
            header += [f"slope of ln c vs {x}", exponent]
        body = [[f"{slopes['n'][i]:.3f}"]
                + [cell for s, e, _, _ in columns
                   for cell in (ic.fixed(slopes[s][i], 6), ic.fixed(slopes[e][i], 6))]
                for i in nearest_rows(slopes["n"], [1, 1.25, 1.5, 1.75, 2])]
        out.append("Least-squares slopes of ln c (optimal_damping_slopes.csv) against the "
                   "exponents of S004 eq.(49), at a few n:\n")
        out.append(table(header, body) + "\n")
        worst = [f"{x}: {sig(np.nanmax(np.abs(slopes[s] - slopes[e])), 2)}"
                 for s, e, x, _ in columns]
        out.append(f"Largest |slope − exponent| over all {len(slopes['n'])} n: "
                   + ", ".join(worst) + ".\n")

    if "optimal_damping_fit.csv" in have:
        fit = ic.read_optimal_damping(directory, "optimal_damping_fit.csv")
        body = [[f"{fit['n'][i]:.3f}", f"{fit['alpha_fit'][i]:.4f}",
                 f"{fit['beta_fit'][i]:.4f}", f"{fit['alpha_S004'][i]:.4f}",
                 f"{fit['beta_S004'][i]:.4f}", sig(fit["rms_residual"][i], 3),
                 sig(fit["rms_residual_S004"][i], 3),
                 f"{fit['max_relative_error_fit'][i] * 100:.2f}",
                 f"{fit['max_relative_error_S004'][i] * 100:.2f}"]
                for i in nearest_rows(fit["n"], [1, 1.25, 1.5, 1.75, 2])]
        where = ""
        if "optimal_damping_d.csv" in have:
            data = ic.read_optimal_damping(directory, "optimal_damping_d.csv")
            e_values = data["e"][data["n"] == data["n"][0]]
            where = (f"{len(e_values)} e in [{e_values.min():g}, {e_values.max():g}] × "
                     f"{len(fit['n'])} n; ")
            worst_e = deviation_location(data, fit)
        out.append(f"**S6 (d), fit ζ = α (e^β − 1) per n** ({where}unweighted least squares "
                   "of ζ; S004 eq.(47): α(n) = 0.3331 n⁴ − 1.48 n³ + 3.077 n² − 2.306 n + "
                   "1.794, β(n) = 1.285 n^0.2553 − 1.725). rms of ζ − formula, and max "
                   "|ζ_formula/ζ − 1| over e < 1:\n")
        out.append(table(["n", "α fit", "β fit", "α S004", "β S004", "rms fit", "rms S004",
                          "max dev. fit (%)", "max dev. S004 (%)"], body) + "\n")
        i_fit = int(np.argmax(fit["max_relative_error_fit"]))
        i_s004 = int(np.argmax(fit["max_relative_error_S004"]))
        text = (f"Over all n the largest deviation of the fit is "
                f"{fit['max_relative_error_fit'][i_fit] * 100:.2f} % (n = "
                f"{fit['n'][i_fit]:.3f}), of S004 eq.(47) "
                f"{fit['max_relative_error_S004'][i_s004] * 100:.2f} % (n = "
                f"{fit['n'][i_s004]:.3f})")
        if "optimal_damping_d.csv" in have and worst_e:
            text += (f", at e = {worst_e[0]:.4g} and {worst_e[1]:.4g} respectively (ζ → 0 "
                     "as e → 1)")
        out.append(text + ". α and β are strongly correlated on e in [0.45, 1]: the "
                   "fitted pair differs from S004's while the curves stay close.\n")

    if "optimal_damping_e.csv" in have:
        data = ic.read_optimal_damping(directory, "optimal_damping_e.csv")
        i = int(np.argmax(data["abs_error"]))
        j = int(np.argmax(data["relative_error"]))
        seed = ic.parameter(scenario.parameters, "Optimal damping/Seed", "")
        out.append(f"**S6 (e), random check** ({len(data['e'])} systems"
                   + (f", seed {seed}" if seed else "")
                   + "; m_eff, k, δ̇⁻ log-uniform, n and e uniform; c from eq.(49)): "
                   f"max |e_out − e| = {sig(data['abs_error'][i], 3)} (e = "
                   f"{data['e'][i]:.4g}, n = {data['n'][i]:.3f}); max |e_out − e|/e = "
                   f"{data['relative_error'][j] * 100:.2f} % (e = {data['e'][j]:.4g}, "
                   f"n = {data['n'][j]:.3f}).\n")
    if "optimal_damping_e_bins.csv" in have:
        bins = ic.read_optimal_damping(directory, "optimal_damping_e_bins.csv")
        body = [[f"[{lo:.3g}, {hi:.3g}]", f"{count:.0f}", sig(a, 3), f"{r * 100:.3f}"]
                for lo, hi, count, a, r in zip(bins["e_low"], bins["e_high"],
                                               bins["systems"], bins["max_abs_error"],
                                               bins["max_relative_error"])]
        out.append("Largest error per bin of the desired e:\n")
        out.append(table(["e", "systems", md("max |e_out − e|"),
                          md("max |e_out − e|/e (%)")], body) + "\n")
        low = bins["max_relative_error"][0]
        if low > 3 * np.median(bins["max_relative_error"]):
            out.append(f"The relative error of the lowest bin ({low * 100:.1f} %) is far "
                       "above the others: eq.(49)'s fit was built on e in [0.45, 1] "
                       "(S004 tested it down to e = 1e-4).\n")

    if "kelvin_voigt_check.csv" in have:
        data = ic.read_optimal_damping(directory, "kelvin_voigt_check.csv")
        body = []
        for i in nearest_rows(data["e"], [1e-4, 1e-3, 1e-2, 0.1, 0.3, 0.5, 0.7, 0.9, 1]):
            e = data["e"][i]
            body.append([f"{e:.4g}", sig(data["c"][i]), sig(data["xi"][i]),
                         sig(data["e_exact_B4"][i]), sig(data["error_B4"][i], 3),
                         f"{data['error_B4'][i] / e * 100:+.2f}" if e else "–",
                         sig(data["error_simulated"][i], 2)])
        i = int(np.argmax(np.abs(data["error_B4"])))
        relative = np.abs(data["error_B4"] / data["e"])
        j = int(np.argmax(relative))
        out.append(f"**S7, Kelvin–Voigt check** ({len(data['e'])} e log-spaced in "
                   f"[{data['e'].min():g}, {data['e'].max():g}]; c from eq.(57), ξ = "
                   "c/(2 √(k m_eff)), e_B4 = B4's exact restitution at ξ, e_sim from the "
                   "simulated impact): max |e_B4 − e| = "
                   f"{sig(data['error_B4'][i], 3)} at e = {data['e'][i]:.3g}; max "
                   f"|e_B4 − e|/e = {relative[j] * 100:.1f} % at e = {data['e'][j]:.3g}; "
                   f"max |e_sim − e_B4| = {sig(np.abs(data['error_simulated']).max(), 2)}."
                   "\n")
        out.append(table(["e", "c (N s/mm)", "ξ", "e_B4", "e_B4 − e", "(e_B4 − e)/e (%)",
                          "e_sim − e_B4"], body) + "\n")

    prefix = os.path.join(figures_dir, scenario.name)
    figures = ic.plot_optimal_damping(scenario.directory, prefix, formats=("png",), dpi=dpi)
    captions = {"od_sweeps": "S6 (a)–(c): ln c against ln m_eff, ln δ̇⁻, ln k for n ≈ 1, "
                             "1.5, 2 with the fitted slopes and the exact exponents.",
                "od_restitution_fit": "S6 (d): ζ against e with the fit of this run and "
                                      "S004 eq.(47), and their deviation from the exact ζ.",
                "od_alpha_beta": "S6 (d): α(n) and β(n), fit of this run and S004 eq.(47).",
                "od_random": "S6 (e): |e_out − e| of eq.(49)'s damping on the random "
                             "systems, absolute and relative, with the maximum per bin.",
                "od_kelvin_voigt": "S7: e_B4(ξ(eq.(57))) − e against e."}
    return link_figures(page, out, figures, captions, scenario.label)


def deviation_location(data, fit):
    """(e of the largest |zeta_fit/zeta - 1|, e of the largest |zeta_S004/zeta - 1|) over
    optimal_damping_d.csv (e < 1), or None if its n are not those of the fit."""
    order = np.argsort(fit["n"])
    n_sorted = fit["n"][order]
    index = np.clip(np.searchsorted(n_sorted, data["n"]), 0, len(n_sorted) - 1)
    below = np.clip(index - 1, 0, len(n_sorted) - 1)
    closer = np.abs(n_sorted[below] - data["n"]) < np.abs(n_sorted[index] - data["n"])
    index = np.where(closer, below, index)
    if np.max(np.abs(n_sorted[index] - data["n"])) > 1e-9:
        return None
    rows = order[index]
    inside = (data["e"] < 1) & (data["zeta"] > 0)
    e, zeta = data["e"][inside], data["zeta"][inside]
    result = []
    for a, b in (("alpha_fit", "beta_fit"), ("alpha_S004", "beta_S004")):
        formula = fit[a][rows][inside] * (e ** fit[b][rows][inside] - 1)
        result.append(float(e[np.argmax(np.abs(formula / zeta - 1))]))
    return tuple(result)


def two_pendulums_section(scenario, page, figures_dir, out, dpi):
    directory = scenario.directory
    models = ic.pendulum_models(directory, scenario.parameters)
    scenario.laws = [m for m in models if m != "impulse"]
    listed = ic.split_list(ic.parameter(scenario.parameters, "Two pendulums/Models"))
    for model in listed:
        if model not in models:
            out.append(f"*No `pendulums_{model}.csv` in the output directory (the run "
                       "failed or is incomplete).*\n")
            warn(f"{directory}: no pendulums_{model}.csv")
    inputs = entry_inputs(scenario, "Two pendulums", PENDULUM_INPUTS)
    if inputs:
        out.append(f"Inputs (mm–t–s–N): {inputs}; models "
                   + ", ".join(f"`{m}`" for m in models) + ".\n")
    out.append("Two uniform rods hinged at fixed pivots swing under gravity; the tip of "
               "rod 2 strikes the side of rod 1 (our reading of S004 Fig. 10: a is the "
               "horizontal spacing of the pivots). `impulse` applies Newton's restitution at the "
               "contact instant; the force models integrate F(δ, δ̇) with K, n and m_eff at "
               "the onset. θ̇ in rad/s, δ̇⁻ the approach velocity of the tip.\n")
    impacts = {m: ic.read_impacts(directory, m) for m in models}
    e_input = ic.parameter(scenario.parameters, "Two pendulums/Coefficient of restitution",
                           "")
    e_value = float(e_input) if e_input else None
    body = []
    for model in models:
        if not impacts[model]:
            body.append([f"`{model}`"] + ["–"] * 12 + ["no impact"])
            continue
        r = impacts[model][0]
        force_model = r["separation"] != "impulse"
        duration = (r["end_time"] - r["time"]) * 1e6
        body.append([f"`{model}`", f"{r['time']:.4f}", sig(r["approach_velocity"]),
                     f"{r['restitution']:.4f}", f"{r['theta1_dot_after']:.4f}",
                     f"{r['theta2_dot_after']:.4f}", sig(r["impulse"]),
                     sig(r["max_force"]) if force_model else "–",
                     sig(r["max_indentation"]) if force_model else "–",
                     sig(r["residual_indentation"]) if force_model else "–",
                     sig(duration) if force_model else "0",
                     sig(r["dissipated_energy"]), f"{r['steps']:.0f}",
                     md(r["separation"])])
    firsts = [impacts[m][0] for m in models if impacts[m]]
    if firsts:
        first = firsts[0]
        same = all(abs(r[c] - first[c]) <= 1e-9 * max(abs(first[c]), 1e-300)
                   for r in firsts for c in ("time", "theta1_dot_before",
                                             "theta2_dot_before", "effective_mass"))
        before = (f"before it, for every model: θ̇1 = {first['theta1_dot_before']:.4f} "
                  f"rad/s, θ̇2 = {first['theta2_dot_before']:.4f} rad/s, m_eff = "
                  f"{sig(first['effective_mass'])} t; " if same else "")
        out.append(f"First impact ({before}e_eff = separation/approach velocity, P "
                   "impulse, t_c contact time, ΔE mechanical energy lost):\n")
        out.append(table(["model", "onset (s)", "δ̇⁻ (mm/s)", "e_eff", "θ̇1 after (rad/s)",
                          "θ̇2 after (rad/s)", "P (N s)", "F_max (N)", "δ_max (mm)",
                          "δ_res (mm)", "t_c (µs)", "ΔE (N mm)", "steps", "separation"],
                         body, "l" + "r" * 12 + "l") + "\n")
        body = [[f"`{m}`", str(len(impacts[m])),
                 ", ".join(f"{r['time']:.4f}" for r in impacts[m]) or "–",
                 ", ".join(f"{r['restitution']:.4f}" for r in impacts[m]) or "–",
                 ", ".join(sig(r["dissipated_energy"]) for r in impacts[m]) or "–"]
                for m in models]
        out.append("All impacts in the simulated time:\n")
        out.append(table(["model", "impacts", "onsets (s)", "e_eff", "ΔE (N mm)"], body,
                         "lrlll") + "\n")

    notes = []
    for model in models:
        path = ic.first_contact_path(directory, model)
        if not impacts[model] or not os.path.exists(path):
            continue
        r = impacts[model][0]
        curve = ic.read_curve(path)
        if curve["force"][0] > 0.99 * r["max_force"] > 0:
            notes.append(f"`{model}`: F_max = {sig(r['max_force'])} N is the force jump "
                         "c δ̇⁻ at the onset (B5 keeps it deliberately); the contact ends at "
                         f"F = 0 with δ_res = {sig(r['residual_indentation'])} mm.")
        if e_value is not None and abs(r["restitution"] - e_value) > 0.02:
            text = (f"`{model}`: e_eff = {r['restitution']:.4f} for e = {e_value:g}")
            if model == "flores":
                text += (f"; its damping factor 8(1 − c_r)/(5 c_r) = "
                         f"{8 * (1 - e_value) / (5 * e_value):.3f} at c_r = {e_value:g} is "
                         "larger than the exact Hunt–Crossley factor (`hc_exact`, S0), so it "
                         "over-damps at low c_r (docs/contact-law-catalogue.md §4.1)")
            notes.append(text + ".")
    for note in notes:
        out.append(f"* {note}")
    if notes:
        out.append("")

    prefix = os.path.join(figures_dir, scenario.name)
    figures = ic.plot_two_pendulums(directory, prefix, formats=("png",), dpi=dpi)
    captions = {"pendulum_velocities": "Angular velocities θ̇1(t), θ̇2(t) of the "
                                       + ("model" if len(models) == 1 else
                                          f"{len(models)} models")
                                       + " (S004 Figs. 11–12).",
                "pendulum_first_contact": "First contact of the force models: F(δ) and "
                                          "F(t)."}
    return link_figures(page, out, figures, captions, scenario.label)


SECTIONS = {  # scenario kind (impact_figures.run_kinds): its section
    "single impacts": single_impacts_section,
    "damping factors": damping_factors_section,
    "granular chain": granular_chain_section,
    "optimal damping": optimal_damping_section,
    "two pendulums": two_pendulums_section}
