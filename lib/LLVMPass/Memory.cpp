//===- Memory.cpp - Allocation wrapping for the LLVM pass -----------------===//
//
// The allocators are matched by name on direct calls, as the launch
// functions are: a call through a pointer is not wrapped.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/LLVMPass/Memory.h"
#include "tpuprof/format.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::llvmpass;

namespace {

/// How an allocator's call says what it did.
enum class Shape : uint8_t {
  Returns,       ///< Returns the pointer; the size is argument `size`.
  Calloc,        ///< Returns the pointer; the size is arg 0 * arg 1.
  Realloc,       ///< realloc(old, size) returns the pointer.
  ReturnsStatus, ///< Stores the pointer through arg 0 and returns 0 on success.
  Frees,         ///< Frees arg 0 (a pointer, or an integer device address).
};

struct Allocator {
  StringLiteral name;
  Shape shape;
  uint8_t size;   ///< Index of the size argument.
  uint8_t source; ///< tpuprof_memory_source
};

constexpr uint8_t kHeap = TPUPROF_SOURCE_HEAP, kDevice = TPUPROF_SOURCE_DEVICE;

const Allocator kAllocators[] = {
    {"malloc", Shape::Returns, 0, kHeap},
    {"calloc", Shape::Calloc, 0, kHeap},
    {"realloc", Shape::Realloc, 1, kHeap},
    {"aligned_alloc", Shape::Returns, 1, kHeap},
    {"memalign", Shape::Returns, 1, kHeap},
    {"valloc", Shape::Returns, 0, kHeap},
    {"posix_memalign", Shape::ReturnsStatus, 2, kHeap},
    {"free", Shape::Frees, 0, kHeap},
    // operator new / new[] (plain, nothrow, aligned) and delete / delete[]
    // (plain, sized, aligned, nothrow), Itanium ABI, 64-bit size_t.
    {"_Znwm", Shape::Returns, 0, kHeap},
    {"_Znam", Shape::Returns, 0, kHeap},
    {"_ZnwmRKSt9nothrow_t", Shape::Returns, 0, kHeap},
    {"_ZnamRKSt9nothrow_t", Shape::Returns, 0, kHeap},
    {"_ZnwmSt11align_val_t", Shape::Returns, 0, kHeap},
    {"_ZnamSt11align_val_t", Shape::Returns, 0, kHeap},
    {"_ZnwmSt11align_val_tRKSt9nothrow_t", Shape::Returns, 0, kHeap},
    {"_ZnamSt11align_val_tRKSt9nothrow_t", Shape::Returns, 0, kHeap},
    {"_ZdlPv", Shape::Frees, 0, kHeap},
    {"_ZdaPv", Shape::Frees, 0, kHeap},
    {"_ZdlPvm", Shape::Frees, 0, kHeap},
    {"_ZdaPvm", Shape::Frees, 0, kHeap},
    {"_ZdlPvSt11align_val_t", Shape::Frees, 0, kHeap},
    {"_ZdaPvSt11align_val_t", Shape::Frees, 0, kHeap},
    {"_ZdlPvmSt11align_val_t", Shape::Frees, 0, kHeap},
    {"_ZdaPvmSt11align_val_t", Shape::Frees, 0, kHeap},
    {"_ZdlPvRKSt9nothrow_t", Shape::Frees, 0, kHeap},
    {"_ZdaPvRKSt9nothrow_t", Shape::Frees, 0, kHeap},
    {"_ZdlPvSt11align_val_tRKSt9nothrow_t", Shape::Frees, 0, kHeap},
    {"_ZdaPvSt11align_val_tRKSt9nothrow_t", Shape::Frees, 0, kHeap},
    // CUDA runtime and driver, HIP: device memory; pinned host memory is
    // heap.
    {"cudaMalloc", Shape::ReturnsStatus, 1, kDevice},
    {"cudaMallocManaged", Shape::ReturnsStatus, 1, kDevice},
    {"cudaMallocAsync", Shape::ReturnsStatus, 1, kDevice},
    {"cudaFree", Shape::Frees, 0, kDevice},
    {"cudaFreeAsync", Shape::Frees, 0, kDevice},
    {"cudaMallocHost", Shape::ReturnsStatus, 1, kHeap},
    {"cudaFreeHost", Shape::Frees, 0, kHeap},
    {"cuMemAlloc_v2", Shape::ReturnsStatus, 1, kDevice},
    {"cuMemFree_v2", Shape::Frees, 0, kDevice},
    {"hipMalloc", Shape::ReturnsStatus, 1, kDevice},
    {"hipMallocManaged", Shape::ReturnsStatus, 1, kDevice},
    {"hipMallocAsync", Shape::ReturnsStatus, 1, kDevice},
    {"hipFree", Shape::Frees, 0, kDevice},
    {"hipFreeAsync", Shape::Frees, 0, kDevice},
    {"hipHostMalloc", Shape::ReturnsStatus, 1, kHeap},
    {"hipHostFree", Shape::Frees, 0, kHeap},
};

const Allocator *findAllocator(StringRef name) {
  for (const Allocator &a : kAllocators)
    if (a.name == name)
      return &a;
  return nullptr;
}

/// Whether the call's operands have the types its shape needs (a
/// declaration with another signature is someone else's function).
bool fits(const CallBase &call, const Allocator &a) {
  unsigned n = call.arg_size();
  auto isInt = [&](unsigned i) {
    return i < n && call.getArgOperand(i)->getType()->isIntegerTy();
  };
  auto isPtrOrInt = [&](unsigned i) {
    Type *t = i < n ? call.getArgOperand(i)->getType() : nullptr;
    return t && (t->isPointerTy() || t->isIntegerTy());
  };
  Type *ret = call.getType();
  switch (a.shape) {
  case Shape::Returns:
    return ret->isPointerTy() && isInt(a.size);
  case Shape::Calloc:
    return ret->isPointerTy() && isInt(0) && isInt(1);
  case Shape::Realloc:
    return ret->isPointerTy() && n >= 2 &&
           call.getArgOperand(0)->getType()->isPointerTy() && isInt(1);
  case Shape::ReturnsStatus:
    return ret->isIntegerTy() && n > a.size &&
           call.getArgOperand(0)->getType()->isPointerTy() && isInt(a.size);
  case Shape::Frees:
    return isPtrOrInt(0);
  }
  return false;
}

class Wrapper {
public:
  explicit Wrapper(Module &m)
      : m(m), ctx(m.getContext()), i32(Type::getInt32Ty(ctx)),
        i64(Type::getInt64Ty(ctx)), ptr(PointerType::getUnqual(ctx)) {}

  void wrap(CallBase &call, const Allocator &a);

private:
  void declareRuntime();
  /// The guarded block's insertion point for code after `call`.
  Instruction *afterCall(CallBase &call);
  /// Splits at `before` and returns the terminator of the taken branch of
  /// the memory-flag check.
  Instruction *guard(Instruction *before);
  Value *asI64(IRBuilder<> &b, Value *v) { return b.CreateZExtOrTrunc(v, i64); }

  Module &m;
  LLVMContext &ctx;
  Type *i32, *i64, *ptr;
  GlobalVariable *flag = nullptr;
  FunctionCallee allocFn, allocOutFn, reallocFn, freeFn;
  MDNode *unlikely = nullptr;
};

void Wrapper::declareRuntime() {
  if (flag)
    return;
  flag = m.getNamedGlobal(TPUPROF_SYMBOL_MEMORY);
  if (!flag)
    flag = new GlobalVariable(m, i32, /*isConstant=*/false,
                              GlobalValue::ExternalLinkage,
                              /*Initializer=*/nullptr, TPUPROF_SYMBOL_MEMORY);
  Type *voidTy = Type::getVoidTy(ctx);
  auto declare = [&](StringRef name, ArrayRef<Type *> args) {
    FunctionCallee fc =
        m.getOrInsertFunction(name, FunctionType::get(voidTy, args, false));
    if (auto *fn = dyn_cast<Function>(fc.getCallee()))
      fn->setDoesNotThrow();
    return fc;
  };
  allocFn = declare(TPUPROF_SYMBOL_ALLOC, {ptr, i64, i32});
  allocOutFn = declare(TPUPROF_SYMBOL_ALLOC_OUT, {ptr, i64, i32, i64});
  reallocFn = declare(TPUPROF_SYMBOL_REALLOC, {ptr, ptr, i64, i32});
  freeFn = declare(TPUPROF_SYMBOL_FREE, {ptr, i32});
  unlikely = MDBuilder(ctx).createUnlikelyBranchWeights();
}

Instruction *Wrapper::afterCall(CallBase &call) {
  if (auto *invoke = dyn_cast<InvokeInst>(&call)) {
    // The result exists on the normal edge only; give that edge a block of
    // its own when the destination has other predecessors.
    BasicBlock *dest = invoke->getNormalDest();
    if (!dest->getSinglePredecessor())
      dest = SplitEdge(invoke->getParent(), dest);
    return &*dest->getFirstInsertionPt();
  }
  return call.getNextNode();
}

Instruction *Wrapper::guard(Instruction *before) {
  IRBuilder<> b(before);
  LoadInst *on = b.CreateAlignedLoad(i32, flag, Align(4), "tpuprof.memory.on");
  // Monotonic, as the probes' flag: a plain load, race-free for TSan.
  on->setAtomic(AtomicOrdering::Monotonic);
  Instruction *then =
      SplitBlockAndInsertIfThen(b.CreateICmpNE(on, b.getInt32(0)), before,
                                /*Unreachable=*/false, unlikely);
  then->getParent()->setName("tpuprof.memory");
  return then;
}

void Wrapper::wrap(CallBase &call, const Allocator &a) {
  declareRuntime();
  Instruction *at = a.shape == Shape::Frees ? &call : afterCall(call);
  IRBuilder<> b(guard(at));
  b.SetCurrentDebugLocation(call.getDebugLoc());
  Value *source = b.getInt32(a.source);
  auto arg = [&](unsigned i) { return call.getArgOperand(i); };
  CallInst *record = nullptr;
  switch (a.shape) {
  case Shape::Returns:
    record = b.CreateCall(allocFn, {&call, asI64(b, arg(a.size)), source});
    break;
  case Shape::Calloc:
    record = b.CreateCall(
        allocFn,
        {&call, b.CreateMul(asI64(b, arg(0)), asI64(b, arg(1))), source});
    break;
  case Shape::Realloc:
    record = b.CreateCall(reallocFn, {arg(0), &call, asI64(b, arg(1)), source});
    break;
  case Shape::ReturnsStatus:
    record = b.CreateCall(allocOutFn, {arg(0), asI64(b, arg(a.size)), source,
                                       b.CreateSExtOrTrunc(&call, i64)});
    break;
  case Shape::Frees: {
    Value *p = arg(0);
    if (p->getType()->isIntegerTy()) // A driver API device address.
      p = b.CreateIntToPtr(asI64(b, p), ptr);
    record = b.CreateCall(freeFn, {p, source});
    break;
  }
  }
  record->setDoesNotThrow();
}

} // namespace

bool tpuprof::llvmpass::isMemoryFunction(StringRef name) {
  return findAllocator(name) != nullptr;
}

unsigned tpuprof::llvmpass::wrapAllocations(Function &f) {
  SmallVector<std::pair<CallBase *, const Allocator *>, 8> calls;
  for (Instruction &inst : instructions(f)) {
    auto *call = dyn_cast<CallBase>(&inst);
    if (!call || isa<CallBrInst>(call))
      continue;
    Function *callee = call->getCalledFunction();
    if (!callee)
      continue;
    const Allocator *a = findAllocator(callee->getName());
    if (!a || !fits(*call, *a))
      continue;
    // Nothing may follow a musttail call but its return.
    if (auto *ci = dyn_cast<CallInst>(call);
        ci && ci->isMustTailCall() && a->shape != Shape::Frees)
      continue;
    calls.push_back({call, a});
  }
  if (calls.empty())
    return 0;
  Wrapper wrapper(*f.getParent());
  for (auto [call, a] : calls)
    wrapper.wrap(*call, *a);
  return calls.size();
}
