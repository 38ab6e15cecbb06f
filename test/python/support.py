"""Shared by the Python tests: the installed tree, and a C library that
links its runtime (compiled once per run with the installed LLVM plugin)."""

import ctypes
import os
import subprocess
import tempfile

PREFIX = os.environ["TPUPROF_TEST_PREFIX"]
CC = os.environ.get("TPUPROF_TEST_CC", "clang-19")
WORK = os.environ.get("TPUPROF_TEST_WORK") or tempfile.mkdtemp(prefix="tpuprof-py-")
PLUGIN = os.path.join(PREFIX, "lib", "TpuProfilePlugin.so")
HAVE_PLUGIN = os.path.exists(PLUGIN)
REPORT = os.path.join(PREFIX, "bin", "tpuprof-report")
INPUTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs")
SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COMPILE = os.path.join(PREFIX, "bin", "tpuprof-compile")

_model = None


def model():
    """The ctypes handle of Inputs/model.c, built against the installed tree."""
    global _model
    if _model is None:
        os.makedirs(WORK, exist_ok=True)
        out = os.path.join(WORK, "libmodel.so")
        lib = os.path.join(PREFIX, "lib")
        cmd = [CC, "-O1", "-shared", "-fPIC", os.path.join(INPUTS, "model.c"), "-o", out,
               "-I" + os.path.join(PREFIX, "include"), "-L" + lib, "-ltpuprof_rt",
               "-Wl,-rpath," + lib]
        if HAVE_PLUGIN:
            cmd.insert(1, "-fpass-plugin=" + PLUGIN)
        subprocess.run(cmd, check=True)
        _model = ctypes.CDLL(out)
        for name in ("model_kernel", "model_forward", "model_layer"):
            getattr(_model, name).restype = ctypes.c_double
            getattr(_model, name).argtypes = [ctypes.c_int]
    return _model


_compiled = {}


def compiled_mlp(no_instrument=False):
    """The bundled MLP compiled by the installed tpuprof-compile (once per run)."""
    if no_instrument not in _compiled:
        os.makedirs(WORK, exist_ok=True)
        out = os.path.join(WORK, "plain-mlp.so" if no_instrument else "mlp.so")
        cmd = [COMPILE, os.path.join(SOURCE, "examples", "mlp.mlir"), "-o", out, "--prefix=mlp"]
        # Graph probes: the tests read one row per TOSA op.
        subprocess.run(cmd + (["--no-instrument"] if no_instrument
                              else ["--probe-level=graph"]), check=True)
        _compiled[no_instrument] = out
    return _compiled[no_instrument]


def report(*args):
    """stdout of the installed tpuprof-report."""
    return subprocess.run([REPORT] + list(args), check=True, stdout=subprocess.PIPE,
                          universal_newlines=True).stdout


def by_name(rows):
    return {r["name"]: r for r in rows}
