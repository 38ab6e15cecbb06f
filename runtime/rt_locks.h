/*===- runtime/rt_locks.h - The runtime's locks and their order ---*- C -*-===*\
|*                                                                            *|
|* Every mutex of the runtime is here, in the order they nest: a thread may   *|
|* take a lock only while it holds none that comes later in this list, so     *|
|* no two threads can wait on each other.                                     *|
|*                                                                            *|
|*   1. CTL      control calls (window.c, schedule.c, control.c): opening,    *|
|*               closing and flushing windows, their settings, the schedule.  *|
|*               Never on the hot path.                                       *|
|*   2. RANGES   interning user range names (user_ranges.c); held while the   *|
|*               new range's table registers, which takes THREADS, MODULES.   *|
|*   3. THREADS  the thread list and the window state threads read            *|
|*               (threads.c): taken by a thread that takes a segment          *|
|*               (segments.c), by the end of a parked record (record.c), by   *|
|*               thread exit, and by a window switch under CTL.               *|
|*   4. MODULES  the module registry (module.c), read by the dump writer      *|
|*               (dump_file.c) under THREADS or CTL.                          *|
|*   5. MESSAGES the one-line-per-failure memory of the dump writer           *|
|*               (dump_file.c), taken under any of the above.                 *|
|*                                                                            *|
|* One-time initialization (pthread_once: control.c's setup, the pthread key  *|
|* of threads.c, libpfm4's in counters.c) takes no lock of its own.           *|
|* Across fork() the prepare handler (control.c) holds CTL, THREADS and       *|
|* MODULES, in this order, so the child never inherits one of them held by a  *|
|* thread that does not exist there.                                          *|
|*                                                                            *|
|* Signal handlers. A probe in a signal handler may interrupt its own thread  *|
|* inside the runtime, holding one of these. The probes' slow paths check     *|
|* __tpuprof_rt_locks_held() first and, when the thread holds a lock, drop    *|
|* the record (counted) instead of waiting on it.                             *|
|*                                                                            *|
|* Builds with TPUPROF_RT_CHECK_LOCKS (the sanitizer builds) check the order  *|
|* at every lock and abort on a violation.                                    *|
\*===----------------------------------------------------------------------===*/

#ifndef TPUPROF_RUNTIME_RT_LOCKS_H
#define TPUPROF_RUNTIME_RT_LOCKS_H

#ifdef __cplusplus
extern "C" {
#endif

/// The locks, in the order they nest (see above).
typedef enum tpuprof_rt_lock_id {
  TPUPROF_RT_LOCK_CTL = 0,
  TPUPROF_RT_LOCK_RANGES = 1,
  TPUPROF_RT_LOCK_THREADS = 2,
  TPUPROF_RT_LOCK_MODULES = 3,
  TPUPROF_RT_LOCK_MESSAGES = 4,
  TPUPROF_RT_LOCK_COUNT
} tpuprof_rt_lock_id;

void __tpuprof_rt_lock(tpuprof_rt_lock_id id);
void __tpuprof_rt_unlock(tpuprof_rt_lock_id id);

/// How many of the locks the calling thread holds or waits for. A probe
/// that runs while it is not 0 (in a signal handler that interrupted the
/// runtime on this thread) must take none: it would wait on itself.
unsigned __tpuprof_rt_locks_held(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TPUPROF_RUNTIME_RT_LOCKS_H */
