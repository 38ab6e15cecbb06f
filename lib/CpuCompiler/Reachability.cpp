//===- Reachability.cpp - Keep only what a model's entry reaches ----------===//
//
// A model file often holds more than one function (test files hold dozens),
// and the JIT compiles the whole module: one function that some pass cannot
// lower would stop every entry in the file. The entry, what its symbol uses
// reach and every op that is not a symbol (global constructors, tables) stay;
// transform-dialect schedules go.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/CpuCompiler/Pipelines.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;

/// A transform-dialect schedule (a `transform.sequence`, or a module of
/// named sequences) is a script for the transform interpreter, not code of
/// the model: upstream tests carry one next to their payload.
static bool isTransformSchedule(Operation *op) {
  if (op->getName().getDialectNamespace() == "transform")
    return true;
  auto nested = dyn_cast<ModuleOp>(op);
  return nested && nested->hasAttr("transform.with_named_sequence");
}

void tpuprof::eraseUnreachableSymbols(ModuleOp module,
                                      ArrayRef<StringRef> entries) {
  SymbolTable table(module);
  llvm::SmallPtrSet<Operation *, 16> reached;
  SmallVector<Operation *> work;
  auto reach = [&](Operation *op) {
    if (op && reached.insert(op).second)
      work.push_back(op);
  };
  for (StringRef entry : entries)
    reach(table.lookup(entry));
  for (Operation &op : *module.getBody())
    if (!isa<SymbolOpInterface>(op) && !isTransformSchedule(&op))
      reach(&op);
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    // Every symbol reference inside, properties included (func.call's
    // callee is one); nested symbol tables stay whole with their parent.
    op->walk([&](Operation *nested) {
      nested->getAttrDictionary().walk([&](SymbolRefAttr ref) {
        reach(table.lookup(ref.getRootReference()));
      });
    });
  }
  for (Operation &op :
       llvm::make_early_inc_range(module.getBody()->getOperations()))
    if (!reached.contains(&op))
      op.erase();
}
