#!/usr/bin/python3
"""Check that the manual's table of bad inputs (docs/running.md, between the markers <!-- bad-inputs -->
and <!-- /bad-inputs -->) matches what granular-interface does: each row's command is run (its
placeholders filled in: {bare}, {default}, {sweep} = the parameter files of params/, {empty} =
a file that sets nothing, {directory} = a directory named like a parameter file, {garbage} =
a file that is no mesh, {triangles}, {cracked}, {unmatched} = Gmsh meshes of a 2 x 1 mm block
made of triangles, with a crack, and with left and right boundary nodes at different heights,
{earlier} = an output directory holding an earlier run's summary.csv), with --output-directory pointing to a fresh scratch directory unless the row
gives one; its exit status and a part of its message must be those of the table, and the
scratch output directory must not have been created.

Usage: check_bad_inputs.py docs/running.md GRANULAR_EXECUTABLE SOURCE_DIR
Exit status 0 if every row holds, 1 with one line per failing row otherwise.
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile


def rows(page):
    text = open(page, encoding="utf-8").read()
    m = re.search(r"<!-- bad-inputs -->(.*?)<!-- /bad-inputs -->", text, re.S)
    if not m:
        raise SystemExit(f"{page}: no <!-- bad-inputs --> table")
    for line in m.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or not cells[0].startswith("`"):
            continue
        command = re.match(r"`([^`]*)`", cells[0]).group(1)
        status = int(cells[1])
        message = re.match(r"`([^`]*)`", cells[2]).group(1)
        yield command, status, message


def main():
    page, exe, source = sys.argv[1:4]
    tmp = tempfile.mkdtemp(prefix="granular-bad-inputs-")
    empty = os.path.join(tmp, "empty.prm")
    open(empty, "w").close()
    directory = os.path.join(tmp, "directory.prm")
    os.mkdir(directory)
    garbage = os.path.join(tmp, "garbage.msh")
    with open(garbage, "w") as f:
        f.write("this is not a mesh\n")
    meshes = {}
    # boundary lines: physical tag = boundary id (0 left, 1 right, 2 bottom, 3 top)
    for name, nodes, elements in (
            ("triangles", ["0 0", "2 0", "2 1", "0 1"],
             ["1 2 2 1 1 2", "1 2 1 2 2 3", "1 2 3 3 3 4", "1 2 0 4 4 1",
              "2 2 0 5 1 2 3", "2 2 0 5 1 3 4"]),
            # the right cell has its own copies 7, 8 of the middle nodes 2, 5
            ("cracked", ["0 0", "1 0", "2 0", "2 1", "1 1", "0 1", "1 0", "1 1"],
             ["1 2 2 1 1 2", "1 2 2 1 7 3", "1 2 1 2 3 4", "1 2 3 3 4 8", "1 2 3 3 5 6",
              "1 2 0 4 6 1", "3 2 0 5 1 2 5 6", "3 2 0 5 7 3 4 8"]),
            # the middle line runs from (0, 0.5) to (2, 0.4)
            ("unmatched", ["0 0", "2 0", "2 0.4", "0 0.5", "2 1", "0 1"],
             ["1 2 2 1 1 2", "1 2 1 2 2 3", "1 2 1 2 3 5", "1 2 3 3 5 6", "1 2 0 4 6 4",
              "1 2 0 4 4 1", "3 2 0 5 1 2 3 4", "3 2 0 5 4 3 5 6"])):
        meshes[name] = os.path.join(tmp, f"{name}.msh")
        with open(meshes[name], "w") as f:
            f.write("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n"
                    + f"{len(nodes)}\n"
                    + "".join(f"{i} {xy} 0\n" for i, xy in enumerate(nodes, start=1))
                    + f"$EndNodes\n$Elements\n{len(elements)}\n"
                    + "".join(f"{i} {e}\n" for i, e in enumerate(elements, start=1))
                    + "$EndElements\n")
    earlier = os.path.join(tmp, "earlier")
    os.mkdir(earlier)
    with open(os.path.join(earlier, "summary.csv"), "w") as f:
        f.write("kbar\n0.3\n")
    places = {"bare": os.path.join(source, "params", "bare-interface.prm"),
              "default": os.path.join(source, "params", "default.prm"),
              "sweep": os.path.join(source, "params", "pressure-sweep.prm"),
              "empty": empty, "directory": directory, "garbage": garbage, "earlier": earlier, **meshes}
    failures = 0
    n = 0
    for n, (command, status, message) in enumerate(rows(page), start=1):
        arguments = shlex.split(command.format(**places))
        out = os.path.join(tmp, f"out-{n}")
        if "--output-directory" not in arguments:
            arguments += ["--output-directory", out]
        run = subprocess.run([exe] + arguments, capture_output=True, text=True, timeout=120)
        text = run.stdout + run.stderr
        problems = []
        if run.returncode != status:
            problems.append(f"exit status {run.returncode}, not {status}")
        if message not in text:
            problems.append(f"no '{message}' in the message")
        if os.path.exists(out):
            problems.append("the output directory was created")
        if problems:
            failures += 1
            print(f"FAILED: {command}: {'; '.join(problems)}\n  {text.strip()[:300]}")
        else:
            print(f"ok: {command}")
    if n == 0:
        print("no rows in the table")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
