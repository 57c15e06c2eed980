#!/usr/bin/python3
"""Generates the results page of the contact-law library, docs/contact-laws.md, from the
output directories of the impact scenarios (catalogue of contact laws, §8): OUTPUT_ROOT
has one subdirectory per params/impact/<name>.prm, named <name>, written by
`build/contact-impact params/impact/<name>.prm --output-directory OUTPUT_ROOT/<name>`.

For every scenario (ordered by its catalogue label S0, S1, ...): its title (parameters.prm,
Impact/Title), the inputs of its cases, the table of every law's numbers (F_max,
delta_max, contact duration t_c, v_out, effective c_r, dissipated energy; residual
indentation and separation when a law separates at a non-zero indentation), and the
figures of impact_curves.py (PNG files in the figures directory, linked relatively).
Where the cases have a measured peak force (S2) the table has it beside F_max with the
relative error (F_model - F_exp)/F_exp*100 and a summary of the errors per law; where a
law gives the other laws their c_r (S3, Cases/Restitution from law) the table
has the energy and force errors of S003 eq.(19) against it. Scenarios this script does
not know yet (S4 granular chain, S6-S7 optimal damping, S8 pendulums) get their small CSV
files as plain tables and a note about what is missing. A table of all registered laws
(`contact-impact --list-laws`) ends the page.

The page is written atomically (a temporary file renamed over the old one) and states the
date and the commit (git rev-parse --short HEAD, if git and the repository are there).
Regenerate everything with `bash scripts/contact-laws-page.sh`.

Usage: contact_laws_page.py OUTPUT_ROOT [-o docs/contact-laws.md]
                            [--figures docs/contact-laws] [--dpi 120]
                            [--contact-impact $BUILD/contact-impact]
                            [--params params/impact]

Exit status 0 on success, 2 if OUTPUT_ROOT is missing or an input file is truncated or
malformed (the message names the file). Needs Debian's python3-numpy and
python3-matplotlib.
"""
import argparse
import datetime
import math
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import impact_curves as ic  # noqa: E402
from impact_curves import InputError  # noqa: E402

PROGRAM = "contact_laws_page"
HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.dirname(HERE)

# files that the scenarios still being written will produce (names may still change)
EXPECTED = {
    "S4": (["chain_forces.csv", "chain_summary.csv"], "granular chain"),
    "S6": ([f"optimal_damping_{x}.csv" for x in "abcde"] + ["optimal_damping_fit.csv"],
           "optimal linear damping sweeps"),
    "S7": (["kelvin_voigt_check.csv"], "Kelvin-Voigt check"),
    "S8": (["pendulums_<model>.csv", "first_contact_<model>.csv"], "two-pendulum impact"),
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


def warn(message):
    print(f"{PROGRAM}: {message}", file=sys.stderr)


# ---------------------------------------------------------------------------------------
# number formatting

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
# provenance and law list

def provenance():
    """'2024-05-01 12:00 UTC, commit abc1234 (+ uncommitted changes)' as far as known."""
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    try:
        commit = subprocess.run(["git", "-C", REPOSITORY, "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return f"{now} (commit unknown: no git)"
    if commit.returncode != 0 or not commit.stdout.strip():
        return f"{now} (commit unknown: not a git checkout)"
    text = f"{now} from commit `{commit.stdout.strip()}`"
    try:  # --no-optional-locks: do not refresh (write) the index
        status = subprocess.run(["git", "--no-optional-locks", "-C", REPOSITORY, "status",
                                 "--porcelain", "--untracked-files=no"],
                                capture_output=True, text=True, timeout=60)
        if status.returncode == 0 and status.stdout.strip():
            text += " with uncommitted changes in the working tree"
    except (OSError, subprocess.SubprocessError):
        pass
    return text


LAW_LINE = re.compile(r"^(\S+)\s+\((.*)\)\s*$")


def registered_laws(executable):
    """[(identifier, entry, title, source)] from `contact-impact --list-laws`, or (None,
    reason) if it cannot be run."""
    try:
        run = subprocess.run([executable, "--list-laws"], capture_output=True, text=True,
                             timeout=120)
    except (OSError, subprocess.SubprocessError) as e:
        return None, f"`{executable} --list-laws` could not be run ({e})"
    if run.returncode != 0:
        return None, (f"`{executable} --list-laws` failed with status {run.returncode}: "
                      f"{run.stderr.strip()[:200]}")
    laws = []
    for line in run.stdout.splitlines():
        if not line.strip():
            continue
        match = LAW_LINE.match(line.strip())
        if not match:
            laws.append((line.split()[0], "", "", line.strip()))
            continue
        identifier, inner = match.groups()
        entry, _, rest = inner.partition(", ")
        title, _, source = rest.partition("; ")
        laws.append((identifier, entry, title, source))
    return laws, None


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
    """Scenarios this script does not know: small CSV files as tables, the others
    listed; a note about the expected files that are missing."""
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
        out.append(f"*Not available yet:* {', '.join(f'`{m}`' for m in missing)} "
                   f"(expected from the {scenario.label} scenario, {what}, whose output is "
                   "still being developed; this page shows what is there).\n")
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


def write_atomically(path, text):
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=".contact-laws-", suffix=".md.tmp",
                                     dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def main(argv=None):
    parser = argparse.ArgumentParser(prog="contact_laws_page.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("root", metavar="OUTPUT_ROOT",
                        help="directory with one contact-impact output directory per "
                             "scenario (e.g. output-impact)")
    parser.add_argument("-o", "--output", default="docs/contact-laws.md",
                        help="the page (default: %(default)s)")
    parser.add_argument("--figures", default="docs/contact-laws",
                        help="directory of the page's PNG figures (default: %(default)s)")
    build = os.environ.get("BUILD", "build")
    parser.add_argument("--contact-impact",
                        default=os.path.join(REPOSITORY, build, "contact-impact"),
                        help="the program, for the list of registered laws (default: "
                             "$BUILD/contact-impact of the repository, $BUILD = build if "
                             "unset: %(default)s)")
    parser.add_argument("--params", default=os.path.join(REPOSITORY, "params", "impact"),
                        help="directory of the scenarios' parameter files, to list the "
                             "ones without output (default: params/impact of the "
                             "repository)")
    parser.add_argument("--dpi", type=int, default=120,
                        help="resolution of the PNG figures (default: %(default)s)")
    args = parser.parse_args(argv)

    if not os.path.isdir(args.root):
        raise InputError(f"{args.root}: no such directory (run the scenarios first: "
                         "bash scripts/contact-laws-page.sh)")
    names = []
    for d in sorted(os.listdir(args.root)):
        directory = os.path.join(args.root, d)
        if not os.path.isdir(directory):
            continue
        if not os.path.exists(os.path.join(directory, "parameters.prm")) and not any(
                f.endswith(".csv") for f in os.listdir(directory)):
            warn(f"{directory}: no parameters.prm and no CSV file: not a scenario, skipped")
            continue
        names.append(d)
    scenarios = sorted((Scenario(args.root, n) for n in names), key=Scenario.sort_key)
    prm = sorted(f[:-4] for f in os.listdir(args.params)
                 if f.endswith(".prm")) if os.path.isdir(args.params) else []
    not_run = [n for n in prm if n not in names]
    os.makedirs(args.figures, exist_ok=True)

    page = args.output
    out = ["# Contact laws: impact benchmarks", "",
           "<!-- Generated by postprocess/contact_laws_page.py; do not edit by hand. -->", "",
           "This page collects the results of the impact benchmarks of the contact-law "
           "library: the verification scenarios of the catalogue of contact laws (§8), "
           "each a parameter file in `params/impact/` run by `build/contact-impact` "
           "(direct central impacts m_eff δ̈ = −F(δ, δ̇, history), or the damping-factor "
           "curves of the Hunt–Crossley family). It is generated, not written: "
           "regenerate it (runs every scenario, then this page and its figures) with", "",
           "```", "bash scripts/contact-laws-page.sh", "```", "",
           f"Generated {provenance()}, from the output directories in "
           f"`{os.path.relpath(args.root) if not os.path.isabs(args.root) else args.root}/`.",
           "",
           "Units: mm, s (times shown in µs or ms), N, t, MPa; energies in N mm = mJ. "
           "Numbers have four significant digits, c_r four decimals.", ""]
    contents = [f"* [{s.title}](#{s.name})" for s in scenarios]
    contents.append("* [Registered contact laws](#registered-laws)")
    out += contents + [""]
    if not_run:
        out.append("Parameter files without output (not run): "
                   + ", ".join(f"`params/impact/{n}.prm`" for n in not_run) + ".\n")
        warn(f"no output for {', '.join(not_run)} in {args.root}")

    figures = []
    for s in scenarios:
        out.append(f'<a id="{s.name}"></a>\n')
        out.append(f"## {md(s.title)}\n")
        if s.name in prm:
            out.append(f"Parameter file `params/impact/{s.name}.prm`"
                       + (f", scenario type *{s.kind}*" if s.kind else "") + ".\n")
        else:
            out.append(f"No parameter file `params/impact/{s.name}.prm` (output directory "
                       f"`{s.name}/`" + (f", scenario type *{s.kind}*" if s.kind else "")
                       + ").\n")
        if not s.parameters:
            out.append("*No parameters.prm in the output directory.*\n")
            warn(f"{s.directory}: no parameters.prm (title taken from the directory name)")
        has_results = os.path.exists(os.path.join(s.directory, "results.csv"))
        has_factors = os.path.exists(os.path.join(s.directory, "damping_factors.csv"))
        if has_results:
            figures += single_impacts_section(s, page, args.figures, out, args.dpi)
        if has_factors:
            figures += damping_factors_section(s, page, args.figures, out, args.dpi)
        if not has_results and not has_factors:
            if s.kind in ("single impacts", "damping factors"):
                expected = "results.csv" if s.kind == "single impacts" \
                    else "damping_factors.csv"
                out.append(f"*No {expected} in the output directory (the run failed or "
                           "is incomplete).*\n")
                warn(f"{s.directory}: no {expected}")
            else:
                generic_section(s, out)

    out.append('<a id="registered-laws"></a>\n')
    out.append("## Registered contact laws\n")
    laws, reason = registered_laws(args.contact_impact)
    if laws is None:
        out.append(f"*The list is not available: {md(reason)}.*\n")
        warn(reason)
    else:
        used = {}
        for s in scenarios:
            for law in s.laws:
                used.setdefault(law, []).append(s.label or s.name)
        out.append(f"The {len(laws)} laws of `contact-impact --list-laws` (identifier for "
                   "the parameter files, catalogue entry, title, sources as cited by the "
                   "catalogue), and the scenarios on this page that use them:\n")
        body = [[f"`{i}`", md(e), md(t), md(src), ", ".join(used.get(i, [])) or "–"]
                for i, e, t, src in laws]
        out.append(table(["identifier", "entry", "title", "source", "scenarios"], body,
                         "lllll") + "\n")

    write_atomically(page, "\n".join(out).rstrip("\n") + "\n")
    written = {os.path.abspath(f) for f in figures}
    stale = sorted(f for f in os.listdir(args.figures) if f.endswith(".png")
                   and os.path.abspath(os.path.join(args.figures, f)) not in written)
    if stale:
        warn(f"{args.figures} has {len(stale)} PNG file(s) the page does not use (left "
             f"alone): {', '.join(stale[:5])}{', …' if len(stale) > 5 else ''}")
    print(f"{PROGRAM}: wrote {page} ({len(scenarios)} scenarios, {len(figures)} figures "
          f"in {args.figures})")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except InputError as e:
        print(f"{PROGRAM}: {e}", file=sys.stderr)
        sys.exit(2)
