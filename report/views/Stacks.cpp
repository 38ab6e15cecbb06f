//===- report/views/Stacks.cpp - Stacks for flame graphs ------------------===//
//
// One stack per distinct nesting path: root frames "run R (pid P)" and
// "dev D, tid T", then the records from the outermost to the leaf. Its
// value is the leaf's self time in nanoseconds summed over every record
// with that path, so a flame graph's widths add up to the time covered by
// probes. Memory grows with distinct paths, not records.
//
// speedscope reads folded stacks as sample counts; its own format
// (https://www.speedscope.app/file-format-schema.json) carries the unit, so
// `--format speedscope` writes one sampled profile with "nanoseconds".
//
//===----------------------------------------------------------------------===//

#include "Frames.h"

#include "tpuprof/report/views/Stacks.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"

#include <map>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;
using tpuprof::report::detail::frameName;

namespace {

void writeSpeedscope(const std::map<std::string, uint64_t> &folded,
                     const Input &in, raw_ostream &os) {
  StringMap<unsigned> frameIndex;
  std::vector<StringRef> frames;
  uint64_t total = 0;
  json::OStream j(os);
  j.object([&] {
    j.attribute("$schema", "https://www.speedscope.app/file-format-schema.json");
    j.attribute("exporter", "tpuprof-report stacks");
    j.attribute("name", "tpuprof: " + join(in.args, " "));
    j.attribute("activeProfileIndex", 0);
    // Frames are written after the profile that numbers them; JSON objects
    // are unordered, and speedscope reads "shared" wherever it is.
    j.attributeArray("profiles", [&] {
      j.object([&] {
        j.attribute("type", "sampled");
        j.attribute("name", "self time");
        j.attribute("unit", "nanoseconds");
        j.attribute("startValue", 0);
        j.attributeArray("samples", [&] {
          for (const auto &entry : folded)
            j.array([&, &path = entry.first] {
              SmallVector<StringRef, 16> names;
              StringRef(path).split(names, ';');
              for (StringRef n : names) {
                auto [it, inserted] = frameIndex.try_emplace(n, frames.size());
                if (inserted)
                  frames.push_back(it->first());
                j.value(it->second);
              }
            });
        });
        j.attributeArray("weights", [&] {
          for (const auto &entry : folded) {
            j.value(entry.second);
            total += entry.second;
          }
        });
        j.attribute("endValue", total);
      });
    });
    j.attributeObject("shared", [&] {
      j.attributeArray("frames", [&] {
        for (StringRef f : frames)
          j.object([&] { j.attribute("name", f); });
      });
    });
  });
  os << '\n';
}

} // namespace

Expected<StacksOptions::Format>
tpuprof::report::parseStacksFormat(StringRef name) {
  if (name == "folded")
    return StacksOptions::Format::Folded;
  if (name == "speedscope")
    return StacksOptions::Format::Speedscope;
  return createStringError(inconvertibleErrorCode(),
                           "unknown stacks format '" + name +
                               "' (expected one of: folded, speedscope)");
}

Expected<std::map<std::string, uint64_t>>
tpuprof::report::foldStacks(const Input &in, bool shapes) {
  std::map<std::string, uint64_t> folded;
  uint64_t dropped = 0, incomplete = 0;
  Error err = in.forEachDump("stacks", [&](const DumpReader &dump,
                                           const DumpSummary &d) {
    dropped += dump.info().dropped;
    incomplete += !dump.info().isComplete();
    std::string run = detail::runFrame(in.profile, d.run) + ";";
    std::string root;
    walkDump(
        dump,
        [&](const WalkFrame &f, ArrayRef<WalkFrame> up) {
          if (!f.finished || !f.selfNs())
            return;
          std::string path = root;
          for (const WalkFrame &a : up)
            path += frameName(a, shapes) + ";";
          path += frameName(f, shapes);
          folded[path] += f.selfNs();
        },
        [&](const ThreadInfo &t) {
          root = run + detail::threadFrame(dump.info().device, t.tid) + ";";
        });
    return Error::success();
  });
  if (err)
    return std::move(err);
  // Neither format has a place for it, and folded readers choke on
  // comments: lost records are reported on stderr, never silently.
  if (dropped || incomplete)
    errs() << "tpuprof-report: stacks: " << dropped << " dropped records, "
           << incomplete
           << " incomplete dumps; the stacks miss what they lost\n";
  return folded;
}

void tpuprof::report::writeFoldedStacks(
    const std::map<std::string, uint64_t> &folded,
    StacksOptions::Format format, const Input &in, raw_ostream &os) {
  if (format == StacksOptions::Format::Speedscope) {
    writeSpeedscope(folded, in, os);
    return;
  }
  for (auto &[path, ns] : folded)
    os << path << ' ' << ns << '\n';
}

Error tpuprof::report::writeStacks(const Input &in, const StacksOptions &opts,
                                   raw_ostream &os) {
  Expected<std::map<std::string, uint64_t>> folded =
      foldStacks(in, opts.shapes);
  if (!folded)
    return folded.takeError();
  writeFoldedStacks(*folded, opts.format, in, os);
  return Error::success();
}
