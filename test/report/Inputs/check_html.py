#!/usr/bin/env python3
"""Validates a `tpuprof-report html` page without a browser: one file with no
external reference (no src/href/url(), a CSP with default-src 'none'), exactly
the page's own two <script> elements, and the JSON data parsing back to rows,
lanes and a timeline that agree with each other. Prints one summary line and
the decoded fields asked for with --show; exits 1 with the reason on the
first problem."""
import argparse, json, re, sys

ap = argparse.ArgumentParser()
ap.add_argument("page")
ap.add_argument("--rows", type=int)
ap.add_argument("--mode", choices=["events", "buckets"])
ap.add_argument("--show", action="append", default=[],
                help="print names: rows, ir, diff, title, locations")
a = ap.parse_args()


def fail(msg):
    print("check_html: " + msg)
    sys.exit(1)


with open(a.page, encoding="utf-8") as f:
    page = f.read()

m = re.search(r'<script type="application/json" id="tpuprof-data">(.*?)</script>', page, re.S)
if not m:
    fail("no tpuprof-data element")
raw = m.group(1)
for ch in "<>&\u2028\u2029":
    if ch in raw:
        fail(f"data holds an unescaped {ch!r}")
if len(re.findall(r"</script", page, re.I)) != 2:
    fail("the page does not have exactly two </script> tags")
if len(re.findall(r"<script", page, re.I)) != 2:
    fail("the page does not have exactly two <script> tags")
outside = page.replace(raw, "")
if re.search(r"\b(src|href)\s*=|url\(|https?://|@import", outside, re.I):
    fail("the page refers to something outside itself")
if "default-src 'none'" not in outside or "script-src 'sha256-" not in outside:
    fail("no Content-Security-Policy limiting scripts and the network")
data = json.loads(raw)
if data.get("format") != "tpuprof-html":
    fail("data format is not tpuprof-html")

rows = data["rows"]
if a.rows is not None and len(rows) != a.rows:
    fail(f"{len(rows)} rows, expected {a.rows}")
tl = data["timeline"]
if a.mode and tl["mode"] != a.mode:
    fail(f"timeline mode {tl['mode']}, expected {a.mode}")
if len(tl["lanes"]) != len(data["lanes"]):
    fail("timeline lanes and lanes differ in number")
sites = data["sites"]
for s in sites:
    if not (0 <= s[0] < len(rows)) or not (0 <= s[1] < max(1, len(rows[s[0]]["locations"]))):
        fail(f"site {s} points nowhere")
events = 0
if tl["mode"] == "events":
    per_row = [0] * len(rows)
    for lane in tl["lanes"]:
        n = len(lane["dur"])
        if not (len(lane["begin"]) == len(lane["depth"]) == len(lane["site"]) == n):
            fail("event columns differ in length")
        t = 0
        for i in range(n):
            t += lane["begin"][i]
            if t + lane["dur"][i] > tl["spanNs"]:
                fail("an event ends after the timeline")
            per_row[sites[lane["site"][i]][0]] += 1
        events += n
    for r, n in zip(rows, per_row):
        if n != r["count"] + r["unfinished"]:
            fail(f"row {r['name']} has {r['count']}+{r['unfinished']} records but {n} events")
else:
    busy = sum(sum(lane["busy"]) for lane in tl["lanes"])
    lanes_busy = sum(sum(lane["byKind"]) for lane in data["lanes"])
    if busy != lanes_busy:
        fail(f"buckets hold {busy} busy ns, the lanes {lanes_busy}")
    if busy != data["totals"]["covered_ns"]:
        fail(f"buckets hold {busy} busy ns, the table's Sum is {data['totals']['covered_ns']}")
    events = sum(sum(lane["count"]) for lane in tl["lanes"])
if events != data["totals"]["records"] or events != tl["events"]:
    fail(f"timeline has {events} records, totals say {data['totals']['records']}")

print(f"check_html: ok: {len(rows)} rows, {len(data['lanes'])} lanes, {events} records, "
      f"timeline {tl['mode']}, ir {'yes' if data.get('ir') else 'no'}, "
      f"diff {'yes' if data.get('diff') else 'no'}")
for what in a.show:
    if what == "rows":
        for r in sorted(rows, key=lambda r: r["name"]):
            print(f"row: {r['name']} count={r['count']} lines={r['lines']}")
    elif what == "locations":
        for r in rows:
            for loc in r["locations"]:
                print(f"location: {loc}")
    elif what == "ir":
        print(f"ir: {data['ir']['path']} {len(data['ir']['lines'])} lines")
    elif what == "diff":
        for r in sorted(data["diff"]["rows"], key=lambda r: (r["name"], r["shapes"])):
            print(f"diff: {r['name']} {r['status']} {r['baselineCount']} -> {r['count']}")
    elif what == "title":
        t = re.search(r"<title>(.*?)</title>", page, re.S)
        print(f"title: {t.group(1) if t else ''}")
