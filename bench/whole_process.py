#!/usr/bin/env python3
"""Whole-process cost of keeping every record (docs/performance.md, "Whole
process"): bench/whole_process.c's tiny function called N times (default
5 M), built and run three ways, side by side in one run:

  plain     uninstrumented, for scale;
  tpuprof   the function annotated, compiled with clang-19 -fpass-plugin,
            run with TPUPROF_ENABLE=1 and TPUPROF_RECORD_SIZE above N: every
            call's record reaches the finished dump;
  XRay FDR  the function always instrumented (-fxray-instrument), run with
            XRAY_OPTIONS=patch_premain=true xray_mode=xray-fdr (its records
            stay in memory: it writes no file).

A figure is the process's CPU time (user + system, from wait4), the median
over --runs rounds; the rounds interleave the variants so that drift hits
all alike. Each tpuprof dump is checked (N records, none dropped, as
tpuprof-report reads it) and removed. The target is tpuprof's CPU time
<= 0.5 x XRay FDR's.

    python3 bench/whole_process.py BUILD_DIR [--runs R] [--calls N] [--dir D]

Prints a table and one `suite|store|...` line per figure for bench/suite.py.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
# The export's keys, from their one definition (python/tpuprof/_keys.py).
sys.path.insert(0, os.path.join(HERE, os.pardir, "python"))
from tpuprof._keys import Top, Totals  # noqa: E402
CLANG = "/usr/lib/llvm-19/bin/clang"


def build(build_dir, work):
    src = os.path.join(HERE, "whole_process.c")
    lib = os.path.join(os.path.abspath(build_dir), "lib")
    out = {n: os.path.join(work, n) for n in ("plain", "tpuprof", "xray")}
    cmds = [
        [CLANG, "-O2", src, "-o", out["plain"]],
        [CLANG, "-O2", "-DBENCH_TPUPROF",
         "-fpass-plugin=" + os.path.join(lib, "TpuProfilePlugin.so"), src,
         "-L" + lib, "-ltpuprof_rt", "-Wl,-rpath," + lib, "-o",
         out["tpuprof"]],
        [CLANG, "-O2", "-DBENCH_XRAY", "-fxray-instrument", src, "-o",
         out["xray"]],
    ]
    for c in cmds:
        subprocess.run(c, check=True)
    return out


def dump_records(build_dir, path):
    """(records, dropped) of a dump, as tpuprof-report reads it: the totals
    of its JSON export."""
    report = os.path.join(os.path.abspath(build_dir), "bin", "tpuprof-report")
    out = subprocess.run([report, "export", "--format", "json", "-o", "-", path],
                         check=True, stdout=subprocess.PIPE).stdout
    totals = json.loads(out)[Top.TOTALS]
    return totals[Totals.RECORDS], totals[Totals.DROPPED]


def run(argv, env, cwd):
    """(cpu, user, sys) seconds of one run."""
    e = dict(os.environ)
    e.update(env)
    err_path = os.path.join(cwd, "stderr")
    old = os.getcwd()
    os.chdir(cwd)
    try:
        pid = os.posix_spawn(argv[0], argv, e, file_actions=[
            (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
            (os.POSIX_SPAWN_OPEN, 2, err_path,
             os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)])
    finally:
        os.chdir(old)
    _, status, ru = os.wait4(pid, 0)
    if status != 0:
        with open(err_path) as f:
            raise SystemExit(f"{argv[0]} failed ({status}): {f.read().strip()}")
    return ru.ru_utime + ru.ru_stime, ru.ru_utime, ru.ru_stime


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build", help="tpuprof build directory")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--calls", type=int, default=5000000)
    ap.add_argument("--dir", help="where the dumps go (default: a temporary "
                    "directory in the build directory)")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="whole-process-",
                            dir=os.path.abspath(args.build))
    dumps = os.path.abspath(args.dir) if args.dir else os.path.join(work, "d")
    os.makedirs(dumps, exist_ok=True)
    try:
        exe = build(args.build, work)
        n = str(args.calls)
        variants = [
            ("plain", [exe["plain"], n], {}),
            ("tpuprof", [exe["tpuprof"], n],
             {"TPUPROF_ENABLE": "1", "TPUPROF_OUTPUT": dumps,
              "TPUPROF_RECORD_SIZE": str(args.calls + 16)}),
            ("XRay FDR", [exe["xray"], n],
             {"XRAY_OPTIONS": "patch_premain=true xray_mode=xray-fdr "
                              "verbosity=0"}),
        ]
        times = {name: [] for name, _, _ in variants}
        for _ in range(args.runs + 1):  # The first round warms caches.
            for name, argv, env in variants:
                times[name].append(run(argv, env, work))
                for f in os.listdir(dumps):
                    p = os.path.join(dumps, f)
                    records, dropped = dump_records(args.build, p)
                    if records != args.calls or dropped:
                        raise SystemExit(f"{p}: {records} records, {dropped} "
                                         f"dropped (expected {args.calls}, 0)")
                    os.remove(p)
                left = [f for f in os.listdir(work)
                        if f.startswith("xray-log")]
                if left:
                    raise SystemExit(f"XRay wrote {left}: not in memory only")
        med = {k: [statistics.median(r[i] for r in v[1:]) for i in range(3)]
               for k, v in times.items()}
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print(f"whole process: {args.calls} calls of a tiny function, "
          f"{args.runs} rounds, dumps in {dumps}")
    print(f"  {'variant':12} {'cpu ms':>9} {'user ms':>9} {'sys ms':>9}")
    for k, (cpu, user, sys_) in med.items():
        print(f"  {k:12} {cpu * 1e3:9.1f} {user * 1e3:9.1f} {sys_ * 1e3:9.1f}")
    tp, xr = med["tpuprof"][0], med["XRay FDR"][0]
    ratio = tp / xr
    verdict = "met" if ratio <= 0.5 else "NOT met"
    print(f"  ratio tpuprof / XRay FDR (CPU time): {ratio:.3f}   target <= "
          f"0.5: {verdict}")
    per_call = (tp - med["plain"][0]) / args.calls * 1e9
    print(f"  tpuprof per call over plain: {per_call:.1f} ns")
    mcalls = f"{args.calls / 1e6:g} M"
    print(f"suite|store|whole process, {mcalls} calls keeping every record, "
          f"CPU|{tp * 1e3:.1f}|XRay FDR|{xr * 1e3:.1f}|ms|{ratio:.3f}|"
          f"<= 0.5x|{verdict}")
    print(f"suite|store|whole process, {mcalls} calls, uninstrumented CPU|"
          f"{med['plain'][0] * 1e3:.1f}|||ms|||n/a")


if __name__ == "__main__":
    sys.exit(main())
