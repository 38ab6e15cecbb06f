#!/usr/bin/env bash
# Pass robustness sweep (docs/reliability.md): runs the MLIR passes and the
# LLVM plugin over every .mlir and .ll file in the repository plus generated
# inputs, and fails when a pass crashes or leaves IR the verifier rejects.
#   scripts/pass-sweep.sh [BUILD_DIR]     (default build/, or $TPUPROF_BUILD_DIR)
#   PASS_SWEEP_NO_RUN=1 skips the tpuprof-run (JIT) runs (the lit test does).
# Inputs the upstream verifier rejects are skipped (they are the error tests'
# own inputs); a pass that rejects an input with a diagnostic (exit 1) is
# counted as "rejected", not as a failure. Each .mlir file is taken whole and
# split at its `// -----` markers.
#   MLIR:  tpuprof-opt --tpu-profile-instrument, then --tpu-profile-lower,
#          each output re-parsed and verified by tpuprof-opt; tpuprof-run
#          (instrument, lower, JIT, run) where the file has a runnable entry.
#   LLVM:  opt -load-pass-plugin=TpuProfilePlugin.so
#          -passes=tpu-profile-instrument, then opt -passes=verify; generated
#          inputs: the repo's C/C++ test sources compiled by clang-19 -O0/-O2.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-${TPUPROF_BUILD_DIR:-$root/build}}" && pwd)
llvm_bin=/usr/lib/llvm-19/bin
opt_tool="$build/bin/tpuprof-opt"
run_tool="$build/bin/tpuprof-run"
plugin="$build/lib/TpuProfilePlugin.so"
work=$(mktemp -d /tmp/tpuprof-sweep-XXXXXX)
trap 'rm -rf "$work"' EXIT
pass=0 rejected=0 skipped=0 failed=0

# A crash is a signal (rc > 128) or LLVM's crash banner.
crashed() { [ "$1" -gt 128 ] || grep -q "PLEASE submit a bug report" "$2"; }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
# PASS_SWEEP_VERBOSE=1 lists the rejections with the diagnostic's first line.
reject() {
  rejected=$((rejected + 1))
  [ -n "${PASS_SWEEP_VERBOSE:-}" ] &&
    echo "rejected: $*: $(grep -m1 -i error "$work/log")"
  return 0
}

# Split each .mlir file into chunks the way --split-input-file does.
mkdir -p "$work/mlir"
n=0
while IFS= read -r f; do
  n=$((n + 1))
  awk -v out="$work/mlir/$n" -v src="$f" '
    BEGIN { c = 0; file = out "-" c ".mlir"; print "// from " src > file }
    /^\/\/ -----/ { close(file); c++; file = out "-" c ".mlir";
                    print "// from " src > file; next }
    { print > file }' "$f"
done < <(cd "$root" && git ls-files '*.mlir' | sed "s|^|$root/|")

for f in "$work"/mlir/*.mlir; do
  src=$(head -1 "$f" | sed 's|^// from ||')
  label="${src#$root/} (chunk ${f##*-})"
  if ! "$opt_tool" --allow-unregistered-dialect "$f" -o /dev/null \
       >"$work/log" 2>&1; then
    skipped=$((skipped + 1))
    continue
  fi
  ok=1
  for pipeline in "--tpu-profile-instrument" \
                  "--tpu-profile-instrument --tpu-profile-lower"; do
    # shellcheck disable=SC2086
    "$opt_tool" --allow-unregistered-dialect $pipeline "$f" \
      -o "$work/out.mlir" >"$work/log" 2>&1
    rc=$?
    if crashed "$rc" "$work/log"; then
      fail "$label: tpuprof-opt $pipeline crashed"; sed 's/^/  /' "$work/log" | head -20
      ok=0; break
    elif [ "$rc" -ne 0 ]; then
      reject "$label: tpuprof-opt $pipeline"; ok=0; break
    elif ! "$opt_tool" --allow-unregistered-dialect "$work/out.mlir" \
           -o /dev/null >"$work/log" 2>&1; then
      fail "$label: tpuprof-opt $pipeline produced invalid IR"
      sed 's/^/  /' "$work/log" | head -20; ok=0; break
    fi
  done
  [ "$ok" = 1 ] && pass=$((pass + 1))
  # The full pipeline, where the chunk has something to run.
  if [ -z "${PASS_SWEEP_NO_RUN:-}" ] && [ -x "$run_tool" ] &&
     grep -q "func.func @" "$f"; then
    mkdir -p "$work/dumps"
    timeout 60 "$run_tool" --output="$work/dumps" "$f" >"$work/log" 2>&1
    rc=$?
    if [ "$rc" = 124 ]; then
      fail "$label: tpuprof-run timed out"
    elif crashed "$rc" "$work/log"; then
      fail "$label: tpuprof-run crashed"; sed 's/^/  /' "$work/log" | head -20
    elif [ "$rc" = 0 ]; then
      pass=$((pass + 1))
    else
      reject "$label: tpuprof-run"
    fi
    rm -rf "$work/dumps"
  fi
done

# LLVM IR: the repo's .ll files and generated ones.
mkdir -p "$work/ll"
cp $(cd "$root" && git ls-files '*.ll' | sed "s|^|$root/|") "$work/ll/" 2>/dev/null
while IFS= read -r src; do
  base=$(basename "$src")
  for o in O0 O2; do
    lang=c; case "$src" in *.cpp) lang=c++ ;; esac
    extra=""; grep -q "omp" "$src" && extra=-fopenmp
    "$llvm_bin/clang" -x "$lang" -S -emit-llvm -$o $extra -I"$root/include" \
      "$src" -o "$work/ll/gen-$o-$base.ll" >/dev/null 2>&1 ||
      rm -f "$work/ll/gen-$o-$base.ll"
  done
done < <(cd "$root" && git ls-files 'test/*.c' 'test/*.cpp' 'examples/*.c' \
           'bench/*.c' | grep -v -e Test.cpp -e Fuzzer.cpp | sed "s|^|$root/|")

for f in "$work"/ll/*.ll; do
  label=$(basename "$f")
  if ! "$llvm_bin/opt" -passes=verify -disable-output "$f" >"$work/log" 2>&1; then
    skipped=$((skipped + 1))
    continue
  fi
  "$llvm_bin/opt" -load-pass-plugin="$plugin" -passes=tpu-profile-instrument \
    "$f" -o "$work/out.bc" >"$work/log" 2>&1
  rc=$?
  if crashed "$rc" "$work/log"; then
    fail "$label: opt -passes=tpu-profile-instrument crashed"
    sed 's/^/  /' "$work/log" | head -20
  elif [ "$rc" -ne 0 ]; then
    reject "$label: opt -passes=tpu-profile-instrument"
  elif ! "$llvm_bin/opt" -passes=verify -disable-output "$work/out.bc" \
         >"$work/log" 2>&1; then
    fail "$label: tpu-profile-instrument produced invalid IR"
    sed 's/^/  /' "$work/log" | head -20
  else
    pass=$((pass + 1))
  fi
done

echo "pass-sweep: $pass clean, $rejected rejected with a diagnostic," \
     "$skipped inputs the verifier rejects (skipped), $failed failures"
[ "$failed" = 0 ]
