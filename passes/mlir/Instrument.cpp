//===- Instrument.cpp - --tpu-profile-instrument --------------------------===//
//
// Wraps selected ops in tpuprof.begin / tpuprof.end and records one probe
// table entry per op in the module's `tpuprof.probes` op.
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
#include "llvm/ADT/DenseMap.h"
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

/// Sets `entry`'s location to the first file location inside `loc`, else to
/// the first name in it.
void setLocation(ProbeEntry &entry, Location loc) {
  StringAttr name;
  loc->walk([&](Location l) {
    if (auto f = dyn_cast<FileLineColLoc>(l)) {
      entry.location = f.getFilename();
      entry.line = f.getLine();
      entry.column = f.getColumn();
      entry.hasPosition = true;
      return WalkResult::interrupt();
    }
    if (auto n = dyn_cast<NameLoc>(l); n && !name)
      name = n.getName();
    return WalkResult::advance();
  });
  if (!entry.hasPosition)
    entry.location = name ? name : StringAttr::get(loc->getContext());
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

class TpuProfileInstrumentPass
    : public tpuprof::impl::TpuProfileInstrumentBase<TpuProfileInstrumentPass> {
public:
  using Base::Base;

  void runOnOperation() override;

private:
  /// Parses `include`/`exclude`; false (with a diagnostic) on a bad glob.
  bool parseSelection();
  bool isSelected(Operation *op) const;
  /// Static (flops, bytes) by op hash. The estimates are functions of what
  /// the hash covers (name, attributes, types, regions), and models repeat
  /// ops: a linalg op's loop ranges then need building once per kind.
  using CostCache = llvm::DenseMap<uint64_t, std::pair<uint64_t, uint64_t>>;
  /// Wraps `op` in probe `id` and returns its table entry.
  ProbeEntry instrument(Operation *op, int64_t id, OpHasher &hasher,
                        CostCache &costs);
  void writeManifest(ArrayRef<ProbeEntry> probes);

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

ProbeEntry TpuProfileInstrumentPass::instrument(Operation *op, int64_t id,
                                                OpHasher &hasher,
                                                CostCache &costs) {
  MLIRContext *ctx = op->getContext();
  // The table entry is computed before the op's operands are rewired, so the
  // hash sees the op exactly as the user wrote it.
  ProbeEntry entry;
  entry.name = op->getName().getIdentifier();
  entry.hash = hasher.computeOpHash(op);
  entry.shapes =
      StringAttr::get(ctx, hasher.shapeSignature(op->getOperandTypes()));
  setLocation(entry, op->getLoc());
  entry.function = enclosingFunctionName(op);
  auto [cost, isNew] = costs.try_emplace(entry.hash);
  if (isNew)
    cost->second = {estimateFlops(op), estimateBytes(op)};
  std::tie(entry.flops, entry.bytes) = cost->second;
  entry.dynDims = mode == 0 ? 0 : countDynamicDims(op->getOperandTypes());

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
  // Result types given rather than inferred, and one id attribute for both
  // probes: this loop runs once per instrumented op.
  IntegerAttr probeId = builder.getI64IntegerAttr(id);
  auto begin = builder.create<BeginOp>(op->getLoc(), ValueRange(inputs).getTypes(),
                                       probeId, inputs);
  for (auto [i, operandNumber] : llvm::enumerate(forwarded))
    op->setOperand(operandNumber, begin.getResult(i));

  builder.setInsertionPointAfter(op);
  SmallVector<Value> results;
  llvm::append_range(results, op->getResults());
  auto end = builder.create<EndOp>(op->getLoc(), ValueRange(results).getTypes(),
                                   probeId, results);
  for (auto [r, forwardedResult] : llvm::zip(results, end.getResults()))
    r.replaceAllUsesExcept(forwardedResult, end);
  return entry;
}

void TpuProfileInstrumentPass::writeManifest(ArrayRef<ProbeEntry> probes) {
  llvm::json::Array array;
  for (auto [id, probe] : llvm::enumerate(probes))
    array.push_back(llvm::json::Object{
        {"id", static_cast<int64_t>(id)},
        {"bytes", static_cast<int64_t>(probe.bytes)},
        {"dyn_dims", static_cast<int64_t>(probe.dynDims)},
        {"flops", static_cast<int64_t>(probe.flops)},
        {"function", probe.function.str()},
        {"hash", llvm::utohexstr(probe.hash, /*LowerCase=*/true,
                                 /*Width=*/16)},
        {"location", probe.formatLocation()},
        {"name", probe.name.str()},
        {"shapes", probe.shapes.str()},
    });
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
  if (!module.getOps<ProbesOp>().empty() || module->hasAttr(kProbesAttrName)) {
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

  SmallVector<ProbeEntry> probes;
  probes.reserve(selected.size());
  OpHasher hasher(&getContext());
  CostCache costs;
  for (Operation *op : selected)
    probes.push_back(
        instrument(op, static_cast<int64_t>(probes.size()), hasher, costs));

  OpBuilder::atBlockBegin(module.getBody())
      .create<ProbesOp>(module.getLoc(),
                        ProbeTableAttr::get(&getContext(), probes));
  if (!manifest.empty())
    writeManifest(probes);
}

} // namespace
