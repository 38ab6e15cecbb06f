//===- OpHash.h - Stable op hash and shape signature ------------*- C++ -*-===//
//
// The op hash and argument-shape signature of design.md, defined exactly in
// docs/hash.md. Both depend only on the op's name, attributes and types —
// never on pointers or locations — so they are stable across processes,
// machines and recompilations.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_PASSES_MLIR_OPHASH_H
#define TPUPROF_PASSES_MLIR_OPHASH_H

#include "mlir/IR/Operation.h"

#include <string>

namespace tpuprof {

/// Version tag mixed into every hash; bump it when the definition changes.
inline constexpr llvm::StringLiteral kOpHashVersion = "tpuprof-op-hash-v1";

/// The canonical text the hash is computed from (exposed for tests/docs).
std::string canonicalOpText(mlir::Operation *op);

/// xxh3-64 of canonicalOpText(op).
uint64_t computeOpHash(mlir::Operation *op);

/// "f32[1, 784], f32[784, 128]": one entry per operand, '?' per dynamic dim.
std::string shapeSignature(mlir::TypeRange types);

/// Formats one type the way shapeSignature does.
std::string formatShape(mlir::Type type);

/// Number of dynamic dimensions over all ranked shaped types in `types`.
unsigned countDynamicDims(mlir::TypeRange types);

} // namespace tpuprof

#endif // TPUPROF_PASSES_MLIR_OPHASH_H
