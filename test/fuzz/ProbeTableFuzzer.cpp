//===- test/fuzz/ProbeTableFuzzer.cpp - libFuzzer: probe tables -*- C++ -*-===//
//
// The probe-table parser the dump reader runs on every MODULE section,
// fed directly so the fuzzer spends its time inside the table format.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/read/Dump.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  llvm::Expected<tpuprof::report::ProbeTable> t =
      tpuprof::report::parseProbeTable(bytes, "fuzz");
  if (!t) {
    llvm::consumeError(t.takeError());
    return 0;
  }
  // Touch every string: they must lie inside the table.
  size_t sum = t->moduleName.size();
  for (const tpuprof::report::Probe &p : t->probes)
    sum +=
        p.name.size() + p.shapes.size() + p.location.size() + p.function.size();
  return sum == SIZE_MAX;
}
