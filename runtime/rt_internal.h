/*===- runtime/rt_internal.h - libtpuprof_rt internals -------------*- C -*-===*\
|*                                                                            *|
|* Shared between the runtime's C files and its GoogleTests; never installed. *|
|* The runtime is split by concern:                                           *|
|*   clock.c        tick source (rdtsc or CLOCK_MONOTONIC) and calibration    *|
|*   env.c          parsing of the TPUPROF_* environment                      *|
|*   module.c       probe-table registration (__tpuprof_register_module)      *|
|*   record.c       the hot path (__tpuprof_begin/_dims/_end), thread states  *|
|*   control.c      windows: enable/disable/flush, library constructor        *|
|*   dump_file.c    the one writer of dump files: first free name, sections,  *|
|*                  segments taken on demand, finalization in place           *|
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


/// Open probes tracked per thread. Deeper begins are counted as dropped.
#define TPUPROF_RT_STACK_DEPTH 256u

/// Largest accepted max_records (TPUPROF_RECORD_SIZE): a cap on what one
/// thread keeps in a window, never allocated up front.
#define TPUPROF_RT_MAX_RECORDS (1ull << 30)

/// Bytes of a thread's first segment in a window; each later one is twice
/// the one before, up to TPUPROF_RT_SEGMENT_MAX (docs/runtime.md,
/// "Segments"). Small first segments keep a thread that records a little
/// small. A stop-policy thread's segment of the largest size is its stage:
/// when it is full its records are written to the file by one write and it
/// starts over, so a thread that records a lot keeps reusing 1 MiB of
/// mapped pages, warm in the cache (docs/runtime.md, "Stages").
#define TPUPROF_RT_SEGMENT_FIRST (16u << 10)
#define TPUPROF_RT_SEGMENT_MAX (1u << 20)

/// Bytes before a segment's first record: section header + segment header.
#define TPUPROF_RT_SEGMENT_HEADERS                                             \
  (sizeof(tpuprof_section_header) + sizeof(tpuprof_segment_section))

/// Largest number of dynamic dimensions one record carries (num_dims is a
/// uint8_t); extra dimensions are not recorded.
#define TPUPROF_RT_MAX_DIMS 255u

/*===-- Clock (clock.c) --------------------------------------------------===*/

/// How ticks are read, inline by the hot path: 0 CLOCK_MONOTONIC ns, else
/// rdtsc, and a probe's end reads them ordered after the op's work
/// (record.c, rt_now_end) by rdtscp where the CPU has it, by lfence; rdtsc
/// where not.
enum {
  TPUPROF_RT_TICKS_MONOTONIC = 0,
  TPUPROF_RT_TICKS_TSC_LFENCE = 1,
  TPUPROF_RT_TICKS_TSC_RDTSCP = 2,
};
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
  int memory;             ///< TPUPROF_MEMORY (default 0).
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

/// The registry, for the dump writer: lock it, then read modules [0, count).
/// Lock order: thread list, then registry.
void __tpuprof_rt_modules_lock(void);
void __tpuprof_rt_modules_unlock(void);
uint32_t __tpuprof_rt_modules_count_locked(void);
/// Module `i`'s private copy of its table, its exact size and first id.
const void *__tpuprof_rt_module_locked(uint32_t i, uint64_t *table_size,
                                       uint32_t *first_probe);

/// Modules registered so far (tests).
uint32_t __tpuprof_rt_num_modules(void);

/*===-- Threads and windows (record.c) -----------------------------------===*/

/// Window generation: bumped under the thread-list lock at every enable,
/// flush and disable. A thread records only while its state carries the
/// current generation; stack entries carry it too, so an end never writes
/// into a buffer that was reset for a later window.
extern uint32_t __tpuprof_rt_gen;

/// Record bytes one thread may keep in the open window (TPUPROF_RECORD_SIZE
/// timing-only records, or max_records of tpuprof_enable).
extern uint64_t __tpuprof_rt_window_cap;

/// Begins dropped where no segment could count them (a thread that got no
/// segment at all, or no state): part of the header's `dropped`.
extern uint64_t __tpuprof_rt_lost;

/// Full-buffer policy of the open window: 0 stop recording, 1 ring (keep the
/// newest records). Threads take it when they enter the window.
extern int __tpuprof_rt_window_ring;

/// The thread-list lock. Held by control.c while it switches windows, by a
/// thread taking a segment, and by the writer's module sync.
void __tpuprof_rt_threads_lock(void);
void __tpuprof_rt_threads_unlock(void);

/// Creates the calling thread's state and opens its counter group ahead of
/// a window (takes the thread-list lock), so neither is window time.
void __tpuprof_rt_prepare_thread(void);

/// Bumps the generation (skipping 0) and returns the new one. Lock held.
uint32_t __tpuprof_rt_next_gen_locked(void);

struct tpuprof_rt_dump;

/// Ends window `gen` for the threads, lock held: fixes in `d` the record
/// bytes of every thread's current segment (release-published by the
/// owner), then swaps every thread's mapping of `d`'s file for anonymous
/// memory of the same size at the same address (mmap MAP_FIXED), so that an
/// owner still inside a probe, or racing the close, stores into memory no
/// dump reads, and `d`'s file can be finished and truncated without a
/// SIGBUS. 0, or -1 with errno when a swap failed (the file then stays as
/// an incomplete dump).
int __tpuprof_rt_threads_close_locked(uint32_t gen, struct tpuprof_rt_dump *d);

/// Frees the states of threads that exited (their records are flushed).
/// Lock held.
void __tpuprof_rt_threads_reap_locked(void);

/// In the child after fork(): releases the states of all threads but the
/// caller's (those threads do not exist there) and forgets the parent's
/// segments (never mapped in the child: MADV_DONTFORK). Lock held.
void __tpuprof_rt_threads_after_fork_child_locked(void);

/// The pthread key whose destructor retires a thread's state; created once.
void __tpuprof_rt_threads_init(void);

/// Calibration support: points the calling thread's probes at a private
/// state that records into `buf` (`cap` bytes, which the caller has touched)
/// with the counter group and counter words of the thread's own state, so
/// the real hot path runs but nothing reaches a window's dump. Returns the
/// counter words per record, or -1 when the thread cannot get a state.
/// ctl mutex held; every probe begun in between must end before
/// __tpuprof_rt_private_end(), which restores the thread's own state and
/// returns the bytes recorded.
int __tpuprof_rt_private_begin(uint8_t *buf, uint64_t cap);
uint64_t __tpuprof_rt_private_end(void);

/// Begins user range `probe` for a caller whose frame is `frame`
/// (__builtin_dwarf_cfa() of the API function): the range is not bound to
/// that frame (it may end in another function), but frames left without
/// their probes' ends below it are closed first (user_ranges.c).
void __tpuprof_rt_begin_range(uint32_t probe, uintptr_t frame);

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

/*===-- The dump file (dump_file.c): the one writer ----------------------===*/

/// Longest output directory kept, NUL included.
#define TPUPROF_RT_DIR_MAX 4096u
/// Counter words one record carries at most (events, pseudo-events, CPU).
#define TPUPROF_RT_MAX_WORDS (TPUPROF_RT_EVENT_WORDS(TPUPROF_RT_MAX_EVENTS) + 1u)

/// One SEGMENT section of a window's file, as the writer keeps it.
typedef struct tpuprof_rt_dump_seg {
  uint64_t section;  ///< File offset of its section header.
  uint64_t capacity; ///< Record bytes it holds.
  uint64_t used;     ///< Record bytes written: fixed when its thread moves
                     ///< on, when a ring reuses it, and at the close.
  uint64_t dropped;  ///< A written stage lap's drops (when `written`).
  int written;       ///< A stage lap written whole: its header is final.
} tpuprof_rt_dump_seg;

/// A segment as its thread sees it: where it is mapped.
typedef struct tpuprof_rt_segment {
  uint8_t *map;                  ///< The mapping (page-aligned; munmap).
  uint64_t map_size;             ///< Its bytes.
  tpuprof_segment_section *head; ///< The segment header in it.
  uint8_t *base;                 ///< First record.
  uint64_t capacity;             ///< Record bytes from `base` in use now.
  uint64_t room;                 ///< Record bytes mapped from `base`.
  uint32_t slot;                 ///< Index in the dump's `segs`.
  uint32_t serial;               ///< The dump's serial; 0 once detached.
} tpuprof_rt_segment;

/// States of a window's dump.
enum tpuprof_rt_dump_state {
  TPUPROF_RT_DUMP_NONE = 0,    ///< No window.
  TPUPROF_RT_DUMP_OPEN = 1,    ///< The file exists: threads record into it.
  TPUPROF_RT_DUMP_PENDING = 2, ///< Created by the first record (fork child).
  TPUPROF_RT_DUMP_FAILED = 3,  ///< It could not be created (one line said
                               ///< why): every record is dropped.
};

/// A window's dump file. It is created (O_EXCL, 0600, first free name) when
/// the window opens, with a header that is not TPUPROF_DUMP_COMPLETE, the
/// MODULE sections registered so far, EVENTS and CALIBRATION; every module
/// registered later is appended when it registers; every segment a thread
/// takes is appended, its space reserved (fallocate) before it is mapped
/// MAP_SHARED, so each record is in the page cache as the hot path writes
/// it and survives SIGKILL, abort() or a segfault. The close finalizes the
/// file in place (docs/reliability.md, "Closing a window").
typedef struct tpuprof_rt_dump {
  int state;              ///< tpuprof_rt_dump_state.
  int fd;                 ///< The file, when OPEN.
  uint32_t serial;        ///< Non-zero, distinct per created file.
  int grow_err;           ///< errno of the first failed growth (said once).
  uint64_t end;           ///< Bytes in the file.
  uint32_t modules;       ///< Modules written (registry order).
  uint32_t threads;       ///< Threads numbered (SEGMENT `thread`).
  tpuprof_rt_dump_seg *segs; ///< Its SEGMENT sections, in file order.
  uint32_t num_segs, segs_capacity;
  /// The header as last written. control.c fills mode, device, pid, clock
  /// and the first calibration pair before creating the file.
  tpuprof_dump_header h;
  /// The window's CALIBRATION section, when `calibrated`.
  int calibrated;
  tpuprof_calibration_section calib;
  tpuprof_calibration_counts counts[TPUPROF_RT_MAX_WORDS];
  uint32_t num_counts;
  char dir[TPUPROF_RT_DIR_MAX]; ///< Where it is created ...
  uint32_t first_n;             ///< ... with the first N tried.
  char path[TPUPROF_RT_DIR_MAX + 64]; ///< Its name, once created.
} tpuprof_rt_dump;

/// The open window's dump, or NULL. Switched with the ctl mutex and the
/// thread-list lock held; read by threads under the thread-list lock.
extern tpuprof_rt_dump *__tpuprof_rt_dump;

/// Creates `d`'s file (state OPEN) or, when it cannot, prints one line and
/// sets state FAILED. Thread-list lock or ctl mutex held (nobody else sees
/// `d` yet, or only under the thread-list lock); takes the registry lock.
void __tpuprof_rt_dump_create(tpuprof_rt_dump *d);

/// Makes `d`'s file, whose window was discarded (every mapping detached),
/// the next window's: the same name, emptied and a fresh prefix written, so
/// dump numbers stay dense (a schedule's warmup). Thread-list lock held.
void __tpuprof_rt_dump_restart_locked(tpuprof_rt_dump *d);

/// Sets the window's begin (and, until the close, end) in `d`'s header.
/// Ctl mutex held; thread-list lock too once threads may see `d`.
void __tpuprof_rt_dump_begin(tpuprof_rt_dump *d, uint64_t window_begin);

/// Appends the MODULE sections of modules registered since `d`'s file was
/// written. Thread-list lock held.
void __tpuprof_rt_dump_sync_modules_locked(tpuprof_rt_dump *d);

/// Called by __tpuprof_register_module: writes the new module into the open
/// window's file at once, so a crash dump names its records.
void __tpuprof_rt_dump_module_registered(void);

/// Appends a SEGMENT section for about `want` record bytes of thread `tid`
/// (number `thread`, segment `seq`), reserves its space, maps it and fills
/// `out`. 0, or -1 when `d` cannot grow (the window's first failure prints
/// one line). Thread-list lock held.
int __tpuprof_rt_dump_add_segment_locked(tpuprof_rt_dump *d, uint64_t tid,
                                         uint32_t thread, uint32_t seq,
                                         uint64_t want,
                                         tpuprof_rt_segment *out);

/// Writes the first `used` record bytes of `s`, a thread's stage, and its
/// header (stream size `used`, its counts) as a SEGMENT section of their
/// own at the end of `d`'s file, with one pwritev: the records reach the
/// page cache by the kernel's copy, in large folios, instead of 4 KiB pages
/// faulted into a mapping one by one. The section counts in the header once
/// it is whole. Sets *records_at to the file offset of its first record. 0,
/// or -1 when `d` cannot grow (the window's first failure prints one line;
/// nothing is left of the attempt). Thread-list lock held.
int __tpuprof_rt_dump_write_stage_locked(tpuprof_rt_dump *d,
                                         const tpuprof_rt_segment *s,
                                         uint64_t used, uint64_t *records_at);

/// Writes `n` bytes at file offset `at` of the dump whose serial is
/// `serial`, if it is `d` and open: the end of a record whose stage lap was
/// written while it was open. Thread-list lock held.
void __tpuprof_rt_dump_patch_locked(tpuprof_rt_dump *d, uint32_t serial,
                                    uint64_t at, const void *bytes,
                                    uint64_t n);

/// Sets the record bytes of segment `slot` (sealed, reused or closed).
void __tpuprof_rt_dump_set_used_locked(tpuprof_rt_dump *d, uint32_t slot,
                                       uint64_t used);

/// Finalizes `d` in place into the complete dump (every mapping of it
/// detached): writes each segment's stream size, frees the unused capacity,
/// writes the header (window end, calibration pair, drops plus `lost`) and
/// sets TPUPROF_DUMP_COMPLETE last; each step leaves a readable dump, so a
/// process killed on the way leaves one. Closes the file.
/// Returns 0 with the path and N, 1 when there is no dump (PENDING: the
/// window never recorded), or -1 (FAILED, or one line on stderr: the file
/// then stays, an incomplete dump).
int __tpuprof_rt_dump_finish(tpuprof_rt_dump *d, uint64_t window_end,
                             uint64_t lost, char *path, size_t path_size,
                             uint32_t *call_num);

/// Removes the file of a discarded window (schedule warmup) and closes it.
void __tpuprof_rt_dump_discard(tpuprof_rt_dump *d);

/// Forgets `d` without touching its file (after fork: the parent's).
void __tpuprof_rt_dump_forget(tpuprof_rt_dump *d);

/// Tests only (test/reliability/CloseCrashTest.cpp): when 1..5, finishing
/// a dump raises SIGKILL just before that step (1 segment sizes, 2 unused
/// capacity, 3 header, 4 complete flag, 5 close); when 6, just after a
/// stage's records were written, before the stage starts over; as a
/// process killed there would die. 0 (the default): never.
extern int __tpuprof_rt_kill_before_step;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TPUPROF_RUNTIME_RT_INTERNAL_H */
