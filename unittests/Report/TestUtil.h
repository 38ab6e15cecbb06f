//===- TestUtil.h - Shared fixtures of ReportTests ------------ -*- C++ -*-===//
//
// A small valid dump used across the test files, and assertion helpers.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_TEST_REPORT_TESTUTIL_H
#define TPUPROF_TEST_REPORT_TESTUTIL_H

#include "DumpBuilder.h"

#include "tpuprof/report/model/Load.h"
#include "tpuprof/report/read/Dump.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <memory>
#include <string>

namespace tpuprof {
namespace test {

/// A file holding `bytes` (a dump image, a JSON export, ...) that is removed
/// when the test ends.
struct TempFile {
  llvm::SmallString<128> path;
  std::unique_ptr<llvm::FileRemover> remover;
  explicit TempFile(const std::string &bytes, llvm::StringRef suffix = "dump") {
    EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("tpuprof", suffix, path));
    remover = std::make_unique<llvm::FileRemover>(path);
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    os << bytes;
  }
  std::string str() const { return path.str().str(); }
};

/// `haystack` contains `needle`, with both shown on failure.
inline ::testing::AssertionResult contains(const std::string &haystack,
                                           const std::string &needle) {
  if (haystack.find(needle) != std::string::npos)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "'" << haystack << "' does not contain '" << needle << "'";
}

/// The error message reading `image` gives; fails the test if it reads.
inline std::string readError(const std::string &image) {
  llvm::Expected<report::DumpReader> r =
      report::DumpReader::fromBytes(image, "t.dump");
  if (r) {
    ADD_FAILURE() << "corrupt dump was accepted";
    return "";
  }
  return llvm::toString(r.takeError());
}

/// The row of `p` named `name` (the first); fails the test when there is
/// none.
inline const report::Row &row(const report::Profile &p, llvm::StringRef name) {
  for (const report::Row &r : p.rows)
    if (r.name == name)
      return r;
  ADD_FAILURE() << "no row " << name.str();
  static report::Row none;
  return none;
}

/// The views' input for `paths` (dumps, directories, JSON exports); fails
/// the test when they do not load.
inline report::Input input(const std::vector<std::string> &paths,
                           bool rows = true, bool overheadCorrection = true) {
  report::LoadOptions opts;
  opts.rows = rows;
  opts.overheadCorrection = overheadCorrection;
  llvm::Expected<report::Input> in = report::loadInput(paths, opts);
  if (!in) {
    ADD_FAILURE() << llvm::toString(in.takeError());
    return report::Input();
  }
  return std::move(*in);
}

inline ProbeInfo probe(std::string name, std::string shapes,
                       std::string location, uint64_t hash,
                       uint8_t numDynDims = 0) {
  ProbeInfo p;
  p.name = std::move(name);
  p.shapes = std::move(shapes);
  p.location = std::move(location);
  p.function = "main";
  p.hash = hash;
  p.numDynDims = numDynDims;
  return p;
}

/// Two modules (probe ids 0-1 and 2), two events, two threads: a nested
/// pair with a dynamic dimension and counters, and an unfinished record.
inline DumpBuilder sampleDump() {
  DumpBuilder b;
  b.header.mode = 1;
  b.header.device = 3;
  b.header.call_num = 5;
  b.header.dropped = 1;
  ProbeInfo fc = probe("tosa.fully_connected", "f32[?, 784], f32[128, 784]",
                       "mlp.mlir:4:8", 0x1a2b3c4d5e6f7081ull, 1);
  fc.flops = 100;
  fc.bytes = 200;
  b.addModule(0, 0, "mlp",
              {fc, probe("tosa.relu", "f32[1, 128]", "mlp.mlir:5:8", 0x22)});
  ProbeInfo launch = probe("cudaLaunchKernel", "", "", 0x33);
  launch.kind = TPUPROF_KIND_LAUNCH;
  launch.function = "kernel_wrapper";
  b.addModule(1, 2, "kernels", {launch});
  b.events = std::vector<std::string>{"perf::TASK-CLOCK", "perf::PAGE-FAULTS"};
  TestThread t1;
  t1.tid = 7;
  t1.dropped = 1;
  t1.records = {
      {0, 0, ticksAt(100), ticksAt(300), {4}, {10, 1}},
      {2, 1, ticksAt(150), ticksAt(250), {}, {5, 0}},
      {1, 0, ticksAt(400), ticksAt(450), {}, {2, 0}},
  };
  TestThread t2;
  t2.tid = 8;
  t2.records = {{1, 0, ticksAt(500), 0, {}, {0, 0}}};
  b.threads = {t1, t2};
  return b;
}

} // namespace test
} // namespace tpuprof

#endif // TPUPROF_TEST_REPORT_TESTUTIL_H
