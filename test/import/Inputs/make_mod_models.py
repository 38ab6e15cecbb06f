#!/usr/bin/env python3
"""Builds ONNX models of Mod, each with a test_data_set_0/ whose outputs
numpy computes here: dividends and divisors of mixed signs, both fmod
forms, a zero divisor and INT32_MIN % -1 (remainder 0, as numpy's), and a
Mod of shapes that the importer folds.

    make_mod_models.py OUTDIR  ->  OUTDIR/NAME.onnx, OUTDIR/NAME/test_data_set_0/
"""
import os
import sys

import numpy as np
from onnx import helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_typed_models import save  # noqa: E402


def both_forms(a, b):
    """Mod of a and b with fmod=0 and fmod=1, and numpy's results."""
    nodes = [helper.make_node("Mod", ["a", "b"], ["py"], fmod=0),
             helper.make_node("Mod", ["a", "b"], ["c"], fmod=1)]
    with np.errstate(divide="ignore", invalid="ignore"):
        return nodes, [("py", np.mod(a, b)), ("c", np.fmod(a, b))]


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)

    a = np.array([7, -7, 7, -7, 6, -6, 0, 5, -2147483648, 2147483647], np.int32)
    b = np.array([3, 3, -3, -3, 3, -3, 5, 0, -1, -2], np.int32)
    nodes, outputs = both_forms(a, b)
    save(outdir, "int32", nodes, [("a", a), ("b", b)], outputs)

    # int8 broadcast against a row of divisors.
    a = np.array([[-128, -5, 0], [5, 127, -1]], np.int8)
    b = np.array([7, -4, 3], np.int8)
    nodes, outputs = both_forms(a, b)
    save(outdir, "int8", nodes, [("a", a), ("b", b)], outputs)

    a = np.array([200, 255, 7, 128], np.uint8)
    b = np.array([7, 130, 255, 3], np.uint8)
    nodes, outputs = both_forms(a, b)
    save(outdir, "uint8", nodes, [("a", a), ("b", b)], outputs)

    # Floats: ONNX asks for fmod=1; fmod=0 follows numpy's mod.
    a = np.array([5.5, -5.5, 5.5, -5.5, 6.0, -6.0, 0.25, 1e6 + 0.5], np.float32)
    b = np.array([2.0, 2.0, -2.0, -2.0, 3.0, 1.5, 0.1, 0.3], np.float32)
    nodes, outputs = both_forms(a, b)
    save(outdir, "float32", nodes, [("a", a), ("b", b)], outputs)

    a = np.array([5.5, -5.5, 7.0, -0.75], np.float16)
    b = np.array([-2.0, 2.0, 2.5, 0.5], np.float16)
    nodes, outputs = both_forms(a, b)
    save(outdir, "float16", nodes, [("a", a), ("b", b)], outputs)

    # int64 at run time: not converted (the importer says so).
    a = np.array([7, -7], np.int64)
    b = np.array([3, 3], np.int64)
    nodes, outputs = both_forms(a, b)
    save(outdir, "int64", nodes, [("a", a), ("b", b)], outputs)

    # Mod of a shape, folded at import: (7, 5) and their negations, mod 3
    # and mod -3 as swin_t pads windows.
    x = np.zeros((7, 5), np.float32)
    s = np.array([7, 5], np.int64)
    nodes = [helper.make_node("Shape", ["x"], ["s"]),
             helper.make_node("Neg", ["s"], ["n"]),
             helper.make_node("Constant", [], ["three"],
                              value=numpy_helper.from_array(np.array([3, -3], np.int64))),
             helper.make_node("Mod", ["s", "three"], ["sp"]),
             helper.make_node("Mod", ["s", "three"], ["sc"], fmod=1),
             helper.make_node("Mod", ["n", "three"], ["np"]),
             helper.make_node("Mod", ["n", "three"], ["nc"], fmod=1),
             helper.make_node("Identity", ["x"], ["y"])]
    three = np.array([3, -3], np.int64)
    outputs = [("sp", np.mod(s, three)), ("sc", np.fmod(s, three)),
               ("np", np.mod(-s, three)), ("nc", np.fmod(-s, three)), ("y", x)]
    save(outdir, "shape", nodes, [("x", x)], outputs)

    # swin_t's window padding: (w - h % w) % w of the input's sizes, laid
    # out by Reshape/Transpose (folded too) as Pad's pads, and its attention
    # dropout: training_mode true with ratio 0, which keeps every element.
    x = np.arange(70, dtype=np.float32).reshape(1, 7, 5, 2)
    def const(name, values, dtype=np.int64):
        return helper.make_node("Constant", [], [name],
                                value=numpy_helper.from_array(np.array(values, dtype)))
    nodes = [helper.make_node("Shape", ["x"], ["s"]),
             const("i1", [1]), const("i2", [2]), const("four", [4]), const("zero", [0]),
             const("grid", [2, 4]), const("flat", [8]),
             const("ratio", 0.0, np.float32), const("train", True, np.bool_),
             helper.make_node("Gather", ["s", "i1"], ["h"]),
             helper.make_node("Gather", ["s", "i2"], ["w"]),
             helper.make_node("Mod", ["h", "four"], ["hm"]),
             helper.make_node("Sub", ["four", "hm"], ["hs"]),
             helper.make_node("Mod", ["hs", "four"], ["ph"]),
             helper.make_node("Mod", ["w", "four"], ["wm"]),
             helper.make_node("Sub", ["four", "wm"], ["ws"]),
             helper.make_node("Mod", ["ws", "four"], ["pw"]),
             helper.make_node("Concat", ["zero", "zero", "zero", "zero",
                                         "zero", "ph", "pw", "zero"], ["rows"], axis=0),
             helper.make_node("Reshape", ["rows", "grid"], ["r2"]),
             helper.make_node("Transpose", ["r2"], ["t2"], perm=[1, 0]),
             helper.make_node("Reshape", ["t2", "flat"], ["pads"]),
             helper.make_node("Pad", ["x", "pads"], ["padded"]),
             helper.make_node("Dropout", ["padded", "ratio", "train"], ["y"])]
    # pads [0, 0, 0, 1, 0, 3, 0, 0]: one before the last axis, three after
    # the second.
    y = np.pad(x, [(0, 0), (0, 3), (0, 0), (1, 0)])
    save(outdir, "window", nodes, [("x", x)], [("y", y)])


if __name__ == "__main__":
    main()
