#!/usr/bin/env python3
"""Checks the tpuprof.stats attributes of annotated IR against the CSV export
of the same dumps: each annotated op's total_us and count equal those of a
table row (every op of the examples has one row: distinct hash, one shape)."""
import csv, re, sys

ir, table_csv = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(open(table_csv, newline="")))
stats = re.findall(r'tpuprof\.stats = \{count = (\d+) : i64, ([^}]*)\}', open(ir).read())
if not stats:
    print("check_annotate: no tpuprof.stats in", ir); sys.exit(1)
# Per op line: count and total_us must match a CSV row with that count.
totals = sorted(round(int(r["duration_ns"]) / 1e3, 3) for r in rows)
ok = 0
for count, rest in stats:
    total = float(re.search(r"total_us = ([0-9.e+-]+)", rest).group(1))
    if not any(abs(total - t) < 0.002 for t in totals):
        print(f"check_annotate: total_us {total} matches no table row {totals}")
        sys.exit(1)
    if not any(int(r["count"]) == int(count) for r in rows):
        print(f"check_annotate: count {count} matches no table row"); sys.exit(1)
    ok += 1
print(f"check_annotate: ok: {ok} annotated ops match the table")
