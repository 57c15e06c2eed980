#!/usr/bin/python3
"""Check that every CTest named in the table of guarantees of docs/running.md (section "What
the program guarantees") exists, so that each promise stays backed by a test that runs: the
names in backticks in the table's CTest column must all be listed by `ctest -N` in the build
directory.

Usage: check_guarantees.py docs/running.md BUILD_DIR
Exit status 0 if every name exists, 1 listing the missing ones otherwise.
"""
import re
import subprocess
import sys


def main():
    page, build = sys.argv[1:3]
    text = open(page, encoding="utf-8").read()
    m = re.search(r"## What the program guarantees\n(.*?)\n## ", text, re.S)
    if not m:
        print(f"{page}: no section 'What the program guarantees'")
        return 1
    names = []
    for line in m.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and "`" in cells[1]:
            names += re.findall(r"`([A-Za-z]+\.[A-Za-z]+)`", cells[1])
    if not names:
        print(f"{page}: the table of guarantees names no CTest")
        return 1
    listed = subprocess.run(["ctest", "-N"], cwd=build, capture_output=True, text=True).stdout
    tests = set(re.findall(r"Test +#\d+: (\S+)", listed))
    missing = sorted(set(names) - tests)
    for name in missing:
        print(f"FAILED: {page} names the CTest {name}, which does not exist")
    print(f"{len(set(names))} CTests named, {len(missing)} missing")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
