#!/usr/bin/env bash
# The main job on a bundled example: instrument, lower, run on the CPU and
# print the per-op report. Usage: scripts/demo.sh [MODEL.mlir] [tpuprof-run options]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TPUPROF_BUILD_DIR:-$root/build}
"$root/scripts/build.sh" >&2
model=${1:-$root/examples/mlp.mlir}
shift || true
out=$(mktemp -d)
exec "$build/bin/tpuprof-run" "$model" --output "$out" "$@"
