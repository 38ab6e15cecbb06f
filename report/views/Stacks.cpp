//===- report/views/Stacks.cpp - Folded stacks for flame graphs -----------===//
//
// One line per distinct nesting path, "root;child;leaf <self ns>", the
// folded format flamegraph.pl and speedscope read. The value is the leaf's
// self time in nanoseconds summed over every record with that path, so a
// flame graph's widths add up to the time covered by probes. Memory grows
// with distinct paths, not records.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/model/Walk.h"

#include "tpuprof/report/views/Stacks.h"
#include "tpuprof/report/model/Load.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"

#include <map>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

namespace {

/// A frame name without the folded format's separators.
std::string frameName(const WalkFrame &f, bool shapes) {
  std::string s;
  if (!f.probe) {
    s = ("<unknown probe " + Twine(f.record.probe) + ">").str();
  } else {
    s = f.probe->name.str();
    if (shapes && !f.probe->shapes.empty()) {
      SmallVector<int64_t, 8> dims;
      for (unsigned i = 0; i != f.record.numDims; ++i)
        dims.push_back(f.record.dim(i));
      s += " [" + substituteShapes(f.probe->shapes, dims) + "]";
    }
  }
  for (char &c : s)
    if (c == ';' || c == '\n' || c == '\r')
      c = ' ';
  return s;
}

} // namespace

Error tpuprof::report::writeStacks(const Input &in, const StacksOptions &opts,
                                   raw_ostream &os) {
  std::map<std::string, uint64_t> folded;
  uint64_t dropped = 0, incomplete = 0;
  Error err = in.forEachDump("stacks", [&](const DumpReader &dump) {
    dropped += dump.info().dropped;
    incomplete += !dump.info().isComplete();
    std::string root;
    walkDump(
        dump,
        [&](const WalkFrame &f, ArrayRef<WalkFrame> up) {
          if (!f.finished || !f.selfNs())
            return;
          std::string path = root;
          for (const WalkFrame &a : up)
            path += frameName(a, opts.shapes) + ";";
          path += frameName(f, opts.shapes);
          folded[path] += f.selfNs();
        },
        [&](const ThreadInfo &t) {
          root.clear();
          if (opts.perThread)
            root = ("dev " + Twine(dump.info().device) + ";tid " +
                    Twine(t.tid) + ";")
                       .str();
        });
    return Error::success();
  });
  if (err)
    return err;
  for (auto &[path, ns] : folded)
    os << path << ' ' << ns << '\n';
  // The folded format has no place for it, and its readers choke on
  // comments: lost records are reported on stderr, never silently.
  if (dropped || incomplete)
    errs() << "tpuprof-report: stacks: " << dropped
           << " dropped records, " << incomplete
           << " incomplete dumps; the stacks miss what they lost\n";
  return Error::success();
}
