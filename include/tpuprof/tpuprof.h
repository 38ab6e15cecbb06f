/*===- tpuprof/tpuprof.h - tpuprof runtime C API ------------------*- C -*-===*\
|*                                                                            *|
|* The runtime library libtpuprof_rt: profiling control for programs, and the *|
|* entry points that instrumented code calls. Links only libc, pthreads and   *|
|* libpfm4.                                                                   *|
|*                                                                            *|
|* Environment, read once when the library loads (every variable, its values  *|
|* and what a bad value does: docs/environment.md):                           *|
|*   TPUPROF_ENABLE=1 (ENABLE_ALL_PROFILE)     profile the whole run          *|
|*   TPUPROF_MODE=0|1|2 (PROFILE_MODE)         what a window records, def. 0  *|
|*   TPUPROF_RECORD_SIZE=N (PROFILE_RECORD_SIZE) most records a thread keeps  *|
|*   TPUPROF_OUTPUT=DIR                        where dumps go, default "."    *|
|*   TPUPROF_DEVICE=N                          device id in dump names        *|
|*   TPUPROF_CLOCK=auto|tsc|monotonic          tick source, default auto      *|
|*   TPUPROF_BUFFER=stop|ring                  full-buffer policy, def. stop  *|
|*   TPUPROF_MEMORY=0|1                        record allocations and frees   *|
|*   TPUPROF_CALIBRATE=1|0                     measure the probe cost, def. 1 *|
|*   TPUPROF_DEVICE_TIMING=1|0                 time device commands, def. 1   *|
|*   TPUPROF_CUPTI_LIBRARY=PATH                the libcupti CUDA timing loads *|
|*   TPUPROF_EVENTS=a,b,...                    libpfm4 events, modes 1 and 2  *|
|*   TPUPROF_SCHEDULE=wait=1,active=2,...      step-driven windows            *|
|*   TPUPROF_RANK=N, TPUPROF_WORLD_SIZE=N      rank in a job (else the        *|
|*                                             launcher's: docs/mpi.md)       *|
\*===----------------------------------------------------------------------===*/

#ifndef TPUPROF_TPUPROF_H
#define TPUPROF_TPUPROF_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*===-- Control ----------------------------------------------------------===*/

/// Default of the most records a thread keeps in a window.
#define TPUPROF_DEFAULT_RECORD_SIZE 131072u
/// Largest `max_records` (and TPUPROF_RECORD_SIZE) accepted: 2^30.
#define TPUPROF_MAX_RECORD_SIZE (1ull << 30)

/// Opens a profiling window and creates its dump file (and the output
/// directory, where missing). `max_records` is the most records a thread
/// keeps in it, counted in timing-only records (0 = TPUPROF_RECORD_SIZE from
/// the environment, else TPUPROF_DEFAULT_RECORD_SIZE): a cap, not an
/// allocation. `mode` is 0, 1 or 2. Returns 0, or -1 when a window is
/// already open, the arguments are bad or the dump file cannot be created
/// (a message goes to stderr; no window is opened).
int tpuprof_enable(uint64_t max_records, int mode);

/// Closes the window and writes its dump. Returns 0, or -1 when no window
/// was open or the dump could not be written (a message goes to stderr).
int tpuprof_disable(void);

/// Writes what the open window has recorded so far as a dump of its own and
/// continues in a new window with the same settings, whose file its first
/// record creates (a window that records nothing leaves no dump). Returns
/// as disable().
int tpuprof_flush(void);

/// Non-zero while a window is open.
int tpuprof_is_enabled(void);

/// Path of the last dump written by this process, or "" if none yet. The
/// string stays valid until the next dump is written.
const char *tpuprof_last_dump_path(void);

/// Sets the directory later windows' dumps are written to (overrides
/// TPUPROF_OUTPUT) and the device id in their names (overrides
/// TPUPROF_DEVICE). NULL keeps the directory; a negative device keeps the
/// device. A relative directory is taken from the working directory now.
void tpuprof_set_output(const char *dir, int device);

/// What a thread does when it has kept its max_records (docs/runtime.md,
/// "Buffer full"). Either way every record not kept is counted as dropped.
enum tpuprof_buffer_policy {
  TPUPROF_BUFFER_STOP = 0, ///< Keep the first records, drop later ones.
  TPUPROF_BUFFER_RING = 1, ///< Keep the newest, reusing the oldest space.
};

/// Sets the policy of later windows (overrides TPUPROF_BUFFER=stop|ring).
/// Returns 0, or -1 (one stderr line) for an unknown policy.
int tpuprof_set_buffer_policy(int policy);

/// Memory tracking (docs/runtime.md, "Memory"): with `on` non-zero,
/// windows record the allocations and frees that instrumented code makes
/// (overrides TPUPROF_MEMORY; mode 2 windows always do). Takes effect at
/// once in an open window. Returns the previous setting.
int tpuprof_set_memory(int on);

/*===-- Counters (modes 1 and 2; docs/runtime.md, "Counters") ----------===*/

/// Sets the PMU events later windows of mode 1 or 2 count: a comma-separated
/// list of libpfm4 names ("perf::CYCLES,INSTRUCTIONS:u,perf::PAGE-FAULTS"),
/// overriding TPUPROF_EVENTS. NULL or "" restores the default set. Returns
/// 0, or -1 (one stderr line, setting unchanged) when a name is unknown to
/// libpfm4 or the list has more than 16 events. Events that are known but
/// cannot be opened here are reported when a window opens.
int tpuprof_set_events(const char *events);

/*===-- Schedules (docs/runtime.md, "Schedules") -------------------------===*/

/// A window schedule driven by tpuprof_step(), as PyTorch's profiler has:
/// after `skip_first` steps, cycles of `wait` steps without profiling,
/// `warmup` steps profiled but discarded, and `active` steps profiled and
/// written as ONE dump; `repeat` cycles (0 = until the schedule is cleared).
typedef struct tpuprof_schedule {
  uint32_t skip_first;
  uint32_t wait;
  uint32_t warmup;
  uint32_t active; ///< At least 1.
  uint32_t repeat;
  uint64_t max_records; ///< As for tpuprof_enable (0 = TPUPROF_RECORD_SIZE).
  int mode;             ///< As for tpuprof_enable.
  /// Called (on the thread that called tpuprof_step, no lock held) after
  /// each active window's dump is written; may be NULL.
  void (*on_ready)(const char *dump_path, void *user);
  void *user;
} tpuprof_schedule;

/// Starts `s` at step 0 (the current step); NULL stops the schedule and
/// discards or writes its open window (written if it was active). Returns
/// 0, or -1 when the schedule is invalid or a window opened by
/// tpuprof_enable is open.
int tpuprof_set_schedule(const tpuprof_schedule *s);

/// Ends the current step and starts the next one; with a schedule, opens,
/// promotes or closes windows accordingly. Returns the new step number.
uint64_t tpuprof_step(void);

/*===-- Clocks of a job (docs/mpi.md) -----------------------------------===*/

/// Records a measurement of this process's CLOCK_MONOTONIC against the
/// job's reference clock (rank 0's): reference = monotonic + `offset_ns` at
/// monotonic time `at_ns` (not 0), to within `error_ns`. `slot` is a
/// tpuprof_clock_offset_slot of format.h (0: at MPI_Init, 1: at
/// MPI_Finalize). Every later dump's PROCESS section carries it;
/// libtpuprof_mpi calls it. Returns 0, or -1 for a bad slot or `at_ns`.
int tpuprof_set_clock_offset(uint32_t slot, int64_t offset_ns, uint64_t at_ns,
                             uint64_t error_ns);

/*===-- User ranges (kind "user" probes) ---------------------------------===*/

/// Id of the user range `name` (registered on first use; the same name
/// always gives the same id). Cheap after the first call, but callers in a
/// loop should keep the id. Returns an ignored id if the table is full.
uint32_t tpuprof_range_id(const char *name);

/// Begins / ends the range with id `id` on the calling thread (nest LIFO).
void tpuprof_range_begin(uint32_t id);
void tpuprof_range_end(uint32_t id);

/// Begins the range `name`; tpuprof_range_pop() ends the innermost range.
void tpuprof_range_push(const char *name);
void tpuprof_range_pop(void);

/*===-- Entry points for instrumented code (the probe ABI) ---------------===*/

/// Non-zero while a window is open. Instrumented code loads it inline and
/// calls the runtime only when it is set (docs/probes.md, "Disabled cost").
extern volatile uint32_t __tpuprof_enabled;

/// Registers an instrumented module's probe table (format.h) and stores the
/// global id of the module's probe 0 in `*first_probe`. Called from the
/// module's constructor. The table is copied, so it may be unloaded later.
void __tpuprof_register_module(const void *table, uint64_t size,
                               uint32_t *first_probe);

/// Begins probe `probe` (a global id) on the calling thread.
void __tpuprof_begin(uint32_t probe);

/// Like __tpuprof_begin, and records `n` dynamic dimensions.
void __tpuprof_begin_dims(uint32_t probe, const int64_t *dims, uint32_t n);

/// Ends the innermost open probe of the calling thread, which must be `probe`.
void __tpuprof_end(uint32_t probe);

/// Non-zero while a window records memory events (tpuprof_set_memory).
/// Wrapped allocations load it inline and call the runtime only when set.
extern volatile uint32_t __tpuprof_memory;

/// Memory events of instrumented code (format.h names their arguments):
/// `ptr` was allocated with `size` bytes, or is about to be freed. NULL
/// pointers are ignored. `source` is a tpuprof_memory_source.
void __tpuprof_alloc(const void *ptr, uint64_t size, uint32_t source);
void __tpuprof_alloc_out(void *const *out, uint64_t size, uint32_t source,
                         int64_t status);
void __tpuprof_realloc(const void *old, const void *ptr, uint64_t size,
                       uint32_t source);
void __tpuprof_free(const void *ptr, uint32_t source);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TPUPROF_TPUPROF_H */
