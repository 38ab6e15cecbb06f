#!/usr/bin/env python3
"""Kernel and graph probes against no probes: time per inference of the
same model built by the same pipeline (docs/performance.md, "Kernel probes
against no probes").

Each model is JIT-compiled by tpuprof-run three times with the built-in
optimizing pipeline: without probes (--no-instrument), with kernel probes
(--probe-level=kernel, the default: after fusion, one per kernel) and with
graph probes (--probe-level=graph: one per source op, which stops fusion).
The instrumented builds run with the window open (mode 0, timing), as a
profiling run does. A run's figure is its fastest call (tpuprof-run
--time); runs alternate between the builds and each figure is the minimum
over --runs runs, as in bench/e2e_overhead.py (other tenants only add
time). Models: the bundled examples (mlp.mlir at batch 64 and 1,
convnet.mlir at batch 8 and 1, elementwise-chain.mlir) and
test/run/Inputs/fused-calls.mlir (two called functions and a chain of four
elementwise ops on 256x256 floats).

Separate processes per build cannot resolve 1 % on a shared machine: the
target (kernel probes within 1 % of no probes) is judged by
bench/kernel_overhead.py, which calls both builds alternately in one
process. This bench shows what the level does to the program: graph probes
stop fusion, kernel probes do not.

    python3 bench/probe_levels.py BUILD_DIR [--runs N]

Besides the table it prints one `suite|levels|...` line per figure for
bench/suite.py.
"""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_overhead import batched, env_without_profiling, run_model, tool  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# (label, file, batch, calls per run, judged)
CASES = [("mlp", "examples/mlp.mlir", 64, 300, True),
         ("mlp", "examples/mlp.mlir", 1, 3000, False),
         ("convnet", "examples/convnet.mlir", 8, 200, True),
         ("convnet", "examples/convnet.mlir", 1, 1000, False),
         ("elementwise-chain", "examples/elementwise-chain.mlir", 1, 2000, True),
         ("fused-calls", "test/run/Inputs/fused-calls.mlir", 1, 1000, True)]
BUILDS = [("none", ["--no-instrument"]),
          ("kernel", ["--probe-level=kernel", "--mode", "0"]),
          ("graph", ["--probe-level=graph", "--mode", "0"])]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build", help="tpuprof build directory")
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    run = tool(args.build, "tpuprof-run")
    env = env_without_profiling()

    tmp = tempfile.mkdtemp(prefix="tpuprof-probe-levels-")
    print(f"Time per inference by probe level: min of {args.runs} alternating "
          f"runs of each run's fastest call, ms; load average "
          f"{os.getloadavg()[0]:.2f}")
    print(f"  {'model':26} {'no probes':>10} {'kernel':>10} {'ratio':>7} "
          f"{'graph':>10} {'ratio':>7}")
    lines = []
    for name, src, batch, repeat, judged in CASES:
        model = batched(os.path.join(ROOT, src), batch, tmp)
        times = {build: [] for build, _ in BUILDS}
        for _ in range(args.runs):
            for build, flags in BUILDS:
                cmd = [run, model, "--time", "--repeat", str(repeat),
                       "--warmup", "5", "--output", os.path.join(tmp, "dumps")]
                times[build].append(run_model(cmd + flags, env))
        none, kernel, graph = (min(times[b]) for b, _ in BUILDS)
        kr, gr = kernel / none, graph / none
        # Judged by bench/kernel_overhead.py (see the docstring).
        verdict = "n/a"
        label = f"{name} batch {batch}"
        print(f"  {label:26} {none:10.4f} {kernel:10.4f} {kr:7.4f} "
              f"{graph:10.4f} {gr:7.4f}  "
              f"{'(kernel_overhead.py judges)' if judged else '(reported)'}")
        lines.append(f"suite|levels|{label}, kernel probes|{kernel:.4f}|no probes|"
                     f"{none:.4f}|ms|{kr:.4f}|-|{verdict}")
        lines.append(f"suite|levels|{label}, graph probes|{graph:.4f}|no probes|"
                     f"{none:.4f}|ms|{gr:.4f}|-|n/a")
    for line in lines:
        print(line)


if __name__ == "__main__":
    main()
