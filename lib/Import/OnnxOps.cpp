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

/// Max, Min, Sum: variadic, folded pairwise.
template <typename OpTy> Error variadic(NodeContext &c) {
  TRY(acc, c.input(0));
  Value result = acc;
  for (int i = 1; i < c.node.input_size(); ++i) {
    TRY(next, c.input(i));
    result = binary<OpTy>(c, result, next);
  }
  c.setOutput(0, result);
  return Error::success();
}

Error convertDiv(NodeContext &c) {
  TRY(a, c.input(0));
  TRY(b, c.input(1));
  if (isa<FloatType>(elemOf(a))) {
    Value inv = c.b.create<tosa::ReciprocalOp>(c.loc, b.getType(), b);
    c.setOutput(0, binary<tosa::MulOp>(c, a, inv));
  } else if (elemOf(a).isInteger(32)) {
    c.setOutput(0, binary<tosa::IntDivOp>(c, a, b));
  } else {
    return c.unsupported("integer division of other than int32");
  }
  return Error::success();
}

Error convertPow(NodeContext &c) {
  TRY(a, c.input(0));
  TRY(b, c.input(1));
  if (!isa<FloatType>(elemOf(a)))
    return c.unsupported("integer bases");
  // ONNX lets the exponent's type differ; TOSA's pow takes one type.
  if (elemOf(b) != elemOf(a))
    b = c.b.create<tosa::CastOp>(c.loc, withShape(a.getType(), shapeOf(b)), b);
  c.setOutput(0, binary<tosa::PowOp>(c, a, b));
  return Error::success();
}

Error convertDropout(NodeContext &c) {
  TRY(x, c.input(0));
  if (onnx::TensorProto *training = c.constantInput(2)) {
    TRY(mode, tensorInts(*training));
    if (!mode.empty() && mode[0])
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

Error convertConv(NodeContext &c) {
  TRY(xType, c.inputType(0));
  TRY(wType, c.inputType(1));
  TRY(outType, c.outputType(0));
  if (xType.getRank() != 4 && xType.getRank() != 3)
    return c.unsupported("only 1-D and 2-D convolutions are");
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

Error convertPool(NodeContext &c, bool isMax) {
  TRY(xType4, c.inputType(0));
  TRY(outType4, c.outputType(0));
  RankedTensorType xType = xType4, outType = outType4;
  if (xType.getRank() != 4 && xType.getRank() != 3)
    return c.unsupported("only 1-D and 2-D pools are");
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
  c.setOutput(0,
              reshape(c, transpose(c, result, kToNCHW), outType4.getShape()));
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
// The table
//===----------------------------------------------------------------------===//

const llvm::StringMap<OpConverter> &converters() {
  static const llvm::StringMap<OpConverter> table = {
      {"Abs", unary<tosa::AbsOp>},
      {"Add", binaryOp<tosa::AddOp>},
      {"AveragePool", convertAveragePool},
      {"BatchNormalization", convertBatchNorm},
      {"Ceil", unary<tosa::CeilOp>},
      {"Clip", convertClip},
      {"Concat", convertConcat},
      {"Constant", convertConstant},
      {"Conv", convertConv},
      {"Div", convertDiv},
      {"Dropout", convertDropout},
      {"Erf", unary<tosa::ErfOp>},
      {"Exp", unary<tosa::ExpOp>},
      {"Flatten", convertReshapeLike},
      {"Floor", unary<tosa::FloorOp>},
      {"Gemm", convertGemm},
      {"GlobalAveragePool", convertGlobalPool<false>},
      {"GlobalMaxPool", convertGlobalPool<true>},
      {"Identity", passThrough},
      {"LeakyRelu", convertLeakyRelu},
      {"Log", unary<tosa::LogOp>},
      {"LogSoftmax", convertSoftmax<true>},
      {"MatMul", convertMatMul},
      {"Max", variadic<tosa::MaximumOp>},
      {"MaxPool", convertMaxPool},
      {"Min", variadic<tosa::MinimumOp>},
      {"Mul", binaryOp<tosa::MulOp>},
      {"Neg", unary<tosa::NegateOp>},
      {"Pow", convertPow},
      {"Reciprocal", unary<tosa::ReciprocalOp>},
      {"Relu", convertRelu},
      {"Reshape", convertReshapeLike},
      {"Sigmoid", unary<tosa::SigmoidOp>},
      {"Softmax", convertSoftmax<false>},
      {"Sqrt", convertSqrt},
      {"Squeeze", convertReshapeLike},
      {"Sub", binaryOp<tosa::SubOp>},
      {"Sum", variadic<tosa::AddOp>},
      {"Tanh", unary<tosa::TanhOp>},
      {"Transpose", convertTranspose},
      {"Unsqueeze", convertReshapeLike},
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
