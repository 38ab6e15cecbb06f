#!/usr/bin/env python3
"""Validates a tpuprof Chrome trace: well-formed JSON, X events strictly
nested per (pid, tid), timestamps relative (>= 0 and below --max-us), process
and thread names present, op events carry hash/shapes/location. Prints a
one-line summary; exits 1 with the reason on the first problem."""
import argparse, json, sys
from collections import defaultdict

ap = argparse.ArgumentParser()
ap.add_argument("trace")
ap.add_argument("--max-us", type=float, default=60e6)
ap.add_argument("--min-events", type=int, default=1)
a = ap.parse_args()

def fail(msg):
    print("check_trace: " + msg)
    sys.exit(1)

with open(a.trace) as f:
    doc = json.load(f)
events = doc["traceEvents"] if isinstance(doc, dict) else doc
tracks = defaultdict(list)
names = set()
for e in events:
    ph = e.get("ph")
    if ph == "M":
        names.add((e["name"], e["pid"], e.get("tid")))
    if ph != "X":
        continue
    if e.get("cat") == "external":
        continue
    ts, dur = e["ts"], e["dur"]
    if ts < 0 or ts > a.max_us or dur < 0:
        fail(f"event {e['name']} at {ts} us (dur {dur}) is not relative")
    if e.get("cat") == "op":
        for k in ("hash", "shapes", "location"):
            if k not in e["args"]:
                fail(f"op event {e['name']} has no args.{k}")
    tracks[(e["pid"], e["tid"])].append((ts, -dur, e["name"]))
count = 0
for (pid, tid), evs in tracks.items():
    if ("process_name", pid, None) not in names:
        fail(f"pid {pid} has no process_name")
    if ("thread_name", pid, tid) not in names:
        fail(f"tid {tid} of pid {pid} has no thread_name")
    evs.sort()
    stack = []
    for ts, negdur, name in evs:
        end = ts - negdur
        # Integer ns to avoid float noise.
        b, e = round(ts * 1000), round(end * 1000)
        while stack and stack[-1][1] <= b:
            stack.pop()
        if stack and e > stack[-1][1]:
            fail(f"{name} [{b}, {e}) ns overlaps {stack[-1][2]} ending at {stack[-1][1]}")
        stack.append((b, e, name))
        count += 1
if count < a.min_events:
    fail(f"{count} events, expected at least {a.min_events}")
print(f"check_trace: ok: {count} events on {len(tracks)} tracks")
