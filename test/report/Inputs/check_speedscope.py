#!/usr/bin/env python3
"""Checks a `tpuprof-report stacks --format speedscope` file against
speedscope's file format (https://www.speedscope.app/file-format-schema.json):
schema, shared frames, one sampled profile whose samples index the frames and
whose weights are nanoseconds adding up to endValue."""
import json
import sys

f = json.load(open(sys.argv[1]))


def fail(msg):
    sys.exit(f"check_speedscope: FAIL: {msg}")


if f.get("$schema") != "https://www.speedscope.app/file-format-schema.json":
    fail("no $schema")
frames = f["shared"]["frames"]
if not all(isinstance(fr.get("name"), str) for fr in frames):
    fail("a frame has no name")
profiles = f["profiles"]
if len(profiles) != 1 or profiles[0]["type"] != "sampled":
    fail("expected one sampled profile")
p = profiles[0]
if p["unit"] != "nanoseconds":
    fail(f"unit {p['unit']}")
if len(p["samples"]) != len(p["weights"]) or not p["samples"]:
    fail("samples and weights differ in length")
for s in p["samples"]:
    if not s or not all(0 <= i < len(frames) for i in s):
        fail(f"sample {s} does not index the frames")
if sum(p["weights"]) != p["endValue"] or p["startValue"] != 0:
    fail("weights do not add up to endValue")
roots = sorted({frames[s[0]]["name"] for s in p["samples"]})
print(f"check_speedscope: ok: unit {p['unit']}, {len(p['samples'])} stacks, "
      f"roots {', '.join(roots)}")
