#!/usr/bin/env bash
# Installs what tpuprof needs to build and test on Debian 12 (bookworm).
# Safe to rerun: does nothing when everything is already installed.
set -euo pipefail

packages=(
  cmake ninja-build python3
  llvm-19-dev llvm-19-tools libmlir-19-dev mlir-19-tools
  clang-19 libclang-rt-19-dev   # the compiler; XRay for bench/
  libomp-19-dev                 # OpenMP programs in the LLVM plugin's tests
  libpfm4-dev                   # PMU event encoding
  libgtest-dev libbenchmark-dev # tests and benchmarks
  libpapi-dev                   # bench/: the PAPI_read peer of the mode-1 probe cost
  libsqlite3-dev sqlite3        # report export --format sqlite; sqlite3 CLI for its tests
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "tpuprof: installing ${missing[*]}" >&2
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
