//===- report/model/Progress.cpp - A progress bar on stderr ---------------===//

#include "tpuprof/report/model/Progress.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace llvm;
using namespace tpuprof::report;

Progress::Progress(bool enabled, StringRef what, uint64_t total)
    : enabled(enabled && total), what(what.str()), total(total) {}

Progress::~Progress() {
  if (enabled && lastDrawn)
    errs() << "\r\x1b[K";
}

void Progress::advance(uint64_t n) {
  done += n;
  if (enabled)
    draw();
}

void Progress::draw() {
  constexpr unsigned kWidth = 30;
  unsigned pct = unsigned(std::min<uint64_t>(100, done * 100 / total));
  if (lastDrawn && pct + 1 == lastDrawn)
    return; // Unchanged.
  lastDrawn = pct + 1;
  unsigned filled = pct * kWidth / 100;
  errs() << "\rtpuprof-report: " << what << " [" << std::string(filled, '#')
         << std::string(kWidth - filled, ' ') << "] " << pct << "%";
  errs().flush();
}
