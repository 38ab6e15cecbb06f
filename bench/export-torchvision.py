#!/usr/bin/python3
"""Exports torchvision classifiers and small transformer encoders to ONNX
with Debian's python3-torch and python3-torchvision, each with ONNX's test
layout: PyTorch's own output on a fixed input is the truth.

    /usr/bin/python3 bench/export-torchvision.py OUTDIR [MODEL ...]

writes, for each MODEL, OUTDIR/MODEL/model.onnx and
OUTDIR/MODEL/test_data_set_0/{input_0.pb,output_0.pb}. Then

    tpuprof-run OUTDIR/MODEL/model.onnx --data OUTDIR/MODEL/test_data_set_0

runs it and compares. Models: the torchvision names below (random weights,
torch.manual_seed(0), batch norm statistics measured on two random batches
of 4, eval mode, input torch.randn(1, 3, 224, 224) after
torch.manual_seed(1)), `encoder` (nn.TransformerEncoder: 2 layers, d_model
256, 4 heads, feed-forward 1024, GELU, input [1, 64, 256]), and the small
ones the tests use: `tiny_cnn` (a 16x16 image through conv, batch norm,
ReLU6, depthwise and transposed convolutions, pools, a nearest and a
bilinear resize, a dynamically shaped flatten) and `tiny_encoder` (a 1-layer
nn.TransformerEncoder, d_model 32, 2 heads, on [1, 8, 32]). Without MODEL
arguments every model is exported. Opset 13 (`--opset N` changes it).
"""
import argparse
import os
import sys

import numpy as np
import onnx
import torch
import torch.nn as nn
import torch.nn.functional as F
from onnx import numpy_helper

TORCHVISION = ["resnet18", "resnet50", "mobilenet_v2", "mobilenet_v3_small",
               "squeezenet1_0", "shufflenet_v2_x1_0", "efficientnet_b0", "swin_t"]


class TinyCnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.dw = nn.Conv2d(8, 8, 3, padding=1, groups=8)
        self.up = nn.ConvTranspose2d(8, 4, 2, stride=2)
        self.norm = nn.InstanceNorm2d(4, affine=True)
        self.fc = nn.Linear(4 * 4 * 4, 10)

    def forward(self, x):
        x = F.relu6(self.bn(self.conv(x)))
        x = F.max_pool2d(self.dw(x), 2)              # 8x8
        x = F.hardswish(self.up(x))                  # 16x16
        x = F.interpolate(x, scale_factor=0.5, mode="nearest")   # 8x8
        x = F.interpolate(x, size=(4, 4), mode="bilinear", align_corners=False)
        x = self.norm(x)
        x = x.reshape(x.shape[0], -1)                # Shape/Gather/Reshape
        return F.log_softmax(self.fc(x), dim=1)


def encoder(layers, d_model, heads, ff):
    layer = nn.TransformerEncoderLayer(d_model, heads, ff, dropout=0.0,
                                       activation="gelu", batch_first=True)
    return nn.TransformerEncoder(layer, layers)


def calibrate_batch_norms(model):
    """Batch norm statistics measured on random images (the initial ones,
    mean 0 and variance 1, let activations vanish through mobilenet's and
    efficientnet's blocks: outputs of 1e-12 that any result matches)."""
    norms = [m for m in model.modules() if isinstance(m, nn.BatchNorm2d)]
    if not norms:
        return
    for m in norms:
        m.reset_running_stats()
        m.momentum = None  # a plain average over the calibration batches
    model.train()
    with torch.no_grad():
        for _ in range(2):
            model(torch.randn(4, 3, 224, 224))


def build(name):
    """The module and its input, from fixed seeds."""
    torch.manual_seed(0)
    if name == "tiny_cnn":
        model, shape = TinyCnn(), (1, 3, 16, 16)
    elif name == "tiny_encoder":
        model, shape = encoder(1, 32, 2, 64), (1, 8, 32)
    elif name == "encoder":
        model, shape = encoder(2, 256, 4, 1024), (1, 64, 256)
    else:
        import torchvision
        model, shape = getattr(torchvision.models, name)(weights=None), (1, 3, 224, 224)
    if name in TORCHVISION:
        calibrate_batch_norms(model)
    model.eval()
    if name == "tiny_cnn":
        # Running statistics that are not the identity.
        with torch.no_grad():
            model.bn.running_mean.uniform_(-0.5, 0.5)
            model.bn.running_var.uniform_(0.5, 2.0)
    torch.manual_seed(1)
    return model, torch.randn(*shape)


def export(name, outdir, opset):
    model, x = build(name)
    with torch.no_grad():
        want = model(x)
    path = os.path.join(outdir, name)
    data = os.path.join(path, "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    # The transformer's fused inference path does not export; with autograd
    # on (requires_grad input) PyTorch takes the path made of plain ops.
    export_input = x.clone().requires_grad_(name.endswith("encoder"))
    torch.onnx.export(model, export_input, os.path.join(path, "model.onnx"),
                      opset_version=opset, input_names=["input"],
                      output_names=["output"], do_constant_folding=True)
    onnx.save_tensor(numpy_helper.from_array(x.numpy()),
                     os.path.join(data, "input_0.pb"))
    onnx.save_tensor(numpy_helper.from_array(want.numpy().astype(np.float32)),
                     os.path.join(data, "output_0.pb"))
    ops = sorted({n.op_type for n in onnx.load(os.path.join(path, "model.onnx")).graph.node})
    print(f"{name}: {path}/model.onnx ({', '.join(ops)})")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("outdir")
    parser.add_argument("models", nargs="*")
    parser.add_argument("--opset", type=int, default=13)
    args = parser.parse_args()
    torch.set_num_threads(1)
    names = args.models or TORCHVISION + ["encoder", "tiny_cnn", "tiny_encoder"]
    for name in names:
        export(name, args.outdir, args.opset)


if __name__ == "__main__":
    sys.exit(main())
