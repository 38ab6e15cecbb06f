//===- PageAlignLoops.cpp - --tpu-profile-page-align-loops ----------------===//
//
// Long loop nests move into functions of their own that start on a page, so
// that a kernel's code sits at the same offsets in its page whatever code
// comes before it (docs/compile.md, "Code placement").
//
//===----------------------------------------------------------------------===//

#include "Outline.h"
#include "tpuprof/CpuCompiler/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tpuprof {
#define GEN_PASS_DEF_TPUPROFPAGEALIGNLOOPS
#include "tpuprof/CpuCompiler/Passes.h.inc"
} // namespace tpuprof

using namespace mlir;

namespace {

constexpr int64_t kPageBytes = 4096;

/// Ops the nest under `loop` runs, as far as static trip counts tell: each
/// op of a body counts once per iteration, a nested loop its own count (a
/// loop of dynamic trip count runs once).
uint64_t staticWork(scf::ForOp loop) {
  uint64_t trips = 1;
  if (std::optional<int64_t> n = constantTripCount(
          loop.getLowerBound(), loop.getUpperBound(), loop.getStep()))
    trips = static_cast<uint64_t>(std::max<int64_t>(*n, 1));
  uint64_t body = 0;
  for (Operation &op : *loop.getBody()) {
    if (auto nested = dyn_cast<scf::ForOp>(op))
      body += staticWork(nested);
    else
      op.walk([&](Operation *) { ++body; });
  }
  return trips * body;
}

/// Constants and the addresses of globals (weights): cloned into the
/// callee, so that it addresses them itself rather than taking them as
/// arguments.
bool isNamedConstant(Operation *op) {
  return op->getNumOperands() == 0 && op->getNumRegions() == 0 &&
         isMemoryEffectFree(op);
}

class PageAlignLoopsPass
    : public tpuprof::impl::TpuProfPageAlignLoopsBase<PageAlignLoopsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
    for (func::FuncOp fn : functions) {
      if (fn.isExternal())
        continue;
      SmallVector<scf::ForOp> nests;
      for (Block &block : fn.getBody())
        for (auto loop : block.getOps<scf::ForOp>())
          if (staticWork(loop) >= minWork)
            nests.push_back(loop);
      Operation *after = fn;
      for (scf::ForOp loop : nests) {
        // Numbered: main_loop_0, main_loop_1, ...
        Operation *nest = loop;
        func::FuncOp callee =
            tpuprof::outlineOps(nest, (fn.getSymName() + "_loop").str(), after,
                                symbols, isNamedConstant);
        callee->setAttr(
            "alignment",
            IntegerAttr::get(IntegerType::get(&getContext(), 64), kPageBytes));
        after = callee;
      }
    }
  }
};

} // namespace
