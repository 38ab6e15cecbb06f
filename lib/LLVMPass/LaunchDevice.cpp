//===- LaunchDevice.cpp - Calls redirected to the device wrappers ---------===//
//
// The runtime's wrapper of F takes F's arguments and then F's address, so
// the program keeps linking F from its own library and the runtime needs no
// symbol lookup to call it. Calls through pointers are left alone.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/LLVMPass/LaunchDevice.h"

#include "tpuprof/format.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace {

#define TPUPROF_WRAPPED_NAME(f) #f,
constexpr StringLiteral kWrapped[] = {
    TPUPROF_DEVICE_WRAPPED(TPUPROF_WRAPPED_NAME)};
#undef TPUPROF_WRAPPED_NAME

/// The wrapper of `api`: its type plus one pointer parameter.
FunctionCallee wrapperOf(Module &m, Function &api) {
  FunctionType *t = api.getFunctionType();
  SmallVector<Type *, 12> params(t->params());
  params.push_back(PointerType::getUnqual(m.getContext()));
  FunctionType *wt = FunctionType::get(t->getReturnType(), params, false);
  FunctionCallee w =
      m.getOrInsertFunction((TPUPROF_SYMBOL_WRAP_PREFIX + api.getName()).str(),
                            wt, api.getAttributes());
  if (auto *f = dyn_cast<Function>(w.getCallee()))
    f->setDoesNotThrow();
  return w;
}

} // namespace

bool tpuprof::llvmpass::redirectDeviceCalls(Module &module) {
  bool changed = false;
  for (StringRef name : kWrapped) {
    Function *api = module.getFunction(name);
    if (!api || api->isVarArg())
      continue;
    SmallVector<CallBase *, 8> calls;
    for (User *u : api->users())
      if (auto *call = dyn_cast<CallBase>(u);
          call && call->getCalledOperand() == api &&
          call->getFunctionType() == api->getFunctionType() &&
          !call->isMustTailCall())
        calls.push_back(call);
    if (calls.empty())
      continue;
    FunctionCallee wrapper = wrapperOf(module, *api);
    for (CallBase *call : calls) {
      SmallVector<Value *, 12> args(call->args());
      args.push_back(api);
      SmallVector<OperandBundleDef, 1> bundles;
      call->getOperandBundlesAsDefs(bundles);
      CallBase *repl;
      if (auto *inv = dyn_cast<InvokeInst>(call))
        repl = InvokeInst::Create(wrapper, inv->getNormalDest(),
                                  inv->getUnwindDest(), args, bundles, "",
                                  call->getIterator());
      else
        repl =
            CallInst::Create(wrapper, args, bundles, "", call->getIterator());
      repl->takeName(call);
      repl->setDebugLoc(call->getDebugLoc());
      repl->setCallingConv(call->getCallingConv());
      // The argument attributes (signext, noundef ...) stay with them.
      AttributeList attrs = call->getAttributes();
      repl->setAttributes(attrs);
      call->replaceAllUsesWith(repl);
      call->eraseFromParent();
      changed = true;
    }
  }
  return changed;
}
