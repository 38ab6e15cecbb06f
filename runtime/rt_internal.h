/*===- runtime/rt_internal.h - libtpuprof_rt internals -------------*- C -*-===*\
|*                                                                            *|
|* Shared between the runtime's C files and its GoogleTests; never installed. *|
|* The runtime is split by concern:                                           *|
|*   clock.c        tick source (rdtsc or CLOCK_MONOTONIC) and calibration    *|
|*   env.c          parsing of the TPUPROF_* environment                      *|
|*   module.c       probe-table registration (__tpuprof_register_module)      *|
|*   record.c       the hot path (__tpuprof_begin/_dims/_end), thread states  *|
|*   control.c      windows: enable/disable/flush, library constructor        *|
|*   dump_writer.c  the crash-safe window file, finalized in place or       *|
|*                  replaced by a dump image written to a fresh file          *|
|*                                                                            *|
|* Every symbol here is hidden in the shared library; in the static one they  *|
|* are visible to the program, hence the reserved __tpuprof_rt_ prefix.       *|
\*===----------------------------------------------------------------------===*/

#ifndef TPUPROF_RUNTIME_RT_INTERNAL_H
#define TPUPROF_RUNTIME_RT_INTERNAL_H

#include "tpuprof/format.h"
#include "tpuprof/tpuprof.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TPUPROF_RT_API __attribute__((visibility("default")))
#define TPUPROF_RT_LIKELY(x) __builtin_expect(!!(x), 1)
#define TPUPROF_RT_UNLIKELY(x) __builtin_expect(!!(x), 0)

/*===-- Limits -----------------------------------------------------------===*/

/// Probe ids from here up are never recorded. A module whose table fails
/// validation gets this as its first id, so its probes cost one compare.
#define TPUPROF_RT_IGNORED_PROBE_BASE 0xFF000000u

/// Open probes tracked per thread. Deeper begins are counted as dropped.
#define TPUPROF_RT_STACK_DEPTH 256u

/// Largest accepted max_records. Stack entries hold record offsets in 8-byte
/// words as uint32, so a buffer must stay below 32 GiB; 2^30 timing-only
/// records is 24 GiB.
#define TPUPROF_RT_MAX_RECORDS (1ull << 30)

/// Largest number of dynamic dimensions one record carries (num_dims is a
/// uint8_t); extra dimensions are not recorded.
#define TPUPROF_RT_MAX_DIMS 255u

/*===-- Clock (clock.c) --------------------------------------------------===*/

/// Non-zero when ticks are rdtsc; read inline by the hot path.
extern int __tpuprof_rt_use_tsc;

/// Chooses the clock: `request` is 0 auto, 1 tsc, 2 monotonic (env.c's
/// TPUPROF_CLOCK), and takes the first calibration pair. Warns when tsc is
/// requested but cannot be used well.
void __tpuprof_rt_clock_init(int request);

/// First calibration pair (dump header calib_ticks0/calib_ns0), taken when
/// the clock is chosen, i.e. at library initialization.
extern uint64_t __tpuprof_rt_calib_ticks0;
extern uint64_t __tpuprof_rt_calib_ns0;

/// The tpuprof_clock_source in use.
uint32_t __tpuprof_rt_clock_source(void);

/// Forces a clock source and retakes the first calibration pair (tests).
/// Only call while no window is open.
void __tpuprof_rt_set_clock_source(uint32_t source);

/// Current tick value of the active source (out of line; the hot path has
/// its own inline copy in record.c).
uint64_t __tpuprof_rt_now(void);

/// CLOCK_MONOTONIC in ns.
uint64_t __tpuprof_rt_monotonic_ns(void);

/// A (ticks, CLOCK_MONOTONIC ns) pair read as close together as possible.
void __tpuprof_rt_calibration_pair(uint64_t *ticks, uint64_t *ns);

/// Whether the CPU reports an invariant TSC (cpuid 0x80000007 EDX bit 8).
int __tpuprof_rt_cpu_has_invariant_tsc(void);

/*===-- Counters (counters.c) -------------------------------------------===*/

/// Events one perf_event group holds at most.
#define TPUPROF_RT_MAX_EVENTS 16u
/// Longest event name kept, NUL included.
#define TPUPROF_RT_EVENT_NAME_MAX 128u
/// Longest event list (TPUPROF_EVENTS, tpuprof_set_events), NUL included.
#define TPUPROF_RT_EVENT_LIST_MAX 2048u

struct perf_event_attr;
struct perf_event_mmap_page;

/// A thread's perf_event group for the window's event set. Cold: touched by
/// the slow path (open/close) and, through the pointer, by the counter read.
typedef struct tpuprof_rt_group {
  int fd[TPUPROF_RT_MAX_EVENTS];  ///< fd[0] leads the group.
  struct perf_event_mmap_page *page[TPUPROF_RT_MAX_EVENTS]; ///< rdpmc only.
  uint32_t nfd;    ///< Open fds: 0 (no group on this thread) or nev.
  uint32_t nev;    ///< Events in the window's set.
  uint32_t setgen; ///< __tpuprof_rt_ctr_setgen it was opened for (0: none).
  int cpu;         ///< Mode 2: records carry the CPU word.
  int rdpmc;       ///< Read with rdpmc (every page allows it).
} tpuprof_rt_group;

/// Bumped when the window's event set changes and after fork().
extern uint32_t __tpuprof_rt_ctr_setgen;

/// Initializes libpfm4 once; -1 (with one warning) if it cannot.
int __tpuprof_rt_pfm_init(void);

/// /proc/sys/kernel/perf_event_paranoid, or -100 when unreadable.
int __tpuprof_rt_perf_paranoid(void);

/// Encodes `name` with libpfm4 (PFM_OS_PERF_EVENT_EXT, user level unless
/// the name has :k/:u) into a group-readable attr. 0, or -1 with *why.
int __tpuprof_rt_encode_event(const char *name, struct perf_event_attr *attr,
                              const char **why);

/// perf_event_open for the calling thread on any CPU.
int __tpuprof_rt_perf_open(struct perf_event_attr *attr, int group_fd);

/// Writes "perf_event_open: <strerror>, <likely cause>; perf_event_paranoid=N".
void __tpuprof_rt_explain_open_error(int err, const struct perf_event_attr *attr,
                                     char *out, size_t n);

/// Sets the requested event list (NULL/"" = the default set). With
/// `strict`, a name libpfm4 cannot encode rejects the whole list (-1, one
/// line). ctl mutex held (or during initialization).
int __tpuprof_rt_set_events_locked(const char *list, int strict);

/// Chooses the window's event set on the calling (enabling) thread: encodes
/// and test-opens the requested or default events, warns once about those
/// that do not open, and returns the counter words per record
/// (TPUPROF_RT_EVENT_WORDS, + 1 CPU word in mode 2). ctl mutex held, no
/// window open.
uint32_t __tpuprof_rt_counters_start_window_locked(uint32_t mode);

/// PMU events in the window's set (its counter words: format.h and
/// TPUPROF_RT_EVENT_WORDS). ctl mutex held.
uint32_t __tpuprof_rt_counters_window_nev(void);

/// The EVENTS section's names: their bytes (NULs included), and writing
/// them at `p` (returns the count, = counter words per record).
uint32_t __tpuprof_rt_counters_names_bytes(void);
uint32_t __tpuprof_rt_counters_write_names(uint8_t *p);

/// Copies the window's real event names (tests, tpuprof-events).
uint32_t __tpuprof_rt_counters_window_events(
    char names[][TPUPROF_RT_EVENT_NAME_MAX], uint32_t max);

/// Opens (or keeps) the calling thread's group for the current set and
/// returns the counter words per record. Thread-list lock held.
uint32_t __tpuprof_rt_group_sync(tpuprof_rt_group *g);

/// Closes a group's fds (any thread may call it).
void __tpuprof_rt_group_close(tpuprof_rt_group *g);

/// Counter words per record of a window with `nev` events, before the mode-2
/// CPU word: the event deltas, TIME_ENABLED, TIME_RUNNING and READ_TICKS
/// (format.h); none without events.
#define TPUPROF_RT_EVENT_WORDS(nev) ((nev) ? (nev) + 3u : 0u)
/// Index of the READ_TICKS word, which the hot path (record.c) fills: the
/// ticks its two group reads took.
#define TPUPROF_RT_READ_TICKS_WORD(nev) ((nev) + 2u)

/// Hot path: stores the begin readings (event values, time_enabled,
/// time_running, mode 2 CPU) into a record's counter words, and at end
/// replaces them by deltas (atomic stores: the record is published).
void __tpuprof_rt_counters_begin(const tpuprof_rt_group *g, uint64_t *words);
void __tpuprof_rt_counters_end(const tpuprof_rt_group *g, uint64_t *words);

/*===-- Environment (env.c) ----------------------------------------------===*/

/// Clock requests from TPUPROF_CLOCK.
enum {
  TPUPROF_RT_CLOCK_AUTO = 0,
  TPUPROF_RT_CLOCK_TSC = 1,
  TPUPROF_RT_CLOCK_MONOTONIC = 2,
};

/// Settings read from the environment once, when the library loads.
typedef struct tpuprof_rt_config {
  int enable;             ///< TPUPROF_ENABLE / ENABLE_ALL_PROFILE
  uint32_t mode;          ///< TPUPROF_MODE / PROFILE_MODE
  uint64_t record_size;   ///< TPUPROF_RECORD_SIZE / PROFILE_RECORD_SIZE
  const char *output;     ///< TPUPROF_OUTPUT, NULL when unset or empty.
  uint32_t device;        ///< TPUPROF_DEVICE
  int clock;              ///< TPUPROF_CLOCK, a TPUPROF_RT_CLOCK_* value.
  const char *events;     ///< TPUPROF_EVENTS, NULL when unset or empty.
  const char *schedule;   ///< TPUPROF_SCHEDULE, NULL when unset or empty.
  int buffer_ring;        ///< TPUPROF_BUFFER: 0 stop, 1 ring.
  int calibrate;          ///< TPUPROF_CALIBRATE (default 1).
} tpuprof_rt_config;

/// Looks a variable up; returns NULL when it is unset.
typedef const char *(*tpuprof_rt_getenv_fn)(const char *name, void *ctx);

/// Fills `cfg` from the variables `get` returns (getenv when NULL). Every bad
/// value prints one line to stderr and leaves that setting at its default.
/// Returns the number of bad values.
int __tpuprof_rt_parse_env(tpuprof_rt_config *cfg, tpuprof_rt_getenv_fn get,
                           void *ctx);

/// Parses a decimal (or 0x hex) unsigned integer in [min, max] with nothing
/// after it but blanks. Returns 0 and sets *out on success, -1 otherwise.
int __tpuprof_rt_parse_uint(const char *s, uint64_t min, uint64_t max,
                            uint64_t *out);

/// Parses a boolean: 1/0, true/false, yes/no, on/off (any case). Returns 0
/// and sets *out on success, -1 otherwise.
int __tpuprof_rt_parse_bool(const char *s, int *out);

/*===-- Modules (module.c) -----------------------------------------------===*/

/// Checks a probe table's header, sizes and string offsets. Returns NULL when
/// it is usable (and its exact byte size in *table_size), else a reason.
const char *__tpuprof_rt_validate_table(const void *table, uint64_t size,
                                        uint64_t *table_size);

/// Locks the registry and returns the bytes its MODULE sections need in a
/// dump (section headers included) and their count.
uint64_t __tpuprof_rt_modules_lock_and_size(uint32_t *count);

/// Writes the MODULE sections at `p` (registry locked); returns the end.
uint8_t *__tpuprof_rt_modules_write(uint8_t *p);

void __tpuprof_rt_modules_unlock(void);

/// Modules registered so far (tests).
uint32_t __tpuprof_rt_num_modules(void);

/*===-- Threads and windows (record.c) -----------------------------------===*/

/// Window generation: bumped under the thread-list lock at every enable,
/// flush and disable. A thread records only while its state carries the
/// current generation; stack entries carry it too, so an end never writes
/// into a buffer that was reset for a later window.
extern uint32_t __tpuprof_rt_gen;

/// Per-thread buffer capacity of the open window, in bytes.
extern uint64_t __tpuprof_rt_window_cap;

/// Records lost outside any thread's count (buffer allocation failed).
extern uint64_t __tpuprof_rt_lost;

/// Full-buffer policy of the open window: 0 stop recording, 1 ring (keep the
/// newest records). Threads take it when they enter the window.
extern int __tpuprof_rt_window_ring;

/// The thread-list lock. Held by control.c while it switches windows and
/// snapshots the buffers; threads take it in their slow path only.
void __tpuprof_rt_threads_lock(void);
void __tpuprof_rt_threads_unlock(void);

/// Creates the calling thread's state and sizes its buffer to `cap` bytes
/// ahead of a window (takes the thread-list lock).
void __tpuprof_rt_prepare_thread(uint64_t cap);

/// Bumps the generation (skipping 0) and returns the new one. Lock held.
uint32_t __tpuprof_rt_next_gen_locked(void);

/// Fixes, for every thread that recorded in window `gen`, the record bytes
/// the dump will hold, and returns the bytes all their THREAD sections need
/// (section headers included) and their count. Lock held.
uint64_t __tpuprof_rt_threads_snapshot_locked(uint32_t gen, uint32_t *count);

/// Writes the THREAD sections fixed by the last snapshot at `p` and adds the
/// threads' dropped counts to *dropped; returns the end. Lock held.
uint8_t *__tpuprof_rt_threads_write_locked(uint32_t gen, uint8_t *p,
                                           uint64_t *dropped);

struct tpuprof_rt_wfile;

/// Where one thread's records lie in the window file, for a close that
/// finalizes the file in place or streams them from it into a fresh one
/// (dump_writer.c).
typedef struct tpuprof_rt_tsec {
  uint64_t section; ///< File offset of its section header.
  uint64_t tail;    ///< Ring wrapped (wrap != 0): the previous lap's records
  uint64_t wrap;    ///< [tail, wrap) come first, then [0, pos).
  uint64_t pos;     ///< Record bytes fixed by the snapshot.
  uint64_t tid;
  uint64_t dropped;
} tpuprof_rt_tsec;

/// Fills `out` (room for `max`) with window `gen`'s snapshotted threads in
/// list order (the dump's THREAD order). 0, or -1 when some thread's records
/// are not in `w`'s file (its buffer is heap memory). Lock held.
int __tpuprof_rt_threads_sections_locked(uint32_t gen,
                                         const struct tpuprof_rt_wfile *w,
                                         tpuprof_rt_tsec *out, uint32_t max);

/// Swaps every thread's mapping of `w` for anonymous memory of the same
/// size at the same address (mmap MAP_FIXED), so that owners still inside a
/// probe, or racing the close, store into memory no dump reads, and `w` can
/// be edited and truncated without a SIGBUS. 0, or -1 with errno. Lock held.
int __tpuprof_rt_threads_detach_locked(const struct tpuprof_rt_wfile *w);

/// Frees the states of threads that exited (their records are flushed).
/// Lock held.
void __tpuprof_rt_threads_reap_locked(void);

/// Releases the states of all threads but the caller's after fork(), in the
/// child (those threads do not exist there). Lock held.
void __tpuprof_rt_threads_after_fork_child_locked(void);

/// The pthread key whose destructor retires a thread's state; created once.
void __tpuprof_rt_threads_init(void);

/// Calibration support: points the calling thread's probes at a private
/// state that records into `buf` (`cap` bytes, which the caller has touched)
/// with the counter group and counter words of the thread's own state, so
/// the real hot path runs but nothing reaches a window's buffers. Returns
/// the counter words per record, or -1 when the thread cannot get a state.
/// ctl mutex held; every probe begun in between must end before
/// __tpuprof_rt_private_end(), which restores the thread's own state and
/// returns the bytes recorded.
int __tpuprof_rt_private_begin(uint8_t *buf, uint64_t cap);
uint64_t __tpuprof_rt_private_end(void);

/*===-- Calibration (calibrate.c) ----------------------------------------===*/

/// Whether windows calibrate (TPUPROF_CALIBRATE; tests set it directly).
extern int __tpuprof_rt_calibration_on;

/// Measures the runtime's own cost per probe pair on the calling thread in
/// the coming window's mode (its event set chosen, `words` counter words
/// per record) and fills `out` (ticks) and `counts[0, words)` (what the
/// probes add to each word; zeros where it cannot tell). 0, or -1 when it
/// could not measure (no memory, no thread state): the window then has no
/// CALIBRATION section. ctl mutex held, no window open on this thread's
/// behalf.
int __tpuprof_rt_calibrate(uint32_t words, tpuprof_calibration_section *out,
                           tpuprof_calibration_counts *counts);

/*===-- Control (control.c) ----------------------------------------------===*/

/// Runs the one-time initialization (clock, calibration, environment) if the
/// library constructor has not run yet, e.g. when another constructor calls
/// the API first.
void __tpuprof_rt_ensure_init(void);

/// Opens a window / closes it (writing its dump when `write`, else
/// discarding it), for the schedule. ctl mutex held via the lock below.
void __tpuprof_rt_ctl_lock(void);
void __tpuprof_rt_ctl_unlock(void);
int __tpuprof_rt_window_open_locked(void);
int __tpuprof_rt_enable_locked(uint64_t max_records, int mode);
/// Ends the window: `write` 0 discards its records, 1 writes the dump;
/// `reopen` starts the next window at once. 0, or -1 if the write failed.
int __tpuprof_rt_close_window_locked(int write, int reopen);
/// Path of the last dump written (ctl mutex held).
const char *__tpuprof_rt_last_dump_locked(void);

/*===-- Schedule (schedule.c) --------------------------------------------===*/

/// Parses "skip_first=N,wait=N,warmup=N,active=N,repeat=N" into `s`
/// (missing keys keep their value). 0, or -1 with a reason in `why`.
int __tpuprof_rt_parse_schedule(const char *spec, tpuprof_schedule *s,
                                char *why, size_t why_size);

/// Starts the TPUPROF_SCHEDULE schedule at initialization. ctl mutex held.
void __tpuprof_rt_schedule_from_env_locked(const char *spec, int mode,
                                           uint64_t record_size);

/// Whether a schedule drives windows (ctl mutex held).
int __tpuprof_rt_schedule_active_locked(void);

/*===-- User ranges (user_ranges.c) --------------------------------------===*/

/// Innermost open probe of the calling thread, or UINT32_MAX (record.c).
uint32_t __tpuprof_rt_innermost_probe(void);

/// Stable hash of a user range name (FNV-1a 64 of "user:" + name).
uint64_t __tpuprof_rt_user_range_hash(const char *name);

/*===-- Dump files (dump_writer.c) ---------------------------------------===*/

/// Creates `dir`/tpuprof_data_dev{device}-{N} with O_EXCL for the first N >=
/// `first_n` whose file does not exist, and writes `size` bytes of `image`
/// into it, then sets TPUPROF_DUMP_COMPLETE in the header's flags (so a
/// truncated file never claims to be complete). The header's call_num is
/// patched to N before writing. Returns 0 with the path and N, or -1 after
/// printing "tpuprof: cannot write dump '<path>': <reason>".
int __tpuprof_rt_write_dump(const char *dir, uint32_t device, uint32_t first_n,
                            uint8_t *image, uint64_t size, char *path,
                            size_t path_size, uint32_t *call_num);

/*===-- Crash-safe window files (dump_writer.c) ----------------------------===*/

/// The file of an open window. It is created (O_EXCL, 0600) when the window
/// opens, with a header that is not TPUPROF_DUMP_COMPLETE, the MODULE
/// sections registered so far and the EVENTS section. Each thread that joins
/// the window gets a page-aligned THREAD section appended with ftruncate and
/// mapped MAP_SHARED as its record buffer, so every record the hot path
/// writes is in the page cache at once and survives SIGKILL, abort() or a
/// segfault. A clean close of a window that one thread recorded finalizes
/// this file in place (__tpuprof_rt_wfile_finish_in_place); any other close
/// streams the records from it into a fresh file that takes its place
/// (__tpuprof_rt_wfile_finish_streamed; __tpuprof_rt_wfile_finish writes an
/// image when a buffer is heap memory). docs/reliability.md, "Closing a
/// window".
typedef struct tpuprof_rt_wfile {
  int fd;                ///< -1: no file, records go to memory only.
  uint32_t serial;       ///< Non-zero, distinct per created file.
  uint64_t end;          ///< Bytes in the file (page-aligned after a thread).
  uint64_t prefix_end;   ///< Header, MODULE, EVENTS, CALIBRATION bytes.
  tpuprof_dump_header h; ///< The header as last written.
  char path[4096 + 64];  ///< The dump's final name.
} tpuprof_rt_wfile;

/// The open window's file, or NULL. Written with the ctl mutex and the
/// thread-list lock held; read by thread states under the thread-list lock.
extern tpuprof_rt_wfile *__tpuprof_rt_wfile;

/// Creates the window file for the first free N >= `first_n` and writes the
/// `size` bytes of `prefix` (header, modules, events). 0, or -1 with errno
/// (nothing printed: the window then records into memory, and the error is
/// reported once when the dump is written).
int __tpuprof_rt_wfile_create(tpuprof_rt_wfile *w, const char *dir,
                              uint32_t device, uint32_t first_n,
                              const uint8_t *prefix, uint64_t size);

/// Appends a THREAD section for `cap` record bytes of thread `tid` and maps
/// it. Returns the mapping (for munmap), its size, the offset of the section
/// header in it and in the file, or NULL. Thread-list lock held.
uint8_t *__tpuprof_rt_wfile_add_thread(tpuprof_rt_wfile *w, uint64_t tid,
                                       uint64_t cap, uint64_t *map_size,
                                       uint64_t *section_off,
                                       uint64_t *file_off);

/// Rewrites the header (flags not complete) after a field changed.
void __tpuprof_rt_wfile_sync_header(tpuprof_rt_wfile *w);

/// Replaces the window file by the compact, complete dump `image` (written
/// to a hidden temporary file in the same directory that then takes its
/// place) and closes it.
/// Returns 0 with the path and N, or -1 after one line on stderr; the
/// crash-safe file then stays, readable as an incomplete dump.
int __tpuprof_rt_wfile_finish(tpuprof_rt_wfile *w, uint8_t *image,
                              uint64_t size, char *path, size_t path_size,
                              uint32_t *call_num);

/// Finalizes the window file in place into the complete dump whose header
/// is `h` (call_num and flags are taken care of here), with `t`'s THREAD
/// section (unwrapped, first after the prefix) as the only one, or none
/// when `t` is NULL; every mapping of the file must be detached.
/// Zeroes the counter words of records that did not end, writes the header
/// and the section's counts, truncates the unused capacity and sets
/// TPUPROF_DUMP_COMPLETE last; each step leaves a readable dump, so a
/// process killed on the way leaves a readable file. Closes the file.
/// Returns 0 with the path and N, or -1 after one line on stderr.
int __tpuprof_rt_wfile_finish_in_place(tpuprof_rt_wfile *w,
                                       const tpuprof_dump_header *h,
                                       const tpuprof_rt_tsec *t, char *path,
                                       size_t path_size, uint32_t *call_num);

/// Tests only (test/reliability/CloseCrashTest.cpp): when 1..6, the in-place
/// close raises SIGKILL just before that step (1 walk, 2 header, 3 THREAD
/// counts, 4 truncation, 5 complete flag, 6 close), as a process killed
/// there would die; 7 and 8: a close through a fresh file, just before it
/// takes the window file's place and just before the old one is unlinked.
/// 0 (the default): never.
extern int __tpuprof_rt_kill_before_step;

/// Writes the complete dump to a temporary file renamed over the window
/// file: `prefix` (`prefix_size` bytes: the final header, MODULE, EVENTS,
/// CALIBRATION) and then the `n` threads' records, written straight from a
/// mapping of the window file (every mapping of it must be detached), after
/// counting them and zeroing the counters of those that did not end (in
/// the window file: still a valid incomplete dump). Closes the file.
/// Returns 0 with the path and N, or -1 after one line on stderr; the
/// window file then stays, readable as an incomplete dump.
int __tpuprof_rt_wfile_finish_streamed(tpuprof_rt_wfile *w, uint8_t *prefix,
                                       uint64_t prefix_size,
                                       const tpuprof_rt_tsec *t, uint32_t n,
                                       char *path, size_t path_size,
                                       uint32_t *call_num);

/// Removes the file of a discarded window (schedule warmup) and closes it.
void __tpuprof_rt_wfile_discard(tpuprof_rt_wfile *w);

/// Closes the fd only: after fork(), the file belongs to the parent.
void __tpuprof_rt_wfile_forget(tpuprof_rt_wfile *w);

/// Bytes a section with `payload` bytes takes, header and padding included.
static inline uint64_t __tpuprof_rt_section_bytes(uint64_t payload) {
  return sizeof(tpuprof_section_header) + ((payload + 7u) & ~(uint64_t)7u);
}

/// Writes a section header for `payload` bytes at `p`; returns the payload.
uint8_t *__tpuprof_rt_put_section(uint8_t *p, uint32_t kind, uint64_t payload);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TPUPROF_RUNTIME_RT_INTERNAL_H */
