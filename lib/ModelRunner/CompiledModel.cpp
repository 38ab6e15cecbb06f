//===- CompiledModel.cpp - Load a model tpuprof-compile built -------------===//

#include "tpuprof/ModelRunner/CompiledModel.h"

#include "tpuprof/model.h"
#include "tpuprof/report/read/InputFile.h"

#include "mlir/AsmParser/AsmParser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"

#include <dlfcn.h>

using namespace tpuprof::run;

namespace {

llvm::Error fail(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

/// Checks, from the file's bytes alone, that `path` is a model
/// tpuprof-compile made and that the loader can map it whole: dlopen runs a
/// library's constructors before dlsym could tell it is not a model, and
/// maps segments past the end of a truncated file, whose pages then fault
/// (SIGBUS) while it relocates them.
llvm::Error checkModelFile(llvm::StringRef path, llvm::StringRef bytes) {
  using ELFT = llvm::object::ELF64LE;
  auto corrupt = [&](const llvm::Twine &what) {
    return fail(path + " is truncated or corrupt: " + what);
  };
  llvm::Expected<llvm::object::ELFFile<ELFT>> elf =
      llvm::object::ELFFile<ELFT>::create(bytes);
  if (!elf)
    return corrupt(llvm::toString(elf.takeError()));
  if (elf->getHeader().getFileClass() != llvm::ELF::ELFCLASS64 ||
      elf->getHeader().getDataEncoding() != llvm::ELF::ELFDATA2LSB)
    return fail(path + " is not a 64-bit little-endian shared object");
  uint64_t size = bytes.size();
  auto inFile = [&](uint64_t offset, uint64_t length) {
    return offset <= size && length <= size - offset;
  };
  auto phdrs = elf->program_headers();
  if (!phdrs)
    return corrupt(llvm::toString(phdrs.takeError()));
  for (auto [i, ph] : llvm::enumerate(*phdrs))
    if (!inFile(ph.p_offset, ph.p_filesz))
      return corrupt("segment " + llvm::Twine(i) + " (" +
                     llvm::Twine(ph.p_filesz) + " bytes at offset " +
                     llvm::Twine(ph.p_offset) + ") runs past the end of the " +
                     llvm::Twine(size) + "-byte file");
  auto sections = elf->sections();
  if (!sections)
    return corrupt(llvm::toString(sections.takeError()));
  for (auto [i, sh] : llvm::enumerate(*sections))
    if (sh.sh_type != llvm::ELF::SHT_NOBITS &&
        !inFile(sh.sh_offset, sh.sh_size))
      return corrupt("section " + llvm::Twine(i) +
                     " runs past the end of the " + llvm::Twine(size) +
                     "-byte file");

  // The signature: a defined dynamic symbol whose first bytes in the file
  // are the magic.
  auto notModel = [&] {
    return fail(path + " was not made by tpuprof-compile (it has no " +
                TPUPROF_MODEL_SIGNATURE_SYMBOL + " symbol)");
  };
  for (const auto &sec : *sections) {
    if (sec.sh_type != llvm::ELF::SHT_DYNSYM)
      continue;
    auto symbols = elf->symbols(&sec);
    auto names = elf->getStringTableForSymtab(sec);
    if (!symbols || !names) {
      llvm::consumeError(symbols.takeError());
      llvm::consumeError(names.takeError());
      return corrupt("its dynamic symbol table cannot be read");
    }
    for (const auto &sym : *symbols) {
      llvm::Expected<llvm::StringRef> name = sym.getName(*names);
      if (!name) {
        llvm::consumeError(name.takeError());
        continue;
      }
      if (*name != TPUPROF_MODEL_SIGNATURE_SYMBOL)
        continue;
      auto where = elf->getSection(sym.st_shndx);
      if (sym.isUndefined() || !where) {
        if (!where)
          llvm::consumeError(where.takeError());
        return notModel();
      }
      const auto &home = **where;
      uint64_t offset = sym.st_value - home.sh_addr;
      if (home.sh_type == llvm::ELF::SHT_NOBITS ||
          sym.st_value < home.sh_addr || offset > home.sh_size ||
          sizeof(uint32_t) > home.sh_size - offset ||
          !inFile(home.sh_offset + offset, sizeof(uint32_t)))
        return corrupt(llvm::Twine("its ") + TPUPROF_MODEL_SIGNATURE_SYMBOL +
                       " lies outside its section");
      uint32_t magic = llvm::support::endian::read32le(bytes.data() +
                                                       home.sh_offset + offset);
      if (magic != TPUPROF_MODEL_MAGIC)
        return fail(path + ": its " + TPUPROF_MODEL_SIGNATURE_SYMBOL +
                    " is not a tpuprof model signature");
      return llvm::Error::success();
    }
  }
  return notModel();
}

} // namespace

llvm::Expected<bool> tpuprof::run::isSharedObject(llvm::StringRef path) {
  if (path == "-")
    return false; // A .mlir on stdin.
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status) || !llvm::sys::fs::exists(status))
    return false; // The parser says it is missing.
  // A pipe (`<(cat model.mlir)`) is a .mlir for the parser to read; one
  // named like a model is refused rather than waited on.
  if (!llvm::sys::fs::is_regular_file(status) && !path.ends_with(".so"))
    return false;
  // Whole and by read(2): the model's checks below read the same bytes.
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> file =
      tpuprof::report::readInputFile(path);
  if (!file)
    return file.takeError();
  llvm::file_magic magic = llvm::identify_magic((*file)->getBuffer());
  if (magic == llvm::file_magic::elf_relocatable ||
      magic == llvm::file_magic::archive)
    return fail(path + " is an object file or archive: compile the model to "
                       "a .so (tpuprof-compile MODEL.mlir -o MODEL.so) to "
                       "run it");
  if (magic != llvm::file_magic::elf_shared_object)
    return false;
  if (llvm::Error err = checkModelFile(path, (*file)->getBuffer()))
    return std::move(err);
  return true;
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
  Entry entry{found->name, type, found->packed, {}};
  if (signature->version >= 2)
    for (const tpuprof_model_dim_rule &rule :
         llvm::ArrayRef(signature->dim_rules, signature->num_dim_rules)) {
      if (rule.entry != unsigned(found - entries.begin()))
        continue;
      DimRef other =
          rule.other_arg == TPUPROF_MODEL_FIXED_SIZE
              ? DimRef{DimRef::Fixed, rule.other}
              : DimRef{DimRef::Argument, rule.other_arg, unsigned(rule.other)};
      entry.dimEqualities.push_back(
          {DimRef{DimRef::Argument, rule.arg, rule.dim}, other,
           rule.op ? rule.op : "an op"});
    }
  return std::move(entry);
}
