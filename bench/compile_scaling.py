#!/usr/bin/env python3
"""Compiler-side cost of --tpu-profile-instrument as modules grow
(docs/performance.md, "Compiler side").

Writes MLIR modules of about 1 k, 10 k and 100 k ops (a mix of tosa, linalg,
tensor and arith ops in a few func.func bodies, as a lowered model looks),
then runs on each, alternating, N times:

  parse+print   tpuprof-opt IN -o /dev/null                 (the peer)
  instrument    tpuprof-opt IN --tpu-profile-instrument -o /dev/null
  + lower       tpuprof-opt IN --tpu-profile-instrument --tpu-profile-lower
  read instr.   tpuprof-opt INSTRUMENTED -o /dev/null  (reading the pass's
                output back, as a separate lowering or tool run does)

and reports each one's median wall time and its peak memory (max RSS of the
child, from wait4), the ratio to parse+print, and the growth factor from one
size to the next (linear = 10x). The instrumented module is larger than its
input (a begin and an end per op, and the probe table), so printing it costs
more; the pass's own time, from --mlir-timing, is shown too, without the
verifier (--verify-each=false: "pass alone", the figure held to 0.10 of
parse+print) and with it (the pass manager verifies the whole module after
every pass, and --mlir-timing counts that in the pass's time).

Then the whole compile of tpuprof-run (instrument, the built-in optimizing
pipeline, LLVM -O2, from its --time line) on the same modules with a @main
calling every function, at --run-sizes: its time per size and its growth,
judged linear when 10x the ops take at most 12x the time.

    python3 bench/compile_scaling.py BUILD_DIR [--runs N] [--sizes 1000,10000,100000]
                                     [--run-sizes 1000,10000,100000] [--run-runs N]

Besides the table it prints one `suite|compile|...` line per figure for
bench/suite.py.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

TARGET = 1.10  # the pass may cost at most 10 % over parse+print

# One block of a "model": elementwise TOSA ops, a matmul with its fill, a
# linalg.generic with an arith body, a reshape and some scalar arith. Every
# block reads the previous block's result, so nothing is dead. {i} numbers
# the SSA values; {prev} is the previous block's output.
BLOCK = """\
    %a{i} = tosa.add {prev}, %w : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %m{i} = tosa.mul %a{i}, %w {{shift = 0 : i8}} : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %c{i} = tosa.clamp %m{i} {{min_fp = 0.0 : f32, max_fp = 6.0 : f32, min_int = 0 : i64, max_int = 6 : i64}} : (tensor<16x16xf32>) -> tensor<16x16xf32>
    %e{i} = tensor.empty() : tensor<16x16xf32>
    %f{i} = linalg.fill ins(%zero : f32) outs(%e{i} : tensor<16x16xf32>) -> tensor<16x16xf32>
    %g{i} = linalg.matmul ins(%c{i}, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%f{i} : tensor<16x16xf32>) -> tensor<16x16xf32>
    %h{i} = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}} ins(%g{i} : tensor<16x16xf32>) outs(%e{i} : tensor<16x16xf32>) {{
    ^bb0(%x{i}: f32, %o{i}: f32):
      %s{i} = arith.mulf %x{i}, %scale : f32
      %t{i} = arith.addf %s{i}, %x{i} : f32
      linalg.yield %t{i} : f32
    }} -> tensor<16x16xf32>
    %r{i} = tosa.reshape %h{i} {{new_shape = array<i64: 256>}} : (tensor<16x16xf32>) -> tensor<256xf32>
    %q{i} = tosa.reshape %r{i} {{new_shape = array<i64: 16, 16>}} : (tensor<256xf32>) -> tensor<16x16xf32>
    %k{i} = arith.addf %k{p}, %scale : f32
"""
# add mul clamp empty fill matmul generic (mulf addf yield) reshape reshape addf
OPS_PER_BLOCK = 13
FUNCTIONS = 4


def generate(path, ops, with_main=False):
    """Writes a module of about `ops` operations in FUNCTIONS functions; with
    `with_main`, also a @main that calls them in a chain (tpuprof-run's
    entry: it compiles what main reaches)."""
    blocks = max(1, ops // OPS_PER_BLOCK // FUNCTIONS)
    with open(path, "w") as f:
        f.write("#id = affine_map<(d0, d1) -> (d0, d1)>\n")
        for fn in range(FUNCTIONS):
            f.write(f"func.func @layer{fn}(%in: tensor<16x16xf32>, "
                    "%w: tensor<16x16xf32>, %scale: f32) -> "
                    "(tensor<16x16xf32>, f32) {\n")
            f.write("    %zero = arith.constant 0.0 : f32\n")
            f.write("    %k0 = arith.addf %scale, %zero : f32\n")
            prev = "%in"
            for b in range(1, blocks + 1):
                f.write(BLOCK.format(i=b, p=b - 1, prev=prev))
                prev = f"%q{b}"
            f.write(f"    return {prev}, %k{blocks} : tensor<16x16xf32>, f32\n}}\n")
        if with_main:
            f.write("func.func @main(%in: tensor<16x16xf32>, %w: tensor<16x16xf32>, "
                    "%scale: f32) -> (tensor<16x16xf32>, f32) {\n")
            prev = "%in"
            for fn in range(FUNCTIONS):
                f.write(f"    %r{fn}:2 = func.call @layer{fn}({prev}, %w, %scale) : "
                        "(tensor<16x16xf32>, tensor<16x16xf32>, f32) -> "
                        "(tensor<16x16xf32>, f32)\n")
                prev = f"%r{fn}#0"
            f.write(f"    return {prev}, %r{FUNCTIONS - 1}#1 : tensor<16x16xf32>, f32\n}}\n")
    return blocks * FUNCTIONS * OPS_PER_BLOCK + FUNCTIONS * 4  # func, constant, addf, return


def run_once(cmd):
    """Wall seconds, max RSS (KiB) and the stderr of one run of cmd."""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit(f"compile_scaling: {' '.join(cmd)} failed:\n{err.decode()}")
    return wall, usage.ru_maxrss, err.decode()


def pass_seconds(timing, name):
    """The wall time of pass `name` from --mlir-timing's report."""
    for line in timing.splitlines():
        if line.strip().endswith(name):
            m = re.match(r"\s*([0-9.]+)", line)
            if m:
                return float(m.group(1))
    return None


COMPILE_RE = re.compile(r"^Compile time: ([0-9.]+) ms \(parse ([0-9.]+), "
                        r"lower ([0-9.]+), LLVM ([0-9.]+)\)", re.M)


def run_compile(build, sizes, runs):
    """tpuprof-run's whole compile (parse, instrument, the built-in
    pipeline, LLVM) of generated models with a @main, from its --time line;
    the fastest of `runs` runs per size. Prints its table and suite lines."""
    run = os.path.join(build, "bin", "tpuprof-run")
    if not os.access(run, os.X_OK):
        sys.exit(f"compile_scaling: no {run}; build tpuprof-run first")
    tmp = tempfile.mkdtemp(prefix="tpuprof-compile-run-")
    best, actual = {}, {}
    for size in sizes:
        path = os.path.join(tmp, f"model-{size}.mlir")
        actual[size] = generate(path, size, with_main=True)
        for _ in range(runs):
            # Graph probes, as the cited figures were taken.
            p = subprocess.run([run, path, "--time", "--repeat", "1",
                                "--warmup", "0", "--output", tmp,
                                "--probe-level=graph"],
                               capture_output=True, text=True)
            m = COMPILE_RE.search(p.stdout)
            if p.returncode != 0 or not m:
                sys.exit(f"compile_scaling: tpuprof-run {path} failed:\n"
                         f"{p.stderr.strip()}")
            t = tuple(float(x) for x in m.groups())
            if size not in best or t[0] < best[size][0]:
                best[size] = t
        os.remove(path)
        for f in os.listdir(tmp):
            os.remove(os.path.join(tmp, f))
    os.rmdir(tmp)
    print(f"tpuprof-run compile time (instrument + tpuprof-cpu + LLVM -O2), "
          f"fastest of {runs} runs")
    print(f"  {'ops':>8} {'total ms':>10} {'parse':>8} {'lower':>9} "
          f"{'LLVM':>9} {'us/op':>7}")
    for size in sizes:
        total, parse, lower, llvm = best[size]
        print(f"  {actual[size]:8d} {total:10.1f} {parse:8.1f} {lower:9.1f} "
              f"{llvm:9.1f} {total * 1e3 / actual[size]:7.1f}")
        print(f"suite|compile|tpuprof-run compile, {size // 1000} k ops|"
              f"{total:.1f}||||ms|||n/a")
    for a, b in zip(sizes, sizes[1:]):
        growth, scale = best[b][0] / best[a][0], actual[b] / actual[a]
        span = f"{a // 1000} k -> {b // 1000} k ops"
        ok = growth <= 1.2 * scale
        print(f"  growth {span}: {growth:.2f}x for {scale:.1f}x the ops "
              f"({'linear' if ok else 'NOT linear'}: <= {1.2 * scale:.0f}x)")
        print(f"suite|compile|tpuprof-run compile growth, {span}|{growth:.2f}|"
              f"|||x||linear (<= {1.2 * scale:.0f}x)|{'met' if ok else 'NOT met'}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build", help="tpuprof build directory")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--run-sizes", default="1000,10000,100000",
                    help="model sizes for tpuprof-run's compile time "
                         "('' skips it)")
    ap.add_argument("--run-runs", type=int, default=1,
                    help="tpuprof-run compiles per size (100 k ops take "
                         "minutes)")
    args = ap.parse_args()
    if args.run_sizes:
        run_compile(args.build, [int(s) for s in args.run_sizes.split(",")],
                    args.run_runs)
    opt = os.path.join(args.build, "bin", "tpuprof-opt")
    if not os.access(opt, os.X_OK):
        sys.exit(f"compile_scaling: no {opt}; build tpuprof-opt first")
    sizes = [int(s) for s in args.sizes.split(",")]
    tmp = tempfile.mkdtemp(prefix="tpuprof-compile-scaling-")

    variants = [
        ("parse+print", []),
        ("instrument", ["--tpu-profile-instrument"]),
        ("instrument+lower", ["--tpu-profile-instrument", "--tpu-profile-lower"]),
        ("read instrumented", None),  # parse+print of the instrument output
    ]
    results = {}  # (size, variant) -> (median wall, max RSS KiB)
    pass_time = {}  # size -> median seconds of the instrument pass itself
    verify_time = {}  # the same, with the verifier that runs after the pass
    actual = {}
    for size in sizes:
        path = os.path.join(tmp, f"model-{size}.mlir")
        actual[size] = generate(path, size)
        walls = {v: [] for v, _ in variants}
        rss = {v: 0 for v, _ in variants}
        passes, verified = [], []
        instrumented = path + ".instrumented.mlir"
        run_once([opt, path, "-o", os.devnull])  # page cache, dynamic loader
        run_once([opt, path, "--tpu-profile-instrument", "-o", instrumented])
        for _ in range(args.runs):
            for name, extra in variants:
                cmd = ([opt, instrumented] if extra is None else
                       [opt, path, *extra])
                w, r, _ = run_once(cmd + ["-o", os.devnull])
                walls[name].append(w)
                rss[name] = max(rss[name], r)
        for _ in range(max(1, args.runs // 2)):
            # The pass's own work, then with the verifier that the pass
            # manager runs after it on the whole module (it is counted in
            # the pass's timer).
            for out, verify in ((passes, "false"), (verified, "true")):
                _, _, timing = run_once([opt, path, "--tpu-profile-instrument",
                                         f"--verify-each={verify}",
                                         "--mlir-timing", "-o", os.devnull])
                s = pass_seconds(timing, "TpuProfileInstrument")
                if s is not None:
                    out.append(s)
        for name, _ in variants:
            results[(size, name)] = (statistics.median(walls[name]), rss[name])
        pass_time[size] = statistics.median(passes) if passes else None
        verify_time[size] = statistics.median(verified) if verified else None
        os.remove(path)
        os.remove(instrumented)
    os.rmdir(tmp)

    print(f"tpuprof-opt on generated modules (tosa/linalg/tensor/arith, "
          f"{FUNCTIONS} functions), median of {args.runs} runs, alternating")
    print(f"  {'ops':>8} {'variant':18} {'wall ms':>9} {'ratio':>7} "
          f"{'max RSS MiB':>12} {'ratio':>7}")
    for size in sizes:
        bw, br = results[(size, "parse+print")]
        for name, _ in variants:
            w, r = results[(size, name)]
            print(f"  {actual[size]:8d} {name:18} {w * 1e3:9.1f} {w / bw:7.3f} "
                  f"{r / 1024:12.1f} {r / br:7.3f}")
        if pass_time[size] is not None:
            print(f"  {'':8} {'(pass alone)':18} {pass_time[size] * 1e3:9.1f} "
                  f"{pass_time[size] / bw:7.3f}   (--mlir-timing, --verify-each=false)")
        if verify_time[size] is not None:
            print(f"  {'':8} {'(pass + verifier)':18} {verify_time[size] * 1e3:9.1f} "
                  f"{verify_time[size] / bw:7.3f}   (--mlir-timing)")
    print("  growth from one size to the next (linear = 10x):")
    for a, b in zip(sizes, sizes[1:]):
        for name, _ in variants:
            wa, ra = results[(a, name)]
            wb, rb = results[(b, name)]
            print(f"    {name:18} {actual[a]:>7} -> {actual[b]:<7} time "
                  f"{wb / wa:6.2f}x  max RSS {rb / ra:6.2f}x")

    def suite(metric, value, peer, peer_value, unit, ratio, target, ok):
        """suite|compile|<metric>|<tpuprof>|<peer name>|<peer>|<unit>|<ratio>|
        <target>|<verdict>; `ok` None: no target."""
        verdict = "n/a" if ok is None else "met" if ok else "NOT met"
        print(f"suite|compile|{metric}|{value}|{peer}|{peer_value}|{unit}|"
              f"{ratio}|{target}|{verdict}")

    for size in sizes:
        bw, br = results[(size, "parse+print")]
        w, r = results[(size, "instrument")]
        label = f"{size // 1000} k ops"
        suite(f"instrument, {label}, time", f"{w * 1e3:.1f}", "parse+print",
              f"{bw * 1e3:.1f}", "ms", f"{w / bw:.3f}", "<= 10 % over",
              w / bw <= TARGET)
        suite(f"instrument, {label}, max RSS", f"{r / 1024:.1f}",
              "parse+print", f"{br / 1024:.1f}", "MiB", f"{r / br:.3f}",
              "<= 10 % over", r / br <= TARGET)
        if pass_time[size] is not None:
            p = pass_time[size]
            suite(f"pass alone, {label}", f"{p * 1e3:.1f}", "parse+print",
                  f"{bw * 1e3:.1f}", "ms", f"{p / bw:.3f}", "<= 0.10 of",
                  p / bw <= TARGET - 1)
        lw, lr = results[(size, "instrument+lower")]
        suite(f"instrument+lower, {label}, time", f"{lw * 1e3:.1f}",
              "parse+print", f"{bw * 1e3:.1f}", "ms", f"{lw / bw:.3f}", "",
              None)
        rw, _ = results[(size, "read instrumented")]
        suite(f"read instrumented, {label}, time", f"{rw * 1e3:.1f}",
              "parse+print", f"{bw * 1e3:.1f}", "ms", f"{rw / bw:.3f}", "",
              None)
    for a, b in zip(sizes, sizes[1:]):
        wa, ra = results[(a, "instrument")]
        wb, rb = results[(b, "instrument")]
        pa, _ = results[(a, "parse+print")]
        pb, _ = results[(b, "parse+print")]
        span = f"{a // 1000} k -> {b // 1000} k ops"
        # Linear within the noise and fixed costs: at most 12x for 10x ops.
        suite(f"time growth, {span}", f"{wb / wa:.2f}", "parse+print",
              f"{pb / pa:.2f}", "x", f"{(wb / wa) / (pb / pa):.3f}",
              "linear (<= 12x)", wb / wa <= 12)
        suite(f"max RSS growth, {span}", f"{rb / ra:.2f}", "", "", "x", "",
              "linear (<= 12x)", rb / ra <= 12)


if __name__ == "__main__":
    main()
