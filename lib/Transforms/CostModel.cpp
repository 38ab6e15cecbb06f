//===- CostModel.cpp - Static FLOP and byte estimates ---------------------===//
//
// Rules (docs/cost-model.md):
//  - any linalg structured op with static loop ranges: loop-nest points x
//    arithmetic ops in its body (casts, linalg.index and the yield excluded);
//  - tosa matmul / fully_connected / conv2d / depthwise_conv2d / pools /
//    reductions by their definitions; tosa elementwise ops: one per element;
//  - bytes: sum of the static sizes of all operands and results.
// Anything dynamic or unknown is 0.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/Transforms/CostModel.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/CastInterfaces.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace {
/// Element count of a statically shaped type, nullopt otherwise.
std::optional<uint64_t> staticElements(Type t) {
  auto shaped = dyn_cast<ShapedType>(t);
  if (!shaped)
    return 1;
  if (!shaped.hasStaticShape())
    return std::nullopt;
  return static_cast<uint64_t>(shaped.getNumElements());
}

std::optional<uint64_t> staticBytes(Type t) {
  Type elem = t;
  if (auto shaped = dyn_cast<ShapedType>(t))
    elem = shaped.getElementType();
  uint64_t bits;
  if (elem.isIntOrFloat())
    bits = elem.getIntOrFloatBitWidth();
  else if (elem.isIndex())
    bits = 64;
  else if (auto c = dyn_cast<ComplexType>(elem);
           c && c.getElementType().isIntOrFloat())
    bits = 2 * c.getElementType().getIntOrFloatBitWidth();
  else
    return std::nullopt;
  std::optional<uint64_t> n = staticElements(t);
  if (!n)
    return std::nullopt;
  return (*n * bits + 7) / 8;
}

/// Static dimensions of operand/result `t`, empty when not ranked & static.
SmallVector<uint64_t> dims(Type t) {
  auto shaped = dyn_cast<ShapedType>(t);
  if (!shaped || !shaped.hasStaticShape())
    return {};
  return SmallVector<uint64_t>(shaped.getShape().begin(),
                               shaped.getShape().end());
}

uint64_t product(ArrayRef<uint64_t> xs) {
  uint64_t p = 1;
  for (uint64_t x : xs)
    p *= x;
  return p;
}

bool isCast(Operation &op) {
  return isa<CastOpInterface>(op) ||
         op.getName().getStringRef().starts_with("arith.ext") ||
         op.getName().getStringRef().starts_with("arith.trunc");
}

uint64_t linalgFlops(linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  uint64_t points = 1;
  for (int64_t r : ranges) {
    if (ShapedType::isDynamic(r))
      return 0;
    points *= static_cast<uint64_t>(r);
  }
  Block *body = op.getBlock();
  if (!body)
    return 0;
  uint64_t perPoint = 0;
  for (Operation &inner : body->without_terminator())
    if (!isa<linalg::IndexOp>(inner) && !isCast(inner))
      ++perPoint;
  return points * perPoint;
}

uint64_t tosaFlops(Operation *op) {
  StringRef name = op->getName().getStringRef().drop_front(strlen("tosa."));
  if (op->getNumResults() == 0)
    return 0;
  SmallVector<uint64_t> out = dims(op->getResult(0).getType());
  if (out.empty() && !isa<ShapedType>(op->getResult(0).getType()))
    return 0;
  auto operandDims = [&](unsigned i) {
    return i < op->getNumOperands() ? dims(op->getOperand(i).getType())
                                    : SmallVector<uint64_t>();
  };
  if (name == "matmul") { // [N,H,C] x [N,C,W] -> [N,H,W]
    SmallVector<uint64_t> a = operandDims(0);
    if (a.size() != 3 || out.size() != 3)
      return 0;
    return 2 * product(out) * a[2];
  }
  if (name == "fully_connected") { // [N,IC] x [OC,IC] + [OC] -> [N,OC]
    SmallVector<uint64_t> a = operandDims(0);
    if (a.size() != 2 || out.size() != 2)
      return 0;
    return 2 * product(out) * a[1] + product(out);
  }
  if (name == "conv2d" || name == "conv3d") { // weight [OC, K..., IC]
    SmallVector<uint64_t> w = operandDims(1);
    if (w.size() < 3 || out.empty())
      return 0;
    uint64_t macs = product(out) * product(ArrayRef<uint64_t>(w).drop_front());
    return 2 * macs + product(out);
  }
  if (name == "depthwise_conv2d") { // weight [KH, KW, C, M]
    SmallVector<uint64_t> w = operandDims(1);
    if (w.size() != 4 || out.empty())
      return 0;
    return 2 * product(out) * w[0] * w[1] + product(out);
  }
  if (name == "avg_pool2d" || name == "max_pool2d") {
    auto kernel = op->getAttrOfType<DenseI64ArrayAttr>("kernel");
    if (!kernel || out.empty())
      return 0;
    uint64_t k = 1;
    for (int64_t x : kernel.asArrayRef())
      k *= static_cast<uint64_t>(x);
    return product(out) * k;
  }
  if (name.starts_with("reduce_")) {
    SmallVector<uint64_t> in = operandDims(0);
    return in.empty() ? 0 : product(in);
  }
  bool elementwise =
      llvm::StringSwitch<bool>(name)
          .Cases("add", "sub", "mul", "int_div", "maximum", "minimum", "pow",
                 true)
          .Cases("abs", "negate", "exp", "log", "reciprocal", "rsqrt", "tanh",
                 true)
          .Cases("sigmoid", "clamp", "ceil", "floor", "erf", "cos", "sin", true)
          .Cases("select", "equal", "greater", "greater_equal", "cast",
                 "rescale", true)
          .Cases("logical_and", "logical_or", "logical_xor", "logical_not",
                 true)
          .Cases("bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not",
                 true)
          .Cases("arithmetic_right_shift", "logical_left_shift",
                 "logical_right_shift", "clz", "table", true)
          .Default(false);
  return elementwise && !out.empty() ? product(out) : 0;
}
} // namespace

uint64_t tpuprof::estimateFlops(Operation *op) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return linalgFlops(linalgOp);
  if (op->getName().getStringRef().starts_with("tosa."))
    return tosaFlops(op);
  return 0;
}

uint64_t tpuprof::estimateBytes(Operation *op) {
  uint64_t total = 0;
  for (TypeRange types :
       {TypeRange(op->getOperandTypes()), TypeRange(op->getResultTypes())})
    for (Type t : types) {
      std::optional<uint64_t> b = staticBytes(t);
      if (!b)
        return 0;
      total += *b;
    }
  return total;
}
