#!/usr/bin/env python3
"""Checks that the HTML page puts a job's ranks on one time axis.

  check_html_ranks.py --ranks N PAGE.html TRACE.json

The page's embedded data must say the axis is shared, give every run (one
per rank) the same origin, the one the trace's aligned axis starts at, put
each rank's first record where the trace puts it, and have every rank still
inside the k-th MPI_Allreduce when the last rank enters it (no rank can
leave a collective before all have arrived: on one aligned axis the calls
overlap). Every bound is exact or physical, not a timing margin.
"""
import argparse
import json
import re
import sys
from collections import defaultdict


def fail(msg):
    print("check_html_ranks.py: " + msg, file=sys.stderr)
    sys.exit(1)


def page_data(path):
    text = open(path, encoding="utf-8").read()
    m = re.search(r'<script type="application/json" id="tpuprof-data">(.*?)</script>',
                  text, re.S)
    if not m:
        fail("no embedded data in " + path)
    return json.loads(m.group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ranks", type=int, required=True)
    ap.add_argument("page")
    ap.add_argument("trace")
    args = ap.parse_args()
    data = page_data(args.page)
    tl = data["timeline"]
    if not tl.get("sharedAxis"):
        fail("the timeline's axis is not shared")
    if tl["mode"] != "events":
        fail("expected every record on the page, got " + tl["mode"])
    runs = data["runs"]
    ranks = sorted(r.get("rank", -1) for r in runs)
    if ranks != list(range(args.ranks)):
        fail("runs are ranks %s, expected 0..%d" % (ranks, args.ranks - 1))
    origins = {r["originNs"] for r in runs}
    if len(origins) != 1:
        fail("%d axis origins, expected one: %s" % (len(origins), origins))
    origin = origins.pop()
    for r in runs:
        if r.get("clock") not in ("reference", "same host", "ping-pong"):
            fail("rank %d's clock is %r" % (r["rank"], r.get("clock")))

    trace = json.load(open(args.trace))
    if trace["otherData"]["origin_ns"] != origin:
        fail("the page's origin %d is not the trace's %d"
             % (origin, trace["otherData"]["origin_ns"]))
    rank_of_pid = {}
    for e in trace["traceEvents"]:
        if e.get("name") == "process_name":
            m = re.search(r"\brank (\d+),", e["args"]["name"])
            if m:
                rank_of_pid[e["pid"]] = int(m.group(1))
    trace_first = {}
    for e in trace["traceEvents"]:
        if e.get("ph") == "X" and e.get("pid") in rank_of_pid:
            r = rank_of_pid[e["pid"]]
            ns = round(float(e["ts"]) * 1000)
            trace_first[r] = min(trace_first.get(r, ns), ns)

    rows = data["rows"]
    sites = data["sites"]
    page_first = {}
    allreduces = defaultdict(list)  # rank -> [(begin, end)]
    for info, cols in zip(data["lanes"], tl["lanes"]):
        rank = runs[info["run"]]["rank"]
        t = 0
        for delta, dur, site in zip(cols["begin"], cols["dur"], cols["site"]):
            t += delta
            page_first[rank] = min(page_first.get(rank, t), t)
            if rows[sites[site][0]]["name"] == "MPI_Allreduce":
                allreduces[rank].append((t, t + dur))
    for r in range(args.ranks):
        if r not in page_first or r not in trace_first:
            fail("rank %d has no records on the page or in the trace" % r)
        if abs(page_first[r] - trace_first[r]) > 1:
            fail("rank %d's first record at %d ns on the page, %d ns in the trace"
                 % (r, page_first[r], trace_first[r]))
    calls = {len(v) for v in allreduces.values()}
    if len(allreduces) != args.ranks or len(calls) != 1 or not calls.pop():
        fail("MPI_Allreduce calls per rank: %s"
             % {r: len(v) for r, v in allreduces.items()})
    for v in allreduces.values():
        v.sort()
    for k in range(len(allreduces[0])):
        last_in = max(allreduces[r][k][0] for r in allreduces)
        first_out = min(allreduces[r][k][1] for r in allreduces)
        if first_out < last_in:
            fail("allreduce %d: a rank left at %d ns before the last entered at %d ns"
                 % (k, first_out, last_in))
    print("html ranks: %d ranks on one axis, %d allreduces aligned"
          % (args.ranks, len(allreduces[0])))


if __name__ == "__main__":
    main()
