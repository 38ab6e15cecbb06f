//===- report/model/EventNames.cpp - What a counter word counts -----------===//
//
// libpfm4 accepts an event under several spellings; the derived columns
// and the overhead correction need to know which event a name counts.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/model/EventNames.h"

#include <string>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

bool tpuprof::report::isPseudoEvent(StringRef name) {
  return name.starts_with("tpuprof::");
}

std::string tpuprof::report::canonicalEvent(StringRef name) {
  // "pmu::EVENT:mod:mod" -> "EVENT"; "EVENT:u" -> "EVENT".
  size_t pmu = name.find("::");
  if (pmu != StringRef::npos)
    name = name.drop_front(pmu + 2);
  name = name.take_until([](char c) { return c == ':'; });
  std::string n = name.upper();
  for (char &c : n)
    if (c == '_')
      c = '-';
  if (n == "CYCLES" || n == "CPU-CYCLES" || n == "PERF-COUNT-HW-CPU-CYCLES")
    return "cycles";
  if (n == "INSTRUCTIONS" || n == "PERF-COUNT-HW-INSTRUCTIONS")
    return "instructions";
  if (n == "CACHE-MISSES" || n == "PERF-COUNT-HW-CACHE-MISSES")
    return "cache-misses";
  if (n == "BRANCH-MISSES" || n == "PERF-COUNT-HW-BRANCH-MISSES")
    return "branch-misses";
  if (n == "TASK-CLOCK" || n == "PERF-COUNT-SW-TASK-CLOCK")
    return "task-clock";
  return "";
}
