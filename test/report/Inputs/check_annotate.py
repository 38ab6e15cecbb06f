#!/usr/bin/env python3
"""Checks the tpuprof.stats attributes of annotated IR against the CSV export
of the same dumps: each annotated op's total_us and count equal those of a
table row (every op of the examples has one row: distinct hash, one shape).
With --table, each total_us is also a Duration cell of the printed table,
character for character (a bound below resolution included)."""
import argparse, csv, re, sys

ap = argparse.ArgumentParser()
ap.add_argument("ir")
ap.add_argument("csv")
ap.add_argument("--table")
args = ap.parse_args()
rows = list(csv.DictReader(open(args.csv, newline="")))
stats = re.findall(r'tpuprof\.stats = \{count = (\d+) : i64, ([^}]*)\}', open(args.ir).read())
if not stats:
    print("check_annotate: no tpuprof.stats in", args.ir); sys.exit(1)
cells = None
if args.table:
    text = open(args.table).read()
    cells = set(re.findall(r"\d+\.\d\d|< [\d.]+ [nu]s/call", text))
# Per op line: count and total_us must match a CSV row with that count.
totals = sorted(round(int(r["duration_ns"]) / 1e3, 3) for r in rows)
ok = 0
for count, rest in stats:
    cell = re.search(r'total_us = "([^"]*)"', rest).group(1)
    if cells is not None and cell not in cells:
        print(f"check_annotate: total_us {cell!r} is no cell of the table"); sys.exit(1)
    if cell.startswith("<"):
        bound = float(re.match(r"< ([\d.]+)", cell).group(1))
        total = None
    else:
        total = float(cell)
    if total is not None and not any(abs(total - t) < 0.006 for t in totals):
        print(f"check_annotate: total_us {total} matches no table row {totals}")
        sys.exit(1)
    if not any(int(r["count"]) == int(count) for r in rows):
        print(f"check_annotate: count {count} matches no table row"); sys.exit(1)
    ok += 1
print(f"check_annotate: ok: {ok} annotated ops match the table")
