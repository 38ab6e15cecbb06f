//===- OrderConstants.cpp - --tpu-profile-order-constants -----------------===//
//
// MLIR 19's one-shot module bufferization starts from the functions that
// call nothing in the iteration order of a DenseMap keyed by pointers, and
// makes the `__constant_*` globals of each function as it reaches it: their
// order and their `_N` suffixes change from run to run, and with them the
// weights' addresses in the object. This pass makes both follow the
// program: first use order, names given in that order.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/CpuCompiler/Pipelines.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"

namespace tpuprof {
#define GEN_PASS_DEF_TPUPROFORDERCONSTANTS
#include "tpuprof/CpuCompiler/Passes.h.inc"
} // namespace tpuprof

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kPrefix = "__constant_";

/// A global one-shot-bufferize made for a constant tensor.
bool isBufferizedConstant(memref::GlobalOp global) {
  return global.getConstant() && global.isPrivate() &&
         global.getSymName().starts_with(kPrefix);
}

/// The name bufferization gives the first global of `type`:
/// `__constant_<d0>x<d1>x...x<element type>`.
std::string baseName(MemRefType type) {
  std::string name = kPrefix.str();
  llvm::raw_string_ostream os(name);
  for (int64_t dim : type.getShape())
    os << dim << 'x';
  os << type.getElementType();
  return name;
}

class OrderConstantsPass
    : public tpuprof::impl::TpuProfOrderConstantsBase<OrderConstantsPass> {
public:
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<memref::GlobalOp> globals;
    llvm::StringMap<memref::GlobalOp> byName;
    llvm::StringSet<> otherSymbols;
    for (Operation &op : *module.getBody()) {
      auto global = dyn_cast<memref::GlobalOp>(op);
      if (global && isBufferizedConstant(global)) {
        globals.push_back(global);
        byName[global.getSymName()] = global;
      } else if (auto name = op.getAttrOfType<StringAttr>(
                     SymbolTable::getSymbolAttrName())) {
        otherSymbols.insert(name.getValue());
      }
    }
    if (globals.empty())
      return;

    // Program order of first use; globals no one reads keep their order
    // after those.
    llvm::MapVector<Operation *, SmallVector<memref::GetGlobalOp>> ordered;
    bool onlyGetGlobal = true;
    module.walk([&](Operation *op) {
      auto get = dyn_cast<memref::GetGlobalOp>(op);
      if (get) {
        if (auto it = byName.find(get.getName()); it != byName.end())
          ordered[it->second].push_back(get);
        return;
      }
      if (isa<memref::GlobalOp>(op))
        return;
      // Any other reference to one of them: keep the names, order only.
      for (NamedAttribute attr : op->getAttrs())
        attr.getValue().walk([&](SymbolRefAttr ref) {
          if (byName.count(ref.getRootReference().getValue()))
            onlyGetGlobal = false;
        });
    });
    for (memref::GlobalOp global : globals)
      ordered.insert({global, {}});

    Block *body = module.getBody();
    Operation *at = &body->front();
    llvm::StringMap<unsigned> givenPerBase;
    for (auto &[op, gets] : ordered) {
      auto global = cast<memref::GlobalOp>(op);
      if (op == at)
        at = op->getNextNode();
      else
        op->moveBefore(at);
      if (!onlyGetGlobal)
        continue;
      // The first of a shape gets the base name, the next ones _0, _1, ...
      std::string base = baseName(global.getType()), name;
      unsigned &given = givenPerBase[base];
      do {
        name = given == 0 ? base : base + "_" + std::to_string(given - 1);
        ++given;
      } while (otherSymbols.contains(name));
      auto attr = StringAttr::get(module.getContext(), name);
      global.setSymNameAttr(attr);
      for (memref::GetGlobalOp get : gets)
        get.setNameAttr(FlatSymbolRefAttr::get(attr));
    }
  }
};

} // namespace
