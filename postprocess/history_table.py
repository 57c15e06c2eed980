"""Reading a run's history.csv for the post-processing scripts (energy_balance.py,
friction_history.py), with clear messages for damaged files.

A run stopped while it wrote its last row (SIGKILL, a full disk; issue 17) leaves a truncated
last row: it is dropped with a warning on stderr. A missing or empty file, or a damaged row
before the last one, raises HistoryError naming the file and the line.
"""
import csv
import os
import sys


class HistoryError(Exception):
    """history.csv is missing, empty or damaged (the message names the file and the line)."""


def read_history_rows(run_dir, columns, program):
    """The columns `columns` of `run_dir`/history.csv as {name: [float, ...]}; the phase
    column, if asked for, as strings. `program` prefixes the warnings."""
    path = os.path.join(run_dir, "history.csv")
    try:
        with open(path, newline="") as f:
            reader = csv.reader(f)
            header = next(reader, None)
            if header is None:
                raise HistoryError(f"{path} is empty (did the run start?)")
            missing = [c for c in columns if c not in header]
            if missing:
                raise HistoryError(f"{path} has no column {', '.join(missing)} "
                                   "(a history of an older build or another file?)")
            index = {c: header.index(c) for c in columns}
            lines = list(reader)
    except OSError as e:
        raise HistoryError(f"{path}: {e.strerror}") from None
    data = {c: [] for c in columns}
    for number, row in enumerate(lines, start=2):
        try:
            if len(row) != len(header):
                raise ValueError(f"{len(row)} fields instead of {len(header)}")
            values = {c: row[i] if c == "phase" else float(row[i]) for c, i in index.items()}
        except ValueError as e:
            if number == len(lines) + 1:
                print(f"{program}: warning: {path}: the last row (line {number}) is truncated "
                      f"({e}; the run was stopped while writing it): it is left out",
                      file=sys.stderr)
                break
            raise HistoryError(f"{path}, line {number}: {e}") from None
        for c in columns:
            data[c].append(values[c])
    if not data[columns[0]]:
        raise HistoryError(f"{path} has no complete row")
    return data
