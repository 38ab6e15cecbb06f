//===- PageAlignLoops.cpp - --tpu-profile-page-align-loops ----------------===//
//
// Long loop nests move into functions of their own that start on a page, so
// that a kernel's code sits at the same offsets in its page whatever code
// comes before it (docs/compile.md, "Code placement").
//
//===----------------------------------------------------------------------===//

#include "tpuprof/CpuCompiler/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

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
      for (scf::ForOp loop : nests)
        after = outline(loop, fn, after, symbols);
    }
  }

private:
  /// Moves `loop` into a new function placed after `after`, named after
  /// `fn`, and calls it in the loop's place.
  func::FuncOp outline(scf::ForOp loop, func::FuncOp fn, Operation *after,
                       SymbolTable &symbols) {
    // What the nest uses from outside: constants are cloned, the rest
    // become arguments.
    llvm::SetVector<Value> inputs;
    llvm::SetVector<Operation *> constants;
    loop->walk([&](Operation *op) {
      for (Value v : op->getOperands()) {
        Operation *def = v.getDefiningOp();
        Operation *origin = def ? def : v.getParentBlock()->getParentOp();
        if (loop->isAncestor(origin))
          continue; // Defined in the nest (an induction variable too).
        if (def && isNamedConstant(def))
          constants.insert(def);
        else
          inputs.insert(v);
      }
    });

    MLIRContext *ctx = &getContext();
    Location loc = loop.getLoc();
    OpBuilder b(ctx);
    b.setInsertionPointAfter(after);
    auto callee = b.create<func::FuncOp>(
        loc, (fn.getSymName() + "_loop").str(),
        FunctionType::get(ctx, ValueRange(inputs.getArrayRef()).getTypes(),
                          loop.getResultTypes()));
    callee.setPrivate();
    callee->setAttr("no_inline", UnitAttr::get(ctx));
    callee->setAttr("alignment", b.getI64IntegerAttr(kPageBytes));
    symbols.insert(callee); // Numbers the name: main_loop_0, main_loop_1, ...
    Block *entry = callee.addEntryBlock();

    IRMapping map;
    for (auto [value, arg] : llvm::zip(inputs, entry->getArguments()))
      map.map(value, arg);
    b.setInsertionPointToStart(entry);
    for (Operation *def : constants)
      b.clone(*def, map);
    Operation *copy = b.clone(*loop, map);
    b.create<func::ReturnOp>(loc, copy->getResults());

    b.setInsertionPoint(loop);
    auto call = b.create<func::CallOp>(loc, callee, inputs.getArrayRef());
    loop->replaceAllUsesWith(call.getResults());
    loop->erase();
    return callee;
  }
};

} // namespace
