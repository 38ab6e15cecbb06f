#!/usr/bin/env python3
"""Checks that a window's start-up is not counted as the program's time:
runs `tpuprof-run MODEL --repeat 1` up to --tries times and passes when one
run's time from the window's begin to its first record is below --fraction
of that first record's own duration (the op-free gap the runtime's set-up
used to leave was longer than the model's first, cold op), and that run's
table has Sum and Total. Several tries, because a loaded machine may
preempt the process in any short stretch; the bound is relative, so the
speed of the machine does not matter."""
import argparse
import json
import os
import re
import subprocess
import sys


def one_run(args, out_dir):
    table = subprocess.run(
        [args.run, args.model, "--repeat", "1", "--output", out_dir],
        check=True, capture_output=True, text=True).stdout
    dump = re.search(r"^Dump: (.*)$", table, re.M).group(1)
    trace = json.loads(subprocess.run(
        [args.report, "trace", dump], check=True, capture_output=True,
        text=True).stdout)
    events = [e for e in trace["traceEvents"] if e.get("ph") == "X"]
    first = min(events, key=lambda e: e["ts"])
    # Trace times are µs from the window's begin.
    gap, dur = first["ts"], first["dur"]
    sums = re.search(r"^Sum\s+([\d.]+)", table, re.M)
    total = re.search(r"^Total\s+([\d.]+)", table, re.M)
    if not (sums and total):
        sys.exit("no Sum and Total in the table:\n" + table)
    return gap, dur, float(sums.group(1)) / float(total.group(1))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--run", required=True)
    p.add_argument("--report", required=True)
    p.add_argument("--model", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--tries", type=int, default=5)
    p.add_argument("--fraction", type=float, default=0.25)
    args = p.parse_args()
    seen = []
    for i in range(args.tries):
        gap, dur, covered = one_run(args, os.path.join(args.out, str(i)))
        seen.append(f"gap {gap:.3f} us, first op {dur:.3f} us, "
                    f"Sum/Total {covered:.3f}")
        if gap < args.fraction * dur:
            print("ok: " + seen[-1])
            return
    sys.exit("the window's start-up lands before its first op in every "
             "run:\n  " + "\n  ".join(seen))


if __name__ == "__main__":
    main()
