//===- ProbeToLLVM.cpp - --tpu-profile-lower ------------------------------===//
//
// Turns probes into calls of small internal, always-inlined guard functions
// that check the runtime's enabled flag, embeds the probe table and
// registers it from a module constructor:
//
//   llvm.call @__tpuprof_begin_guard(%local_id)     // at the probe
//
//   llvm.func internal @__tpuprof_begin_guard(%local: i32) attributes
//   {always_inline} {
//     %on = llvm.load @__tpuprof_enabled           // the only cost when
//     disabled llvm.cond_br (%on != 0), ^call, ^done
//   ^call:
//     llvm.call @__tpuprof_begin(load @__tpuprof_module_base + %local)
//     ...
//
// Everything it emits is in the LLVM dialect and needs no control flow at
// the probe, so the probes work in any region (a loop body's single block
// included) and need no lowering beyond what turns the model's functions
// into llvm.func: a pipeline that lowers a model without probes lowers it
// with probes.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/Conversion/ProbeToLLVM/ProbeToLLVM.h"
#include "FlagGuard.h"
#include "tpuprof/ProbeTable.h"
#include "tpuprof/format.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

namespace tpuprof {
#define GEN_PASS_DEF_TPUPROFILELOWER
#include "tpuprof/Conversion/Passes.h.inc"
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
  using TpuProfileLowerBase::TpuProfileLowerBase;
  void runOnOperation() override;

private:
  /// Reads the module's `tpuprof.probes` op (or the module attribute of the
  /// same name that older versions wrote); false (with a diagnostic) when
  /// there is none or more than one.
  bool readTable(ModuleOp module, std::vector<ProbeInfo> &probes);
  /// Declares runtime symbols, embeds the table, adds the constructor.
  void emitModuleGlobals(ModuleOp module, ArrayRef<ProbeInfo> probes);
  /// Replaces one probe op with a call of its guard function.
  void lowerProbe(Operation *op, int64_t probe, bool captureDims);
  /// The guard function calling `runtimeFn` with the module's id of a probe
  /// (and `dims` dynamic dimensions for __tpuprof_begin_dims), created on
  /// first use.
  StringRef guardFor(StringRef guard, StringRef runtimeFn, unsigned dims);

  ModuleOp module;
  llvm::StringMap<LLVM::LLVMFuncOp> guards;
};

StringRef TpuProfileLowerPass::guardFor(StringRef guard, StringRef runtimeFn,
                                        unsigned dims) {
  // Looked up here, not in the module: a module's lookup walks its ops, and
  // there is one call per probe.
  auto [it, isNew] = guards.try_emplace(guard);
  if (!isNew)
    return it->second.getName();
  MLIRContext *ctx = &getContext();
  Location loc = module.getLoc();
  auto ptrTy = LLVM::LLVMPointerType::get(ctx);
  auto i32 = IntegerType::get(ctx, 32), i64 = IntegerType::get(ctx, 64);
  SmallVector<Type> args{i32};
  args.append(dims, i64);
  Value slot;
  // A dims slot in the entry block is a static alloca: inlined, it becomes
  // part of the caller's frame, so a probe in a loop does not grow the stack.
  auto prologue = [&](OpBuilder &b) {
    if (dims == 0)
      return;
    Value count = b.create<LLVM::ConstantOp>(loc, i64, 1);
    slot = b.create<LLVM::AllocaOp>(loc, ptrTy,
                                    LLVM::LLVMArrayType::get(i64, dims), count,
                                    /*alignment=*/8);
  };
  auto body = [&](OpBuilder &b, Block::BlockArgListType argv) {
    Value baseAddr = b.create<LLVM::AddressOfOp>(loc, ptrTy, kBaseSym);
    Value base = b.create<LLVM::LoadOp>(loc, i32, baseAddr);
    Value id = b.create<LLVM::AddOp>(loc, base, argv[0]);
    if (dims == 0) {
      b.create<LLVM::CallOp>(loc, TypeRange(), runtimeFn, ValueRange{id});
      return;
    }
    for (unsigned i = 0; i < dims; ++i) {
      Value at = b.create<LLVM::GEPOp>(
          loc, ptrTy, i64, slot,
          ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
      b.create<LLVM::StoreOp>(loc, argv[1 + i], at);
    }
    Value n = b.create<LLVM::ConstantOp>(loc, i32, dims);
    b.create<LLVM::CallOp>(loc, TypeRange(), runtimeFn,
                           ValueRange{id, slot, n});
  };
  LLVM::LLVMFuncOp fn =
      buildFlagGuard(module, guard, args, kEnabledSym, prologue, body);
  it->second = fn;
  return fn.getName();
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
    if (e.node)
      p.node = e.node.str();
    p.function = e.function.str();
    p.flops = e.flops;
    p.bytes = e.bytes;
    p.numDynDims = e.dynDims;
    p.numOuts = e.numOuts;
    if (e.outShapes) {
      p.outShapes = e.outShapes.str();
      p.hasOutShapes = true;
    }
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
  Location loc = op->getLoc();
  OpBuilder b(op);
  // Dynamic dims of the forwarded operands, in operand then dimension
  // order. Read before the call; once the guard is inlined LLVM sinks the
  // reads under its check.
  SmallVector<Value> dims;
  if (captureDims && isa<BeginOp>(op))
    for (Value v : op->getOperands())
      if (auto shaped = dyn_cast<ShapedType>(v.getType());
          shaped && shaped.hasRank())
        for (unsigned d = 0; d < shaped.getRank(); ++d)
          if (shaped.isDynamicDim(d)) {
            Value dim = isa<MemRefType>(v.getType())
                            ? b.create<memref::DimOp>(loc, v, d).getResult()
                            : b.create<tensor::DimOp>(loc, v, d).getResult();
            dims.push_back(
                b.create<arith::IndexCastOp>(loc, b.getI64Type(), dim));
          }

  StringRef guard;
  if (isa<EndOp>(op))
    guard = guardFor(kEndGuardName, kEndFn, 0);
  else if (dims.empty())
    guard = guardFor(kBeginGuardName, kBeginFn, 0);
  else
    guard = guardFor((kBeginDimsGuardPrefix + llvm::Twine(dims.size())).str(),
                     kBeginDimsFn, dims.size());
  SmallVector<Value> args{
      b.create<LLVM::ConstantOp>(loc, b.getI32Type(), probe)};
  args.append(dims);
  b.create<LLVM::CallOp>(loc, TypeRange(), guard, args);
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
  module = getOperation();
  SmallVector<Operation *> probeOps;
  module.walk([&](Operation *op) {
    if (isa<BeginOp, EndOp>(op))
      probeOps.push_back(op);
  });
  bool hasTable =
      !module.getOps<ProbesOp>().empty() || module->hasAttr(kProbesAttrName);
  // Memory: in an instrumented module, or one this pass lowered before (a
  // second run after a deallocation pipeline).
  if (memory &&
      (hasTable || !probeOps.empty() || module.lookupSymbol(kBaseSym)))
    wrapMemoryOps(module);
  if (probeOps.empty() && !hasTable)
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
