//===- Dialect.h - tpuprof probe dialect ------------------------*- C++ -*-===//
//
// The `tpuprof` dialect: probe ops placed by --tpu-profile-instrument.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_PASSES_MLIR_DIALECT_H
#define TPUPROF_PASSES_MLIR_DIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tpuprof/passes/mlir/TpuProfDialect.h.inc"

namespace tpuprof {
/// Shared verifier of tpuprof.begin and tpuprof.end: results mirror operands.
mlir::LogicalResult verifyProbeOp(mlir::Operation *op);
} // namespace tpuprof

#define GET_OP_CLASSES
#include "tpuprof/passes/mlir/TpuProfOps.h.inc"

#endif // TPUPROF_PASSES_MLIR_DIALECT_H
