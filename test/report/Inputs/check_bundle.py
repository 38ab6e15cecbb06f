#!/usr/bin/env python3
"""Checks a `tpuprof-report bundle` directory: every file is there and is
what it says (the page, a Chrome trace, the workbook's sheets and cells read
with zipfile, the SQLite database, the CSV, the speedscope file), and
nothing else is. Prints one ok line with figures FileCheck can match."""
import csv
import json
import re
import sqlite3
import sys
import zipfile

out = sys.argv[1]
expected = {"report.html", "report.xlsx", "trace.json", "summary.txt",
            "table.txt", "ops.csv", "profile.json", "profile.sqlite",
            "stacks.folded", "stacks.speedscope.json", "graph.dot"}


def fail(msg):
    sys.exit(f"check_bundle: FAIL: {msg}")


import os
files = set(os.listdir(out))
if files != expected:
    fail(f"files {sorted(files)}, expected {sorted(expected)}")
path = lambda f: os.path.join(out, f)

html = open(path("report.html")).read()
if not html.startswith("<!DOCTYPE html>"):
    fail("report.html is not a page")
trace = json.load(open(path("trace.json")))
slices = [e for e in trace["traceEvents"] if e.get("ph") == "X"]

# The workbook: an xlsx is a zip of XML parts.
z = zipfile.ZipFile(path("report.xlsx"))
sheets = re.findall(r'<sheet name="([^"]+)"', z.read("xl/workbook.xml").decode())
if sheets != ["Summary", "Ops", "Records", "Threads"]:
    fail(f"sheets {sheets}")


def cells(n):
    """Sheet n's cells as {ref: text or number}."""
    xml = z.read(f"xl/worksheets/sheet{n}.xml").decode()
    out = {}
    for ref, body in re.findall(r'<c r="([A-Z]+[0-9]+)"[^>]*>(.*?)</c>', xml):
        t = re.search(r"<t[^>]*>(.*?)</t>", body)
        v = re.search(r"<v>(.*?)</v>", body)
        out[ref] = t.group(1) if t else float(v.group(1)) if v else None
    return out


summary, ops, records = cells(1), cells(2), cells(3)
if ops.get("A1") != "name" or ops.get("J1") != "duration_ns":
    fail(f"Ops header: A1={ops.get('A1')} J1={ops.get('J1')}")
if summary.get("A2") != "inputs":
    fail(f"Summary A2={summary.get('A2')}")
op_rows = len({re.match(r"[A-Z]+([0-9]+)", r).group(1) for r in ops}) - 1
record_rows = len({re.match(r"[A-Z]+([0-9]+)", r).group(1) for r in records}) - 1

rows = list(csv.DictReader(open(path("ops.csv"), newline="")))
db = sqlite3.connect(path("profile.sqlite"))
db_ops = db.execute("select COUNT(*) from ops").fetchone()[0]
db_records = db.execute("select COUNT(*) from records").fetchone()[0]
if not (len(rows) == op_rows == db_ops):
    fail(f"ops: csv {len(rows)}, xlsx {op_rows}, sqlite {db_ops}")
if not (record_rows == db_records == len(slices)):
    fail(f"records: xlsx {record_rows}, sqlite {db_records}, trace {len(slices)}")
speed = json.load(open(path("stacks.speedscope.json")))
if speed["profiles"][0]["unit"] != "nanoseconds":
    fail("speedscope unit")
if not open(path("graph.dot")).read().startswith("digraph tpuprof {"):
    fail("graph.dot")
print(f"check_bundle: ok: {len(files)} files, sheets {', '.join(sheets)}, "
      f"{op_rows} ops, {record_rows} records, first op {ops.get('A2')}")
