/*===- runtime/schedule.c - Step-driven profiling windows ---------*- C -*-===*\
|*                                                                            *|
|* Long jobs (training loops, serving) are profiled a few steps at a time, as *|
|* PyTorch's profiler schedule does. The program marks step boundaries with   *|
|* tpuprof_step(); a schedule decides for each step k whether it is           *|
|*   NONE    not profiled (skip_first, wait, or after `repeat` cycles),       *|
|*   WARMUP  profiled but discarded (counter groups and buffers get warm),    *|
|*   ACTIVE  profiled; the active steps of one cycle become ONE dump.         *|
|* Windows are opened and closed with the same machinery as tpuprof_enable /  *|
|* tpuprof_disable (window.c), under the ctl lock; the API (control.c) runs   *|
|* the on-ready callback after the lock is released so it may call the API    *|
|* (e.g. read the dump).                                                      *|
\*===----------------------------------------------------------------------===*/

#include "rt_internal.h"

#include <stdio.h>
#include <string.h>

enum { ACT_NONE = 0, ACT_WARMUP = 1, ACT_ACTIVE = 2 };

/// Guarded by the ctl lock.
static int sched_on;
static tpuprof_schedule sched;
static uint64_t step_no;
static int sched_window;      ///< ACT_* of the window the schedule opened.
static uint64_t window_cycle; ///< Cycle of that window.

int __tpuprof_rt_parse_schedule(const char *spec, tpuprof_schedule *s,
                                char *why, size_t why_size) {
  static const char *const keys[] = {"skip_first", "wait", "warmup", "active",
                                     "repeat"};
  uint32_t *fields[] = {&s->skip_first, &s->wait, &s->warmup, &s->active,
                        &s->repeat};
  char buf[256];
  if (strlen(spec) >= sizeof(buf)) {
    snprintf(why, why_size, "longer than %u bytes", (unsigned)sizeof(buf) - 1);
    return -1;
  }
  strcpy(buf, spec);
  char *save = NULL;
  for (char *tok = strtok_r(buf, ",", &save); tok;
       tok = strtok_r(NULL, ",", &save)) {
    while (*tok == ' ')
      ++tok;
    char *eq = strchr(tok, '=');
    if (!eq) {
      snprintf(why, why_size, "'%s' is not KEY=N", tok);
      return -1;
    }
    *eq = '\0';
    char *k = tok, *ke = eq;
    while (ke > k && ke[-1] == ' ')
      *--ke = '\0';
    int found = 0;
    for (unsigned i = 0; i < 5; ++i) {
      if (strcmp(k, keys[i]) != 0)
        continue;
      uint64_t v;
      if (__tpuprof_rt_parse_uint(eq + 1, 0, UINT32_MAX, &v) != 0) {
        snprintf(why, why_size, "%s='%s' is not a number", k, eq + 1);
        return -1;
      }
      *fields[i] = (uint32_t)v;
      found = 1;
    }
    if (!found) {
      snprintf(why, why_size,
               "unknown key '%s' (expected skip_first, wait, warmup, active, "
               "repeat)",
               k);
      return -1;
    }
  }
  if (s->active == 0) {
    snprintf(why, why_size, "active must be at least 1");
    return -1;
  }
  return 0;
}

/// What step `k` is, and which cycle it belongs to.
static int action(uint64_t k, uint64_t *cycle) {
  if (k < sched.skip_first)
    return ACT_NONE;
  uint64_t len = (uint64_t)sched.wait + sched.warmup + sched.active;
  uint64_t j = k - sched.skip_first;
  *cycle = j / len;
  if (sched.repeat && *cycle >= sched.repeat)
    return ACT_NONE;
  uint64_t r = j % len;
  if (r < sched.wait)
    return ACT_NONE;
  return r < (uint64_t)sched.wait + sched.warmup ? ACT_WARMUP : ACT_ACTIVE;
}

/// Closes the schedule's window: written if it was active. Copies the dump
/// path to `ready` when one was written.
static void close_sched_window(char *ready, size_t ready_size) {
  int active = sched_window == ACT_ACTIVE;
  sched_window = ACT_NONE;
  if (!__tpuprof_rt_window_open_locked())
    return; // The program closed it itself.
  if (__tpuprof_rt_close_window_locked(active, 0) == 0 && active && ready)
    snprintf(ready, ready_size, "%s", __tpuprof_rt_last_dump_locked());
}

/// Makes the windows match step `step_no`. ctl lock held.
static void enter_step(char *ready, size_t ready_size) {
  if (sched_window && !__tpuprof_rt_window_open_locked())
    sched_window = ACT_NONE; // tpuprof_disable() closed it.
  uint64_t cycle = 0;
  int want = action(step_no, &cycle);
  if (sched_window == ACT_ACTIVE &&
      (want != ACT_ACTIVE || cycle != window_cycle))
    close_sched_window(ready, ready_size);
  if (sched_window == ACT_WARMUP && want == ACT_NONE)
    close_sched_window(NULL, 0);
  if (want == ACT_NONE || sched_window == want)
    return;
  if (sched_window == ACT_WARMUP) {
    // Warmup over: drop its records, keep going in a fresh window.
    __tpuprof_rt_close_window_locked(0, 1);
  } else if (__tpuprof_rt_window_open_locked() ||
             __tpuprof_rt_enable_locked(sched.max_records, sched.mode,
                                        TPUPROF_RT_FILE_NOW) != 0) {
    static int warned;
    if (!warned++)
      fprintf(stderr,
              "tpuprof: schedule: cannot open a window at step %llu "
              "(one opened by tpuprof_enable is open); step skipped\n",
              (unsigned long long)step_no);
    return;
  }
  sched_window = want;
  window_cycle = cycle;
}

static int set_schedule_locked(const tpuprof_schedule *s, char *ready,
                               size_t ready_size) {
  if (sched_on && sched_window)
    close_sched_window(ready, ready_size);
  sched_on = 0;
  if (!s)
    return 0;
  if (s->active == 0 || s->mode < 0 || s->mode >= (int)TPUPROF_MODE_COUNT ||
      s->max_records > TPUPROF_RT_MAX_RECORDS) {
    fprintf(stderr, "tpuprof: tpuprof_set_schedule: invalid schedule (active "
                    "must be >= 1, mode 0..2, max_records <= 2^30)\n");
    return -1;
  }
  if (__tpuprof_rt_window_open_locked()) {
    fprintf(stderr, "tpuprof: tpuprof_set_schedule: a profiling window opened "
                    "by tpuprof_enable is open\n");
    return -1;
  }
  sched = *s;
  sched_on = 1;
  step_no = 0;
  sched_window = ACT_NONE;
  enter_step(ready, ready_size);
  return 0;
}

void __tpuprof_rt_schedule_from_env_locked(const char *spec, int mode,
                                           uint64_t record_size) {
  tpuprof_schedule s;
  memset(&s, 0, sizeof(s));
  s.active = 1;
  s.mode = mode;
  s.max_records = record_size;
  char why[160];
  if (__tpuprof_rt_parse_schedule(spec, &s, why, sizeof(why)) != 0) {
    fprintf(stderr, "tpuprof: TPUPROF_SCHEDULE='%s': %s; no schedule\n", spec,
            why);
    return;
  }
  (void)set_schedule_locked(&s, NULL, 0);
}

int __tpuprof_rt_schedule_active_locked(void) { return sched_on; }

int __tpuprof_rt_set_schedule_locked(const tpuprof_schedule *s,
                                     tpuprof_rt_ready *ready) {
  ready->path[0] = '\0';
  ready->cb = sched_on ? sched.on_ready : NULL;
  ready->user = sched.user;
  return set_schedule_locked(s, ready->path, sizeof(ready->path));
}

uint64_t __tpuprof_rt_step_locked(tpuprof_rt_ready *ready) {
  ready->path[0] = '\0';
  ready->cb = NULL;
  ready->user = NULL;
  uint64_t k = ++step_no;
  if (sched_on) {
    ready->cb = sched.on_ready;
    ready->user = sched.user;
    enter_step(ready->path, sizeof(ready->path));
  }
  return k;
}
