//===- tpuprof-compile.cpp - Compile a model ahead of time with probes ----===//
//
// `tpuprof-compile model.mlir -o model.so` instruments and lowers the model
// exactly as tpuprof-run does (the same options and built-in pipeline),
// translates it to LLVM IR, exports a C function per public function with
// the signature tpuprof-run MODEL.so reads (ModelExports), and writes native
// code for the host as a .o, .a or .so (NativeCode); --header declares the
// entry points for C (ModelHeader). docs/compile.md is the user's guide.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/ModelRunner/ModelExports.h"
#include "tpuprof/ModelRunner/ModelHeader.h"
#include "tpuprof/ModelRunner/NativeCode.h"

#include "tpuprof/ModelRunner/ModelSource.h"
#include "tpuprof/ModelRunner/PipelineFlags.h"
#include "tpuprof/ModelRunner/RunInputs.h"
#include "tpuprof/Version.h"

#include "tpuprof/report/views/OutputFile.h"
#include "tpuprof/tpuprof.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"

#include <dlfcn.h>
#include <link.h>

using namespace mlir;
using namespace tpuprof::compile;
namespace cl = llvm::cl;

namespace {

cl::OptionCategory category("tpuprof-compile options");

cl::opt<std::string> inputFile(cl::Positional, cl::desc("<model.mlir>"),
                               cl::Required, cl::cat(category));
cl::opt<std::string> outputFile(
    "o",
    cl::desc("Output: a relocatable object (.o), an archive (.a) or a "
             "shared library (.so)"),
    cl::value_desc("OUT"), cl::Required, cl::cat(category));
cl::list<std::string> entries(
    "entry",
    cl::desc("Export only this function (repeatable; default: every public "
             "function with a body)"),
    cl::value_desc("FUNC"), cl::cat(category));
cl::opt<std::string> prefix(
    "prefix",
    cl::desc("Prefix of the exported C names, PREFIX_<function> (default: "
             "OUT's name without 'lib' and extension)"),
    cl::value_desc("NAME"), cl::cat(category));
cl::opt<std::string>
    header("header",
           cl::desc("Write a C header declaring the entry points to FILE "
                    "(--header alone: OUT with .h)"),
           cl::value_desc("FILE"), cl::ValueOptional, cl::cat(category));
cl::opt<std::string> linker(
    "linker",
    cl::desc("C compiler driver that links a .so (default: the first of cc, "
             "clang-19, clang, gcc on PATH)"),
    cl::value_desc("PROG"), cl::cat(category));
cl::list<std::string> runpath(
    "rpath",
    cl::desc("RUNPATH entry of a .so, replacing the default ($ORIGIN-relative "
             "and absolute paths to libtpuprof_rt's directory, then $ORIGIN); "
             "repeatable"),
    cl::value_desc("DIR"), cl::cat(category));

int fail(const llvm::Twine &msg) {
  llvm::WithColor::error(llvm::errs(), "tpuprof-compile") << msg << '\n';
  return 1;
}

/// The public functions to export: --entry, else every public one.
llvm::Expected<std::vector<func::FuncOp>> exportedFunctions(ModuleOp module) {
  std::vector<func::FuncOp> found;
  for (const std::string &name : entries) {
    auto fn = module.lookupSymbol<func::FuncOp>(name);
    if (!fn || fn.isExternal())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "--entry: no function @" + name +
                                         " with a body in " + inputFile);
    found.push_back(fn);
  }
  if (entries.empty())
    for (auto fn : module.getOps<func::FuncOp>())
      if (fn.isPublic() && !fn.isExternal())
        found.push_back(fn);
  if (found.empty())
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        inputFile + " has no public function with a body to export (make "
                    "one public, or name one with --entry)");
  return found;
}

std::string location(Operation *op) {
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
    return (llvm::sys::path::filename(loc.getFilename().strref()) + ":" +
            llvm::Twine(loc.getLine()))
        .str();
  return inputFile;
}

/// The default prefix: OUT's file name without "lib" and extension.
std::string defaultPrefix() {
  llvm::StringRef stem = llvm::sys::path::stem(outputFile);
  if (stem.starts_with("lib") && stem.size() > 3)
    stem = stem.drop_front(3);
  return cIdentifier(stem.empty() ? "model" : stem);
}

/// Where libtpuprof_rt.so is: the one this process loaded (the build tree's
/// or the installed prefix's, wherever it was moved to).
std::string runtimeLibrary() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void *>(&tpuprof_is_enabled), &info) ||
      !info.dli_fname)
    return "";
  llvm::SmallString<256> path(info.dli_fname);
  llvm::sys::fs::make_absolute(path);
  return path.str().str();
}

/// The default RUNPATH: the runtime's directory relative to OUT's, then
/// absolute, then OUT's own directory (docs/compile.md, "Where a .so finds
/// the runtime").
std::vector<std::string> defaultRunpath(llvm::StringRef runtimeDir) {
  llvm::SmallString<256> outDir(outputFile);
  llvm::sys::fs::make_absolute(outDir);
  llvm::sys::path::remove_filename(outDir);
  llvm::SmallString<256> realOut, realRt;
  if (llvm::sys::fs::real_path(outDir, realOut))
    realOut = outDir;
  if (llvm::sys::fs::real_path(runtimeDir, realRt))
    realRt = runtimeDir;
  // The relative path: up from OUT's directory to the common ancestor,
  // then down to the runtime's.
  llvm::SmallVector<llvm::StringRef> from, to;
  llvm::StringRef(realOut).split(from, '/', -1, false);
  llvm::StringRef(realRt).split(to, '/', -1, false);
  size_t common = 0;
  while (common < from.size() && common < to.size() &&
         from[common] == to[common])
    ++common;
  std::string relative = "$ORIGIN";
  for (size_t i = common; i < from.size(); ++i)
    relative += "/..";
  for (size_t i = common; i < to.size(); ++i)
    relative += "/" + to[i].str();
  std::vector<std::string> dirs = {relative, realRt.str().str(), "$ORIGIN"};
  if (relative == "$ORIGIN")
    dirs = {relative, realRt.str().str()};
  return dirs;
}

/// MLIR's runner libraries (memrefCopy, printMemref*, ...) that define a
/// function `module` calls: the .so links them, and nothing else does.
std::vector<std::string> runnerLibsCalled(const llvm::Module &module) {
  std::vector<std::string> called;
  for (const char *lib :
       {TPUPROF_MLIR_C_RUNNER_UTILS, TPUPROF_MLIR_RUNNER_UTILS}) {
    void *handle = dlopen(lib, RTLD_LAZY | RTLD_LOCAL);
    if (!handle)
      continue;
    struct link_map *map = nullptr;
    bool calls = false;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map)
      for (const llvm::Function &fn : module.functions()) {
        Dl_info found;
        void *sym = fn.isDeclaration()
                        ? dlsym(handle, fn.getName().str().c_str())
                        : nullptr;
        // Defined by this library itself, not by one it depends on (libc).
        if (sym && dladdr(sym, &found) && found.dli_fname &&
            llvm::StringRef(found.dli_fname) == map->l_name)
          calls = true;
      }
    dlclose(handle);
    if (calls)
      called.push_back(lib);
  }
  return called;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  tpuprof::run::registerModelPasses();
  cl::HideUnrelatedOptions({&category, &tpuprof::run::pipelineCategory()});
  tpuprof::setVersionPrinter("tpuprof-compile");
  cl::ParseCommandLineOptions(
      argc, argv,
      "tpuprof-compile: compile an MLIR model ahead of time for the host, "
      "with probes that stay off until TPUPROF_ENABLE=1 (ENABLE_ALL_PROFILE=1) "
      "or the API switch them on\n");
  tpuprof::ModelPipelineOptions pipelineOptions;
  unsigned optLevel;
  if (llvm::Error err =
          tpuprof::run::readPipelineFlags(pipelineOptions, optLevel))
    return fail(llvm::toString(std::move(err)));
  llvm::StringRef ext = llvm::sys::path::extension(outputFile);
  if (ext != ".o" && ext != ".a" && ext != ".so")
    return fail("-o " + outputFile + ": the output must end in .o, .a or .so");
  std::string symbolPrefix =
      prefix.getNumOccurrences() ? prefix.getValue() : defaultPrefix();
  if (cIdentifier(symbolPrefix) != symbolPrefix)
    return fail("--prefix '" + symbolPrefix + "' is not a C identifier");

  llvm::Expected<tpuprof::run::ModelSource> source =
      tpuprof::run::loadModel(inputFile);
  if (!source)
    return fail(llvm::toString(source.takeError()));
  ModuleOp module = *source->module;
  llvm::Expected<std::vector<func::FuncOp>> fns = exportedFunctions(module);
  if (!fns)
    return fail(llvm::toString(fns.takeError()));

  std::vector<ExportedFunction> exported;
  std::vector<llvm::StringRef> names;
  for (func::FuncOp fn : *fns) {
    ExportedFunction e;
    e.name = fn.getSymName().str();
    e.symbol = symbolPrefix + "_" + cIdentifier(e.name);
    e.type = tpuprof::run::entryType(fn);
    llvm::raw_string_ostream(e.typeText) << e.type;
    e.location = location(fn);
    e.dimEqualities = tpuprof::run::entryDimEqualities(fn);
    for (const ExportedFunction &other : exported)
      if (other.symbol == e.symbol)
        return fail("@" + other.name + " and @" + e.name +
                    " would both be exported as " + e.symbol);
    fn->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                UnitAttr::get(fn.getContext()));
    names.push_back(fn.getSymName());
    exported.push_back(std::move(e));
  }

  // The header is made before compiling, so that a type it cannot declare
  // stops the run early, and written after OUT.
  std::string headerPath, headerText;
  if (header.getNumOccurrences()) {
    headerPath = header;
    if (headerPath.empty()) {
      llvm::SmallString<256> path(outputFile);
      llvm::sys::path::replace_extension(path, ".h");
      headerPath = path.str().str();
    }
    std::string guard =
        llvm::StringRef(cIdentifier(llvm::sys::path::filename(headerPath)))
            .upper();
    llvm::raw_string_ostream os(headerText);
    if (llvm::Error err =
            writeHeader(os, exported, inputFile, outputFile, guard))
      return fail(llvm::toString(std::move(err)));
  }

  if (llvm::Error err =
          tpuprof::run::lowerModel(*source, inputFile, names, pipelineOptions))
    return fail(llvm::toString(std::move(err)));

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, inputFile);
  if (!llvmModule)
    return fail("cannot translate " + inputFile + " to LLVM IR");
  if (llvm::Error err = exportModel(*llvmModule, exported,
                                    pipelineOptions.instrument, inputFile))
    return fail(llvm::toString(std::move(err)));

  auto tm = hostTargetMachine(optLevel);
  if (!tm)
    return fail(llvm::toString(tm.takeError()));
  llvm::Expected<llvm::SmallString<0>> object =
      emitObject(*llvmModule, **tm, optLevel);
  if (!object)
    return fail(llvm::toString(object.takeError()));

  SharedLink link;
  link.linker = linker;
  link.ifUsed = runnerLibsCalled(*llvmModule);
  std::string runtime = pipelineOptions.instrument ? runtimeLibrary() : "";
  if (pipelineOptions.instrument && ext == ".so") {
    if (runtime.empty())
      return fail("cannot find libtpuprof_rt.so to link the model with");
    link.libraries.push_back(runtime);
  }
  llvm::SmallString<256> runtimeDir(runtime);
  llvm::sys::path::remove_filename(runtimeDir);
  if (runpath.getNumOccurrences())
    link.runpath.assign(runpath.begin(), runpath.end());
  else if (!runtime.empty())
    link.runpath = defaultRunpath(runtimeDir);
  // MLIR's runner utilities come from LLVM's library directory.
  if (!link.ifUsed.empty())
    link.runpath.push_back(
        llvm::sys::path::parent_path(TPUPROF_MLIR_C_RUNNER_UTILS).str());
  if (llvm::Error err = writeArtifact(outputFile, *object, link))
    return fail(llvm::toString(std::move(err)));
  if (!headerPath.empty())
    if (llvm::Error err = tpuprof::report::writeStreamAtomically(
            headerPath, [&](llvm::raw_ostream &os) {
              os << headerText;
              return llvm::Error::success();
            }))
      return fail(llvm::toString(std::move(err)));
  return 0;
}
