//===- Outline.cpp - Ops moved into a function of their own ---------------===//

#include "Outline.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;

func::FuncOp tpuprof::outlineOps(ArrayRef<Operation *> ops, StringRef name,
                                 Operation *after, SymbolTable &symbols,
                                 function_ref<bool(Operation *)> clonedHere) {
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
        if (Operation *def = v.getDefiningOp(); def && clonedHere(def))
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

  MLIRContext *ctx = after->getContext();
  Location loc = ops.front()->getLoc();
  OpBuilder b(ctx);
  b.setInsertionPointAfter(after);
  auto callee = b.create<func::FuncOp>(
      loc, name,
      FunctionType::get(ctx, ValueRange(inputs.getArrayRef()).getTypes(),
                        ValueRange(outputs).getTypes()));
  callee.setPrivate();
  callee->setAttr("no_inline", UnitAttr::get(ctx));
  symbols.insert(callee);
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
