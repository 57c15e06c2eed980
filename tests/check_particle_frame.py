#!/usr/bin/python3
"""Check that particle.pvd and solution.pvd share one frame: at every output time
after the first, the rubber, written deformed, touches one of the drawn copies of the particle:
the smallest distance from a vertex of a particle outline to an edge of the rubber's cells
(straight between the nodes, as the Q1 elements are) is below the tolerance (the penalty
penetration plus the outline's chord error).

Usage: check_particle_frame.py OUTPUT_DIRECTORY [--tolerance MM]
Exit status 0 if every record passes, 1 with one line per failing record otherwise.
Needs Debian's python3-meshio and python3-numpy (postprocess/common.py reads the files).
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                "postprocess"))
import common  # noqa: E402


def records(directory, pvd):
    return common.read_collection(directory, pvd, sort=False) or []


def polygons(vtu):
    """The particle copies: one (n, 2) array of vertices per cell."""
    return [vtu.points[ids] for ids in vtu.cells]


def edges(vtu):
    """The edges of the rubber's cells as (start, end) arrays of shape (m, 2)."""
    start = [vtu.points[ids] for ids in vtu.cells]
    end = [vtu.points[np.roll(ids, -1)] for ids in vtu.cells]
    return np.concatenate(start), np.concatenate(end)


def distance_to_segments(points, a, b):
    """Smallest distance of any point to any segment [a_e, b_e]."""
    ab = b - a
    ap = points[:, None, :] - a[None, :, :]
    t = np.clip(np.einsum("pei,ei->pe", ap, ab) / np.einsum("ei,ei->e", ab, ab), 0., 1.)
    closest = a[None, :, :] + t[:, :, None] * ab[None, :, :]
    return float(np.min(np.linalg.norm(points[:, None, :] - closest, axis=2)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory")
    parser.add_argument("--tolerance", type=float, default=0.005,
                        help="largest distance (mm) between the rubber and the particle "
                             "(default: %(default)s)")
    args = parser.parse_args()
    solution = records(args.directory, "solution.pvd")
    particle = records(args.directory, "particle.pvd")
    if len(solution) != len(particle) or len(solution) < 2:
        print(f"check_particle_frame: {len(solution)} solution and {len(particle)} particle "
              "records", file=sys.stderr)
        return 1
    failures = 0
    for (t, rubber_file), (_, particle_file) in list(zip(solution, particle))[1:]:
        # the deformed rubber (MappingQEulerian: the VTU points are x = X + u)
        a, b = edges(common.read_vtu(rubber_file))
        gap = min(distance_to_segments(poly, a, b)
                  for poly in polygons(common.read_vtu(particle_file)))
        status = "ok" if gap <= args.tolerance else "FAILED"
        print(f"t = {t:.6g} s: rubber to particle {gap:.3g} mm ({status})")
        failures += gap > args.tolerance
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
