#!/usr/bin/python3
"""The tables of a granular-layer study (docs/results/granular-layer.md) from the sweep.csv
of a sweep over the number of particles (Sweep/Numbers of particles, with Shapes, Mixtures
or Rubber models): one line per point with k̄, its split, the pairs' dissipation, the
energy error and the cost, then the cost fit: for each shape (or mixture) and rubber
model with points at two N or more, the exponent a of the least-squares fit cost ∝ N^a over its finished points, in
assemblies, computed steps and wall time, and the 4-particle cell against the single
particle.

A point that is not `ok` keeps its line, with its status instead of numbers; points run
before summary.csv counted the pairs' closest-normal evaluations, or wrote the mean of the
signed F_T/F_N and the share of the window with F_T < 0 (`kbar_signed`,
`reversed_fraction`), show "–" there.

With --discrete-gradient, the points of those sweeps (run with `Solver/Rubber-particle
contact forces = discrete gradient`) are set beside the same points (by name) of the main
sweeps in a third table: k̄, k̄_F, Newmark's numerical dissipation and the rubber–particle
contact's created energy over the window, the energy error and the assemblies, each as
"end of step → discrete gradient" ("–" where the main sweeps lack the point).
With --velocity-update, likewise the points of sweeps run with `Solver/Rubber-particle
velocity update = true` (docs/methods.md §6.1), "without → with", and the part of the
numerical dissipation the update took. With --without-velocity-update the other way
round: the main sweeps ran with the update, and the points of the given sweeps, run
without it, are the "without" side of the same table. With both options the table sets
the sweeps of the one beside those of the other, whatever the main sweeps ran with.

Usage: layer_tables.py SWEEP_DIR_OR_CSV [SWEEP_DIR_OR_CSV ...] [--page PAGE.md]
                       [--discrete-gradient SWEEP_DIR_OR_CSV [SWEEP_DIR_OR_CSV ...]]
                       [--velocity-update SWEEP_DIR_OR_CSV [SWEEP_DIR_OR_CSV ...]]
                       [--without-velocity-update SWEEP_DIR_OR_CSV [SWEEP_DIR_OR_CSV ...]]
The points of several sweeps (e.g. one over N and one over mixtures) go into the same
tables; a point (by name) in more than one counts once. Without --page the tables are printed (Markdown). With --page the text between
<!-- layer-table --> and <!-- /layer-table --> and between <!-- cost-fit --> and
<!-- /cost-fit --> of PAGE.md is replaced by them, with --discrete-gradient the text
between <!-- forces-table --> and <!-- /forces-table -->, and with --velocity-update (or
--without-velocity-update) that between <!-- velocity-update-table --> and
<!-- /velocity-update-table --> (the page is written atomically). Exit status 0, or 2 with a message naming the file if the sweep.csv is
missing or lacks a column, if the page lacks a marker, or if a point given as a
discrete-gradient (velocity-update) one ran with other forces (without the update), or if
a point on the "without" side of the velocity-update table ran with the update, by its
parameters.prm.
"""
import math
import sys
from collections import defaultdict

import common

TABLE_MARKS = ("<!-- layer-table -->", "<!-- /layer-table -->")
FIT_MARKS = ("<!-- cost-fit -->", "<!-- /cost-fit -->")
FORCES_MARKS = ("<!-- forces-table -->", "<!-- /forces-table -->")
FORCES_ENTRY = "Solver/Rubber-particle contact forces"
UPDATE_MARKS = ("<!-- velocity-update-table -->", "<!-- /velocity-update-table -->")
UPDATE_ENTRY = "Solver/Rubber-particle velocity update"
# what a point must have to be placed in the tables
COLUMNS = ("name", "status", "point_shape", "point_rubber_model", "particles", "kbar")


def value(row, key):
    return common.to_float(row.get(key))


def grouped(v):
    """v as a whole number with thin groups ("247 028"); "–" if NaN."""
    return "–" if math.isnan(v) else f"{int(round(v)):,}".replace(",", " ")


def whole(row, key):
    """row[key] as a whole number with thin groups; "–" if missing."""
    return grouped(value(row, key))


def family(row):
    """(shape or mixture label, rubber model) of a point."""
    return common.shape_label(row["sweep_dir"], row), row.get("point_rubber_model", "?")


def particles(row):
    """N of a point: summary.csv's `particles`, else the _nN of its name (a failed point
    has no summary columns)."""
    n = value(row, "particles")
    if not math.isnan(n):
        return int(n)
    name = row.get("name", "")
    tail = name.rsplit("_n", 1)
    return int(tail[1]) if len(tail) == 2 and tail[1].isdigit() else 0


def point_line(row, rows):
    shape, model = family(row)
    n = particles(row)
    if row["status"] != "ok":
        return f"| {shape} | {model} | {n} | {row['status']} " + "| " * 11 + "|"
    pair = (f"{value(row, 'dissipation_particle_particle'):.2f} / "
            f"{value(row, 'dissipation_particle_particle_damping'):.2f}"
            if not math.isnan(value(row, "dissipation_particle_particle")) else "–")
    if value(row, "dissipation_particle_particle") == 0. and \
            value(row, "dissipation_particle_particle_damping") == 0.:
        pair = "0 / 0"
    k_V = value(row, "kbar_V")
    mean, reversed_share = value(row, "kbar_signed"), value(row, "reversed_fraction")
    sign = "–" if math.isnan(mean) or math.isnan(reversed_share) else \
        f"{mean:.4f} ({100 * reversed_share:.0f} %)"
    return (f"| {shape} | {model} | {n} | {value(row, 'kbar'):.4f} ± "
            f"{abs(value(row, 'kbar_spread')):.4f} | {value(row, 'kbar_F'):.4f} | "
            f"{'–' if math.isnan(k_V) else f'{k_V:.4f}'} | {sign} | {pair} | "
            f"{100 * value(row, 'energy_balance_error'):.2f} % | {whole(row, 'steps')} | "
            f"{whole(row, 'newton_iterations')} | {whole(row, 'cutbacks')} | "
            f"{whole(row, 'assemblies')} | {whole(row, 'pair_overlap_evaluations')} | "
            f"{value(row, 'wall_time'):.0f} s |")


def ordered(rows):
    """The rows by rubber model, shape (in the sweep's order) and N."""
    first = {}
    for i, r in enumerate(rows):
        first.setdefault(family(r), i)
    return sorted(rows, key=lambda r: (r.get("point_rubber_model", ""),
                                       first[family(r)], particles(r)))


def layer_table(rows):
    head = ("| shape | rubber | N | k̄ ± spread | k̄_F | k̄_V | mean F_T/F_N (time with "
            "F_T < 0) | pair friction / damping (N·mm/mm) | energy error | steps | Newton "
            "its | cut-backs | assemblies | closest-normal evaluations | wall |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    return "\n".join([head] + [point_line(r, rows) for r in ordered(rows)])


def exponent(ns, costs):
    """a of the least-squares fit log cost = log C + a log N (NaN with fewer than two
    distinct N)."""
    x = [math.log(n) for n in ns]
    y = [math.log(c) for c in costs]
    if len(set(x)) < 2:
        return math.nan
    mx, my = sum(x) / len(x), sum(y) / len(y)
    return sum((a - mx) * (b - my) for a, b in zip(x, y)) / sum((a - mx) ** 2 for a in x)


def cost_fit(rows):
    groups = defaultdict(list)
    for r in ordered(rows):
        if r["status"] == "ok" and particles(r) > 0:
            groups[family(r)].append(r)
    lines = ["| shape | rubber | N | a (assemblies ∝ N^a) | a (steps) | a (wall time) | "
             "N = 4 against N = 1 (assemblies, wall) |",
             "|---|---|---|---|---|---|---|"]
    for (shape, model), points in groups.items():
        ns = [particles(r) for r in points]
        if len(set(ns)) < 2:
            continue    # one N: nothing to fit

        def fit(key):
            a = exponent(ns, [value(r, key) for r in points])
            return "–" if math.isnan(a) else f"{a:.2f}"
        by_n = {particles(r): r for r in points}
        if 1 in by_n and 4 in by_n:
            ratio = ", ".join(f"{value(by_n[4], k) / value(by_n[1], k):.2f}×"
                              for k in ("assemblies", "wall_time"))
        else:
            ratio = "–"
        lines.append(f"| {shape} | {model} | {', '.join(str(n) for n in ns)} | "
                     f"{fit('assemblies')} | {fit('steps')} | {fit('wall_time')} | {ratio} |")
    return "\n".join(lines)


def points_with(rows, entry, wanted, default):
    """`rows` of sweeps given as run with `entry` = `wanted`; InputError naming the file if a
    point's parameters.prm sets it otherwise (`default` where it does not name it)."""
    for r in rows:
        params = common.point_parameters(r["sweep_dir"], r)
        setting = (params or {}).get(entry, default).strip()
        if setting != wanted:
            raise common.InputError(
                f"{r['sweep_dir']}/{r['name']}/parameters.prm: {entry} = {setting}, "
                f"not {wanted}")
    return rows


def number(digits):
    return lambda v: f"{round(v, digits) + 0.:.{digits}f}"


FORCES_COLUMNS = (
    ("k̄", "kbar", number(4), True), ("k̄_F", "kbar_F", number(4), True),
    ("numerical dissipation (N·mm/mm)", "dissipation_numerical", number(2), True),
    ("rubber–particle created (N·mm/mm)", "created_window_rubber_particle", number(2), True),
    ("energy error", "energy_balance_error", lambda v: f"{100 * v:.2f} %", True),
    ("assemblies", "assemblies", grouped, True))
UPDATE_COLUMNS = FORCES_COLUMNS[:3] + (
    ("of it the velocity update (N·mm/mm)", "dissipation_velocity_update", number(3), False),
    ) + FORCES_COLUMNS[3:]


def comparison_table(rows, other_rows, columns):
    """The points of `other_rows` beside the same points (by name) of `rows`: per column
    (title, key, format, both) "before → after", or the after value alone."""
    by_name = {r["name"]: r for r in rows if r["status"] == "ok"}
    lines = ["| shape | rubber | N | " + " | ".join(c[0] for c in columns) + " |",
             "|---|---|---|" + "---|" * len(columns)]
    for g in ordered(other_rows):
        shape, model = family(g)
        head = f"| {shape} | {model} | {particles(g)} |"
        if g["status"] != "ok":
            lines.append(f"{head} {g['status']} " + "| " * (len(columns) - 1) + "|")
            continue
        e = by_name.get(g["name"])
        cells = []
        for _, key, text, both in columns:
            after = value(g, key)
            after = "–" if math.isnan(after) else text(after)
            if not both:
                cells.append(after)
                continue
            before = value(e, key) if e else math.nan
            cells.append(f"{'–' if math.isnan(before) else text(before)} → {after}")
        lines.append(f"{head} {' | '.join(cells)} |")
    return "\n".join(lines)


def replace_block(text, marks, block, page):
    start, end = text.find(marks[0]), text.find(marks[1])
    if start < 0 or end < start:
        raise common.InputError(f"{page} has no {marks[0]} … {marks[1]} block")
    return text[:start + len(marks[0])] + "\n" + block + "\n" + text[end:]


def main(argv=None):
    parser = common.argument_parser(__doc__)
    parser.add_argument("sweeps", nargs="+", metavar="sweep",
                        help="a sweep's output directory or its sweep.csv")
    parser.add_argument("--page", help="the Markdown page whose marked tables to replace")
    parser.add_argument("--discrete-gradient", nargs="+", default=[], metavar="sweep",
                        help="sweeps run with the discrete-gradient rubber-particle forces, "
                        "set beside the same points of the main sweeps")
    parser.add_argument("--velocity-update", nargs="+", default=[], metavar="sweep",
                        help="sweeps run with Solver/Rubber-particle velocity update = true, "
                        "set beside the same points of the main sweeps (or of the "
                        "--without-velocity-update sweeps)")
    parser.add_argument("--without-velocity-update", nargs="+", default=[], metavar="sweep",
                        help="sweeps run without the velocity update, set beside the same "
                        "points of the main sweeps, which ran with it (or of the "
                        "--velocity-update sweeps)")
    args = parser.parse_args(argv)
    rows = common.with_unusable_points_failed(common.read_sweeps(args.sweeps, COLUMNS))
    table, fit = layer_table(rows), cost_fit(rows)
    forces = update = None
    if args.discrete_gradient:
        forces = comparison_table(rows, points_with(
            common.with_unusable_points_failed(
                common.read_sweeps(args.discrete_gradient, COLUMNS)),
            FORCES_ENTRY, "discrete gradient", "discrete gradient"), FORCES_COLUMNS)
    if args.velocity_update or args.without_velocity_update:
        # each side: the given sweeps, or the main ones; checked by their parameters.prm
        def side(sweeps, setting):
            return points_with(common.with_unusable_points_failed(
                common.read_sweeps(sweeps, COLUMNS)) if sweeps else rows,
                UPDATE_ENTRY, setting, "false")
        with_update = side(args.velocity_update, "true")
        update = comparison_table(side(args.without_velocity_update, "false"), with_update,
                                  UPDATE_COLUMNS)
    if not args.page:
        print("\n\n".join(t for t in (table, fit, forces, update) if t))
        return common.EXIT_OK
    try:
        with open(args.page, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise common.InputError(f"{args.page}: {e.strerror}")
    text = replace_block(text, TABLE_MARKS, table, args.page)
    if forces:
        text = replace_block(text, FORCES_MARKS, forces, args.page)
    if update:
        text = replace_block(text, UPDATE_MARKS, update, args.page)
    common.write_text(args.page, replace_block(text, FIT_MARKS, fit, args.page))
    return common.EXIT_OK


if __name__ == "__main__":
    sys.exit(common.run(main))
