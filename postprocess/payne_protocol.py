#!/usr/bin/python3
"""The Payne-effect protocol of Temizer 2013, Fig. 5 (docs/methods.md §3.4): the
displacement gradient component H11 (F11 = 1 + H11, plane strain, other components 0)
oscillates with an amplitude raised in steps up to 0.1, several cycles per step, one cycle
lasting 5 tau0. For each amplitude the secant modulus sigma11 / H11 at the last peak of the
step is plotted, once with the Payne parameter d of the run (default 1e-2 s) and once with
d = 0. The stress is the deviatoric Cauchy stress of both branches (the material-point
driver leaves out the volumetric pressure).

Usage: payne_protocol.py [--material-point build/material-point] [--parameters
       params/payne.prm] [--steps 100] [--cycles 5] [--d 1e-2] [-o payne_protocol]
Writes PREFIX.png, PREFIX.pdf and PREFIX.csv (amplitude, modulus for d, modulus for
d = 0; MPa). Exit status 0, or 2 if an option's value is out of its range, or the
material-point program is missing or fails.
"""
import csv
import math
import os
import subprocess
import sys
import tempfile

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import common  # noqa: E402


def write_history(path, amplitudes, cycles, period, points_per_cycle):
    """H11(t) = a_k sin(2 pi t / period) for `cycles` cycles per amplitude a_k."""
    t = 0.0
    dt = period / points_per_cycle
    peaks = []  # (row index of the last peak of each amplitude step, amplitude)
    row = 1
    with open(path, "w") as f:
        f.write("t,F11,F12,F21,F22\n0,1,0,0,1\n")
        for a in amplitudes:
            for c in range(cycles):
                for i in range(1, points_per_cycle + 1):
                    t += dt
                    phase = 2.0 * math.pi * i / points_per_cycle
                    f.write(f"{t:.12g},{1.0 + a * math.sin(phase):.12g},0,0,1\n")
                    row += 1
                    if c == cycles - 1 and i == points_per_cycle // 4:
                        peaks.append((row, a))
    return peaks


def run(executable, parameters, history, d, out):
    """The rows of the material-point program's stress output for the deformation history
    `history` with the Payne parameter d (s)."""
    try:
        subprocess.run([executable, "--set", "Rubber/Maxwell branch/Viscoelastic=true",
                        "--set", f"Rubber/Maxwell branch/Payne parameter={d}",
                        parameters, history, "-o", out], check=True)
    except OSError as e:
        raise common.InputError(f"{executable}: {e.strerror} (build the program first)") \
            from None
    except subprocess.CalledProcessError as e:
        raise common.InputError(f"{executable} failed with exit status {e.returncode}") \
            from None
    with open(out, newline="") as f:
        return list(csv.DictReader(f))


def main(argv=None):
    here = os.path.dirname(os.path.abspath(__file__))
    p = common.argument_parser(__doc__)
    p.add_argument("--material-point", default=os.path.join(here, "..", "build",
                                                            "material-point"))
    p.add_argument("--parameters", default=os.path.join(here, "..", "params", "payne.prm"))
    count = common.argument_number(int, minimum=1)
    p.add_argument("--steps", type=count, default=100,
                   help="amplitude steps up to 0.1, >= 1 (default: %(default)s)")
    p.add_argument("--cycles", type=count, default=5,
                   help="cycles per amplitude step, >= 1 (default: %(default)s)")
    p.add_argument("--points", type=common.argument_number(int, minimum=4), default=40,
                   help="points per cycle, >= 4 so that a cycle has its peak "
                        "(default: %(default)s)")
    p.add_argument("--tau0", type=common.argument_number(positive=True, unit="s"),
                   default=1e-4, help="relaxation time of the parameter file in s, > 0; a "
                                      "cycle lasts 5 tau0 (default: %(default)s)")
    p.add_argument("--d", type=common.argument_number(minimum=0., unit="s"), default=1e-2,
                   help="Payne parameter d in s, >= 0 (default: %(default)s)")
    common.add_output_argument(p, "payne_protocol",
                               "PREFIX.png, PREFIX.pdf and PREFIX.csv")
    common.add_dpi_argument(p)
    a = p.parse_args(argv)
    a.output = common.output_prefix(a.output, (".png", ".pdf", ".csv"))

    amplitudes = [0.1 * (k + 1) / a.steps for k in range(a.steps)]
    with tempfile.TemporaryDirectory() as tmp:
        history = os.path.join(tmp, "F.csv")
        peaks = write_history(history, amplitudes, a.cycles, 5.0 * a.tau0, a.points)
        curves = {}
        for d in (a.d, 0.0):
            rows = run(a.material_point, a.parameters, history, d,
                       os.path.join(tmp, f"stress-{d}.csv"))
            curves[d] = [float(rows[i - 1]["sigma_xx"]) / amp for i, amp in peaks]

    table = "".join(f"{amp:.6g},{curves[a.d][k]:.10g},{curves[0.0][k]:.10g}\n"
                    for k, amp in enumerate(amplitudes))
    common.write_text(f"{a.output}.csv", "amplitude,modulus_payne,modulus_no_payne\n" + table)
    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    ax.plot(amplitudes, curves[a.d], "o-", ms=3, label=f"Payne effect, d = {a.d:g} s")
    ax.plot(amplitudes, curves[0.0], "s-", ms=3, label="d = 0 (no Payne effect)")
    ax.set_xlabel("amplitude of $H_{11}$ (-)")
    ax.set_ylabel(r"$\sigma_{11} / H_{11}$ at the last peak (MPa)")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    common.save_figure(fig, a.output, a.dpi)
    print(f"payne_protocol: wrote {a.output}.png, .pdf and .csv ({a.steps} amplitudes)")
    return 0


if __name__ == "__main__":
    sys.exit(common.run(main))
