//===- Passes.td - tpuprof MLIR passes ---------------------*- tablegen -*-===//
//
// The passes that put probes into MLIR modules and lower them to runtime
// calls. Documentation for users is generated from this file (docs/passes.md
// is written from the same text).
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_PASSES_TD
#define TPUPROF_PASSES_TD

include "mlir/Pass/PassBase.td"

def TpuProfileInstrument : Pass<"tpu-profile-instrument", "::mlir::ModuleOp"> {
  let summary = "Wrap graph-level ops in profiling probes";
  let description = [{
    Wraps each selected op in a `tpuprof.begin` / `tpuprof.end` pair and
    records a descriptor for it in the module's probe table (the
    `tpuprof.probes` module attribute): op name, stable 64-bit hash, argument
    shapes, source location, enclosing function and static FLOP and byte
    estimates. `--tpu-profile-lower` later turns the probes into calls of the
    tpuprof runtime guarded by an inline enabled check, and embeds the table.

    Default selection: every `tosa` op, every `linalg` op except
    `linalg.yield` and `linalg.index`, `func.call` (except calls to the
    runtime's `__tpuprof_*` functions), `gpu.launch_func`, and every
    unregistered op (e.g. `"top.Conv"` with `--allow-unregistered-dialect`).
    Never instrumented: terminators, constants, ops nested inside a `linalg`
    op's body, ops outside functions. Unregistered ops that name constants
    (results, but no operands and no regions: TPU-MLIR's `top.Weight` and
    `top.None`) get no probes unless `probe-constants` is set.

    Example:
    ```
    tpuprof-opt model.mlir --tpu-profile-instrument="exclude=tosa.reshape mode=1"
    ```
  }];
  let options = [
    ListOption<"include", "include", "std::string",
      "Op-name globs to instrument instead of the default selection "
      "(e.g. 'tosa.*', 'top.Conv', 'linalg.matmul'); the word 'default' "
      "adds the default selection">,
    ListOption<"exclude", "exclude", "std::string",
      "Op-name globs never to instrument (e.g. 'tosa.reshape', 'top.*')">,
    Option<"mode", "mode", "unsigned", /*default=*/"1",
      "What probes capture: 0 timing only; 1 also the runtime values of "
      "dynamic dimensions; 2 everything (same as 1 for graph ops)">,
    Option<"manifest", "manifest", "std::string", /*default=*/"\"\"",
      "Also write the probe table as JSON to this file (for tools)">,
    Option<"probeConstants", "probe-constants", "bool", /*default=*/"false",
      "Also probe unregistered ops without operands or regions (constants "
      "such as TPU-MLIR's top.Weight and top.None), where include or the "
      "default selection selects them">,
  ];
  let dependentDialects = ["::tpuprof::TpuProfDialect"];
}

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

#endif // TPUPROF_PASSES_TD
