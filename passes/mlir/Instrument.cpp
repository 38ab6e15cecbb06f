//===- Instrument.cpp - --tpu-profile-instrument --------------------------===//
//
// Wraps selected ops in tpuprof.begin / tpuprof.end and records one probe
// table entry per op in the module's `tpuprof.probes` attribute.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/passes/mlir/CostModel.h"
#include "tpuprof/passes/mlir/OpHash.h"
#include "tpuprof/passes/mlir/Passes.h"
#include "tpuprof/format.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace tpuprof {
#define GEN_PASS_DEF_TPUPROFILEINSTRUMENT
#include "tpuprof/passes/mlir/Passes.h.inc"
} // namespace tpuprof

using namespace mlir;
using namespace tpuprof;

namespace {

/// The graph-level ops instrumented when no `include` option is given.
bool isDefaultSelected(Operation *op) {
  if (!op->isRegistered())
    return true;
  StringRef name = op->getName().getStringRef();
  StringRef dialect = op->getName().getDialectNamespace();
  if (dialect == "tosa")
    return true;
  if (dialect == "linalg")
    return name != "linalg.yield" && name != "linalg.index";
  if (name == "func.call") {
    auto callee = op->getAttrOfType<FlatSymbolRefAttr>("callee");
    return !callee || !callee.getValue().starts_with("__tpuprof_");
  }
  return name == "gpu.launch_func";
}

/// Ops that never get probes, whatever the options say: they do no work of
/// their own, or a probe there would break their parent's rules.
bool isNeverInstrumented(Operation *op) {
  if (isa<BeginOp, EndOp>(op) || op->hasTrait<OpTrait::ConstantLike>() ||
      op->hasTrait<OpTrait::IsTerminator>())
    return true;
  // An unregistered op ending a block may be its terminator.
  if (!op->isRegistered() && op->getNumResults() == 0 &&
      op == &op->getBlock()->back())
    return true;
  bool inFunction = false;
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (isa<FunctionOpInterface>(parent)) {
      inFunction = true;
      break;
    }
    StringRef name = parent->getName().getStringRef();
    // Bodies of linalg ops are scalar code; device code cannot call the
    // host runtime.
    if (parent->getName().getDialectNamespace() == "linalg" ||
        name == "gpu.launch" || name == "gpu.module")
      return true;
  }
  return !inFunction;
}

/// "file:line:col" of the first file location inside `loc`, else a name.
std::string formatLocation(Location loc) {
  std::string fileLoc, nameLoc;
  loc->walk([&](Location l) {
    if (auto f = dyn_cast<FileLineColLoc>(l); f && fileLoc.empty())
      fileLoc = (f.getFilename().strref() + ":" + llvm::Twine(f.getLine()) +
                 ":" + llvm::Twine(f.getColumn()))
                    .str();
    else if (auto n = dyn_cast<NameLoc>(l); n && nameLoc.empty())
      nameLoc = n.getName().str();
    return fileLoc.empty() ? WalkResult::advance() : WalkResult::interrupt();
  });
  return fileLoc.empty() ? nameLoc : fileLoc;
}

/// A `tensor.empty` of static shape: like a constant, it does no work and
/// carries no dynamic dimension, so it need not go through the begin probe.
/// Forwarding it would hide from one-shot bufferization that its contents
/// are undefined: an init tensor shared by two ops (a fill, then a
/// linalg.generic's unread `outs`) then gets a second buffer that the
/// uninstrumented program does not have.
bool isStaticEmptyTensor(Value v) {
  Operation *def = v.getDefiningOp();
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return def && type && type.hasStaticShape() &&
         def->getName().getStringRef() == "tensor.empty";
}

/// The `sym_name` of the function around `op`, or "".
StringAttr enclosingFunctionName(Operation *op) {
  if (auto fn = op->getParentOfType<FunctionOpInterface>())
    if (auto name =
            fn->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
      return name;
  return StringAttr::get(op->getContext());
}

/// The keys of a probe table entry, uniqued once per run rather than once
/// per probe, in the sorted order a DictionaryAttr keeps: the entry is then
/// built with DictionaryAttr::getWithSorted, without a sort per probe.
struct ProbeEntryKeys {
  explicit ProbeEntryKeys(MLIRContext *ctx)
      : bytes(StringAttr::get(ctx, "bytes")),
        dynDims(StringAttr::get(ctx, "dyn_dims")),
        flops(StringAttr::get(ctx, "flops")),
        function(StringAttr::get(ctx, "function")),
        hash(StringAttr::get(ctx, "hash")),
        location(StringAttr::get(ctx, "location")),
        name(StringAttr::get(ctx, "name")),
        shapes(StringAttr::get(ctx, "shapes")) {}
  StringAttr bytes, dynDims, flops, function, hash, location, name, shapes;
};

class TpuProfileInstrumentPass
    : public tpuprof::impl::TpuProfileInstrumentBase<TpuProfileInstrumentPass> {
public:
  using Base::Base;

  void runOnOperation() override;

private:
  /// Parses `include`/`exclude`; false (with a diagnostic) on a bad glob.
  bool parseSelection();
  bool isSelected(Operation *op) const;
  /// Wraps `op` in probe `id` and returns its table entry.
  DictionaryAttr instrument(Operation *op, int64_t id, OpHasher &hasher,
                            const ProbeEntryKeys &keys);
  void writeManifest(ArrayRef<DictionaryAttr> probes);

  SmallVector<llvm::GlobPattern> includeGlobs, excludeGlobs;
  bool includeDefault = true;
};

bool TpuProfileInstrumentPass::parseSelection() {
  auto parse = [&](ArrayRef<std::string> patterns, StringRef option,
                   SmallVectorImpl<llvm::GlobPattern> &out) {
    for (const std::string &p : patterns) {
      if (option == "include" && p == "default") {
        includeDefault = true;
        continue;
      }
      llvm::Expected<llvm::GlobPattern> glob = llvm::GlobPattern::create(p);
      if (!glob) {
        emitError(getOperation().getLoc())
            << "tpu-profile-instrument: invalid glob '" << p << "' in option '"
            << option << "': " << llvm::toString(glob.takeError());
        return false;
      }
      out.push_back(std::move(*glob));
    }
    return true;
  };
  includeDefault = include.empty();
  return parse(include, "include", includeGlobs) &&
         parse(exclude, "exclude", excludeGlobs);
}

bool TpuProfileInstrumentPass::isSelected(Operation *op) const {
  if (isNeverInstrumented(op))
    return false;
  StringRef name = op->getName().getStringRef();
  bool selected = includeDefault && isDefaultSelected(op);
  for (const llvm::GlobPattern &g : includeGlobs)
    selected = selected || g.match(name);
  for (const llvm::GlobPattern &g : excludeGlobs)
    if (g.match(name))
      return false;
  return selected;
}

DictionaryAttr TpuProfileInstrumentPass::instrument(Operation *op, int64_t id,
                                                    OpHasher &hasher,
                                                    const ProbeEntryKeys &keys) {
  MLIRContext *ctx = op->getContext();
  Builder attrs(ctx);
  // The table entry is computed before the op's operands are rewired, so the
  // hash sees the op exactly as the user wrote it.
  unsigned dynDims = mode == 0 ? 0 : countDynamicDims(op->getOperandTypes());
  NamedAttribute entry[] = {
      {keys.bytes, attrs.getI64IntegerAttr(estimateBytes(op))},
      {keys.dynDims, attrs.getI64IntegerAttr(dynDims)},
      {keys.flops, attrs.getI64IntegerAttr(estimateFlops(op))},
      {keys.function, enclosingFunctionName(op)},
      {keys.hash,
       attrs.getStringAttr(llvm::utohexstr(hasher.computeOpHash(op),
                                           /*LowerCase=*/true, /*Width=*/16))},
      {keys.location, attrs.getStringAttr(formatLocation(op->getLoc()))},
      {keys.name, op->getName().getIdentifier()},
      {keys.shapes,
       attrs.getStringAttr(hasher.shapeSignature(op->getOperandTypes()))},
  };
  assert(llvm::is_sorted(entry, [](NamedAttribute a, NamedAttribute b) {
    return a.getName().strref() < b.getName().strref();
  }) && "probe entry keys must be sorted");
  DictionaryAttr dict = DictionaryAttr::getWithSorted(ctx, entry);

  // Forward operands through the begin probe and results through the end
  // probe. Constants stay direct: they do no work, and lowerings (e.g.
  // tosa.pad, tosa.transpose) need to see them as constants.
  OpBuilder builder(op);
  SmallVector<unsigned> forwarded;
  SmallVector<Value> inputs;
  for (OpOperand &operand : op->getOpOperands()) {
    Value v = operand.get();
    if (matchPattern(v, m_Constant()))
      continue;
    if (isStaticEmptyTensor(v))
      continue;
    forwarded.push_back(operand.getOperandNumber());
    inputs.push_back(v);
  }
  auto begin = builder.create<BeginOp>(op->getLoc(), id, inputs);
  for (auto [i, operandNumber] : llvm::enumerate(forwarded))
    op->setOperand(operandNumber, begin.getResult(i));

  builder.setInsertionPointAfter(op);
  SmallVector<Value> results;
  llvm::append_range(results, op->getResults());
  auto end = builder.create<EndOp>(op->getLoc(), id, results);
  for (auto [r, forwardedResult] : llvm::zip(results, end.getResults()))
    r.replaceAllUsesExcept(forwardedResult, end);
  return dict;
}

void TpuProfileInstrumentPass::writeManifest(ArrayRef<DictionaryAttr> probes) {
  llvm::json::Array array;
  for (auto [id, probe] : llvm::enumerate(probes)) {
    llvm::json::Object obj{{"id", static_cast<int64_t>(id)}};
    for (NamedAttribute a : probe) {
      if (auto s = dyn_cast<StringAttr>(a.getValue()))
        obj[a.getName().strref()] = s.str();
      else if (auto i = dyn_cast<IntegerAttr>(a.getValue()))
        obj[a.getName().strref()] = i.getInt();
    }
    array.push_back(std::move(obj));
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(manifest, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    emitError(getOperation().getLoc())
        << "tpu-profile-instrument: cannot write manifest '" << manifest
        << "': " << ec.message();
    return signalPassFailure();
  }
  os << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                   {"version", 1},
                                   {"probes", std::move(array)}}))
     << '\n';
}

void TpuProfileInstrumentPass::runOnOperation() {
  ModuleOp module = getOperation();
  if (mode > 2) {
    emitError(module.getLoc())
        << "tpu-profile-instrument: option 'mode' must be 0, 1 or 2, got "
        << static_cast<unsigned>(mode);
    return signalPassFailure();
  }
  if (!parseSelection())
    return signalPassFailure();
  if (module->hasAttr(kProbesAttrName)) {
    module.emitWarning("tpu-profile-instrument: module is already "
                       "instrumented; leaving it unchanged");
    return;
  }

  // Select first, then rewrite: wrapping must not disturb the walk.
  SmallVector<Operation *> selected;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isSelected(op))
      selected.push_back(op);
  });

  SmallVector<DictionaryAttr> probes;
  probes.reserve(selected.size());
  OpHasher hasher(&getContext());
  ProbeEntryKeys keys(&getContext());
  for (Operation *op : selected)
    probes.push_back(
        instrument(op, static_cast<int64_t>(probes.size()), hasher, keys));

  SmallVector<Attribute> table(probes.begin(), probes.end());
  module->setAttr(kProbesAttrName, ArrayAttr::get(&getContext(), table));
  if (!manifest.empty())
    writeManifest(probes);
}

} // namespace
