//===- SubsamplePointwiseConvs.cpp - Strided 1x1 convs as matmuls ---------===//
//
// A strided 1x1 convolution reads one pixel in stride: the pixels it reads
// are taken first, and the stride-1 convolution left is the matmul that
// tosa-optional-decompositions makes of it (docs/passes.md).
//
//===----------------------------------------------------------------------===//

#include "tpuprof/CpuCompiler/Pipelines.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"

namespace tpuprof {
#define GEN_PASS_DEF_TPUPROFSUBSAMPLEPOINTWISECONVS
#include "tpuprof/CpuCompiler/Passes.h.inc"
} // namespace tpuprof

using namespace mlir;

namespace {

/// Whether `conv` is a 1x1 convolution without padding over a static NHWC
/// input, with a stride above 1.
bool isStridedPointwise(tosa::Conv2DOp conv) {
  auto input = dyn_cast<RankedTensorType>(conv.getInput().getType());
  auto weight = dyn_cast<RankedTensorType>(conv.getWeight().getType());
  auto result = dyn_cast<RankedTensorType>(conv.getType());
  if (!input || !weight || !result || !input.hasStaticShape() ||
      !result.hasStaticShape() || weight.getRank() != 4 ||
      weight.getDimSize(1) != 1 || weight.getDimSize(2) != 1)
    return false;
  if (llvm::any_of(conv.getPad(), [](int64_t p) { return p != 0; }))
    return false;
  return llvm::any_of(conv.getStride(), [](int64_t s) { return s != 1; });
}

class SubsamplePointwiseConvsPass
    : public tpuprof::impl::TpuProfSubsamplePointwiseConvsBase<
          SubsamplePointwiseConvsPass> {
public:
  void runOnOperation() override {
    getOperation()->walk([](tosa::Conv2DOp conv) {
      if (!isStridedPointwise(conv))
        return;
      auto result = cast<RankedTensorType>(conv.getType());
      auto input = cast<RankedTensorType>(conv.getInput().getType());
      ArrayRef<int64_t> stride = conv.getStride();
      OpBuilder b(conv);
      // Pixel (y, x) of the result reads pixel (y * sh, x * sw) of the input.
      SmallVector<OpFoldResult> offsets(4, b.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes = {b.getIndexAttr(result.getDimSize(0)),
                                         b.getIndexAttr(result.getDimSize(1)),
                                         b.getIndexAttr(result.getDimSize(2)),
                                         b.getIndexAttr(input.getDimSize(3))};
      SmallVector<OpFoldResult> strides = {
          b.getIndexAttr(1), b.getIndexAttr(stride[0]),
          b.getIndexAttr(stride[1]), b.getIndexAttr(1)};
      Value pixels = b.create<tensor::ExtractSliceOp>(
          conv.getLoc(), conv.getInput(), offsets, sizes, strides);
      conv.getInputMutable().assign(pixels);
      conv.setStride(b.getDenseI64ArrayAttr({1, 1}));
    });
  }
};

} // namespace
