//===- Instrument.cpp - --tpu-profile-instrument --------------------------===//
//
// Wraps selected ops in tpuprof.begin / tpuprof.end and records one probe
// table entry per op in the module's `tpuprof.probes` op. At the kernel
// level the ops are the kernels a lowering left after fusion, named by the
// source ops that --tpu-profile-tag-sources (also here) recorded in their
// locations. At the node levels one probe pair wraps each run of ops of one
// node (an imported ONNX node), with the ops' own probes inside at
// node+graph.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/Transforms/CostModel.h"
#include "tpuprof/Transforms/OpHash.h"
#include "tpuprof/Transforms/Passes.h"
#include "tpuprof/format.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Threading.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace tpuprof {
#define GEN_PASS_DEF_TPUPROFILEINSTRUMENT
#define GEN_PASS_DEF_TPUPROFILETAGSOURCES
#include "tpuprof/Transforms/Passes.h.inc"
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
    if (callee && callee.getValue().starts_with(TPUPROF_SYMBOL_PREFIX))
      return false;
    // A call the pipeline made when it split a large function is not the
    // model's: the ops moved into the callee have probes of their own.
    auto fn =
        callee ? SymbolTable::lookupNearestSymbolFrom(op, callee) : nullptr;
    return !fn || !fn->hasAttr(kOutlinedAttrName);
  }
  return name == "gpu.launch_func";
}

/// Tensor ops that a lowering leaves between the kernels and that become a
/// loop or a copy after bufferization: a pad (a fill, then a copy of the
/// source into it), an insert (a copy into the destination: what a concat
/// lowers to), a concat, a generated or splat tensor, a materialization.
/// Views (extract_slice, reshapes) and empty tensors are not.
bool isCopyKernel(Operation *op) {
  return isa<tensor::PadOp, tensor::InsertSliceOp, tensor::ConcatOp,
             tensor::GenerateOp, tensor::SplatOp,
             bufferization::MaterializeInDestinationOp>(op);
}

/// Ops that never get probes, whatever the options say: they do no work of
/// their own. (Where an op sits is the selection walk's business, `Scope`.)
bool isNeverInstrumented(Operation *op) {
  if (isa<BeginOp, EndOp>(op) || op->hasTrait<OpTrait::ConstantLike>() ||
      op->hasTrait<OpTrait::IsTerminator>())
    return true;
  // An unregistered op ending a block may be its terminator.
  return !op->isRegistered() && op->getNumResults() == 0 &&
         op == &op->getBlock()->back();
}

/// Where the selection walk is. Only ops in a function body get probes.
/// Bodies of linalg ops are scalar code, and device code cannot call the
/// host runtime: nothing below them does, functions (gpu.func) included.
enum class Scope { Outside, Function, Excluded };

/// The scope of `op`'s regions, given `op`'s own.
Scope scopeOfRegions(Operation *op, Scope scope) {
  if (scope == Scope::Excluded)
    return scope;
  StringRef name = op->getName().getStringRef();
  if (op->getName().getDialectNamespace() == "linalg" || name == "gpu.launch" ||
      name == "gpu.module")
    return Scope::Excluded;
  return isa<FunctionOpInterface>(op) ? Scope::Function : scope;
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

/// Appends the name part of `loc` to `names` (once each): a NameLoc's name
/// (not the names inside it: an importer's `loc("node"("OpType"))` names
/// the node, its child the op type), every one inside a FusedLoc, a
/// CallSiteLoc's callee's (else its caller's).
void collectNodeNames(Location loc, SmallVectorImpl<StringRef> &names) {
  if (auto n = dyn_cast<NameLoc>(loc)) {
    StringRef name = n.getName().getValue();
    if (!name.empty() && !llvm::is_contained(names, name))
      names.push_back(name);
  } else if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location inner : fused.getLocations())
      collectNodeNames(inner, names);
  } else if (auto site = dyn_cast<CallSiteLoc>(loc)) {
    size_t before = names.size();
    collectNodeNames(site.getCallee(), names);
    if (names.size() == before)
      collectNodeNames(site.getCaller(), names);
  } else if (auto opaque = dyn_cast<OpaqueLoc>(loc)) {
    collectNodeNames(opaque.getFallbackLocation(), names);
  }
}

/// The probe table's node of `names`: null when there are none.
StringAttr joinNodeNames(MLIRContext *ctx, ArrayRef<StringRef> names) {
  if (names.empty())
    return StringAttr();
  return StringAttr::get(ctx, llvm::join(names, TPUPROF_LOCATION_SEPARATOR));
}

/// "file:line:col" of the first file location inside `loc`, else its first
/// name, else "" (what setLocation and formatLocation make of it).
std::string formatSourceLocation(Location loc) {
  ProbeEntry entry;
  setLocation(entry, loc);
  return entry.formatLocation();
}

/// The op name a --tpu-profile-tag-sources tag carries, or null.
StringAttr sourceTag(FusedLoc loc) {
  auto meta = dyn_cast_if_present<DictionaryAttr>(loc.getMetadata());
  return meta ? meta.getAs<StringAttr>(kSourceTagKey) : StringAttr();
}

/// "conv2d" for "tosa.conv2d": op names without their dialect.
StringRef shortOpName(StringRef name) {
  size_t dot = name.find('.');
  return dot == StringRef::npos ? name : name.drop_front(dot + 1);
}

/// What a kernel does, to tell apart the kernels one source op lowered to
/// (a fully_connected is a transpose, a broadcast and a matmul): a named
/// op's own short name; for a linalg.generic, fill (no inputs), reduction,
/// broadcast or copy (a body that only yields an input), else elementwise.
std::string kernelKind(Operation *op) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic)
    return shortOpName(op->getName().getStringRef()).str();
  if (generic.getNumDpsInputs() == 0)
    return "fill";
  if (generic.getNumReductionLoops() != 0)
    return "reduction";
  Block &body = generic.getRegion().front();
  if (body.getOperations().size() == 1 &&
      llvm::all_of(body.getTerminator()->getOperands(), [&](Value v) {
        auto arg = dyn_cast<BlockArgument>(v);
        return arg && arg.getOwner() == &body &&
               arg.getArgNumber() < generic.getNumDpsInputs();
      })) {
    auto inType = dyn_cast<ShapedType>(generic.getDpsInputs()[0].getType());
    auto outType = dyn_cast<ShapedType>(generic.getDpsInits()[0].getType());
    return inType && outType && inType.hasRank() && outType.hasRank() &&
                   inType.getRank() < outType.getRank()
               ? "broadcast"
               : "copy";
  }
  return "elementwise";
}

/// The source ops a kernel was lowered and fused from, in program order:
/// the tags in its body's locations (fusion clones a producer's body ahead
/// of its consumer's), then its own.
struct KernelSources {
  SmallVector<StringRef> names;
  SmallVector<std::string> locations;
  SmallVector<StringRef> nodes; ///< Name parts of the source locations.
};

KernelSources kernelSources(Operation *kernel) {
  KernelSources sources;
  llvm::SetVector<FusedLoc> seen;
  // Post-order: body ops before the kernel itself.
  kernel->walk([&](Operation *op) {
    op->getLoc()->walk([&](Location l) {
      if (auto fused = dyn_cast<FusedLoc>(l))
        if (StringAttr name = sourceTag(fused); name && seen.insert(fused)) {
          sources.names.push_back(shortOpName(name.getValue()));
          std::string where = formatSourceLocation(fused);
          if (!where.empty() && !llvm::is_contained(sources.locations, where))
            sources.locations.push_back(std::move(where));
          collectNodeNames(fused, sources.nodes);
        }
      return WalkResult::advance();
    });
  });
  return sources;
}

/// A kernel: what a lowering leaves of the graph after fusion, a linalg op
/// (outside another one's body), or a tensor op that becomes a loop or a
/// copy.
bool isKernelOp(Operation *op) {
  return (op->getName().getDialectNamespace() == "linalg" &&
          !isa<linalg::YieldOp, linalg::IndexOp>(op)) ||
         isCopyKernel(op);
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

/// The name a probe's rows carry: the op's name, and for a call the
/// callee's symbol (`func.call @matmul_kernel`), so that calls of different
/// functions are told apart in every view (table, stacks, call graph). The
/// op hash is the op's own (docs/hash.md).
StringAttr rowName(Operation *op) {
  if (auto call = dyn_cast<CallOpInterface>(op))
    if (auto callee =
            dyn_cast_if_present<SymbolRefAttr>(call.getCallableForCallee()))
      return StringAttr::get(op->getContext(),
                             op->getName().getStringRef() + " @" +
                                 callee.getLeafReference().getValue());
  return op->getName().getIdentifier();
}

/// The `sym_name` of the function around `op`, or "": for a function the
/// pipeline split off a larger one, that one's.
StringAttr enclosingFunctionName(Operation *op) {
  if (auto fn = op->getParentOfType<FunctionOpInterface>()) {
    if (auto from = fn->getAttrOfType<StringAttr>(kOutlinedAttrName))
      return from;
    if (auto name =
            fn->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
      return name;
  }
  return StringAttr::get(op->getContext());
}

/// An unregistered op with results but no operands and no regions has
/// nothing to compute from: it names a constant (TPU-MLIR's top.Weight,
/// top.None). Reported as ops they would fill the table with rows of
/// nothing, one per weight.
bool isUnregisteredConstant(Operation *op) {
  return !op->isRegistered() && op->getNumOperands() == 0 &&
         op->getNumRegions() == 0 && op->getNumResults() > 0;
}

/// An op that does no work and carries no dynamic dimension, left where it
/// is inside a probe's span and never forwarded: a constant, an
/// unregistered constant, a static `tensor.empty`.
bool isInert(Operation *op) {
  return op->hasTrait<OpTrait::ConstantLike>() || isUnregisteredConstant(op) ||
         (op->getNumResults() == 1 && isStaticEmptyTensor(op->getResult(0)));
}

/// The node a location names (its name parts joined), "" for none.
std::string nodeOf(Location loc) {
  SmallVector<StringRef> names;
  collectNodeNames(loc, names);
  return llvm::join(names, TPUPROF_LOCATION_SEPARATOR);
}

/// The op type an importer nests inside a node's NameLoc
/// (`loc("/conv1/Conv"("Conv"))`: "Conv"), else "".
StringRef nodeOpType(Location loc) {
  if (auto n = dyn_cast<NameLoc>(loc)) {
    if (n.getName().getValue().empty())
      return "";
    auto type = dyn_cast<NameLoc>(n.getChildLoc());
    return type ? type.getName().getValue() : "";
  }
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location inner : fused.getLocations())
      if (StringRef type = nodeOpType(inner); !type.empty())
        return type;
    return "";
  }
  if (auto site = dyn_cast<CallSiteLoc>(loc)) {
    StringRef type = nodeOpType(site.getCallee());
    return type.empty() ? nodeOpType(site.getCaller()) : type;
  }
  if (auto opaque = dyn_cast<OpaqueLoc>(loc))
    return nodeOpType(opaque.getFallbackLocation());
  return "";
}

/// The ops from `first` to `last` (one block, in order) as one probe sees
/// them: what comes in from outside and what goes out.
struct Span {
  SmallVector<Operation *> ops;
  /// Every operand of a span op defined outside the span, once each, in
  /// the order of first use: the span's argument shapes.
  llvm::SetVector<Value> inputs;
  /// The inputs that go through the begin probe: not constants, not
  /// static empty tensors (as `wrap` decides for one op).
  SmallVector<Value> forwarded;
  /// Results of span ops used after it (inert ops' excepted).
  SmallVector<Value> outputs;

  Span(Operation *first, Operation *last) {
    for (Operation *op = first;; op = op->getNextNode()) {
      ops.push_back(op);
      if (op == last)
        break;
    }
    llvm::SmallPtrSet<Operation *, 16> members(ops.begin(), ops.end());
    Block *block = first->getBlock();
    auto inside = [&](Operation *user) {
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      return ancestor && members.contains(ancestor);
    };
    for (Operation *op : ops)
      for (Value v : op->getOperands()) {
        Operation *def = v.getDefiningOp();
        if (def && members.contains(def))
          continue;
        if (inputs.insert(v) && !matchPattern(v, m_Constant()) &&
            !isStaticEmptyTensor(v))
          forwarded.push_back(v);
      }
    for (Operation *op : ops) {
      if (isInert(op))
        continue;
      for (Value result : op->getResults())
        if (llvm::any_of(result.getUsers(),
                         [&](Operation *user) { return !inside(user); }))
          outputs.push_back(result);
    }
  }
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
  /// Appends the selected ops under `region`, in pre-order.
  void select(Region &region, Scope scope,
              SmallVectorImpl<Operation *> &selected) const;
  /// Static (flops, bytes) by op hash. The estimates are functions of what
  /// the hash covers (name, attributes, types, regions), and models repeat
  /// ops: a linalg op's loop ranges then need building once per kind.
  using CostCache = llvm::DenseMap<uint64_t, std::pair<uint64_t, uint64_t>>;
  /// The table entry of `op`, computed before any op is rewired so that the
  /// hash sees the op exactly as the user wrote it. Reads the IR only.
  ProbeEntry describe(Operation *op, OpHasher &hasher, CostCache &costs) const;
  /// Table entries of `ops`, in order, on the context's threads.
  SmallVector<ProbeEntry> describeAll(ArrayRef<Operation *> ops);
  /// Takes out of `selected` each fill kernel that only initializes another
  /// selected kernel, and keeps it as that kernel's `initializers`.
  void absorbInitializers(SmallVectorImpl<Operation *> &selected);
  /// Wraps `op` in probes with id `id` (with its initializer, if any).
  void wrap(Operation *op, int64_t id);
  /// Wraps the ops from `first` to `last` (one block) in one probe pair.
  void wrapSpan(Operation *first, Operation *last, int64_t id);
  /// The entry of the probe around `members` (consecutive ops of one
  /// block, whose own entries are `entries`): its hash of theirs (`kind`
  /// names the region in it), the span's shapes and location, their
  /// summed work.
  ProbeEntry describeSpan(ArrayRef<Operation *> members,
                          ArrayRef<ProbeEntry> entries, StringRef kind,
                          OpHasher &hasher) const;
  /// A probe's ops: one op, a kernel of several ops (the inserts of one
  /// concat), or a node's run.
  struct Unit {
    SmallVector<Operation *, 1> ops;
    ProbeEntry entry;
    /// A node's probe: wraps its ops as a span even when there is one.
    bool region = false;
  };
  /// Kernel level: joins each chain of inserts, each into the one before
  /// (a lowered concat), into one kernel.
  SmallVector<Unit> kernelUnits(ArrayRef<Operation *> ops,
                                ArrayRef<ProbeEntry> entries) const;
  /// Names the kernels among `units` by their source ops (`describe` gave
  /// them their op names) and lists every source location.
  void nameKernels(MutableArrayRef<Unit> units) const;
  /// Node levels: one unit per run of ops of one node, with (node+graph)
  /// each op's own nested after it; an op without a node keeps its own.
  SmallVector<Unit> nodeUnits(ArrayRef<Operation *> ops,
                              ArrayRef<ProbeEntry> entries) const;
  void writeManifest(ArrayRef<ProbeEntry> probes);

  SmallVector<llvm::GlobPattern> includeGlobs, excludeGlobs;
  bool includeDefault = true;
  /// What the probes capture (tpuprof_capture): `capture`, or `mode`, its
  /// old name, when only that one differs from the default.
  unsigned captureLevel = TPUPROF_CAPTURE_DEFAULT;
  /// The `probe-level` option: where the probes go (docs/probes.md).
  enum class Level { Graph, Kernel, Node, NodeGraph };
  Level level = Level::Graph;
  /// Kernel -> the fill kernel that initializes it, inside its probe.
  llvm::DenseMap<Operation *, Operation *> initializers;
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
  if (isNeverInstrumented(op) ||
      (!probeConstants && isUnregisteredConstant(op)))
    return false;
  StringRef name = op->getName().getStringRef();
  bool selected =
      includeDefault &&
      (isDefaultSelected(op) || (level == Level::Kernel && isCopyKernel(op)));
  for (const llvm::GlobPattern &g : includeGlobs)
    selected = selected || g.match(name);
  for (const llvm::GlobPattern &g : excludeGlobs)
    if (g.match(name))
      return false;
  return selected;
}

void TpuProfileInstrumentPass::select(
    Region &region, Scope scope, SmallVectorImpl<Operation *> &selected) const {
  for (Block &block : region)
    for (Operation &op : block) {
      if (scope == Scope::Function && isSelected(&op))
        selected.push_back(&op);
      Scope inner = scopeOfRegions(&op, scope);
      if (inner == Scope::Excluded)
        continue;
      for (Region &nested : op.getRegions())
        select(nested, inner, selected);
    }
}

ProbeEntry TpuProfileInstrumentPass::describe(Operation *op, OpHasher &hasher,
                                              CostCache &costs) const {
  ProbeEntry entry;
  entry.name = rowName(op);
  entry.hash = hasher.computeOpHash(op);
  entry.shapes = StringAttr::get(op->getContext(),
                                 hasher.shapeSignature(op->getOperandTypes()));
  setLocation(entry, op->getLoc());
  SmallVector<StringRef> nodes;
  collectNodeNames(op->getLoc(), nodes);
  entry.node = joinNodeNames(op->getContext(), nodes);
  entry.function = enclosingFunctionName(op);
  auto [cost, isNew] = costs.try_emplace(entry.hash);
  if (isNew)
    cost->second = {estimateFlops(op), estimateBytes(op)};
  std::tie(entry.flops, entry.bytes) = cost->second;
  entry.dynDims = tpuprof_capture_has_dims(captureLevel)
                      ? countDynamicDims(op->getOperandTypes())
                      : 0;
  // Where the outputs are: a destination-style op writes its trailing init
  // operands (linalg on memrefs has no results at all), any other op its
  // results.
  if (auto dps = dyn_cast<DestinationStyleOpInterface>(op);
      dps && dps.getNumDpsInits() &&
      dps.getDpsInitsMutable().begin()->getOperandNumber() +
              dps.getNumDpsInits() ==
          op->getNumOperands())
    entry.numOuts = uint8_t(std::min<int64_t>(dps.getNumDpsInits(), 255));
  else if (op->getNumResults())
    entry.outShapes = StringAttr::get(
        op->getContext(), hasher.shapeSignature(op->getResultTypes()));
  return entry;
}

SmallVector<ProbeEntry>
TpuProfileInstrumentPass::describeAll(ArrayRef<Operation *> ops) {
  // Hashing is most of the pass. Ops are independent, so each contiguous
  // slice of them gets its own hasher and cost cache on one of the
  // context's threads (whose uniquers are thread-safe). A slice costs
  // printer state, cold text caches and a hand-off: on 6 k selected ops one
  // slice was faster (25 alternating runs, min 7.9 vs 9.2 ms), on 61 k two
  // were (hashing 42 -> 28 ms). So one more slice per 8 k ops.
  MLIRContext *ctx = &getContext();
  size_t slices = 1;
  if (ctx->isMultithreadingEnabled())
    slices = std::min<size_t>(ctx->getNumThreads(), ops.size() / 8192 + 1);
  SmallVector<ProbeEntry> entries(ops.size());
  size_t perSlice = (ops.size() + slices - 1) / slices;
  parallelFor(ctx, 0, slices, [&](size_t slice) {
    OpHasher hasher(ctx);
    CostCache costs;
    size_t end = std::min(ops.size(), (slice + 1) * perSlice);
    for (size_t i = slice * perSlice; i < end; ++i)
      entries[i] = describe(ops[i], hasher, costs);
  });
  return entries;
}

/// A kernel that only writes a value: linalg.fill, or a linalg.generic
/// without inputs.
bool isFillKernel(Operation *op) {
  if (isa<linalg::FillOp>(op))
    return true;
  auto generic = dyn_cast<linalg::GenericOp>(op);
  return generic && generic.getNumDpsInputs() == 0;
}

void TpuProfileInstrumentPass::absorbInitializers(
    SmallVectorImpl<Operation *> &selected) {
  // A fill that initializes one kernel's accumulator belongs to it: once
  // both are vectorized, canonicalization folds a small fill into the
  // accumulator's first value, which a probe between them would stop.
  llvm::SmallPtrSet<Operation *, 32> chosen(selected.begin(), selected.end());
  llvm::erase_if(selected, [&](Operation *op) {
    // Static shapes only: the begin probe captures dynamic dimensions from
    // the operands it forwards, and the fill's result is not one of them.
    auto type = op->getNumResults() == 1
                    ? dyn_cast<ShapedType>(op->getResult(0).getType())
                    : ShapedType();
    if (!isFillKernel(op) || !op->hasOneUse() || !type ||
        !type.hasStaticShape())
      return false;
    OpOperand &use = *op->getUses().begin();
    auto user = dyn_cast<DestinationStyleOpInterface>(use.getOwner());
    if (!user || !chosen.contains(user) || !isKernelOp(user) ||
        !user.isDpsInit(&use) || user->getBlock() != op->getBlock() ||
        initializers.count(user))
      return false;
    initializers[user] = op;
    return true;
  });
}

void TpuProfileInstrumentPass::nameKernels(MutableArrayRef<Unit> units) const {
  if (units.empty())
    return;
  MLIRContext *ctx = units.front().ops.front()->getContext();
  // (function, name, locations) -> kernels so named: one source op can
  // lower to several kernels, which then say what each does.
  llvm::StringMap<SmallVector<size_t, 2>> byName;
  for (auto [i, unit] : llvm::enumerate(units)) {
    Operation *op = unit.ops.front();
    if (!isKernelOp(op))
      continue;
    KernelSources sources;
    if (Operation *init = initializers.lookup(op))
      sources = kernelSources(init);
    for (Operation *member : unit.ops) {
      KernelSources own = kernelSources(member);
      for (StringRef name : own.names)
        if (!llvm::is_contained(sources.names, name))
          sources.names.push_back(name);
      for (std::string &where : own.locations)
        if (!llvm::is_contained(sources.locations, where))
          sources.locations.push_back(std::move(where));
      for (StringRef node : own.nodes)
        if (!llvm::is_contained(sources.nodes, node))
          sources.nodes.push_back(node);
    }
    if (sources.names.empty())
      continue; // Not lowered from a tagged op: keeps its own name.
    ProbeEntry &entry = unit.entry;
    entry.name = StringAttr::get(ctx, llvm::join(sources.names, "+"));
    entry.node = joinNodeNames(ctx, sources.nodes);
    if (sources.locations.size() > 1) {
      entry.location = StringAttr::get(
          ctx, llvm::join(sources.locations, TPUPROF_LOCATION_SEPARATOR));
      entry.hasPosition = false;
      entry.line = entry.column = 0;
    } else if (sources.locations.size() == 1) {
      entry.location = StringAttr::get(ctx, sources.locations.front());
      entry.hasPosition = false;
      entry.line = entry.column = 0;
    }
    std::string key = (entry.function.getValue() + "\n" +
                       entry.name.getValue() + "\n" + entry.formatLocation())
                          .str();
    byName[key].push_back(i);
  }
  for (auto &group : byName) {
    if (group.second.size() < 2)
      continue;
    for (size_t i : group.second)
      units[i].entry.name =
          StringAttr::get(ctx, units[i].entry.name.getValue() + ":" +
                                   kernelKind(units[i].ops.front()));
  }
}

ProbeEntry TpuProfileInstrumentPass::describeSpan(ArrayRef<Operation *> members,
                                                  ArrayRef<ProbeEntry> entries,
                                                  StringRef kind,
                                                  OpHasher &hasher) const {
  MLIRContext *ctx = members.front()->getContext();
  Span span(members.front(), members.back());
  ProbeEntry entry;
  SmallVector<uint64_t> hashes;
  for (const ProbeEntry &e : entries)
    hashes.push_back(e.hash);
  entry.hash = computeRegionHash(kind, hashes);
  entry.shapes = StringAttr::get(
      ctx,
      hasher.shapeSignature(ValueRange(span.inputs.getArrayRef()).getTypes()));
  if (!span.outputs.empty())
    entry.outShapes = StringAttr::get(
        ctx, hasher.shapeSignature(ValueRange(span.outputs).getTypes()));
  // One location, as its ops have it, or all of theirs (as a kernel's).
  SmallVector<std::string> locations;
  for (const ProbeEntry &e : entries)
    if (std::string where = e.formatLocation();
        !where.empty() && !llvm::is_contained(locations, where))
      locations.push_back(std::move(where));
  if (locations.size() > 1) {
    entry.location =
        StringAttr::get(ctx, llvm::join(locations, TPUPROF_LOCATION_SEPARATOR));
  } else {
    entry.location = entries.front().location;
    entry.line = entries.front().line;
    entry.column = entries.front().column;
    entry.hasPosition = entries.front().hasPosition;
  }
  entry.node = entries.front().node;
  entry.function = entries.front().function;
  for (const ProbeEntry &e : entries) {
    entry.flops += e.flops;
    entry.bytes += e.bytes;
  }
  entry.dynDims = tpuprof_capture_has_dims(captureLevel)
                      ? countDynamicDims(ValueRange(span.forwarded).getTypes())
                      : 0;
  return entry;
}

SmallVector<TpuProfileInstrumentPass::Unit>
TpuProfileInstrumentPass::kernelUnits(ArrayRef<Operation *> ops,
                                      ArrayRef<ProbeEntry> entries) const {
  if (ops.empty())
    return {};
  OpHasher hasher(ops.front()->getContext());
  SmallVector<Unit> units;
  for (size_t i = 0; i < ops.size();) {
    // A chain: each insert writes into the one before it, which nothing
    // else uses, with nothing but inert ops between them.
    size_t end = i + 1;
    while (end < ops.size()) {
      auto prev = dyn_cast<tensor::InsertSliceOp>(ops[end - 1]);
      auto next = dyn_cast<tensor::InsertSliceOp>(ops[end]);
      if (!prev || !next || next->getBlock() != prev->getBlock() ||
          next.getDest() != prev.getResult() || !prev->hasOneUse())
        break;
      Operation *between = prev->getNextNode();
      while (between != next && isInert(between))
        between = between->getNextNode();
      if (between != next)
        break;
      ++end;
    }
    Unit unit;
    unit.ops.assign(ops.begin() + i, ops.begin() + end);
    unit.entry = end - i == 1
                     ? entries[i]
                     : describeSpan(unit.ops, entries.slice(i, end - i),
                                    "kernel", hasher);
    if (end - i > 1)
      unit.entry.name = entries[i].name;
    units.push_back(std::move(unit));
    i = end;
  }
  return units;
}

SmallVector<TpuProfileInstrumentPass::Unit>
TpuProfileInstrumentPass::nodeUnits(ArrayRef<Operation *> ops,
                                    ArrayRef<ProbeEntry> entries) const {
  if (ops.empty())
    return {};
  MLIRContext *ctx = ops.front()->getContext();
  // Runs of ops of one node in one block, with only inert ops or ops of
  // the same node (not selected ones) between them. A run stays open while
  // the walk is in the regions of an op after it.
  struct Run {
    SmallVector<size_t> members;
    StringRef node;
  };
  SmallVector<Run> runs;
  llvm::DenseMap<Block *, size_t> open;
  for (auto [i, op] : llvm::enumerate(ops)) {
    StringRef node = entries[i].node ? entries[i].node.getValue() : "";
    auto it = open.find(op->getBlock());
    if (it != open.end()) {
      Run &run = runs[it->second];
      bool joins = !node.empty() && node == run.node;
      for (Operation *between = ops[run.members.back()]->getNextNode();
           joins && between != op; between = between->getNextNode())
        joins = isInert(between) || nodeOf(between->getLoc()) == node;
      if (joins) {
        run.members.push_back(i);
        continue;
      }
      open.erase(it);
    }
    runs.push_back(Run{{i}, node});
    if (!node.empty())
      open[op->getBlock()] = runs.size() - 1;
  }

  OpHasher hasher(ctx);
  SmallVector<Unit> units;
  for (Run &run : runs) {
    if (run.node.empty()) {
      units.push_back(Unit{
          {ops[run.members.front()]}, entries[run.members.front()], false});
      continue;
    }
    Unit region;
    SmallVector<ProbeEntry> memberEntries;
    SmallVector<std::string> opNames;
    for (size_t m : run.members) {
      region.ops.push_back(ops[m]);
      memberEntries.push_back(entries[m]);
      std::string op = shortOpName(ops[m]->getName().getStringRef()).str();
      if (!llvm::is_contained(opNames, op))
        opNames.push_back(std::move(op));
    }
    // Named by the node's op type (an ONNX node's), else by its ops.
    StringRef type = nodeOpType(region.ops.front()->getLoc());
    std::string name =
        "node." + (type.empty() ? llvm::join(opNames, "+") : type.str());
    region.entry = describeSpan(region.ops, memberEntries, name, hasher);
    region.entry.name = StringAttr::get(ctx, name);
    region.region = true;
    units.push_back(std::move(region));
    if (level == Level::NodeGraph)
      for (size_t m : run.members)
        units.push_back(Unit{{ops[m]}, entries[m], false});
  }
  return units;
}

void TpuProfileInstrumentPass::wrap(Operation *op, int64_t id) {
  // Forward operands through the begin probe and results through the end
  // probe. Constants stay direct: they do no work, and lowerings (e.g.
  // tosa.pad, tosa.transpose) need to see them as constants. A kernel's
  // initializer goes right before it, inside the probe, and what it
  // computes goes to the kernel directly.
  Operation *init = initializers.lookup(op);
  if (init)
    init->moveBefore(op);
  OpBuilder builder(init ? init : op);
  SmallVector<unsigned> forwarded;
  SmallVector<Value> inputs;
  for (OpOperand &operand : op->getOpOperands()) {
    Value v = operand.get();
    if (matchPattern(v, m_Constant()))
      continue;
    if (init && v.getDefiningOp() == init)
      continue;
    if (isStaticEmptyTensor(v))
      continue;
    forwarded.push_back(operand.getOperandNumber());
    inputs.push_back(v);
  }
  // Result types given rather than inferred: this runs once per op.
  auto begin = builder.create<BeginOp>(
      op->getLoc(), ValueRange(inputs).getTypes(), id, inputs);
  for (auto [i, operandNumber] : llvm::enumerate(forwarded))
    op->setOperand(operandNumber, begin.getResult(i));

  builder.setInsertionPointAfter(op);
  SmallVector<Value> results;
  llvm::append_range(results, op->getResults());
  auto end = builder.create<EndOp>(op->getLoc(), ValueRange(results).getTypes(),
                                   id, results);
  for (auto [r, forwardedResult] : llvm::zip(results, end.getResults()))
    r.replaceAllUsesExcept(forwardedResult, end);
}

void TpuProfileInstrumentPass::wrapSpan(Operation *first, Operation *last,
                                        int64_t id) {
  // As `wrap` does for one op: what the span's ops take from outside goes
  // through the begin probe, what later ops take from them through the end
  // probe; inert ops stay where they are.
  Span span(first, last);
  llvm::SmallPtrSet<Operation *, 16> members(span.ops.begin(), span.ops.end());
  OpBuilder builder(first);
  auto begin = builder.create<BeginOp>(first->getLoc(),
                                       ValueRange(span.forwarded).getTypes(),
                                       id, span.forwarded);
  for (auto [v, forwarded] : llvm::zip(span.forwarded, begin.getResults()))
    v.replaceUsesWithIf(forwarded, [&](OpOperand &use) {
      return members.contains(use.getOwner());
    });

  builder.setInsertionPointAfter(last);
  auto end = builder.create<EndOp>(
      last->getLoc(), ValueRange(span.outputs).getTypes(), id, span.outputs);
  Block *block = first->getBlock();
  for (auto [r, forwarded] : llvm::zip(span.outputs, end.getResults()))
    r.replaceUsesWithIf(forwarded, [&](OpOperand &use) {
      Operation *ancestor = block->findAncestorOpInBlock(*use.getOwner());
      return use.getOwner() != end && !(ancestor && members.contains(ancestor));
    });
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
        {"node", probe.node ? probe.node.str() : std::string()},
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
  os << llvm::formatv("{0:2}",
                      llvm::json::Value(llvm::json::Object{
                          {"version", 1}, {"probes", std::move(array)}}))
     << '\n';
}

void TpuProfileInstrumentPass::runOnOperation() {
  ModuleOp module = getOperation();
  // Options are checked in the order they are listed; the error names the
  // one the user wrote.
  for (auto [name, value] : {std::pair<StringRef, unsigned>("capture", capture),
                             std::pair<StringRef, unsigned>("mode", mode)}) {
    if (value >= TPUPROF_CAPTURE_COUNT) {
      emitError(module.getLoc()) << "tpu-profile-instrument: option '" << name
                                 << "' must be 0, 1 or 2, got " << value;
      return signalPassFailure();
    }
  }
  captureLevel = capture != TPUPROF_CAPTURE_DEFAULT ? capture : mode;
  std::optional<Level> parsed =
      llvm::StringSwitch<std::optional<Level>>(probeLevel)
          .Case("graph", Level::Graph)
          .Case("kernel", Level::Kernel)
          .Case("node", Level::Node)
          .Case("node+graph", Level::NodeGraph)
          .Default(std::nullopt);
  if (!parsed) {
    emitError(module.getLoc())
        << "tpu-profile-instrument: option 'probe-level' must be graph, "
           "kernel, node or node+graph, got '"
        << probeLevel << "'";
    return signalPassFailure();
  }
  level = *parsed;
  if (!parseSelection())
    return signalPassFailure();
  if (!module.getOps<ProbesOp>().empty() || module->hasAttr(kProbesAttrName)) {
    module.emitWarning("tpu-profile-instrument: module is already "
                       "instrumented; leaving it unchanged");
    return;
  }

  // Select first, then rewrite: wrapping must not disturb the walk.
  SmallVector<Operation *> selected;
  select(module.getBodyRegion(), Scope::Outside, selected);
  if (level == Level::Kernel)
    absorbInitializers(selected);

  SmallVector<ProbeEntry> entries = describeAll(selected);
  SmallVector<Unit> units;
  if (level == Level::Kernel) {
    units = kernelUnits(selected, entries);
    nameKernels(units);
  } else if (level == Level::Node || level == Level::NodeGraph) {
    units = nodeUnits(selected, entries);
  } else {
    for (auto [op, entry] : llvm::zip(selected, entries))
      units.push_back(Unit{{op}, entry, false});
  }
  // In program order, a node's probe before its ops': wrapping the span
  // first puts the ops' probes inside it.
  SmallVector<ProbeEntry> probes;
  for (auto [id, unit] : llvm::enumerate(units)) {
    probes.push_back(unit.entry);
    if (unit.ops.size() > 1 || unit.region)
      wrapSpan(unit.ops.front(), unit.ops.back(), static_cast<int64_t>(id));
    else
      wrap(unit.ops.front(), static_cast<int64_t>(id));
  }

  OpBuilder::atBlockBegin(module.getBody())
      .create<ProbesOp>(module.getLoc(),
                        ProbeTableAttr::get(&getContext(), probes));
  if (!manifest.empty())
    writeManifest(probes);
}

/// Tags the ops the graph level would select by default with their names.
class TpuProfileTagSourcesPass
    : public tpuprof::impl::TpuProfileTagSourcesBase<TpuProfileTagSourcesPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Operation *> ops;
    collect(getOperation().getBodyRegion(), Scope::Outside, ops);
    for (Operation *op : ops) {
      if (auto fused = dyn_cast<FusedLoc>(op->getLoc());
          fused && sourceTag(fused))
        continue;
      MLIRContext *ctx = op->getContext();
      auto tag = DictionaryAttr::get(
          ctx, {NamedAttribute(StringAttr::get(ctx, kSourceTagKey),
                               op->getName().getIdentifier())});
      op->setLoc(FusedLoc::get(ctx, {op->getLoc()}, tag));
    }
  }

private:
  static void collect(Region &region, Scope scope,
                      SmallVectorImpl<Operation *> &ops) {
    for (Block &block : region)
      for (Operation &op : block) {
        if (scope == Scope::Function && !isNeverInstrumented(&op) &&
            !isUnregisteredConstant(&op) && isDefaultSelected(&op))
          ops.push_back(&op);
        Scope inner = scopeOfRegions(&op, scope);
        if (inner == Scope::Excluded)
          continue;
        for (Region &nested : op.getRegions())
          collect(nested, inner, ops);
      }
  }
};

} // namespace
