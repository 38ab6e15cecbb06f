//===- OpHash.h - Stable op hash and shape signature ------------*- C++ -*-===//
//
// The op hash and argument-shape signature that name an op in the probe
// table, defined exactly in docs/hash.md. Both depend only on the op's name,
// attributes and types — never on pointers or locations — so they are stable
// across processes, machines and recompilations.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_TRANSFORMS_OPHASH_H
#define TPUPROF_TRANSFORMS_OPHASH_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallString.h"

#include <memory>
#include <string>

namespace mlir {
class AsmState;
} // namespace mlir

namespace tpuprof {

/// Version tag mixed into every hash; bump it when the definition changes.
inline constexpr llvm::StringLiteral kOpHashVersion = "tpuprof-op-hash-v1";

/// The canonical text the hash is computed from (exposed for tests/docs).
std::string canonicalOpText(mlir::Operation *op);

/// xxh3-64 of canonicalOpText(op).
uint64_t computeOpHash(mlir::Operation *op);

/// Version tag of the hash of a probe around several ops (a node region, a
/// kernel of several ops); docs/hash.md, "Regions".
inline constexpr llvm::StringLiteral kRegionHashVersion =
    "tpuprof-region-hash-v1";

/// The canonical text of a region's hash: the version line, `region:` and
/// `kind`, then `op:` and each member op's hash in 16 hex digits.
std::string canonicalRegionText(llvm::StringRef kind,
                                llvm::ArrayRef<uint64_t> opHashes);

/// xxh3-64 of canonicalRegionText(kind, opHashes).
uint64_t computeRegionHash(llvm::StringRef kind,
                           llvm::ArrayRef<uint64_t> opHashes);

/// "f32[1, 784], f32[784, 128]": one entry per operand, '?' per dynamic dim.
std::string shapeSignature(mlir::TypeRange types);

/// Formats one type the way shapeSignature does.
std::string formatShape(mlir::Type type);

/// The same functions for many ops of one context: the printer state that
/// each call above builds (an mlir::AsmState, which visits every loaded
/// dialect's interfaces, and one more per type printed) is built once here.
/// That state was most of --tpu-profile-instrument's time. Same results as
/// the free functions. The printed text of each attribute and type is kept
/// (they are uniqued, and print the same every time with a state that has
/// no op), so each distinct one goes through the printer once.
class OpHasher {
public:
  explicit OpHasher(mlir::MLIRContext *context);
  ~OpHasher();
  std::string canonicalOpText(mlir::Operation *op);
  uint64_t computeOpHash(mlir::Operation *op);
  std::string shapeSignature(mlir::TypeRange types);

private:
  /// Fixed printing flags (docs/hash.md), for the hash.
  std::unique_ptr<mlir::AsmState> hashState;
  /// Default flags, as `os << type` prints, for shape signatures.
  std::unique_ptr<mlir::AsmState> shapeState;
  /// Hash-state text of attributes and types, shape text of types.
  llvm::DenseMap<mlir::Attribute, std::string> attrText;
  llvm::DenseMap<mlir::Type, std::string> typeText, shapeText;
  /// The canonical text being built, reused from op to op.
  llvm::SmallString<1024> text;

  void buildText(mlir::Operation *op);
  void appendAttr(mlir::Attribute attr);
  void appendType(mlir::Type type);
  void appendShapeOf(mlir::Type type, llvm::SmallVectorImpl<char> &out);
  void appendOp(mlir::Operation *op, unsigned depth);
};

/// Number of dynamic dimensions over all ranked shaped types in `types`.
unsigned countDynamicDims(mlir::TypeRange types);

} // namespace tpuprof

#endif // TPUPROF_TRANSFORMS_OPHASH_H
