//===- TpuProfOps.td - tpuprof probe dialect ---------------*- tablegen -*-===//
//
// The `tpuprof` dialect holds the probes that --tpu-profile-instrument puts
// around an op. They pass the op's operands (begin) and results (end) through
// unchanged, which ties them to the op by data dependence: no pass can hoist
// the op above its begin, sink it below its end, or fuse it with a neighbour,
// without first removing the probes. docs/probes.md explains the choice.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_OPS_TD
#define TPUPROF_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.td"

def TpuProf_Dialect : Dialect {
  let name = "tpuprof";
  let cppNamespace = "::tpuprof";
  let summary = "Profiling probes placed around graph-level ops";
  let description = [{
    Probes inserted by `--tpu-profile-instrument` and lowered to runtime
    calls by `--tpu-profile-lower`. Each probe refers by `probe` to an entry of
    the module's probe table (the `tpuprof.probes` module attribute).
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

/// A probe that forwards its operands as results of the same types. The
/// memory effects keep probes ordered with respect to each other and to
/// every op that touches memory; the forwarding keeps them ordered with
/// respect to the op they wrap.
class TpuProf_ProbeOp<string mnemonic> : Op<TpuProf_Dialect, mnemonic, [
    MemoryEffects<[MemRead, MemWrite]>,
    DeclareOpInterfaceMethods<InferTypeOpInterface>,
    DeclareOpInterfaceMethods<BufferizableOpInterface,
        ["bufferizesToMemoryRead", "bufferizesToMemoryWrite",
         "getAliasingValues", "bufferize"]>]> {
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$probe,
                       Variadic<AnyType>:$inputs);
  let results = (outs Variadic<AnyType>:$outputs);
  let assemblyFormat = [{
    $probe (`(` $inputs^ `)` `:` type($inputs))? attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::mlir::LogicalResult $cppClass::verify() {
      return verifyProbeOp(getOperation());
    }
    ::mlir::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location>,
        ::mlir::ValueRange operands, ::mlir::DictionaryAttr,
        ::mlir::OpaqueProperties, ::mlir::RegionRange,
        ::llvm::SmallVectorImpl<::mlir::Type> &inferred) {
      // A probe forwards its operands: results have the operands' types.
      llvm::append_range(inferred, operands.getTypes());
      return ::mlir::success();
    }
  }];
}

def TpuProf_BeginOp : TpuProf_ProbeOp<"begin"> {
  let summary = "Starts the measurement of probe `probe`";
  let description = [{
    Forwards the wrapped op's operands. Runtime dimensions of dynamically
    shaped operands are recorded with the probe.

    ```mlir
    %a1, %b1 = tpuprof.begin 0 (%a, %b) : tensor<?x784xf32>, tensor<784x128xf32>
    ```
  }];
}

def TpuProf_EndOp : TpuProf_ProbeOp<"end"> {
  let summary = "Ends the measurement of probe `probe`";
  let description = [{
    Forwards the wrapped op's results.

    ```mlir
    %r1 = tpuprof.end 0 (%r) : tensor<?x128xf32>
    ```
  }];
}

#endif // TPUPROF_OPS_TD
