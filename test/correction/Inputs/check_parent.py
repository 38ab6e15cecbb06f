"""Compares the report's median parent time (a CSV export) with the program's
own uninstrumented figure: exit 1 unless |corrected / bare - 1| <= --within,
or, with --outside, unless it is beyond that (the raw times must be)."""
import argparse
import csv
import re
import sys

ap = argparse.ArgumentParser()
ap.add_argument("csv")
ap.add_argument("program_output")
ap.add_argument("--within", type=float, required=True, help="fraction")
ap.add_argument("--outside", action="store_true")
a = ap.parse_args()
m = re.search(r"bare parent ns: (\d+)", open(a.program_output).read())
if not m:
    sys.exit("check_parent: no 'bare parent ns' line in the program's output")
bare = float(m.group(1))
rows = {r["name"]: r for r in csv.DictReader(open(a.csv, newline=""))}
parent = rows.get("probed_parent")
if parent is None:
    sys.exit("check_parent: no probed_parent row in %s" % a.csv)
err = float(parent["median_ns"]) / bare - 1
print("parent: median %s ns, uninstrumented %.0f ns, error %+.1f %%" %
      (parent["median_ns"], bare, 100 * err))
ok = abs(err) <= a.within
sys.exit(0 if ok != a.outside else 1)
