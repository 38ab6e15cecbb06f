#!/usr/bin/env python3
"""Prints the widest line of a terminal capture (script(1)'s output) without
its ANSI escapes and without the progress bar's lines: what a person sees."""
import re
import sys

text = open(sys.argv[1], encoding="latin-1").read()
lines = [re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", l) for l in re.split(r"[\r\n]", text)]
lines = [l for l in lines if not l.startswith("tpuprof-report: ")]
print("widest", max(len(l) for l in lines))
