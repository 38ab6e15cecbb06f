//===- ProbeOps.td - tpuprof probe dialect -----------------*- tablegen -*-===//
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

include "tpuprof/Dialect/Probe/ProbeAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.td"

/// A probe's id: its index in the module's probe table. A property, not an
/// attribute: an instrumented module has one distinct id per probe pair, and
/// uniquing 100 k integer attributes in the context was a fifth of
/// --tpu-profile-instrument's time. The generic form still spells it
/// `<{probe = N : i64}>`; -1 stands for "absent" and fails the verifier.
def TpuProf_ProbeIdProp : IntProperty<"int64_t", "probe id"> {
  let defaultValue = "-1";
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
  let arguments = (ins TpuProf_ProbeIdProp:$probe, Variadic<AnyType>:$inputs);
  let results = (outs Variadic<AnyType>:$outputs);
  // MLIR 19's declarative format takes properties only in custom directives.
  let assemblyFormat = [{
    custom<ProbeId>($probe) (`(` $inputs^ `)` `:` type($inputs))? attr-dict
  }];
  let builders = [
    OpBuilder<(ins "::mlir::TypeRange":$resultTypes, "int64_t":$probe,
                   "::mlir::ValueRange":$inputs), [{
      $_state.getOrAddProperties<Properties>().probe = probe;
      $_state.addOperands(inputs);
      $_state.addTypes(resultTypes);
    }]>,
    OpBuilder<(ins "int64_t":$probe, "::mlir::ValueRange":$inputs), [{
      build($_builder, $_state, inputs.getTypes(), probe, inputs);
    }]>
  ];
  let hasVerifier = 1;
  // MLIR 19 generates no accessors for a property.
  let extraClassDeclaration = [{
    int64_t getProbe() { return getProperties().probe; }
  }];
  let extraClassDefinition = [{
    ::mlir::LogicalResult $cppClass::verify() {
      return verifyProbeOp(getOperation(), getProbe());
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

def TpuProf_ProbesOp : Op<TpuProf_Dialect, "probes",
                           [HasParent<"::mlir::ModuleOp">]> {
  let summary = "The module's probe table";
  let description = [{
    One per instrumented module, first in its body, so that a tool without
    the tpuprof dialect stops on it with a one-line error. Entry `i`
    describes probe `i`: the wrapped op's name, its stable hash (16 hex
    digits), the shape signature of its operands, its source location, the
    function around it, static FLOP and byte estimates (0 = unknown) and the
    number of dynamic dimensions its begin probe captures. It has no side
    effects of its own but implements no memory-effect interface, so MLIR
    treats its effects as unknown and canonicalization keeps it. `--tpu-profile-lower` embeds it and erases it.

    ```mlir
    tpuprof.probes [
      {bytes = 1024, dyn_dims = 0, flops = 1024, function = "main",
       hash = "1f0c...", location = "model.mlir:12:8", name = "linalg.matmul",
       shapes = "f32[8, 16], f32[16, 4], f32[8, 4]"}
    ]
    ```
  }];
  let arguments = (ins TpuProf_ProbeTableAttr:$table);
  let hasCustomAssemblyFormat = 1;
}

#endif // TPUPROF_OPS_TD
