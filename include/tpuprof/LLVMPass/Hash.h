//===- tpuprof/LLVMPass/Hash.h - Stable hash of LLVM probes -----*- C++ -*-===//
//
// The op hash of the probes the LLVM pass creates, defined exactly in
// docs/hash.md ("LLVM launch and function probes"): it depends on
// symbols, argument types and constant arguments only — never on pointers,
// value names or source locations.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_LLVMPASS_HASH_H
#define TPUPROF_LLVMPASS_HASH_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace llvm {
class CallBase;
class Function;
} // namespace llvm

namespace tpuprof {
namespace llvmpass {

/// Version tags mixed into the hashes; bump them when a definition changes.
inline constexpr llvm::StringLiteral kLaunchHashVersion =
    "tpuprof-llvm-launch-hash-v1";
inline constexpr llvm::StringLiteral kFunctionHashVersion =
    "tpuprof-llvm-function-hash-v1";

/// The text a launch call's hash is computed from; `kernel` is the kernel or
/// outlined-function symbol ("" when the launch names none).
std::string canonicalLaunchText(const llvm::CallBase &call,
                                const llvm::Function &callee,
                                llvm::StringRef kernel);

/// The text an annotated function's hash is computed from.
std::string canonicalFunctionText(const llvm::Function &function);

/// xxh3-64 of the canonical texts.
uint64_t hashLaunch(const llvm::CallBase &call, const llvm::Function &callee,
                    llvm::StringRef kernel);
uint64_t hashFunction(const llvm::Function &function);

} // namespace llvmpass
} // namespace tpuprof

#endif // TPUPROF_LLVMPASS_HASH_H
