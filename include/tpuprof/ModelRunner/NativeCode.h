//===- NativeCode.h - A lowered model as .o, .a or .so ----------*- C++ -*-===//
//
// LLVM's TargetMachine for the host generates the object code (position
// independent, so that it links into a .so or a PIE); LLVM's archive writer
// makes a .a; a .so is linked by the system's C compiler driver (cc,
// clang-19, clang or gcc, or --linker), which knows the platform's crt files
// and libc. docs/compile.md says why.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_MODELRUNNER_NATIVECODE_H
#define TPUPROF_MODELRUNNER_NATIVECODE_H

#include "llvm/ADT/SmallString.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <string>
#include <vector>

namespace tpuprof {
namespace compile {

/// Loops start on a cache line in every model this code generator emits,
/// and constant data of a page or more (weights) on a page, of a line or
/// more on a line. With LLVM's defaults (16-byte loops on x86, data packed)
/// where a kernel's loop falls in its line and a weight in its page is
/// decided by every byte before it: the same kernel then ran a few percent
/// faster or slower in a build with probes between kernels than in one
/// without, a difference the profile would wrongly show. Placed, a model's
/// kernels and weights sit alike in every build of it (docs/compile.md,
/// "Code placement").
constexpr unsigned kLineBytes = 64;
constexpr unsigned kPageBytes = 4096;

/// The host CPU and its features at -O`optLevel`, loops aligned to
/// kLineBytes: what tpuprof-compile and tpuprof-run's JIT build their
/// target machines from.
llvm::Expected<llvm::orc::JITTargetMachineBuilder>
hostTargetMachineBuilder(unsigned optLevel);

/// Aligns `module`'s constant globals as said above, and makes each of its
/// functions realign its stack frame, so that the slots where it spills
/// vector registers are aligned whatever the depth of its caller's stack.
void placeDataAndFrames(llvm::Module &module);

/// A position-independent target machine from hostTargetMachineBuilder.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
hostTargetMachine(unsigned optLevel);

/// Places `module`'s constants, optimizes it at -O`optLevel` (as
/// tpuprof-run's JIT does) and returns its object code.
llvm::Expected<llvm::SmallString<0>>
emitObject(llvm::Module &module, llvm::TargetMachine &tm, unsigned optLevel);

/// How to link a .so.
struct SharedLink {
  std::string
      linker; ///< Program; empty: the first of cc, clang-19, clang, gcc.
  /// Libraries to link by path (the runtime); NEEDED by their soname.
  std::vector<std::string> libraries;
  /// Libraries NEEDED only if the model calls them (MLIR's runner utils).
  std::vector<std::string> ifUsed;
  std::vector<std::string> runpath; ///< DT_RUNPATH entries, in order.
};

/// Writes `object` to `path` as a relocatable object (.o), an archive
/// holding it (.a) or a shared library (.so, linked as `link` says),
/// chosen by `path`'s extension. Errors are one line.
llvm::Error writeArtifact(llvm::StringRef path, llvm::StringRef object,
                          const SharedLink &link);

} // namespace compile
} // namespace tpuprof

#endif // TPUPROF_MODELRUNNER_NATIVECODE_H
