//===- Instrument.cpp - The LLVM tpu-profile-instrument pass --------------===//
//
// Wraps launch calls and annotated function bodies in probes of the same
// shape as the MLIR side's --tpu-profile-lower, so that one runtime, dump
// format and report serve both:
//
//   %on = load atomic i32, ptr @__tpuprof_enabled monotonic  ; the only cost
//   br (%on != 0), %tpuprof.begin, %cont                     ; when disabled
// tpuprof.begin:
//   %id = add (load @__tpuprof_llvm_module_base), <local probe index>
//   call @__tpuprof_begin(%id)           ; or _begin_dims(%id, %dims, n)
//
// The module's probe table is a constant global registered from a
// constructor: __tpuprof_register_module(table, size, &base).
//
// Ends run on every way out: after a call, on both edges of an invoke, before
// every `ret` and `resume` of an annotated function, and on exceptions that
// leave through a plain call (it becomes an invoke whose cleanup ends the
// probe and resumes).
//
//===----------------------------------------------------------------------===//

#include "tpuprof/LLVMPass/Instrument.h"
#include "tpuprof/LLVMPass/Hash.h"
#include "tpuprof/LLVMPass/Launch.h"
#include "tpuprof/LLVMPass/LaunchDevice.h"
#include "tpuprof/LLVMPass/Memory.h"
#include "tpuprof/ProbeTable.h"
#include "tpuprof/format.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/EHPersonalities.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <optional>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::llvmpass;

#define DEBUG_TYPE "tpu-profile-instrument"

namespace {

constexpr StringLiteral kEnabledSym = TPUPROF_SYMBOL_ENABLED;
// Not the MLIR side's names: a module lowered from instrumented MLIR and then
// compiled with the plugin carries both tables.
constexpr StringLiteral kBaseSym = "__tpuprof_llvm_module_base";
constexpr StringLiteral kTableSym = "__tpuprof_llvm_probe_table";
constexpr StringLiteral kCtorSym = "__tpuprof_llvm_module_ctor";
constexpr StringLiteral kRegisterFn = TPUPROF_SYMBOL_REGISTER_MODULE;
constexpr StringLiteral kBeginFn = TPUPROF_SYMBOL_BEGIN;
constexpr StringLiteral kBeginDimsFn = TPUPROF_SYMBOL_BEGIN_DIMS;
constexpr StringLiteral kEndFn = TPUPROF_SYMBOL_END;
constexpr StringLiteral kAnnotation = "tpuprof";
/// Ids from here up are never recorded (docs/runtime.md). The base starts
/// there so that a probe running before the constructor (another static
/// constructor calling an annotated function) records nothing rather than
/// another module's id.
constexpr uint32_t kUnregisteredBase = TPUPROF_IGNORED_PROBE_BASE;

/// A diagnostic of the plugin's own kind: clang prints it as
/// "error: <message>" and fails the compile, opt prints it and exits 1.
class TpuProfDiagnostic : public DiagnosticInfo {
public:
  explicit TpuProfDiagnostic(const Twine &message)
      : DiagnosticInfo(kind(), DS_Error), message(message.str()) {}
  void print(DiagnosticPrinter &printer) const override { printer << message; }

private:
  static int kind() {
    static const int k = getNextAvailablePluginDiagnosticKind();
    return k;
  }
  std::string message;
};

/// A function to wrap whole, and the name its probe shows.
struct AnnotatedFunction {
  Function *function;
  std::string name;
  std::string location; ///< From the annotation, for builds without -g.
};

class Instrumenter {
public:
  Instrumenter(Module &module, const InstrumentOptions &options,
               LaunchMatcher &matcher)
      : m(module), ctx(module.getContext()), options(options), matcher(matcher),
        i32(Type::getInt32Ty(ctx)), i64(Type::getInt64Ty(ctx)),
        ptr(PointerType::get(ctx, 0)) {}

  /// Instruments the module; false when it has nothing to instrument.
  bool run();

private:
  struct Launch {
    CallBase *call;
    Function *callee;
    LaunchDescription description;
  };

  /// Functions marked with annotate("tpuprof") or the "tpuprof" attribute.
  std::vector<AnnotatedFunction> findAnnotated();
  /// Launch calls of `f`, described before any IR changes.
  std::vector<Launch> findLaunches(Function &f);
  void declareRuntime();
  uint32_t addProbe(ProbeInfo info);

  void instrumentLaunch(Launch &launch, AllocaInst *dimsSlot);
  void instrumentFunction(const AnnotatedFunction &annotated);

  /// Guarded __tpuprof_begin(_dims) before `before`.
  void emitBegin(Instruction *before, uint32_t probe, ArrayRef<DimEmitter> dims,
                 AllocaInst *dimsSlot, DebugLoc loc);
  /// Guarded __tpuprof_end before `before`.
  void emitEnd(Instruction *before, uint32_t probe, DebugLoc loc);

  /// True when exceptions may leave `f` through the plain call `call`.
  bool mayUnwindOut(CallInst &call) const;
  /// Gives `f` a personality if it has none and the module is C++; false
  /// when cleanups cannot be added (C, or funclet-based EH).
  bool ensurePersonality(Function &f);
  /// A new block `landingpad cleanup; end(probe); resume`.
  BasicBlock *cleanupBlock(Function &f, uint32_t probe, DebugLoc loc);
  /// Whether the module is C++ with exceptions in play; computed once.
  bool isCxxModule();

  void emitTable();

  Module &m;
  LLVMContext &ctx;
  const InstrumentOptions &options;
  LaunchMatcher &matcher;
  Type *i32, *i64;
  PointerType *ptr;
  std::vector<ProbeInfo> probes;
  GlobalVariable *enabled = nullptr, *base = nullptr;
  FunctionCallee beginFn, beginDimsFn, endFn;
  MDNode *unlikely = nullptr;
  std::optional<bool> cxxModule;
};

std::string moduleName(const Module &m) {
  StringRef file = sys::path::filename(m.getSourceFileName());
  if (file.empty())
    file = sys::path::filename(m.getModuleIdentifier());
  return file.empty() ? "module" : file.str();
}

std::vector<AnnotatedFunction> Instrumenter::findAnnotated() {
  std::vector<AnnotatedFunction> result;
  SmallPtrSet<Function *, 8> seen;
  auto add = [&](Function *f, StringRef annotation, std::string location) {
    if (!f || f->isDeclaration() ||
        f->getName().starts_with(TPUPROF_SYMBOL_PREFIX) ||
        f->hasFnAttribute(Attribute::Naked) || !seen.insert(f).second)
      return;
    // annotate("tpuprof:NAME") names the probe; plain "tpuprof" uses the
    // function's demangled name.
    StringRef custom = annotation.drop_front(kAnnotation.size());
    std::string name = custom.consume_front(":") && !custom.empty()
                           ? custom.str()
                           : displayName(f->getName());
    result.push_back({f, std::move(name), std::move(location)});
  };
  auto cString = [](Value *v) -> StringRef {
    auto *g = dyn_cast<GlobalVariable>(v->stripPointerCasts());
    auto *data = g && g->hasInitializer()
                     ? dyn_cast<ConstantDataSequential>(g->getInitializer())
                     : nullptr;
    return data && data->isCString() ? data->getAsCString() : StringRef();
  };
  // llvm.global.annotations = [{ ptr fn, ptr string, ptr file, i32 line,
  // ptr args }, ...], one entry per annotate attribute.
  if (GlobalVariable *annotations = m.getNamedGlobal("llvm.global.annotations");
      annotations && annotations->hasInitializer())
    if (auto *array = dyn_cast<ConstantArray>(annotations->getInitializer()))
      for (Value *op : array->operands()) {
        auto *entry = dyn_cast<ConstantStruct>(op);
        if (!entry || entry->getNumOperands() < 4)
          continue;
        StringRef text = cString(entry->getOperand(1));
        if (text != kAnnotation && !text.starts_with("tpuprof:"))
          continue;
        std::string location;
        StringRef file = cString(entry->getOperand(2));
        auto *line = dyn_cast<ConstantInt>(entry->getOperand(3));
        if (!file.empty() && line)
          location = (file + ":" + Twine(line->getZExtValue())).str();
        add(dyn_cast<Function>(entry->getOperand(0)->stripPointerCasts()), text,
            location);
      }
  for (Function &f : m)
    if (f.hasFnAttribute(kAnnotation))
      add(&f,
          f.getFnAttribute(kAnnotation).getValueAsString().empty()
              ? StringRef(kAnnotation)
              : StringRef(),
          "");
  return result;
}

std::vector<Instrumenter::Launch> Instrumenter::findLaunches(Function &f) {
  std::vector<Launch> launches;
  if (options.annotateOnly || f.hasFnAttribute(Attribute::Naked))
    return launches;
  for (BasicBlock &bb : f)
    for (Instruction &i : bb) {
      auto *call = dyn_cast<CallBase>(&i);
      if (!call || isa<IntrinsicInst>(call) || isa<CallBrInst>(call))
        continue;
      auto *callee =
          dyn_cast<Function>(call->getCalledOperand()->stripPointerCasts());
      if (!callee || !matcher.isLaunch(*callee))
        continue;
      if (auto *ci = dyn_cast<CallInst>(call); ci && ci->isMustTailCall()) {
        // No instruction may follow a musttail call but the ret.
        OptimizationRemarkEmitter(&f).emit([&] {
          return OptimizationRemarkMissed(DEBUG_TYPE, "MustTailLaunch", call)
                 << "not instrumenting musttail call of "
                 << ore::NV("Callee", callee->getName())
                 << ": no end probe may follow it";
        });
        continue;
      }
      launches.push_back({call, callee, describeLaunch(*call, *callee)});
    }
  return launches;
}

void Instrumenter::declareRuntime() {
  auto *declared = m.getNamedGlobal(kEnabledSym);
  enabled = declared ? declared
                     : new GlobalVariable(m, i32, /*isConstant=*/false,
                                          GlobalValue::ExternalLinkage,
                                          /*Initializer=*/nullptr, kEnabledSym);
  base = new GlobalVariable(m, i32, /*isConstant=*/false,
                            GlobalValue::InternalLinkage,
                            ConstantInt::get(i32, kUnregisteredBase), kBaseSym);
  auto declare = [&](StringRef name, FunctionType *type) {
    FunctionCallee fc = m.getOrInsertFunction(name, type);
    // The runtime is C and never throws: its calls need no cleanups.
    if (auto *fn = dyn_cast<Function>(fc.getCallee()))
      fn->setDoesNotThrow();
    return fc;
  };
  Type *voidTy = Type::getVoidTy(ctx);
  beginFn = declare(kBeginFn, FunctionType::get(voidTy, {i32}, false));
  beginDimsFn =
      declare(kBeginDimsFn, FunctionType::get(voidTy, {i32, ptr, i32}, false));
  endFn = declare(kEndFn, FunctionType::get(voidTy, {i32}, false));
  unlikely = MDBuilder(ctx).createUnlikelyBranchWeights();
}

uint32_t Instrumenter::addProbe(ProbeInfo info) {
  probes.push_back(std::move(info));
  return static_cast<uint32_t>(probes.size() - 1);
}

/// Creates the enabled check before `before` and returns the terminator of
/// its taken branch, where the runtime call goes.
static Instruction *guard(Instruction *before, GlobalVariable *enabled,
                          MDNode *weights, DebugLoc loc, StringRef blockName) {
  IRBuilder<> b(before);
  b.SetCurrentDebugLocation(loc);
  LoadInst *on =
      b.CreateAlignedLoad(b.getInt32Ty(), enabled, Align(4), "tpuprof.on");
  // Monotonic: a plain load on x86 and ARM, and race-free for TSan while
  // another thread switches profiling on or off.
  on->setAtomic(AtomicOrdering::Monotonic);
  Value *isOn = b.CreateICmpNE(on, b.getInt32(0));
  Instruction *then = SplitBlockAndInsertIfThen(isOn, before,
                                                /*Unreachable=*/false, weights);
  then->getParent()->setName(blockName);
  then->setDebugLoc(loc);
  return then;
}

void Instrumenter::emitBegin(Instruction *before, uint32_t probe,
                             ArrayRef<DimEmitter> dims, AllocaInst *dimsSlot,
                             DebugLoc loc) {
  IRBuilder<> b(guard(before, enabled, unlikely, loc, "tpuprof.begin"));
  b.SetCurrentDebugLocation(loc);
  Value *id =
      b.CreateAdd(b.CreateLoad(i32, base), b.getInt32(probe), "tpuprof.id");
  CallInst *call;
  if (dims.empty() || !dimsSlot) {
    call = b.CreateCall(beginFn, {id});
  } else {
    for (auto [i, emit] : enumerate(dims)) {
      // One statement each: argument order is unspecified, and the IR must
      // not depend on the compiler that built the plugin.
      Value *dim = emit(b);
      Value *slot = b.CreateConstInBoundsGEP1_64(i64, dimsSlot, i);
      b.CreateAlignedStore(dim, slot, Align(8));
    }
    call = b.CreateCall(beginDimsFn,
                        {id, dimsSlot, b.getInt32(uint32_t(dims.size()))});
  }
  call->setDoesNotThrow();
}

void Instrumenter::emitEnd(Instruction *before, uint32_t probe, DebugLoc loc) {
  IRBuilder<> b(guard(before, enabled, unlikely, loc, "tpuprof.end"));
  b.SetCurrentDebugLocation(loc);
  Value *id =
      b.CreateAdd(b.CreateLoad(i32, base), b.getInt32(probe), "tpuprof.id");
  b.CreateCall(endFn, {id})->setDoesNotThrow();
}

bool Instrumenter::isCxxModule() {
  if (!cxxModule) {
    cxxModule = false;
    for (StringRef name : {"__gxx_personality_v0", "__cxa_throw",
                           "__cxa_rethrow", "__cxa_begin_catch"})
      if (m.getFunction(name))
        cxxModule = true;
    for (const Function &f : m)
      if (f.hasPersonalityFn() || f.getName().starts_with("_Z")) {
        cxxModule = true;
        break;
      }
  }
  return *cxxModule;
}

bool Instrumenter::mayUnwindOut(CallInst &call) const {
  return !call.doesNotThrow() && !call.getFunction()->doesNotThrow() &&
         !call.isMustTailCall() && !call.isInlineAsm() &&
         !isa<IntrinsicInst>(call);
}

bool Instrumenter::ensurePersonality(Function &f) {
  if (f.hasPersonalityFn())
    return !isFuncletEHPersonality(classifyEHPersonality(f.getPersonalityFn()));
  if (!isCxxModule())
    return false;
  FunctionCallee personality = m.getOrInsertFunction(
      "__gxx_personality_v0", FunctionType::get(i32, /*isVarArg=*/true));
  f.setPersonalityFn(cast<Constant>(personality.getCallee()));
  return true;
}

BasicBlock *Instrumenter::cleanupBlock(Function &f, uint32_t probe,
                                       DebugLoc loc) {
  // Reuse the function's landingpad type when it has one.
  Type *lpType = nullptr;
  for (BasicBlock &bb : f)
    if (auto *lp = dyn_cast<LandingPadInst>(bb.getFirstNonPHI())) {
      lpType = lp->getType();
      break;
    }
  if (!lpType)
    lpType = StructType::get(ptr, i32);
  BasicBlock *bb = BasicBlock::Create(ctx, "tpuprof.cleanup", &f);
  IRBuilder<> b(bb);
  b.SetCurrentDebugLocation(loc);
  LandingPadInst *lp = b.CreateLandingPad(lpType, 0);
  lp->setCleanup(true);
  ResumeInst *resume = b.CreateResume(lp);
  emitEnd(resume, probe, loc);
  return bb;
}

void Instrumenter::instrumentLaunch(Launch &launch, AllocaInst *dimsSlot) {
  const LaunchDescription &d = launch.description;
  CallBase *call = launch.call;
  Function &f = *call->getFunction();
  ProbeInfo info;
  info.name = d.name;
  info.shapes = d.shapes;
  info.location = d.location;
  info.function = f.getName().str();
  info.hash = d.hash;
  info.kind = TPUPROF_KIND_LAUNCH;
  ArrayRef<DimEmitter> dims;
  if (tpuprof_capture_has_dims(options.capture))
    dims = ArrayRef(d.dims).take_front(255);
  info.numDynDims = static_cast<uint8_t>(dims.size());
  uint32_t probe = addProbe(std::move(info));
  DebugLoc loc = call->getDebugLoc();

  emitBegin(call, probe, dims, dimsSlot, loc);
  auto *ci = dyn_cast<CallInst>(call);
  if (ci && !(d.mayThrow && mayUnwindOut(*ci) && ensurePersonality(f))) {
    emitEnd(ci->getNextNode(), probe, loc);
    return;
  }
  if (ci) {
    // A plain call that may throw: unwinding out of it must end the probe.
    BasicBlock *normal =
        changeToInvokeAndSplitBasicBlock(ci, cleanupBlock(f, probe, loc));
    emitEnd(&*normal->getFirstInsertionPt(), probe, loc);
    return;
  }
  auto *invoke = cast<InvokeInst>(call);
  BasicBlock *from = invoke->getParent();
  BasicBlock *normal = SplitEdge(from, invoke->getNormalDest());
  emitEnd(normal->getTerminator(), probe, loc);
  // The landing pad may also catch other calls; end only on this one's edge.
  BasicBlock *unwind = invoke->getUnwindDest();
  if (unwind->getUniquePredecessor() != from) {
    SmallVector<BasicBlock *, 2> split;
    SplitLandingPadPredecessors(unwind, {from}, ".tpuprof", ".tpuprof.other",
                                split);
    unwind = split.front();
  }
  emitEnd(&*unwind->getFirstInsertionPt(), probe, loc);
}

void Instrumenter::instrumentFunction(const AnnotatedFunction &annotated) {
  Function &f = *annotated.function;
  DISubprogram *sp = f.getSubprogram();
  ProbeInfo info;
  info.name = annotated.name;
  info.location = sp ? (sp->getFilename() + ":" + Twine(sp->getLine())).str()
                     : annotated.location;
  info.function = f.getName().str();
  info.hash = hashFunction(f);
  info.kind = TPUPROF_KIND_USER;
  uint32_t probe = addProbe(std::move(info));
  // Probes without a source line of their own get the function's, so that
  // debug info stays valid (scope = this subprogram) and readable.
  auto locOf = [&](Instruction *i) -> DebugLoc {
    if (i && i->getDebugLoc())
      return i->getDebugLoc();
    return sp ? DebugLoc(DILocation::get(ctx, sp->getLine(), 0, sp))
              : DebugLoc();
  };

  SmallVector<ReturnInst *> returns;
  SmallVector<ResumeInst *> resumes;
  SmallVector<CallInst *> throwing;
  for (BasicBlock &bb : f)
    for (Instruction &i : bb) {
      if (auto *ret = dyn_cast<ReturnInst>(&i))
        returns.push_back(ret);
      else if (auto *resume = dyn_cast<ResumeInst>(&i))
        resumes.push_back(resume);
      else if (auto *call = dyn_cast<CallInst>(&i); call && mayUnwindOut(*call))
        throwing.push_back(call);
    }

  BasicBlock &entry = f.getEntryBlock();
  Instruction *first = &*entry.getFirstNonPHIOrDbgOrAlloca();
  // The begin is the function's first line, not whatever comes first.
  emitBegin(first, probe, {}, nullptr, locOf(nullptr));

  for (ReturnInst *ret : returns) {
    Instruction *at = ret;
    if (auto *tail = dyn_cast_or_null<CallInst>(ret->getPrevNode());
        tail && tail->isMustTailCall()) {
      // Nothing may sit between a musttail call and its ret: end before the
      // call; the callee's time is not in this function's probe.
      at = tail;
      OptimizationRemarkEmitter(&f).emit([&] {
        return OptimizationRemarkAnalysis(DEBUG_TYPE, "MustTailEnd", tail)
               << "end probe of " << ore::NV("Function", f.getName())
               << " placed before its musttail call: the callee's time is "
                  "not included";
      });
    }
    emitEnd(at, probe, locOf(ret));
  }
  for (ResumeInst *resume : resumes)
    emitEnd(resume, probe, locOf(resume));
  if (throwing.empty())
    return;
  if (!ensurePersonality(f)) {
    OptimizationRemarkEmitter(&f).emit([&] {
      return OptimizationRemarkMissed(DEBUG_TYPE, "NoCleanup", throwing.front())
             << "exceptions leaving " << ore::NV("Function", f.getName())
             << " do not end its probe: it has no landing-pad personality";
    });
    return;
  }
  BasicBlock *cleanup = cleanupBlock(f, probe, locOf(nullptr));
  for (CallInst *call : throwing)
    changeToInvokeAndSplitBasicBlock(call, cleanup);
}

void Instrumenter::emitTable() {
  std::string blob = serializeProbeTable(moduleName(m), probes);
  auto *table = new GlobalVariable(
      m, ArrayType::get(Type::getInt8Ty(ctx), blob.size()),
      /*isConstant=*/true, GlobalValue::InternalLinkage,
      ConstantDataArray::getString(ctx, blob, /*AddNull=*/false), kTableSym);
  table->setAlignment(Align(8));

  FunctionCallee registerFn = m.getOrInsertFunction(
      kRegisterFn, FunctionType::get(Type::getVoidTy(ctx), {ptr, i64, ptr},
                                     /*isVarArg=*/false));
  if (auto *fn = dyn_cast<Function>(registerFn.getCallee()))
    fn->setDoesNotThrow();
  Function *ctor =
      Function::Create(FunctionType::get(Type::getVoidTy(ctx), false),
                       GlobalValue::InternalLinkage, kCtorSym, m);
  ctor->setDoesNotThrow();
  IRBuilder<> b(BasicBlock::Create(ctx, "entry", ctor));
  b.CreateCall(registerFn, {table, b.getInt64(blob.size()), base});
  b.CreateRetVoid();
  appendToGlobalCtors(m, ctor, /*Priority=*/65535);
}

bool Instrumenter::run() {
  std::vector<AnnotatedFunction> annotated = findAnnotated();
  DenseMap<Function *, const AnnotatedFunction *> annotatedOf;
  for (const AnnotatedFunction &a : annotated)
    annotatedOf[a.function] = &a;

  std::vector<std::pair<Function *, std::vector<Launch>>> work;
  for (Function &f : m) {
    if (f.isDeclaration() || f.getName().starts_with(TPUPROF_SYMBOL_PREFIX))
      continue;
    std::vector<Launch> launches = findLaunches(f);
    if (!launches.empty() || annotatedOf.count(&f))
      work.push_back({&f, std::move(launches)});
  }
  if (work.empty())
    return false;

  declareRuntime();
  // Where allocations are wrapped: the instrumented functions and the
  // regions their launches run (an OpenMP fork's outlined microtask, and
  // the internal functions it calls: with -g clang outlines the body once
  // more, as `..._debug__`).
  SetVector<Function *> memoryScope;
  for (auto &item : work) {
    memoryScope.insert(item.first);
    for (const Launch &l : item.second) {
      if (!l.callee->getName().starts_with("__kmpc_fork") ||
          l.call->arg_size() <= 2)
        continue;
      auto *task =
          dyn_cast<Function>(l.call->getArgOperand(2)->stripPointerCasts());
      if (!task || task->isDeclaration())
        continue;
      memoryScope.insert(task);
      for (Instruction &inst : instructions(*task))
        if (auto *call = dyn_cast<CallBase>(&inst))
          if (Function *f = call->getCalledFunction();
              f && f->hasLocalLinkage() && !f->isDeclaration())
            memoryScope.insert(f);
    }
  }
  for (auto &item : work) {
    Function *f = item.first;
    std::vector<Launch> &launches = item.second;
    // One stack slot for dims per function, at entry, so that probes in
    // loops do not grow the stack.
    size_t maxDims = 0;
    if (tpuprof_capture_has_dims(options.capture))
      for (const Launch &l : launches)
        maxDims =
            std::max(maxDims, std::min<size_t>(l.description.dims.size(), 255));
    AllocaInst *dimsSlot = nullptr;
    if (maxDims) {
      IRBuilder<> b(&f->getEntryBlock(), f->getEntryBlock().begin());
      dimsSlot = b.CreateAlloca(i64, b.getInt32(maxDims), "tpuprof.dims");
      dimsSlot->setAlignment(Align(8));
    }
    for (Launch &l : launches) {
      // Before instrumenting: a call that may throw is replaced by an invoke.
      OptimizationRemarkEmitter(f).emit([&] {
        return OptimizationRemark(DEBUG_TYPE, "Launch", l.call)
               << "instrumented launch " << ore::NV("Name", l.description.name)
               << " (" << ore::NV("Callee", l.callee->getName()) << ")";
      });
      instrumentLaunch(l, dimsSlot);
    }
    if (auto it = annotatedOf.find(f); it != annotatedOf.end()) {
      instrumentFunction(*it->second);
      OptimizationRemarkEmitter(f).emit([&] {
        return OptimizationRemark(DEBUG_TYPE, "Function", f)
               << "instrumented function " << ore::NV("Name", it->second->name);
      });
    }
  }
  if (options.memory)
    for (Function *f : memoryScope)
      if (unsigned n = wrapAllocations(*f))
        OptimizationRemarkEmitter(f).emit([&] {
          return OptimizationRemark(DEBUG_TYPE, "Memory", f)
                 << "wrapped " << ore::NV("Allocations", n)
                 << " allocation and free calls";
        });
  emitTable();
  return true;
}

} // namespace

PreservedAnalyses TpuProfileInstrumentPass::run(Module &module,
                                                ModuleAnalysisManager &) {
  auto fail = [&](const Twine &message) {
    module.getContext().diagnose(
        TpuProfDiagnostic("tpu-profile-instrument: " + message));
    return PreservedAnalyses::all();
  };
  InstrumentOptions opts = options;
  if (!hasOptions) {
    Expected<InstrumentOptions> parsed = optionsFromCommandLine();
    if (!parsed)
      return fail(toString(parsed.takeError()));
    opts = std::move(*parsed);
  } else if (opts.capture >= TPUPROF_CAPTURE_COUNT) {
    return fail("-tpu-profile-capture must be 0, 1 or 2, got " +
                Twine(opts.capture));
  }
  // Instrumenting twice would nest every probe in a copy of itself (opt
  // -passes=tpu-profile-instrument on top of the automatic run).
  if (module.getNamedGlobal(kTableSym))
    return PreservedAnalyses::all();
  // Device code (CUDA/HIP/OpenMP offload device compilations) cannot call
  // the host runtime; its launches are profiled on the host side.
  Triple triple(module.getTargetTriple());
  if (triple.isNVPTX() || triple.isAMDGPU() || triple.isSPIR() ||
      triple.isSPIRV())
    return PreservedAnalyses::all();
  Expected<LaunchMatcher> matcher =
      LaunchMatcher::create(opts.launchPatterns, opts.launchFile);
  if (!matcher)
    return fail(toString(matcher.takeError()));
  Instrumenter instrumenter(module, opts, *matcher);
  bool changed = instrumenter.run();
  // After the probes: they stay around the redirected calls.
  changed |= redirectDeviceCalls(module);
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
