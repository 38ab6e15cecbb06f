#!/usr/bin/env python3
"""Runs every public function of an MLIR file through tpuprof-run, one op per
function, and prints one line per function:

    PASS <function> <op> <note>      or      FAIL <function> <why>

A function `@<dialect>_<op>__<variant>` (e.g. `@tosa_conv2d__i8`) holds one
`<dialect>.<op>` and whatever constants it needs. For each function:

  1. the optimizing built-in pipeline with probes: the table has a row for
     the op, called once per call (ops nested in its regions may add rows);
  2. the same without probes: results identical, value for value;
  3. the naive built-in pipeline without probes: results equal to 1e-4
     (relative; floats are summed in another order and tanh, erf, exp, log,
     sin and cos are polynomial approximations in the optimizing one);
     integers and NaNs alike;
  4. with --both-instrumented, the naive pipeline with probes too: results
     identical to 3.

A `// ARGS: ...` line right before a function gives it tpuprof-run options
(e.g. --input values). Exits 1 if anything failed.

    op_suite.py TPUPROF_RUN FILE OUTDIR [--both-instrumented]
"""
import argparse
import math
import os
import re
import shlex
import subprocess
import sys

FUNC = re.compile(r"^(?:// ARGS: (?P<args>.*)\n)?func\.func @(?P<name>\w+)\(",
                  re.M)
RESULT = re.compile(r"^result #\d+: (?P<type>.*) hash=\S+\n  \[(?P<values>.*)\]$",
                    re.M)
CELLS = re.compile(r"\s{2,}")


def table_counts(text):
    """Count per row name of the table tpuprof-run prints (cells are
    separated by two or more spaces)."""
    counts, column = {}, None
    for line in text.splitlines():
        cells = CELLS.split(line.strip())
        if column is None:
            if cells[0] == "Name" and "Count" in cells:
                column = cells.index("Count")
        elif line.startswith("-"):
            break
        elif len(cells) > column:
            counts[cells[0]] = int(cells[column])
    return counts
CALLS = 2


def run(tool, args):
    p = subprocess.run([tool] + args, capture_output=True, text=True)
    if p.returncode != 0:
        lines = (p.stderr.strip() or p.stdout.strip() or "no output").splitlines()
        raise RuntimeError(f"exit {p.returncode}: {lines[-1]}")
    return p.stdout


def results(text):
    """[(type, [value strings])] of a --print-result output."""
    return [(m["type"], m["values"].split(", ") if m["values"] else [])
            for m in RESULT.finditer(text)]


def close(a, b):
    if a == b:
        return True
    try:
        x, y = float(a), float(b)
    except ValueError:
        return False
    if math.isnan(x) and math.isnan(y):
        return True
    if math.isinf(x) or math.isinf(y):
        return x == y
    return abs(x - y) <= 1e-4 * max(1.0, abs(x), abs(y))


def check(tool, path, name, extra, outdir, both):
    op = name.split("__")[0].replace("_", ".", 1)
    common = [path, "--entry", name, "--print-result", "--result-values", "0",
              "--repeat", str(CALLS), "--warmup", "0"] + extra
    # Graph probes: one row per op, named as the function says.
    profiled = run(tool, common + ["--probe-level=graph", "--output",
                                   os.path.join(outdir, name)])
    rows = table_counts(profiled)
    if op not in rows:
        return f"no row for {op} (rows: {', '.join(rows) or 'none'})"
    if rows[op] != CALLS:
        return f"{op} has Count {rows[op]}, want {CALLS}"
    plain = run(tool, common + ["--no-instrument"])
    got, want = results(profiled), results(plain)
    if not want or got != want:
        return "results with probes differ from those without"
    naive = run(tool, common + ["--no-instrument", "--pipeline",
                                "tpu-profile-cpu-naive"])
    reference = results(naive)
    if [t for t, _ in reference] != [t for t, _ in want]:
        return "the naive pipeline's results have other types"
    for (_, a), (_, b) in zip(want, reference):
        if len(a) != len(b) or not all(close(x, y) for x, y in zip(a, b)):
            return "results differ from the naive pipeline's"
    if both:
        naive_profiled = run(tool, common + ["--pipeline", "tpu-profile-cpu-naive",
                                             "--output",
                                             os.path.join(outdir, name + "-naive")])
        if results(naive_profiled) != reference:
            return "naive results with probes differ from those without"
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tool")
    ap.add_argument("file")
    ap.add_argument("outdir")
    ap.add_argument("--both-instrumented", action="store_true")
    args = ap.parse_args()
    text = open(args.file).read()
    failed = 0
    for m in FUNC.finditer(text):
        name = m["name"]
        extra = shlex.split(m["args"] or "")
        try:
            why = check(args.tool, args.file, name, extra, args.outdir,
                        args.both_instrumented)
        except RuntimeError as e:
            why = str(e)
        op = name.split("__")[0].replace("_", ".", 1)
        if why:
            failed += 1
            print(f"FAIL {name} {why}")
        else:
            print(f"PASS {name} {op}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
