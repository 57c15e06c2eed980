"""The shared part of the post-processing scripts: reading a run's parameters.prm,
history.csv and summary.csv, its ParaView output (.pvd collections and .vtu files) and a
sweep's sweep.csv, one error type with one exit-status convention, figures written
atomically, legends and the common command-line arguments.

Exit status of every script (run() below):
  0  success;
  1  the inputs are readable but there is nothing to draw (no successful sweep point), or
     a check the script was asked for failed;
  2  an input is missing or damaged, or an output cannot be written; the message on
     stderr names the file (and the line or the column), never a traceback. Also an
     option's value out of its range (argument_number()): the command line's message
     names the option.

Units as everywhere in the program: mm, s, N, t (tonne), MPa; forces and energies are per
mm thickness (plane strain), so energies are N mm/mm. A run's T0 = L0 / v_F (s) is the
time the platen needs to drag the block over its own length.

The scripts need Debian's python3-numpy and python3-matplotlib, and those that read VTU
files python3-meshio (which, unlike python3-vtk9, can be installed beside ParaView's
python3-paraview); this module itself needs only the standard library (matplotlib for the
figures, numpy and meshio for the VTU files), so that pvpython scripts can import it.
"""
import argparse
import csv
import math
import os
import sys
import tempfile
import xml.etree.ElementTree as ET

PROGRAM = os.path.basename(sys.argv[0]) or "postprocess"

EXIT_OK = 0
EXIT_NOTHING_TO_DO = 1
EXIT_INPUT = 2


class InputError(Exception):
    """An input is missing or damaged, or a selection names what is not there (exit status
    2). The message names the file, and the line where it helps."""


def warn(message):
    """`message` on stderr as a warning of this program."""
    print(f"{PROGRAM}: warning: {message}", file=sys.stderr)


def run(main, argv=None):
    """main(argv)'s exit status, with InputError and an OSError (a file that cannot be
    written) turned into a one-line message on stderr and exit status 2 (see the module's
    docstring)."""
    try:
        return main(argv)
    except InputError as e:
        print(f"{PROGRAM}: {e}", file=sys.stderr)
    except OSError as e:
        print(f"{PROGRAM}: {e.filename or 'an output file'}: {e.strerror}", file=sys.stderr)
    return EXIT_INPUT


# ---------------------------------------------------------------------------------------
# command lines
# ---------------------------------------------------------------------------------------

def argument_parser(doc, usage_mark="Usage:"):
    """An ArgumentParser named after the script whose --help shows `doc`: the text before
    `usage_mark` as the description, the rest (usage, examples, exit status) after the
    options."""
    cut = doc.find(usage_mark)
    if cut < 0:
        cut = len(doc)
    return argparse.ArgumentParser(prog=PROGRAM, description=doc[:cut].strip(),
                                   epilog=doc[cut:].strip() or None,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)


def add_output_argument(parser, default, files="PREFIX.png and PREFIX.pdf",
                        default_text="%(default)s"):
    """-o/--output PREFIX (use output_prefix()): `files` says what is written,
    `default_text` what the default is where it is not a fixed name."""
    parser.add_argument("-o", "--output", default=default, metavar="PREFIX",
                        help=f"output file prefix: writes {files} (an extension .png or "
                             ".pdf given is dropped; a directory part is created) "
                             f"(default: {default_text})")


def add_dpi_argument(parser, default=150):
    parser.add_argument("--dpi", type=argument_number(positive=True), default=default,
                        help="resolution of the PNG files in dots per inch "
                             "(default: %(default)s)")


def argument_number(kind=float, minimum=None, positive=False, unit=""):
    """An argparse type: the text as a finite number of `kind` (float or int) that is > 0
    (`positive`) and >= `minimum`; otherwise argparse's error, which names the option, and
    exit status 2 ("argument --length: needs a number > 0 (mm), not '0'"). `unit` is named
    in the message."""
    want = "a whole number" if kind is int else "a number"
    want += " > 0" if positive else f" >= {minimum:g}" if minimum is not None else ""
    want += f" ({unit})" if unit else ""

    def convert(text):
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not math.isfinite(value) or (positive and value <= 0) or \
                (minimum is not None and value < minimum):
            raise argparse.ArgumentTypeError(f"needs {want}, not {text!r}")
        return value
    return convert


def output_prefix(prefix, extensions=(".png", ".pdf")):
    """PREFIX without a trailing extension of `extensions` ("-o plot.png" writes plot.png
    and plot.pdf, not plot.png.png); its directory created."""
    for extension in extensions:
        prefix = prefix.removesuffix(extension)
    directory = os.path.dirname(prefix)
    if directory:
        os.makedirs(directory, exist_ok=True)
    return prefix


# ---------------------------------------------------------------------------------------
# writing files atomically
# ---------------------------------------------------------------------------------------

def write_atomically(path, write, suffix=".tmp"):
    """write(temporary) fills a temporary file in the directory of `path`, which is then
    renamed over `path`: a reader never sees a half-written file, and a failed write
    leaves the old one. The file gets the permissions of a newly created file."""
    fd, temporary = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=suffix,
                                     dir=os.path.dirname(path) or ".")
    os.close(fd)
    try:
        write(temporary)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def write_text(path, text):
    """`text` as the UTF-8 file `path` (atomically, flushed to disk); its directory
    created."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)

    def write(temporary):
        with open(temporary, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
    write_atomically(path, write)


def without_machine_paths(text, output=None):
    """`text` (a run's parameters.prm) without the paths of the machine it was made on, for
    data that get committed: the repository's own directory is left out of every path in it
    (a mesh file of the repository, named with its absolute path in the mesh's identity
    line, becomes meshes/...), and of an absolute output directory `output` everything
    before its last component (`--output /scratch/me/runs` writes "runs/..."). A relative
    `output`, or one directly under the root, is left as it is."""
    if output is not None and os.path.isabs(output):
        parent = os.path.dirname(os.path.normpath(output))
        if len(parent) > 1:
            text = text.replace(parent + os.sep, "")
    repository = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return text.replace(repository + os.sep, "")


def write_figure(fig, path, ext, dpi):
    """The matplotlib figure `fig` as `path` in the format `ext` ("png", "pdf"), at `dpi`
    dots per inch, cropped to what is drawn (bbox_inches="tight"), atomically."""
    write_atomically(path, lambda temporary: fig.savefig(
        temporary, format=ext, dpi=dpi, bbox_inches="tight"))


def save_figure(fig, prefix, dpi=150, formats=("png", "pdf")):
    """`fig` as PREFIX.<format> for each format (atomically; `dpi` dots per inch for the
    PNG), then closed; the paths written."""
    import matplotlib.pyplot as plt      # only the scripts that draw need matplotlib
    paths = []
    try:
        for ext in formats:
            write_figure(fig, f"{prefix}.{ext}", ext, dpi)
            paths.append(f"{prefix}.{ext}")
    finally:
        plt.close(fig)
    return paths


# ---------------------------------------------------------------------------------------
# legends and phases
# ---------------------------------------------------------------------------------------

def outside_legend(ax, title=None, fontsize=8, frameon=False, **options):
    """A legend to the right of the axes, so that it never covers the curves."""
    return ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0,
                     fontsize=fontsize, title=title, title_fontsize=fontsize,
                     frameon=frameon, **options)


def legend_by_curve(ax, quantities=("k_F", "k_V")):
    """A legend to the right of the axes grouped per curve: the entries labelled
    "CURVE: $QUANTITY..." in the order k first, then those whose quantity contains
    quantities[0], quantities[1], ... (matplotlib lists error bars last, so the order must
    be made); entries without ": $" (marks such as "failed") at the end."""
    handles, labels = ax.get_legend_handles_labels()

    def rank(i):
        text = labels[i]
        if ": $" not in text:
            return (1, text, 0)
        curve, quantity = text.rsplit(": $", 1)
        return (0, curve, next((n + 1 for n, q in enumerate(quantities) if q in quantity), 0))
    order = sorted(range(len(labels)), key=rank)
    return outside_legend(ax, handles=[handles[i] for i in order],
                          labels=[labels[i] for i in order], fontsize="x-small",
                          frameon=True)


def phase_starts(times, phases):
    """{phase: its first time} of a run's history (times in any unit, e.g. t/T0)."""
    start = {}
    for t, p in zip(times, phases):
        start.setdefault(p, t)
    return start


def shade_phases(ax, times, phases):
    """The compression phase shaded dark grey, the transition light grey (the averaging
    window stays white), from a history's times (in the unit of the x axis) and phases."""
    start = phase_starts(times, phases)
    if "transition" in start and len(times):
        ax.axvspan(times[0], start["transition"], color="0.92", lw=0, zorder=0)
        ax.axvspan(start["transition"], start.get("averaging", times[-1]), color="0.96",
                   lw=0, zorder=0)


# ---------------------------------------------------------------------------------------
# numbers
# ---------------------------------------------------------------------------------------

def to_float(text):
    """`text` as a float; NaN if it is empty or no number."""
    try:
        return float(text)
    except (TypeError, ValueError):
        return math.nan


def is_false(text):
    """True for the deal.II spellings of false."""
    return str(text).strip().lower() in ("false", "0", "no", "off")


# ---------------------------------------------------------------------------------------
# parameters.prm
# ---------------------------------------------------------------------------------------

def parameter_entries(path):
    """The entries of a deal.II parameter file as {"Subsection/Entry": (value, comment)}
    in file order (continuation lines joined; `comment` is the text after "#" on the set
    line, "" if none). InputError names the file and the line if it is missing or
    malformed."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
    except OSError as e:
        raise InputError(f"{path}: {e.strerror}") from None
    entries, section = {}, []
    pending, first = "", 0
    for number, raw in enumerate(lines, start=1):
        text, _, comment = raw.partition("#")
        text = text.rstrip()
        if text.endswith("\\"):            # continued on the next line
            if not pending:
                first = number
            pending += text[:-1] + " "
            continue
        if pending:
            text, pending = pending + text.strip(), ""
        else:
            first = number
        text = text.strip()
        if not text:
            continue
        if text.startswith("subsection "):
            section.append(text[len("subsection "):].strip())
        elif text == "end":
            if not section:
                raise InputError(f"{path}, line {first}: 'end' without a subsection "
                                 "(a damaged parameters.prm?)")
            section.pop()
        elif text.startswith("set "):
            if "=" not in text:
                raise InputError(f"{path}, line {first}: 'set' without '=' "
                                 "(a damaged parameters.prm?)")
            key, value = text[4:].split("=", 1)
            entries["/".join(section + [" ".join(key.split())])] = (value.strip(),
                                                                   comment.strip())
        else:
            raise InputError(f"{path}, line {first}: cannot read {text[:40]!r} "
                             "(not a parameter file?)")
    if section:
        raise InputError(f"{path}: subsection {'/'.join(section)} is not closed "
                         "(a truncated parameters.prm?)")
    if not entries:
        raise InputError(f"{path} has no parameter (empty or not a parameter file)")
    return entries


# The comment line of a run's parameters.prm that names the source revision (git commit) of
# the build that computed it (granular-interface --version); records of older builds lack it.
REVISION_COMMENT = "# granular-interface source revision: "


def recorded_revision(run_dir):
    """The source revision named by the parameters.prm in `run_dir` ("" if it names none
    or is missing)."""
    try:
        with open(os.path.join(run_dir, "parameters.prm"), encoding="utf-8") as f:
            for line in f:
                if not line.startswith("#"):
                    break
                if line.startswith(REVISION_COMMENT):
                    return line[len(REVISION_COMMENT):].strip()
    except OSError:
        pass
    return ""


def read_parameters(path):
    """The entries of a deal.II parameter file as {"Subsection/Entry": "value"} (comments
    dropped); InputError as parameter_entries()."""
    return {key: value for key, (value, _) in parameter_entries(path).items()}


def parameter_float(params, key, path):
    """params[key] as a float; InputError naming `path` if it is missing or no number."""
    try:
        return float(params[key])
    except KeyError:
        raise InputError(f"{path} has no entry {key}") from None
    except ValueError:
        raise InputError(f"{path}: {key} = {params[key]!r} is not a number") from None


def particle_enabled(params):
    """Particle/Enabled as a bool (True when the entry is missing: the default)."""
    return not is_false(params.get("Particle/Enabled", "true"))


# ---------------------------------------------------------------------------------------
# a run: summary.csv, history.csv, T0
# ---------------------------------------------------------------------------------------

def read_table(path, complete=False):
    """The rows of a CSV file with a header line as dicts of text; InputError naming the
    file if it cannot be read. `complete`: every row must have as many fields as the header
    (a file written atomically, such as sweep.csv, where a shorter or longer row is damage);
    InputError names the line of the first that has not."""
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            rows = []
            for row in reader:
                if complete and (None in row or None in row.values()):
                    fields = sum(row[c] is not None for c in reader.fieldnames) + \
                        len(row.get(None, []))
                    raise InputError(f"{path}, line {reader.line_num}: {fields} fields "
                                     f"instead of the header's {len(reader.fieldnames)} "
                                     "(a damaged or truncated file)")
                rows.append(row)
            return rows
    except OSError as e:
        raise InputError(f"{path}: {e.strerror}") from None
    except csv.Error as e:
        raise InputError(f"{path}: {e}") from None


def read_summary(run_dir):
    """The one row of `run_dir`/summary.csv as {column: text}; None if the run has no
    summary.csv (stopped or failed before its end). InputError if it is unreadable or
    has no row."""
    path = os.path.join(run_dir, "summary.csv")
    if not os.path.exists(path):
        return None
    rows = read_table(path)
    if not rows:
        raise InputError(f"{path} has no row (empty or truncated)")
    return rows[0]


def summary_float(summary, key, run_dir):
    """summary[key] as a float; InputError naming the run's summary.csv if it is missing or
    no number."""
    value = to_float(summary.get(key))
    if math.isnan(value):
        raise InputError(f"{os.path.join(run_dir, 'summary.csv')}: no number in column "
                         f"{key}")
    return value


def dragging_time(run_dir):
    """T0 = L0 / v_F (s) of a run: from its summary.csv (block_length, slip_velocity), else
    from its parameters.prm (Geometry/Block length, Loading/Slip velocity)."""
    summary = read_summary(run_dir)
    if summary and summary.get("block_length") and summary.get("slip_velocity"):
        length = summary_float(summary, "block_length", run_dir)
        velocity = summary_float(summary, "slip_velocity", run_dir)
        path = os.path.join(run_dir, "summary.csv")
    else:
        path = os.path.join(run_dir, "parameters.prm")
        params = read_parameters(path)
        length = parameter_float(params, "Geometry/Block length", path)
        velocity = parameter_float(params, "Loading/Slip velocity", path)
    if length <= 0. or velocity <= 0.:
        raise InputError(f"{path}: the block length and the slip velocity must be positive")
    return length / velocity


def read_history(run_dir, columns, text_columns=("phase",)):
    """The columns `columns` of `run_dir`/history.csv as {name: [float, ...]} (those in
    `text_columns` as strings), one entry per row, in time order.

    A run stopped while it wrote its last row (SIGKILL, a full disk) leaves that row
    truncated: it is left out with a warning on stderr. InputError (exit status 2) if the
    file is missing, empty ("history.csv is empty"), lacks a column or has a damaged row
    before the last one."""
    path = os.path.join(run_dir, "history.csv")
    try:
        with open(path, newline="") as f:
            reader = csv.reader(f)
            header = next(reader, None)
            if header is None:
                raise InputError(f"{path} is empty (did the run start?)")
            missing = [c for c in columns if c not in header]
            if missing:
                raise InputError(f"{path} has no column {', '.join(missing)} "
                                 "(a history of an older build or another file?)")
            index = {c: header.index(c) for c in columns}
            lines = list(reader)
    except OSError as e:
        raise InputError(f"{path}: {e.strerror}") from None
    except csv.Error as e:
        raise InputError(f"{path}: {e}") from None
    data = {c: [] for c in columns}
    for number, row in enumerate(lines, start=2):
        try:
            if len(row) != len(header):
                raise ValueError(f"{len(row)} fields instead of {len(header)}")
            values = {c: row[i] if c in text_columns else float(row[i])
                      for c, i in index.items()}
        except ValueError as e:
            if number == len(lines) + 1:
                warn(f"{path}: the last row (line {number}) is truncated ({e}; the run was "
                     "stopped while writing it): it is left out")
                break
            raise InputError(f"{path}, line {number}: {e}") from None
        for c in columns:
            data[c].append(values[c])
    if not data[columns[0]]:
        raise InputError(f"{path} has no complete row")
    return data


# ---------------------------------------------------------------------------------------
# ParaView output: .pvd collections and .vtu files
# ---------------------------------------------------------------------------------------

# the arrays of solution-NNNNN.vtu and their units (docs/outputs.md); all are point data:
# the cell fields constant on each cell's own patch
SOLUTION_FIELDS = {
    "displacement_x": "mm", "displacement_y": "mm", "velocity": "mm/s",
    "mean_stress": "MPa", "cauchy_stress_xx": "MPa", "cauchy_stress_yy": "MPa",
    "cauchy_stress_xy": "MPa", "cauchy_stress_zz": "MPa", "principal_stress_1": "MPa",
    "principal_stress_2": "MPa", "von_mises_stress": "MPa",
    "viscous_dissipation_density": "MPa = N mm/mm^3", "payne_q": "1/s",
    "rate_of_deformation": "1/s",
}

# corner points of the cells meshio names (they come first); other cells keep all points
CORNERS = {"line": 2, "line3": 2, "triangle": 3, "triangle6": 3, "quad": 4, "quad8": 4,
           "quad9": 4}


def read_collection(directory, name, sort=True):
    """[(time in s, path of the VTU), ...] of the .pvd collection `directory`/`name`,
    sorted by time (in the file's order if not `sort`); None if the file does not exist.
    InputError if it is damaged."""
    path = os.path.join(directory, name)
    if not os.path.exists(path):
        return None
    try:
        collection = ET.parse(path).getroot().find("Collection")
        if collection is None:
            raise InputError(f"{path} has no <Collection>: not a .pvd file")
        records = [(float(d.get("timestep")), os.path.join(directory, d.get("file")))
                   for d in collection.findall("DataSet")]
    except ET.ParseError as e:
        raise InputError(f"{path} is damaged ({e})") from None
    except (TypeError, ValueError):
        raise InputError(f"{path}: a DataSet without a numeric timestep or a file") from None
    except OSError as e:
        raise InputError(f"{path}: {e.strerror}") from None
    return sorted(records) if sort else records


class Vtu:
    """One .vtu file: `points` (n, 2) in mm (z dropped); `cells`, one array of corner ids
    per cell (all points of a polygon); `cell_types`, meshio's name of each ("quad",
    "polygon", "line", ...); `point_data` {name: array (n,) or (n, 3)} and `cell_data`
    {name: array, one row per cell}."""

    def __init__(self, points, cells, cell_types, point_data, cell_data):
        self.points, self.cells, self.cell_types = points, cells, cell_types
        self.point_data, self.cell_data = point_data, cell_data

    def array(self, name):
        """The point or cell array `name` (point data first); None if there is none."""
        return self.point_data.get(name, self.cell_data.get(name))


def read_vtu(path):
    """The .vtu file `path` (XML, ASCII or base64 binary, zlib-compressed or not, as
    deal.II and the program write them) as a Vtu, read by Debian's python3-meshio.
    InputError naming the file if it is missing, damaged or has no point or cell."""
    if not os.path.isfile(path):
        raise InputError(f"{path} is missing (listed in the .pvd; the run's VTU files "
                         "were removed or the run is being written?)")
    try:
        import meshio
        import numpy as np
    except ImportError as e:
        raise InputError(f"reading {path} needs Debian's python3-meshio and python3-numpy "
                         f"({e}; bash scripts/install-dependencies.sh installs them)") from None
    try:
        mesh = meshio.vtu.read(path)      # (meshio.read() exits the program on an error)
    except Exception as e:       # meshio raises many kinds on a damaged file
        detail = f" ({e})" if str(e) else ""
        raise InputError(f"{path} is damaged or not a VTU file{detail}") from None
    cells, cell_types = [], []
    for block in mesh.cells:
        n = CORNERS.get(block.type)
        cells += [np.asarray(ids[:n], dtype=int) for ids in block.data]
        cell_types += [block.type] * len(block.data)
    if len(mesh.points) == 0 or not cells:
        raise InputError(f"{path} is empty (no point or no cell)")
    cell_data = {name: np.concatenate([np.asarray(b) for b in blocks])
                 for name, blocks in mesh.cell_data.items()}
    return Vtu(np.asarray(mesh.points, dtype=float)[:, :2], cells, cell_types,
               {name: np.asarray(a) for name, a in mesh.point_data.items()}, cell_data)


# ---------------------------------------------------------------------------------------
# a sweep: sweep.csv and its points
# ---------------------------------------------------------------------------------------

# the parameters.prm entries that a sweep sets per point, by sweep.csv column
SWEPT_ENTRIES = {
    "point_pressure": ["Loading/Pressure"],
    "point_slip_velocity": ["Loading/Slip velocity"],
    "point_relaxation_time": ["Rubber/Maxwell branch/Relaxation time"],
    "point_shape": ["Particle/Shape", "Particle/Semi-axis r1", "Particle/Semi-axis r2",
                    "Particle/Exponent p1", "Particle/Exponent p2"],
    "point_payne_d": ["Rubber/Maxwell branch/Payne parameter"],
    "point_rubber_model": ["Rubber/Maxwell branch/Viscoelastic"],
    "point_mixture": ["Particles/Mixture"],
}

# (symbol, unit) of the swept values in legends ("" symbol: the value alone)
SWEPT_SYMBOLS = {
    "point_pressure": ("p", "MPa"),
    "point_slip_velocity": ("v_F", "mm/s"),
    "point_relaxation_time": ("tau0", "s"),
    "point_shape": ("", ""),
    "point_payne_d": ("d", "s"),
    "point_rubber_model": ("", ""),
    "point_mixture": ("", ""),
}


def swept_value_text(column, value):
    """"p = 2 MPa" of a swept column's value ("elastic" for the rubber model)."""
    symbol, unit = SWEPT_SYMBOLS[column]
    return f"{symbol} = {value} {unit}".strip() if symbol else value


def sweep_paths(path):
    """(sweep directory, sweep.csv) of a sweep's output directory or its sweep.csv."""
    if os.path.isdir(path):
        return path, os.path.join(path, "sweep.csv")
    return os.path.dirname(path) or ".", path


def read_sweep(path, columns=("name", "status")):
    """The rows of a sweep.csv as dicts of text (one per point, in the sweep's order);
    `path` is the file or the sweep's directory. InputError if it is missing, has no
    point, lacks one of `columns` or has a row with more or fewer fields than its header
    (the program writes sweep.csv atomically, so such a row is damage)."""
    _, csv_path = sweep_paths(path)
    rows = read_table(csv_path, complete=True)
    if not rows:
        raise InputError(f"{csv_path} has no point (empty, or not a sweep.csv)")
    missing = [c for c in columns if c not in rows[0]]
    if missing:
        raise InputError(f"{csv_path} has no column {', '.join(missing)} (not a sweep.csv, "
                         "or a damaged one)")
    return rows


def read_sweeps(paths, columns=("name", "status")):
    """The rows of several sweeps (read_sweep of each path) in one list, each row with its
    sweep's directory under the key "sweep_dir"; a point (by name) in more than one counts
    once, with the row of the later sweep in the place of the first."""
    by_name = {}
    for path in paths:
        directory, _ = sweep_paths(path)
        for r in read_sweep(path, columns):
            by_name[r["name"]] = dict(r, sweep_dir=directory)
    return list(by_name.values())


def with_unusable_points_failed(rows):
    """`rows` of a sweep.csv with every "ok" row whose k̄ is not a finite number (inf,
    nan, missing), or whose k̄_F or k̄_V is given but not finite, marked failed (a copy;
    its error says which value): such a point has no result to show."""
    result = []
    for r in rows:
        bad = [f"{c} = {r.get(c) or 'missing'}" for c in ("kbar", "kbar_F", "kbar_V")
               if r["status"] == "ok" and not math.isfinite(to_float(r.get(c)))
               and (c == "kbar" or (r.get(c) or "").strip())]
        result.append(dict(r, status="failed", error=f"{', '.join(bad)}: not a finite "
                           "number") if bad else r)
    return result


def successful_points(rows):
    """The rows with status "ok"; every other row is listed on stderr ("skipping NAME
    (STATUS: ERROR)")."""
    for r in rows:
        if r["status"] != "ok":
            print(f"{PROGRAM}: skipping {r['name']} ({r['status']}: {r.get('error', '')})",
                  file=sys.stderr)
    return [r for r in rows if r["status"] == "ok"]


def varying_columns(rows, candidates):
    """The columns of `candidates` that sweep.csv has and whose values differ between
    `rows`."""
    return [c for c in candidates if rows and c in rows[0] and len({r[c] for r in rows}) > 1]


def point_parameters(sweep_dir, row):
    """The parameters of one sweep point (its subdirectory's parameters.prm), or None if
    the point has none (not started, or sweep.csv copied without the subdirectories)."""
    path = os.path.join(sweep_dir, row.get("name", ""), "parameters.prm")
    if not row.get("name") or not os.path.isfile(path):
        return None
    return read_parameters(path)


def point_is_bare(sweep_dir, row):
    """True if the point has no particle (a bare interface): from its parameters.prm
    (Particle/Enabled), else from its summary columns (r1 = r2 = 0 for a bare interface);
    False if neither tells."""
    try:
        params = point_parameters(sweep_dir, row)
    except InputError:
        params = None
    if params is not None:
        return not particle_enabled(params)
    return to_float(row.get("r1")) == 0. and to_float(row.get("r2")) == 0.


def shape_label(sweep_dir, row):
    """The point's shape for a legend: "bare interface" for a point without particle, the
    mixture ("circular + elliptical") for a point of Sweep/Mixtures."""
    if point_is_bare(sweep_dir, row):
        return "bare interface"
    if (row.get("point_mixture") or "").strip():
        return " + ".join(s.strip() for s in row["point_mixture"].split(","))
    return row.get("point_shape", "?")


def cell_length(sweep_dir, row, rows):
    """L0 (mm) of a sweep point: its block_length column; for a point without summary
    columns (a failed one) its parameters.prm's Geometry/Block length, else the one
    block_length of the other `rows`; None if nothing tells (a sweep.csv of an older
    build)."""
    if to_float(row.get("block_length")) > 0.:
        return float(row["block_length"])
    try:
        params = point_parameters(sweep_dir, row)
        if params is not None:
            return float(params["Geometry/Block length"])
    except (InputError, KeyError, ValueError):
        pass
    known = {v for v in (to_float(o.get("block_length")) for o in rows) if v > 0.}
    return known.pop() if len(known) == 1 else None
