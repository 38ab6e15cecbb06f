//===- OnnxWeights.cpp - ONNX tensors to MLIR attributes ------------------===//

#include "OnnxWeights.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemAlloc.h"

#include <cstring>

using namespace mlir;

namespace {

llvm::Error fail(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

/// Tensors of more elements than this are blobs; smaller ones stay
/// readable (and foldable) in the IR.
constexpr int64_t kInlineElements = 16;

size_t elemSizeOf(int32_t type) {
  switch (type) {
  case onnx::TensorProto::BOOL:
  case onnx::TensorProto::INT8:
  case onnx::TensorProto::UINT8:
    return 1;
  case onnx::TensorProto::INT16:
  case onnx::TensorProto::UINT16:
  case onnx::TensorProto::FLOAT16:
  case onnx::TensorProto::BFLOAT16:
    return 2;
  case onnx::TensorProto::INT32:
  case onnx::TensorProto::UINT32:
  case onnx::TensorProto::FLOAT:
    return 4;
  case onnx::TensorProto::INT64:
  case onnx::TensorProto::UINT64:
  case onnx::TensorProto::DOUBLE:
    return 8;
  default:
    return 0;
  }
}

int64_t elementCount(const onnx::TensorProto &tensor) {
  int64_t count = 1;
  for (int64_t d : tensor.dims())
    count *= d;
  return count;
}

template <typename Field>
void appendField(std::vector<char> &bytes, const Field &field,
                 size_t elemSize) {
  for (auto value : field) {
    size_t at = bytes.size();
    bytes.resize(at + elemSize);
    // Narrow types (int8..int16, float16 bits, bool) are stored widened in
    // int32_data: keep the low bytes (little-endian host).
    std::memcpy(bytes.data() + at, &value, elemSize);
  }
}

template <typename T> T readAs(const char *p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

} // namespace

bool tpuprof::import::isUnsignedType(int32_t type) {
  return type == onnx::TensorProto::UINT8 ||
         type == onnx::TensorProto::UINT16 ||
         type == onnx::TensorProto::UINT32 || type == onnx::TensorProto::UINT64;
}

Type tpuprof::import::elementTypeOf(int32_t type, MLIRContext *context) {
  Builder b(context);
  switch (type) {
  case onnx::TensorProto::FLOAT:
    return b.getF32Type();
  case onnx::TensorProto::DOUBLE:
    return b.getF64Type();
  case onnx::TensorProto::FLOAT16:
    return b.getF16Type();
  case onnx::TensorProto::BFLOAT16:
    return b.getBF16Type();
  case onnx::TensorProto::BOOL:
    return b.getI1Type();
  // Unsigned integers are signless too (TOSA is): isUnsignedType() says
  // which values converters must treat as unsigned.
  case onnx::TensorProto::INT8:
  case onnx::TensorProto::UINT8:
    return b.getI8Type();
  case onnx::TensorProto::INT16:
  case onnx::TensorProto::UINT16:
    return b.getI16Type();
  case onnx::TensorProto::INT32:
  case onnx::TensorProto::UINT32:
    return b.getI32Type();
  case onnx::TensorProto::INT64:
  case onnx::TensorProto::UINT64:
    return b.getI64Type();
  default:
    return {};
  }
}

llvm::Expected<RankedTensorType>
tpuprof::import::tensorTypeOf(const onnx::TensorProto &tensor,
                              MLIRContext *context) {
  Type elem = elementTypeOf(tensor.data_type(), context);
  if (!elem)
    return fail(
        "tensor '" + tensor.name() + "' has element type " +
        onnx::TensorProto::DataType_Name(
            static_cast<onnx::TensorProto::DataType>(tensor.data_type())) +
        ", which tpuprof-import does not support");
  llvm::SmallVector<int64_t> dims(tensor.dims().begin(), tensor.dims().end());
  return RankedTensorType::get(dims, elem);
}

llvm::Expected<std::vector<char>>
tpuprof::import::tensorBytes(const onnx::TensorProto &tensor) {
  if (tensor.data_location() == onnx::TensorProto::EXTERNAL)
    return fail("tensor '" + tensor.name() +
                "' keeps its data in an external file, which tpuprof-import "
                "does not read");
  size_t elemSize = elemSizeOf(tensor.data_type());
  if (!elemSize)
    return fail("tensor '" + tensor.name() + "' has an unsupported type");
  size_t want = static_cast<size_t>(elementCount(tensor)) * elemSize;
  std::vector<char> bytes;
  if (tensor.has_raw_data()) {
    const std::string &raw = tensor.raw_data();
    bytes.assign(raw.begin(), raw.end());
  } else {
    switch (tensor.data_type()) {
    case onnx::TensorProto::FLOAT:
      appendField(bytes, tensor.float_data(), 4);
      break;
    case onnx::TensorProto::DOUBLE:
      appendField(bytes, tensor.double_data(), 8);
      break;
    case onnx::TensorProto::INT64:
      appendField(bytes, tensor.int64_data(), 8);
      break;
    case onnx::TensorProto::UINT32:
    case onnx::TensorProto::UINT64:
      appendField(bytes, tensor.uint64_data(), elemSize);
      break;
    default:
      appendField(bytes, tensor.int32_data(), elemSize);
      break;
    }
  }
  if (bytes.size() != want)
    return fail("tensor '" + tensor.name() + "' holds " +
                llvm::Twine(bytes.size()) + " bytes; its shape needs " +
                llvm::Twine(want));
  return bytes;
}

llvm::Expected<std::vector<int64_t>>
tpuprof::import::tensorInts(const onnx::TensorProto &tensor,
                            std::optional<llvm::ArrayRef<char>> given) {
  std::vector<char> own;
  if (!given) {
    llvm::Expected<std::vector<char>> read = tensorBytes(tensor);
    if (!read)
      return read.takeError();
    own = std::move(*read);
  }
  llvm::ArrayRef<char> bytes = given ? *given : llvm::ArrayRef<char>(own);
  size_t elemSize = elemSizeOf(tensor.data_type());
  std::vector<int64_t> values;
  for (size_t at = 0; at < bytes.size(); at += elemSize) {
    const char *p = bytes.data() + at;
    switch (tensor.data_type()) {
    case onnx::TensorProto::INT64:
      values.push_back(readAs<int64_t>(p));
      break;
    case onnx::TensorProto::INT32:
      values.push_back(readAs<int32_t>(p));
      break;
    case onnx::TensorProto::INT16:
      values.push_back(readAs<int16_t>(p));
      break;
    case onnx::TensorProto::INT8:
      values.push_back(readAs<int8_t>(p));
      break;
    case onnx::TensorProto::BOOL:
    case onnx::TensorProto::UINT8:
      values.push_back(readAs<uint8_t>(p));
      break;
    case onnx::TensorProto::UINT16:
      values.push_back(readAs<uint16_t>(p));
      break;
    case onnx::TensorProto::UINT32:
      values.push_back(readAs<uint32_t>(p));
      break;
    case onnx::TensorProto::UINT64:
      // Wraps above INT64_MAX; shapes and axes never get there.
      values.push_back(static_cast<int64_t>(readAs<uint64_t>(p)));
      break;
    default:
      return fail("tensor '" + tensor.name() + "' is not of integers");
    }
  }
  return values;
}

llvm::Expected<std::vector<double>>
tpuprof::import::tensorDoubles(const onnx::TensorProto &tensor,
                               std::optional<llvm::ArrayRef<char>> given) {
  int32_t type = tensor.data_type();
  bool isHalf =
      type == onnx::TensorProto::FLOAT16 || type == onnx::TensorProto::BFLOAT16;
  if (type != onnx::TensorProto::FLOAT && type != onnx::TensorProto::DOUBLE &&
      !isHalf) {
    if (type == onnx::TensorProto::UINT64) {
      // Beyond INT64_MAX as they are.
      llvm::Expected<std::vector<char>> bytes =
          given ? llvm::Expected<std::vector<char>>(
                      std::vector<char>(given->begin(), given->end()))
                : tensorBytes(tensor);
      if (!bytes)
        return bytes.takeError();
      std::vector<double> values;
      for (size_t at = 0; at + 8 <= bytes->size(); at += 8)
        values.push_back(
            static_cast<double>(readAs<uint64_t>(bytes->data() + at)));
      return values;
    }
    llvm::Expected<std::vector<int64_t>> ints = tensorInts(tensor, given);
    if (!ints)
      return ints.takeError();
    return std::vector<double>(ints->begin(), ints->end());
  }
  std::vector<char> own;
  if (!given) {
    llvm::Expected<std::vector<char>> read = tensorBytes(tensor);
    if (!read)
      return read.takeError();
    own = std::move(*read);
  }
  llvm::ArrayRef<char> bytes = given ? *given : llvm::ArrayRef<char>(own);
  std::vector<double> values;
  if (isHalf) {
    const llvm::fltSemantics &semantics = type == onnx::TensorProto::FLOAT16
                                              ? llvm::APFloat::IEEEhalf()
                                              : llvm::APFloat::BFloat();
    for (size_t at = 0; at + 2 <= bytes.size(); at += 2) {
      llvm::APFloat f(semantics,
                      llvm::APInt(16, readAs<uint16_t>(bytes.data() + at)));
      bool lost;
      f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
                &lost);
      values.push_back(f.convertToDouble());
    }
    return values;
  }
  bool isFloat = tensor.data_type() == onnx::TensorProto::FLOAT;
  for (size_t at = 0; at + (isFloat ? 4 : 8) <= bytes.size();
       at += isFloat ? 4 : 8)
    values.push_back(isFloat ? readAs<float>(bytes.data() + at)
                             : readAs<double>(bytes.data() + at));
  return values;
}

ElementsAttr tpuprof::import::makeElementsAttr(RankedTensorType type,
                                               std::vector<char> bytes,
                                               llvm::StringRef name) {
  // i1 blobs would need bit packing; masks are small.
  if (type.getNumElements() <= kInlineElements ||
      type.getElementType().isInteger(1)) {
    if (type.getElementType().isInteger(1)) {
      llvm::SmallVector<bool> bits(bytes.begin(), bytes.end());
      return DenseElementsAttr::get(type, llvm::ArrayRef<bool>(bits));
    }
    bool splat = false;
    if (DenseElementsAttr::isValidRawBuffer(type, bytes, splat))
      return DenseElementsAttr::getFromRawBuffer(type, bytes);
  }
  size_t size = bytes.size();
  constexpr size_t kAlign = 64;
  char *data = static_cast<char *>(llvm::allocate_buffer(size, kAlign));
  std::memcpy(data, bytes.data(), size);
  bytes = {};
  AsmResourceBlob blob(
      llvm::ArrayRef<char>(data, size), kAlign,
      [](void *p, size_t n, size_t align) {
        llvm::deallocate_buffer(p, n, align);
      },
      /*dataIsMutable=*/false);
  // The key prints bare in `dense_resource<KEY>`, and the parser reads it
  // back only as a keyword: ONNX names such as `onnx::Conv_57` or
  // `/layer1/conv/weight` are spelled with '_' for other characters.
  std::string key = name.empty() ? std::string("weight") : name.str();
  for (char &c : key)
    if (!llvm::isAlnum(c) && c != '_' && c != '.' && c != '$')
      c = '_';
  if (!llvm::isAlpha(key[0]) && key[0] != '_')
    key.insert(key.begin(), '_');
  return DenseResourceElementsAttr::get(type, key, std::move(blob));
}

llvm::Expected<ElementsAttr>
tpuprof::import::tensorAttr(onnx::TensorProto &tensor, MLIRContext *context) {
  llvm::Expected<RankedTensorType> type = tensorTypeOf(tensor, context);
  if (!type)
    return type.takeError();
  llvm::Expected<std::vector<char>> bytes = tensorBytes(tensor);
  if (!bytes)
    return bytes.takeError();
  ElementsAttr attr = makeElementsAttr(*type, std::move(*bytes), tensor.name());
  if (isa<DenseResourceElementsAttr>(attr)) {
    // The blob holds the bytes from here on.
    tensor.clear_raw_data();
    tensor.clear_float_data();
    tensor.clear_double_data();
    tensor.clear_int32_data();
    tensor.clear_int64_data();
  }
  return attr;
}

std::vector<char> tpuprof::import::permuteBytes(llvm::ArrayRef<char> bytes,
                                                llvm::ArrayRef<int64_t> shape,
                                                llvm::ArrayRef<int64_t> perm,
                                                size_t elemSize) {
  size_t rank = shape.size();
  std::vector<int64_t> inStrides(rank, 1);
  for (size_t i = rank; i-- > 1;)
    inStrides[i - 1] = inStrides[i] * shape[i];
  std::vector<int64_t> outShape(rank);
  for (size_t i = 0; i < rank; ++i)
    outShape[i] = shape[perm[i]];
  std::vector<char> out(bytes.size());
  std::vector<int64_t> index(rank, 0);
  size_t count = elemSize ? bytes.size() / elemSize : 0;
  for (size_t n = 0; n < count; ++n) {
    int64_t from = 0;
    for (size_t i = 0; i < rank; ++i)
      from += index[i] * inStrides[perm[i]];
    std::memcpy(out.data() + n * elemSize, bytes.data() + from * elemSize,
                elemSize);
    for (size_t i = rank; i-- > 0;) {
      if (++index[i] < outShape[i])
        break;
      index[i] = 0;
    }
  }
  return out;
}
