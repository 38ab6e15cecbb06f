#!/usr/bin/env python3
"""One command for every tpuprof benchmark (docs/performance.md, "The suite").

    python3 bench/suite.py [--build DIR] [--runs N] [--quick]
                           [--only SECTION,...] [--markdown FILE]

Installs what the build needs (scripts/install-deps.sh), configures and
builds tpuprof with clang-19 in DIR (default build-bench, RelWithDebInfo),
runs every benchmark component, collects the `suite|...` lines each prints
and prints ONE table: tpuprof's figure, the peer's figure and their ratio,
each pair measured in the same run of its component (the components
interleave their variants and take medians over --runs runs or rounds),
next to the target and whether it is met. A component that is missing
(not built, not in this checkout) or fails gives a row saying so; the suite
goes on. --markdown writes the same table, with the machine and the command,
as markdown: `--markdown bench/results.md` refreshes the results that
docs/performance.md refers to.

The line every component prints, once per figure (fields may be empty):

    suite|section|metric|tpuprof|peer|peer value|unit|ratio|target|verdict

--repeat K runs each component K times as whole processes; a figure
printed more than once is then shown from its median run (by ratio, or by
tpuprof's value when there is no ratio), so a pair always comes from one
run. --from-output FILE... skips installing, building and running, and
tabulates component output saved earlier (what the lit test does).
"""
import argparse
import datetime
import os
import platform
import shlex
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIELDS = ["section", "metric", "tpuprof", "peer", "peer_value", "unit",
          "ratio", "target", "verdict"]
HEADINGS = ["section", "metric", "tpuprof", "peer", "peer value", "unit",
            "ratio", "target", "verdict"]


class Component:
    """One benchmark program: its section, what it needs, how to run it."""

    def __init__(self, section, what, needs, argv, timeout, log=None):
        self.section = section
        self.what = what
        self.needs = needs  # (path, hint) pairs that must exist
        self.argv = argv    # (build, runs, quick) -> argument list
        self.timeout = timeout  # seconds (full run); quick runs get a third
        # Output file name in bench-logs/, without .log; components that
        # share a section need their own.
        self.log = log or section


def components():
    """Every component, in table order. Paths are absolute."""
    py = sys.executable
    b = lambda build, name: os.path.join(build, "bin", name)
    src = lambda rel: os.path.join(ROOT, rel)
    built = "not built (a build with TPUPROF_ENABLE_BENCH=ON builds it)"
    absent = "not in this checkout"
    return [
        Component(
            "probe", "probe pair vs XRay, -finstrument-functions, PAPI",
            lambda build: [(b(build, "probe_overhead"), built)],
            lambda build, runs, quick: [b(build, "probe_overhead"),
                                        "--rounds", str(3 * runs)] +
            (["--calls", str(1 << 18)] if quick else []),
            300),
        Component(
            "store", "whole process keeping every record vs XRay FDR",
            lambda build: [(src("bench/whole_process.py"), absent),
                           (os.path.join(build, "lib", "TpuProfilePlugin.so"),
                            built)],
            lambda build, runs, quick: [py, src("bench/whole_process.py"),
                                        build, "--runs", str(runs)] +
            (["--calls", "1000000"] if quick else []),
            600),
        Component(
            "counters", "mode-1 pair vs raw group reads and PAPI_read",
            lambda build: [(b(build, "counter_overhead"), built)],
            lambda build, runs, quick: [b(build, "counter_overhead"),
                                        "--rounds", str(3 * runs)] +
            (["--pairs", "20000"] if quick else []),
            300),
        Component(
            "truth", "measurement truth: corrected time of an empty op",
            lambda build: [(b(build, "correction_accuracy"), built)],
            lambda build, runs, quick: [b(build, "correction_accuracy"),
                                        "--rounds", str(runs)],
            600),
        Component(
            "truth", "short ops and their parents vs uninstrumented (C, plugin)",
            lambda build: [(b(build, "correction_truth"), built)],
            # The target is 5 of 5 runs: always 5.
            lambda build, runs, quick: [b(build, "correction_truth"),
                                        "--runs", "5"],
            300),
        Component(
            "truth", "calibration start-up cost (a child process per run)",
            lambda build: [(b(build, "correction_accuracy"), built)],
            lambda build, runs, quick: [b(build, "correction_accuracy"),
                                        "--startup", "--rounds", str(runs)],
            300, log="truth-startup"),
        Component(
            "e2e", "end-to-end overhead per mode (tpuprof-run, OpenMP)",
            lambda build: [(src("bench/e2e_overhead.py"), absent),
                           (b(build, "tpuprof-run"), built)],
            lambda build, runs, quick: [py, src("bench/e2e_overhead.py"),
                                        build, "--runs", str(runs)],
            1800),
        Component(
            "pytorch", "bundled models without probes vs PyTorch eager",
            lambda build: [(src("bench/vs_pytorch.py"), absent),
                           (b(build, "tpuprof-run"), built)],
            lambda build, runs, quick: [py, src("bench/vs_pytorch.py"),
                                        build, "--runs", str(runs)],
            1200),
        Component(
            "compiled", "models compiled ahead of time, probes off vs --no-instrument",
            lambda build: [(src("bench/compiled_off.py"), absent),
                           (b(build, "tpuprof-compile"), built)],
            lambda build, runs, quick: [py, src("bench/compiled_off.py"),
                                        build, "--runs", str(runs)],
            900),
        Component(
            "levels", "kernel and graph probes vs no probes, same pipeline",
            lambda build: [(src("bench/probe_levels.py"), absent),
                           (b(build, "tpuprof-run"), built)],
            lambda build, runs, quick: [py, src("bench/probe_levels.py"),
                                        build, "--runs", str(runs)],
            1200),
        Component(
            "levels", "kernel probes vs no probes, both builds in one process "
            "(bundled and ONNX models)",
            lambda build: [(src("bench/kernel_overhead.py"), absent),
                           (b(build, "model_bench"), built)],
            lambda build, runs, quick: [py, src("bench/kernel_overhead.py"),
                                        # Even: half the runs load each
                                        # build first.
                                        build, "--runs", str(runs + runs % 2),
                                        "--models", os.path.join(build, "models"),
                                        "--export",
                                        "--work", os.path.join(build, "bench-models")] +
            (["--seconds", "2", "--names", "encoder"] if quick else []),
            3600, log="levels-ab"),
        Component(
            "kernels", "kernel rows vs each kernel alone without probes",
            lambda build: [(src("bench/kernel_alone.py"), absent),
                           (b(build, "model_bench"), built)],
            lambda build, runs, quick: [py, src("bench/kernel_alone.py"),
                                        build,
                                        "--models", os.path.join(build, "models"),
                                        "--export",
                                        "--work", os.path.join(build, "bench-models")] +
            (["--calls", "20", "--names", "encoder"] if quick else
             ["--calls", "50", "--names", "resnet50"]),
            3600),
        Component(
            "compile", "--tpu-profile-instrument and tpuprof-run's compile on 1 k-100 k op modules",
            lambda build: [(src("bench/compile_scaling.py"), absent),
                           (b(build, "tpuprof-opt"), built)],
            lambda build, runs, quick: [py, src("bench/compile_scaling.py"),
                                        build, "--runs", str(runs)] +
            (["--sizes", "1000,10000", "--run-sizes", "1000,10000"]
             if quick else []),
            3600),
        Component(
            "report", "aggregation, trace export, dump writing",
            lambda build: [(src("bench/report_bench.sh"), absent),
                           (b(build, "tpuprof-gen-dumps"), built),
                           (b(build, "tpuprof-report"), built)],
            lambda build, runs, quick: ["bash", src("bench/report_bench.sh"),
                                        build] + ([] if quick else ["--big"]),
            1800),
        Component(
            "plugin", "LLVM plugin: OpenMP run time, large-TU compile time",
            lambda build: [(src("bench/llvm_plugin/run.py"), absent),
                           (os.path.join(build, "lib", "TpuProfilePlugin.so"),
                            built)],
            lambda build, runs, quick: [py, src("bench/llvm_plugin/run.py"),
                                        build, "--runs", str(runs)] +
            (["--iters", "2000", "--functions", "150",
              "--callgrind-functions", "20"] if quick else
             ["--iters", "10000", "--functions", "600"]),
            1800),
        Component(
            "memory", "a tracked malloc/free pair against a plain one",
            lambda build: [(b(build, "memory_overhead"), built)],
            lambda build, runs, quick: [b(build, "memory_overhead"),
                                        "--rounds", str(3 * runs)] +
            (["--pairs", "100000"] if quick else []),
            300),
        Component(
            "memory", "memory tracking end to end (tpuprof-run --memory)",
            lambda build: [(src("bench/memory_e2e.py"), absent),
                           (b(build, "tpuprof-run"), built)],
            lambda build, runs, quick: [py, src("bench/memory_e2e.py"),
                                        build, "--runs", str(runs)],
            1800, log="memory-e2e"),
        Component(
            "device", "device timing per OpenCL launch on PoCL",
            lambda build: [(src("bench/device_overhead.py"), absent),
                           (os.path.join(build, "lib", "TpuProfilePlugin.so"),
                            built)],
            lambda build, runs, quick: [py, src("bench/device_overhead.py"),
                                        build, "--runs", str(runs)] +
            (["--launches", "6000"] if quick else []),
            900, log="device"),
        Component(
            "device-vulkan", "device timing per Vulkan dispatch on lavapipe",
            lambda build: [(src("bench/device_overhead_vulkan.py"), absent),
                           (os.path.join(build, "lib", "TpuProfilePlugin.so"),
                            built)],
            lambda build, runs, quick: [py,
                                        src("bench/device_overhead_vulkan.py"),
                                        build, "--runs", str(runs)] +
            (["--launches", "6000"] if quick else []),
            900, log="device-vulkan"),
    ]


# --- Parsing and aggregation (no I/O: the lit test drives these) ---------

def parse_lines(text, source, warnings):
    """The suite rows in a component's output, as dicts. Lines that start
    with `suite|` but do not have the 10 fields are reported, not kept."""
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.startswith("suite|"):
            continue
        parts = line.rstrip("\n").split("|")[1:]
        if len(parts) != len(FIELDS):
            warnings.append(f"{source}:{number}: malformed suite line "
                            f"({len(parts) + 1} fields, want "
                            f"{len(FIELDS) + 1}): "
                            f"{line.strip()}")
            continue
        rows.append({k: v.strip() for k, v in zip(FIELDS, parts)})
    return rows


def as_float(text):
    try:
        return float(text)
    except ValueError:
        return None


def aggregate(rows):
    """One row per (section, metric, peer), in first-seen order. Where a
    figure came from several runs, the median run's row is kept whole (its
    pair was measured together) and `runs` says how many there were."""
    groups = {}
    for row in rows:
        groups.setdefault((row["section"], row["metric"], row["peer"]),
                          []).append(row)
    result = []
    for same in groups.values():
        # Runs with both figures first, then runs with tpuprof's alone
        # (the peer was skipped), then whatever there is.
        key, pool = "ratio", [r for r in same if as_float(r["ratio"]) is not None]
        if not pool:
            key, pool = "tpuprof", [r for r in same
                                    if as_float(r["tpuprof"]) is not None]
        if not pool:
            pool = same
        ordered = sorted(pool, key=lambda r: as_float(r[key]) or 0.0)
        pick = dict(ordered[(len(ordered) - 1) // 2])  # the lower median
        pick["runs"] = len(same)
        result.append(pick)
    return result


def skipped_row(section, metric, why):
    return {"section": section, "metric": metric, "tpuprof": "", "peer": "",
            "peer_value": "", "unit": "", "ratio": "", "target": "",
            "verdict": why, "runs": 0}


def cells(row):
    value = row["tpuprof"]
    if row.get("runs", 1) > 1:
        value += f" (median run of {row['runs']})"
    return [row["section"], row["metric"], value, row["peer"],
            row["peer_value"], row["unit"], row["ratio"], row["target"],
            row["verdict"]]


def text_table(rows):
    table = [HEADINGS] + [cells(r) for r in rows]
    widths = [max(len(line[i]) for line in table) for i in range(len(HEADINGS))]
    numeric = {2, 4, 6}
    out = []
    for n, line in enumerate(table):
        out.append("  ".join(
            c.rjust(w) if i in numeric and n else c.ljust(w)
            for i, (c, w) in enumerate(zip(line, widths))).rstrip())
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def markdown_table(rows):
    esc = lambda c: c.replace("|", "\\|")
    out = ["| " + " | ".join(HEADINGS) + " |",
           "| " + " | ".join("---" if i not in (2, 4, 6) else "---:"
                             for i in range(len(HEADINGS))) + " |"]
    for r in rows:
        c = [esc(x) for x in cells(r)]
        if c[8] == "NOT met":
            c[8] = "**NOT met**"
        out.append("| " + " | ".join(c) + " |")
    return "\n".join(out)


def tally(rows):
    met = sum(r["verdict"] == "met" for r in rows)
    missed = sum(r["verdict"] == "NOT met" for r in rows)
    skipped = sum(r["verdict"].startswith(("skipped", "failed")) or
                  r["peer_value"].startswith("skipped") for r in rows)
    return (f"{len(rows)} figures: {met} targets met, {missed} NOT met, "
            f"{skipped} skipped or failed")


# --- The machine ----------------------------------------------------------

def first_line(argv):
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=30)
        return (out.stdout or out.stderr).strip().splitlines()[0]
    except (OSError, IndexError, subprocess.SubprocessError):
        return "unknown"


def machine(start_load):
    cpu, virt = "unknown CPU", ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name") and cpu == "unknown CPU":
                    cpu = line.split(":", 1)[1].strip()
                if line.startswith("flags") and " hypervisor" in line:
                    virt = ", virtualized"
    except OSError:
        pass
    end_load = os.getloadavg()
    fmt = lambda l: " ".join(f"{x:.2f}" for x in l)
    return [
        f"date:     {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M UTC}",
        f"machine:  {cpu} ({os.cpu_count()} CPUs{virt}), "
        f"{platform.system()} {platform.release()}",
        f"compiler: {first_line(['clang-19', '--version'])}",
        f"load:     {fmt(start_load)} at start, {fmt(end_load)} at end "
        f"(1, 5, 15 min averages)",
    ]


# --- Install, build, run --------------------------------------------------

def step(what, argv, log):
    print(f"suite: {what}: {' '.join(shlex.quote(a) for a in argv)}",
          file=sys.stderr, flush=True)
    with open(log, "a") as f:
        f.write(f"$ {' '.join(argv)}\n")
        f.flush()
        return subprocess.run(argv, stdout=f, stderr=subprocess.STDOUT).returncode


def prepare(args, log, notes):
    if not args.no_deps:
        if step("install-deps", ["bash", os.path.join(ROOT, "scripts",
                                                      "install-deps.sh")], log):
            notes.append(f"scripts/install-deps.sh failed (see {log}); "
                         "going on with what is installed")
    if args.no_build:
        return
    if not os.path.exists(os.path.join(args.build, "CMakeCache.txt")):
        if step("configure", [
                "cmake", "-G", "Ninja", "-S", ROOT, "-B", args.build,
                "-DCMAKE_C_COMPILER=clang-19", "-DCMAKE_CXX_COMPILER=clang++-19",
                "-DMLIR_DIR=/usr/lib/llvm-19/lib/cmake/mlir",
                "-DCMAKE_BUILD_TYPE=RelWithDebInfo"], log):
            notes.append(f"configuring {args.build} failed (see {log})")
            return
    # -k 0: build all that builds, so one broken target skips only what
    # needs it.
    if step("build", ["cmake", "--build", args.build, "-j", str(args.jobs),
                      "--", "-k", "0"], log):
        notes.append(f"the build had errors (see {log}); components that "
                     "were not built are skipped")


def settle(limit, notes):
    """Waits, at most `limit` seconds, until the 1-minute load average falls
    below half the CPUs: the build just before leaves it high for a minute
    or two, and figures taken in that tail were seen 10 % off."""
    if limit <= 0:
        return
    threshold = (os.cpu_count() or 2) / 2
    first = os.getloadavg()[0]
    waited = 0
    while os.getloadavg()[0] >= threshold and waited < limit:
        time.sleep(5)
        waited += 5
    if waited:
        last = os.getloadavg()[0]
        notes.append(f"waited {waited} s before the first component for the "
                     f"1-minute load average to fall below {threshold:g} "
                     f"({first:.2f} -> {last:.2f}"
                     f"{'' if last < threshold else ', gave up'})")


def run_component(comp, args, logdir, warnings):
    missing = [(p, hint) for p, hint in comp.needs(args.build)
               if not os.path.exists(p)]
    if missing:
        p, hint = missing[0]
        return [skipped_row(comp.section, comp.what,
                            f"skipped: {os.path.relpath(p, ROOT)} {hint}")]
    argv = comp.argv(args.build, args.runs, args.quick)
    timeout = comp.timeout // 3 if args.quick else comp.timeout
    rows = []
    for k in range(args.repeat):
        print(f"suite: {comp.section}: {' '.join(shlex.quote(a) for a in argv)}",
              file=sys.stderr, flush=True)
        log = os.path.join(logdir, f"{comp.log}.log")
        t0 = time.monotonic()
        try:
            out = subprocess.run(argv, capture_output=True, text=True,
                                 timeout=timeout, cwd=ROOT)
            stdout, stderr, rc = out.stdout, out.stderr, out.returncode
        except subprocess.TimeoutExpired as e:
            stdout = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
            stderr, rc = f"timed out after {timeout} s", None
        with open(log, "a" if k else "w") as f:
            f.write(f"$ {' '.join(argv)}   ({time.monotonic() - t0:.1f} s)\n")
            f.write(stdout + stderr)
        found = parse_lines(stdout, log, warnings)
        rows += found
        if rc != 0:
            last = (stderr.strip().splitlines() or ["no message"])[-1]
            why = (f"failed: {last}" if rc is None else
                   f"failed: exit {rc}: {last}")
            rows.append(skipped_row(comp.section, comp.what, why[:160]))
            break
        if not found:
            rows.append(skipped_row(comp.section, comp.what,
                                    "failed: printed no suite| lines"))
            break
    return rows


def main():
    ap = argparse.ArgumentParser(
        description="Build and run every tpuprof benchmark; print one table.")
    ap.add_argument("--build", default=os.path.join(ROOT, "build-bench"),
                    help="build directory (default: build-bench)")
    ap.add_argument("--runs", type=int, default=None,
                    help="runs or rounds per component (default 5, quick 3)")
    ap.add_argument("--repeat", type=int, default=1,
                    help="whole-process runs of each component (default 1)")
    ap.add_argument("--quick", action="store_true",
                    help="smaller sizes and fewer runs: a few minutes")
    ap.add_argument("--only", default="",
                    help="comma-separated sections: " +
                    ",".join(dict.fromkeys(c.section for c in components())))
    ap.add_argument("--markdown", metavar="FILE",
                    help="also write the table as markdown")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--no-deps", action="store_true",
                    help="do not run scripts/install-deps.sh")
    ap.add_argument("--no-build", action="store_true",
                    help="use the build directory as it is")
    ap.add_argument("--settle", type=int, default=120, metavar="SECONDS",
                    help="after the build, wait up to this long for the "
                    "load average to fall below half the CPUs (0: don't)")
    ap.add_argument("--from-output", nargs="+", metavar="FILE",
                    help="tabulate saved component output instead of running")
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)
    if args.runs is None:
        args.runs = 3 if args.quick else 5
    if args.runs < 1 or args.repeat < 1:
        ap.error("--runs and --repeat must be at least 1")
    known = list(dict.fromkeys(c.section for c in components()))
    only = [s for s in args.only.split(",") if s]
    for s in only:
        if s not in known:
            ap.error(f"--only: unknown section '{s}' (known: {','.join(known)})")

    start_load = os.getloadavg()
    warnings, notes, rows = [], [], []
    if args.from_output:
        for path in args.from_output:
            try:
                with open(path) as f:
                    rows += parse_lines(f.read(), path, warnings)
            except OSError as e:
                print(f"suite: error: cannot read {path}: {e.strerror}",
                      file=sys.stderr)
                return 1
    else:
        os.makedirs(args.build, exist_ok=True)
        logdir = os.path.join(args.build, "bench-logs")
        os.makedirs(logdir, exist_ok=True)
        prepare(args, os.path.join(logdir, "prepare.log"), notes)
        settle(args.settle, notes)
        start_load = os.getloadavg()
        for comp in components():
            if only and comp.section not in only:
                continue
            rows += run_component(comp, args, logdir, warnings)
        notes.append(f"each component's full output: {logdir}/SECTION.log "
                     "(truth-startup.log: correction_accuracy --startup)")
    rows = aggregate(rows)

    command = "python3 bench/suite.py " + " ".join(
        shlex.quote(a) for a in sys.argv[1:])
    head = machine(start_load) + [f"command:  {command.strip()}"]
    print("\n".join(head) + "\n")
    print(text_table(rows))
    print("\n" + tally(rows))
    for n in notes:
        print("note: " + n)
    for w in warnings:
        print("warning: " + w, file=sys.stderr)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join("    " + h for h in head) + "\n\n")
            f.write(markdown_table(rows) + "\n\n" + tally(rows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
