//===- ProbeDialect.td - the tpuprof dialect ---------------*- tablegen -*-===//
//
// The dialect of tpuprof's probes and probe table.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_DIALECT_TD
#define TPUPROF_DIALECT_TD

include "mlir/IR/OpBase.td"

def TpuProf_Dialect : Dialect {
  let name = "tpuprof";
  let cppNamespace = "::tpuprof";
  let summary = "Profiling probes placed around graph-level ops";
  let description = [{
    Probes inserted by `--tpu-profile-instrument` and lowered to runtime
    calls by `--tpu-profile-lower`. Each probe refers by `probe` to an entry of
    the module's probe table, the `tpuprof.probes` op.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    /// Adds #tpuprof.probes (ProbeTable.cpp).
    void registerAttributes();
  }];
}

#endif // TPUPROF_DIALECT_TD
