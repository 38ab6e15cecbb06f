#!/usr/bin/env python3
"""Cost of device timing per OpenCL launch on PoCL (docs/device.md,
docs/performance.md "Device timing"): bench/device_overhead.c built with
the LLVM plugin, run inside a window (TPUPROF_ENABLE=1, so the launch
probes record in every variant) three ways, alternating, --runs times:

  off   TPUPROF_DEVICE_TIMING=0: the wrappers only forward
  api   TPUPROF_DEVICE_TIMING=0, the program's own profiling: a queue with
        CL_QUEUE_PROFILING_ENABLE, an event per launch, START/END read
        after clFinish
  on    TPUPROF_DEVICE_TIMING=1: tpuprof's device timing

Each run prints the host time per launch of batches of launches (enqueues,
clFinish, the program's own reads); the figure of a variant is the median
over its runs of each run's fastest batch. Target: on - off <= 2 us.

    python3 bench/device_overhead.py BUILD_DIR [--runs N] [--launches N]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET_NS = 2000.0


def median_per_variant(cmd, tmp, runs):
    """Runs `cmd` (a program printing `batch_ns_per_launch N` lines) as the
    off, api and on variants, alternating, `runs` times; each variant's
    median over its runs of their fastest batch, in ns per launch."""
    variants = [("off", "0", []), ("api", "0", ["--own-profiling"]),
                ("on", "1", [])]
    best = {name: [] for name, _, _ in variants}
    for _ in range(runs):
        for name, timing, flags in variants:
            out = os.path.join(tmp, "out-" + name)
            env = dict(os.environ, TPUPROF_ENABLE="1", TPUPROF_OUTPUT=out,
                       TPUPROF_DEVICE_TIMING=timing)
            res = subprocess.run(cmd + flags, env=env, check=True,
                                 capture_output=True, text=True)
            for line in res.stdout.splitlines():
                f = line.split()
                if f and f[0] == "batch_ns_per_launch":
                    best[name].append(float(f[1]))
            shutil.rmtree(out, ignore_errors=True)
    return {name: statistics.median(v) for name, v in best.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--launches", type=int, default=20000)
    ap.add_argument("--batch", type=int, default=200)
    ap.add_argument("--clang", default="/usr/lib/llvm-19/bin/clang")
    args = ap.parse_args()
    lib = os.path.join(os.path.abspath(args.build), "lib")
    plugin = os.path.join(lib, "TpuProfilePlugin.so")
    tmp = tempfile.mkdtemp(prefix="tpuprof-device-bench-")
    try:
        prog = os.path.join(tmp, "device_overhead")
        subprocess.run([args.clang, "-O2", "-fpass-plugin=" + plugin,
                        os.path.join(ROOT, "bench", "device_overhead.c"),
                        "-o", prog, "-lOpenCL", "-L" + lib, "-ltpuprof_rt",
                        "-Wl,-rpath," + lib], check=True)
        fig = median_per_variant(
            [prog, "--launches", str(args.launches), "--batch", str(args.batch)],
            tmp, args.runs)
        over_off = fig["on"] - fig["off"]
        over_api = fig["on"] - fig["api"]
        verdict = "met" if over_off <= TARGET_NS else "NOT met"
        print(f"Device timing per OpenCL launch on PoCL, {args.launches} "
              f"launches in batches of {args.batch}, median of {args.runs} "
              f"runs' fastest batch, ns per launch; load average "
              f"{os.getloadavg()[0]:.2f}")
        print(f"  off {fig['off']:.0f}  api's own profiling {fig['api']:.0f}"
              f"  on {fig['on']:.0f}")
        print(f"  on - off {over_off:+.0f} ns (<= {TARGET_NS:.0f}: {verdict}),"
              f" on - api {over_api:+.0f} ns")
        print(f"suite|device|OpenCL launch, device timing on|{fig['on']:.0f}|"
              f"device timing off|{fig['off']:.0f}|ns|"
              f"{fig['on'] / fig['off']:.4f}|<= {TARGET_NS / 1000:g} us over|"
              f"{verdict}")
        print(f"suite|device|OpenCL launch, device timing on|{fig['on']:.0f}|"
              f"the API's own profiling|{fig['api']:.0f}|ns|"
              f"{fig['on'] / fig['api']:.4f}|n/a|n/a")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
