#!/usr/bin/env python3
"""Builds the small ONNX models test/import runs, with fixed seeds, and for
each a test_data_set_0/ (input_N.pb, output_N.pb) whose outputs numpy
computes here, independently of tpuprof.

    make_models.py OUTDIR   ->  OUTDIR/{cnn,mlp,misc,shapeops,unsupported,...}.onnx
                                OUTDIR/{cnn,mlp,misc,shapeops,...}/test_data_set_0/
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(2024)


def rand(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def save(outdir, name, graph, inputs=None, outputs=None, opset=13):
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                              producer_name="tpuprof-test")
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(outdir, name + ".onnx"))
    if inputs is None:
        return
    data = os.path.join(outdir, name, "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    for i, array in enumerate(inputs):
        onnx.save_tensor(numpy_helper.from_array(array), os.path.join(data, f"input_{i}.pb"))
    for i, array in enumerate(outputs):
        onnx.save_tensor(numpy_helper.from_array(array.astype(np.float32)),
                         os.path.join(data, f"output_{i}.pb"))


def conv2d(x, w, b, pad, group=1):
    """NCHW convolution, stride 1, OIHW weights."""
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh, ow = h + 2 * pad - kh + 1, wd + 2 * pad - kw + 1
    y = np.zeros((n, o, oh, ow), np.float64)
    per_group = o // group
    for oc in range(o):
        g = oc // per_group
        for i in range(kh):
            for j in range(kw):
                patch = xp[:, g * cg:(g + 1) * cg, i:i + oh, j:j + ow]
                y[:, oc] += np.einsum("nchw,c->nhw", patch, w[oc, :, i, j])
    return y + b.reshape(1, -1, 1, 1)


def pool2x2(x, op):
    n, c, h, w = x.shape
    return op(x.reshape(n, c, h // 2, 2, w // 2, 2), axis=(3, 5))


def cnn(outdir):
    """Conv, BatchNormalization, Relu, MaxPool, depthwise Conv, Clip,
    GlobalAveragePool, Flatten, Gemm, Softmax: a small classifier."""
    x = rand(1, 3, 8, 8)
    w1, b1 = rand(8, 3, 3, 3), rand(8)
    scale, bias, mean, var = rand(8), rand(8), rand(8), np.abs(rand(8)) + 0.5
    wd, bd = rand(8, 1, 3, 3), rand(8)
    wf, bf = rand(10, 8), rand(10)
    inits = [numpy_helper.from_array(a, n) for a, n in [
        (w1, "w1"), (b1, "b1"), (scale, "scale"), (bias, "bias"), (mean, "mean"),
        (var, "var"), (wd, "wd"), (bd, "bd"), (wf, "wf"), (bf, "bf"),
        (np.array(0, np.float32), "lo"), (np.array(6, np.float32), "hi")]]
    nodes = [
        helper.make_node("Conv", ["image", "w1", "b1"], ["c1"], name="conv1",
                         pads=[1, 1, 1, 1], kernel_shape=[3, 3]),
        helper.make_node("BatchNormalization", ["c1", "scale", "bias", "mean", "var"],
                         ["n1"], name="bn1", epsilon=1e-5),
        helper.make_node("Relu", ["n1"], ["r1"], name="relu1"),
        helper.make_node("MaxPool", ["r1"], ["p1"], name="pool1", kernel_shape=[2, 2],
                         strides=[2, 2]),
        helper.make_node("Conv", ["p1", "wd", "bd"], ["c2"], name="dwconv", group=8,
                         pads=[1, 1, 1, 1]),
        helper.make_node("Clip", ["c2", "lo", "hi"], ["r2"], name="relu6"),
        helper.make_node("GlobalAveragePool", ["r2"], ["g"], name="gap"),
        helper.make_node("Flatten", ["g"], ["f"], name="flatten"),
        helper.make_node("Gemm", ["f", "wf", "bf"], ["logits"], name="fc", transB=1),
        helper.make_node("Softmax", ["logits"], ["prob"], name="softmax", axis=1),
    ]
    graph = helper.make_graph(
        nodes, "cnn", [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, 8, 8])],
        [helper.make_tensor_value_info("prob", TensorProto.FLOAT, [1, 10])], inits)

    y = conv2d(x.astype(np.float64), w1, b1, 1)
    y = (y - mean.reshape(1, -1, 1, 1)) / np.sqrt(var.reshape(1, -1, 1, 1) + 1e-5) \
        * scale.reshape(1, -1, 1, 1) + bias.reshape(1, -1, 1, 1)
    y = pool2x2(np.maximum(y, 0), np.max)
    y = np.clip(conv2d(y, wd, bd, 1, group=8), 0, 6)
    y = y.mean(axis=(2, 3))
    y = y @ wf.T + bf
    y = np.exp(y - y.max(axis=1, keepdims=True))
    save(outdir, "cnn", graph, [x], [y / y.sum(axis=1, keepdims=True)])


def mlp(outdir):
    """MatMul, Add, Sigmoid with a symbolic batch ("N")."""
    x, w, b = rand(2, 4), rand(4, 3), rand(3)
    nodes = [helper.make_node("MatMul", ["x", "w"], ["h"], name="matmul"),
             helper.make_node("Add", ["h", "b"], ["a"], name="add_bias"),
             helper.make_node("Sigmoid", ["a"], ["y"], name="sigmoid")]
    graph = helper.make_graph(
        nodes, "mlp", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
    save(outdir, "mlp", graph, [x], [1 / (1 + np.exp(-(x @ w + b)))])


def misc(outdir):
    """The shape and elementwise ops: Transpose, Reshape, Unsqueeze,
    Squeeze, Concat, Sub/Mul/Div with broadcasting, LeakyRelu, Tanh,
    AveragePool with count_include_pad, Constant, Identity, Dropout."""
    a, b = rand(2, 3, 4), rand(4)
    nodes = [
        helper.make_node("Constant", [], ["two"], name="two",
                         value=numpy_helper.from_array(np.array([2.0], np.float32))),
        helper.make_node("Constant", [], ["shape"], name="shape",
                         value=numpy_helper.from_array(np.array([4, 6], np.int64))),
        helper.make_node("Constant", [], ["axes"], name="axes",
                         value=numpy_helper.from_array(np.array([0, 1], np.int64))),
        helper.make_node("Transpose", ["a"], ["t"], name="transpose", perm=[0, 2, 1]),
        helper.make_node("Sub", ["t", "two"], ["s"], name="sub"),
        helper.make_node("Reshape", ["s", "shape"], ["r"], name="reshape"),
        helper.make_node("Mul", ["r", "r"], ["m"], name="mul"),
        helper.make_node("Div", ["m", "two"], ["d"], name="div"),
        helper.make_node("LeakyRelu", ["r"], ["l"], name="leaky", alpha=0.1),
        helper.make_node("Concat", ["d", "l"], ["c"], name="concat", axis=1),
        helper.make_node("Tanh", ["c"], ["th"], name="tanh"),
        helper.make_node("Unsqueeze", ["th", "axes"], ["u"], name="unsqueeze"),
        helper.make_node("AveragePool", ["u"], ["ap"], name="avgpool", kernel_shape=[3, 3],
                         pads=[1, 1, 1, 1], count_include_pad=1),
        helper.make_node("Squeeze", ["ap", "axes"], ["sq"], name="squeeze"),
        helper.make_node("Identity", ["sq"], ["id"], name="identity"),
        helper.make_node("Dropout", ["id"], ["out"], name="dropout"),
        helper.make_node("Add", ["b", "b"], ["bb"], name="add"),
    ]
    graph = helper.make_graph(
        nodes, "misc",
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, [2, 3, 4]),
         helper.make_tensor_value_info("b", TensorProto.FLOAT, [4])],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, [4, 12]),
         helper.make_tensor_value_info("bb", TensorProto.FLOAT, [4])])
    r = (a.transpose(0, 2, 1) - 2).reshape(4, 6).astype(np.float64)
    c = np.tanh(np.concatenate([r * r / 2, np.where(r >= 0, r, 0.1 * r)], axis=1))
    p = np.pad(c, 1)
    avg = sum(p[i:i + 4, j:j + 12] for i in range(3) for j in range(3)) / 9
    save(outdir, "misc", graph, [a, b], [avg, b + b])


def unsupported(outdir):
    """A node of an op type tpuprof-import does not convert."""
    nodes = [helper.make_node("Relu", ["x"], ["r"], name="first"),
             helper.make_node("Hardmax", ["r"], ["y"], name="argmax_head")]
    graph = helper.make_graph(
        nodes, "unsupported", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])])
    save(outdir, "unsupported", graph)


def unnamed(outdir):
    """Nodes without names: locations read "<OpType>_<index>"."""
    nodes = [helper.make_node("Relu", ["x"], ["r"]),
             helper.make_node("Neg", ["r"], ["y"])]
    graph = helper.make_graph(
        nodes, "unnamed", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])])
    save(outdir, "unnamed", graph)

def shapeops(outdir):
    """Slice (negative and non-unit steps), Pad (reflect, edge, negative
    constant), Gather at runtime indices, ReduceSum, a Shape -> Gather ->
    Unsqueeze -> Concat -> Reshape chain, Split, Expand, Where and an int8
    QuantizeLinear/DequantizeLinear pair, all with constant parameters (the
    backend tests pass most of these as runtime inputs)."""
    x = rand(2, 3, 8)
    idx = np.array([-1, 2], np.int64)
    scale = np.array([0.05, 0.1, 0.2], np.float32)
    zero = np.array([-3, 0, 5], np.int8)

    def const(name, array):
        return numpy_helper.from_array(np.asarray(array), name)
    inits = [const("s1_starts", np.array([1, -1], np.int64)),
             const("s1_ends", np.array([3, -100], np.int64)),
             const("s1_axes", np.array([1, 2], np.int64)),
             const("s1_steps", np.array([1, -2], np.int64)),
             const("s2_starts", np.array([0], np.int64)),
             const("s2_ends", np.array([8], np.int64)),
             const("s2_axes", np.array([2], np.int64)),
             const("s2_steps", np.array([3], np.int64)),
             const("p1_pads", np.array([0, 1, 2, 0, 0, 1], np.int64)),
             const("p2_pads", np.array([0, 0, -1, 1, 0, 2], np.int64)),
             const("p2_value", np.array(1.5, np.float32)),
             const("p3_pads", np.array([0, 0, 1, 0, 0, 1], np.int64)),
             const("r_axes", np.array([-1], np.int64)),
             const("zero_index", np.array(0, np.int64)),
             const("unsq_axes", np.array([0], np.int64)),
             const("minus_one", np.array([-1], np.int64)),
             const("split", np.array([1, 2], np.int64)),
             const("expand_shape", np.array([2, 3, 8], np.int64)),
             const("zero_f", np.array(0, np.float32)),
             const("q_scale", scale), const("q_zero", zero)]
    n = helper.make_node
    nodes = [
        n("Slice", ["x", "s1_starts", "s1_ends", "s1_axes", "s1_steps"], ["s1"], name="slice_back"),
        n("Slice", ["x", "s2_starts", "s2_ends", "s2_axes", "s2_steps"], ["s2"], name="slice_step"),
        n("Pad", ["x", "p1_pads"], ["p1"], mode="reflect", name="pad_reflect"),
        n("Pad", ["x", "p2_pads", "p2_value"], ["p2"], name="pad_crop"),
        n("Pad", ["x", "p3_pads"], ["p3"], mode="edge", name="pad_edge"),
        n("Gather", ["x", "idx"], ["g"], axis=2, name="gather"),
        n("ReduceSum", ["x", "r_axes"], ["r"], keepdims=0, name="reduce"),
        n("Shape", ["x"], ["shape"], name="shape"),
        n("Gather", ["shape", "zero_index"], ["batch"], name="batch"),
        n("Unsqueeze", ["batch", "unsq_axes"], ["batch1"], name="batch1"),
        n("Concat", ["batch1", "minus_one"], ["flat_shape"], axis=0, name="flat_shape"),
        n("Reshape", ["x", "flat_shape"], ["flat"], name="flatten"),
        n("Split", ["x", "split"], ["first", "rest"], axis=1, name="split"),
        n("Expand", ["first", "expand_shape"], ["wide"], name="expand"),
        n("Greater", ["x", "zero_f"], ["positive"], name="positive"),
        n("Where", ["positive", "x", "wide"], ["w"], name="where"),
        n("QuantizeLinear", ["x", "q_scale", "q_zero"], ["q"], axis=1, name="quantize"),
        n("DequantizeLinear", ["q", "q_scale", "q_zero"], ["dq"], axis=1, name="dequantize"),
    ]
    f = TensorProto.FLOAT
    outs = {"s1": x[:, 1:3, 7::-2], "s2": x[:, :, 0:8:3],
            "p1": np.pad(x, ((0, 0), (1, 0), (2, 1)), "reflect"),
            "p2": np.pad(x[:, :, 1:], ((0, 1), (0, 0), (0, 2)), constant_values=1.5),
            "p3": np.pad(x, ((0, 0), (0, 0), (1, 1)), "edge"),
            "g": x[:, :, [7, 2]], "r": x.sum(axis=-1), "flat": x.reshape(2, -1),
            "rest": x[:, 1:], "w": np.where(x > 0, x, np.broadcast_to(x[:, :1], x.shape))}
    q = np.clip(np.rint(x / scale.reshape(1, 3, 1)) + zero.reshape(1, 3, 1), -128, 127)
    outs["dq"] = (q - zero.reshape(1, 3, 1)) * scale.reshape(1, 3, 1)
    graph = helper.make_graph(
        nodes, "shapeops",
        [helper.make_tensor_value_info("x", f, [2, 3, 8]),
         helper.make_tensor_value_info("idx", TensorProto.INT64, [2])],
        [helper.make_tensor_value_info(k, f, list(v.shape)) for k, v in outs.items()],
        initializer=inits)
    save(outdir, "shapeops", graph, [x, idx], list(outs.values()))


def dynslice(outdir):
    """A Slice whose starts are a graph input, on an input of symbolic batch:
    --data gives both the shape and (where a shape depends on it) the value."""
    x, starts = rand(3, 8), np.array([2], np.int64)
    nodes = [helper.make_node("Slice", ["x", "starts", "ends", "axes"], ["s"],
                              name="cut"),
             helper.make_node("Relu", ["s"], ["y"], name="relu")]
    graph = helper.make_graph(
        nodes, "dynslice",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 8]),
         helper.make_tensor_value_info("starts", TensorProto.INT64, [1])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", "M"])],
        [numpy_helper.from_array(np.array([7], np.int64), "ends"),
         numpy_helper.from_array(np.array([1], np.int64), "axes")])
    save(outdir, "dynslice", graph, [x, starts], [np.maximum(x[:, 2:7], 0)])


def pointwise(outdir):
    """The layers whose weights the lowering rearranges: a 1x1 Conv (a
    matmul on the filter collapsed and transposed), a 3x3 Conv, Gemm with
    transB (fully_connected's weight transposed), a MatMul on a constant."""
    x = rand(1, 16, 4, 4)
    w1, b1 = rand(24, 16, 1, 1), rand(24)
    w3, b3 = rand(8, 24, 3, 3), rand(8)
    wf, bf = rand(12, 128), rand(12)
    wm = rand(12, 6)
    inits = [numpy_helper.from_array(a, n) for a, n in [
        (w1, "w1"), (b1, "b1"), (w3, "w3"), (b3, "b3"), (wf, "wf"), (bf, "bf"),
        (wm, "wm")]]
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], name="pointwise"),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu"),
        helper.make_node("Conv", ["r1", "w3", "b3"], ["c3"], name="conv3x3",
                         pads=[1, 1, 1, 1]),
        helper.make_node("Flatten", ["c3"], ["f"], name="flatten"),
        helper.make_node("Gemm", ["f", "wf", "bf"], ["g"], name="fc", transB=1),
        helper.make_node("MatMul", ["g", "wm"], ["y"], name="matmul"),
    ]
    graph = helper.make_graph(
        nodes, "pointwise",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16, 4, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 6])], inits)
    y = np.maximum(conv2d(x.astype(np.float64), w1, b1, 0), 0)
    y = conv2d(y, w3, b3, 1).reshape(1, -1)
    save(outdir, "pointwise", graph, [x], [(y @ wf.T + bf) @ wm])


if __name__ == "__main__":
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for build in [cnn, mlp, misc, unsupported, unnamed, shapeops, dynslice,
                  pointwise]:
        build(out)
