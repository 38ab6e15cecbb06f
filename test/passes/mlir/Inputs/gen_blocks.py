"""Writes a module of N blocks of tosa/linalg ops (≈8 probes per block) in
two functions, for tests that need more ops than a hand-written file holds:
  python3 gen_blocks.py N"""
import sys

n = int(sys.argv[1])
print("#id = affine_map<(d0, d1) -> (d0, d1)>")
for fn in range(2):
    print(f"func.func @f{fn}(%in: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> {{")
    print("  %zero = arith.constant 0.0 : f32")
    prev = "%in"
    for i in range(n):
        print(f"  %a{i} = tosa.add {prev}, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>")
        print(f"  %m{i} = tosa.mul %a{i}, %w {{shift = {i % 3} : i8}} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>")
        print(f"  %e{i} = tensor.empty() : tensor<4x4xf32>")
        print(f"  %f{i} = linalg.fill ins(%zero : f32) outs(%e{i} : tensor<4x4xf32>) -> tensor<4x4xf32>")
        print(f"  %g{i} = linalg.matmul ins(%m{i}, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f{i} : tensor<4x4xf32>) -> tensor<4x4xf32>")
        print(f"  %h{i} = linalg.generic {{indexing_maps = [#id, #id], iterator_types = [\"parallel\", \"parallel\"]}} ins(%g{i} : tensor<4x4xf32>) outs(%e{i} : tensor<4x4xf32>) {{")
        print(f"  ^bb0(%x{i}: f32, %o{i}: f32):")
        print(f"    %s{i} = arith.addf %x{i}, %x{i} : f32")
        print(f"    linalg.yield %s{i} : f32")
        print("  } -> tensor<4x4xf32>")
        print(f"  %r{i} = tosa.reshape %h{i} {{new_shape = array<i64: 16>}} : (tensor<4x4xf32>) -> tensor<16xf32>")
        print(f"  %q{i} = tosa.reshape %r{i} {{new_shape = array<i64: 4, 4>}} : (tensor<16xf32>) -> tensor<4x4xf32>")
        prev = f"%q{i}"
    print(f"  return {prev} : tensor<4x4xf32>")
    print("}")
