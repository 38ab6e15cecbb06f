/*===- runtime/rt_internal.h - libtpuprof_rt internals ------------*- C -*-===*\
|*                                                                            *|
|* Shared between the runtime's C files and its GoogleTests; never installed. *|
|* The runtime is split by concern, from the bottom up; a file uses (calls,   *|
|* reads) only files before it in this list (the runtime.layers test,         *|
|* unittests/Runtime/check_layers.py, checks the objects):                    *|
|*   rt_locks.h/locks.c  every lock of the runtime, and their order           *|
|*   clock.c        tick source (rdtsc or CLOCK_MONOTONIC) and calibration    *|
|*                  pairs                                                     *|
|*   env.c          parsing of the TPUPROF_* environment                      *|
|*   process.c      who the process is in a job (rank, host), clock pairs and *|
|*                  offsets for the PROCESS section                           *|
|*   counters.c     PMU counters: event sets, groups, reads (libpfm4)         *|
|*   module.c       the probe-table registry                                  *|
|*   dump_file.c    the one writer of dump files: first free name, sections,  *|
|*                  segments, stages, finalization in place                   *|
|*   threads.c      thread states (rt_thread.h): creation, the thread list,   *|
|*                  exit, fork; the window state threads read                 *|
|*   segments.c     a thread's segments of the window's dump: entering a      *|
|*                  window, taking, reusing and staging segments; detaching   *|
|*                  them at a close                                           *|
|*   record.c       the hot path: __tpuprof_begin/_dims/_end, non-local exits *|
|*   memory.c       memory records (__tpuprof_alloc/_free/...)                *|
|*   device.c       device intervals: launch references, queues, clocks, the  *|
|*                  DEVICE section (docs/device.md)                           *|
|*   device_opencl.c  the OpenCL backend (__tpuprof_wrap_cl*, libOpenCL by    *|
|*                  dlopen)                                                   *|
|*   device_vulkan.c  the Vulkan compute backend (__tpuprof_wrap_vk*,        *|
|*                  libvulkan by dlopen)                                      *|
|*   device_cupti.c the CUDA backend (__tpuprof_wrap_cuda*, libcupti by       *|
|*                  dlopen; cupti_abi.h) and HIP's one line                   *|
|*   calibrate.c    the probe pair's own cost, measured when a window opens   *|
|*   window.c       windows: enable, close, flush, their settings, fork child *|
|*   schedule.c     step-driven windows (TPUPROF_SCHEDULE, tpuprof_step)      *|
|*   control.c      one-time setup, library constructor, the control API,     *|
|*                  __tpuprof_register_module, exit and fork handlers         *|
|*   user_ranges.c  named user ranges as kind-user probes                     *|
|* (earlier lines are called by later ones, never the reverse).               *|
|*                                                                            *|
|* Locks (rt_locks.h) nest in one order: CTL, RANGES, THREADS, MODULES,       *|
|* MESSAGES; a thread takes a lock only while it holds none later in it.      *|
|*                                                                            *|
|* Every symbol here is hidden in the shared library; in the static one they  *|
|* are visible to the program, hence the reserved __tpuprof_rt_ prefix.       *|
\*===----------------------------------------------------------------------===*/

#ifndef TPUPROF_RUNTIME_RT_INTERNAL_H
#define TPUPROF_RUNTIME_RT_INTERNAL_H

#include "rt_byte_order.h"
#include "rt_locks.h"
#include "tpuprof/events.h"
#include "tpuprof/format.h"
#include "tpuprof/tpuprof.h"

#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <unistd.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TPUPROF_RT_API __attribute__((visibility("default")))
/// On a declaration of a variable the hot path reads: accessed directly,
/// not through the GOT, as if it were defined in the same file.
#define TPUPROF_RT_HIDDEN __attribute__((visibility("hidden")))
#define TPUPROF_RT_LIKELY(x) __builtin_expect(!!(x), 1)
#define TPUPROF_RT_UNLIKELY(x) __builtin_expect(!!(x), 0)

/*===-- Limits -----------------------------------------------------------===*/

/// Open probes tracked per thread. Deeper begins are counted as dropped.
#define TPUPROF_RT_STACK_DEPTH 256u

/// Largest accepted max_records (TPUPROF_RECORD_SIZE): a cap on what one
/// thread keeps in a window, never allocated up front.
#define TPUPROF_RT_MAX_RECORDS TPUPROF_MAX_RECORD_SIZE

/// Bytes of a thread's first segment in a window; each later one is twice
/// the one before, up to TPUPROF_RT_SEGMENT_MAX (docs/runtime.md,
/// "Segments"). Small first segments keep a thread that records a little
/// small. A stop-policy thread's segment of the largest size is its stage:
/// when it is full its records are written to the file by one write and it
/// starts over, so a thread that records a lot keeps reusing 256 KiB of
/// mapped pages, warm in the cache. 256 KiB, not more: a stage as large as
/// a recent core's L2 cache (1 MiB) evicts the program's data and finds its
/// own lines gone a lap later; the kernel probes of a transformer encoder
/// cost 0.7-1.0 points less of its time with the smaller stage
/// (docs/runtime.md, "Stages").
#define TPUPROF_RT_SEGMENT_FIRST (16u << 10)
#define TPUPROF_RT_SEGMENT_MAX (256u << 10)

/// Bytes before a segment's first record: section header + segment header.
#define TPUPROF_RT_SEGMENT_HEADERS                                             \
  (sizeof(tpuprof_section_header) + sizeof(tpuprof_segment_section))

/// Largest number of dynamic dimensions one record carries (num_dims is a
/// uint8_t); extra dimensions are not recorded.
#define TPUPROF_RT_MAX_DIMS 255u

/*===-- Descriptors ------------------------------------------------------===*/

/// Largest descriptor number the runtime moves its own descriptors up to.
#define TPUPROF_RT_FD_CEILING 4096

/// Moves descriptor `fd` of the runtime's own (a dump, a counter) to the
/// upper half of the numbers below RLIMIT_NOFILE (and the ceiling),
/// close-on-exec, and returns its number (`fd` itself where none is free).
/// A program gets the lowest free number from open(): one that closes
/// descriptors it did not open (a daemon's closefrom(3)) and opens its own
/// then gets a low one, never the number the runtime writes to.
static inline int __tpuprof_rt_fd_high(int fd) {
  struct rlimit rl;
  long limit = TPUPROF_RT_FD_CEILING;
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
      rl.rlim_cur < (rlim_t)limit)
    limit = (long)rl.rlim_cur;
  long base = limit / 2;
  if (fd < 0 || fd >= base)
    return fd;
  int high = fcntl(fd, F_DUPFD_CLOEXEC, (int)base);
  if (high < 0)
    return fd;
  close(fd);
  return high;
}

/*===-- Clock (clock.c) --------------------------------------------------===*/

/// How ticks are read, inline by the hot path: 0 CLOCK_MONOTONIC ns, else
/// rdtsc, and a probe's end reads them ordered after the op's work
/// (rt_thread.h, rt_now_end) by rdtscp where the CPU has it, by lfence; rdtsc
/// where not.
enum {
  TPUPROF_RT_TICKS_MONOTONIC = 0,
  TPUPROF_RT_TICKS_TSC_LFENCE = 1,
  TPUPROF_RT_TICKS_TSC_RDTSCP = 2,
  /// aarch64's generic timer, the virtual count (cntvct_el0): what the
  /// vDSO's CLOCK_MONOTONIC reads anyway, without its conversion, and at
  /// its true step (16-40 ns on 24-62 MHz boards), which the report shows
  /// as the resolution.
  TPUPROF_RT_TICKS_CNTVCT = 3,
};

#if defined(__x86_64__) || defined(__i386__)
#define TPUPROF_RT_HAVE_TSC 1
#else
#define TPUPROF_RT_HAVE_TSC 0
#endif
#if defined(__aarch64__)
#define TPUPROF_RT_HAVE_CNTVCT 1
#else
#define TPUPROF_RT_HAVE_CNTVCT 0
#endif
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
/// its own inline copy in rt_thread.h).
uint64_t __tpuprof_rt_now(void);

/// CLOCK_MONOTONIC in ns.
uint64_t __tpuprof_rt_monotonic_ns(void);

/// A (ticks, CLOCK_MONOTONIC ns) pair read as close together as possible.
void __tpuprof_rt_calibration_pair(uint64_t *ticks, uint64_t *ns);

/// Whether the CPU reports an invariant TSC (cpuid 0x80000007 EDX bit 8).
int __tpuprof_rt_cpu_has_invariant_tsc(void);

/// Whether the kernel trusts the TSC: "tsc" is among `clocksources` (the
/// sysfs available_clocksource file), or `cpuinfo`'s flags say
/// tsc_reliable (a hypervisor's word). 1 when neither file can be read.
int __tpuprof_rt_kernel_trusts_tsc(const char *clocksources,
                                   const char *cpuinfo);

/*===-- Environment (env.c) ----------------------------------------------===*/

/// Clock requests from TPUPROF_CLOCK.
enum {
  TPUPROF_RT_CLOCK_AUTO = 0,
  TPUPROF_RT_CLOCK_TSC = 1,
  TPUPROF_RT_CLOCK_MONOTONIC = 2,
};

/// Settings read from the environment once, when the library loads.
typedef struct tpuprof_rt_config {
  int enable;           ///< TPUPROF_ENABLE / ENABLE_ALL_PROFILE
  uint32_t mode;        ///< TPUPROF_MODE / PROFILE_MODE
  uint64_t record_size; ///< TPUPROF_RECORD_SIZE / PROFILE_RECORD_SIZE
  const char *output;   ///< TPUPROF_OUTPUT, NULL when unset or empty.
  uint32_t device;      ///< TPUPROF_DEVICE
  int clock;            ///< TPUPROF_CLOCK, a TPUPROF_RT_CLOCK_* value.
  const char *events;   ///< TPUPROF_EVENTS, NULL when unset or empty.
  const char *schedule; ///< TPUPROF_SCHEDULE, NULL when unset or empty.
  int buffer_ring;      ///< TPUPROF_BUFFER: 0 stop, 1 ring.
  int calibrate;        ///< TPUPROF_CALIBRATE (default 1).
  int memory;           ///< TPUPROF_MEMORY (default 0).
  /// Who the process is in a job (TPUPROF_RANK, or the launcher's
  /// variables: docs/environment.md); TPUPROF_RANK_UNKNOWN / 0 / NULL when
  /// not told.
  uint32_t rank;        ///< TPUPROF_RANK_UNKNOWN for a single process.
  uint32_t world_size;  ///< 0 when unknown.
  uint32_t local_rank;  ///< TPUPROF_RANK_UNKNOWN when unknown.
  uint32_t rank_source; ///< tpuprof_rank_source
  const char *job_id;   ///< The launcher's job id, NULL when none.
  int device_timing;    ///< TPUPROF_DEVICE_TIMING (default 1).
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

/*===-- Process identity and clocks (process.c) --------------------------===*/

/// Takes the identity `cfg` parsed and the host name. Once, by the
/// constructor, before any window.
void __tpuprof_rt_process_init(const tpuprof_rt_config *cfg);

/// The process's rank, TPUPROF_RANK_UNKNOWN when it has none (dump names).
uint32_t __tpuprof_rt_process_rank(void);

/// A (CLOCK_REALTIME, CLOCK_MONOTONIC) pair read back to back, in ns.
void __tpuprof_rt_process_clock_pair(uint64_t *realtime_ns,
                                     uint64_t *monotonic_ns);

/// The PROCESS section's payload as of now, clock pairs zero (the dump
/// writer fills them).
void __tpuprof_rt_process_section(tpuprof_process_section *out);

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
  int fd[TPUPROF_RT_MAX_EVENTS]; ///< fd[0] leads the group.
  /// Each event's kernel id (PERF_EVENT_IOC_ID): a descriptor the program
  /// closed, and perhaps reused, is never read or closed as the runtime's.
  uint64_t id[TPUPROF_RT_MAX_EVENTS];
  struct perf_event_mmap_page *page[TPUPROF_RT_MAX_EVENTS]; ///< rdpmc only.
  uint32_t nfd;    ///< Open fds: 0 (no group on this thread) or nev.
  uint32_t nev;    ///< Events in the window's set.
  uint32_t setgen; ///< __tpuprof_rt_ctr_setgen it was opened for (0: none).
  int cpu;         ///< Mode 2: records carry the CPU word.
  int rdpmc;       ///< Read with rdpmc (every page allows it).
} tpuprof_rt_group;

/// Bumped when the window's event set changes and after fork().
extern uint32_t __tpuprof_rt_ctr_setgen;

// libpfm4 set-up, encoding, opening and explaining: tpuprof/events.h.

/// Sets the requested event list (NULL/"" = the default set). With
/// `strict`, a name libpfm4 cannot encode rejects the whole list (-1, one
/// line). ctl lock held (or during initialization).
int __tpuprof_rt_set_events_locked(const char *list, int strict);

/// Chooses the window's event set: encodes and test-opens the requested or
/// default events (on a runtime thread with a large stack, which the
/// calling thread waits for: libpfm4 needs more stack than a small thread
/// has), warns once about those that do not open, and returns the counter
/// words per record
/// (TPUPROF_RT_EVENT_WORDS, + 1 CPU word in mode 2). ctl lock held, no
/// window open.
uint32_t __tpuprof_rt_counters_start_window_locked(uint32_t mode);

/// PMU events in the window's set (its counter words: format.h and
/// TPUPROF_RT_EVENT_WORDS). ctl lock held.
uint32_t __tpuprof_rt_counters_window_nev(void);

/// The EVENTS section's names: their bytes (NULs included), and writing
/// them at `p` (returns the count, = counter words per record).
uint32_t __tpuprof_rt_counters_names_bytes(void);
uint32_t __tpuprof_rt_counters_write_names(uint8_t *p);

/// Copies the window's real event names (tests, tpuprof-events).
uint32_t
__tpuprof_rt_counters_window_events(char names[][TPUPROF_RT_EVENT_NAME_MAX],
                                    uint32_t max);

/// Opens (or keeps) the calling thread's group for the current set and
/// returns the counter words per record. Thread-list lock held.
uint32_t __tpuprof_rt_group_sync(tpuprof_rt_group *g);

/// Closes a group's fds (any thread may call it); only those still the
/// runtime's.
void __tpuprof_rt_group_close(tpuprof_rt_group *g);

/// Checks that the group's descriptors are still the runtime's (cheap: a
/// fstat and an ioctl each; never on the hot path). When the program
/// closed one, the group is forgotten (nothing is closed) and opened again.
/// Thread-list lock held, on the group's thread.
void __tpuprof_rt_group_check(tpuprof_rt_group *g);

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

/*===-- Modules (module.c) -----------------------------------------------===*/

/// Checks a probe table's header, sizes and string offsets. Returns NULL when
/// it is usable (and its exact byte size in *table_size), else a reason.
const char *__tpuprof_rt_validate_table(const void *table, uint64_t size,
                                        uint64_t *table_size);

/// Adds a copy of a probe table to the registry and stores the global id of
/// its probe 0 in `*first_probe`. 0, or -1 (one stderr line; *first_probe
/// is TPUPROF_IGNORED_PROBE_BASE) when the table is refused.
int __tpuprof_rt_module_add(const void *table, uint64_t size,
                            uint32_t *first_probe);

/// The registry, for the dump writer: lock it (rt_locks.h, MODULES), then
/// read modules [0, count).
void __tpuprof_rt_modules_lock(void);
void __tpuprof_rt_modules_unlock(void);
uint32_t __tpuprof_rt_modules_count_locked(void);
/// Module `i`'s private copy of its table, its exact size and first id.
const void *__tpuprof_rt_module_locked(uint32_t i, uint64_t *table_size,
                                       uint32_t *first_probe);

/// Modules registered so far (tests).
uint32_t __tpuprof_rt_num_modules(void);

/*===-- The dump file (dump_file.c): the one writer ----------------------===*/

/// Longest output directory kept, NUL included.
#define TPUPROF_RT_DIR_MAX 4096u
/// Counter words one record carries at most (events, pseudo-events, CPU).
#define TPUPROF_RT_MAX_WORDS                                                   \
  (TPUPROF_RT_EVENT_WORDS(TPUPROF_RT_MAX_EVENTS) + 1u)

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
  int state;                 ///< tpuprof_rt_dump_state.
  int fd;                    ///< The file, when OPEN.
  uint32_t serial;           ///< Non-zero, distinct per created file.
  int grow_err;              ///< errno of the first failed growth (said once).
  uint64_t end;              ///< Bytes in the file.
  uint32_t modules;          ///< Modules written (registry order).
  uint32_t threads;          ///< Threads numbered (SEGMENT `thread`).
  tpuprof_rt_dump_seg *segs; ///< Its SEGMENT sections, in file order.
  uint32_t num_segs, segs_capacity;
  /// The header as last written. window.c fills mode, device, pid, clock
  /// and the first calibration pair before creating the file.
  tpuprof_dump_header h;
  /// The window's CALIBRATION section, when `calibrated`.
  int calibrated;
  tpuprof_calibration_section calib;
  tpuprof_calibration_counts counts[TPUPROF_RT_MAX_WORDS];
  uint32_t num_counts;
  /// The PROCESS section's payload as last written, and its file offset.
  tpuprof_process_section process;
  uint64_t process_at;
  uint64_t dev, ino; ///< The file's identity, to tell it from a file the
                     ///< program opened under the same descriptor number.
  char dir[TPUPROF_RT_DIR_MAX];       ///< Where it is created ...
  uint32_t first_n;                   ///< ... with the first N tried.
  char path[TPUPROF_RT_DIR_MAX + 64]; ///< Its name, once created.
  /// A DEVICE section's payload (device.c, malloc'ed) that the close
  /// appends after the segments, or NULL; freed by the close.
  void *device_payload;
  uint64_t device_payload_size;
} tpuprof_rt_dump;

/// Creates `d`'s file (state OPEN) or, when it cannot, prints one line and
/// sets state FAILED. Thread-list lock or ctl lock held (nobody else sees
/// `d` yet, or only under the thread-list lock); takes the registry lock.
void __tpuprof_rt_dump_create(tpuprof_rt_dump *d);

/// Makes `d`'s file, whose window was discarded (every mapping detached),
/// the next window's: the same name, emptied and a fresh prefix written, so
/// dump numbers stay dense (a schedule's warmup). Thread-list lock held.
void __tpuprof_rt_dump_restart_locked(tpuprof_rt_dump *d);

/// Whether `d`'s file is still usable (called before each use but the
/// hot path's stores into mapped segments): its descriptor must still be
/// the file it created (the program may have closed it, and opened a file
/// of its own under the number; it is then reopened by name) and the file
/// must still be whole (another process may have truncated it, or a store
/// into a mapping of it faulted: __tpuprof_rt_dump_faulted). 0, or -1
/// after one line: `d` is FAILED (the records are lost, the file is left
/// as it is, and no descriptor but its own is closed). Ctl or thread-list
/// lock held.
int __tpuprof_rt_dump_check_locked(tpuprof_rt_dump *d);

/// Set by segments.c's SIGBUS handler when a store into a segment faulted
/// (the file was truncated under it); the next check fails the dump.
extern volatile int __tpuprof_rt_dump_faulted;

/// Sets the window's begin (and, until the close, end) in `d`'s header.
/// Ctl mutex held; thread-list lock too once threads may see `d`.
void __tpuprof_rt_dump_begin(tpuprof_rt_dump *d, uint64_t window_begin);

/// Appends the MODULE sections of modules registered since `d`'s file was
/// written. Thread-list lock held.
void __tpuprof_rt_dump_sync_modules_locked(tpuprof_rt_dump *d);

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
                                    uint64_t at, const void *bytes, uint64_t n);

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

/// Tests only (unittests/Reliability/CloseCrashTest.cpp): when 1..5, finishing
/// a dump raises SIGKILL just before that step (1 segment sizes, 2 unused
/// capacity, 3 header, 4 complete flag, 5 close); when 6, just after a
/// stage's records were written, before the stage starts over; as a
/// process killed there would die. 0 (the default): never.
extern int __tpuprof_rt_kill_before_step;

/*===-- Thread states and the window state (threads.c) ------------------===*/

/// Window generation: bumped under the thread-list lock at every enable,
/// flush and disable. A thread records only while its state carries the
/// current generation; stack entries carry it too, so an end never writes
/// into a buffer that was reset for a later window. Hidden: the hot path
/// reads it on every begin.
extern uint32_t __tpuprof_rt_gen TPUPROF_RT_HIDDEN;

/// Record bytes one thread may keep in the open window (TPUPROF_RECORD_SIZE
/// timing-only records, or max_records of tpuprof_enable).
extern uint64_t __tpuprof_rt_window_cap;

/// Begins dropped where no segment could count them (a thread that got no
/// segment at all, or no state): part of the header's `dropped`.
extern uint64_t __tpuprof_rt_lost TPUPROF_RT_HIDDEN;

/// Full-buffer policy of the open window: 0 stop recording, 1 ring (keep the
/// newest records). Threads take it when they enter the window.
extern int __tpuprof_rt_window_ring;

/// The open window's dump, or NULL. Switched with the ctl lock and the
/// thread-list lock held; read by threads under the thread-list lock.
extern tpuprof_rt_dump *__tpuprof_rt_dump;

/// The thread-list lock (rt_locks.h, THREADS). Held by window.c while it
/// switches windows, by a thread taking a segment, and by the writer's
/// module sync.
void __tpuprof_rt_threads_lock(void);
void __tpuprof_rt_threads_unlock(void);

/// Creates the calling thread's state and opens its counter group ahead of
/// a window (takes the thread-list lock), so neither is window time.
void __tpuprof_rt_prepare_thread(void);

/// Bumps the generation (skipping 0) and returns the new one. Lock held.
uint32_t __tpuprof_rt_next_gen_locked(void);

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
/// ctl lock held; every probe begun in between must end before
/// __tpuprof_rt_private_end(), which restores the thread's own state and
/// returns the bytes recorded.
int __tpuprof_rt_private_begin(uint8_t *buf, uint64_t cap);
uint64_t __tpuprof_rt_private_end(void);

/*===-- Segments (segments.c) --------------------------------------------===*/

/// Ends window `gen` for the threads, thread-list lock held: fixes in `d`
/// the record bytes of every thread's current segment (release-published
/// by the owner), then swaps every thread's mapping of `d`'s file for
/// anonymous memory of the same size at the same address (mmap MAP_FIXED),
/// so that an owner still inside a probe, or racing the close, stores into
/// memory no dump reads, and `d`'s file can be finished and truncated
/// without a SIGBUS. 0, or -1 with errno when a swap failed (the file then
/// stays as an incomplete dump).
int __tpuprof_rt_segments_close_locked(uint32_t gen, tpuprof_rt_dump *d);

/// Enters the calling thread (its state made ahead, prepare_thread) into
/// the window being opened, `__tpuprof_rt_dump`, and takes its first
/// segment, so its first probe takes no slow path inside the window. Does
/// nothing for a window whose file its first record creates. Thread-list
/// lock held, after the generation is bumped.
void __tpuprof_rt_segments_enter_locked(void);

/// Tests only: called by a thread that takes a segment, with the
/// thread-list lock held (a signal raised there lands inside the runtime).
extern void (*__tpuprof_rt_test_segment_hook)(void);

/*===-- The hot path (record.c) ------------------------------------------===*/

/// Begins user range `probe` for a caller whose frame is `frame`
/// (__builtin_dwarf_cfa() of the API function): the range is not bound to
/// that frame (it may end in another function), but frames left without
/// their probes' ends below it are closed first.
void __tpuprof_rt_begin_range(uint32_t probe, uintptr_t frame);

/// Innermost open probe of the calling thread, or UINT32_MAX.
uint32_t __tpuprof_rt_innermost_probe(void);

/*===-- Device intervals (device.c, docs/device.md) ---------------------===*/

/// Whether device timing is on (TPUPROF_DEVICE_TIMING, default 1): backends
/// wrap enqueues only then.
extern int __tpuprof_rt_device_timing;

/// The record a device command belongs to: the calling thread's innermost
/// open probe's record in the open window (format.h, tpuprof_device_record).
typedef struct tpuprof_rt_launch_ref {
  uint32_t gen;    ///< Window generation it was enqueued in.
  uint32_t thread; ///< SEGMENT `thread`, UINT32_MAX when no record is open.
  uint32_t probe;  ///< The record's probe.
  uint64_t begin;  ///< The record's begin ticks.
} tpuprof_rt_launch_ref;

/// Fills `out` for a command the calling thread is enqueuing. Returns 0 when
/// no window is open (the command is not timed).
int __tpuprof_rt_device_launch_ref(tpuprof_rt_launch_ref *out);

/// A finished command, its times in its queue's clock domain (ns).
typedef struct tpuprof_rt_device_interval {
  uint64_t queued, submitted, start, end;
  uint64_t bytes;
  uint32_t queue; ///< __tpuprof_rt_device_queue's index.
  uint32_t name;  ///< __tpuprof_rt_device_name's index.
  uint32_t op;    ///< tpuprof_device_op
  tpuprof_rt_launch_ref ref;
} tpuprof_rt_device_interval;

/// A device backend, as device.c drives it at a window's close.
typedef struct tpuprof_rt_device_backend {
  /// Adds every finished command (__tpuprof_rt_device_add). With `wait_ns`,
  /// waits up to that long for commands not finished yet, then gives up on
  /// them (counted as dropped).
  void (*collect)(uint64_t wait_ns);
} tpuprof_rt_device_backend;

/// A function a backend takes from its library: the symbol, and where its
/// pointer goes in the backend's table of functions.
typedef struct tpuprof_rt_symbol {
  const char *name;
  size_t offset;
} tpuprof_rt_symbol;
#define TPUPROF_RT_SYMBOL(table_type, field, symbol)                           \
  {#symbol, offsetof(table_type, field)}

/// Opens a backend's library: the program's own copy when it has one loaded,
/// else a private one. NULL when it cannot be loaded.
void *__tpuprof_rt_device_dlopen(const char *name);

/// Fills `table` from `lib` (which may be NULL: every pointer NULL); 1 when
/// all `count` symbols resolved.
int __tpuprof_rt_device_resolve(void *lib, const tpuprof_rt_symbol *symbols,
                                size_t count, void *table);

/// Registers a backend (once; a few at most).
void __tpuprof_rt_device_register(const tpuprof_rt_device_backend *b);

/// The index of the queue `handle` of `api`, registered on its first use
/// with the clock domain and device name the backend found (returns
/// UINT32_MAX when out of memory).
uint32_t __tpuprof_rt_device_queue(uint32_t api, const void *handle,
                                   uint32_t domain, const char *device_name);
/// Sets the reader (ns) of TPUPROF_DEVICE_CLOCK_DEVICE (a backend does once,
/// when it loads) and takes its first pair of the open window: from then on
/// each window's section converts that domain by its own pairs.
void __tpuprof_rt_device_clock(uint64_t (*read_ns)(void));

/// Looks a registered queue up; UINT32_MAX when `handle` has none.
uint32_t __tpuprof_rt_device_find_queue(uint32_t api, const void *handle);

/// The index of a kernel name (interned); UINT32_MAX when out of memory.
uint32_t __tpuprof_rt_device_name(const char *name);

/// Keeps a finished command for the dump of its window (dropped, and
/// counted, when that window has closed).
void __tpuprof_rt_device_add(const tpuprof_rt_device_interval *iv);

/// Counts `n` commands that get no interval.
void __tpuprof_rt_device_drop(uint64_t n);

/// Window hooks (window.c, ctl lock held): the first clock pairs when a
/// window opens; at its close (`d` NULL: its records are discarded),
/// collects what its commands left, converts them to ticks and hands `d`
/// its DEVICE section (none when the window timed no command).
void __tpuprof_rt_device_window_open(void);
void __tpuprof_rt_device_window_close(tpuprof_rt_dump *d, uint32_t gen);

/*===-- Calibration (calibrate.c) ----------------------------------------===*/

/// Whether windows calibrate (TPUPROF_CALIBRATE; tests set it directly).
extern int __tpuprof_rt_calibration_on;

/// Measures the runtime's own cost per probe pair on the calling thread in
/// the coming window's mode (its event set chosen, `words` counter words
/// per record) and fills `out` (ticks) and `counts[0, words)` (what the
/// probes add to each word; zeros where it cannot tell). 0, or -1 when it
/// could not measure (no memory, no thread state): the window then has no
/// CALIBRATION section. ctl lock held, no window open on this thread's
/// behalf.
int __tpuprof_rt_calibrate(uint32_t words, tpuprof_calibration_section *out,
                           tpuprof_calibration_counts *counts);

/*===-- Windows (window.c) -----------------------------------------------===*/

/// Sets later windows' settings from the environment (output directory,
/// device, buffer policy, memory tracking, default max_records) at
/// initialization.
void __tpuprof_rt_window_settings_from_env(const tpuprof_rt_config *cfg);

/// Whether a window is open. ctl lock held, as for everything below.
int __tpuprof_rt_window_open_locked(void);

/// When a window's file is created (__tpuprof_rt_enable_locked).
enum {
  TPUPROF_RT_FILE_NOW = 0,     ///< Now; when it cannot be, one line and the
                               ///< window's records are dropped (schedule).
  TPUPROF_RT_FILE_LAZY = 1,    ///< By its first record (TPUPROF_ENABLE).
  TPUPROF_RT_FILE_OR_FAIL = 2, ///< Now; when it cannot be, one line and no
                               ///< window (tpuprof_enable).
};

/// Opens a window of `max_records` (0: TPUPROF_RECORD_SIZE) per thread in
/// `mode`, its file created as `how` says (TPUPROF_RT_FILE_*). 0, or -1
/// (one stderr line) when one is open, the arguments are bad or (OR_FAIL)
/// the file cannot be created.
int __tpuprof_rt_enable_locked(uint64_t max_records, int mode, int how);

/// Ends the window: `write` 0 discards its records, 1 writes the dump;
/// `reopen` starts the next window at once. 0, or -1 if the write failed
/// or no window is open.
int __tpuprof_rt_close_window_locked(int write, int reopen);

/// Path of the last dump written ("" before the first). The buffer stays.
const char *__tpuprof_rt_last_dump_locked(void);

/// tpuprof_set_output, tpuprof_set_buffer_policy (`policy` checked),
/// tpuprof_set_memory (returns the previous setting).
void __tpuprof_rt_set_output_locked(const char *dir, int device);
void __tpuprof_rt_set_buffer_policy_locked(int policy);
int __tpuprof_rt_set_memory_locked(int on);

/// In the child after fork(), thread-list lock held: forgets the parent's
/// dumps and, if a window is open, starts the child's own (its file created
/// by its first record).
void __tpuprof_rt_window_after_fork_child_locked(void);

/*===-- Schedule (schedule.c) --------------------------------------------===*/

/// Parses "skip_first=N,wait=N,warmup=N,active=N,repeat=N" into `s`
/// (missing keys keep their value). 0, or -1 with a reason in `why`.
int __tpuprof_rt_parse_schedule(const char *spec, tpuprof_schedule *s,
                                char *why, size_t why_size);

/// Starts the TPUPROF_SCHEDULE schedule at initialization. ctl lock held.
void __tpuprof_rt_schedule_from_env_locked(const char *spec, int mode,
                                           uint64_t record_size);

/// Whether a schedule drives windows (ctl lock held).
int __tpuprof_rt_schedule_active_locked(void);

/// An active window's dump written under the ctl lock, for the schedule's
/// on-ready callback, which the API calls once the lock is released (`cb`
/// NULL or `path` empty: none).
typedef struct tpuprof_rt_ready {
  void (*cb)(const char *dump_path, void *user);
  void *user;
  char path[PATH_MAX + 64];
} tpuprof_rt_ready;

/// tpuprof_set_schedule and tpuprof_step under the ctl lock; each fills
/// `ready`.
int __tpuprof_rt_set_schedule_locked(const tpuprof_schedule *s,
                                     tpuprof_rt_ready *ready);
uint64_t __tpuprof_rt_step_locked(tpuprof_rt_ready *ready);

/*===-- Control (control.c) ----------------------------------------------===*/

/// Runs the one-time initialization (environment, clock, settings, fork
/// and exit handlers) if the library constructor has not run yet, e.g.
/// when another constructor calls the API first.
void __tpuprof_rt_ensure_init(void);

/// Initializes, then takes the ctl lock (rt_locks.h, CTL).
void __tpuprof_rt_ctl_lock(void);
void __tpuprof_rt_ctl_unlock(void);

/*===-- User ranges (user_ranges.c) --------------------------------------===*/

/// Stable hash of a user range name (FNV-1a 64 of "user:" + name).
uint64_t __tpuprof_rt_user_range_hash(const char *name);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TPUPROF_RUNTIME_RT_INTERNAL_H */
