//===- tpuprof/LLVMPass/Memory.h - Allocation wrapping ----------*- C++ -*-===//
//
// Wraps the allocation and free calls of a function so that a window that
// tracks memory records them (format.h, "memory record"):
//
//   %p = call ptr @malloc(i64 %n)
//   %on = load atomic i32, ptr @__tpuprof_memory monotonic  ; the only cost
//   br (%on != 0), %tpuprof.alloc, %cont                    ; when off
// tpuprof.alloc:
//   call @__tpuprof_alloc(ptr %p, i64 %n, i32 <source>)
//
// Frees are recorded before the call (the address is only a key), realloc
// and the allocators that return a status (posix_memalign, cudaMalloc,
// hipMalloc) after it, through the runtime entry that checks the outcome.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_LLVMPASS_MEMORY_H
#define TPUPROF_LLVMPASS_MEMORY_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"

namespace tpuprof {
namespace llvmpass {

/// Whether `name` is an allocation or free function the wrapper knows.
bool isMemoryFunction(llvm::StringRef name);

/// Wraps every direct call of a known allocator in `f`; returns the number
/// wrapped. Declares the runtime's entries and flag in `f`'s module on first
/// use.
unsigned wrapAllocations(llvm::Function &f);

} // namespace llvmpass
} // namespace tpuprof

#endif // TPUPROF_LLVMPASS_MEMORY_H
