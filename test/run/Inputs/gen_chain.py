#!/usr/bin/env python3
"""Prints a model whose @main chains N TOSA ops (add, mul, clamp, matmul on
8x8 tensors, weights as arguments): more graph ops than a function keeps
together (tpu-profile-outline-ops splits it into functions)."""
import sys

n = int(sys.argv[1])
t = "tensor<1x8x8xf32>"
print(f"func.func @main(%x: {t}, %w: {t}) -> {t} {{")
prev = "%x"
for i in range(n):
    kind = i % 4
    if kind == 0:
        op = f"tosa.add {prev}, %w : ({t}, {t}) -> {t}"
    elif kind == 1:
        op = f"tosa.mul {prev}, %w {{shift = 0 : i8}} : ({t}, {t}) -> {t}"
    elif kind == 2:
        op = (f"tosa.clamp {prev} {{min_fp = -1.0 : f32, max_fp = 1.0 : f32, "
              f"min_int = 0 : i64, max_int = 0 : i64}} : ({t}) -> {t}")
    else:
        op = f"tosa.matmul {prev}, %w : ({t}, {t}) -> {t}"
    print(f"  %v{i} = {op}")
    prev = f"%v{i}"
print(f"  return {prev} : {t}\n}}")
