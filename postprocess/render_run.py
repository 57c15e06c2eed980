#!/usr/bin/python3
"""Pictures of one run for talks and papers, like Temizer 2013 Figs. 3-4: the deformed rubber
block (solution-NNNNN.vtu, written in its deformed shape), its cells coloured by a field
(default principal_stress_2, the paper's tau2, in MPa; a symmetric diverging colour map
around 0 for fields with negative values, a sequential one from 0 otherwise; one colour
scale for every picture and frame of the run), with the particle (particle-NNNNN.vtu: the
copy in the cell filled, with a radius marking its rotation, the periodic copies dashed)
on the rigid surface y = 0. The neighbouring periods of the rubber are drawn faded. The
view follows the dragged rubber (x range u1 + const, u1 the platen's displacement; one
width and one y range for the whole run), so that the block and the particle stay in view.

Writes
  PREFIX_t<t/T0>.png    one picture per requested time: the output time nearest to each
                        requested t/T0 (T0 = L0 / v_F from parameters.prm); default: four
                        times across the run
  PREFIX.gif            with --gif: an animation of all output times (title with t/T0)
  PREFIX_trajectory.png the particle's x (unwrapped across the periodic boundary, with
                        the platen's displacement u1 for comparison), y (mm) and rotation
                        theta (rad) against t/T0 from history.csv; not for a run without
                        particle
PREFIX defaults to the run directory's name (files in the current directory); a PREFIX
with a directory part writes there (the directory is created). Every file is written
atomically (a temporary name renamed).

Usage: render_run.py RUN_DIR [--times T [T ...]] [-o PREFIX] [--gif] [--fps 4]
                     [--field principal_stress_2] [--clim MIN MAX] [--dpi 150]
(RUN_DIR first, or end the --times list with --.)
Fields: principal_stress_1, principal_stress_2, von_mises_stress, mean_stress,
cauchy_stress_xx, _yy, _xy, _zz (MPa), viscous_dissipation_density (MPa = N mm/mm^3),
payne_q, rate_of_deformation (1/s), displacement_x, displacement_y (mm), velocity (its
magnitude, mm/s); a nodal field is drawn as its mean over each cell's corners.
Examples:
  build/granular-interface params/circular.prm --output-directory /tmp/run \\
      --set "Output/VTU output interval=200"
  postprocess/render_run.py /tmp/run --times 1 2 3 -o /tmp/figures/circular --gif

The run needs VTU output (Output/VTU output interval > 0). Exit status 0 on success, 2 if
the run has no VTU output or an input file (solution.pvd, a VTU, parameters.prm,
history.csv) is missing or damaged. Needs Debian's python3-meshio, python3-numpy,
python3-matplotlib and python3-pil.
"""
import os
import sys

import numpy as np

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import animation  # noqa: E402
from matplotlib.collections import PolyCollection  # noqa: E402
from matplotlib.colors import Normalize  # noqa: E402
from matplotlib.patches import Polygon  # noqa: E402

import common  # noqa: E402
from common import InputError, PROGRAM, write_figure  # noqa: E402

# field name: its legend label (the unit is common.SOLUTION_FIELDS')
LABELS = {
    "principal_stress_2": r"$\tau_2$ (smaller principal stress)",
    "principal_stress_1": r"$\tau_1$ (larger principal stress)",
    "von_mises_stress": "von Mises stress",
    "mean_stress": r"mean stress tr$\sigma$/3",
    "cauchy_stress_xx": r"Cauchy stress $\sigma_{xx}$",
    "cauchy_stress_yy": r"Cauchy stress $\sigma_{yy}$",
    "cauchy_stress_xy": r"Cauchy stress $\sigma_{xy}$",
    "cauchy_stress_zz": r"Cauchy stress $\sigma_{zz}$",
    "viscous_dissipation_density": "viscous dissipation density",
    "payne_q": "Payne variable q",
    "rate_of_deformation": r"rate of deformation $\|D\|$",
    "displacement_x": r"displacement $u_x$",
    "displacement_y": r"displacement $u_y$",
    "velocity": "|velocity|",
}
UNITS = dict(common.SOLUTION_FIELDS, viscous_dissipation_density="MPa = N mm/mm$^3$")


# ---------------------------------------------------------------------------------------
# reading
# ---------------------------------------------------------------------------------------

def values_of(array):
    values = np.asarray(array, dtype=float)
    if values.ndim == 2:      # a vector: its magnitude
        values = np.linalg.norm(values, axis=1)
    return values


class Frame:
    """One output time: the rubber's cells (polygons) with the field's cell values, the
    platen's displacement u1 and the particle's outlines (image 0 first)."""

    def __init__(self, time, rubber, values, u1, particles):
        self.time, self.rubber, self.values, self.u1 = time, rubber, values, u1
        self.particles = particles        # [(polygon (n, 2), image)]

    def x_extent(self):
        """x range of the rubber and the particle's image 0 relative to u1 (the copies
        may lie outside: they are drawn where the view shows them)."""
        xs = [p[:, 0] for p in self.rubber] + [p[:, 0] for p, i in self.particles if i == 0]
        x = np.concatenate(xs)
        return x.min() - self.u1, x.max() - self.u1

    def y_extent(self):
        ys = np.concatenate([p[:, 1] for p in self.rubber]
                            + [p[:, 1] for p, _ in self.particles])
        return ys.min(), ys.max()


def read_rubber(path, field):
    vtu = common.read_vtu(path)
    faces = [c for c, ids in enumerate(vtu.cells) if len(ids) >= 3]
    if not faces:
        raise InputError(f"{path} has no quadrilateral or triangular cell")
    cells = [vtu.cells[c] for c in faces]
    if field in vtu.cell_data:
        values = values_of(vtu.cell_data[field])[faces]
    elif field in vtu.point_data:
        # deal.II writes a cell field as constant values at each cell's own corners
        values = values_of(vtu.point_data[field])
        values = np.array([values[ids].mean() for ids in cells])
    else:
        names = sorted(set(vtu.point_data) | set(vtu.cell_data))
        raise InputError(f"{path} has no field {field!r} (it has: {', '.join(names)})")
    # u1: the displacement of the platen = of the block's top nodes (largest reference Y)
    points = vtu.points
    if "displacement_x" in vtu.point_data and "displacement_y" in vtu.point_data:
        ux, uy = (np.asarray(vtu.point_data[f"displacement_{a}"], dtype=float)
                  for a in "xy")
        reference_y = points[:, 1] - uy
        top = reference_y > reference_y.max() - 1e-9 * max(1., abs(reference_y.max()))
        u1 = float(ux[top].mean())
    else:
        u1 = float(points[:, 0].min())
    return [points[ids] for ids in cells], values, u1


def read_particles(path):
    vtu = common.read_vtu(path)
    images = vtu.cell_data.get("image", np.zeros(len(vtu.cells)))
    result = [(vtu.points[ids], int(images[c])) for c, ids in enumerate(vtu.cells)]
    return sorted(result, key=lambda r: r[1])


def read_frames(run, field, T0):
    """All output times of the run as Frames (InputError if there is no VTU output)."""
    solution = common.read_collection(run, "solution.pvd")
    if not solution:
        what = "no solution.pvd" if solution is None else "an empty solution.pvd"
        raise InputError(
            f"{run} has no VTU output ({what}): set Output/VTU output interval to a number "
            "of time steps > 0 in the parameter file, or on the command line with "
            "--set \"Output/VTU output interval=100\", and run it again")
    particle = common.read_collection(run, "particle.pvd") or []
    tolerance = 1e-6 * T0
    frames = []
    for time, path in solution:
        rubber, values, u1 = read_rubber(path, field)
        match = [p for t, p in particle if abs(t - time) <= tolerance]
        particles = read_particles(match[0]) if match else []
        frames.append(Frame(time, rubber, values, u1, particles))
    return frames


# ---------------------------------------------------------------------------------------
# drawing
# ---------------------------------------------------------------------------------------

class Scene:
    """The figure of one frame, redrawn for every frame of the animation."""

    def __init__(self, frames, field, T0, L0, run_name, clim, phases, dpi):
        self.frames, self.T0, self.L0, self.name, self.phases = frames, T0, L0, run_name, phases
        values = np.concatenate([f.values for f in frames])
        label, unit = LABELS.get(field, field.replace("_", " ")), UNITS.get(field, "")
        if clim is not None:
            low, high = clim
            self.cmap = "RdBu_r" if low < 0. < high else "viridis"
        elif values.min() < 0.:
            high = float(np.abs(values).max()) or 1.
            low, self.cmap = -high, "RdBu_r"        # symmetric around 0: blue compression
        else:
            low, high, self.cmap = 0., float(values.max()) or 1., "viridis"
        self.norm = Normalize(low, high)
        self.colour_label = f"{label} ({unit})" if unit else label
        # one view relative to u1 for the whole run, and one y range
        # (at least particle.pvd's window u1 - L0/4 to u1 + 5 L0/4)
        x = np.array([f.x_extent() for f in frames] + [(-0.25 * L0, 1.25 * L0)])
        y = np.array([f.y_extent() for f in frames])
        self.x_low, self.x_high = x[:, 0].min(), x[:, 1].max()
        self.y_low, self.y_high = min(0., y[:, 0].min()), y[:, 1].max()
        margin = 0.04 * (self.x_high - self.x_low)
        self.x_low -= margin
        self.x_high += margin
        height = self.y_high - self.y_low
        self.y_high += 0.05 * height
        self.y_low -= 0.08 * height          # room for the hatched surface
        aspect = (self.y_high - self.y_low) / (self.x_high - self.x_low)
        width = 8.
        self.fig = plt.figure(figsize=(width, min(max(width * aspect * 0.9 + 1.2, 3.2), 9.)),
                              dpi=dpi, layout="constrained")
        self.ax = self.fig.add_subplot()
        mappable = plt.cm.ScalarMappable(norm=self.norm, cmap=self.cmap)
        below, above = values.min() < low, values.max() > high     # with --clim
        extend = "both" if below and above else "min" if below else "max" if above \
            else "neither"
        bar = self.fig.colorbar(mappable, ax=self.ax, shrink=0.9, pad=0.02, extend=extend)
        bar.set_label(self.colour_label)

    def phase(self, time):
        if not self.phases:
            return ""
        t, p = self.phases
        i = int(np.clip(np.searchsorted(t, time), 0, len(t) - 1))
        return p[i]

    def draw(self, frame):
        ax = self.ax
        ax.clear()
        colours = plt.get_cmap(self.cmap)(self.norm(frame.values))
        for shift in (-self.L0, self.L0):      # the neighbouring periods, faded
            ax.add_collection(PolyCollection(
                [p + [shift, 0.] for p in frame.rubber], facecolors=colours,
                edgecolors=(0.5, 0.5, 0.5, 0.3), linewidths=0.3, alpha=0.45, zorder=1))
        ax.add_collection(PolyCollection(frame.rubber, facecolors=colours,
                                         edgecolors="0.25", linewidths=0.3, zorder=2))
        for polygon, image in frame.particles:
            if image == 0:
                ax.add_patch(Polygon(polygon, closed=True, facecolor="0.55",
                                     edgecolor="black", lw=1.2, zorder=4))
                centre = polygon.mean(axis=0)   # vertex 0 is the body's angle-0 point
                ax.plot([centre[0], polygon[0, 0]], [centre[1], polygon[0, 1]],
                        color="white", lw=1.2, zorder=5)
                ax.plot(*centre, "o", color="white", ms=2.5, zorder=5)
            else:
                ax.add_patch(Polygon(polygon, closed=True, fill=False, edgecolor="black",
                                     lw=1.0, ls=(0, (4, 3)), zorder=4))
        x0, x1 = frame.u1 + self.x_low, frame.u1 + self.x_high
        ax.axhspan(self.y_low, 0., facecolor="0.85", edgecolor="0.45", hatch="////",
                   lw=0., zorder=0)
        ax.axhline(0., color="0.2", lw=1.2, zorder=3)
        ax.set_xlim(x0, x1)
        ax.set_ylim(self.y_low, self.y_high)
        ax.set_aspect("equal")
        ax.set_xlabel("x (mm)" + ("    [particle filled, its periodic copies dashed; "
                                  "neighbouring periods of the rubber faded]"
                                  if frame.particles else
                                  "    [neighbouring periods of the rubber faded]"),
                      fontsize=9)
        ax.set_ylabel("y (mm)")
        phase = self.phase(frame.time)
        ax.set_title(f"{self.name}:  $t/T_0$ = {frame.time / self.T0:.3f}"
                     + (f"  ({phase})" if phase else "")
                     + f"   platen $u_1$ = {frame.u1:.3g} mm", fontsize=10)
        return []


def nearest_frames(frames, wanted, T0):
    """Indices of the frames nearest to the t/T0 values `wanted` (duplicates dropped, in
    the order asked); a warning if one is far from what was asked."""
    s = np.array([f.time / T0 for f in frames])
    spacing = np.median(np.diff(s)) if len(s) > 1 else 0.
    chosen = []
    for w in wanted:
        i = int(np.argmin(np.abs(s - w)))
        if len(s) > 1 and abs(s[i] - w) > 0.51 * spacing:
            print(f"{PROGRAM}: warning: t/T0 = {w:g} asked: the nearest output time is "
                  f"t/T0 = {s[i]:.4g} (the run's VTU output covers {s[0]:.4g} to "
                  f"{s[-1]:.4g})", file=sys.stderr)
        if i not in chosen:
            chosen.append(i)
    return chosen


def time_tags(frames, indices, T0):
    """The t/T0 part of the file names: 3 decimals, more if two would be equal."""
    for digits in range(3, 10):
        tags = [f"{frames[i].time / T0:.{digits}f}" for i in indices]
        if len(set(tags)) == len(tags):
            return tags
    return [f"{frames[i].time / T0:.12g}" for i in indices]


class QuantizingPillowWriter(animation.PillowWriter):
    """matplotlib's PillowWriter with each frame reduced to its own 256-colour palette
    (median cut, no dithering) before it is stored: Pillow's default conversion of the
    RGBA frames merges the light colours of the map with white."""

    def grab_frame(self, **savefig_kwargs):
        super().grab_frame(**savefig_kwargs)
        from PIL import Image
        self._frames[-1] = self._frames[-1].convert("RGB").quantize(
            colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def write_gif(scene, frames, path, fps):
    """The animation of all `frames` as the GIF `path` at `fps` frames per second
    (atomically)."""
    movie = animation.FuncAnimation(scene.fig, lambda n: scene.draw(frames[n]),
                                    frames=len(frames), blit=False, repeat=False)
    common.write_atomically(path, lambda temporary: movie.save(
        temporary, writer=QuantizingPillowWriter(fps=fps), dpi=scene.fig.dpi),
        suffix=".gif")


def unwrap(values, period):
    """A periodic coordinate (kept in [0, period)) made continuous."""
    v = np.asarray(values, dtype=float)
    jumps = np.diff(v)
    jumps -= period * np.round(jumps / period)
    return np.concatenate([[v[0]], v[0] + np.cumsum(jumps)]) if len(v) else v


def trajectory_figure(h, T0, L0, name, dpi):
    s = np.array(h["t"]) / T0
    fig, axes = plt.subplots(3, 1, figsize=(8, 7), sharex=True, dpi=dpi,
                             layout="constrained")
    x = unwrap(h["particle_x"], L0)
    axes[0].plot(s, x, color="C0", lw=1.5, label="particle centre x (unwrapped)")
    axes[0].plot(s, h["platen_u1"], color="0.4", lw=1, ls="--",
                 label="platen displacement $u_1$")
    axes[0].set_ylabel("x (mm)")
    common.outside_legend(axes[0], frameon=True)
    axes[1].plot(s, h["particle_y"], color="C1", lw=1.5)
    axes[1].set_ylabel("y (mm)")
    axes[2].plot(s, h["particle_theta"], color="C2", lw=1.5)
    axes[2].set_ylabel(r"rotation $\theta$ (rad)")
    axes[2].set_xlabel("time $t / T_0$ ($T_0 = L_0/\\bar v_F$)")
    for ax in axes:
        ax.grid(alpha=0.3)
        common.shade_phases(ax, s, h["phase"])
    axes[0].set_title(f"{name}: particle trajectory (shaded: compression, transition; "
                      "then averaging)", fontsize=10)
    return fig


def main(argv=None):
    parser = common.argument_parser(__doc__, "Writes")
    parser.add_argument("run", metavar="RUN_DIR", help="the run's output directory (with "
                        "solution.pvd, particle.pvd, history.csv, parameters.prm)")
    parser.add_argument("--times", type=float, nargs="+", metavar="T",
                        help="t/T0 values of the pictures (the nearest output times; "
                             "default: four across the run)")
    common.add_output_argument(parser, None, "PREFIX_t<t/T0>.png, PREFIX.gif and "
                               "PREFIX_trajectory.png", "the run directory's name")
    parser.add_argument("--gif", action="store_true",
                        help="also write PREFIX.gif, an animation of all output times")
    parser.add_argument("--fps", type=float, default=4., help="frames per second of the "
                        "animation (default: %(default)s)")
    parser.add_argument("--field", default="principal_stress_2",
                        help="field colouring the rubber (default: %(default)s, the "
                             "paper's tau2, MPa; the list below)")
    parser.add_argument("--clim", type=float, nargs=2, metavar=("MIN", "MAX"),
                        help="colour range (default: symmetric around 0, the largest "
                             "|value| of the run; from 0 for non-negative fields)")
    common.add_dpi_argument(parser)
    args = parser.parse_args(argv)
    if args.fps <= 0.:
        parser.error("--fps must be positive")
    if args.clim is not None and not args.clim[0] < args.clim[1]:
        parser.error("--clim needs MIN < MAX")

    run = args.run
    name = os.path.basename(os.path.normpath(run)) or run
    if not os.path.isdir(run):
        raise InputError(f"{run}: no such run directory")
    params_path = os.path.join(run, "parameters.prm")
    params = common.read_parameters(params_path)
    T0 = common.dragging_time(run)
    L0 = common.parameter_float(params, "Geometry/Block length", params_path)
    frames = read_frames(run, args.field, T0)
    has_particle = common.particle_enabled(params)
    history = None
    if os.path.isfile(os.path.join(run, "history.csv")) or has_particle:
        # (a bare interface's history has empty particle columns)
        history = common.read_history(run, ["t", "phase", "platen_u1"] + (
            ["particle_x", "particle_y", "particle_theta"] if has_particle else []))
    prefix = common.output_prefix(args.output or name)

    phases = (np.array(history["t"]), history["phase"]) if history else None
    scene = Scene(frames, args.field, T0, L0, name, args.clim, phases, args.dpi)
    last = frames[-1].time / T0
    wanted = args.times if args.times else [last * k / 4. for k in (1, 2, 3, 4)]
    indices = nearest_frames(frames, wanted, T0)
    written = []
    for i, tag in zip(indices, time_tags(frames, indices, T0)):
        scene.draw(frames[i])
        path = f"{prefix}_t{tag}.png"
        write_figure(scene.fig, path, "png", args.dpi)
        written.append(path)
    if args.gif:      # at 2/3 of the pictures' resolution
        scene.fig.set_dpi(args.dpi * 2. / 3.)
        write_gif(scene, frames, f"{prefix}.gif", args.fps)
        written.append(f"{prefix}.gif ({len(frames)} frames)")
    plt.close(scene.fig)
    if history and has_particle:
        fig = trajectory_figure(history, T0, L0, name, args.dpi)
        written += common.save_figure(fig, f"{prefix}_trajectory", args.dpi, ("png",))
    elif not has_particle:
        print(f"{PROGRAM}: no particle (Particle/Enabled = false): no trajectory "
              "picture", file=sys.stderr)
    print(f"{PROGRAM}: wrote " + ", ".join(written))
    return common.EXIT_OK


if __name__ == "__main__":
    sys.exit(common.run(main))
