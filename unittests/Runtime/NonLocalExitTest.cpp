//===- NonLocalExitTest.cpp - longjmp, exceptions, cancel -----------------===//
//
// Probes left without their ends by a non-local exit close as unfinished
// (end 0, counted as unwound) when the next begin shows their frame is
// gone: the stack never leaks, later probes record at the right depth, and
// the next window starts clean. Shapes that only look alike (recursion,
// several probes in one frame, a user range ended in another function)
// close nothing. docs/runtime.md, "Non-local exits".
//
//===----------------------------------------------------------------------===//

#include "DumpParser.h"
#include "OutputDirTest.h"
#include "tpuprof/tpuprof.h"

#include <gtest/gtest.h>

#include <atomic>
#include <pthread.h>
#include <unistd.h>

extern "C" {
void tp_jump_out(unsigned n, uint32_t p, uint32_t q, int sig);
void tp_jump_within(unsigned n, uint32_t p, uint32_t q);
void tp_recurse(unsigned depth, uint32_t p);
void tp_one_frame(uint32_t a, uint32_t b, uint32_t c);
void tp_range_start(const char *name);
void tp_range_middle(uint32_t p);
void tp_range_stop(void);
void tp_deep_jump(unsigned times, unsigned depth, uint32_t p);
}

using namespace tpuprof_test;
using NonLocalExit = tpuprof::test::OutputDirTest;

namespace {

void pairs(uint32_t id, unsigned n) {
  for (unsigned i = 0; i < n; ++i) {
    __tpuprof_begin(id);
    __tpuprof_end(id);
  }
}

/// Records of `probe` in `t`: all, and those that ended.
std::pair<unsigned, unsigned> countOf(const ThreadSection &t, uint32_t probe) {
  unsigned all = 0, ended = 0;
  for (const Record &r : t.records)
    if (r.rec.probe == probe) {
      ++all;
      ended += r.rec.end != 0;
    }
  return {all, ended};
}

} // namespace

TEST_F(NonLocalExit, LongjmpOutOfProbedCodeNeverLeaks) {
  // 600 longjmps, each leaving two probes open: far more than the 256 the
  // stack holds. Every later probe is still recorded, at depth 0.
  for (int sig : {0, 1}) {
    SCOPED_TRACE(sig ? "siglongjmp" : "longjmp");
    ASSERT_EQ(tpuprof_enable(1u << 16, 0), 0);
    tp_jump_out(600, 10, 11, sig);
    pairs(12, 1000);
    ASSERT_EQ(tpuprof_disable(), 0);
    Dump d = lastDump();
    ASSERT_EQ(d.threads.size(), 1u);
    const ThreadSection &t = d.threads[0];
    EXPECT_EQ(countOf(t, 10), std::make_pair(600u, 0u));
    EXPECT_EQ(countOf(t, 11), std::make_pair(600u, 0u));
    EXPECT_EQ(countOf(t, 12), std::make_pair(1000u, 1000u));
    // All but the last iteration's two are closed by a later begin; those
    // two by the first pair of 12.
    EXPECT_EQ(t.unwound, 1200u);
    EXPECT_EQ(t.head.dropped, 0u);
    for (const Record &r : t.records) {
      ASSERT_EQ(r.rec.depth, r.rec.probe == 11 ? 1u : 0u) << r.rec.probe;
    }
  }
}

TEST_F(NonLocalExit, JumpsOutOfRecursionDeeperThanTheStack) {
  // 300 levels: the 44 beyond the 256 the runtime keeps are counted as
  // dropped; a jump out of the bottom leaves all 300 open, and the next
  // begin, from above the first of them, closes them all.
  ASSERT_EQ(tpuprof_enable(1u << 16, 0), 0);
  tp_deep_jump(10, 300, 70);
  pairs(71, 100);
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump d = lastDump();
  ASSERT_EQ(d.threads.size(), 1u);
  const ThreadSection &t = d.threads[0];
  EXPECT_EQ(countOf(t, 70), std::make_pair(2560u, 0u));
  EXPECT_EQ(countOf(t, 71), std::make_pair(100u, 100u));
  EXPECT_EQ(t.droppedDepth, 440u);
  EXPECT_EQ(t.unwound, 2560u);
  for (const Record &r : t.records)
    if (r.rec.probe == 71) {
      ASSERT_EQ(r.rec.depth, 0u);
    }
}

TEST_F(NonLocalExit, EndAfterAJumpBackClosesTheSkippedProbe) {
  ASSERT_EQ(tpuprof_enable(4096, 0), 0);
  tp_jump_within(300, 20, 21);
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump d = lastDump();
  ASSERT_EQ(d.threads.size(), 1u);
  const ThreadSection &t = d.threads[0];
  EXPECT_EQ(countOf(t, 20), std::make_pair(300u, 300u)); // Their ends ran.
  EXPECT_EQ(countOf(t, 21), std::make_pair(300u, 0u));
  EXPECT_EQ(t.unwound, 300u);
  for (const Record &r : t.records) {
    ASSERT_EQ(r.rec.depth, r.rec.probe == 21 ? 1u : 0u);
  }
}

TEST_F(NonLocalExit, TheNextWindowStartsClean) {
  ASSERT_EQ(tpuprof_enable(4096, 0), 0);
  tp_jump_out(300, 30, 31, 0); // The last two are still on the stack.
  ASSERT_EQ(tpuprof_disable(), 0);
  ASSERT_EQ(tpuprof_enable(4096, 0), 0);
  pairs(32, 10);
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump d = lastDump();
  ASSERT_EQ(d.threads.size(), 1u);
  ASSERT_EQ(d.threads[0].records.size(), 10u);
  for (const Record &r : d.threads[0].records) {
    EXPECT_EQ(r.rec.depth, 0u);
    EXPECT_NE(r.rec.end, 0u);
  }
  // Their records were in the first window: nothing to count here.
  EXPECT_EQ(d.threads[0].unwound, 0u);
}

namespace {
__attribute__((noinline)) void probedThrow(uint32_t p) {
  __tpuprof_begin(p);
  throw p;
}
} // namespace

TEST_F(NonLocalExit, ExceptionsThroughProbedCodeNeverLeak) {
  ASSERT_EQ(tpuprof_enable(4096, 0), 0);
  for (int i = 0; i < 400; ++i) {
    try {
      probedThrow(40);
    } catch (uint32_t) {
    }
  }
  pairs(41, 10);
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump d = lastDump();
  const ThreadSection &t = d.threads.at(0);
  EXPECT_EQ(countOf(t, 40), std::make_pair(400u, 0u));
  EXPECT_EQ(countOf(t, 41), std::make_pair(10u, 10u));
  EXPECT_EQ(t.unwound, 400u);
  for (const Record &r : t.records) {
    ASSERT_EQ(r.rec.depth, 0u);
  }
}

TEST_F(NonLocalExit, CancelledThreadsProbesCloseAsUnwound) {
  ASSERT_EQ(tpuprof_enable(4096, 0), 0);
  static std::atomic<bool> inside;
  inside = false;
  pthread_t th;
  ASSERT_EQ(pthread_create(
                &th, nullptr,
                [](void *) -> void * {
                  __tpuprof_begin(50);
                  __tpuprof_begin(51);
                  inside = true;
                  for (;;)
                    pause(); // A cancellation point.
                  return nullptr;
                },
                nullptr),
            0);
  while (!inside)
    usleep(100);
  ASSERT_EQ(pthread_cancel(th), 0);
  ASSERT_EQ(pthread_join(th, nullptr), 0);
  pairs(52, 3);
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump d = lastDump();
  ASSERT_EQ(d.threads.size(), 2u);
  // Main took its first segment when it opened the window: thread 0.
  const ThreadSection &w = d.threads[1];
  EXPECT_EQ(countOf(w, 50), std::make_pair(1u, 0u));
  EXPECT_EQ(countOf(w, 51), std::make_pair(1u, 0u));
  EXPECT_EQ(w.unwound, 2u);
  EXPECT_EQ(d.threads[0].unwound, 0u);
}

TEST_F(NonLocalExit, ShapesThatOnlyLookAlikeCloseNothing) {
  ASSERT_EQ(tpuprof_enable(4096, 0), 0);
  tp_recurse(100, 60);
  tp_one_frame(61, 62, 63);
  tp_range_start("epoch"); // Ends in another function ...
  tp_range_middle(64);     // ... after a probe from a smaller frame.
  tp_range_stop();
  ASSERT_EQ(tpuprof_disable(), 0);
  Dump d = lastDump();
  ASSERT_EQ(d.threads.size(), 1u);
  const ThreadSection &t = d.threads[0];
  EXPECT_EQ(t.unwound, 0u);
  for (const Record &r : t.records) {
    EXPECT_NE(r.rec.end, 0u) << r.rec.probe;
  }
  EXPECT_EQ(countOf(t, 60), std::make_pair(100u, 100u));
  EXPECT_EQ(t.records.size(), 100u + 3 + 2);
  // Depths: the recursion's 0..99, then 0, 1, 1, then 0 and 1.
  for (unsigned i = 0; i < 100; ++i) {
    EXPECT_EQ(t.records[i].rec.depth, i);
  }
  EXPECT_EQ(t.records[101].rec.depth, 1u);
  EXPECT_EQ(t.records[102].rec.depth, 1u);
  EXPECT_EQ(t.records[104].rec.probe, 64u);
  EXPECT_EQ(t.records[104].rec.depth, 1u);
}
