/*===- tools/tpuprof-events/tpuprof-events.c - List PMU events ----*- C -*-===*\
|*                                                                            *|
|* What papi_avail / papi_native_avail are for PAPI: the PMUs and events      *|
|* libpfm4 knows on this machine, and whether each one actually opens as a    *|
|* perf_event for this process (a VM has no hardware PMU; perf_event_paranoid *|
|* and seccomp may forbid more). Uses the runtime's own encoding and error    *|
|* explanations, so what it says is what TPUPROF_EVENTS will do.              *|
|*                                                                            *|
|*   tpuprof-events                 every event of every present PMU, with    *|
|*                                  its description                           *|
|*   tpuprof-events --filter TEXT   those whose name or description holds     *|
|*                                  TEXT (any case), as papi_native_avail -i  *|
|*   tpuprof-events --check NAME    one event (any libpfm4 spelling), exit 0  *|
|*                                  if it opens, 1 if not                     *|
\*===----------------------------------------------------------------------===*/

#define _GNU_SOURCE /* strcasestr */
#include "tpuprof/events.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/// Encodes and opens `name`; prints one line. Returns 1 when it opens.
static int check(const char *name, int verbose) {
  struct perf_event_attr attr;
  const char *why = NULL;
  if (__tpuprof_rt_encode_event(name, &attr, &why) != 0) {
    printf("%-40s cannot encode (libpfm4: %s)\n", name, why);
    return 0;
  }
  int fd = __tpuprof_rt_perf_open(&attr, -1);
  if (fd >= 0) {
    close(fd);
    if (verbose)
      printf("%-40s opens (type %u, config 0x%llx)\n", name, attr.type,
             (unsigned long long)attr.config);
    else
      printf("%-40s opens\n", name);
    return 1;
  }
  char cause[256];
  __tpuprof_rt_explain_open_error(errno, &attr, cause, sizeof(cause));
  printf("%-40s does not open (%s)\n", name, cause);
  return 0;
}

static int usage(FILE *f) {
  fprintf(f,
          "usage: tpuprof-events [--filter TEXT] | --check EVENT | "
          "--version\n\n"
          "Lists the PMUs and events libpfm4 knows here, whether each opens\n"
          "as a perf_event for this process, and what it counts.\n\n"
          "  --filter TEXT   only events whose name or description holds TEXT\n"
          "                  (any case), e.g. --filter cache\n"
          "  --check EVENT   test one event, any libpfm4 spelling (exit 0 if\n"
          "                  it opens, 1 if not), e.g. --check "
          "perf::TASK-CLOCK\n"
          "  --version       tpuprof's version\n\n"
          "Names that open can go into TPUPROF_EVENTS.\n");
  return f == stdout ? 0 : 2;
}

/// Prints `desc` indented under its event, wrapped at about 76 columns.
static void describe(const char *desc) {
  if (!desc || !*desc)
    return;
  const char *p = desc;
  while (*p) {
    int n = (int)strlen(p);
    if (n > 70) {
      n = 70;
      while (n > 30 && p[n] != ' ')
        --n;
    }
    printf("      %.*s\n", n, p);
    p += n;
    while (*p == ' ')
      ++p;
  }
}

/// Whether TEXT (any case) is in the event's name or description.
static int matches(const char *filter, const char *name, const char *desc) {
  return !filter || strcasestr(name, filter) ||
         (desc && strcasestr(desc, filter));
}

int main(int argc, char **argv) {
  if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))
    return usage(stdout);
  if (argc == 2 && !strcmp(argv[1], "--version")) {
    // The first line as every tool's (tpuprof/Version.h); no LLVM here.
    printf("tpuprof-events (tpuprof " TPUPROF_VERSION ")\n");
    return 0;
  }
  if (argc == 3 && !strcmp(argv[1], "--check")) {
    if (__tpuprof_rt_pfm_init() != 0)
      return 1;
    return check(argv[2], 1) ? 0 : 1;
  }
  const char *filter = NULL;
  if (argc == 3 && !strcmp(argv[1], "--filter"))
    filter = argv[2];
  else if (argc != 1)
    return usage(stderr);
  if (__tpuprof_rt_pfm_init() != 0)
    return 1;
  printf("perf_event_paranoid: %d\n", __tpuprof_rt_perf_paranoid());
  int pmus = 0, events = 0, open = 0;
  pfm_pmu_t pmu;
  pfm_for_all_pmus(pmu) {
    pfm_pmu_info_t pinfo;
    memset(&pinfo, 0, sizeof(pinfo));
    pinfo.size = sizeof(pinfo);
    if (pfm_get_pmu_info(pmu, &pinfo) != PFM_SUCCESS || !pinfo.is_present)
      continue;
    ++pmus;
    int shown = 0;
    for (int e = pinfo.first_event; e != -1; e = pfm_get_event_next(e)) {
      pfm_event_info_t einfo;
      memset(&einfo, 0, sizeof(einfo));
      einfo.size = sizeof(einfo);
      if (pfm_get_event_info(e, PFM_OS_NONE, &einfo) != PFM_SUCCESS)
        continue;
      char name[256];
      snprintf(name, sizeof(name), "%s::%s", pinfo.name, einfo.name);
      if (!matches(filter, name, einfo.desc))
        continue;
      if (!shown++)
        printf("\nPMU %s (%s): %d events\n", pinfo.name, pinfo.desc,
               pinfo.nevents);
      ++events;
      open += check(name, 0);
      describe(einfo.desc);
    }
  }
  if (filter)
    printf("\n%d PMUs, %d events matching '%s', %d open here\n", pmus, events,
           filter, open);
  else
    printf("\n%d PMUs, %d events, %d open here\n", pmus, events, open);
  if (pmus && events && open == 0)
    printf("no event opens: perf_event_open may be forbidden (seccomp, "
           "perf_event_paranoid)\n");
  return 0;
}
