#!/usr/bin/env python3
"""Checks the memory columns of a `tpuprof-report export --format csv` file:
each --expect NAME:COLUMN=VALUE says that the row named NAME (the first one,
or NAME@SHAPES-substring for one of several) has VALUE in COLUMN
(alloc_bytes, self_alloc_bytes, freed_bytes, peak_bytes, count, ...);
VALUE may be '>=N' or '<=N'."""
import argparse
import csv
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("--expect", action="append", default=[])
    args = ap.parse_args()
    with open(args.csv, newline="") as f:
        rows = [r for r in csv.reader(f) if r and not r[0].startswith("#")]
    header, rows = rows[0], rows[1:]
    failed = False
    for spec in args.expect:
        who, want = spec.split("=", 1)
        name, column = who.rsplit(":", 1)
        # NAME@SHAPES; a call's name has its own " @callee".
        name, shape = name, ""
        if "@" in name and "[" in name.rsplit("@", 1)[1]:
            name, _, shape = name.rpartition("@")
        match = [r for r in rows if r[header.index("name")] == name
                 and shape in r[header.index("shapes")]]
        if not match:
            print(f"no row {name!r} (shapes containing {shape!r})")
            failed = True
            continue
        got = match[0][header.index(column)]
        if want.startswith(">="):
            ok = got != "" and int(got) >= int(want[2:])
        elif want.startswith("<="):
            ok = got != "" and int(got) <= int(want[2:])
        else:
            ok = got == want
        if not ok:
            print(f"{name} {column}: got {got!r}, want {want}")
            failed = True
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
