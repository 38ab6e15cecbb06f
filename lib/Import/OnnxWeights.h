//===- OnnxWeights.h - ONNX tensors to MLIR attributes ----------*- C++ -*-===//
//
// Initializers and Constant values: their element types, their values for
// converters that read them (shapes, axes, clip bounds), and their bytes as
// MLIR attributes. Large tensors become dense_resource blobs: the bytes move
// once from the protobuf into the blob and the protobuf's copy is freed, so
// a model's weights are held once.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_LIB_IMPORT_ONNXWEIGHTS_H
#define TPUPROF_LIB_IMPORT_ONNXWEIGHTS_H

#include "onnx/onnx_pb.h"

#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <vector>

namespace tpuprof {
namespace import {

/// True for ONNX's unsigned integer types, which elementTypeOf gives as
/// signless integers of their width.
bool isUnsignedType(int32_t type);

/// The MLIR element type of ONNX's TensorProto::DataType `type`, or null.
mlir::Type elementTypeOf(int32_t type, mlir::MLIRContext *context);

/// The tensor's type; an error for unsupported element types.
llvm::Expected<mlir::RankedTensorType>
tensorTypeOf(const onnx::TensorProto &tensor, mlir::MLIRContext *context);

/// The tensor's bytes, row-major, in the element type's natural size (bool
/// as one byte per element).
llvm::Expected<std::vector<char>> tensorBytes(const onnx::TensorProto &tensor);

/// Integer or floating-point elements as int64_t / double; from `bytes`
/// when given (the tensor's data moved to a blob already), else from the
/// tensor.
llvm::Expected<std::vector<int64_t>>
tensorInts(const onnx::TensorProto &tensor,
           std::optional<llvm::ArrayRef<char>> bytes = std::nullopt);
llvm::Expected<std::vector<double>>
tensorDoubles(const onnx::TensorProto &tensor,
              std::optional<llvm::ArrayRef<char>> bytes = std::nullopt);

/// `bytes` (elements of `type`, row-major) as an attribute: a
/// dense_resource blob named `name` when large, else dense<...>.
mlir::ElementsAttr makeElementsAttr(mlir::RankedTensorType type,
                                    std::vector<char> bytes,
                                    llvm::StringRef name);

/// The tensor as an attribute (makeElementsAttr). When it is a blob, the
/// protobuf's copy of the data is freed: read it from the blob after.
llvm::Expected<mlir::ElementsAttr> tensorAttr(onnx::TensorProto &tensor,
                                              mlir::MLIRContext *context);

/// `bytes` of a tensor of `shape` with elements of `elemSize` bytes,
/// transposed: result dimension i is input dimension perm[i].
std::vector<char> permuteBytes(llvm::ArrayRef<char> bytes,
                               llvm::ArrayRef<int64_t> shape,
                               llvm::ArrayRef<int64_t> perm, size_t elemSize);

} // namespace import
} // namespace tpuprof

#endif // TPUPROF_LIB_IMPORT_ONNXWEIGHTS_H
