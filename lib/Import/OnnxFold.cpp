//===- OnnxFold.cpp - Constant subgraphs computed at import ---------------===//
//
// Exporters compute shapes in the graph: torchvision's flatten is
// Shape -> Gather -> Unsqueeze -> Concat -> Reshape, an interpolation's
// sizes Shape -> Slice -> Concat. With every input shape bound these are
// constants: a node whose inputs are all (small) constants, or a Shape or
// Size node, is computed here and its outputs become constants, so nothing
// of it reaches the compiled model and the ops that read it (Reshape's
// shape, Resize's sizes, Slice's bounds) see constants.
//
//===----------------------------------------------------------------------===//

#include "OnnxGraph.h"
#include "OnnxWeights.h"

#include "llvm/ADT/StringSet.h"

#include <cmath>
#include <cstring>
#include <numeric>

using namespace tpuprof::import;
using llvm::Error;
using llvm::Expected;

namespace {

/// Tensors larger than this are not folded: the shapes and index tensors
/// folding is for are small, and a large constant computed here would be
/// held in the module as a second copy.
constexpr size_t kMaxFoldElements = 1 << 16;

/// A constant tensor being folded: integers (and bool) as int64_t,
/// floating-point values as double.
struct Folded {
  int32_t dtype = onnx::TensorProto::INT64;
  std::vector<int64_t> shape;
  std::vector<int64_t> ints;
  std::vector<double> floats;

  bool isFloat() const { return isFloatType(dtype); }
  size_t size() const { return isFloat() ? floats.size() : ints.size(); }
  double at(size_t k) const { return isFloat() ? floats[k] : (double)ints[k]; }
  int64_t intAt(size_t k) const {
    return isFloat() ? (int64_t)floats[k] : ints[k];
  }
  void push(double f, int64_t i) {
    if (isFloat())
      floats.push_back(f);
    else
      ints.push_back(i);
  }

  static bool isFloatType(int32_t t) {
    return t == onnx::TensorProto::FLOAT || t == onnx::TensorProto::DOUBLE;
  }
  static bool foldable(int32_t t) {
    switch (t) {
    case onnx::TensorProto::FLOAT:
    case onnx::TensorProto::DOUBLE:
    case onnx::TensorProto::INT64:
    case onnx::TensorProto::INT32:
    case onnx::TensorProto::INT16:
    case onnx::TensorProto::INT8:
    case onnx::TensorProto::BOOL:
      return true;
    default:
      return false;
    }
  }
};

int64_t product(llvm::ArrayRef<int64_t> dims) {
  return std::accumulate(dims.begin(), dims.end(), int64_t{1},
                         std::multiplies<int64_t>());
}

/// Constant input `i`, if it is one that folding takes.
Expected<std::optional<Folded>> readInput(NodeContext &c, unsigned i) {
  onnx::TensorProto *tensor = c.constantInput(i);
  if (!tensor || !Folded::foldable(tensor->data_type()))
    return std::nullopt;
  Folded f;
  f.dtype = tensor->data_type();
  f.shape.assign(tensor->dims().begin(), tensor->dims().end());
  if ((size_t)product(f.shape) > kMaxFoldElements)
    return std::nullopt;
  if (f.isFloat()) {
    auto values = c.constantDoubles(i);
    if (!values)
      return values.takeError();
    f.floats = std::move(*values);
  } else {
    auto values = c.constantInts(i);
    if (!values)
      return values.takeError();
    f.ints = std::move(*values);
  }
  if ((int64_t)f.size() != product(f.shape))
    return std::nullopt;
  return f;
}

template <typename T> void appendAs(std::string &raw, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  raw.append(bytes, sizeof(T));
}

/// Binds `f` as the constant output `i` of the node.
void bindOutput(NodeContext &c, unsigned i, const Folded &f) {
  onnx::TensorProto &t = c.graph.newTensor();
  t.set_name(c.node.output(i));
  t.set_data_type(f.dtype);
  for (int64_t d : f.shape)
    t.add_dims(d);
  std::string raw;
  for (size_t k = 0; k < f.size(); ++k) {
    switch (f.dtype) {
    case onnx::TensorProto::FLOAT:
      appendAs<float>(raw, (float)f.floats[k]);
      break;
    case onnx::TensorProto::DOUBLE:
      appendAs<double>(raw, f.floats[k]);
      break;
    case onnx::TensorProto::INT64:
      appendAs<int64_t>(raw, f.ints[k]);
      break;
    case onnx::TensorProto::INT32:
      appendAs<int32_t>(raw, (int32_t)f.ints[k]);
      break;
    case onnx::TensorProto::INT16:
      appendAs<int16_t>(raw, (int16_t)f.ints[k]);
      break;
    case onnx::TensorProto::INT8:
      appendAs<int8_t>(raw, (int8_t)f.ints[k]);
      break;
    default: // BOOL
      appendAs<uint8_t>(raw, f.ints[k] != 0);
      break;
    }
  }
  t.set_raw_data(std::move(raw));
  c.graph.addConstant(c.node.output(i), &t, c.loc);
}

/// For each element of `out`, the flat index of the element of `in` it
/// reads under numpy broadcasting.
std::vector<size_t> broadcastMap(llvm::ArrayRef<int64_t> in,
                                 llvm::ArrayRef<int64_t> out) {
  size_t rank = out.size();
  std::vector<int64_t> inStride(rank, 0);
  int64_t stride = 1;
  for (size_t k = 0; k < in.size(); ++k) {
    size_t axis = rank - 1 - k;
    int64_t dim = in[in.size() - 1 - k];
    inStride[axis] = dim == 1 ? 0 : stride;
    stride *= dim;
  }
  size_t total = product(out);
  std::vector<size_t> map(total);
  std::vector<int64_t> index(rank, 0);
  for (size_t flat = 0; flat < total; ++flat) {
    size_t at = 0;
    for (size_t axis = 0; axis < rank; ++axis)
      at += index[axis] * inStride[axis];
    map[flat] = at;
    for (size_t axis = rank; axis-- > 0;) {
      if (++index[axis] < out[axis])
        break;
      index[axis] = 0;
    }
  }
  return map;
}

std::vector<int64_t> broadcastShapes(llvm::ArrayRef<int64_t> a,
                                     llvm::ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i + a.size() >= rank ? a[i + a.size() - rank] : 1;
    int64_t db = i + b.size() >= rank ? b[i + b.size() - rank] : 1;
    out[i] = da == 1 ? db : da;
  }
  return out;
}

/// Gathers `in` at flat indices `map` into a tensor of `shape`.
Folded take(const Folded &in, llvm::ArrayRef<size_t> map,
            llvm::ArrayRef<int64_t> shape) {
  Folded out;
  out.dtype = in.dtype;
  out.shape.assign(shape.begin(), shape.end());
  for (size_t k : map)
    out.push(in.isFloat() ? in.floats[k] : 0, in.isFloat() ? 0 : in.ints[k]);
  return out;
}

/// ONNX's Mod: with `fmod`, C's fmod (the dividend's sign); without it,
/// the divisor's sign, as Python's %.
double modFloat(double x, double y, bool fmod) {
  double r = std::fmod(x, y);
  if (!fmod && r != 0 && (r < 0) != (y < 0))
    r += y;
  return r;
}

int64_t modInt(int64_t i, int64_t j, bool fmod) {
  // INT64_MIN % -1 overflows in C++; its remainder is 0.
  int64_t r = j == -1 ? 0 : i % j;
  if (!fmod && r != 0 && (r < 0) != (j < 0))
    r += j;
  return r;
}

Expected<std::optional<Folded>> foldBinary(llvm::StringRef op, const Folded &a,
                                           const Folded &b, bool fmod) {
  static const llvm::StringSet<> comparisons = {
      "Equal",          "Less", "Greater", "LessOrEqual",
      "GreaterOrEqual", "And",  "Or",      "Xor"};
  Folded out;
  out.shape = broadcastShapes(a.shape, b.shape);
  bool compare = comparisons.contains(op);
  out.dtype = compare ? (int32_t)onnx::TensorProto::BOOL : a.dtype;
  std::vector<size_t> ma = broadcastMap(a.shape, out.shape),
                      mb = broadcastMap(b.shape, out.shape);
  bool floating = a.isFloat() || b.isFloat();
  for (size_t k = 0; k < ma.size(); ++k) {
    double x = a.at(ma[k]), y = b.at(mb[k]);
    int64_t i = a.intAt(ma[k]), j = b.intAt(mb[k]);
    double f = 0;
    int64_t n = 0;
    if (op == "Add")
      f = x + y, n = i + j;
    else if (op == "Sub")
      f = x - y, n = i - j;
    else if (op == "Mul")
      f = x * y, n = i * j;
    else if (op == "Div") {
      if (!floating && j == 0)
        return std::nullopt;
      f = x / y, n = floating ? 0 : i / j;
    } else if (op == "Mod") {
      if (!floating && j == 0)
        return std::nullopt;
      f = floating ? modFloat(x, y, fmod) : 0;
      n = floating ? 0 : modInt(i, j, fmod);
    } else if (op == "Max")
      f = std::max(x, y), n = std::max(i, j);
    else if (op == "Min")
      f = std::min(x, y), n = std::min(i, j);
    else if (op == "Equal")
      n = floating ? x == y : i == j;
    else if (op == "Less")
      n = floating ? x < y : i < j;
    else if (op == "Greater")
      n = floating ? x > y : i > j;
    else if (op == "LessOrEqual")
      n = floating ? x <= y : i <= j;
    else if (op == "GreaterOrEqual")
      n = floating ? x >= y : i >= j;
    else if (op == "And")
      n = i && j;
    else if (op == "Or")
      n = i || j;
    else if (op == "Xor")
      n = (i != 0) != (j != 0);
    else
      return std::nullopt;
    out.push(f, n);
  }
  return out;
}

Expected<std::optional<Folded>> foldNodeValue(NodeContext &c,
                                              std::vector<Folded> &in) {
  llvm::StringRef op = c.node.op_type();
  auto output = [&](Folded f) -> std::optional<Folded> { return f; };
  if (op == "Identity")
    return output(in[0]);
  if (op == "Cast") {
    int32_t to = (int32_t)c.intAttr("to", 0);
    if (!Folded::foldable(to))
      return std::nullopt;
    Folded out;
    out.dtype = to;
    out.shape = in[0].shape;
    for (size_t k = 0; k < in[0].size(); ++k) {
      double f = in[0].at(k);
      int64_t i = in[0].isFloat() ? (int64_t)std::trunc(f) : in[0].ints[k];
      if (to == onnx::TensorProto::BOOL)
        i = in[0].isFloat() ? f != 0 : i != 0;
      out.push(f, i);
    }
    return out;
  }
  if (op == "Neg" || op == "Abs" || op == "Not" || op == "Floor" ||
      op == "Ceil" || op == "Sqrt") {
    Folded out = in[0];
    for (size_t k = 0; k < out.size(); ++k) {
      if (out.isFloat()) {
        double &f = out.floats[k];
        f = op == "Neg"     ? -f
            : op == "Abs"   ? std::fabs(f)
            : op == "Floor" ? std::floor(f)
            : op == "Ceil"  ? std::ceil(f)
            : op == "Sqrt"  ? std::sqrt(f)
                            : f;
      } else {
        int64_t &i = out.ints[k];
        if (op == "Sqrt")
          return std::nullopt;
        i = op == "Neg" ? -i : op == "Abs" ? std::abs(i) : op == "Not" ? !i : i;
      }
    }
    return out;
  }
  if (in.size() == 2 &&
      llvm::is_contained({"Add", "Sub", "Mul", "Div", "Mod", "Max", "Min",
                          "Equal", "Less", "Greater", "LessOrEqual",
                          "GreaterOrEqual", "And", "Or", "Xor"},
                         op))
    return foldBinary(op, in[0], in[1], c.intAttr("fmod", 0) != 0);
  if (op == "Where") {
    std::vector<int64_t> shape =
        broadcastShapes(broadcastShapes(in[0].shape, in[1].shape), in[2].shape);
    std::vector<size_t> mc = broadcastMap(in[0].shape, shape),
                        ma = broadcastMap(in[1].shape, shape),
                        mb = broadcastMap(in[2].shape, shape);
    Folded out;
    out.dtype = in[1].dtype;
    out.shape = shape;
    for (size_t k = 0; k < mc.size(); ++k) {
      const Folded &from = in[0].ints[mc[k]] ? in[1] : in[2];
      size_t at = in[0].ints[mc[k]] ? ma[k] : mb[k];
      out.push(from.at(at), from.intAt(at));
    }
    return out;
  }
  if (op == "Reshape" || op == "Flatten" || op == "Squeeze" ||
      op == "Unsqueeze" || op == "Expand") {
    auto type = c.outputType(0);
    if (!type)
      return type.takeError();
    Folded out = in[0];
    llvm::ArrayRef<int64_t> shape = type->getShape();
    if (op == "Expand") {
      if ((size_t)product(shape) > kMaxFoldElements)
        return std::nullopt;
      out = take(in[0], broadcastMap(in[0].shape, shape), shape);
    }
    out.shape.assign(shape.begin(), shape.end());
    return out;
  }
  if (op == "Concat") {
    int64_t rank = in[0].shape.size();
    int64_t axis = c.intAttr("axis", 0);
    if (axis < 0)
      axis += rank;
    Folded out;
    out.dtype = in[0].dtype;
    out.shape = in[0].shape;
    out.shape[axis] = 0;
    for (const Folded &f : in)
      out.shape[axis] += f.shape[axis];
    int64_t outer = product(llvm::ArrayRef(out.shape).take_front(axis));
    for (int64_t o = 0; o < outer; ++o)
      for (const Folded &f : in) {
        int64_t chunk = product(llvm::ArrayRef(f.shape).drop_front(axis));
        for (int64_t k = o * chunk; k < (o + 1) * chunk; ++k)
          out.push(f.isFloat() ? f.floats[k] : 0, f.isFloat() ? 0 : f.ints[k]);
      }
    return out;
  }
  if (op == "Transpose") {
    // swin_t's window paddings pass through Transpose on their way to Pad.
    size_t rank = in[0].shape.size();
    std::vector<int64_t> perm(rank);
    for (size_t k = 0; k < rank; ++k)
      perm[k] = rank - 1 - k;
    if (auto attr = c.intsAttr("perm"))
      perm = *attr;
    if (perm.size() != rank)
      return std::nullopt;
    std::vector<int64_t> inStride(rank, 1), shape(rank);
    for (size_t k = rank; k-- > 1;)
      inStride[k - 1] = inStride[k] * in[0].shape[k];
    for (size_t k = 0; k < rank; ++k) {
      if (perm[k] < 0 || (size_t)perm[k] >= rank)
        return std::nullopt;
      shape[k] = in[0].shape[perm[k]];
    }
    std::vector<size_t> map;
    std::vector<int64_t> index(rank, 0);
    for (size_t flat = 0; flat < in[0].size(); ++flat) {
      size_t at = 0;
      for (size_t k = 0; k < rank; ++k)
        at += index[k] * inStride[perm[k]];
      map.push_back(at);
      for (size_t k = rank; k-- > 0;) {
        if (++index[k] < shape[k])
          break;
        index[k] = 0;
      }
    }
    return take(in[0], map, shape);
  }
  if (op == "Gather") {
    const Folded &data = in[0], &indices = in[1];
    int64_t rank = data.shape.size();
    int64_t axis = c.intAttr("axis", 0);
    if (axis < 0)
      axis += rank;
    int64_t dim = data.shape[axis];
    int64_t outer = product(llvm::ArrayRef(data.shape).take_front(axis));
    int64_t inner = product(llvm::ArrayRef(data.shape).drop_front(axis + 1));
    Folded out;
    out.dtype = data.dtype;
    out.shape.assign(data.shape.begin(), data.shape.begin() + axis);
    out.shape.insert(out.shape.end(), indices.shape.begin(),
                     indices.shape.end());
    out.shape.insert(out.shape.end(), data.shape.begin() + axis + 1,
                     data.shape.end());
    for (int64_t o = 0; o < outer; ++o)
      for (size_t n = 0; n < indices.size(); ++n) {
        int64_t index =
            indices.ints[n] < 0 ? indices.ints[n] + dim : indices.ints[n];
        if (index < 0 || index >= dim)
          return std::nullopt;
        for (int64_t k = 0; k < inner; ++k) {
          size_t at = (o * dim + index) * inner + k;
          out.push(data.at(at), data.intAt(at));
        }
      }
    return out;
  }
  if (op == "Slice") {
    auto specs = sliceSpecs(c, in[0].shape);
    if (!specs)
      return specs.takeError();
    std::vector<int64_t> shape;
    for (const SliceSpec &s : *specs)
      shape.push_back(s.count);
    std::vector<size_t> map;
    std::vector<int64_t> index(shape.size(), 0);
    size_t total = product(shape);
    for (size_t flat = 0; flat < total; ++flat) {
      size_t at = 0;
      for (size_t axis = 0; axis < shape.size(); ++axis)
        at = at * in[0].shape[axis] + (*specs)[axis].start +
             index[axis] * (*specs)[axis].step;
      map.push_back(at);
      for (size_t axis = shape.size(); axis-- > 0;) {
        if (++index[axis] < shape[axis])
          break;
        index[axis] = 0;
      }
    }
    return take(in[0], map, shape);
  }
  if (op == "ConstantOfShape") {
    Folded out;
    out.shape = in[0].ints;
    if ((size_t)product(out.shape) > kMaxFoldElements)
      return std::nullopt;
    out.dtype = onnx::TensorProto::FLOAT;
    double f = 0;
    int64_t i = 0;
    if (const onnx::AttributeProto *value = c.attr("value")) {
      out.dtype = value->t().data_type();
      if (!Folded::foldable(out.dtype))
        return std::nullopt;
      auto values = tensorDoubles(value->t());
      if (!values)
        return values.takeError();
      if (values->size() != 1)
        return std::nullopt;
      f = (*values)[0];
      i = (int64_t)f;
    }
    for (int64_t k = 0; k < product(out.shape); ++k)
      out.push(f, i);
    return out;
  }
  if (op == "Range") {
    Folded out;
    out.dtype = in[0].dtype;
    double start = in[0].at(0), limit = in[1].at(0), delta = in[2].at(0);
    if (delta == 0)
      return std::nullopt;
    int64_t n =
        std::max<int64_t>(0, (int64_t)std::ceil((limit - start) / delta));
    if ((size_t)n > kMaxFoldElements)
      return std::nullopt;
    out.shape = {n};
    for (int64_t k = 0; k < n; ++k)
      out.push(start + k * delta, in[0].intAt(0) + k * in[2].intAt(0));
    return out;
  }
  if (op == "ScatterND") {
    // swin_t's shifted-window attention mask: slices of a zero image set
    // to region numbers, all constant once the input shape is bound.
    const Folded &indices = in[1], &updates = in[2];
    Folded out = in[0];
    std::string reduction = c.stringAttr("reduction", "none");
    bool known =
        reduction == "none" ||
        (c.opset() >= 16 && (reduction == "add" || reduction == "mul")) ||
        (c.opset() >= 18 && (reduction == "max" || reduction == "min"));
    if (!known || indices.isFloat() || indices.shape.empty() ||
        updates.dtype != out.dtype)
      return std::nullopt; // the converter says why
    int64_t depth = indices.shape.back();
    if (depth < 1 || depth > (int64_t)out.shape.size())
      return std::nullopt;
    int64_t width = product(llvm::ArrayRef(out.shape).drop_front(depth));
    int64_t count = product(llvm::ArrayRef(indices.shape).drop_back());
    if ((int64_t)updates.size() != count * width)
      return std::nullopt;
    for (int64_t w = 0; w < count; ++w) {
      int64_t row = 0;
      for (int64_t k = 0; k < depth; ++k) {
        int64_t i = indices.ints[w * depth + k], dim = out.shape[k];
        if (i < -dim || i >= dim)
          return std::nullopt;
        row = row * dim + (i < 0 ? i + dim : i);
      }
      // One rule for both element kinds.
      auto combine = [&](auto &x, auto u) {
        x = reduction == "add"   ? x + u
            : reduction == "mul" ? x * u
            : reduction == "max" ? std::max(x, u)
            : reduction == "min" ? std::min(x, u)
                                 : u;
      };
      for (int64_t j = 0; j < width; ++j) {
        size_t at = row * width + j, from = w * width + j;
        if (out.isFloat())
          combine(out.floats[at], updates.floats[from]);
        else
          combine(out.ints[at], updates.ints[from]);
      }
    }
    return out;
  }
  return std::nullopt;
}

} // namespace

Expected<std::vector<SliceSpec>>
tpuprof::import::sliceSpecs(NodeContext &c, llvm::ArrayRef<int64_t> shape) {
  int64_t rank = shape.size();
  std::vector<int64_t> starts, ends, axes, steps;
  if (c.opset() < 10) {
    starts = c.intsAttr("starts").value_or(std::vector<int64_t>());
    ends = c.intsAttr("ends").value_or(std::vector<int64_t>());
    axes = c.intsAttr("axes").value_or(std::vector<int64_t>());
  } else {
    auto s = c.constantInts(1);
    if (!s)
      return s.takeError();
    starts = *s;
    auto e = c.constantInts(2);
    if (!e)
      return e.takeError();
    ends = *e;
    if (c.hasInput(3)) {
      auto a = c.constantInts(3);
      if (!a)
        return a.takeError();
      axes = *a;
    }
    if (c.hasInput(4)) {
      auto st = c.constantInts(4);
      if (!st)
        return st.takeError();
      steps = *st;
    }
  }
  if (axes.empty())
    for (size_t k = 0; k < starts.size(); ++k)
      axes.push_back(k);
  if (steps.empty())
    steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() ||
      steps.size() != starts.size())
    return c.unsupported("starts, ends, axes and steps differ in length");
  std::vector<SliceSpec> specs;
  for (int64_t d : shape)
    specs.push_back({0, 1, d});
  for (size_t k = 0; k < starts.size(); ++k) {
    int64_t axis = axes[k] < 0 ? axes[k] + rank : axes[k];
    if (axis < 0 || axis >= rank)
      return c.unsupported("axis " + llvm::Twine(axes[k]) + " is out of range");
    int64_t dim = shape[axis], step = steps[k];
    if (step == 0)
      return c.unsupported("a step of 0");
    int64_t start = starts[k], end = ends[k];
    start = start < 0 ? std::max<int64_t>(start, -dim) + dim : start;
    end = end < 0 ? std::max<int64_t>(end, -dim - 1) + dim : end;
    int64_t count;
    if (step > 0) {
      start = std::clamp<int64_t>(start, 0, dim);
      end = std::clamp<int64_t>(end, 0, dim);
      count = end > start ? (end - start + step - 1) / step : 0;
    } else {
      start = std::clamp<int64_t>(start, 0, dim - 1);
      end = std::clamp<int64_t>(end, -1, dim - 1);
      count = start > end ? (start - end + (-step) - 1) / (-step) : 0;
    }
    specs[axis] = {start, step, count};
  }
  return specs;
}

Expected<bool> tpuprof::import::foldNode(NodeContext &c) {
  llvm::StringRef op = c.node.op_type();
  if (op == "Shape" || op == "Size") {
    auto type = c.inputType(0);
    if (!type)
      return type.takeError();
    Folded out;
    out.dtype = onnx::TensorProto::INT64;
    llvm::ArrayRef<int64_t> dims = type->getShape();
    if (op == "Size") {
      out.ints = {type->getNumElements()};
    } else {
      int64_t rank = dims.size();
      int64_t start = c.intAttr("start", 0), end = c.intAttr("end", rank);
      start = std::clamp<int64_t>(start < 0 ? start + rank : start, 0, rank);
      end = std::clamp<int64_t>(end < 0 ? end + rank : end, 0, rank);
      for (int64_t k = start; k < end; ++k)
        out.ints.push_back(dims[k]);
      out.shape = {(int64_t)out.ints.size()};
    }
    bindOutput(c, 0, out);
    return true;
  }
  static const llvm::StringSet<> foldable = {"Identity",    "Cast",
                                             "Neg",         "Abs",
                                             "Not",         "Floor",
                                             "Ceil",        "Sqrt",
                                             "Add",         "Sub",
                                             "Mul",         "Div",
                                             "Mod",         "Max",
                                             "Min",         "Equal",
                                             "Less",        "Greater",
                                             "LessOrEqual", "GreaterOrEqual",
                                             "And",         "Or",
                                             "Xor",         "Where",
                                             "Reshape",     "Flatten",
                                             "Squeeze",     "Unsqueeze",
                                             "Expand",      "Transpose",
                                             "Concat",      "Gather",
                                             "Slice",       "ConstantOfShape",
                                             "Range",       "ScatterND"};
  if (!foldable.contains(op) || c.node.output_size() != 1)
    return false;
  std::vector<Folded> inputs;
  for (int i = 0; i < c.node.input_size(); ++i) {
    if (!c.hasInput(i))
      continue;
    auto value = readInput(c, i);
    if (!value)
      return value.takeError();
    if (!*value)
      return false;
    inputs.push_back(std::move(**value));
  }
  if (inputs.empty())
    return false;
  auto folded = foldNodeValue(c, inputs);
  if (!folded)
    return folded.takeError();
  if (!*folded)
    return false;
  bindOutput(c, 0, **folded);
  return true;
}
