//===- Deallocate.cpp - --tpu-profile-deallocate --------------------------===//
//
// Upstream's deallocation pipeline, run only where it applies: it refuses
// IR that already frees memory, and models written on buffers (upstream's
// integration tests, hand-lowered kernels) often do.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/CpuCompiler/Pipelines.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

namespace tpuprof {
#define GEN_PASS_DEF_TPUPROFDEALLOCATE
#include "tpuprof/CpuCompiler/Passes.h.inc"
} // namespace tpuprof

using namespace mlir;

namespace {

class DeallocatePass
    : public tpuprof::impl::TpuProfDeallocateBase<DeallocatePass> {
public:
  DeallocatePass() : pipeline(ModuleOp::getOperationName()) {
    // Fixed text: it parses, or the build is broken.
    if (failed(parsePassPipeline("buffer-deallocation-pipeline,"
                                 "convert-bufferization-to-memref",
                                 pipeline)))
      llvm::report_fatal_error("tpu-profile-deallocate: bad pipeline");
  }
  DeallocatePass(const DeallocatePass &other)
      : TpuProfDeallocateBase(other), pipeline(other.pipeline) {}

  void getDependentDialects(DialectRegistry &registry) const override {
    pipeline.getDependentDialects(registry);
  }

  void runOnOperation() override {
    bool freesItsOwn =
        getOperation()
            .walk([](memref::DeallocOp) { return WalkResult::interrupt(); })
            .wasInterrupted();
    if (!freesItsOwn && failed(runPipeline(pipeline, getOperation())))
      signalPassFailure();
  }

private:
  OpPassManager pipeline;
};

} // namespace
