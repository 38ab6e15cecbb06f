#!/usr/bin/env python3
"""The bundled models compiled by tpuprof-run against PyTorch eager
(docs/performance.md, "Kernels against PyTorch").

For examples/mlp.mlir at batch 1 and 64 and examples/convnet.mlir at batch 1
and 8, in alternating runs:

  tpuprof   tpuprof-run MODEL --no-instrument --time (the built-in optimizing
            pipeline, no probes): the fastest of --repeat calls;
  PyTorch   bench/pytorch_models.py under /usr/bin/python3 (Debian's
            python3-torch, one thread, no autograd, the same shapes): the
            fastest of as many calls; Debian's torch calls the system's
            libblas.so.3, OpenBLAS once scripts/install-deps.sh installed
            libopenblas0-pthread (the row says which it loaded);
  + BLAS    with --blas DIR, PyTorch again with DIR first on
            LD_LIBRARY_PATH (another libblas.so.3 to compare with).

Each figure is the minimum over --runs runs (other tenants of the machine
only add time). The target, MLP batch 64 at most 1.0x PyTorch's time, is
judged against the system BLAS (OpenBLAS after install-deps); the other
figures are reported.

    python3 bench/vs_pytorch.py BUILD_DIR [--runs N] [--blas DIR]

Besides the table it prints one `suite|pytorch|...` line per figure for
bench/suite.py.
"""
import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_overhead import TIME_RE, batched, sh  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PEER = os.path.join(ROOT, "bench", "pytorch_models.py")
PYTHON = "/usr/bin/python3"
# (model, file, batch, calls per run, judged)
CASES = [("mlp", "mlp.mlir", 1, 2000, False),
         ("mlp", "mlp.mlir", 64, 300, True),
         ("convnet", "convnet.mlir", 1, 2000, False),
         ("convnet", "convnet.mlir", 8, 500, False)]
TARGET = 1.0


def tpuprof_ms(run, model, calls):
    out = sh([run, model, "--no-instrument", "--time", "--repeat", str(calls),
              "--warmup", "20"])
    m = TIME_RE.search(out)
    if not m:
        sys.exit(f"vs_pytorch: no 'Time per call' from {run} {model}")
    return float(m.group(2)) / 1e3


def torch_ms(name, batch, calls, env):
    fields = sh([PYTHON, PEER, name, str(batch), str(calls)], env=env).split()
    return float(fields[0]), fields[2], fields[3]


def torch_missing():
    p = subprocess.run([PYTHON, "-c", "import torch"], capture_output=True)
    return p.returncode != 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build", help="tpuprof build directory")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--blas", help="directory holding another libblas.so.3")
    args = ap.parse_args()
    run = os.path.join(args.build, "bin", "tpuprof-run")
    if not os.access(run, os.X_OK):
        sys.exit(f"vs_pytorch: no {run}; build tpuprof-run first")
    no_torch = not os.access(PYTHON, os.X_OK) or torch_missing()
    if args.blas and not os.path.exists(os.path.join(args.blas, "libblas.so.3")):
        sys.exit(f"vs_pytorch: no libblas.so.3 in {args.blas}")

    env = dict(os.environ, OMP_NUM_THREADS="1")
    blas_env = dict(env, LD_LIBRARY_PATH=args.blas) if args.blas else None
    lines = []
    tmp = tempfile.mkdtemp(prefix="tpuprof-vs-pytorch-")
    print(f"Time per call, min of {args.runs} alternating runs (each the "
          f"fastest of its calls), ms; load average {os.getloadavg()[0]:.2f}")
    if no_torch:
        print(f"  PyTorch: skipped: {PYTHON} cannot import torch "
              "(apt-get install python3-torch)")
    for name, file, batch, calls, judged in CASES:
        model = batched(os.path.join(ROOT, "examples", file), batch, tmp)
        ours, peer, other = [], [], []
        version = blas = ""
        for _ in range(args.runs):
            ours.append(tpuprof_ms(run, model, calls))
            if not no_torch:
                t, version, blas = torch_ms(name, batch, calls, env)
                peer.append(t)
                if blas_env:
                    other.append(torch_ms(name, batch, calls, blas_env)[0])
        t = min(ours)
        label = f"{name} batch {batch}"
        if no_torch:
            print(f"  {label:18} tpuprof {t:9.4f}")
            lines.append(f"suite|pytorch|{label}, time per call|{t:.4f}|"
                         f"PyTorch eager|||ms|||skipped: no torch")
            continue
        p = min(peer)
        ok = "met" if t / p <= TARGET else "NOT met"
        verdict = ok if judged else "n/a"
        target = f"<= {TARGET:g}x" if judged else ""
        row = (f"  {label:18} tpuprof {t:9.4f}  PyTorch {version} "
               f"({blas} BLAS) {p:9.4f}  ratio {t / p:6.3f}")
        if other:
            o = min(other)
            row += f"  PyTorch (--blas) {o:9.4f}  ratio {t / o:6.3f}"
        print(row + (f"  {target} {ok}" if judged else ""))
        lines.append(f"suite|pytorch|{label}, time per call|{t:.4f}|"
                     f"PyTorch {version} eager, 1 thread|{p:.4f}|ms|"
                     f"{t / p:.3f}|{target}|{verdict}")
        if other:
            o = min(other)
            lines.append(f"suite|pytorch|{label}, time per call|{t:.4f}|"
                         f"PyTorch eager + BLAS of --blas|{o:.4f}|ms|"
                         f"{t / o:.3f}||n/a")
    for line in lines:
        print(line)


if __name__ == "__main__":
    main()
