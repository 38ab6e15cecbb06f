#!/usr/bin/env bash
# Installs what tpuprof needs to build and test on Debian 12 (bookworm).
# Safe to rerun: does nothing when everything is already installed.
set -euo pipefail

packages=(
  cmake ninja-build python3
  llvm-19-dev llvm-19-tools libmlir-19-dev mlir-19-tools
  clang-19 libclang-rt-19-dev   # the compiler; XRay for bench/
  gcc g++                       # the other compiler the suite is built with (.ci/run)
  libomp-19-dev                 # OpenMP programs in the LLVM plugin's tests
  libpfm4-dev                   # PMU event encoding
  clang-format-19               # scripts/check-format.sh (a ctest test)
  libgtest-dev libbenchmark-dev # tests and benchmarks
  libpapi-dev                   # bench/: the PAPI_read peer of the mode-1 probe cost
  valgrind                      # bench/: callgrind instruction counts (plugin compile work)
  libsqlite3-dev sqlite3        # report export --format sqlite; sqlite3 CLI for its tests
  libxlsxwriter-dev pkg-config  # report's .xlsx workbook (bundle, export --format xlsx)
  chromium                      # the HTML report's browser test (test only)
  pkgconf groff-base            # test/install: pkg-config builds, man pages render
  python3-pandas                # test/python: Profile.to_pandas()
  libonnx-dev libprotobuf-dev   # tpuprof-import: ONNX's protobuf classes and shape inference
  python3-onnx libonnx-testdata # test/import: models built at test time, ONNX's backend tests
  gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user # test/boards: the runtime on an emulated ARM board
  gcc-s390x-linux-gnu libc6-dev-s390x-cross # test/boards: the runtime on an emulated big-endian machine (s390x)
  gcc-arm-linux-gnueabihf libc6-dev-armhf-cross # test/boards: the runtime on an emulated 32-bit ARM board (armhf)
  gcc-i686-linux-gnu libc6-dev-i386-cross # test/boards: the runtime builds for 32-bit x86 (i686)
  openmpi-bin libopenmpi-dev    # runtime/mpi: libtpuprof_mpi (PMPI); test/mpi runs jobs under mpirun
  libotf2-trace-dev otf2-tools  # report ranks --otf2 (OTF2 archives); otf2-print reads them in test/mpi
  python3-torch                 # test/report/trace-torch.test: a real torch.profiler trace for --trace-file
  libopenblas0-pthread          # bench/: the BLAS PyTorch eager is measured with (Debian's torch calls the system libblas.so.3)
  python3-torchvision           # bench/export-torchvision.py: the torchvision models the model benches run
  pocl-opencl-icd               # test/device, bench/: OpenCL on the CPU (device timing)
  ocl-icd-opencl-dev            # test/device, bench/: libOpenCL and CL/cl.h for their programs
  mesa-vulkan-drivers           # test/device, bench/: Vulkan compute on the CPU (lavapipe)
  libvulkan-dev                 # test/device, bench/: libvulkan and vulkan/vulkan.h for their programs
  glslang-tools                 # test/device, bench/: glslangValidator compiles their GLSL kernel to SPIR-V
  libcupti-dev                  # runtime/cupti_layout_check.c: CUPTI's own headers pin the CUDA backend's record layouts (non-free, below)
)
# node and npm run that test's playwright-core; an existing node will do.
command -v node > /dev/null && command -v npm > /dev/null || packages+=(nodejs npm)

# libcupti-dev is in Debian's non-free component: add it (contrib for its
# dependencies) when no apt source has it yet. Only its headers are used, at
# build time; nothing links or loads libcupti on a machine without a GPU.
nonfree_sources=/etc/apt/sources.list.d/tpuprof-non-free.sources
# (non-free itself: "non-free-firmware", in a default bookworm source, is
# another component.)
if ! grep -rqsE '(^|[[:space:]])non-free([[:space:]]|$)' /etc/apt/sources.list /etc/apt/sources.list.d/ &&
  ! dpkg-query -W -f='${Status}' libcupti-dev 2>/dev/null | grep -q "install ok installed"; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "tpuprof: adding Debian's contrib and non-free components ($nonfree_sources)" >&2
  printf '%s\n' 'Types: deb' 'URIs: http://deb.debian.org/debian' \
    'Suites: bookworm bookworm-updates' 'Components: contrib non-free' \
    'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' |
    $sudo tee "$nonfree_sources" > /dev/null
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if [ ${#missing[@]} -ne 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "tpuprof: installing ${missing[*]}" >&2
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# playwright-core (pinned in package-lock.json) drives chromium over the
# DevTools protocol in test/report/browser; it downloads no browser.
browser_test=$(cd "$(dirname "$0")/.." && pwd)/test/report/browser
if [ ! -d "$browser_test/node_modules/playwright-core" ]; then
  echo "tpuprof: npm ci in $browser_test" >&2
  (cd "$browser_test" && npm ci --no-audit --no-fund --loglevel=error)
fi

# onnxruntime-node (pinned in package-lock.json), ONNX Runtime's CPU build:
# the peer of bench/vs_models.py. Its install script would fetch CUDA
# libraries from the network; the CPU build is in the package itself.
ort_bench=$(cd "$(dirname "$0")/.." && pwd)/bench/onnxruntime
if [ ! -d "$ort_bench/node_modules/onnxruntime-node" ]; then
  echo "tpuprof: npm ci in $ort_bench" >&2
  (cd "$ort_bench" && ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund --loglevel=error)
fi
