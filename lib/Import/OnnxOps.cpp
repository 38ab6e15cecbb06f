//===- OnnxOps.cpp - ONNX op types to TOSA
//---------------------------------===//
//
// One converter per ONNX op type, and the table that names them. Shapes
// come from ONNX shape inference (NodeContext::outputType), so converters
// only choose ops. TOSA's convolutions and pools work on NHWC with OHWI
// weights: a Conv or pool on NCHW is a transpose, the op and a transpose
// back (constant weights are rearranged here, once).
//
//===----------------------------------------------------------------------===//

#include "OnnxGraph.h"
#include "OnnxWeights.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "llvm/ADT/StringMap.h"

#include <array>
#include <cmath>
#include <limits>
#include <numeric>

using namespace mlir;
using namespace tpuprof::import;
using llvm::Error;
using llvm::Expected;

namespace {

// Unwraps an Expected into `var` or returns its error.
#define TRY(var, expr)                                                         \
  auto var##OrErr = (expr);                                                    \
  if (!var##OrErr)                                                             \
    return var##OrErr.takeError();                                             \
  auto &var = *var##OrErr

//===----------------------------------------------------------------------===//
// Building blocks
//===----------------------------------------------------------------------===//

RankedTensorType withShape(Type type, llvm::ArrayRef<int64_t> shape) {
  return RankedTensorType::get(shape, cast<ShapedType>(type).getElementType());
}

llvm::ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}

Type elemOf(Value v) { return cast<ShapedType>(v.getType()).getElementType(); }

Value reshape(NodeContext &c, Value v, llvm::ArrayRef<int64_t> shape) {
  if (shapeOf(v) == shape)
    return v;
  return c.b.create<tosa::ReshapeOp>(c.loc, withShape(v.getType(), shape), v,
                                     c.b.getDenseI64ArrayAttr(shape));
}

Value transpose(NodeContext &c, Value v, llvm::ArrayRef<int64_t> perm) {
  llvm::SmallVector<int32_t> perms(perm.begin(), perm.end());
  auto permsType =
      RankedTensorType::get({(int64_t)perms.size()}, c.b.getI32Type());
  Value permsValue = c.b.create<tosa::ConstOp>(
      c.loc, permsType,
      DenseElementsAttr::get(permsType, llvm::ArrayRef<int32_t>(perms)));
  llvm::SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(shapeOf(v)[p]);
  return c.b.create<tosa::TransposeOp>(c.loc, withShape(v.getType(), shape), v,
                                       permsValue);
}

/// A constant of `elem` type and `shape` filled with `value`.
Value splat(NodeContext &c, Type elem, llvm::ArrayRef<int64_t> shape,
            double value) {
  auto type = RankedTensorType::get(shape, elem);
  Attribute scalar = isa<FloatType>(elem)
                         ? Attribute(c.b.getFloatAttr(elem, value))
                         : Attribute(c.b.getIntegerAttr(elem, (int64_t)value));
  return c.b.create<tosa::ConstOp>(c.loc, type,
                                   DenseElementsAttr::get(type, scalar));
}

/// A rank-`rank` [1, ..., 1] constant, for broadcasting a scalar.
Value scalarLike(NodeContext &c, Value like, double value) {
  return splat(c, elemOf(like),
               llvm::SmallVector<int64_t>(shapeOf(like).size(), 1), value);
}

/// `v` reshaped to `rank` dimensions by leading ones (numpy broadcasting).
Value toRank(NodeContext &c, Value v, size_t rank) {
  llvm::ArrayRef<int64_t> shape = shapeOf(v);
  if (shape.size() >= rank)
    return v;
  llvm::SmallVector<int64_t> padded(rank - shape.size(), 1);
  padded.append(shape.begin(), shape.end());
  return reshape(c, v, padded);
}

llvm::SmallVector<int64_t> broadcastShape(llvm::ArrayRef<int64_t> a,
                                          llvm::ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  llvm::SmallVector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i + a.size() >= rank ? a[i + a.size() - rank] : 1;
    int64_t db = i + b.size() >= rank ? b[i + b.size() - rank] : 1;
    out[i] = da == 1 ? db : da;
  }
  return out;
}

/// An elementwise binary TOSA op with numpy broadcasting.
template <typename OpTy> Value binary(NodeContext &c, Value a, Value b) {
  size_t rank = std::max(shapeOf(a).size(), shapeOf(b).size());
  a = toRank(c, a, rank);
  b = toRank(c, b, rank);
  auto type = withShape(a.getType(), broadcastShape(shapeOf(a), shapeOf(b)));
  if constexpr (std::is_same_v<OpTy, tosa::MulOp>)
    return c.b.create<tosa::MulOp>(c.loc, type, a, b, c.b.getI8IntegerAttr(0));
  else
    return c.b.create<OpTy>(c.loc, type, a, b);
}

Value mulBy(NodeContext &c, Value v, double factor) {
  return binary<tosa::MulOp>(c, v, scalarLike(c, v, factor));
}

int64_t normalizeAxis(int64_t axis, size_t rank) {
  return axis < 0 ? axis + static_cast<int64_t>(rank) : axis;
}

/// A reduction along `axis` (TOSA keeps the dimension, as size 1).
template <typename OpTy> Value reduce(NodeContext &c, Value v, int64_t axis) {
  llvm::SmallVector<int64_t> shape(shapeOf(v));
  shape[axis] = 1;
  return c.b.create<OpTy>(c.loc, withShape(v.getType(), shape), v,
                          c.b.getI32IntegerAttr(axis));
}

Value clamp(NodeContext &c, Value v, double lo, double hi) {
  auto toInt = [](double x) {
    return x >= 0x1p63    ? std::numeric_limits<int64_t>::max()
           : x <= -0x1p63 ? std::numeric_limits<int64_t>::min()
                          : static_cast<int64_t>(x);
  };
  auto toFloat = [](double x) {
    return static_cast<float>(
        std::clamp<double>(x, -std::numeric_limits<float>::max(),
                           std::numeric_limits<float>::max()));
  };
  return c.b.create<tosa::ClampOp>(
      c.loc, v.getType(), v, c.b.getI64IntegerAttr(toInt(lo)),
      c.b.getI64IntegerAttr(toInt(hi)), c.b.getF32FloatAttr(toFloat(lo)),
      c.b.getF32FloatAttr(toFloat(hi)));
}

Value cast(NodeContext &c, Value v, Type elem);

/// Floats to int64, rounded to nearest even as TOSA's cast rounds: MLIR
/// 19's lowering of a cast to i64 saturates every value to INT64_MAX (its
/// upper bound overflows), so the value goes as two int32 halves in f64:
/// hi = floor(x / 2^32) and lo = x - hi * 2^32 - 2^31, then
/// hi * 2^32 + lo + 2^31 in int64.
Value floatToInt64(NodeContext &c, Value v) {
  Type f64 = c.b.getF64Type(), i32 = c.b.getI32Type(), i64 = c.b.getI64Type();
  Value x = cast(c, v, f64);
  Value hi = mulBy(c, x, 0x1p-32);
  hi = c.b.create<tosa::FloorOp>(c.loc, hi.getType(), hi);
  Value lo = binary<tosa::SubOp>(c, x, mulBy(c, hi, 0x1p32));
  lo = binary<tosa::AddOp>(c, lo, scalarLike(c, lo, -0x1p31));
  Value hi64 = cast(c, cast(c, hi, i32), i64);
  Value lo64 = cast(c, cast(c, lo, i32), i64);
  Value sum = binary<tosa::AddOp>(c, mulBy(c, hi64, 0x1p32), lo64);
  return binary<tosa::AddOp>(c, sum, scalarLike(c, sum, 0x1p31));
}

Value cast(NodeContext &c, Value v, Type elem) {
  if (elemOf(v) == elem)
    return v;
  if (isa<FloatType>(elemOf(v)) && elem.isInteger(64))
    return floatToInt64(c, v);
  return c.b.create<tosa::CastOp>(c.loc,
                                  RankedTensorType::get(shapeOf(v), elem), v);
}

RankedTensorType boolLike(NodeContext &c, llvm::ArrayRef<int64_t> shape) {
  return RankedTensorType::get(shape, c.b.getI1Type());
}

/// A comparison (or logical op) with numpy broadcasting: a tensor of i1.
template <typename OpTy> Value compare(NodeContext &c, Value a, Value b) {
  size_t rank = std::max(shapeOf(a).size(), shapeOf(b).size());
  a = toRank(c, a, rank);
  b = toRank(c, b, rank);
  return c.b.create<OpTy>(
      c.loc, boolLike(c, broadcastShape(shapeOf(a), shapeOf(b))), a, b);
}

Value select(NodeContext &c, Value cond, Value a, Value b) {
  size_t rank =
      std::max({shapeOf(cond).size(), shapeOf(a).size(), shapeOf(b).size()});
  cond = toRank(c, cond, rank);
  a = toRank(c, a, rank);
  b = toRank(c, b, rank);
  auto shape =
      broadcastShape(broadcastShape(shapeOf(cond), shapeOf(a)), shapeOf(b));
  return c.b.create<tosa::SelectOp>(c.loc, withShape(a.getType(), shape), cond,
                                    a, b);
}

Value addScalar(NodeContext &c, Value v, double value) {
  return binary<tosa::AddOp>(c, v, scalarLike(c, v, value));
}

//===----------------------------------------------------------------------===//
// Unsigned integers
//
// ONNX's uint8..uint64 are signless i8..i64 here (TOSA is signless), with
// the same bits. Add, Sub, Mul, shapes and data movement do not depend on
// the sign; where a result does, converters ask NodeContext which operands
// are unsigned and use these.
//===----------------------------------------------------------------------===//

unsigned intWidth(Value v) { return elemOf(v).getIntOrFloatBitWidth(); }

/// `v` with its sign bit flipped: unsigned order becomes signed order, so
/// that signed comparisons, maximum, minimum and max pools order unsigned
/// values correctly (flip again after a maximum or minimum).
Value flipSignBit(NodeContext &c, Value v) {
  double signBit = -std::ldexp(1.0, static_cast<int>(intWidth(v)) - 1);
  Value bit = scalarLike(c, v, signBit);
  size_t rank = shapeOf(v).size();
  return c.b.create<tosa::BitwiseXorOp>(c.loc, v.getType(), v,
                                        toRank(c, bit, rank));
}

/// The unsigned integers `v` widened to `wider` (an integer type of more
/// bits): TOSA's cast extends the sign, the mask clears it again.
Value zeroExtend(NodeContext &c, Value v, Type wider) {
  double mask = std::ldexp(1.0, static_cast<int>(intWidth(v))) - 1;
  Value extended = c.b.create<tosa::CastOp>(
      c.loc, RankedTensorType::get(shapeOf(v), wider), v);
  return c.b.create<tosa::BitwiseAndOp>(c.loc, extended.getType(), extended,
                                        scalarLike(c, extended, mask));
}

/// `v` cast to `to` where either side may hold unsigned integers: from
/// unsigned, widening zero-extends (through i32 or i64, then to `to`:
/// integers and floats alike), uint64 above INT64_MAX converts to floats
/// as 2^64 more than its signed reading; to unsigned from floats, the value
/// goes through a wider signed integer so that TOSA's cast does not clamp
/// it to the signed range. Narrowing keeps the low bits either way.
Value castUnsigned(NodeContext &c, Value v, bool fromUnsigned, Type to,
                   bool toUnsigned) {
  Type from = elemOf(v);
  if (from == to)
    return v;
  auto fromInt = dyn_cast<IntegerType>(from);
  if (fromUnsigned && fromInt && !to.isInteger(1)) {
    unsigned width = fromInt.getWidth();
    if (isa<IntegerType>(to) && to.getIntOrFloatBitWidth() <= width)
      return cast(c, v, to);
    if (width < 64) {
      Type wide = width < 32 ? c.b.getI32Type() : c.b.getI64Type();
      return cast(c, zeroExtend(c, v, wide), to);
    }
    Value converted = cast(c, v, to);
    Value negative = c.b.create<tosa::GreaterOp>(c.loc, boolLike(c, shapeOf(v)),
                                                 scalarLike(c, v, 0), v);
    return select(c, negative, addScalar(c, converted, 0x1p64), converted);
  }
  if (toUnsigned && isa<FloatType>(from) && isa<IntegerType>(to) &&
      to.getIntOrFloatBitWidth() < 64)
    return cast(c,
                cast(c, v,
                     to.getIntOrFloatBitWidth() < 32 ? c.b.getI32Type()
                                                     : c.b.getI64Type()),
                to);
  return cast(c, v, to);
}

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

Error passThrough(NodeContext &c) {
  TRY(x, c.input(0));
  for (int i = 1; i < c.node.output_size(); ++i)
    if (!c.node.output(i).empty())
      return c.unsupported("output " + llvm::Twine(i) + " is used");
  c.setOutput(0, x);
  return Error::success();
}

template <typename OpTy> Error unary(NodeContext &c) {
  TRY(x, c.input(0));
  c.setOutput(0, c.b.create<OpTy>(c.loc, x.getType(), x));
  return Error::success();
}

template <typename OpTy> Error binaryOp(NodeContext &c) {
  TRY(a, c.input(0));
  TRY(b, c.input(1));
  c.setOutput(0, binary<OpTy>(c, a, b));
  return Error::success();
}

/// Max, Min, Sum: variadic, folded pairwise. Max and Min of unsigned
/// integers compare with the sign bits flipped.
template <typename OpTy> Error variadic(NodeContext &c) {
  constexpr bool ordered = !std::is_same_v<OpTy, tosa::AddOp>;
  bool flip = ordered && c.outputIsUnsigned(0);
  TRY(acc, c.input(0));
  Value result = flip ? flipSignBit(c, acc) : acc;
  for (int i = 1; i < c.node.input_size(); ++i) {
    TRY(next, c.input(i));
    result = binary<OpTy>(c, result, flip ? flipSignBit(c, next) : next);
  }
  c.setOutput(0, flip ? flipSignBit(c, result) : result);
  return Error::success();
}

Error convertDiv(NodeContext &c) {
  TRY(a, c.input(0));
  TRY(b, c.input(1));
  Type elem = elemOf(a);
  bool isUnsigned = c.outputIsUnsigned(0);
  if (isa<FloatType>(elem)) {
    Value inv = c.b.create<tosa::ReciprocalOp>(c.loc, b.getType(), b);
    c.setOutput(0, binary<tosa::MulOp>(c, a, inv));
  } else if (elem.isInteger(32) && !isUnsigned) {
    c.setOutput(0, binary<tosa::IntDivOp>(c, a, b));
  } else if (elem.getIntOrFloatBitWidth() < 32) {
    // TOSA divides int32 only: 8 and 16 bits (zero-extended when unsigned)
    // divide exactly there, and the quotient fits back.
    Type i32 = c.b.getI32Type();
    auto widen = [&](Value v) {
      return isUnsigned ? zeroExtend(c, v, i32) : cast(c, v, i32);
    };
    c.setOutput(0,
                cast(c, binary<tosa::IntDivOp>(c, widen(a), widen(b)), elem));
  } else {
    return c.unsupported(isUnsigned ? "division of uint32 or uint64"
                                    : "integer division of int64");
  }
  return Error::success();
}

/// The remainder `r` moved to the divisor's sign, as Python's % (ONNX's
/// Mod without fmod): nonzero remainders of the other sign gain one `b`.
Value towardDivisorSign(NodeContext &c, Value r, Value b) {
  Value zero = scalarLike(c, r, 0);
  Value rNegative = compare<tosa::GreaterOp>(c, zero, r);
  Value bNegative = compare<tosa::GreaterOp>(c, scalarLike(c, b, 0), b);
  Value signsDiffer = compare<tosa::LogicalXorOp>(c, rNegative, bNegative);
  Value rZero = compare<tosa::EqualOp>(c, r, zero);
  Value rNonzero =
      c.b.create<tosa::LogicalNotOp>(c.loc, rZero.getType(), rZero);
  Value fix = compare<tosa::LogicalAndOp>(c, rNonzero, signsDiffer);
  return select(c, fix, binary<tosa::AddOp>(c, r, b), r);
}

/// ONNX's Mod. fmod=1 is C's fmod (the dividend's sign), fmod=0 Python's
/// % (the divisor's sign). Integers divide in int32 (TOSA's truncating
/// division; int8, int16, uint8 and uint16 widen to it exactly); a zero
/// divisor gives 0, as numpy's. Floats work in f64 on magnitudes: the
/// quotient through a reciprocal may be one off, which one step of
/// correction repairs, so the remainder is exact while |a/b| < 2^29 for
/// float16 and float32.
Error convertMod(NodeContext &c) {
  TRY(a, c.input(0));
  TRY(b, c.input(1));
  Type elem = elemOf(a);
  bool fmod = c.intAttr("fmod", 0) != 0;
  bool isUnsigned = c.inputIsUnsigned(0) || c.inputIsUnsigned(1);
  if (isa<FloatType>(elem)) {
    Type f64 = c.b.getF64Type();
    Value x = cast(c, a, f64), y = cast(c, b, f64);
    Value xAbs = c.b.create<tosa::AbsOp>(c.loc, x.getType(), x);
    Value yAbs = c.b.create<tosa::AbsOp>(c.loc, y.getType(), y);
    Value inv = c.b.create<tosa::ReciprocalOp>(c.loc, yAbs.getType(), yAbs);
    Value ratio = binary<tosa::MulOp>(c, xAbs, inv);
    Value q = c.b.create<tosa::FloorOp>(c.loc, ratio.getType(), ratio);
    Value r = binary<tosa::SubOp>(c, xAbs, binary<tosa::MulOp>(c, yAbs, q));
    r = select(c, compare<tosa::GreaterOp>(c, scalarLike(c, r, 0), r),
               binary<tosa::AddOp>(c, r, yAbs), r);
    r = select(c, compare<tosa::GreaterEqualOp>(c, r, yAbs),
               binary<tosa::SubOp>(c, r, yAbs), r);
    Value negated = c.b.create<tosa::NegateOp>(c.loc, r.getType(), r);
    r = select(c, compare<tosa::GreaterOp>(c, scalarLike(c, x, 0), x), negated,
               r);
    if (!fmod)
      r = towardDivisorSign(c, r, y);
    c.setOutput(0, cast(c, r, elem));
    return Error::success();
  }
  if (elem.getIntOrFloatBitWidth() > 32 ||
      (isUnsigned && elem.getIntOrFloatBitWidth() == 32))
    return c.unsupported(isUnsigned ? "remainders of uint32 or uint64"
                                    : "integer remainders of int64");
  Type i32 = c.b.getI32Type();
  auto widen = [&](Value v) {
    return isUnsigned && !elem.isInteger(32) ? zeroExtend(c, v, i32)
                                             : cast(c, v, i32);
  };
  Value x = widen(a), y = widen(b);
  // Divisors 0 and -1 leave remainder 0; dividing by 1 instead gives it
  // without the division's undefined cases (by zero, INT32_MIN / -1).
  Value one = scalarLike(c, y, 1);
  Value safe =
      select(c, compare<tosa::EqualOp>(c, y, scalarLike(c, y, 0)), one, y);
  safe =
      select(c, compare<tosa::EqualOp>(c, y, scalarLike(c, y, -1)), one, safe);
  Value q = binary<tosa::IntDivOp>(c, x, safe);
  Value r = binary<tosa::SubOp>(c, x, binary<tosa::MulOp>(c, safe, q));
  if (!fmod)
    r = towardDivisorSign(c, r, y);
  c.setOutput(0, cast(c, r, elem));
  return Error::success();
}

Error convertPow(NodeContext &c) {
  TRY(a, c.input(0));
  TRY(b, c.input(1));
  Type elem = elemOf(a);
  if (isa<IntegerType>(elem)) {
    // Integer bases: TOSA's pow is floating-point; f64 holds every int32
    // power exactly and int64 ones up to 2^53. The result is the float
    // power truncated toward zero, as ONNX's reference computes it.
    if (c.inputIsUnsigned(0))
      return c.unsupported("unsigned integer bases");
    Type f64 = c.b.getF64Type();
    Value base = cast(c, a, f64);
    Value exponent = castUnsigned(c, b, c.inputIsUnsigned(1), f64, false);
    Value power = binary<tosa::PowOp>(c, base, exponent);
    Value down = c.b.create<tosa::FloorOp>(c.loc, power.getType(), power);
    Value up = c.b.create<tosa::CeilOp>(c.loc, power.getType(), power);
    power = select(
        c, compare<tosa::GreaterEqualOp>(c, power, scalarLike(c, power, 0)),
        down, up);
    c.setOutput(0, cast(c, power, elem));
    return Error::success();
  }
  // ONNX lets the exponent's type differ; TOSA's pow takes one type.
  b = castUnsigned(c, b, c.inputIsUnsigned(1), elem, false);
  c.setOutput(0, binary<tosa::PowOp>(c, a, b));
  return Error::success();
}

Error convertAbs(NodeContext &c) {
  TRY(x, c.input(0));
  // Unsigned values are their own absolute values.
  c.setOutput(0, c.inputIsUnsigned(0)
                     ? x
                     : Value(c.b.create<tosa::AbsOp>(c.loc, x.getType(), x)));
  return Error::success();
}

Error convertDropout(NodeContext &c) {
  TRY(x, c.input(0));
  if (onnx::TensorProto *training = c.constantInput(2)) {
    TRY(mode, tensorInts(*training));
    // Training with a constant ratio of 0 keeps every element, unscaled
    // (torchvision's swin_t exports its attention dropout so).
    bool keepsAll = false;
    if (c.hasInput(1) && c.constantInput(1)) {
      auto ratio = c.constantDoubles(1);
      if (!ratio)
        return ratio.takeError();
      keepsAll = ratio->size() == 1 && (*ratio)[0] == 0;
    }
    if (!mode.empty() && mode[0] && !keepsAll)
      return c.unsupported("training_mode");
  } else if (c.hasInput(2)) {
    return c.unsupported("training_mode is not a constant");
  }
  if (c.intAttr("is_test", 1) == 0 && c.opset() < 7)
    return c.unsupported("is_test=0");
  c.setOutput(0, x);
  // In inference every element is kept: the mask is all true.
  if (c.node.output_size() > 1 && !c.node.output(1).empty())
    c.setOutput(1, splat(c, c.b.getI1Type(), shapeOf(x), 1));
  return Error::success();
}

Error convertSqrt(NodeContext &c) {
  TRY(x, c.input(0));
  Value r = c.b.create<tosa::RsqrtOp>(c.loc, x.getType(), x);
  c.setOutput(0, c.b.create<tosa::ReciprocalOp>(c.loc, x.getType(), r));
  return Error::success();
}

Error convertRelu(NodeContext &c) {
  TRY(x, c.input(0));
  c.setOutput(0, clamp(c, x, 0, std::numeric_limits<double>::infinity()));
  return Error::success();
}

Error convertClip(NodeContext &c) {
  TRY(x, c.input(0));
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  if (c.opset() < 11) {
    lo = c.floatAttr("min", (float)lo);
    hi = c.floatAttr("max", (float)hi);
  } else {
    for (unsigned i : {1u, 2u}) {
      if (!c.hasInput(i))
        continue;
      if (!c.constantInput(i)) {
        // A computed bound: maximum / minimum with it.
        TRY(bound, c.input(i));
        x = i == 1 ? binary<tosa::MaximumOp>(c, x, bound)
                   : binary<tosa::MinimumOp>(c, x, bound);
        continue;
      }
      TRY(bound, c.constantDoubles(i));
      if (bound.size() != 1)
        return c.unsupported("a bound is not a scalar");
      (i == 1 ? lo : hi) = bound[0];
    }
  }
  c.setOutput(0, clamp(c, x, lo, hi));
  return Error::success();
}

Error convertLeakyRelu(NodeContext &c) {
  TRY(x, c.input(0));
  float alpha = c.floatAttr("alpha", 0.01f);
  Value zero = scalarLike(c, x, 0);
  auto boolType = RankedTensorType::get(shapeOf(x), c.b.getI1Type());
  Value positive = c.b.create<tosa::GreaterEqualOp>(c.loc, boolType, x, zero);
  c.setOutput(0, c.b.create<tosa::SelectOp>(c.loc, x.getType(), positive, x,
                                            mulBy(c, x, alpha)));
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

/// Flatten, Reshape, Squeeze, Unsqueeze: a reshape to the inferred shape.
Error convertReshapeLike(NodeContext &c) {
  TRY(x, c.input(0));
  TRY(type, c.outputType(0));
  c.setOutput(0, reshape(c, x, type.getShape()));
  return Error::success();
}

Error convertTranspose(NodeContext &c) {
  TRY(x, c.input(0));
  size_t rank = shapeOf(x).size();
  std::vector<int64_t> perm(rank);
  std::iota(perm.rbegin(), perm.rend(), 0);
  if (std::optional<std::vector<int64_t>> given = c.intsAttr("perm"))
    perm = *given;
  c.setOutput(0, transpose(c, x, perm));
  return Error::success();
}

Error convertConcat(NodeContext &c) {
  llvm::SmallVector<Value> inputs;
  for (int i = 0; i < c.node.input_size(); ++i) {
    TRY(v, c.input(i));
    inputs.push_back(v);
  }
  TRY(type, c.outputType(0));
  int64_t axis = normalizeAxis(c.intAttr("axis", 0), type.getRank());
  c.setOutput(0, c.b.create<tosa::ConcatOp>(c.loc, type, inputs,
                                            c.b.getI32IntegerAttr(axis)));
  return Error::success();
}

Error convertConstant(NodeContext &c) {
  for (onnx::AttributeProto &a : *c.node.mutable_attribute()) {
    onnx::TensorProto *tensor = nullptr;
    if (a.name() == "value") {
      tensor = a.mutable_t();
    } else if (a.name() == "value_float" || a.name() == "value_floats") {
      tensor = &c.graph.newTensor();
      tensor->set_data_type(onnx::TensorProto::FLOAT);
      if (a.name() == "value_float")
        tensor->add_float_data(a.f());
      else
        for (float f : a.floats())
          tensor->add_float_data(f), (void)0;
      if (a.name() == "value_floats")
        tensor->add_dims(a.floats_size());
    } else if (a.name() == "value_int" || a.name() == "value_ints") {
      tensor = &c.graph.newTensor();
      tensor->set_data_type(onnx::TensorProto::INT64);
      if (a.name() == "value_int")
        tensor->add_int64_data(a.i());
      else
        for (int64_t i : a.ints())
          tensor->add_int64_data(i);
      if (a.name() == "value_ints")
        tensor->add_dims(a.ints_size());
    } else {
      return c.unsupported("attribute '" + a.name() + "'");
    }
    tensor->set_name(c.node.output(0));
    c.graph.addConstant(c.node.output(0), tensor, c.loc);
    return Error::success();
  }
  return c.unsupported("no value");
}

//===----------------------------------------------------------------------===//
// Convolutions and pools (NCHW in ONNX, NHWC in TOSA)
//===----------------------------------------------------------------------===//

constexpr int64_t kToNHWC[] = {0, 2, 3, 1};
constexpr int64_t kToNCHW[] = {0, 3, 1, 2};

/// A window's geometry in TOSA's terms: pad {top, bottom, left, right},
/// stride and dilation {y, x}, kernel {h, w}.
struct Window {
  llvm::SmallVector<int64_t, 4> pad{0, 0, 0, 0};
  llvm::SmallVector<int64_t, 2> stride{1, 1}, dilation{1, 1}, kernel;
};

/// Reads kernel_shape/strides/dilations/pads/auto_pad for a 2-D window over
/// an input of spatial size `in` producing `out`. ONNX's pads are {begin
/// y, begin x, end y, end x}.
Expected<Window> readWindow(NodeContext &c, llvm::ArrayRef<int64_t> in,
                            llvm::ArrayRef<int64_t> out,
                            llvm::ArrayRef<int64_t> kernel) {
  Window w;
  // A 1-D window is a 2-D one of height 1 (`in` and `out` are given so).
  bool oneD = kernel.size() == 1;
  auto widen = [&](std::vector<int64_t> v, int64_t unit) {
    if (oneD && v.size() == 1)
      v.insert(v.begin(), unit);
    return llvm::SmallVector<int64_t, 2>(v.begin(), v.end());
  };
  w.kernel = widen(std::vector<int64_t>(kernel.begin(), kernel.end()), 1);
  if (auto s = c.intsAttr("strides"))
    w.stride = widen(*s, 1);
  if (auto d = c.intsAttr("dilations"))
    w.dilation = widen(*d, 1);
  if (w.stride.size() != 2 || w.dilation.size() != 2 || w.kernel.size() != 2)
    return c.unsupported("only 1-D and 2-D windows are");
  std::string autoPad = c.stringAttr("auto_pad", "NOTSET");
  if (autoPad == "NOTSET") {
    if (auto p = c.intsAttr("pads")) {
      if (oneD && p->size() == 2)
        *p = {0, (*p)[0], 0, (*p)[1]};
      if (p->size() != 4)
        return c.unsupported("pads of other than 4 values");
      w.pad = {(*p)[0], (*p)[2], (*p)[1], (*p)[3]};
    }
  } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    for (int i = 0; i < 2; ++i) {
      int64_t total = std::max<int64_t>(
          0, (out[i] - 1) * w.stride[i] + (w.kernel[i] - 1) * w.dilation[i] +
                 1 - in[i]);
      int64_t small = total / 2;
      w.pad[2 * i] = autoPad == "SAME_UPPER" ? small : total - small;
      w.pad[2 * i + 1] = total - w.pad[2 * i];
    }
  } else if (autoPad != "VALID") {
    return c.unsupported("auto_pad '" + autoPad + "'");
  }
  // ceil_mode (pools): pad the end so that TOSA's floor gives `out`.
  for (int i = 0; i < 2; ++i) {
    int64_t need = (out[i] - 1) * w.stride[i] +
                   (w.kernel[i] - 1) * w.dilation[i] + 1 -
                   (in[i] + w.pad[2 * i] + w.pad[2 * i + 1]);
    if (need > 0)
      w.pad[2 * i + 1] += need;
  }
  return w;
}

/// A window of any number of spatial dimensions, as ONNX gives it: per
/// dimension kernel, stride, dilation, pads at the begin and end, and the
/// end padding ceil_mode adds on top (none of it counted as padding).
struct WindowND {
  std::vector<int64_t> kernel, stride, dilation, padBegin, padEnd, ceilExtra;
};

Expected<WindowND> readWindowND(NodeContext &c, llvm::ArrayRef<int64_t> in,
                                llvm::ArrayRef<int64_t> out,
                                llvm::ArrayRef<int64_t> kernel) {
  size_t n = kernel.size();
  WindowND w;
  w.kernel.assign(kernel.begin(), kernel.end());
  w.stride = c.intsAttr("strides").value_or(std::vector<int64_t>(n, 1));
  w.dilation = c.intsAttr("dilations").value_or(std::vector<int64_t>(n, 1));
  w.padBegin.assign(n, 0);
  w.padEnd.assign(n, 0);
  w.ceilExtra.assign(n, 0);
  if (w.stride.size() != n || w.dilation.size() != n || in.size() != n ||
      out.size() != n)
    return c.unsupported("strides or dilations of another rank than the "
                         "kernel's");
  std::string autoPad = c.stringAttr("auto_pad", "NOTSET");
  if (autoPad == "NOTSET") {
    if (auto p = c.intsAttr("pads")) {
      if (p->size() != 2 * n)
        return c.unsupported("pads of other than 2 x " + llvm::Twine(n) +
                             " values");
      w.padBegin.assign(p->begin(), p->begin() + n);
      w.padEnd.assign(p->begin() + n, p->end());
    }
  } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    for (size_t i = 0; i < n; ++i) {
      int64_t total = std::max<int64_t>(
          0, (out[i] - 1) * w.stride[i] + (w.kernel[i] - 1) * w.dilation[i] +
                 1 - in[i]);
      int64_t small = total / 2;
      w.padBegin[i] = autoPad == "SAME_UPPER" ? small : total - small;
      w.padEnd[i] = total - w.padBegin[i];
    }
  } else if (autoPad != "VALID") {
    return c.unsupported("auto_pad '" + autoPad + "'");
  }
  for (size_t i = 0; i < n; ++i)
    w.ceilExtra[i] = std::max<int64_t>(
        0, (out[i] - 1) * w.stride[i] + (w.kernel[i] - 1) * w.dilation[i] + 1 -
               (in[i] + w.padBegin[i] + w.padEnd[i]));
  return w;
}

/// A constant weight rearranged at import time (`perm` of `shape`), or a
/// transpose of a computed one.
Expected<Value> rearrangedWeight(NodeContext &c, unsigned input,
                                 llvm::ArrayRef<int64_t> shape,
                                 llvm::ArrayRef<int64_t> perm) {
  if (onnx::TensorProto *tensor = c.constantInput(input)) {
    TRY(type, tensorTypeOf(*tensor, c.context()));
    TRY(bytes, c.graph.constantBytes(c.node.input(input)));
    size_t elemSize = type.getElementTypeBitWidth() / 8;
    llvm::SmallVector<int64_t> outShape;
    for (int64_t p : perm)
      outShape.push_back(shape[p]);
    auto outType = RankedTensorType::get(outShape, type.getElementType());
    ElementsAttr attr = makeElementsAttr(
        outType, permuteBytes(bytes, shape, perm, elemSize), tensor->name());
    return c.b.create<tosa::ConstOp>(c.loc, outType, attr).getResult();
  }
  TRY(w, c.input(input));
  return transpose(c, reshape(c, w, shape), perm);
}

Expected<Value> biasOrZeros(NodeContext &c, unsigned input, Type elem,
                            int64_t channels) {
  if (c.hasInput(input))
    return c.input(input);
  return splat(c, elem, {channels}, 0);
}

/// The 4-D shape of an NCHW value or type of rank 3 or 4 (1-D: H = 1).
llvm::SmallVector<int64_t, 4> as4D(llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t, 4> out(shape);
  if (out.size() == 3)
    out.insert(out.begin() + 2, 1);
  return out;
}

Value sliceAxis(NodeContext &c, Value v, int64_t axis, int64_t start,
                int64_t size);

/// A 3-D convolution: tosa.conv3d on NDHWC with [O, KD, KH, KW, I]
/// weights, transposed in and out as the 2-D ones are; a grouped one is one
/// conv3d per group on its slice of the channels, concatenated.
Error convertConv3D(NodeContext &c, RankedTensorType xType,
                    RankedTensorType wType, RankedTensorType outType) {
  llvm::ArrayRef<int64_t> xs = xType.getShape(), ws = wType.getShape(),
                          os = outType.getShape();
  TRY(window, readWindowND(c, xs.drop_front(2), os.drop_front(2),
                           c.intsAttr("kernel_shape")
                               .value_or(std::vector<int64_t>(ws.begin() + 2,
                                                              ws.end()))));
  llvm::SmallVector<int64_t, 6> pad;
  for (size_t i = 0; i < 3; ++i) {
    pad.push_back(window.padBegin[i]);
    pad.push_back(window.padEnd[i] + window.ceilExtra[i]);
  }
  int64_t group = c.intAttr("group", 1);
  int64_t channels = xs[1], outChannels = ws[0];
  TRY(x, c.input(0));
  constexpr int64_t toNDHWC[] = {0, 2, 3, 4, 1}, toNCDHW[] = {0, 4, 1, 2, 3};
  Value input = transpose(c, x, toNDHWC);
  TRY(weight, rearrangedWeight(c, 1, ws, toNDHWC));
  TRY(bias, biasOrZeros(c, 2, xType.getElementType(), outChannels));
  auto ndhwcType = [&](int64_t outC) {
    return RankedTensorType::get({os[0], os[2], os[3], os[4], outC},
                                 outType.getElementType());
  };
  auto conv = [&](Value in, Value w, Value b, int64_t outC) -> Value {
    return c.b.create<tosa::Conv3DOp>(
        c.loc, ndhwcType(outC), in, w, b, c.b.getDenseI64ArrayAttr(pad),
        c.b.getDenseI64ArrayAttr(window.stride),
        c.b.getDenseI64ArrayAttr(window.dilation));
  };
  Value result;
  if (group == 1) {
    result = conv(input, weight, bias, outChannels);
  } else {
    int64_t inPer = channels / group, outPer = outChannels / group;
    llvm::SmallVector<Value> parts;
    for (int64_t g = 0; g < group; ++g)
      parts.push_back(conv(sliceAxis(c, input, 4, g * inPer, inPer),
                           sliceAxis(c, weight, 0, g * outPer, outPer),
                           sliceAxis(c, bias, 0, g * outPer, outPer), outPer));
    result = c.b.create<tosa::ConcatOp>(c.loc, ndhwcType(outChannels), parts,
                                        c.b.getI32IntegerAttr(4));
  }
  c.setOutput(0, transpose(c, result, toNCDHW));
  return Error::success();
}

Error convertConv(NodeContext &c) {
  TRY(xType, c.inputType(0));
  TRY(wType, c.inputType(1));
  TRY(outType, c.outputType(0));
  if (xType.getRank() == 5)
    return convertConv3D(c, xType, wType, outType);
  if (xType.getRank() != 4 && xType.getRank() != 3)
    return c.unsupported("only 1-D, 2-D and 3-D convolutions are");
  llvm::SmallVector<int64_t, 4> xs = as4D(xType.getShape()),
                                ws = as4D(wType.getShape()),
                                os = as4D(outType.getShape());
  int64_t group = c.intAttr("group", 1);
  int64_t channels = xs[1], outChannels = ws[0];
  TRY(window,
      readWindow(
          c, llvm::ArrayRef(xs).drop_front(2), llvm::ArrayRef(os).drop_front(2),
          c.intsAttr("kernel_shape")
              .value_or(std::vector<int64_t>(wType.getShape().begin() + 2,
                                             wType.getShape().end()))));
  TRY(x, c.input(0));
  Value input = transpose(c, reshape(c, x, xs), kToNHWC);
  TRY(bias, biasOrZeros(c, 2, xType.getElementType(), outChannels));
  auto nhwcType = [&](int64_t outC) {
    return RankedTensorType::get({os[0], os[2], os[3], outC},
                                 outType.getElementType());
  };
  auto pad = c.b.getDenseI64ArrayAttr(window.pad);
  auto stride = c.b.getDenseI64ArrayAttr(window.stride);
  auto dilation = c.b.getDenseI64ArrayAttr(window.dilation);
  Value result;
  if (group == channels && ws[1] == 1 && group > 1) {
    // [C*M, 1, KH, KW] -> [C, M, KH, KW] -> [KH, KW, C, M].
    int64_t multiplier = outChannels / channels;
    TRY(weight, rearrangedWeight(c, 1, {channels, multiplier, ws[2], ws[3]},
                                 {2, 3, 0, 1}));
    result = c.b.create<tosa::DepthwiseConv2DOp>(c.loc, nhwcType(outChannels),
                                                 input, weight, bias, pad,
                                                 stride, dilation);
  } else {
    // OIHW -> OHWI; a grouped convolution is one conv2d per group on its
    // slice of the channels, concatenated.
    TRY(weight, rearrangedWeight(c, 1, ws, {0, 2, 3, 1}));
    if (group == 1) {
      result = c.b.create<tosa::Conv2DOp>(c.loc, nhwcType(outChannels), input,
                                          weight, bias, pad, stride, dilation);
    } else {
      int64_t inPer = channels / group, outPer = outChannels / group;
      llvm::ArrayRef<int64_t> in = shapeOf(input);
      llvm::SmallVector<Value> parts;
      for (int64_t g = 0; g < group; ++g) {
        auto slice = [&](Value v, llvm::SmallVector<int64_t> start,
                         llvm::SmallVector<int64_t> size) -> Value {
          return c.b.create<tosa::SliceOp>(c.loc, withShape(v.getType(), size),
                                           v, c.b.getDenseI64ArrayAttr(start),
                                           c.b.getDenseI64ArrayAttr(size));
        };
        Value xg =
            slice(input, {0, 0, 0, g * inPer}, {in[0], in[1], in[2], inPer});
        Value wg =
            slice(weight, {g * outPer, 0, 0, 0}, {outPer, ws[2], ws[3], inPer});
        Value bg = slice(bias, {g * outPer}, {outPer});
        parts.push_back(c.b.create<tosa::Conv2DOp>(
            c.loc, nhwcType(outPer), xg, wg, bg, pad, stride, dilation));
      }
      result = c.b.create<tosa::ConcatOp>(c.loc, nhwcType(outChannels), parts,
                                          c.b.getI32IntegerAttr(3));
    }
  }
  c.setOutput(0, reshape(c, transpose(c, result, kToNCHW), outType.getShape()));
  return Error::success();
}

Error poolByGathers(NodeContext &c, bool isMax);

Error convertPool(NodeContext &c, bool isMax) {
  TRY(xType4, c.inputType(0));
  TRY(outType4, c.outputType(0));
  RankedTensorType xType = xType4, outType = outType4;
  bool indices = c.node.output_size() > 1 && !c.node.output(1).empty();
  std::optional<std::vector<int64_t>> dilations = c.intsAttr("dilations");
  bool dilated =
      dilations && llvm::any_of(*dilations, [](int64_t d) { return d != 1; });
  if ((xType.getRank() != 4 && xType.getRank() != 3) || dilated || indices)
    return poolByGathers(c, isMax);
  xType = withShape(xType, as4D(xType.getShape()));
  outType = withShape(outType, as4D(outType.getShape()));
  for (int i = 1; i < c.node.output_size(); ++i)
    if (!c.node.output(i).empty())
      return c.unsupported("output " + llvm::Twine(i) + " is used");
  std::optional<std::vector<int64_t>> kernel = c.intsAttr("kernel_shape");
  if (!kernel)
    return c.unsupported("no kernel_shape");
  TRY(window, readWindow(c, xType.getShape().drop_front(2),
                         outType.getShape().drop_front(2), *kernel));
  if (window.dilation[0] != 1 || window.dilation[1] != 1)
    return c.unsupported("dilated pools");
  TRY(x, c.input(0));
  // Max pools order unsigned integers with their sign bits flipped.
  bool flip = isMax && c.inputIsUnsigned(0);
  if (!isMax && c.inputIsUnsigned(0))
    return c.unsupported("average pools of unsigned integers");
  if (flip)
    x = flipSignBit(c, x);
  Value input = transpose(c, reshape(c, x, xType.getShape()), kToNHWC);
  auto nhwc =
      RankedTensorType::get({outType.getDimSize(0), outType.getDimSize(2),
                             outType.getDimSize(3), outType.getDimSize(1)},
                            outType.getElementType());
  Value result;
  if (isMax) {
    result = c.b.create<tosa::MaxPool2dOp>(
        c.loc, nhwc, input, c.b.getDenseI64ArrayAttr(window.kernel),
        c.b.getDenseI64ArrayAttr(window.stride),
        c.b.getDenseI64ArrayAttr(window.pad));
  } else {
    // TOSA's average leaves padding out of the count; count_include_pad
    // counts it: pad with zeros first (ceil_mode's extra end padding stays
    // out of the count in both).
    llvm::SmallVector<int64_t, 4> pad = window.pad;
    if (c.intAttr("count_include_pad", 0)) {
      if (c.stringAttr("auto_pad", "NOTSET") != "NOTSET")
        return c.unsupported("count_include_pad with auto_pad");
      // window.pad less ceil_mode's part: ONNX's own pads.
      std::vector<int64_t> pads =
          c.intsAttr("pads").value_or(std::vector<int64_t>(4, 0));
      if (pads.size() == 2)
        pads = {0, pads[0], 0, pads[1]};
      int64_t t = pads[0], l = pads[1], b = pads[2], r = pads[3];
      auto padType = RankedTensorType::get({4, 2}, c.b.getI64Type());
      llvm::SmallVector<int64_t> padding{0, 0, t, b, l, r, 0, 0};
      Value paddingValue = c.b.create<tosa::ConstOp>(
          c.loc, padType,
          DenseElementsAttr::get(padType, llvm::ArrayRef<int64_t>(padding)));
      llvm::ArrayRef<int64_t> s = shapeOf(input);
      input = c.b.create<tosa::PadOp>(
          c.loc,
          withShape(input.getType(), {s[0], s[1] + t + b, s[2] + l + r, s[3]}),
          input, paddingValue);
      pad = {0, window.pad[1] - b, 0, window.pad[3] - r};
    }
    result = c.b.create<tosa::AvgPool2dOp>(
        c.loc, nhwc, input, c.b.getDenseI64ArrayAttr(window.kernel),
        c.b.getDenseI64ArrayAttr(window.stride), c.b.getDenseI64ArrayAttr(pad),
        TypeAttr::get(xType.getElementType()));
  }
  result = reshape(c, transpose(c, result, kToNCHW), outType4.getShape());
  c.setOutput(0, flip ? flipSignBit(c, result) : result);
  return Error::success();
}

Value gatherConst(NodeContext &c, Value v, int64_t axis,
                  llvm::ArrayRef<int64_t> indices,
                  llvm::ArrayRef<int64_t> indexShape);

/// A pool of any rank, dilated or not, as separable gathers along each
/// spatial axis in turn (a box's maximum and its average are separable: the
/// count of an average is the product of the per-axis counts): along an
/// axis, output o reads input o * stride + k * dilation - pad for each
/// kernel tap k. A max pool reads a tap in the padding as another tap of
/// its window; an average gives it weight 0 and counts it only with
/// count_include_pad (ceil_mode's extra end never). TOSA's pools are 2-D
/// without dilation: this serves 3-D and dilated pools, and MaxPool's
/// Indices output: the flat index of each maximum (its spatial part
/// column-major under storage_order 1), carried
/// through the axes from the last to the first, a tap replacing the best
/// only when greater, so that ties go to the first in row-major order as
/// in ONNX's reference.
Error poolByGathers(NodeContext &c, bool isMax) {
  TRY(x, c.input(0));
  TRY(outType, c.outputType(0));
  llvm::ArrayRef<int64_t> in = shapeOf(x), out = outType.getShape();
  std::optional<std::vector<int64_t>> kernel = c.intsAttr("kernel_shape");
  if (!kernel || kernel->size() + 2 != in.size())
    return c.unsupported("no kernel_shape of the input's spatial rank");
  TRY(w, readWindowND(c, in.drop_front(2), out.drop_front(2), *kernel));
  bool includePad = !isMax && c.intAttr("count_include_pad", 0) != 0;
  bool flip = isMax && c.inputIsUnsigned(0);
  bool indices = isMax && c.node.output_size() > 1 && !c.node.output(1).empty();
  if (!isMax && !isa<FloatType>(elemOf(x)))
    return c.unsupported("average pools of integers");
  Value v = flip ? flipSignBit(c, x) : x;
  // The flat index of [n, c, 0, ...]: (n * C + c) * the spatial size.
  Value index;
  llvm::SmallVector<int64_t> flatStride(in.size(), 1);
  for (size_t a = in.size() - 1; a-- > 0;)
    flatStride[a] = flatStride[a + 1] * in[a + 1];
  // storage_order 1: the spatial part of an index is column-major.
  if (c.intAttr("storage_order", 0) != 0)
    for (size_t a = 2; a < in.size(); ++a)
      flatStride[a] = a == 2 ? 1 : flatStride[a - 1] * in[a - 1];
  Type i64 = c.b.getI64Type();
  auto i64Const = [&](llvm::ArrayRef<int64_t> values,
                      llvm::ArrayRef<int64_t> shape) -> Value {
    auto type = RankedTensorType::get(shape, i64);
    return c.b.create<tosa::ConstOp>(c.loc, type,
                                     DenseElementsAttr::get(type, values));
  };
  if (indices) {
    std::vector<int64_t> base;
    for (int64_t n = 0; n < in[0]; ++n)
      for (int64_t ch = 0; ch < in[1]; ++ch)
        base.push_back(n * flatStride[0] + ch * flatStride[1]);
    llvm::SmallVector<int64_t> shape(in.size(), 1);
    shape[0] = in[0];
    shape[1] = in[1];
    index = i64Const(base, shape);
  }
  for (size_t i = kernel->size(); i-- > 0;) {
    int64_t axis = static_cast<int64_t>(i) + 2, size = in[axis];
    int64_t taps = w.kernel[i], outSize = out[axis];
    std::vector<std::vector<int64_t>> at(taps);
    std::vector<std::vector<double>> weight(taps);
    for (int64_t o = 0; o < outSize; ++o) {
      int64_t first = -1, valid = 0, counted = 0;
      for (int64_t k = 0; k < taps; ++k) {
        int64_t pos = o * w.stride[i] + k * w.dilation[i] - w.padBegin[i];
        bool inside = pos >= 0 && pos < size;
        if (inside && first < 0)
          first = pos;
        valid += inside;
        counted += pos >= -w.padBegin[i] && pos < size + w.padEnd[i];
      }
      if (first < 0)
        return c.unsupported("a window wholly in the padding");
      double count = static_cast<double>(includePad ? counted : valid);
      for (int64_t k = 0; k < taps; ++k) {
        int64_t pos = o * w.stride[i] + k * w.dilation[i] - w.padBegin[i];
        bool inside = pos >= 0 && pos < size;
        at[k].push_back(inside ? pos : first);
        weight[k].push_back(inside ? 1 / count : 0);
      }
    }
    llvm::SmallVector<int64_t> wShape(in.size(), 1);
    wShape[axis] = outSize;
    auto wType = RankedTensorType::get(wShape, elemOf(v));
    Value best, bestIndex;
    for (int64_t k = 0; k < taps; ++k) {
      Value tap = gatherConst(c, v, axis, at[k], {outSize});
      Value tapIndex;
      if (indices) {
        // The index so far (broadcast along axes not reached yet) plus
        // this axis's position.
        Value carried = shapeOf(index)[axis] == 1
                            ? index
                            : gatherConst(c, index, axis, at[k], {outSize});
        std::vector<int64_t> offsets;
        for (int64_t pos : at[k])
          offsets.push_back(pos * flatStride[axis]);
        tapIndex = binary<tosa::AddOp>(c, carried, i64Const(offsets, wShape));
      }
      if (!isMax) {
        llvm::SmallVector<Attribute> values;
        for (double d : weight[k])
          values.push_back(c.b.getFloatAttr(elemOf(v), d));
        tap = binary<tosa::MulOp>(
            c, tap,
            c.b.create<tosa::ConstOp>(c.loc, wType,
                                      DenseElementsAttr::get(wType, values)));
      }
      if (!best) {
        best = tap;
        bestIndex = tapIndex;
      } else if (!isMax) {
        best = binary<tosa::AddOp>(c, best, tap);
      } else if (indices) {
        Value greater = compare<tosa::GreaterOp>(c, tap, best);
        best = select(c, greater, tap, best);
        bestIndex = select(c, greater, tapIndex, bestIndex);
      } else {
        best = binary<tosa::MaximumOp>(c, best, tap);
      }
    }
    v = best;
    index = bestIndex;
  }
  c.setOutput(0, flip ? flipSignBit(c, v) : v);
  if (indices)
    c.setOutput(1, index);
  return Error::success();
}

Error convertMaxPool(NodeContext &c) { return convertPool(c, true); }
Error convertAveragePool(NodeContext &c) { return convertPool(c, false); }

/// GlobalAveragePool and GlobalMaxPool: a reduction over every spatial
/// dimension (no layout change needed).
template <bool isMax> Error convertGlobalPool(NodeContext &c) {
  TRY(x, c.input(0));
  Value v = x;
  int64_t count = 1;
  for (size_t axis = 2; axis < shapeOf(x).size(); ++axis) {
    count *= shapeOf(x)[axis];
    v = isMax ? reduce<tosa::ReduceMaxOp>(c, v, axis)
              : reduce<tosa::ReduceSumOp>(c, v, axis);
  }
  c.setOutput(0, isMax ? v : mulBy(c, v, 1.0 / count));
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

/// [.., M, K] x [.., K, N] with numpy's batch broadcasting, as one
/// tosa.matmul on [B, M, K] x [B, K, N].
Value matmul(NodeContext &c, Value a, Value b, RankedTensorType outType) {
  if (shapeOf(a).size() == 1)
    a = reshape(c, a, {1, shapeOf(a)[0]});
  if (shapeOf(b).size() == 1)
    b = reshape(c, b, {shapeOf(b)[0], 1});
  llvm::ArrayRef<int64_t> as = shapeOf(a), bs = shapeOf(b);
  int64_t m = as[as.size() - 2], k = as.back(), n = bs.back();
  llvm::SmallVector<int64_t> batchA(as.drop_back(2)), batchB(bs.drop_back(2));
  auto product = [](llvm::ArrayRef<int64_t> dims) {
    return std::accumulate(dims.begin(), dims.end(), int64_t{1},
                           std::multiplies<int64_t>());
  };
  Value lhs, rhs;
  int64_t batch;
  if (product(batchB) == 1) {
    // One right-hand matrix: fold A's batch into its rows.
    batch = 1;
    lhs = reshape(c, a, {1, product(batchA) * m, k});
    rhs = reshape(c, b, {1, k, n});
    m *= product(batchA);
  } else {
    llvm::SmallVector<int64_t> full = broadcastShape(batchA, batchB);
    auto expand = [&](Value v, llvm::ArrayRef<int64_t> own, int64_t rows,
                      int64_t cols) {
      llvm::SmallVector<int64_t> padded(full.size() - own.size(), 1);
      padded.append(own.begin(), own.end());
      llvm::SmallVector<int64_t> withMatrix(padded);
      withMatrix.append({rows, cols});
      v = reshape(c, v, withMatrix);
      if (padded != full) {
        llvm::SmallVector<int64_t> multiples, tiled;
        for (auto [have, want] : llvm::zip(padded, full))
          multiples.push_back(want / have), tiled.push_back(want);
        multiples.append({1, 1});
        tiled.append({rows, cols});
        v = c.b.create<tosa::TileOp>(c.loc, withShape(v.getType(), tiled), v,
                                     c.b.getDenseI64ArrayAttr(multiples));
      }
      return reshape(c, v, {product(full), rows, cols});
    };
    batch = product(full);
    lhs = expand(a, batchA, m, k);
    rhs = expand(b, batchB, k, n);
  }
  Value product3 = c.b.create<tosa::MatMulOp>(
      c.loc, withShape(a.getType(), {batch, m, n}), lhs, rhs);
  return reshape(c, product3, outType.getShape());
}

Error convertMatMul(NodeContext &c) {
  TRY(a, c.input(0));
  TRY(b, c.input(1));
  TRY(outType, c.outputType(0));
  c.setOutput(0, matmul(c, a, b, outType));
  return Error::success();
}

Error convertGemm(NodeContext &c) {
  TRY(a, c.input(0));
  TRY(bType, c.inputType(1));
  TRY(outType, c.outputType(0));
  float alpha = c.floatAttr("alpha", 1), beta = c.floatAttr("beta", 1);
  bool transA = c.intAttr("transA", 0), transB = c.intAttr("transB", 0);
  int64_t n = outType.getDimSize(1);
  if (transA)
    a = transpose(c, a, {1, 0});
  // B^T constant, as PyTorch's Linear exports it: TOSA's fully_connected
  // takes the weight as [N, K] already.
  bool biasIsVector = !c.hasInput(2);
  if (c.hasInput(2)) {
    TRY(cType, c.inputType(2));
    biasIsVector = cType.getNumElements() == n &&
                   (cType.getRank() == 1 ||
                    (cType.getRank() == 2 && cType.getDimSize(1) == n));
  }
  if (transB && alpha == 1 && beta == 1 && biasIsVector) {
    TRY(b, c.input(1));
    TRY(bias, biasOrZeros(c, 2, outType.getElementType(), n));
    c.setOutput(0, c.b.create<tosa::FullyConnectedOp>(c.loc, outType, a, b,
                                                      reshape(c, bias, {n})));
    return Error::success();
  }
  Value b;
  if (transB) {
    TRY(bT, rearrangedWeight(c, 1, bType.getShape(), {1, 0}));
    b = bT;
  } else {
    TRY(bPlain, c.input(1));
    b = bPlain;
  }
  Value y = matmul(c, a, b, outType);
  if (alpha != 1)
    y = mulBy(c, y, alpha);
  if (c.hasInput(2)) {
    TRY(bias, c.input(2));
    if (beta != 1)
      bias = mulBy(c, bias, beta);
    y = binary<tosa::AddOp>(c, y, bias);
  }
  c.setOutput(0, y);
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Normalizations
//===----------------------------------------------------------------------===//

/// Softmax and LogSoftmax along `axis` of `x`.
Value softmax(NodeContext &c, Value x, int64_t axis, bool log) {
  Value shifted =
      binary<tosa::SubOp>(c, x, reduce<tosa::ReduceMaxOp>(c, x, axis));
  Value e = c.b.create<tosa::ExpOp>(c.loc, shifted.getType(), shifted);
  Value sum = reduce<tosa::ReduceSumOp>(c, e, axis);
  if (log)
    return binary<tosa::SubOp>(
        c, shifted, c.b.create<tosa::LogOp>(c.loc, sum.getType(), sum));
  Value inv = c.b.create<tosa::ReciprocalOp>(c.loc, sum.getType(), sum);
  return binary<tosa::MulOp>(c, e, inv);
}

template <bool log> Error convertSoftmax(NodeContext &c) {
  TRY(x, c.input(0));
  llvm::ArrayRef<int64_t> shape = shapeOf(x);
  if (c.opset() >= 13) {
    int64_t axis = normalizeAxis(c.intAttr("axis", -1), shape.size());
    c.setOutput(0, softmax(c, x, axis, log));
    return Error::success();
  }
  // Before opset 13 the input is seen as 2-D [outer, inner] at `axis`.
  int64_t axis = normalizeAxis(c.intAttr("axis", 1), shape.size());
  int64_t outer = 1, inner = 1;
  for (size_t i = 0; i < shape.size(); ++i)
    ((int64_t)i < axis ? outer : inner) *= shape[i];
  Value flat = reshape(c, x, {outer, inner});
  c.setOutput(0, reshape(c, softmax(c, flat, 1, log), shape));
  return Error::success();
}

Error convertBatchNorm(NodeContext &c) {
  TRY(x, c.input(0));
  for (int i = 1; i < c.node.output_size(); ++i)
    if (!c.node.output(i).empty())
      return c.unsupported("training outputs");
  llvm::ArrayRef<int64_t> shape = shapeOf(x);
  if (shape.size() < 2)
    return c.unsupported("rank < 2");
  int64_t channels = shape[1];
  float epsilon = c.floatAttr("epsilon", 1e-5f);
  // [C] -> [1, C, 1, ...] so that it broadcasts over N and the spatial dims.
  llvm::SmallVector<int64_t> paramShape(shape.size(), 1);
  paramShape[1] = channels;
  bool constant = isa<Float32Type>(elemOf(x));
  for (unsigned i = 1; i <= 4; ++i)
    constant = constant && c.constantInput(i);
  if (constant) {
    // y = x * factor + offset, the factors computed once here.
    std::vector<std::vector<double>> p;
    for (unsigned i = 1; i <= 4; ++i) {
      TRY(values, c.constantDoubles(i));
      if ((int64_t)values.size() != channels)
        return c.unsupported("parameter " + llvm::Twine(i) + " has " +
                             llvm::Twine(values.size()) + " values");
      p.push_back(values);
    }
    std::vector<float> factor(channels), offset(channels);
    for (int64_t ch = 0; ch < channels; ++ch) {
      double f = p[0][ch] / std::sqrt(p[3][ch] + epsilon);
      factor[ch] = (float)f;
      offset[ch] = (float)(p[1][ch] - p[2][ch] * f);
    }
    auto type = RankedTensorType::get(paramShape, elemOf(x));
    auto asConst = [&](const std::vector<float> &v, llvm::StringRef suffix) {
      std::vector<char> bytes(v.size() * 4);
      std::memcpy(bytes.data(), v.data(), bytes.size());
      return c.b.create<tosa::ConstOp>(
          c.loc, type,
          makeElementsAttr(type, std::move(bytes),
                           (c.node.name() + suffix).str()));
    };
    Value scaled = binary<tosa::MulOp>(c, x, asConst(factor, ".factor"));
    c.setOutput(0, binary<tosa::AddOp>(c, scaled, asConst(offset, ".offset")));
    return Error::success();
  }
  llvm::SmallVector<Value, 4> params;
  for (unsigned i = 1; i <= 4; ++i) {
    TRY(v, c.input(i));
    params.push_back(reshape(c, v, paramShape));
  }
  Value var =
      binary<tosa::AddOp>(c, params[3], scalarLike(c, params[3], epsilon));
  Value inv = c.b.create<tosa::RsqrtOp>(c.loc, var.getType(), var);
  Value centered = binary<tosa::SubOp>(c, x, params[2]);
  Value normalized = binary<tosa::MulOp>(c, centered, inv);
  Value scaled = binary<tosa::MulOp>(c, normalized, params[0]);
  c.setOutput(0, binary<tosa::AddOp>(c, scaled, params[1]));
  return Error::success();
}

//===----------------------------------------------------------------------===//
// More building blocks
//===----------------------------------------------------------------------===//

Value slice(NodeContext &c, Value v, llvm::ArrayRef<int64_t> start,
            llvm::ArrayRef<int64_t> size) {
  if (shapeOf(v) == size)
    return v;
  return c.b.create<tosa::SliceOp>(c.loc, withShape(v.getType(), size), v,
                                   c.b.getDenseI64ArrayAttr(start),
                                   c.b.getDenseI64ArrayAttr(size));
}

/// `v`'s elements [start, start + size) along `axis`.
Value sliceAxis(NodeContext &c, Value v, int64_t axis, int64_t start,
                int64_t size) {
  llvm::SmallVector<int64_t> starts(shapeOf(v).size(), 0);
  llvm::SmallVector<int64_t> sizes(shapeOf(v));
  starts[axis] = start;
  sizes[axis] = size;
  return slice(c, v, starts, sizes);
}

Value concat(NodeContext &c, llvm::ArrayRef<Value> parts, int64_t axis) {
  if (parts.size() == 1)
    return parts[0];
  llvm::SmallVector<int64_t> shape(shapeOf(parts[0]));
  shape[axis] = 0;
  for (Value p : parts)
    shape[axis] += shapeOf(p)[axis];
  return c.b.create<tosa::ConcatOp>(c.loc, withShape(parts[0].getType(), shape),
                                    parts, c.b.getI32IntegerAttr(axis));
}

Value exp(NodeContext &c, Value v) {
  return c.b.create<tosa::ExpOp>(c.loc, v.getType(), v);
}

Value i32Const(NodeContext &c, llvm::ArrayRef<int32_t> values,
               llvm::ArrayRef<int64_t> shape) {
  auto type = RankedTensorType::get(shape, c.b.getI32Type());
  return c.b.create<tosa::ConstOp>(c.loc, type,
                                   DenseElementsAttr::get(type, values));
}

/// `v` gathered along `axis` at `indices` (i32, any shape, in range): the
/// result is [v's dims before axis, indices' dims, v's dims after axis], as
/// ONNX's Gather. One tosa.gather on [1, D, rest] with the axis moved first.
Value gatherAxis(NodeContext &c, Value v, int64_t axis, Value indices) {
  llvm::ArrayRef<int64_t> shape = shapeOf(v);
  int64_t rank = shape.size();
  llvm::SmallVector<int64_t> perm{axis};
  for (int64_t k = 0; k < rank; ++k)
    if (k != axis)
      perm.push_back(k);
  Value front = axis == 0 ? v : transpose(c, v, perm);
  int64_t dim = shape[axis];
  int64_t rest = 1;
  llvm::SmallVector<int64_t> restDims;
  for (int64_t k = 0; k < rank; ++k)
    if (k != axis)
      restDims.push_back(shape[k]), rest *= shape[k];
  llvm::ArrayRef<int64_t> indexShape = shapeOf(indices);
  int64_t count = std::accumulate(indexShape.begin(), indexShape.end(),
                                  int64_t{1}, std::multiplies<int64_t>());
  Value values = reshape(c, front, {1, dim, rest});
  Value flatIndices = reshape(c, indices, {1, count});
  Value gathered = c.b.create<tosa::GatherOp>(
      c.loc, withShape(v.getType(), {1, count, rest}), values, flatIndices);
  // [indices..., before..., after...] -> [before..., indices..., after...]
  llvm::SmallVector<int64_t> grouped(indexShape);
  grouped.append(restDims.begin(), restDims.end());
  Value out = reshape(c, gathered, grouped);
  if (axis == 0)
    return out;
  int64_t ni = indexShape.size();
  llvm::SmallVector<int64_t> back;
  for (int64_t k = 0; k < axis; ++k)
    back.push_back(ni + k);
  for (int64_t k = 0; k < ni; ++k)
    back.push_back(k);
  for (int64_t k = ni + axis; k < (int64_t)grouped.size(); ++k)
    back.push_back(k);
  return transpose(c, out, back);
}

/// Gather along `axis` at constant indices: a slice where they are a
/// contiguous run, else gatherAxis.
Value gatherConst(NodeContext &c, Value v, int64_t axis,
                  llvm::ArrayRef<int64_t> indices,
                  llvm::ArrayRef<int64_t> indexShape) {
  bool contiguous = !indices.empty();
  for (size_t k = 1; k < indices.size(); ++k)
    contiguous = contiguous && indices[k] == indices[0] + (int64_t)k;
  if (contiguous) {
    Value part = sliceAxis(c, v, axis, indices[0], indices.size());
    llvm::SmallVector<int64_t> shape(shapeOf(v).take_front(axis));
    shape.append(indexShape.begin(), indexShape.end());
    shape.append(shapeOf(v).begin() + axis + 1, shapeOf(v).end());
    return reshape(c, part, shape);
  }
  llvm::SmallVector<int32_t> i32(indices.begin(), indices.end());
  return gatherAxis(c, v, axis, i32Const(c, i32, indexShape));
}

/// Reductions over several axes, keeping them as size 1.
template <typename OpTy>
Value reduceAxes(NodeContext &c, Value v, llvm::ArrayRef<int64_t> axes) {
  for (int64_t axis : axes)
    v = reduce<OpTy>(c, v, axis);
  return v;
}

int64_t countOver(Value v, llvm::ArrayRef<int64_t> axes) {
  int64_t count = 1;
  for (int64_t axis : axes)
    count *= shapeOf(v)[axis];
  return count;
}

Value meanOver(NodeContext &c, Value v, llvm::ArrayRef<int64_t> axes) {
  return mulBy(c, reduceAxes<tosa::ReduceSumOp>(c, v, axes),
               1.0 / countOver(v, axes));
}

//===----------------------------------------------------------------------===//
// More elementwise ops
//===----------------------------------------------------------------------===//

Error convertHardSigmoid(NodeContext &c) {
  TRY(x, c.input(0));
  float alpha = c.floatAttr("alpha", 0.2f), beta = c.floatAttr("beta", 0.5f);
  c.setOutput(0, clamp(c, addScalar(c, mulBy(c, x, alpha), beta), 0, 1));
  return Error::success();
}

Error convertHardSwish(NodeContext &c) {
  TRY(x, c.input(0));
  Value gate = clamp(c, addScalar(c, mulBy(c, x, 1.0 / 6), 0.5), 0, 1);
  c.setOutput(0, binary<tosa::MulOp>(c, x, gate));
  return Error::success();
}

Error convertPRelu(NodeContext &c) {
  TRY(x, c.input(0));
  TRY(slope, c.input(1));
  // Before opset 7 a slope of C values applies along the channel axis.
  llvm::ArrayRef<int64_t> xs = shapeOf(x);
  if (c.opset() < 7 && shapeOf(slope).size() == 1 && xs.size() > 2 &&
      shapeOf(slope)[0] == xs[1]) {
    llvm::SmallVector<int64_t> channelShape(xs.size() - 1, 1);
    channelShape[0] = xs[1];
    slope = reshape(c, slope, channelShape);
  }
  Value positive = compare<tosa::GreaterEqualOp>(c, x, scalarLike(c, x, 0));
  c.setOutput(0, select(c, positive, x, binary<tosa::MulOp>(c, x, slope)));
  return Error::success();
}

/// Elu, Selu, Celu, ThresholdedRelu, Softplus, Softsign, Sign.
Error convertElu(NodeContext &c) {
  TRY(x, c.input(0));
  float alpha = c.floatAttr("alpha", 1.0f);
  Value positive = compare<tosa::GreaterEqualOp>(c, x, scalarLike(c, x, 0));
  Value negative = mulBy(c, addScalar(c, exp(c, x), -1), alpha);
  c.setOutput(0, select(c, positive, x, negative));
  return Error::success();
}

Error convertSelu(NodeContext &c) {
  TRY(x, c.input(0));
  float alpha = c.floatAttr("alpha", 1.67326319217681884765625f);
  float gamma = c.floatAttr("gamma", 1.05070102214813232421875f);
  Value positive = compare<tosa::GreaterOp>(c, x, scalarLike(c, x, 0));
  Value negative = mulBy(c, addScalar(c, exp(c, x), -1), alpha);
  c.setOutput(0, mulBy(c, select(c, positive, x, negative), gamma));
  return Error::success();
}

Error convertCelu(NodeContext &c) {
  TRY(x, c.input(0));
  float alpha = c.floatAttr("alpha", 1.0f);
  Value expPart =
      mulBy(c, addScalar(c, exp(c, mulBy(c, x, 1.0 / alpha)), -1), alpha);
  Value lo = binary<tosa::MinimumOp>(c, expPart, scalarLike(c, x, 0));
  Value hi = binary<tosa::MaximumOp>(c, x, scalarLike(c, x, 0));
  c.setOutput(0, binary<tosa::AddOp>(c, hi, lo));
  return Error::success();
}

Error convertThresholdedRelu(NodeContext &c) {
  TRY(x, c.input(0));
  float alpha = c.floatAttr("alpha", 1.0f);
  Value above = compare<tosa::GreaterOp>(c, x, scalarLike(c, x, alpha));
  c.setOutput(0, select(c, above, x, scalarLike(c, x, 0)));
  return Error::success();
}

Error convertSoftplus(NodeContext &c) {
  TRY(x, c.input(0));
  // max(x, 0) + log(1 + exp(-|x|)): no overflow for large |x|.
  Value absX = c.b.create<tosa::AbsOp>(c.loc, x.getType(), x);
  Value tail = addScalar(c, exp(c, mulBy(c, absX, -1)), 1);
  tail = c.b.create<tosa::LogOp>(c.loc, tail.getType(), tail);
  Value hi = binary<tosa::MaximumOp>(c, x, scalarLike(c, x, 0));
  c.setOutput(0, binary<tosa::AddOp>(c, hi, tail));
  return Error::success();
}

Error convertSoftsign(NodeContext &c) {
  TRY(x, c.input(0));
  Value absX = c.b.create<tosa::AbsOp>(c.loc, x.getType(), x);
  Value denom = addScalar(c, absX, 1);
  Value inv = c.b.create<tosa::ReciprocalOp>(c.loc, denom.getType(), denom);
  c.setOutput(0, binary<tosa::MulOp>(c, x, inv));
  return Error::success();
}

Error convertSign(NodeContext &c) {
  TRY(x, c.input(0));
  Value zero = scalarLike(c, x, 0);
  Value negative = select(c, compare<tosa::GreaterOp>(c, zero, x),
                          scalarLike(c, x, -1), zero);
  c.setOutput(0, select(c, compare<tosa::GreaterOp>(c, x, zero),
                        scalarLike(c, x, 1), negative));
  return Error::success();
}

/// Equal, Greater, GreaterOrEqual, Less, LessOrEqual (operands swapped),
/// And, Or, Xor.
template <typename OpTy, bool swap> Error convertCompare(NodeContext &c) {
  TRY(a, c.input(0));
  TRY(b, c.input(1));
  // Equality does not depend on the sign; order does.
  if (!std::is_same_v<OpTy, tosa::EqualOp> && c.inputIsUnsigned(0)) {
    a = flipSignBit(c, a);
    b = flipSignBit(c, b);
  }
  c.setOutput(0, swap ? compare<OpTy>(c, b, a) : compare<OpTy>(c, a, b));
  return Error::success();
}

Error convertNot(NodeContext &c) {
  TRY(x, c.input(0));
  c.setOutput(0, c.b.create<tosa::LogicalNotOp>(c.loc, x.getType(), x));
  return Error::success();
}

Error convertWhere(NodeContext &c) {
  TRY(cond, c.input(0));
  TRY(a, c.input(1));
  TRY(b, c.input(2));
  c.setOutput(0, select(c, cond, a, b));
  return Error::success();
}

Error convertCast(NodeContext &c) {
  TRY(x, c.input(0));
  TRY(outType, c.outputType(0));
  Type to = outType.getElementType(), from = elemOf(x);
  if (isa<FloatType>(from) && isa<IntegerType>(to) && !to.isInteger(1)) {
    // ONNX truncates toward zero; TOSA's cast rounds to nearest.
    Value down = c.b.create<tosa::FloorOp>(c.loc, x.getType(), x);
    Value up = c.b.create<tosa::CeilOp>(c.loc, x.getType(), x);
    x = select(c, compare<tosa::GreaterEqualOp>(c, x, scalarLike(c, x, 0)),
               down, up);
  }
  c.setOutput(
      0, castUnsigned(c, x, c.inputIsUnsigned(0), to, c.outputIsUnsigned(0)));
  return Error::success();
}

//===----------------------------------------------------------------------===//
// More shape ops
//===----------------------------------------------------------------------===//

/// Ops computed at import time only (OnnxFold.cpp): here, their inputs
/// were not constants.
Error convertFoldOnly(NodeContext &c) {
  for (const std::string &input : c.node.input())
    if (!input.empty() && !c.graph.constant(input))
      c.graph.missingConstants.push_back(input);
  return c.unsupported("its inputs are not constants");
}

Error convertConstantOfShape(NodeContext &c) {
  TRY(outType, c.outputType(0));
  double value = 0;
  if (const onnx::AttributeProto *a = c.attr("value")) {
    TRY(values, tensorDoubles(a->t()));
    if (values.size() != 1)
      return c.unsupported("value is not one element");
    value = values[0];
  }
  c.setOutput(0, splat(c, outType.getElementType(), outType.getShape(), value));
  return Error::success();
}

Error convertSlice(NodeContext &c) {
  TRY(x, c.input(0));
  TRY(outType, c.outputType(0));
  TRY(specs, sliceSpecs(c, shapeOf(x)));
  Value v = x;
  for (auto [axis, s] : llvm::enumerate(specs)) {
    int64_t dim = shapeOf(v)[axis];
    if (s.count == dim && s.step == 1)
      continue;
    int64_t start = s.start, step = s.step;
    if (step < 0) {
      // Reversed: element start - k|step| is (dim-1-start) + k|step| of
      // the reversed axis.
      v = c.b.create<tosa::ReverseOp>(c.loc, v.getType(), v,
                                      c.b.getI32IntegerAttr(axis));
      start = dim - 1 - start;
      step = -step;
    }
    if (step == 1 || s.count <= 1) {
      v = sliceAxis(c, v, axis, start, s.count);
      continue;
    }
    // Every step-th element: take count * step elements (padding the end
    // when the axis is shorter), view them as [count, step] and keep
    // column 0.
    int64_t span = s.count * step;
    int64_t have = std::min(span, dim - start);
    v = sliceAxis(c, v, axis, start, have);
    if (have < span) {
      llvm::SmallVector<int64_t> padding(2 * shapeOf(v).size(), 0);
      padding[2 * axis + 1] = span - have;
      auto padType = RankedTensorType::get({(int64_t)shapeOf(v).size(), 2},
                                           c.b.getI64Type());
      Value paddingValue = c.b.create<tosa::ConstOp>(
          c.loc, padType,
          DenseElementsAttr::get(padType, llvm::ArrayRef<int64_t>(padding)));
      llvm::SmallVector<int64_t> padded(shapeOf(v));
      padded[axis] = span;
      v = c.b.create<tosa::PadOp>(c.loc, withShape(v.getType(), padded), v,
                                  paddingValue);
    }
    llvm::SmallVector<int64_t> split(shapeOf(v).take_front(axis));
    split.append({s.count, step});
    split.append(shapeOf(v).begin() + axis + 1, shapeOf(v).end());
    v = reshape(c, v, split);
    v = sliceAxis(c, v, axis + 1, 0, 1);
    llvm::SmallVector<int64_t> joined(shapeOf(v));
    joined.erase(joined.begin() + axis + 1);
    v = reshape(c, v, joined);
  }
  c.setOutput(0, reshape(c, v, outType.getShape()));
  return Error::success();
}

Error convertSplit(NodeContext &c) {
  TRY(x, c.input(0));
  int64_t axis = normalizeAxis(c.intAttr("axis", 0), shapeOf(x).size());
  int64_t offset = 0;
  for (int i = 0; i < c.node.output_size(); ++i) {
    if (c.node.output(i).empty())
      continue;
    TRY(type, c.outputType(i));
    int64_t size = type.getDimSize(axis);
    c.setOutput(i, sliceAxis(c, x, axis, offset, size));
    offset += size;
  }
  return Error::success();
}

Error convertGather(NodeContext &c) {
  TRY(x, c.input(0));
  TRY(outType, c.outputType(0));
  int64_t axis = normalizeAxis(c.intAttr("axis", 0), shapeOf(x).size());
  int64_t dim = shapeOf(x)[axis];
  Value result;
  if (onnx::TensorProto *tensor = c.constantInput(1)) {
    TRY(indices, c.constantInts(1));
    for (int64_t &i : indices) {
      if (i < -dim || i >= dim)
        return c.unsupported("index " + llvm::Twine(i) + " is out of range");
      i = i < 0 ? i + dim : i;
    }
    llvm::SmallVector<int64_t> indexShape(tensor->dims().begin(),
                                          tensor->dims().end());
    result = gatherConst(c, x, axis, indices, indexShape);
  } else {
    TRY(rawIndices, c.input(1));
    Value indices = cast(c, rawIndices, c.b.getI32Type());
    // Negative indices count from the end.
    Value negative =
        compare<tosa::GreaterOp>(c, scalarLike(c, indices, 0), indices);
    indices = select(c, negative, addScalar(c, indices, dim), indices);
    result = gatherAxis(c, x, axis, indices);
  }
  c.setOutput(0, reshape(c, result, outType.getShape()));
  return Error::success();
}

/// Expand and Tile: tosa.tile from the input (ranks equalized) to the
/// inferred output shape.
Error convertTile(NodeContext &c) {
  TRY(x, c.input(0));
  TRY(outType, c.outputType(0));
  Value v = toRank(c, x, outType.getRank());
  llvm::SmallVector<int64_t> multiples;
  for (auto [have, want] : llvm::zip(shapeOf(v), outType.getShape()))
    multiples.push_back(have == want ? 1 : want / have);
  if (llvm::any_of(multiples, [](int64_t m) { return m != 1; }))
    v = c.b.create<tosa::TileOp>(c.loc,
                                 withShape(v.getType(), outType.getShape()), v,
                                 c.b.getDenseI64ArrayAttr(multiples));
  c.setOutput(0, v);
  return Error::success();
}

Error convertPad(NodeContext &c) {
  TRY(x, c.input(0));
  TRY(outType, c.outputType(0));
  int64_t rank = shapeOf(x).size();
  std::string mode = c.stringAttr("mode", "constant");
  std::vector<int64_t> pads;
  double value = 0;
  if (c.opset() < 11) {
    pads = c.intsAttr(c.opset() < 2 ? "paddings" : "pads")
               .value_or(std::vector<int64_t>());
    value = c.floatAttr("value", 0);
  } else {
    TRY(given, c.constantInts(1));
    pads = given;
    if (c.hasInput(2)) {
      TRY(v, c.constantDoubles(2));
      if (v.size() != 1)
        return c.unsupported("constant_value is not one element");
      value = v[0];
    }
    if (c.hasInput(3)) {
      TRY(axes, c.constantInts(3));
      std::vector<int64_t> full(2 * rank, 0);
      for (size_t k = 0; k < axes.size(); ++k) {
        int64_t axis = normalizeAxis(axes[k], rank);
        full[axis] = pads[k];
        full[axis + rank] = pads[k + axes.size()];
      }
      pads = full;
    }
  }
  if ((int64_t)pads.size() != 2 * rank)
    return c.unsupported("pads has " + llvm::Twine(pads.size()) +
                         " values for rank " + llvm::Twine(rank));
  Value v = x;
  // Negative pads crop.
  for (int64_t axis = 0; axis < rank; ++axis) {
    int64_t begin = std::max<int64_t>(0, -pads[axis]);
    int64_t end = std::max<int64_t>(0, -pads[axis + rank]);
    if (begin || end)
      v = sliceAxis(c, v, axis, begin, shapeOf(v)[axis] - begin - end);
  }
  if (mode == "constant") {
    llvm::SmallVector<int64_t> padding, shape;
    for (int64_t axis = 0; axis < rank; ++axis) {
      int64_t begin = std::max<int64_t>(0, pads[axis]);
      int64_t end = std::max<int64_t>(0, pads[axis + rank]);
      padding.append({begin, end});
      shape.push_back(shapeOf(v)[axis] + begin + end);
    }
    if (shape != shapeOf(v)) {
      auto padType = RankedTensorType::get({rank, 2}, c.b.getI64Type());
      Value paddingValue = c.b.create<tosa::ConstOp>(
          c.loc, padType,
          DenseElementsAttr::get(padType, llvm::ArrayRef<int64_t>(padding)));
      Value padConst = splat(c, elemOf(v), {}, value);
      v = c.b.create<tosa::PadOp>(c.loc,
                                  TypeRange{withShape(v.getType(), shape)},
                                  ValueRange{v, paddingValue, padConst});
    }
  } else if (mode == "edge" || mode == "reflect") {
    for (int64_t axis = 0; axis < rank; ++axis) {
      int64_t begin = std::max<int64_t>(0, pads[axis]);
      int64_t end = std::max<int64_t>(0, pads[axis + rank]);
      if (!begin && !end)
        continue;
      int64_t dim = shapeOf(v)[axis];
      if (mode == "reflect" && (begin >= dim || end >= dim))
        return c.unsupported("reflect pads as large as the dimension");
      llvm::SmallVector<Value> parts;
      auto element = [&](int64_t at) { return sliceAxis(c, v, axis, at, 1); };
      for (int64_t k = begin; k >= 1; --k)
        parts.push_back(element(mode == "edge" ? 0 : k));
      parts.push_back(v);
      for (int64_t k = 1; k <= end; ++k)
        parts.push_back(element(mode == "edge" ? dim - 1 : dim - 1 - k));
      v = concat(c, parts, axis);
    }
  } else {
    return c.unsupported("mode '" + mode + "'");
  }
  c.setOutput(0, reshape(c, v, outType.getShape()));
  return Error::success();
}

/// ONNX's cubic convolution weights of the four taps around a point at
/// `ratio` in (0, 1] past the second tap (Keys' kernel with parameter a).
std::array<double, 4> cubicWeights(double ratio, double a) {
  auto far = [a](double t) { // 1 <= |t| < 2
    return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a;
  };
  auto near = [a](double t) { // |t| <= 1
    return ((a + 2) * t - (a + 3)) * t * t + 1;
  };
  return {far(ratio + 1), near(ratio), near(1 - ratio), far(2 - ratio)};
}

/// Resize as separable weighted gathers at indices and weights computed
/// here, one resized axis after the other: nearest takes one tap, linear
/// two, cubic four (indices clamped to the edge, as ONNX's reference pads
/// with the edge; exclude_outside drops taps outside and renormalizes).
/// tf_crop_and_resize maps the output into the region of interest and gives
/// points outside the input extrapolation_value (a tap-less bias that the
/// following axes carry along, since their weights sum to one).
Error convertResize(NodeContext &c) {
  TRY(x, c.input(0));
  TRY(outType, c.outputType(0));
  std::string mode = c.stringAttr("mode", "nearest");
  if (mode != "nearest" && mode != "linear" && mode != "cubic")
    return c.unsupported("mode '" + mode + "'");
  std::string transform =
      c.opset() >= 11
          ? c.stringAttr("coordinate_transformation_mode", "half_pixel")
          : "asymmetric";
  std::string nearestMode =
      c.opset() >= 11 ? c.stringAttr("nearest_mode", "round_prefer_floor")
                      : "floor";
  double cubicA = c.floatAttr("cubic_coeff_a", -0.75f);
  bool excludeOutside = c.intAttr("exclude_outside", 0) != 0;
  double extrapolation = c.floatAttr("extrapolation_value", 0.0f);
  std::vector<double> scales, roi;
  unsigned scalesInput = c.opset() >= 11 ? 2 : 1;
  if (c.hasInput(scalesInput)) {
    TRY(given, c.constantDoubles(scalesInput));
    scales = given;
  }
  llvm::ArrayRef<int64_t> in = shapeOf(x), out = outType.getShape();
  if (transform == "tf_crop_and_resize") {
    if (!c.hasInput(1))
      return c.unsupported("tf_crop_and_resize without roi");
    TRY(given, c.constantDoubles(1));
    if (given.size() != 2 * in.size())
      return c.unsupported("roi of other than 2 x rank values");
    roi = given;
  }
  if ((mode != "nearest" || !roi.empty()) && !isa<FloatType>(elemOf(x)))
    return c.unsupported(mode + " resize of other than floats");
  Value v = x;
  for (size_t axis = 0; axis < in.size(); ++axis) {
    double scale = scales.size() == in.size() ? scales[axis]
                                              : (double)out[axis] / in[axis];
    if (scale == 1 && in[axis] == out[axis] && roi.empty())
      continue;
    // ONNX's reference measures the output in scaled input units.
    double outWidth = scale * in[axis];
    size_t numTaps = mode == "nearest" ? 1 : mode == "linear" ? 2 : 4;
    // taps[k][o]: the k-th input index and weight output o reads.
    std::vector<std::vector<int64_t>> index(numTaps);
    std::vector<std::vector<double>> weight(numTaps);
    std::vector<double> bias;
    for (int64_t o = 0; o < out[axis]; ++o) {
      double pos;
      if (transform == "align_corners")
        pos = outWidth == 1 ? 0 : o * (in[axis] - 1) / (outWidth - 1);
      else if (transform == "asymmetric")
        pos = o / scale;
      else if (transform == "pytorch_half_pixel")
        pos = outWidth == 1 ? -0.5 : (o + 0.5) / scale - 0.5;
      else if (transform == "half_pixel")
        pos = (o + 0.5) / scale - 0.5;
      else if (transform == "tf_half_pixel_for_nn")
        pos = (o + 0.5) / scale;
      else if (transform == "tf_crop_and_resize") {
        double start = roi[axis], end = roi[axis + in.size()];
        pos = outWidth == 1
                  ? (end - start) * (in[axis] - 1) / 2
                  : o * (end - start) * (in[axis] - 1) / (outWidth - 1);
        pos += start * (in[axis] - 1);
        if (pos < 0 || pos > in[axis] - 1) {
          for (size_t k = 0; k < numTaps; ++k) {
            index[k].push_back(0);
            weight[k].push_back(0);
          }
          bias.resize(o + 1, 0);
          bias[o] = extrapolation;
          continue;
        }
      } else
        return c.unsupported("coordinate_transformation_mode '" + transform +
                             "'");
      auto clampIndex = [&](double i) {
        return std::clamp<int64_t>((int64_t)i, 0, in[axis] - 1);
      };
      double base = std::floor(pos), frac = pos - base;
      if (mode == "nearest") {
        double pick = base;
        if (frac != 0) {
          if (nearestMode == "round_prefer_floor")
            pick = frac <= 0.5 ? base : base + 1;
          else if (nearestMode == "round_prefer_ceil")
            pick = frac < 0.5 ? base : base + 1;
          else if (nearestMode == "ceil")
            pick = base + 1;
          else if (nearestMode != "floor")
            return c.unsupported("nearest_mode '" + nearestMode + "'");
        }
        index[0].push_back(clampIndex(pick));
        weight[0].push_back(1);
      } else if (mode == "linear") {
        index[0].push_back(clampIndex(base));
        index[1].push_back(clampIndex(base + 1));
        weight[0].push_back(1 - frac);
        weight[1].push_back(frac);
      } else {
        // The reference's ratio is in (0, 1]: at an integer position the
        // point is the third tap's, with weight one.
        double left = std::ceil(pos) - 1, ratio = pos - left;
        std::array<double, 4> w = cubicWeights(ratio, cubicA);
        double sum = 0;
        for (size_t k = 0; k < 4; ++k) {
          double at = left - 1 + static_cast<double>(k);
          if (excludeOutside && (at < 0 || at > in[axis] - 1))
            w[k] = 0;
          sum += w[k];
        }
        for (size_t k = 0; k < 4; ++k) {
          double at = left - 1 + static_cast<double>(k);
          index[k].push_back(clampIndex(at < 0 ? 0 : at));
          weight[k].push_back(excludeOutside ? w[k] / sum : w[k]);
        }
      }
    }
    llvm::SmallVector<int64_t> wShape(in.size(), 1);
    wShape[axis] = out[axis];
    auto wType = RankedTensorType::get(wShape, elemOf(v));
    auto weights = [&](llvm::ArrayRef<double> w) -> Value {
      llvm::SmallVector<Attribute> values;
      for (double d : w)
        values.push_back(c.b.getFloatAttr(elemOf(v), d));
      return c.b.create<tosa::ConstOp>(c.loc, wType,
                                       DenseElementsAttr::get(wType, values));
    };
    bias.resize(out[axis], 0);
    bool hasBias = llvm::any_of(bias, [](double b) { return b != 0; });
    Value sum;
    for (size_t k = 0; k < numTaps; ++k) {
      Value tap = gatherConst(c, v, axis, index[k], {out[axis]});
      if (numTaps == 1 && !hasBias) {
        sum = tap;
        break;
      }
      Value term = binary<tosa::MulOp>(c, tap, weights(weight[k]));
      sum = sum ? binary<tosa::AddOp>(c, sum, term) : term;
    }
    if (hasBias)
      sum = binary<tosa::AddOp>(c, sum, weights(bias));
    v = sum;
  }
  c.setOutput(0, reshape(c, v, out));
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Reductions and normalizations
//===----------------------------------------------------------------------===//

enum class ReduceKind {
  Sum,
  Mean,
  Max,
  Min,
  Prod,
  L1,
  L2,
  LogSum,
  LogSumExp,
  SumSquare
};

template <ReduceKind kind> Error convertReduce(NodeContext &c) {
  TRY(x, c.input(0));
  TRY(outType, c.outputType(0));
  int64_t rank = shapeOf(x).size();
  std::vector<int64_t> axes;
  bool axesInput =
      c.opset() >= 18 || (kind == ReduceKind::Sum && c.opset() >= 13);
  if (axesInput) {
    if (c.hasInput(1)) {
      TRY(given, c.constantInts(1));
      axes = given;
    }
  } else {
    axes = c.intsAttr("axes").value_or(std::vector<int64_t>());
  }
  if (axes.empty()) {
    if (c.intAttr("noop_with_empty_axes", 0)) {
      c.setOutput(0, x);
      return Error::success();
    }
    for (int64_t k = 0; k < rank; ++k)
      axes.push_back(k);
  }
  for (int64_t &a : axes)
    a = normalizeAxis(a, rank);
  if (kind == ReduceKind::Mean && !isa<FloatType>(elemOf(x)))
    return c.unsupported("the mean of integers");
  Value v = x, r;
  switch (kind) {
  case ReduceKind::Sum:
    r = reduceAxes<tosa::ReduceSumOp>(c, v, axes);
    break;
  case ReduceKind::Mean:
    r = meanOver(c, v, axes);
    break;
  case ReduceKind::Max:
    r = reduceAxes<tosa::ReduceMaxOp>(c, v, axes);
    break;
  case ReduceKind::Min:
    r = reduceAxes<tosa::ReduceMinOp>(c, v, axes);
    break;
  case ReduceKind::Prod:
    r = reduceAxes<tosa::ReduceProdOp>(c, v, axes);
    break;
  case ReduceKind::L1:
    r = reduceAxes<tosa::ReduceSumOp>(
        c, c.b.create<tosa::AbsOp>(c.loc, v.getType(), v), axes);
    break;
  case ReduceKind::L2:
  case ReduceKind::SumSquare:
    r = reduceAxes<tosa::ReduceSumOp>(c, binary<tosa::MulOp>(c, v, v), axes);
    if (kind == ReduceKind::L2) {
      Value inv = c.b.create<tosa::RsqrtOp>(c.loc, r.getType(), r);
      r = c.b.create<tosa::ReciprocalOp>(c.loc, r.getType(), inv);
    }
    break;
  case ReduceKind::LogSum:
    r = reduceAxes<tosa::ReduceSumOp>(c, v, axes);
    r = c.b.create<tosa::LogOp>(c.loc, r.getType(), r);
    break;
  case ReduceKind::LogSumExp: {
    Value m = reduceAxes<tosa::ReduceMaxOp>(c, v, axes);
    r = reduceAxes<tosa::ReduceSumOp>(c, exp(c, binary<tosa::SubOp>(c, v, m)),
                                      axes);
    r = binary<tosa::AddOp>(c, c.b.create<tosa::LogOp>(c.loc, r.getType(), r),
                            m);
    break;
  }
  }
  c.setOutput(0, reshape(c, r, outType.getShape()));
  return Error::success();
}

/// (x - mean) / sqrt(var + epsilon) over `axes`; also the mean and the
/// inverse standard deviation (axes kept as size 1).
struct Normalized {
  Value y, mean, invStd;
};
Normalized normalize(NodeContext &c, Value x, llvm::ArrayRef<int64_t> axes,
                     float epsilon) {
  Value mean = meanOver(c, x, axes);
  Value centered = binary<tosa::SubOp>(c, x, mean);
  Value var = meanOver(c, binary<tosa::MulOp>(c, centered, centered), axes);
  Value shifted = addScalar(c, var, epsilon);
  Value invStd = c.b.create<tosa::RsqrtOp>(c.loc, shifted.getType(), shifted);
  return {binary<tosa::MulOp>(c, centered, invStd), mean, invStd};
}

Error convertInstanceNorm(NodeContext &c) {
  TRY(x, c.input(0));
  TRY(scale, c.input(1));
  TRY(bias, c.input(2));
  int64_t rank = shapeOf(x).size();
  if (rank < 3)
    return c.unsupported("rank < 3");
  llvm::SmallVector<int64_t> axes;
  for (int64_t k = 2; k < rank; ++k)
    axes.push_back(k);
  Normalized n = normalize(c, x, axes, c.floatAttr("epsilon", 1e-5f));
  llvm::SmallVector<int64_t> paramShape(rank, 1);
  paramShape[1] = shapeOf(x)[1];
  Value y = binary<tosa::MulOp>(c, n.y, reshape(c, scale, paramShape));
  c.setOutput(0, binary<tosa::AddOp>(c, y, reshape(c, bias, paramShape)));
  return Error::success();
}

Error convertLayerNorm(NodeContext &c) {
  TRY(x, c.input(0));
  TRY(scale, c.input(1));
  int64_t rank = shapeOf(x).size();
  int64_t axis = normalizeAxis(c.intAttr("axis", -1), rank);
  llvm::SmallVector<int64_t> axes;
  for (int64_t k = axis; k < rank; ++k)
    axes.push_back(k);
  Normalized n = normalize(c, x, axes, c.floatAttr("epsilon", 1e-5f));
  Value y = binary<tosa::MulOp>(c, n.y, scale);
  if (c.hasInput(2)) {
    TRY(bias, c.input(2));
    y = binary<tosa::AddOp>(c, y, bias);
  }
  c.setOutput(0, y);
  for (unsigned i : {1u, 2u}) {
    if (i >= (unsigned)c.node.output_size() || c.node.output(i).empty())
      continue;
    TRY(type, c.outputType(i));
    Value stat = i == 1 ? n.mean : n.invStd;
    c.setOutput(
        i, reshape(c, cast(c, stat, type.getElementType()), type.getShape()));
  }
  return Error::success();
}

//===----------------------------------------------------------------------===//
// ConvTranspose: a convolution of the zero-upsampled input
//===----------------------------------------------------------------------===//

/// y[o] = sum over i, k with o = i*s + k*d - pad of x[i] * w[k] is a plain
/// convolution (dilation d, kernel flipped) of x with s-1 zeros inserted
/// between elements and (k-1)*d - pad zeros added before.
Error convertConvTranspose(NodeContext &c) {
  TRY(xType, c.inputType(0));
  TRY(wType, c.inputType(1));
  TRY(outType, c.outputType(0));
  if (xType.getRank() != 4 && xType.getRank() != 3)
    return c.unsupported("only 1-D and 2-D transposed convolutions are");
  bool oneD = xType.getRank() == 3;
  llvm::SmallVector<int64_t, 4> xs = as4D(xType.getShape()),
                                ws = as4D(wType.getShape()),
                                os = as4D(outType.getShape());
  int64_t group = c.intAttr("group", 1);
  auto attr2 = [&](llvm::StringRef name, int64_t unit) {
    std::vector<int64_t> v =
        c.intsAttr(name).value_or(std::vector<int64_t>(oneD ? 1 : 2, unit));
    if (oneD && v.size() == 1)
      v.insert(v.begin(), unit);
    return v;
  };
  std::vector<int64_t> stride = attr2("strides", 1),
                       dilation = attr2("dilations", 1),
                       outPad = attr2("output_padding", 0);
  if (stride.size() != 2 || dilation.size() != 2 || outPad.size() != 2)
    return c.unsupported("strides, dilations or output_padding of the wrong "
                         "length");
  int64_t kernel[2] = {ws[2], ws[3]};
  // The padding before the output starts, per spatial axis.
  int64_t padBegin[2] = {0, 0};
  std::string autoPad = c.stringAttr("auto_pad", "NOTSET");
  bool givenShape = c.attr("output_shape") != nullptr;
  for (int i = 0; i < 2; ++i) {
    int64_t full = stride[i] * (xs[2 + i] - 1) + outPad[i] +
                   (kernel[i] - 1) * dilation[i] + 1;
    int64_t total = full - os[2 + i];
    if (givenShape || autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
      // ONNX's halves round down (Python's //), also below zero.
      int64_t half = total >= 0 ? total / 2 : -((-total + 1) / 2);
      padBegin[i] = autoPad == "SAME_UPPER" ? half : total - half;
    } else if (autoPad == "NOTSET") {
      if (auto p = c.intsAttr("pads")) {
        std::vector<int64_t> pads = *p;
        if (oneD && pads.size() == 2)
          pads = {0, pads[0], 0, pads[1]};
        if (pads.size() != 4)
          return c.unsupported("pads of other than 4 values");
        padBegin[i] = pads[i];
      }
    } else if (autoPad != "VALID") {
      return c.unsupported("auto_pad '" + autoPad + "'");
    }
  }
  TRY(x, c.input(0));
  Value u = transpose(c, reshape(c, x, xs), kToNHWC);
  // Zeros between elements: [N,H,W,C] -> [N,H,1,W,1,C] -> pad to
  // [N,H,s,W,s,C] -> [N,H*s,W*s,C], less the trailing zeros.
  int64_t n = xs[0], h = xs[2], w = xs[3], ch = xs[1];
  if (stride[0] > 1 || stride[1] > 1) {
    Value v = reshape(c, u, {n, h, 1, w, 1, ch});
    llvm::SmallVector<int64_t> padding(12, 0);
    padding[5] = stride[0] - 1;
    padding[9] = stride[1] - 1;
    auto padType = RankedTensorType::get({6, 2}, c.b.getI64Type());
    Value paddingValue = c.b.create<tosa::ConstOp>(
        c.loc, padType,
        DenseElementsAttr::get(padType, llvm::ArrayRef<int64_t>(padding)));
    v = c.b.create<tosa::PadOp>(
        c.loc, withShape(v.getType(), {n, h, stride[0], w, stride[1], ch}), v,
        paddingValue);
    v = reshape(c, v, {n, h * stride[0], w * stride[1], ch});
    u = slice(c, v, {0, 0, 0, 0},
              {n, (h - 1) * stride[0] + 1, (w - 1) * stride[1] + 1, ch});
  }
  // Zeros around: (k-1)*d - padBegin before, what the output size needs
  // after; negative amounts crop.
  llvm::SmallVector<int64_t, 4> convPad(4, 0);
  for (int i = 0; i < 2; ++i) {
    int64_t len = shapeOf(u)[1 + i];
    int64_t span = (kernel[i] - 1) * dilation[i];
    int64_t before = span - padBegin[i];
    int64_t after = os[2 + i] + span - len - before;
    int64_t cropBefore = std::max<int64_t>(0, -before);
    int64_t cropAfter = std::max<int64_t>(0, -after);
    if (cropBefore || cropAfter)
      u = sliceAxis(c, u, 1 + i, cropBefore, len - cropBefore - cropAfter);
    convPad[2 * i] = std::max<int64_t>(0, before);
    convPad[2 * i + 1] = std::max<int64_t>(0, after);
  }
  // W [C, M/g, KH, KW] -> per group OHWI [M/g, KH, KW, C/g], flipped.
  TRY(weight, c.input(1));
  Value wv = reshape(c, weight, ws);
  wv = c.b.create<tosa::ReverseOp>(c.loc, wv.getType(), wv,
                                   c.b.getI32IntegerAttr(2));
  wv = c.b.create<tosa::ReverseOp>(c.loc, wv.getType(), wv,
                                   c.b.getI32IntegerAttr(3));
  int64_t outPer = ws[1], inPer = ch / group, outChannels = outPer * group;
  TRY(bias, biasOrZeros(c, 2, xType.getElementType(), outChannels));
  auto nhwc = [&](int64_t outC) {
    return RankedTensorType::get({os[0], os[2], os[3], outC},
                                 outType.getElementType());
  };
  auto pad = c.b.getDenseI64ArrayAttr(convPad);
  auto unitStride = c.b.getDenseI64ArrayAttr({1, 1});
  auto dil = c.b.getDenseI64ArrayAttr(dilation);
  llvm::SmallVector<Value> parts;
  for (int64_t g = 0; g < group; ++g) {
    Value wg = sliceAxis(c, wv, 0, g * inPer, inPer); // [C/g, M/g, KH, KW]
    wg = transpose(c, wg, {1, 2, 3, 0});              // [M/g, KH, KW, C/g]
    Value xg = sliceAxis(c, u, 3, g * inPer, inPer);
    Value bg = sliceAxis(c, bias, 0, g * outPer, outPer);
    parts.push_back(c.b.create<tosa::Conv2DOp>(c.loc, nhwc(outPer), xg, wg, bg,
                                               pad, unitStride, dil));
  }
  Value result = concat(c, parts, 3);
  c.setOutput(0, reshape(c, transpose(c, result, kToNCHW), outType.getShape()));
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Quantization
//===----------------------------------------------------------------------===//

/// Input `i` (a scale or zero point) shaped to broadcast along `axis` of a
/// tensor of rank `rank`: a scalar stays one, a vector of per-axis values
/// becomes [1, ..., C, ..., 1].
Expected<Value> perAxis(NodeContext &c, unsigned i, int64_t rank) {
  TRY(v, c.input(i));
  if (shapeOf(v).size() != 1 || rank == 0)
    return reshape(c, v, llvm::SmallVector<int64_t>(rank, 1));
  int64_t axis = normalizeAxis(c.intAttr("axis", 1), rank);
  llvm::SmallVector<int64_t> shape(rank, 1);
  shape[axis] = shapeOf(v)[0];
  return reshape(c, v, shape);
}

Error convertQuantizeLinear(NodeContext &c) {
  TRY(x, c.input(0));
  TRY(outType, c.outputType(0));
  Type to = outType.getElementType();
  bool toUnsigned = c.outputIsUnsigned(0);
  if (!to.isInteger(8))
    return c.unsupported("quantizing to other than int8 and uint8");
  int64_t rank = shapeOf(x).size();
  TRY(scale, perAxis(c, 1, rank));
  // round(x / scale) + zero point, half to even (TOSA's cast), saturated to
  // the output's range (uint8: [0, 255], whose low bits cast keeps).
  Type i32 = c.b.getI32Type();
  Value inv = c.b.create<tosa::ReciprocalOp>(c.loc, scale.getType(), scale);
  Value q = cast(c, binary<tosa::MulOp>(c, x, inv), i32);
  if (c.hasInput(2)) {
    TRY(zero, perAxis(c, 2, rank));
    q = binary<tosa::AddOp>(
        c, q, castUnsigned(c, zero, c.inputIsUnsigned(2), i32, false));
  }
  c.setOutput(
      0,
      cast(c, toUnsigned ? clamp(c, q, 0, 255) : clamp(c, q, -128, 127), to));
  return Error::success();
}

Error convertDequantizeLinear(NodeContext &c) {
  TRY(x, c.input(0));
  TRY(outType, c.outputType(0));
  Type to = outType.getElementType();
  int64_t rank = shapeOf(x).size();
  TRY(scale, perAxis(c, 1, rank));
  Value v = castUnsigned(c, x, c.inputIsUnsigned(0), to, false);
  if (c.hasInput(2)) {
    TRY(zero, perAxis(c, 2, rank));
    v = binary<tosa::SubOp>(
        c, v, castUnsigned(c, zero, c.inputIsUnsigned(2), to, false));
  }
  c.setOutput(0, binary<tosa::MulOp>(c, v, scale));
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Scatters
//===----------------------------------------------------------------------===//

/// ScatterND's `reduction` if the node's opset defines it: none (every
/// opset), add and mul (16), max and min (18).
std::optional<std::string> scatterReduction(NodeContext &c) {
  std::string reduction = c.stringAttr("reduction", "none");
  if (reduction == "none" ||
      (c.opset() >= 16 && (reduction == "add" || reduction == "mul")) ||
      (c.opset() >= 18 && (reduction == "max" || reduction == "min")))
    return reduction;
  return std::nullopt;
}

/// A [1, 1, 1] constant of `elem` that leaves the reduction's other operand
/// as it is: 0 (add), 1 (mul), the lowest value (max, and none, whose
/// update is picked by a maximum) or the highest (min).
Value scatterIdentity(NodeContext &c, Type elem, llvm::StringRef reduction) {
  auto type = RankedTensorType::get({1, 1, 1}, elem);
  bool lowest = reduction == "none" || reduction == "max";
  Attribute value;
  if (reduction == "add" || reduction == "mul") {
    value = isa<FloatType>(elem)
                ? Attribute(c.b.getFloatAttr(elem, reduction == "mul"))
                : Attribute(c.b.getIntegerAttr(elem, reduction == "mul"));
  } else if (auto f = dyn_cast<FloatType>(elem)) {
    value = c.b.getFloatAttr(
        elem, llvm::APFloat::getInf(f.getFloatSemantics(), lowest));
  } else {
    unsigned width = elem.getIntOrFloatBitWidth();
    value = c.b.getIntegerAttr(elem,
                               lowest ? llvm::APInt::getSignedMinValue(width)
                                      : llvm::APInt::getSignedMaxValue(width));
  }
  return c.b.create<tosa::ConstOp>(c.loc, type,
                                   DenseElementsAttr::get(type, value));
}

/// ScatterND: data's leading dimensions, as many as the indices' last
/// dimension, are flattened to rows, each index tuple names one row, and
/// the updates are written there (none) or combined with it (add, mul,
/// max, min). With constant indices and no reduction this is one gather
/// from the data's rows followed by the updates', at row numbers computed
/// here (a later update of the same row wins, as in ONNX's reference).
/// Otherwise a row-by-update one-hot mask selects each row's updates
/// ([rows, updates, width]), reduced over the updates and combined with
/// the data: its size is rows x updates x width, fine for the masks and
/// small tables ScatterND writes at run time.
Error convertScatterND(NodeContext &c) {
  std::optional<std::string> reduction = scatterReduction(c);
  if (!reduction)
    return c.unsupported("reduction '" + c.stringAttr("reduction", "") +
                         "' is not defined in this opset");
  TRY(data, c.input(0));
  TRY(updates, c.input(2));
  TRY(indicesType, c.inputType(1));
  TRY(outType, c.outputType(0));
  llvm::ArrayRef<int64_t> dataShape = shapeOf(data);
  llvm::ArrayRef<int64_t> indexShape = indicesType.getShape();
  if (indexShape.empty() || indexShape.back() < 1 ||
      indexShape.back() > (int64_t)dataShape.size())
    return c.unsupported("indices of rank " + llvm::Twine(indexShape.size()) +
                         " whose last dimension is not in [1, " +
                         llvm::Twine(dataShape.size()) + "], the data's rank");
  auto product = [](llvm::ArrayRef<int64_t> dims) {
    return std::accumulate(dims.begin(), dims.end(), int64_t{1},
                           std::multiplies<int64_t>());
  };
  int64_t depth = indexShape.back();
  int64_t rows = product(dataShape.take_front(depth));
  int64_t width = product(dataShape.drop_front(depth));
  int64_t count = product(indexShape.drop_back());
  llvm::SmallVector<int64_t> strides(depth, 1);
  for (int64_t k = depth - 1; k > 0; --k)
    strides[k - 1] = strides[k] * dataShape[k];

  // Booleans go through i8: the reductions and gathers take integers.
  Type elem = elemOf(data);
  bool isBool = elem.isInteger(1);
  Type work = isBool ? c.b.getI8Type() : elem;
  Value dataRows = reshape(c, cast(c, data, work), {rows, width});
  Value updateRows = reshape(c, cast(c, updates, work), {count, width});
  // Unsigned order is signed order with the sign bits flipped.
  bool flip =
      c.inputIsUnsigned(0) && (*reduction == "max" || *reduction == "min");
  if (flip) {
    dataRows = flipSignBit(c, dataRows);
    updateRows = flipSignBit(c, updateRows);
  }
  auto finish = [&](Value rowsOut) {
    if (flip)
      rowsOut = flipSignBit(c, rowsOut);
    Value out = reshape(c, rowsOut, outType.getShape());
    c.setOutput(0, cast(c, out, elem));
    return Error::success();
  };

  Value flat;
  if (c.constantInput(1)) {
    TRY(indices, c.constantInts(1));
    std::vector<int32_t> rowOf(count);
    for (int64_t w = 0; w < count; ++w) {
      int64_t row = 0;
      for (int64_t k = 0; k < depth; ++k) {
        int64_t i = indices[w * depth + k], dim = dataShape[k];
        if (i < -dim || i >= dim)
          return c.unsupported("index " + llvm::Twine(i) +
                               " is out of range for dimension " +
                               llvm::Twine(k) + " of size " + llvm::Twine(dim));
        row += (i < 0 ? i + dim : i) * strides[k];
      }
      rowOf[w] = (int32_t)row;
    }
    if (*reduction == "none") {
      std::vector<int32_t> source(rows);
      std::iota(source.begin(), source.end(), 0);
      for (int64_t w = 0; w < count; ++w)
        source[rowOf[w]] = (int32_t)(rows + w);
      Value table = concat(c, {dataRows, updateRows}, 0);
      return finish(gatherAxis(c, table, 0, i32Const(c, source, {rows})));
    }
    flat = i32Const(c, rowOf, {1, count, 1});
  } else {
    TRY(rawIndices, c.input(1));
    Value indices =
        reshape(c, cast(c, rawIndices, c.b.getI32Type()), {count, depth});
    llvm::SmallVector<int32_t> dims(dataShape.take_front(depth)),
        strides32(strides.begin(), strides.end());
    Value negative =
        compare<tosa::GreaterOp>(c, scalarLike(c, indices, 0), indices);
    indices =
        select(c, negative,
               binary<tosa::AddOp>(c, indices, i32Const(c, dims, {1, depth})),
               indices);
    Value scaled =
        binary<tosa::MulOp>(c, indices, i32Const(c, strides32, {1, depth}));
    flat = reshape(c, reduce<tosa::ReduceSumOp>(c, scaled, 1), {1, count, 1});
  }

  std::vector<int32_t> rowIds(rows);
  std::iota(rowIds.begin(), rowIds.end(), 0);
  Value hit = compare<tosa::EqualOp>(c, i32Const(c, rowIds, {rows, 1, 1}),
                                     flat); // [rows, count, 1]
  Value picked = select(c, hit, reshape(c, updateRows, {1, count, width}),
                        scatterIdentity(c, work, *reduction));
  Value combined;
  if (*reduction == "add")
    combined = reduce<tosa::ReduceSumOp>(c, picked, 1);
  else if (*reduction == "mul")
    combined = reduce<tosa::ReduceProdOp>(c, picked, 1);
  else if (*reduction == "min")
    combined = reduce<tosa::ReduceMinOp>(c, picked, 1);
  else
    combined = reduce<tosa::ReduceMaxOp>(c, picked, 1);
  combined = reshape(c, combined, {rows, width});
  Value result;
  if (*reduction == "add")
    result = binary<tosa::AddOp>(c, dataRows, combined);
  else if (*reduction == "mul")
    result = binary<tosa::MulOp>(c, dataRows, combined);
  else if (*reduction == "max")
    result = binary<tosa::MaximumOp>(c, dataRows, combined);
  else if (*reduction == "min")
    result = binary<tosa::MinimumOp>(c, dataRows, combined);
  else {
    Value any = reshape(c, reduce<tosa::ReduceAnyOp>(c, hit, 1), {rows, 1});
    result = select(c, any, combined, dataRows);
  }
  return finish(result);
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

const llvm::StringMap<OpConverter> &converters() {
  static const llvm::StringMap<OpConverter> table = {
      {"Abs", convertAbs},
      {"Add", binaryOp<tosa::AddOp>},
      {"And", convertCompare<tosa::LogicalAndOp, false>},
      {"AveragePool", convertAveragePool},
      {"BatchNormalization", convertBatchNorm},
      {"Cast", convertCast},
      {"Ceil", unary<tosa::CeilOp>},
      {"Celu", convertCelu},
      {"Clip", convertClip},
      {"Concat", convertConcat},
      {"Constant", convertConstant},
      {"ConstantOfShape", convertConstantOfShape},
      {"Conv", convertConv},
      {"ConvTranspose", convertConvTranspose},
      {"Cos", unary<tosa::CosOp>},
      {"DequantizeLinear", convertDequantizeLinear},
      {"Div", convertDiv},
      {"Mod", convertMod},
      {"Dropout", convertDropout},
      {"Elu", convertElu},
      {"Equal", convertCompare<tosa::EqualOp, false>},
      {"Erf", unary<tosa::ErfOp>},
      {"Exp", unary<tosa::ExpOp>},
      {"Expand", convertTile},
      {"Flatten", convertReshapeLike},
      {"Floor", unary<tosa::FloorOp>},
      {"Gather", convertGather},
      {"Gemm", convertGemm},
      {"GlobalAveragePool", convertGlobalPool<false>},
      {"GlobalMaxPool", convertGlobalPool<true>},
      {"Greater", convertCompare<tosa::GreaterOp, false>},
      {"GreaterOrEqual", convertCompare<tosa::GreaterEqualOp, false>},
      {"HardSigmoid", convertHardSigmoid},
      {"HardSwish", convertHardSwish},
      {"Identity", passThrough},
      {"InstanceNormalization", convertInstanceNorm},
      {"LayerNormalization", convertLayerNorm},
      {"LeakyRelu", convertLeakyRelu},
      {"Less", convertCompare<tosa::GreaterOp, true>},
      {"LessOrEqual", convertCompare<tosa::GreaterEqualOp, true>},
      {"Log", unary<tosa::LogOp>},
      {"LogSoftmax", convertSoftmax<true>},
      {"MatMul", convertMatMul},
      {"Max", variadic<tosa::MaximumOp>},
      {"MaxPool", convertMaxPool},
      {"Min", variadic<tosa::MinimumOp>},
      {"Mul", binaryOp<tosa::MulOp>},
      {"Neg", unary<tosa::NegateOp>},
      {"Not", convertNot},
      {"Or", convertCompare<tosa::LogicalOrOp, false>},
      {"PRelu", convertPRelu},
      {"Pad", convertPad},
      {"Pow", convertPow},
      {"QuantizeLinear", convertQuantizeLinear},
      {"Range", convertFoldOnly},
      {"Reciprocal", unary<tosa::ReciprocalOp>},
      {"ReduceL1", convertReduce<ReduceKind::L1>},
      {"ReduceL2", convertReduce<ReduceKind::L2>},
      {"ReduceLogSum", convertReduce<ReduceKind::LogSum>},
      {"ReduceLogSumExp", convertReduce<ReduceKind::LogSumExp>},
      {"ReduceMax", convertReduce<ReduceKind::Max>},
      {"ReduceMean", convertReduce<ReduceKind::Mean>},
      {"ReduceMin", convertReduce<ReduceKind::Min>},
      {"ReduceProd", convertReduce<ReduceKind::Prod>},
      {"ReduceSum", convertReduce<ReduceKind::Sum>},
      {"ReduceSumSquare", convertReduce<ReduceKind::SumSquare>},
      {"Relu", convertRelu},
      {"Reshape", convertReshapeLike},
      {"Resize", convertResize},
      {"ScatterND", convertScatterND},
      {"Selu", convertSelu},
      {"Shape", convertFoldOnly},
      {"Sigmoid", unary<tosa::SigmoidOp>},
      {"Sign", convertSign},
      {"Sin", unary<tosa::SinOp>},
      {"Size", convertFoldOnly},
      {"Slice", convertSlice},
      {"Softmax", convertSoftmax<false>},
      {"Softplus", convertSoftplus},
      {"Softsign", convertSoftsign},
      {"Split", convertSplit},
      {"Sqrt", convertSqrt},
      {"Squeeze", convertReshapeLike},
      {"Sub", binaryOp<tosa::SubOp>},
      {"Sum", variadic<tosa::AddOp>},
      {"Tanh", unary<tosa::TanhOp>},
      {"ThresholdedRelu", convertThresholdedRelu},
      {"Tile", convertTile},
      {"Transpose", convertTranspose},
      {"Unsqueeze", convertReshapeLike},
      {"Where", convertWhere},
      {"Xor", convertCompare<tosa::LogicalXorOp, false>},
  };
  return table;
}

} // namespace

OpConverter tpuprof::import::findConverter(llvm::StringRef opType) {
  auto it = converters().find(opType);
  return it == converters().end() ? nullptr : it->second;
}

std::vector<std::string> tpuprof::import::supportedOpTypes() {
  std::vector<std::string> names;
  for (const auto &entry : converters())
    names.push_back(entry.getKey().str());
  std::sort(names.begin(), names.end());
  return names;
}
