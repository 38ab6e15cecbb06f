#!/usr/bin/env python3
"""Checks tpuprof's device intervals against the API's own numbers.

  check_device.py --program OUT --trace TRACE.json --table TABLE.txt
                  --launch NAME --op NAME

OUT holds the program's lines "kernel <name> <seq> <queued> <submit>
<start> <end>" (device ns, from the API's own profiling). Checks, failing
with one line per problem:
  - the trace has one device track per queue ("thread_name" of a tid that
    carries only "device" slices) and a slice per kernel whose device_ns
    equals the API's end - start within 1 % or 1 us, in start order;
  - every device slice of a kernel has a flow arrow ("s" on the host
    thread at the begin of a launch slice named --launch, "f" on the device
    track at the kernel's start), and no kernel starts before its launch
    began (less the clock's error bound);
  - the table's --launch row has Device Total equal to the kernels' sum and
    its own host Duration next to it; the --op row's Device Total covers
    every device command of the trace.
"""
import argparse
import json
import sys


def close(a_ns, b_ns):
    return abs(a_ns - b_ns) <= max(0.01 * max(a_ns, b_ns), 1000)


def table_row(lines, name):
    """The cells of the table's row `name` by title, or None."""
    # Titles are separated by two or more blanks, as are cells.
    titles = [p.strip() for p in lines[0].split("  ") if p.strip()]
    for line in lines[1:]:
        if line.startswith(name + " "):
            cells = [c.strip() for c in line.split("  ") if c.strip()]
            return dict(zip(titles, cells))
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--program", required=True)
    ap.add_argument("--trace", required=True)
    ap.add_argument("--table", required=True)
    ap.add_argument("--launch", required=True)
    ap.add_argument("--op", required=True)
    ap.add_argument("--late-end-us", type=float, default=0,
                    help="how much later the API's own end may be: lavapipe "
                    "writes a timestamp at its next flush, and the program's "
                    "closing write flushes later than the dispatch's own")
    args = ap.parse_args()
    bad = []

    api = []
    for line in open(args.program):
        f = line.split()
        if f and f[0] == "kernel":
            api.append((f[1], int(f[5]), int(f[6])))
    api.sort(key=lambda k: k[1])
    if not api:
        print("no kernel lines in the program's output")
        return 1

    trace = json.load(open(args.trace))
    events = trace["traceEvents"]
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    device = [e for e in events if e.get("ph") == "X" and e.get("cat") == "device"]
    tracks = {(e["pid"], e["tid"]) for e in device}
    for t in tracks:
        if "queue" not in names.get(t, ""):
            bad.append(f"device track {t} has no queue name")
        if any(e.get("ph") == "X" and (e["pid"], e["tid"]) == t and
               e.get("cat") != "device" for e in events):
            bad.append(f"device track {t} holds host slices")
    if not tracks:
        bad.append("the trace has no device track")
    kernels = sorted((e for e in device if e["args"]["op"] == "kernel"),
                     key=lambda e: e["ts"])
    if [k["name"] for k in kernels] != [a[0] for a in api]:
        bad.append("device kernels %s, the API's %s" %
                   ([k["name"] for k in kernels], [a[0] for a in api]))
    for k, (name, start, end) in zip(kernels, api):
        device_ns, api_ns = k["args"]["device_ns"], end - start
        late = args.late_end_us * 1000
        if not (close(device_ns, api_ns) or api_ns - late <= device_ns <= api_ns):
            bad.append(f"{name}: device time {k['args']['device_ns']} ns, "
                       f"the API's {end - start} ns")

    launches = [e for e in events if e.get("ph") == "X" and
                e.get("name") == args.launch and e.get("cat") == "launch"]
    flows = {}
    for e in events:
        if e.get("ph") in ("s", "f"):
            flows.setdefault(e["id"], {})[e["ph"]] = e
    for k in kernels:
        flow = [f for f in flows.values() if "f" in f and
                (f["f"]["pid"], f["f"]["tid"]) == (k["pid"], k["tid"]) and
                f["f"]["ts"] == k["ts"]]
        if len(flow) != 1 or "s" not in flow[0]:
            bad.append(f"{k['name']} at {k['ts']}: no flow arrow from a launch")
            continue
        s = flow[0]["s"]
        if not any((l["pid"], l["tid"]) == (s["pid"], s["tid"]) and
                   l["ts"] == s["ts"] for l in launches):
            bad.append(f"{k['name']}: its flow starts in no {args.launch} slice")
        bound_us = k["args"].get("clock_error_ns", 0) / 1000.0
        if float(k["ts"]) < float(s["ts"]) - bound_us - 0.001:
            bad.append(f"{k['name']} starts at {k['ts']} us, before its "
                       f"launch at {s['ts']} us")
    if len(launches) != len(api):
        bad.append(f"{len(launches)} host {args.launch} slices, "
                   f"{len(api)} kernels")

    lines = open(args.table).read().splitlines()
    row = table_row(lines, args.launch)
    kernel_sum = sum(end - start for _, start, end in api)
    if not row:
        bad.append(f"no table row {args.launch}")
    else:
        if not close(float(row["Device Total (us)"]) * 1000, kernel_sum):
            bad.append(f"{args.launch}: Device Total {row['Device Total (us)']}"
                       f" us, the kernels' {kernel_sum / 1000:.2f} us")
        if "Duration (us)" not in row or row["Duration (us)"] == row["Device Total (us)"]:
            bad.append(f"{args.launch}: no host duration of its own")
    op = table_row(lines, args.op)
    all_ns = sum(e["args"]["device_ns"] for e in device)
    if not op or not close(float(op["Device Total (us)"]) * 1000, all_ns):
        bad.append(f"{args.op}: Device Total is not every command's "
                   f"{all_ns / 1000:.2f} us")
    for b in bad:
        print(b)
    print(f"{len(api)} kernels, {len(device)} device commands, "
          f"{len(bad)} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
