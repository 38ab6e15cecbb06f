//===- OnnxModel.cpp - Load an ONNX model and infer its shapes ------------===//

#include "OnnxModel.h"

#include "onnx/defs/schema.h"
#include "onnx/shape_inference/implementation.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <exception>

using namespace tpuprof::import;

namespace {

llvm::Error fail(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

std::string shapeText(llvm::ArrayRef<int64_t> dims) {
  std::string text;
  for (int64_t d : dims)
    text += (text.empty() ? "" : "x") + std::to_string(d);
  return text;
}

/// Gives the graph input `input` the dimensions `dims` (from --input-shape),
/// or checks that its own are static.
llvm::Error bindInput(onnx::ValueInfoProto &input,
                      const std::vector<int64_t> *dims) {
  const std::string &name = input.name();
  if (!input.type().has_tensor_type())
    return fail("input '" + name + "' is not a tensor");
  onnx::TypeProto_Tensor *tensor = input.mutable_type()->mutable_tensor_type();
  if (dims) {
    if (tensor->has_shape() &&
        tensor->shape().dim_size() != static_cast<int>(dims->size()))
      return fail("--input-shape " + name + "=" + shapeText(*dims) +
                  " has rank " + llvm::Twine(dims->size()) +
                  "; the input has rank " +
                  llvm::Twine(tensor->shape().dim_size()));
    for (auto [i, d] : llvm::enumerate(*dims)) {
      if (tensor->has_shape() && tensor->shape().dim(i).has_dim_value() &&
          tensor->shape().dim(i).dim_value() != d)
        return fail("--input-shape " + name + "=" + shapeText(*dims) +
                    ": dimension " + llvm::Twine(i) + " of '" + name + "' is " +
                    llvm::Twine(tensor->shape().dim(i).dim_value()));
      if (d <= 0)
        return fail("--input-shape " + name + "=" + shapeText(*dims) +
                    ": dimensions must be positive");
    }
    onnx::TensorShapeProto *shape = tensor->mutable_shape();
    shape->clear_dim();
    for (int64_t d : *dims)
      shape->add_dim()->set_dim_value(d);
    return llvm::Error::success();
  }
  if (!tensor->has_shape())
    return fail("input '" + name +
                "' has no shape: give one with --input-shape " + name +
                "=DIMS");
  for (auto [i, dim] : llvm::enumerate(tensor->shape().dim()))
    if (!dim.has_dim_value() || dim.dim_value() <= 0)
      return fail("input '" + name + "' dimension " + llvm::Twine(i) +
                  (dim.has_dim_param() ? " ('" + dim.dim_param() + "')"
                                       : std::string()) +
                  " is symbolic: give its size with --input-shape " + name +
                  "=DIMS");
  return llvm::Error::success();
}

llvm::Error readTensor(const std::string &file, onnx::TensorProto &tensor) {
  auto bytes = tpuprof::import::readInputFile(file);
  if (!bytes)
    return fail(file + ": " + llvm::toString(bytes.takeError()));
  if ((*bytes)->getBufferSize() > static_cast<size_t>(INT_MAX) ||
      !tensor.ParseFromArray((*bytes)->getBufferStart(),
                             static_cast<int>((*bytes)->getBufferSize())))
    return fail(file + ": not an ONNX TensorProto");
  return llvm::Error::success();
}

/// Gives the graph input `input` the shape of its value `tensor` (read from
/// `file`), which must agree with its element type and static dimensions.
llvm::Error bindToValue(onnx::ValueInfoProto &input,
                        const onnx::TensorProto &tensor,
                        const std::string &file) {
  const std::string &name = input.name();
  if (!input.type().has_tensor_type())
    return fail("input '" + name + "' is not a tensor");
  onnx::TypeProto_Tensor *type = input.mutable_type()->mutable_tensor_type();
  if (type->elem_type() != tensor.data_type())
    return fail(file + ": its element type is not input '" + name + "'s");
  if (type->has_shape() && type->shape().dim_size() != tensor.dims_size())
    return fail(file + ": rank " + llvm::Twine(tensor.dims_size()) +
                "; input '" + name + "' has rank " +
                llvm::Twine(type->shape().dim_size()));
  for (int i = 0; i < tensor.dims_size(); ++i)
    if (type->has_shape() && type->shape().dim(i).has_dim_value() &&
        type->shape().dim(i).dim_value() != tensor.dims(i))
      return fail(file + ": dimension " + llvm::Twine(i) + " is " +
                  llvm::Twine(tensor.dims(i)) + "; input '" + name + "' has " +
                  llvm::Twine(type->shape().dim(i).dim_value()));
  onnx::TensorShapeProto *shape = type->mutable_shape();
  shape->clear_dim();
  for (int64_t d : tensor.dims())
    shape->add_dim()->set_dim_value(d);
  return llvm::Error::success();
}

} // namespace

std::vector<const onnx::ValueInfoProto *>
tpuprof::import::runtimeInputs(const onnx::GraphProto &graph) {
  llvm::StringSet<> initialized;
  for (const onnx::TensorProto &init : graph.initializer())
    initialized.insert(init.name());
  std::vector<const onnx::ValueInfoProto *> inputs;
  for (const onnx::ValueInfoProto &input : graph.input())
    if (!initialized.contains(input.name()))
      inputs.push_back(&input);
  return inputs;
}

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
tpuprof::import::readInputFile(llvm::StringRef path) {
  auto error = [](const llvm::Twine &msg) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
  };
  llvm::sys::fs::file_status status;
  if (std::error_code ec = llvm::sys::fs::status(path, status))
    return error("cannot read: " + ec.message());
  if (status.type() == llvm::sys::fs::file_type::directory_file)
    return error("cannot read: Is a directory");
  if (status.type() != llvm::sys::fs::file_type::regular_file)
    return error("not a regular file");
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false,
                                            /*IsVolatile=*/true);
  if (!buffer)
    return error("cannot read: " + buffer.getError().message());
  return std::move(*buffer);
}

llvm::Expected<std::unique_ptr<OnnxModel>>
tpuprof::import::loadOnnxModel(llvm::StringRef path,
                               const ImportOptions &options,
                               llvm::ArrayRef<unsigned> fold) {
  auto buffer = readInputFile(path);
  if (!buffer)
    return buffer.takeError();
  auto model = std::make_unique<OnnxModel>();
  llvm::StringRef bytes = (*buffer)->getBuffer();
  if (bytes.size() > static_cast<size_t>(INT_MAX) ||
      !model->proto.ParseFromArray(bytes.data(),
                                   static_cast<int>(bytes.size())))
    return fail("not an ONNX model (the file is not a ModelProto)");
  buffer->reset(); // The proto holds its own copy.
  if (!model->proto.has_graph() || model->proto.ir_version() <= 0)
    return fail("not an ONNX model (no graph or IR version)");

  for (const onnx::OperatorSetIdProto &opset : model->proto.opset_import())
    if (opset.domain().empty() || opset.domain() == "ai.onnx")
      model->opset = opset.version();
  if (model->opset == 0)
    return fail("the model imports no opset of the default ONNX domain");

  onnx::GraphProto *graph = model->proto.mutable_graph();
  llvm::StringSet<> inputNames;
  llvm::StringSet<> initialized;
  for (const onnx::TensorProto &init : graph->initializer())
    initialized.insert(init.name());
  for (const onnx::ValueInfoProto &input : graph->input())
    if (!initialized.contains(input.name()))
      inputNames.insert(input.name());
  for (const auto &[name, dims] : options.inputShapes)
    if (!inputNames.contains(name))
      return fail("--input-shape names '" + name +
                  "', which is not an input of the graph");
  std::vector<onnx::TensorProto> values(options.inputValueFiles.size());
  unsigned position = 0;
  for (onnx::ValueInfoProto &input : *graph->mutable_input()) {
    if (initialized.contains(input.name()))
      continue;
    model->argumentNames.push_back(input.name());
    auto given = options.inputShapes.find(input.name());
    if (given != options.inputShapes.end()) {
      if (llvm::Error err = bindInput(input, &given->second))
        return std::move(err);
    } else if (position < values.size() &&
               !options.inputValueFiles[position].empty()) {
      // A value at hand gives the input's shape and type.
      const std::string &file = options.inputValueFiles[position];
      if (llvm::Error err = readTensor(file, values[position]))
        return std::move(err);
      if (llvm::Error err = bindToValue(input, values[position], file))
        return std::move(err);
    } else if (llvm::Error err = bindInput(input, nullptr)) {
      return std::move(err);
    }
    ++position;
  }
  for (unsigned folded : fold) {
    values[folded].set_name(model->argumentNames[folded]);
    *graph->add_initializer() = std::move(values[folded]);
  }

  if (llvm::Error err = inferShapes(*model))
    return std::move(err);
  return std::move(model);
}

llvm::Error tpuprof::import::inferShapes(OnnxModel &model) {
  // Inferred shapes land in value_info. Types the model states already are
  // checked against the inferred ones: a conflict is an error.
  model.types.clear();
  try {
    onnx::ShapeInferenceOptions inference(/*check_type=*/false,
                                          /*strict_mode=*/1,
                                          /*data_prop=*/true);
    onnx::shape_inference::InferShapes(
        model.proto, onnx::OpSchemaRegistry::Instance(), inference);
  } catch (const std::exception &e) {
    std::string what = e.what();
    // ONNX's messages span lines; the tools print one.
    std::replace(what.begin(), what.end(), '\n', ' ');
    return fail("shape inference failed: " + llvm::StringRef(what).trim());
  }
  const onnx::GraphProto &graph = model.proto.graph();
  for (const onnx::ValueInfoProto &v : graph.input())
    model.types[v.name()] = &v.type();
  for (const onnx::ValueInfoProto &v : graph.value_info())
    model.types[v.name()] = &v.type();
  for (const onnx::ValueInfoProto &v : graph.output())
    model.types[v.name()] = &v.type();
  return llvm::Error::success();
}
