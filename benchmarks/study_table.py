#!/usr/bin/env python3
"""Folds benchmark tables (benchmarks/results/*.md of benchmarks/run.sh) into one study
table: one row per case and table, chosen columns, and for groups of tables that differ
only by a perturbation (--group REGEX: the part of the label that names the group) the
mean and the spread (max - min) of kbar.

    benchmarks/study_table.py TABLE.md... [--columns "kbar,wall time (s)"] [--group REGEX]
"""
import argparse
import re
import statistics
import sys


def read_table(path):
    """(title, [row dicts]) of one results table."""
    title, header, rows = "", None, []
    for line in open(path):
        line = line.strip()
        if line.startswith("# "):
            title = line[2:]
        elif line.startswith("|") and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if header is None:
                header = cells
            else:
                rows.append(dict(zip(header, cells)))
    return title, rows


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tables", nargs="+")
    parser.add_argument("--columns", default="kbar,kbar_F,wall time (s),Newton its/step,"
                        "cut-backs,max pen. particle (mm)")
    parser.add_argument("--group", help="regex on a table's title; tables whose match is "
                        "the same form one group (kbar mean and spread per case)")
    args = parser.parse_args()
    columns = [c.strip() for c in args.columns.split(",")]
    out = ["| table | case | " + " | ".join(columns) + " |",
           "|---|---|" + "---|" * len(columns)]
    groups = {}
    for path in args.tables:
        title, rows = read_table(path)
        label = title.split(", ")[-1]
        key = None
        if args.group:
            m = re.search(args.group, title)
            key = m.group(0) if m else None
        for r in rows:
            out.append(f"| {label} | {r.get('case', '')} | " +
                       " | ".join(r.get(c, "-") for c in columns) + " |")
            if key is not None and r.get("kbar", "").replace(".", "").isdigit():
                groups.setdefault((key, r["case"]), []).append(float(r["kbar"]))
    print("\n".join(out))
    if groups:
        print("\n| group | case | runs | kbar mean | kbar min | kbar max | spread (max - min) |")
        print("|---|---|---|---|---|---|---|")
        for (key, case), values in sorted(groups.items()):
            print(f"| {key} | {case} | {len(values)} | {statistics.mean(values):.4f} | "
                  f"{min(values):.4f} | {max(values):.4f} | {max(values) - min(values):.4f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
