//===- LowerVectors.cpp - --tpu-profile-lower-vectors ---------------------===//
//
// The vector half of the optimizing pipeline, on buffers, in the stages the
// upstream transform-dialect CPU examples use: hoist, approximate math,
// lower contractions and other n-D ops, then transfers to loads and stores.
// convert-vector-to-scf{full-unroll} and convert-vector-to-llvm finish.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/CpuCompiler/Pipelines.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace tpuprof {
#define GEN_PASS_DEF_TPUPROFLOWERVECTORS
#include "tpuprof/CpuCompiler/Passes.h.inc"
} // namespace tpuprof

using namespace mlir;

namespace {

/// A transfer_read that broadcasts along an inner vector dimension of a
/// unit memory dimension (a [4,64,1] buffer read as vector<1x2x64> by
/// (d0, d1, 0): a softmax's row maximum against its row) reads the elements
/// there are, a unit dimension in the broadcast's place, and stretches it by
/// vector.broadcast: one splat per element read. Upstream lowers it as a
/// read with the broadcast dimension leading, then a transpose, which
/// becomes one insert per element of the result (the softmax kernels of a
/// transformer encoder ran ~17x slower).
struct ReadInnerUnitBroadcastByStretch
    : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    auto source = dyn_cast<ShapedType>(read.getSource().getType());
    AffineMap map = read.getPermutationMap();
    if (read.getMask() || !source || !source.hasRank() ||
        map.getNumResults() != source.getRank())
      return failure();
    VectorType type = read.getVectorType();
    llvm::SmallVector<int64_t> shape(type.getShape());
    llvm::SmallVector<bool> inBounds;
    bool readBefore = false, inner = false;
    for (auto [i, e] : llvm::enumerate(map.getResults())) {
      if (auto c = dyn_cast<AffineConstantExpr>(e)) {
        // Only a broadcast of a unit dimension: the one element there is
        // the one the original read broadcasts.
        if (c.getValue() != 0 || source.isDynamicDim(i) ||
            source.getDimSize(i) != 1)
          return failure();
        inner |= readBefore;
        shape[i] = 1;
        inBounds.push_back(true);
        continue;
      }
      auto d = dyn_cast<AffineDimExpr>(e);
      if (!d || d.getPosition() != i)
        return failure();
      readBefore = true;
      inBounds.push_back(read.isDimInBounds(i));
    }
    // Leading broadcasts only: upstream reads fewer dimensions and
    // broadcasts, as well as this would.
    if (!inner)
      return failure();
    Value elements = rewriter.create<vector::TransferReadOp>(
        read.getLoc(), VectorType::get(shape, type.getElementType()),
        read.getSource(), read.getIndices(), read.getPadding(), inBounds);
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(read, type, elements);
    return success();
  }
};

class LowerVectorsPass
    : public tpuprof::impl::TpuProfLowerVectorsBase<LowerVectorsPass> {
public:
  void runOnOperation() override;
};

void LowerVectorsPass::runOnOperation() {
  func::FuncOp fn = getOperation();
  MLIRContext *ctx = &getContext();
  auto apply = [&](auto populate) {
    RewritePatternSet patterns(ctx);
    populate(patterns);
    return applyPatternsAndFoldGreedily(fn, std::move(patterns));
  };

  // Accumulators in registers: the subviews of a tile are loop-invariant in
  // its reduction loop, and then so are the tile's read and write.
  fn.walk([](LoopLikeOpInterface loop) { moveLoopInvariantCode(loop); });
  linalg::hoistRedundantVectorTransfers(fn);

  vector::VectorTransformsOptions options;
  options
      .setVectorTransformsOptions(vector::VectorContractLowering::OuterProduct)
      .setVectorMultiReductionLowering(
          vector::VectorMultiReductionLowering::InnerReduction)
      .setVectorTransposeLowering(
          vector::VectorTransposeLowering::Shuffle16x16);

  if (failed(apply([&](RewritePatternSet &p) {
        populateMathPolynomialApproximationPatterns(p);
      })) ||
      failed(apply([&](RewritePatternSet &p) {
        vector::populateCastAwayVectorLeadingOneDimPatterns(p);
        vector::populateVectorTransferDropUnitDimsPatterns(p);
        p.add<ReadInnerUnitBroadcastByStretch>(ctx, /*benefit=*/2);
        vector::populateVectorContractLoweringPatterns(p, options);
        vector::populateVectorTransferPermutationMapLoweringPatterns(p);
        vector::populateVectorMultiReductionLoweringPatterns(
            p, options.vectorMultiReductionLowering);
        vector::populateVectorToVectorCanonicalizationPatterns(p);
      })) ||
      failed(apply([&](RewritePatternSet &p) {
        vector::populateVectorOuterProductLoweringPatterns(p);
        vector::populateVectorTransposeLoweringPatterns(p, options);
        vector::populateVectorBroadcastLoweringPatterns(p);
        vector::populateVectorShapeCastLoweringPatterns(p);
        vector::populateVectorMaskOpLoweringPatterns(p);
      })) ||
      failed(apply([&](RewritePatternSet &p) {
        vector::populateVectorTransferLoweringPatterns(p,
                                                       /*maxTransferRank=*/1);
      })))
    return signalPassFailure();
}

} // namespace
