#!/usr/bin/env python3
"""Prints where an object's loops and large constants sit: each backward
branch's target as `loop FUNCTION line+N` (N: its offset in a 64-byte
line), each read-only data symbol of at least 4096 bytes as
`constant NAME page+N` (its offset in a 4096-byte page); and for each
function that moves 512-bit registers to or from its stack (spills) whether
its frame is aligned for them: `frame FUNCTION line+0` when its prologue
aligns %rsp to 64 bytes and no such move is an unaligned one, `line+?`
otherwise.

    placement.py LLVM_OBJDUMP LLVM_NM FILE [--constants-only]

A linked .so holds the C runtime's start-up code too: --constants-only
leaves its loops out.
"""
import re
import subprocess
import sys

objdump, nm, path = sys.argv[1:4]
constants_only = sys.argv[4:] == ["--constants-only"]


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True,
                          text=True).stdout


function = None
loops = set()
realigned, spills, unaligned = set(), set(), set()
listing = "" if constants_only else run(objdump, "-d", "--no-show-raw-insn",
                                       path)
for line in listing.splitlines():
    m = re.match(r"^([0-9a-f]+) <(.+)>:$", line)
    if m:
        function = m.group(2)
        continue
    if re.search(r"\band\w*\s+\$-(0x40|64|0x80|128), %rsp", line):
        realigned.add(function)
    m = re.search(r"\s(v\w+)\s+\S*(%zmm\d+, \S*\(%rsp\)|\(%rsp\), %zmm\d+)",
                  line)
    if m and function:
        spills.add(function)
        # Arithmetic may read a spill slot too (a folded reload): only
        # moves have aligned and unaligned forms.
        if re.match(r"vmov(ups|upd|dqu\d*)$", m.group(1)):
            unaligned.add(function)
    m = re.match(r"^\s*([0-9a-f]+):\s+j\w*\s+(?:0x)?([0-9a-f]+) <", line)
    if m and function:
        at, target = int(m.group(1), 16), int(m.group(2), 16)
        if target <= at:
            loops.add((target, function))
constants = []
for line in run(nm, "-S", path).splitlines():
    fields = line.split()
    if len(fields) == 4 and fields[2] in "rR" and int(fields[1], 16) >= 4096:
        constants.append((fields[3], int(fields[0], 16)))
if not loops and not constants_only:
    sys.exit(f"{path}: no loop")
for target, function in sorted(loops):
    print(f"loop {function} line+{target % 64}")
for function in sorted(spills):
    ok = function in realigned and function not in unaligned
    print(f"frame {function} line+{0 if ok else '?'}")
for name, address in sorted(constants):
    print(f"constant {name} page+{address % 4096}")
