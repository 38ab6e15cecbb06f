//===- test/fuzz/JsonImportFuzzer.cpp - libFuzzer: JSON imports -*- C++ -*-===//
//
// The JSON files tpuprof-report reads besides dumps: an exported profile
// (`export --format json`, read back by `diff`/`table` as input), a
// roofline machine file (`table --machine`) and a Chrome trace to merge
// (`trace --trace-file`, with a fixed seed dump). They take a path, so the
// input goes through a scratch file (in /dev/shm when there is one). Built
// once per importer with TPUPROF_FUZZ_IMPORTER set to 0 (profile), 1
// (roofline) or 2 (trace).
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/model/Load.h"
#include "tpuprof/report/views/Roofline.h"
#include "tpuprof/report/views/Trace.h"

#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace {

std::string scratchPath() {
  std::string dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
  return dir + "/tpuprof-fuzz-" + std::to_string(getpid()) + ".json";
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const std::string path = scratchPath();
  FILE *f = std::fopen(path.c_str(), "wb");
  if (!f)
    return 0;
  std::fwrite(data, 1, size, f);
  std::fclose(f);
#if TPUPROF_FUZZ_IMPORTER == 0
  auto r = tpuprof::report::readProfileJson(path);
  if (!r)
    llvm::consumeError(r.takeError());
#elif TPUPROF_FUZZ_IMPORTER == 1
  auto r = tpuprof::report::readRoofline(path);
  if (!r)
    llvm::consumeError(r.takeError());
#else
  tpuprof::report::TraceOptions opts;
  opts.externalTrace = path;
  // The seed dump is loaded once; each input is only the trace to merge.
  static const tpuprof::report::Input input = [] {
    tpuprof::report::LoadOptions load;
    load.rows = false;
    auto in = tpuprof::report::loadInput({TPUPROF_FUZZ_DUMP}, load);
    if (!in) {
      llvm::errs() << llvm::toString(in.takeError()) << '\n';
      std::abort();
    }
    return std::move(*in);
  }();
  llvm::Error err = tpuprof::report::writeTrace(input, opts, llvm::nulls());
  llvm::consumeError(std::move(err));
#endif
  return 0;
}
