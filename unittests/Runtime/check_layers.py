#!/usr/bin/env python3
"""Checks that the runtime's files use each other in one direction.

runtime/rt_internal.h lists the runtime's files from the bottom up, and a
file may use (call, read) only files before it in the list. This reads the
list and the objects' symbol tables (nm) and fails, naming each symbol,
where an object uses a symbol that an object at or after its place defines.

  check_layers.py --nm NM --order rt_internal.h OBJECT...
"""
import argparse
import os
import re
import subprocess
import sys


def layer_order(header):
    """The .c files of the header's file list, in order."""
    files, inside = [], False
    for line in open(header, encoding="utf-8"):
        if "split by concern" in line:
            inside = True
            continue
        if inside and "earlier lines are called" in line:
            break
        m = re.match(r"\|\*   (\S+)\s", line) if inside else None
        if m:
            name = m.group(1).split("/")[-1]
            if name.endswith(".c"):
                files.append(name)
    return files


def symbols(nm, obj):
    """(defined global, undefined) symbol names of `obj`."""
    out = subprocess.run([nm, obj], check=True, capture_output=True,
                         text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            undefined.add(parts[1])
        elif len(parts) == 3 and parts[1] in "TDBRVWC" and parts[1].isupper():
            defined.add(parts[2])
    return defined, undefined


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nm", required=True)
    ap.add_argument("--order", required=True)
    ap.add_argument("objects", nargs="+")
    args = ap.parse_args()
    order = layer_order(args.order)
    place = {name: i for i, name in enumerate(order)}
    by_file, definer = {}, {}
    for obj in args.objects:
        name = os.path.basename(obj)
        name = name[: -len(".o")] if name.endswith(".o") else name
        if name not in place:
            print(f"{name}: not in the file list of {args.order}")
            return 1
        by_file[name] = symbols(args.nm, obj)
        for sym in by_file[name][0]:
            definer[sym] = name
    if set(order) != set(by_file):
        print(f"the file list names {sorted(set(order) - set(by_file))} "
              f"that are not built")
        return 1
    bad = 0
    for name, (_, undefined) in sorted(by_file.items()):
        for sym in sorted(undefined):
            other = definer.get(sym)
            if other and place[other] >= place[name]:
                print(f"{name} uses {sym} of {other}, which comes after it")
                bad += 1
    print(f"{len(order)} files, {bad} calls against the order")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
