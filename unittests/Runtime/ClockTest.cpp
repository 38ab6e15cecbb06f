//===- ClockTest.cpp - Which tick source the runtime trusts ---------------===//
//
// The TSC is used only when the kernel trusts it too: "tsc" among its clock
// sources, or a hypervisor's tsc_reliable flag.
//
//===----------------------------------------------------------------------===//

#include "FsUtil.h"
#include "rt_internal.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <stdlib.h>
#include <string>

namespace {

class KernelTrustsTsc : public ::testing::Test {
protected:
  void SetUp() override {
    char tmpl[] = "/tmp/tpuprof-clock-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir = tmpl;
  }
  void TearDown() override {
    for (const std::string &name : tpuprof::test::listDir(dir))
      std::remove((dir + "/" + name).c_str());
    std::remove(dir.c_str());
  }

  std::string file(const std::string &name, const std::string &text) {
    std::string path = dir + "/" + name;
    std::ofstream(path) << text;
    return path;
  }
  bool trusts(const std::string &sources, const std::string &cpuinfo) {
    return __tpuprof_rt_kernel_trusts_tsc(sources.c_str(), cpuinfo.c_str());
  }

  std::string dir;
};

const char *CpuinfoWithoutFlag = "processor\t: 0\n"
                                 "flags\t\t: fpu tsc constant_tsc "
                                 "nonstop_tsc tsc_known_freq\n"
                                 "bogomips\t: 4000.00\n";

TEST_F(KernelTrustsTsc, TscAmongTheClockSources) {
  EXPECT_TRUE(trusts(file("src", "tsc hpet acpi_pm \n"),
                     file("cpuinfo", CpuinfoWithoutFlag)));
  EXPECT_TRUE(trusts(file("src", "kvm-clock tsc \n"), dir + "/none"));
}

TEST_F(KernelTrustsTsc, HypervisorVouchesWithTscReliable) {
  EXPECT_TRUE(
      trusts(file("src", "kvm-clock \n"),
             file("cpuinfo", "processor\t: 0\nflags\t\t: fpu tsc "
                             "constant_tsc tsc_reliable nonstop_tsc\n")));
  EXPECT_TRUE(trusts(file("src", "kvm-clock \n"),
                     file("cpuinfo", "flags\t\t: fpu tsc_reliable\n")));
}

TEST_F(KernelTrustsTsc, DroppedFromTheClockSourcesIsNotTrusted) {
  // After "clocksource: Marking clocksource 'tsc' as unstable" the kernel
  // lists only the others; flags that merely contain the word do not count.
  EXPECT_FALSE(trusts(file("src", "hpet acpi_pm \n"),
                      file("cpuinfo", CpuinfoWithoutFlag)));
  EXPECT_FALSE(trusts(file("src", "hpet tsc-early-x \n"),
                      file("cpuinfo", "flags\t\t: fpu not_tsc_reliable\n")));
}

TEST_F(KernelTrustsTsc, NothingToAskTrustsTheCpu) {
  // No sysfs and no procfs (a bare container): the CPU's bit decides.
  EXPECT_TRUE(trusts(dir + "/none", dir + "/none2"));
}

} // namespace
