#!/usr/bin/env python3
"""Checks `tpuprof-report ranks --format json` of the straggler job.

  check_ranks.py --slow R RANKS.json RANK0.json RANK1.json ...

RANKn.json is `export --format json --rank n` of the same dumps: rank n's
own report. Every bound is relative (one rank's figure against another's),
so the check holds on a loaded machine.
"""
import argparse
import json
import sys
from collections import defaultdict


def fail(msg):
    print("check_ranks.py: " + msg, file=sys.stderr)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--slow", type=int, required=True)
    ap.add_argument("ranks")
    ap.add_argument("own", nargs="+")
    args = ap.parse_args()
    job = json.load(open(args.ranks))
    ranks = [r["rank"] for r in job["ranks"]]
    if ranks != list(range(len(args.own))):
        fail("ranks %s, expected 0..%d" % (ranks, len(args.own) - 1))
    slow = args.slow

    # The slow rank computes most; compute_step is the imbalanced op there.
    if job["slowest_rank"] != slow:
        fail("slowest rank %s, expected %d" % (job["slowest_rank"], slow))
    compute = {r["rank"]: r["compute_ns"] for r in job["ranks"]}
    for r, ns in compute.items():
        if r != slow and not compute[slow] > 1.5 * ns:
            fail("rank %d computes %d ns, not 1.5x rank %d's %d" % (slow, compute[slow], r, ns))
    ops = [o for o in job["ops"] if o["kind"] != "comm"]
    if not ops or ops[0]["name"] != "compute_step":
        fail("most imbalanced computation: %s" % (ops[0]["name"] if ops else None))
    step = ops[0]
    if step["slowest_rank"] != slow or not step["imbalance"] > 1.3:
        fail("compute_step: slowest rank %d, imbalance %.2f" % (step["slowest_rank"], step["imbalance"]))
    if not step["min_ns"] <= step["mean_ns"] <= step["max_ns"]:
        fail("compute_step: min/mean/max out of order")

    # The allreduce: the slow rank arrives last and waits least.
    coll = {c["name"]: c for c in job["collectives"]}
    if "MPI_Allreduce" not in coll:
        fail("no MPI_Allreduce among the collectives")
    ar = coll["MPI_Allreduce"]
    if ar["straggler"] != slow:
        fail("MPI_Allreduce straggler %d, expected %d" % (ar["straggler"], slow))
    wait = {p["rank"]: p["wait_ns"] for p in ar["per_rank"]}
    for r, ns in wait.items():
        if r != slow and not ns > wait[slow]:
            fail("rank %d waited %d ns in MPI_Allreduce, not more than the slow rank's %d" % (r, ns, wait[slow]))

    # Overlap: odd ranks compute (overlap_step) while their MPI_Iallreduce is
    # in flight, so at least that computation overlaps; even ranks wait for
    # theirs at once and block in every other call: exactly none.
    for rank in job["ranks"]:
        r, overlap, in_flight = rank["rank"], rank["overlap_ns"], rank["comm_in_flight_ns"]
        if not 0 <= overlap <= in_flight or not in_flight >= rank["comm_ns"] > 0:
            fail("rank %d: overlap %d ns, in flight %d ns, comm %d ns" % (r, overlap, in_flight, rank["comm_ns"]))
        if r % 2 == 0 and overlap != 0:
            fail("rank %d: overlap %d ns, expected none" % (r, overlap))
        step = [p["total_ns"] for o in job["ops"] if o["name"] == "overlap_step"
                for p in o["per_rank"] if p["rank"] == r and p["calls"]]
        if r % 2 == 1 and not (step and overlap >= step[0] > 0):
            fail("rank %d: overlap %d ns, less than its overlap_step's %s ns" % (r, overlap, step))

    # Each rank's totals are its own report's, op by op.
    for r, path in enumerate(args.own):
        own = json.load(open(path))
        if [run["rank"] for run in own["runs"]] != [r]:
            fail("rank %d's own export has runs of ranks %s" % (r, [run["rank"] for run in own["runs"]]))
        mine = defaultdict(lambda: [0, 0])
        for row in own["rows"]:
            mine[row["name"]][0] += row["count"]
            mine[row["name"]][1] += row["duration_ns"]
        merged = {}
        for o in job["ops"]:
            for p in o["per_rank"]:
                if p["rank"] == r and p["calls"]:
                    merged[o["name"]] = [p["calls"], p["total_ns"]]
        if merged != dict(mine):
            fail("rank %d: merged %s, its own report %s" % (r, merged, dict(mine)))
        covered = own["totals"]["covered_ns"]
        if job["ranks"][r]["covered_ns"] != covered:
            fail("rank %d: busy %d ns, its own report's sum %d" % (r, job["ranks"][r]["covered_ns"], covered))
    print("ok: %d ranks" % len(ranks))


if __name__ == "__main__":
    main()
