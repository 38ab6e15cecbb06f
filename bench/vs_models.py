#!/usr/bin/env python3
"""Imported ONNX models compiled by tpuprof against PyTorch eager and ONNX
Runtime (docs/performance.md, "ONNX models against PyTorch and ONNX
Runtime").

For each model bench/export-torchvision.py exports (resnet50, mobilenet_v2
and encoder by default), batch 1, one thread, in alternating runs:

  tpuprof   tpuprof-compile MODEL.onnx --no-instrument (the built-in
            optimizing pipeline, no probes), then tpuprof-run MODEL.so
            --data (the exported input; the output is checked against
            PyTorch's) --time: the fastest of --calls calls;
  mode 0    the same model compiled with its kernel probes and run with
            TPUPROF_ENABLE=1 TPUPROF_MODE=0, for scale (separate processes
            do not resolve 1 %: bench/kernel_overhead.py judges it);
  PyTorch   bench/pytorch_models.py MODEL under /usr/bin/python3 (Debian's
            python3-torch, torch.set_num_threads(1), no autograd, OpenBLAS
            from libopenblas0-pthread on one thread): the same module from
            the same seeds, the fastest of as many calls;
  ORT       bench/onnxruntime/time_model.js under node (onnxruntime-node,
            intraOpNumThreads 1, sequential): the fastest of as many calls.

Each figure is the minimum over --runs runs (other tenants of the machine
only add time). Then, once per model and once per --compile-only model
(swin_t by default: compiled, not run; it runs and matches PyTorch, and
`--models swin_t --compile-only ""` times it, but its part of the bench,
two compiles of a 110 MB model and the runs, takes close to three minutes
on a loaded 2-CPU machine): tpuprof-import's wall time and
peak resident memory (the ONNX file to MLIR), tpuprof-compile's (import +
compile to a .so, no probes) against ONNX Runtime's session creation time
and its process's peak memory on the same file. A compile-only model that
does not import or compile is reported with the tool's error, not fatal.

    /usr/bin/python3 bench/export-torchvision.py MODELS resnet50 mobilenet_v2 encoder swin_t
    python3 bench/vs_models.py BUILD_DIR MODELS [--runs N] [--calls N] [--models a,b]
        [--compile-only a,b]

ONNX Runtime is installed by scripts/install-deps.sh (npm ci in
bench/onnxruntime); without it, or without torch, those columns are
skipped. Besides the table it prints one `suite|models|...` line per figure.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYTHON = "/usr/bin/python3"
TORCH_PEER = os.path.join(ROOT, "bench", "pytorch_models.py")
ORT_PEER = os.path.join(ROOT, "bench", "onnxruntime", "time_model.js")
TIME_RE = re.compile(r"^Time per call: median ([0-9.]+) us, min ([0-9.]+) us",
                     re.M)
# Whole models accumulate float32 rounding (docs/import.md, "Whole models").
ATOL = "1e-4"
TARGET_VS_TORCH = 1.0  # time per inference, at most PyTorch eager's


def sh(cmd, env=None):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.exit(f"vs_models: {' '.join(cmd)} failed (exit {p.returncode}):\n"
                 f"{(p.stderr or p.stdout).strip()[-2000:]}")
    return p.stdout


def measured(cmd, env=None, fatal=True):
    """Runs `cmd`; (wall seconds, peak resident MB, None) of that one
    process, or (None, None, its last stderr line) when it fails and not
    `fatal`."""
    start = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, env=env)
    # Read stderr before waiting: a long error must not fill the pipe.
    err = p.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - start
    p.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        if fatal:
            sys.exit(f"vs_models: {' '.join(cmd)} failed:\n"
                     f"{err.strip()[-2000:]}")
        lines = err.strip().splitlines()
        return None, None, lines[-1] if lines else "failed"
    return wall, usage.ru_maxrss / 1024, None


def tpuprof_ms(run, so, data, calls, env):
    out = sh([run, so, "--data", data, "--atol", ATOL, "--time",
              "--repeat", str(calls), "--warmup", "3"], env=env)
    m = TIME_RE.search(out)
    if not m:
        sys.exit(f"vs_models: no 'Time per call' from {run} {so}")
    return float(m.group(2)) / 1e3


def torch_ms(name, calls, env):
    """(min ms, the BLAS library the peer loaded)."""
    f = sh([PYTHON, TORCH_PEER, name, "1", str(calls)], env=env).split()
    return float(f[0]), f[3]


def ort_run(model, data, calls):
    """(session ms, min ms, peak MB, version) from the ONNX Runtime peer."""
    f = sh(["node", ORT_PEER, model, os.path.join(data, "input_0.pb"),
            str(calls)]).split()
    return float(f[0]), float(f[1]), float(f[3]), f[4]


def have_torch():
    return os.access(PYTHON, os.X_OK) and subprocess.run(
        [PYTHON, "-c", "import torch, torchvision"],
        capture_output=True).returncode == 0


def have_ort():
    return shutil.which("node") is not None and os.path.isdir(os.path.join(
        ROOT, "bench", "onnxruntime", "node_modules", "onnxruntime-node"))


def ratio(a, b):
    return a / b if a and b else None


def fmt(x, spec=".2f", none="-"):
    return none if x is None else format(x, spec)


def suite_line(metric, value, peer, peer_value, unit, r, target, met):
    print(f"suite|models|{metric}|{fmt(value, '.3f')}|{peer}|"
          f"{fmt(peer_value, '.3f')}|{unit}|{fmt(r, '.3f')}|{target}|{met}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build", help="tpuprof build directory")
    ap.add_argument("models", help="bench/export-torchvision.py's OUTDIR")
    ap.add_argument("--models", dest="names",
                    default="resnet50,mobilenet_v2,encoder")
    ap.add_argument("--compile-only", dest="compile_only", default="swin_t",
                    help="models only imported and compiled (comma "
                    "separated; empty for none)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--calls", type=int, default=10,
                    help="timed calls per run and peer")
    args = ap.parse_args()
    run = os.path.join(args.build, "bin", "tpuprof-run")
    compile_ = os.path.join(args.build, "bin", "tpuprof-compile")
    import_ = os.path.join(args.build, "bin", "tpuprof-import")
    for tool in (run, compile_, import_):
        if not os.access(tool, os.X_OK):
            sys.exit(f"vs_models: no {tool}; build it first")
    torch_ok, ort_ok = have_torch(), have_ort()
    if not torch_ok:
        print("vs_models: no torch/torchvision under /usr/bin/python3: "
              "PyTorch skipped", file=sys.stderr)
    if not ort_ok:
        print("vs_models: no onnxruntime-node in bench/onnxruntime "
              "(scripts/install-deps.sh): ONNX Runtime skipped",
              file=sys.stderr)

    env = dict(os.environ, OMP_NUM_THREADS="1")
    env.pop("TPUPROF_ENABLE", None)
    env.pop("ENABLE_ALL_PROFILE", None)
    tmp = tempfile.mkdtemp(prefix="vs_models-")
    mode0_env = dict(env, TPUPROF_ENABLE="1", TPUPROF_MODE="0",
                     TPUPROF_OUTPUT=tmp)
    rows = []
    torch_blas = set()  # the BLAS libraries the PyTorch peer loaded
    builds = []  # (name, import (s, MB), compile (s, MB), error, ORT)
    names = [n for n in args.names.split(",") if n]
    compile_only = [n for n in args.compile_only.split(",") if n]
    for name in names + compile_only:
        if not os.path.exists(os.path.join(args.models, name, "model.onnx")):
            sys.exit(f"vs_models: no {args.models}/{name}/model.onnx; run "
                     f"bench/export-torchvision.py {args.models} {name}")
    try:
        for name in compile_only:
            model = os.path.join(args.models, name, "model.onnx")
            data = os.path.join(args.models, name, "test_data_set_0")
            imp_s, imp_mb, error = measured(
                [import_, model, "-o", os.path.join(tmp, name + ".mlir")],
                env, fatal=False)
            cs = cmb = None
            if not error:
                cs, cmb, error = measured(
                    [compile_, model, "--no-instrument", "-o",
                     os.path.join(tmp, name + ".so")], env, fatal=False)
            ort = ort_run(model, data, 1) if ort_ok else None
            builds.append((name, imp_s, imp_mb, cs, cmb, error,
                           ort[0] if ort else None, ort[2] if ort else None))
        for name in names:
            model = os.path.join(args.models, name, "model.onnx")
            data = os.path.join(args.models, name, "test_data_set_0")
            plain = os.path.join(tmp, name + ".so")
            probed = os.path.join(tmp, name + "-probes.so")
            imp_s, imp_mb, _ = measured(
                [import_, model, "-o", os.path.join(tmp, name + ".mlir")],
                env)
            compile_s, compile_mb, _ = measured(
                [compile_, model, "--no-instrument", "-o", plain], env)
            sh([compile_, model, "-o", probed], env)
            ort_session = ort_mb = None
            version = ""
            times = {"tpuprof": [], "mode 0": [], "PyTorch": [], "ORT": []}
            for _ in range(args.runs):
                times["tpuprof"].append(
                    tpuprof_ms(run, plain, data, args.calls, env))
                times["mode 0"].append(
                    tpuprof_ms(run, probed, data, args.calls, mode0_env))
                if torch_ok:
                    ms, lib = torch_ms(name, args.calls, env)
                    times["PyTorch"].append(ms)
                    torch_blas.add(lib)
                if ort_ok:
                    session, ms, mb, version = ort_run(model, data, args.calls)
                    times["ORT"].append(ms)
                    ort_session = min(ort_session or session, session)
                    ort_mb = max(ort_mb or mb, mb)
            best = {k: min(v) if v else None for k, v in times.items()}
            rows.append((name, best, compile_s, compile_mb, ort_session,
                         ort_mb, version))
            builds.insert(len(rows) - 1,
                          (name, imp_s, imp_mb, compile_s, compile_mb, None,
                           ort_session, ort_mb))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    print(f"batch 1, one thread; min over {args.runs} runs of {args.calls} "
          f"calls each; ms per inference")
    print(f"{'model':<14}{'tpuprof':>10}{'PyTorch':>10}{'ORT':>10}"
          f"{'x PyTorch':>11}{'x ORT':>8}{'mode 0':>10}{'overhead':>10}")
    for name, best, *_ in rows:
        t = best["tpuprof"]
        over = (best["mode 0"] / t - 1) * 100
        print(f"{name:<14}{t:>10.2f}{fmt(best['PyTorch']):>10}"
              f"{fmt(best['ORT']):>10}"
              f"{fmt(ratio(t, best['PyTorch'])):>11}"
              f"{fmt(ratio(t, best['ORT'])):>8}"
              f"{best['mode 0']:>10.2f}{over:>9.1f}%")
    print()
    print(f"{'model':<14}{'import s':>9}{'peak MB':>9}"
          f"{'import+compile s':>18}{'peak MB':>9}"
          f"{'ORT session s':>15}{'ORT peak MB':>13}{'x ORT':>8}")
    for name, imp_s, imp_mb, cs, cmb, error, os_ms, omb in builds:
        osec = os_ms / 1e3 if os_ms else None
        print(f"{name:<14}{fmt(imp_s, '.1f'):>9}{fmt(imp_mb, '.0f'):>9}"
              f"{fmt(cs, '.1f'):>18}{fmt(cmb, '.0f'):>9}"
              f"{fmt(osec, '.1f'):>15}{fmt(omb, '.0f'):>13}"
              f"{fmt(ratio(cs, osec)):>8}")
        if error:
            print(f"  {name}: {error}")
    if torch_blas:
        print(f"PyTorch's BLAS: {', '.join(sorted(torch_blas))}")
    if "reference" in torch_blas:
        print("vs_models: PyTorch ran the reference BLAS, not OpenBLAS: "
              "install libopenblas0-pthread (scripts/install-deps.sh)",
              file=sys.stderr)
    versions = {r[6] for r in rows if r[6]}
    if versions:
        print(f"onnxruntime-node {', '.join(sorted(versions))}")
    for name, imp_s, imp_mb, cs, cmb, error, os_ms, omb in builds:
        if name in compile_only:
            suite_line(f"{name} import+compile", cs, "ORT session",
                       os_ms / 1e3 if os_ms else None, "s",
                       ratio(cs, os_ms / 1e3 if os_ms else None), "-", "n/a")
    for name, best, cs, cmb, os_ms, omb, _ in rows:
        t = best["tpuprof"]
        r = ratio(t, best["PyTorch"])
        suite_line(f"{name} ms/inference", t, "PyTorch eager", best["PyTorch"],
                   "ms", r, f"<= {TARGET_VS_TORCH}x",
                   "n/a" if r is None else
                   ("met" if r <= TARGET_VS_TORCH else "NOT met"))
        suite_line(f"{name} ms/inference vs ORT", t, "ONNX Runtime",
                   best["ORT"], "ms", ratio(t, best["ORT"]), "-", "n/a")
        over = (best["mode 0"] / t - 1) * 100
        suite_line(f"{name} mode-0 overhead", over, "uninstrumented", 0.0,
                   "%", None, "-", "n/a")
        suite_line(f"{name} import+compile", cs, "ORT session",
                   os_ms / 1e3 if os_ms else None, "s",
                   ratio(cs, os_ms / 1e3 if os_ms else None), "-", "n/a")


if __name__ == "__main__":
    main()
