//===- OpHash.cpp - Stable op hash and shape signature --------------------===//
//
// docs/hash.md is the specification; this file is its implementation.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/passes/mlir/OpHash.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using tpuprof::OpHasher;

namespace {
/// Fixed printing flags: the defaults follow --mlir-elide-elementsattrs-
/// if-larger and --mlir-print-elementsattrs-with-hex-if-larger, which would
/// make the hash depend on the command line.
OpPrintingFlags hashPrintingFlags() {
  OpPrintingFlags flags;
  flags.elideLargeElementsAttrs(std::numeric_limits<int64_t>::max())
      .printLargeElementsAttrWithHex(100);
  return flags;
}

void appendShape(Type type, llvm::raw_ostream &os, AsmState &state) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !isa<TensorType, BaseMemRefType>(type)) {
    type.print(os, state);
    return;
  }
  shaped.getElementType().print(os, state);
  os << '[';
  if (!shaped.hasRank()) {
    os << "*]";
    return;
  }
  llvm::interleave(
      shaped.getShape(), os,
      [&](int64_t d) {
        if (ShapedType::isDynamic(d))
          os << '?';
        else
          os << d;
      },
      ", ");
  os << ']';
}

/// Texts longer than this (large constants) are printed each time rather
/// than kept: they are rare, and keeping them would double their memory.
constexpr size_t kMaxCachedText = 1024;

/// Writes the text `cache` holds for `key`, printing it with `print` (and
/// keeping it when short) the first time.
template <typename Key, typename Print>
void appendCached(llvm::DenseMap<Key, std::string> &cache, Key key,
                  llvm::raw_ostream &os, Print print) {
  if (auto it = cache.find(key); it != cache.end()) {
    os << it->second;
    return;
  }
  std::string text;
  llvm::raw_string_ostream textOs(text);
  print(textOs);
  textOs.flush();
  os << text;
  if (text.size() <= kMaxCachedText)
    cache.try_emplace(key, std::move(text));
}
} // namespace

void OpHasher::appendAttr(Attribute attr, llvm::raw_ostream &os) {
  appendCached(attrText, attr, os,
               [&](llvm::raw_ostream &out) { attr.print(out, *hashState); });
}

void OpHasher::appendType(Type type, llvm::raw_ostream &os) {
  appendCached(typeText, type, os,
               [&](llvm::raw_ostream &out) { type.print(out, *hashState); });
}

void OpHasher::appendShapeOf(Type type, llvm::raw_ostream &os) {
  appendCached(shapeText, type, os, [&](llvm::raw_ostream &out) {
    appendShape(type, out, *shapeState);
  });
}

/// Appends `op`'s name, attributes (sorted by name, tpuprof's own skipped)
/// and operand/result types; then, recursively, the same for every op in its
/// regions, so that e.g. two linalg.generic with different bodies differ.
void OpHasher::appendOp(Operation *op, llvm::raw_ostream &os, unsigned depth) {
  os << "op:" << depth << ':' << op->getName().getStringRef() << '\n';
  // The attributes getAttrDictionary() returns (the discardable ones plus
  // inherent ones kept as properties, sorted by name), gathered without
  // uniquing a DictionaryAttr for every op hashed.
  DictionaryAttr discardable = op->getRawDictionaryAttrs();
  SmallVector<NamedAttribute> sorted(discardable.begin(), discardable.end());
  if (op->getPropertiesStorageSize()) {
    NamedAttrList inherent;
    op->getName().populateInherentAttrs(op, inherent);
    sorted.append(inherent.begin(), inherent.end());
    llvm::sort(sorted);
  }
  for (NamedAttribute attr : sorted) {
    if (attr.getName().strref().starts_with("tpuprof."))
      continue;
    os << "attr:" << attr.getName().strref() << '=';
    appendAttr(attr.getValue(), os);
    os << '\n';
  }
  for (Type t : op->getOperandTypes()) {
    os << "operand:";
    appendType(t, os);
    os << '\n';
  }
  for (Type t : op->getResultTypes()) {
    os << "result:";
    appendType(t, os);
    os << '\n';
  }
  for (Region &region : op->getRegions()) {
    os << "region\n";
    for (Block &block : region) {
      os << "block";
      for (Type t : block.getArgumentTypes()) {
        os << ' ';
        appendType(t, os);
      }
      os << '\n';
      for (Operation &nested : block)
        appendOp(&nested, os, depth + 1);
    }
  }
}

OpHasher::OpHasher(MLIRContext *context)
    : hashState(std::make_unique<AsmState>(context, hashPrintingFlags())),
      shapeState(std::make_unique<AsmState>(context)) {}

OpHasher::~OpHasher() = default;

std::string OpHasher::canonicalOpText(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << kOpHashVersion << '\n';
  appendOp(op, os, 0);
  return text;
}

uint64_t OpHasher::computeOpHash(Operation *op) {
  return llvm::xxh3_64bits(llvm::StringRef(canonicalOpText(op)));
}

std::string OpHasher::shapeSignature(TypeRange types) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(
      types, os, [&](Type t) { appendShapeOf(t, os); }, ", ");
  return text;
}

std::string tpuprof::canonicalOpText(Operation *op) {
  return OpHasher(op->getContext()).canonicalOpText(op);
}

uint64_t tpuprof::computeOpHash(Operation *op) {
  return OpHasher(op->getContext()).computeOpHash(op);
}

std::string tpuprof::shapeSignature(TypeRange types) {
  if (types.empty())
    return "";
  return OpHasher(types.front().getContext()).shapeSignature(types);
}

std::string tpuprof::formatShape(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  AsmState state(type.getContext());
  appendShape(type, os, state);
  return text;
}

unsigned tpuprof::countDynamicDims(TypeRange types) {
  unsigned n = 0;
  for (Type t : types)
    if (auto shaped = dyn_cast<ShapedType>(t); shaped && shaped.hasRank())
      n += shaped.getNumDynamicDims();
  return n;
}
