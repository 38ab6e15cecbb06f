// The passes and the dialect as plugins of the stock mlir-opt of LLVM 19
// (no tpuprof-opt involved). Pass options work in --pass-pipeline; the
// --tpu-profile-instrument flag itself is not available there because
// mlir-opt parses its command line before it loads the plugin.
//
// The stock mlir-opt cannot load a sanitizer build's plugin.
// UNSUPPORTED: sanitizer
// RUN: mlir-opt %s --load-pass-plugin=%tpuprof_lib/TpuProfileMLIRPlugin.so --pass-pipeline='builtin.module(tpu-profile-instrument{exclude=tosa.exp mode=0})' | FileCheck %s
// Instrumented IR printed by one mlir-opt is read back by another one that
// loads the plugin as a dialect plugin (and parses to the same text).
// RUN: mlir-opt %s --load-pass-plugin=%tpuprof_lib/TpuProfileMLIRPlugin.so --pass-pipeline='builtin.module(tpu-profile-instrument{exclude=tosa.exp mode=0})' > %t.instrumented.mlir
// RUN: mlir-opt %t.instrumented.mlir --load-dialect-plugin=%tpuprof_lib/TpuProfileMLIRPlugin.so > %t.roundtrip.mlir
// RUN: FileCheck %s < %t.roundtrip.mlir
// RUN: diff %t.instrumented.mlir %t.roundtrip.mlir
// Without the dialect plugin, stock mlir-opt rejects the probes.
// RUN: not mlir-opt %t.instrumented.mlir 2>&1 | FileCheck %s --check-prefix=NODIALECT
// Lowering through the plugin, down to the runtime calls:
// RUN: mlir-opt %s --load-pass-plugin=%tpuprof_lib/TpuProfileMLIRPlugin.so --pass-pipeline='builtin.module(tpu-profile-instrument,func.func(tosa-to-linalg),one-shot-bufferize{bufferize-function-boundaries},tpu-profile-lower)' | FileCheck %s --check-prefix=LOWER
// tpuprof-run's built-in pipelines are registered by the plugin too (the
// naive one here by its old name, which stays registered), and take the
// model to the LLVM dialect:
// RUN: mlir-opt %s --load-pass-plugin=%tpuprof_lib/TpuProfileMLIRPlugin.so --pass-pipeline='builtin.module(tpu-profile-instrument,tpu-profile-cpu)' | FileCheck %s --check-prefix=CPU
// RUN: mlir-opt %s --load-pass-plugin=%tpuprof_lib/TpuProfileMLIRPlugin.so --pass-pipeline='builtin.module(tpu-profile-instrument,tpuprof-cpu-naive)' | FileCheck %s --check-prefix=CPU

// CHECK-LABEL: tpuprof.probes [{bytes = 48, dyn_dims = 0, flops = 4, function = "f", hash = "fbb04a67f313e7bf", location = "{{.*}}plugin.mlir:{{[0-9]+}}:{{[0-9]+}}", name = "tosa.add", shapes = "f32[4], f32[4]", out_shapes = "f32[4]"}]
// CHECK: %[[IN:.*]]:2 = tpuprof.begin 0(%arg0, %arg1) : tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT: %[[ADD:.*]] = tosa.add %[[IN]]#0, %[[IN]]#1
// CHECK-NEXT: %[[OUT:.*]] = tpuprof.end 0(%[[ADD]]) : tensor<4xf32>
// CHECK-NEXT: %[[EXP:.*]] = tosa.exp %[[OUT]]
// CHECK-NEXT: return %[[EXP]]
// The table comes first and prints one entry per line: the error quotes one.
// NODIALECT: error: Dialect `tpuprof' not found for custom op 'tpuprof.probes'
// NODIALECT-NEXT: tpuprof.probes [{bytes = 48, {{.*}}name = "tosa.add", shapes = "f32[4], f32[4]", out_shapes = "f32[4]"}]{{$}}
// LOWER-NOT: tpuprof.begin
// LOWER: llvm.mlir.global internal constant @__tpuprof_probe_table("TPPT
// LOWER: llvm.call @__tpuprof_begin_guard(
// LOWER: linalg.generic
// LOWER: llvm.call @__tpuprof_end_guard(
// LOWER: llvm.call @__tpuprof_begin_guard(
// LOWER: linalg.generic
// LOWER: llvm.call @__tpuprof_end_guard(
// LOWER: llvm.mlir.global_ctors {ctors = [@__tpuprof_module_ctor]
// LOWER-NOT: tpuprof.end
// CPU-NOT: tpuprof.
// CPU-LABEL: llvm.func @f(
// CPU-COUNT-2: llvm.call @__tpuprof_begin_guard(
// CPU-NOT: {{func|linalg|tensor|memref|scf|cf|arith|math|vector}}.
// CPU: llvm.func internal @__tpuprof_begin_guard(
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = tosa.exp %0 : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
