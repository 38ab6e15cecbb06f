#!/usr/bin/env python3
"""Checks numeric properties of a `tpuprof-report table` / `tpuprof-run` table
that FileCheck cannot: row count, per-row Count, Sum <= Total, how the
duration of one row compares with the same row in another run (its fastest
call with --stats tables, which a preempted call cannot inflate), and Self
against Duration for rows with and without nested probes."""
import argparse
import re
import sys


# Name Duration Self [Approx] Percent Cum% Device Count ...; a time below
# what the clock resolves reads "< N ns", a row's total "< N ns/call" (taken
# as 0 here); Approx, when shown, is "~" or "-".
TIME = r"\d+\.\d\d|< [\d.]+ [nu]s(?:/call)?"
ROW = re.compile(rf"(?P<name>.*?)\s+(?P<dur>{TIME})\s+(?P<self>{TIME})"
                 r"(?:\s+[~-])?\s+\d+\.\d\d\s+\d+\.\d\d\s+\d+\s+(?P<count>\d+)\s")
CELLS = re.compile(r"\s{2,}")


def us(cell):
    return 0.0 if cell.startswith("<") else float(cell)


def parse(path):
    """Returns (rows, sum_us, total_us); rows are dicts with name, dur, self,
    count, and min where the table has --stats' Min (us) column."""
    rows, sum_us, total_us, in_rows, min_col = [], None, None, False, None
    for line in open(path):
        if line.startswith("Name ") and "Duration (us)" in line:
            in_rows = True
            header = CELLS.split(line.strip())
            if "Min (us)" in header:
                min_col = header.index("Min (us)")
            continue
        if not in_rows:
            continue
        if line.startswith("---"):
            continue
        fields = line.split()
        if not fields:
            continue
        if fields[0] == "Sum":
            sum_us = float(fields[1])
        elif fields[0] == "Total":
            total_us = float(fields[1])
            break
        else:
            # Name Duration Self Percent Cum% Device Count Shapes... Hash
            # Location;
            # names may hold blanks (demangled C++ symbols).
            m = ROW.match(line)
            if not m:
                sys.exit(f"{path}: cannot parse row: {line.rstrip()}")
            row = {"name": m["name"], "dur": us(m["dur"]),
                   "self": us(m["self"]), "count": int(m["count"]),
                   "line": line.rstrip()}
            if min_col is not None:
                row["min"] = us(CELLS.split(line.strip())[min_col])
            rows.append(row)
    if total_us is None:
        sys.exit(f"{path}: no table found")
    return rows, sum_us, total_us


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("table")
    ap.add_argument("--rows", type=int, help="expected number of rows")
    ap.add_argument("--count", type=int, help="expected Count of every row")
    ap.add_argument("--sum-le-total", action="store_true")
    ap.add_argument("--row", help="row name for --compare")
    ap.add_argument("--compare", help="other table: ratio of --row durations")
    ap.add_argument("--min-ratio", type=float, default=0.0)
    ap.add_argument("--self-below-total", action="append", default=[],
                    metavar="ROW", help="row whose Self < Duration (nested)")
    ap.add_argument("--self-equals-total", action="append", default=[],
                    metavar="ROW", help="row whose Self == Duration (a leaf)")
    args = ap.parse_args()

    rows, sum_us, total_us = parse(args.table)
    errors = []
    if args.rows is not None and len(rows) != args.rows:
        errors.append(f"expected {args.rows} rows, got {len(rows)}")
    if args.count is not None:
        for r in rows:
            if r["count"] != args.count:
                errors.append(f"Count {r['count']} != {args.count}: {r['line']}")
    if args.sum_le_total and not (0 < sum_us <= total_us):
        errors.append(f"Sum {sum_us} is not in (0, Total {total_us}]")
    if args.compare:
        mine = [r for r in rows if r["name"] == args.row]
        other = [r for r in parse(args.compare)[0] if r["name"] == args.row]
        if len(mine) != 1 or len(other) != 1:
            errors.append(f"row {args.row} not found exactly once in both tables")
        else:
            key = "min" if "min" in mine[0] and "min" in other[0] else "dur"
            ratio = mine[0][key] / max(other[0][key], 1e-9)
            print(f"{args.row} ({key}): {mine[0][key]} us / {other[0][key]} us = {ratio:.2f}")
            if ratio < args.min_ratio:
                errors.append(f"ratio {ratio:.2f} < {args.min_ratio}")
    for name, nested in ([(n, True) for n in args.self_below_total] +
                         [(n, False) for n in args.self_equals_total]):
        match = [r for r in rows if r["name"] == name]
        if len(match) != 1:
            errors.append(f"row {name} not found exactly once")
        elif nested and not match[0]["self"] < match[0]["dur"]:
            errors.append(f"Self is not below Duration: {match[0]['line']}")
        elif not nested and match[0]["self"] != match[0]["dur"]:
            errors.append(f"Self differs from Duration: {match[0]['line']}")
    for e in errors:
        print(f"check_table: {args.table}: {e}", file=sys.stderr)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
