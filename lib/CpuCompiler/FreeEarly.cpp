//===- FreeEarly.cpp - --tpu-profile-free-early ---------------------------===//
//
// Upstream's ownership-based deallocation frees a buffer at the end of the
// block that owns it: every intermediate of a function stays live until the
// function returns, and a model's peak is the sum of its intermediates. This
// moves each unconditional `memref.dealloc` of a buffer allocated in the
// same block to right after the buffer's last use there (its own uses and
// those of every memref derived from it), which is where a program written
// by hand frees it, and where the memory report should see it go.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/CpuCompiler/Pipelines.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace tpuprof {
#define GEN_PASS_DEF_TPUPROFFREEEARLY
#include "tpuprof/CpuCompiler/Passes.h.inc"
} // namespace tpuprof

using namespace mlir;

namespace {

/// The op of `block` after which `dealloc`'s buffer is no longer used, or
/// null when a use lies outside the block (then the dealloc stays).
Operation *lastUse(memref::DeallocOp dealloc, Operation *alloc) {
  Block *block = dealloc->getBlock();
  Operation *last = alloc;
  SmallVector<Value> work{alloc->getResult(0)};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (user == dealloc.getOperation())
        continue;
      Operation *at = block->findAncestorOpInBlock(*user);
      if (!at || at->hasTrait<OpTrait::IsTerminator>())
        return nullptr;
      // Any memref an op makes from the buffer may alias it (views, casts,
      // ops this pass does not know): its uses count too.
      for (Value r : user->getResults())
        if (isa<BaseMemRefType>(r.getType()))
          work.push_back(r);
      if (last->isBeforeInBlock(at))
        last = at;
    }
  }
  return last;
}

class FreeEarlyPass
    : public tpuprof::impl::TpuProfFreeEarlyBase<FreeEarlyPass> {
public:
  void runOnOperation() override {
    SmallVector<memref::DeallocOp> deallocs;
    getOperation().walk([&](memref::DeallocOp d) { deallocs.push_back(d); });
    for (memref::DeallocOp d : deallocs) {
      Operation *alloc = d.getMemref().getDefiningOp();
      if (!isa_and_nonnull<memref::AllocOp>(alloc) ||
          alloc->getBlock() != d->getBlock())
        continue;
      if (Operation *last = lastUse(d, alloc); last && last->isBeforeInBlock(d))
        d->moveAfter(last);
    }
  }
};

} // namespace
