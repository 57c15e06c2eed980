#!/usr/bin/env pvpython
"""A ParaView view of one run, made by ParaView itself (run it with pvpython or pvbatch):
the rubber of solution.pvd (written in its deformed shape: no Warp By Vector) coloured by a
field, with the unit in the colour legend's title, and the mesh's cell edges; the particle
of particle.pvd (runs with a particle: the copy in the cell filled, its periodic copies as
outlines); the rigid surface of surface.pvd (the line y = 0, with the ground below it;
a run of an older build without surface.pvd gets the ground alone).
The view is 2D and follows the dragged block; the title gives t (s) and t/T0.

Writes
  FILE.png        with --png (and by default: RUN_NAME_paraview.png in the current
                  directory): the view at the output time nearest to --time
  frames          with --animation: one PNG per output time, one colour range for all
The files are written atomically (a temporary name renamed).

Usage: pvbatch postprocess/paraview_view.py RUN_DIR [--field NAME] [--time T] [--png FILE]
                   [--animation FILE_PATTERN_OR_DIR] [--resolution W H]
A machine without a display runs pvbatch under xvfb-run (Debian's xvfb):
  xvfb-run -a pvbatch postprocess/paraview_view.py RUN_DIR
Fields (point arrays of solution-NNNNN.vtu; the cell fields constant on each cell):
principal_stress_1, principal_stress_2, von_mises_stress, mean_stress, cauchy_stress_xx,
_yy, _xy, _zz (MPa), viscous_dissipation_density (MPa = N mm/mm^3), payne_q,
rate_of_deformation (1/s), displacement_x, displacement_y (mm), velocity (its magnitude,
mm/s). A field with negative values gets a diverging map symmetric around 0 (blue:
compression), the others a sequential map from 0.
Examples:
  pvbatch postprocess/paraview_view.py output --field mean_stress --time 0.004 --png p.png
  pvbatch postprocess/paraview_view.py output --animation frames/view_%04d.png
  ffmpeg -framerate 8 -i frames/view_%04d.png view.mp4

Exit status 0 on success, 2 if the run has no VTU output, a file is missing or damaged or
the field does not exist (a message naming it).
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from common import InputError, PROGRAM  # noqa: E402

PARTICLE_GREY = [0.55, 0.55, 0.55]
GROUND_GREY = [0.85, 0.85, 0.85]


def frame_pattern(target, name):
    """The printf pattern of the animation's PNG files: TARGET if it has one integer
    field (%d, %04d, ...), TARGET/NAME_%05d.png if it is a directory (or ends with /)."""
    if os.path.isdir(target) or target.endswith(os.sep):
        os.makedirs(target, exist_ok=True)
        return os.path.join(target, f"{name}_%05d.png")
    try:
        target % 0
    except (TypeError, ValueError):
        raise InputError(f"--animation {target}: give a directory or a file pattern with one "
                         "integer field such as frames/view_%04d.png") from None
    if not target.endswith(".png"):
        raise InputError(f"--animation {target}: the frames are PNG files (.png)")
    os.makedirs(os.path.dirname(target) or ".", exist_ok=True)
    return target


def flat(display):
    """Colours as they are, without shading (a 2D picture)."""
    display.Ambient, display.Diffuse, display.Specular = 1., 0., 0.


class View:
    """The ParaView pipeline of one run and its render view."""

    def __init__(self, pv, run, field, resolution):
        self.pv, self.resolution = pv, resolution
        paths = {n: os.path.join(run, f"{n}.pvd") for n in ("solution", "particle", "surface")}
        self.view = pv.CreateView("RenderView")
        self.view.ViewSize = list(resolution)
        self.view.OrientationAxesVisibility = 0
        self.view.UseColorPaletteForBackground = 0
        self.view.Background = [1., 1., 1.]
        self.view.CameraParallelProjection = 1
        self.view.InteractionMode = "2D"
        self.rubber = pv.PVDReader(FileName=paths["solution"])
        arrays = self.rubber.PointData.keys()
        if field not in arrays:
            raise InputError(f"{paths['solution']} has no field {field!r} "
                             f"(it has: {', '.join(sorted(arrays))})")
        self.times = list(self.rubber.TimestepValues) or [0.]
        self.field = field
        display = pv.Show(self.rubber, self.view)
        display.SetRepresentationType("Surface With Edges")
        display.EdgeColor = [0.45, 0.45, 0.45]
        flat(display)
        pv.ColorBy(display, ("POINTS", field, "Magnitude") if field == "velocity"
                   else ("POINTS", field))
        self.lut = pv.GetColorTransferFunction(field)
        bar = pv.GetScalarBar(self.lut, self.view)
        label = "velocity magnitude" if field == "velocity" else field
        bar.Title = f"{label} ({common.SOLUTION_FIELDS.get(field, '-')})"
        bar.ComponentTitle = ""
        bar.TitleColor = bar.LabelColor = [0., 0., 0.]
        bar.TitleFontSize, bar.LabelFontSize = 18, 16
        bar.RangeLabelFormat = "%-#.3g"
        bar.WindowLocation = "Any Location"
        bar.Orientation = "Vertical"
        bar.Position = [0.89, 0.12]
        bar.ScalarBarLength = 0.76
        display.SetScalarBarVisibility(self.view, True)

        self.surface = None
        if os.path.isfile(paths["surface"]):
            self.surface = pv.PVDReader(FileName=paths["surface"])
            line = pv.Show(self.surface, self.view)
            line.AmbientColor = line.DiffuseColor = [0., 0., 0.]
            line.LineWidth = 3.
        self.ground = pv.Plane()
        ground = pv.Show(self.ground, self.view)
        ground.AmbientColor = ground.DiffuseColor = GROUND_GREY
        flat(ground)

        if os.path.isfile(paths["particle"]):
            particle = pv.PVDReader(FileName=paths["particle"])
            for image, representation in ((0, "Surface With Edges"), (1, "Wireframe")):
                copy = pv.Threshold(Input=particle, Scalars=["CELLS", "image"],
                                    LowerThreshold=image, UpperThreshold=image,
                                    ThresholdMethod="Between")
                shown = pv.Show(copy, self.view)
                shown.SetRepresentationType(representation)
                shown.ColorArrayName = ["CELLS", ""]
                shown.AmbientColor = shown.DiffuseColor = (PARTICLE_GREY if image == 0
                                                           else [0., 0., 0.])
                shown.EdgeColor = [0., 0., 0.]
                shown.LineWidth = 2. if image == 0 else 1.
                flat(shown)
        self.title = pv.Text()
        title = pv.Show(self.title, self.view)
        title.WindowLocation = "Upper Center"
        title.Color = [0., 0., 0.]
        title.FontSize = 20
        pv.Render(self.view)      # (the first render resets the camera)

    def field_range(self, times):
        """(low, high) of the field over `times`; one colour scale for all of them."""
        low, high = math.inf, -math.inf
        for t in times:
            self.rubber.UpdatePipeline(t)
            info = self.rubber.PointData[self.field]
            a, b = info.GetRange(-1 if self.field == "velocity" else 0)
            low, high = min(low, a), max(high, b)
        return low, high

    def colours(self, low, high):
        if low < 0.:
            high = max(abs(low), abs(high)) or 1.
            self.lut.ApplyPreset("BuRd", True)
            self.lut.RescaleTransferFunction(-high, high)
        else:
            self.lut.ApplyPreset("Viridis (matplotlib)", True)
            self.lut.RescaleTransferFunction(0., high or 1.)
        self.lut.AutomaticRescaleRangeMode = "Never"

    def show(self, time, title):
        """The view at `time` (s), its camera on the block and the surface line."""
        pv = self.pv
        self.view.ViewTime = time
        self.rubber.UpdatePipeline(time)
        x0, x1, _, top = self.rubber.GetDataInformation().GetBounds()[0:4]
        x0, x1 = x0 - 0.5 * (x1 - x0), x1 + 0.5 * (x1 - x0)
        if self.surface is not None:
            self.surface.UpdatePipeline(time)
            bounds = self.surface.GetDataInformation().GetBounds()
            if bounds[0] < bounds[1]:       # the surface line: x of the block -/+ L0/2
                x0, x1 = bounds[0:2]
        depth = 0.12 * top
        self.ground.Origin = [x0, -depth, -0.01]
        self.ground.Point1 = [x1, -depth, -0.01]
        self.ground.Point2 = [x0, 0., -0.01]
        self.title.Text = title
        # x: the surface line in the picture's left 86 % (the legend on the right)
        width, height = self.resolution
        visible = (x1 - x0) / 0.84
        centre = [x0 - 0.02 * visible + 0.5 * visible, 0.5 * (top - depth), 0.]
        self.view.CameraFocalPoint = centre
        self.view.CameraPosition = [centre[0], centre[1], 10. * visible]
        self.view.CameraViewUp = [0., 1., 0.]
        self.view.CameraParallelScale = max(0.5 * (top + depth) * 1.4,
                                            0.5 * visible * height / width)
        pv.Render(self.view)

    def save(self, path):
        common.write_atomically(path, lambda temporary: self.pv.SaveScreenshot(
            temporary, self.view, ImageResolution=list(self.resolution)), suffix=".png")


def main(argv=None):
    parser = common.argument_parser(__doc__, "Writes")
    parser.add_argument("run", metavar="RUN_DIR", help="the run's output directory (with "
                        "solution.pvd, surface.pvd and, with a particle, particle.pvd)")
    parser.add_argument("--field", default="principal_stress_2",
                        help="point array colouring the rubber (default: %(default)s, "
                             "Temizer 2013's tau2, MPa; the list below)")
    parser.add_argument("--time", type=float, metavar="T",
                        help="time t (s, the .pvd's times; the nearest output time) of the "
                             "screenshot (default: the last output time)")
    parser.add_argument("--png", metavar="FILE",
                        help="the screenshot (default: RUN_NAME_paraview.png, unless "
                             "--animation is given)")
    parser.add_argument("--animation", metavar="FILE_PATTERN_OR_DIR",
                        help="one PNG per output time: a pattern such as "
                             "frames/view_%%04d.png (the frame number) or a directory")
    parser.add_argument("--resolution", type=int, nargs=2, default=[1400, 600],
                        metavar=("W", "H"), help="picture size in pixels "
                        "(default: %(default)s)")
    args = parser.parse_args(argv)
    if min(args.resolution) < 16:
        parser.error("--resolution needs W and H of at least 16 pixels")
    run = args.run
    name = os.path.basename(os.path.normpath(run)) or "run"
    if not os.path.isdir(run):
        raise InputError(f"{run}: no such run directory")
    if not common.read_collection(run, "solution.pvd"):
        raise InputError(
            f"{run} has no VTU output (no or an empty solution.pvd): set Output/VTU output "
            "interval to a number of time steps > 0, e.g. --set \"Output/VTU output "
            "interval=100\", and run it again")
    try:
        T0 = common.dragging_time(run)
    except InputError:
        T0 = None
    try:
        import paraview.simple as pv
    except ImportError:
        raise InputError("needs ParaView's Python: run it with pvpython or pvbatch "
                         "(Debian's paraview and python3-paraview)") from None

    view = View(pv, run, args.field, args.resolution)

    def title(t):
        return f"{name}:  t = {t:.6g} s" + (f"  (t/T0 = {t / T0:.3f})" if T0 else "")
    written = []
    if args.animation:
        pattern = frame_pattern(args.animation, name)
        view.colours(*view.field_range(view.times))
        for n, t in enumerate(view.times):
            view.show(t, title(t))
            view.save(pattern % n)
        written.append(f"{pattern % 0} ... ({len(view.times)} frames)")
    if args.png or not args.animation:
        wanted = view.times[-1] if args.time is None else args.time
        t = min(view.times, key=lambda s: abs(s - wanted))
        view.colours(*view.field_range([t]))
        view.show(t, title(t))
        path = args.png or f"{name}_paraview.png"
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        view.save(path)
        written.append(f"{path} (t = {t:.6g} s)")
    print(f"{PROGRAM}: wrote " + ", ".join(written))
    return common.EXIT_OK


if __name__ == "__main__":
    try:
        status = common.run(main)
    except SystemExit as e:     # --help, or a command-line error (argparse)
        status = e.code if isinstance(e.code, int) else 0 if e.code is None else 2
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)     # (pvbatch 5.11 crashes in sys.exit's clean-up)
