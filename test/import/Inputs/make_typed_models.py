#!/usr/bin/env python3
"""Builds ONNX models on unsigned integer and float16 tensors, each with a
test_data_set_0/ whose outputs numpy computes here: values above the signed
range (uint8 200, uint64 2^63 + 2048), where reading the bits as signed
would go wrong, and half floats.

    make_typed_models.py OUTDIR  ->  OUTDIR/NAME.onnx, OUTDIR/NAME/test_data_set_0/
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

TYPES = {np.dtype(np.uint8): TensorProto.UINT8, np.dtype(np.uint16): TensorProto.UINT16,
         np.dtype(np.uint32): TensorProto.UINT32, np.dtype(np.uint64): TensorProto.UINT64,
         np.dtype(np.float16): TensorProto.FLOAT16, np.dtype(np.float32): TensorProto.FLOAT,
         np.dtype(np.float64): TensorProto.DOUBLE, np.dtype(np.int32): TensorProto.INT32,
         np.dtype(np.int8): TensorProto.INT8, np.dtype(np.int64): TensorProto.INT64,
         np.dtype(np.bool_): TensorProto.BOOL}


def save(outdir, name, nodes, inputs, outputs, initializers=(), opset=13,
         check=True):
    """inputs, outputs: (name, array); the graph's types come from them.
    check=False for opsets newer than this onnx's checker knows."""
    def info(n, a):
        return helper.make_tensor_value_info(n, TYPES[a.dtype], list(a.shape))
    graph = helper.make_graph(nodes, name, [info(n, a) for n, a in inputs],
                              [info(n, a) for n, a in outputs],
                              initializer=[numpy_helper.from_array(a, n) for n, a in initializers])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                              producer_name="tpuprof-test")
    model.ir_version = 8
    if check:
        onnx.checker.check_model(model)
    onnx.save(model, os.path.join(outdir, name + ".onnx"))
    data = os.path.join(outdir, name, "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    for prefix, values in (("input", inputs), ("output", outputs)):
        for i, (_, a) in enumerate(values):
            onnx.save_tensor(numpy_helper.from_array(a), os.path.join(data, f"{prefix}_{i}.pb"))


def unsigned_ops(outdir, name, dtype, a, b):
    """Order, division and casts of two unsigned vectors."""
    a, b = np.array(a, dtype), np.array(b, dtype)
    nodes = [helper.make_node("Greater", ["a", "b"], ["gt"]),
             helper.make_node("LessOrEqual", ["a", "b"], ["le"]),
             helper.make_node("Max", ["a", "b"], ["max"]),
             helper.make_node("Min", ["a", "b"], ["min"]),
             helper.make_node("Cast", ["a"], ["f"], to=TensorProto.DOUBLE),
             helper.make_node("Add", ["a", "b"], ["sum"])]
    outputs = [("gt", a > b), ("le", a <= b), ("max", np.maximum(a, b)),
               ("min", np.minimum(a, b)), ("f", a.astype(np.float64)), ("sum", a + b)]
    if dtype().itemsize <= 2:
        nodes.append(helper.make_node("Div", ["a", "b"], ["div"]))
        outputs.append(("div", a // b))
    save(outdir, name, nodes, [("a", a), ("b", b)], outputs)


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    unsigned_ops(outdir, "u8", np.uint8, [200, 7, 255, 128, 0, 90], [3, 130, 255, 127, 1, 91])
    unsigned_ops(outdir, "u16", np.uint16, [65000, 7, 40000, 1], [3, 33000, 39999, 1])
    unsigned_ops(outdir, "u32", np.uint32, [4000000000, 5, 2147483648], [7, 3000000000, 2147483647])
    unsigned_ops(outdir, "u64", np.uint64, [2**63 + 2048, 5, 2**63], [7, 2**63 + 4096, 2**63 - 1024])

    # Floats to unsigned: truncated toward zero, above the signed range.
    x = np.array([200.7, 3.2, 255.0, 0.9], np.float32)
    y = np.array([3.5e9, 17.9], np.float32)
    save(outdir, "f2u", [helper.make_node("Cast", ["x"], ["u8"], to=TensorProto.UINT8),
                         helper.make_node("Cast", ["y"], ["u32"], to=TensorProto.UINT32)],
         [("x", x), ("y", y)], [("u8", x.astype(np.uint8)), ("u32", y.astype(np.uint32))])

    # uint8 quantization: saturated at 0 and 255, rounded half to even;
    # and back, around a zero point of 128.
    x = np.array([-100.0, 0.0, 1.25, 1.75, 60.0, 100.0], np.float32)
    scale, zero = np.float32(0.5), np.uint8(128)
    q = np.clip(np.rint(x / scale) + zero, 0, 255).astype(np.uint8)
    save(outdir, "quant",
         [helper.make_node("QuantizeLinear", ["x", "scale", "zero"], ["q"]),
          helper.make_node("DequantizeLinear", ["q", "scale", "zero"], ["d"])],
         [("x", x)],
         [("q", q), ("d", ((q.astype(np.float32) - 128) * scale).astype(np.float32))],
         initializers=[("scale", np.array(scale)), ("zero", np.array(zero))])

    # A uint8 max pool: 200 is the largest of its window.
    img = np.array([[[[200, 3, 10, 128], [5, 127, 255, 0],
                      [1, 2, 129, 130], [3, 4, 131, 1]]]], np.uint8)
    save(outdir, "pool_u8",
         [helper.make_node("MaxPool", ["img"], ["y"], kernel_shape=[2, 2], strides=[2, 2])],
         [("img", img)], [("y", img.reshape(1, 1, 2, 2, 2, 2).max(axis=(3, 5)))])

    # float16 arithmetic and casts both ways.
    h = np.array([1.5, -2.25, 65504.0, 0.000061035], np.float16)
    g = np.array([0.5, 4.0, -1.0, 2.0], np.float16)
    f = np.array([0.1, 1e5, -3.0, 1.0 / 3.0], np.float32)  # 1e5: inf in f16
    with np.errstate(over="ignore"):
        narrow = f.astype(np.float16)
    save(outdir, "half",
         [helper.make_node("Mul", ["h", "g"], ["prod"]),
          helper.make_node("Max", ["h", "g"], ["max"]),
          helper.make_node("Cast", ["h"], ["wide"], to=TensorProto.FLOAT),
          helper.make_node("Cast", ["f"], ["narrow"], to=TensorProto.FLOAT16)],
         [("h", h), ("g", g), ("f", f)],
         [("prod", h * g), ("max", np.maximum(h, g)), ("wide", h.astype(np.float32)),
          ("narrow", narrow)])


if __name__ == "__main__":
    main()
