//===- Constants.h - Constants the CPU pipeline rearranges -----*- C++ -*-===//
//
// Helpers of the CPU pipeline's passes (not installed): constant operands
// seen through probes, their values, and constant rearrangements folded at
// compile time.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_LIB_CPUCOMPILER_CONSTANTS_H
#define TPUPROF_LIB_CPUCOMPILER_CONSTANTS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>
#include <vector>

namespace tpuprof::cpu {

/// The constant `v` holds, looking through the probes that forward it.
mlir::ElementsAttr constantOf(mlir::Value v);

/// The f32 values of `attr` (dense or a dense resource), if it has them.
std::optional<std::vector<float>> floatValues(mlir::ElementsAttr attr);

/// A linalg op that only copies a constant in another order (the transpose
/// TOSA's 1x1 convolutions and fully connected layers put on their weights)
/// becomes the constant in that order (a new f32 dense resource),
/// rearranged now instead of on every call. Whether it did.
bool foldConstantPermutation(mlir::linalg::LinalgOp op,
                             mlir::RewriterBase &rewriter);

} // namespace tpuprof::cpu

#endif // TPUPROF_LIB_CPUCOMPILER_CONSTANTS_H
