#!/usr/bin/env python3
"""Runs ONNX's own backend tests (Debian's libonnx-testdata) through
tpuprof-run: every test of node/, pytorch-converted/, pytorch-operator/ and
simple/ whose op types tpuprof-import all claims (`tpuprof-import
--list-ops`) is imported and run with `tpuprof-run model.onnx --data
test_data_set_0` (probes on, ONNX's tolerances rtol 1e-3, atol 1e-7).

Prints the coverage as a Markdown table (op type -> tests passed/total; a
test counts for its op type: the node's, or for a test of several nodes the
op type its name starts with) and each failure with its first error line.
Exits 1 when a test fails that EXCEPTIONS does not list, or passes while it
lists it.

    backend_tests.py --testdata /usr/share/libonnx-testdata/data \
        --bin build/bin [-j 2] [--exceptions FILE] [--filter REGEX]
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

import onnx

CATEGORIES = ["node", "pytorch-converted", "pytorch-operator", "simple"]


def snake(name):
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def primary_op(test, ops):
    """The op type a test counts for."""
    if len(ops) == 1:
        return ops[0]
    name = test[len("test_"):] if test.startswith("test_") else test
    matches = [op for op in set(ops) if name.startswith(snake(op))]
    return max(matches, key=len) if matches else "(" + ", ".join(sorted(set(ops))) + ")"


def read_exceptions(path):
    """`test_name  reason` lines; # starts a comment."""
    exceptions = {}
    if path:
        for line in open(path):
            line = line.split("#", 1)[0].strip()
            if line:
                name, _, reason = line.partition(" ")
                exceptions[name] = reason.strip()
    return exceptions


def run_one(args, category, test, workdir):
    model = os.path.join(args.testdata, category, test, "model.onnx")
    data = os.path.join(args.testdata, category, test, "test_data_set_0")
    out = os.path.join(workdir, category + "-" + test)
    cmd = [os.path.join(args.bin, "tpuprof-run"), model, "--data", data,
           "--repeat", "1", "--warmup", "0", "--output", out]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return False, "timed out"
    if proc.returncode == 0:
        return True, ""
    lines = [l for l in (proc.stderr + proc.stdout).splitlines()
             if "error" in l or "MISMATCH" in l]
    return False, (lines[0] if lines else "exit %d" % proc.returncode)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--testdata", required=True)
    parser.add_argument("--bin", required=True)
    parser.add_argument("-j", type=int, default=2)
    parser.add_argument("--exceptions")
    parser.add_argument("--filter", default="")
    args = parser.parse_args()

    claimed = set(subprocess.run(
        [os.path.join(args.bin, "tpuprof-import"), "--list-ops"],
        capture_output=True, text=True, check=True).stdout.split())
    exceptions = read_exceptions(args.exceptions)
    tests = []
    for category in CATEGORIES:
        root = os.path.join(args.testdata, category)
        if not os.path.isdir(root):
            continue
        for test in sorted(os.listdir(root)):
            model = os.path.join(root, test, "model.onnx")
            if not os.path.exists(model) or not re.search(args.filter, test):
                continue
            ops = [n.op_type for n in onnx.load(model, load_external_data=False).graph.node]
            if ops and set(ops) <= claimed:
                tests.append((category, test, primary_op(test, ops)))

    with tempfile.TemporaryDirectory() as workdir, \
            concurrent.futures.ThreadPoolExecutor(args.j) as pool:
        results = list(pool.map(lambda t: run_one(args, t[0], t[1], workdir), tests))

    by_op = {}
    unexpected = []
    for (category, test, op), (ok, why) in zip(tests, results):
        passed, total = by_op.get(op, (0, 0))
        by_op[op] = (passed + ok, total + 1)
        if not ok:
            known = exceptions.get(test)
            print("FAIL %s/%s (%s): %s%s" % (category, test, op, why,
                                             "  [known: %s]" % known if known else ""))
            if known is None:
                unexpected.append(test)
        elif test in exceptions:
            # The list says what fails now: a listed test that passes is
            # taken off it.
            print("STALE %s/%s: passes, but the exceptions list it" % (category, test))
            unexpected.append(test)
    print()
    print("| Op type | Passed / total |")
    print("|---|---|")
    for op in sorted(by_op):
        print("| %s | %d / %d |" % (op, *by_op[op]))
    passed = sum(ok for ok, _ in results)
    print()
    print("Passed %d of %d tests; %d unexpected failures" %
          (passed, len(results), len(unexpected)))  # stale ones count too
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
