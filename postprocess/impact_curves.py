#!/usr/bin/python3
"""Figures of one contact-impact output directory (docs/contact-law-catalogue.md §8), in
the style of the source studies.

Single impacts (results.csv and curves/<case>__<law>.csv; S1-S3), one figure per case and
kind, every law of the run in it:
  PREFIX_<case>_hysteresis.png   force-indentation loops F(delta)       (S000 Fig. 3)
  PREFIX_<case>_phase.png        phase portraits delta_dot(delta)       (S000 Fig. 4)
  PREFIX_<case>_force_time.png   force histories F(t), with the measured peak force
                                 if the case has one                    (S000 §4)
Damping factors (damping_factors.csv; S0):
  PREFIX_damping_factors.png     chi delta_dot_minus / K against c_r of every law,
                                 linear axis (0 to --ymax) and logarithmic axis
                                                                        (S000 Fig. 2)
Granular chain (chain_forces.csv, chain_balance.csv, chain_summary.csv; S4):
  PREFIX_chain_force_time.png    force of every sensor bead against time, peaks marked
                                                                        (S003 §5.2)
  PREFIX_chain_peaks.png         peak force and peak time against the bead index, with the
                                 least-squares wave speed
  PREFIX_chain_balance.png       kinetic, stored, damping, history energy and work against
                                 time, and T + U + D - H
Optimal linear damping (optimal_damping_*.csv, kelvin_voigt_check.csv; S6, S7), of the
files the run has:
  PREFIX_od_sweeps.png           ln c against ln m_eff, ln delta_dot_minus, ln k for a few n
                                 with the fitted slopes and the exponents of S004 eq.(49)
  PREFIX_od_restitution_fit.png  zeta = c/damping scale against e with the fit of the run
                                 and S004 eq.(47), and their relative deviation
  PREFIX_od_alpha_beta.png       alpha(n), beta(n) of the fit and of S004 eq.(47)
  PREFIX_od_random.png           |e_out - e| and |e_out - e|/e of the random systems against
                                 e, maximum per bin                     (S004 §5.1)
  PREFIX_od_kelvin_voigt.png     e_B4(xi) - e of eq.(57)'s damping against e (log axis)
                                                                        (S004 §5.2)
Two pendulums (pendulums_<model>.csv, first_contact_<model>.csv; S8):
  PREFIX_pendulum_velocities.png theta1_dot(t), theta2_dot(t) of every model
                                                                        (S004 Figs. 11-12)
  PREFIX_pendulum_first_contact.png  F(delta) and F(t) of the first contact of the force
                                 models
Each figure is also written as PDF, every file atomically. Units: N (kN above 10 kN), mm,
mm/s, rad/s, N mm, and us, ms or s for the time. PREFIX defaults to the name of OUTPUT_DIR
(files in the current directory); a PREFIX with a directory part writes there (the
directory is created).

Usage: impact_curves.py OUTPUT_DIR [-o PREFIX] [--cases CASE ...] [--laws LAW ...]
                        [--ymax 6] [--exponents 1 1.5 2] [--png-only] [--dpi 150]
(OUTPUT_DIR first, or end a --cases/--laws/--exponents list with --.)
Examples:
  build/contact-impact params/impact/ball-on-specimen.prm --output-directory /tmp/s2
  postprocess/impact_curves.py /tmp/s2 -o /tmp/figures/s2 --cases C2-mod
  postprocess/impact_curves.py output-impact/two-pendulums --laws impulse flores --png-only

Exit status 0 on success, 2 if an input file is missing, truncated or malformed, or if a
--cases/--laws name is not in the run. Needs Debian's python3-numpy and
python3-matplotlib. The reading and plotting functions are in impact_figures.py.
"""
import os
import sys

import common
import impact_figures


def main(argv=None):
    parser = common.argument_parser(__doc__)
    parser.add_argument("directory", metavar="OUTPUT_DIR",
                        help="output directory of one contact-impact run")
    common.add_output_argument(parser, None, "PREFIX_<case>_<kind>.png and .pdf",
                               "the name of OUTPUT_DIR")
    parser.add_argument("--cases", nargs="+", metavar="CASE",
                        help="only these cases (default: all)")
    parser.add_argument("--laws", nargs="+", metavar="LAW",
                        help="only these laws (default: all); for a two-pendulum run the "
                             "impact models (impulse or a law)")
    parser.add_argument("--exponents", nargs="+", type=float, metavar="N",
                        default=[1.0, 1.5, 2.0],
                        help="optimal damping: the elastic exponents n shown (the nearest "
                             "of the run; default: %(default)s)")
    parser.add_argument("--ymax", type=float, default=6.0,
                        help="upper limit of the linear damping-factor axis "
                             "(default: %(default)s)")
    parser.add_argument("--png-only", action="store_true", help="no PDF files")
    common.add_dpi_argument(parser)
    args = parser.parse_args(argv)
    # "-o plot.png" names the files plot_<case>_<kind>.png, not plot.png_<case>_...
    prefix = common.output_prefix(
        args.output or os.path.basename(os.path.normpath(args.directory)))
    formats = ("png",) if args.png_only else ("png", "pdf")
    written = impact_figures.plot_directory(args.directory, prefix, args.cases, args.laws,
                                            formats, args.dpi, args.ymax, args.exponents)
    for _, _, path in written:
        print(f"{common.PROGRAM}: wrote {path}" + ("" if args.png_only else " (and .pdf)"))
    return common.EXIT_OK


if __name__ == "__main__":
    sys.exit(common.run(main))
