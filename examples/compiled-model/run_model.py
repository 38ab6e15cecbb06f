#!/usr/bin/env python3
"""Loads a model compiled by tpuprof-compile with ctypes and profiles it.

    tpuprof-compile examples/mlp.mlir -o mlp.so
    python3 examples/compiled-model/run_model.py mlp.so [OUTPUT_DIR]

The model describes itself: its tpuprof_model_signature_v1 symbol
(tpuprof/model.h) names each entry's C function and its MLIR type. This
program calls the entry @main (or the only one) with random f32 inputs of
the shapes in that type, once with profiling off, then three times in a
profiling window, each call in a user scope, and prints the per-op table.
"""

import ctypes
import random
import re
import sys

import tpuprof


class Entry(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("symbol", ctypes.c_char_p),
                ("type", ctypes.c_char_p), ("packed", ctypes.c_void_p)]


class Signature(ctypes.Structure):
    _fields_ = [("magic", ctypes.c_uint32), ("version", ctypes.c_uint32),
                ("instrumented", ctypes.c_uint32), ("num_entries", ctypes.c_uint32),
                ("entries", ctypes.POINTER(Entry)), ("source", ctypes.c_char_p)]


def memref_type(rank):
    """MLIR's memref descriptor of f32 with `rank` dimensions, as a ctypes struct."""
    fields = [("allocated", ctypes.POINTER(ctypes.c_float)),
              ("aligned", ctypes.POINTER(ctypes.c_float)), ("offset", ctypes.c_int64)]
    if rank:
        fields += [("sizes", ctypes.c_int64 * rank), ("strides", ctypes.c_int64 * rank)]
    return type("MemRefF32_%dd" % rank, (ctypes.Structure,), {"_fields_": fields})


def shapes(types):
    """[(1, 784), ...] of "tensor<1x784xf32>, ..."; only static f32 shapes."""
    found = re.findall(r"(?:tensor|memref)<([0-9x]*)f32>", types)
    if len(found) != types.count("<"):
        sys.exit("run_model.py: this example takes static f32 tensors only: " + types)
    return [tuple(int(d) for d in s.split("x") if d) for s in found]


def make_memref(shape, rng):
    n = 1
    for d in shape:
        n *= d
    data = (ctypes.c_float * max(n, 1))(*[rng.uniform(-0.5, 0.5) for _ in range(n)])
    m = memref_type(len(shape))()
    m.allocated = m.aligned = ctypes.cast(data, ctypes.POINTER(ctypes.c_float))
    m.offset = 0
    stride = 1
    for i in reversed(range(len(shape))):
        m.sizes[i], m.strides[i] = shape[i], stride
        stride *= shape[i]
    m._keep = data  # the buffer lives as long as the descriptor
    return m


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    model = ctypes.CDLL(sys.argv[1])
    sig = Signature.in_dll(model, "tpuprof_model_signature_v1")
    entries = [sig.entries[i] for i in range(sig.num_entries)]
    entry = next((e for e in entries if e.name == b"main"), entries[0])
    print("@%s: %s" % (entry.name.decode(), entry.type.decode()))

    args_text, _, results_text = entry.type.decode().partition(") -> ")
    rng = random.Random(0)
    args = [make_memref(s, rng) for s in shapes(args_text)]
    result_shapes = shapes(results_text)
    if len(result_shapes) != 1:
        sys.exit("run_model.py: this example takes one result")
    result = memref_type(len(result_shapes[0]))()
    fn = getattr(model, entry.symbol.decode())
    fn.restype = None
    libc = ctypes.CDLL(None)
    libc.free.argtypes = [ctypes.c_void_p]

    def call():
        # The result buffer the model allocated is ours: free the last one.
        libc.free(ctypes.cast(result.allocated, ctypes.c_void_p))
        fn(ctypes.byref(result), *[ctypes.byref(a) for a in args])

    call()  # profiling is off: each probe is a load and a branch
    with tpuprof.profile(output=sys.argv[2] if len(sys.argv) > 2 else ".") as prof:
        for _ in range(3):
            with tpuprof.scope("inference"):
                call()
    rank = len(result_shapes[0])
    values = [result.aligned[result.offset + i * result.strides[rank - 1]]
              for i in range(min(4, result.sizes[rank - 1]))] if rank else [result.aligned[0]]
    print("result: %s first values %s" % ("x".join(str(result.sizes[i]) for i in range(rank)),
                                          ", ".join("%.4f" % v for v in values)))
    print(prof.load().table())


if __name__ == "__main__":
    main()
