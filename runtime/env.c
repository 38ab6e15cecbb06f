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
  if ((v = lookup(get, ctx, "TPUPROF_DEVICE_TIMING", NULL, &name))) {
    if (__tpuprof_rt_parse_bool(v, &cfg->device_timing) != 0) {
      fprintf(stderr, "tpuprof: %s='%s' is not 0 or 1; using 1\n", name, v);
      cfg->device_timing = 1;
      ++bad;
    }
  }
  return bad;
}
