//===- Hash.cpp - Stable hash of LLVM launch and function probes ----------===//
//
// docs/hash.md ("LLVM launch and function probes") is the specification;
// this file is its implementation.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/LLVMPass/Hash.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

using namespace llvm;

namespace {

/// Appends "=<value>" for argument values that are the same in every build of
/// the same source: integers, floats, null/undef, and symbols whose names the
/// front end derives from the source. Globals with local linkage (".str.3",
/// OpenMP's unnamed ident_t structs) are numbered by the front end, so only
/// their type counts.
void appendConstant(const Value *v, raw_ostream &os) {
  v = v->stripPointerCasts();
  if (auto *ci = dyn_cast<ConstantInt>(v)) {
    os << '=' << toString(ci->getValue(), 10, /*Signed=*/false);
  } else if (auto *cf = dyn_cast<ConstantFP>(v)) {
    os << "=0x" << toString(cf->getValueAPF().bitcastToAPInt(), 16, false);
  } else if (isa<ConstantPointerNull>(v)) {
    os << "=null";
  } else if (isa<UndefValue>(v)) {
    os << "=undef";
  } else if (auto *f = dyn_cast<Function>(v); f && f->hasName()) {
    os << "=@" << f->getName();
  } else if (auto *g = dyn_cast<GlobalVariable>(v);
             g && g->hasName() && !g->hasLocalLinkage()) {
    os << "=@" << g->getName();
  }
}

} // namespace

std::string tpuprof::llvmpass::canonicalLaunchText(const CallBase &call,
                                                   const Function &callee,
                                                   StringRef kernel) {
  std::string text;
  raw_string_ostream os(text);
  os << kLaunchHashVersion << '\n';
  os << "callee:" << callee.getName() << '\n';
  os << "kernel:" << kernel << '\n';
  for (unsigned i = 0, e = call.arg_size(); i != e; ++i) {
    const Value *arg = call.getArgOperand(i);
    os << "arg:" << i << ':' << *arg->getType();
    appendConstant(arg, os);
    os << '\n';
  }
  return text;
}

std::string tpuprof::llvmpass::canonicalFunctionText(const Function &function) {
  std::string text;
  raw_string_ostream os(text);
  os << kFunctionHashVersion << '\n';
  os << "function:" << function.getName() << '\n';
  os << "type:" << *function.getFunctionType() << '\n';
  return text;
}

uint64_t tpuprof::llvmpass::hashLaunch(const CallBase &call,
                                       const Function &callee,
                                       StringRef kernel) {
  return xxh3_64bits(StringRef(canonicalLaunchText(call, callee, kernel)));
}

uint64_t tpuprof::llvmpass::hashFunction(const Function &function) {
  return xxh3_64bits(StringRef(canonicalFunctionText(function)));
}
