#!/usr/bin/python3
"""Prints where and when a run created energy, from its energy ledger energy.csv
(docs/methods.md §2.2, docs/outputs.md): per phase (load ramp, hold, dragging before the
window, averaging window) and per component (the rubber's bulk material, the
rubber-surface, rubber-particle and particle-surface contacts, the platen's work that the
balance does not count, and what is left unassigned) the created energy
R = W + dE + D in N mm/mm (> 0 created, < 0 lost without a mechanism) and as a % of the
platen's work over the whole ledger. The component that created the most in a phase is
marked with *; the last column is the run's balance residual of the phase (-balance, equal
to the sum of the components). A run the energy guard stopped has no summary.csv; its
ledger goes up to the failing step, and the table says so.

Usage: energy_ledger.py RUN_DIR [-o TABLE.txt]
Exit status 0, or 2 with a message naming the file if energy.csv is missing or damaged.
"""
import math
import os
import sys

import common

PHASES = [("ramp", "load ramp"), ("hold", "hold"), ("dragging", "dragging"),
          ("window", "averaging window")]
COMPONENTS = [("R_bulk", "bulk"), ("R_rubber_surface", "rubber-surface"),
              ("R_rubber_particle", "rubber-particle"),
              ("R_particle_surface", "particle-surface"), ("R_platen", "platen"),
              ("unassigned", "unassigned")]


def read_ledger(run_dir):
    """The rows of `run_dir`/energy.csv as dicts of floats (the phase as text), in time
    order; a truncated last row is left out with a warning."""
    path = os.path.join(run_dir, "energy.csv")
    if not os.path.exists(path):
        raise common.InputError(f"{path}: no such file (a run of an older build, or not a "
                                "run's output directory?)")
    rows = common.read_table(path)
    if not rows:
        raise common.InputError(f"{path} has no row (did the run start?)")
    needed = ["t", "phase", "platen_work", "balance"] + [c for c, _ in COMPONENTS]
    missing = [c for c in needed if c not in rows[0]]
    if missing:
        raise common.InputError(f"{path} has no column {', '.join(missing)}")
    ledger = []
    for number, row in enumerate(rows, start=2):
        values = {c: common.to_float(row.get(c)) for c in needed if c != "phase"}
        if any(math.isnan(v) for v in values.values()) or row.get("phase") is None:
            if number == len(rows) + 1:
                common.warn(f"{path}: the last row (line {number}) is truncated: it is left "
                            "out")
                break
            raise common.InputError(f"{path}, line {number}: a field is no number")
        values["phase"] = row["phase"]
        ledger.append(values)
    if not ledger:
        raise common.InputError(f"{path} has no complete row")
    return ledger


def phase_table(ledger):
    """[(phase label, t_start, t_end, {column: increment})] over the phases present, and
    the totals over the whole ledger, from the cumulative columns."""
    columns = ["platen_work", "balance"] + [c for c, _ in COMPONENTS]
    table, before, t_before = [], {c: 0. for c in columns}, 0.
    for key, label in PHASES:
        rows = [r for r in ledger if r["phase"] == key]
        if not rows:
            continue
        last = rows[-1]
        table.append((label, t_before, last["t"], {c: last[c] - before[c] for c in columns}))
        before, t_before = last, last["t"]
    total = {c: ledger[-1][c] for c in columns}
    return table, total


def format_table(run_dir, ledger, finished):
    """The table as text (see the module's docstring): per phase a line of created energies
    (N mm/mm) and a line of their shares of the platen's work."""
    table, total = phase_table(ledger)
    work = total["platen_work"]
    width = 17
    names = [name for _, name in COMPONENTS] + ["total (-balance)"]
    head = f"{'phase':<17}{'t (s)':>20}{'platen work':>12}" + \
        "".join(f"{name:>{width}}" for name in names)
    lines = [f"Energy created per component in {run_dir}: N mm/mm (> 0 created, < 0 lost) "
             f"and % of the platen's work over the ledger, {work:.4g} N mm/mm; "
             "* the largest creator of the phase."]
    if not finished:
        lines.append(f"The run did not finish (no summary.csv): the ledger ends at "
                     f"t = {ledger[-1]['t']:.6g} s, the last step computed.")
    lines += [head, "-" * len(head)]
    for label, t0, t1, d in table + [("whole ledger", 0., ledger[-1]["t"], total)]:
        values = [d[c] for c, _ in COMPONENTS] + [-d["balance"]]
        largest = max(range(len(COMPONENTS)), key=lambda i: values[i])
        marks = ["*" if i == largest and values[i] > 0. else " " for i in range(len(values))]
        lines.append(f"{label:<17}{f'{t0:.4g}-{t1:.4g}':>20}{d['platen_work']:>12.4g}" +
                     "".join(f"{f'{v:+.3e}{m}':>{width}}" for v, m in zip(values, marks)))
        shares = [f"{100. * v / work:+.3f} % " if work else "- " for v in values]
        lines.append(" " * 49 + "".join(f"{s:>{width}}" for s in shares))
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = common.argument_parser(__doc__)
    parser.add_argument("run_dir", metavar="RUN_DIR", help="a run's output directory")
    parser.add_argument("-o", "--output", metavar="TABLE.txt",
                        help="also write the table to this file")
    args = parser.parse_args(argv)
    ledger = read_ledger(args.run_dir)
    finished = os.path.exists(os.path.join(args.run_dir, "summary.csv"))
    text = format_table(args.run_dir, ledger, finished)
    sys.stdout.write(text)
    if args.output:
        common.write_text(args.output, text)
    return common.EXIT_OK


if __name__ == "__main__":
    sys.exit(common.run(main))
