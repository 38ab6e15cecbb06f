//===- report/model/CounterWords.cpp - Decode counter words ---------------===//
//
// Part of tpuprof's report library: see CounterWords.h.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/model/CounterWords.h"
#include "tpuprof/report/model/EventNames.h"

#include "tpuprof/format.h"

#include <algorithm>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

CounterWords::CounterWords(ArrayRef<std::string> events) {
  for (unsigned i = 0; i != events.size(); ++i) {
    StringRef name = events[i];
    pseudo.push_back(isPseudoEvent(name));
    if (name == TPUPROF_EVENT_TIME_ENABLED)
      enabled = int(i);
    else if (name == TPUPROF_EVENT_TIME_RUNNING)
      running = int(i);
    else if (name == TPUPROF_EVENT_CPU)
      cpu = int(i);
  }
}

CounterValue CounterWords::value(const RecordView &r, unsigned word) const {
  CounterValue v;
  v.value = r.counter(word);
  if (!isEvent(word) || enabled < 0 || running < 0 ||
      unsigned(std::max(enabled, running)) >= r.numCounters)
    return v;
  uint64_t enabledNs = r.counter(unsigned(enabled));
  uint64_t runningNs = r.counter(unsigned(running));
  if (runningNs >= enabledNs)
    return v;
  if (runningNs == 0) {
    v.value = 0;
    v.counted = false;
    return v;
  }
  v.value =
      uint64_t(double(v.value) * double(enabledNs) / double(runningNs) + 0.5);
  v.scaled = true;
  return v;
}
