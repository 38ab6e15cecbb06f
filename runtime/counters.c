/*===- runtime/counters.c - PMU counters through libpfm4 and perf_event ---===*\
|*                                                                            *|
|* Modes 1 and 2 record counter deltas per probe. The design in short:        *|
|*   - libpfm4 turns each event name into a perf_event_attr                   *|
|*     (pfm_get_os_event_encoding, PFM_OS_PERF_EVENT_EXT), once per window;   *|
|*   - the window's event set is the events that opened on the enabling       *|
|*     thread; every other thread opens the same set as ONE perf_event group  *|
|*     lazily, on its first probe of a window (the slow path);                *|
|*   - each probe side reads the whole group once: one read() with            *|
|*     PERF_FORMAT_GROUP (values + time_enabled/time_running), or rdpmc from  *|
|*     the mmap'd pages where the kernel allows user-space counter reads;     *|
|*   - a record's counter words are [event deltas..., TIME_ENABLED delta,     *|
|*     TIME_RUNNING delta, READ_TICKS] (+ the CPU word in mode 2): the EVENTS *|
|*     section names the pseudo-events, so the on-disk format is unchanged.   *|
|* Everything that can fail (unknown name, no PMU, perf_event_paranoid,       *|
|* seccomp) is decided at enable time and reported in one line; the window    *|
|* then goes on with what opened, or with timing only.                        *|
\*===----------------------------------------------------------------------===*/

#define _GNU_SOURCE 1 /* sched_getcpu */
#include "rt_internal.h"

#include <errno.h>
#include <linux/perf_event.h>
#if TPUPROF_RT_HAVE_LIBPFM
#include <perfmon/pfmlib_perf_event.h>
/// Who turned an event name into a perf_event_attr, for messages.
#define ENCODER "libpfm4"
#else
#define ENCODER "no libpfm4"
#endif
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define TPUPROF_RT_HAVE_RDPMC 1
#else
#define TPUPROF_RT_HAVE_RDPMC 0
#endif

/// What the group read() returns with the read_format below.
#define READ_FORMAT                                                            \
  (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |                        \
   PERF_FORMAT_TOTAL_TIME_RUNNING)

static const char *const default_hw[] = {"perf::CYCLES", "perf::INSTRUCTIONS",
                                         "perf::CACHE-MISSES",
                                         "perf::BRANCH-MISSES"};
static const char *const default_sw[] = {
    "perf::TASK-CLOCK", "perf::PAGE-FAULTS", "perf::CONTEXT-SWITCHES"};

/*===-- Window event set (the ctl lock held by every writer) ------------===*/

typedef struct rt_event {
  char name[TPUPROF_RT_EVENT_NAME_MAX];
  struct perf_event_attr attr;
} rt_event;

/// The requested list (TPUPROF_EVENTS or tpuprof_set_events); empty = default.
static char requested[TPUPROF_RT_EVENT_LIST_MAX];
static int requested_set;
/// The open window's events (those that opened on the enabling thread).
static rt_event win_events[TPUPROF_RT_MAX_EVENTS];
static uint32_t win_nev;
static int win_cpu;
/// Bumped whenever the set changes (or after fork): thread groups with an
/// older value are reopened on their next slow path.
uint32_t __tpuprof_rt_ctr_setgen = 1;
/// Warnings already printed for this request, so a schedule that opens a
/// window every few steps says it once.
static int warned_for_request;

#if TPUPROF_RT_HAVE_LIBPFM
static pthread_once_t pfm_once = PTHREAD_ONCE_INIT;
static int pfm_status = PFM_SUCCESS;
#endif

/// Runs fn(arg) on a thread of the runtime's own whose stack is known to be
/// large enough (only the pages it touches cost memory), and waits for it;
/// on the calling thread when no thread can be created. libpfm4's
/// initialization and the choice of a window's events (its encoding, and
/// stdio's buffer for the messages) overflowed a thread created with
/// PTHREAD_STACK_MIN, which a program may well call tpuprof_enable() on.
static void on_big_stack(void *(*fn)(void *), void *arg) {
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) == 0) {
    pthread_t th;
    int ok = pthread_attr_setstacksize(&attr, 8u << 20) == 0 &&
             pthread_create(&th, &attr, fn, arg) == 0;
    pthread_attr_destroy(&attr);
    if (ok) {
      pthread_join(th, NULL);
      return;
    }
  }
  fn(arg);
}

#if TPUPROF_RT_HAVE_LIBPFM
static void *pfm_init_thread(void *arg) {
  (void)arg;
  pfm_status = pfm_initialize();
  return NULL;
}

static void pfm_init_fn(void) { on_big_stack(pfm_init_thread, NULL); }

int __tpuprof_rt_pfm_init(void) {
  pthread_once(&pfm_once, pfm_init_fn);
  if (pfm_status != PFM_SUCCESS) {
    static int warned;
    if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
      fprintf(stderr,
              "tpuprof: libpfm4 failed to initialize (%s); no "
              "counters\n",
              pfm_strerror(pfm_status));
    return -1;
  }
  return 0;
}
#else
/// Without libpfm4 there is nothing to set up: encode_event knows perf's
/// generic events by itself.
int __tpuprof_rt_pfm_init(void) { return 0; }
#endif

int __tpuprof_rt_perf_paranoid(void) {
  FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
  int v = -100;
  if (f) {
    if (fscanf(f, "%d", &v) != 1)
      v = -100;
    fclose(f);
  }
  return v;
}

#if TPUPROF_RT_HAVE_LIBPFM
int __tpuprof_rt_encode_event(const char *name, struct perf_event_attr *attr,
                              const char **why) {
  if (__tpuprof_rt_pfm_init() != 0) {
    *why = "libpfm4 is not initialized";
    return -1;
  }
  memset(attr, 0, sizeof(*attr));
  pfm_perf_encode_arg_t arg;
  memset(&arg, 0, sizeof(arg));
  arg.attr = attr;
  arg.size = sizeof(arg);
  // User level unless the name says :k/:u: with the usual
  // perf_event_paranoid=2 an unprivileged process may not count the kernel.
  int rc =
      pfm_get_os_event_encoding(name, PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
  if (rc != PFM_SUCCESS) {
    *why = pfm_strerror(rc);
    return -1;
  }
  attr->size = sizeof(*attr);
  attr->read_format = READ_FORMAT;
  attr->disabled = 0;
  attr->inherit = 0;
  return 0;
}
#else
/// perf's generic events under the names libpfm4 gives them (its "perf"
/// PMU), so that a runtime built without libpfm4 still counts the defaults.
static const struct generic_event {
  const char *name;
  uint32_t type;
  uint64_t config;
} generic_events[] = {
    {"CYCLES", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {"CPU-CYCLES", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {"INSTRUCTIONS", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    {"CACHE-REFERENCES", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES},
    {"CACHE-MISSES", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
    {"BRANCH-INSTRUCTIONS", PERF_TYPE_HARDWARE,
     PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
    {"BRANCHES", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
    {"BRANCH-MISSES", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
    {"BUS-CYCLES", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES},
    {"REF-CYCLES", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES},
    {"CPU-CLOCK", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK},
    {"TASK-CLOCK", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
    {"PAGE-FAULTS", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
    {"FAULTS", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
    {"CONTEXT-SWITCHES", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"CS", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"CPU-MIGRATIONS", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
    {"MINOR-FAULTS", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN},
    {"MAJOR-FAULTS", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ},
};

int __tpuprof_rt_encode_event(const char *name, struct perf_event_attr *attr,
                              const char **why) {
  // "perf::CYCLES", "cycles" and "CYCLES:u" alike; user level unless :k.
  const char *base = name;
  const char *pmu_end = strstr(name, "::");
  if (pmu_end) {
    if (pmu_end - name != 4 || strncmp(name, "perf", 4) != 0) {
      *why = "only perf's generic events (perf::NAME) are known";
      return -1;
    }
    base = pmu_end + 2;
  }
  size_t len = strcspn(base, ":");
  const char *modifier = base[len] == ':' ? base + len + 1 : "u";
  if (strcmp(modifier, "u") != 0 && strcmp(modifier, "k") != 0) {
    *why = "unknown modifier (only :u and :k)";
    return -1;
  }
  for (size_t i = 0; i < sizeof(generic_events) / sizeof(generic_events[0]);
       ++i) {
    if (strlen(generic_events[i].name) != len ||
        strncasecmp(base, generic_events[i].name, len) != 0)
      continue;
    memset(attr, 0, sizeof(*attr));
    attr->size = sizeof(*attr);
    attr->type = generic_events[i].type;
    attr->config = generic_events[i].config;
    attr->exclude_kernel = modifier[0] == 'u';
    attr->exclude_user = modifier[0] == 'k';
    attr->exclude_hv = 1;
    attr->read_format = READ_FORMAT;
    return 0;
  }
  *why = "not one of perf's generic events, the only ones this runtime "
         "knows";
  return -1;
}
#endif

void __tpuprof_rt_explain_open_error(int err,
                                     const struct perf_event_attr *attr,
                                     char *out, size_t n) {
  int paranoid = __tpuprof_rt_perf_paranoid();
  const char *what;
  switch (err) {
  case ENOENT:
  case EOPNOTSUPP:
    what = attr->type == PERF_TYPE_SOFTWARE
               ? "the kernel does not support this software event"
               : "no PMU here counts this event (no hardware PMU in a VM?)";
    break;
  case EACCES:
  case EPERM:
    what = !attr->exclude_kernel
               ? "not permitted to count kernel mode (use :u or lower "
                 "perf_event_paranoid)"
               : "not permitted (perf_event_paranoid, or a seccomp/container "
                 "policy)";
    break;
  case ENOSYS:
    what = "perf_event_open is unavailable (seccomp filter or kernel without "
           "perf events)";
    break;
  case EINVAL:
    what = "the kernel rejected the encoding";
    break;
  case EMFILE:
  case ENFILE:
    what = "out of file descriptors";
    break;
  default:
    what = "";
    break;
  }
  snprintf(out, n, "perf_event_open: %s%s%s; perf_event_paranoid=%d",
           strerror(err), *what ? ", " : "", what, paranoid);
}

int __tpuprof_rt_perf_open(struct perf_event_attr *attr, int group_fd) {
  return (int)syscall(SYS_perf_event_open, attr, 0 /* this thread */,
                      -1 /* any CPU */, group_fd, PERF_FLAG_FD_CLOEXEC);
}

/// Splits a comma-separated list into trimmed names; returns the count.
static uint32_t split_list(char *list, char **names, uint32_t max) {
  uint32_t n = 0;
  for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
    while (*tok == ' ' || *tok == '\t')
      ++tok;
    char *e = tok + strlen(tok);
    while (e > tok && (e[-1] == ' ' || e[-1] == '\t'))
      *--e = '\0';
    if (*tok && n < max)
      names[n++] = tok;
  }
  return n;
}

int __tpuprof_rt_set_events_locked(const char *list, int strict) {
  if (!list || !*list) {
    requested[0] = '\0';
    requested_set = 0;
    warned_for_request = 0;
    return 0;
  }
  if (strlen(list) >= sizeof(requested)) {
    fprintf(stderr, "tpuprof: event list is longer than %u bytes; ignored\n",
            (unsigned)sizeof(requested) - 1);
    return -1;
  }
  char copy[TPUPROF_RT_EVENT_LIST_MAX];
  strcpy(copy, list);
  char *names[TPUPROF_RT_MAX_EVENTS + 1];
  uint32_t n = split_list(copy, names, TPUPROF_RT_MAX_EVENTS + 1);
  if (n > TPUPROF_RT_MAX_EVENTS) {
    fprintf(stderr,
            "tpuprof: more than %u events in '%s'; one perf_event "
            "group holds at most %u\n",
            TPUPROF_RT_MAX_EVENTS, list, TPUPROF_RT_MAX_EVENTS);
    return -1;
  }
  if (strict) {
    // The API rejects the whole list: the caller asked for these exactly.
    for (uint32_t i = 0; i < n; ++i) {
      struct perf_event_attr attr;
      const char *why = NULL;
      if (strlen(names[i]) >= TPUPROF_RT_EVENT_NAME_MAX ||
          __tpuprof_rt_encode_event(names[i], &attr, &why) != 0) {
        fprintf(stderr,
                "tpuprof: unknown event '%s' (" ENCODER ": %s); events "
                "unchanged\n",
                names[i], why ? why : "name too long");
        return -1;
      }
    }
  }
  strcpy(requested, list);
  requested_set = 1;
  warned_for_request = 0;
  return 0;
}

/// Tries to open `ev` (already encoded) in a group led by *leader (or as the
/// leader when it is -1). Returns the fd or -errno.
static int try_open(rt_event *ev, int leader) {
  int fd = __tpuprof_rt_perf_open(&ev->attr, leader);
  return fd >= 0 ? fd : -errno;
}

/// Appends `s` to the `*len` bytes of `buf` (`n` bytes), truncating as
/// snprintf would. (Not snprintf itself: with unbounded %s arguments GCC
/// warns on 32-bit hosts that the output may pass INT_MAX.)
static void append(char *buf, size_t n, size_t *len, const char *s) {
  if (*len + 1 >= n)
    return;
  size_t k = strlen(s);
  if (k > n - 1 - *len)
    k = n - 1 - *len;
  memcpy(buf + *len, s, k);
  *len += k;
  buf[*len] = '\0';
}

/// Appends "name (cause)" to a warning buffer.
static void note(char *buf, size_t n, const char *name, const char *cause) {
  size_t len = strlen(buf);
  if (len)
    append(buf, n, &len, ", ");
  append(buf, n, &len, name);
  append(buf, n, &len, " (");
  append(buf, n, &len, cause);
  append(buf, n, &len, ")");
}

/// Encodes and test-opens `names` on this thread; the ones that open become
/// the window set. Fills `failed` with "name (cause)" entries.
static void select_events(char **names, uint32_t n, char *failed,
                          size_t failed_size) {
  int fds[TPUPROF_RT_MAX_EVENTS];
  int leader = -1;
  for (uint32_t i = 0; i < n; ++i) {
    rt_event *ev = &win_events[win_nev];
    const char *why = NULL;
    if (strlen(names[i]) >= sizeof(ev->name)) {
      note(failed, failed_size, names[i], "name too long");
      continue;
    }
    if (__tpuprof_rt_encode_event(names[i], &ev->attr, &why) != 0) {
      char cause[256];
      snprintf(cause, sizeof(cause), "unknown event; " ENCODER ": %s", why);
      note(failed, failed_size, names[i], cause);
      continue;
    }
    int fd = try_open(ev, leader);
    if (fd < 0) {
      char cause[256];
      __tpuprof_rt_explain_open_error(-fd, &ev->attr, cause, sizeof(cause));
      note(failed, failed_size, names[i], cause);
      continue;
    }
    strcpy(ev->name, names[i]);
    fds[win_nev++] = fd;
    if (leader < 0)
      leader = fd;
  }
  for (uint32_t i = win_nev; i-- > 0;)
    close(fds[i]);
}

/// Bumps the set generation when the window's set differs from the last
/// one, so threads keep their open groups across windows of the same set.
static void publish_set(const rt_event *old, uint32_t old_nev, int old_cpu) {
  int same = old_nev == win_nev && old_cpu == win_cpu;
  for (uint32_t i = 0; same && i < win_nev; ++i)
    same = strcmp(old[i].name, win_events[i].name) == 0 &&
           memcmp(&old[i].attr, &win_events[i].attr, sizeof(old[i].attr)) == 0;
  if (!same)
    ++__tpuprof_rt_ctr_setgen;
}

/// __tpuprof_rt_counters_start_window_locked's work.
static uint32_t start_window(uint32_t mode) {
  static rt_event old[TPUPROF_RT_MAX_EVENTS];
  uint32_t old_nev = win_nev;
  int old_cpu = win_cpu;
  memcpy(old, win_events, sizeof(old));
  win_nev = 0;
  uint32_t records = tpuprof_mode_records(mode);
  win_cpu = (records & TPUPROF_RECORDS_CPU) != 0;
  uint32_t words = win_cpu;
  if (!(records & TPUPROF_RECORDS_COUNTERS) || __tpuprof_rt_pfm_init() != 0) {
    publish_set(old, old_nev, old_cpu);
    return words;
  }
  char failed[1024] = "";
  char copy[TPUPROF_RT_EVENT_LIST_MAX];
  char *names[TPUPROF_RT_MAX_EVENTS];
  int say = !warned_for_request;
  if (requested_set) {
    strcpy(copy, requested);
    uint32_t n = split_list(copy, names, TPUPROF_RT_MAX_EVENTS);
    select_events(names, n, failed, sizeof(failed));
    if (failed[0] && say) {
      fprintf(stderr, "tpuprof: not counting %s; %s\n", failed,
              win_nev ? "the other events are counted"
                      : "no event opened, recording timing only");
    }
  } else {
    uint32_t n = sizeof(default_hw) / sizeof(default_hw[0]);
    for (uint32_t i = 0; i < n; ++i)
      names[i] = (char *)default_hw[i];
    select_events(names, n, failed, sizeof(failed));
    if (win_nev == 0) {
      // No hardware PMU (a VM, paranoid 3, seccomp): software events still
      // tell a lot (time on CPU, page faults, preemptions).
      char hw_failed[1024];
      strcpy(hw_failed, failed);
      failed[0] = '\0';
      n = sizeof(default_sw) / sizeof(default_sw[0]);
      for (uint32_t i = 0; i < n; ++i)
        names[i] = (char *)default_sw[i];
      select_events(names, n, failed, sizeof(failed));
      if (say) {
        // The first hardware event's cause stands for all of them.
        char *cut = strstr(hw_failed, "), ");
        if (cut)
          cut[1] = '\0';
        if (win_nev)
          fprintf(stderr,
                  "tpuprof: no hardware counters: %s; counting software "
                  "events perf::TASK-CLOCK, perf::PAGE-FAULTS, "
                  "perf::CONTEXT-SWITCHES instead (TPUPROF_EVENTS chooses)\n",
                  hw_failed);
        else
          fprintf(stderr,
                  "tpuprof: no counters can be opened: %s and %s; recording "
                  "timing only\n",
                  hw_failed, failed);
      }
    } else if (failed[0] && say) {
      fprintf(stderr,
              "tpuprof: not counting %s; the other events are "
              "counted\n",
              failed);
    }
  }
  warned_for_request = 1;
  publish_set(old, old_nev, old_cpu);
  return words + TPUPROF_RT_EVENT_WORDS(win_nev);
}

typedef struct start_args {
  uint32_t mode, words;
} start_args;

static void *start_window_thread(void *arg) {
  start_args *a = (start_args *)arg;
  a->words = start_window(a->mode);
  return NULL;
}

uint32_t __tpuprof_rt_counters_start_window_locked(uint32_t mode) {
  if (!(tpuprof_mode_records(mode) & TPUPROF_RECORDS_COUNTERS))
    return start_window(mode); // No libpfm4, no message.
  // The events are test-opened for any thread of the process, so a helper
  // thread may choose them.
  start_args a = {mode, 0};
  on_big_stack(start_window_thread, &a);
  return a.words;
}

uint32_t __tpuprof_rt_counters_window_nev(void) { return win_nev; }

uint32_t __tpuprof_rt_counters_names_bytes(void) {
  uint32_t bytes = 0;
  for (uint32_t i = 0; i < win_nev; ++i)
    bytes += (uint32_t)strlen(win_events[i].name) + 1;
  if (win_nev)
    bytes += sizeof(TPUPROF_EVENT_TIME_ENABLED) +
             sizeof(TPUPROF_EVENT_TIME_RUNNING) +
             sizeof(TPUPROF_EVENT_READ_TICKS);
  if (win_cpu)
    bytes += sizeof(TPUPROF_EVENT_CPU);
  return bytes;
}

uint32_t __tpuprof_rt_counters_write_names(uint8_t *p) {
  uint32_t count = 0;
#define PUT(s)                                                                 \
  do {                                                                         \
    size_t l_ = strlen(s) + 1;                                                 \
    memcpy(p, (s), l_);                                                        \
    p += l_;                                                                   \
    ++count;                                                                   \
  } while (0)
  for (uint32_t i = 0; i < win_nev; ++i)
    PUT(win_events[i].name);
  if (win_nev) {
    PUT(TPUPROF_EVENT_TIME_ENABLED);
    PUT(TPUPROF_EVENT_TIME_RUNNING);
    PUT(TPUPROF_EVENT_READ_TICKS);
  }
  if (win_cpu)
    PUT(TPUPROF_EVENT_CPU);
#undef PUT
  return count;
}

uint32_t
__tpuprof_rt_counters_window_events(char names[][TPUPROF_RT_EVENT_NAME_MAX],
                                    uint32_t max) {
  uint32_t n = win_nev < max ? win_nev : max;
  for (uint32_t i = 0; i < n; ++i)
    strcpy(names[i], win_events[i].name);
  return n;
}

/*===-- Per-thread groups (thread-list lock held) ------------------------===*/

/// The kernel's id of the perf event open as `fd`; 0 when `fd` is not a
/// perf event (closed, or a file of the program's). A perf event is an
/// anonymous inode (no file type): the fstat first keeps the ioctl off the
/// program's files, devices above all.
static uint64_t event_id(int fd) {
  struct stat st;
  uint64_t id = 0;
  if (fstat(fd, &st) != 0 || (st.st_mode & S_IFMT) != 0 ||
      ioctl(fd, PERF_EVENT_IOC_ID, &id) != 0)
    return 0;
  return id;
}

/// Whether group descriptor `i` is still the runtime's (where the kernel
/// gave no id, it is taken to be).
static int still_ours(const tpuprof_rt_group *g, uint32_t i) {
  return !g->id[i] || event_id(g->fd[i]) == g->id[i];
}

/// Unmaps the group's pages and forgets its descriptors, closing those
/// still the runtime's when `close_fds`.
static void forget_group(tpuprof_rt_group *g, int close_fds) {
  for (uint32_t i = 0; i < g->nfd; ++i) {
    if (g->page[i])
      munmap(g->page[i], (size_t)sysconf(_SC_PAGESIZE));
    if (close_fds && still_ours(g, i))
      close(g->fd[i]);
    g->page[i] = NULL;
  }
  g->nfd = 0;
  g->rdpmc = 0;
  g->setgen = 0;
}

void __tpuprof_rt_group_close(tpuprof_rt_group *g) { forget_group(g, 1); }

void __tpuprof_rt_group_check(tpuprof_rt_group *g) {
  uint32_t i = 0;
  while (i < g->nfd && still_ours(g, i))
    ++i;
  if (i == g->nfd)
    return;
  static int said;
  if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
    fprintf(stderr, "tpuprof: the program closed the runtime's counter "
                    "descriptors; opening them again\n");
  forget_group(g, 0);
  // The same window, the same set: only the descriptors are new.
  (void)__tpuprof_rt_group_sync(g);
}

/// Maps each fd's user page and keeps rdpmc on when every event is one the
/// CPU counts (software events have no counter index) and the kernel says
/// user-space reads are allowed (cap_user_rdpmc).
static void setup_rdpmc(tpuprof_rt_group *g) {
#if TPUPROF_RT_HAVE_RDPMC
  long page = sysconf(_SC_PAGESIZE);
  int ok = g->nfd > 0;
  for (uint32_t i = 0; i < g->nfd && ok; ++i) {
    if (win_events[i].attr.type == PERF_TYPE_SOFTWARE ||
        win_events[i].attr.type == PERF_TYPE_TRACEPOINT) {
      ok = 0;
      break;
    }
    void *m = mmap(NULL, (size_t)page, PROT_READ, MAP_SHARED, g->fd[i], 0);
    if (m == MAP_FAILED) {
      ok = 0;
      break;
    }
    g->page[i] = m;
    if (!((struct perf_event_mmap_page *)m)->cap_user_rdpmc)
      ok = 0;
  }
  g->rdpmc = ok;
  if (!ok)
    for (uint32_t i = 0; i < g->nfd; ++i)
      if (g->page[i]) {
        munmap(g->page[i], (size_t)page);
        g->page[i] = NULL;
      }
#else
  (void)g;
#endif
}

uint32_t __tpuprof_rt_group_sync(tpuprof_rt_group *g) {
  uint32_t words = TPUPROF_RT_EVENT_WORDS(win_nev) + (uint32_t)win_cpu;
  if (g->setgen == __tpuprof_rt_ctr_setgen)
    return words;
  __tpuprof_rt_group_close(g);
  g->setgen = __tpuprof_rt_ctr_setgen;
  g->nev = win_nev;
  g->cpu = win_cpu;
  int leader = -1;
  for (uint32_t i = 0; i < win_nev; ++i) {
    int fd = try_open(&win_events[i], leader);
    if (fd < 0) {
      // Opened on the enabling thread but not here (fd limit, a seccomp
      // filter on this thread): this thread records zero words.
      static int warned;
      if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED)) {
        char cause[256];
        __tpuprof_rt_explain_open_error(-fd, &win_events[i].attr, cause,
                                        sizeof(cause));
        fprintf(stderr,
                "tpuprof: thread %ld cannot open its counter group "
                "(%s: %s); its records carry zero counters\n",
                (long)syscall(SYS_gettid), win_events[i].name, cause);
      }
      __tpuprof_rt_group_close(g);
      g->setgen = __tpuprof_rt_ctr_setgen;
      g->nev = win_nev;
      g->cpu = win_cpu;
      return words;
    }
    fd = __tpuprof_rt_fd_high(fd);
    g->id[g->nfd] = event_id(fd);
    g->fd[g->nfd++] = fd;
    if (leader < 0)
      leader = fd;
  }
  setup_rdpmc(g);
  return words;
}

/*===-- Reading (hot path) -----------------------------------------------===*/

#if TPUPROF_RT_HAVE_RDPMC
/// Reads the group with rdpmc. Returns -1 (caller falls back to read())
/// when an event is not on the PMU right now (index 0).
static int read_rdpmc(const tpuprof_rt_group *g, uint64_t *out) {
  uint64_t enabled = 0, running = 0;
  for (uint32_t i = 0; i < g->nfd; ++i) {
    volatile struct perf_event_mmap_page *pc = g->page[i];
    uint32_t seq;
    uint64_t count;
    do {
      seq = pc->lock;
      __asm__ volatile("" ::: "memory");
      uint32_t idx = pc->index;
      if (!pc->cap_user_rdpmc || idx == 0)
        return -1;
      count = (uint64_t)pc->offset;
      uint16_t width = pc->pmc_width;
      int64_t pmc = (int64_t)__rdpmc((int)(idx - 1));
      pmc <<= 64 - width; // Sign-extend the counter's width.
      pmc >>= 64 - width;
      count += (uint64_t)pmc;
      if (i == 0) {
        enabled = pc->time_enabled;
        running = pc->time_running;
        if (pc->cap_user_time) {
          // The formula of linux/perf_event.h: time since the page update.
          uint64_t cyc = __rdtsc();
          uint16_t shift = pc->time_shift;
          uint32_t mult = pc->time_mult;
          uint64_t quot = cyc >> shift,
                   rem = cyc & (((uint64_t)1 << shift) - 1);
          uint64_t delta =
              pc->time_offset + quot * mult + ((rem * mult) >> shift);
          enabled += delta;
          running += delta;
        }
      }
      __asm__ volatile("" ::: "memory");
    } while (pc->lock != seq);
    out[i] = count;
  }
  out[g->nfd] = enabled;
  out[g->nfd + 1] = running;
  return 0;
}
#endif

/// Reads the group once: n event values, then time_enabled, time_running.
/// All zeros when this thread has no group.
static inline void read_group(const tpuprof_rt_group *g, uint64_t *out) {
  if (g->nfd == 0) {
    for (uint32_t i = 0; i < g->nev + 2; ++i)
      out[i] = 0;
    return;
  }
#if TPUPROF_RT_HAVE_RDPMC
  if (g->rdpmc && read_rdpmc(g, out) == 0)
    return;
#endif
  uint64_t buf[3 + TPUPROF_RT_MAX_EVENTS];
  ssize_t want = (ssize_t)(8u * (3u + g->nfd));
  if (read(g->fd[0], buf, (size_t)want) != want || buf[0] != g->nfd) {
    for (uint32_t i = 0; i < g->nev + 2; ++i)
      out[i] = 0;
    return;
  }
  for (uint32_t i = 0; i < g->nfd; ++i)
    out[i] = buf[3 + i];
  out[g->nfd] = buf[1];
  out[g->nfd + 1] = buf[2];
}

static inline uint32_t current_cpu(void) {
  int c = sched_getcpu();
  return c < 0 ? UINT32_MAX : (uint32_t)c;
}

void __tpuprof_rt_counters_begin(const tpuprof_rt_group *g, uint64_t *words) {
  // CPU first: the counters are read as close to the op as possible.
  if (g->cpu)
    words[TPUPROF_RT_EVENT_WORDS(g->nev)] = TPUPROF_RT_LE64(current_cpu());
  if (g->nev) {
    read_group(g, words);
    if (TPUPROF_RT_BIG_ENDIAN)
      for (uint32_t i = 0; i < g->nev + 2; ++i)
        words[i] = TPUPROF_RT_LE64(words[i]);
  }
}

void __tpuprof_rt_counters_end(const tpuprof_rt_group *g, uint64_t *words) {
  uint64_t now[TPUPROF_RT_MAX_EVENTS + 2];
  uint32_t n = g->nev ? g->nev + 2 : 0; // READ_TICKS is the caller's.
  if (n)
    read_group(g, now);
  // `words` is published: the flusher may copy it at any time, so stores
  // are atomic. It only trusts them once it sees `end` != 0, which the
  // caller stores after this (release).
  for (uint32_t i = 0; i < n; ++i)
    __atomic_store_n(&words[i],
                     TPUPROF_RT_LE64(now[i] - TPUPROF_RT_LE64(words[i])),
                     __ATOMIC_RELAXED);
  if (g->cpu) {
    uint32_t c = TPUPROF_RT_EVENT_WORDS(g->nev);
    uint64_t b = TPUPROF_RT_LE64(words[c]) & 0xffffffffu;
    __atomic_store_n(&words[c],
                     TPUPROF_RT_LE64(b | ((uint64_t)current_cpu() << 32)),
                     __ATOMIC_RELAXED);
  }
}
