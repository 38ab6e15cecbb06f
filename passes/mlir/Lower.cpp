//===- Lower.cpp - --tpu-profile-lower ------------------------------------===//
//
// Turns probes into runtime calls behind an inline enabled check, embeds the
// probe table and registers it from a module constructor:
//
//   %on = llvm.load @__tpuprof_enabled        // the only cost when disabled
//   scf.if (%on != 0) {
//     %id = llvm.load @__tpuprof_module_base + <local probe index>
//     llvm.call @__tpuprof_begin(%id)         // or _begin_dims(%id, dims, n)
//   }
//
//===----------------------------------------------------------------------===//

#include "tpuprof/passes/mlir/Passes.h"
#include "tpuprof/ProbeTable.h"
#include "tpuprof/format.h"

#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

namespace tpuprof {
#define GEN_PASS_DEF_TPUPROFILELOWER
#include "tpuprof/passes/mlir/Passes.h.inc"
} // namespace tpuprof

using namespace mlir;
using namespace tpuprof;

namespace {

constexpr StringLiteral kEnabledSym = TPUPROF_SYMBOL_ENABLED;
constexpr StringLiteral kBaseSym = "__tpuprof_module_base";
constexpr StringLiteral kTableSym = "__tpuprof_probe_table";
constexpr StringLiteral kCtorSym = "__tpuprof_module_ctor";
constexpr StringLiteral kRegisterFn = TPUPROF_SYMBOL_REGISTER_MODULE;
constexpr StringLiteral kBeginFn = TPUPROF_SYMBOL_BEGIN;
constexpr StringLiteral kBeginDimsFn = TPUPROF_SYMBOL_BEGIN_DIMS;
constexpr StringLiteral kEndFn = TPUPROF_SYMBOL_END;

/// Name of the module as shown in reports: its symbol name, else its file.
std::string moduleName(ModuleOp module) {
  if (std::optional<StringRef> name = module.getName())
    return name->str();
  std::string file;
  module.getLoc()->walk([&](Location l) {
    if (auto f = dyn_cast<FileLineColLoc>(l)) {
      file = llvm::sys::path::filename(f.getFilename().strref()).str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return file.empty() ? "module" : file;
}

class TpuProfileLowerPass
    : public tpuprof::impl::TpuProfileLowerBase<TpuProfileLowerPass> {
public:
  void runOnOperation() override;

private:
  /// Reads the module's `tpuprof.probes` op (or the module attribute of the
  /// same name that older versions wrote); false (with a diagnostic) when
  /// there is none or more than one.
  bool readTable(ModuleOp module, std::vector<ProbeInfo> &probes);
  /// Declares runtime symbols, embeds the table, adds the constructor.
  void emitModuleGlobals(ModuleOp module, ArrayRef<ProbeInfo> probes);
  /// Replaces one probe op with its guarded runtime call.
  void lowerProbe(Operation *op, int64_t probe, bool captureDims);

  /// What every probe of one function (an isolated-from-above op) uses,
  /// created once at its entry: the two symbols' addresses and the zero the
  /// flag is compared with. Per probe that leaves the flag's load, the
  /// compare and the scf.if: 3 ops fewer of ~11, and the same code once
  /// LLVM has folded the constants.
  struct FunctionValues {
    Value enabledAddr, baseAddr, zero;
  };
  FunctionValues &valuesFor(Operation *probe);
  llvm::DenseMap<Operation *, FunctionValues> functionValues;
};

TpuProfileLowerPass::FunctionValues &
TpuProfileLowerPass::valuesFor(Operation *probe) {
  Operation *scope = probe->getParentWithTrait<OpTrait::IsIsolatedFromAbove>();
  auto [it, isNew] = functionValues.try_emplace(scope);
  if (isNew) {
    // The entry block dominates every block of the region, and nothing
    // outside an isolated-from-above op may be used inside it.
    auto ptrTy = LLVM::LLVMPointerType::get(&getContext());
    Location loc = scope->getLoc();
    auto b = OpBuilder::atBlockBegin(&scope->getRegion(0).front());
    it->second.enabledAddr =
        b.create<LLVM::AddressOfOp>(loc, ptrTy, kEnabledSym);
    it->second.baseAddr = b.create<LLVM::AddressOfOp>(loc, ptrTy, kBaseSym);
    it->second.zero = b.create<arith::ConstantIntOp>(loc, 0, 32);
  }
  return it->second;
}

bool TpuProfileLowerPass::readTable(ModuleOp module,
                                    std::vector<ProbeInfo> &probes) {
  Attribute attr = module->getAttr(kProbesAttrName);
  auto tables = module.getOps<ProbesOp>();
  SmallVector<ProbeEntry> parsed;
  ArrayRef<ProbeEntry> entries;
  if (!tables.empty()) {
    if (std::next(tables.begin()) != tables.end() || attr) {
      module.emitError("tpu-profile-lower: module has more than one probe "
                       "table ('tpuprof.probes')");
      return false;
    }
    entries = (*tables.begin()).getTable().getEntries();
  } else if (auto array = dyn_cast_or_null<ArrayAttr>(attr)) {
    // The plain array of dictionaries that tpuprof wrote before the table
    // became one attribute: still accepted, so old instrumented IR lowers.
    FailureOr<SmallVector<ProbeEntry>> read =
        readProbeEntries(array, kProbesAttrName, [&] {
          return module.emitError("tpu-profile-lower: ");
        });
    if (failed(read))
      return false;
    parsed = std::move(*read);
    entries = parsed;
  } else {
    module.emitError("tpu-profile-lower: module has tpuprof probes but no '")
        << kProbesAttrName << "' table";
    return false;
  }
  probes.reserve(entries.size());
  for (const ProbeEntry &e : entries) {
    ProbeInfo p;
    p.name = e.name.str();
    p.hash = e.hash;
    p.shapes = e.shapes.str();
    p.location = e.formatLocation();
    p.function = e.function.str();
    p.flops = e.flops;
    p.bytes = e.bytes;
    p.numDynDims = e.dynDims;
    p.kind = TPUPROF_KIND_OP;
    probes.push_back(std::move(p));
  }
  return true;
}

void TpuProfileLowerPass::emitModuleGlobals(ModuleOp module,
                                            ArrayRef<ProbeInfo> probes) {
  MLIRContext *ctx = &getContext();
  Location loc = module.getLoc();
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto ptrTy = LLVM::LLVMPointerType::get(ctx);
  auto i32 = b.getI32Type(), i64 = b.getI64Type();
  auto voidTy = LLVM::LLVMVoidType::get(ctx);

  if (!module.lookupSymbol(kEnabledSym))
    b.create<LLVM::GlobalOp>(loc, i32, /*isConstant=*/false,
                             LLVM::Linkage::External, kEnabledSym,
                             /*value=*/Attribute());
  b.create<LLVM::GlobalOp>(loc, i32, /*isConstant=*/false,
                           LLVM::Linkage::Internal, kBaseSym,
                           b.getI32IntegerAttr(0));
  std::string blob = serializeProbeTable(moduleName(module), probes);
  auto blobTy = LLVM::LLVMArrayType::get(b.getI8Type(), blob.size());
  b.create<LLVM::GlobalOp>(loc, blobTy, /*isConstant=*/true,
                           LLVM::Linkage::Internal, kTableSym,
                           b.getStringAttr(blob), /*alignment=*/8);

  auto declare = [&](StringRef name, Type result, ArrayRef<Type> args) {
    if (!module.lookupSymbol(name))
      b.create<LLVM::LLVMFuncOp>(loc, name,
                                 LLVM::LLVMFunctionType::get(result, args));
  };
  declare(kRegisterFn, voidTy, {ptrTy, i64, ptrTy});
  declare(kBeginFn, voidTy, {i32});
  declare(kBeginDimsFn, voidTy, {i32, ptrTy, i32});
  declare(kEndFn, voidTy, {i32});

  auto ctor = b.create<LLVM::LLVMFuncOp>(
      loc, kCtorSym, LLVM::LLVMFunctionType::get(voidTy, {}),
      LLVM::Linkage::Internal);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ctor.addEntryBlock(b));
    Value table = b.create<LLVM::AddressOfOp>(loc, ptrTy, kTableSym);
    Value size = b.create<LLVM::ConstantOp>(loc, i64, blob.size());
    Value base = b.create<LLVM::AddressOfOp>(loc, ptrTy, kBaseSym);
    b.create<LLVM::CallOp>(loc, TypeRange(), kRegisterFn,
                           ValueRange{table, size, base});
    b.create<LLVM::ReturnOp>(loc, ValueRange());
  }

  // Append to an existing llvm.mlir.global_ctors rather than adding a second.
  SmallVector<Attribute> ctors{FlatSymbolRefAttr::get(ctx, kCtorSym)};
  SmallVector<Attribute> priorities{b.getI32IntegerAttr(65535)};
  for (auto existing :
       llvm::make_early_inc_range(module.getOps<LLVM::GlobalCtorsOp>())) {
    ctors.append(existing.getCtors().begin(), existing.getCtors().end());
    priorities.append(existing.getPriorities().begin(),
                      existing.getPriorities().end());
    existing.erase();
  }
  b.setInsertionPointToEnd(module.getBody());
  b.create<LLVM::GlobalCtorsOp>(loc, b.getArrayAttr(ctors),
                                b.getArrayAttr(priorities));
}

void TpuProfileLowerPass::lowerProbe(Operation *op, int64_t probe,
                                     bool captureDims) {
  MLIRContext *ctx = &getContext();
  Location loc = op->getLoc();
  auto ptrTy = LLVM::LLVMPointerType::get(ctx);
  OpBuilder b(op);
  auto i32 = b.getI32Type(), i64 = b.getI64Type();
  // First, so that the stack slots below go before these in the entry block.
  FunctionValues &fn = valuesFor(op);

  // Dynamic dims are written to a stack slot allocated once, at function
  // entry, so that a probe inside a loop does not grow the stack.
  SmallVector<std::pair<Value, unsigned>> dynDims; // (value, dim index)
  if (captureDims && isa<BeginOp>(op))
    for (Value v : op->getOperands())
      if (auto shaped = dyn_cast<ShapedType>(v.getType());
          shaped && shaped.hasRank())
        for (unsigned d = 0; d < shaped.getRank(); ++d)
          if (shaped.isDynamicDim(d))
            dynDims.push_back({v, d});
  Value dimsSlot;
  if (!dynDims.empty()) {
    auto fn = op->getParentOfType<FunctionOpInterface>();
    OpBuilder entry = OpBuilder::atBlockBegin(&fn.getFunctionBody().front());
    Value count = entry.create<LLVM::ConstantOp>(loc, i64, dynDims.size());
    dimsSlot = entry.create<LLVM::AllocaOp>(loc, ptrTy, i64, count,
                                            /*alignment=*/8);
  }

  // Monotonic: a plain load on x86 and ARM, and race-free for TSan while
  // another thread switches profiling on or off.
  Value enabled = b.create<LLVM::LoadOp>(
      loc, i32, fn.enabledAddr, /*alignment=*/4, /*isVolatile=*/false,
      /*isNonTemporal=*/false, /*isInvariant=*/false,
      LLVM::AtomicOrdering::monotonic);
  Value on =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, enabled, fn.zero);
  b.create<scf::IfOp>(loc, on, [&](OpBuilder &then, Location l) {
    // Under the check: with profiling off, the flag's load is the only cost.
    Value base = then.create<LLVM::LoadOp>(l, i32, fn.baseAddr);
    Value local = then.create<arith::ConstantIntOp>(l, probe, 32);
    Value id = then.create<arith::AddIOp>(l, base, local);
    if (isa<EndOp>(op)) {
      then.create<LLVM::CallOp>(l, TypeRange(), kEndFn, ValueRange{id});
    } else if (dynDims.empty()) {
      then.create<LLVM::CallOp>(l, TypeRange(), kBeginFn, ValueRange{id});
    } else {
      for (auto [i, vd] : llvm::enumerate(dynDims)) {
        auto [value, d] = vd;
        Value dim = isa<MemRefType, UnrankedMemRefType>(value.getType())
                        ? then.create<memref::DimOp>(l, value, d).getResult()
                        : then.create<tensor::DimOp>(l, value, d).getResult();
        Value dim64 = then.create<arith::IndexCastOp>(l, i64, dim);
        Value slot = then.create<LLVM::GEPOp>(
            l, ptrTy, i64, dimsSlot,
            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
        then.create<LLVM::StoreOp>(l, dim64, slot);
      }
      Value n = then.create<arith::ConstantIntOp>(l, dynDims.size(), 32);
      then.create<LLVM::CallOp>(l, TypeRange(), kBeginDimsFn,
                                ValueRange{id, dimsSlot, n});
    }
    then.create<scf::YieldOp>(l);
  });
  op->replaceAllUsesWith(op->getOperands());
  op->erase();
}

/// The id of a tpuprof.begin or tpuprof.end.
int64_t probeId(Operation *op) {
  if (auto begin = dyn_cast<BeginOp>(op))
    return begin.getProbe();
  return cast<EndOp>(op).getProbe();
}

void TpuProfileLowerPass::runOnOperation() {
  ModuleOp module = getOperation();
  SmallVector<Operation *> probeOps;
  module.walk([&](Operation *op) {
    if (isa<BeginOp, EndOp>(op))
      probeOps.push_back(op);
  });
  if (probeOps.empty() && module.getOps<ProbesOp>().empty() &&
      !module->hasAttr(kProbesAttrName))
    return;

  std::vector<ProbeInfo> probes;
  if (!readTable(module, probes))
    return signalPassFailure();
  for (Operation *op : probeOps) {
    int64_t probe = probeId(op);
    if (probe >= static_cast<int64_t>(probes.size())) {
      op->emitError("tpu-profile-lower: probe ")
          << probe << " is not in the module's table of " << probes.size()
          << " probes";
      return signalPassFailure();
    }
  }

  emitModuleGlobals(module, probes);
  for (Operation *op : probeOps) {
    int64_t probe = probeId(op);
    lowerProbe(op, probe, probes[probe].numDynDims > 0);
  }
  module->removeAttr(kProbesAttrName);
  for (ProbesOp table : llvm::make_early_inc_range(module.getOps<ProbesOp>()))
    table.erase();
}

} // namespace
