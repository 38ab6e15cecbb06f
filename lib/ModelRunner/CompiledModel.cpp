//===- CompiledModel.cpp - Load a model tpuprof-compile built -------------===//

#include "tpuprof/ModelRunner/CompiledModel.h"

#include "tpuprof/model.h"

#include "mlir/AsmParser/AsmParser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/Magic.h"

#include <dlfcn.h>

using namespace tpuprof::run;

namespace {

llvm::Error fail(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

} // namespace

llvm::Expected<bool> tpuprof::run::isSharedObject(llvm::StringRef path) {
  llvm::file_magic magic;
  if (llvm::identify_magic(path, magic))
    return false; // Unreadable: the parser says why.
  if (magic == llvm::file_magic::elf_relocatable ||
      magic == llvm::file_magic::archive)
    return fail(path + " is an object file or archive: compile the model to "
                       "a .so (tpuprof-compile MODEL.mlir -o MODEL.so) to "
                       "run it");
  return magic == llvm::file_magic::elf_shared_object;
}

llvm::Expected<CompiledModel> CompiledModel::load(llvm::StringRef path) {
  CompiledModel model;
  model.path = path.str();
  // A path without a slash would be looked up on the library path.
  std::string openPath = path.contains('/') ? path.str() : "./" + path.str();
  void *handle = dlopen(openPath.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return fail(llvm::Twine("cannot load ") + path + ": " + dlerror());
  model.signature = static_cast<const tpuprof_model_signature *>(
      dlsym(handle, TPUPROF_MODEL_SIGNATURE_SYMBOL));
  if (!model.signature)
    return fail(path + " was not made by tpuprof-compile (it has no " +
                TPUPROF_MODEL_SIGNATURE_SYMBOL + " symbol)");
  if (model.signature->magic != TPUPROF_MODEL_MAGIC)
    return fail(path + ": its " + TPUPROF_MODEL_SIGNATURE_SYMBOL +
                " is not a tpuprof model signature");
  if (model.signature->version < 1 || model.signature->num_entries == 0)
    return fail(path + ": its model signature (version " +
                llvm::Twine(model.signature->version) + ") has no entries");
  return std::move(model);
}

bool CompiledModel::instrumented() const { return signature->instrumented; }

llvm::Expected<CompiledModel::Entry>
CompiledModel::findEntry(llvm::StringRef name,
                         mlir::MLIRContext &context) const {
  llvm::ArrayRef<tpuprof_model_entry> entries(signature->entries,
                                              signature->num_entries);
  auto named = [&](llvm::StringRef n) {
    return llvm::find_if(
        entries, [&](const tpuprof_model_entry &e) { return n == e.name; });
  };
  std::string have =
      llvm::join(llvm::map_range(entries,
                                 [](const tpuprof_model_entry &e) {
                                   return "@" + std::string(e.name);
                                 }),
                 ", ");
  const tpuprof_model_entry *found;
  if (!name.empty())
    found = named(name);
  else if (named("main") != entries.end())
    found = named("main");
  else if (entries.size() == 1)
    found = entries.begin();
  else
    return fail("cannot tell which function of " + path +
                " to run: there is no @main; name one with --entry (it has " +
                have + ")");
  if (found == entries.end())
    return fail("no function @" + name + " in " + path + " (it has " + have +
                ")");
  auto type = llvm::dyn_cast_or_null<mlir::FunctionType>(
      mlir::parseType(found->type, &context));
  if (!type || !found->packed)
    return fail(path + ": the signature of @" + found->name +
                " cannot be read ('" + found->type + "')");
  return Entry{found->name, type, found->packed};
}
