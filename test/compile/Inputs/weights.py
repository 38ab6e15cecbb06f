#!/usr/bin/env python3
"""Writes a model holding one 64x64 f32 weight (16 KiB, not a splat) that
an elementwise add reads: a constant of several pages."""
import struct
import sys

data = b"".join(struct.pack("<f", i * 0.25) for i in range(64 * 64))
model = f"""func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {{
  %w = "tosa.const"() {{value = dense<"0x{data.hex().upper()}"> : tensor<64x64xf32>}} : () -> tensor<64x64xf32>
  %y = tosa.add %x, %w : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}}"""
with open(sys.argv[1], "w") as out:
    out.write(model + "\n")
