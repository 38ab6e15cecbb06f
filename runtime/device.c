/*===- runtime/device.c - Device intervals ------------------------*- C -*-===*\
|*                                                                            *|
|* What a device ran, for every backend (docs/device.md): the launch record  *|
|* each command belongs to, the queues and kernel names, the clock pairs     *|
|* that convert a device clock to ticks, and the DEVICE section a window's   *|
|* dump gets at its close. Backends (device_opencl.c) find finished commands *|
|* and hand them here; nothing here knows an API.                            *|
|*                                                                            *|
|* One mutex guards this file's state. It is a leaf: nothing else is locked  *|
|* while it is held, and it is never taken by a probe's begin or end.        *|
\*===----------------------------------------------------------------------===*/

#include "rt_thread.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int __tpuprof_rt_device_timing = 1;

static pthread_mutex_t device_mutex = PTHREAD_MUTEX_INITIALIZER;

#define MAX_BACKENDS 4u
static const tpuprof_rt_device_backend *backends[MAX_BACKENDS];
static uint32_t num_backends;

/*===-- Launch references ------------------------------------------------===*/

int __tpuprof_rt_device_launch_ref(tpuprof_rt_launch_ref *out) {
  if (!__atomic_load_n(&__tpuprof_enabled, __ATOMIC_ACQUIRE))
    return 0;
  uint32_t gen = __atomic_load_n(&__tpuprof_rt_gen, __ATOMIC_ACQUIRE);
  out->gen = gen;
  out->thread = UINT32_MAX;
  out->probe = UINT32_MAX;
  out->begin = 0;
  rt_thread *t = __tpuprof_rt_tls_thread;
  if (!t || t->gen != gen)
    return 1;
  uint32_t d = t->depth;
  if (d == 0 || d > TPUPROF_RT_STACK_DEPTH)
    return 1;
  const rt_stack_entry *e = &t->stack[d - 1];
  // A parked record's `rec` is its copy, whose begin is the record's.
  if ((e->gen & ~TPUPROF_RT_GEN_PARKED) != gen || !e->rec)
    return 1;
  out->thread = t->thread_no;
  out->probe = e->probe;
  out->begin = TPUPROF_RT_LE64(e->rec->begin);
  return 1;
}

/*===-- Backends, queues and names ---------------------------------------===*/

void __tpuprof_rt_device_register(const tpuprof_rt_device_backend *b) {
  pthread_mutex_lock(&device_mutex);
  uint32_t i = 0;
  while (i < num_backends && backends[i] != b)
    ++i;
  if (i == num_backends && num_backends < MAX_BACKENDS)
    backends[num_backends++] = b;
  pthread_mutex_unlock(&device_mutex);
}

typedef struct device_queue {
  uint32_t api;
  uint32_t domain;
  const void *handle;
  uint32_t device_name; ///< Name index.
} device_queue;

static device_queue *queues;
static uint32_t num_queues, queues_capacity;

/// Interned names: `names` holds them NUL-terminated, `name_at` where each
/// starts; `name_slots` is an open-addressing index (index + 1, 0 empty).
static char *names;
static uint64_t names_size, names_capacity;
static uint64_t *name_at;
static uint32_t num_names, name_at_capacity;
static uint32_t *name_slots;
static uint32_t name_slots_size; ///< A power of two, or 0.

static uint64_t fnv1a(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; ++s)
    h = (h ^ (uint8_t)*s) * 1099511628211ull;
  return h;
}

static int grow(void **p, uint32_t *capacity, uint32_t need, size_t elem) {
  if (need <= *capacity)
    return 0;
  uint32_t cap = *capacity ? *capacity * 2u : 16u;
  while (cap < need)
    cap *= 2u;
  void *q = realloc(*p, (size_t)cap * elem);
  if (!q)
    return -1;
  *p = q;
  *capacity = cap;
  return 0;
}

/// Re-indexes every name into `size` slots. Mutex held.
static int rehash_names(uint32_t size) {
  uint32_t *slots = (uint32_t *)calloc(size, sizeof(uint32_t));
  if (!slots)
    return -1;
  for (uint32_t i = 0; i < num_names; ++i) {
    uint32_t s = (uint32_t)fnv1a(names + name_at[i]) & (size - 1u);
    while (slots[s])
      s = (s + 1u) & (size - 1u);
    slots[s] = i + 1u;
  }
  free(name_slots);
  name_slots = slots;
  name_slots_size = size;
  return 0;
}

/// Mutex held.
static uint32_t intern_locked(const char *name) {
  if (!name)
    name = "";
  if (name_slots_size == 0 && rehash_names(64) != 0)
    return UINT32_MAX;
  uint64_t h = fnv1a(name);
  uint32_t s = (uint32_t)h & (name_slots_size - 1u);
  for (; name_slots[s]; s = (s + 1u) & (name_slots_size - 1u))
    if (strcmp(names + name_at[name_slots[s] - 1u], name) == 0)
      return name_slots[s] - 1u;
  size_t len = strlen(name) + 1u;
  if (names_size + len > names_capacity) {
    uint64_t cap = names_capacity ? names_capacity * 2u : 1024u;
    while (cap < names_size + len)
      cap *= 2u;
    char *n = (char *)realloc(names, cap);
    if (!n)
      return UINT32_MAX;
    names = n;
    names_capacity = cap;
  }
  if (grow((void **)&name_at, &name_at_capacity, num_names + 1u,
           sizeof(uint64_t)) != 0)
    return UINT32_MAX;
  memcpy(names + names_size, name, len);
  name_at[num_names] = names_size;
  names_size += len;
  name_slots[s] = num_names + 1u;
  uint32_t id = num_names++;
  // Keep the index at most half full.
  if (2u * num_names > name_slots_size)
    (void)rehash_names(2u * name_slots_size);
  return id;
}

uint32_t __tpuprof_rt_device_name(const char *name) {
  pthread_mutex_lock(&device_mutex);
  uint32_t id = intern_locked(name);
  pthread_mutex_unlock(&device_mutex);
  return id;
}

static uint32_t find_queue_locked(uint32_t api, const void *handle) {
  for (uint32_t i = num_queues; i-- > 0;)
    if (queues[i].handle == handle && queues[i].api == api)
      return i;
  return UINT32_MAX;
}

uint32_t __tpuprof_rt_device_find_queue(uint32_t api, const void *handle) {
  pthread_mutex_lock(&device_mutex);
  uint32_t q = find_queue_locked(api, handle);
  pthread_mutex_unlock(&device_mutex);
  return q;
}

uint32_t __tpuprof_rt_device_queue(uint32_t api, const void *handle,
                                   uint32_t domain, const char *device_name) {
  pthread_mutex_lock(&device_mutex);
  uint32_t q = find_queue_locked(api, handle);
  if (q == UINT32_MAX) {
    uint32_t name = intern_locked(device_name);
    if (name != UINT32_MAX &&
        grow((void **)&queues, &queues_capacity, num_queues + 1u,
             sizeof(device_queue)) == 0) {
      q = num_queues++;
      queues[q].api = api;
      queues[q].domain = domain;
      queues[q].handle = handle;
      queues[q].device_name = name;
    }
  }
  pthread_mutex_unlock(&device_mutex);
  return q;
}

/*===-- Intervals of the open window -------------------------------------===*/

static tpuprof_rt_device_interval *intervals;
static uint32_t num_intervals, intervals_capacity;
/// The last window generation whose DEVICE section was made: later
/// intervals of it (or of earlier windows) have no dump to go to. Commands
/// that got no interval are counted in the next DEVICE section written.
static uint32_t closed_gen;
static uint64_t dropped;

void __tpuprof_rt_device_add(const tpuprof_rt_device_interval *iv) {
  pthread_mutex_lock(&device_mutex);
  if (iv->ref.gen <= closed_gen || iv->start > iv->end ||
      grow((void **)&intervals, &intervals_capacity, num_intervals + 1u,
           sizeof(*intervals)) != 0)
    ++dropped;
  else
    intervals[num_intervals++] = *iv;
  pthread_mutex_unlock(&device_mutex);
}

void __tpuprof_rt_device_drop(uint64_t n) {
  pthread_mutex_lock(&device_mutex);
  dropped += n;
  pthread_mutex_unlock(&device_mutex);
}

/*===-- Clocks -----------------------------------------------------------===*/

/// A pair of one host clock domain and ticks: the domain read between two
/// tick reads; `width` is how far apart those were (ticks).
typedef struct clock_pair {
  uint64_t device, ticks, width;
} clock_pair;

/// The reader of TPUPROF_DEVICE_CLOCK_DEVICE a backend registered (ns),
/// or NULL: only then do sections carry that domain's clock.
static uint64_t (*device_clock)(void);

static clockid_t clock_id(uint32_t domain) {
  return domain == TPUPROF_DEVICE_CLOCK_MONOTONIC ? CLOCK_MONOTONIC
                                                  : CLOCK_MONOTONIC_RAW;
}

/// The tightest of a few reads (a preemption between two reads widens one).
static clock_pair read_pair(uint32_t domain) {
  clock_pair best = {0, 0, UINT64_MAX};
  for (int i = 0; i < 5; ++i) {
    struct timespec ts = {0, 0};
    uint64_t dev = 0;
    uint64_t a = __tpuprof_rt_now();
    if (domain == TPUPROF_DEVICE_CLOCK_DEVICE)
      dev = __atomic_load_n(&device_clock, __ATOMIC_ACQUIRE)();
    else
      clock_gettime(clock_id(domain), &ts);
    uint64_t b = __tpuprof_rt_now();
    if (b - a < best.width) {
      best.device =
          domain == TPUPROF_DEVICE_CLOCK_DEVICE
              ? dev
              : (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
      best.ticks = a + (b - a) / 2u;
      best.width = b - a;
    }
  }
  return best;
}

/// Pairs taken when the open window opened, per domain: the host-readable
/// ones, then the device clock once registered.
#define HOST_DOMAINS 2u
#define ALL_DOMAINS 3u
static clock_pair open_pairs[ALL_DOMAINS];

/// The domains a window's pairs are read in (device_clock set: all three).
static uint32_t num_domains(void) {
  return __atomic_load_n(&device_clock, __ATOMIC_ACQUIRE) ? ALL_DOMAINS
                                                          : HOST_DOMAINS;
}

void *__tpuprof_rt_device_dlopen(const char *name) {
  void *lib = dlopen(name, RTLD_NOW | RTLD_NOLOAD);
  return lib ? lib : dlopen(name, RTLD_NOW | RTLD_LOCAL);
}

int __tpuprof_rt_device_resolve(void *lib, const tpuprof_rt_symbol *symbols,
                                size_t count, void *table) {
  int all = lib != NULL;
  for (size_t i = 0; i < count; ++i) {
    void *fn = lib ? dlsym(lib, symbols[i].name) : NULL;
    // POSIX: a function pointer and a void * have one representation.
    memcpy((char *)table + symbols[i].offset, &fn, sizeof(fn));
    all &= fn != NULL;
  }
  return all;
}

void __tpuprof_rt_device_window_open(void) {
  if (!__tpuprof_rt_device_timing)
    return;
  clock_pair p[ALL_DOMAINS];
  uint32_t n = num_domains();
  for (uint32_t d = 0; d < n; ++d)
    p[d] = read_pair(d);
  pthread_mutex_lock(&device_mutex);
  memcpy(open_pairs, p, n * sizeof(p[0]));
  pthread_mutex_unlock(&device_mutex);
}

void __tpuprof_rt_device_clock(uint64_t (*read_ns)(void)) {
  __atomic_store_n(&device_clock, read_ns, __ATOMIC_RELEASE);
  // The open window's first pair of this clock is taken now.
  clock_pair p = read_pair(TPUPROF_DEVICE_CLOCK_DEVICE);
  pthread_mutex_lock(&device_mutex);
  open_pairs[TPUPROF_DEVICE_CLOCK_DEVICE] = p;
  pthread_mutex_unlock(&device_mutex);
}

/// ns of a tick interval, with the host's own calibration so far.
static double ns_per_tick(void) {
  uint64_t t1, n1;
  __tpuprof_rt_calibration_pair(&t1, &n1);
  uint64_t dt = t1 - __tpuprof_rt_calib_ticks0;
  uint64_t dn = n1 - __tpuprof_rt_calib_ns0;
  return dt && dn ? (double)dn / (double)dt : 1.0;
}

/// The clock of one domain over the window, with its error bound.
static tpuprof_device_clock make_clock(uint32_t domain, clock_pair a,
                                       clock_pair b, double nspt) {
  tpuprof_device_clock c;
  memset(&c, 0, sizeof(c));
  c.domain = domain;
  c.device0 = a.device;
  c.ticks0 = a.ticks;
  c.device1 = b.device;
  c.ticks1 = b.ticks;
  // Each pair's read is uncertain by half its width; between the pairs the
  // conversion is linear, so a rate that changed inside the window is off by
  // at most how far the clocks drifted apart over it.
  double width = (double)(a.width > b.width ? a.width : b.width) * nspt;
  double host = (double)(b.ticks - a.ticks) * nspt;
  double dev = (double)(b.device - a.device);
  double drift = host > dev ? host - dev : dev - host;
  c.error_ns = (uint64_t)(width / 2.0 + drift + 0.5);
  return c;
}

static uint64_t to_ticks(const tpuprof_device_clock *c, uint64_t device) {
  double dev = (double)(int64_t)(device - c->device0);
  double rate = c->device1 != c->device0 ? (double)(c->ticks1 - c->ticks0) /
                                               (double)(c->device1 - c->device0)
                                         : 1.0;
  double t = (double)c->ticks0 + dev * rate;
  return t <= 0 ? 0 : (uint64_t)(t + 0.5);
}

/*===-- The DEVICE section -----------------------------------------------===*/

static int by_start(const void *a, const void *b) {
  const tpuprof_device_record *x = a, *y = b;
  return x->start < y->start ? -1 : x->start > y->start;
}

/// Builds the DEVICE payload of the first `count` intervals. Mutex held.
static void *build_section_locked(const clock_pair *open, const clock_pair *cl,
                                  uint32_t ndomains, uint32_t count,
                                  uint64_t *size) {
  double nspt = ns_per_tick();
  tpuprof_device_clock clocks[ALL_DOMAINS];
  for (uint32_t d = 0; d < ndomains; ++d)
    clocks[d] = make_clock(d, open[d], cl[d], nspt);
  // Only the names the records use, renumbered.
  uint32_t *renum = (uint32_t *)malloc(((size_t)num_names + 1u) * 4u);
  if (!renum)
    return NULL;
  for (uint32_t i = 0; i <= num_names; ++i)
    renum[i] = UINT32_MAX;
  uint64_t used_names = 0;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t n = intervals[i].name < num_names ? intervals[i].name : num_names;
    if (renum[n] == UINT32_MAX && n < num_names) {
      renum[n] = (uint32_t)used_names;
      used_names += strlen(names + name_at[n]) + 1u;
    }
  }
  for (uint32_t q = 0; q < num_queues; ++q) {
    uint32_t n = queues[q].device_name;
    if (renum[n] == UINT32_MAX) {
      renum[n] = (uint32_t)used_names;
      used_names += strlen(names + name_at[n]) + 1u;
    }
  }
  uint64_t empty = used_names++; // "" for an unknown name.
  uint64_t bytes = sizeof(tpuprof_device_section) +
                   ndomains * sizeof(tpuprof_device_clock) +
                   (uint64_t)num_queues * sizeof(tpuprof_device_queue) +
                   (uint64_t)count * sizeof(tpuprof_device_record) + used_names;
  uint8_t *buf = (uint8_t *)calloc(1, bytes);
  if (!buf) {
    free(renum);
    return NULL;
  }
  tpuprof_device_section *h = (tpuprof_device_section *)buf;
  h->num_clocks = ndomains;
  h->num_queues = num_queues;
  h->num_records = count;
  h->names_size = used_names;
  h->dropped = dropped;
  uint8_t *p = buf + sizeof(*h);
  memcpy(p, clocks, ndomains * sizeof(clocks[0]));
  p += ndomains * sizeof(clocks[0]);
  for (uint32_t q = 0; q < num_queues; ++q, p += sizeof(tpuprof_device_queue)) {
    tpuprof_device_queue dq;
    dq.api = queues[q].api;
    dq.clock = queues[q].domain < ndomains ? queues[q].domain : 0;
    dq.device_name = renum[queues[q].device_name];
    dq.number = q;
    memcpy(p, &dq, sizeof(dq));
  }
  tpuprof_device_record *recs = (tpuprof_device_record *)p;
  for (uint32_t i = 0; i < count; ++i) {
    const tpuprof_rt_device_interval *iv = &intervals[i];
    const tpuprof_device_clock *c =
        &clocks[queues[iv->queue].domain < ndomains ? queues[iv->queue].domain
                                                    : 0];
    tpuprof_device_record r;
    r.kind = TPUPROF_RECORD_DEVICE;
    r.num_words = 6;
    r.num_counters = 0;
    r.op = (uint16_t)iv->op;
    r.start = to_ticks(c, iv->start);
    r.end = to_ticks(c, iv->end);
    if (r.end < r.start)
      r.end = r.start;
    r.queued = to_ticks(c, iv->queued);
    r.submitted = to_ticks(c, iv->submitted);
    r.queue = iv->queue;
    r.name = iv->name < num_names ? renum[iv->name] : (uint32_t)empty;
    r.launch_thread = iv->ref.thread;
    r.launch_probe = iv->ref.probe;
    r.launch_begin = iv->ref.begin;
    r.bytes = iv->bytes;
    memcpy(&recs[i], &r, sizeof(r));
  }
  qsort(recs, count, sizeof(*recs), by_start);
  p += (uint64_t)count * sizeof(tpuprof_device_record);
  for (uint32_t n = 0; n < num_names; ++n)
    if (renum[n] != UINT32_MAX)
      memcpy(p + renum[n], names + name_at[n], strlen(names + name_at[n]) + 1u);
  free(renum);
  // Sorted in host order; the file's order last.
  uint8_t *f = buf;
  __tpuprof_rt_le_layout(f, TPUPROF_RT_LAYOUT_DEVICE_SECTION, 1);
  f += sizeof(tpuprof_device_section);
  __tpuprof_rt_le_layout(f, TPUPROF_RT_LAYOUT_DEVICE_CLOCK, HOST_DOMAINS);
  f += sizeof(clocks);
  __tpuprof_rt_le_layout(f, TPUPROF_RT_LAYOUT_DEVICE_QUEUE, num_queues);
  f += (uint64_t)num_queues * sizeof(tpuprof_device_queue);
  __tpuprof_rt_le_layout(f, TPUPROF_RT_LAYOUT_DEVICE_RECORD, count);
  *size = bytes;
  return buf;
}

/// How long a close waits for commands its window enqueued to finish: a
/// program that profiles a window usually waits for its queues itself.
#define CLOSE_WAIT_NS 2000000000ull

void __tpuprof_rt_device_window_close(tpuprof_rt_dump *d, uint32_t gen) {
  if (!__tpuprof_rt_device_timing)
    return;
  pthread_mutex_lock(&device_mutex);
  uint32_t n = num_backends;
  const tpuprof_rt_device_backend *b[MAX_BACKENDS];
  memcpy(b, backends, sizeof(b));
  pthread_mutex_unlock(&device_mutex);
  // Outside the mutex: a backend's collect adds intervals.
  for (uint32_t i = 0; i < n; ++i)
    b[i]->collect(CLOSE_WAIT_NS);
  clock_pair cl[ALL_DOMAINS];
  uint32_t ndomains = num_domains();
  for (uint32_t k = 0; k < ndomains; ++k)
    cl[k] = read_pair(k);
  pthread_mutex_lock(&device_mutex);
  // This window's intervals first; a next window's (a flush opens it at
  // once) stay for its own close.
  uint32_t mine = 0;
  for (uint32_t i = 0; i < num_intervals; ++i)
    if (intervals[i].ref.gen == gen) {
      tpuprof_rt_device_interval t = intervals[mine];
      intervals[mine++] = intervals[i];
      intervals[i] = t;
    }
  void *payload = NULL;
  uint64_t size = 0;
  if ((mine || dropped) && d && d->state == TPUPROF_RT_DUMP_OPEN) {
    payload = build_section_locked(open_pairs, cl, ndomains, mine, &size);
    if (payload)
      dropped = 0;
  }
  // No intervals yet is a NULL array: no pointer arithmetic on it.
  if (mine)
    memmove(intervals, intervals + mine,
            (size_t)(num_intervals - mine) * sizeof(*intervals));
  num_intervals -= mine;
  closed_gen = gen;
  // A window a flush opens now starts where this one ended.
  memcpy(open_pairs, cl, ndomains * sizeof(cl[0]));
  pthread_mutex_unlock(&device_mutex);
  if (payload) {
    free(d->device_payload);
    d->device_payload = payload;
    d->device_payload_size = size;
  }
}
