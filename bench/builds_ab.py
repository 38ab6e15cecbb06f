#!/usr/bin/env python3
"""Two builds of one model side by side, the way bench/kernel_overhead.py
judges its probes-off column, for any two .so files: how two pipelines, two
linkings of one object (code moved in its page) or two compilers compare.

    python3 bench/builds_ab.py BUILD A.so B.so [--runs 10] [--copies 4]
        [--seconds 1] [--data DIR]

Each of --runs processes takes --copies new copies of both files (a file's
page-cache pages are a placement of their own), odd processes copy and load B first, and `model_bench ab
--window off` calls A and B alternately. A process's figure is the mean of
its copies' median B/A - 1; the result is the mean over processes with its
95 % t interval: negative when B is faster.
"""
import argparse
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_overhead import env_without_profiling, tool  # noqa: E402
from kernel_overhead import ab, mean_interval, process_figure  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("build", help="tpuprof build directory (model_bench)")
    p.add_argument("a", help="the first build (.so)")
    p.add_argument("b", help="the second build (.so)")
    p.add_argument("--runs", type=int, default=10, help="processes")
    p.add_argument("--copies", type=int, default=4,
                   help="new copies of both files per process")
    p.add_argument("--seconds", type=float, default=1.0,
                   help="alternating calls per process")
    p.add_argument("--min-pairs", type=int, default=10)
    p.add_argument("--data", help="inputs (DIR/input_N.pb), else model_bench's")
    args = p.parse_args()
    bench = tool(args.build, "model_bench")
    env = env_without_profiling()
    figures = []
    with tempfile.TemporaryDirectory(prefix="tpuprof-builds-ab-") as work:
        for run in range(args.runs):
            first = "probed" if run % 2 else "plain"  # B is ab's second file
            pairs = []
            for k in range(args.copies):
                a = os.path.join(work, f"a.run{run}.{k}.so")
                b = os.path.join(work, f"b.run{run}.{k}.so")
                order = [(args.a, a), (args.b, b)]
                for src, dst in (order[::-1] if run % 2 else order):
                    shutil.copyfile(src, dst)
                pairs.append((a, b))
            result = ab(bench, pairs, args.data, args.seconds, args.min_pairs,
                        os.path.join(work, "dumps"), env, "off", first)
            figures.append(process_figure(result["ab"]))
            print(f"  run {run + 1}: {figures[-1]:+.2f} %", flush=True)
            for pair in pairs:
                for f in pair:
                    os.remove(f)
    m, lo, hi = mean_interval(figures)
    print(f"B against A: {m:+.2f} % (95 % CI {lo:+.2f} ... {hi:+.2f} %), "
          f"{args.runs} processes of {args.copies} copies")


if __name__ == "__main__":
    main()
