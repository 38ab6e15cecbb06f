//===- Launch.cpp - Launch calls and what their probes say ----------------===//
//
// Knows the launch APIs' signatures as clang lowers them on x86-64/AArch64
// Linux: CUDA/HIP pass each dim3 as an {i64 x|y<<32, i32 z} pair, the driver
// APIs pass six unsigned ints, OpenMP passes the outlined function third.
// A call whose arguments do not have the expected types still gets a probe,
// named after its callee and without dims.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/LLVMPass/Launch.h"

#include "tpuprof/LLVMPass/Hash.h"
#include "tpuprof/format.h"
#include "llvm/Support/StringSaver.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace tpuprof::llvmpass;

namespace {

constexpr StringLiteral kDefaultLaunches[] = {
    "cudaLaunchKernel",
    "cudaLaunchKernelExC",
    "cuLaunchKernel",
    "hipLaunchKernel",
    "hipModuleLaunchKernel",
    "__kmpc_fork_call",
    "__kmpc_fork_teams",
    "launchKernel",
    // OpenCL enqueues (docs/device.md: their device time is recorded too).
    "clEnqueueNDRangeKernel",
    "clEnqueueReadBuffer",
    "clEnqueueWriteBuffer",
    "clEnqueueCopyBuffer",
    // Vulkan submits: the dispatches of the submitted command buffers.
    "vkQueueSubmit",
};

/// The launch APIs whose arguments the pass understands.
enum class Api { Cuda, CudaEx, Driver, OmpFork, OmpTeams, OpenCL, Other };

Api apiOf(StringRef callee) {
  return StringSwitch<Api>(callee)
      .Cases("cudaLaunchKernel", "hipLaunchKernel", Api::Cuda)
      .Case("cudaLaunchKernelExC", Api::CudaEx)
      .Cases("cuLaunchKernel", "hipModuleLaunchKernel", Api::Driver)
      .Case("__kmpc_fork_call", Api::OmpFork)
      .Case("__kmpc_fork_teams", Api::OmpTeams)
      .Cases("clEnqueueNDRangeKernel", "clEnqueueReadBuffer",
             "clEnqueueWriteBuffer", "clEnqueueCopyBuffer", Api::OpenCL)
      .Default(Api::Other);
}

/// "ns::launch" for a mangled C++ function, "" when not mangled.
std::string qualifiedName(StringRef symbol) {
  ItaniumPartialDemangler demangler;
  if (demangler.partialDemangle(symbol.str().c_str()) ||
      !demangler.isFunction())
    return "";
  size_t size = 0;
  char *buf = demangler.getFunctionName(nullptr, &size);
  std::string name = buf ? buf : "";
  std::free(buf);
  return name;
}

/// One bracketed group of a launch's shapes, e.g. grid[?, 1, 1]: constant
/// entries are printed, dynamic ones are '?' and become recorded dims.
class ShapeBuilder {
public:
  void group(StringRef label) {
    if (!text.empty())
      text += "], ";
    text += label.str() + "[";
    first = true;
  }
  void constant(uint64_t v) { entry(utostr(v)); }
  void dynamic(DimEmitter emit) {
    entry("?");
    dims.push_back(std::move(emit));
  }
  /// An integer argument: its value when constant, else a recorded dim
  /// (sign- or zero-extended as the parameter's ABI attributes say).
  void integer(CallBase &call, unsigned arg) {
    Value *v = call.getArgOperand(arg);
    if (auto *c = dyn_cast<ConstantInt>(v)) {
      entry(call.paramHasAttr(arg, Attribute::ZExt) || c->getBitWidth() == 1
                ? utostr(c->getZExtValue())
                : itostr(c->getSExtValue()));
      return;
    }
    bool zext =
        call.paramHasAttr(arg, Attribute::ZExt) || v->getType()->isIntegerTy(1);
    dynamic([v, zext](IRBuilderBase &b) {
      return zext ? b.CreateZExtOrTrunc(v, b.getInt64Ty())
                  : b.CreateSExtOrTrunc(v, b.getInt64Ty());
    });
  }
  /// A dim3 passed as clang's {i64 x | y << 32, i32 z} pair at `arg`.
  bool dim3Pair(CallBase &call, unsigned arg) {
    Value *xy = call.getArgOperand(arg), *z = call.getArgOperand(arg + 1);
    if (!xy->getType()->isIntegerTy(64) || !z->getType()->isIntegerTy(32))
      return false;
    if (auto *c = dyn_cast<ConstantInt>(xy)) {
      constant(c->getZExtValue() & 0xffffffffu);
      constant(c->getZExtValue() >> 32);
    } else {
      dynamic([xy](IRBuilderBase &b) {
        return b.CreateAnd(xy, b.getInt64(0xffffffffu));
      });
      dynamic([xy](IRBuilderBase &b) { return b.CreateLShr(xy, 32); });
    }
    if (auto *c = dyn_cast<ConstantInt>(z))
      constant(c->getZExtValue());
    else
      dynamic(
          [z](IRBuilderBase &b) { return b.CreateZExt(z, b.getInt64Ty()); });
    return true;
  }
  /// Three consecutive unsigned ints loaded from `base` + `offset` at run
  /// time (cudaLaunchConfig_t's gridDim/blockDim).
  void loadedDim3(Value *base, unsigned offset) {
    for (unsigned i = 0; i != 3; ++i)
      dynamic([base, offset, i](IRBuilderBase &b) {
        Value *p =
            b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), base, offset + 4 * i);
        return b.CreateZExt(b.CreateAlignedLoad(b.getInt32Ty(), p, Align(4)),
                            b.getInt64Ty());
      });
  }
  bool empty() const { return text.empty(); }
  std::string finish() const { return text.empty() ? text : text + "]"; }

  std::vector<DimEmitter> dims;

private:
  void entry(StringRef s) {
    if (!first)
      text += ", ";
    text += s.str();
    first = false;
  }
  std::string text;
  bool first = true;
};

/// The symbol a launch argument points at ("" for a runtime value).
StringRef symbolOf(CallBase &call, unsigned arg) {
  if (arg >= call.arg_size())
    return "";
  if (auto *g =
          dyn_cast<GlobalValue>(call.getArgOperand(arg)->stripPointerCasts()))
    return g->getName();
  return "";
}

/// OpenMP's ident_t source string ";file;function;line;col;;" as
/// "file:line:col", or "" when clang wrote ";unknown;unknown;0;0;;" (no -g).
std::string identLocation(CallBase &call) {
  auto *ident =
      dyn_cast<GlobalVariable>(call.getArgOperand(0)->stripPointerCasts());
  auto *init = ident && ident->hasInitializer()
                   ? dyn_cast<ConstantStruct>(ident->getInitializer())
                   : nullptr;
  if (!init || init->getNumOperands() < 5)
    return "";
  auto *str =
      dyn_cast<GlobalVariable>(init->getOperand(4)->stripPointerCasts());
  auto *data = str && str->hasInitializer()
                   ? dyn_cast<ConstantDataSequential>(str->getInitializer())
                   : nullptr;
  if (!data || !data->isCString())
    return "";
  SmallVector<StringRef, 6> fields;
  data->getAsCString().split(fields, ';');
  if (fields.size() < 5 || fields[1] == "unknown" || fields[3] == "0")
    return "";
  return (fields[1] + ":" + fields[3] + ":" + fields[4]).str();
}

/// The thread count a __kmpc_fork_call will use: the argument of a
/// __kmpc_push_num_threads earlier in the same block, else
/// omp_get_max_threads() (the default team size) at run time.
void ompThreads(CallBase &call, ShapeBuilder &shapes) {
  shapes.group("threads");
  for (Instruction *i = call.getPrevNode(); i; i = i->getPrevNode()) {
    auto *push = dyn_cast<CallBase>(i);
    Function *f = push ? push->getCalledFunction() : nullptr;
    if (!f)
      continue;
    if (f->getName() == "__kmpc_push_num_threads" && push->arg_size() >= 3) {
      shapes.integer(*push, 2);
      return;
    }
    if (f->getName().starts_with("__kmpc_fork"))
      break; // That push belonged to an earlier region.
  }
  Module *m = call.getModule();
  FunctionCallee getMax = m->getOrInsertFunction(
      "omp_get_max_threads",
      FunctionType::get(Type::getInt32Ty(m->getContext()), false));
  if (auto *f = dyn_cast<Function>(getMax.getCallee()))
    f->setDoesNotThrow();
  shapes.dynamic([getMax](IRBuilderBase &b) {
    CallInst *n = b.CreateCall(getMax);
    n->setDoesNotThrow();
    return b.CreateSExt(n, b.getInt64Ty());
  });
}

} // namespace

ArrayRef<StringLiteral> tpuprof::llvmpass::defaultLaunchFunctions() {
  return kDefaultLaunches;
}

Expected<LaunchMatcher> LaunchMatcher::create(ArrayRef<std::string> patterns,
                                              StringRef file) {
  LaunchMatcher matcher;
  StringSaver saver(*matcher.patternText);
  auto add = [&](StringRef pattern, const Twine &where) -> Error {
    // The file's buffer dies with this function; GlobPattern keeps a
    // StringRef into the text it is given.
    Expected<GlobPattern> glob = GlobPattern::create(saver.save(pattern));
    if (!glob)
      return createStringError(inconvertibleErrorCode(),
                               "bad launch pattern '" + pattern + "'" + where +
                                   ": " + toString(glob.takeError()));
    matcher.globs.push_back(std::move(*glob));
    return Error::success();
  };
  for (const std::string &p : patterns)
    if (!p.empty())
      if (Error err = add(p, " in -tpu-profile-launch"))
        return std::move(err);
  if (!file.empty()) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> buf = MemoryBuffer::getFile(file);
    if (!buf)
      return createStringError(inconvertibleErrorCode(),
                               "cannot read -tpu-profile-launch-file '" + file +
                                   "': " + buf.getError().message());
    SmallVector<StringRef> lines;
    (*buf)->getBuffer().split(lines, '\n');
    for (auto [n, line] : enumerate(lines)) {
      StringRef p = line.split('#').first.trim();
      if (!p.empty())
        if (Error err = add(p, " at " + file + ":" + Twine(n + 1)))
          return std::move(err);
    }
  }
  return matcher;
}

bool LaunchMatcher::isLaunch(const Function &callee) {
  auto [it, inserted] = cache.try_emplace(&callee, false);
  if (!inserted)
    return it->second;
  StringRef symbol = callee.getName();
  if (symbol.starts_with(TPUPROF_SYMBOL_PREFIX))
    return false;
  std::string qualified = qualifiedName(symbol);
  bool launch = is_contained(kDefaultLaunches, symbol) ||
                (!qualified.empty() &&
                 is_contained(kDefaultLaunches, StringRef(qualified)));
  if (!launch && !globs.empty()) {
    std::string demangled = demangle(symbol);
    launch = any_of(globs, [&](const GlobPattern &g) {
      return g.match(symbol) || g.match(demangled) ||
             (!qualified.empty() && g.match(qualified));
    });
  }
  it->second = launch;
  return launch;
}

std::string tpuprof::llvmpass::displayName(StringRef symbol) {
  std::string name = demangle(symbol);
  StringRef view(name);
  if (view.consume_front("__device_stub__"))
    return view.str();
  return name;
}

std::string tpuprof::llvmpass::formatLocation(const DebugLoc &loc) {
  if (!loc)
    return "";
  return (loc->getFilename() + ":" + Twine(loc.getLine()) + ":" +
          Twine(loc.getCol()))
      .str();
}

LaunchDescription tpuprof::llvmpass::describeLaunch(CallBase &call,
                                                    Function &callee) {
  LaunchDescription d;
  ShapeBuilder shapes;
  StringRef kernel;
  std::string line; // ":<line>" of an OpenMP region.
  d.location = formatLocation(call.getDebugLoc());
  switch (apiOf(callee.getName())) {
  case Api::Cuda:
    kernel = symbolOf(call, 0);
    if (call.arg_size() >= 5) {
      shapes.group("grid");
      bool ok = shapes.dim3Pair(call, 1);
      shapes.group("block");
      if (!ok || !shapes.dim3Pair(call, 3))
        shapes = ShapeBuilder();
    }
    break;
  case Api::CudaEx:
    kernel = symbolOf(call, 1);
    if (call.arg_size() >= 1 &&
        call.getArgOperand(0)->getType()->isPointerTy()) {
      shapes.group("grid");
      shapes.loadedDim3(call.getArgOperand(0), 0);
      shapes.group("block");
      shapes.loadedDim3(call.getArgOperand(0), 12);
    }
    break;
  case Api::Driver:
    if (call.arg_size() >= 7 && all_of(seq(1u, 7u), [&](unsigned i) {
          return call.getArgOperand(i)->getType()->isIntegerTy();
        })) {
      shapes.group("grid");
      for (unsigned i = 1; i != 4; ++i)
        shapes.integer(call, i);
      shapes.group("block");
      for (unsigned i = 4; i != 7; ++i)
        shapes.integer(call, i);
    }
    break;
  case Api::OmpFork:
  case Api::OmpTeams:
    kernel = symbolOf(call, 2);
    if (d.location.empty() && call.arg_size() >= 1)
      d.location = identLocation(call);
    if (!d.location.empty()) {
      StringRef loc(d.location);
      // file:line:col -> ":line"
      StringRef rest = loc.rsplit(':').first;
      line = (":" + rest.rsplit(':').second).str();
    }
    if (apiOf(callee.getName()) == Api::OmpFork)
      ompThreads(call, shapes);
    break;
  case Api::OpenCL: {
    // The kernel is a run-time value (the runtime records its name with the
    // device interval): shapes say the work dimensions or the bytes.
    StringRef callee_name = callee.getName();
    unsigned arg = callee_name == "clEnqueueNDRangeKernel" ? 2
                   : callee_name == "clEnqueueCopyBuffer"  ? 5
                                                           : 4;
    if (arg < call.arg_size() &&
        call.getArgOperand(arg)->getType()->isIntegerTy()) {
      shapes.group(arg == 2 ? "work_dim" : "bytes");
      shapes.integer(call, arg);
    }
    break;
  }
  case Api::Other:
    for (unsigned i = 0, e = call.arg_size(); i != e; ++i)
      if (call.getArgOperand(i)->getType()->isIntegerTy()) {
        if (shapes.empty())
          shapes.group("args");
        shapes.integer(call, i);
      }
    break;
  }
  d.mayThrow = apiOf(callee.getName()) == Api::Other;
  d.name =
      (kernel.empty() ? displayName(callee.getName()) : displayName(kernel)) +
      line;
  d.shapes = shapes.finish();
  d.dims = std::move(shapes.dims);
  d.hash = hashLaunch(call, callee, kernel);
  return d;
}
