/*===- runtime/env.c - TPUPROF_* environment parsing --------------*- C -*-===*\
|*                                                                            *|
|* The environment is read once, by the library constructor (control.c). The  *|
|* parser takes a lookup function so the tests can feed it any environment.   *|
|* A bad value never stops the program: it is reported in one line naming the *|
|* variable, the value and the default used instead (docs/environment.md).    *|
\*===----------------------------------------------------------------------===*/

#include "rt_internal.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int __tpuprof_rt_parse_uint(const char *s, uint64_t min, uint64_t max,
                            uint64_t *out) {
  if (!s)
    return -1;
  while (isspace((unsigned char)*s))
    ++s;
  // strtoull accepts a sign and wraps "-1" to UINT64_MAX: refuse it first.
  if (!isdigit((unsigned char)*s))
    return -1;
  errno = 0;
  char *end = NULL;
  unsigned long long v = strtoull(s, &end, 0);
  if (errno != 0 || end == s)
    return -1;
  while (isspace((unsigned char)*end))
    ++end;
  if (*end != '\0' || v < min || v > max)
    return -1;
  *out = (uint64_t)v;
  return 0;
}

int __tpuprof_rt_parse_bool(const char *s, int *out) {
  static const char *const truthy[] = {"1", "true", "yes", "on"};
  static const char *const falsy[] = {"0", "false", "no", "off"};
  if (!s)
    return -1;
  for (size_t i = 0; i < sizeof(truthy) / sizeof(truthy[0]); ++i) {
    if (strcasecmp(s, truthy[i]) == 0) {
      *out = 1;
      return 0;
    }
    if (strcasecmp(s, falsy[i]) == 0) {
      *out = 0;
      return 0;
    }
  }
  return -1;
}

static const char *default_getenv(const char *name, void *ctx) {
  (void)ctx;
  return getenv(name);
}

/// Looks `name` up, then `alias`; the primary name wins when both are set.
/// Empty values count as unset. Sets *used to the name that was found.
static const char *lookup(tpuprof_rt_getenv_fn get, void *ctx, const char *name,
                          const char *alias, const char **used) {
  const char *v = get(name, ctx);
  if (v && *v) {
    *used = name;
    return v;
  }
  if (alias) {
    v = get(alias, ctx);
    if (v && *v) {
      *used = alias;
      return v;
    }
  }
  return NULL;
}

/// The variables each launcher sets, in the order they are tried: an
/// explicit TPUPROF_RANK first, then the MPI launchers (set per process),
/// then torchrun (per worker, possibly under a Slurm step), then Slurm
/// (per task). Names a launcher lacks are NULL.
static const struct rank_vars {
  uint32_t source;
  const char *rank, *size, *local_rank;
} rank_sources[] = {
    {TPUPROF_RANK_OVERRIDE, "TPUPROF_RANK", "TPUPROF_WORLD_SIZE", NULL},
    {TPUPROF_RANK_OPENMPI, "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE",
     "OMPI_COMM_WORLD_LOCAL_RANK"},
    {TPUPROF_RANK_PMI, "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID"},
    {TPUPROF_RANK_TORCHRUN, "RANK", "WORLD_SIZE", "LOCAL_RANK"},
    {TPUPROF_RANK_SLURM, "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID"},
};

/// Job ids, first set wins: Slurm's, Open MPI's, torchrun's.
static const char *const job_id_vars[] = {
    "SLURM_JOB_ID", "OMPI_MCA_ess_base_jobid", "TORCHELASTIC_RUN_ID"};

/// A rank-like value of variable `name`, or TPUPROF_RANK_UNKNOWN when it is
/// unset or bad (then one line says so).
static uint32_t rank_value(tpuprof_rt_getenv_fn get, void *ctx,
                           const char *name, uint64_t min, int *bad) {
  const char *v = name ? get(name, ctx) : NULL;
  uint64_t n;
  if (!v || !*v)
    return TPUPROF_RANK_UNKNOWN;
  if (__tpuprof_rt_parse_uint(v, min, TPUPROF_RANK_UNKNOWN - 1u, &n) == 0)
    return (uint32_t)n;
  fprintf(stderr,
          "tpuprof: %s='%s' is not a number from %llu to %u; "
          "ignored\n",
          name, v, (unsigned long long)min, TPUPROF_RANK_UNKNOWN - 1u);
  ++*bad;
  return TPUPROF_RANK_UNKNOWN;
}

/// Fills the identity fields of `cfg` from the first launcher whose rank
/// variable is set and valid. Returns the number of bad values.
static int parse_identity(tpuprof_rt_config *cfg, tpuprof_rt_getenv_fn get,
                          void *ctx) {
  int bad = 0;
  cfg->rank = TPUPROF_RANK_UNKNOWN;
  cfg->world_size = 0;
  cfg->local_rank = TPUPROF_RANK_UNKNOWN;
  cfg->rank_source = TPUPROF_RANK_NONE;
  cfg->job_id = NULL;
  for (size_t i = 0; i < sizeof(rank_sources) / sizeof(rank_sources[0]); ++i) {
    const struct rank_vars *r = &rank_sources[i];
    uint32_t rank = rank_value(get, ctx, r->rank, 0, &bad);
    if (rank == TPUPROF_RANK_UNKNOWN)
      continue;
    uint32_t size = rank_value(get, ctx, r->size, 1, &bad);
    if (size != TPUPROF_RANK_UNKNOWN && rank >= size) {
      fprintf(stderr,
              "tpuprof: %s='%u' is not below %s='%u'; the world size is "
              "not known\n",
              r->rank, rank, r->size, size);
      ++bad;
      size = TPUPROF_RANK_UNKNOWN;
    }
    cfg->rank = rank;
    cfg->world_size = size == TPUPROF_RANK_UNKNOWN ? 0 : size;
    cfg->local_rank = rank_value(get, ctx, r->local_rank, 0, &bad);
    cfg->rank_source = r->source;
    break;
  }
  for (size_t i = 0; i < sizeof(job_id_vars) / sizeof(job_id_vars[0]); ++i) {
    const char *v = get(job_id_vars[i], ctx);
    if (v && *v) {
      cfg->job_id = v;
      break;
    }
  }
  return bad;
}

int __tpuprof_rt_parse_env(tpuprof_rt_config *cfg, tpuprof_rt_getenv_fn get,
                           void *ctx) {
  if (!get)
    get = default_getenv;
  cfg->enable = 0;
  cfg->mode = 0;
  cfg->record_size = TPUPROF_DEFAULT_RECORD_SIZE;
  cfg->output = NULL;
  cfg->device = 0;
  cfg->clock = TPUPROF_RT_CLOCK_AUTO;
  cfg->events = NULL;
  cfg->schedule = NULL;
  cfg->buffer_ring = 0;
  cfg->calibrate = 1;
  cfg->memory = 0;
  cfg->device_timing = 1;

  int bad = 0;
  const char *name = NULL;
  const char *v;
  uint64_t n;

  if ((v = lookup(get, ctx, "TPUPROF_ENABLE", "ENABLE_ALL_PROFILE", &name))) {
    if (__tpuprof_rt_parse_bool(v, &cfg->enable) != 0) {
      fprintf(stderr, "tpuprof: %s='%s' is not 0 or 1; using 0\n", name, v);
      cfg->enable = 0;
      ++bad;
    }
  }

  if ((v = lookup(get, ctx, "TPUPROF_MODE", "PROFILE_MODE", &name))) {
    if (__tpuprof_rt_parse_uint(v, 0, TPUPROF_MODE_COUNT - 1u, &n) == 0) {
      cfg->mode = (uint32_t)n;
    } else {
      fprintf(stderr, "tpuprof: %s='%s' is not 0, 1 or 2; using 0\n", name, v);
      ++bad;
    }
  }

  if ((v = lookup(get, ctx, "TPUPROF_RECORD_SIZE", "PROFILE_RECORD_SIZE",
                  &name))) {
    if (__tpuprof_rt_parse_uint(v, 1, TPUPROF_RT_MAX_RECORDS, &n) == 0) {
      cfg->record_size = n;
    } else {
      fprintf(stderr,
              "tpuprof: %s='%s' is not a record count from 1 to %llu; "
              "using %u\n",
              name, v, (unsigned long long)TPUPROF_RT_MAX_RECORDS,
              TPUPROF_DEFAULT_RECORD_SIZE);
      ++bad;
    }
  }

  // Strings taken as they are. The events are checked when a window opens
  // (names), the schedule by the schedule (its syntax): both report
  // problems there, in one line each.
  if ((v = lookup(get, ctx, "TPUPROF_OUTPUT", NULL, &name)))
    cfg->output = v;
  if ((v = lookup(get, ctx, "TPUPROF_EVENTS", NULL, &name)))
    cfg->events = v;
  if ((v = lookup(get, ctx, "TPUPROF_SCHEDULE", NULL, &name)))
    cfg->schedule = v;

  if ((v = lookup(get, ctx, "TPUPROF_DEVICE", NULL, &name))) {
    if (__tpuprof_rt_parse_uint(v, 0, UINT32_MAX, &n) == 0) {
      cfg->device = (uint32_t)n;
    } else {
      fprintf(stderr,
              "tpuprof: %s='%s' is not a device number from 0 to %" PRIu32
              "; using 0\n",
              name, v, UINT32_MAX);
      ++bad;
    }
  }

  if ((v = lookup(get, ctx, "TPUPROF_CLOCK", NULL, &name))) {
    if (strcasecmp(v, "tsc") == 0) {
      cfg->clock = TPUPROF_RT_CLOCK_TSC;
    } else if (strcasecmp(v, "monotonic") == 0) {
      cfg->clock = TPUPROF_RT_CLOCK_MONOTONIC;
    } else if (strcasecmp(v, "auto") == 0) {
      cfg->clock = TPUPROF_RT_CLOCK_AUTO;
    } else {
      fprintf(stderr,
              "tpuprof: %s='%s' is not tsc, monotonic or auto; using auto\n",
              name, v);
      ++bad;
    }
  }
  if ((v = lookup(get, ctx, "TPUPROF_BUFFER", NULL, &name))) {
    if (strcasecmp(v, "stop") == 0) {
      cfg->buffer_ring = 0;
    } else if (strcasecmp(v, "ring") == 0) {
      cfg->buffer_ring = 1;
    } else {
      fprintf(stderr, "tpuprof: %s='%s' is not stop or ring; using stop\n",
              name, v);
      ++bad;
    }
  }
  if ((v = lookup(get, ctx, "TPUPROF_CALIBRATE", NULL, &name))) {
    if (__tpuprof_rt_parse_bool(v, &cfg->calibrate) != 0) {
      fprintf(stderr, "tpuprof: %s='%s' is not 0 or 1; using 1\n", name, v);
      cfg->calibrate = 1;
      ++bad;
    }
  }
  if ((v = lookup(get, ctx, "TPUPROF_MEMORY", NULL, &name))) {
    if (__tpuprof_rt_parse_bool(v, &cfg->memory) != 0) {
      fprintf(stderr, "tpuprof: %s='%s' is not 0 or 1; using 0\n", name, v);
      cfg->memory = 0;
      ++bad;
    }
  }
  bad += parse_identity(cfg, get, ctx);
  if ((v = lookup(get, ctx, "TPUPROF_DEVICE_TIMING", NULL, &name))) {
    if (__tpuprof_rt_parse_bool(v, &cfg->device_timing) != 0) {
      fprintf(stderr, "tpuprof: %s='%s' is not 0 or 1; using 1\n", name, v);
      cfg->device_timing = 1;
      ++bad;
    }
  }
  return bad;
}
