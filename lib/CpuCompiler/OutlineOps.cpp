//===- OutlineOps.cpp - --tpu-profile-outline-ops -------------------------===//
//
// Large functions become calls of functions of a few graph ops each, so
// that the rest of the pipeline and LLVM see functions of bounded size and
// a bounded number of them: compile time then grows linearly with the
// model.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/CpuCompiler/Pipelines.h"
#include "tpuprof/Dialect/Probe/ProbeDialect.h"
#include "tpuprof/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"

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

private:
  /// Moves `ops` (in order, from one block) into a new function placed
  /// after `after`, named after `fn`, and calls it where the last one was.
  func::FuncOp outline(ArrayRef<Operation *> ops, func::FuncOp fn,
                       Operation *after);

  SymbolTable *symbols = nullptr;
};

func::FuncOp OutlineOpsPass::outline(ArrayRef<Operation *> ops, func::FuncOp fn,
                                     Operation *after) {
  Block *block = ops.front()->getBlock();
  llvm::SmallPtrSet<Operation *, 32> members(ops.begin(), ops.end());
  auto inside = [&](Operation *op) {
    Operation *ancestor = block->findAncestorOpInBlock(*op);
    return ancestor && members.contains(ancestor);
  };

  // What the ops use from elsewhere, and what they define for later ops.
  llvm::SetVector<Value> inputs;
  llvm::SetVector<Operation *> cloned;
  for (Operation *op : ops)
    op->walk([&](Operation *nested) {
      for (Value v : nested->getOperands()) {
        Operation *origin = v.getDefiningOp()
                                ? v.getDefiningOp()
                                : v.getParentRegion()->getParentOp();
        if (inside(origin))
          continue;
        if (Operation *def = v.getDefiningOp(); def && staysAndIsCloned(def))
          cloned.insert(def);
        else
          inputs.insert(v);
      }
    });
  SmallVector<Value> outputs;
  for (Operation *op : ops)
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(),
                       [&](Operation *user) { return !inside(user); }))
        outputs.push_back(result);

  MLIRContext *ctx = &getContext();
  Location loc = ops.front()->getLoc();
  OpBuilder b(ctx);
  b.setInsertionPointAfter(after);
  auto callee = b.create<func::FuncOp>(
      loc, (fn.getSymName() + "_part").str(),
      FunctionType::get(ctx, ValueRange(inputs.getArrayRef()).getTypes(),
                        ValueRange(outputs).getTypes()));
  callee.setPrivate();
  callee->setAttr("no_inline", UnitAttr::get(ctx));
  // Kernel-level probes, placed after this pass, charge the callee's ops to
  // `fn` and put no probe on the call.
  callee->setAttr(tpuprof::kOutlinedAttrName, fn.getSymNameAttr());
  symbols->insert(callee); // Numbers the name: main_part_0, main_part_1, ...
  Block *entry = callee.addEntryBlock();

  b.setInsertionPointAfter(ops.back());
  auto call = b.create<func::CallOp>(loc, callee, inputs.getArrayRef());
  auto inCallee = [&](OpOperand &use) {
    return callee->isProperAncestor(use.getOwner());
  };
  for (auto [value, result] : llvm::zip(outputs, call.getResults()))
    value.replaceUsesWithIf(
        result, [&](OpOperand &use) { return !inside(use.getOwner()); });
  for (Operation *op : ops)
    op->moveBefore(entry, entry->end());
  for (auto [i, value] : llvm::enumerate(inputs))
    Value(value).replaceUsesWithIf(entry->getArgument(i), inCallee);
  b.setInsertionPointToStart(entry);
  for (Operation *def : cloned) {
    Operation *copy = b.clone(*def);
    for (auto [from, to] : llvm::zip(def->getResults(), copy->getResults()))
      from.replaceUsesWithIf(to, inCallee);
  }
  b.setInsertionPointToEnd(entry);
  b.create<func::ReturnOp>(loc, outputs);
  return callee;
}

void OutlineOpsPass::runOnOperation() {
  ModuleOp module = getOperation();
  SymbolTable table(module);
  symbols = &table;
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
    for (ArrayRef<Operation *> run : runs)
      if (!run.empty())
        after = outline(run, fn, after);
  }
}

} // namespace
