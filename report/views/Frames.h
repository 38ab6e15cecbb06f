//===- report/views/Frames.h - Names of call-view frames --------*- C++ -*-===//
//
// What the call views (stacks, graph) call a record, a thread and a run, so
// that a flame graph and a call graph of the same dumps name things alike.
// Internal to views/.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_VIEWS_FRAMES_H
#define TPUPROF_REPORT_VIEWS_FRAMES_H

#include "tpuprof/report/model/Load.h"
#include "tpuprof/report/model/Walk.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"

#include <string>

namespace tpuprof {
namespace report {
namespace detail {

/// A record's frame: its op name, with its actual shapes when `shapes`.
/// Folded stacks separate frames with ';' and lines with '\n', so neither
/// (nor '\r') appears in a name.
inline std::string frameName(const WalkFrame &f, bool shapes) {
  std::string s;
  if (!f.probe) {
    s = ("<unknown probe " + llvm::Twine(f.record.probe) + ">").str();
  } else {
    s = f.probe->name.str();
    if (shapes && !f.probe->shapes.empty()) {
      llvm::SmallVector<int64_t, 8> dims;
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

/// Frame ids of records, cached by probe and, where the frame carries
/// shapes, the record's dims: naming every record showed in the call views'
/// time. Probes belong to their dump: one cache per dump.
class FrameCache {
public:
  /// The id of `f`'s frame; `make(name)` gives the id of a name not seen.
  template <typename Make>
  size_t id(const WalkFrame &f, bool shapes, Make make) {
    key.clear();
    append(f.probe ? reinterpret_cast<uintptr_t>(f.probe)
                   : (uint64_t(f.record.probe) << 1) | 1);
    if (shapes && f.probe && !f.probe->shapes.empty())
      for (unsigned i = 0; i != f.record.numDims; ++i)
        append(uint64_t(f.record.dim(i)));
    auto [it, inserted] = ids.try_emplace(key, 0);
    if (inserted)
      it->second = make(frameName(f, shapes));
    return it->second;
  }

private:
  void append(uint64_t v) {
    key.append(reinterpret_cast<const char *>(&v), sizeof v);
  }
  std::string key;
  llvm::StringMap<size_t> ids;
};

/// The root frame of a run: "run 1 (pid 4242)".
inline std::string runFrame(const Profile &p, uint32_t run) {
  std::string s = "run " + std::to_string(run + 1);
  if (run < p.runs.size())
    s += " (pid " + std::to_string(p.runs[run].pid) + ")";
  return s;
}

/// The frame of a thread under its run: "dev 0, tid 123".
inline std::string threadFrame(uint32_t device, uint64_t tid) {
  return "dev " + std::to_string(device) + ", tid " + std::to_string(tid);
}

} // namespace detail
} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_VIEWS_FRAMES_H
