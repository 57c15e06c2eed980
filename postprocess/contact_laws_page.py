#!/usr/bin/python3
"""Generates the results page of the contact-law library, docs/contact-laws.md, from the
output directories of the impact scenarios (docs/contact-law-catalogue.md §8): OUTPUT_ROOT
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
has the energy and force errors of S003 eq.(19) against it.

The other scenario types get their own tables and figures (impact_curves.py):
S4 granular chain: the inputs and the S003 rule's constants, the peaks of the sensor
forces with the wave speed, the momentum and energy balance; S6-S7 optimal damping: the
slopes of ln c against the exact exponents of S004 eq.(49), the fit zeta = alpha (e^beta
- 1) against S004 eq.(47), the random check per bin of e and the Kelvin-Voigt check of
eq.(57); S8 two pendulums: the first impact of every model and the list of impacts. An
output directory with none of the known files gets its small CSV files as plain tables
and a note about what is missing. A table of all registered laws
(`contact-impact --list-laws`) ends the page.

The page is written atomically (a temporary file renamed over the old one) and states the
date and the commit (git rev-parse --short HEAD, if git and the repository are there).
Regenerate everything with `bash scripts/contact-laws-page.sh`. The sections are built by
impact_report.py, the figures by impact_figures.py.

Usage: contact_laws_page.py OUTPUT_ROOT [-o docs/contact-laws.md]
                            [--figures docs/contact-laws] [--dpi 120]
                            [--contact-impact $BUILD/contact-impact]
                            [--params params/impact]

Exit status 0 on success, 2 if OUTPUT_ROOT is missing or an input file is truncated or
malformed (the message names the file). Needs Debian's python3-numpy and
python3-matplotlib.
"""
import datetime
import os
import re
import subprocess
import sys

import common
import impact_figures as ic
import impact_report as report
from common import InputError, warn
from impact_report import SECTIONS, Scenario, md, table

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.dirname(HERE)


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


def main(argv=None):
    parser = common.argument_parser(__doc__)
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
    common.add_dpi_argument(parser, 120)
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
           "library: the verification scenarios of docs/contact-law-catalogue.md (§8), "
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
        kinds = ic.run_kinds(s.directory)
        for kind in kinds:
            figures += SECTIONS[kind](s, page, args.figures, out, args.dpi)
        if not kinds:
            if s.kind in ("single impacts", "damping factors"):
                expected = "results.csv" if s.kind == "single impacts" \
                    else "damping_factors.csv"
                out.append(f"*No {expected} in the output directory (the run failed or "
                           "is incomplete).*\n")
                warn(f"{s.directory}: no {expected}")
            else:
                report.generic_section(s, out)

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

    common.write_text(page, "\n".join(out).rstrip("\n") + "\n")
    written = {os.path.abspath(f) for f in figures}
    stale = sorted(f for f in os.listdir(args.figures) if f.endswith(".png")
                   and os.path.abspath(os.path.join(args.figures, f)) not in written)
    if stale:
        warn(f"{args.figures} has {len(stale)} PNG file(s) the page does not use (left "
             f"alone): {', '.join(stale[:5])}{', …' if len(stale) > 5 else ''}")
    print(f"{common.PROGRAM}: wrote {page} ({len(scenarios)} scenarios, {len(figures)} figures "
          f"in {args.figures})")
    return common.EXIT_OK


if __name__ == "__main__":
    sys.exit(common.run(main))
