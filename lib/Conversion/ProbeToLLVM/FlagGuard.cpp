//===- FlagGuard.cpp - Flag-guarded runtime calls in the LLVM dialect -----===//

#include "FlagGuard.h"

using namespace mlir;

LLVM::LLVMFuncOp tpuprof::buildFlagGuard(
    ModuleOp module, StringRef name, ArrayRef<Type> argTypes, StringRef flag,
    llvm::function_ref<void(OpBuilder &)> prologue,
    llvm::function_ref<void(OpBuilder &, Block::BlockArgListType)> body) {
  MLIRContext *ctx = module.getContext();
  Location loc = module.getLoc();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto fn = b.create<LLVM::LLVMFuncOp>(
      loc, name,
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), argTypes),
      LLVM::Linkage::Internal);
  fn.setAlwaysInline(true);
  Block *entry = fn.addEntryBlock(b);
  Block *call = fn.addBlock();
  Block *done = fn.addBlock();

  b.setInsertionPointToStart(entry);
  if (prologue)
    prologue(b);
  // Monotonic: a plain load on x86 and ARM, and race-free for TSan while
  // another thread switches the flag.
  auto i32 = b.getI32Type();
  Value flagAddr =
      b.create<LLVM::AddressOfOp>(loc, LLVM::LLVMPointerType::get(ctx), flag);
  Value value = b.create<LLVM::LoadOp>(
      loc, i32, flagAddr, /*alignment=*/4, /*isVolatile=*/false,
      /*isNonTemporal=*/false, /*isInvariant=*/false,
      LLVM::AtomicOrdering::monotonic);
  Value zero = b.create<LLVM::ConstantOp>(loc, i32, 0);
  Value on = b.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::ne, value, zero);
  b.create<LLVM::CondBrOp>(loc, on, call, done);

  b.setInsertionPointToStart(call);
  body(b, entry->getArguments());
  b.create<LLVM::BrOp>(loc, done);
  b.setInsertionPointToStart(done);
  b.create<LLVM::ReturnOp>(loc, ValueRange());
  return fn;
}
