#!/usr/bin/env python3
"""Runs granular-interface at the ends of every meaningful range (docs/parameters.md: each
physical entry states the range outside which a value is refused) on the reduced cell
(L0 = 3 mm, H0 = 1.5 mm, 12 x 6 elements, averaging window 0.5 T0), for the shipped particle
shapes, and tables what each run did: completed with its k-bar, failed with its message,
refused before work, or stopped by the time limit. Where an end fails, the range is too
wide there: docs/running.md#meaningful-ranges says how each was narrowed.

    /usr/bin/python3 benchmarks/range_study.py BUILD_DIR OUT_DIR [--shapes elliptical ...]
        [--entries "Loading/Slip velocity" ...] [--timeout 600]

Resumable: a case whose result.json exists in OUT_DIR is not run again. The table is
written to OUT_DIR/ranges.md (and printed) after every case.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

REDUCED = ["Geometry/Block length=3", "Geometry/Block height=1.5",
           "Geometry/Elements in x=12", "Geometry/Elements in y=6",
           "Loading/Averaging time=0.5", "Output/VTU output interval=0",
           "Output/Progress interval=1000", "Output/Checkpoint interval=0"]


def ranges(binary):
    """(entry, lower, upper) of every entry whose documentation states a meaningful range."""
    listing = json.loads(subprocess.run([binary, "--print-parameters=json"], check=True,
                                        capture_output=True, text=True).stdout)
    found = []

    def walk(node, path):
        for key, value in node.items():
            if isinstance(value, dict) and "documentation" in value and "value" in value:
                m = re.search(r"Meaningful range: ([0-9.e+-]+)(?: [^ ]+)? to ([0-9.e+-]+)",
                              value["documentation"])
                if m:
                    found.append(("/".join(path + [key]),
                                  float(m.group(1)), float(m.group(2))))
                else:
                    m = re.search(r"Meaningful range: at most ([0-9.e+-]+)",
                                  value["documentation"])
                    if m:
                        found.append(("/".join(path + [key]), 0.,
                                      float(m.group(1))))
            elif isinstance(value, dict):
                walk(value, path + [key])
    walk(listing, [])
    return found


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
    except subprocess.TimeoutExpired as e:
        status, text = "timeout", ""
    seconds = time.time() - start
    kbar = re.search(r"kbar = ([0-9.eE+-]+|nan|inf)", text)
    message = [l for l in text.splitlines() if "error" in l or "invalid" in l]
    result = {"name": name, "sets": sets, "status": status, "seconds": round(seconds, 1),
              "kbar": kbar.group(1) if kbar and status == 0 else "",
              "message": message[0][:300] if message else ""}
    json.dump(result, open(result_file, "w"))
    return result


def table(results):
    lines = ["| case | exit | k̄ | wall (s) | message |", "|---|---|---|---|---|"]
    for r in results:
        lines.append(f"| {r['name']} | {r['status']} | {r['kbar']} | {r['seconds']} | "
                     f"{r['message'].replace('|', '/')} |")
    return "\n".join(lines) + "\n"


def main():
    global SOURCE
    SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("build")
    parser.add_argument("out")
    parser.add_argument("--shapes", nargs="+", default=["elliptical"],
                        help="particle shapes (default: elliptical)")
    parser.add_argument("--entries", nargs="+", help="only these entries (default: all)")
    parser.add_argument("--timeout", type=float, default=600., help="seconds per run")
    a = parser.parse_args()
    binary = os.path.join(os.path.abspath(a.build), "granular-interface")
    os.makedirs(a.out, exist_ok=True)
    results = []
    for shape in a.shapes:
        results.append(run_case(binary, a.out, f"{shape}-default",
                                [f"Particle/Shape={shape}"], a.timeout))
        for entry, lower, upper in ranges(binary):
            if a.entries and entry not in a.entries:
                continue
            for end, value in (("lower", lower), ("upper", upper)):
                name = f"{shape}-{entry.replace('/', '-').replace(' ', '_')}-{end}"
                results.append(run_case(binary, a.out, name,
                                        [f"Particle/Shape={shape}", f"{entry}={value:g}"],
                                        a.timeout))
                open(os.path.join(a.out, "ranges.md"), "w").write(table(results))
                r = results[-1]
                print(f"{r['name']}: exit {r['status']} kbar {r['kbar']} {r['seconds']} s "
                      f"{r['message'][:120]}", flush=True)
    print(table(results))


if __name__ == "__main__":
    main()
