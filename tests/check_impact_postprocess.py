#!/usr/bin/python3
"""Check of postprocess/impact_curves.py and postprocess/contact_laws_page.py on small
synthetic output directories of the scenario types S4 (granular chain), S6-S7 (optimal
damping) and S8 (two pendulums), written into a temporary directory:
  - impact_curves.py writes the expected PNG files of each type (exit status 0);
  - contact_laws_page.py writes a page with the sections' tables and figure links;
  - a truncated file (no end of line, a missing field), a non-number and a missing
    sensor peak give exit status 2 and a message naming the file;
  - --laws with an unknown model gives exit status 2.

Usage: check_impact_postprocess.py [REPOSITORY]   (default: this file's parent's parent).
Exit status 0 if every check passes, 1 with one line per failure otherwise. Needs Debian's
/usr/bin/python3 with python3-numpy and python3-matplotlib; runs in about 20 s (13 runs of
the two scripts).
"""
import math
import os
import subprocess
import sys
import tempfile

PYTHON = "/usr/bin/python3"


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def csv_text(header, rows):
    return ",".join(header) + "\n" + "".join(",".join(f"{v:.12g}" if isinstance(v, float)
                                                      else str(v) for v in row) + "\n"
                                             for row in rows)


def parameters(title, scenario, subsection, entries):
    lines = ["subsection Impact", f"  set Title = {title}", f"  set Scenario = {scenario}",
             "end", f"subsection {subsection}"]
    lines += [f"  set {k} = {v}" for k, v in entries.items()]
    return "\n".join(lines + ["end", ""])


def granular_chain(directory):
    times = [i * 2e-6 for i in range(60)]
    pulse = [(2, 2e-5, 40.0), (4, 4e-5, 35.0)]
    rows = [[t] + [f * math.exp(-((t - tp) / 5e-6) ** 2) for _, tp, f in pulse]
            for t in times]
    write(os.path.join(directory, "chain_forces.csv"),
          csv_text(["t"] + [f"F_bead_{b}" for b, _, _ in pulse], rows))
    balance = [[t, 8e-4, 0.7 - 0.3 * t / times[-1], 0.0, 0.3 * t / times[-1],
                0.35 * t / times[-1], 0.05 * t / times[-1]] for t in times]
    write(os.path.join(directory, "chain_balance.csv"),
          csv_text(["t", "momentum", "kinetic_energy", "stored_energy", "work",
                    "damping_dissipation", "history_energy"], balance))
    summary = []
    for k, (b, tp, f) in enumerate(pulse):
        summary += [["peak_force", b, f, "N"], ["peak_time", b, tp, "s"],
                    ["segment_speed", b, "" if k == 0 else 4 * 2.38 / 2e-5, "mm/s"]]
    summary += [["wave_speed", "", 4 * 2.38 / 2e-5, "mm/s"],
                ["initial_energy", "", 0.7, "N mm"],
                ["final_history_energy", "", 0.05, "N mm"],
                ["yield_indentation", "", 5e-4, "mm"], ["steps", "", 100.0, "1"]]
    write(os.path.join(directory, "chain_summary.csv"),
          csv_text(["quantity", "bead", "value", "unit"], summary))
    write(os.path.join(directory, "parameters.prm"),
          parameters("S4 test chain", "granular chain", "Granular chain",
                     {"Bead radius": "2.38", "Law": "S003 mixed",
                      "Striker velocity": "1770"}))


def optimal_damping(directory):
    sweep_header = ["n", "m_eff", "v0", "k", "e", "c", "e_out", "relative_error", "impacts",
                    "zeta", "c_eq49"]
    rows = []
    for n in (1.0, 2.0):
        for m in (1e-6, 1e-4, 1e-2):
            c = 0.25 * m ** (n / (n + 1))
            rows.append([n, m, 1000.0, 0.001, 0.7, c, 0.7, 1e-9, 4, 0.25, 1.01 * c])
    write(os.path.join(directory, "optimal_damping_a.csv"), csv_text(sweep_header, rows))
    write(os.path.join(directory, "optimal_damping_slopes.csv"),
          csv_text(["n", "slope_mass", "exponent_mass", "slope_velocity",
                    "exponent_velocity", "slope_stiffness", "exponent_stiffness"],
                   [[n, n / (n + 1), n / (n + 1), "nan", (n - 1) / (n + 1), "nan",
                     1 / (n + 1)] for n in (1.0, 2.0)]))
    rows = []
    for n in (1.0, 2.0):
        for e in (0.5, 0.7, 0.9, 1.0):
            zeta = 1.5 * (e ** -0.4 - 1)
            rows.append([n, 0.001, 1000.0, 0.001, e, zeta, e, 1e-9, 4, zeta, zeta])
    write(os.path.join(directory, "optimal_damping_d.csv"), csv_text(sweep_header, rows))
    write(os.path.join(directory, "optimal_damping_fit.csv"),
          csv_text(["n", "alpha_fit", "beta_fit", "alpha_S004", "beta_S004",
                    "rms_residual", "rms_residual_S004", "max_relative_error_fit",
                    "max_relative_error_S004"],
                   [[n, 1.5, -0.4, 1.42, -0.44, 1e-5, 3e-3, 1e-3, 2e-2] for n in (1.0, 2.0)]))
    write(os.path.join(directory, "optimal_damping_e.csv"),
          csv_text(["index", "n", "m_eff", "v0", "k", "e", "c", "e_out", "abs_error",
                    "relative_error"],
                   [[i, 1.0 + i / 10, 1e-3, 1e3, 1.0, 0.05 + i / 10, 0.1, 0.05 + i / 10
                     + 1e-3, 1e-3, 1e-3 / (0.05 + i / 10)] for i in range(10)]))
    write(os.path.join(directory, "optimal_damping_e_bins.csv"),
          csv_text(["e_low", "e_high", "systems", "max_abs_error", "max_relative_error"],
                   [[0.0001, 0.5, 5, 1e-3, 0.02], [0.5, 1.0, 5, 1e-3, 0.002]]))
    write(os.path.join(directory, "kelvin_voigt_check.csv"),
          csv_text(["e", "c", "xi", "e_exact_B4", "e_simulated", "error_B4",
                    "error_simulated"],
                   [[e, 0.01, 0.5, e * 1.01, e * 1.01, e * 0.01, 1e-12]
                    for e in (1e-4, 1e-3, 1e-2, 0.1, 1.0)]))
    write(os.path.join(directory, "parameters.prm"),
          parameters("S6-S7 test optimal damping", "optimal damping", "Optimal damping",
                     {"Velocity sweep": "false", "Stiffness sweep": "false"}))


def two_pendulums(directory):
    for model in ("impulse", "flores"):
        rows = [[i * 0.01, 0.2, -1.5, -0.1 * i, 0.2 * i, 0.0] for i in range(50)]
        write(os.path.join(directory, f"pendulums_{model}.csv"),
              csv_text(["t", "theta1", "theta2", "theta1_dot", "theta2_dot", "force"], rows))
        force_model = model != "impulse"
        impact = [0.3, 0.3 + (5e-4 if force_model else 0.0), 1e4, 3e3, 0.3, 8e-5, -0.4, 2.5,
                  -0.08, -0.9, 1.0, 7000.0 if force_model else 0.0,
                  1.0 if force_model else 0.0, 0.0, 4000.0, 100 if force_model else 0,
                  "indentation zero" if force_model else "impulse"]
        write(os.path.join(directory, f"impacts_{model}.csv"),
              csv_text(["time", "end_time", "approach_velocity", "separation_velocity",
                        "restitution", "effective_mass", "theta1_dot_before",
                        "theta2_dot_before", "theta1_dot_after", "theta2_dot_after",
                        "impulse", "max_force", "max_indentation", "residual_indentation",
                        "dissipated_energy", "steps", "separation"], [impact]))
    rows = [[i * 1e-5, math.sin(math.pi * i / 50), 1e4 * math.cos(math.pi * i / 50),
             7000.0 * math.sin(math.pi * i / 50) ** 1.5] for i in range(51)]
    write(os.path.join(directory, "first_contact_flores.csv"),
          csv_text(["t", "delta", "delta_dot", "force"], rows))
    write(os.path.join(directory, "parameters.prm"),
          parameters("S8 test pendulums", "two pendulums", "Two pendulums",
                     {"Coefficient of restitution": "0.3",
                      "Models": "impulse, flores"}))


def run(arguments):
    return subprocess.run([PYTHON] + arguments, capture_output=True, text=True, timeout=300)


def main():
    repository = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    curves = os.path.join(repository, "postprocess", "impact_curves.py")
    page_script = os.path.join(repository, "postprocess", "contact_laws_page.py")
    failures = []

    def check(condition, message):
        if not condition:
            failures.append(message)

    with tempfile.TemporaryDirectory(prefix="check-impact-postprocess-") as work:
        root = os.path.join(work, "output")
        granular_chain(os.path.join(root, "granular-chain"))
        optimal_damping(os.path.join(root, "optimal-damping"))
        two_pendulums(os.path.join(root, "two-pendulums"))
        expected = {
            "granular-chain": ["chain_force_time", "chain_peaks", "chain_balance"],
            "optimal-damping": ["od_sweeps", "od_restitution_fit", "od_alpha_beta",
                                "od_random", "od_kelvin_voigt"],
            "two-pendulums": ["pendulum_velocities", "pendulum_first_contact"]}
        for name, kinds in expected.items():
            prefix = os.path.join(work, "figures", name)
            result = run([curves, os.path.join(root, name), "-o", prefix, "--png-only",
                          "--dpi", "40"])
            check(result.returncode == 0, f"impact_curves.py {name}: exit status "
                  f"{result.returncode}: {result.stderr.strip()[-300:]}")
            for kind in kinds:
                check(os.path.isfile(f"{prefix}_{kind}.png"),
                      f"impact_curves.py {name}: no {prefix}_{kind}.png")

        page = os.path.join(work, "page", "contact-laws.md")
        result = run([page_script, root, "-o", page, "--figures",
                      os.path.join(work, "page", "figures"), "--dpi", "40",
                      "--contact-impact", os.path.join(work, "no-program"),
                      "--params", os.path.join(work, "no-params")])
        check(result.returncode == 0, f"contact_laws_page.py: exit status "
              f"{result.returncode}: {result.stderr.strip()[-300:]}")
        text = open(page, encoding="utf-8").read() if os.path.isfile(page) else ""
        for needle in ["## S4 test chain", "Wave speed", "history energy H",
                       "## S6-S7 test optimal damping", "**S7, Kelvin–Voigt check**",
                       "## S8 test pendulums", "All impacts in the simulated time",
                       "granular-chain_chain_peaks.png", "optimal-damping_od_random.png",
                       "two-pendulums_pendulum_first_contact.png"]:
            check(needle in text, f"contact_laws_page.py: the page has no '{needle}'")
        check("optimal_damping_b.csv" not in text,
              "contact_laws_page.py: reports the (b) sweep, which is switched off, missing")

        bad = [("granular-chain", "chain_forces.csv", lambda s: s[:-1], "truncated"),
               ("granular-chain", "chain_summary.csv",
                lambda s: "".join(line for line in s.splitlines(True)
                                  if not line.startswith("peak_time,4,")), "peak_time"),
               ("optimal-damping", "kelvin_voigt_check.csv",
                lambda s: s.replace("\n0.001,", "\nabc,", 1), "is not a number"),
               ("two-pendulums", "pendulums_flores.csv",
                lambda s: s.rstrip("\n").rsplit(",", 1)[0] + "\n", "fields")]
        for name, filename, damage, message in bad:
            path = os.path.join(root, name, filename)
            original = open(path, encoding="utf-8").read()
            write(path, damage(original))
            for script, arguments in ((curves, [os.path.join(root, name), "-o",
                                                os.path.join(work, "bad", name),
                                                "--png-only", "--dpi", "40"]),
                                      (page_script, [root, "-o", page, "--figures",
                                                     os.path.join(work, "bad"),
                                                     "--contact-impact",
                                                     os.path.join(work, "no-program")])):
                result = run([script] + arguments)
                check(result.returncode == 2 and filename in result.stderr
                      and message in result.stderr,
                      f"{os.path.basename(script)} with a damaged {name}/{filename}: exit "
                      f"status {result.returncode} (2 expected), stderr "
                      f"'{result.stderr.strip()[-200:]}'")
            write(path, original)
        result = run([curves, os.path.join(root, "two-pendulums"), "-o",
                      os.path.join(work, "bad", "tp"), "--png-only", "--laws", "nope"])
        check(result.returncode == 2 and "no model nope" in result.stderr,
              f"impact_curves.py --laws nope: exit status {result.returncode}, stderr "
              f"'{result.stderr.strip()[-200:]}'")

    for failure in failures:
        print(f"check_impact_postprocess: {failure}")
    if not failures:
        print("check_impact_postprocess: all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
