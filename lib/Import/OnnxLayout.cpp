//===- OnnxLayout.cpp - Fewer NCHW/NHWC transposes in an imported graph ---===//
//
// Each ONNX Conv or pool becomes a transpose to NHWC, the TOSA op and a
// transpose back (OnnxOps.cpp). Between two convolutions the activations
// then travel NCHW through elementwise ops only to be transposed again. Here
// every transpose sinks through the elementwise ops and reductions that
// consume it (the op runs in the layout its input already has, and the
// transpose moves to its result), and two transposes in a row become one or
// none: a chain conv -> relu -> add -> conv stays NHWC and the transposes
// left are those at the graph's NCHW boundaries and before ops that need
// NCHW. Rewritten ops keep their locations; a sunk transpose takes the
// location of the one it replaces.
//
//===----------------------------------------------------------------------===//

#include "OnnxGraph.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;

namespace {

using Perm = llvm::SmallVector<int64_t, 4>;

/// The permutation of `op` when its perms are a constant.
std::optional<Perm> permOf(tosa::TransposeOp op) {
  DenseIntElementsAttr perms;
  if (!matchPattern(op.getPerms(), m_Constant(&perms)))
    return std::nullopt;
  Perm perm;
  for (const APInt &p : perms.getValues<APInt>())
    perm.push_back(p.getSExtValue());
  return perm;
}

bool isIdentity(llvm::ArrayRef<int64_t> perm) {
  for (auto [i, p] : llvm::enumerate(perm))
    if (p != (int64_t)i)
      return false;
  return true;
}

/// `shape` as transpose(_, perm) reads it: result[i] = shape[perm[i]].
Perm permuted(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> perm) {
  Perm out;
  for (int64_t p : perm)
    out.push_back(shape[p]);
  return out;
}

Perm inverse(llvm::ArrayRef<int64_t> perm) {
  Perm inv(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    inv[p] = i;
  return inv;
}

RankedTensorType withShape(Type type, llvm::ArrayRef<int64_t> shape) {
  return RankedTensorType::get(shape, cast<ShapedType>(type).getElementType());
}

/// At most one dimension above 1: any order of the dimensions is the same
/// data, so a transpose of it is a reshape.
bool isVectorLike(RankedTensorType type) {
  return llvm::count_if(type.getShape(), [](int64_t d) { return d != 1; }) <= 1;
}

Value createTranspose(RewriterBase &rewriter, Location loc, Value v,
                      llvm::ArrayRef<int64_t> perm) {
  llvm::SmallVector<int32_t> perms(perm.begin(), perm.end());
  auto permsType =
      RankedTensorType::get({(int64_t)perms.size()}, rewriter.getI32Type());
  Value permsValue = rewriter.create<tosa::ConstOp>(
      loc, permsType,
      DenseElementsAttr::get(permsType, llvm::ArrayRef<int32_t>(perms)));
  auto type = cast<RankedTensorType>(v.getType());
  return rewriter.create<tosa::TransposeOp>(
      loc, withShape(type, permuted(type.getShape(), perm)), v, permsValue);
}

/// transpose(transpose(x, p), q) -> transpose(x, p∘q), or x when that is
/// the identity.
LogicalResult mergeTransposes(tosa::TransposeOp op, RewriterBase &rewriter) {
  auto inner = op.getInput1().getDefiningOp<tosa::TransposeOp>();
  if (!inner)
    return failure();
  std::optional<Perm> p = permOf(inner), q = permOf(op);
  if (!p || !q)
    return failure();
  Perm composed = permuted(*p, *q);
  if (isIdentity(composed) && inner.getInput1().getType() == op.getType()) {
    rewriter.replaceOp(op, inner.getInput1());
    return success();
  }
  rewriter.replaceOp(
      op, createTranspose(rewriter, op.getLoc(), inner.getInput1(), composed));
  return success();
}

/// A transpose of a tensor with at most one dimension above 1 is a
/// reshape (no data moves); an identity transpose is its input.
LogicalResult transposeAsReshape(tosa::TransposeOp op, RewriterBase &rewriter) {
  auto in = dyn_cast<RankedTensorType>(op.getInput1().getType());
  auto out = dyn_cast<RankedTensorType>(op.getType());
  if (!in || !out || !in.hasStaticShape() || !out.hasStaticShape())
    return failure();
  std::optional<Perm> perm = permOf(op);
  if (perm && isIdentity(*perm) && in == out) {
    rewriter.replaceOp(op, op.getInput1());
    return success();
  }
  if (!isVectorLike(in))
    return failure();
  rewriter.replaceOpWithNewOp<tosa::ReshapeOp>(
      op, out, op.getInput1(), rewriter.getDenseI64ArrayAttr(out.getShape()));
  return success();
}

/// op(transpose(a, p), transpose(b, p), c) -> transpose(op(a, b, c'), p)
/// for an elementwise op, where c is a tensor with at most one dimension
/// above 1 (a bias, a scalar) and c' its reshape to the untransposed
/// layout. The op then runs in the layout its operands already have.
LogicalResult sinkThroughElementwise(Operation *op, RewriterBase &rewriter) {
  if (!isa<tosa::TosaDialect>(op->getDialect()) ||
      !op->hasTrait<OpTrait::ResultsBroadcastableShape>() ||
      op->getNumResults() != 1 || op->getNumRegions() != 0)
    return failure();
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!resultType || !resultType.hasStaticShape())
    return failure();
  // The permutation, from the first transposed operand.
  std::optional<Perm> perm;
  tosa::TransposeOp first;
  for (Value operand : op->getOperands())
    if (auto t = operand.getDefiningOp<tosa::TransposeOp>()) {
      perm = permOf(t);
      first = t;
      break;
    }
  if (!perm || (int64_t)perm->size() != resultType.getRank())
    return failure();
  // Worth it when a transpose goes away: one of them is used only here.
  // (Else the op's result would need one more transpose than before.)
  bool removesOne = false;
  for (Value operand : op->getOperands())
    if (auto t = operand.getDefiningOp<tosa::TransposeOp>())
      removesOne |= permOf(t) == perm && t->hasOneUse();
  if (!removesOne)
    return failure();
  Perm inv = inverse(*perm);
  llvm::SmallVector<Value> operands;
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    if (!type || type.getRank() != resultType.getRank() ||
        !type.hasStaticShape())
      return failure();
    if (auto t = operand.getDefiningOp<tosa::TransposeOp>();
        t && permOf(t) == perm) {
      operands.push_back(t.getInput1());
      continue;
    }
    if (!isVectorLike(type))
      return failure();
    Perm shape = permuted(type.getShape(), inv);
    operands.push_back(type.getShape() == llvm::ArrayRef<int64_t>(shape)
                           ? operand
                           : rewriter.create<tosa::ReshapeOp>(
                                 op->getLoc(), withShape(type, shape), operand,
                                 rewriter.getDenseI64ArrayAttr(shape)));
  }
  Operation *moved = rewriter.clone(*op);
  moved->setOperands(operands);
  moved->getResult(0).setType(
      withShape(resultType, permuted(resultType.getShape(), inv)));
  rewriter.replaceOp(op, createTranspose(rewriter, first.getLoc(),
                                         moved->getResult(0), *perm));
  return success();
}

/// reduce(transpose(x, p), axis) -> transpose(reduce(x, p[axis]), p): TOSA's
/// reductions keep the reduced dimension, so only the axis changes.
template <typename Reduce>
LogicalResult sinkThroughReduce(Reduce op, RewriterBase &rewriter) {
  auto t = op.getInput().template getDefiningOp<tosa::TransposeOp>();
  if (!t)
    return failure();
  std::optional<Perm> perm = permOf(t);
  auto resultType = dyn_cast<RankedTensorType>(op.getType());
  if (!perm || !resultType || !resultType.hasStaticShape())
    return failure();
  int64_t axis = (*perm)[op.getAxis()];
  auto reduced = rewriter.create<Reduce>(
      op.getLoc(),
      withShape(resultType, permuted(resultType.getShape(), inverse(*perm))),
      t.getInput1(), rewriter.getI32IntegerAttr(axis));
  rewriter.replaceOp(op, createTranspose(rewriter, t.getLoc(), reduced, *perm));
  return success();
}

/// One rewrite of `op`, if one applies.
LogicalResult rewriteOnce(Operation *op, IRRewriter &rewriter) {
  rewriter.setInsertionPoint(op);
  if (auto t = dyn_cast<tosa::TransposeOp>(op))
    return success(succeeded(mergeTransposes(t, rewriter)) ||
                   succeeded(transposeAsReshape(t, rewriter)));
  if (auto r = dyn_cast<tosa::ReduceSumOp>(op))
    return sinkThroughReduce(r, rewriter);
  if (auto r = dyn_cast<tosa::ReduceMaxOp>(op))
    return sinkThroughReduce(r, rewriter);
  if (auto r = dyn_cast<tosa::ReduceMinOp>(op))
    return sinkThroughReduce(r, rewriter);
  if (auto r = dyn_cast<tosa::ReduceProdOp>(op))
    return sinkThroughReduce(r, rewriter);
  return sinkThroughElementwise(op, rewriter);
}

/// Erases the transposes and reshapes nothing uses any more, with their
/// permutation constants.
void eraseDeadLayoutOps(Block &block) {
  llvm::SmallVector<Operation *> ops;
  for (Operation &op : block)
    ops.push_back(&op);
  llvm::SmallPtrSet<Operation *, 16> perms;
  for (Operation *op : llvm::reverse(ops)) {
    if (!isa<tosa::TransposeOp, tosa::ReshapeOp>(op) || !op->use_empty())
      continue;
    if (isa<tosa::TransposeOp>(op))
      if (Operation *p = op->getOperand(1).getDefiningOp<tosa::ConstOp>())
        perms.insert(p);
    op->erase();
  }
  for (Operation *p : perms)
    if (p->use_empty())
      p->erase();
  // Permutations of transposes merged away earlier.
  for (Operation &op : llvm::make_early_inc_range(block))
    if (auto c = dyn_cast<tosa::ConstOp>(op);
        c && c->use_empty() && c.getType().getRank() == 1 &&
        c.getType().getElementType().isInteger(32))
      c->erase();
}

} // namespace

void tpuprof::import::reduceLayoutTransposes(func::FuncOp fn) {
  IRRewriter rewriter(fn.getContext());
  // Program order: a transpose sunk past an op meets that op's users later
  // in the same sweep. A few sweeps reach what one does not.
  for (int sweep = 0; sweep < 8; ++sweep) {
    bool changed = false;
    for (Block &block : fn.getBody()) {
      llvm::SmallVector<Operation *> ops;
      for (Operation &op : block)
        ops.push_back(&op);
      for (Operation *op : ops)
        changed |= succeeded(rewriteOnce(op, rewriter));
      eraseDeadLayoutOps(block);
    }
    if (!changed)
      return;
  }
}
