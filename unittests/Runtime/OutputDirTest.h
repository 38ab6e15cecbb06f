//===- OutputDirTest.h - Fixture with a dump directory -------*- C++ -*-===//
//
// The fixture the runtime GoogleTests share: a fresh output directory per
// test, no window, schedule or event list left from the test before, and
// the dumps in the directory parsed on request.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_TEST_RUNTIME_OUTPUTDIRTEST_H
#define TPUPROF_TEST_RUNTIME_OUTPUTDIRTEST_H

#include "DumpParser.h"
#include "FsUtil.h"
#include "tpuprof/tpuprof.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>
#include <vector>

namespace tpuprof {
namespace test {

class OutputDirTest : public ::testing::Test {
protected:
  void SetUp() override {
    reset();
    char tmpl[] = "/tmp/tpuprof-test-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    Dir = tmpl;
    tpuprof_set_output(Dir.c_str(), 0);
  }
  void TearDown() override {
    reset();
    for (const std::string &n : listDir(Dir))
      std::remove(path(n).c_str());
    rmdir(Dir.c_str());
  }

  std::string path(const std::string &name) const { return Dir + "/" + name; }

  /// Parses the single dump expected in Dir.
  tpuprof_test::Dump onlyDump() {
    tpuprof_test::Dump d;
    std::vector<std::string> names = listDir(Dir);
    EXPECT_EQ(names.size(), 1u);
    if (!names.empty()) {
      EXPECT_EQ(tpuprof_test::parseDump(path(names[0]), d), "") << names[0];
    }
    return d;
  }

  /// Parses the dump the last window wrote.
  tpuprof_test::Dump lastDump() {
    tpuprof_test::Dump d;
    EXPECT_EQ(tpuprof_test::parseDump(tpuprof_last_dump_path(), d), "")
        << tpuprof_last_dump_path();
    return d;
  }

  std::string Dir;

private:
  static void reset() {
    tpuprof_set_schedule(nullptr);
    if (tpuprof_is_enabled())
      tpuprof_disable();
    tpuprof_set_events(nullptr);
  }
};

} // namespace test
} // namespace tpuprof

#endif // TPUPROF_TEST_RUNTIME_OUTPUTDIRTEST_H
