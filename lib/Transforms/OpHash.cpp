//===- OpHash.cpp - Stable op hash and shape signature --------------------===//
//
// docs/hash.md is the specification; this file is its implementation.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/Transforms/OpHash.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"
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

/// Appends the text `cache` holds for `key` to `out`, printing it with
/// `print` (and keeping it when short) the first time.
template <typename Key, typename Print>
void appendCached(llvm::DenseMap<Key, std::string> &cache, Key key,
                  llvm::SmallVectorImpl<char> &out, Print print) {
  if (auto it = cache.find(key); it != cache.end()) {
    out.append(it->second.begin(), it->second.end());
    return;
  }
  std::string text;
  llvm::raw_string_ostream textOs(text);
  print(textOs);
  out.append(text.begin(), text.end());
  if (text.size() <= kMaxCachedText)
    cache.try_emplace(key, std::move(text));
}

void append(llvm::SmallVectorImpl<char> &out, llvm::StringRef text) {
  out.append(text.begin(), text.end());
}
} // namespace

void OpHasher::appendAttr(Attribute attr) {
  appendCached(attrText, attr, text,
               [&](llvm::raw_ostream &out) { attr.print(out, *hashState); });
}

void OpHasher::appendType(Type type) {
  appendCached(typeText, type, text,
               [&](llvm::raw_ostream &out) { type.print(out, *hashState); });
}

void OpHasher::appendShapeOf(Type type, llvm::SmallVectorImpl<char> &out) {
  appendCached(shapeText, type, out, [&](llvm::raw_ostream &os) {
    appendShape(type, os, *shapeState);
  });
}

/// Appends `op`'s name, attributes (sorted by name, tpuprof's own skipped)
/// and operand/result types; then, recursively, the same for every op in its
/// regions, so that e.g. two linalg.generic with different bodies differ.
/// Writes straight into `text`: it runs for every op and nested op, and most
/// of what it writes is cached text.
void OpHasher::appendOp(Operation *op, unsigned depth) {
  append(text, "op:");
  llvm::raw_svector_ostream(text) << depth;
  text.push_back(':');
  append(text, op->getName().getStringRef());
  text.push_back('\n');
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
    append(text, "attr:");
    append(text, attr.getName().strref());
    text.push_back('=');
    appendAttr(attr.getValue());
    text.push_back('\n');
  }
  for (Type t : op->getOperandTypes()) {
    append(text, "operand:");
    appendType(t);
    text.push_back('\n');
  }
  for (Type t : op->getResultTypes()) {
    append(text, "result:");
    appendType(t);
    text.push_back('\n');
  }
  for (Region &region : op->getRegions()) {
    append(text, "region\n");
    for (Block &block : region) {
      append(text, "block");
      for (Type t : block.getArgumentTypes()) {
        text.push_back(' ');
        appendType(t);
      }
      text.push_back('\n');
      for (Operation &nested : block)
        appendOp(&nested, depth + 1);
    }
  }
}

OpHasher::OpHasher(MLIRContext *context)
    : hashState(std::make_unique<AsmState>(context, hashPrintingFlags())),
      shapeState(std::make_unique<AsmState>(context)) {}

OpHasher::~OpHasher() = default;

void OpHasher::buildText(Operation *op) {
  text.clear();
  append(text, kOpHashVersion);
  text.push_back('\n');
  appendOp(op, 0);
}

std::string OpHasher::canonicalOpText(Operation *op) {
  buildText(op);
  return std::string(text.begin(), text.end());
}

uint64_t OpHasher::computeOpHash(Operation *op) {
  buildText(op);
  return llvm::xxh3_64bits(llvm::ArrayRef(
      reinterpret_cast<const uint8_t *>(text.data()), text.size()));
}

std::string OpHasher::shapeSignature(TypeRange types) {
  llvm::SmallString<128> out;
  llvm::interleave(
      types, [&](Type t) { appendShapeOf(t, out); },
      [&] { append(out, ", "); });
  return std::string(out);
}

std::string tpuprof::canonicalOpText(Operation *op) {
  return OpHasher(op->getContext()).canonicalOpText(op);
}

uint64_t tpuprof::computeOpHash(Operation *op) {
  return OpHasher(op->getContext()).computeOpHash(op);
}

std::string tpuprof::canonicalRegionText(StringRef kind,
                                         ArrayRef<uint64_t> opHashes) {
  std::string text = (kRegionHashVersion + "\nregion:" + kind + "\n").str();
  for (uint64_t hash : opHashes)
    text +=
        "op:" + llvm::utohexstr(hash, /*LowerCase=*/true, /*Width=*/16) + "\n";
  return text;
}

uint64_t tpuprof::computeRegionHash(StringRef kind,
                                    ArrayRef<uint64_t> opHashes) {
  std::string text = canonicalRegionText(kind, opHashes);
  return llvm::xxh3_64bits(llvm::ArrayRef(
      reinterpret_cast<const uint8_t *>(text.data()), text.size()));
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
