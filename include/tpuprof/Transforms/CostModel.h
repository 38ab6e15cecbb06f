//===- CostModel.h - Static FLOP and byte estimates -------------*- C++ -*-===//
//
// Static estimates stored in the probe table so that the report can show
// FLOPS and bandwidth. Both return 0 ("unknown") when the op's semantics or
// a dynamic shape leave the number open. docs/cost-model.md lists the rules.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_TRANSFORMS_COSTMODEL_H
#define TPUPROF_TRANSFORMS_COSTMODEL_H

#include "mlir/IR/Operation.h"

namespace tpuprof {

/// Floating-point (or integer arithmetic) operations the op performs.
uint64_t estimateFlops(mlir::Operation *op);

/// Bytes of all operands and results, i.e. the op's minimum traffic.
uint64_t estimateBytes(mlir::Operation *op);

} // namespace tpuprof

#endif // TPUPROF_TRANSFORMS_COSTMODEL_H
