#!/usr/bin/env bash
# Configures and builds tpuprof in build/ (or $TPUPROF_BUILD_DIR) with
# clang-19 and Ninja against Debian's LLVM/MLIR 19. Extra arguments go to
# cmake, e.g. scripts/build.sh -DTPUPROF_SANITIZER="address;undefined".
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TPUPROF_BUILD_DIR:-$root/build}
"$root/scripts/install-deps.sh"
cmake -G Ninja -S "$root" -B "$build" \
  -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
  -DMLIR_DIR=/usr/lib/llvm-19/lib/cmake/mlir "$@"
cmake --build "$build" -j "$(nproc)"
