/*===- tpuprof/events.h - The runtime's PMU event code, for tools -*- C -*-===*\
|*                                                                            *|
|* What tools built in this tree (tpuprof-events) use of the runtime's        *|
|* counter code (runtime/counters.c), so that what they say about an event    *|
|* is what TPUPROF_EVENTS will do with it. Not installed and not part of the  *|
|* API: the symbols are hidden in libtpuprof_rt.so, so a tool links           *|
|* libtpuprof_rt.a; the reserved __tpuprof_rt_ prefix keeps them apart from   *|
|* the program's.                                                             *|
\*===----------------------------------------------------------------------===*/

#ifndef TPUPROF_EVENTS_H
#define TPUPROF_EVENTS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct perf_event_attr;

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
void __tpuprof_rt_explain_open_error(int err,
                                     const struct perf_event_attr *attr,
                                     char *out, size_t n);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TPUPROF_EVENTS_H */
