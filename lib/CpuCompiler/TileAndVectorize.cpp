//===- TileAndVectorize.cpp - --tpu-profile-tile-and-vectorize ------------===//
//
// Register-blocking tiles for linalg ops on tensors, then linalg::vectorize
// on each tile. Three kinds of op get three shapes of tile:
//
//  - contractions (matmul, batch_matmul, ...) whose right operand is
//    contiguous along the output's columns: `rows x cols x 1`, rows up to
//    8 (4 below AVX-512) and cols up to two vectors. The tile's accumulator
//    stays in registers along the reduction loop once
//    --tpu-profile-lower-vectors has hoisted its read and write; each step is
//    one outer product;
//  - 2-D convolutions and poolings (NHWC, NCHW): one output row of up to 8
//    pixels x up to two vectors of channels, kernel row 1, so that upstream
//    decomposes the tile into a 1-D convolution, which it vectorizes;
//  - everything else: the innermost loops up to eight vectors, the others 1;
//    an operand read in another order (a transpose) makes both its fastest
//    loop and the innermost one a vector long, so the tile transposes in
//    registers.
//
// Tile sizes divide the loop ranges, but for a vector tile that no
// multiple of the vector divides: its loop is peeled, so that every tile is
// full and static.
//
// First, TOSA's convolutions (linalg.conv_2d_nhwc_fhwc: filters OHWI, each
// output channel's weights contiguous) with constant filters become
// linalg.conv_2d_nhwc_hwcf on the filter rearranged once, here: upstream
// decomposes and vectorizes only that form, with the output channels in
// vector lanes; FHWC would stay a scalar loop nest. Likewise TOSA's depthwise
// convolutions (linalg.depthwise_conv_2d_nhwc_hwcm) with a channel
// multiplier of 1 become linalg.depthwise_conv_2d_nhwc_hwc between reshapes.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/CpuCompiler/Pipelines.h"
#include "tpuprof/Dialect/Probe/ProbeDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/TargetParser/Host.h"

namespace tpuprof {
#define GEN_PASS_DEF_TPUPROFTILEANDVECTORIZE
#include "tpuprof/CpuCompiler/Passes.h.inc"
} // namespace tpuprof

using namespace mlir;

namespace {

/// Elements in one tile above which a tile is not vectorized (LLVM spills
/// vectors much larger than the register file).
constexpr int64_t kMaxVectorElements = 4096;

/// Reduction steps in one tile of a contraction (outer products per
/// iteration of its reduction loop).
constexpr int64_t kReductionSteps = 4;

/// Vector registers' worth of elements in one tile of an elementwise op or
/// a reduction.
constexpr int64_t kElementwiseVectors = 8;

unsigned hostVectorBits() {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  if (features.lookup("avx512f"))
    return 512;
  if (features.lookup("avx2") || features.lookup("avx"))
    return 256;
  return 128;
}

/// The largest divisor of `n` that is at most `cap`, preferring multiples of
/// `multipleOf` (a tile that fills whole vectors).
int64_t divisorAtMost(int64_t n, int64_t cap, int64_t multipleOf = 1) {
  if (n <= cap)
    return n;
  for (int64_t t = cap / multipleOf * multipleOf; t >= multipleOf;
       t -= multipleOf)
    if (n % t == 0)
      return t;
  for (int64_t t = cap; t > 1; --t)
    if (n % t == 0)
      return t;
  return 1;
}

/// A tile of the loop along the vector lanes: up to two vectors that
/// divide `range`, else one vector, whose last, shorter tile peeling makes a
/// loop of its own. (Any divisor would do for the tile, but 58 channels
/// would then make 29-lane vectors, which LLVM splits into 16 + 8 + 4 + 1
/// lanes with a shuffle per piece: shufflenet's 1x1 convolutions over 58
/// channels ran several times slower than over 64.)
int64_t vectorTile(int64_t range, int64_t vl) {
  if (range <= 2 * vl)
    return range;
  for (int64_t t = 2 * vl; t >= vl; t -= vl)
    if (range % t == 0)
      return t;
  return vl;
}

/// The loop that dimension `result` of `map` walks, if it is a plain loop.
std::optional<unsigned> loopOf(AffineMap map, unsigned result) {
  if (auto d = dyn_cast<AffineDimExpr>(map.getResult(result)))
    return d.getPosition();
  return std::nullopt;
}

/// The constant `v` holds, looking through the probes that forward it.
ElementsAttr constantOf(Value v) {
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

/// The f32 values of `attr` (dense or a dense resource), if it has them.
std::optional<std::vector<float>> floatValues(ElementsAttr attr) {
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

/// conv_2d_nhwc_fhwc with a constant filter -> conv_2d_nhwc_hwcf with the
/// filter transposed now (a dense resource, as the importer keeps weights).
bool convertToHwcf(linalg::Conv2DNhwcFhwcOp op, IRRewriter &rewriter) {
  if (!op.hasPureTensorSemantics())
    return false;
  auto filterType = dyn_cast<RankedTensorType>(op.getInputs()[1].getType());
  ElementsAttr attr = constantOf(op.getInputs()[1]);
  if (!filterType || !filterType.hasStaticShape() || !attr)
    return false;
  std::optional<std::vector<float>> fhwc = floatValues(attr);
  if (!fhwc)
    return false;
  ArrayRef<int64_t> s = filterType.getShape();
  int64_t f = s[0], h = s[1], w = s[2], c = s[3];
  std::vector<float> hwcf(fhwc->size());
  for (int64_t fi = 0; fi < f; ++fi)
    for (int64_t hi = 0; hi < h; ++hi)
      for (int64_t wi = 0; wi < w; ++wi)
        for (int64_t ci = 0; ci < c; ++ci)
          hwcf[((hi * w + wi) * c + ci) * f + fi] =
              (*fhwc)[((fi * h + hi) * w + wi) * c + ci];
  auto type = RankedTensorType::get({h, w, c, f}, filterType.getElementType());
  auto value = DenseF32ResourceElementsAttr::get(
      type, "conv_filter_hwcf",
      HeapAsmResourceBlob::allocateAndCopyInferAlign(ArrayRef<float>(hwcf)));
  rewriter.setInsertionPoint(op);
  Value filter = rewriter.create<arith::ConstantOp>(op.getLoc(), type,
                                                    cast<TypedAttr>(value));
  rewriter.replaceOpWithNewOp<linalg::Conv2DNhwcHwcfOp>(
      op, op.getResultTypes(), ValueRange{op.getInputs()[0], filter},
      op.getOutputs(), op.getStrides(), op.getDilations());
  return true;
}

/// depthwise_conv_2d_nhwc_hwcm with a channel multiplier of 1 (what TOSA's
/// depthwise_conv2d becomes) -> depthwise_conv_2d_nhwc_hwc between reshapes,
/// the form upstream decomposes and vectorizes; HWCM stays a loop nest.
bool convertToHwc(linalg::DepthwiseConv2DNhwcHwcmOp op, IRRewriter &rewriter) {
  if (!op.hasPureTensorSemantics())
    return false;
  auto filterType = dyn_cast<RankedTensorType>(op.getInputs()[1].getType());
  auto outType = dyn_cast<RankedTensorType>(op.getOutputs()[0].getType());
  if (!filterType || !outType || !filterType.hasStaticShape() ||
      !outType.hasStaticShape() || filterType.getShape()[3] != 1)
    return false;
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<ReassociationIndices> filterGroups = {{0}, {1}, {2, 3}};
  SmallVector<ReassociationIndices> outGroups = {{0}, {1}, {2}, {3, 4}};
  Value filter = rewriter.create<tensor::CollapseShapeOp>(
      loc, op.getInputs()[1], filterGroups);
  Value init = rewriter.create<tensor::CollapseShapeOp>(loc, op.getOutputs()[0],
                                                        outGroups);
  auto conv = rewriter.create<linalg::DepthwiseConv2DNhwcHwcOp>(
      loc, TypeRange{init.getType()}, ValueRange{op.getInputs()[0], filter},
      ValueRange{init}, op.getStrides(), op.getDilations());
  rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
      op, outType, conv.getResult(0), outGroups);
  return true;
}

class TileAndVectorizePass
    : public tpuprof::impl::TpuProfTileAndVectorizeBase<TileAndVectorizePass> {
public:
  using Base::Base;
  void runOnOperation() override;

private:
  /// Vector lanes for elements of `type`.
  int64_t lanes(Type type) const {
    unsigned width = type.isIntOrFloat() ? type.getIntOrFloatBitWidth() : 32;
    return std::max<int64_t>(1, bits / std::max(8u, width));
  }
  /// Tile sizes for `op` (one per loop, 0 = the whole range), or none.
  std::optional<SmallVector<int64_t>> tileSizes(linalg::LinalgOp op) const;
  std::optional<SmallVector<int64_t>> contractionTiles(linalg::LinalgOp op,
                                                       ArrayRef<int64_t> ranges,
                                                       int64_t vl) const;
  std::optional<SmallVector<int64_t>> convolutionTiles(linalg::LinalgOp op,
                                                       ArrayRef<int64_t> ranges,
                                                       int64_t vl) const;
  SmallVector<int64_t> elementwiseTiles(linalg::LinalgOp op,
                                        ArrayRef<int64_t> ranges,
                                        int64_t vl) const;

  unsigned bits = 0;
};

std::optional<SmallVector<int64_t>> TileAndVectorizePass::contractionTiles(
    linalg::LinalgOp op, ArrayRef<int64_t> ranges, int64_t vl) const {
  if (!linalg::isaContractionOpInterface(op) || op.getNumDpsInputs() != 2)
    return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.empty() || dims->n.empty() || dims->k.empty())
    return std::nullopt;
  unsigned m = dims->m.back(), n = dims->n.back();
  // One outer product per reduction step needs a row of the right operand
  // and of the result contiguous along n.
  AffineMap rhs = op.getMatchingIndexingMap(op.getDpsInputOperand(1));
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (rhs.getNumResults() == 0 || out.getNumResults() == 0 ||
      loopOf(rhs, rhs.getNumResults() - 1) != n ||
      loopOf(out, out.getNumResults() - 1) != n)
    return std::nullopt;
  SmallVector<int64_t> tiles(ranges.size(), 1);
  tiles[m] = divisorAtMost(ranges[m], bits >= 512 ? 8 : 4);
  tiles[n] = vectorTile(ranges[n], vl);
  // A few reduction steps per tile: the vectorized tile is then a
  // multiply and a reduction, which becomes a vector.contract.
  tiles[dims->k.back()] =
      divisorAtMost(ranges[dims->k.back()], kReductionSteps);
  return tiles;
}

std::optional<SmallVector<int64_t>> TileAndVectorizePass::convolutionTiles(
    linalg::LinalgOp op, ArrayRef<int64_t> ranges, int64_t vl) const {
  // The ops upstream decomposes into 1-D ones once a kernel row is 1.
  if (!isa<linalg::Conv2DNhwcHwcfOp, linalg::Conv2DNchwFchwOp,
           linalg::DepthwiseConv2DNhwcHwcOp, linalg::PoolingNhwcSumOp,
           linalg::PoolingNhwcMaxOp, linalg::PoolingNhwcMaxUnsignedOp,
           linalg::PoolingNhwcMinOp, linalg::PoolingNhwcMinUnsignedOp,
           linalg::PoolingNchwSumOp, linalg::PoolingNchwMaxOp>(op))
    return std::nullopt;
  FailureOr<linalg::ConvolutionDimensions> dims =
      linalg::inferConvolutionDims(op);
  if (failed(dims) || dims->outputImage.size() != 2 ||
      dims->filterLoop.size() != 2)
    return std::nullopt;
  SmallVector<int64_t> tiles(ranges.size(), 1);
  unsigned ow = dims->outputImage[1];
  tiles[ow] = divisorAtMost(ranges[ow], 8);
  for (unsigned c : llvm::concat<unsigned>(dims->outputChannel, dims->depth))
    tiles[c] = vectorTile(ranges[c], vl);
  // The output's fastest dimension: the channels of a pooling (which
  // inferConvolutionDims counts as a batch dimension).
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (std::optional<unsigned> c = loopOf(out, out.getNumResults() - 1);
      c && *c != ow)
    tiles[*c] = vectorTile(ranges[*c], vl);
  tiles[dims->filterLoop[1]] = 0;
  // Input channels: as many per tile as keep the decomposed 1-D tile within
  // the vector budget (all of them in a small convolution), so that a deep
  // one (512 channels) still vectorizes, as a loop over channel blocks.
  int64_t perChannel = ranges[dims->filterLoop[1]];
  for (unsigned d : llvm::concat<unsigned>(
           dims->outputImage, dims->outputChannel, dims->depth, dims->batch))
    perChannel *= tiles[d] ? tiles[d] : ranges[d];
  for (unsigned c : dims->inputChannel)
    tiles[c] = divisorAtMost(
        ranges[c], std::max<int64_t>(1, kMaxVectorElements / perChannel));
  return tiles;
}

SmallVector<int64_t> TileAndVectorizePass::elementwiseTiles(
    linalg::LinalgOp op, ArrayRef<int64_t> ranges, int64_t vl) const {
  SmallVector<int64_t> tiles(ranges.size(), 1);
  unsigned inner = ranges.size() - 1;
  for (OpOperand *in : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(in);
    if (map.getNumResults() == 0)
      continue;
    std::optional<unsigned> fastest = loopOf(map, map.getNumResults() - 1);
    if (!fastest || *fastest == inner)
      continue;
    tiles[inner] = divisorAtMost(ranges[inner], vl);
    tiles[*fastest] = divisorAtMost(ranges[*fastest], vl);
    return tiles;
  }
  // Whole inner dimensions while they fit in a few vectors: a 30x8 row of
  // an image is one tile, not 30.
  int64_t budget = kElementwiseVectors * vl;
  for (int i = inner; i >= 0 && budget > 1; --i) {
    tiles[i] = divisorAtMost(ranges[i], budget, i == int(inner) ? vl : 1);
    budget /= tiles[i];
    if (tiles[i] != ranges[i])
      break;
  }
  return tiles;
}

/// Whether `op` reads or writes i1 elements. LLVM stores a vector of i1 as
/// packed bits, a memref of i1 holds one byte per element: such ops stay
/// scalar.
bool touchesBooleans(Operation *op) {
  auto isBool = [](Type t) { return getElementTypeOrSelf(t).isInteger(1); };
  return llvm::any_of(op->getOperandTypes(), isBool) ||
         llvm::any_of(op->getResultTypes(), isBool);
}

std::optional<SmallVector<int64_t>>
TileAndVectorizePass::tileSizes(linalg::LinalgOp op) const {
  if (!op.hasPureTensorSemantics() || op.hasDynamicShape() ||
      op.getNumDpsInits() == 0 || op.getNumLoops() == 0 || touchesBooleans(op))
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t vl = lanes(getElementTypeOrSelf(op.getDpsInits()[0].getType()));
  if (auto tiles = convolutionTiles(op, ranges, vl))
    return tiles;
  // Everything else must vectorize as it is (no gathers, no unknown ops).
  if (failed(linalg::vectorizeOpPrecondition(op)))
    return std::nullopt;
  if (auto tiles = contractionTiles(op, ranges, vl))
    return tiles;
  return elementwiseTiles(op, ranges, vl);
}

/// Number of elements of the largest vector vectorizing `op` would make.
int64_t iterationSpaceSize(linalg::LinalgOp op) {
  int64_t size = 1;
  for (int64_t r : op.getStaticLoopRanges())
    size *= r;
  return size;
}

void TileAndVectorizePass::runOnOperation() {
  bits = vectorBits ? vectorBits : hostVectorBits();
  if (bits != 128 && bits != 256 && bits != 512) {
    getOperation().emitError(
        "tpu-profile-tile-and-vectorize: vector-bits must be "
        "0, 128, 256 or 512, got ")
        << bits;
    return signalPassFailure();
  }
  MLIRContext *ctx = &getContext();
  IRRewriter rewriter(ctx);

  // 0. Convolutions in the form upstream vectorizes.
  SmallVector<Operation *> convs;
  getOperation().walk([&](Operation *op) {
    if (isa<linalg::Conv2DNhwcFhwcOp, linalg::DepthwiseConv2DNhwcHwcmOp>(op))
      convs.push_back(op);
  });
  for (Operation *conv : convs) {
    if (auto fhwc = dyn_cast<linalg::Conv2DNhwcFhwcOp>(conv))
      convertToHwcf(fhwc, rewriter);
    else
      convertToHwc(cast<linalg::DepthwiseConv2DNhwcHwcmOp>(conv), rewriter);
  }

  // 1. Tile. Collected first: tiling replaces the ops.
  SmallVector<linalg::LinalgOp> ops;
  getOperation().walk([&](linalg::LinalgOp op) { ops.push_back(op); });
  bool peeled = false;
  for (linalg::LinalgOp op : ops) {
    std::optional<SmallVector<int64_t>> tiles = tileSizes(op);
    if (!tiles)
      continue;
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    // A tile as large as the op needs no loop.
    bool whole = true;
    for (auto [t, r] : llvm::zip(*tiles, ranges))
      whole &= t == 0 || t == r;
    if (whole)
      continue;
    rewriter.setInsertionPoint(op);
    scf::SCFTilingOptions options;
    options.setTileSizes(getAsIndexOpFoldResult(ctx, *tiles));
    FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
        rewriter, cast<TilingInterface>(op.getOperation()), options);
    if (failed(tiled))
      continue;
    rewriter.replaceOp(op, tiled->replacements);
    // Innermost first: peeling an outer loop copies the inner ones.
    for (LoopLikeOpInterface loop : llvm::reverse(tiled->loops)) {
      scf::ForOp partial;
      if (auto forOp = dyn_cast<scf::ForOp>(loop.getOperation()))
        peeled |= succeeded(
            scf::peelForLoopAndSimplifyBounds(rewriter, forOp, partial));
    }
  }
  // The last tile's sizes are constants now; canonicalization makes its
  // slices and op static, as vectorizing needs.
  if (peeled) {
    RewritePatternSet patterns(ctx);
    for (Dialect *dialect : ctx->getLoadedDialects())
      dialect->getCanonicalizationPatterns(patterns);
    for (RegisteredOperationName op : ctx->getRegisteredOperations())
      op.getCanonicalizationPatterns(patterns, ctx);
    if (failed(
            applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }

  // 2. Tiles of 2-D convolutions and poolings become 1-D ones.
  {
    RewritePatternSet patterns(ctx);
    linalg::populateDecomposeConvolutionPatterns(patterns);
    if (failed(
            applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }

  // 3. Vectorize every small static op that can be.
  ops.clear();
  getOperation().walk([&](linalg::LinalgOp op) { ops.push_back(op); });
  for (linalg::LinalgOp op : ops) {
    if (op.hasDynamicShape() || iterationSpaceSize(op) > kMaxVectorElements ||
        touchesBooleans(op) || failed(linalg::vectorizeOpPrecondition(op)))
      continue;
    rewriter.setInsertionPoint(op);
    (void)linalg::vectorize(rewriter, op);
  }

  // 4. Read vectors straight from the tensors the tiles slice; a multiply
  // and a reduction of broadcast reads become a vector.contract of the plain
  // reads (the broadcasts folded into its maps).
  RewritePatternSet patterns(ctx);
  tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(patterns);
  vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
  vector::populateVectorReductionToContractPatterns(patterns);
  vector::TransferReadOp::getCanonicalizationPatterns(patterns, ctx);
  vector::TransferWriteOp::getCanonicalizationPatterns(patterns, ctx);
  if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
    return signalPassFailure();
}

} // namespace
