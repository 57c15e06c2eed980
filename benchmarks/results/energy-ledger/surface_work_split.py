#!/usr/bin/python3
"""Splits the particle-surface contact's work on the particle (the energy ledger's
W_particle_surface, docs/methods.md §2.2) into the work of its normal force f_N e2 and of its
tangential force f_T e1, from a run's history.csv at the computed steps, and measures the
share of the normal force's moment that comes from the change of the contact's material
point between steps: within a step the monolithic coupling holds one material point of the
particle (the lowest point at the predicted mid-step rotation, docs/methods.md §5.3.1), so the
force of t_n in the step's trapezoidal rule acts at the previous step's point. That share is
  J = sum over steps of (f_N,n / 2) (a1_old - a1_new)(theta_n) (theta_{n+1} - theta_n),
a1 the horizontal arm from the centre to the material point at theta_n.

Reconstructed from history.csv (10 digits, the steps of Loading/Time step; steps cut back
in between are not seen), so the split agrees with the ledger's W_particle_surface only to a
few per cent where steps were cut back; without cut-backs it agrees to the digits printed.

Usage: surface_work_split.py RUN_DIR PHASE [PHASE ...]   (phases of energy.csv: ramp, hold,
       dragging, window)
"""
import csv
import math
import sys


def shape_of(run_dir):
    """(r1, r2, p) of the run's particle from its parameters.prm (named shapes: r0)."""
    entries = {}
    with open(f"{run_dir}/parameters.prm") as f:
        for line in f:
            line = line.split("#")[0].strip()
            if line.startswith("set ") and "=" in line:
                key, value = line[4:].split("=", 1)
                entries.setdefault(key.strip(), value.strip())
    r0 = float(entries["Reference radius"])
    named = {"circular": (r0, r0, 2.), "square": (r0, r0, 4.),
             "elliptical": (1.5 * r0, r0, 2.), "rectangular": (1.5 * r0, r0, 4.)}
    if entries["Shape"] in named:
        return named[entries["Shape"]], float(entries["Block length"])
    return ((float(entries["Semi-axis r1"]), float(entries["Semi-axis r2"]),
             float(entries["Exponent p1"])), float(entries["Block length"]))


def main():
    run_dir, phases = sys.argv[1], sys.argv[2:]
    (r1, r2, p), L0 = shape_of(run_dir)
    q = p / (p - 1.)

    def lowest(theta):
        """The lowest point at rotation theta, particle frame: the support point of the
        superellipse for the outward normal R(theta)^T (-e2)."""
        n1, n2 = -math.sin(theta), -math.cos(theta)
        s = (abs(r1 * n1) ** q + abs(r2 * n2) ** q) ** (1. / q)
        return (math.copysign(r1 * (abs(r1 * n1) / s) ** (q - 1.), n1),
                math.copysign(r2 * (abs(r2 * n2) / s) ** (q - 1.), n2))

    def arm(theta, y):
        return (math.cos(theta) * y[0] - math.sin(theta) * y[1],
                math.sin(theta) * y[0] + math.cos(theta) * y[1])

    ledger = list(csv.DictReader(open(f"{run_dir}/energy.csv")))
    dt = min(float(r["dt"]) for r in ledger)
    history = {round(float(r["t"]) / dt): r for r in csv.DictReader(open(f"{run_dir}/history.csv"))}
    rows = [(e, history.get(round(float(e["t"]) / dt))) for e in ledger]
    WN = WT = W = J = JX = 0.
    n = nx = 0
    y_prev = theta_s_prev = None
    for i in range(2, len(rows)):
        (_, hm), (e0, h0), (e1, h1) = rows[i - 2], rows[i - 1], rows[i]
        if hm is None or h0 is None or h1 is None or None in h1.values():
            y_prev = None
            continue
        thm, th0, th1 = (float(h["particle_theta"]) for h in (hm, h0, h1))
        # the step's material point: the lowest point at the predicted mid-step rotation
        theta_s = th0 + 0.5 * (float(e1["dt"]) / float(e0["dt"])) * (th0 - thm)
        y = lowest(theta_s)
        if y_prev is not None and e1["phase"] in phases:
            a0, a1, b0 = arm(th0, y_prev), arm(th1, y), arm(th0, y)
            fN0, fN1 = float(h0["surface_fN"]), float(h1["surface_fN"])
            fT0, fT1 = float(h0["surface_fT"]), float(h1["surface_fT"])
            dc1 = float(h1["particle_x"]) - float(h0["particle_x"])
            if abs(dc1) > 0.5 * L0:  # wrapped into the cell
                dc1 -= math.copysign(L0, dc1)
            dc2 = float(h1["particle_y"]) - float(h0["particle_y"])
            dth = th1 - th0
            WN += 0.5 * (fN0 + fN1) * dc2 + 0.5 * (a0[0] * fN0 + a1[0] * fN1) * dth
            WT += 0.5 * (fT0 + fT1) * dc1 - 0.5 * (a0[1] * fT0 + a1[1] * fT1) * dth
            J += 0.5 * fN0 * (a0[0] - b0[0]) * dth
            if math.floor(theta_s_prev / (0.5 * math.pi)) != math.floor(theta_s / (0.5 * math.pi)):
                JX += 0.5 * fN0 * (a0[0] - b0[0]) * dth
                nx += 1
            W += float(e1["W_particle_surface"]) - float(e0["W_particle_surface"])
            n += 1
        y_prev, theta_s_prev = y, theta_s
    print(f"phases {' '.join(phases)}: {n} steps")
    print(f"  W_particle_surface of the ledger       {W:+.4e} N mm/mm")
    print(f"  reconstructed: normal force            {WN:+.4e}")
    print(f"                 tangential force        {WT:+.4e}")
    print(f"  normal force's moment about the previous step's material point instead of the "
          f"step's own (J) {J:+.4e}")
    print(f"    of it in the {nx} steps whose two material points lie on either side of a "
          f"flat-most orientation (theta = k pi/2): {JX:+.4e}")


if __name__ == "__main__":
    main()
