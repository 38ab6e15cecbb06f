/*===- bench/probe_overhead_papi.c - The function between PAPI_reads ------===*\
|*                                                                            *|
|* The PAPI peer of a mode-1 probe pair: the tiny function with PAPI_read of  *|
|* a started event set before and after it, as a PAPI-based profiler (TVM's   *|
|* PAPIMetricCollector) brackets an op. Built only when libpapi-dev is found. *|
\*===----------------------------------------------------------------------===*/

#include <papi.h>
#include <stdio.h>
#include <string.h>

static int event_set = PAPI_NULL;
static long long values[16];

/// Creates and starts an event set of the comma-separated `events`. Returns
/// 0, or -1 with the reason in `why`.
int bench_papi_start(const char *events, char *why, size_t why_size) {
  int rc = PAPI_library_init(PAPI_VER_CURRENT);
  if (rc != PAPI_VER_CURRENT) {
    snprintf(why, why_size, "PAPI_library_init: %s", PAPI_strerror(rc));
    return -1;
  }
  if ((rc = PAPI_create_eventset(&event_set)) != PAPI_OK) {
    snprintf(why, why_size, "PAPI_create_eventset: %s", PAPI_strerror(rc));
    return -1;
  }
  char list[1024];
  snprintf(list, sizeof(list), "%s", events);
  int n = 0;
  for (char *save, *name = strtok_r(list, ",", &save); name;
       name = strtok_r(NULL, ",", &save), ++n) {
    if (n == 16 || (rc = PAPI_add_named_event(event_set, name)) != PAPI_OK) {
      const PAPI_component_info_t *ci = PAPI_get_component_info(0);
      snprintf(why, why_size, "PAPI_add_named_event(%s): %s%s%s", name,
               n == 16 ? "more than 16 events" : PAPI_strerror(rc),
               ci && ci->disabled ? "; perf_event component disabled: " : "",
               ci && ci->disabled ? ci->disabled_reason : "");
      return -1;
    }
  }
  if ((rc = PAPI_start(event_set)) != PAPI_OK) {
    snprintf(why, why_size, "PAPI_start: %s", PAPI_strerror(rc));
    return -1;
  }
  return 0;
}

__attribute__((noinline)) int bench_tiny_papi(int x) {
  PAPI_read(event_set, values);
  __asm__ volatile("" : "+r"(x));
  x += 1;
  PAPI_read(event_set, values);
  return x;
}
