#!/usr/bin/env python3
"""The layers of lib/ (docs/README.md, Architecture): every #include "folder/file.h" between the
folders of lib/ (and from app/) must point to a lower layer, so that the includes form a
strict order with no cycle:

    base -> geometry, material -> contact -> fem, dem, impact -> coupling -> sweep -> program
         -> app

Folders on the same layer (geometry and material; fem, dem and impact) do not include each
other.
A folder of lib/ that is not in LAYERS is an error too (give it its place here).

Usage: check_layers.py [ROOT]   (ROOT: the source tree, default: this file's parent's
parent). Exit status 0 if the order holds, 1 with one line per upward include otherwise.
"""
import os
import re
import sys

LAYERS = [
    ["base"],
    ["geometry", "material"],
    ["contact"],
    ["fem", "dem", "impact"],
    ["coupling"],
    ["sweep"],
    ["program"],
    ["app"],
]
RANK = {folder: rank for rank, folders in enumerate(LAYERS) for folder in folders}
INCLUDE = re.compile(r'\s*#\s*include\s*"([^"/]+)/[^"]+"')


def check(root):
    lib = os.path.join(root, "lib")
    errors = []
    folders = sorted(d for d in os.listdir(lib) if os.path.isdir(os.path.join(lib, d)))
    for d in folders:
        if d not in RANK:
            errors.append(f"lib/{d}/ has no layer (add it to LAYERS in tests/check_layers.py)")
    sources = [(d, os.path.join(lib, d)) for d in folders] + [("app", os.path.join(root, "app"))]
    n_includes = 0
    for folder, path in sources:
        for directory, _, files in os.walk(path):
            for name in sorted(files):
                if not name.endswith((".h", ".cc")):
                    continue
                file = os.path.join(directory, name)
                with open(file, errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m or m.group(1) not in folders:
                            continue
                        n_includes += 1
                        target = m.group(1)
                        if target == folder or folder not in RANK or target not in RANK:
                            continue
                        if RANK[target] >= RANK[folder]:
                            kind = "upward" if RANK[target] > RANK[folder] else "sideways"
                            errors.append(f"{os.path.relpath(file, root)}:{number}: {kind} "
                                          f"include of {target}/ from {folder}/: "
                                          f"{line.strip()}")
    return errors, n_includes


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))
    errors, n = check(root)
    for e in errors:
        print(e)
    if errors:
        print(f"check_layers: {len(errors)} include(s) against the layer order")
        return 1
    print(f"check_layers: {n} includes between folders, all pointing down the layers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
