#!/usr/bin/env bash
# Builds tpuprof and runs the whole test suite (lit + GoogleTest) via ctest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TPUPROF_BUILD_DIR:-$root/build}
"$root/scripts/build.sh" "$@"
cd "$build"
ctest --output-on-failure -j "$(nproc)"
