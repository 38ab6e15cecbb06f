#!/usr/bin/env python3
"""Cost of device timing per Vulkan dispatch on lavapipe (docs/device.md,
docs/performance.md "Device timing"): bench/device_overhead_vulkan.c built
with the LLVM plugin, its kernel bench/tiny.comp compiled by
glslangValidator, run inside a window (TPUPROF_ENABLE=1, so the submit
probes record in every variant) three ways, alternating, --runs times:

  off   TPUPROF_DEVICE_TIMING=0: the wrappers only forward
  api   TPUPROF_DEVICE_TIMING=0, the program's own profiling: a timestamp
        pair around each dispatch, read after vkQueueWaitIdle
  on    TPUPROF_DEVICE_TIMING=1: tpuprof's device timing

Each run prints the host time per dispatch of batches (recording each
dispatch in its own command buffer, submitting it, the wait, the program's
own reads); the figure of a variant is the median over its runs of each
run's fastest batch.

    python3 bench/device_overhead_vulkan.py BUILD_DIR [--runs N] [--launches N]
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from device_overhead import median_per_variant  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


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
    tmp = tempfile.mkdtemp(prefix="tpuprof-vulkan-bench-")
    try:
        prog = os.path.join(tmp, "device_overhead_vulkan")
        spv = os.path.join(tmp, "tiny.spv")
        subprocess.run(["glslangValidator", "-V", "-o", spv,
                        os.path.join(ROOT, "bench", "tiny.comp")], check=True,
                       stdout=subprocess.DEVNULL)
        subprocess.run([args.clang, "-O2", "-fpass-plugin=" + plugin,
                        os.path.join(ROOT, "bench", "device_overhead_vulkan.c"),
                        "-o", prog, "-lvulkan", "-L" + lib, "-ltpuprof_rt",
                        "-Wl,-rpath," + lib], check=True)
        fig = median_per_variant(
            [prog, spv, "--launches", str(args.launches), "--batch",
             str(args.batch)], tmp, args.runs)
        over_off = fig["on"] - fig["off"]
        over_api = fig["on"] - fig["api"]
        print(f"Device timing per Vulkan dispatch on lavapipe, "
              f"{args.launches} dispatches in batches of {args.batch}, median of {args.runs} "
              f"runs' fastest batch, ns per dispatch; load average "
              f"{os.getloadavg()[0]:.2f}")
        print(f"  off {fig['off']:.0f}  api's own profiling {fig['api']:.0f}"
              f"  on {fig['on']:.0f}")
        print(f"  on - off {over_off:+.0f} ns, on - api {over_api:+.0f} ns")
        print(f"suite|device|Vulkan dispatch, device timing on|{fig['on']:.0f}|"
              f"device timing off|{fig['off']:.0f}|ns|"
              f"{fig['on'] / fig['off']:.4f}|n/a|n/a")
        print(f"suite|device|Vulkan dispatch, device timing on|{fig['on']:.0f}|"
              f"the API's own profiling|{fig['api']:.0f}|ns|"
              f"{fig['on'] / fig['api']:.4f}|n/a|n/a")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
