#!/usr/bin/python3
"""Reads a run's ParaView output back (postprocess/common.py's reader, Debian's
python3-meshio, which decodes deal.II's base64, zlib-compressed XML) and checks it:
  - every .pvd record points to a readable .vtu with the expected arrays, each of the
    length of its points or cells and finite; the times increase;
  - solution-NNNNN.vtu: every cell is its own patch (4 points per quadrilateral), and the
    points are the deformed mesh: points minus (displacement_x, displacement_y) span the
    undeformed block, L0 wide and H0 high (parameters.prm);
  - surface.pvd has the times of solution.pvd, each record one line cell of 2 points on
    y = 0 from the block's smallest x - L0/2 to its largest x + L0/2 (mm).

Usage: check_vtk_output.py OUTPUT_DIRECTORY [--particle | --particle-only]
Exit status 0 if every check passes, 1 with a message otherwise.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                "postprocess"))
import common  # noqa: E402

# deal.II's DataOut writes element-wise fields as (patch-wise constant) point data,
# so the location is "any": point or cell data
SOLUTION_ARRAYS = {
    "point": ["displacement_x", "displacement_y", "velocity"],
    "any": ["mean_stress", "cauchy_stress_xx", "cauchy_stress_yy", "cauchy_stress_xy",
            "cauchy_stress_zz", "principal_stress_1", "principal_stress_2",
            "von_mises_stress", "viscous_dissipation_density", "payne_q",
            "rate_of_deformation"],
}
PARTICLE_ARRAYS = {"cell": ["image", "rotation"]}
SURFACE_ARRAYS = {}


def check_arrays(path, vtu, expected):
    n_points, n_cells = len(vtu.points), len(vtu.cells)
    places = {"point": [(vtu.point_data, n_points)], "cell": [(vtu.cell_data, n_cells)]}
    places["any"] = places["point"] + places["cell"]
    for kind, names in expected.items():
        for name in names:
            found = [(data[name], n) for data, n in places[kind] if name in data]
            if not found:
                raise RuntimeError(f"{path}: missing {kind} array '{name}'")
            array, n = found[0]
            if len(array) != n:
                raise RuntimeError(f"{path}: array '{name}' has the wrong length")
            if not np.all(np.isfinite(np.asarray(array, dtype=float))):
                raise RuntimeError(f"{path}: array '{name}' is not finite")


def check_collection(directory, pvd, expected, check=None):
    """The records [(time, Vtu)] of `pvd`, each checked for `expected` and by
    check(path, vtu)."""
    records = common.read_collection(directory, pvd, sort=False)
    if records is None:
        raise RuntimeError(f"{pvd} is missing")
    if not records:
        raise RuntimeError(f"{pvd}: no DataSet records")
    times = [t for t, _ in records]
    if times != sorted(times):
        raise RuntimeError(f"{pvd}: times are not increasing: {times}")
    result = []
    for time, path in records:
        vtu = common.read_vtu(path)
        check_arrays(path, vtu, expected)
        if check:
            check(path, vtu)
        result.append((time, vtu))
    return result


def block_checker(length, height):
    def check(path, vtu):
        quads = sum(t == "quad" for t in vtu.cell_types)
        if quads != len(vtu.cells) or len(vtu.points) != 4 * quads:
            raise RuntimeError(f"{path}: {len(vtu.points)} points for {quads} "
                               "quadrilaterals: not one patch per cell")
        reference = vtu.points - np.column_stack([vtu.point_data["displacement_x"],
                                                  vtu.point_data["displacement_y"]])
        span = reference.max(axis=0) - reference.min(axis=0)
        if not np.allclose(span, [length, height], rtol=1e-5, atol=1e-6):
            raise RuntimeError(f"{path}: points minus displacement span {span[0]:.6g} x "
                               f"{span[1]:.6g} mm, not the block's {length:g} x {height:g}: "
                               "the points are not the deformed mesh")
    return check


def check_surface(directory, solution, length):
    surface = check_collection(directory, "surface.pvd", SURFACE_ARRAYS)
    if [t for t, _ in surface] != [t for t, _ in solution]:
        raise RuntimeError("surface.pvd and solution.pvd have different times")
    tolerance = 1e-5 * length
    for (t, line), (_, block) in zip(surface, solution):
        if line.cell_types != ["line"] or len(line.points) != 2:
            raise RuntimeError(f"surface.pvd at t = {t:g} s: {line.cell_types} with "
                               f"{len(line.points)} points, not one line of 2 points")
        x = sorted(line.points[:, 0])
        want = [block.points[:, 0].min() - length / 2, block.points[:, 0].max() + length / 2]
        if np.abs(line.points[:, 1]).max() > tolerance or \
                not np.allclose(x, want, atol=tolerance, rtol=0.):
            raise RuntimeError(f"surface.pvd at t = {t:g} s: the line {line.points.tolist()} "
                               f"is not y = 0 from x = {want[0]:.6g} to {want[1]:.6g} mm")
    return len(surface)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("directory")
    parser.add_argument("--particle", action="store_true",
                        help="also check particle.pvd")
    parser.add_argument("--particle-only", action="store_true",
                        help="check particle.pvd only")
    args = parser.parse_args()
    if not args.particle_only:
        path = os.path.join(args.directory, "parameters.prm")
        params = common.read_parameters(path)
        length = common.parameter_float(params, "Geometry/Block length", path)
        height = common.parameter_float(params, "Geometry/Block height", path)
        solution = check_collection(args.directory, "solution.pvd", SOLUTION_ARRAYS,
                                    block_checker(length, height))
        print(f"solution.pvd: {len(solution)} records read")
        n = check_surface(args.directory, solution, length)
        print(f"surface.pvd: {n} records read")
    if args.particle or args.particle_only:
        n = len(check_collection(args.directory, "particle.pvd", PARTICLE_ARRAYS))
        print(f"particle.pvd: {n} records read")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as e:  # report and fail
        print(f"check_vtk_output: {e}", file=sys.stderr)
        sys.exit(1)
