/*===- runtime/device_cupti.c - CUDA device intervals (CUPTI) -----*- C -*-===*\
|*                                                                            *|
|* The CUDA backend (docs/device.md). The LLVM pass redirects the program's   *|
|* cudaLaunchKernel, cudaMemcpy(Async) and cudaMemset(Async) calls here       *|
|* (format.h, TPUPROF_DEVICE_WRAPPED). Inside a window each call gets an id,  *|
|* pushed as CUPTI's external correlation id around the real call, that       *|
|* names the launch record it belongs to. CUPTI's activity API hands back     *|
|* kernel, memcpy and memset records in buffers (on its own thread, or at a   *|
|* flush); each is joined to its launch through the external-correlation      *|
|* record CUPTI wrote for the same API call, and handed to device.c in        *|
|* CUPTI's clock, which device.c converts by the pairs it reads through       *|
|* cuptiGetTimestamp (TPUPROF_DEVICE_CLOCK_DEVICE).                           *|
|*                                                                            *|
|* libcupti is loaded with dlopen on the first wrapped call inside a window:  *|
|* the runtime links no CUDA, and a program that never calls CUDA never       *|
|* loads it. Its types are spelled in cupti_abi.h (checked against CUPTI's    *|
|* headers where they are installed). Without libcupti: one line, and the     *|
|* launches keep their host probes.                                           *|
|*                                                                            *|
|* HIP: hipLaunchKernel is redirected too, only to say once that HIP gets no  *|
|* device time here (there is no roctracer backend).                          *|
|*                                                                            *|
|* The backend's mutex is a leaf but for device.c's, which it may take        *|
|* inside. It is never held while calling CUPTI: a flush calls back into the  *|
|* buffer-completed callback on the same thread.                              *|
\*===----------------------------------------------------------------------===*/

#include "cupti_abi.h"
#include "rt_internal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static tpuprof_cupti_api cupti;
/// A table a test put in place of libcupti (__tpuprof_rt_cupti_use).
static const tpuprof_cupti_api *injected;

/// 1 loaded, -1 unusable (said once), 0 not tried. Set under the mutex.
static int cupti_state;

static pthread_mutex_t cupti_mutex = PTHREAD_MUTEX_INITIALIZER;

static tpuprof_rt_cupti_stats stats;

/*===-- Launches of the open window --------------------------------------===*/

/// One wrapped call inside a window: its external id is `first_id` plus its
/// index in `launches`.
typedef struct cuda_launch {
  tpuprof_rt_launch_ref ref;
  uint64_t called; ///< CUPTI clock when the program made the call.
  uint8_t pending; ///< Its record has not come yet.
} cuda_launch;

static cuda_launch *launches;
static uint32_t num_launches, launches_capacity;
/// The first id of the open window's table; ids below it belong to closed
/// windows. Never 0 (CUPTI's "no id").
static uint64_t first_id = 1;
static uint64_t num_pending;

/// The window of the latest launch and the CUPTI clock at its first one:
/// records from code the pass did not see (no launch to join) are kept
/// when they started after that.
static uint32_t window_gen;
static uint64_t window_first_called;

/// CUPTI correlation id -> external id, open addressing (corr 0: empty).
typedef struct corr_slot {
  uint32_t corr;
  uint64_t external;
} corr_slot;
static corr_slot *corr_slots;
static uint32_t corr_size, corr_count; ///< corr_size: a power of two or 0.

static uint32_t corr_hash(uint32_t corr, uint32_t size) {
  return (corr * 2654435761u) & (size - 1u);
}

/// Mutex held.
static int corr_put_locked(uint32_t corr, uint64_t external) {
  if (corr == 0)
    return -1;
  if (2u * (corr_count + 1u) > corr_size) {
    uint32_t size = corr_size ? 2u * corr_size : 1024u;
    corr_slot *slots = (corr_slot *)calloc(size, sizeof(corr_slot));
    if (!slots)
      return -1;
    for (uint32_t i = 0; i < corr_size; ++i)
      if (corr_slots[i].corr) {
        uint32_t s = corr_hash(corr_slots[i].corr, size);
        while (slots[s].corr)
          s = (s + 1u) & (size - 1u);
        slots[s] = corr_slots[i];
      }
    free(corr_slots);
    corr_slots = slots;
    corr_size = size;
  }
  uint32_t s = corr_hash(corr, corr_size);
  while (corr_slots[s].corr && corr_slots[s].corr != corr)
    s = (s + 1u) & (corr_size - 1u);
  if (!corr_slots[s].corr)
    ++corr_count;
  corr_slots[s].corr = corr;
  corr_slots[s].external = external;
  return 0;
}

/// The external id of CUPTI correlation `corr`, 0 when not known yet.
static uint64_t corr_get_locked(uint32_t corr) {
  if (!corr_size || corr == 0)
    return 0;
  for (uint32_t s = corr_hash(corr, corr_size); corr_slots[s].corr;
       s = (s + 1u) & (corr_size - 1u))
    if (corr_slots[s].corr == corr)
      return corr_slots[s].external;
  return 0;
}

/*===-- Queues (streams) -------------------------------------------------===*/

typedef struct cuda_stream {
  uint32_t device, context, stream;
  uint32_t index; ///< device.c's queue index.
} cuda_stream;
static cuda_stream *streams;
static uint32_t num_streams, streams_capacity;

/// device.c's index of a stream, registered on first use. Mutex held.
static uint32_t stream_locked(uint32_t device, uint32_t context,
                              uint32_t stream) {
  for (uint32_t i = num_streams; i-- > 0;)
    if (streams[i].stream == stream && streams[i].context == context &&
        streams[i].device == device)
      return streams[i].index;
  if (num_streams == streams_capacity) {
    uint32_t cap = streams_capacity ? 2u * streams_capacity : 8u;
    cuda_stream *grown =
        (cuda_stream *)realloc(streams, cap * sizeof(cuda_stream));
    if (!grown)
      return UINT32_MAX;
    streams = grown;
    streams_capacity = cap;
  }
  char label[96];
  snprintf(label, sizeof(label), "CUDA device %u, context %u, stream %u",
           device, context, stream);
  // The handle only has to be unique among CUDA queues: the slot number.
  uint32_t index = __tpuprof_rt_device_queue(
      TPUPROF_DEVICE_API_CUDA, (const void *)(uintptr_t)(num_streams + 1u),
      TPUPROF_DEVICE_CLOCK_DEVICE, label);
  if (index == UINT32_MAX)
    return UINT32_MAX;
  streams[num_streams].device = device;
  streams[num_streams].context = context;
  streams[num_streams].stream = stream;
  streams[num_streams].index = index;
  ++num_streams;
  return index;
}

/*===-- Activity records -------------------------------------------------===*/

/// A command record waiting for the external-correlation record of its API
/// call (CUPTI may deliver that in a later buffer).
typedef struct orphan {
  tpuprof_rt_device_interval iv;
  uint32_t corr;
} orphan;
static orphan *orphans;
static uint32_t num_orphans, orphans_capacity;

/// Hands `iv` to device.c as launch `external`'s command. Mutex held.
static void join_locked(tpuprof_rt_device_interval *iv, uint64_t external) {
  uint64_t index = external - first_id;
  if (external < first_id || index >= num_launches) {
    // Its window closed (and counted it) before CUPTI delivered it.
    ++stats.late;
    return;
  }
  cuda_launch *l = &launches[index];
  if (l->pending) {
    l->pending = 0;
    --num_pending;
  }
  iv->ref = l->ref;
  if (iv->queued == TPUPROF_CUPTI_TIMESTAMP_UNKNOWN)
    iv->queued = l->called;
  if (iv->submitted == TPUPROF_CUPTI_TIMESTAMP_UNKNOWN)
    iv->submitted = iv->queued;
  ++stats.joined;
  __tpuprof_rt_device_add(iv);
}

/// Keeps `iv` until its correlation is known. Mutex held.
static void keep_orphan_locked(const tpuprof_rt_device_interval *iv,
                               uint32_t corr) {
  if (num_orphans == orphans_capacity) {
    uint32_t cap = orphans_capacity ? 2u * orphans_capacity : 64u;
    orphan *grown = (orphan *)realloc(orphans, cap * sizeof(orphan));
    if (!grown) {
      __tpuprof_rt_device_drop(1);
      return;
    }
    orphans = grown;
    orphans_capacity = cap;
  }
  orphans[num_orphans].iv = *iv;
  orphans[num_orphans].corr = corr;
  ++num_orphans;
}

/// Joins the orphans whose correlation has come. Mutex held.
static void join_orphans_locked(void) {
  uint32_t kept = 0;
  for (uint32_t i = 0; i < num_orphans; ++i) {
    uint64_t external = corr_get_locked(orphans[i].corr);
    if (external)
      join_locked(&orphans[i].iv, external);
    else
      orphans[kept++] = orphans[i];
  }
  num_orphans = kept;
}

static const char *copy_name(uint8_t copy_kind) {
  switch (copy_kind) {
  case TPUPROF_CUPTI_MEMCPY_HTOD:
    return "memcpy HtoD";
  case TPUPROF_CUPTI_MEMCPY_DTOH:
    return "memcpy DtoH";
  case TPUPROF_CUPTI_MEMCPY_HTOA:
    return "memcpy HtoA";
  case TPUPROF_CUPTI_MEMCPY_ATOH:
    return "memcpy AtoH";
  case TPUPROF_CUPTI_MEMCPY_ATOA:
    return "memcpy AtoA";
  case TPUPROF_CUPTI_MEMCPY_ATOD:
    return "memcpy AtoD";
  case TPUPROF_CUPTI_MEMCPY_DTOA:
    return "memcpy DtoA";
  case TPUPROF_CUPTI_MEMCPY_DTOD:
    return "memcpy DtoD";
  case TPUPROF_CUPTI_MEMCPY_HTOH:
    return "memcpy HtoH";
  case TPUPROF_CUPTI_MEMCPY_PTOP:
    return "memcpy PtoP";
  default:
    return "memcpy";
  }
}

static uint32_t copy_op(uint8_t copy_kind) {
  switch (copy_kind) {
  case TPUPROF_CUPTI_MEMCPY_HTOD:
  case TPUPROF_CUPTI_MEMCPY_HTOA:
    return TPUPROF_DEVICE_WRITE;
  case TPUPROF_CUPTI_MEMCPY_DTOH:
  case TPUPROF_CUPTI_MEMCPY_ATOH:
    return TPUPROF_DEVICE_READ;
  default:
    return TPUPROF_DEVICE_COPY;
  }
}

/// What a command record says, common to the three kinds.
typedef struct command {
  uint32_t op;
  const char *name;
  uint64_t start, end, queued, submitted, bytes;
  uint32_t device, context, stream, corr;
} command;

/// Reads one record that lies within [record, limit). Mutex held.
static void read_record_locked(const uint8_t *record, const uint8_t *limit) {
  size_t avail = (size_t)(limit - record);
  if (avail < sizeof(tpuprof_cupti_record)) {
    ++stats.malformed;
    return;
  }
  uint32_t kind;
  memcpy(&kind, record, sizeof(kind));
  command c;
  memset(&c, 0, sizeof(c));
  switch (kind) {
  case TPUPROF_CUPTI_KIND_EXTERNAL_CORRELATION: {
    tpuprof_cupti_external_correlation e;
    if (avail < sizeof(e)) {
      ++stats.malformed;
      return;
    }
    memcpy(&e, record, sizeof(e));
    if (e.external_kind == TPUPROF_CUPTI_EXTERNAL_KIND && e.external_id)
      (void)corr_put_locked(e.correlation_id, e.external_id);
    return;
  }
  case TPUPROF_CUPTI_KIND_KERNEL:
  case TPUPROF_CUPTI_KIND_CONCURRENT_KERNEL: {
    tpuprof_cupti_kernel k;
    if (avail < sizeof(k)) {
      ++stats.malformed;
      return;
    }
    memcpy(&k, record, sizeof(k));
    c.op = TPUPROF_DEVICE_KERNEL;
    c.name = k.name ? k.name : "";
    c.start = k.start;
    c.end = k.end;
    c.queued = k.queued;
    c.submitted = k.submitted;
    c.device = k.device_id;
    c.context = k.context_id;
    c.stream = k.stream_id;
    c.corr = k.correlation_id;
    break;
  }
  case TPUPROF_CUPTI_KIND_MEMCPY: {
    tpuprof_cupti_memcpy m;
    if (avail < sizeof(m)) {
      ++stats.malformed;
      return;
    }
    memcpy(&m, record, sizeof(m));
    c.op = copy_op(m.copy_kind);
    c.name = copy_name(m.copy_kind);
    c.start = m.start;
    c.end = m.end;
    c.bytes = m.bytes;
    c.device = m.device_id;
    c.context = m.context_id;
    c.stream = m.stream_id;
    c.corr = m.correlation_id;
    break;
  }
  case TPUPROF_CUPTI_KIND_MEMSET: {
    tpuprof_cupti_memset m;
    if (avail < sizeof(m)) {
      ++stats.malformed;
      return;
    }
    memcpy(&m, record, sizeof(m));
    c.op = TPUPROF_DEVICE_FILL;
    c.name = "memset";
    c.start = m.start;
    c.end = m.end;
    c.bytes = m.bytes;
    c.device = m.device_id;
    c.context = m.context_id;
    c.stream = m.stream_id;
    c.corr = m.correlation_id;
    break;
  }
  case TPUPROF_CUPTI_KIND_RUNTIME:
  case TPUPROF_CUPTI_KIND_DRIVER:
    return; // On only for their external correlations.
  default:
    ++stats.unknown;
    return;
  }
  ++stats.records;
  uint64_t external = corr_get_locked(c.corr);
  if (c.start == TPUPROF_CUPTI_TIMESTAMP_UNKNOWN ||
      c.end == TPUPROF_CUPTI_TIMESTAMP_UNKNOWN || c.end < c.start) {
    // Delivered unfinished by a forced flush (or nonsense): its launch is
    // not waited for any more, and gets no interval.
    if (c.end < c.start && c.start != TPUPROF_CUPTI_TIMESTAMP_UNKNOWN &&
        c.end != TPUPROF_CUPTI_TIMESTAMP_UNKNOWN)
      ++stats.malformed;
    else
      ++stats.incomplete;
    uint64_t index = external - first_id;
    if (external >= first_id && index < num_launches &&
        launches[index].pending) {
      launches[index].pending = 0;
      --num_pending;
      __tpuprof_rt_device_drop(1);
    }
    return;
  }
  tpuprof_rt_device_interval iv;
  memset(&iv, 0, sizeof(iv));
  iv.start = c.start;
  iv.end = c.end;
  iv.queued = c.queued;
  iv.submitted = c.submitted;
  iv.bytes = c.bytes;
  iv.op = c.op;
  iv.name = __tpuprof_rt_device_name(c.name);
  iv.queue = stream_locked(c.device, c.context, c.stream);
  if (iv.queue == UINT32_MAX) {
    __tpuprof_rt_device_drop(1);
    return;
  }
  if (external)
    join_locked(&iv, external);
  else
    keep_orphan_locked(&iv, c.corr);
}

/// Reads every record of a buffer CUPTI filled, with libcupti's own walk.
static void read_buffer(uint8_t *buffer, size_t valid) {
  pthread_mutex_lock(&cupti_mutex);
  if (__atomic_load_n(&cupti_state, __ATOMIC_ACQUIRE) > 0 && buffer) {
    const uint8_t *limit = buffer + valid;
    void *record = NULL;
    while (cupti.get_next_record(buffer, valid, &record) ==
           TPUPROF_CUPTI_SUCCESS) {
      const uint8_t *r = (const uint8_t *)record;
      if (!r || r < buffer || r >= limit) {
        ++stats.malformed;
        break;
      }
      read_record_locked(r, limit);
    }
    join_orphans_locked();
  }
  pthread_mutex_unlock(&cupti_mutex);
}

/*===-- CUPTI's buffer callbacks -----------------------------------------===*/

/// Bytes of each activity buffer handed to CUPTI.
#define BUFFER_BYTES (1u << 20)

static void buffer_requested(uint8_t **buffer, size_t *size,
                             size_t *max_num_records) {
  // malloc aligns to at least 8, CUPTI's record alignment.
  *buffer = (uint8_t *)malloc(BUFFER_BYTES);
  *size = *buffer ? BUFFER_BYTES : 0;
  *max_num_records = 0;
}

static void buffer_completed(void *context, uint32_t stream_id, uint8_t *buffer,
                             size_t size, size_t valid) {
  read_buffer(buffer, valid);
  free(buffer);
}

/*===-- Clock, close -----------------------------------------------------===*/

/// The activities the backend enables: concurrent kernels (KERNEL would
/// serialize the program's kernels), copies, fills, and the records that
/// join them to their launches. CUPTI writes external-correlation records
/// only for API calls whose activity kind is on: the runtime's and the
/// driver's (a runtime call's commands carry one of the two correlation
/// ids), whose own records are skipped.
static const uint32_t kinds[] = {TPUPROF_CUPTI_KIND_EXTERNAL_CORRELATION,
                                 TPUPROF_CUPTI_KIND_RUNTIME,
                                 TPUPROF_CUPTI_KIND_DRIVER,
                                 TPUPROF_CUPTI_KIND_CONCURRENT_KERNEL,
                                 TPUPROF_CUPTI_KIND_MEMCPY,
                                 TPUPROF_CUPTI_KIND_MEMSET};
#define NUM_KINDS (sizeof(kinds) / sizeof(kinds[0]))

/// Whether the activities are on; changed under activity_mutex, which is
/// never held with cupti_mutex.
static int activity_on;
static pthread_mutex_t activity_mutex = PTHREAD_MUTEX_INITIALIZER;

/// CUPTI's clock (ns) for device.c's pairs; 0 when unreadable.
static uint64_t cupti_now(void) {
  uint64_t t = 0;
  if (__atomic_load_n(&cupti_state, __ATOMIC_ACQUIRE) <= 0 ||
      cupti.get_timestamp(&t) != TPUPROF_CUPTI_SUCCESS)
    return 0;
  return t;
}

static uint64_t monotonic_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t pending_count(void) {
  pthread_mutex_lock(&cupti_mutex);
  uint64_t n = num_pending;
  pthread_mutex_unlock(&cupti_mutex);
  return n;
}

/// The window's close: CUPTI delivers what finished; while launches of the
/// window still have no record, flushes again for up to `wait_ns`; then
/// forces out the rest. What never came is counted as dropped.
static void close_collect(uint64_t wait_ns) {
  if (__atomic_load_n(&cupti_state, __ATOMIC_ACQUIRE) <= 0)
    return;
  uint64_t deadline = monotonic_ns() + wait_ns;
  (void)cupti.flush_all(0);
  while (pending_count() && monotonic_ns() < deadline) {
    struct timespec pause = {0, 500000};
    nanosleep(&pause, NULL);
    (void)cupti.flush_all(0);
  }
  pthread_mutex_lock(&activity_mutex);
  if (activity_on)
    for (size_t i = 0; i < NUM_KINDS; ++i)
      (void)cupti.disable(kinds[i]);
  __atomic_store_n(&activity_on, 0, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&activity_mutex);
  (void)cupti.flush_all(TPUPROF_CUPTI_FLUSH_FORCED);
  pthread_mutex_lock(&cupti_mutex);
  join_orphans_locked();
  // Records no wrapped call launched (libraries the pass did not see) are
  // kept, with no launch, when they ran in this window.
  for (uint32_t i = 0; i < num_orphans; ++i) {
    tpuprof_rt_device_interval *iv = &orphans[i].iv;
    if (num_launches == 0 || iv->start < window_first_called)
      continue;
    iv->ref.gen = window_gen;
    iv->ref.thread = UINT32_MAX;
    iv->ref.probe = UINT32_MAX;
    iv->ref.begin = 0;
    if (iv->queued == TPUPROF_CUPTI_TIMESTAMP_UNKNOWN)
      iv->queued = iv->start;
    if (iv->submitted == TPUPROF_CUPTI_TIMESTAMP_UNKNOWN)
      iv->submitted = iv->queued;
    ++stats.unjoined;
    __tpuprof_rt_device_add(iv);
  }
  num_orphans = 0;
  if (num_pending) {
    fprintf(stderr,
            "tpuprof: %llu CUDA commands had not finished when the window "
            "closed: they get no device time\n",
            (unsigned long long)num_pending);
    __tpuprof_rt_device_drop(num_pending);
    num_pending = 0;
  }
  // The next window's ids start after this one's; its records, should any
  // come later, are recognized as late.
  first_id += num_launches;
  num_launches = 0;
  if (corr_slots) // None until the first correlation record.
    memset(corr_slots, 0, (size_t)corr_size * sizeof(corr_slot));
  corr_count = 0;
  pthread_mutex_unlock(&cupti_mutex);
}

static const tpuprof_rt_device_backend backend = {close_collect};

/// Turns the activities on for a window's first timed call (CUPTI records
/// nothing between windows). Never under cupti_mutex.
static void activity_enable(void) {
  if (__atomic_load_n(&activity_on, __ATOMIC_ACQUIRE))
    return;
  pthread_mutex_lock(&activity_mutex);
  if (!activity_on) {
    for (size_t i = 0; i < NUM_KINDS; ++i)
      (void)cupti.enable(kinds[i]);
    __atomic_store_n(&activity_on, 1, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&activity_mutex);
}

/*===-- Loading ----------------------------------------------------------===*/

/// Where libcupti is looked for: TPUPROF_CUPTI_LIBRARY, then the loader's
/// path, then the CUDA toolkit's usual place.
static void *open_cupti(void) {
  const char *env = getenv("TPUPROF_CUPTI_LIBRARY");
  if (env && *env)
    return dlopen(env, RTLD_NOW | RTLD_LOCAL);
  static const char *const names[] = {
      "libcupti.so", "libcupti.so.12", "libcupti.so.11.8",
      "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so"};
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); ++i) {
    void *lib = __tpuprof_rt_device_dlopen(names[i]);
    if (lib)
      return lib;
  }
  return NULL;
}

static const tpuprof_rt_symbol cupti_symbols[] = {
    TPUPROF_RT_SYMBOL(tpuprof_cupti_api, register_callbacks,
                      cuptiActivityRegisterCallbacks),
    TPUPROF_RT_SYMBOL(tpuprof_cupti_api, enable, cuptiActivityEnable),
    TPUPROF_RT_SYMBOL(tpuprof_cupti_api, disable, cuptiActivityDisable),
    TPUPROF_RT_SYMBOL(tpuprof_cupti_api, push_external_id,
                      cuptiActivityPushExternalCorrelationId),
    TPUPROF_RT_SYMBOL(tpuprof_cupti_api, pop_external_id,
                      cuptiActivityPopExternalCorrelationId),
    TPUPROF_RT_SYMBOL(tpuprof_cupti_api, get_timestamp, cuptiGetTimestamp),
    TPUPROF_RT_SYMBOL(tpuprof_cupti_api, flush_all, cuptiActivityFlushAll),
    TPUPROF_RT_SYMBOL(tpuprof_cupti_api, get_next_record,
                      cuptiActivityGetNextRecord),
};

/// Loads libcupti (or takes the injected table), registers the buffer
/// callbacks and enables the activities. Mutex held (and nothing calls
/// CUPTI before it is loaded: no flush can call back yet).
static int load_locked(void) {
  if (cupti_state)
    return cupti_state > 0;
  const char *why = NULL;
  int rc = TPUPROF_CUPTI_SUCCESS;
  if (injected) {
    cupti = *injected;
  } else {
    void *lib = open_cupti();
    if (!lib) {
      why = "cannot load libcupti (set TPUPROF_CUPTI_LIBRARY to its path)";
    } else {
      if (!__tpuprof_rt_device_resolve(
              lib, cupti_symbols,
              sizeof(cupti_symbols) / sizeof(cupti_symbols[0]), &cupti))
        why = "libcupti lacks the activity API's functions";
    }
  }
  if (!why &&
      (rc = cupti.register_callbacks(buffer_requested, buffer_completed)) !=
          TPUPROF_CUPTI_SUCCESS)
    why = "cuptiActivityRegisterCallbacks failed (another CUPTI client?)";
  for (size_t i = 0; !why && i < NUM_KINDS; ++i)
    if ((rc = cupti.enable(kinds[i])) != TPUPROF_CUPTI_SUCCESS)
      why = "cuptiActivityEnable failed";
  if (!why)
    __atomic_store_n(&activity_on, 1, __ATOMIC_RELEASE);
  if (why) {
    if (rc != TPUPROF_CUPTI_SUCCESS)
      fprintf(stderr, "tpuprof: no CUDA device timing: %s (CUPTI error %d)\n",
              why, rc);
    else
      fprintf(stderr, "tpuprof: no CUDA device timing: %s\n", why);
  }
  // Release: a wrapper that sees 1 without the mutex sees `cupti` filled.
  __atomic_store_n(&cupti_state, why ? -1 : 1, __ATOMIC_RELEASE);
  return !why;
}

/// Whether a call made now is timed: a window is open, device timing is on
/// and CUPTI is loaded. Fills `ref`.
static int timed(tpuprof_rt_launch_ref *ref) {
  if (!__tpuprof_rt_device_timing || !__tpuprof_rt_device_launch_ref(ref))
    return 0;
  int state = __atomic_load_n(&cupti_state, __ATOMIC_ACQUIRE);
  if (state > 0)
    activity_enable();
  if (state)
    return state > 0;
  pthread_mutex_lock(&cupti_mutex);
  int ok = load_locked();
  pthread_mutex_unlock(&cupti_mutex);
  if (ok) {
    __tpuprof_rt_device_register(&backend);
    __tpuprof_rt_device_clock(cupti_now);
  }
  return ok;
}

/*===-- Around each wrapped call -----------------------------------------===*/

/// Starts timing a call: a new launch and its id, pushed as the external
/// correlation id. Returns the id, 0 when the call is not timed.
static uint64_t launch_begin(void) {
  tpuprof_rt_launch_ref ref;
  if (!timed(&ref))
    return 0;
  uint64_t called = 0;
  (void)cupti.get_timestamp(&called);
  uint64_t id = 0;
  pthread_mutex_lock(&cupti_mutex);
  if (num_launches == launches_capacity) {
    uint32_t cap = launches_capacity ? 2u * launches_capacity : 256u;
    cuda_launch *grown =
        (cuda_launch *)realloc(launches, cap * sizeof(cuda_launch));
    if (grown) {
      launches = grown;
      launches_capacity = cap;
    }
  }
  if (num_launches < launches_capacity) {
    if (num_launches == 0 || ref.gen != window_gen) {
      window_gen = ref.gen;
      window_first_called = called;
    }
    cuda_launch *l = &launches[num_launches];
    l->ref = ref;
    l->called = called;
    l->pending = 1;
    id = first_id + num_launches++;
    ++num_pending;
  }
  pthread_mutex_unlock(&cupti_mutex);
  if (!id) {
    __tpuprof_rt_device_drop(1);
    return 0;
  }
  if (cupti.push_external_id(TPUPROF_CUPTI_EXTERNAL_KIND, id) !=
      TPUPROF_CUPTI_SUCCESS) {
    pthread_mutex_lock(&cupti_mutex);
    uint64_t index = id - first_id;
    if (id >= first_id && index < num_launches && launches[index].pending) {
      launches[index].pending = 0;
      --num_pending;
    }
    pthread_mutex_unlock(&cupti_mutex);
    __tpuprof_rt_device_drop(1);
    return 0;
  }
  return id;
}

/// Ends a call launch_begin timed; a call that failed enqueued nothing, so
/// no record is waited for.
static void launch_end(uint64_t id, int failed) {
  if (!id)
    return;
  uint64_t last = 0;
  (void)cupti.pop_external_id(TPUPROF_CUPTI_EXTERNAL_KIND, &last);
  if (!failed)
    return;
  pthread_mutex_lock(&cupti_mutex);
  uint64_t index = id - first_id;
  if (id >= first_id && index < num_launches && launches[index].pending) {
    launches[index].pending = 0;
    --num_pending;
  }
  pthread_mutex_unlock(&cupti_mutex);
}

/*===-- The wrappers (format.h, TPUPROF_DEVICE_WRAPPED) ------------------===*/

/// CUDA's and HIP's dim3, passed by value.
typedef struct tpuprof_dim3 {
  uint32_t x, y, z;
} tpuprof_dim3;

typedef int (*launch_fn)(const void *, tpuprof_dim3, tpuprof_dim3, void **,
                         size_t, void *);

TPUPROF_RT_API int __tpuprof_wrap_cudaLaunchKernel(const void *func,
                                                   tpuprof_dim3 grid,
                                                   tpuprof_dim3 block,
                                                   void **args, size_t shared,
                                                   void *stream, void *real) {
  uint64_t id = launch_begin();
  int rc = ((launch_fn)real)(func, grid, block, args, shared, stream);
  launch_end(id, rc != 0);
  return rc;
}

typedef int (*memcpy_fn)(void *, const void *, size_t, int);
typedef int (*memcpy_async_fn)(void *, const void *, size_t, int, void *);
typedef int (*memset_fn)(void *, int, size_t);
typedef int (*memset_async_fn)(void *, int, size_t, void *);

TPUPROF_RT_API int __tpuprof_wrap_cudaMemcpy(void *dst, const void *src,
                                             size_t count, int kind,
                                             void *real) {
  uint64_t id = launch_begin();
  int rc = ((memcpy_fn)real)(dst, src, count, kind);
  launch_end(id, rc != 0);
  return rc;
}

TPUPROF_RT_API int __tpuprof_wrap_cudaMemcpyAsync(void *dst, const void *src,
                                                  size_t count, int kind,
                                                  void *stream, void *real) {
  uint64_t id = launch_begin();
  int rc = ((memcpy_async_fn)real)(dst, src, count, kind, stream);
  launch_end(id, rc != 0);
  return rc;
}

TPUPROF_RT_API int __tpuprof_wrap_cudaMemset(void *ptr, int value, size_t count,
                                             void *real) {
  uint64_t id = launch_begin();
  int rc = ((memset_fn)real)(ptr, value, count);
  launch_end(id, rc != 0);
  return rc;
}

TPUPROF_RT_API int __tpuprof_wrap_cudaMemsetAsync(void *ptr, int value,
                                                  size_t count, void *stream,
                                                  void *real) {
  uint64_t id = launch_begin();
  int rc = ((memset_async_fn)real)(ptr, value, count, stream);
  launch_end(id, rc != 0);
  return rc;
}

/// Said once per process.
static int hip_said;

TPUPROF_RT_API int __tpuprof_wrap_hipLaunchKernel(const void *func,
                                                  tpuprof_dim3 grid,
                                                  tpuprof_dim3 block,
                                                  void **args, size_t shared,
                                                  void *stream, void *real) {
  if (__tpuprof_rt_device_timing &&
      !__atomic_exchange_n(&hip_said, 1, __ATOMIC_RELAXED))
    fprintf(stderr, "tpuprof: no device timing for HIP here (tpuprof has no "
                    "roctracer backend): HIP launches are timed on the host "
                    "only\n");
  return ((launch_fn)real)(func, grid, block, args, shared, stream);
}

/*===-- For the tests (cupti_abi.h) --------------------------------------===*/

void __tpuprof_rt_cupti_use(const tpuprof_cupti_api *api) {
  pthread_mutex_lock(&cupti_mutex);
  injected = api;
  __atomic_store_n(&cupti_state, 0, __ATOMIC_RELEASE);
  __atomic_store_n(&activity_on, 0, __ATOMIC_RELEASE);
  first_id += num_launches;
  num_launches = 0;
  num_pending = 0;
  num_orphans = 0;
  if (corr_slots)
    memset(corr_slots, 0, (size_t)corr_size * sizeof(corr_slot));
  corr_count = 0;
  memset(&stats, 0, sizeof(stats));
  __atomic_store_n(&hip_said, 0, __ATOMIC_RELAXED);
  pthread_mutex_unlock(&cupti_mutex);
}

void __tpuprof_rt_cupti_get_stats(tpuprof_rt_cupti_stats *out) {
  pthread_mutex_lock(&cupti_mutex);
  *out = stats;
  pthread_mutex_unlock(&cupti_mutex);
}
