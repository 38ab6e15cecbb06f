//===- EnvTest.cpp - TPUPROF_* environment parsing ------------ -*- C++ -*-===//
//
// The runtime reads its environment once, when it loads, so these tests call
// the parser directly with a fake environment (docs/environment.md).
//
//===----------------------------------------------------------------------===//

#include "rt_internal.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

namespace {

using Env = std::map<std::string, std::string>;

const char *fakeGetenv(const char *name, void *ctx) {
  const Env &env = *static_cast<const Env *>(ctx);
  auto it = env.find(name);
  return it == env.end() ? nullptr : it->second.c_str();
}

/// Parses `env`; returns the config and what went to stderr.
tpuprof_rt_config parse(const Env &env, std::string *err = nullptr,
                        int *bad = nullptr) {
  tpuprof_rt_config cfg;
  testing::internal::CaptureStderr();
  int n = __tpuprof_rt_parse_env(&cfg, fakeGetenv, const_cast<Env *>(&env));
  std::string out = testing::internal::GetCapturedStderr();
  if (err)
    *err = out;
  if (bad)
    *bad = n;
  return cfg;
}

} // namespace

TEST(Env, DefaultsWhenNothingIsSet) {
  std::string err;
  tpuprof_rt_config cfg = parse({}, &err);
  EXPECT_EQ(err, "");
  EXPECT_EQ(cfg.enable, 0);
  EXPECT_EQ(cfg.mode, 0u);
  EXPECT_EQ(cfg.record_size, 131072u);
  EXPECT_EQ(cfg.output, nullptr);
  EXPECT_EQ(cfg.device, 0u);
  EXPECT_EQ(cfg.clock, TPUPROF_RT_CLOCK_AUTO);
}

TEST(Env, PrimaryNames) {
  std::string err;
  // cfg.output points into the environment: keep it alive.
  const Env env = {
      {"TPUPROF_ENABLE", "1"},         {"TPUPROF_MODE", "2"},
      {"TPUPROF_RECORD_SIZE", "4096"}, {"TPUPROF_OUTPUT", "/tmp/dumps"},
      {"TPUPROF_DEVICE", "3"},         {"TPUPROF_CLOCK", "monotonic"}};
  tpuprof_rt_config cfg = parse(env, &err);
  EXPECT_EQ(err, "");
  EXPECT_EQ(cfg.enable, 1);
  EXPECT_EQ(cfg.mode, 2u);
  EXPECT_EQ(cfg.record_size, 4096u);
  EXPECT_STREQ(cfg.output, "/tmp/dumps");
  EXPECT_EQ(cfg.device, 3u);
  EXPECT_EQ(cfg.clock, TPUPROF_RT_CLOCK_MONOTONIC);
}

TEST(Env, BoardToolAliases) {
  tpuprof_rt_config cfg = parse({{"ENABLE_ALL_PROFILE", "1"},
                                 {"PROFILE_MODE", "1"},
                                 {"PROFILE_RECORD_SIZE", "77"}});
  EXPECT_EQ(cfg.enable, 1);
  EXPECT_EQ(cfg.mode, 1u);
  EXPECT_EQ(cfg.record_size, 77u);
}

TEST(Env, PrimaryNameWinsOverAlias) {
  std::string err;
  tpuprof_rt_config cfg = parse({{"TPUPROF_ENABLE", "0"},
                                 {"ENABLE_ALL_PROFILE", "1"},
                                 {"TPUPROF_MODE", "2"},
                                 {"PROFILE_MODE", "1"},
                                 {"TPUPROF_RECORD_SIZE", "10"},
                                 {"PROFILE_RECORD_SIZE", "20"}},
                                &err);
  EXPECT_EQ(err, "");
  EXPECT_EQ(cfg.enable, 0);
  EXPECT_EQ(cfg.mode, 2u);
  EXPECT_EQ(cfg.record_size, 10u);
}

TEST(Env, EmptyValuesCountAsUnset) {
  std::string err;
  tpuprof_rt_config cfg = parse(
      {{"TPUPROF_MODE", ""}, {"PROFILE_MODE", "1"}, {"TPUPROF_OUTPUT", ""}},
      &err);
  EXPECT_EQ(err, "");
  EXPECT_EQ(cfg.mode, 1u);
  EXPECT_EQ(cfg.output, nullptr);
}

TEST(Env, BooleanSpellings) {
  for (const char *on : {"1", "true", "YES", "On"}) {
    EXPECT_EQ(parse({{"TPUPROF_ENABLE", on}}).enable, 1) << on;
  }
  for (const char *off : {"0", "false", "no", "OFF"}) {
    EXPECT_EQ(parse({{"TPUPROF_ENABLE", off}}).enable, 0) << off;
  }
}

TEST(Env, ClockSpellings) {
  EXPECT_EQ(parse({{"TPUPROF_CLOCK", "tsc"}}).clock, TPUPROF_RT_CLOCK_TSC);
  EXPECT_EQ(parse({{"TPUPROF_CLOCK", "TSC"}}).clock, TPUPROF_RT_CLOCK_TSC);
  EXPECT_EQ(parse({{"TPUPROF_CLOCK", "auto"}}).clock, TPUPROF_RT_CLOCK_AUTO);
}

// Every variable sets its own setting and no other, whatever order the
// parser reads them in: TPUPROF_CLOCK=auto once also cleared the events and
// the schedule.
TEST(Env, EachVariableSetsOnlyItsOwnSetting) {
  for (const char *clock : {"auto", "tsc", "monotonic"}) {
    const Env env = {{"TPUPROF_CLOCK", clock},
                     {"TPUPROF_EVENTS", "perf::PAGE-FAULTS"},
                     {"TPUPROF_SCHEDULE", "wait=1,active=2"},
                     {"TPUPROF_OUTPUT", "/tmp/dumps"}};
    std::string err;
    tpuprof_rt_config cfg = parse(env, &err);
    EXPECT_EQ(err, "") << clock;
    EXPECT_STREQ(cfg.events, "perf::PAGE-FAULTS") << clock;
    EXPECT_STREQ(cfg.schedule, "wait=1,active=2") << clock;
    EXPECT_STREQ(cfg.output, "/tmp/dumps") << clock;
  }
}

TEST(Env, CalibrateIsOnUnlessTurnedOff) {
  EXPECT_EQ(parse({}).calibrate, 1);
  EXPECT_EQ(parse({{"TPUPROF_CALIBRATE", "0"}}).calibrate, 0);
  EXPECT_EQ(parse({{"TPUPROF_CALIBRATE", "off"}}).calibrate, 0);
  EXPECT_EQ(parse({{"TPUPROF_CALIBRATE", "yes"}}).calibrate, 1);
  std::string err;
  int bad = 0;
  EXPECT_EQ(parse({{"TPUPROF_CALIBRATE", "maybe"}}, &err, &bad).calibrate, 1);
  EXPECT_EQ(bad, 1);
  EXPECT_EQ(err, "tpuprof: TPUPROF_CALIBRATE='maybe' is not 0 or 1; using 1\n");
}

TEST(Env, DeviceTimingIsOnUnlessTurnedOff) {
  EXPECT_EQ(parse({}).device_timing, 1);
  EXPECT_EQ(parse({{"TPUPROF_DEVICE_TIMING", "0"}}).device_timing, 0);
  EXPECT_EQ(parse({{"TPUPROF_DEVICE_TIMING", "on"}}).device_timing, 1);
  std::string err;
  int bad = 0;
  EXPECT_EQ(parse({{"TPUPROF_DEVICE_TIMING", "2"}}, &err, &bad).device_timing,
            1);
  EXPECT_EQ(bad, 1);
  EXPECT_EQ(err, "tpuprof: TPUPROF_DEVICE_TIMING='2' is not 0 or 1; using 1\n");
}

TEST(Env, BadValuesPrintOneLineEachAndUseTheDefault) {
  std::string err;
  int bad = 0;
  tpuprof_rt_config cfg = parse({{"TPUPROF_ENABLE", "maybe"},
                                 {"TPUPROF_MODE", "x"},
                                 {"TPUPROF_RECORD_SIZE", "-5"},
                                 {"TPUPROF_DEVICE", "4294967296"},
                                 {"TPUPROF_CLOCK", "hpet"}},
                                &err, &bad);
  EXPECT_EQ(bad, 5);
  EXPECT_EQ(cfg.enable, 0);
  EXPECT_EQ(cfg.mode, 0u);
  EXPECT_EQ(cfg.record_size, 131072u);
  EXPECT_EQ(cfg.device, 0u);
  EXPECT_EQ(cfg.clock, TPUPROF_RT_CLOCK_AUTO);
  EXPECT_EQ(err,
            "tpuprof: TPUPROF_ENABLE='maybe' is not 0 or 1; using 0\n"
            "tpuprof: TPUPROF_MODE='x' is not 0, 1 or 2; using 0\n"
            "tpuprof: TPUPROF_RECORD_SIZE='-5' is not a record count from 1 "
            "to 1073741824; using 131072\n"
            "tpuprof: TPUPROF_DEVICE='4294967296' is not a device number from "
            "0 to 4294967295; using 0\n"
            "tpuprof: TPUPROF_CLOCK='hpet' is not tsc, monotonic or auto; "
            "using auto\n");
}

TEST(Env, BadAliasValueNamesTheAlias) {
  std::string err;
  tpuprof_rt_config cfg = parse({{"PROFILE_MODE", "3"}}, &err);
  EXPECT_EQ(cfg.mode, 0u);
  EXPECT_EQ(err, "tpuprof: PROFILE_MODE='3' is not 0, 1 or 2; using 0\n");
}

TEST(Env, RecordSizeRange) {
  std::string err;
  EXPECT_EQ(parse({{"TPUPROF_RECORD_SIZE", "0"}}, &err).record_size, 131072u);
  EXPECT_NE(err, "");
  EXPECT_EQ(parse({{"TPUPROF_RECORD_SIZE", "1073741824"}}, &err).record_size,
            1073741824u);
  EXPECT_EQ(err, "");
  EXPECT_EQ(parse({{"TPUPROF_RECORD_SIZE", "1073741825"}}, &err).record_size,
            131072u);
  EXPECT_NE(err, "");
}

TEST(Env, ParseUint) {
  uint64_t v = 0;
  EXPECT_EQ(__tpuprof_rt_parse_uint("0", 0, 10, &v), 0);
  EXPECT_EQ(v, 0u);
  EXPECT_EQ(__tpuprof_rt_parse_uint(" 7 ", 0, 10, &v), 0);
  EXPECT_EQ(v, 7u);
  EXPECT_EQ(__tpuprof_rt_parse_uint("0x10", 0, 100, &v), 0);
  EXPECT_EQ(v, 16u);
  EXPECT_EQ(__tpuprof_rt_parse_uint("18446744073709551615", 0, UINT64_MAX, &v),
            0);
  EXPECT_EQ(v, UINT64_MAX);
  for (const char *s : {"", " ", "-1", "+1", "12abc", "1.5", "abc", "11",
                        "99999999999999999999999"})
    EXPECT_EQ(__tpuprof_rt_parse_uint(s, 0, 10, &v), -1) << "'" << s << "'";
  EXPECT_EQ(__tpuprof_rt_parse_uint(nullptr, 0, 10, &v), -1);
  EXPECT_EQ(__tpuprof_rt_parse_uint("3", 5, 10, &v), -1);
}

TEST(Env, ParseBool) {
  int b = -1;
  EXPECT_EQ(__tpuprof_rt_parse_bool("2", &b), -1);
  EXPECT_EQ(__tpuprof_rt_parse_bool("", &b), -1);
  EXPECT_EQ(__tpuprof_rt_parse_bool(nullptr, &b), -1);
  EXPECT_EQ(__tpuprof_rt_parse_bool("TRUE", &b), 0);
  EXPECT_EQ(b, 1);
}

/*===-- Who the process is in a job (docs/mpi.md) ------------------------===*/

TEST(EnvRank, SingleProcessHasNoRank) {
  tpuprof_rt_config cfg = parse({});
  EXPECT_EQ(cfg.rank, TPUPROF_RANK_UNKNOWN);
  EXPECT_EQ(cfg.world_size, 0u);
  EXPECT_EQ(cfg.local_rank, TPUPROF_RANK_UNKNOWN);
  EXPECT_EQ(cfg.rank_source, (uint32_t)TPUPROF_RANK_NONE);
  EXPECT_EQ(cfg.job_id, nullptr);
}

TEST(EnvRank, EachLauncher) {
  struct Case {
    Env env;
    uint32_t source, rank, size, local;
  } cases[] = {
      {{{"OMPI_COMM_WORLD_RANK", "3"},
        {"OMPI_COMM_WORLD_SIZE", "4"},
        {"OMPI_COMM_WORLD_LOCAL_RANK", "1"}},
       TPUPROF_RANK_OPENMPI,
       3,
       4,
       1},
      {{{"PMI_RANK", "2"}, {"PMI_SIZE", "8"}},
       TPUPROF_RANK_PMI,
       2,
       8,
       TPUPROF_RANK_UNKNOWN},
      {{{"RANK", "5"}, {"WORLD_SIZE", "6"}, {"LOCAL_RANK", "0"}},
       TPUPROF_RANK_TORCHRUN,
       5,
       6,
       0},
      {{{"SLURM_PROCID", "7"},
        {"SLURM_NTASKS", "16"},
        {"SLURM_LOCALID", "3"},
        {"SLURM_JOB_ID", "991"}},
       TPUPROF_RANK_SLURM,
       7,
       16,
       3},
  };
  for (const Case &c : cases) {
    std::string err;
    tpuprof_rt_config cfg = parse(c.env, &err);
    EXPECT_EQ(err, "");
    EXPECT_EQ(cfg.rank_source, c.source) << tpuprof_rank_source_name(c.source);
    EXPECT_EQ(cfg.rank, c.rank);
    EXPECT_EQ(cfg.world_size, c.size);
    EXPECT_EQ(cfg.local_rank, c.local);
  }
}

TEST(EnvRank, OverrideThenMpiThenTorchrunThenSlurm) {
  // srun launching mpirun'd or torchrun'd processes sets several: the most
  // specific launcher wins, and TPUPROF_RANK over all.
  Env env = {{"SLURM_PROCID", "0"},         {"SLURM_NTASKS", "2"},
             {"SLURM_JOB_ID", "77"},        {"RANK", "1"},
             {"WORLD_SIZE", "2"},           {"OMPI_COMM_WORLD_RANK", "2"},
             {"OMPI_COMM_WORLD_SIZE", "4"}, {"OMPI_MCA_ess_base_jobid", "5"}};
  tpuprof_rt_config cfg = parse(env);
  EXPECT_EQ(cfg.rank_source, (uint32_t)TPUPROF_RANK_OPENMPI);
  EXPECT_EQ(cfg.rank, 2u);
  EXPECT_STREQ(cfg.job_id, "77"); // Slurm's job id names the whole job.
  env["TPUPROF_RANK"] = "9";
  env["TPUPROF_WORLD_SIZE"] = "10";
  cfg = parse(env);
  EXPECT_EQ(cfg.rank_source, (uint32_t)TPUPROF_RANK_OVERRIDE);
  EXPECT_EQ(cfg.rank, 9u);
  EXPECT_EQ(cfg.world_size, 10u);
  env.erase("TPUPROF_RANK");
  env.erase("OMPI_COMM_WORLD_RANK");
  cfg = parse(env);
  EXPECT_EQ(cfg.rank_source, (uint32_t)TPUPROF_RANK_TORCHRUN);
  EXPECT_EQ(cfg.rank, 1u);
}

TEST(EnvRank, BadValuesSayWhichAndFallThrough) {
  std::string err;
  int bad = 0;
  tpuprof_rt_config cfg = parse({{"TPUPROF_RANK", "-1"},
                                 {"OMPI_COMM_WORLD_RANK", "4"},
                                 {"OMPI_COMM_WORLD_SIZE", "4"},
                                 {"SLURM_PROCID", "1"}},
                                &err, &bad);
  EXPECT_EQ(bad, 2);
  EXPECT_NE(err.find("tpuprof: TPUPROF_RANK='-1' is not a number"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("OMPI_COMM_WORLD_RANK='4' is not below "
                     "OMPI_COMM_WORLD_SIZE='4'"),
            std::string::npos)
      << err;
  // Open MPI's rank stands (its size did not): the next launcher is not
  // consulted once one gave a rank.
  EXPECT_EQ(cfg.rank_source, (uint32_t)TPUPROF_RANK_OPENMPI);
  EXPECT_EQ(cfg.rank, 4u);
  EXPECT_EQ(cfg.world_size, 0u);
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 2);
}
