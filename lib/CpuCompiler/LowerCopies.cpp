//===- LowerCopies.cpp - --tpu-profile-lower-copies -----------------------===//
//
// After bufferization a pad is a fill and a `memref.copy` into a strided
// subview of the result, a concatenation one such copy per input. The
// memref lowering turns a copy it cannot prove contiguous into a call of
// MLIR's generic `memrefCopy`, which walks the elements one by one with a
// division per index: ~15x slower than memcpy on a large pad. This pass
// turns each such copy into loops over the outer dimensions around a copy
// of the largest block contiguous in both buffers, which the memref
// lowering turns into `llvm.memcpy` (inlined by LLVM when the block is
// small).
//
//===----------------------------------------------------------------------===//

#include "tpuprof/CpuCompiler/Pipelines.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace tpuprof {
#define GEN_PASS_DEF_TPUPROFLOWERCOPIES
#include "tpuprof/CpuCompiler/Passes.h.inc"
} // namespace tpuprof

using namespace mlir;

namespace {

/// What the memref lowering copies with llvm.memcpy (its own test).
bool lowersToMemcpy(MemRefType type) {
  return type.getLayout().isIdentity() ||
         (type.hasStaticShape() && type.getNumElements() > 0 &&
          memref::isStaticShapeAndContiguousRowMajor(type));
}

/// The static strides of `type`, or none when a stride is dynamic.
std::optional<SmallVector<int64_t>> staticStrides(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(getStridesAndOffset(type, strides, offset)) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return std::nullopt;
  return strides;
}

/// The first dimension of the trailing block that is contiguous in row-major
/// order in a buffer of `shape` with `strides` (the rank when even the last
/// dimension is not). A subview of that block with the dimensions before it
/// of size 1 is what the memref lowering copies with llvm.memcpy.
unsigned contiguousFrom(ArrayRef<int64_t> shape, ArrayRef<int64_t> strides) {
  int64_t running = 1;
  unsigned first = shape.size();
  for (int d = int(shape.size()) - 1; d >= 0 && strides[d] == running; --d) {
    running *= shape[d];
    first = d;
  }
  return first;
}

/// Replaces `copy` by loops over the dimensions before `inner` around a copy
/// of the block from `inner` on (one element when `inner` is the rank).
void lowerCopy(memref::CopyOp copy, unsigned inner) {
  auto type = cast<MemRefType>(copy.getSource().getType());
  ArrayRef<int64_t> shape = type.getShape();
  unsigned rank = shape.size();
  OpBuilder b(copy);
  Location loc = copy.getLoc();
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  Value one = b.create<arith::ConstantIndexOp>(loc, 1);
  SmallVector<OpFoldResult> at(rank, b.getIndexAttr(0));
  for (unsigned d = 0; d < inner; ++d) {
    if (shape[d] == 1)
      continue;
    Value size = b.create<arith::ConstantIndexOp>(loc, shape[d]);
    auto loop = b.create<scf::ForOp>(loc, zero, size, one);
    at[d] = loop.getInductionVar();
    b.setInsertionPoint(loop.getBody()->getTerminator());
  }
  if (inner == rank) {
    SmallVector<Value> indices;
    for (OpFoldResult i : at)
      indices.push_back(getValueOrCreateConstantIndexOp(b, loc, i));
    Value element = b.create<memref::LoadOp>(loc, copy.getSource(), indices);
    b.create<memref::StoreOp>(loc, element, copy.getTarget(), indices);
  } else {
    SmallVector<OpFoldResult> sizes, steps(rank, b.getIndexAttr(1));
    for (unsigned d = 0; d < rank; ++d)
      sizes.push_back(b.getIndexAttr(d < inner ? 1 : shape[d]));
    Value from =
        b.create<memref::SubViewOp>(loc, copy.getSource(), at, sizes, steps);
    Value to =
        b.create<memref::SubViewOp>(loc, copy.getTarget(), at, sizes, steps);
    b.create<memref::CopyOp>(loc, from, to);
  }
  copy.erase();
}

class LowerCopiesPass
    : public tpuprof::impl::TpuProfLowerCopiesBase<LowerCopiesPass> {
public:
  void runOnOperation() override {
    SmallVector<std::pair<memref::CopyOp, unsigned>> strided;
    getOperation()->walk([&](memref::CopyOp copy) {
      auto from = dyn_cast<MemRefType>(copy.getSource().getType());
      auto to = dyn_cast<MemRefType>(copy.getTarget().getType());
      if (!from || !to || !from.hasStaticShape() ||
          from.getShape() != to.getShape() || from.getNumElements() == 0 ||
          (lowersToMemcpy(from) && lowersToMemcpy(to)))
        return;
      std::optional<SmallVector<int64_t>> fromStrides = staticStrides(from);
      std::optional<SmallVector<int64_t>> toStrides = staticStrides(to);
      if (!fromStrides || !toStrides)
        return;
      strided.push_back(
          {copy, std::max(contiguousFrom(from.getShape(), *fromStrides),
                          contiguousFrom(to.getShape(), *toStrides))});
    });
    for (auto [copy, inner] : strided)
      lowerCopy(copy, inner);
  }
};

} // namespace
