//===- tpuprof-annotate.cpp - Measured stats in the IR --------------------===//
//
//   tpuprof-annotate IR_FILE -o OUT DUMP...     (or: tpuprof-report annotate)
//
// An .mlir IR_FILE is parsed, each op's hash is recomputed with the pass's own
// code (tpuprof/Transforms/OpHash.h), and every op that has rows in the dumps
// gets a `tpuprof.stats` dictionary attribute, its times as the table prints
// them; the module is printed back, so
// it still parses with tpuprof-opt and mlir-opt (the hash ignores tpuprof.*
// attributes, so annotating does not change it). Any other IR_FILE (C, C++,
// .ll) is treated as source code: OUT is an annotated listing keyed by the
// probes' file:line (LLVM-level probes). docs/report.md, "annotate".
//
//===----------------------------------------------------------------------===//

#include "tpuprof/Dialect/Probe/ProbeDialect.h"
#include "tpuprof/Transforms/OpHash.h"
#include "tpuprof/Version.h"
#include "tpuprof/report/model/EventNames.h"
#include "tpuprof/report/model/Load.h"
#include "tpuprof/report/views/Columns.h"
#include "tpuprof/report/views/Listing.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace mlir;
using namespace tpuprof::report;
namespace cl = llvm::cl;

namespace {

cl::OptionCategory category("tpuprof-annotate options");
cl::opt<std::string> irFile(cl::Positional, cl::Required, cl::desc("<IR_FILE>"),
                            cl::cat(category));
cl::list<std::string> dumps(cl::Positional, cl::OneOrMore,
                            cl::desc("<dump, directory or .json>..."),
                            cl::cat(category));
cl::opt<std::string> outFile("o", cl::desc("Output file ('-': stdout)"),
                             cl::value_desc("OUT"), cl::init("-"),
                             cl::cat(category));
cl::opt<unsigned> runOption(
    "run",
    cl::desc("Annotate with run N alone (1-based, in the order the runs "
             "started); needed when the inputs hold several"),
    cl::value_desc("N"), cl::init(0), cl::cat(category));
cl::opt<bool>
    mergeRunsOption("merge-runs",
                    cl::desc("Annotate with the rows of all runs added up"),
                    cl::cat(category));
cl::opt<bool> noOverheadCorrection(
    "no-overhead-correction",
    cl::desc("Annotate raw probe intervals: do not subtract the probe cost "
             "the runtime measured at window start"),
    cl::cat(category));

int fail(const llvm::Twine &msg) {
  llvm::WithColor::error(llvm::errs(), "tpuprof-report annotate")
      << msg << '\n';
  return 1;
}

/// Everything measured for one op hash, over its shapes and devices.
struct OpStats {
  uint64_t ns = 0, selfNs = 0, count = 0, minNs = UINT64_MAX, maxNs = 0;
  unsigned rows = 0;
  std::vector<uint64_t> counters;
  bool memory = false; ///< Some row tracked memory.
  uint64_t allocBytes = 0, selfAllocBytes = 0, freedBytes = 0, peakBytes = 0;
};

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions({&category});
  tpuprof::setVersionPrinter("tpuprof-annotate");
  cl::ParseCommandLineOptions(argc, argv,
                              "tpuprof-annotate: measured stats in the IR\n");
  if (runOption && mergeRunsOption)
    return fail("--run and --merge-runs exclude each other");
  LoadOptions loadOptions;
  loadOptions.progress = llvm::sys::Process::StandardErrIsDisplayed();
  loadOptions.run = runOption;
  loadOptions.mergeRuns = mergeRunsOption;
  loadOptions.overheadCorrection = !noOverheadCorrection;
  llvm::Expected<Input> in = loadInput(dumps, loadOptions);
  if (!in)
    return fail(llvm::toString(in.takeError()));
  const Profile *profile = &in->profile;
  // One set of stats per op: runs are not added up unless asked to.
  if (llvm::Error err = needOneRun(*profile, "annotate"))
    return fail(llvm::toString(std::move(err)));
  // Annotated IR and source listings have no place for the dropped count.
  if (std::string lost = lossSummary(*profile); !lost.empty())
    llvm::WithColor::warning(llvm::errs(), "tpuprof-annotate") << lost << '\n';

  std::error_code ec;
  llvm::ToolOutputFile out(outFile, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return fail(outFile + ": cannot write: " + ec.message());

  if (!llvm::StringRef(irFile).ends_with(".mlir")) {
    if (llvm::Error err = printSourceListing(*in, irFile, out.os()))
      return fail(llvm::toString(std::move(err)));
    out.keep();
    return 0;
  }

  DialectRegistry registry;
  registerAllDialects(registry);
  tpuprof::registerTpuProfDialect(registry);
  MLIRContext context(registry);
  context.allowUnregisteredDialects();
  llvm::SourceMgr sourceMgr;
  std::string error;
  auto file = openInputFile(irFile, &error);
  if (!file)
    return fail(irFile + ": " + error);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return fail(irFile + ": cannot parse the IR");

  llvm::DenseMap<uint64_t, OpStats> byHash;
  for (const Row &row : profile->rows) {
    // Only op probes carry an MLIR op's hash.
    if (row.unknownProbe || row.mixedHash || row.kind != TPUPROF_KIND_OP)
      continue;
    OpStats &s = byHash[row.hash];
    s.ns += row.durationNs;
    s.selfNs += row.selfNs;
    s.count += row.count;
    if (row.count) {
      s.minNs = std::min(s.minNs, row.durations.min());
      s.maxNs = std::max(s.maxNs, row.durations.max());
    }
    ++s.rows;
    s.counters.resize(profile->events.size(), 0);
    for (size_t i = 0; i != row.counters.size() && i != s.counters.size(); ++i)
      s.counters[i] += row.counters[i];
    s.memory |= row.memoryRecorded;
    s.allocBytes += row.allocBytes;
    s.selfAllocBytes += row.selfAllocBytes;
    s.freedBytes += row.freedBytes;
    s.peakBytes = std::max(s.peakBytes, row.peakBytes);
  }

  Builder b(&context);
  // Times and shares as the table prints them (two decimals; a time below
  // what the dumps resolve as "< N ns", per call for totals), so the IR
  // says no more than the measurement does.
  uint64_t resolution = resolutionNs(*profile);
  auto text = [&](std::string s) { return b.getStringAttr(s); };
  unsigned annotated = 0, hashedOps = 0;
  llvm::DenseSet<uint64_t> found;
  uint64_t total = profile->totalNs;
  module->walk([&](Operation *op) {
    // Modules and functions are never probes (and hashing them is costly).
    if (isa<ModuleOp>(op) ||
        (op->getNumRegions() && op->hasTrait<OpTrait::IsIsolatedFromAbove>()))
      return;
    ++hashedOps;
    auto it = byHash.find(tpuprof::computeOpHash(op));
    if (it == byHash.end())
      return;
    found.insert(it->first);
    const OpStats &s = it->second;
    double mean = s.count ? double(s.ns) / double(s.count) : 0.0;
    SmallVector<NamedAttribute> fields = {
        b.getNamedAttr("count", b.getI64IntegerAttr(int64_t(s.count))),
        b.getNamedAttr("total_us",
                       text(totalTimeCell(s.ns, s.count, resolution))),
        b.getNamedAttr("self_us",
                       text(totalTimeCell(s.selfNs, s.count, resolution))),
        b.getNamedAttr(
            "percent",
            text(llvm::formatv("{0:F2}",
                               total ? 100.0 * double(s.ns) / double(total)
                                     : 0.0)
                     .str())),
        b.getNamedAttr(
            "mean_us",
            text(s.count && mean < double(resolution)
                     ? timeCell(0, resolution)
                     : llvm::formatv("{0:F2}", mean / 1000.0).str())),
        b.getNamedAttr("min_us", text(timeCell(s.count ? s.minNs : 0,
                                               s.count ? resolution : 0))),
        b.getNamedAttr("max_us",
                       text(timeCell(s.maxNs, s.count ? resolution : 0))),
        b.getNamedAttr("rows", b.getI64IntegerAttr(s.rows)),
    };
    // PMU events only: the runtime's own words are not counters.
    SmallVector<NamedAttribute> counters;
    for (size_t i = 0; i != profile->events.size(); ++i)
      if (!isPseudoEvent(profile->events[i]))
        counters.push_back(b.getNamedAttr(
            profile->events[i], b.getI64IntegerAttr(int64_t(s.counters[i]))));
    if (!counters.empty())
      fields.push_back(
          b.getNamedAttr("counters", b.getDictionaryAttr(counters)));
    if (s.memory) {
      auto bytes = [&](uint64_t v) { return b.getI64IntegerAttr(int64_t(v)); };
      fields.push_back(b.getNamedAttr(
          "memory",
          b.getDictionaryAttr(
              {b.getNamedAttr("alloc_bytes", bytes(s.allocBytes)),
               b.getNamedAttr("self_alloc_bytes", bytes(s.selfAllocBytes)),
               b.getNamedAttr("freed_bytes", bytes(s.freedBytes)),
               b.getNamedAttr("peak_bytes", bytes(s.peakBytes))})));
    }
    op->setAttr("tpuprof.stats", b.getDictionaryAttr(fields));
    ++annotated;
  });
  // IR that is not what the dumps measured annotates nothing: an error
  // that says what was compared, never an unannotated copy.
  if (!annotated)
    return fail(irFile + ": no op matches a measured op: none of its " +
                llvm::Twine(hashedOps) + " ops has one of the " +
                llvm::Twine(byHash.size()) +
                " op hashes in the dumps (is this the IR the profiled "
                "model was compiled from?)");
  module->print(out.os());
  out.os() << '\n';
  out.keep();
  llvm::errs() << "tpuprof-annotate: annotated " << annotated << " ops of "
               << irFile;
  if (size_t missing = byHash.size() - found.size())
    llvm::errs() << " (" << missing << " of the dumps' " << byHash.size()
                 << " op hashes are not in it)";
  llvm::errs() << '\n';
  return 0;
}
