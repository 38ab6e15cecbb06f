#!/usr/bin/env python3
"""End-to-end cost of memory tracking on the bundled models
(docs/performance.md, "Memory tracking"): examples/mlp.mlir and
examples/convnet.mlir through tpuprof-run in mode 0, with and without
--memory, alternating runs (bench/e2e_overhead.py's method: the fastest call
of a run, the fastest of --runs runs). Target: --memory < 2 % over mode 0.

    python3 bench/memory_e2e.py BUILD_DIR [--runs N]
"""
import argparse
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_overhead as e2e  # noqa: E402

TARGET = 2.0  # percent over mode 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=0.5)
    ap.add_argument("--batch-mlp", type=int, default=64)
    ap.add_argument("--batch-convnet", type=int, default=8)
    ap.add_argument("--models", default="mlp,convnet",
                    help="which bundled models (comma-separated)")
    args = ap.parse_args()
    run = os.path.join(args.build, "bin", "tpuprof-run")
    env = dict(os.environ)
    for var in ("TPUPROF_ENABLE", "TPUPROF_MODE", "TPUPROF_MEMORY"):
        env.pop(var, None)
    tmp = tempfile.mkdtemp(prefix="tpuprof-mem-e2e-")
    print(f"Memory tracking end to end, min of {args.runs} alternating runs, "
          f"fastest call per run, ms; load average {os.getloadavg()[0]:.2f}")
    try:
        for name, file, batch in [("mlp", "mlp.mlir", args.batch_mlp),
                                  ("convnet", "convnet.mlir",
                                   args.batch_convnet)]:
            if name not in args.models.split(","):
                continue
            for b in sorted({1, batch}):
                path = e2e.batched(os.path.join(e2e.ROOT, "examples", file), b,
                                   tmp)
                out = os.path.join(tmp, "dumps")
                t = e2e.run_model([run, path, "--time", "--repeat", "20",
                                   "--no-instrument"], env)
                repeat = max(20, min(5000, int(args.seconds * 1e3 / t)))
                base = [run, path, "--time", "--repeat", str(repeat),
                        "--warmup", "3", "--mode", "0", "--output", out,
                        "--probe-level=graph"]
                variants = [("mode 0", None, base),
                            ("mode 0 --memory", None, base + ["--memory"])]

                def runner(v):
                    t = e2e.run_model(v[2], env)
                    shutil.rmtree(out, ignore_errors=True)
                    return t
                times = e2e.measure(variants, args.runs, runner)
                t0, t1 = times["mode 0"], times["mode 0 --memory"]
                over = (t1 / t0 - 1) * 100
                judged = b == batch
                verdict = ("met" if over < TARGET else "NOT met") if judged else "n/a"
                print(f"  {name} batch {b} ({repeat} calls): mode 0 {t0:.4f}, "
                      f"--memory {t1:.4f}  {over:+.2f} %  "
                      f"{'(< 2 %: ' + verdict + ')' if judged else ''}")
                print(f"suite|memory|{name} batch {b}, min call, --memory|{t1:.4f}|mode 0|"
                      f"{t0:.4f}|ms|{t1 / t0:.4f}|< {TARGET:g} % over|{verdict}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
