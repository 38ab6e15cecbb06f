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
#include <string>

using namespace mlir;

namespace {

/// Where one dimension of a value comes from: a dimension of an entry
/// argument, or a constant.
struct DimSource {
  enum Kind { Argument, Constant } kind;
  int64_t index; ///< The argument (Argument) or the size (Constant).
  unsigned dim = 0;

  int64_t size(llvm::ArrayRef<std::vector<int64_t>> shapes) const {
    return kind == Constant ? index : shapes[index][dim];
  }
  std::string describe() const {
    if (kind == Constant)
      return "a fixed size";
    return "dimension " + std::to_string(dim) + " of argument #" +
           std::to_string(index);
  }
};

class Tracer {
public:
  explicit Tracer(func::FuncOp entry) : entry(entry) {}

  /// Where dimension `dim` of `value` comes from, if it can be told.
  std::optional<DimSource> trace(Value value, unsigned dim,
                                 unsigned depth = 0) {
    auto shaped = dyn_cast<ShapedType>(value.getType());
    if (!shaped || !shaped.hasRank() || dim >= shaped.getRank())
      return std::nullopt;
    if (!shaped.isDynamicDim(dim))
      return DimSource{DimSource::Constant, shaped.getDimSize(dim)};
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() == &entry.getBody().front())
        return DimSource{DimSource::Argument, arg.getArgNumber(), dim};
      return std::nullopt;
    }
    // Chains are short; a bound keeps a pathological one cheap.
    if (depth > 64)
      return std::nullopt;
    auto key = std::make_pair(value.getAsOpaquePointer(), dim);
    if (auto it = memo.find(key); it != memo.end())
      return it->second;
    std::optional<DimSource> found = traceOp(value, dim, depth + 1);
    memo[key] = found;
    return found;
  }

  /// Where the index `size` comes from (tensor.dim, memref.dim, constant).
  std::optional<DimSource> traceIndex(Value size, unsigned depth) {
    APInt constant;
    if (matchPattern(size, m_ConstantInt(&constant)))
      return DimSource{DimSource::Constant, constant.getSExtValue()};
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
  std::optional<DimSource> traceOp(Value value, unsigned dim, unsigned depth) {
    Operation *op = value.getDefiningOp();
    unsigned result = cast<OpResult>(value).getResultNumber();
    if (isa<tensor::CastOp, memref::CastOp, bufferization::ToTensorOp,
            bufferization::ToMemrefOp>(op))
      return trace(op->getOperand(0), dim, depth);
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(op))
      if (result < dps.getNumDpsInits())
        return trace(dps.getDpsInitOperand(result)->get(), dim, depth);
    auto dynamicSize = [&](ValueRange sizes) -> std::optional<DimSource> {
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
  llvm::DenseMap<std::pair<void *, unsigned>, std::optional<DimSource>> memo;
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

llvm::Error
tpuprof::run::checkEntryShapes(func::FuncOp entry,
                               llvm::ArrayRef<std::vector<int64_t>> shapes) {
  if (entry.isExternal() || shapes.size() != entry.getNumArguments())
    return llvm::Error::success();
  Tracer tracer(entry);
  std::optional<std::string> problem;
  // Every dimension in `group` must have one size.
  auto agree = [&](Operation *op,
                   llvm::ArrayRef<std::optional<DimSource>> group) {
    const DimSource *first = nullptr;
    for (const std::optional<DimSource> &d : group) {
      if (!d || (d->kind == DimSource::Argument &&
                 (d->index >= int64_t(shapes.size()) ||
                  d->dim >= shapes[d->index].size())))
        continue;
      if (!first) {
        first = &*d;
        continue;
      }
      int64_t a = first->size(shapes), b = d->size(shapes);
      if (a == b)
        continue;
      const DimSource &arg = d->kind == DimSource::Argument ? *d : *first;
      const DimSource &other = &arg == &*d ? *first : *d;
      std::string shapesText;
      for (const DimSource *s : {&arg, &other})
        if (s->kind == DimSource::Argument &&
            shapesText.find("#" + std::to_string(s->index) + " ") ==
                std::string::npos)
          shapesText += std::string(shapesText.empty() ? "" : ", ") +
                        "argument #" + std::to_string(s->index) + " is " +
                        shapeText(shapes[s->index]);
      problem = "the argument shapes do not agree: " + describeOp(op) +
                " needs " + arg.describe() + " (" +
                std::to_string(arg.size(shapes)) + ") to equal " +
                other.describe() + " (" + std::to_string(other.size(shapes)) +
                ") (" + shapesText + ")";
      return false;
    }
    return true;
  };
  entry.walk([&](Operation *op) {
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      llvm::SmallVector<llvm::SmallVector<std::optional<DimSource>>> loops(
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
        if (!agree(op, group))
          return WalkResult::interrupt();
    } else if (auto matmul = dyn_cast<tosa::MatMulOp>(op)) {
      if (!agree(op, {tracer.trace(matmul.getA(), 0),
                      tracer.trace(matmul.getB(), 0)}) ||
          !agree(op, {tracer.trace(matmul.getA(), 2),
                      tracer.trace(matmul.getB(), 1)}))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (problem)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), *problem);
  return llvm::Error::success();
}
