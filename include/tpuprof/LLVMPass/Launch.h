//===- tpuprof/LLVMPass/Launch.h - Launch calls -----------------*- C++ -*-===//
//
// Which calls are kernel launches (LaunchMatcher), and what a launch's probe
// says (describeLaunch): its name, hash, argument shapes and the dynamic
// launch arguments recorded at run time. docs/llvm-pass.md is the
// user-facing description; keep the two in step.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_LLVMPASS_LAUNCH_H
#define TPUPROF_LLVMPASS_LAUNCH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/GlobPattern.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class CallBase;
class DebugLoc;
class Function;
} // namespace llvm

namespace tpuprof {
namespace llvmpass {

/// The launch functions instrumented by default (CUDA, HIP, OpenMP and a TPU
/// runtime's `launchKernel`).
llvm::ArrayRef<llvm::StringLiteral> defaultLaunchFunctions();

/// Decides which callees are launch functions: a default name, or a user glob
/// matching the symbol, its demangled form or its qualified name without
/// parameters (`ns::launch` for `_ZN2ns6launchEPvi`).
class LaunchMatcher {
public:
  /// `patterns` are globs; `file` (may be empty) holds more, one a line, with
  /// '#' comments. Fails with one line naming the bad pattern or file.
  static llvm::Expected<LaunchMatcher>
  create(llvm::ArrayRef<std::string> patterns, llvm::StringRef file);

  /// True for a launch function. Cached per callee: demangling is the
  /// expensive part and a TU calls the same functions many times.
  bool isLaunch(const llvm::Function &callee);

private:
  /// GlobPattern keeps a StringRef into its pattern: the matcher owns the
  /// pattern text (stable across moves of the matcher).
  std::unique_ptr<llvm::BumpPtrAllocator> patternText =
      std::make_unique<llvm::BumpPtrAllocator>();
  std::vector<llvm::GlobPattern> globs;
  llvm::DenseMap<const llvm::Function *, bool> cache;
};

/// Emits the IR computing one dynamic launch argument as an i64, at the
/// builder's insertion point (inside the enabled branch of a begin probe).
using DimEmitter = std::function<llvm::Value *(llvm::IRBuilderBase &)>;

/// What one launch call's probe says.
struct LaunchDescription {
  std::string name;     ///< Demangled kernel, outlined region, or callee.
  std::string shapes;   ///< e.g. "grid[?, 1, 1], block[256, 1, 1]"; may be "".
  std::string location; ///< "file:line:col" or "".
  uint64_t hash = 0;    ///< docs/hash.md, "LLVM launch and function probes".
  /// One emitter per '?' in `shapes`, in order.
  std::vector<DimEmitter> dims;
  /// False for the C launch APIs (CUDA, HIP, OpenMP), which report errors by
  /// return code and never throw: their plain calls need no cleanup, which
  /// would only cost code and compile time.
  bool mayThrow = true;
};

/// Describes `call`, a call of the launch function `callee`.
LaunchDescription describeLaunch(llvm::CallBase &call, llvm::Function &callee);

/// A symbol as users know it: demangled, with clang's CUDA host-stub prefix
/// `__device_stub__` removed.
std::string displayName(llvm::StringRef symbol);

/// "file:line:col" of a debug location, or "" without one.
std::string formatLocation(const llvm::DebugLoc &loc);

} // namespace llvmpass
} // namespace tpuprof

#endif // TPUPROF_LLVMPASS_LAUNCH_H
