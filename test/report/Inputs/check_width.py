#!/usr/bin/env python3
"""Prints the widest line of a table that a tool printed on a terminal
(ANSI colours and the terminal's carriage returns left out) and fails when
it is wider than WIDTH. Only the table's own lines count: the rows, the
rule, Sum and Total (the configuration block is not fitted)."""
import re
import sys

path, width = sys.argv[1], int(sys.argv[2])
widest = 0
in_table = False
for line in open(path, encoding="utf-8", errors="replace"):
    line = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", line).rstrip("\r\n")
    if line.startswith("Name "):
        in_table = True
    if in_table:
        widest = max(widest, len(line))
    if line.startswith("Total "):
        in_table = False
print("widest", widest)
sys.exit(1 if widest == 0 or widest > width else 0)
