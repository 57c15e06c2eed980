#!/usr/bin/python3
"""Plots the macroscopic friction coefficient k̄ and its frictional and viscous parts,
k̄ = k̄_F + k̄_V (Temizer 2013 eq. 13), against one swept parameter of a sweep's sweep.csv
(docs/methods.md §8.3, §8.4):

  pressure    the macroscopic pressure p (MPa; top axis in bar, 1 bar = 0.1 MPa); one
              panel per quantity
  relaxation  relaxation time times slip velocity over the cell length, tau0 v_F / L0
              (log axis; L0 from sweep.csv's block_length, or the point's parameters.prm);
              k̄_V is expected to peak near tau0 ~ L0 / v_F and to vanish in both limits;
              the three quantities in one panel
  particles   the number of particles per cell N (Sweep/Numbers of particles; summary.csv's
              column particles, so a point not done has no place on the axis); the three
              quantities in one panel
  payne       the Payne parameter d (s, log axis; eta = eta0 / (1 + d q), docs/methods.md
              §3.4): k̄ moves from the viscoelastic value (small d) towards the elastic
              one (large d); the d = 0 point (no place on a log axis) and the elastic
              rubber's point (point_rubber_model = elastic, Sweep/Rubber models = elastic,
              viscoelastic) are drawn as reference lines with their ± kbar_spread as a
              band; the three quantities in one panel

One curve per particle shape and per other swept value (a point without particle, by its
parameters.prm's Particle/Enabled = false or sweep.csv's r1 = r2 = 0, is labelled "bare
interface", never with a shape name). k̄ has error bars ± kbar_spread (the spread of the
moving average over the last quarter of the averaging window, which contains k̄; none for a
sweep.csv without that column). Only rows with status "ok" make the curves; failed points
are marked by a red cross on the x axis, stopped and pending ones by a grey circle, and all
of them are listed on stderr. A point whose k̄, k̄_F or k̄_V is not a finite number (inf or
nan in sweep.csv, or k̄ missing) counts as failed. A quantity whose values are all zero or absent (k̄_V of an
elastic rubber) is not drawn: no empty panel, no line along zero, also for one curve of
several (the elastic rubber's beside the viscoelastic one's).

Usage: kbar_vs_parameter.py {pressure,relaxation,payne,particles} SWEEP_CSV_OR_DIR
                            [SWEEP_CSV_OR_DIR ...] [-o PREFIX] [--layout panels|single]
                            [--length L0] [--dpi 150]
Several sweeps (e.g. a sweep over N and one of its points' neighbours run as a sweep of
their own) are drawn together; a point (by name) in more than one counts once.
kbar_vs_pressure.py, kbar_vs_relaxation.py and kbar_vs_payne.py are this script with the
parameter given (and their own default PREFIX).
--length overrides the cell length L0 of relaxation; it is needed only for sweeps written
before sweep.csv had the column block_length (then 10 mm is assumed, with a warning).
Writes PREFIX.png and PREFIX.pdf (atomically; default PREFIX kbar_vs_<parameter>) and
prints the number of points and the curves, then one line per curve with k̄ at the
smallest and the largest value of the parameter (and the references).
Exit status 0 on success, 1 if no point of a curve succeeded, 2 if sweep.csv is missing,
damaged or lacks the column kbar, an option's value is invalid (--length must be > 0), or
the figure cannot be written.
"""
import math
import sys
from collections import defaultdict

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import common  # noqa: E402
from common import to_float  # noqa: E402

# (sweep.csv column, symbol, line style in the one-panel layout)
QUANTITIES = [("kbar", r"$\bar k$", "o-"), ("kbar_F", r"$\bar k_F$", "s--"),
              ("kbar_V", r"$\bar k_V$", "^:")]
FAILED, NOT_DONE = "failed", "not done (stopped or pending)"


class Parameter:
    """What sets one kind of figure apart: the sweep.csv column of the x value, its symbol
    and unit, the axis (label, log scale, a top axis in bar for the pressure), the layout,
    the other swept columns that split the curves, and the points drawn as references."""

    def __init__(self, name, column, symbol, unit, axis_label, log, layout, others,
                 condition="", in_bar=False):
        self.name, self.column, self.symbol, self.unit = name, column, symbol, unit
        self.axis_label, self.log, self.layout = axis_label, log, layout
        self.others, self.condition, self.in_bar = others, condition, in_bar

    def x(self, row):
        """The point's value of the parameter (NaN if unknown)."""
        return to_float(row.get(self.column))

    def reference(self, row):
        """The reference a successful point stands for ("" if it is a curve's point)."""
        return ""

    def at(self, x):
        """"p = 2 MPa": a value of the parameter for the report."""
        return f"{self.symbol} = {x:g}" + (f" {self.unit}" if self.unit else "")


class Relaxation(Parameter):
    """x = tau0 v_F / L0 (dimensionless) with each point's cell length L0 (mm)."""

    def __init__(self):
        super().__init__("relaxation", None, "tau0 v_F/L0", "",
                         r"relaxation time $\times$ slip velocity, $\tau_0 \bar v_F / L_0$ (-)",
                         True, "single", ["point_pressure", "point_payne_d",
                                          "point_rubber_model"])
        self.lengths = {}

    def x(self, row):
        length = self.lengths.get(row["name"], 10.)
        return to_float(row.get("point_relaxation_time")) * \
            to_float(row.get("point_slip_velocity")) / length

    def set_lengths(self, sweep_dir, rows, override):
        """L0 of every point: `override`, else common.cell_length (10 mm with a warning
        where sweep.csv does not record it)."""
        unknown = False
        for r in rows:
            length = override if override is not None else \
                common.cell_length(r.get("sweep_dir", sweep_dir), r, rows)
            unknown |= length is None and r["status"] == "ok"
            self.lengths[r["name"]] = length if length is not None else 10.
        if unknown:
            common.warn("sweep.csv does not record the cell length (block_length; a sweep "
                        "of an older build): assuming L0 = 10 mm for those points; give "
                        "--length L0 if the cell was another")


class Payne(Parameter):
    """x = d (s); the elastic rubber's point and the d = 0 point are references."""

    def __init__(self):
        super().__init__("payne", "point_payne_d", "d", "s",
                         r"Payne parameter $d$ (s);  $\eta = \eta_0 / (1 + d\,q)$", True,
                         "single", ["point_pressure", "point_slip_velocity",
                                    "point_relaxation_time"], condition=" with d > 0")

    def reference(self, row):
        if row.get("point_rubber_model") == "elastic":
            return "elastic rubber"
        return "" if self.x(row) > 0. else "viscoelastic, d = 0"


def parameters():
    """{name: Parameter} of the figures this script draws (new objects: Relaxation keeps
    the cell lengths of one sweep)."""
    return {"pressure": Parameter("pressure", "point_pressure", "p", "MPa",
                                  "pressure p (MPa)", False, "panels",
                                  ["point_slip_velocity", "point_relaxation_time",
                                   "point_payne_d", "point_rubber_model"], in_bar=True),
            "relaxation": Relaxation(), "payne": Payne(),
            "particles": Parameter("particles", "particles", "N", "",
                                   "particles per cell N", False, "single",
                                   ["point_pressure", "point_slip_velocity",
                                    "point_relaxation_time", "point_payne_d",
                                    "point_rubber_model"])}


def drawn_quantities(rows):
    """The QUANTITIES that have a non-zero number in one of `rows` at least."""
    return [q for q in QUANTITIES
            if any(not math.isnan(v) and v != 0. for v in (to_float(r.get(q[0]))
                                                          for r in rows))]


def spread(row):
    s = abs(to_float(row.get("kbar_spread")))
    return s if math.isfinite(s) else 0.


def mark_unfinished(ax, rows, x, with_labels):
    """Failed points: red crosses on the x axis; stopped and pending ones: grey circles."""
    style = dict(ls="none", transform=ax.get_xaxis_transform(), clip_on=False, zorder=5)
    for marks, label, look in (
            ([x(r) for r in rows if r["status"] == "failed"], FAILED,
             dict(marker="x", color="red", ms=10, mew=2.5)),
            ([x(r) for r in rows if r["status"] not in ("ok", "failed")], NOT_DONE,
             dict(marker="o", mfc="none", color="0.4", ms=8, mew=1.5))):
        if marks:
            ax.plot(marks, [0.] * len(marks), label=label if with_labels else None,
                    **look, **style)


class Sweep:
    """The successful points of a sweep split into curves {label: rows sorted by x} and
    references {label: {name: row}}, and the points not done."""

    def __init__(self, rows, parameter, sweep_dir):
        self.parameter, self.all = parameter, rows
        ok = common.successful_points(rows)
        varying = common.varying_columns(ok, parameter.others)
        self.curves, self.references = defaultdict(list), defaultdict(dict)
        for r in ok:
            label = ", ".join([common.shape_label(r.get("sweep_dir", sweep_dir), r)] +
                              [common.swept_value_text(c, r[c]) for c in varying])
            name = parameter.reference(r)
            if name:
                self.references[label][name] = r
            elif not math.isnan(parameter.x(r)):
                self.curves[label].append(r)
        for points in self.curves.values():
            points.sort(key=parameter.x)
        self.unfinished = [r for r in rows if r["status"] != "ok"
                           and (parameter.x(r) > 0. if parameter.log
                                else not math.isnan(parameter.x(r)))]
        self.drawn = drawn_quantities([r for c in self.curves.values() for r in c])

    def ordered_references(self, label):
        """[(name, row)] of a curve's references, the viscoelastic one first."""
        return sorted(self.references.get(label, {}).items(),
                      key=lambda item: item[0] == "elastic rubber")

    def report(self):
        """One line per curve: k̄ at both ends and the references' k̄."""
        x, lines = self.parameter.x, []
        for label, points in sorted(self.curves.items()):
            first, last = points[0], points[-1]
            line = (f"{label}: kbar {to_float(first['kbar']):.4f} at "
                    f"{self.parameter.at(x(first))}, {to_float(last['kbar']):.4f} at "
                    f"{self.parameter.at(x(last))}")
            for name, r in self.ordered_references(label):
                line += f"; {name} {to_float(r['kbar']):.4f}"
            lines.append(line)
        return lines


def draw_references(ax, sweep, colours, column, symbol, with_labels):
    """Each curve's references as horizontal lines (k̄ with its ± kbar_spread band)."""
    values = []
    for label in sorted(sweep.references):
        for name, r in sweep.ordered_references(label):
            value = to_float(r.get(column))
            if math.isnan(value):
                continue
            elastic = name == "elastic rubber"
            ax.axhline(value, color="0.3" if elastic else colours.get(label, "0.5"),
                       ls="-" if elastic else "-.", lw=1.2,
                       label=f"{label}: {symbol} of the {name}" if with_labels else None)
            band = spread(r) if column == "kbar" else 0.
            if band:
                ax.axhspan(value - band, value + band, color="0.5", alpha=0.12, lw=0)
            values.append(value + band)
    return values


def draw_curve(ax, x, points, column, label, colour, style, lw):
    """One quantity of one curve; k̄ with error bars if sweep.csv has kbar_spread. The
    largest value drawn (with its error bar)."""
    xs = [x(r) for r in points]
    ys = [to_float(r.get(column)) for r in points]
    if column == "kbar" and any("kbar_spread" in r and r["kbar_spread"] for r in points):
        bars = [spread(r) for r in points]
        ax.errorbar(xs, ys, yerr=bars, fmt=style, color=colour, capsize=3, lw=lw,
                    label=label)
    else:
        bars = [0.] * len(ys)
        ax.plot(xs, ys, style, color=colour, lw=lw, label=label)
    return [y + b for y, b in zip(ys, bars) if not math.isnan(y)]


def finish_axes(ax, parameter, values, ylabel):
    ax.set_xlabel(parameter.axis_label)
    ax.set_ylabel(ylabel)
    ax.grid(True, which="both", alpha=0.3)
    top = max(values, default=0.)
    bottom = min([0.] + values)
    ax.set_ylim(1.1 * bottom, 1.12 * top if top > 0. else 1.)
    if parameter.log:
        ax.set_xscale("log")
    if parameter.in_bar:        # 1 bar = 0.1 MPa
        bar = ax.secondary_xaxis("top", functions=(lambda p: 10. * p, lambda b: 0.1 * b))
        bar.set_xlabel("pressure p (bar)")


def panels_figure(sweep, colours):
    """One panel per drawn quantity; the legend below the panels."""
    parameter = sweep.parameter
    fig, axes = plt.subplots(1, len(sweep.drawn), figsize=(4.4 * len(sweep.drawn), 4.2),
                             squeeze=False)
    spread_column = "kbar_spread" in sweep.all[0]
    for n, (ax, (column, symbol, _)) in enumerate(zip(axes[0], sweep.drawn)):
        values = []
        for label, points in sorted(sweep.curves.items()):
            if (column, symbol, _) not in drawn_quantities(points):
                continue    # zero along this curve (k̄_V of an elastic one): no line on 0
            values += draw_curve(ax, parameter.x, points, column, label, colours[label],
                                 "o-", 1.5)
        values += draw_references(ax, sweep, colours, column, symbol, n == 0)
        mark_unfinished(ax, sweep.unfinished, parameter.x, with_labels=n == 0)
        finish_axes(ax, parameter, values, symbol + (
            r" (error bars $\pm$ kbar_spread)" if column == "kbar" and spread_column
            else "") + " (-)")
    handles, labels = axes[0][0].get_legend_handles_labels()
    order = sorted(range(len(labels)), key=lambda i: labels[i] in (FAILED, NOT_DONE))
    fig.tight_layout()
    fig.legend([handles[i] for i in order], [labels[i] for i in order], fontsize="small",
               loc="upper center", bbox_to_anchor=(0.5, 0.0),
               ncol=min(4, max(1, len(labels))))
    return fig


def single_figure(sweep, colours):
    """The drawn quantities of every curve in one panel; the legend to its right."""
    parameter = sweep.parameter
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    values = []
    for label, points in sorted(sweep.curves.items()):
        # a quantity that is zero along this curve (k̄_V of an elastic one): no line on 0
        for column, symbol, style in drawn_quantities(points):
            text = f"{label}: {symbol}" + (r" ($\pm$ kbar_spread)" if column == "kbar"
                                           and "kbar_spread" in sweep.all[0] else "")
            values += draw_curve(ax, parameter.x, points, column, text, colours[label],
                                 style, 1.5 if column == "kbar" else 1.)
    values += draw_references(ax, sweep, colours, "kbar", r"$\bar k$", True)
    mark_unfinished(ax, sweep.unfinished, parameter.x, with_labels=True)
    if parameter.log:      # a margin; at least two decades, so that decades are labelled
        xs = [parameter.x(r) for r in sweep.all if parameter.x(r) > 0.]
        margin = 3. if max(xs) >= 10. * min(xs) else 10.
        ax.set_xlim(min(xs) / margin, max(xs) * margin)
    finish_axes(ax, parameter, values, "macroscopic friction coefficient (-)")
    common.legend_by_curve(ax, ("k_F", "k_V", "of the"))  # the references after k̄_V
    fig.tight_layout()
    return fig


def plot(rows, parameter, sweep_dir=".", layout=None, length=None):
    """(figure, Sweep) of a sweep's rows (common.read_sweep) against `parameter`
    ("pressure", "relaxation", "payne", "particles"); `layout` "panels" or "single" (default: the
    parameter's); `length` overrides L0 (mm) of relaxation. The figure is None if no
    point of a curve succeeded."""
    spec = parameters()[parameter]
    rows = common.with_unusable_points_failed(rows)
    if isinstance(spec, Relaxation):
        spec.set_lengths(sweep_dir, rows, length)
    sweep = Sweep(rows, spec, sweep_dir)
    if not sweep.curves:
        return None, sweep
    colours = {label: f"C{n % 10}" for n, label in enumerate(sorted(sweep.curves))}
    if (layout or spec.layout) == "panels":
        return panels_figure(sweep, colours), sweep
    return single_figure(sweep, colours), sweep


def main(argv=None, parameter=None):
    """The command line; `parameter` fixed by the aliases kbar_vs_<parameter>.py."""
    parser = common.argument_parser(__doc__)
    if parameter is None:
        parser.add_argument("parameter", choices=sorted(parameters()),
                            help="the swept parameter on the x axis")
    parser.add_argument("sweeps", nargs="+", metavar="sweep",
                        help="sweep.csv or the sweep's output directory; several sweeps "
                             "are drawn together")
    common.add_output_argument(parser, None, default_text="kbar_vs_PARAMETER")
    parser.add_argument("--layout", choices=("panels", "single"),
                        help="one panel per quantity, or all in one (default: panels for "
                             "pressure, single for the others)")
    parser.add_argument("--length", type=common.argument_number(positive=True, unit="mm"),
                        default=None, metavar="L0",
                        help="relaxation: the cell length L0 in mm, > 0 (default: each "
                             "point's block_length from sweep.csv)")
    common.add_dpi_argument(parser)
    args = parser.parse_args(argv)
    parameter = parameter or args.parameter
    prefix = common.output_prefix(args.output or f"kbar_vs_{parameter}")
    rows = common.read_sweeps(args.sweeps, ("name", "status", "kbar"))
    sweep_dir, _ = common.sweep_paths(args.sweeps[0])
    fig, sweep = plot(rows, parameter, sweep_dir, args.layout, args.length)
    if fig is None:
        print(f"{common.PROGRAM}: no successful point{sweep.parameter.condition} in the "
              "sweep", file=sys.stderr)
        return common.EXIT_NOTHING_TO_DO
    common.save_figure(fig, prefix, args.dpi)
    rows = sweep.all  # with the points whose k̄ is not finite counted as failed
    failed = sum(r["status"] == "failed" for r in rows)
    points = sum(len(c) for c in sweep.curves.values())
    print(f"{common.PROGRAM}: wrote {prefix}.png and {prefix}.pdf ({points} points, "
          f"{failed} failed, {sum(r['status'] not in ('ok', 'failed') for r in rows)} not "
          f"done; {len(sweep.curves)} curves: {'; '.join(sorted(sweep.curves))})")
    for line in sweep.report():
        print(f"  {line}")
    return common.EXIT_OK


def alias(parameter):
    """The exit status of kbar_vs_<parameter>.py: this script with the parameter fixed."""
    return common.run(lambda argv: main(argv, parameter))


if __name__ == "__main__":
    sys.exit(common.run(main))
