//===- OutlineOps.cpp - --tpu-profile-outline-ops -------------------------===//
//
// Large functions become calls of functions of a few graph ops each, so
// that the rest of the pipeline and LLVM see functions of bounded size and
// a bounded number of them: compile time then grows linearly with the
// model.
//
//===----------------------------------------------------------------------===//

#include "Outline.h"
#include "tpuprof/CpuCompiler/Pipelines.h"
#include "tpuprof/Dialect/Probe/ProbeDialect.h"
#include "tpuprof/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace tpuprof {
#define GEN_PASS_DEF_TPUPROFOUTLINEOPS
#include "tpuprof/CpuCompiler/Passes.h.inc"
} // namespace tpuprof

using namespace mlir;

namespace {

/// The ops counted: TOSA ops but constants and terminators, linalg ops.
bool isGraphOp(Operation *op) {
  if (op->getName().getDialectNamespace() == "tosa")
    return !op->hasTrait<OpTrait::ConstantLike>() &&
           !op->hasTrait<OpTrait::IsTerminator>();
  return isa<linalg::LinalgOp>(op);
}

/// Ops left in the caller and cloned where they are used: they do no work,
/// and lowerings need to see them (transpose permutations, pads, inits).
bool staysAndIsCloned(Operation *op) {
  if (op->hasTrait<OpTrait::ConstantLike>())
    return true;
  auto empty = dyn_cast<tensor::EmptyOp>(op);
  return empty && empty.getType().hasStaticShape();
}

class OutlineOpsPass
    : public tpuprof::impl::TpuProfOutlineOpsBase<OutlineOpsPass> {
public:
  using Base::Base;
  void runOnOperation() override;
};

void OutlineOpsPass::runOnOperation() {
  ModuleOp module = getOperation();
  SymbolTable symbols(module);
  SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
  for (func::FuncOp fn : functions) {
    if (fn.isExternal() || !fn.getBody().hasOneBlock())
      continue;
    Block &body = fn.getBody().front();
    if (static_cast<unsigned>(llvm::count_if(
            body, [](Operation &op) { return isGraphOp(&op); })) <= minOps)
      continue;
    // Runs of consecutive ops with opsPerFunction graph ops, collected
    // first: outlining changes the block.
    SmallVector<SmallVector<Operation *>> runs(1);
    unsigned graphOps = 0;
    for (Operation &op : body.without_terminator()) {
      if (staysAndIsCloned(&op))
        continue;
      if (isGraphOp(&op) && graphOps++ == opsPerFunction) {
        // The op's begin probe, just before it, goes with it.
        SmallVector<Operation *> next;
        while (!runs.back().empty() &&
               isa<tpuprof::BeginOp>(runs.back().back()))
          next.insert(next.begin(), runs.back().pop_back_val());
        runs.push_back(std::move(next));
        graphOps = 1;
      }
      runs.back().push_back(&op);
    }
    Operation *after = fn;
    for (ArrayRef<Operation *> run : runs) {
      if (run.empty())
        continue;
      // Numbered: main_part_0, main_part_1, ...
      func::FuncOp part =
          tpuprof::outlineOps(run, (fn.getSymName() + "_part").str(), after,
                              symbols, staysAndIsCloned);
      // Kernel-level probes, placed after this pass, charge the callee's
      // ops to `fn` and put no probe on the call.
      part->setAttr(tpuprof::kOutlinedAttrName, fn.getSymNameAttr());
      after = part;
    }
  }
}

} // namespace
