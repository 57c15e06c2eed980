#!/usr/bin/env python3
"""Runs granular-interface at the ends of every meaningful range (docs/parameters.md: each
physical entry states the range outside which a value is refused) on the reduced cell
(L0 = 3 mm, H0 = 1.5 mm, 12 x 6 elements, averaging window 0.5 T0) with a particle shape,
and tables what each run did: completed with its k-bar and energy-balance error, failed with
its message, refused before work, or stopped by the time limit. With --narrow, for an end
that does not work it walks from the default towards that end in decades and reports the
last value that still works: where the range could end (docs/running.md#meaningful-ranges).

    /usr/bin/python3 benchmarks/range_study.py BUILD_DIR OUT_DIR [--shape elliptical]
        [--entries "Loading/Slip velocity" ...] [--narrow] [--timeout 600]

A run "works" when it exits with status 0 and its energy-balance error is at most 5 % (the
tables of benchmarks/results/ranges/ also give each error, to judge against the program's
own guard, Solver/Maximum energy balance error = 20 %). The
context of an entry is set so that the entry acts: the Maxwell branch's entries with the
viscoelastic rubber, the semi-axes with Particle/Shape = custom, the rubber-surface contact's
on the bare interface (in the reduced cell the rubber rests on the particle only).
Resumable: a case whose result.json exists in OUT_DIR is not run again. The table is
written to OUT_DIR/ranges.md (and printed) after every case.
"""
import argparse
import json
import math
import os
import re
import subprocess
import time

SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REDUCED = ["Geometry/Block length=3", "Geometry/Block height=1.5",
           "Geometry/Elements in x=12", "Geometry/Elements in y=6",
           "Loading/Averaging time=0.5", "Output/VTU output interval=0",
           "Output/Progress interval=1000", "Output/Checkpoint interval=0"]
MAX_ENERGY_ERROR = 0.05


def ranges(binary):
    """(entry, default, lower, upper) of every entry whose documentation states a range."""
    listing = json.loads(subprocess.run([binary, "--print-parameters=json"], check=True,
                                        capture_output=True, text=True).stdout)
    found = []

    def walk(node, path):
        for key, value in node.items():
            if isinstance(value, dict) and "documentation" in value and "value" in value:
                doc = value["documentation"]
                m = re.search(r"Meaningful range: ([0-9.e+-]+)[^;]*? to ([0-9.e+-]+)", doc)
                lower, upper = (float(m.group(1)), float(m.group(2))) if m else (None, None)
                if not m:
                    m = re.search(r"Meaningful range: at most ([0-9.e+-]+)", doc)
                    lower, upper = (0., float(m.group(1))) if m else (None, None)
                if m:
                    found.append(("/".join(path + [key]), float(value["default_value"]),
                                  lower, upper))
            elif isinstance(value, dict):
                walk(value, path + [key])
    walk(listing, [])
    return found


def context(entry, shape):
    """The entries that make @p entry act in the reduced cell."""
    sets = [f"Particle/Shape={shape}"]
    if entry.startswith("Rubber/Maxwell branch/"):
        sets.append("Rubber/Maxwell branch/Viscoelastic=true")
    if entry.startswith("Particle/Semi-axis"):
        sets = ["Particle/Shape=custom"]
    if entry.startswith("Contact/Rubber-surface/"):
        sets = ["Particle/Enabled=false"]
    return sets


def run_case(binary, out, name, sets, timeout):
    directory = os.path.join(out, name)
    result_file = os.path.join(directory, "result.json")
    if os.path.exists(result_file):
        return json.load(open(result_file))
    os.makedirs(directory, exist_ok=True)
    command = [binary, os.path.join(SOURCE, "params", "default.prm"), "--output-directory",
               os.path.join(directory, "run"), "--overwrite"]
    for s in REDUCED + sets:
        command += ["--set", s]
    start = time.time()
    try:
        p = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        status, text = p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        status, text = "timeout", ""
    kbar = re.search(r"kbar = ([0-9.eE+-]+|nan|inf)", text)
    error = re.search(r"energy balance error = ([0-9.eE+-]+)", text)
    message = [l for l in text.splitlines() if "error:" in l or "invalid" in l]
    result = {"name": name, "sets": sets, "status": status,
              "seconds": round(time.time() - start, 1),
              "kbar": kbar.group(1) if kbar and status == 0 else "",
              "energy_error": error.group(1) if error and status == 0 else "",
              "message": message[0][:240] if message else ""}
    result["works"] = status == 0 and result["energy_error"] != "" and \
        float(result["energy_error"]) <= MAX_ENERGY_ERROR
    json.dump(result, open(result_file, "w"))
    return result


def table(results):
    lines = ["| case | value | exit | works | k̄ | energy error | wall (s) | message |",
             "|---|---|---|---|---|---|---|---|"]
    for r in results:
        value = r["sets"][-1].split("=", 1)[1] if "=" in r["sets"][-1] else ""
        lines.append(f"| {r['name']} | {value} | {r['status']} | {'yes' if r['works'] else 'no'} "
                     f"| {r['kbar']} | {r['energy_error']} | {r['seconds']} | "
                     f"{r['message'].replace('|', '/')} |")
    return "\n".join(lines) + "\n"


def decades(default, end):
    """Values from the default towards @p end in decades, the end itself last."""
    if end == default:
        return []
    start = default if default > 0. else end * 1e-6
    steps = int(math.floor(abs(math.log10(end / start)) + 1e-9)) if end > 0. else 0
    sign = 1 if end > start else -1
    values = [start * 10. ** (sign * k) for k in range(1, steps + 1)]
    if end > 0. and (not values or not math.isclose(values[-1], end, rel_tol=1e-9)):
        values.append(end)
    if end == 0.:
        values = [0.]
    return values


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("build")
    parser.add_argument("out")
    parser.add_argument("--shape", default="elliptical", help="particle shape (default: elliptical)")
    parser.add_argument("--entries", nargs="+", help="only these entries (default: all)")
    parser.add_argument("--narrow", action="store_true",
                        help="for an end that does not work, the last decade that does")
    parser.add_argument("--timeout", type=float, default=600., help="seconds per run")
    a = parser.parse_args()
    binary = os.path.join(os.path.abspath(a.build), "granular-interface")
    os.makedirs(a.out, exist_ok=True)
    results = [run_case(binary, a.out, f"{a.shape}-default", [f"Particle/Shape={a.shape}"],
                        a.timeout)]
    narrowed = []
    for entry, default, lower, upper in ranges(binary):
        if a.entries and entry not in a.entries:
            continue
        key = f"{a.shape}-{entry.replace('/', '-').replace(' ', '_')}"
        for end, value in (("lower", lower), ("upper", upper)):
            case = lambda v, label: run_case(binary, a.out, f"{key}-{label}",
                                            context(entry, a.shape) + [f"{entry}={v:g}"],
                                            a.timeout)
            r = case(value, end)
            results.append(r)
            if a.narrow and not r["works"]:
                last = None
                for v in decades(default, value)[:-1]:
                    t = case(v, f"{end}-{v:g}")
                    results.append(t)
                    if not t["works"]:
                        break
                    last = v
                narrowed.append((entry, end, value, last))
            open(os.path.join(a.out, "ranges.md"), "w").write(table(results))
            print(f"{r['name']}: exit {r['status']} works {r['works']} kbar {r['kbar']} "
                  f"{r['seconds']} s {r['message'][:100]}", flush=True)
    if narrowed:
        lines = ["", "| entry | end | range's end | last working decade |", "|---|---|---|---|"]
        lines += [f"| {e} | {end} | {v:g} | {'' if last is None else f'{last:g}'} |"
                  for e, end, v, last in narrowed]
        with open(os.path.join(a.out, "ranges.md"), "a") as f:
            f.write("\n".join(lines) + "\n")
    print(open(os.path.join(a.out, "ranges.md")).read())


if __name__ == "__main__":
    main()
