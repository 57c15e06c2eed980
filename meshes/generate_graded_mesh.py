#!/usr/bin/python3
"""Writes a Gmsh (MSH 2.2 ASCII) mesh of the rubber block [0, L0] x [0, H0] with
quadrilaterals graded towards the contact boundary (bottom), and the boundary ids that
granular-interface expects (see meshes/README).

Usage: generate_graded_mesh.py [--nx 40] [--ny 15] [--length 10] [--height 7.5]
                               [--ratio 1.12] OUTPUT.msh
"""
import argparse


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--nx", type=int, default=40)
    p.add_argument("--ny", type=int, default=15)
    p.add_argument("--length", type=float, default=10.0, help="L0 in mm")
    p.add_argument("--height", type=float, default=7.5, help="H0 in mm")
    p.add_argument("--ratio", type=float, default=1.12,
                   help="growth ratio of the layer thickness from bottom to top")
    p.add_argument("output")
    a = p.parse_args()

    layers = [a.ratio ** j for j in range(a.ny)]
    scale = a.height / sum(layers)
    ys = [0.0]
    for t in layers:
        ys.append(ys[-1] + t * scale)
    ys[-1] = a.height
    xs = [a.length * i / a.nx for i in range(a.nx + 1)]

    def node(i, j):
        return j * (a.nx + 1) + i + 1

    elements = []
    # boundary lines: physical tag = boundary id (1 right, 2 bottom, 3 top); the left
    # boundary is left untagged and so gets deal.II's default boundary id 0
    for i in range(a.nx):
        elements.append((1, 2, [node(i, 0), node(i + 1, 0)]))
        elements.append((1, 3, [node(i + 1, a.ny), node(i, a.ny)]))
    for j in range(a.ny):
        elements.append((1, 1, [node(a.nx, j), node(a.nx, j + 1)]))
    for j in range(a.ny):
        for i in range(a.nx):
            elements.append((3, 1, [node(i, j), node(i + 1, j), node(i + 1, j + 1),
                                    node(i, j + 1)]))
    with open(a.output, "w") as f:
        f.write("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n")
        f.write(f"{len(xs) * len(ys)}\n")
        for j, y in enumerate(ys):
            for i, x in enumerate(xs):
                f.write(f"{node(i, j)} {x:.12g} {y:.12g} 0\n")
        f.write(f"$EndNodes\n$Elements\n{len(elements)}\n")
        for k, (etype, tag, nodes) in enumerate(elements, start=1):
            f.write(f"{k} {etype} 2 {tag} {tag} {' '.join(map(str, nodes))}\n")
        f.write("$EndElements\n")


if __name__ == "__main__":
    main()
