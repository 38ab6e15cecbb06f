#!/usr/bin/env python3
"""A compiled model with profiling off against the same model compiled
without probes (docs/performance.md, "Compiled models, profiling off").

examples/mlp.mlir (batch 64 and 1) and examples/convnet.mlir (batch 8 and
1) are each compiled twice by tpuprof-compile into a .so: with probes, and
with --no-instrument. tpuprof-run MODEL.so calls each with the environment
clear of TPUPROF_ENABLE / ENABLE_ALL_PROFILE, so the probes stay off and
cost what they cost a deployed model: a load of the runtime's flag and a
branch per probe. Runs alternate between the two builds; a run's figure is
its fastest call (tpuprof-run --time) and each figure is the minimum over
--runs runs, as in bench/e2e_overhead.py (other tenants only add time).

Probes at the graph level, one per source op (the most probes a model gets).

Target: probes off within 1 % of --no-instrument, judged at the realistic
batches (64 and 8); batch 1 (calls of ~0.1 ms of sub-microsecond ops) is
reported as the worst case.

    python3 bench/compiled_off.py BUILD_DIR [--runs N]

Besides the table it prints one `suite|compiled|...` line per figure for
bench/suite.py.
"""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_overhead import (batched, env_without_profiling, run_model, sh,  # noqa: E402
                          tool)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = 1.0  # percent
# (model, file, batch, calls per run, judged)
CASES = [("mlp", "mlp.mlir", 64, 300, True),
         ("mlp", "mlp.mlir", 1, 3000, False),
         ("convnet", "convnet.mlir", 8, 200, True),
         ("convnet", "convnet.mlir", 1, 1000, False)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build", help="tpuprof build directory")
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    run, compile_ = (tool(args.build, t) for t in ("tpuprof-run", "tpuprof-compile"))
    env = env_without_profiling()

    tmp = tempfile.mkdtemp(prefix="tpuprof-compiled-off-")
    print(f"Compiled models, probes off vs --no-instrument: min of {args.runs} "
          f"alternating runs of each run's fastest call, ms; load average "
          f"{os.getloadavg()[0]:.2f}")
    print(f"  {'model':18} {'no-instrument':>13} {'probes off':>11} {'ratio':>8}  target")
    lines = []
    for name, src, batch, repeat, judged in CASES:
        model = batched(os.path.join(ROOT, "examples", src), batch, tmp)
        built = {}
        for variant, flags in (("plain", ["--no-instrument"]),
                               ("off", ["--probe-level=graph"])):
            built[variant] = os.path.join(tmp, f"{name}-b{batch}-{variant}.so")
            sh([compile_, model, "-o", built[variant]] + flags)
        times = {"plain": [], "off": []}
        for _ in range(args.runs):
            for variant in ("plain", "off"):
                times[variant].append(run_model(
                    [run, built[variant], "--time", "--repeat", str(repeat),
                     "--warmup", "5"], env))
        plain, off = min(times["plain"]), min(times["off"])
        ratio = off / plain
        verdict = ("met" if (ratio - 1) * 100 < TARGET else "NOT met") if judged else "n/a"
        label = f"{name} batch {batch}"
        print(f"  {label:18} {plain:13.4f} {off:11.4f} {ratio:8.4f}  "
              f"{'< 1.01 ' + verdict if judged else '(reported)'}")
        lines.append(f"suite|compiled|{label}, probes off|{off:.4f}|no-instrument|"
                     f"{plain:.4f}|ms|{ratio:.4f}|< {TARGET:g} %|{verdict}")
    for line in lines:
        print(line)


if __name__ == "__main__":
    main()
