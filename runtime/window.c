/*===- runtime/window.c - Profiling windows -----------------------*- C -*-===*\
|*                                                                            *|
|* A window is the span between tpuprof_enable() and tpuprof_disable() (or    *|
|* the next tpuprof_flush()); each one becomes exactly one dump. Windows are  *|
|* opened and closed under the ctl lock (rt_locks.h), never on the hot path,  *|
|* by control.c's API and schedule.c's steps. Switching windows happens       *|
|* under the thread-list lock, which is what makes the lock-free hot path     *|
|* safe (rt_thread.h, "Ownership"):                                           *|
|*   1. clear __tpuprof_enabled (disable only) and bump the generation, so    *|
|*      every thread's next begin takes its slow path;                        *|
|*   2. fix the record bytes of each thread's current segment and detach      *|
|*      every thread's mappings of the window's file (segments.c);            *|
|*   3. drop the lock (threads may now enter the next window) and finalize    *|
|*      the file in place (dump_file.c): no record is copied.                 *|
\*===----------------------------------------------------------------------===*/

#include "rt_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/// Everything below is guarded by the ctl lock.
static int window_open;
static uint32_t window_mode;
static uint64_t window_begin;
static char output_dir[PATH_MAX] = ".";
static uint32_t output_device;
/// Where the search for a free dump number starts: one past the last dump
/// written to the same directory and device, so a long run does not probe
/// every earlier file again. O_EXCL still decides.
static uint32_t next_call_num;
static char last_dump_path[sizeof(((tpuprof_rt_dump *)0)->path)];
/// The open window's dump and the next window's, created before a flush
/// switches to it (__tpuprof_rt_dump points at one of them).
static tpuprof_rt_dump dumps[2];
static int dump_cur;
/// TPUPROF_BUFFER / tpuprof_set_buffer_policy, for the next window.
static int buffer_policy;
/// TPUPROF_MEMORY / tpuprof_set_memory.
static int memory_on;
/// TPUPROF_RECORD_SIZE: a window's max_records when enable passes 0.
static uint64_t default_records = TPUPROF_DEFAULT_RECORD_SIZE;
/// The probe cost measured when the open window was enabled (calibrate.c);
/// windows a flush or a schedule reopens keep it. calib_valid 0: none.
static tpuprof_calibration_section window_calib;
/// Its per-counter-word counts (format.h), `window_calib_words` of them
/// (the window's counter words; 0 in mode 0).
static tpuprof_calibration_counts window_calib_counts[TPUPROF_RT_MAX_WORDS];
static uint32_t window_calib_words;
static int calib_valid;

/*===-- Windows ----------------------------------------------------------===*/

/// Whether the open window (in `window_mode`) records memory events.
static uint32_t window_tracks_memory(void) {
  return memory_on ||
         (tpuprof_mode_records(window_mode) & TPUPROF_RECORDS_MEMORY) != 0;
}

/// Sets up `d` for a window of the current settings and creates its file,
/// or (`lazy`: a window opened by TPUPROF_ENABLE, a forked child's) leaves
/// that to the first record: a process that records nothing (a child that
/// execs, a helper program) leaves no file.
static void open_dump_locked(tpuprof_rt_dump *d, int lazy) {
  tpuprof_dump_header *h = &d->h;
  memset(h, 0, sizeof(*h));
  memcpy(h->magic, TPUPROF_DUMP_MAGIC, sizeof(h->magic));
  h->version = TPUPROF_DUMP_VERSION;
  h->header_size = sizeof(*h);
  h->mode = window_mode;
  h->device = output_device;
  h->pid = (uint32_t)getpid();
  h->clock_source = __tpuprof_rt_clock_source();
  if (window_tracks_memory())
    h->flags |= TPUPROF_DUMP_MEMORY;
  h->calib_ticks0 = __tpuprof_rt_calib_ticks0;
  h->calib_ns0 = __tpuprof_rt_calib_ns0;
  // Until the close, the second pair is refreshed as segments are added.
  __tpuprof_rt_calibration_pair(&h->calib_ticks1, &h->calib_ns1);
  d->calibrated = calib_valid;
  d->calib = window_calib;
  d->num_counts = window_calib_words;
  memcpy(d->counts, window_calib_counts,
         window_calib_words * sizeof(window_calib_counts[0]));
  snprintf(d->dir, sizeof(d->dir), "%s", output_dir);
  d->first_n = next_call_num;
  if (lazy) {
    d->state = TPUPROF_RT_DUMP_PENDING;
    return;
  }
  __tpuprof_rt_dump_create(d);
  if (d->state == TPUPROF_RT_DUMP_OPEN)
    next_call_num = h->call_num + 1;
}

int __tpuprof_rt_enable_locked(uint64_t max_records, int mode, int how) {
  int lazy = how == TPUPROF_RT_FILE_LAZY;
  if (window_open) {
    fprintf(stderr, "tpuprof: tpuprof_enable: a profiling window is "
                    "already open\n");
    return -1;
  }
  if (mode < 0 || mode >= (int)TPUPROF_MODE_COUNT) {
    fprintf(stderr, "tpuprof: tpuprof_enable: mode %d is not 0, 1 or 2\n",
            mode);
    return -1;
  }
  if (max_records == 0)
    max_records = default_records;
  if (max_records > TPUPROF_RT_MAX_RECORDS) {
    fprintf(stderr,
            "tpuprof: tpuprof_enable: %llu records per thread is more than "
            "the limit of %llu\n",
            (unsigned long long)max_records,
            (unsigned long long)TPUPROF_RT_MAX_RECORDS);
    return -1;
  }
  // Choose the event set (modes 1/2) on this thread: unknown names and
  // events that cannot open are reported here, once, not on a probe.
  uint32_t words = __tpuprof_rt_counters_start_window_locked((uint32_t)mode);
  window_mode = (uint32_t)mode;
  // Before the window exists, in its mode: the pairs record privately.
  window_calib_words = words;
  calib_valid =
      __tpuprof_rt_calibration_on &&
      __tpuprof_rt_calibrate(words, &window_calib, window_calib_counts) == 0;
  tpuprof_rt_dump *d = &dumps[dump_cur];
  open_dump_locked(d, lazy);
  if (how == TPUPROF_RT_FILE_OR_FAIL && d->state == TPUPROF_RT_DUMP_FAILED) {
    // Said in one line: no window whose every record would be lost.
    __tpuprof_rt_dump_forget(d);
    return -1;
  }
  // The enabling thread usually records first: its state and counter group
  // exist before the window starts, so neither is window time.
  __tpuprof_rt_prepare_thread();
  __tpuprof_rt_threads_lock();
  __tpuprof_rt_dump = d;
  // max_records counts records: with counters each one is bigger. It caps
  // what a thread keeps; nothing is allocated for it up front.
  __tpuprof_rt_window_cap = max_records * TPUPROF_RECORD_BYTES(0, words);
  __tpuprof_rt_window_ring = buffer_policy == TPUPROF_BUFFER_RING;
  __atomic_store_n(&__tpuprof_rt_lost, 0, __ATOMIC_RELAXED);
  __tpuprof_rt_next_gen_locked();
  __tpuprof_rt_dump_begin(d, __tpuprof_rt_now());
  __tpuprof_rt_dump_sync_modules_locked(d);
  // The enabling thread enters the window and takes its first segment
  // before the window's clock starts: the runtime's set-up is not the
  // program's time. Other threads take theirs on their first probe, before
  // that probe reads the clock.
  __tpuprof_rt_segments_enter_locked();
  __tpuprof_rt_threads_unlock();
  window_open = 1;
  __tpuprof_rt_device_window_open();
  // The clock starts last. Until the flags are set no other thread enters
  // the window (enter_window checks __tpuprof_enabled under the thread-list
  // lock) and no close can run (the ctl lock is held), so `d` is still ours.
  // The header on file keeps the begin written above (a dump left by a
  // crash only needs one at or before its first record): no write falls
  // inside the window; the close writes the window's own.
  uint32_t memory = window_tracks_memory();
  window_begin = __tpuprof_rt_now();
  d->h.window_begin = d->h.window_end = window_begin;
  __atomic_store_n(&__tpuprof_memory, memory, __ATOMIC_RELEASE);
  __atomic_store_n(&__tpuprof_enabled, 1, __ATOMIC_RELEASE);
  return 0;
}

/// Ends the open window, writes its dump (unless `write` is 0: a schedule's
/// warmup is discarded) and, with `reopen`, starts the next window at the
/// same instant. The window is over even when writing fails.
static int close_window_locked(int reopen, int write) {
  uint32_t gen = __tpuprof_rt_gen;
  tpuprof_rt_dump *d = &dumps[dump_cur];
  tpuprof_rt_dump *next = &dumps[dump_cur ^ 1];
  // The next window's file is created by its first record (under the
  // thread-list lock, before that record's clock read): a program that
  // flushes and then ends with _exit(), or records nothing more, leaves no
  // empty dump behind.
  if (reopen && write) {
    if (d->state == TPUPROF_RT_DUMP_OPEN && next_call_num <= d->h.call_num)
      next_call_num = d->h.call_num + 1;
    open_dump_locked(next, 1);
  }

  __tpuprof_rt_threads_lock();
  if (!reopen) {
    __atomic_store_n(&__tpuprof_memory, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&__tpuprof_enabled, 0, __ATOMIC_RELEASE);
  }
  __tpuprof_rt_next_gen_locked();
  uint64_t end = __tpuprof_rt_now();
  uint64_t lost = __atomic_exchange_n(&__tpuprof_rt_lost, 0, __ATOMIC_RELAXED);
  int detach_err = 0;
  if (d->state == TPUPROF_RT_DUMP_OPEN &&
      __tpuprof_rt_segments_close_locked(gen, d) != 0)
    detach_err = errno;
  if (!write && reopen && !detach_err) {
    // A discarded window's file becomes the next one's, under its name.
    __tpuprof_rt_dump_restart_locked(d);
    __tpuprof_rt_dump_begin(d, end);
  } else if (reopen) {
    if (!write) { // Its file could not be detached: leave it, start anew.
      __tpuprof_rt_dump_forget(d);
      open_dump_locked(next, 0);
    }
    __tpuprof_rt_dump = next;
    dump_cur ^= 1;
    __tpuprof_rt_dump_begin(next, end);
    __tpuprof_rt_dump_sync_modules_locked(next);
  } else {
    __tpuprof_rt_dump = NULL;
  }
  __tpuprof_rt_threads_reap_locked();
  __tpuprof_rt_threads_unlock();
  __tpuprof_rt_device_window_close(write ? d : NULL, gen);

  if (reopen)
    window_begin = end;
  else
    window_open = 0;
  if (!write) {
    if (!reopen) {
      // The number of a discarded dump is free for the next window.
      if (d->state == TPUPROF_RT_DUMP_OPEN &&
          next_call_num == d->h.call_num + 1)
        next_call_num = d->h.call_num;
      __tpuprof_rt_dump_discard(d);
    }
    return 0;
  }
  if (detach_err) {
    fprintf(stderr, "tpuprof: cannot write dump '%s': %s\n", d->path,
            strerror(detach_err));
    // The file stays: an incomplete dump of every record.
    __tpuprof_rt_dump_forget(d);
    return -1;
  }
  char path[sizeof(last_dump_path)];
  uint32_t n = 0;
  int rc = __tpuprof_rt_dump_finish(d, end, lost, path, sizeof(path), &n);
  if (rc < 0)
    return -1;
  if (rc == 0) {
    memcpy(last_dump_path, path, sizeof(path));
    if (next_call_num <= n)
      next_call_num = n + 1;
  }
  return 0;
}

int __tpuprof_rt_close_window_locked(int write, int reopen) {
  return window_open ? close_window_locked(reopen, write) : -1;
}

int __tpuprof_rt_window_open_locked(void) { return window_open; }

const char *__tpuprof_rt_last_dump_locked(void) { return last_dump_path; }

/*===-- Settings of later windows ----------------------------------------===*/

/// Sets output_dir, without trailing slashes; a relative `dir` is taken
/// from the working directory now, so that a later chdir() of the program
/// does not move the dumps. Returns -1 when too long.
static int set_output_dir_locked(const char *dir) {
  char abs[PATH_MAX];
  if (dir[0] != '/' && getcwd(abs, sizeof(abs))) {
    size_t cwd = strlen(abs);
    int len = strcmp(dir, ".") == 0
                  ? (int)cwd
                  : snprintf(abs + cwd, sizeof(abs) - cwd, "%s%s",
                             cwd > 1 ? "/" : "", dir) +
                        (int)cwd;
    if (len > 0 && (size_t)len < sizeof(abs))
      dir = abs;
  }
  size_t n = strlen(dir);
  while (n > 1 && dir[n - 1] == '/')
    --n;
  if (n == 0) {
    dir = ".";
    n = 1;
  }
  if (n >= sizeof(output_dir)) {
    fprintf(stderr,
            "tpuprof: output directory '%s' is too long; keeping '%s'\n", dir,
            output_dir);
    return -1;
  }
  if (strncmp(output_dir, dir, n) != 0 || output_dir[n] != '\0')
    next_call_num = 0;
  memcpy(output_dir, dir, n);
  output_dir[n] = '\0';
  return 0;
}

void __tpuprof_rt_window_settings_from_env(const tpuprof_rt_config *cfg) {
  // Resolved once, at start-up: the unset default too.
  set_output_dir_locked(cfg->output ? cfg->output : ".");
  output_device = cfg->device;
  buffer_policy = cfg->buffer_ring;
  memory_on = cfg->memory;
  default_records = cfg->record_size;
}

void __tpuprof_rt_set_output_locked(const char *dir, int device) {
  if (dir)
    set_output_dir_locked(dir);
  if (device >= 0 && (uint32_t)device != output_device) {
    output_device = (uint32_t)device;
    next_call_num = 0;
  }
}

void __tpuprof_rt_set_buffer_policy_locked(int policy) {
  buffer_policy = policy;
}

int __tpuprof_rt_set_memory_locked(int on) {
  int was = memory_on;
  memory_on = on != 0;
  if (window_open) {
    __tpuprof_rt_threads_lock();
    if (window_tracks_memory())
      dumps[dump_cur].h.flags |= TPUPROF_DUMP_MEMORY;
    __atomic_store_n(&__tpuprof_memory, window_tracks_memory(),
                     __ATOMIC_RELEASE);
    __tpuprof_rt_threads_unlock();
  }
  return was;
}

/*===-- Process events ---------------------------------------------------===*/

void __tpuprof_rt_window_after_fork_child_locked(void) {
  // The parent's windows and files are the parent's: the child forgets
  // them and, if a window is open, goes on in a window of its own, whose
  // file its first record creates (its pid in the header).
  __tpuprof_rt_dump_forget(&dumps[0]);
  __tpuprof_rt_dump_forget(&dumps[1]);
  __tpuprof_rt_dump = NULL;
  if (window_open) {
    __tpuprof_rt_next_gen_locked();
    window_begin = __tpuprof_rt_now();
    __atomic_store_n(&__tpuprof_rt_lost, 0, __ATOMIC_RELAXED);
    tpuprof_rt_dump *d = &dumps[dump_cur];
    open_dump_locked(d, 1);
    __tpuprof_rt_dump_begin(d, window_begin);
    __tpuprof_rt_dump = d;
  }
}
