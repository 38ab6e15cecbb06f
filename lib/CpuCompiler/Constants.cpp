//===- Constants.cpp - Constants the CPU pipeline rearranges --------------===//
//
// Weights reach kernels through ops that only rearrange them (TOSA's
// transposes for 1x1 convolutions and fully connected layers, the filter
// layout of convolutions): with the weights constant, the pipeline does the
// rearranging once, at compile time.
//
//===----------------------------------------------------------------------===//

#include "Constants.h"
#include "tpuprof/Dialect/Probe/ProbeDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

ElementsAttr tpuprof::cpu::constantOf(Value v) {
  while (auto result = dyn_cast<OpResult>(v)) {
    auto begin = dyn_cast<tpuprof::BeginOp>(result.getOwner());
    if (!begin)
      break;
    v = begin.getInputs()[result.getResultNumber()];
  }
  ElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return nullptr;
  return attr;
}

std::optional<std::vector<float>>
tpuprof::cpu::floatValues(ElementsAttr attr) {
  if (!attr.getElementType().isF32())
    return std::nullopt;
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    auto values = dense.getValues<float>();
    return std::vector<float>(values.begin(), values.end());
  }
  if (auto resource = dyn_cast<DenseF32ResourceElementsAttr>(attr))
    if (std::optional<ArrayRef<float>> data = resource.tryGetAsArrayRef())
      return std::vector<float>(data->begin(), data->end());
  return std::nullopt;
}

bool tpuprof::cpu::foldConstantPermutation(linalg::LinalgOp op,
                                           RewriterBase &rewriter) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1 || op->getNumResults() != 1 ||
      op.getNumLoops() != op.getNumParallelLoops() || op.hasDynamicShape())
    return false;
  Block *body = op.getBlock();
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  if (!yield || body->getOperations().size() != 1 ||
      yield.getValues().size() != 1 ||
      yield.getValues()[0] != body->getArgument(0))
    return false;
  AffineMap inMap = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (!inMap.isPermutation() || !outMap.isIdentity())
    return false;
  ElementsAttr attr = constantOf(op.getDpsInputOperand(0)->get());
  auto outType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!attr || !outType)
    return false;
  std::optional<std::vector<float>> in = floatValues(attr);
  if (!in)
    return false;
  // Output element (i0, ..., in-1) is input element (i_p(0), ...): walk the
  // output in order with the input offset each loop adds.
  ArrayRef<int64_t> inShape = cast<ShapedType>(attr.getType()).getShape();
  ArrayRef<int64_t> outShape = outType.getShape();
  size_t rank = outShape.size();
  SmallVector<int64_t> stepOfLoop(rank, 0);
  int64_t stride = 1;
  for (size_t j = rank; j-- > 0;) {
    stepOfLoop[cast<AffineDimExpr>(inMap.getResult(j)).getPosition()] =
        stride;
    stride *= inShape[j];
  }
  std::vector<float> out(in->size());
  SmallVector<int64_t> index(rank, 0);
  int64_t from = 0;
  for (float &value : out) {
    value = (*in)[from];
    for (size_t i = rank; i-- > 0;) {
      from += stepOfLoop[i];
      if (++index[i] < outShape[i])
        break;
      from -= stepOfLoop[i] * outShape[i];
      index[i] = 0;
    }
  }
  auto value = DenseF32ResourceElementsAttr::get(
      outType, "permuted_constant",
      HeapAsmResourceBlob::allocateAndCopyInferAlign(ArrayRef<float>(out)));
  rewriter.setInsertionPoint(op);
  rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, outType,
                                                 cast<TypedAttr>(value));
  return true;
}
