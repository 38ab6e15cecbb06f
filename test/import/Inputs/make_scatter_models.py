#!/usr/bin/env python3
"""Builds ONNX models of ScatterND, each with a test_data_set_0/ whose
outputs ONNX's reference algorithm (below, in numpy) computes here: index
tuples shorter than the data's rank (rows of a table), negative indices,
indices given at run time or as constants, every reduction the opset
defines (none always, add and mul from 16, max and min from 18) with repeated indices, uint8
and bool data, and a mask built from constants only (swin_t's shifted
windows), which the importer folds.

    make_scatter_models.py OUTDIR  ->  OUTDIR/NAME.onnx, OUTDIR/NAME/test_data_set_0/
"""
import os
import sys

import numpy as np
from onnx import helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_typed_models import save  # noqa: E402


def scatter_nd(data, indices, updates, reduction="none"):
    """ONNX's reference: updates applied in order, one index tuple each."""
    out = np.copy(data)
    for idx in np.ndindex(indices.shape[:-1]):
        at = tuple(indices[idx])
        if reduction == "add":
            out[at] += updates[idx]
        elif reduction == "mul":
            out[at] *= updates[idx]
        elif reduction == "max":
            out[at] = np.maximum(out[at], updates[idx])
        elif reduction == "min":
            out[at] = np.minimum(out[at], updates[idx])
        else:
            out[at] = updates[idx]
    return out


def scatter(reduction=None, inputs=("data", "indices", "updates")):
    attrs = {} if reduction is None else {"reduction": reduction}
    return helper.make_node("ScatterND", list(inputs), ["out"], **attrs)


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    rng = np.random.default_rng(0)

    # Rows of a [4, 3, 5] table at run time: tuples of 2 of its 3
    # dimensions, negative ones counting from the end.
    data = rng.standard_normal((4, 3, 5)).astype(np.float32)
    indices = np.array([[[0, 1], [-1, 2]], [[2, -3], [1, 1]]], np.int64)
    updates = rng.standard_normal((2, 2, 5)).astype(np.float32)
    save(outdir, "rows", [scatter()],
         [("data", data), ("indices", indices), ("updates", updates)],
         [("out", scatter_nd(data, indices % [4, 3], updates))])

    # Constant indices, every dimension indexed: one gather from the data
    # and the updates.
    indices = np.array([[3, 0, 4], [0, 2, 0], [-1, -1, -1]], np.int64)
    updates = np.array([10, 20, 30], np.float32)
    save(outdir, "elements", [scatter()],
         [("data", data), ("updates", updates)],
         [("out", scatter_nd(data, indices % [4, 3, 5], updates))],
         initializers=[("indices", indices)])

    # Reductions of opset 16, repeated indices combined in order.
    data = rng.integers(-5, 6, (5, 2)).astype(np.int32)
    indices = np.array([[1], [3], [1], [0], [1]], np.int64)
    updates = rng.integers(-4, 5, (5, 2)).astype(np.int32)
    for reduction in ("add", "mul"):
        save(outdir, reduction, [scatter(reduction)],
             [("data", data), ("indices", indices), ("updates", updates)],
             [("out", scatter_nd(data, indices, updates, reduction))], opset=16)
    data = rng.standard_normal((6, 3)).astype(np.float32)
    updates = rng.standard_normal((5, 3)).astype(np.float32)
    save(outdir, "add_float", [scatter("add")],
         [("data", data), ("indices", indices), ("updates", updates)],
         [("out", scatter_nd(data, indices, updates, "add"))], opset=16)

    # max and min from opset 18 (ONNX 1.12's checker knows opset 17: not
    # checked), on floats and on uint8 above 127.
    data = np.array([[1, 5], [2, -3], [0, 0]], np.float32)
    indices = np.array([[1], [0], [1]], np.int64)
    updates = np.array([[4, -9], [7, 7], [3, 2]], np.float32)
    for reduction in ("max", "min"):
        save(outdir, reduction, [scatter(reduction)],
             [("data", data), ("indices", indices), ("updates", updates)],
             [("out", scatter_nd(data, indices, updates, reduction))],
             opset=18, check=False)
    data = np.array([[200, 1], [3, 250]], np.uint8)
    updates = np.array([[100, 255], [130, 2], [129, 9]], np.uint8)
    save(outdir, "max_uint8", [scatter("max")],
         [("data", data), ("indices", np.array([[0], [1], [0]], np.int64)),
          ("updates", updates)],
         [("out", scatter_nd(data, np.array([[0], [1], [0]]), updates, "max"))],
         opset=18, check=False)

    # uint8 above 127 and bool data.
    data = np.array([[200, 1], [3, 250]], np.uint8)
    indices = np.array([[1, 0], [0, 1]], np.int64)
    updates = np.array([255, 128], np.uint8)
    save(outdir, "uint8", [scatter()],
         [("data", data), ("indices", indices), ("updates", updates)],
         [("out", scatter_nd(data, indices, updates))])
    data = np.array([True, False, True, False])
    indices = np.array([[1], [2]], np.int64)
    updates = np.array([True, False])
    save(outdir, "bool", [scatter()],
         [("data", data), ("indices", indices), ("updates", updates)],
         [("out", scatter_nd(data, indices, updates))])

    # swin_t's mask: region numbers scattered into a zero image, all
    # constants, then added to the input: folded at import.
    image = np.zeros((1, 4, 4, 1), np.float32)
    cells = np.array([[[0, h, w, 0] for w in range(2, 4)] for h in range(2, 4)],
                     np.int64)
    regions = np.full((2, 2), 3, np.float32)
    x = rng.standard_normal((1, 4, 4, 1)).astype(np.float32)
    nodes = [scatter(inputs=("image", "cells", "regions")),
             helper.make_node("Add", ["x", "out"], ["y"])]
    save(outdir, "mask", nodes, [("x", x)],
         [("y", x + scatter_nd(image, cells, regions))],
         initializers=[("image", image), ("cells", cells),
                       ("regions", regions)])

    # A reduction its opset does not define (ONNX's checker refuses it
    # too): one line naming the node.
    data = np.zeros((3,), np.float32)
    save(outdir, "add13", [scatter("add")],
         [("data", data), ("indices", np.array([[0]], np.int64)),
          ("updates", np.ones((1,), np.float32))],
         [("out", data)], opset=13, check=False)


if __name__ == "__main__":
    main()
