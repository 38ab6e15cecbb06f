// --tpu-profile-lower emits nothing a stock pipeline lacks: this pipeline of
// stock mlir-opt-19 has no convert-scf-to-cf (nor convert-cf-to-llvm) and
// lowers the model to the LLVM dialect without probes; with probes (the
// plugin) it does too, and the probes are calls of guard functions.
// test/run/run-stock-pipeline.test runs both and compares their results.
//
// The stock mlir-opt cannot load a sanitizer build's plugin.
// UNSUPPORTED: sanitizer
// RUN: mlir-opt %S/../../run/Inputs/no-loops.mlir --pass-pipeline='builtin.module(func.func(tosa-to-linalg,tosa-to-tensor),one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},convert-linalg-to-loops,expand-strided-metadata,convert-arith-to-llvm,convert-func-to-llvm,finalize-memref-to-llvm,reconcile-unrealized-casts)' | FileCheck %s --check-prefix=PLAIN --implicit-check-not='{{^ *(%[^ ]+ = )?"?(func|scf|cf|arith|memref|tensor|linalg|tosa|builtin\.unrealized)\.}}'
// RUN: mlir-opt %S/../../run/Inputs/no-loops.mlir --load-pass-plugin=%tpuprof_lib/TpuProfileMLIRPlugin.so --pass-pipeline='builtin.module(tpu-profile-instrument,func.func(tosa-to-linalg,tosa-to-tensor),one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},tpu-profile-lower,convert-linalg-to-loops,expand-strided-metadata,convert-arith-to-llvm,convert-func-to-llvm,finalize-memref-to-llvm,reconcile-unrealized-casts)' | FileCheck %s --check-prefix=PROBED --implicit-check-not='{{^ *(%[^ ]+ = )?"?(func|scf|cf|arith|memref|tensor|linalg|tosa|builtin\.unrealized)\.}}'

// PLAIN-LABEL: llvm.func @main(
// PLAIN: llvm.fadd
// PLAIN: llvm.fmul
// PLAIN: llvm.return

// PROBED-LABEL: llvm.func @main(
// PROBED: llvm.call @__tpuprof_begin_guard(
// PROBED: llvm.call @malloc
// PROBED: llvm.fadd
// PROBED: llvm.call @__tpuprof_end_guard(
// PROBED: llvm.call @__tpuprof_begin_guard(
// PROBED: llvm.fmul
// PROBED: llvm.call @__tpuprof_end_guard(
// PROBED: llvm.call @__tpuprof_begin_guard(
// PROBED: llvm.call @__tpuprof_end_guard(
// PROBED: llvm.return
// PROBED: llvm.func internal @__tpuprof_begin_guard(
// PROBED: llvm.cond_br
// PROBED: llvm.func internal @__tpuprof_end_guard(
