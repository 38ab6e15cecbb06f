//===- FuseElementwise.cpp - --tpu-profile-fuse-elementwise ---------------===//
//
// Upstream's linalg-fuse-elementwise-ops with one difference: an elementwise
// producer is not fused into a contraction or a convolution (named or
// generic). Fused there, the producer's body runs once per multiply-
// accumulate instead of once per element, and the op is no longer a
// contraction that --tpu-profile-tile-and-vectorize tiles into register
// blocks: a 1x1 convolution (a matmul, a generic once a reshape folds into
// it) after a ReLU6 ran as elementwise tiles, ten times slower. Everything
// else is as upstream's pass does it: elementwise chains fuse into one op,
// also into reductions of one input, reshapes fold by expansion, constant
// linalg ops fold, the same canonicalizations.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/CpuCompiler/Pipelines.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tpuprof {
#define GEN_PASS_DEF_TPUPROFFUSEELEMENTWISE
#include "tpuprof/CpuCompiler/Passes.h.inc"
} // namespace tpuprof

using namespace mlir;

namespace {

/// Whether `op` is a contraction (matmul, batch matmul, or the generic
/// one becomes when a reshape folds into it) or a convolution: a
/// multiply-accumulate over two inputs, which the tiler blocks for
/// registers. Reductions of one input (sums, maxima) are not: an
/// elementwise producer fused into them saves a pass over memory.
bool isContractionOrConvolution(Operation *op) {
  // The interfaces' checks alone take a product of two tensors, which has
  // no reduction, for a convolution.
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.getNumReductionLoops() > 0 &&
         (linalg::isaContractionOpInterface(linalgOp) ||
          linalg::isaConvolutionOpInterface(linalgOp));
}

/// Upstream's rule (the producer has no other use: fusing it would compute
/// it twice) plus ours: no elementwise producer into a contraction.
bool fuseProducer(OpOperand *fusedOperand) {
  Operation *producer = fusedOperand->get().getDefiningOp();
  return producer && producer->hasOneUse() &&
         !isContractionOrConvolution(fusedOperand->getOwner());
}

/// Upstream's rule for reshapes and constants: the producer has one use.
bool producerHasOneUse(OpOperand *fusedOperand) {
  Operation *producer = fusedOperand->get().getDefiningOp();
  return producer && producer->hasOneUse();
}

class FuseElementwisePass
    : public tpuprof::impl::TpuProfFuseElementwiseBase<FuseElementwisePass> {
public:
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    linalg::populateElementwiseOpsFusionPatterns(patterns, fuseProducer);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns,
                                                      producerHasOneUse);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, ctx);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
    ctx->getLoadedDialect<linalg::LinalgDialect>()->getCanonicalizationPatterns(
        patterns);
    linalg::populateConstantFoldLinalgOperations(patterns, producerHasOneUse);
    // Top-down, as upstream: fewer rewrites on long chains.
    GreedyRewriteConfig config;
    config.useTopDownTraversal = true;
    (void)applyPatternsAndFoldGreedily(getOperation(), std::move(patterns),
                                       config);
  }
};

} // namespace
