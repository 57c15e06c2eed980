#!/usr/bin/python3
"""Energy balance of one run (docs/methods.md §2.2) from its history.csv: the work of the
platen against the change of the stored, kinetic and potential energy plus the dissipation
by mechanism, over t/T0, and the balance error

    error(t) = W_platen - (E(t) - E(0)) - D(t)          (N mm per mm thickness)

with D the frictional (rubber-surface, rubber-particle, particle-surface), DEM damping,
viscous (Maxwell branch) and Newmark's numerical dissipation. A negative error means the
time steps create energy (docs/methods.md §5.3: energy balance). E(0), the energy before the
first step, is not in history.csv; it is taken as E - W + D of the first row, i.e. the
first step is assumed to balance.

Prints the final terms and the relative error |error| / |W_platen| (what summary.csv
reports as energy_balance_error). With --check, compares that with summary.csv and exits
with status 1 if they differ by more than the tolerance.

Usage: energy_balance.py [-o energy_balance] [--check [--tolerance 1e-3]] [--dpi 150]
                         RUN_DIR
Writes PREFIX.png and PREFIX.pdf (atomically). Exit status 0; 1 if --check finds that the
two errors differ; 2 if history.csv, parameters.prm or (with --check) summary.csv is
missing or damaged.
"""
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import common  # noqa: E402

MECHANISMS = [
    ("dissipation_rubber_surface", "friction rubber-surface"),
    ("dissipation_rubber_particle", "friction rubber-particle"),
    ("dissipation_particle_surface", "friction particle-surface"),
    ("dissipation_damping", "DEM normal damping"),
    ("dissipation_viscous", "viscous (Maxwell branch)"),
    ("dissipation_numerical", "Newmark numerical"),
]


def balance(h):
    """(W, E - E0, D, error) per row of a history (lists, N mm/mm): the platen's work,
    the energy change, the dissipation of all mechanisms and W - (E - E0) - D."""
    n = len(h["t"])
    D = [sum(h[m][i] for m, _ in MECHANISMS) for i in range(n)]
    E0 = h["energy_total"][0] - h["platen_work"][0] + D[0]
    dE = [e - E0 for e in h["energy_total"]]
    error = [h["platen_work"][i] - dE[i] - D[i] for i in range(n)]
    return h["platen_work"], dE, D, error


def figure(h, s, W, dE, D, error):
    """The balance terms (top) and the error (bottom) against t/T0 = `s`."""
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 6.5), sharex=True,
                                      gridspec_kw={"height_ratios": [2, 1]})
    top.plot(s, W, lw=1.5, color="k", label="platen work $W$")
    top.plot(s, dE, lw=1, label="energy change $E - E_0$")
    below = [0.] * len(s)
    for name, label in MECHANISMS:
        above = [b + v for b, v in zip(below, h[name])]
        if max(abs(v) for v in h[name]) > 0:
            top.fill_between(s, below, above, alpha=0.35, lw=0, label=f"dissipation: {label}")
        below = above
    top.set_ylabel("N mm per mm thickness")
    top.legend(fontsize=7)
    top.grid(alpha=0.3)
    bottom.plot(s, error, lw=1, color="C3")
    bottom.axhline(0, color="k", lw=0.5)
    bottom.set_ylabel("$W - (E - E_0) - D$\n(N mm/mm; < 0: created)")
    bottom.set_xlabel("time $t / T_0$")
    bottom.grid(alpha=0.3)
    for ax in (top, bottom):
        common.shade_phases(ax, s, h["phase"])
    fig.tight_layout()
    return fig


def main(argv=None):
    parser = common.argument_parser(__doc__)
    parser.add_argument("run", help="run output directory")
    common.add_output_argument(parser, "energy_balance")
    parser.add_argument("--check", action="store_true",
                        help="compare the final relative error with summary.csv")
    parser.add_argument("--tolerance", type=float, default=1e-3,
                        help="absolute tolerance of --check (default: %(default)s)")
    common.add_dpi_argument(parser)
    args = parser.parse_args(argv)
    prefix = common.output_prefix(args.output)

    h = common.read_history(args.run, ["t", "phase", "energy_total", "platen_work"]
                            + [m for m, _ in MECHANISMS])
    W, dE, D, error = balance(h)
    T0 = common.dragging_time(args.run)
    s = [t / T0 for t in h["t"]]
    common.save_figure(figure(h, s, W, dE, D, error), prefix, args.dpi)

    relative = abs(error[-1]) / max(abs(W[-1]), 1e-300)
    print(f"at t/T0 = {s[-1]:.4f}: platen work {W[-1]:.6g}, energy change {dE[-1]:.6g}, "
          f"dissipation {D[-1]:.6g} N mm/mm")
    for name, label in MECHANISMS:
        print(f"  {label}: {h[name][-1]:.6g}")
    print(f"balance error {error[-1]:.6g} N mm/mm ({'created' if error[-1] < 0 else 'lost'}), "
          f"relative {relative:.6g}")
    print(f"wrote {prefix}.png and {prefix}.pdf")

    if args.check:
        summary = common.read_summary(args.run)
        if summary is None:
            raise common.InputError(f"{args.run} has no summary.csv to check against")
        reported = common.summary_float(summary, "energy_balance_error", args.run)
        if abs(relative - reported) > args.tolerance:
            print(f"energy_balance_error in summary.csv is {reported:.6g}, history.csv gives "
                  f"{relative:.6g}", file=sys.stderr)
            return common.EXIT_NOTHING_TO_DO
        print(f"summary.csv agrees: energy_balance_error = {reported:.6g}")
    return common.EXIT_OK


if __name__ == "__main__":
    sys.exit(common.run(main))
