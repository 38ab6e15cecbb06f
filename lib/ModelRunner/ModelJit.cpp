//===- ModelJit.cpp - JIT-compile a lowered model -------------------------===//

#include "tpuprof/ModelRunner/ModelJit.h"
#include "tpuprof/ModelRunner/NativeCode.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "llvm/Support/FileSystem.h"

#include <functional>

using namespace tpuprof::run;

namespace {

llvm::Error fail(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

/// MLIR's runtime libraries that lowered models call (memrefCopy for copies
/// between strided buffers, printMemref* in the upstream integration tests),
/// as configured at build time.
constexpr const char *kRunnerLibs[] = {TPUPROF_MLIR_C_RUNNER_UTILS,
                                       TPUPROF_MLIR_RUNNER_UTILS};

} // namespace

llvm::Expected<JitModel>
tpuprof::run::jitCompile(mlir::ModuleOp module, llvm::StringRef entry,
                         llvm::ArrayRef<std::string> sharedLibs,
                         unsigned optLevel) {
  std::vector<llvm::StringRef> libs;
  for (const char *lib : kRunnerLibs) {
    if (!llvm::sys::fs::exists(lib))
      return fail(llvm::Twine("MLIR's runner library '") + lib +
                  "' is missing (package libmlir-19-dev)");
    libs.push_back(lib);
  }
  libs.insert(libs.end(), sharedLibs.begin(), sharedLibs.end());

  // The host's CPU and features, for LLVM's optimizer too (without a target
  // machine it assumes no vector registers at all), and the code placement
  // tpuprof-compile's models have.
  auto builder = tpuprof::compile::hostTargetMachineBuilder(optLevel);
  if (!builder)
    return builder.takeError();
  auto tm = builder->createTargetMachine();
  if (!tm)
    return tm.takeError();

  // ExecutionEngineOptions::transformer is a function_ref: the function it
  // refers to must outlive ExecutionEngine::create.
  std::function<llvm::Error(llvm::Module *)> optimize =
      mlir::makeOptimizingTransformer(optLevel, /*sizeLevel=*/0, tm->get());
  std::function<llvm::Error(llvm::Module *)> transformer =
      [&](llvm::Module *m) {
        tpuprof::compile::placeDataAndFrames(*m);
        return optimize(m);
      };
  mlir::ExecutionEngineOptions options;
  options.transformer = transformer;
  options.jitCodeGenOptLevel = (*tm)->getOptLevel();
  options.sharedLibPaths = libs;
  auto engine = mlir::ExecutionEngine::create(module, options, std::move(*tm));
  if (!engine)
    return engine.takeError();
  // Looking the entry up generates the machine code: compile time ends here.
  auto fn = (*engine)->lookupPacked(entry);
  if (!fn)
    return fn.takeError();
  return JitModel{std::move(*engine), *fn};
}
