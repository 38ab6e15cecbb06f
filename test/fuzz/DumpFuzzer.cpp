//===- test/fuzz/DumpFuzzer.cpp - libFuzzer target for the reader ---------===//
//
// Feeds arbitrary bytes through the whole report path: validate, aggregate,
// print. Any crash, hang, sanitizer report or huge allocation is a bug.
// Built with -DTPUPROF_BUILD_FUZZERS=ON (clang only); run as
//   bin/tpuprof-dump-fuzzer -max_len=4096 -rss_limit_mb=512 CORPUS_DIR
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/model/Aggregate.h"
#include "tpuprof/report/read/Dump.h"
#include "tpuprof/report/views/Table.h"

#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>

using namespace tpuprof::report;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  llvm::Expected<DumpReader> reader = DumpReader::fromBytes(bytes, "fuzz");
  if (!reader) {
    llvm::consumeError(reader.takeError());
    return 0;
  }
  Aggregator agg;
  agg.add(*reader);
  llvm::Error err = printTable(agg.profile(), TableOptions(), llvm::nulls());
  llvm::consumeError(std::move(err));
  return 0;
}
