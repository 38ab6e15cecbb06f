//===- Memory.cpp - Memory tracking in --tpu-profile-lower ----------------===//
//
// Wraps the buffers that lowered code allocates and frees (memref.alloc,
// alloca, realloc, dealloc: what bufferization and the deallocation
// pipeline emit) in calls of small internal, always-inlined guard functions
// in the LLVM dialect:
//
//   %m = memref.alloc(%n) : memref<?x128xf32>
//   %p = memref.extract_aligned_pointer_as_index %m {tpuprof.memory}
//   llvm.call @__tpuprof_alloc_guard(%p_i64, %bytes, <source>)
//
//   llvm.func internal @__tpuprof_alloc_guard(%p, %n, %src) {always_inline} {
//     %on = llvm.load @__tpuprof_memory          // the only cost when off
//     llvm.cond_br (%on != 0), ^call, ^done
//   ^call:
//     llvm.call @__tpuprof_alloc(inttoptr %p, %n, %src)
//     ...
//
// An allocation is charged to the op whose result the buffer holds, not to
// whichever probe is open where bufferization placed the malloc: the
// buffer's last writer in its block (an op that writes its result in place
// into an earlier op's buffer, as a tosa.add into the tosa.rescale's before
// it, is the buffer's owner: what the buffer holds once the block is done).
// When that writer sits in a later probe than the allocation, the record
// call moves to just after that probe's begin, so the runtime finds the
// owner open (docs/probes.md, "Allocations").
//
// The deallocation lowering's bookkeeping is not wrapped: the small arrays
// of addresses and flags that a `bufferization.dealloc` of several buffers
// lowers to (memref<Nxindex>, memref<Nxi1>, filled by stores and handed to
// its helper function) hold no tensor, and LLVM removes their mallocs once
// the helper is inlined, unless a guard takes their address: wrapped, they
// would stay in the instrumented build only, a malloc and a free each per
// call (docs/probes.md, "Allocations").
//
// A free is recorded before its dealloc (the address is only a key). The
// wrapping is idempotent, so the pass can run again after a pipeline that
// adds deallocations: a buffer already wrapped has a marked pointer
// extraction among its users (through casts), a dealloc a mark of its own.
//
//===----------------------------------------------------------------------===//

#include "FlagGuard.h"
#include "tpuprof/Conversion/ProbeToLLVM/ProbeToLLVM.h"
#include "tpuprof/format.h"

#include "tpuprof/Dialect/Probe/ProbeDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

namespace {

constexpr StringLiteral kMemoryFlag = TPUPROF_SYMBOL_MEMORY;
constexpr StringLiteral kMark = "tpuprof.memory";
constexpr StringLiteral kAllocGuard = "__tpuprof_alloc_guard";
constexpr StringLiteral kReallocGuard = "__tpuprof_realloc_guard";
constexpr StringLiteral kFreeGuard = "__tpuprof_free_guard";

class MemoryWrapper {
public:
  explicit MemoryWrapper(ModuleOp module)
      : module(module), ctx(module.getContext()) {}
  void run();

private:
  /// The guard `name` calling `runtimeFn` with `numPtrs` addresses (i64,
  /// passed as pointers), then `hasSize` an i64 size, then the i32 source;
  /// created (with the runtime's declarations) on first use.
  StringRef guard(StringRef name, StringRef runtimeFn, unsigned numPtrs,
                  bool hasSize);
  /// The buffer's aligned address as an i64, marked as the wrapper's.
  Value address(OpBuilder &b, Location loc, Value memref);
  /// Its bytes: the element size times every dimension (dynamic ones read
  /// at run time); null for an element type without a known size.
  Value bytes(OpBuilder &b, Location loc, Value memref);
  void wrapAlloc(Operation *op, Value result, uint32_t source);
  void wrapRealloc(memref::ReallocOp op);
  void wrapDealloc(memref::DeallocOp op);
  static bool isWrapped(Value memref);
  /// Whether `memref` is the deallocation lowering's bookkeeping: a static
  /// 1-D buffer of index or i1, only stored to, loaded from, freed and
  /// passed (cast to a dynamic size) to a call.
  static bool isDeallocBookkeeping(Value memref);
  /// The begin probe of the op that owns `buffer`, allocated by `alloc`:
  /// the probe around its last writer in the allocation's block, when that
  /// probe begins after the allocation; else null (the allocation is in the
  /// owner's probe already, or no probe is around the writer).
  static Operation *ownerBegin(Value buffer, Operation *alloc);
  /// Whether the data layout gives `element` a size.
  static bool hasKnownSize(Type element);

  ModuleOp module;
  MLIRContext *ctx;
  llvm::StringMap<bool> made;
};

StringRef MemoryWrapper::guard(StringRef name, StringRef runtimeFn,
                               unsigned numPtrs, bool hasSize) {
  if (made.count(name) || module.lookupSymbol(name)) {
    made[name] = true;
    return name;
  }
  made[name] = true;
  Location loc = module.getLoc();
  auto ptrTy = LLVM::LLVMPointerType::get(ctx);
  auto voidTy = LLVM::LLVMVoidType::get(ctx);
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto i32 = b.getI32Type(), i64 = b.getI64Type();
  if (!module.lookupSymbol(kMemoryFlag))
    b.create<LLVM::GlobalOp>(loc, i32, /*isConstant=*/false,
                             LLVM::Linkage::External, kMemoryFlag,
                             /*value=*/Attribute());
  SmallVector<Type> runtimeArgs(numPtrs, ptrTy), guardArgs(numPtrs, i64);
  if (hasSize) {
    runtimeArgs.push_back(i64);
    guardArgs.push_back(i64);
  }
  runtimeArgs.push_back(i32);
  guardArgs.push_back(i32);
  if (!module.lookupSymbol(runtimeFn))
    b.create<LLVM::LLVMFuncOp>(
        loc, runtimeFn, LLVM::LLVMFunctionType::get(voidTy, runtimeArgs));

  // The addresses come as i64 (what the lowered code has) and go to the
  // runtime as pointers.
  auto call = [&](OpBuilder &c, Block::BlockArgListType argv) {
    SmallVector<Value> args;
    for (BlockArgument arg : argv)
      args.push_back(arg.getArgNumber() < numPtrs
                         ? c.create<LLVM::IntToPtrOp>(loc, ptrTy, arg)
                         : Value(arg));
    c.create<LLVM::CallOp>(loc, TypeRange(), runtimeFn, args);
  };
  tpuprof::buildFlagGuard(module, name, guardArgs, kMemoryFlag,
                          /*prologue=*/nullptr, call);
  return name;
}

Value MemoryWrapper::address(OpBuilder &b, Location loc, Value memref) {
  auto extract = b.create<memref::ExtractAlignedPointerAsIndexOp>(loc, memref);
  extract->setAttr(kMark, b.getUnitAttr());
  return b.create<arith::IndexCastOp>(loc, b.getI64Type(), extract);
}

Value MemoryWrapper::bytes(OpBuilder &b, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  Type element = type.getElementType();
  if (!hasKnownSize(element))
    return Value();
  uint64_t elementBytes = DataLayout::closest(memref.getDefiningOp())
                              .getTypeSize(element)
                              .getFixedValue();
  int64_t staticPart = int64_t(elementBytes);
  for (int64_t d : type.getShape())
    if (!ShapedType::isDynamic(d))
      staticPart *= d;
  Value total = b.create<arith::ConstantIndexOp>(loc, staticPart);
  for (unsigned i = 0; i != type.getRank(); ++i)
    if (type.isDynamicDim(i))
      total = b.create<arith::MulIOp>(loc, total,
                                      b.create<memref::DimOp>(loc, memref, i));
  return b.create<arith::IndexCastOp>(loc, b.getI64Type(), total);
}

bool MemoryWrapper::hasKnownSize(Type element) {
  if (auto complex = dyn_cast<ComplexType>(element))
    return hasKnownSize(complex.getElementType());
  if (auto vector = dyn_cast<VectorType>(element))
    return !vector.isScalable() && hasKnownSize(vector.getElementType());
  return isa<IntegerType, IndexType, FloatType, DataLayoutTypeInterface>(
      element);
}

bool MemoryWrapper::isWrapped(Value memref) {
  SmallVector<Value> work{memref};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (isa<memref::ExtractAlignedPointerAsIndexOp>(user) &&
          user->hasAttr(kMark))
        return true;
      if (isa<memref::CastOp>(user))
        work.push_back(user->getResult(0));
    }
  }
  return false;
}

bool MemoryWrapper::isDeallocBookkeeping(Value memref) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  if (!type || type.getRank() != 1 || !type.hasStaticShape() ||
      !(isa<IndexType>(type.getElementType()) ||
        type.getElementType().isInteger(1)))
    return false;
  bool passedToCall = false;
  for (Operation *user : memref.getUsers()) {
    if (auto store = dyn_cast<memref::StoreOp>(user)) {
      if (store.getValueToStore() == memref)
        return false;
      continue;
    }
    if (isa<memref::LoadOp, memref::DeallocOp>(user))
      continue;
    if (!isa<memref::CastOp>(user))
      return false;
    for (Operation *castUser : user->getResult(0).getUsers()) {
      if (!isa<CallOpInterface>(castUser))
        return false;
      passedToCall = true;
    }
  }
  return passedToCall;
}

Operation *MemoryWrapper::ownerBegin(Value buffer, Operation *alloc) {
  Block *block = alloc->getBlock();
  Operation *lastWriter = nullptr;
  SmallVector<Value> work{buffer};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      // Views of the buffer (casts, subviews) are the buffer.
      if (auto view = dyn_cast<ViewLikeOpInterface>(user);
          view && view.getViewSource() == v) {
        work.push_back(user->getResult(0));
        continue;
      }
      auto effects = dyn_cast<MemoryEffectOpInterface>(user);
      if (!effects || !effects.getEffectOnValue<MemoryEffects::Write>(v))
        continue;
      Operation *at = block->findAncestorOpInBlock(*user);
      if (at && (!lastWriter || lastWriter->isBeforeInBlock(at)))
        lastWriter = at;
    }
  }
  if (!lastWriter)
    return nullptr;
  // The probe open at the writer: back from it to the allocation, the
  // first begin whose end was not passed on the way.
  unsigned ends = 0;
  for (Operation *op = lastWriter->getPrevNode(); op && op != alloc;
       op = op->getPrevNode()) {
    if (isa<tpuprof::EndOp>(op))
      ++ends;
    else if (isa<tpuprof::BeginOp>(op) && ends-- == 0)
      return op;
  }
  return nullptr;
}

void MemoryWrapper::wrapAlloc(Operation *op, Value result, uint32_t source) {
  OpBuilder b(op->getContext());
  b.setInsertionPointAfter(op);
  Location loc = op->getLoc();
  Value size = bytes(b, loc, result);
  if (!size)
    return;
  Value addr = address(b, loc, result);
  Value src = b.create<arith::ConstantIntOp>(loc, source, 32);
  if (Operation *owner = ownerBegin(result, op))
    b.setInsertionPointAfter(owner);
  b.create<LLVM::CallOp>(loc, TypeRange(),
                         guard(kAllocGuard, TPUPROF_SYMBOL_ALLOC, 1, true),
                         ValueRange{addr, size, src});
}

void MemoryWrapper::wrapRealloc(memref::ReallocOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  if (!hasKnownSize(op.getType().getElementType()))
    return;
  Value old = address(b, loc, op.getSource());
  b.setInsertionPointAfter(op);
  Value addr = address(b, loc, op.getResult());
  Value size = bytes(b, loc, op.getResult());
  Value src = b.create<arith::ConstantIntOp>(loc, TPUPROF_SOURCE_MEMREF, 32);
  b.create<LLVM::CallOp>(loc, TypeRange(),
                         guard(kReallocGuard, TPUPROF_SYMBOL_REALLOC, 2, true),
                         ValueRange{old, addr, size, src});
}

void MemoryWrapper::wrapDealloc(memref::DeallocOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  op->setAttr(kMark, b.getUnitAttr());
  Value addr = address(b, loc, op.getMemref());
  Value src = b.create<arith::ConstantIntOp>(loc, TPUPROF_SOURCE_MEMREF, 32);
  b.create<LLVM::CallOp>(loc, TypeRange(),
                         guard(kFreeGuard, TPUPROF_SYMBOL_FREE, 1, false),
                         ValueRange{addr, src});
}

void MemoryWrapper::run() {
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (isa<memref::AllocOp, memref::AllocaOp, memref::ReallocOp,
            memref::DeallocOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
      Value freed = dealloc.getMemref();
      if (!op->hasAttr(kMark) && isa<MemRefType>(freed.getType()) &&
          !isDeallocBookkeeping(freed))
        wrapDealloc(dealloc);
      continue;
    }
    Value result = op->getResult(0);
    // Only ranked buffers have a size the wrapper can compute.
    if (!isa<MemRefType>(result.getType()) || isWrapped(result) ||
        isDeallocBookkeeping(result))
      continue;
    if (auto realloc = dyn_cast<memref::ReallocOp>(op))
      wrapRealloc(realloc);
    else
      wrapAlloc(op, result,
                isa<memref::AllocaOp>(op) ? TPUPROF_SOURCE_STACK
                                          : TPUPROF_SOURCE_MEMREF);
  }
}

} // namespace

void tpuprof::wrapMemoryOps(ModuleOp module) { MemoryWrapper(module).run(); }
