#!/usr/bin/env python3
"""End-to-end overhead of profiling per runtime mode (docs/performance.md,
"End-to-end overhead").

1. The bundled models through tpuprof-run: examples/mlp.mlir (TVM's MLP, in
   TOSA) and examples/convnet.mlir (linalg), each JIT-compiled once without
   probes (--no-instrument) and once instrumented, the instrumented one run
   with the window in mode 0, 1 and 2. The figure is the model's execution
   time per call (tpuprof-run --time: the median of --repeat timed calls,
   compile and warm-up excluded). Probes at the graph level (one per source
   op, as these figures were first taken); bench/probe_levels.py compares
   the levels.
2. The OpenMP program bench/llvm_plugin/omp_bench.cpp, built with
   clang++-19 -O2 -fopenmp without and with -fpass-plugin=TpuProfilePlugin.so;
   the instrumented binary runs with TPUPROF_ENABLE=1 and TPUPROF_MODE 0, 1,
   2 (and with probes off, for reference). The loop runs in OMP_CHUNKS equal
   slices; the figure is the fastest slice scaled to the whole loop (what
   it prints third). Whole loops of one binary ran 69-120 ms over six runs
   on the shared VM while their fastest slices ran 51-58 ms: other tenants
   add time in bursts, and a slice can miss one where a whole run cannot.

Runs alternate between the variants, so drift in the machine's speed hits
them alike; each figure is the minimum over --runs runs (--across min, the
default) or their median (--across median). Whole processes of the same
binary differ by 10-40 % on the shared VM (the host's other tenants; seen
for the uninstrumented build too), and that noise only ever adds time, so
the fastest process of each variant is the closest to its true cost; the
same statistic is used for every variant.

Per run, the model's figure is its fastest call (--stat min, the default)
or its median call (--stat median). On the shared 2-vCPU VM the median call
of consecutive identical runs moves by 10-30 % with the other processes'
load, while the fastest call moves by about 1 %; the probes' own cost is in
every call, so it is in the fastest one too. (Costs that show only under
cache pressure, such as an extra buffer, show in the median: compare both.)

The bundled models are batch 1: a whole MLP call is ~0.1 ms, most of its ops
last well under a microsecond, and no real deployment runs ops that small
through a profiler (nor would 1 % of them be measurable here). The models
are therefore also run at a realistic batch (--batch, default 64 for the MLP
and 8 for the conv net: the leading `1x` of every activation type becomes
`Bx`, weights unchanged), which is what the targets are judged on; batch 1
is reported alongside as the worst case.

    python3 bench/e2e_overhead.py BUILD_DIR [--runs N]

Besides the table it prints one `suite|e2e|...` line per figure for
bench/suite.py.
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLANGXX = "/usr/lib/llvm-19/bin/clang++"
TARGETS = {0: 1.0, 1: 3.0, 2: 5.0}  # percent over the uninstrumented run
TIME_RE = re.compile(r"^Time per call: median ([0-9.]+) us, min ([0-9.]+) us",
                     re.M)
OMP_CHUNKS = 10  # slices of the OpenMP program's loop (see the docstring)
STAT = "min"  # which per-call figure of a run counts (--stat)
ACROSS = min  # how the runs of a variant combine (--across)


def sh(cmd, env=None):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.exit(f"{os.path.basename(sys.argv[0])}: {' '.join(cmd)} failed (exit {p.returncode}):\n"
                 f"{p.stderr.strip()}")
    return p.stdout


def tool(build, name):
    """BUILD/bin/NAME, or exit with one line saying to build it."""
    path = os.path.join(build, "bin", name)
    if not os.access(path, os.X_OK):
        sys.exit(f"{os.path.basename(sys.argv[0])}: no {path}; build {name} first")
    return path


def env_without_profiling():
    """This environment without the variables that switch profiling on or
    choose its mode: each variant sets what it measures itself."""
    env = dict(os.environ)
    for var in ("TPUPROF_ENABLE", "ENABLE_ALL_PROFILE", "TPUPROF_MODE",
                "PROFILE_MODE", "TPUPROF_SCHEDULE"):
        env.pop(var, None)
    return env


def batched(src, batch, tmp):
    """A copy of model `src` with batch `batch` (every `tensor<1x` becomes
    `tensor<Bx`: in the bundled models that is exactly the activations)."""
    if batch == 1:
        return src
    text = open(src).read().replace("tensor<1x", f"tensor<{batch}x")
    path = os.path.join(tmp, f"{os.path.basename(src)[:-5]}-b{batch}.mlir")
    with open(path, "w") as f:
        f.write(text)
    return path


def model_variants(run, model, repeat, out, env):
    """name -> command printing `Time per call`; None = uninstrumented."""
    base = [run, model, "--time", "--repeat", str(repeat), "--warmup", "3"]
    variants = [("uninstrumented", None, base + ["--no-instrument"])]
    for mode in (0, 1, 2):
        variants.append((f"mode {mode}", mode,
                         base + ["--mode", str(mode), "--output", out,
                                 "--probe-level=graph"]))
    return variants


def run_model(cmd, env):
    m = TIME_RE.search(sh(cmd, env=env))
    if not m:
        sys.exit(f"{os.path.basename(sys.argv[0])}: no 'Time per call' from {' '.join(cmd)}")
    return float(m.group(2 if STAT == "min" else 1)) / 1e3  # ms


def omp_variants(build, tmp, iters, n, env):
    lib = os.path.join(os.path.abspath(build), "lib")
    plugin = os.path.join(lib, "TpuProfilePlugin.so")
    src = os.path.join(ROOT, "bench", "llvm_plugin", "omp_bench.cpp")
    plain, inst = os.path.join(tmp, "omp-plain"), os.path.join(tmp, "omp-inst")
    if not os.path.exists(plain):
        sh([CLANGXX, "-O2", "-fopenmp", src, "-o", plain])
        sh([CLANGXX, "-O2", "-fopenmp", src, "-fpass-plugin=" + plugin,
            "-o", inst, "-L" + lib, "-ltpuprof_rt", "-Wl,-rpath," + lib])
    args = [str(iters), str(n), str(min(OMP_CHUNKS, iters))]
    variants = [("uninstrumented", None, [plain] + args, env),
                ("probes off", None, [inst] + args, env)]
    for mode in (0, 1, 2):
        # Room for every region's record with no drop: a record with dims
        # (modes 1/2 record `threads[n]`) takes more than one slot, and a
        # slice whose probes only drop would read as probe-free.
        on = dict(env, TPUPROF_ENABLE="1", TPUPROF_MODE=str(mode),
                  TPUPROF_OUTPUT=tmp, TPUPROF_RECORD_SIZE=str(8 * iters + 64))
        variants.append((f"mode {mode}", mode, [inst] + args, on))
    return variants


def run_omp(cmd, env):
    """The program's fastest slice, scaled to its whole loop, in ms."""
    return float(sh(cmd, env=env).split()[2]) * 1e3


def measure(variants, runs, runner):
    """Alternating runs; name -> ACROSS (min or median) of the runs."""
    times = {v[0]: [] for v in variants}
    for _ in range(runs):
        for v in variants:
            times[v[0]].append(runner(v))
    return {name: ACROSS(ts) for name, ts in times.items()}


def report(label, medians, modes, unit, judged, lines, key=None):
    """Prints one program's rows; `key` (default: label) names its figures in
    the suite lines, which must not change from run to run."""
    key = key or label
    base = medians["uninstrumented"]
    print(f"  {label}")
    for name, t in medians.items():
        over = (t / base - 1) * 100
        mode = modes.get(name)
        target = f"< {TARGETS[mode]:g} %" if mode is not None else ""
        ok = "" if mode is None else ("met" if over < TARGETS[mode] else "NOT met")
        print(f"    {name:16} {t:10.4f} {unit}  {over:+7.2f} %  "
              f"{target:7} {ok if judged else ''}")
        if name == "uninstrumented":
            continue
        verdict = ok if judged and mode is not None else "n/a"
        lines.append(f"suite|e2e|{key}, {name}|{t:.4f}|uninstrumented|"
                     f"{base:.4f}|{unit}|{t / base:.4f}|{target}|{verdict}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build", help="tpuprof build directory")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=0,
                    help="timed calls of the model per run (default: as "
                         "many as take about --seconds)")
    ap.add_argument("--seconds", type=float, default=0.5,
                    help="model time per run when --repeat is not given")
    ap.add_argument("--batch-mlp", type=int, default=64)
    ap.add_argument("--batch-convnet", type=int, default=8)
    ap.add_argument("--omp-iters", type=int, default=5000,
                    help="iterations (2 parallel regions each) of omp_bench")
    ap.add_argument("--omp-n", default="16384,262144",
                    help="vector lengths for omp_bench (16 Ki: ~10 us regions)")
    ap.add_argument("--no-omp", action="store_true")
    ap.add_argument("--stat", choices=["min", "median"], default="min",
                    help="per-run model figure: fastest or median call")
    ap.add_argument("--across", choices=["min", "median"], default="min",
                    help="how a variant's runs combine: fastest or median run")
    args = ap.parse_args()
    global STAT, ACROSS
    STAT = args.stat
    ACROSS = min if args.across == "min" else statistics.median
    run = tool(args.build, "tpuprof-run")
    tmp = tempfile.mkdtemp(prefix="tpuprof-e2e-")
    env = env_without_profiling()
    lines = []
    modes = {f"mode {m}": m for m in (0, 1, 2)}
    print(f"End-to-end overhead, {args.across} of {args.runs} alternating runs; "
          f"model figures: {args.stat} time of one call of a run, in ms; "
          f"load average {os.getloadavg()[0]:.2f}")
    try:
        models = [("mlp", "mlp.mlir", args.batch_mlp),
                  ("convnet", "convnet.mlir", args.batch_convnet)]
        for name, file, batch in models:
            src = os.path.join(ROOT, "examples", file)
            for b in sorted({1, batch}):
                path = batched(src, b, tmp)
                out = os.path.join(tmp, "dumps")
                repeat = args.repeat
                if not repeat:  # One probe run sizes the others.
                    t = run_model([run, path, "--time", "--repeat", "20",
                                   "--no-instrument"], env)
                    repeat = max(20, min(5000, int(args.seconds * 1e3 / t)))
                variants = model_variants(run, path, repeat, out, env)

                def runner(v):
                    t = run_model(v[2], env)
                    shutil.rmtree(out, ignore_errors=True)
                    return t
                medians = measure(variants, args.runs, runner)
                report(f"{name} batch {b} ({repeat} calls, {args.stat} call)",
                       medians, modes, "ms", b == batch, lines,
                       key=f"{name} batch {b}, {args.stat} call")
        if not args.no_omp:
            omp_env = dict(env, OMP_NUM_THREADS=env.get("OMP_NUM_THREADS", "2"))
            for n in [int(s) for s in args.omp_n.split(",")]:
                variants = omp_variants(args.build, tmp, args.omp_iters, n,
                                        omp_env)

                def runner(v):
                    t = run_omp(v[2], v[3])
                    for f in os.listdir(tmp):
                        if f.startswith("tpuprof_data_"):
                            os.remove(os.path.join(tmp, f))
                    return t
                medians = measure(variants, args.runs, runner)
                report(f"openmp n={n} ({2 * args.omp_iters} regions, "
                       f"{omp_env['OMP_NUM_THREADS']} threads)", medians,
                       modes, "ms", True, lines)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for line in lines:
        print(line)


if __name__ == "__main__":
    main()
