//===- EntryShapes.cpp - Do the entry's argument shapes agree? ------------===//

#include "tpuprof/ModelRunner/EntryShapes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Twine.h"

#include <optional>
#include <set>
#include <string>

using namespace mlir;
using tpuprof::run::DimEquality;
using tpuprof::run::DimRef;

namespace {

class Tracer {
public:
  explicit Tracer(func::FuncOp entry) : entry(entry) {}

  /// Where dimension `dim` of `value` comes from, if it can be told.
  std::optional<DimRef> trace(Value value, unsigned dim, unsigned depth = 0) {
    auto shaped = dyn_cast<ShapedType>(value.getType());
    if (!shaped || !shaped.hasRank() || dim >= shaped.getRank())
      return std::nullopt;
    if (!shaped.isDynamicDim(dim))
      return DimRef{DimRef::Fixed, shaped.getDimSize(dim)};
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() == &entry.getBody().front())
        return DimRef{DimRef::Argument, arg.getArgNumber(), dim};
      return std::nullopt;
    }
    // Chains are short; a bound keeps a pathological one cheap.
    if (depth > 64)
      return std::nullopt;
    auto key = std::make_pair(value.getAsOpaquePointer(), dim);
    if (auto it = memo.find(key); it != memo.end())
      return it->second;
    std::optional<DimRef> found = traceOp(value, dim, depth + 1);
    memo[key] = found;
    return found;
  }

  /// Where the index `size` comes from (tensor.dim, memref.dim, constant).
  std::optional<DimRef> traceIndex(Value size, unsigned depth) {
    APInt constant;
    if (matchPattern(size, m_ConstantInt(&constant)))
      return DimRef{DimRef::Fixed, constant.getSExtValue()};
    Value source, index;
    if (auto d = size.getDefiningOp<tensor::DimOp>())
      source = d.getSource(), index = d.getIndex();
    else if (auto d = size.getDefiningOp<memref::DimOp>())
      source = d.getSource(), index = d.getIndex();
    else
      return std::nullopt;
    if (!matchPattern(index, m_ConstantInt(&constant)))
      return std::nullopt;
    return trace(source, constant.getZExtValue(), depth);
  }

private:
  std::optional<DimRef> traceOp(Value value, unsigned dim, unsigned depth) {
    Operation *op = value.getDefiningOp();
    unsigned result = cast<OpResult>(value).getResultNumber();
    if (isa<tensor::CastOp, memref::CastOp, bufferization::ToTensorOp,
            bufferization::ToMemrefOp>(op))
      return trace(op->getOperand(0), dim, depth);
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(op))
      if (result < dps.getNumDpsInits())
        return trace(dps.getDpsInitOperand(result)->get(), dim, depth);
    auto dynamicSize = [&](ValueRange sizes) -> std::optional<DimRef> {
      auto shaped = cast<ShapedType>(value.getType());
      unsigned position = 0;
      for (unsigned i = 0; i < dim; ++i)
        position += shaped.isDynamicDim(i);
      if (position >= sizes.size())
        return std::nullopt;
      return traceIndex(sizes[position], depth);
    };
    if (auto empty = dyn_cast<tensor::EmptyOp>(op))
      return dynamicSize(empty.getDynamicSizes());
    if (auto alloc = dyn_cast<memref::AllocOp>(op))
      return dynamicSize(alloc.getDynamicSizes());
    if (auto matmul = dyn_cast<tosa::MatMulOp>(op)) {
      // [N, H, C] x [N, C, W] -> [N, H, W]
      if (dim < 2)
        return trace(matmul.getA(), dim, depth);
      return trace(matmul.getB(), 2, depth);
    }
    if (op->hasTrait<OpTrait::SameOperandsAndResultShape>() &&
        op->getNumOperands() > 0)
      return trace(op->getOperand(0), dim, depth);
    return std::nullopt;
  }

  func::FuncOp entry;
  llvm::DenseMap<std::pair<void *, unsigned>, std::optional<DimRef>> memo;
};

/// "linalg.matmul at model.mlir:10:8".
std::string describeOp(Operation *op) {
  std::string text = op->getName().getStringRef().str();
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
    text += " at " + loc.getFilename().str() + ":" +
            std::to_string(loc.getLine()) + ":" +
            std::to_string(loc.getColumn());
  return text;
}

/// "3x5" for an argument's --input shape.
std::string shapeText(llvm::ArrayRef<int64_t> shape) {
  std::string text;
  for (auto [i, d] : llvm::enumerate(shape))
    text += (i ? "x" : "") + std::to_string(d);
  return text;
}

} // namespace

std::string DimRef::describe() const {
  if (isFixed())
    return "a fixed size";
  return "dimension " + std::to_string(dim) + " of argument #" +
         std::to_string(index);
}

std::vector<DimEquality> tpuprof::run::entryDimEqualities(func::FuncOp entry) {
  std::vector<DimEquality> equalities;
  if (entry.isExternal())
    return equalities;
  Tracer tracer(entry);
  std::set<std::pair<DimRef, DimRef>> seen;
  // Every traced dimension in `group` equals the first one.
  auto addGroup = [&](Operation *op,
                      llvm::ArrayRef<std::optional<DimRef>> group) {
    const DimRef *first = nullptr;
    for (const std::optional<DimRef> &d : group) {
      if (!d)
        continue;
      if (!first) {
        first = &*d;
        continue;
      }
      if (first->isFixed() && d->isFixed())
        continue; // The verifier's business.
      DimRef a = d->isFixed() ? *first : *d, b = d->isFixed() ? *d : *first;
      if (a == b || !seen.insert({a, b}).second)
        continue;
      equalities.push_back({a, b, describeOp(op)});
    }
  };
  entry.walk([&](Operation *op) {
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      llvm::SmallVector<llvm::SmallVector<std::optional<DimRef>>> loops(
          linalgOp.getNumLoops());
      for (OpOperand &operand : op->getOpOperands()) {
        if (!isa<ShapedType>(operand.get().getType()))
          continue;
        AffineMap map = linalgOp.getMatchingIndexingMap(&operand);
        for (auto [position, expr] : llvm::enumerate(map.getResults()))
          if (auto loop = dyn_cast<AffineDimExpr>(expr))
            loops[loop.getPosition()].push_back(
                tracer.trace(operand.get(), position));
      }
      for (auto &group : loops)
        addGroup(op, group);
    } else if (auto matmul = dyn_cast<tosa::MatMulOp>(op)) {
      addGroup(
          op, {tracer.trace(matmul.getA(), 0), tracer.trace(matmul.getB(), 0)});
      addGroup(
          op, {tracer.trace(matmul.getA(), 2), tracer.trace(matmul.getB(), 1)});
    }
  });
  return equalities;
}

llvm::Error
tpuprof::run::checkDimEqualities(llvm::ArrayRef<DimEquality> equalities,
                                 llvm::ArrayRef<std::vector<int64_t>> shapes) {
  auto known = [&](const DimRef &d) {
    return d.isFixed() ||
           (d.index < int64_t(shapes.size()) && d.dim < shapes[d.index].size());
  };
  for (const DimEquality &e : equalities) {
    // A rank that does not match is the argument check's to report.
    if (!known(e.arg) || !known(e.other))
      continue;
    int64_t a = e.arg.size(shapes), b = e.other.size(shapes);
    if (a == b)
      continue;
    std::string shapesText = "argument #" + std::to_string(e.arg.index) +
                             " is " + shapeText(shapes[e.arg.index]);
    if (!e.other.isFixed() && e.other.index != e.arg.index)
      shapesText += ", argument #" + std::to_string(e.other.index) + " is " +
                    shapeText(shapes[e.other.index]);
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "the argument shapes do not agree: " + e.op + " needs " +
            e.arg.describe() + " (" + std::to_string(a) + ") to equal " +
            e.other.describe() + " (" + std::to_string(b) + ") (" + shapesText +
            ")");
  }
  return llvm::Error::success();
}

llvm::Error
tpuprof::run::checkEntryShapes(func::FuncOp entry,
                               llvm::ArrayRef<std::vector<int64_t>> shapes) {
  if (shapes.size() != entry.getNumArguments())
    return llvm::Error::success();
  return checkDimEqualities(entryDimEqualities(entry), shapes);
}
