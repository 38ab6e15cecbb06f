//===- Passes.td - tpuprof MLIR transforms -----------------*- tablegen -*-===//
//
// The pass that puts probes into MLIR modules (Conversion/Passes.td lowers
// them to runtime calls). Documentation for users is generated from this
// file (docs/passes.md is written from the same text).
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_TRANSFORMS_PASSES_TD
#define TPUPROF_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TpuProfileInstrument : Pass<"tpu-profile-instrument", "::mlir::ModuleOp"> {
  let summary = "Wrap graph-level ops, nodes or kernels in profiling probes";
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

    Probe levels (`probe-level`): `graph` (the default) probes the ops as
    they are when the pass runs, before any lowering: one probe per source
    op, and the probes keep ops apart (nothing is fused across them).
    `kernel` probes the kernels a lowering produced: run it after the
    lowering's fusion (the built-in pipeline `tpu-profile-cpu{probe-level=kernel}`
    runs it right after `linalg-fuse-elementwise-ops`). Each kernel's name
    lists the source ops it was fused from, in order (`sub+exp`), as
    `--tpu-profile-tag-sources` recorded them in the locations, and its
    location lists every source location. Calls of functions the
    pipeline outlined (`tpuprof.outlined`) are not kernels; tensor ops that
    become a loop or a copy after bufferization (`tensor.pad`,
    `tensor.insert_slice`, `tensor.concat`, `tensor.generate`,
    `tensor.splat`, `bufferization.materialize_in_destination`) are, and a
    chain of inserts each into the one before (a lowered concat) is one
    kernel. `node` probes, before lowering as `graph` does, each run of
    consecutive ops of one node (the name part of their locations: an
    imported ONNX node) with one probe pair, named `node.` and the node's op
    type (`node.Conv`), else its ops' short names (`node.mul+add`); ops
    without a node keep a probe each. `node+graph` also probes each op
    inside its node's probe.

    Example:
    ```
    tpuprof-opt model.mlir --tpu-profile-instrument="exclude=tosa.reshape capture=1"
    ```
  }];
  let options = [
    ListOption<"include", "include", "std::string",
      "Op-name globs to instrument instead of the default selection "
      "(e.g. 'tosa.*', 'top.Conv', 'linalg.matmul'); the word 'default' "
      "adds the default selection">,
    ListOption<"exclude", "exclude", "std::string",
      "Op-name globs never to instrument (e.g. 'tosa.reshape', 'top.*')">,
    Option<"capture", "capture", "unsigned",
      /*default=*/"TPUPROF_CAPTURE_DEFAULT",
      "What probes capture (format.h's tpuprof_capture): 0 times only; 1 "
      "also the runtime values of dynamic dimensions; 2 everything (same as "
      "1 for graph ops)">,
    Option<"mode", "mode", "unsigned", /*default=*/"TPUPROF_CAPTURE_DEFAULT",
      "Old name of capture">,
    Option<"manifest", "manifest", "std::string", /*default=*/"\"\"",
      "Also write the probe table as JSON to this file (for tools)">,
    Option<"probeConstants", "probe-constants", "bool", /*default=*/"false",
      "Also probe unregistered ops without operands or regions (constants "
      "such as TPU-MLIR's top.Weight and top.None), where include or the "
      "default selection selects them">,
    Option<"probeLevel", "probe-level", "std::string", /*default=*/"\"graph\"",
      "What a probe wraps: 'graph' (each op as it is now, before lowering), "
      "'kernel' (each kernel a lowering left after its fusion, named by "
      "the source ops it was fused from), 'node' (each run of ops of one "
      "node, before lowering) or 'node+graph' (node probes with each op's "
      "own inside)">,
  ];
  let dependentDialects = ["::tpuprof::TpuProfDialect"];
}

def TpuProfileTagSources
    : Pass<"tpu-profile-tag-sources", "::mlir::ModuleOp"> {
  let summary = "Record each graph op's name in its location";
  let description = [{
    Gives each op that `--tpu-profile-instrument` would select by default
    (TOSA and linalg ops, calls, unregistered ops; constants and terminators
    never) the location `fused<{tpuprof.op = "<op name>"}>[<its location>]`.
    Lowerings copy an op's location onto what they build from it, and
    elementwise fusion clones a producer's body, locations included, into
    the fused kernel: `--tpu-profile-instrument{probe-level=kernel}` reads
    the tags back to name each kernel by the source ops it came from and to
    list their locations. Locations do not change the code that is
    generated. An op already tagged keeps its tag.
  }];
}

#endif // TPUPROF_TRANSFORMS_PASSES_TD
