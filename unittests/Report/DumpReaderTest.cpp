//===- unittests/Report/DumpReaderTest.cpp - Dump reader tests ------------===//
//
// Round trip of every field, one test per class of corruption (each with its
// own message and offset), and exhaustive truncation/mutation sweeps that
// must produce errors, never crashes (run them under ASan/UBSan).
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tpuprof/report/read/Dump.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cstddef>
#include <cstring>
#include <random>

#include <sys/stat.h>
#include <unistd.h>

using namespace tpuprof;
using namespace tpuprof::report;
using namespace tpuprof::test;

namespace {

constexpr uint64_t kHdr = sizeof(tpuprof_dump_header);
constexpr uint64_t kSec = sizeof(tpuprof_section_header);

//===----------------------------------------------------------------------===//
// Round trip
//===----------------------------------------------------------------------===//

TEST(DumpReader, RoundTripsEveryField) {
  std::string image = sampleDump().build();
  llvm::Expected<Dump> dump = readDumpBuffer(image, "sample.dump");
  ASSERT_TRUE(bool(dump)) << llvm::toString(dump.takeError());

  EXPECT_EQ(dump->path, "sample.dump");
  const DumpInfo &h = dump->info;
  EXPECT_EQ(h.version, TPUPROF_DUMP_VERSION);
  EXPECT_EQ(h.headerSize, kHdr);
  EXPECT_EQ(h.mode, 1u);
  EXPECT_EQ(h.device, 3u);
  EXPECT_EQ(h.pid, 4242u);
  EXPECT_EQ(h.callNum, 5u);
  EXPECT_EQ(h.clockSource, unsigned(TPUPROF_CLOCK_TSC));
  EXPECT_TRUE(h.isComplete());
  EXPECT_EQ(h.calibTicks0, kTick0);
  EXPECT_EQ(h.calibNs0, 5000u);
  EXPECT_EQ(h.calibTicks1, ticksAt(1000000));
  EXPECT_EQ(h.calibNs1, 1005000u);
  EXPECT_EQ(h.windowBegin, ticksAt(0));
  EXPECT_EQ(h.windowEnd, ticksAt(1000));
  EXPECT_EQ(h.dropped, 1u);
  EXPECT_EQ(h.numSections, 5u);
  EXPECT_EQ(h.windowNs(), 1000u);
  EXPECT_DOUBLE_EQ(h.ticksPerNs(), 2.0);

  ASSERT_EQ(dump->modules.size(), 2u);
  const Module &m0 = dump->modules[0];
  EXPECT_EQ(m0.moduleId, 0u);
  EXPECT_EQ(m0.firstProbe, 0u);
  EXPECT_EQ(m0.table.moduleName, "mlp");
  ASSERT_EQ(m0.table.probes.size(), 2u);
  const Probe &fc = m0.table.probes[0];
  EXPECT_EQ(fc.name, "tosa.fully_connected");
  EXPECT_EQ(fc.shapes, "f32[?, 784], f32[128, 784]");
  EXPECT_EQ(fc.location, "mlp.mlir:4:8");
  EXPECT_EQ(fc.function, "main");
  EXPECT_EQ(fc.hash, 0x1a2b3c4d5e6f7081ull);
  EXPECT_EQ(fc.flops, 100u);
  EXPECT_EQ(fc.bytes, 200u);
  EXPECT_EQ(fc.kind, TPUPROF_KIND_OP);
  EXPECT_EQ(fc.numDynDims, 1u);
  EXPECT_EQ(m0.table.probes[1].name, "tosa.relu");
  const Module &m1 = dump->modules[1];
  EXPECT_EQ(m1.moduleId, 1u);
  EXPECT_EQ(m1.firstProbe, 2u);
  EXPECT_EQ(m1.table.moduleName, "kernels");
  ASSERT_EQ(m1.table.probes.size(), 1u);
  EXPECT_EQ(m1.table.probes[0].kind, TPUPROF_KIND_LAUNCH);
  EXPECT_EQ(m1.table.probes[0].function, "kernel_wrapper");
  EXPECT_EQ(m1.table.probes[0].shapes, "");

  ASSERT_EQ(dump->events.size(), 2u);
  EXPECT_EQ(dump->events[0], "perf::TASK-CLOCK");
  EXPECT_EQ(dump->events[1], "perf::PAGE-FAULTS");

  ASSERT_EQ(dump->threads.size(), 2u);
  const Thread &t1 = dump->threads[0];
  EXPECT_EQ(t1.tid, 7u);
  EXPECT_EQ(t1.dropped, 1u);
  ASSERT_EQ(t1.records.size(), 3u);
  const Record &r0 = t1.records[0];
  EXPECT_EQ(r0.probe, 0u);
  EXPECT_EQ(r0.depth, 0u);
  EXPECT_EQ(r0.begin, ticksAt(100));
  EXPECT_EQ(r0.end, ticksAt(300));
  EXPECT_EQ(r0.dims, (llvm::SmallVector<int64_t, 4>{4}));
  EXPECT_EQ(r0.counters, (llvm::SmallVector<uint64_t, 4>{10, 1}));
  EXPECT_EQ(t1.records[1].probe, 2u);
  EXPECT_EQ(t1.records[1].depth, 1u);
  EXPECT_TRUE(t1.records[1].dims.empty());
  const Thread &t2 = dump->threads[1];
  EXPECT_EQ(t2.tid, 8u);
  ASSERT_EQ(t2.records.size(), 1u);
  EXPECT_EQ(t2.records[0].end, 0u);
  EXPECT_EQ(t2.records[0].counters, (llvm::SmallVector<uint64_t, 4>{0, 0}));
}

TEST(DumpReader, FindsProbesByGlobalId) {
  // Modules added out of id order: the reader sorts them.
  DumpBuilder b;
  b.addModule(1, 10, "b", {probe("b0", "", "", 1), probe("b1", "", "", 2)});
  b.addModule(0, 0, "a", {probe("a0", "", "", 3)});
  llvm::Expected<DumpReader> r = DumpReader::fromBytes(b.build());
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  EXPECT_EQ(r->findProbe(0)->name, "a0");
  EXPECT_EQ(r->findProbe(1), nullptr);
  EXPECT_EQ(r->findProbe(9), nullptr);
  EXPECT_EQ(r->findProbe(10)->name, "b0");
  EXPECT_EQ(r->findProbe(11)->name, "b1");
  EXPECT_EQ(r->findProbe(12), nullptr);
  EXPECT_EQ(r->findProbe(UINT32_MAX), nullptr);
}

TEST(DumpReader, StreamsRecordsInPlace) {
  std::string image = sampleDump().build();
  llvm::Expected<DumpReader> r = DumpReader::fromBytes(image);
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  std::vector<uint32_t> probes;
  std::vector<int64_t> dims;
  for (const ThreadInfo &t : r->threads())
    r->forEachRecord(t, [&](const RecordView &v) {
      probes.push_back(v.probe);
      for (unsigned i = 0; i != v.numDims; ++i)
        dims.push_back(v.dim(i));
    });
  EXPECT_EQ(probes, (std::vector<uint32_t>{0, 2, 1, 1}));
  EXPECT_EQ(dims, (std::vector<int64_t>{4}));
}

TEST(DumpReader, ReadsFilesAndReportsMissingOnes) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("tpuprof", "dump", path));
  llvm::FileRemover remover(path);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << sampleDump().build();
  }
  llvm::Expected<Dump> dump = readDump(path);
  ASSERT_TRUE(bool(dump)) << llvm::toString(dump.takeError());
  EXPECT_EQ(dump->path, path.str().str());
  EXPECT_EQ(dump->threads.size(), 2u);

  llvm::Expected<Dump> missing = readDump("/nonexistent/tpuprof_data_dev0-0");
  ASSERT_FALSE(bool(missing));
  EXPECT_EQ(llvm::toString(missing.takeError()),
            "/nonexistent/tpuprof_data_dev0-0: cannot open: No such file or "
            "directory");
}

TEST(DumpReader, SurvivesAFileThatShrinksWhileOpen) {
  // Large enough that a memory-mapping reader would map it; another
  // process cutting the file then made every access a SIGBUS.
  DumpBuilder b = sampleDump();
  TestThread big;
  big.tid = 99;
  for (uint64_t i = 0; i != 4096; ++i)
    big.records.push_back(
        {1, 0, ticksAt(i % 900), ticksAt(i % 900 + 1), {}, {1, 0}});
  b.threads.push_back(big);
  std::string image = b.build();
  ASSERT_GT(image.size(), 64u * 1024);
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("tpuprof", "dump", path));
  llvm::FileRemover remover(path);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec);
    os << image;
  }
  EXPECT_EXIT(
      {
        llvm::Expected<DumpReader> r = DumpReader::open(path);
        if (!r)
          std::_Exit(2);
        if (::truncate(path.c_str(), 0) != 0)
          std::_Exit(3);
        uint64_t records = 0;
        for (const ThreadInfo &t : r->threads())
          r->forEachRecord(t, [&](const RecordView &) { ++records; });
        std::_Exit(records == 4096 + 4 ? 0 : 4);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(DumpReader, RefusesWhatIsNotARegularFile) {
  llvm::Expected<DumpReader> dev = DumpReader::open("/dev/zero");
  ASSERT_FALSE(bool(dev));
  EXPECT_EQ(llvm::toString(dev.takeError()),
            "/dev/zero: not a regular file (a character device)");
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tpuprof", dir));
  std::string fifo = (dir + "/tpuprof_data_dev0-1").str();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // No writer: a blocking open would never return.
  llvm::Expected<DumpReader> pipe = DumpReader::open(fifo);
  ASSERT_FALSE(bool(pipe));
  EXPECT_EQ(llvm::toString(pipe.takeError()),
            fifo + ": not a regular file (a FIFO)");
  // llvm::sys::fs::remove leaves what is not a file, link or directory.
  ::unlink(fifo.c_str());
  llvm::sys::fs::remove(dir);
}

TEST(DumpReader, AcceptsLargerHeaderAndEmptyDump) {
  DumpBuilder b;
  b.header.header_size = kHdr + 16; // A newer writer's extension.
  llvm::Expected<Dump> dump = readDumpBuffer(b.build());
  ASSERT_TRUE(bool(dump)) << llvm::toString(dump.takeError());
  EXPECT_EQ(dump->info.headerSize, kHdr + 16);
  EXPECT_TRUE(dump->modules.empty());
  EXPECT_TRUE(dump->threads.empty());
}

//===----------------------------------------------------------------------===//
// Header corruption
//===----------------------------------------------------------------------===//

TEST(DumpReaderErrors, BadMagic) {
  std::string image = sampleDump().build();
  image[0] = 'X';
  EXPECT_EQ(readError(image),
            "t.dump: bad magic (not a tpuprof dump) at offset 0");
  EXPECT_EQ(readError(""),
            "t.dump: bad magic (not a tpuprof dump) at offset 0");
  EXPECT_EQ(readError("hello, world\n"),
            "t.dump: bad magic (not a tpuprof dump) at offset 0");
}

TEST(DumpReaderErrors, TruncatedHeader) {
  std::string image = sampleDump().build().substr(0, 50);
  EXPECT_EQ(readError(image),
            "t.dump: truncated dump header (50 of 104 bytes) at offset 0");
}

TEST(DumpReaderErrors, UnsupportedVersion) {
  DumpBuilder b;
  b.header.version = 7;
  EXPECT_EQ(readError(b.build()),
            "t.dump: unsupported dump version 7 (this reader supports 1 to 6) "
            "at offset 8");
}

TEST(DumpReaderErrors, HeaderSizeTooSmall) {
  std::string image = DumpBuilder().build();
  patch<uint32_t>(image, offsetof(tpuprof_dump_header, header_size), 64);
  EXPECT_EQ(readError(image), "t.dump: header size 64 is smaller than the "
                              "104-byte header at offset 12");
}

TEST(DumpReaderErrors, HeaderSizeMisaligned) {
  std::string image = DumpBuilder().build();
  patch<uint32_t>(image, offsetof(tpuprof_dump_header, header_size), 108);
  EXPECT_TRUE(contains(readError(image),
                       "header size 108 is not a multiple of 8 at offset 12"));
}

TEST(DumpReaderErrors, HeaderSizePastEnd) {
  std::string image = DumpBuilder().build();
  patch<uint32_t>(image, offsetof(tpuprof_dump_header, header_size), 4096);
  EXPECT_TRUE(contains(readError(image), "header size 4096 runs past the end "
                                         "of the file (104 bytes) at offset "
                                         "12"));
}

TEST(DumpReaderErrors, UnknownModeAndClock) {
  DumpBuilder b;
  b.header.mode = 3;
  EXPECT_TRUE(contains(readError(b.build()), "unknown mode 3"));
  b = DumpBuilder();
  b.header.clock_source = 9;
  EXPECT_TRUE(
      contains(readError(b.build()), "unknown clock source 9 at offset 32"));
}

TEST(DumpReaderErrors, Calibration) {
  DumpBuilder b;
  b.header.calib_ticks1 = b.header.calib_ticks0;
  EXPECT_EQ(readError(b.build()),
            "t.dump: clock calibration has a zero tick delta at offset 40");
  b = DumpBuilder();
  b.header.calib_ticks1 = b.header.calib_ticks0 - 1;
  EXPECT_TRUE(
      contains(readError(b.build()), "ticks go backwards at offset 40"));
  b = DumpBuilder();
  b.header.calib_ns1 = b.header.calib_ns0;
  EXPECT_TRUE(contains(readError(b.build()),
                       "non-positive nanosecond delta at offset 48"));
}

TEST(DumpReader, MonotonicTicksAreNanoseconds) {
  // No calibration needed: the pairs may even be equal.
  DumpBuilder b;
  b.header.clock_source = TPUPROF_CLOCK_MONOTONIC;
  b.header.calib_ticks0 = b.header.calib_ns0 = 500;
  b.header.calib_ticks1 = b.header.calib_ns1 = 500;
  b.header.window_begin = 1000;
  b.header.window_end = 4000;
  llvm::Expected<Dump> dump = readDumpBuffer(b.build());
  ASSERT_TRUE(bool(dump)) << llvm::toString(dump.takeError());
  EXPECT_EQ(dump->info.windowNs(), 3000u);
  EXPECT_EQ(dump->info.ticksToNs(1234), 1234u);
  EXPECT_DOUBLE_EQ(dump->info.ticksPerNs(), 1.0);
}

TEST(DumpReaderErrors, WindowBackwards) {
  DumpBuilder b;
  b.header.window_end = b.header.window_begin - 1;
  EXPECT_TRUE(contains(readError(b.build()),
                       "profiling window ends before it begins at offset 72"));
}

//===----------------------------------------------------------------------===//
// Section framing
//===----------------------------------------------------------------------===//

TEST(DumpReaderErrors, TruncatedSectionHeader) {
  std::string image = DumpBuilder().build() + std::string(8, '\0');
  patch<uint32_t>(image, offsetof(tpuprof_dump_header, num_sections), 1);
  EXPECT_EQ(readError(image), "t.dump: truncated header of section 0 (8 of 16 "
                              "bytes) at offset 104");
}

TEST(DumpReaderErrors, MissingSections) {
  std::string image = sampleDump().build();
  patch<uint32_t>(image, offsetof(tpuprof_dump_header, num_sections), 6);
  EXPECT_TRUE(contains(readError(image),
                       "truncated header of section 5 (0 of 16 bytes)"));
}

TEST(DumpReaderErrors, SectionSizeMisaligned) {
  std::vector<uint64_t> secs;
  std::string image = sampleDump().build(&secs);
  patch<uint64_t>(image, secs[0] + 8, 41);
  EXPECT_EQ(readError(image),
            "t.dump: section 0 size 41 is not a multiple of 8 at offset " +
                std::to_string(secs[0] + 8));
}

TEST(DumpReaderErrors, SectionSizePastEnd) {
  std::vector<uint64_t> secs;
  std::string image = sampleDump().build(&secs);
  patch<uint64_t>(image, secs.back() + 8, uint64_t(1) << 60);
  EXPECT_TRUE(contains(readError(image), "section 4 size 1152921504606846976 "
                                         "runs past the end of the file"));
}

TEST(DumpReaderErrors, UnknownSectionKind) {
  std::vector<uint64_t> secs;
  std::string image = sampleDump().build(&secs);
  patch<uint32_t>(image, secs[2], 99);
  EXPECT_EQ(readError(image),
            "t.dump: unknown kind 99 of section 2 at offset " +
                std::to_string(secs[2]));
}

TEST(DumpReaderErrors, TrailingBytes) {
  std::string image = sampleDump().build() + std::string(8, '\0');
  EXPECT_TRUE(contains(readError(image),
                       "8 trailing bytes after the last of 5 sections at "
                       "offset " +
                           std::to_string(image.size() - 8)));
}

//===----------------------------------------------------------------------===//
// MODULE sections and probe tables
//===----------------------------------------------------------------------===//

/// File offset of module 0's probe table in an image built with `secs`.
uint64_t tableOffset(const std::vector<uint64_t> &secs) {
  return secs[0] + kSec + sizeof(tpuprof_module_section);
}

TEST(DumpReaderErrors, ModuleSectionTooSmall) {
  std::vector<uint64_t> secs;
  DumpBuilder b;
  b.modules.push_back({0, 0, ""});
  std::string image = b.build(&secs);
  // Shrink the 16-byte module header's section to 8 bytes and drop the rest.
  patch<uint64_t>(image, secs[0] + 8, 8);
  image.resize(secs[0] + kSec + 8);
  EXPECT_TRUE(contains(readError(image), "MODULE section 0 is too small (8 "
                                         "bytes) for its header"));
}

TEST(DumpReaderErrors, ProbeTableSizeExceedsSection) {
  std::vector<uint64_t> secs;
  std::string image = sampleDump().build(&secs);
  patch<uint64_t>(image, secs[0] + kSec + 8, 100000);
  EXPECT_TRUE(contains(readError(image),
                       "probe table size 100000 of module 0 exceeds its "
                       "section"));
}

TEST(DumpReaderErrors, ProbeTableSizeLeavesUnusedBytes) {
  std::vector<uint64_t> secs;
  std::string image = sampleDump().build(&secs);
  uint64_t field =
      secs[0] + kSec + offsetof(tpuprof_module_section, table_size);
  uint64_t tableSize;
  std::memcpy(&tableSize, &image[field], 8);
  patch<uint64_t>(image, field, tableSize - 8);
  EXPECT_EQ(readError(image),
            "t.dump: probe table size " + std::to_string(tableSize - 8) +
                " of module 0 leaves 8 unused bytes in its section (padding "
                "is under 8) at offset " +
                std::to_string(field));
}

TEST(DumpReaderErrors, ProbeTableBadMagic) {
  std::vector<uint64_t> secs;
  std::string image = sampleDump().build(&secs);
  image[tableOffset(secs)] = 'X';
  EXPECT_EQ(readError(image),
            "t.dump: bad probe table magic (expected \"TPPT\") at offset " +
                std::to_string(tableOffset(secs)));
}

TEST(DumpReaderErrors, ProbeTableVersion) {
  std::vector<uint64_t> secs;
  std::string image = sampleDump().build(&secs);
  patch<uint32_t>(image, tableOffset(secs) + 4, 2);
  EXPECT_TRUE(contains(readError(image), "unsupported probe table version 2"));
}

TEST(DumpReaderErrors, ProbeTableTruncatedHeader) {
  DumpBuilder b;
  b.modules.push_back({0, 0, "TPPT"});
  EXPECT_TRUE(contains(readError(b.build()),
                       "truncated probe table header (4 of 24 bytes)"));
}

TEST(DumpReaderErrors, ProbeTableTooManyProbes) {
  std::vector<uint64_t> secs;
  std::string image = sampleDump().build(&secs);
  patch<uint32_t>(image, tableOffset(secs) + 8, 0xffffffffu);
  EXPECT_TRUE(
      contains(readError(image), "probe table with 4294967295 probes and a"));
}

TEST(DumpReaderErrors, ProbeStringOffsetOutOfRange) {
  std::vector<uint64_t> secs;
  std::string image = sampleDump().build(&secs);
  uint64_t desc1 = tableOffset(secs) + sizeof(tpuprof_table_header) +
                   sizeof(tpuprof_probe_desc);
  patch<uint32_t>(image, desc1 + offsetof(tpuprof_probe_desc, location),
                  1000000);
  EXPECT_EQ(readError(image),
            "t.dump: probe 1 location string offset 1000000 is outside the "
            "112-byte string table at offset " +
                std::to_string(desc1 + offsetof(tpuprof_probe_desc, location)));
}

TEST(DumpReaderErrors, ModuleNameOffsetOutOfRange) {
  std::vector<uint64_t> secs;
  std::string image = sampleDump().build(&secs);
  patch<uint32_t>(
      image, tableOffset(secs) + offsetof(tpuprof_table_header, module_name),
      4096);
  EXPECT_TRUE(contains(readError(image), "module name string offset 4096 is "
                                         "outside"));
}

TEST(DumpReaderErrors, ProbeStringNotTerminated) {
  // strtab: "m\0op\0\0main\0" (module, name, shapes = location = "",
  // function), padded to 16.
  DumpBuilder b;
  b.addModule(0, 0, "m", {probe("op", "", "", 1)});
  std::vector<uint64_t> secs;
  std::string image = b.build(&secs);
  // Cut the string table to end inside "main", before its NUL.
  patch<uint32_t>(
      image, tableOffset(secs) + offsetof(tpuprof_table_header, strtab_size),
      8);
  uint64_t strtab = tableOffset(secs) + sizeof(tpuprof_table_header) +
                    sizeof(tpuprof_probe_desc);
  EXPECT_EQ(readError(image),
            "t.dump: probe 0 function string is not NUL-terminated at "
            "offset " +
                std::to_string(strtab + 6));
}

TEST(DumpReader, ReadsTheNodeAfterTheLocation) {
  // TPUPROF_PROBE_NODE: the node is the string after the location's; a
  // probe without one, and a reader that ignores the flag, see the location
  // alone.
  DumpBuilder b;
  ProbeInfo withNode = probe("tosa.mul", "f32[4]", "model.py:12:5", 1);
  withNode.node = "encoder/layer0/mul";
  ProbeInfo sameLocation = probe("tosa.add", "f32[4]", "model.py:12:5", 2);
  b.addModule(0, 0, "m", {withNode, sameLocation});
  std::vector<uint64_t> secs;
  std::string image = b.build(&secs);
  llvm::Expected<Dump> dump = readDumpBuffer(image, "t.dump");
  ASSERT_TRUE(bool(dump)) << llvm::toString(dump.takeError());
  const ProbeTable &table = dump->modules[0].table;
  EXPECT_EQ(table.probes[0].location, "model.py:12:5");
  EXPECT_EQ(table.probes[0].node, "encoder/layer0/mul");
  EXPECT_EQ(table.probes[1].location, "model.py:12:5");
  EXPECT_EQ(table.probes[1].node, "");

  // A flagged probe whose location is the table's last string has no node
  // string after it: an error that names the field.
  DumpBuilder last;
  ProbeInfo p = probe("op", "", "", 1);
  p.function = "";
  p.node = "n";
  last.addModule(0, 0, "m", {p});
  std::vector<uint64_t> secs2;
  std::string cut = last.build(&secs2);
  // strtab: "m\0op\0" "\0" (shapes, function) "\0n\0" (location, node),
  // padded; end it after the location.
  patch<uint32_t>(
      cut, tableOffset(secs2) + offsetof(tpuprof_table_header, strtab_size), 7);
  EXPECT_TRUE(contains(readError(cut), "probe 0 node string offset 7 is "
                                       "outside the 7-byte string table"));
}

TEST(DumpReaderErrors, ProbeUnknownKind) {
  std::vector<uint64_t> secs;
  std::string image = sampleDump().build(&secs);
  uint64_t desc0 = tableOffset(secs) + sizeof(tpuprof_table_header);
  image[desc0 + offsetof(tpuprof_probe_desc, kind)] = 7;
  EXPECT_TRUE(contains(readError(image), "probe 0 has unknown kind 7"));
}

TEST(DumpReaderErrors, OverlappingProbeIds) {
  DumpBuilder b;
  b.addModule(0, 0, "a", {probe("a0", "", "", 1), probe("a1", "", "", 2)});
  b.addModule(1, 1, "b", {probe("b0", "", "", 3)});
  EXPECT_TRUE(
      contains(readError(b.build()),
               "probe ids [1, 2) of module 1 overlap module 0's [0, 2)"));
}

TEST(DumpReaderErrors, ProbeIdsOverflow) {
  DumpBuilder b;
  b.addModule(0, UINT32_MAX, "a",
              {probe("a0", "", "", 1), probe("a1", "", "", 2)});
  EXPECT_TRUE(contains(readError(b.build()), "run past the 32-bit id space"));
}

//===----------------------------------------------------------------------===//
// EVENTS sections
//===----------------------------------------------------------------------===//

TEST(DumpReaderErrors, EventNamesMissing) {
  std::vector<uint64_t> secs;
  std::string image = sampleDump().build(&secs);
  // Section 2 is EVENTS; claim more names than it holds.
  patch<uint32_t>(image, secs[2] + kSec, 40);
  EXPECT_TRUE(contains(readError(image),
                       "EVENTS section 2 names 40 events but holds only"));
}

TEST(DumpReaderErrors, SecondEventsSection) {
  std::vector<uint64_t> secs;
  DumpBuilder b;
  b.events = std::vector<std::string>{"a"};
  std::string image = b.build(&secs);
  std::string section = image.substr(secs[0]);
  image += section;
  patch<uint32_t>(image, offsetof(tpuprof_dump_header, num_sections), 2);
  EXPECT_TRUE(contains(readError(image), "second EVENTS section (section 1)"));
}

//===----------------------------------------------------------------------===//
// THREAD sections and records
//===----------------------------------------------------------------------===//

TEST(DumpReaderErrors, StreamSizeDoesNotMatchSection) {
  std::vector<uint64_t> secs;
  std::string image = sampleDump().build(&secs);
  uint64_t field =
      secs[3] + kSec + offsetof(tpuprof_thread_section, stream_size);
  patch<uint64_t>(image, field, 1u << 20);
  EXPECT_EQ(readError(image),
            "t.dump: record stream size 1048576 of thread 7 does not match "
            "its section (128 bytes) at offset " +
                std::to_string(field));
  patch<uint64_t>(image, field, 120);
  EXPECT_TRUE(contains(readError(image), "record stream size 120 of thread 7 "
                                         "does not match its section"));
}

TEST(DumpReaderErrors, RecordTrailingWordsPastStream) {
  std::vector<uint64_t> secs;
  std::string image = sampleDump().build(&secs);
  uint64_t rec0 = secs[3] + kSec + sizeof(tpuprof_thread_section);
  image[rec0 + offsetof(tpuprof_record, num_dims)] = char(200);
  EXPECT_EQ(readError(image),
            "t.dump: record 0 of thread 7's 200 dims and 2 counters run past "
            "the end of the stream at offset " +
                std::to_string(rec0));
}

TEST(DumpReaderErrors, TruncatedRecord) {
  // One 40-byte record (two dims) re-read as a 24-byte record with no dims,
  // leaving 16 bytes for a second record.
  DumpBuilder b;
  TestThread t;
  t.records = {{0, 0, ticksAt(1), ticksAt(2), {1, 2}, {}}};
  b.threads = {t};
  std::vector<uint64_t> secs;
  std::string image = b.build(&secs);
  uint64_t ts = secs[0] + kSec;
  uint64_t rec0 = ts + sizeof(tpuprof_thread_section);
  image[rec0 + offsetof(tpuprof_record, num_dims)] = 0;
  patch<uint64_t>(image, ts + offsetof(tpuprof_thread_section, num_records), 2);
  EXPECT_EQ(readError(image), "t.dump: record 1 of thread 1 is truncated (16 "
                              "of 24 bytes) at offset " +
                                  std::to_string(rec0 + 24));
}

TEST(DumpReaderErrors, FewerRecordsThanDeclared) {
  std::vector<uint64_t> secs;
  std::string image = sampleDump().build(&secs);
  patch<uint64_t>(
      image, secs[3] + kSec + offsetof(tpuprof_thread_section, num_records), 4);
  EXPECT_TRUE(contains(readError(image), "record stream of thread 7 ends "
                                         "after 3 of 4 records"));
}

TEST(DumpReaderErrors, MoreRecordsThanDeclared) {
  std::vector<uint64_t> secs;
  std::string image = sampleDump().build(&secs);
  patch<uint64_t>(
      image, secs[3] + kSec + offsetof(tpuprof_thread_section, num_records), 2);
  EXPECT_TRUE(contains(readError(image), "record stream of thread 7 has 40 "
                                         "bytes after its 2 records"));
}

TEST(DumpReaderErrors, CounterCountMismatch) {
  DumpBuilder b = sampleDump();
  b.events = std::vector<std::string>{"only-one"};
  EXPECT_TRUE(contains(readError(b.build()), "record 0 of thread 7 has 2 "
                                             "counters but the dump names 1 "
                                             "events"));
}

TEST(DumpReaderErrors, CountersMissingWhileEventsNamed) {
  DumpBuilder b = sampleDump();
  b.threads[1].records[0].counters.clear();
  EXPECT_TRUE(contains(readError(b.build()), "record 0 of thread 8 has 0 "
                                             "counters but the dump names 2 "
                                             "events"));
}

TEST(DumpReaderErrors, HeaderDroppedBelowThreads) {
  DumpBuilder b = sampleDump();
  b.header.dropped = 0; // Thread 7 dropped 1.
  EXPECT_EQ(readError(b.build()), "t.dump: header counts 0 dropped records "
                                  "but its threads 1 at offset 88");
}

// A clock that stepped back between a record's two reads costs that record
// its length, not the dump.
TEST(DumpReader, RecordEndingBeforeItBeginsIsCountedAndReadAsZeroLong) {
  DumpBuilder b = sampleDump();
  uint64_t begin = b.threads[0].records[2].begin;
  b.threads[0].records[2].end = begin - 1;
  std::string image = b.build();
  llvm::Expected<DumpReader> r = DumpReader::fromBytes(image);
  ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
  EXPECT_EQ(r->info().backwards, 1u);
  std::vector<std::pair<uint64_t, uint64_t>> spans;
  r->forEachRecord(r->threads()[0], [&](const RecordView &v) {
    spans.push_back({v.begin, v.end});
  });
  ASSERT_GE(spans.size(), 3u);
  EXPECT_EQ(spans[2], std::make_pair(begin, begin));
}

//===----------------------------------------------------------------------===//
// Sweeps: no input may crash, hang or be accepted when cut short
//===----------------------------------------------------------------------===//

TEST(DumpReaderSweep, EveryTruncationIsAnError) {
  std::string image = sampleDump().build();
  for (size_t len = 0; len < image.size(); ++len) {
    llvm::Expected<DumpReader> r =
        DumpReader::fromBytes(llvm::StringRef(image).take_front(len), "t");
    ASSERT_FALSE(bool(r)) << "truncation to " << len << " bytes was accepted";
    std::string msg = llvm::toString(r.takeError());
    EXPECT_EQ(msg.rfind("t: ", 0), 0u) << msg;
    EXPECT_TRUE(contains(msg, " at offset ")) << "length " << len;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
}

TEST(DumpReaderSweep, ByteMutationsNeverCrash) {
  // Every byte set to a few interesting values, then random multi-byte
  // mutations: the reader may accept or reject, but must not crash, and any
  // accepted dump must be fully visitable.
  std::string image = sampleDump().build();
  auto tryRead = [](const std::string &bytes) {
    llvm::Expected<Dump> d = readDumpBuffer(bytes, "m");
    if (!d)
      llvm::consumeError(d.takeError());
  };
  for (size_t i = 0; i < image.size(); ++i)
    for (unsigned char v : {0x00, 0x01, 0x7f, 0x80, 0xff}) {
      std::string m = image;
      m[i] = char(v);
      tryRead(m);
    }
  std::mt19937 rng(12345);
  for (int iter = 0; iter < 3000; ++iter) {
    std::string m = image;
    int n = 1 + rng() % 4;
    for (int k = 0; k < n; ++k)
      m[rng() % m.size()] = char(rng());
    tryRead(m);
  }
}

} // namespace
