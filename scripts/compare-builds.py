#!/usr/bin/env python3
"""Checks that two builds of tpuprof behave the same, byte for byte.

    python3 scripts/compare-builds.py OLD_BUILD NEW_BUILD [--keep DIR]

For a change that must not change behaviour (a refactor, a move, a rename):
build the commit before it into OLD_BUILD and the change into NEW_BUILD,
then run this. It compares
  - the IR tpuprof-opt prints for examples/*.mlir (instrumented, and
    instrumented and lowered) and for every `tpuprof-opt` RUN line of
    test/passes/mlir, with that line's options;
  - the IR opt-19 prints with each build's LLVM plugin for every `opt` RUN
    line of test/passes/llvm;
  - tpuprof-report's table, summary, export (json, csv), trace, stacks,
    graph and diff outputs on the runtime dumps in test/golden/Inputs/dumps
    and on dumps made once by OLD_BUILD's tpuprof-gen-dumps (flat, nested,
    with dynamic dims, several runs).
Exit status 0 when every output (stdout, stderr and the exit status) is the
same; otherwise it prints each difference's command and first differing
lines. test/golden pins a subset of these outputs in the test suite.
Outputs that embed a build's own path are compared with that path cut.
"""
import argparse
import difflib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LLVM_BIN = "/usr/lib/llvm-19/bin"


def run(argv, cwd, build):
    proc = subprocess.run(argv, cwd=cwd, capture_output=True, timeout=300)
    cut = os.fsencode(build)
    return (proc.returncode, proc.stdout.replace(cut, b"<build>"),
            proc.stderr.replace(cut, b"<build>"))


def run_lines(path, tool):
    """Yields the argument lists of `tool` in a lit file's RUN lines."""
    lines, cont = [], ""
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.search(r"RUN:\s?(.*)$", line)
            if not m:
                continue
            text = cont + m.group(1)
            if text.endswith("\\"):
                cont = text[:-1] + " "
                continue
            cont = ""
            lines.append(text)
    for text in lines:
        lexer = shlex.shlex(text, posix=True, punctuation_chars="|&;<>")
        lexer.whitespace_split = True
        stage, skip = [], False
        for word in list(lexer) + ["|"]:
            if skip:
                skip = False
            elif word in ("|", "||", "&&", ";", "&"):
                while stage and stage[0] in ("not", "env"):
                    stage = stage[1:]
                if stage and stage[0] == tool:
                    yield stage[1:]
                stage = []
            elif word in ("<", ">", ">>", ">&", "&>", "2>"):
                if stage and stage[-1].isdigit():
                    stage.pop()  # the fd of "2>&1"
                skip = True  # the redirection's target
            else:
                stage.append(word)


class Comparison:
    def __init__(self, old, new, work):
        self.old, self.new, self.work = old, new, work
        self.count = 0
        self.differences = 0

    def same(self, label, old_argv, new_argv, cwd):
        self.count += 1
        a = run(old_argv, cwd, self.old)
        b = run(new_argv, cwd, self.new)
        if a == b:
            return
        self.differences += 1
        print(f"DIFFERS: {label}")
        if a[0] != b[0]:
            print(f"  exit status {a[0]} -> {b[0]}")
        which = 1 if a[1] != b[1] else 2
        diff = difflib.unified_diff(
            a[which].decode(errors="replace").splitlines(),
            b[which].decode(errors="replace").splitlines(),
            "stdout" if which == 1 else "stderr", "", lineterm="", n=0)
        for i, line in enumerate(diff):
            if i >= 8:
                break
            print("  " + line[:200])

    def tpuprof_opt(self, label, args, cwd):
        self.same(label, [os.path.join(self.old, "bin/tpuprof-opt")] + args,
                  [os.path.join(self.new, "bin/tpuprof-opt")] + args, cwd)

    def report(self, label, args):
        cwd = os.path.join(self.work, "dumps")
        self.same(label, [os.path.join(self.old, "bin/tpuprof-report")] + args,
                  [os.path.join(self.new, "bin/tpuprof-report")] + args, cwd)


def substitute(args, path, tmp, build):
    subst = {"%s": path, "%t": tmp, "%S": os.path.dirname(path),
             "%tpuprof_plugin": os.path.join(build, "lib/TpuProfilePlugin.so")}
    out = []
    for a in args:
        for k in sorted(subst, key=len, reverse=True):
            a = a.replace(k, subst[k])
        out.append(a)
    return out


def compare_mlir(c):
    for name in sorted(os.listdir(os.path.join(SRC, "examples"))):
        if name.endswith(".mlir"):
            path = os.path.join("examples", name)
            c.tpuprof_opt(path + " instrument",
                          [path, "--tpu-profile-instrument"], SRC)
            c.tpuprof_opt(path + " instrument+lower",
                          [path, "--tpu-profile-instrument",
                           "--tpu-profile-lower"], SRC)
    tests = os.path.join(SRC, "test/passes/mlir")
    for name in sorted(os.listdir(tests)):
        path = os.path.join(tests, name)
        if not os.path.isfile(path):
            continue
        for i, args in enumerate(run_lines(path, "tpuprof-opt")):
            if "%s" not in " ".join(args):
                continue  # reads a pipe
            tmp = os.path.join(c.work, f"{name}.{i}.tmp")
            c.tpuprof_opt(f"test/passes/mlir/{name} RUN {i}",
                          substitute(args, path, tmp, c.old), c.work)


def compare_llvm(c):
    tests = os.path.join(SRC, "test/passes/llvm")
    opt = os.path.join(LLVM_BIN, "opt")
    for name in sorted(os.listdir(tests)):
        path = os.path.join(tests, name)
        if not name.endswith(".ll"):
            continue
        for i, args in enumerate(run_lines(path, "opt")):
            if "%s" not in " ".join(args):
                continue
            tmp = os.path.join(c.work, f"{name}.{i}.tmp")
            c.same(f"test/passes/llvm/{name} RUN {i}",
                   [opt] + substitute(args, path, tmp, c.old),
                   [opt] + substitute(args, path, tmp, c.new), c.work)


def compare_report(c):
    gen = os.path.join(c.old, "bin/tpuprof-gen-dumps")
    dumps = os.path.join(c.work, "dumps")
    sets = {
        "flat": ["--records", "3000", "--ops", "6"],
        "nested": ["--records", "3000", "--ops", "6", "--nest", "--dims"],
        "runs": ["--records", "2000", "--ops", "5", "--dumps", "4", "--runs",
                 "2", "--nthreads", "2"],
        "slow": ["--records", "2000", "--ops", "5", "--slow-op", "2",
                 "--slow-factor", "3"],
    }
    shutil.copytree(os.path.join(SRC, "test/golden/Inputs/dumps"), dumps,
                    dirs_exist_ok=True)
    for name, args in sets.items():
        subprocess.run([gen, "-o", os.path.join(dumps, name)] + args,
                       check=True, capture_output=True)
    for name in sorted(os.listdir(dumps)):
        c.report(f"table {name}", ["table", name])
        c.report(f"table --stats --work {name}",
                 ["table", "--stats", "--work", "--by", "name", name])
        c.report(f"table --merge-runs --no-overhead-correction {name}",
                 ["table", "--merge-runs", "--no-overhead-correction", name])
        c.report(f"summary {name}", ["summary", name])
        for fmt in ("json", "csv"):
            c.report(f"export {fmt} {name}",
                     ["export", "--format", fmt, "-o", "-", name])
        c.report(f"trace {name}", ["trace", "-o", "-", name])
        c.report(f"stacks {name}", ["stacks", "-o", "-", name])
        c.report(f"speedscope {name}",
                 ["stacks", "--format", "speedscope", "-o", "-", name])
        c.report(f"graph {name}", ["graph", "-o", "-", name])
    c.report("diff flat slow", ["diff", "flat", "slow"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old_build")
    ap.add_argument("new_build")
    ap.add_argument("--keep", help="work in this directory and keep it")
    ap.add_argument("--only", choices=["mlir", "llvm", "report"])
    args = ap.parse_args()
    old, new = os.path.abspath(args.old_build), os.path.abspath(args.new_build)
    work = args.keep or tempfile.mkdtemp(prefix="tpuprof-compare-")
    os.makedirs(work, exist_ok=True)
    c = Comparison(old, new, work)
    if args.only in (None, "mlir"):
        compare_mlir(c)
    if args.only in (None, "llvm"):
        compare_llvm(c)
    if args.only in (None, "report"):
        compare_report(c)
    print(f"{c.count - c.differences} same, {c.differences} differ")
    return 1 if c.differences else 0


if __name__ == "__main__":
    sys.exit(main())
