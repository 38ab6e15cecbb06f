//===- ProbeDialect.h - tpuprof probe dialect -------------------*- C++ -*-===//
//
// The `tpuprof` dialect: probe ops placed by --tpu-profile-instrument and
// the probe table attribute they refer to.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_DIALECT_PROBE_PROBEDIALECT_H
#define TPUPROF_DIALECT_PROBE_PROBEDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tpuprof/Dialect/Probe/ProbeDialect.h.inc"

namespace tpuprof {

/// One probe's descriptor in a module's probe table (#tpuprof.probes).
/// Strings are uniqued attributes: op names, functions, files and shape
/// signatures repeat across probes, so an entry is a few words.
struct ProbeEntry {
  mlir::StringAttr name;     ///< Op name.
  uint64_t hash = 0;         ///< Stable op hash (docs/hash.md).
  mlir::StringAttr shapes;   ///< Shape signature of the operands.
  mlir::StringAttr location; ///< A file (with line/column) or a name, or "".
  uint32_t line = 0, column = 0;
  bool hasPosition = false;  ///< `location` is a file and line:column follow.
  mlir::StringAttr function; ///< Symbol name of the enclosing function.
  uint64_t flops = 0, bytes = 0; ///< Static estimates, 0 = unknown.
  uint8_t dynDims = 0; ///< Dynamic dimensions the begin probe captures.
  /// Where the op's outputs are (format.h): its trailing `numOuts`
  /// operands (destination-style inits), or its results, `outShapes`
  /// (null when it has none or numOuts says).
  uint8_t numOuts = 0;
  mlir::StringAttr outShapes;
  /// The name part of the op's location (an ONNX node, a layer); a
  /// kernel's source nodes joined by TPUPROF_LOCATION_SEPARATOR. Null or
  /// "" when it has none.
  mlir::StringAttr node;

  /// The location as the table prints it: "file:line:col", a name, or "".
  std::string formatLocation() const;
  bool operator==(const ProbeEntry &other) const;
};
llvm::hash_code hash_value(const ProbeEntry &entry);

/// Reads the dictionary form of a probe table (what #tpuprof.probes prints
/// between its brackets, and the plain array attribute older tpuprof
/// versions wrote). Returns failure after one diagnostic naming the first
/// malformed entry of `tableName`.
mlir::FailureOr<llvm::SmallVector<ProbeEntry>>
readProbeEntries(mlir::ArrayAttr table, llvm::StringRef tableName,
                 llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

/// Shared verifier of tpuprof.begin and tpuprof.end: the id is set and not
/// negative, and results mirror operands.
mlir::LogicalResult verifyProbeOp(mlir::Operation *op, int64_t probe);

/// The probe id in the custom form: a non-negative integer.
mlir::ParseResult parseProbeId(mlir::OpAsmParser &parser, int64_t &probe);
void printProbeId(mlir::OpAsmPrinter &printer, mlir::Operation *op,
                  int64_t probe);
} // namespace tpuprof

#define GET_ATTRDEF_CLASSES
#include "tpuprof/Dialect/Probe/ProbeAttrs.h.inc"

#define GET_OP_CLASSES
#include "tpuprof/Dialect/Probe/ProbeOps.h.inc"

namespace tpuprof {
/// Registers the tpuprof dialect with `registry`.
void registerTpuProfDialect(mlir::DialectRegistry &registry);
} // namespace tpuprof

#endif // TPUPROF_DIALECT_PROBE_PROBEDIALECT_H
