#!/usr/bin/env python3
"""Prints, for each loop function (`*_loop`, `*_loop_N`) of two objects,
`loop NAME page+N same|differs`: N its offset in a 4096-byte page (in the
first object) and whether its instructions are the same in both, addresses
and relocated constants aside.

    loop_pages.py LLVM_OBJDUMP PLAIN.o PROBED.o
"""
import re
import subprocess
import sys

objdump, plain, probed = sys.argv[1:4]


def functions(path):
    """{name: (address, [instruction text])} of the loop functions."""
    listing = subprocess.run([objdump, "-d", "--no-show-raw-insn", path],
                             check=True, capture_output=True,
                             text=True).stdout
    found, name = {}, None
    for line in listing.splitlines():
        m = re.match(r"^([0-9a-f]+) <(.+)>:$", line)
        if m:
            name = m.group(2) if re.search(r"_loop(_\d+)?$", m.group(2)) \
                else None
            if name:
                found[name] = (int(m.group(1), 16), [])
            continue
        m = re.match(r"^\s*[0-9a-f]+:\s+(.*)$", line)
        if name and m:
            # Branch targets and the offsets of globals (weights move with
            # the code before them) are not the instructions.
            text = re.sub(r"\b(0x)?[0-9a-f]+ <[^>]*>", "ADDR", m.group(1))
            text = re.sub(r"\$0x[0-9a-f]+", "$IMM", text)
            found[name][1].append(text)
    return found


a, b = functions(plain), functions(probed)
for name, (address, code) in sorted(a.items()):
    same = name in b and b[name][1] == code
    print(f"loop {name} page+{address % 4096} {'same' if same else 'differs'}")
print(f"loops {len(a)} {len(b)}")
