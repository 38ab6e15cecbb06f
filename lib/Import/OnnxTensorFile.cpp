//===- OnnxTensorFile.cpp - ONNX TensorProto files ------------------------===//

#include "tpuprof/Import/OnnxTensor.h"

#include "OnnxModel.h"
#include "OnnxWeights.h"

#include "llvm/Support/MemoryBuffer.h"

using namespace tpuprof::import;

llvm::Expected<TensorData>
tpuprof::import::readTensorFile(llvm::StringRef path) {
  auto fail = [&](const llvm::Twine &msg) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   path + ": " + msg);
  };
  auto buffer = readInputFile(path);
  if (!buffer)
    return fail(llvm::toString(buffer.takeError()));
  onnx::TensorProto tensor;
  llvm::StringRef bytes = (*buffer)->getBuffer();
  if (bytes.size() > static_cast<size_t>(INT_MAX) ||
      !tensor.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    return fail("not an ONNX TensorProto");
  TensorData data;
  data.name = tensor.name();
  data.shape.assign(tensor.dims().begin(), tensor.dims().end());
  switch (tensor.data_type()) {
  case onnx::TensorProto::FLOAT:
    data.elemType = "f32";
    break;
  case onnx::TensorProto::DOUBLE:
    data.elemType = "f64";
    break;
  case onnx::TensorProto::BOOL:
    data.elemType = "i1";
    break;
  case onnx::TensorProto::INT8:
    data.elemType = "i8";
    break;
  case onnx::TensorProto::INT16:
    data.elemType = "i16";
    break;
  case onnx::TensorProto::INT32:
    data.elemType = "i32";
    break;
  case onnx::TensorProto::INT64:
    data.elemType = "i64";
    break;
  case onnx::TensorProto::UINT8:
    data.elemType = "ui8";
    break;
  case onnx::TensorProto::UINT16:
    data.elemType = "ui16";
    break;
  case onnx::TensorProto::UINT32:
    data.elemType = "ui32";
    break;
  case onnx::TensorProto::UINT64:
    data.elemType = "ui64";
    break;
  case onnx::TensorProto::FLOAT16:
    data.elemType = "f16";
    break;
  case onnx::TensorProto::BFLOAT16:
    data.elemType = "bf16";
    break;
  default:
    return fail(
        "element type " +
        onnx::TensorProto::DataType_Name(
            static_cast<onnx::TensorProto::DataType>(tensor.data_type())) +
        " is not supported");
  }
  llvm::Expected<std::vector<double>> values = tensorDoubles(tensor);
  if (!values)
    return fail(llvm::toString(values.takeError()));
  data.values = std::move(*values);
  return data;
}
