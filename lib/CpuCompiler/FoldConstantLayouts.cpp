//===- FoldConstantLayouts.cpp - --tpu-profile-fold-constant-layouts ------===//
//
// TOSA's lowering rearranges weights with ops: fully_connected transposes
// its [N, K] weight for linalg.matmul, a 1x1 conv2d becomes a collapse of
// its filter and the same transpose. On a constant each of those is a
// kernel that copies the weight on every call. Here they become constants
// in the layout their consumer reads.
//
// MLIR's generic constant folding builds attributes element by element and
// keeps every intermediate in the context, which takes minutes and
// gigabytes on a model of 100 MB. This works on bytes: a reshape of a
// dense resource shares the blob, a permutation writes one new blob, and a
// blob nothing refers to any more is freed.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/CpuCompiler/Pipelines.h"
#include "tpuprof/Dialect/Probe/ProbeDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/DenseSet.h"

#include <cstring>

namespace tpuprof {
#define GEN_PASS_DEF_TPUPROFFOLDCONSTANTLAYOUTS
#include "tpuprof/CpuCompiler/Passes.h.inc"
} // namespace tpuprof

using namespace mlir;

namespace {

/// The constant op behind `v`.
Operation *constantOp(Value v) {
  while (auto result = dyn_cast<OpResult>(v)) {
    auto begin = dyn_cast<tpuprof::BeginOp>(result.getOwner());
    if (!begin)
      break;
    v = begin.getInputs()[result.getResultNumber()];
  }
  return v.getDefiningOp();
}

/// The attribute of an arith.constant or tosa.const, if it is a ranked
/// tensor of static shape; through the graph probes that forward it (a
/// probe around an op takes its weight as an operand).
ElementsAttr constantValue(Value v) {
  Operation *def = constantOp(v);
  if (!def || !isa<arith::ConstantOp, tosa::ConstOp>(def))
    return nullptr;
  auto attr = dyn_cast<ElementsAttr>(def->getAttr("value"));
  auto type = attr ? dyn_cast<RankedTensorType>(attr.getType()) : nullptr;
  if (!type || !type.hasStaticShape())
    return nullptr;
  return attr;
}

/// The raw bytes of a dense resource and the size of one element in them,
/// if its blob is there and holds one whole number of bytes per element.
std::optional<std::pair<ArrayRef<char>, size_t>>
resourceBytes(DenseResourceElementsAttr attr) {
  AsmResourceBlob *blob = attr.getRawHandle().getBlob();
  int64_t count = attr.getType().getNumElements();
  if (!blob || count == 0)
    return std::nullopt;
  ArrayRef<char> data = blob->getData();
  if (data.empty() || data.size() % count != 0)
    return std::nullopt;
  return std::make_pair(data, data.size() / (size_t)count);
}

/// `in` (row-major, `shape`, `elemSize` bytes per element) permuted into
/// `out`: dimension i of `out` is dimension perm[i] of `in`. One pass over
/// `out` in order, an odometer over its indices carrying the offset in `in`.
void permuteInto(ArrayRef<char> in, MutableArrayRef<char> out,
                 ArrayRef<int64_t> shape, ArrayRef<int64_t> perm,
                 size_t elemSize) {
  size_t rank = shape.size();
  SmallVector<int64_t> inStrides(rank, 1);
  for (size_t i = rank; i-- > 1;)
    inStrides[i - 1] = inStrides[i] * shape[i];
  SmallVector<int64_t> outShape, stride;
  for (int64_t p : perm) {
    outShape.push_back(shape[p]);
    stride.push_back(inStrides[p] * (int64_t)elemSize);
  }
  if (rank == 0 || in.empty())
    return;
  SmallVector<int64_t> index(rank, 0);
  int64_t inOffset = 0;
  int64_t last = rank - 1, inner = outShape[last], innerStride = stride[last];
  char *dst = out.data();
  for (;;) {
    const char *src = in.data() + inOffset;
    if (elemSize == 4) {
      for (int64_t i = 0; i < inner; ++i, dst += 4, src += innerStride)
        std::memcpy(dst, src, 4);
    } else {
      for (int64_t i = 0; i < inner; ++i, dst += elemSize, src += innerStride)
        std::memcpy(dst, src, elemSize);
    }
    int64_t d = last - 1;
    for (; d >= 0; --d) {
      inOffset += stride[d];
      if (++index[d] < outShape[d])
        break;
      inOffset -= stride[d] * outShape[d];
      index[d] = 0;
    }
    if (d < 0)
      return;
  }
}

/// `attr` with the same elements in row-major order, of type `type`.
ElementsAttr reshaped(ElementsAttr attr, RankedTensorType type) {
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr))
    return DenseResourceElementsAttr::get(type, resource.getRawHandle());
  if (auto dense = dyn_cast<DenseElementsAttr>(attr))
    return dense.reshape(type);
  return nullptr;
}

/// `attr` permuted (dimension i of the result is dimension perm[i] of
/// `attr`), of type `type`; null when its bytes cannot be read.
ElementsAttr permuted(ElementsAttr attr, ArrayRef<int64_t> perm,
                      RankedTensorType type) {
  ArrayRef<int64_t> shape = cast<ShapedType>(attr.getType()).getShape();
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    auto bytes = resourceBytes(resource);
    if (!bytes)
      return nullptr;
    AsmResourceBlob *old = resource.getRawHandle().getBlob();
    AsmResourceBlob blob = HeapAsmResourceBlob::allocate(
        bytes->first.size(), old->getDataAlignment(), /*dataIsMutable=*/true);
    permuteInto(bytes->first, blob.getMutableData(), shape, perm,
                bytes->second);
    std::string name = resource.getRawHandle().getKey().str() + "_permuted";
    return DenseResourceElementsAttr::get(type, name, std::move(blob));
  }
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  if (!dense)
    return nullptr;
  if (dense.isSplat())
    return dense.resizeSplat(type);
  Type elem = type.getElementType();
  if (elem.isInteger(1))
    return nullptr; // bit-packed
  ArrayRef<char> raw = dense.getRawData();
  if (raw.size() % dense.getNumElements() != 0)
    return nullptr;
  std::vector<char> out(raw.size());
  permuteInto(raw, out, shape, perm, raw.size() / dense.getNumElements());
  return DenseElementsAttr::getFromRawBuffer(type, out);
}

/// The permutation of a linalg.generic that copies its one input, read
/// through a permutation, to its output, written in order without being
/// read: dimension i of the result is dimension perm[i] of the input.
std::optional<SmallVector<int64_t>> copyPermutation(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumResults() != 1 || op.getNumParallelLoops() != op.getNumLoops())
    return std::nullopt;
  Block &body = op.getRegion().front();
  auto yield = dyn_cast<linalg::YieldOp>(body.getTerminator());
  if (!yield || body.getOperations().size() != 1 ||
      yield.getNumOperands() != 1 || yield.getOperand(0) != body.getArgument(0))
    return std::nullopt;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!maps[1].isIdentity() || !maps[0].isPermutation())
    return std::nullopt;
  // Input dimension j is loop maps[0](j), which is result dimension
  // maps[0](j) too: result i reads input dimension inverse(i).
  SmallVector<int64_t> perm(maps[0].getNumResults());
  for (unsigned j = 0; j < maps[0].getNumResults(); ++j)
    perm[maps[0].getDimPosition(j)] = j;
  return perm;
}

class FoldConstantLayoutsPass
    : public tpuprof::impl::TpuProfFoldConstantLayoutsBase<
          FoldConstantLayoutsPass> {
public:
  void runOnOperation() override;
};

void FoldConstantLayoutsPass::runOnOperation() {
  // Program order: a reshape of a constant folds before the transpose that
  // reads it, which then sees a constant.
  SmallVector<Operation *> candidates;
  getOperation()->walk([&](Operation *op) {
    if (isa<linalg::TransposeOp, linalg::GenericOp, tensor::CollapseShapeOp,
            tensor::ExpandShapeOp>(op))
      candidates.push_back(op);
  });

  llvm::SetVector<Operation *> replacedConstants;
  OpBuilder builder(&getContext());
  for (Operation *op : candidates) {
    if (op->getNumResults() != 1)
      continue;
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type || !type.hasStaticShape())
      continue;
    Value source;
    ElementsAttr folded;
    if (auto transpose = dyn_cast<linalg::TransposeOp>(op)) {
      source = transpose.getInput();
      if (ElementsAttr attr = constantValue(source))
        folded = permuted(attr, transpose.getPermutation(), type);
    } else if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
      // A generic without inputs (a fill) has no source to look at.
      if (!generic.hasPureTensorSemantics() || generic.getNumDpsInputs() != 1)
        continue;
      source = generic.getDpsInputs()[0];
      ElementsAttr attr = constantValue(source);
      std::optional<SmallVector<int64_t>> perm;
      if (attr && (perm = copyPermutation(generic)))
        folded = permuted(attr, *perm, type);
    } else {
      source = op->getOperand(0);
      if (ElementsAttr attr = constantValue(source))
        folded = reshaped(attr, type);
    }
    if (!folded)
      continue;
    builder.setInsertionPoint(op);
    Value constant = builder.create<arith::ConstantOp>(op->getLoc(), type,
                                                       cast<TypedAttr>(folded));
    op->getResult(0).replaceAllUsesWith(constant);
    replacedConstants.insert(constantOp(source));
    op->erase();
  }
  if (replacedConstants.empty())
    return;

  // Constants left without uses go, and with them the blobs no attribute
  // of the module refers to any more.
  llvm::DenseSet<DialectResourceBlobManager::BlobEntry *> dropped;
  for (Operation *constant : replacedConstants) {
    if (!constant->use_empty())
      continue;
    if (auto resource =
            dyn_cast<DenseResourceElementsAttr>(constant->getAttr("value")))
      dropped.insert(resource.getRawHandle().getResource());
    constant->erase();
  }
  if (dropped.empty())
    return;
  getOperation()->walk([&](Operation *op) {
    op->getAttrDictionary().walk([&](DenseResourceElementsAttr attr) {
      dropped.erase(attr.getRawHandle().getResource());
    });
  });
  for (DialectResourceBlobManager::BlobEntry *resource : dropped)
    resource->setBlob(AsmResourceBlob());
}

} // namespace
