//===- Passes.td - tpuprof MLIR conversions ----------------*- tablegen -*-===//
//
// The pass that lowers the probes to guarded calls of the tpuprof runtime in
// the LLVM dialect. Documentation for users is generated from this file
// (docs/passes.md is written from the same text).
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_CONVERSION_PASSES_TD
#define TPUPROF_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def TpuProfileLower : Pass<"tpu-profile-lower", "::mlir::ModuleOp"> {
  let summary = "Lower tpuprof probes to guarded runtime calls";
  let description = [{
    Replaces every `tpuprof.begin` / `tpuprof.end` with a call of an
    internal, always-inlined guard function (`__tpuprof_begin_guard`,
    `__tpuprof_end_guard`, `__tpuprof_begin_dims_guard_<n>`) that checks the
    runtime's `__tpuprof_enabled` flag (a load and a branch once inlined)
    and then calls `__tpuprof_begin`, `__tpuprof_begin_dims` or
    `__tpuprof_end`; forwards the probes' operands to their users. Embeds
    the module's probe table as a constant global and registers it with the
    runtime from a module constructor (`llvm.mlir.global_ctors`).

    Everything it emits is in the LLVM dialect (plus `memref.dim` and
    `arith.index_cast` for dynamic dimensions), so any pipeline that lowers
    the model's functions to `llvm.func` lowers the probes too. Run it after
    bufferization (probes then sit between memory-writing ops and cannot
    move). It also accepts tensor IR, at the price of the fusion barrier the
    probes provide.

    With `memory` (the default), it also wraps the buffers the code
    allocates and frees (`memref.alloc`, `alloca`, `realloc`, `dealloc`) in
    calls of guards of `__tpuprof_memory` that call `__tpuprof_alloc`,
    `__tpuprof_realloc` and `__tpuprof_free`, so a window that tracks memory
    records them. Wrapping is idempotent: run the pass again after a
    pipeline that adds deallocations (the buffer deallocation pipeline).
  }];
  let options = [
    Option<"memory", "memory", "bool", /*default=*/"true",
           "Wrap memref allocations and deallocations for memory tracking">,
  ];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect", "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect", "::mlir::tensor::TensorDialect"
  ];
}

#endif // TPUPROF_CONVERSION_PASSES_TD
