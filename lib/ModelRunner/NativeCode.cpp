//===- NativeCode.cpp - A lowered model as an object, archive or .so ------===//

#include "tpuprof/ModelRunner/NativeCode.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/Object/ArchiveWriter.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace tpuprof::compile;

namespace {

llvm::Error fail(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

llvm::Error writeFile(llvm::StringRef path, llvm::StringRef bytes) {
  std::error_code ec;
  llvm::ToolOutputFile out(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return fail("cannot write " + path + ": " + ec.message());
  out.os() << bytes;
  out.os().flush();
  if (out.os().has_error())
    return fail("cannot write " + path + ": " + out.os().error().message());
  out.keep();
  return llvm::Error::success();
}

llvm::Expected<std::string> findLinker(llvm::StringRef requested) {
  if (!requested.empty()) {
    if (llvm::sys::fs::can_execute(requested))
      return requested.str();
    if (auto found = llvm::sys::findProgramByName(requested))
      return *found;
    return fail("--linker: cannot find '" + requested + "'");
  }
  for (const char *name : {"cc", "clang-19", "clang", "gcc"})
    if (auto found = llvm::sys::findProgramByName(name))
      return *found;
  return fail("cannot link a .so: none of cc, clang-19, clang or gcc is on "
              "PATH (install one, name one with --linker, or write a .o)");
}

/// Links `object` into the shared library `path`.
llvm::Error linkShared(llvm::StringRef path, llvm::StringRef object,
                       const SharedLink &link) {
  llvm::Expected<std::string> linker = findLinker(link.linker);
  if (!linker)
    return linker.takeError();
  llvm::SmallString<128> objectPath, logPath;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("tpuprof-model", "o", objectPath))
    return fail("cannot create a temporary object file: " + ec.message());
  llvm::FileRemover removeObject(objectPath);
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("tpuprof-link", "log", logPath))
    return fail("cannot create a temporary file: " + ec.message());
  llvm::FileRemover removeLog(logPath);
  if (llvm::Error err = writeFile(objectPath, object))
    return err;

  std::vector<std::string> args = {*linker,
                                   "-shared",
                                   "-o",
                                   path.str(),
                                   objectPath.str().str(),
                                   "-Wl,-soname," +
                                       llvm::sys::path::filename(path).str(),
                                   "-Wl,-z,noexecstack"};
  if (!link.runpath.empty())
    args.push_back("-Wl,--enable-new-dtags,-rpath," +
                   llvm::join(link.runpath, ":"));
  args.insert(args.end(), link.libraries.begin(), link.libraries.end());
  args.push_back("-Wl,--as-needed");
  args.insert(args.end(), link.ifUsed.begin(), link.ifUsed.end());
  args.push_back("-lm");
  args.push_back("-Wl,--no-as-needed");
  std::vector<llvm::StringRef> argRefs(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {
      std::nullopt, llvm::StringRef(logPath), llvm::StringRef(logPath)};
  std::string execError;
  int rc = llvm::sys::ExecuteAndWait(*linker, argRefs, std::nullopt, redirects,
                                     0, 0, &execError);
  if (rc == 0)
    return llvm::Error::success();
  std::string firstLine = execError;
  if (auto log = llvm::MemoryBuffer::getFile(logPath); log && firstLine.empty())
    firstLine = (*log)->getBuffer().trim().split('\n').first.str();
  return fail("linking " + path + " with " + *linker + " failed: " + firstLine);
}

} // namespace

llvm::Expected<llvm::orc::JITTargetMachineBuilder>
tpuprof::compile::hostTargetMachineBuilder(unsigned optLevel) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return builder.takeError();
  std::optional<llvm::CodeGenOptLevel> level =
      llvm::CodeGenOpt::getLevel(optLevel);
  if (!level)
    return fail("bad LLVM optimization level " + llvm::Twine(optLevel));
  builder->setCodeGenOptLevel(*level);
  builder->getOptions().LoopAlignment = kLineBytes;
  return builder;
}

void tpuprof::compile::placeDataAndFrames(llvm::Module &module) {
  const llvm::DataLayout &layout = module.getDataLayout();
  for (llvm::GlobalVariable &global : module.globals()) {
    if (!global.isConstant() || global.isDeclaration())
      continue;
    uint64_t bytes = layout.getTypeAllocSize(global.getValueType());
    // Less than a line (scalars, names) stays packed.
    if (bytes < kLineBytes)
      continue;
    llvm::Align want(bytes >= kPageBytes ? kPageBytes : kLineBytes);
    if (global.getAlign().valueOrOne() < want)
      global.setAlignment(want);
  }
  // A frame aligned to the widest vector register it spills: otherwise a
  // function's spill slots fall on lines by where its caller's stack ends,
  // and each 64-byte spill or reload in a hot loop may straddle two lines
  // in one caller and not in another.
  for (llvm::Function &f : module)
    if (!f.isDeclaration())
      f.addFnAttr("stackrealign");
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
tpuprof::compile::hostTargetMachine(unsigned optLevel) {
  auto builder = hostTargetMachineBuilder(optLevel);
  if (!builder)
    return builder.takeError();
  builder->setRelocationModel(llvm::Reloc::PIC_);
  return builder->createTargetMachine();
}

llvm::Expected<llvm::SmallString<0>>
tpuprof::compile::emitObject(llvm::Module &module, llvm::TargetMachine &tm,
                             unsigned optLevel) {
  module.setDataLayout(tm.createDataLayout());
  module.setTargetTriple(tm.getTargetTriple().str());
  placeDataAndFrames(module);
  if (llvm::Error err = mlir::makeOptimizingTransformer(
          optLevel, /*sizeLevel=*/0, &tm)(&module))
    return std::move(err);
  llvm::SmallString<0> object;
  llvm::raw_svector_ostream os(object);
  llvm::legacy::PassManager pm;
  if (tm.addPassesToEmitFile(pm, os, nullptr,
                             llvm::CodeGenFileType::ObjectFile))
    return fail("LLVM cannot emit object code for " +
                tm.getTargetTriple().str());
  pm.run(module);
  return object;
}

llvm::Error tpuprof::compile::writeArtifact(llvm::StringRef path,
                                            llvm::StringRef object,
                                            const SharedLink &link) {
  llvm::StringRef ext = llvm::sys::path::extension(path);
  if (ext == ".o")
    return writeFile(path, object);
  if (ext == ".so")
    return linkShared(path, object, link);
  if (ext == ".a") {
    std::string member = llvm::sys::path::stem(path).str() + ".o";
    std::vector<llvm::NewArchiveMember> members;
    members.emplace_back(llvm::MemoryBufferRef(object, member));
    if (llvm::Error err = llvm::writeArchive(
            path, members, llvm::SymtabWritingMode::NormalSymtab,
            llvm::object::Archive::K_GNU, /*Deterministic=*/true,
            /*Thin=*/false))
      return fail("cannot write " + path + ": " +
                  llvm::toString(std::move(err)));
    return llvm::Error::success();
  }
  return fail("-o " + path + ": the output must end in .o, .a or .so");
}
