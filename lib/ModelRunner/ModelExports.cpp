//===- ModelExports.cpp - A compiled model's C entry points ---------------===//

#include "tpuprof/ModelRunner/ModelExports.h"

#include "tpuprof/model.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"

#include <cstddef>

using namespace tpuprof::compile;

// The LLVM struct types below spell these layouts (64-bit hosts).
static_assert(sizeof(tpuprof_model_dim_rule) == 32 &&
              offsetof(tpuprof_model_dim_rule, other) == 16 &&
              offsetof(tpuprof_model_dim_rule, op) == 24);
static_assert(offsetof(tpuprof_model_signature, dim_rules) == 32 &&
              offsetof(tpuprof_model_signature, num_dim_rules) == 40);

namespace {

llvm::Error fail(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

/// MLIR's C-interface wrapper of `name` (func-to-llvm, llvm.emit_c_interface).
std::string cInterfaceName(llvm::StringRef name) {
  return ("_mlir_ciface_" + name).str();
}

/// `void wrapper(void **args)` calling `fn` with *args[i] and storing its
/// result to args[n] (the packed convention of tpuprof/model.h).
llvm::Function *makePackedWrapper(llvm::Function *fn, const llvm::Twine &name) {
  llvm::LLVMContext &ctx = fn->getContext();
  llvm::Module &module = *fn->getParent();
  auto *ptrTy = llvm::PointerType::getUnqual(ctx);
  auto *wrapper = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptrTy}, false),
      llvm::GlobalValue::InternalLinkage, name, module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", wrapper));
  llvm::Value *args = wrapper->getArg(0);
  auto slot = [&](unsigned i) {
    llvm::Value *at = b.CreateConstGEP1_64(ptrTy, args, i);
    return b.CreateLoad(ptrTy, at);
  };
  llvm::SmallVector<llvm::Value *> values;
  for (llvm::Argument &arg : fn->args())
    values.push_back(b.CreateLoad(arg.getType(), slot(arg.getArgNo())));
  llvm::Value *result = b.CreateCall(fn, values);
  if (!fn->getReturnType()->isVoidTy())
    b.CreateStore(result, slot(fn->arg_size()));
  b.CreateRetVoid();
  return wrapper;
}

llvm::Constant *cString(llvm::Module &module, llvm::StringRef text) {
  llvm::IRBuilder<> b(module.getContext());
  auto *global = new llvm::GlobalVariable(
      module, llvm::ArrayType::get(b.getInt8Ty(), text.size() + 1), true,
      llvm::GlobalValue::PrivateLinkage,
      llvm::ConstantDataArray::getString(module.getContext(), text),
      "tpuprof.model.str");
  global->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
  global->setAlignment(llvm::Align(1));
  return global;
}

} // namespace

std::string tpuprof::compile::cIdentifier(llvm::StringRef name) {
  std::string id;
  for (char c : name)
    id += llvm::isAlnum(c) || c == '_' ? c : '_';
  if (id.empty() || llvm::isDigit(id.front()))
    id.insert(0, "_");
  return id;
}

llvm::Error
tpuprof::compile::exportModel(llvm::Module &module,
                              llvm::ArrayRef<ExportedFunction> functions,
                              bool instrumented, llvm::StringRef source) {
  llvm::LLVMContext &ctx = module.getContext();
  llvm::SmallVector<llvm::Function *> interfaces, packed;
  for (const ExportedFunction &f : functions) {
    llvm::Function *fn = module.getFunction(f.name);
    llvm::Function *cInterface = module.getFunction(cInterfaceName(f.name));
    if (!fn || fn->isDeclaration() || !cInterface)
      return fail("@" + f.name +
                  " was not lowered to a function with a C "
                  "interface (does the pipeline run convert-func-to-llvm?)");
    if (llvm::GlobalValue *taken = module.getNamedValue(f.symbol);
        taken && taken != cInterface)
      return fail("cannot export @" + f.name + " as " + f.symbol +
                  ": the model defines that name already (choose another "
                  "--prefix)");
    interfaces.push_back(cInterface);
    packed.push_back(makePackedWrapper(fn, f.symbol + ".packed"));
  }
  // Everything the model defines becomes internal; then the C interfaces
  // take their exported names.
  for (llvm::GlobalValue &value : module.global_values()) {
    if (value.isDeclaration() || value.getName().starts_with("llvm."))
      continue;
    value.setLinkage(llvm::GlobalValue::InternalLinkage);
    value.setVisibility(llvm::GlobalValue::DefaultVisibility);
  }
  for (auto [f, cInterface] : llvm::zip(functions, interfaces)) {
    cInterface->setName(f.symbol);
    if (cInterface->getName() != f.symbol)
      return fail("two functions would both be exported as " + f.symbol);
    cInterface->setLinkage(llvm::GlobalValue::ExternalLinkage);
  }

  // The signature (tpuprof/model.h).
  auto *ptrTy = llvm::PointerType::getUnqual(ctx);
  auto *i32 = llvm::Type::getInt32Ty(ctx);
  auto *entryTy = llvm::StructType::get(ctx, {ptrTy, ptrTy, ptrTy, ptrTy});
  llvm::SmallVector<llvm::Constant *> entries;
  for (auto [f, wrapper] : llvm::zip(functions, packed))
    entries.push_back(llvm::ConstantStruct::get(
        entryTy, {cString(module, f.name), cString(module, f.symbol),
                  cString(module, f.typeText), wrapper}));
  auto *entriesTy = llvm::ArrayType::get(entryTy, entries.size());
  auto *entriesVar = new llvm::GlobalVariable(
      module, entriesTy, true, llvm::GlobalValue::PrivateLinkage,
      llvm::ConstantArray::get(entriesTy, entries), "tpuprof.model.entries");
  auto *i64 = llvm::Type::getInt64Ty(ctx);
  auto *ruleTy = llvm::StructType::get(ctx, {i32, i32, i32, i32, i64, ptrTy});
  llvm::SmallVector<llvm::Constant *> rules;
  for (auto [index, f] : llvm::enumerate(functions))
    for (const run::DimEquality &e : f.dimEqualities) {
      bool fixed = e.other.isFixed();
      rules.push_back(llvm::ConstantStruct::get(
          ruleTy,
          {llvm::ConstantInt::get(i32, index),
           llvm::ConstantInt::get(i32, e.arg.index),
           llvm::ConstantInt::get(i32, e.arg.dim),
           llvm::ConstantInt::get(i32, fixed ? TPUPROF_MODEL_FIXED_SIZE
                                             : uint64_t(e.other.index)),
           llvm::ConstantInt::get(i64, fixed ? e.other.index : e.other.dim),
           cString(module, e.op)}));
    }
  auto *rulesTy = llvm::ArrayType::get(ruleTy, rules.size());
  auto *rulesVar = new llvm::GlobalVariable(
      module, rulesTy, true, llvm::GlobalValue::PrivateLinkage,
      llvm::ConstantArray::get(rulesTy, rules), "tpuprof.model.dim_rules");
  auto *signatureTy = llvm::StructType::get(
      ctx, {i32, i32, i32, i32, ptrTy, ptrTy, ptrTy, i32});
  auto *signature = new llvm::GlobalVariable(
      module, signatureTy, true, llvm::GlobalValue::WeakAnyLinkage,
      llvm::ConstantStruct::get(
          signatureTy, {llvm::ConstantInt::get(i32, TPUPROF_MODEL_MAGIC),
                        llvm::ConstantInt::get(i32, TPUPROF_MODEL_VERSION),
                        llvm::ConstantInt::get(i32, instrumented ? 1 : 0),
                        llvm::ConstantInt::get(i32, entries.size()), entriesVar,
                        cString(module, source), rulesVar,
                        llvm::ConstantInt::get(i32, rules.size())}),
      TPUPROF_MODEL_SIGNATURE_SYMBOL);
  if (signature->getName() != TPUPROF_MODEL_SIGNATURE_SYMBOL)
    return fail(llvm::Twine("the model defines ") +
                TPUPROF_MODEL_SIGNATURE_SYMBOL + " itself");
  return llvm::Error::success();
}
