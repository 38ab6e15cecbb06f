/*===- runtime/control.c - Library setup and the control API ------*- C -*-===*\
|*                                                                            *|
|* The top of the runtime: the one-time initialization (environment, clock,   *|
|* settings, fork and exit handlers), the library constructor that opens      *|
|* TPUPROF_ENABLE's window or starts TPUPROF_SCHEDULE's schedule, and every   *|
|* public entry point that may be a process's first call into the library:    *|
|* the control API of tpuprof.h and __tpuprof_register_module. Each one runs  *|
|* the initialization first, then the machinery below it (window.c,           *|
|* schedule.c, module.c, dump_file.c) under the ctl lock.                     *|
|*                                                                            *|
|* The registration entry lives here, with the constructor: a static link of  *|
|* an instrumented program (every module registers) always brings both.       *|
\*===----------------------------------------------------------------------===*/

#include "rt_internal.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static tpuprof_rt_config env_config;

/*===-- Initialization ---------------------------------------------------===*/

static void at_fork_prepare(void);
static void at_fork_parent(void);
static void at_fork_child(void);
static void at_exit(void);

static void init_once_fn(void) {
  __tpuprof_rt_parse_env(&env_config, NULL, NULL);
  __tpuprof_rt_process_init(&env_config);
  __tpuprof_rt_clock_init(env_config.clock); // Takes the first pair.
  __tpuprof_rt_window_settings_from_env(&env_config);
  __tpuprof_rt_calibration_on = env_config.calibrate;
  __tpuprof_rt_device_timing = env_config.device_timing;
  if (env_config.events)
    (void)__tpuprof_rt_set_events_locked(env_config.events, 0);
  __tpuprof_rt_threads_init();
  pthread_atfork(at_fork_prepare, at_fork_parent, at_fork_child);
  // Closes a window still open at exit (TPUPROF_ENABLE=1, or a program that
  // never called tpuprof_disable) so its records reach a dump.
  atexit(at_exit);
}

void __tpuprof_rt_ensure_init(void) { pthread_once(&init_once, init_once_fn); }

void __tpuprof_rt_ctl_lock(void) {
  __tpuprof_rt_ensure_init();
  __tpuprof_rt_lock(TPUPROF_RT_LOCK_CTL);
}
void __tpuprof_rt_ctl_unlock(void) { __tpuprof_rt_unlock(TPUPROF_RT_LOCK_CTL); }

__attribute__((constructor)) static void tpuprof_rt_constructor(void) {
  __tpuprof_rt_ensure_init();
  if (!env_config.enable && !env_config.schedule)
    return;
  __tpuprof_rt_lock(TPUPROF_RT_LOCK_CTL);
  if (env_config.schedule) {
    // A schedule drives the windows from step 0; it replaces TPUPROF_ENABLE.
    __tpuprof_rt_schedule_from_env_locked(
        env_config.schedule, (int)env_config.mode, env_config.record_size);
  } else if (!__tpuprof_rt_window_open_locked()) {
    // Another constructor may have opened a window through the API already.
    // The file comes with the first record: a process that never runs a
    // probe (a shell, a helper it execs) leaves none.
    __tpuprof_rt_enable_locked(env_config.record_size, (int)env_config.mode,
                               TPUPROF_RT_FILE_LAZY);
  }
  __tpuprof_rt_unlock(TPUPROF_RT_LOCK_CTL);
}

/*===-- Module registration (the probe ABI) ------------------------------===*/

TPUPROF_RT_API void __tpuprof_register_module(const void *table, uint64_t size,
                                              uint32_t *first_probe) {
  __tpuprof_rt_ensure_init();
  if (__tpuprof_rt_module_add(table, size, first_probe) != 0)
    return;
  // Into the open window's file now, so that a crash dump names its records
  // (registration at start-up under TPUPROF_ENABLE=1, or a dlopen).
  __tpuprof_rt_threads_lock();
  if (__tpuprof_rt_dump)
    __tpuprof_rt_dump_sync_modules_locked(__tpuprof_rt_dump);
  __tpuprof_rt_threads_unlock();
}

/*===-- Windows ----------------------------------------------------------===*/

TPUPROF_RT_API int tpuprof_enable(uint64_t max_records, int mode) {
  __tpuprof_rt_ctl_lock();
  int rc =
      __tpuprof_rt_enable_locked(max_records, mode, TPUPROF_RT_FILE_OR_FAIL);
  __tpuprof_rt_ctl_unlock();
  return rc;
}

static int close_window(const char *who, int reopen) {
  __tpuprof_rt_ctl_lock();
  int rc;
  if (!__tpuprof_rt_window_open_locked()) {
    fprintf(stderr, "tpuprof: %s: no profiling window is open\n", who);
    rc = -1;
  } else {
    rc = __tpuprof_rt_close_window_locked(1, reopen);
  }
  __tpuprof_rt_ctl_unlock();
  return rc;
}

TPUPROF_RT_API int tpuprof_disable(void) {
  return close_window("tpuprof_disable", 0);
}

TPUPROF_RT_API int tpuprof_flush(void) {
  return close_window("tpuprof_flush", 1);
}

TPUPROF_RT_API int tpuprof_is_enabled(void) {
  return __atomic_load_n(&__tpuprof_enabled, __ATOMIC_ACQUIRE) != 0;
}

TPUPROF_RT_API const char *tpuprof_last_dump_path(void) {
  return __tpuprof_rt_last_dump_locked(); // A fixed buffer: no lock needed.
}

/*===-- Settings ---------------------------------------------------------===*/

TPUPROF_RT_API void tpuprof_set_output(const char *dir, int device) {
  __tpuprof_rt_ctl_lock();
  __tpuprof_rt_set_output_locked(dir, device);
  __tpuprof_rt_ctl_unlock();
}

TPUPROF_RT_API int tpuprof_set_buffer_policy(int policy) {
  __tpuprof_rt_ensure_init();
  if (policy != TPUPROF_BUFFER_STOP && policy != TPUPROF_BUFFER_RING) {
    fprintf(stderr,
            "tpuprof: tpuprof_set_buffer_policy: %d is not "
            "TPUPROF_BUFFER_STOP or TPUPROF_BUFFER_RING\n",
            policy);
    return -1;
  }
  __tpuprof_rt_lock(TPUPROF_RT_LOCK_CTL);
  __tpuprof_rt_set_buffer_policy_locked(policy);
  __tpuprof_rt_unlock(TPUPROF_RT_LOCK_CTL);
  return 0;
}

TPUPROF_RT_API int tpuprof_set_memory(int on) {
  __tpuprof_rt_ctl_lock();
  int was = __tpuprof_rt_set_memory_locked(on);
  __tpuprof_rt_ctl_unlock();
  return was;
}

TPUPROF_RT_API int tpuprof_set_events(const char *events) {
  __tpuprof_rt_ctl_lock();
  int rc = __tpuprof_rt_set_events_locked(events, 1);
  __tpuprof_rt_ctl_unlock();
  return rc;
}

/*===-- Schedules --------------------------------------------------------===*/

// The on-ready callback runs once the lock is released, so that it may call
// the API (e.g. read the dump).

TPUPROF_RT_API int tpuprof_set_schedule(const tpuprof_schedule *s) {
  tpuprof_rt_ready ready;
  __tpuprof_rt_ctl_lock();
  int rc = __tpuprof_rt_set_schedule_locked(s, &ready);
  __tpuprof_rt_ctl_unlock();
  if (ready.cb && ready.path[0])
    ready.cb(ready.path, ready.user);
  return rc;
}

TPUPROF_RT_API uint64_t tpuprof_step(void) {
  tpuprof_rt_ready ready;
  __tpuprof_rt_ctl_lock();
  uint64_t k = __tpuprof_rt_step_locked(&ready);
  __tpuprof_rt_ctl_unlock();
  if (ready.cb && ready.path[0])
    ready.cb(ready.path, ready.user);
  return k;
}

/*===-- Process events ---------------------------------------------------===*/

static void at_exit(void) {
  __tpuprof_rt_lock(TPUPROF_RT_LOCK_CTL);
  if (__tpuprof_rt_window_open_locked())
    __tpuprof_rt_close_window_locked(1, 0);
  __tpuprof_rt_unlock(TPUPROF_RT_LOCK_CTL);
}

// Holding the ctl, thread-list and registry locks across fork() (in their
// order, rt_locks.h) means the child never inherits one held by a thread
// that does not exist there.
static void at_fork_prepare(void) {
  __tpuprof_rt_lock(TPUPROF_RT_LOCK_CTL);
  __tpuprof_rt_threads_lock();
  __tpuprof_rt_modules_lock();
}

static void at_fork_parent(void) {
  __tpuprof_rt_modules_unlock();
  __tpuprof_rt_threads_unlock();
  __tpuprof_rt_unlock(TPUPROF_RT_LOCK_CTL);
}

static void at_fork_child(void) {
  __tpuprof_rt_threads_after_fork_child_locked();
  __tpuprof_rt_modules_unlock();
  __tpuprof_rt_window_after_fork_child_locked();
  __tpuprof_rt_threads_unlock();
  __tpuprof_rt_unlock(TPUPROF_RT_LOCK_CTL);
}
