/*===- runtime/control.c - Profiling windows and library setup -----*- C -*-===*\
|*                                                                            *|
|* A window is the span between tpuprof_enable() and tpuprof_disable() (or    *|
|* the next tpuprof_flush()); each one becomes exactly one dump. Control      *|
|* calls are serialized by a mutex and are never on the hot path. Switching   *|
|* windows happens under the thread-list lock, which is what makes the        *|
|* lock-free hot path safe (see record.c):                                    *|
|*   1. clear __tpuprof_enabled (disable only) and bump the generation, so    *|
|*      every thread's next begin takes its slow path;                        *|
|*   2. fix each recording thread's published `pos`, and detach every         *|
|*      thread's mapping of the crash-safe file (only if a buffer is heap     *|
|*      memory: copy the records, module tables and header into one image);   *|
|*   3. drop the lock (threads may now reset their buffers) and finish the    *|
|*      dump: in place in the crash-safe file when one thread recorded,       *|
|*      else streamed from it (or the image written) to a fresh file that     *|
|*      takes its place. docs/reliability.md, "Closing a window".             *|
\*===----------------------------------------------------------------------===*/

#include "rt_internal.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/// The flag instrumented code tests inline before calling a probe.
TPUPROF_RT_API volatile uint32_t __tpuprof_enabled = 0;

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static tpuprof_rt_config env_config;

/// Everything below is guarded by ctl_mutex.
static pthread_mutex_t ctl_mutex = PTHREAD_MUTEX_INITIALIZER;
static int window_open;
static uint32_t window_mode;
static uint64_t window_begin;
static char output_dir[PATH_MAX] = ".";
static uint32_t output_device;
/// Where the search for a free dump number starts: one past the last dump
/// written to the same directory and device, so a long run does not probe
/// every earlier file again. O_EXCL still decides.
static uint32_t next_call_num;
static char last_dump_path[PATH_MAX + 64];
/// The open window's crash-safe file and the next window's, created before
/// a flush switches to it (__tpuprof_rt_wfile points at one of them).
static tpuprof_rt_wfile wfiles[2] = {{.fd = -1}, {.fd = -1}};
static int wfile_cur;
/// TPUPROF_BUFFER / tpuprof_set_buffer_policy, for the next window.
static int buffer_policy;
/// The probe cost measured when the open window was enabled (calibrate.c);
/// windows a flush or a schedule reopens keep it. calib_valid 0: none.
static tpuprof_calibration_section window_calib;
/// Its per-counter-word counts (format.h), `window_calib_words` of them
/// (the window's counter words; 0 in mode 0).
static tpuprof_calibration_counts
    window_calib_counts[TPUPROF_RT_EVENT_WORDS(TPUPROF_RT_MAX_EVENTS) + 1];
static uint32_t window_calib_words;
static int calib_valid;

/*===-- Initialization ---------------------------------------------------===*/

static void at_fork_prepare(void);
static void at_fork_parent(void);
static void at_fork_child(void);
static void at_exit(void);

/// Sets output_dir, without trailing slashes. Returns -1 when too long.
static int set_output_dir_locked(const char *dir) {
  size_t n = strlen(dir);
  while (n > 1 && dir[n - 1] == '/')
    --n;
  if (n == 0) {
    dir = ".";
    n = 1;
  }
  if (n >= sizeof(output_dir)) {
    fprintf(stderr, "tpuprof: output directory '%s' is too long; keeping '%s'\n",
            dir, output_dir);
    return -1;
  }
  if (strncmp(output_dir, dir, n) != 0 || output_dir[n] != '\0')
    next_call_num = 0;
  memcpy(output_dir, dir, n);
  output_dir[n] = '\0';
  return 0;
}

static void init_once_fn(void) {
  __tpuprof_rt_parse_env(&env_config, NULL, NULL);
  __tpuprof_rt_clock_init(env_config.clock); // Takes the first pair.
  if (env_config.output)
    set_output_dir_locked(env_config.output);
  output_device = env_config.device;
  buffer_policy = env_config.buffer_ring;
  __tpuprof_rt_calibration_on = env_config.calibrate;
  if (env_config.events)
    (void)__tpuprof_rt_set_events_locked(env_config.events, 0);
  __tpuprof_rt_threads_init();
  pthread_atfork(at_fork_prepare, at_fork_parent, at_fork_child);
  // Closes a window still open at exit (TPUPROF_ENABLE=1, or a program that
  // never called tpuprof_disable) so its records reach a dump.
  atexit(at_exit);
}

void __tpuprof_rt_ensure_init(void) { pthread_once(&init_once, init_once_fn); }

static int enable_locked(uint64_t max_records, int mode, int quiet);

__attribute__((constructor)) static void tpuprof_rt_constructor(void) {
  __tpuprof_rt_ensure_init();
  if (!env_config.enable && !env_config.schedule)
    return;
  pthread_mutex_lock(&ctl_mutex);
  if (env_config.schedule) {
    // A schedule drives the windows from step 0; it replaces TPUPROF_ENABLE.
    __tpuprof_rt_schedule_from_env_locked(env_config.schedule,
                                          (int)env_config.mode,
                                          env_config.record_size);
  } else if (!window_open) {
    // Another constructor may have opened a window through the API already.
    enable_locked(env_config.record_size, (int)env_config.mode, 0);
  }
  pthread_mutex_unlock(&ctl_mutex);
}

/*===-- Windows ----------------------------------------------------------===*/

/// Bytes of the CALIBRATION payload: the struct, then the counts.
static uint64_t calibration_payload(void) {
  return sizeof(window_calib) +
         (uint64_t)window_calib_words * sizeof(window_calib_counts[0]);
}

/// Bytes of the CALIBRATION section, 0 when the window has none.
static uint64_t calibration_bytes(void) {
  return calib_valid ? __tpuprof_rt_section_bytes(calibration_payload()) : 0;
}

/// Writes the CALIBRATION section (if any) at `p`; returns the end.
static uint8_t *write_calibration(uint8_t *p) {
  if (!calib_valid)
    return p;
  uint8_t *q = __tpuprof_rt_put_section(p, TPUPROF_SECTION_CALIBRATION,
                                        calibration_payload());
  memcpy(q, &window_calib, sizeof(window_calib));
  memcpy(q + sizeof(window_calib), window_calib_counts,
         window_calib_words * sizeof(window_calib_counts[0]));
  return q + calibration_payload();
}

/// Fills the header fields every dump of this window shares.
static void fill_header(tpuprof_dump_header *h) {
  memcpy(h->magic, TPUPROF_DUMP_MAGIC, sizeof(h->magic));
  h->version = TPUPROF_DUMP_VERSION;
  h->header_size = sizeof(*h);
  h->mode = window_mode;
  h->device = output_device;
  h->pid = (uint32_t)getpid();
  h->clock_source = __tpuprof_rt_clock_source();
  h->calib_ticks0 = __tpuprof_rt_calib_ticks0;
  h->calib_ns0 = __tpuprof_rt_calib_ns0;
}

/// Creates the crash-safe file of the window about to open in `w`: header
/// (not complete), MODULE sections, EVENTS section. On failure w->fd is -1
/// and the window records into memory; the dump write at its end then
/// reports the cause once. ctl mutex held; takes the module registry lock.
static void create_window_file_locked(tpuprof_rt_wfile *w) {
  w->fd = -1;
  uint32_t num_modules = 0;
  uint64_t module_bytes = __tpuprof_rt_modules_lock_and_size(&num_modules);
  uint32_t names_bytes = __tpuprof_rt_counters_names_bytes();
  uint64_t events_bytes = __tpuprof_rt_section_bytes(
      sizeof(tpuprof_events_section) + names_bytes);
  uint64_t total = sizeof(tpuprof_dump_header) + module_bytes + events_bytes +
                   calibration_bytes();
  uint8_t *image = (uint8_t *)calloc(1, total);
  if (!image) {
    __tpuprof_rt_modules_unlock();
    return;
  }
  uint8_t *p = __tpuprof_rt_modules_write(image + sizeof(tpuprof_dump_header));
  __tpuprof_rt_modules_unlock();
  tpuprof_events_section ev;
  memset(&ev, 0, sizeof(ev));
  uint8_t *q = __tpuprof_rt_put_section(p, TPUPROF_SECTION_EVENTS,
                                        sizeof(ev) + names_bytes);
  ev.count = __tpuprof_rt_counters_write_names(q + sizeof(ev));
  memcpy(q, &ev, sizeof(ev));
  write_calibration(p + events_bytes);
  tpuprof_dump_header h;
  memset(&h, 0, sizeof(h));
  fill_header(&h);
  // Until the window closes, the window spans [begin, begin] and the
  // second calibration pair is refreshed as threads join; the reader of an
  // incomplete dump extends the window to its last record.
  __tpuprof_rt_calibration_pair(&h.calib_ticks1, &h.calib_ns1);
  h.window_begin = h.window_end = __tpuprof_rt_now();
  h.num_sections = num_modules + 1 + (calib_valid ? 1 : 0);
  memcpy(image, &h, sizeof(h));
  if (__tpuprof_rt_wfile_create(w, output_dir, output_device, next_call_num,
                                image, total) == 0)
    next_call_num = w->h.call_num + 1;
  free(image);
}

static int enable_locked(uint64_t max_records, int mode, int quiet) {
  if (window_open) {
    if (!quiet)
      fprintf(stderr, "tpuprof: tpuprof_enable: a profiling window is "
                      "already open\n");
    return -1;
  }
  if (mode < 0 || mode > 2) {
    fprintf(stderr, "tpuprof: tpuprof_enable: mode %d is not 0, 1 or 2\n",
            mode);
    return -1;
  }
  if (max_records == 0)
    max_records = env_config.record_size;
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
  // max_records counts records: with counters each one is bigger.
  uint64_t cap = max_records * TPUPROF_RECORD_BYTES(0, words);
  window_mode = (uint32_t)mode;
  // Before the window exists, in its mode: the pairs record privately.
  window_calib_words = words;
  calib_valid =
      __tpuprof_rt_calibration_on &&
      __tpuprof_rt_calibrate(words, &window_calib, window_calib_counts) == 0;
  tpuprof_rt_wfile *w = &wfiles[wfile_cur];
  create_window_file_locked(w);
  __tpuprof_rt_threads_lock();
  __tpuprof_rt_wfile = w;
  __tpuprof_rt_threads_unlock();
  // The enabling thread usually records first: give it its buffer (and its
  // counter group) before the window starts, so neither is window time.
  __tpuprof_rt_prepare_thread(cap);
  __tpuprof_rt_threads_lock();
  __tpuprof_rt_window_cap = cap;
  __tpuprof_rt_window_ring = buffer_policy == TPUPROF_BUFFER_RING;
  __atomic_store_n(&__tpuprof_rt_lost, 0, __ATOMIC_RELAXED);
  __tpuprof_rt_next_gen_locked();
  window_begin = __tpuprof_rt_now();
  if (w->fd >= 0) {
    w->h.window_begin = w->h.window_end = window_begin;
    __tpuprof_rt_wfile_sync_header(w);
  }
  __atomic_store_n(&__tpuprof_enabled, 1, __ATOMIC_RELEASE);
  __tpuprof_rt_threads_unlock();
  window_open = 1;
  return 0;
}

/// Ends the open window, writes its dump (unless `write` is 0: a schedule's
/// warmup is discarded) and, with `reopen`, starts the next window at the
/// same instant. The window is over even when writing fails.
static int close_window_locked(int reopen, int write) {
  uint32_t gen = __tpuprof_rt_gen;
  tpuprof_dump_header h;
  memset(&h, 0, sizeof(h));
  tpuprof_rt_wfile *w = &wfiles[wfile_cur];
  tpuprof_rt_wfile *next = &wfiles[wfile_cur ^ 1];
  // A discarded window's file goes first, so the next window reuses its
  // number. Under the thread-list lock: a joining thread may be growing it.
  if (!write) {
    __tpuprof_rt_threads_lock();
    if (w->fd >= 0 && next_call_num == w->h.call_num + 1)
      next_call_num = w->h.call_num;
    __tpuprof_rt_wfile_discard(w);
    __tpuprof_rt_threads_unlock();
  }
  // The next window's file exists before the switch, so threads entering
  // it map their sections there from their first record on.
  if (reopen)
    create_window_file_locked(next);

  __tpuprof_rt_threads_lock();
  if (!reopen)
    __atomic_store_n(&__tpuprof_enabled, 0, __ATOMIC_RELEASE);
  __tpuprof_rt_next_gen_locked();
  uint64_t end = __tpuprof_rt_now();
  __tpuprof_rt_wfile = reopen ? next : NULL;
  if (reopen) {
    wfile_cur ^= 1;
    if (next->fd >= 0) {
      next->h.window_begin = next->h.window_end = end;
      __tpuprof_rt_wfile_sync_header(next);
    }
  }
  __tpuprof_rt_calibration_pair(&h.calib_ticks1, &h.calib_ns1);
  uint64_t lost = __atomic_exchange_n(&__tpuprof_rt_lost, 0, __ATOMIC_RELAXED);

  if (!write) {
    __tpuprof_rt_threads_reap_locked();
    __tpuprof_rt_threads_unlock();
    if (reopen)
      window_begin = end;
    else
      window_open = 0;
    return 0;
  }
  uint32_t num_threads = 0, num_modules = 0;
  uint64_t thread_bytes =
      __tpuprof_rt_threads_snapshot_locked(gen, &num_threads);
  uint64_t module_bytes = __tpuprof_rt_modules_lock_and_size(&num_modules);
  uint32_t names_bytes = __tpuprof_rt_counters_names_bytes();
  uint64_t events_bytes = __tpuprof_rt_section_bytes(
      sizeof(tpuprof_events_section) + names_bytes);
  uint64_t prefix =
      sizeof(h) + module_bytes + events_bytes + calibration_bytes();
  uint64_t total = prefix + thread_bytes;
  uint64_t dropped = lost;
  // Where each thread's records lie in the crash-safe file; NULL when a
  // buffer is heap memory (its records are then copied into the image).
  tpuprof_rt_tsec *secs = NULL;
  if (w->fd >= 0 && num_threads) {
    secs = (tpuprof_rt_tsec *)malloc(num_threads * sizeof(*secs));
    if (secs && __tpuprof_rt_threads_sections_locked(gen, w, secs,
                                                     num_threads) != 0) {
      free(secs);
      secs = NULL;
    }
  }
  // In place when the file's prefix is still right (no module registered
  // since it was created) and at most one thread recorded, into the first
  // THREAD section, without wrapping: finalizing then moves no record.
  // Else streamed when every thread's records are in the file: only the
  // prefix is built in memory, the records go from the file to a fresh one.
  int in_place = w->fd >= 0 && prefix == w->prefix_end &&
                 (num_threads == 0 ||
                  (secs && num_threads == 1 &&
                   secs[0].section == w->prefix_end && secs[0].wrap == 0));
  // calloc: section padding and every reserved field must be zero.
  uint8_t *image =
      in_place ? NULL : (uint8_t *)calloc(1, secs ? prefix : total);
  if (image) {
    uint8_t *p = image + sizeof(h);
    p = __tpuprof_rt_modules_write(p);
    __tpuprof_rt_modules_unlock();
    tpuprof_events_section ev;
    memset(&ev, 0, sizeof(ev)); // Mode 0: no counters, no event names.
    uint8_t *q = __tpuprof_rt_put_section(p, TPUPROF_SECTION_EVENTS,
                                          sizeof(ev) + names_bytes);
    ev.count = __tpuprof_rt_counters_write_names(q + sizeof(ev));
    memcpy(q, &ev, sizeof(ev));
    p += events_bytes;
    p = write_calibration(p);
    if (!secs)
      p = __tpuprof_rt_threads_write_locked(gen, p, &dropped);
  } else {
    __tpuprof_rt_modules_unlock();
  }
  int detach_err = 0;
  if (in_place || (image && secs)) {
    for (uint32_t i = 0; i < num_threads; ++i)
      dropped += secs[i].dropped;
    if (__tpuprof_rt_threads_detach_locked(w) != 0)
      detach_err = errno;
  }
  __tpuprof_rt_threads_reap_locked();
  __tpuprof_rt_threads_unlock();

  uint64_t begin = window_begin;
  if (reopen)
    window_begin = end;
  else
    window_open = 0;
  if ((!in_place && !image) || detach_err) {
    if (detach_err)
      fprintf(stderr, "tpuprof: cannot write dump '%s': %s\n", w->path,
              strerror(detach_err));
    else
      fprintf(stderr,
              "tpuprof: cannot write dump to '%s': out of memory for %llu "
              "bytes\n",
              output_dir, (unsigned long long)(secs ? prefix : total));
    // The crash-safe file stays: an incomplete dump of every record.
    __tpuprof_rt_wfile_forget(w);
    free(image);
    free(secs);
    return -1;
  }

  fill_header(&h);
  h.window_begin = begin;
  h.window_end = end;
  h.dropped = dropped;
  h.num_sections = num_modules + 1 + (calib_valid ? 1 : 0) + num_threads;
  if (image)
    memcpy(image, &h, sizeof(h));

  char path[sizeof(last_dump_path)];
  uint32_t n = 0;
  int rc;
  if (in_place) {
    rc = __tpuprof_rt_wfile_finish_in_place(w, &h, secs, path, sizeof(path),
                                            &n);
  } else if (secs) {
    rc = __tpuprof_rt_wfile_finish_streamed(w, image, prefix, secs,
                                            num_threads, path, sizeof(path),
                                            &n);
  } else if (w->fd >= 0) {
    rc = __tpuprof_rt_wfile_finish(w, image, total, path, sizeof(path), &n);
  } else {
    // No crash-safe file (it could not be created): write the dump now.
    rc = __tpuprof_rt_write_dump(output_dir, output_device, next_call_num,
                                 image, total, path, sizeof(path), &n);
    if (rc == 0 && next_call_num <= n)
      next_call_num = n + 1;
  }
  free(image);
  free(secs);
  if (rc != 0)
    return -1;
  memcpy(last_dump_path, path, sizeof(path));
  return 0;
}

/*===-- Public API -------------------------------------------------------===*/

TPUPROF_RT_API int tpuprof_enable(uint64_t max_records, int mode) {
  __tpuprof_rt_ensure_init();
  pthread_mutex_lock(&ctl_mutex);
  int rc = enable_locked(max_records, mode, 0);
  pthread_mutex_unlock(&ctl_mutex);
  return rc;
}

static int close_window(const char *who, int reopen) {
  __tpuprof_rt_ensure_init();
  pthread_mutex_lock(&ctl_mutex);
  int rc;
  if (!window_open) {
    fprintf(stderr, "tpuprof: %s: no profiling window is open\n", who);
    rc = -1;
  } else {
    rc = close_window_locked(reopen, 1);
  }
  pthread_mutex_unlock(&ctl_mutex);
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
  return last_dump_path;
}

TPUPROF_RT_API void tpuprof_set_output(const char *dir, int device) {
  __tpuprof_rt_ensure_init();
  pthread_mutex_lock(&ctl_mutex);
  if (dir)
    set_output_dir_locked(dir);
  if (device >= 0 && (uint32_t)device != output_device) {
    output_device = (uint32_t)device;
    next_call_num = 0;
  }
  pthread_mutex_unlock(&ctl_mutex);
}

TPUPROF_RT_API int tpuprof_set_buffer_policy(int policy) {
  __tpuprof_rt_ensure_init();
  if (policy != TPUPROF_BUFFER_STOP && policy != TPUPROF_BUFFER_RING) {
    fprintf(stderr, "tpuprof: tpuprof_set_buffer_policy: %d is not "
                    "TPUPROF_BUFFER_STOP or TPUPROF_BUFFER_RING\n", policy);
    return -1;
  }
  pthread_mutex_lock(&ctl_mutex);
  buffer_policy = policy;
  pthread_mutex_unlock(&ctl_mutex);
  return 0;
}

TPUPROF_RT_API int tpuprof_set_events(const char *events) {
  __tpuprof_rt_ensure_init();
  pthread_mutex_lock(&ctl_mutex);
  int rc = __tpuprof_rt_set_events_locked(events, 1);
  pthread_mutex_unlock(&ctl_mutex);
  return rc;
}

/*===-- For the schedule (schedule.c) -------------------------------------===*/

void __tpuprof_rt_ctl_lock(void) {
  __tpuprof_rt_ensure_init();
  pthread_mutex_lock(&ctl_mutex);
}
void __tpuprof_rt_ctl_unlock(void) { pthread_mutex_unlock(&ctl_mutex); }
int __tpuprof_rt_window_open_locked(void) { return window_open; }
int __tpuprof_rt_enable_locked(uint64_t max_records, int mode) {
  return enable_locked(max_records, mode, 0);
}
int __tpuprof_rt_close_window_locked(int write, int reopen) {
  return window_open ? close_window_locked(reopen, write) : -1;
}
const char *__tpuprof_rt_last_dump_locked(void) { return last_dump_path; }

/*===-- Process events ---------------------------------------------------===*/

static void at_exit(void) {
  pthread_mutex_lock(&ctl_mutex);
  if (window_open)
    close_window_locked(0, 1);
  pthread_mutex_unlock(&ctl_mutex);
}

// Lock order everywhere: ctl_mutex, thread list, module registry. Holding
// all three across fork() means the child never inherits one held by a
// thread that does not exist there.
static void at_fork_prepare(void) {
  pthread_mutex_lock(&ctl_mutex);
  __tpuprof_rt_threads_lock();
  uint32_t ignored;
  (void)__tpuprof_rt_modules_lock_and_size(&ignored);
}

static void at_fork_parent(void) {
  __tpuprof_rt_modules_unlock();
  __tpuprof_rt_threads_unlock();
  pthread_mutex_unlock(&ctl_mutex);
}

static void at_fork_child(void) {
  // The child's records so far are the parent's: it goes on in a window of
  // its own, which becomes its own dump (its pid in the header).
  if (window_open) {
    __tpuprof_rt_next_gen_locked();
    window_begin = __tpuprof_rt_now();
    __atomic_store_n(&__tpuprof_rt_lost, 0, __ATOMIC_RELAXED);
  }
  __tpuprof_rt_threads_after_fork_child_locked();
  __tpuprof_rt_modules_unlock();
  // The window file is the parent's: the child closes its copy of the fd
  // and, if a window is open, creates a file of its own (its pid).
  tpuprof_rt_wfile *w = &wfiles[wfile_cur];
  __tpuprof_rt_wfile_forget(w);
  __tpuprof_rt_wfile_forget(&wfiles[wfile_cur ^ 1]);
  __tpuprof_rt_wfile = NULL;
  if (window_open) {
    create_window_file_locked(w);
    __tpuprof_rt_wfile = w;
    if (w->fd >= 0) {
      w->h.window_begin = w->h.window_end = window_begin;
      __tpuprof_rt_wfile_sync_header(w);
    }
  }
  __tpuprof_rt_threads_unlock();
  pthread_mutex_unlock(&ctl_mutex);
}
