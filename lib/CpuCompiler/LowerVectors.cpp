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
