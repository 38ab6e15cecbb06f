#!/usr/bin/env python3
"""Kernel probes against no probes, both builds in one process
(docs/performance.md, "Kernel probes against no probes").

Each model is compiled by tpuprof-compile twice with the built-in
optimizing pipeline: without probes (--no-instrument) and with kernel probes
(the default: one pair per kernel, after fusion). bench/model_bench loads
both .so files into one process and calls them alternately with the same
inputs (A B, B A, ... for --seconds, at least --min-pairs pairs) while a
mode-0 window is open, as TPUPROF_ENABLE=1 TPUPROF_MODE=0 would: the probed
build records every call (the bench fails if its dump has no kernel rows),
the other runs no probe code. Each pair gives the relative difference of
its two calls; other tenants of a loaded machine slow both calls of a pair
alike, so the median of these differences resolves far less than the
spread of the calls themselves (model_bench also prints its
distribution-free 95 % interval within the process). That interval is too
narrow across processes: each process places the two builds' code and
buffers at other addresses, which moves the difference by a percent or two
either way. So each model runs in --runs processes, each on new copies
of the two .so files (where a file's pages fall in the caches is fixed
while the file lives, and moved the difference by +-3 % from copy to
copy), and the figure is the mean of their medians with its 95 % t
interval. Which build is copied, loaded and given its buffers first is
fixed within a process and biases it; odd runs put the probed build first,
so that bias cancels in the mean over an even number of runs (the probes-off
figure split by this order is printed below each model). With --copies K
each process takes K new copies of both builds and calls them in turn
(model_bench ab with K pairs of files), and its figure is the mean of the
copies' medians: the copy moves a figure more than the process, so for a
model whose calls are long against what the caches hold (resnet50) K
copies per process narrow the interval in less time than K times the
processes. For short models it changes what is measured (each call then
follows other copies' code and weights), so the default is one. Verdict against
the target
(< 1 %): met when the interval's upper end is below 1 %, NOT met when its
lower end is at or above it, unresolved otherwise. The fastest call of
each build is printed too. Each process is followed by one that alternates
the same builds with no window open (the probed build's probes off: a load
and a branch each): what the probed build's code costs apart from
recording; and by one that runs the probed build alone, blocks of calls
recorded and not in turn (model_bench onoff): what recording costs on the
same code at the same addresses, which no placement of the two builds
moves.

Models: the bundled examples (mlp.mlir at batch 64 and 1, convnet.mlir at
batch 8 and 1, elementwise-chain.mlir, test/run/Inputs/fused-calls.mlir;
batch 1 reported, not judged) and, with --models DIR, the ONNX models
bench/export-torchvision.py writes there (resnet50, mobilenet_v2, encoder;
--export writes missing ones first), run on their exported input (--data).

    python3 bench/kernel_overhead.py BUILD_DIR [--models DIR [--export]]
        [--names resnet50,...] [--bundled fused-calls,...] [--seconds S]
        [--work DIR]

--work DIR keeps the compiled models there and reuses them while they are
newer than their source and tpuprof-compile. Besides the table it prints
one `suite|levels|...` line per model for bench/suite.py.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_overhead import batched, env_without_profiling, tool  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYTHON = "/usr/bin/python3"
TARGET = 1.0  # percent
ONNX_MODELS = ["resnet50", "mobilenet_v2", "encoder"]
# (label, file, batch, judged)
BUNDLED = [("mlp batch 64", "examples/mlp.mlir", 64, True),
           ("mlp batch 1", "examples/mlp.mlir", 1, False),
           ("convnet batch 8", "examples/convnet.mlir", 8, True),
           ("convnet batch 1", "examples/convnet.mlir", 1, False),
           ("elementwise-chain", "examples/elementwise-chain.mlir", 1, True),
           ("fused-calls", "test/run/Inputs/fused-calls.mlir", 1, True)]


def die(msg):
    sys.exit(f"{os.path.basename(sys.argv[0])}: error: {msg}")


def sh(cmd, env=None):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        die(f"{' '.join(cmd)} failed (exit {p.returncode}): "
            f"{(p.stderr or p.stdout).strip()[-2000:]}")
    return p.stdout


def compiled(compile_, source, out, flags, env):
    """`source` compiled to `out` with `flags`, reusing `out` while it is
    newer than the source and the compiler."""
    if (os.path.exists(out) and
            os.path.getmtime(out) > max(os.path.getmtime(source),
                                        os.path.getmtime(compile_))):
        return out
    sh([compile_, source, "-o", out] + flags, env)
    return out


def fresh_copy(path, run, copy_no=0):
    """`path` written anew as PATH.runRUN.so. A .so is mapped from the page
    cache, and where the physical pages of its code and weights fall in
    the caches is fixed for as long as the file lives: the same two
    resnet50 builds gave +0.5 %, +2.0 % and -2.7 % with their probes off
    in three copies of the files, three processes each, that agreed within
    a copy. Each run gets new pages, so the interval over runs covers that
    placement too."""
    copy = f"{path.removesuffix('.so')}.run{run}.{copy_no}.so"
    shutil.copyfile(path, copy)
    os.chmod(copy, 0o755)
    return copy


def export_models(models, names):
    """Exports the missing models; returns {name: why} for those that could
    not be (no torch under /usr/bin/python3, an exporter error)."""
    missing = [n for n in names
               if not os.path.exists(os.path.join(models, n, "model.onnx"))]
    if not missing:
        return {}
    p = subprocess.run([PYTHON, os.path.join(ROOT, "bench",
                                             "export-torchvision.py"),
                        models] + missing, capture_output=True, text=True)
    if p.returncode == 0:
        return {}
    last = (p.stderr.strip().splitlines() or ["no message"])[-1]
    return {n: f"not exported ({last[:80]})" for n in missing}


def onnx_cases(models, names, export, section, metric):
    """(label, model, data dir, judged) per ONNX model; a model that is
    missing and cannot be exported (with --export) is a `skipped:` suite
    line instead."""
    if not models:
        return []
    failed = export_models(models, names) if export else {}
    cases = []
    for n in names:
        model = os.path.join(models, n, "model.onnx")
        if n in failed:
            print(f"suite|{section}|{n}{metric}|||||||skipped: {failed[n]}")
            continue
        if not os.path.exists(model):
            die(f"no {model}; run /usr/bin/python3 bench/export-torchvision.py "
                f"{models} {n} (or pass --export)")
        cases.append((n, model, os.path.join(models, n, "test_data_set_0"),
                      True))
    return cases


def parse_fields(line):
    tag, *rest = line.split("\t")
    fields = {}
    for item in rest:
        key, _, value = item.partition("=")
        fields[key] = value
    return tag, fields


def fresh_dumps(dumps):
    """`dumps` emptied: nothing reads a process's dumps after it, and onoff
    leaves one per recorded block, thousands a second: left, they fill the
    directory with hundreds of thousands of files over a long run."""
    shutil.rmtree(dumps, ignore_errors=True)
    return dumps


def ab(bench, pairs, data, seconds, min_pairs, dumps, env, window, first):
    """model_bench ab on [(plain, probed), ...] (copies of the two builds):
    {"ab": [fields per copy], "dump": fields}."""
    cmd = [bench, "ab"] + [f for pair in pairs for f in pair] + [
        "--seconds", str(seconds), "--min-pairs", str(min_pairs),
        "--output", fresh_dumps(dumps), "--window", window, "--first", first]
    if data:
        cmd += ["--data", data]
    result = {"ab": []}
    for line in sh(cmd, env).splitlines():
        tag, fields = parse_fields(line)
        if tag == "ab":
            result["ab"].append(fields)
        else:
            result[tag] = fields
    if len(result["ab"]) != len(pairs) or (window == "open"
                                           and "dump" not in result):
        die(f"no result from {' '.join(cmd)}")
    return result


def process_figure(lines):
    """A process's figure: the mean over its copies of each copy's median
    paired difference (one copy: that median)."""
    return statistics.fmean(float(f["diff_median_pct"]) for f in lines)


def onoff(bench, probed, data, seconds, min_pairs, dumps, env):
    cmd = [bench, "onoff", probed, "--seconds", str(seconds),
           "--min-pairs", str(min_pairs), "--output", fresh_dumps(dumps)]
    if data:
        cmd += ["--data", data]
    for line in sh(cmd, env).splitlines():
        tag, fields = parse_fields(line)
        if tag == "onoff":
            return fields
    die(f"no result from {' '.join(cmd)}")


# Two-sided 95 % quantiles of Student's t by degrees of freedom.
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447,
       7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228, 15: 2.131, 20: 2.086,
       30: 2.042}


def mean_interval(values):
    """Mean and 95 % t interval of per-run figures (NaN bounds for one)."""
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, float("nan"), float("nan")
    df = len(values) - 1
    t = T95[max(k for k in T95 if k <= df)]
    half = t * statistics.stdev(values) / len(values) ** 0.5
    return m, m - half, m + half


def verdict(lo, hi, judged):
    if not judged:
        return "n/a"
    if hi != hi:  # NaN: too few pairs for an interval
        return "unresolved"
    if hi < TARGET:
        return "met"
    if lo >= TARGET:
        return "NOT met"
    return "unresolved"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build", help="tpuprof build directory")
    ap.add_argument("--models", help="bench/export-torchvision.py's OUTDIR")
    ap.add_argument("--names", default=",".join(ONNX_MODELS),
                    help="ONNX models under --models (default: %(default)s)")
    ap.add_argument("--export", action="store_true",
                    help="export missing ONNX models first (torch)")
    ap.add_argument("--no-bundled", action="store_true",
                    help="only the ONNX models")
    ap.add_argument("--bundled", metavar="LABELS",
                    help="only these bundled models, e.g. fused-calls,"
                         "mlp-batch-64 (default: all)")
    ap.add_argument("--runs", type=int, default=6,
                    help="processes per model and window state, best even "
                         "(default 6)")
    ap.add_argument("--seconds", type=float, default=4,
                    help="alternating calls per process, seconds (default 4)")
    ap.add_argument("--min-pairs", type=int, default=10)
    ap.add_argument("--copies", type=int, default=1,
                    help="copies of both builds per process, called in turn "
                         "(default 1; see the top)")
    ap.add_argument("--work", help="keep compiled models here")
    args = ap.parse_args()
    if args.seconds < 0 or min(args.min_pairs, args.runs, args.copies) < 1:
        die("--seconds must be >= 0, --min-pairs, --runs and --copies >= 1")
    compile_ = tool(args.build, "tpuprof-compile")
    bench = tool(args.build, "model_bench")
    env = env_without_profiling()
    work = args.work or tempfile.mkdtemp(prefix="tpuprof-kernel-overhead-")
    os.makedirs(work, exist_ok=True)
    dumps = os.path.join(work, "dumps")

    cases = []
    labels = [label.replace(" ", "-") for label, *_ in BUNDLED]
    chosen = args.bundled.split(",") if args.bundled else labels
    for label in chosen:
        if label not in labels:
            die(f"--bundled: no bundled model '{label}' "
                f"(known: {', '.join(labels)})")
    if not args.no_bundled:
        for label, src, batch, judged in BUNDLED:
            if label.replace(" ", "-") not in chosen:
                continue
            cases.append((label, batched(os.path.join(ROOT, src), batch, work),
                          None, judged))
    cases += onnx_cases(args.models, [n for n in args.names.split(",") if n],
                        args.export, "levels", ", kernel probes, paired calls")

    print(f"Kernel probes (mode 0, window open) against no probes, both "
          f"builds in one process, alternating calls for {args.seconds:g} s "
          f"(at least {args.min_pairs} pairs) in each of {args.runs} "
          f"processes, {args.copies} cop{'y' if args.copies == 1 else 'ies'} "
          f"of both builds each; load average {os.getloadavg()[0]:.2f}")
    print(f"  {'model':20} {'plain min':>10} {'probed min':>10} "
          f"{'paired diff':>11} {'95 % CI':>19} {'runs (each one median)':>34}"
          f"  {'rows':>5} {'probes off':>11} {'recording':>10}"
          f"  verdict (< 1 %)")
    lines = []
    for label, source, data, judged in cases:
        stem = label.replace(" ", "-")
        plain = compiled(compile_, source, os.path.join(work, stem + "-plain.so"),
                         ["--no-instrument"], env)
        probed = compiled(compile_, source, os.path.join(work, stem + "-kernel.so"),
                          ["--probe-level=kernel"], env)
        on, off, recording, rows = [], [], [], set()
        for run in range(args.runs):
            # Odd runs copy and load the probed build first (see the top).
            first = "probed" if run % 2 else "plain"
            pairs = []
            for k in range(args.copies):
                if first == "plain":
                    a, b = fresh_copy(plain, run, k), fresh_copy(probed, run, k)
                else:
                    b, a = fresh_copy(probed, run, k), fresh_copy(plain, run, k)
                pairs.append((a, b))
            r = ab(bench, pairs, data, args.seconds, args.min_pairs, dumps,
                   env, "open", first)
            on.append(r["ab"])
            rows.add(r["dump"]["rows"])
            off.append(ab(bench, pairs, data, args.seconds, args.min_pairs,
                          dumps, env, "off", first)["ab"])
            recording.append(float(onoff(bench, pairs[0][1], data,
                                         args.seconds, args.min_pairs, dumps,
                                         env)["diff_median_pct"]))
            for pair in pairs:
                for f in pair:
                    os.remove(f)
        every_on = [f for lines in on for f in lines]
        every_off = [f for lines in off for f in lines]
        pmin = min(float(a["plain_min_ms"]) for a in every_on + every_off)
        bmin = min(float(a["probed_min_ms"]) for a in every_on)
        pmed = statistics.median(float(a["plain_median_ms"]) for a in every_on)
        bmed = statistics.median(float(a["probed_median_ms"]) for a in every_on)
        diffs = [process_figure(lines) for lines in on]
        diff, lo, hi = mean_interval(diffs)
        odiffs = [process_figure(lines) for lines in off]
        odiff, olo, ohi = mean_interval(odiffs)
        rdiff, rlo, rhi = mean_interval(recording)
        v = verdict(lo, hi, judged)
        resolved = "resolved" if (lo > 0 or hi < 0) else "not resolved from 0"
        runs = " ".join(f"{x:+.2f}" for x in diffs)
        by_order = [statistics.fmean(odiffs[k::2]) if odiffs[k::2] else
                    float("nan") for k in (0, 1)]
        print(f"  {label:20} {pmin:10.4f} {bmin:10.4f} {diff:+10.2f}% "
              f"[{lo:+7.2f}, {hi:+7.2f}] % {runs:>34}  "
              f"{'/'.join(sorted(rows)):>5} {odiff:+10.2f}% "
              f"{rdiff:+9.2f}%  {v if judged else '(reported)'}; {resolved}")
        print(f"  {'':20} probes off by load order: plain first "
              f"{by_order[0]:+.2f} %, probed first {by_order[1]:+.2f} %; "
              f"recording from {min(recording):+.2f} to "
              f"{max(recording):+.2f} %")
        lines.append(f"suite|levels|{label}, kernel probes, paired calls|"
                     f"{bmed:.4f}|no probes|{pmed:.4f}|ms|"
                     f"{1 + diff / 100:.4f}|< {TARGET:g} % (95 % CI "
                     f"[{lo:+.2f}, {hi:+.2f}] %)|{v}")
        lines.append(f"suite|levels|{label}, kernel probes off, paired calls|"
                     f"-|no probes|-|%|{1 + odiff / 100:.4f}|"
                     f"(95 % CI [{olo:+.2f}, {ohi:+.2f}] %)|n/a")
        lines.append(f"suite|levels|{label}, recording alone, paired calls|"
                     f"-|not recording|-|%|{1 + rdiff / 100:.4f}|"
                     f"(95 % CI [{rlo:+.2f}, {rhi:+.2f}] %)|n/a")
    print("  (ms per call; paired diff: the mean over runs of each run's "
          "median over pairs of probed/plain - 1, with its t interval; rows: "
          "kernel rows in the probed build's dump; probes off: the same "
          "pairs with no window open; recording: the probed build alone, "
          "recorded over not recorded, mean over runs)")
    for line in lines:
        print(line)


if __name__ == "__main__":
    main()
