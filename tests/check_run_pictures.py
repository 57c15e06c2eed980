#!/usr/bin/python3
"""Check of the picture scripts postprocess/render_run.py, compare.py, kbar_vs_pressure.py and
kbar_vs_relaxation.py on a finished run with VTU output and a finished sweep, writing into
WORKDIR:
  - render_run.py RUN_DIR --times (two output times) --gif writes PREFIX_t<t/T0>.png for
    both, PREFIX.gif with as many frames as solution.pvd has output times, and (for a run
    with particle) PREFIX_trajectory.png; without --times it writes one to four pictures;
    every file opens with PIL;
  - render_run.py on a copy of the run without its VTU output exits with status 2 and a
    message naming Output/VTU output interval, without a traceback;
  - compare.py on RUN_DIR and a copy of it whose parameters.prm has another
    Loading/Pressure writes PREFIX.png and its legend shows both Loading/Pressure values;
    on SWEEP_DIR and a copy whose points' parameters.prm have another
    Contact/Rubber-surface/Friction coefficient, the legend shows both values;
  - kbar_vs_pressure.py and kbar_vs_relaxation.py on SWEEP_DIR write their PNG; a sweep
    without particle is labelled "bare interface", never with its shape name; on a copy
    of sweep.csv with one point made "failed" they report that point as failed;
  - render_run.py --help and compare.py --help describe their usage.

Usage: check_run_pictures.py RUN_DIR SWEEP_DIR WORKDIR
RUN_DIR: a finished run with Output/VTU output interval > 0 (solution.pvd, particle.pvd,
history.csv, summary.csv, parameters.prm); SWEEP_DIR: a finished sweep's output directory
(sweep.csv and a subdirectory per point). WORKDIR is created; the subdirectories this check
writes in it are replaced.
Exit status 0 if every check passes, 1 with one line per failure otherwise. Needs Debian's
/usr/bin/python3 with python3-meshio, python3-numpy, python3-matplotlib and python3-pil; about
18 s on a busy 2-core machine (11 runs of the scripts; the GIF takes the longest).
"""
import csv
import glob
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

PYTHON = "/usr/bin/python3"
HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(os.path.dirname(HERE), "postprocess")

failures = []


def fail(message):
    failures.append(message)
    print(f"FAIL: {message}")


def run(script, *args):
    """(exit status, stdout, stderr) of a post-processing script."""
    command = [PYTHON, os.path.join(SCRIPTS, script)] + [str(a) for a in args]
    try:
        p = subprocess.run(command, capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return -1, "", f"{script} timed out"
    return p.returncode, p.stdout, p.stderr


def check_status(what, result, expected=0):
    status, out, err = result
    if status != expected:
        fail(f"{what}: exit status {status} instead of {expected}\n{out}{err}")
        return False
    if "Traceback" in err:
        fail(f"{what}: a traceback on stderr\n{err}")
        return False
    return True


def check_image(path, frames=None):
    """`path` exists and PIL reads it (every frame of a GIF); its frame count if asked."""
    from PIL import Image
    if not os.path.isfile(path) or os.path.getsize(path) == 0:
        fail(f"{path} was not written")
        return
    try:
        with Image.open(path) as image:
            count = getattr(image, "n_frames", 1)
            for n in range(count):
                image.seek(n)
                image.load()
            width, height = image.size
    except Exception as e:      # any PIL error means a damaged picture
        fail(f"{path} does not open with PIL: {e}")
        return
    if width < 100 or height < 100:
        fail(f"{path} is only {width} x {height} pixels")
    if frames is not None and count != frames:
        fail(f"{path} has {count} frames instead of {frames} (the output times)")


def parameters(path):
    """{"Subsection/Entry": value} of a parameters.prm."""
    values, section = {}, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line.startswith("subsection "):
                section.append(line[len("subsection "):].strip())
            elif line == "end":
                section.pop()
            elif line.startswith("set ") and "=" in line:
                key, value = line[4:].split("=", 1)
                values["/".join(section + [key.strip()])] = value.strip()
    return values


def set_parameter(text, key, value):
    """`text` (a parameters.prm) with the entry `key` ("Sub/Entry") set to `value`."""
    *sections, entry = key.split("/")
    section, lines, done = [], [], False
    for line in text.split("\n"):
        bare = line.split("#", 1)[0].strip()
        if bare.startswith("subsection "):
            section.append(bare[len("subsection "):].strip())
        elif bare == "end":
            section.pop()
        elif (bare.startswith("set ") and "=" in bare and section == sections
              and bare[4:].split("=", 1)[0].strip() == entry):
            line = re.sub(r"=.*$", f"= {value}", line)
            done = True
        lines.append(line)
    if not done:
        raise KeyError(key)
    return "\n".join(lines)


def copy_with_parameter(source, target, key, value, files):
    """`files` of the run directory `source` copied to `target`, parameters.prm with `key`
    set to `value`."""
    os.makedirs(target, exist_ok=True)
    for name in files:
        if os.path.isfile(os.path.join(source, name)):
            shutil.copy(os.path.join(source, name), target)
    with open(os.path.join(source, "parameters.prm"), encoding="utf-8") as f:
        text = set_parameter(f.read(), key, value)
    with open(os.path.join(target, "parameters.prm"), "w", encoding="utf-8") as f:
        f.write(text)


def other_value(value):
    try:
        return f"{float(value) * 1.5 + 0.25:g}"
    except ValueError:
        return value + "x"


def fresh(directory):
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)
    return directory


def check_render(run_dir, work):
    params = parameters(os.path.join(run_dir, "parameters.prm"))
    T0 = float(params["Geometry/Block length"]) / float(params["Loading/Slip velocity"])
    has_particle = params.get("Particle/Enabled", "true").lower() != "false"
    root = ET.parse(os.path.join(run_dir, "solution.pvd")).getroot()
    times = sorted(float(d.get("timestep")) for d in root.iter("DataSet"))
    if len(times) < 2:
        fail(f"{run_dir}/solution.pvd has {len(times)} output times: the check needs a run "
             "with at least two")
        return
    chosen = [times[len(times) // 2] / T0, times[-1] / T0]
    out = fresh(os.path.join(work, "render"))
    prefix = os.path.join(out, "run")
    if check_status("render_run.py --gif", run(
            "render_run.py", run_dir, "--times", *[f"{s:.6f}" for s in chosen], "--gif",
            "-o", prefix)):
        for s in chosen:
            check_image(f"{prefix}_t{s:.3f}.png")
        check_image(f"{prefix}.gif", frames=len(times))
        if has_particle:
            check_image(f"{prefix}_trajectory.png")
    default = os.path.join(out, "default")
    if check_status("render_run.py (default times)", run("render_run.py", run_dir,
                                                         "-o", default)):
        pictures = glob.glob(f"{default}_t[0-9]*.png")
        if not 1 <= len(pictures) <= 4:
            fail(f"render_run.py without --times wrote {len(pictures)} pictures, not 1 to 4")
        for path in pictures:
            check_image(path)
        if os.path.exists(f"{default}.gif"):
            fail("render_run.py wrote a GIF without --gif")

    # a run without VTU output: history.csv and parameters.prm only
    bare = fresh(os.path.join(work, "no-vtu"))
    for name in ("history.csv", "parameters.prm", "summary.csv"):
        if os.path.isfile(os.path.join(run_dir, name)):
            shutil.copy(os.path.join(run_dir, name), bare)
    status, _, err = result = run("render_run.py", bare, "-o", os.path.join(bare, "x"))
    if check_status("render_run.py on a run without VTU output", result, expected=2):
        if "no VTU output" not in err or "Output/VTU output interval" not in err \
                or bare not in err:
            fail(f"render_run.py without VTU output: the message does not name the run and "
                 f"Output/VTU output interval: {err.strip()}")
        if glob.glob(os.path.join(bare, "x*")):
            fail("render_run.py without VTU output wrote files")


def legend_lines(stdout):
    lines = stdout.split("legend:", 1)
    return lines[1] if len(lines) == 2 else ""


def check_compare_runs(run_dir, work):
    params = parameters(os.path.join(run_dir, "parameters.prm"))
    pressure = params["Loading/Pressure"]
    other = other_value(pressure)
    copy = os.path.join(fresh(os.path.join(work, "compare-runs")), "other-pressure")
    copy_with_parameter(run_dir, copy, "Loading/Pressure", other,
                        ["history.csv", "summary.csv"])
    prefix = os.path.join(work, "compare-runs", "runs")
    status, out, err = result = run("compare.py", run_dir, copy, "-o", prefix)
    if check_status("compare.py on two runs", result):
        check_image(f"{prefix}.png")
        legend = legend_lines(out)
        for value in (pressure, other):
            if f"Loading/Pressure = {value}" not in legend:
                fail(f"compare.py's legend lacks 'Loading/Pressure = {value}':\n{out}")


def check_compare_sweeps(sweep_dir, rows, work):
    copy = fresh(os.path.join(work, "compare-sweeps", "other-friction"))
    shutil.copy(os.path.join(sweep_dir, "sweep.csv"), copy)
    key = "Contact/Rubber-surface/Friction coefficient"
    first = None
    for r in rows:
        source = os.path.join(sweep_dir, r["name"])
        if os.path.isfile(os.path.join(source, "parameters.prm")):
            if first is None:
                first = parameters(os.path.join(source, "parameters.prm"))[key]
            copy_with_parameter(source, os.path.join(copy, r["name"]), key,
                                other_value(first), [])
    if first is None:
        fail(f"{sweep_dir}: no point has a parameters.prm")
        return
    prefix = os.path.join(work, "compare-sweeps", "sweeps")
    status, out, err = result = run("compare.py", sweep_dir, copy, "-o", prefix)
    if check_status("compare.py on two sweeps", result):
        check_image(f"{prefix}.png")
        legend = legend_lines(out)
        for value in (first, other_value(first)):
            if f"{key} = {value}" not in legend:
                fail(f"compare.py's legend lacks '{key} = {value}':\n{out}")


def check_kbar_plots(sweep_dir, rows, work):
    out_dir = fresh(os.path.join(work, "kbar"))
    first = next((os.path.join(sweep_dir, r["name"], "parameters.prm") for r in rows
                  if os.path.isfile(os.path.join(sweep_dir, r["name"], "parameters.prm"))),
                 None)
    bare = first is not None and \
        parameters(first).get("Particle/Enabled", "true").lower() == "false"
    shapes = {r["point_shape"] for r in rows}
    for script in ("kbar_vs_pressure.py", "kbar_vs_relaxation.py"):
        prefix = os.path.join(out_dir, script[:-3])
        status, out, err = result = run(script, sweep_dir, "-o", prefix)
        if not check_status(f"{script} on the sweep", result):
            continue
        check_image(f"{prefix}.png")
        curves = out.split("curves:", 1)[-1]
        if bare:
            if "bare interface" not in curves:
                fail(f"{script}: a sweep without particle is not labelled 'bare interface': "
                     f"{out.strip()}")
            for shape in shapes:
                if re.search(rf"\b{re.escape(shape)}\b", curves):
                    fail(f"{script}: a sweep without particle is labelled with the shape "
                         f"'{shape}': {out.strip()}")
        else:
            for shape in {r["point_shape"] for r in rows if r["status"] == "ok"}:
                if shape not in curves:
                    fail(f"{script}: the curves do not name the shape '{shape}': "
                         f"{out.strip()}")

    # one point made "failed" (its results removed, as the sweep writes a failed point)
    failed_dir = fresh(os.path.join(work, "kbar", "failed-point"))
    header = list(rows[0].keys())
    ok = [r for r in rows if r["status"] == "ok"]
    if len(ok) < 2:
        fail(f"{sweep_dir}: the check needs a sweep with two successful points")
        return
    already = sum(r["status"] == "failed" for r in rows)
    changed = [dict(r) for r in rows]
    victim = next(r for r in changed if r["status"] == "ok")
    start = header.index("error") + 1
    for column in header[start:]:
        victim[column] = ""
    victim["status"], victim["error"] = "failed", "made up by check_run_pictures.py"
    with open(os.path.join(failed_dir, "sweep.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=header)
        writer.writeheader()
        writer.writerows(changed)
    for script in ("kbar_vs_pressure.py", "kbar_vs_relaxation.py"):
        prefix = os.path.join(failed_dir, script[:-3])
        status, out, err = result = run(script, failed_dir, "-o", prefix)
        if check_status(f"{script} on a sweep with a failed point", result):
            check_image(f"{prefix}.png")
            if f"{already + 1} failed" not in out:
                fail(f"{script} does not report the failed point: {out.strip()}")
            if victim["name"] not in err:
                fail(f"{script} does not list the failed point on stderr: {err.strip()}")


def check_help():
    for script, words in (("render_run.py", ["RUN_DIR", "--gif", "--times", "trajectory"]),
                          ("compare.py", ["RUN_OR_SWEEP", "legend", "sweep.csv"])):
        status, out, err = result = run(script, "--help")
        if check_status(f"{script} --help", result):
            missing = [w for w in words if w not in out]
            if missing:
                fail(f"{script} --help does not mention {', '.join(missing)}")


def main():
    if len(sys.argv) != 4 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(sys.argv) == 2 else 1
    run_dir, sweep_dir, work = (os.path.abspath(a) for a in sys.argv[1:])
    for path in (os.path.join(run_dir, "solution.pvd"), os.path.join(run_dir, "history.csv"),
                 os.path.join(run_dir, "parameters.prm"),
                 os.path.join(sweep_dir, "sweep.csv")):
        if not os.path.isfile(path):
            print(f"check_run_pictures: {path} is missing (see --help for the inputs)")
            return 1
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(sweep_dir, "sweep.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        print(f"check_run_pictures: {sweep_dir}/sweep.csv has no point")
        return 1
    check_help()
    check_render(run_dir, work)
    check_compare_runs(run_dir, work)
    check_compare_sweeps(sweep_dir, rows, work)
    check_kbar_plots(sweep_dir, rows, work)
    if failures:
        print(f"check_run_pictures: {len(failures)} failure(s)")
        return 1
    print("check_run_pictures: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
