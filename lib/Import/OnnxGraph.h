//===- OnnxGraph.h - What an op converter sees of the graph -----*- C++ -*-===//
//
// The importer walks the graph's nodes in order (ONNX graphs are sorted)
// and hands each to the converter its op type names (OnnxOps.cpp). A
// converter reads the node through NodeContext: its inputs as MLIR values
// (initializers and Constant outputs become tosa.const on first use), its
// attributes, the output types ONNX shape inference found; it builds TOSA
// ops at the node's location and binds the node's outputs.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_LIB_IMPORT_ONNXGRAPH_H
#define TPUPROF_LIB_IMPORT_ONNXGRAPH_H

#include "OnnxModel.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringMap.h"

#include <deque>
#include <optional>

namespace tpuprof {
namespace import {

/// The values of the graph being imported, by ONNX name.
class GraphValues {
public:
  GraphValues(mlir::OpBuilder &builder, OnnxModel &model)
      : builder(builder), model(model) {}

  /// The value named `name`: a bound node output or argument, else a
  /// constant (initializer or Constant output) materialized at first use.
  llvm::Expected<mlir::Value> lookup(llvm::StringRef name);
  /// The constant tensor named `name`, if the value is one.
  onnx::TensorProto *constant(llvm::StringRef name) const;
  /// The bytes of constant `name` (from its blob once materialized).
  llvm::Expected<std::vector<char>> constantBytes(llvm::StringRef name);
  void bind(llvm::StringRef name, mlir::Value value) { values[name] = value; }
  bool isBound(llvm::StringRef name) const { return values.count(name); }
  void addConstant(llvm::StringRef name, onnx::TensorProto *tensor,
                   mlir::Location loc) {
    constants[name] = {tensor, loc};
  }
  /// A tensor the importer made (a Constant node's value in attribute
  /// form), kept as long as the graph.
  onnx::TensorProto &newTensor() { return ownedTensors.emplace_back(); }
  /// The static tensor type shape inference gave `name`.
  llvm::Expected<mlir::RankedTensorType> inferredType(llvm::StringRef name);
  /// Whether value `name` is of an ONNX unsigned integer type: its MLIR
  /// type is the signless integer of that width, and converters of ops
  /// whose result depends on the sign (division, comparisons, Max/Min,
  /// casts, pools, quantization) treat it as unsigned.
  bool isUnsigned(llvm::StringRef name) const;

  mlir::OpBuilder &builder;
  OnnxModel &model;
  /// Values a converter needed as constants and found none: the importer
  /// looks for graph inputs they come from whose values it was given.
  std::vector<std::string> missingConstants;

private:
  llvm::StringMap<mlir::Value> values;
  struct Constant {
    onnx::TensorProto *tensor = nullptr;
    mlir::LocationAttr loc;
  };
  llvm::StringMap<Constant> constants;
  /// Constants materialized as blobs, whose protobuf data is freed.
  llvm::StringMap<mlir::DenseResourceElementsAttr> blobs;
  std::deque<onnx::TensorProto> ownedTensors;
};

/// One node, as its converter sees it.
class NodeContext {
public:
  NodeContext(GraphValues &graph, onnx::NodeProto &node, mlir::Location loc)
      : graph(graph), node(node), loc(loc), b(graph.builder) {}

  int64_t opset() const { return graph.model.opset; }
  mlir::MLIRContext *context() const { return b.getContext(); }

  /// Input `i` is given (present and not the empty name).
  bool hasInput(unsigned i) const {
    return i < static_cast<unsigned>(node.input_size()) &&
           !node.input(i).empty();
  }
  llvm::Expected<mlir::Value> input(unsigned i);
  /// Input `i`'s tensor type (ranked, static).
  llvm::Expected<mlir::RankedTensorType> inputType(unsigned i);
  /// Input `i` if it is a constant; null otherwise.
  onnx::TensorProto *constantInput(unsigned i) const;
  /// A constant integer input (shapes, axes): an error if not constant.
  /// The raw bytes of constant input `i`; "not a constant" otherwise.
  llvm::Expected<std::vector<char>> constantInputBytes(unsigned i);
  llvm::Expected<std::vector<int64_t>> constantInts(unsigned i);
  llvm::Expected<std::vector<double>> constantDoubles(unsigned i);

  /// Input `i` / output `i` holds unsigned integers (GraphValues::isUnsigned).
  bool inputIsUnsigned(unsigned i) const {
    return hasInput(i) && graph.isUnsigned(node.input(i));
  }
  bool outputIsUnsigned(unsigned i) const {
    return i < static_cast<unsigned>(node.output_size()) &&
           graph.isUnsigned(node.output(i));
  }

  /// Output `i`'s type as shape inference found it (static).
  llvm::Expected<mlir::RankedTensorType> outputType(unsigned i);
  void setOutput(unsigned i, mlir::Value value);

  const onnx::AttributeProto *attr(llvm::StringRef name) const;
  int64_t intAttr(llvm::StringRef name, int64_t fallback) const;
  float floatAttr(llvm::StringRef name, float fallback) const;
  std::string stringAttr(llvm::StringRef name, llvm::StringRef fallback) const;
  std::optional<std::vector<int64_t>> intsAttr(llvm::StringRef name) const;

  /// `node 'NAME' (OpType, opset N) is not supported: why`.
  llvm::Error unsupported(const llvm::Twine &why);

  GraphValues &graph;
  onnx::NodeProto &node;
  mlir::Location loc;
  mlir::OpBuilder &b;
};

/// One axis of a Slice: elements start, start + step, ... (count of them).
struct SliceSpec {
  int64_t start, step, count;
};
/// The Slice node's starts/ends/axes/steps (attributes before opset 10,
/// constant inputs after) for an input of `shape`, clamped as ONNX does:
/// one spec per dimension.
llvm::Expected<std::vector<SliceSpec>>
sliceSpecs(NodeContext &c, llvm::ArrayRef<int64_t> shape);

/// Computes the node at import time when it is a Shape or Size, or its
/// inputs are all small constants (OnnxFold.cpp): its output is bound as a
/// constant and true returned. False: the converter builds ops.
llvm::Expected<bool> foldNode(NodeContext &c);

/// Converts one node; the error says why it could not.
using OpConverter = llvm::Error (*)(NodeContext &);

/// The converter for `opType` of the default domain, or null.
OpConverter findConverter(llvm::StringRef opType);

/// The op types the importer converts, sorted.
std::vector<std::string> supportedOpTypes();

/// Sinks the NCHW/NHWC transposes of convolutions and pools through the
/// elementwise ops and reductions between them and merges those that meet
/// (OnnxLayout.cpp).
void reduceLayoutTransposes(mlir::func::FuncOp fn);

} // namespace import
} // namespace tpuprof

#endif // TPUPROF_LIB_IMPORT_ONNXGRAPH_H
