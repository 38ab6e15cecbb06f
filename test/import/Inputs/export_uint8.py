#!/usr/bin/env python3
"""Exports a small CNN whose input is a uint8 image, as a deployed model
takes it, with Debian's python3-torch: Cast to float, scale and normalize,
a convolution, ReLU, a fake-quantized activation (QuantizeLinear and
DequantizeLinear with a uint8 zero point), a max pool, a linear layer; and
a second output cast back to uint8 (the "image" the model would save).

    export_uint8.py DIR    # DIR/model.onnx, DIR/test_data_set_0/*.pb

The expected outputs are PyTorch's own; the input holds values above 127,
where reading uint8 as int8 would go wrong.
"""
import os
import sys

import onnx
import torch
from onnx import numpy_helper


class TinyUint8(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.pool = torch.nn.MaxPool2d(2)
        self.fc = torch.nn.Linear(8 * 8 * 8, 10)
        self.register_buffer("mean", torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1))
        self.register_buffer("std", torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1))

    def forward(self, image):
        x = (image.float() / 255.0 - self.mean) / self.std
        x = torch.relu(self.conv(x))
        x = torch.fake_quantize_per_tensor_affine(x, 0.05, 3, 0, 255)
        x = self.pool(x)
        logits = self.fc(torch.flatten(x, 1))
        preview = torch.clamp(x[:, :3] * 64.0, 0, 255).to(torch.uint8)
        return logits, preview


def main():
    out = sys.argv[1]
    torch.manual_seed(0)
    model = TinyUint8().eval()
    image = torch.randint(0, 256, (1, 3, 16, 16), dtype=torch.uint8)
    with torch.no_grad():
        expected = model(image)
    os.makedirs(os.path.join(out, "test_data_set_0"), exist_ok=True)
    path = os.path.join(out, "model.onnx")
    torch.onnx.export(model, (image,), path, opset_version=13,
                      input_names=["image"], output_names=["logits", "preview"])
    data = os.path.join(out, "test_data_set_0")
    with open(os.path.join(data, "input_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(image.numpy(), "image").SerializeToString())
    for i, value in enumerate(expected):
        with open(os.path.join(data, "output_%d.pb" % i), "wb") as f:
            f.write(numpy_helper.from_array(value.numpy()).SerializeToString())
    ops = sorted({n.op_type for n in onnx.load(path).graph.node})
    print("tiny_uint8: %s (%s)" % (path, ", ".join(ops)))


if __name__ == "__main__":
    main()
