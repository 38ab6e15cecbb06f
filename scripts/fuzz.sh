#!/usr/bin/env bash
# Builds the libFuzzer targets with ASan+UBSan (in build-fuzz/, or
# $TPUPROF_FUZZ_BUILD_DIR) and runs each one for a fixed number of
# executions on a scratch copy of its seed corpus (test/fuzz/corpus/<name>).
#   scripts/fuzz.sh [RUNS]     RUNS executions per target (default 200000)
# Exits non-zero on the first finding; the crashing input is left in the
# scratch directory it prints. docs/reliability.md has the figures.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TPUPROF_FUZZ_BUILD_DIR:-$root/build-fuzz}
runs=${1:-200000}
mkdir -p "$build" && build=$(cd "$build" && pwd)
cmake -G Ninja -S "$root" -B "$build" \
  -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
  -DMLIR_DIR=/usr/lib/llvm-19/lib/cmake/mlir \
  -DTPUPROF_ENABLE_MLIR=OFF -DTPUPROF_ENABLE_BENCH=OFF \
  -DTPUPROF_BUILD_FUZZERS=ON -DTPUPROF_SANITIZER="address;undefined" >/dev/null
# corpus name -> target
targets=(dump:tpuprof-dump-fuzzer probe-table:tpuprof-probe-table-fuzzer
         profile-json:tpuprof-profile-json-fuzzer
         roofline:tpuprof-roofline-fuzzer trace-file:tpuprof-trace-file-fuzzer)
names=()
for t in "${targets[@]}"; do names+=("${t#*:}"); done
cmake --build "$build" -j "$(nproc)" --target "${names[@]}"
scratch=$(mktemp -d /tmp/tpuprof-fuzz-XXXXXX)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
for t in "${targets[@]}"; do
  corpus=${t%%:*} bin=${t#*:}
  mkdir -p "$scratch/$corpus"
  cp "$root/test/fuzz/corpus/$corpus/"* "$scratch/$corpus/"
  # JSON inputs: seeds nested 600 and 60 000 levels deep (a stack overflow
  # of the parser before the depth bound), and room for the fuzzer to grow
  # them: -max_len 256 KiB. Binary inputs stay small.
  max_len=8192
  if [ "$corpus" = profile-json ] || [ "$corpus" = roofline ] || [ "$corpus" = trace-file ]; then
    python3 -c "print('[' * 600)" > "$scratch/$corpus/deep-600"
    python3 -c "print('{\"a\":[' * 30000)" > "$scratch/$corpus/deep-60000"
    max_len=262144
  fi
  # -max_len bounds the inputs, -rss_limit_mb and -malloc_limit_mb turn a
  # huge allocation into a finding, -timeout a hang.
  (cd "$scratch" && "$build/bin/$bin" -runs="$runs" -max_len="$max_len" \
     -rss_limit_mb=1024 -malloc_limit_mb=512 -timeout=10 \
     -print_final_stats=1 "$scratch/$corpus" >"$scratch/$corpus.log" 2>&1) || {
    echo "fuzz.sh: $bin found a bug; see $scratch/$corpus.log"
    tail -40 "$scratch/$corpus.log"
    exit 1
  }
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$scratch/$corpus.log")
  echo "fuzz.sh: $bin: $execs executions, no findings"
done
rm -rf "$scratch"
