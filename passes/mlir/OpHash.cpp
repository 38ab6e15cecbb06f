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
/// Appends `op`'s name, attributes (sorted by name, tpuprof's own skipped)
/// and operand/result types; then, recursively, the same for every op in its
/// regions, so that e.g. two linalg.generic with different bodies differ.
void appendOp(Operation *op, llvm::raw_ostream &os, unsigned depth,
              AsmState &state) {
  os << "op:" << depth << ':' << op->getName().getStringRef() << '\n';
  // getAttrDictionary() includes inherent attributes kept as properties and
  // is sorted by name.
  for (NamedAttribute attr : op->getAttrDictionary()) {
    if (attr.getName().strref().starts_with("tpuprof."))
      continue;
    os << "attr:" << attr.getName().strref() << '=';
    attr.getValue().print(os, state);
    os << '\n';
  }
  // Types through the same state: `os << type` would build a new AsmState
  // for every type.
  for (Type t : op->getOperandTypes()) {
    os << "operand:";
    t.print(os, state);
    os << '\n';
  }
  for (Type t : op->getResultTypes()) {
    os << "result:";
    t.print(os, state);
    os << '\n';
  }
  for (Region &region : op->getRegions()) {
    os << "region\n";
    for (Block &block : region) {
      os << "block";
      for (Type t : block.getArgumentTypes()) {
        os << ' ';
        t.print(os, state);
      }
      os << '\n';
      for (Operation &nested : block)
        appendOp(&nested, os, depth + 1, state);
    }
  }
}

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
} // namespace

OpHasher::OpHasher(MLIRContext *context)
    : hashState(std::make_unique<AsmState>(context, hashPrintingFlags())),
      shapeState(std::make_unique<AsmState>(context)) {}

OpHasher::~OpHasher() = default;

std::string OpHasher::canonicalOpText(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << kOpHashVersion << '\n';
  appendOp(op, os, 0, *hashState);
  return text;
}

uint64_t OpHasher::computeOpHash(Operation *op) {
  return llvm::xxh3_64bits(llvm::StringRef(canonicalOpText(op)));
}

std::string OpHasher::shapeSignature(TypeRange types) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(
      types, os, [&](Type t) { appendShape(t, os, *shapeState); }, ", ");
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
