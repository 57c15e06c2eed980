#!/usr/bin/python3
"""Reads a run's ParaView output back with VTK's XML readers (the readers ParaView
uses) and checks the expected arrays.

Usage: check_vtk_output.py OUTPUT_DIRECTORY [--particle]
Exit status 0 if every .pvd record points to a readable .vtu with the expected arrays.
"""
import argparse
import os
import sys
import xml.etree.ElementTree as ET

import vtk

# deal.II's DataOut writes element-wise fields as (patch-wise constant) point data,
# so the location is "any": point or cell data
SOLUTION_ARRAYS = {
    "point": ["displacement", "velocity"],
    "any": ["pressure", "cauchy_stress_xx", "cauchy_stress_yy", "cauchy_stress_xy",
            "cauchy_stress_zz", "principal_stress_1", "principal_stress_2",
            "von_mises_stress", "viscous_dissipation_density", "payne_q",
            "rate_of_deformation"],
}
PARTICLE_ARRAYS = {"cell": ["image", "rotation"]}


def check_collection(directory, pvd, expected):
    tree = ET.parse(os.path.join(directory, pvd))
    datasets = tree.getroot().find("Collection").findall("DataSet")
    if not datasets:
        raise RuntimeError(f"{pvd}: no DataSet records")
    times = [float(d.get("timestep")) for d in datasets]
    if times != sorted(times):
        raise RuntimeError(f"{pvd}: times are not increasing: {times}")
    for d in datasets:
        path = os.path.join(directory, d.get("file"))
        reader = vtk.vtkXMLUnstructuredGridReader()
        reader.SetFileName(path)
        reader.Update()
        grid = reader.GetOutput()
        if grid.GetNumberOfPoints() == 0 or grid.GetNumberOfCells() == 0:
            raise RuntimeError(f"{path}: empty grid")
        for kind, names in expected.items():
            places = {"point": [(grid.GetPointData(), grid.GetNumberOfPoints())],
                      "cell": [(grid.GetCellData(), grid.GetNumberOfCells())]}
            places["any"] = places["point"] + places["cell"]
            for name in names:
                found = [(d.GetArray(name), n) for d, n in places[kind]
                         if d.GetArray(name) is not None]
                if not found:
                    raise RuntimeError(f"{path}: missing {kind} array '{name}'")
                array, n = found[0]
                if array.GetNumberOfTuples() != n:
                    raise RuntimeError(f"{path}: array '{name}' has the wrong length")
                for c in range(array.GetNumberOfComponents()):
                    low, high = array.GetRange(c)
                    if not (abs(low) < 1e300 and abs(high) < 1e300):
                        raise RuntimeError(f"{path}: array '{name}' is not finite")
    return len(datasets)


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
        n = check_collection(args.directory, "solution.pvd", SOLUTION_ARRAYS)
        print(f"solution.pvd: {n} records read")
    args.particle = args.particle or args.particle_only
    if args.particle:
        n = check_collection(args.directory, "particle.pvd", PARTICLE_ARRAYS)
        print(f"particle.pvd: {n} records read")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as e:  # report and fail
        print(f"check_vtk_output: {e}", file=sys.stderr)
        sys.exit(1)
