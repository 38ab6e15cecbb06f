//===- tpuprof/report/model/Progress.h - A progress bar ---------*- C++ -*-===//
//
// What loading and the record views draw on stderr while they read big
// inputs, so that a person watching sees the tool is working. Callers pass
// whether stderr is a terminal; nothing is drawn otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_MODEL_PROGRESS_H
#define TPUPROF_REPORT_MODEL_PROGRESS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace tpuprof {
namespace report {

/// A progress bar on stderr, drawn only when enabled (stderr is a tty).
class Progress {
public:
  Progress(bool enabled, llvm::StringRef what, uint64_t total);
  ~Progress();
  void advance(uint64_t n);

private:
  void draw();
  bool enabled;
  std::string what;
  uint64_t total, done = 0, lastDrawn = 0;
};

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_MODEL_PROGRESS_H
