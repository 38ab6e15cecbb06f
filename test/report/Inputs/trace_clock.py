#!/usr/bin/env python3
"""Shifts a Chrome trace onto a dump's clock, or checks where it landed.

  trace_clock.py realtime TRACE DUMP OUT   TRACE's timestamps, from its own
      start, moved onto CLOCK_REALTIME at DUMP's window begin (its PROCESS
      section's pair 0): a trace as Kineto writes it
  trace_clock.py check MERGED NAME_PREFIX BOUND_US
      the merged trace's events named NAME_PREFIX* begin within BOUND_US of
      the first window's begin (ts 0) and none before it
"""
import json
import struct
import sys


def process_pair(path):
    """(realtime_ns0, monotonic_ns0) of the dump's PROCESS section."""
    data = open(path, "rb").read()
    header_size, = struct.unpack_from("<I", data, 12)
    sections, = struct.unpack_from("<I", data, 96)
    off = header_size
    for _ in range(sections):
        kind, _, size = struct.unpack_from("<IIQ", data, off)
        if kind == 6:  # TPUPROF_SECTION_PROCESS
            return struct.unpack_from("<QQ", data, off + 16 + 144)
        off += 16 + size
    sys.exit("trace_clock.py: %s has no PROCESS section" % path)


def events(doc):
    return doc["traceEvents"] if isinstance(doc, dict) else doc


def main():
    if sys.argv[1] == "realtime":
        trace, dump, out = sys.argv[2:5]
        doc = json.load(open(trace))
        realtime0, _ = process_pair(dump)
        first = min(float(e["ts"]) for e in events(doc) if "ts" in e)
        for e in events(doc):
            if "ts" in e:
                e["ts"] = float(e["ts"]) - first + realtime0 / 1000.0
        json.dump(doc, open(out, "w"))
        return
    merged, prefix, bound = sys.argv[2], sys.argv[3], float(sys.argv[4])
    ts = [float(e["ts"]) for e in events(json.load(open(merged)))
          if str(e.get("name", "")).startswith(prefix) and "ts" in e]
    if not ts:
        sys.exit("trace_clock.py: no event named %s*" % prefix)
    if not (-bound <= min(ts) <= bound):
        sys.exit("trace_clock.py: first %s* event at %.1f us, not within %g us of the window's begin"
                 % (prefix, min(ts), bound))
    print("ok: %d events, first at %.1f us" % (len(ts), min(ts)))


if __name__ == "__main__":
    main()
