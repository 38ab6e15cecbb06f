#!/usr/bin/env python3
# ===- same_kernels.py - Compare the kernels of two builds -----------------===#
#
#   python3 same_kernels.py TPUPROF_OPT MODEL.mlir...
#
# Runs the built-in pipeline (with the tpuprof-opt given) on each model without
# probes, with kernel probes and with graph probes, prints the IR just before
# bufferization (after fusion, tiling and vectorization) and counts its
# linalg, scf and vector ops and the tensor ops that copy (pads, inserts). Prints one line per model and build,
# "MODEL BUILD probes=N ops=COUNT name,COUNT name,...", and exits 1 when the
# kernel build's ops differ from the uninstrumented build's.
#
# ===----------------------------------------------------------------------===#
import collections
import os
import re
import subprocess
import sys

OP = re.compile(r"(?:^|[=\s])((?:linalg|scf|vector)\.[a-z_0-9]+|"
                r"tensor\.(?:pad|insert_slice|concat))\b")
BUILDS = [("plain", ""), ("kernel", "{probe-level=kernel}"),
          ("graph", "{probe-level=graph}")]


def counts(opt, model, options):
    ir = subprocess.run(
        [opt, model,
         "--pass-pipeline=builtin.module(tpu-profile-cpu%s)" % options,
         "--mlir-print-ir-before=one-shot-bufferize", "-o", os.devnull],
        check=True, capture_output=True, text=True).stderr
    ops = collections.Counter()
    probes = 0
    for line in ir.splitlines():
        if re.search(r"\btpuprof\.begin\b", line):
            probes += 1
        ops.update(OP.findall(line))
    return probes, ops


status = 0
for model in sys.argv[2:]:
    name = os.path.splitext(os.path.basename(model))[0]
    seen = {}
    for build, options in BUILDS:
        probes, ops = counts(sys.argv[1], model, options)
        seen[build] = ops
        listed = ",".join("%d %s" % (ops[o], o) for o in sorted(ops))
        print("%s %s probes=%d ops=%d %s" %
              (name, build, probes, sum(ops.values()), listed))
    if seen["plain"] != seen["kernel"]:
        print("%s: the kernel-instrumented build's ops differ" % name,
              file=sys.stderr)
        status = 1
sys.exit(status)
