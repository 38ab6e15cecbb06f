/*===- tpuprof/tpuprof.h - tpuprof runtime C API ------------------*- C -*-===*\
|*                                                                            *|
|* The runtime library libtpuprof_rt: profiling control for programs, and the *|
|* entry points that instrumented code calls. Links only libc and pthreads.   *|
|*                                                                            *|
|* Environment (read once when the library loads; docs/environment.md):       *|
|*   TPUPROF_ENABLE=1 (ENABLE_ALL_PROFILE)     profile the whole run          *|
|*   TPUPROF_MODE=0|1|2 (PROFILE_MODE)         detail, default 0              *|
|*   TPUPROF_RECORD_SIZE=N (PROFILE_RECORD_SIZE) records per thread, 131072   *|
|*   TPUPROF_OUTPUT=DIR                        where dumps go, default "."    *|
|*   TPUPROF_DEVICE=N                          device id in dump names        *|
|*   TPUPROF_CLOCK=auto|tsc|monotonic          tick source, default auto      *|
\*===----------------------------------------------------------------------===*/

#ifndef TPUPROF_TPUPROF_H
#define TPUPROF_TPUPROF_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*===-- Control ----------------------------------------------------------===*/

/// Default per-thread capacity, in timing-only records.
#define TPUPROF_DEFAULT_RECORD_SIZE 131072u

/// Opens a profiling window. `max_records` is the per-thread buffer capacity
/// counted in timing-only records (0 = TPUPROF_RECORD_SIZE from the
/// environment, else TPUPROF_DEFAULT_RECORD_SIZE); `mode` is 0, 1 or 2.
/// Returns 0, or -1 when a window is already open or the arguments are bad
/// (a message goes to stderr).
int tpuprof_enable(uint64_t max_records, int mode);

/// Closes the window and writes its dump. Returns 0, or -1 when no window
/// was open or the dump could not be written (a message goes to stderr).
int tpuprof_disable(void);

/// Writes what the open window has recorded so far as a dump of its own and
/// continues in a new window with the same settings. Returns as disable().
int tpuprof_flush(void);

/// Non-zero while a window is open.
int tpuprof_is_enabled(void);

/// Path of the last dump written by this process, or "" if none yet. The
/// string stays valid until the next dump is written.
const char *tpuprof_last_dump_path(void);

/// Sets the directory dumps are written to (overrides TPUPROF_OUTPUT) and the
/// device id in their names (overrides TPUPROF_DEVICE). NULL keeps the
/// directory; a negative device keeps the device.
void tpuprof_set_output(const char *dir, int device);

/*===-- Entry points for instrumented code (the probe ABI) ---------------===*/

/// Non-zero while a window is open. Instrumented code loads it inline and
/// calls the runtime only when it is set (design.md, "Disabled cost").
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

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TPUPROF_TPUPROF_H */
