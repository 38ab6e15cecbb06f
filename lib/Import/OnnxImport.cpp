//===- OnnxImport.cpp - ONNX graph to func.func in TOSA -------------------===//

#include "tpuprof/Import/OnnxImport.h"

#include "OnnxGraph.h"
#include "OnnxModel.h"
#include "OnnxWeights.h"

#include "tpuprof/model.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace tpuprof::import;

namespace {

llvm::Error fail(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

/// The static tensor type of an ONNX TypeProto, or an error naming `name`.
llvm::Expected<RankedTensorType> tensorTypeOf(const onnx::TypeProto &type,
                                              llvm::StringRef name,
                                              MLIRContext *context) {
  if (!type.has_tensor_type())
    return fail("value '" + name + "' is not a tensor");
  const onnx::TypeProto_Tensor &tensor = type.tensor_type();
  Type elem = elementTypeOf(tensor.elem_type(), context);
  if (!elem)
    return fail(
        "value '" + name + "' has element type " +
        onnx::TensorProto::DataType_Name(
            static_cast<onnx::TensorProto::DataType>(tensor.elem_type())) +
        ", which tpuprof-import does not support");
  if (!tensor.has_shape())
    return fail("shape inference found no shape for '" + name + "'");
  llvm::SmallVector<int64_t> dims;
  for (const onnx::TensorShapeProto_Dimension &d : tensor.shape().dim()) {
    if (!d.has_dim_value())
      return fail(
          "shape inference left a dimension of '" + name + "' unknown" +
          (d.has_dim_param() ? " ('" + d.dim_param() + "')" : std::string()));
    dims.push_back(d.dim_value());
  }
  return RankedTensorType::get(dims, elem);
}

/// `loc("NAME"("OpType"))`: what the profile shows is the outer name
/// (lib/Transforms/Instrument.cpp takes a location's first name when it has
/// no file position), the op type rides along for tools that look.
Location nodeLocation(MLIRContext *context, const onnx::NodeProto &node,
                      size_t index) {
  std::string name = node.name();
  if (name.empty())
    name = node.op_type() + "_" + std::to_string(index);
  return NameLoc::get(StringAttr::get(context, name),
                      NameLoc::get(StringAttr::get(context, node.op_type())));
}

/// Folds the graph's constant subgraphs into initializers (OnnxFold.cpp)
/// and infers shapes again, until nothing more folds: a shape computed in
/// the graph (Shape -> Slice -> Concat -> Resize's sizes) is one that ONNX's
/// own inference cannot always see through; once it is a constant, it can.
/// Each round removes at least one node, so the rounds end; a deep model
/// takes many (swin_t's window paddings hide each block's shapes from
/// inference until the block before is folded: one round per block).
llvm::Error foldConstantSubgraphs(OnnxModel &model, MLIRContext &context) {
  onnx::GraphProto &graph = *model.proto.mutable_graph();
  OpBuilder builder(&context);
  for (;;) {
    GraphValues values(builder, model);
    for (onnx::TensorProto &init : *graph.mutable_initializer())
      values.addConstant(init.name(), &init, UnknownLoc::get(&context));
    std::vector<onnx::TensorProto> folded;
    std::vector<bool> isFolded(graph.node_size(), false);
    for (auto [index, node] : llvm::enumerate(*graph.mutable_node())) {
      NodeContext ctx(values, node, nodeLocation(&context, node, index));
      bool defaultDomain = node.domain().empty() || node.domain() == "ai.onnx";
      if (defaultDomain && node.op_type() == "Constant") {
        // Registers the value (no op is built); the node stays.
        if (OpConverter convert = findConverter("Constant"))
          llvm::consumeError(convert(ctx));
      } else if (defaultDomain && findConverter(node.op_type())) {
        llvm::Expected<bool> result = foldNode(ctx);
        if (!result) {
          // An unknown shape: the next round, or the converter, will see.
          llvm::consumeError(result.takeError());
        } else if (*result) {
          isFolded[index] = true;
          for (const std::string &output : node.output())
            if (onnx::TensorProto *tensor = values.constant(output))
              folded.push_back(*tensor);
        }
      }
    }
    if (folded.empty())
      return llvm::Error::success();
    // The nodes that stay, moved (a Constant's tensor is not copied).
    google::protobuf::RepeatedPtrField<onnx::NodeProto> kept;
    for (auto [index, node] : llvm::enumerate(*graph.mutable_node()))
      if (!isFolded[index])
        *kept.Add() = std::move(node);
    graph.mutable_node()->Swap(&kept);
    for (onnx::TensorProto &tensor : folded)
      *graph.add_initializer() = std::move(tensor);
    graph.clear_value_info();
    if (llvm::Error err = inferShapes(model))
      return err;
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// GraphValues and NodeContext
//===----------------------------------------------------------------------===//

onnx::TensorProto *GraphValues::constant(llvm::StringRef name) const {
  auto it = constants.find(name);
  return it == constants.end() ? nullptr : it->second.tensor;
}

llvm::Expected<std::vector<char>>
GraphValues::constantBytes(llvm::StringRef name) {
  if (auto blob = blobs.lookup(name)) {
    if (AsmResourceBlob *data = blob.getRawHandle().getBlob())
      return std::vector<char>(data->getData().begin(), data->getData().end());
  }
  onnx::TensorProto *tensor = constant(name);
  if (!tensor) {
    missingConstants.push_back(name.str());
    return fail("value '" + name + "' is not a constant");
  }
  return tensorBytes(*tensor);
}

llvm::Expected<Value> GraphValues::lookup(llvm::StringRef name) {
  if (auto it = values.find(name); it != values.end())
    return it->second;
  auto it = constants.find(name);
  if (it == constants.end())
    return fail("value '" + name + "' is used before it is defined");
  llvm::Expected<ElementsAttr> attr =
      tensorAttr(*it->second.tensor, builder.getContext());
  if (!attr)
    return attr.takeError();
  // Constants sit at the top of the function, where every use can see them.
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(builder.getInsertionBlock());
  Value value = builder.create<tosa::ConstOp>(Location(it->second.loc),
                                              attr->getType(), *attr);
  values[name] = value;
  if (auto blob = dyn_cast<DenseResourceElementsAttr>(*attr))
    blobs[name] = blob;
  return value;
}

llvm::Expected<RankedTensorType>
GraphValues::inferredType(llvm::StringRef name) {
  if (onnx::TensorProto *tensor = constant(name))
    return import::tensorTypeOf(*tensor, builder.getContext());
  auto it = model.types.find(name);
  if (it == model.types.end())
    return fail("shape inference found no type for '" + name + "'");
  return ::tensorTypeOf(*it->second, name, builder.getContext());
}

bool GraphValues::isUnsigned(llvm::StringRef name) const {
  if (onnx::TensorProto *tensor = constant(name))
    return isUnsignedType(tensor->data_type());
  auto it = model.types.find(name);
  return it != model.types.end() && it->second->has_tensor_type() &&
         isUnsignedType(it->second->tensor_type().elem_type());
}

llvm::Expected<Value> NodeContext::input(unsigned i) {
  if (!hasInput(i))
    return fail("input " + llvm::Twine(i) + " is missing");
  return graph.lookup(node.input(i));
}

llvm::Expected<RankedTensorType> NodeContext::inputType(unsigned i) {
  if (!hasInput(i))
    return fail("input " + llvm::Twine(i) + " is missing");
  // A bound value's own type; a constant's from its tensor (without
  // materializing it: converters may rearrange it first); else the inferred
  // one (folding looks at types before anything is bound).
  llvm::Expected<Value> value =
      graph.constant(node.input(i)) || !graph.isBound(node.input(i))
          ? llvm::Expected<Value>(Value())
          : input(i);
  if (!value)
    return value.takeError();
  if (!*value)
    return graph.inferredType(node.input(i));
  auto type = dyn_cast<RankedTensorType>(value->getType());
  if (!type || !type.hasStaticShape())
    return fail("input '" + node.input(i) + "' has no static shape");
  return type;
}

onnx::TensorProto *NodeContext::constantInput(unsigned i) const {
  return hasInput(i) ? graph.constant(node.input(i)) : nullptr;
}

llvm::Expected<std::vector<char>> NodeContext::constantInputBytes(unsigned i) {
  if (!constantInput(i)) {
    if (hasInput(i))
      graph.missingConstants.push_back(node.input(i));
    return unsupported("input " + llvm::Twine(i) + " ('" +
                       (hasInput(i) ? node.input(i) : std::string()) +
                       "') is not a constant");
  }
  return graph.constantBytes(node.input(i));
}

llvm::Expected<std::vector<int64_t>> NodeContext::constantInts(unsigned i) {
  llvm::Expected<std::vector<char>> bytes = constantInputBytes(i);
  if (!bytes)
    return bytes.takeError();
  return tensorInts(*constantInput(i), llvm::ArrayRef<char>(*bytes));
}

llvm::Expected<std::vector<double>> NodeContext::constantDoubles(unsigned i) {
  llvm::Expected<std::vector<char>> bytes = constantInputBytes(i);
  if (!bytes)
    return bytes.takeError();
  return tensorDoubles(*constantInput(i), llvm::ArrayRef<char>(*bytes));
}

llvm::Expected<RankedTensorType> NodeContext::outputType(unsigned i) {
  if (i >= static_cast<unsigned>(node.output_size()))
    return fail("node '" + node.name() + "' has no output " + llvm::Twine(i));
  llvm::Expected<RankedTensorType> type = graph.inferredType(node.output(i));
  if (!type) {
    // No static shape: it depends on the values of the node's integer
    // operands (starts, pads, repeats, a shape) that are not constants.
    for (const std::string &input : node.input()) {
      auto it = graph.model.types.find(input);
      if (!input.empty() && !graph.constant(input) &&
          it != graph.model.types.end() && it->second->has_tensor_type() &&
          (it->second->tensor_type().elem_type() == onnx::TensorProto::INT64 ||
           it->second->tensor_type().elem_type() == onnx::TensorProto::INT32))
        graph.missingConstants.push_back(input);
    }
  }
  return type;
}

void NodeContext::setOutput(unsigned i, Value value) {
  if (i < static_cast<unsigned>(node.output_size()) && !node.output(i).empty())
    graph.bind(node.output(i), value);
}

const onnx::AttributeProto *NodeContext::attr(llvm::StringRef name) const {
  for (const onnx::AttributeProto &a : node.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

int64_t NodeContext::intAttr(llvm::StringRef name, int64_t fallback) const {
  const onnx::AttributeProto *a = attr(name);
  return a ? a->i() : fallback;
}

float NodeContext::floatAttr(llvm::StringRef name, float fallback) const {
  const onnx::AttributeProto *a = attr(name);
  return a ? a->f() : fallback;
}

std::string NodeContext::stringAttr(llvm::StringRef name,
                                    llvm::StringRef fallback) const {
  const onnx::AttributeProto *a = attr(name);
  return a ? a->s() : fallback.str();
}

std::optional<std::vector<int64_t>>
NodeContext::intsAttr(llvm::StringRef name) const {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return std::nullopt;
  return std::vector<int64_t>(a->ints().begin(), a->ints().end());
}

llvm::Error NodeContext::unsupported(const llvm::Twine &why) {
  std::string name = cast<NameLoc>(loc).getName().str();
  return fail("node '" + name + "' (" + node.op_type() + ", opset " +
              llvm::Twine(opset()) + ") is not supported" +
              (why.isTriviallyEmpty() ? "" : ": ") + why);
}

//===----------------------------------------------------------------------===//
// The public API
//===----------------------------------------------------------------------===//

llvm::Error tpuprof::import::parseInputShape(llvm::StringRef spec,
                                             ImportOptions &options) {
  auto [name, dimsText] = spec.rsplit('=');
  if (name.empty() || dimsText.empty() || !spec.contains('='))
    return fail("--input-shape '" + spec + "': expected NAME=DxDx...");
  std::vector<int64_t> dims;
  llvm::SmallVector<llvm::StringRef> fields;
  dimsText.split(fields, 'x');
  for (llvm::StringRef field : fields) {
    int64_t d;
    if (field.trim().getAsInteger(10, d) || d <= 0)
      return fail("--input-shape '" + spec + "': '" + field +
                  "' is not a positive dimension");
    dims.push_back(d);
  }
  options.inputShapes[name.str()] = std::move(dims);
  return llvm::Error::success();
}

bool tpuprof::import::isOnnxPath(llvm::StringRef path) {
  return llvm::sys::path::extension(path).equals_insensitive(".onnx");
}

std::vector<std::string> tpuprof::import::supportedOnnxOps() {
  return supportedOpTypes();
}

void tpuprof::import::loadImportDialects(MLIRContext &context) {
  context.loadDialect<func::FuncDialect, tosa::TosaDialect,
                      tensor::TensorDialect, arith::ArithDialect>();
}

namespace {

/// Positions (among the entry's arguments) of the graph inputs that values
/// `names` are computed from, through the graph's nodes.
std::vector<unsigned> inputsBehind(const OnnxModel &model,
                                   llvm::ArrayRef<std::string> names) {
  const onnx::GraphProto &graph = model.proto.graph();
  llvm::StringMap<const onnx::NodeProto *> producer;
  for (const onnx::NodeProto &node : graph.node())
    for (const std::string &output : node.output())
      producer[output] = &node;
  llvm::StringMap<unsigned> position;
  for (auto [i, name] : llvm::enumerate(model.argumentNames))
    position[name] = i;
  std::vector<std::string> work(names.begin(), names.end());
  llvm::StringSet<> seen;
  std::vector<unsigned> found;
  while (!work.empty()) {
    std::string name = std::move(work.back());
    work.pop_back();
    if (name.empty() || !seen.insert(name).second)
      continue;
    if (auto it = position.find(name); it != position.end())
      found.push_back(it->second);
    else if (const onnx::NodeProto *node = producer.lookup(name))
      work.insert(work.end(), node->input().begin(), node->input().end());
  }
  llvm::sort(found);
  return found;
}

/// One import with the inputs at `fold` taken as constants. On a failure
/// where a converter needed a constant, `wanted` receives the inputs it
/// would have been computed from.
llvm::Expected<OwningOpRef<ModuleOp>>
importOnce(llvm::StringRef path, MLIRContext &context,
           const ImportOptions &options, llvm::ArrayRef<unsigned> fold,
           std::vector<unsigned> &wanted) {
  std::unique_ptr<OnnxModel> loadedModel;
  GraphValues *current = nullptr;
  auto withPath = [&](llvm::Error err) {
    if (current && !current->missingConstants.empty())
      wanted = inputsBehind(*loadedModel, current->missingConstants);
    return fail(path + ": " + llvm::toString(std::move(err)));
  };
  llvm::Expected<std::unique_ptr<OnnxModel>> loaded =
      loadOnnxModel(path, options, fold);
  if (!loaded)
    return withPath(loaded.takeError());
  loadedModel = std::move(*loaded);
  OnnxModel &model = *loadedModel;
  onnx::GraphProto &graph = *model.proto.mutable_graph();
  loadImportDialects(context);
  if (llvm::Error err = foldConstantSubgraphs(model, context))
    return withPath(std::move(err));

  Location fileLoc = FileLineColLoc::get(&context, path, 0, 0);
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  OpBuilder builder(&context);
  GraphValues values(builder, model);
  current = &values;

  llvm::SmallVector<Type> argTypes;
  std::vector<const onnx::ValueInfoProto *> inputs = runtimeInputs(graph);
  for (const onnx::ValueInfoProto *input : inputs) {
    llvm::Expected<RankedTensorType> type = values.inferredType(input->name());
    if (!type)
      return withPath(type.takeError());
    argTypes.push_back(*type);
  }
  builder.setInsertionPointToEnd(module->getBody());
  auto fn = builder.create<func::FuncOp>(fileLoc, options.entryName,
                                         builder.getFunctionType(argTypes, {}));
  Block *body = fn.addEntryBlock();
  builder.setInsertionPointToEnd(body);
  for (auto [input, arg] : llvm::zip(inputs, body->getArguments())) {
    values.bind(input->name(), arg);
    arg.setLoc(NameLoc::get(builder.getStringAttr(input->name())));
  }
  for (onnx::TensorProto &init : *graph.mutable_initializer())
    values.addConstant(init.name(), &init,
                       NameLoc::get(builder.getStringAttr(init.name())));

  for (auto [index, node] : llvm::enumerate(*graph.mutable_node())) {
    Location loc = nodeLocation(&context, node, index);
    NodeContext ctx(values, node, loc);
    if (!node.domain().empty() && node.domain() != "ai.onnx")
      return withPath(ctx.unsupported("domain '" + node.domain() + "'"));
    OpConverter convert = findConverter(node.op_type());
    if (!convert)
      return withPath(ctx.unsupported(""));
    llvm::Expected<bool> folded = foldNode(ctx);
    if (!folded)
      return withPath(folded.takeError());
    if (*folded)
      continue;
    if (llvm::Error err = convert(ctx))
      return withPath(std::move(err));
  }

  llvm::SmallVector<Value> results;
  for (const onnx::ValueInfoProto &output : graph.output()) {
    llvm::Expected<Value> value = values.lookup(output.name());
    if (!value)
      return withPath(value.takeError());
    results.push_back(*value);
  }
  builder.create<func::ReturnOp>(fileLoc, results);
  fn.setFunctionType(
      builder.getFunctionType(argTypes, ValueRange(results).getTypes()));
  // Unsigned arguments and results are signless in the IR; the mark tells
  // tpuprof-run (and a compiled model's signature) what they hold.
  for (auto [index, input] : llvm::enumerate(inputs))
    if (values.isUnsigned(input->name()))
      fn.setArgAttr(index, TPUPROF_UNSIGNED_ATTR, builder.getUnitAttr());
  for (auto [index, output] : llvm::enumerate(graph.output()))
    if (values.isUnsigned(output.name()))
      fn.setResultAttr(index, TPUPROF_UNSIGNED_ATTR, builder.getUnitAttr());
  reduceLayoutTransposes(fn);
  if (failed(verify(*module)))
    return fail(path + ": the imported module does not verify (see above)");
  return std::move(module);
}

} // namespace

llvm::Expected<OwningOpRef<ModuleOp>>
tpuprof::import::importOnnxFile(llvm::StringRef path, MLIRContext &context,
                                const ImportOptions &options,
                                std::vector<unsigned> *foldedInputs) {
  // A shape that depends on an input's value needs that value at import:
  // each failure for want of one adds the inputs it comes from, when their
  // values are at hand, and imports again (at most once per input).
  std::vector<unsigned> fold;
  for (;;) {
    std::vector<unsigned> wanted;
    auto module = importOnce(path, context, options, fold, wanted);
    if (module) {
      if (foldedInputs)
        *foldedInputs = fold;
      return module;
    }
    size_t before = fold.size();
    for (unsigned position : wanted)
      if (position < options.inputValueFiles.size() &&
          !options.inputValueFiles[position].empty() &&
          !llvm::is_contained(fold, position))
        fold.push_back(position);
    if (fold.size() == before)
      return module.takeError();
    llvm::consumeError(module.takeError());
    llvm::sort(fold);
  }
}
