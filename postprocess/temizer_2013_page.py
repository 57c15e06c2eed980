#!/usr/bin/python3
"""The validation page of the reproduced Temizer 2013 study, from the studies' CSV files.

Usage:
    temizer_2013_page.py [--data DIR] [--page DIR] [--notes FILE]

Reads DATA/<study>.csv (the sweep.csv of each study of params/temizer-2013/, copied there by
scripts/reproduce-temizer-2013.sh) and DATA/histories/<study>/<point>.csv (the k_I
histories of Fig. 8), and writes PAGE/temizer-2013.md with its figures
PAGE/temizer-2013/fig*.png: each figure of Temizer 2013 §5 in the paper's layout, the
convergence of k̄, Table 5, and a table of every number (k̄, k̄_F, k̄_V, spread, energy
error, numerical share, wall time) per study. A point that a study file asks for but that
has not been computed (no row in its study's CSV file, or no such file), or has failed, is
listed as missing or failed (with its error) in the tables and named under its figure:
never dropped silently. A row whose status is ok but whose k̄ (or k̄_F, k̄_V) is not a
finite number counts as failed.

The error bars of the figures are k̄'s discretisation uncertainty from the convergence
studies (the largest change of k̄ between the 40 x 15 mesh with the reference step 1e-4 T0
and the finer meshes and steps, per rubber model, over the circle and the ellipse), where
those have been computed.

The text beside each figure comes from NOTES (default PAGE/temizer-2013/notes.md):
sections "## fig6a", "## fig6b", ... written once the results are in; a figure without
its section says so.

Options:
    --data DIR    default docs/validation/temizer-2013/data
    --page DIR    default docs/validation
    --notes FILE  default PAGE/temizer-2013/notes.md

Exit status 0; 2 if DATA is not a directory or a CSV file is damaged: a row with more or
fewer fields than the header (a file cut short), or a column the page needs missing. The
message names the directory, or the file and its line or column; the page and its figures
are then left as they were.
"""
import itertools
import math
import os
import sys
import textwrap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUDY_DIR = os.path.join(ROOT, "params", "temizer-2013")

# Every study of params/temizer-2013/, in the order the page lists them.
STUDIES = [
    "fig6a-elastic", "fig6a-elastic-square",
    "viscoelastic-pressure-circles", "viscoelastic-pressure-noncircular",
    "viscoelastic-pressure-square", "fig6b-payne-ellipse",
    "fig9-circles", "fig9-noncircular", "fig9-square",
    "table5-velocity-circle", "table5-velocity-noncircular", "table5-velocity-square",
    "convergence-40x15-dt1e-4", "convergence-40x15-dt5e-5", "convergence-60x22-dt1e-4",
    "convergence-60x22-dt5e-5", "convergence-80x30-dt1e-4", "convergence-80x30-dt5e-5",
]
SHAPES = ["circular", "elliptical", "rectangular", "square"]
BIG_CIRCLE = "0.75:0.75:2:2"       # the circle of radius 1.5 r0
SMOOTH_SQUARE = "0.5:0.5:3:3"      # r1 = r2 = r0, p1 = p2 = 3
LABEL = {"circular": "circle", "elliptical": "ellipse", "rectangular": "rectangle",
         "square": "square", BIG_CIRCLE: "circle 1.5 r0", SMOOTH_SQUARE: "square p = 3"}
MARKER = {"circular": "o", "elliptical": "s", "rectangular": "D", "square": "^",
          BIG_CIRCLE: "v", SMOOTH_SQUARE: "<"}
# one colour per shape in every figure, whichever of its panels have points of it yet
COLOR = {"circular": "C0", "elliptical": "C1", "rectangular": "C2", "square": "C3",
         BIG_CIRCLE: "C4", SMOOTH_SQUARE: "C5"}
TAU_V_REFERENCE = 1e-4 * 2500.     # tau0 vbar_F of Table 5's ratio 1 (s mm/s)
# the columns of a study's CSV file that the page reads, and those of a k_I history
COLUMNS = ("name", "status", "error", "point_pressure", "point_slip_velocity",
           "point_shape", "point_rubber_model", "point_relaxation_time", "point_payne_d",
           "kbar", "kbar_F", "kbar_V", "kbar_spread", "energy_balance_error", "wall_time",
           "block_length", "slip_velocity", "mean_normal_force", "dissipation_numerical")
HISTORY_COLUMNS = ("t", "kI")


def split_list(text):
    return [x.strip() for x in text.split(",") if x.strip()]


def point_name(pressure, slip_velocity, relaxation_time, shape, payne_d, model):
    """The name the sweep gives a point and its directory (lib/sweep/sweep_runner.cc):
    p<p>_v<v>_tau<tau0>_<shape>_d<d>_<model>, numbers as C's %.6g, a shape's ':' as 'x'."""
    label = "".join("x" if c == ":" else c if c.isalnum() or c in ".-+" else "_"
                    for c in shape)
    return (f"p{pressure:.6g}_v{slip_velocity:.6g}_tau{relaxation_time:.6g}_{label}"
            f"_d{payne_d:.6g}_{model}")


def study_points(path, overrides=None):
    """The points of a study file as dicts (name, pressure, slip_velocity, relaxation_time,
    shape, payne_d, model, mesh, averaging_time, time_step), in the sweep's order and with
    its rule that an elastic point is taken once per pressure, velocity and shape
    (lib/sweep/sweep_runner.h). `overrides` ({"Sub/Entry": value}) replace the file's
    entries."""
    e = common.read_parameters(path)
    e.update(overrides or {})

    def listed(key, single):
        values = split_list(e.get(f"Sweep/{key}", ""))
        return values if values else [single]

    model = "viscoelastic" if e.get("Rubber/Maxwell branch/Viscoelastic", "false") == "true" \
        else "elastic"
    lists = [listed("Pressures", e.get("Loading/Pressure", "2")),
             listed("Slip velocities", e.get("Loading/Slip velocity", "2500")),
             listed("Relaxation times", e.get("Rubber/Maxwell branch/Relaxation time", "1e-4")),
             listed("Shapes", e.get("Particle/Shape", "elliptical")),
             listed("Payne parameters", e.get("Rubber/Maxwell branch/Payne parameter", "0")),
             listed("Rubber models", model)]
    shared = {"mesh": (int(e.get("Geometry/Elements in x", "40")),
                       int(e.get("Geometry/Elements in y", "15"))),
              "averaging_time": float(e.get("Loading/Averaging time", "2")),
              "time_step": float(e.get("Loading/Time step", "1e-4"))}
    points, seen = [], set()
    for p, v, tau, shape, d, m in itertools.product(*lists):
        if m == "elastic":
            if (p, v, shape) in seen:
                continue
            seen.add((p, v, shape))
        values = dict(pressure=float(p), slip_velocity=float(v), relaxation_time=float(tau),
                      shape=shape, payne_d=float(d), model=m)
        points.append(dict(shared, name=point_name(**values), **values))
    return points


def close(a, b):
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-300)


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return float("nan")


class Point:
    """A point a study asks for, with its row of sweep.csv if the study has one, and its
    k_I history ({"t": [s], "kI": [-]}) if one is committed."""

    def __init__(self, study, plan, row, history=None):
        self.study, self.plan, self.row, self.history = study, plan, row, history
        for key, value in plan.items():
            setattr(self, key, value)

    @property
    def status(self):
        return self.row["status"] if self.row else "missing"

    @property
    def ok(self):
        return self.status == "ok"

    def get(self, column):
        return number(self.row.get(column)) if self.ok else float("nan")

    @property
    def numerical_share(self):
        """Newmark's numerical dissipation per unit of the window's normal work (the
        normalisation of kbar_F; benchmarks/run.py)."""
        if not self.ok:
            return float("nan")
        window = self.averaging_time * self.get("block_length") / self.get("slip_velocity")
        work = self.get("mean_normal_force") * window * self.get("slip_velocity")
        return self.get("dissipation_numerical") / work if work > 0 else float("nan")

    def describe(self):
        text = f"{LABEL.get(self.shape, self.shape)}, {self.model}, p = {self.pressure:g} MPa"
        if self.model == "viscoelastic":
            text += f", τ0 = {self.relaxation_time:g} s, d = {self.payne_d:g} s"
        if not close(self.slip_velocity, 2500.):
            text += f", v_F = {self.slip_velocity / 1000.:g} m/s"
        return text


def load(data_dir):
    """{study: [Point]} for every study: the planned points matched with the rows of
    DATA/<study>.csv (missing file: not computed, every point missing), with their
    histories. InputError if DATA is no directory or a file is damaged."""
    if not os.path.isdir(data_dir):
        raise common.InputError(f"{data_dir}: no such directory (--data: the directory of "
                                "the studies' CSV files)")
    studies = {}
    for study in STUDIES:
        plan = study_points(os.path.join(STUDY_DIR, f"{study}.prm"))
        path = os.path.join(data_dir, f"{study}.csv")
        rows = common.with_unusable_points_failed(common.read_sweep(path, COLUMNS)) \
            if os.path.isfile(path) else []
        points = []
        for p in plan:
            match = None
            for r in rows:
                if (close(number(r["point_pressure"]), p["pressure"]) and
                        close(number(r["point_slip_velocity"]), p["slip_velocity"]) and
                        r["point_shape"] == p["shape"] and
                        r["point_rubber_model"] == p["model"] and
                        (p["model"] == "elastic" or
                         (close(number(r["point_relaxation_time"]), p["relaxation_time"]) and
                          close(number(r["point_payne_d"]), p["payne_d"])))):
                    match = r
                    break
            history = None
            if match is not None and match["status"] == "ok":
                path = os.path.join(data_dir, "histories", study, f"{match['name']}.csv")
                history = read_history(path) if os.path.isfile(path) else None
            points.append(Point(study, p, match, history))
        studies[study] = points
    return studies


def select(studies, names, **conditions):
    """The points of the studies `names` whose attributes equal `conditions` (floats within
    round-off)."""
    out = []
    for name in names:
        for p in studies[name]:
            if all(close(getattr(p, k), v) if isinstance(v, float) else getattr(p, k) == v
                   for k, v in conditions.items()):
                out.append(p)
    return out


# ---------------------------------------------------------------------------------------
# the discretisation uncertainty
# ---------------------------------------------------------------------------------------

def convergence(studies):
    """(rows of the convergence table, {model: uncertainty of kbar or nan})."""
    names = [s for s in STUDIES if s.startswith("convergence-")]
    base = "convergence-40x15-dt1e-4"
    rows, uncertainty = [], {}
    for shape in ("circular", "elliptical"):
        for model in ("elastic", "viscoelastic"):
            values = {}
            for name in names:
                found = select(studies, [name], shape=shape, model=model)
                values[name] = found[0] if found else None
            ref = values[base]
            changes = [abs(p.get("kbar") - ref.get("kbar")) for n, p in values.items()
                       if n != base and p is not None and p.ok and ref is not None and ref.ok]
            delta = max(changes) if changes else float("nan")
            rows.append((shape, model, values, delta))
            if changes:
                uncertainty[model] = max(uncertainty.get(model, 0.), delta)
    return rows, uncertainty


# ---------------------------------------------------------------------------------------
# figures
# ---------------------------------------------------------------------------------------

def plot_series(ax, points, x, y="kbar", label=None, bars=None, style="-", **kw):
    """One curve of the ok points (sorted by x), with error bars `bars` if finite."""
    good = sorted((p for p in points if p.ok), key=x)
    if not good:
        return
    xs = [x(p) for p in good]
    ys = [p.get(y) for p in good]
    if bars is not None and math.isfinite(bars):
        ax.errorbar(xs, ys, yerr=bars, fmt=style, capsize=2, label=label, **kw)
    else:
        ax.plot(xs, ys, style, label=label, **kw)


def legend(axes):
    """The legend to the right of the last of `axes` (one or a list of panels that draw
    the same curves), with every curve drawn in any of them, once, in the order they first
    appear: a curve whose points are computed in one panel only (or in none yet) is still
    named, in the colour it has wherever it is drawn."""
    axes = list(axes) if isinstance(axes, (list, tuple)) else [axes]
    handles, seen = [], set()
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            if label not in seen:
                seen.add(label)
                handles.append(handle)
    if handles:
        common.outside_legend(axes[-1], handles=handles)


def cell(points, column="kbar"):
    """A table cell: the value of the first point, or its status (missing, failed)."""
    if not points:
        return "–"
    return fmt(points[0].get(column)) if points[0].ok else points[0].status


def missing_note(fig, points):
    """The points of a figure that are not computed, named under it."""
    missing = [p for p in points if not p.ok]
    if missing:
        text = "; ".join(f"{p.describe()} ({p.status})" for p in missing[:6])
        if len(missing) > 6:
            text += f"; and {len(missing) - 6} more"
        # wrapped to the figure's width (6-pt characters are about 3.2 pt wide): matplotlib's
        # own wrapping is undone by the tight bounding box of the saved figure
        width = max(40, int(fig.get_figwidth() * 72. / 3.2))
        fig.text(0.01, -0.02, textwrap.fill(f"not computed: {text}", width), fontsize=6,
                 va="top")
    return missing


def figures(studies, uncertainty, out_dir):
    """Draws every figure; {figure: (file name, [missing points])}."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    made = {}
    pressure = lambda p: p.pressure                              # noqa: E731
    tau_v = lambda p: p.relaxation_time * p.slip_velocity            # mm      # noqa: E731
    u_el, u_ve = uncertainty.get("elastic"), uncertainty.get("viscoelastic")

    def save(fig, name, points):
        missing = missing_note(fig, points)
        common.save_figure(fig, os.path.join(out_dir, name), formats=("png",))
        made[name] = (f"{name}.png", missing)

    # Fig. 6a: elastic kbar against the pressure, the four shapes and the bounding circles
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    shown = []
    for shape in ["circular", "elliptical", "rectangular", "square", BIG_CIRCLE]:
        pts = select(studies, ["fig6a-elastic", "fig6a-elastic-square"], shape=shape)
        shown += pts
        plot_series(ax, pts, pressure, label=LABEL[shape], bars=u_el,
                    style=f"-{MARKER[shape]}", ms=4, color=COLOR[shape])
    ax.set(xlabel="p̄ (MPa)", ylabel="k̄", title="Fig. 6a: elastic rubber")
    ax.grid(alpha=0.3)
    legend(ax)
    save(fig, "fig6a", shown)

    # Fig. 6b: the ellipse, elastic, viscoelastic and with the Payne effect
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    pts = select(studies, ["fig6a-elastic"], shape="elliptical")
    shown = list(pts)
    plot_series(ax, pts, pressure, label="elastic", bars=u_el, style="-o", ms=4)
    pts = select(studies, ["viscoelastic-pressure-noncircular"], shape="elliptical")
    shown += pts
    plot_series(ax, pts, pressure, label="viscoelastic, d = 0", bars=u_ve, style="-s", ms=4)
    for d in sorted({p.payne_d for p in studies["fig6b-payne-ellipse"]}):
        pts = select(studies, ["fig6b-payne-ellipse"], payne_d=d)
        shown += pts
        plot_series(ax, pts, pressure, label=f"Payne, d = {d:g} s", bars=u_ve, style="--^",
                    ms=4)
    ax.set(xlabel="p̄ (MPa)", ylabel="k̄", title="Fig. 6b: ellipse, τ0 = 1e-4 s")
    ax.grid(alpha=0.3)
    legend(ax)
    save(fig, "fig6b", shown)

    # Fig. 7: kbar, kbar_F and kbar_V of the circle and the rectangle, beside the elastic kbar
    fig, axes = plt.subplots(1, 2, figsize=(9.6, 3.8), sharey=True)
    shown = []
    for ax, shape, study in zip(axes, ["circular", "rectangular"],
                                ["viscoelastic-pressure-circles",
                                 "viscoelastic-pressure-noncircular"]):
        ve = select(studies, [study], shape=shape)
        el = select(studies, ["fig6a-elastic"], shape=shape)
        shown += ve + el
        plot_series(ax, ve, pressure, "kbar", "k̄ viscoelastic", u_ve, "-o", ms=4)
        plot_series(ax, ve, pressure, "kbar_F", "k̄_F", None, "--s", ms=3)
        plot_series(ax, ve, pressure, "kbar_V", "k̄_V", None, ":^", ms=3)
        plot_series(ax, el, pressure, "kbar", "k̄ elastic", u_el, "-", color="0.5")
        ax.set(xlabel="p̄ (MPa)", title=f"Fig. 7: {LABEL[shape]}")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("k̄, k̄_F, k̄_V")
    legend(list(axes))
    save(fig, "fig7", shown)

    # Fig. 8: k_I(t) and its moving average, elastic at 1 MPa and viscoelastic at 2 MPa
    fig, axes = plt.subplots(2, 4, figsize=(12, 5), sharex=True, sharey="row")
    shown = []
    for col, shape in enumerate(SHAPES):
        for row, (names, cond, title) in enumerate([
                (["fig6a-elastic", "fig6a-elastic-square"], {"pressure": 1.},
                 "elastic, 1 MPa"),
                (["fig9-circles", "fig9-noncircular", "fig9-square"],
                 {"relaxation_time": 2e-3}, "viscoelastic, 2 MPa, τ0 = 2e-3 s")]):
            ax = axes[row][col]
            pts = select(studies, names, shape=shape, **cond)
            shown += pts
            for p in pts:
                h = p.history
                if h:
                    T0 = p.get("block_length") / p.slip_velocity       # L0 / v_F
                    t = [x / T0 for x in h["t"]]
                    ax.plot(t, h["kI"], lw=0.4, color="0.6", label="k_I")
                    window = moving_average(t, h["kI"], 2.)
                    ax.plot([x for x, _ in window], [k for _, k in window], lw=1.2,
                            color="C0", label="moving average")
            ax.set_title(f"{LABEL[shape]}, {title}", fontsize=8)
            ax.grid(alpha=0.3)
            if row == 1:
                ax.set_xlabel("t / T0")
        axes[0][0].set_ylabel("k_I")
        axes[1][0].set_ylabel("k_I")
    save(fig, "fig8", shown)

    # Fig. 9: kbar, kbar_F, kbar_V against tau0 vbar_F at 2 MPa, one panel per shape
    shapes9 = SHAPES + [SMOOTH_SQUARE]
    fig, axes = plt.subplots(1, len(shapes9), figsize=(15, 3.6), sharex=True, sharey=True)
    shown = []
    for ax, shape in zip(axes, shapes9):
        pts = select(studies, ["fig9-circles", "fig9-noncircular", "fig9-square"], shape=shape)
        shown += pts
        plot_series(ax, pts, tau_v, "kbar", "k̄", u_ve, "-o", ms=4)
        plot_series(ax, pts, tau_v, "kbar_F", "k̄_F", None, "--s", ms=3)
        plot_series(ax, pts, tau_v, "kbar_V", "k̄_V", None, ":^", ms=3)
        ax.set_xscale("log")
        ax.set(xlabel="τ0 v̄_F (mm)", title=f"Fig. 9: {LABEL[shape]}")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("k̄, k̄_F, k̄_V")
    legend(list(axes))
    save(fig, "fig9", shown)

    # Fig. 10: the viscoelastic responses merged with the 1.5 r0 circle's
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    shown = []
    for shape in SHAPES + [BIG_CIRCLE]:
        pts = select(studies, ["viscoelastic-pressure-circles",
                               "viscoelastic-pressure-noncircular",
                               "viscoelastic-pressure-square"], shape=shape)
        shown += pts
        plot_series(axes[0], pts, pressure, label=LABEL[shape], bars=u_ve,
                    style=f"-{MARKER[shape]}", ms=4, color=COLOR[shape])
        pts = select(studies, ["fig9-circles", "fig9-noncircular", "fig9-square"],
                     shape=shape)
        shown += pts
        plot_series(axes[1], pts, tau_v, label=LABEL[shape], bars=u_ve,
                    style=f"-{MARKER[shape]}", ms=4, color=COLOR[shape])
    axes[0].set(xlabel="p̄ (MPa)", ylabel="k̄", title="Fig. 10: viscoelastic, τ0 = 1e-4 s")
    axes[1].set(xlabel="τ0 v̄_F (mm)", title="Fig. 10: viscoelastic, p̄ = 2 MPa")
    axes[1].set_xscale("log")
    for ax in axes:
        ax.grid(alpha=0.3)
    legend(list(axes))
    save(fig, "fig10", shown)
    return made


def moving_average(t, k, start):
    """k_I* of Temizer 2013, eq. (12), at the rows of a history from `start` on: the mean of
    k_I over [start, t] by the trapezoidal rule over the rows, as the program integrates it
    over its steps (lib/coupling/macroscopic_friction.h). Computed here from k_I rather
    than read from the kI_avg column, whose row inside a step that opens the window blended
    k_I* with the 0 before the window in history files of earlier program versions.
    Returns [(t, k_I*)] for the rows after the first one at or after `start`."""
    out, integral, prev = [], 0., None
    for x, y in zip(t, k):
        if x < start:
            continue
        if prev is not None:
            integral += 0.5 * (y + prev[1]) * (x - prev[0])
            out.append((x, integral / (x - first)))
        else:
            first = x
        prev = (x, y)
    return out


def read_history(path):
    """A committed k_I history (DATA/histories/<study>/<name>.csv) as {"t": [s], "kI": [-]};
    InputError if it is damaged: no row, a column missing, a row cut short or no number."""
    rows = common.read_table(path, complete=True)
    missing = [c for c in HISTORY_COLUMNS if rows and c not in rows[0]]
    if not rows or missing:
        raise common.InputError(f"{path} has " + (f"no column {', '.join(missing)}"
                                                  if missing else "no row"))
    history = {c: [number(r[c]) for r in rows] for c in HISTORY_COLUMNS}
    for line, values in enumerate(zip(*history.values()), start=2):
        if not all(map(math.isfinite, values)):
            raise common.InputError(f"{path}, line {line}: no number in t or kI")
    return history


# ---------------------------------------------------------------------------------------
# the page
# ---------------------------------------------------------------------------------------

def fmt(x, digits=4):
    return f"{x:.{digits}f}" if math.isfinite(x) else "–"


def point_table(points):
    lines = ["| point | status | k̄ | k̄_F | k̄_V | spread | energy error | numerical share "
             "| wall time |", "|---|---|---|---|---|---|---|---|---|"]
    for p in points:
        if p.ok:
            lines.append(f"| {p.describe()} | ok | {fmt(p.get('kbar'))} | "
                         f"{fmt(p.get('kbar_F'))} | {fmt(p.get('kbar_V'))} | "
                         f"{fmt(p.get('kbar_spread'))} | "
                         f"{fmt(100. * p.get('energy_balance_error'), 2)} % | "
                         f"{fmt(p.numerical_share)} | {fmt(p.get('wall_time'), 0)} s |")
        else:
            error = (p.row or {}).get("error", "") if p.status == "failed" else ""
            status = f"**{p.status}**" + (f": {error}" if error else "")
            lines.append(f"| {p.describe()} | {status} | – | – | – | – | – | – | – |")
    return "\n".join(lines)


def table5(studies):
    lines = ["| shape | route | τ0 v̄_F / (1e-4 s · 2.5 m/s) = 0.1 | 1 | 10 |",
             "|---|---|---|---|---|"]
    names9 = ["fig9-circles", "fig9-noncircular", "fig9-square"]
    names5 = ["table5-velocity-circle", "table5-velocity-noncircular", "table5-velocity-square"]
    for shape in SHAPES:
        cells = []
        for ratio in (0.1, 1., 10.):
            pts = select(studies, names9, shape=shape, relaxation_time=1e-4 * ratio)
            cells.append(cell(pts))
        lines.append(f"| {LABEL[shape]} | (a) τ0, d = 0 | " + " | ".join(cells) + " |")
        for d in (0., 1e-6, 1e-5):
            cells = []
            for ratio in (0.1, 1., 10.):
                pts = select(studies, names5, shape=shape, payne_d=d,
                             slip_velocity=2500. * ratio)
                cells.append(cell(pts))
            lines.append(f"| {LABEL[shape]} | (b) v̄_F, d = {d:g} s | " + " | ".join(cells) +
                         " |")
    return "\n".join(lines)


def convergence_table(rows):
    names = [s for s in STUDIES if s.startswith("convergence-")]
    head = " | ".join(n[len("convergence-"):].replace("-dt", ", Δt = ") + " T0" for n in names)
    lines = [f"| shape | rubber | {head} | largest change | spread (40 × 15) |",
             "|---|---|" + "---|" * len(names) + "---|---|"]
    for shape, model, values, delta in rows:
        cells = [cell([values[n]] if values[n] is not None else []) for n in names]
        base = values["convergence-40x15-dt1e-4"]
        spread = base.get("kbar_spread") if base is not None else float("nan")
        lines.append(f"| {LABEL[shape]} | {model} | " + " | ".join(cells) +
                     f" | {fmt(delta)} | {fmt(spread)} |")
    return "\n".join(lines)


def read_notes(path):
    """{section: text} of the notes file's "## name" sections."""
    notes, name = {}, None
    if not os.path.isfile(path):
        return notes
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("## "):
                name = line[3:].strip()
                notes[name] = ""
            elif name:
                notes[name] += line
    return {k: v.strip() for k, v in notes.items()}


def page(studies, made, conv_rows, uncertainty, notes):
    total = sum(len(p) for p in studies.values())
    done = sum(p.ok for pts in studies.values() for p in pts)
    failed = sum(p.status == "failed" for pts in studies.values() for p in pts)
    # a point that several studies share was computed once (docs/sweeps.md)
    wall = sum(dict(((p.row["name"], p.row.get("wall_time")), p.get("wall_time"))
                    for pts in studies.values() for p in pts if p.ok).values())
    out = ["# Validation: Temizer 2013 reproduced", "",
           "<!-- generated by postprocess/temizer_2013_page.py from "
           "docs/validation/temizer-2013/data/; do not edit -->", "",
           "The studies of Temizer, *Tribology International* 2013, §5, computed with this "
           "program at the paper's parameters (its Table 1, [methods §7](../methods.md)), "
           "each figure in the paper's layout. Regenerate everything with",
           "", "    bash scripts/reproduce-temizer-2013.sh --jobs 2", "",
           "(resumable, also from these committed data; the study files are in "
           "`params/temizer-2013/`, one sweep each; a point that several studies share is "
           "computed once: [sweeps](../sweeps.md#reproducing-temizer-2013)).", "",
           f"**Computed: {done} of {total} points** ({failed} failed, "
           f"{total - done - failed} not yet computed); the computed points took "
           f"{wall / 3600.:.1f} h of one core.", ""]
    u = {m: (fmt(v) if math.isfinite(v) else "not yet computed")
         for m, v in [("elastic", uncertainty.get("elastic", float("nan"))),
                      ("viscoelastic", uncertainty.get("viscoelastic", float("nan")))]}
    missing_note = (" Where a study has not been computed its points are named under the "
                    "figure and listed as missing in its table." if done < total else "")
    out += ["Error bars: k̄'s discretisation uncertainty from the convergence study below "
            f"(elastic {u['elastic']}, viscoelastic {u['viscoelastic']})." + missing_note,
            ""]
    sections = [("fig6a", "Fig. 6a: the elastic pressure response and its geometric bounds"),
                ("fig6b", "Fig. 6b: the ellipse, elastic, viscoelastic and with the Payne "
                          "effect"),
                ("fig7", "Fig. 7: the split of k̄ into k̄_F and k̄_V"),
                ("fig8", "Fig. 8: the histories of k_I"),
                ("fig9", "Fig. 9: k̄ against τ0 v̄_F"),
                ("table5", "Table 5: τ0 v̄_F reached through τ0 and through v̄_F"),
                ("fig10", "Fig. 10: the viscoelastic responses and the 1.5 r0 circle"),
                ("convergence", "Convergence of k̄ (not in the paper)")]
    for key, title in sections:
        out += [f"## {title}", ""]
        if key in made:
            file, missing = made[key]
            out += [f"![{title}](temizer-2013/{file})", ""]
            if missing:
                out += [f"Not computed yet or failed: {len(missing)} point(s), named under "
                        "the figure.", ""]
        if key == "table5":
            out += [table5(studies), ""]
        if key == "convergence":
            out += [convergence_table(conv_rows), ""]
        out += [notes.get(key, "*What these results show is written once they are "
                               "computed.*"), ""]
    out += ["## Every number", "",
            "k̄ is averaged over the window T_avg; spread: the largest change of the moving "
            "average over the window's last quarter; energy error: the energy balance's "
            "error per unit of the platen's work; numerical share: Newmark's numerical "
            "dissipation in the window per unit of its normal work (in units of k̄); wall "
            "time on one core of the 2-core machine.", ""]
    for study in STUDIES:
        out += [f"### {study}", "", f"`params/temizer-2013/{study}.prm`", "",
                point_table(studies[study]), ""]
    return "\n".join(out)


def main(argv):
    parser = common.argument_parser(__doc__)
    parser.add_argument("--data", default=os.path.join(ROOT, "docs", "validation",
                                                       "temizer-2013", "data"))
    parser.add_argument("--page", default=os.path.join(ROOT, "docs", "validation"))
    parser.add_argument("--notes", default=None)
    args = parser.parse_args(argv)
    studies = load(args.data)
    conv_rows, uncertainty = convergence(studies)
    figure_dir = os.path.join(args.page, "temizer-2013")
    os.makedirs(figure_dir, exist_ok=True)
    made = figures(studies, uncertainty, figure_dir)
    notes = read_notes(args.notes or os.path.join(figure_dir, "notes.md"))
    common.write_text(os.path.join(args.page, "temizer-2013.md"),
                      page(studies, made, conv_rows, uncertainty, notes))
    print(f"wrote {os.path.join(args.page, 'temizer-2013.md')} and "
          f"{len(made)} figures in {figure_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(common.run(main))
