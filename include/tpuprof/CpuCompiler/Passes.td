//===- Passes.td - The CPU pipelines' passes ---------------*- tablegen -*-===//
//
// The passes the built-in pipelines add to upstream's. Two are the
// optimizing pipeline's (tpu-profile-cpu): one tiles and vectorizes linalg
// ops on tensors, one lowers the vector ops that produces to what
// convert-vector-to-llvm turns into fast code. docs/passes.md, "Built-in
// pipelines", shows where they run. Each pass also answers to its earlier
// name, `tpuprof-<name>` (Pipelines.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_CPUCOMPILER_PASSES_TD
#define TPUPROF_CPUCOMPILER_PASSES_TD

include "mlir/Pass/PassBase.td"

def TpuProfFuseElementwise
    : Pass<"tpu-profile-fuse-elementwise", "::mlir::func::FuncOp"> {
  let summary = "Fuse elementwise linalg ops, but not into contractions";
  let description = [{
    Upstream's `linalg-fuse-elementwise-ops` (elementwise producers fused
    into their elementwise consumers, reshapes folded into linalg ops by
    expansion, constant linalg ops folded, the same canonicalizations),
    except that an elementwise producer is not fused into a contraction
    or a convolution: a matmul, or the `linalg.generic` one becomes when a
    reshape folds into it (a 1x1 convolution). Such an op keeps a
    multiply-accumulate body, which `tpu-profile-tile-and-vectorize` tiles
    as a contraction; the producer (a ReLU6 before a 1x1 convolution, a
    residual add) stays a kernel of its own, run once per element rather
    than once per multiply. Reductions of a single input (sums, maxima)
    still take their elementwise producers.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def TpuProfTileAndVectorize
    : Pass<"tpu-profile-tile-and-vectorize", "::mlir::func::FuncOp"> {
  let summary = "Tile linalg ops into register-sized blocks and vectorize them";
  let description = [{
    First turns each `linalg.conv_2d_nhwc_fhwc` (TOSA's convolution) whose
    filter is a constant into `linalg.conv_2d_nhwc_hwcf` on the filter
    rearranged at compile time, the form upstream decomposes and vectorizes.
    For each linalg op of static shape: folds a 2-D `linalg.transpose` feeding
    a matmul's right operand into the matmul (`linalg.matmul_transpose_b`),
    tiles the op with `scf.for` loops so that one tile is a register block
    (contractions: rows x vector-width columns x 1 along the reduction, kept
    in registers across it; convolutions and poolings: one output row,
    decomposed into 1-D windows; everything else: the innermost dimensions up
    to a few vectors), and vectorizes the tile with `linalg::vectorize`.
    Tile sizes divide the loop ranges, so every tile is full. Ops it cannot
    vectorize (dynamic shapes, gathers) are left alone and become loops.

    Each op is transformed on its own: its tiles stay where the op was, so
    the probes around it still wrap exactly its computation.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "unsigned", /*default=*/"0",
      "Width of a vector register in bits: 128, 256 or 512; 0 asks the "
      "host CPU (512 with AVX-512, 256 with AVX2, else 128)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect", "::mlir::vector::VectorDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::memref::MemRefDialect"
  ];
}

def TpuProfLowerVectors
    : Pass<"tpu-profile-lower-vectors", "::mlir::func::FuncOp"> {
  let summary = "Keep accumulators in registers and lower vector ops for the CPU";
  let description = [{
    Runs after bufferization. Hoists loop-invariant code and the reads and
    writes of accumulator tiles out of reduction loops (so they live in
    registers), replaces `math` functions on f32 by polynomial approximations
    that vectorize (tanh, erf, exp, log, ...), and lowers contractions to
    outer products (one broadcast-and-FMA per row), multi-reductions,
    transposes and transfers with permutation maps to plain vector loads,
    stores, shuffles and arithmetic; a read that broadcasts a unit
    dimension along an inner vector dimension becomes a read of its
    elements and one splat each.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect", "::mlir::memref::MemRefDialect",
    "::mlir::math::MathDialect"
  ];
}

def TpuProfOutlineOps : Pass<"tpu-profile-outline-ops", "::mlir::ModuleOp"> {
  let summary = "Split large functions into functions of ~100 graph ops";
  let description = [{
    In a function whose body holds more than `min-ops` graph ops (TOSA ops
    other than constants, linalg structured ops), consecutive ops holding
    `ops-per-function` graph ops each move into a private, never-inlined
    function called in their place; probes move with their op. Constants
    and static `tensor.empty` ops stay and are cloned where they are used,
    so that lowerings still see them.

    Several upstream passes (one-shot bufferization's analysis, empty
    tensor elimination, block splitting in convert-scf-to-cf) and LLVM's
    code generation take time that grows faster than linearly with the size
    of a function; module-wide analyses (one-shot bufferization's, buffer
    deallocation's) look a callee up by walking the module at every query,
    so one function per op would be quadratic in the number of ops too.
    With functions of ~100 ops both stay small up to models of 100 k ops.
    Functions below the threshold keep all their ops together.
  }];
  let options = [
    Option<"minOps", "min-ops", "unsigned", /*default=*/"128",
      "Split functions with more graph ops than this">,
    Option<"opsPerFunction", "ops-per-function", "unsigned",
      /*default=*/"128", "Graph ops per function split off">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def TpuProfDeallocate : Pass<"tpu-profile-deallocate", "::mlir::ModuleOp"> {
  let summary = "Free every buffer, unless the model frees its own";
  let description = [{
    Runs `buffer-deallocation-pipeline` and `convert-bufferization-to-memref`
    (every buffer freed after its last use, at the end of its block), except
    on a module that already holds `memref.dealloc` ops: a model written on
    buffers that frees its own memory, which the deallocation pipeline
    refuses ("memory free side-effect on MemRef value not supported").
  }];
}

def TpuProfFreeEarly : Pass<"tpu-profile-free-early", "::mlir::ModuleOp"> {
  let summary = "Free each buffer right after its last use";
  let description = [{
    Moves every unconditional `memref.dealloc` of a buffer allocated in the
    same block to right after the buffer's last use in that block (uses of
    memrefs derived from it included). Run it after `tpu-profile-deallocate` (the buffer
    deallocation pipeline), which frees buffers at the end of their block: live bytes and
    peaks then follow the program, and a buffer dies in the op that reads it
    last. A buffer used outside its block keeps its dealloc where it is.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def TpuProfSubsamplePointwiseConvs
    : Pass<"tpu-profile-subsample-pointwise-convs"> {
  let summary = "Strided 1x1 convolutions: take the pixels read, then a matmul";
  let description = [{
    Runs on TOSA, before `tosa-optional-decompositions`. A `tosa.conv2d`
    with a 1x1 filter, no padding and a stride above 1 (ResNet's downsample
    branches) reads every stride-th pixel. Those pixels are taken first,
    as a strided `tensor.extract_slice` of the input, and the convolution
    left has stride 1, which `tosa-optional-decompositions` turns into a
    `tosa.fully_connected`: a matmul the tiler blocks for registers, where
    a strided `linalg.conv_2d_nhwc_fhwc` ran at less than half its speed.
    Inputs of dynamic shape stay as they are.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def TpuProfPageAlignLoops
    : Pass<"tpu-profile-page-align-loops", "::mlir::ModuleOp"> {
  let summary = "Each long loop nest a function of its own, on a page";
  let description = [{
    Runs on buffers, after the loops are final. Each `scf.for` nest at the
    top of a function that runs at least `min-work` ops (each op of a body
    once per iteration, as far as static trip counts tell) moves into a
    private, never-inlined function that starts on a 4 KiB boundary, called
    in its place; constants it uses are cloned into it, every other value
    it uses from outside is an argument.

    Where a loop's code falls in its page changes how fast it runs (moving
    resnet50's code by 2 KiB and nothing else made it 2 % faster), and in
    one function it falls wherever the code before it ends: adding probes
    between kernels, or changing one kernel, moved every later loop. On a
    page of its own a nest's code is at the same offsets in every build that
    has the same nest, and it is register-allocated alone, so the same nest
    compiles to the same bytes with or without probes around its call.
  }];
  let options = [
    Option<"minWork", "min-work", "uint64_t", /*default=*/"65536",
      "Outline nests that run at least this many ops">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def TpuProfLowerCopies : Pass<"tpu-profile-lower-copies"> {
  let summary = "Copy strided buffers block by contiguous block";
  let description = [{
    Runs after bufferization, on any op. Rewrites each `memref.copy` between
    buffers of static shape and static strides that are not both contiguous
    (a pad's copy into the interior of its result, a concatenation's copies
    into slices of its result, a slice copied out) into a loop nest over the
    outer dimensions whose body copies the largest trailing block contiguous
    in both buffers as one contiguous `memref.copy`, which
    `finalize-memref-to-llvm` lowers to `llvm.memcpy`; when not even the
    innermost dimension is contiguous in both, the body moves one element.
    Without it, such a copy becomes a call of MLIR's generic `memrefCopy`,
    which copies element by element. Copies that are contiguous already, and
    copies with a dynamic size or stride, stay as they are.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
    "::mlir::memref::MemRefDialect"
  ];
}

def TpuProfFoldConstantLayouts
    : Pass<"tpu-profile-fold-constant-layouts", "::mlir::ModuleOp"> {
  let summary = "Rearrange constant weights at compile time, on their bytes";
  let description = [{
    A transpose or reshape of a constant becomes a constant in the new
    layout, so that no kernel rearranges a weight at run time: TOSA's
    `fully_connected` transposes its [N, K] weight for the matmul, a 1x1
    `conv2d` (a `fully_connected` after `tosa-optional-decompositions`)
    collapses and transposes its filter. Folded, in program order:
    `linalg.transpose` and `linalg.generic` ops that only permute their one
    input (the output is not read), and `tensor.collapse_shape`,
    `tensor.expand_shape`, whose operand is an `arith.constant` or a
    `tosa.const`, also through the graph probes that forward it.

    The work is on raw bytes, never on one attribute per element: a
    reshape of a `dense_resource` shares its blob; a permuted
    `dense_resource` is one new blob written once; a splat stays a splat;
    a small `dense` constant of byte-sized elements is permuted on its raw
    data (i1, bit-packed, is left alone unless a splat). A constant left
    without uses is erased, and a blob no attribute of the module refers to
    any more is freed: a model's weights are held once, whatever the number
    of rearrangements. Non-constant operands are left alone.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TpuProfOrderConstants
    : Pass<"tpu-profile-order-constants", "::mlir::ModuleOp"> {
  let summary = "Name and place bufferized constants in program order";
  let description = [{
    Runs right after `one-shot-bufferize`. MLIR 19's module bufferization
    visits functions that call nothing in the order of a pointer-keyed
    map, so the `memref.global` constants it makes (`__constant_<shape>`,
    `_0`, `_1`, ... for more of one shape) come out in another order, under
    other names, from one run to the next: the same model compiled twice
    gives two objects whose weights sit at other addresses. This pass puts
    the private constant globals named `__constant_*` at the start of the
    module in the order their first `memref.get_global` appears, and
    renames them in that order (the first of a shape `__constant_<shape>`,
    then `_0`, `_1`, ...): the output depends on the program only.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

#endif // TPUPROF_CPUCOMPILER_PASSES_TD
