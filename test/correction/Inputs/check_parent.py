"""Compares the report's median parent time (a CSV export) with the program's
own uninstrumented figure: exit 1 unless |corrected / bare - 1| <= --within (when given),
or, with --outside, unless it is beyond that (the raw times must be). With
--raw RAW.csv --removes F, also unless the correction took at least the
fraction F of the raw export's error away (of the same dump). With
--within-below F, also unless the time is at most the fraction F under the
uninstrumented one (a correction that overshoots)."""
import argparse
import csv
import re
import sys

ap = argparse.ArgumentParser()
ap.add_argument("csv")
ap.add_argument("program_output")
ap.add_argument("--within", type=float, default=float("inf"), help="fraction")
ap.add_argument("--outside", action="store_true")
ap.add_argument("--within-below", type=float, default=float("inf"),
                help="fraction")
ap.add_argument("--raw", help="the same dump exported without correction")
ap.add_argument("--removes", type=float, default=0.0, help="fraction")
a = ap.parse_args()
m = re.search(r"bare parent ns: (\d+)", open(a.program_output).read())
if not m:
    sys.exit("check_parent: no 'bare parent ns' line in the program's output")
bare = float(m.group(1))


def median_ns(path):
    rows = {r["name"]: r for r in csv.DictReader(open(path, newline=""))}
    parent = rows.get("probed_parent")
    if parent is None:
        sys.exit("check_parent: no probed_parent row in %s" % path)
    return float(parent["median_ns"])


median = median_ns(a.csv)
err = median / bare - 1
print("parent: median %.0f ns, uninstrumented %.0f ns, error %+.1f %%" %
      (median, bare, 100 * err))
ok = abs(err) <= a.within and err >= -a.within_below
if a.raw:
    raw_err = median_ns(a.raw) / bare - 1
    removed = 1 - abs(err) / abs(raw_err) if raw_err else 0.0
    print("raw: error %+.1f %%; the correction removed %.0f %% of it" %
          (100 * raw_err, 100 * removed))
    ok = ok and removed >= a.removes
sys.exit(0 if ok != a.outside else 1)
