/*===- runtime/device_vulkan.c - Vulkan compute device intervals --*- C -*-===*\
|*                                                                            *|
|* The Vulkan backend (docs/device.md). The LLVM pass redirects the program's *|
|* calls of the vk* functions in format.h's TPUPROF_DEVICE_WRAPPED here,     *|
|* each with the real function as its last argument. Recording a dispatch    *|
|* puts a timestamp query pair around it in the command buffer (one query    *|
|* pool per command buffer); submitting the buffer inside a window queues   *|
|* its pairs in a FIFO with the launch record (the vkQueueSubmit probe).     *|
|* Results are read without ever waiting: a few at each later submit, all   *|
|* after the program's own waits (vkQueueWaitIdle, vkWaitForFences, ...),   *|
|* and at the window's close, which alone may wait (bounded) for the rest.  *|
|*                                                                            *|
|* The Vulkan functions it calls itself come from libvulkan.so.1 by dlopen   *|
|* on the first wrapped call: the runtime links no Vulkan, and a program     *|
|* that never calls Vulkan never loads it. Types, constants and the few      *|
|* struct offsets are Vulkan's documented ABI (vulkan_core.h), spelled here  *|
|* (vulkan_abi.h) so that building the runtime needs no Vulkan headers; a    *|
|* unit test checks them against the headers.                               *|
|*                                                                            *|
|* The mutex is a leaf but for device.c's, which it may take inside.        *|
\*===----------------------------------------------------------------------===*/

#include "rt_internal.h"
#include "vulkan_abi.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char calibrated_ext[] = "VK_EXT_calibrated_timestamps";

typedef struct vk_api {
  void (*physical_properties)(vk_handle, void *);
  void (*queue_families)(vk_handle, uint32_t *, void *);
  vk_result (*device_extensions)(vk_handle, const char *, uint32_t *, void *);
  vk_void_fn (*device_proc)(vk_handle, const char *);
  vk_result (*create_query_pool)(vk_handle, const vk_query_pool_ci *,
                                 const void *, vk_handle *);
  void (*destroy_query_pool)(vk_handle, vk_handle, const void *);
  void (*reset_query_pool)(vk_handle, vk_handle, uint32_t, uint32_t);
  void (*write_timestamp)(vk_handle, uint32_t, vk_handle, uint32_t);
  vk_result (*query_results)(vk_handle, vk_handle, uint32_t, uint32_t, size_t,
                             void *, uint64_t, uint32_t);
  vk_result (*fence_status)(vk_handle, vk_handle);
} vk_api;

static vk_api vk;

static const tpuprof_rt_symbol vk_symbols[] = {
    TPUPROF_RT_SYMBOL(vk_api, physical_properties,
                      vkGetPhysicalDeviceProperties),
    TPUPROF_RT_SYMBOL(vk_api, queue_families,
                      vkGetPhysicalDeviceQueueFamilyProperties),
    TPUPROF_RT_SYMBOL(vk_api, device_extensions,
                      vkEnumerateDeviceExtensionProperties),
    TPUPROF_RT_SYMBOL(vk_api, device_proc, vkGetDeviceProcAddr),
    TPUPROF_RT_SYMBOL(vk_api, create_query_pool, vkCreateQueryPool),
    TPUPROF_RT_SYMBOL(vk_api, destroy_query_pool, vkDestroyQueryPool),
    TPUPROF_RT_SYMBOL(vk_api, reset_query_pool, vkCmdResetQueryPool),
    TPUPROF_RT_SYMBOL(vk_api, write_timestamp, vkCmdWriteTimestamp),
    TPUPROF_RT_SYMBOL(vk_api, query_results, vkGetQueryPoolResults),
    TPUPROF_RT_SYMBOL(vk_api, fence_status, vkGetFenceStatus),
};

/// 1 loaded, -1 unusable (said once), 0 not tried. Set under the mutex.
static int vk_state;

static pthread_mutex_t vk_mutex = PTHREAD_MUTEX_INITIALIZER;

/// Loads what the backend calls. Mutex held.
static int load_locked(void) {
  if (vk_state)
    return vk_state > 0;
  int ok = __tpuprof_rt_device_resolve(
      __tpuprof_rt_device_dlopen("libvulkan.so.1"), vk_symbols,
      sizeof(vk_symbols) / sizeof(vk_symbols[0]), &vk);
  if (!ok)
    fprintf(stderr, "tpuprof: no Vulkan device timing: cannot load "
                    "libvulkan.so.1\n");
  __atomic_store_n(&vk_state, ok ? 1 : -1, __ATOMIC_RELEASE);
  return ok;
}

/// Whether device timing applies: on, and the backend loaded.
static int usable(void) {
  if (!__tpuprof_rt_device_timing)
    return 0;
  if (__atomic_load_n(&vk_state, __ATOMIC_ACQUIRE) > 0)
    return 1;
  pthread_mutex_lock(&vk_mutex);
  int ok = load_locked();
  pthread_mutex_unlock(&vk_mutex);
  return ok;
}

static uint64_t monotonic_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*===-- Handle tables ----------------------------------------------------===*/

/// An open-addressing map from a handle to an index + 1 (0: empty), for
/// devices, command buffers and pipelines. Removal leaves the slot to a
/// tombstone index of 0 with a non-NULL key, so probes continue past it.
typedef struct handle_map {
  vk_handle *keys;
  uint32_t *values;
  uint32_t size, used; ///< Size a power of two or 0; used counts tombstones.
} handle_map;

static uint32_t slot_of(const handle_map *m, vk_handle key) {
  uint64_t h = (uint64_t)(uintptr_t)key * 0x9E3779B97F4A7C15ull;
  return (uint32_t)(h >> 32) & (m->size - 1u);
}

/// The value of `key`, 0 when absent.
static uint32_t map_get(const handle_map *m, vk_handle key) {
  if (!m->size || !key)
    return 0;
  for (uint32_t s = slot_of(m, key); m->keys[s]; s = (s + 1u) & (m->size - 1u))
    if (m->keys[s] == key)
      return m->values[s];
  return 0;
}

static int map_put(handle_map *m, vk_handle key, uint32_t value);

static int map_rehash(handle_map *m, uint32_t size) {
  handle_map n = {(vk_handle *)calloc(size, sizeof(vk_handle)),
                  (uint32_t *)calloc(size, sizeof(uint32_t)), size, 0};
  if (!n.keys || !n.values) {
    free(n.keys);
    free(n.values);
    return -1;
  }
  for (uint32_t i = 0; i < m->size; ++i)
    if (m->keys[i] && m->values[i])
      (void)map_put(&n, m->keys[i], m->values[i]);
  free(m->keys);
  free(m->values);
  *m = n;
  return 0;
}

/// Sets `key`'s value (0 removes it). Returns -1 when out of memory.
static int map_put(handle_map *m, vk_handle key, uint32_t value) {
  if (!key)
    return -1;
  if (2u * (m->used + 1u) > m->size &&
      map_rehash(m, m->size ? 2u * m->size : 64u) != 0)
    return -1;
  uint32_t s = slot_of(m, key);
  for (; m->keys[s]; s = (s + 1u) & (m->size - 1u))
    if (m->keys[s] == key) {
      m->values[s] = value;
      return 0;
    }
  if (!value)
    return 0;
  m->keys[s] = key;
  m->values[s] = value;
  ++m->used;
  return 0;
}

/*===-- Devices ----------------------------------------------------------===*/

typedef vk_result (*calibrated_fn)(vk_handle, uint32_t,
                                   const vk_calibrated_ts_info *, uint64_t *,
                                   uint64_t *);

typedef struct vk_device {
  vk_handle handle;
  vk_handle physical;
  char name[256];
  double period;            ///< ns per timestamp tick (timestampPeriod).
  uint64_t valid_mask;      ///< Timestamp bits that count (timestampValidBits).
  calibrated_fn calibrated; ///< vkGetCalibratedTimestampsEXT, or NULL.
  int64_t offset_ns;        ///< CLOCK_MONOTONIC − device ns, at the last pair.
  uint32_t calibrated_gen;  ///< Window the offset was taken in.
  int live;
} vk_device;

static vk_device *devices;
static uint32_t num_devices, devices_capacity;
static handle_map device_map;

/// Takes a calibrated pair (device, CLOCK_MONOTONIC): the offset that puts
/// the device's timestamps on CLOCK_MONOTONIC. Mutex held.
static void calibrate_locked(vk_device *d) {
  if (!d->calibrated)
    return;
  vk_calibrated_ts_info info[2] = {
      {VKABI_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, NULL,
       VKABI_TIME_DOMAIN_DEVICE_EXT},
      {VKABI_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, NULL,
       VKABI_TIME_DOMAIN_CLOCK_MONOTONIC_EXT}};
  uint64_t ts[2] = {0, 0}, deviation = 0;
  if (d->calibrated(d->handle, 2, info, ts, &deviation) != VKABI_SUCCESS)
    return;
  double dev_ns = (double)(ts[0] & d->valid_mask) * d->period;
  d->offset_ns = (int64_t)((double)ts[1] - dev_ns);
}

/// Whether the physical device offers VK_EXT_calibrated_timestamps.
static int has_calibrated(vk_handle physical) {
  uint32_t n = 0;
  if (vk.device_extensions(physical, NULL, &n, NULL) != VKABI_SUCCESS || !n)
    return 0;
  char *props = (char *)malloc((size_t)n * VKABI_EXTENSION_SIZE);
  if (!props)
    return 0;
  int found = 0;
  if (vk.device_extensions(physical, NULL, &n, props) >= VKABI_SUCCESS)
    for (uint32_t i = 0; i < n && !found; ++i)
      found = strncmp(props + (size_t)i * VKABI_EXTENSION_SIZE, calibrated_ext,
                      VKABI_MAX_EXTENSION_NAME_SIZE) == 0;
  free(props);
  return found;
}

/// Registers a device the program created. Mutex held.
static void add_device_locked(vk_handle device, vk_handle physical,
                              int calibrated_on) {
  if (num_devices == devices_capacity) {
    uint32_t cap = devices_capacity ? 2u * devices_capacity : 4u;
    vk_device *grown = (vk_device *)realloc(devices, cap * sizeof(vk_device));
    if (!grown)
      return;
    devices = grown;
    devices_capacity = cap;
  }
  vk_device *d = &devices[num_devices];
  memset(d, 0, sizeof(*d));
  d->handle = device;
  d->physical = physical;
  d->live = 1;
  uint8_t props[VKABI_PROPS_SIZE];
  memset(props, 0, sizeof(props));
  vk.physical_properties(physical, props);
  memcpy(d->name, props + VKABI_PROPS_DEVICE_NAME, sizeof(d->name) - 1);
  float period = 1.0f;
  memcpy(&period, props + VKABI_PROPS_TIMESTAMP_PERIOD, sizeof(period));
  d->period = period > 0 ? period : 1.0;
  // The narrowest family's bits: values are masked to what every queue
  // family counts.
  uint32_t families = 0, bits = 64;
  vk.queue_families(physical, &families, NULL);
  uint8_t *fam =
      families ? (uint8_t *)calloc(families, VKABI_QUEUE_FAMILY_SIZE) : NULL;
  if (fam) {
    vk.queue_families(physical, &families, fam);
    for (uint32_t i = 0; i < families; ++i) {
      uint32_t b;
      memcpy(&b,
             fam + (size_t)i * VKABI_QUEUE_FAMILY_SIZE +
                 VKABI_QUEUE_FAMILY_VALID_BITS,
             sizeof(b));
      if (b && b < bits)
        bits = b;
    }
    free(fam);
  }
  d->valid_mask = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1u;
  if (calibrated_on)
    *(void **)&d->calibrated =
        (void *)vk.device_proc(device, "vkGetCalibratedTimestampsEXT");
  if (!d->calibrated)
    fprintf(stderr,
            "tpuprof: Vulkan device '%s' has no VK_EXT_calibrated_timestamps: "
            "its timestamps are taken as CLOCK_MONOTONIC\n",
            d->name);
  calibrate_locked(d);
  if (map_put(&device_map, device, num_devices + 1u) == 0)
    ++num_devices;
}

/*===-- Command buffers and pipelines ------------------------------------===*/

/// Dispatches timed per command buffer recording; further ones are not.
#define MAX_DISPATCHES 512u

typedef struct vk_cb {
  vk_handle handle;
  vk_handle pool;          ///< The program's command pool.
  uint32_t device;         ///< Index in `devices`.
  vk_handle queries;       ///< Our timestamp pool (2 per dispatch), or NULL.
  uint32_t num_dispatches; ///< Pairs recorded since vkBeginCommandBuffer.
  uint32_t skipped;        ///< Dispatches recorded past MAX_DISPATCHES.
  uint32_t pipeline_name;  ///< Name of the bound compute pipeline.
  uint32_t pending;        ///< Submissions of it in the FIFO.
  uint32_t *names;         ///< Per pair: kernel name index.
  int live;
} vk_cb;

static vk_cb *cbs;
static uint32_t num_cbs, cbs_capacity;
static handle_map cb_map;
static handle_map pipeline_map; ///< Pipeline -> name index + 1.

static uint32_t dispatch_name;

static vk_cb *cb_locked(vk_handle cb) {
  uint32_t i = map_get(&cb_map, cb);
  return i ? &cbs[i - 1u] : NULL;
}

/// Frees our part of a command buffer. Mutex held; nothing pending on it.
static void drop_cb_locked(vk_cb *c) {
  if (c->queries && c->device < num_devices && devices[c->device].live)
    vk.destroy_query_pool(devices[c->device].handle, c->queries, NULL);
  free(c->names);
  (void)map_put(&cb_map, c->handle, 0);
  memset(c, 0, sizeof(*c));
}

/*===-- Pending submissions ----------------------------------------------===*/

/// One command buffer submitted inside a window: its pairs are read once
/// the device wrote them all.
typedef struct pending {
  uint32_t cb;        ///< Index in `cbs`.
  uint32_t count;     ///< Pairs to read (the buffer's at submission).
  uint32_t queue;     ///< device.c's queue index.
  uint64_t submitted; ///< CLOCK_MONOTONIC ns at the vkQueueSubmit.
  vk_handle queue_handle;
  vk_handle fence; ///< The submit's fence, or NULL.
  int complete;    ///< Known to have run: its pairs are final.
  tpuprof_rt_launch_ref ref;
} pending;

#define MAX_PENDING (1u << 16)
static pending *ring;
static uint32_t ring_capacity, ring_head, ring_count;

/// Whether `p` has run, as far as is known without waiting: the program
/// waited for it, or its fence has signalled. Mutex held.
static int known_done(pending *p, const vk_device *d) {
  if (!p->complete && p->fence &&
      vk.fence_status(d->handle, p->fence) == VKABI_SUCCESS)
    p->complete = 1;
  return p->complete;
}

/// Reads the pairs of `p`: 1 when done (intervals added, or dropped when
/// they cannot be read), 0 when it is not known to have run yet. Results
/// are only read once the run is known to be over, which never waits: some
/// drivers (lavapipe) wait for the device to go idle in every
/// vkGetQueryPoolResults. With `settle`, a run not known to be over is read
/// anyway, its pairs accepted only when available and not an earlier run's
/// (started before this submission). Mutex held.
static int try_finish_locked(pending *p, int settle) {
  vk_cb *c = &cbs[p->cb];
  if (!c->live || !c->queries || c->device >= num_devices ||
      !devices[c->device].live) {
    __tpuprof_rt_device_drop(p->count);
    if (c->pending)
      --c->pending;
    return 1;
  }
  const vk_device *d = &devices[c->device];
  int done = known_done(p, d);
  if (!done && !settle)
    return 0;
  uint64_t stack[4 * 16];
  uint64_t *v =
      p->count <= 16u ? stack : (uint64_t *)malloc((size_t)p->count * 32u);
  if (!v) {
    __tpuprof_rt_device_drop(p->count);
    if (c->pending)
      --c->pending;
    return 1;
  }
  // (value, availability) per query.
  vk_result rc = vk.query_results(
      d->handle, c->queries, 0, 2u * p->count, (size_t)p->count * 32u, v, 16u,
      VKABI_QUERY_RESULT_64_BIT | VKABI_QUERY_RESULT_WITH_AVAILABILITY_BIT);
  int ready = rc == VKABI_SUCCESS || rc == VKABI_NOT_READY;
  for (uint32_t i = 0; ready && i < p->count; ++i) {
    ready = v[4 * i + 1] && v[4 * i + 3];
    if (ready && !done)
      ready = (int64_t)((double)(v[4 * i] & d->valid_mask) * d->period) +
                  d->offset_ns >=
              (int64_t)p->submitted;
  }
  if (!ready && !done) {
    if (v != stack)
      free(v);
    return 0;
  }
  if (!ready) {
    __tpuprof_rt_device_drop(p->count);
  } else {
    for (uint32_t i = 0; i < p->count; ++i) {
      uint64_t s = v[4 * i] & d->valid_mask, e = v[4 * i + 2] & d->valid_mask;
      tpuprof_rt_device_interval iv;
      iv.start = (uint64_t)((int64_t)((double)s * d->period) + d->offset_ns);
      iv.end = (uint64_t)((int64_t)((double)e * d->period) + d->offset_ns);
      iv.queued = p->submitted;
      iv.submitted = p->submitted;
      iv.bytes = 0;
      iv.queue = p->queue;
      iv.name = c->names[i];
      iv.op = TPUPROF_DEVICE_KERNEL;
      iv.ref = p->ref;
      __tpuprof_rt_device_add(&iv);
    }
  }
  if (v != stack)
    free(v);
  if (c->pending)
    --c->pending;
  return 1;
}

/// Collects finished submissions from the FIFO's front, at most `max` (0:
/// every finished one, wherever it is). Mutex held.
static void collect_locked(uint32_t max, int settle) {
  if (max) {
    for (uint32_t n = 0;
         n < max && ring_count && try_finish_locked(&ring[ring_head], settle);
         ++n) {
      ring_head = (ring_head + 1u) % ring_capacity;
      --ring_count;
    }
    return;
  }
  uint32_t kept = 0;
  for (uint32_t i = 0; i < ring_count; ++i) {
    pending *p = &ring[(ring_head + i) % ring_capacity];
    if (!try_finish_locked(p, settle))
      ring[(ring_head + kept++) % ring_capacity] = *p;
  }
  ring_count = kept;
}

/// Settles what is pending on command buffer `cb`, whose runs are over (the
/// program is about to submit it again, re-record or free it). Mutex held.
static void settle_cb_locked(uint32_t cb) {
  if (!cbs[cb].pending)
    return;
  uint32_t kept = 0;
  for (uint32_t i = 0; i < ring_count; ++i) {
    pending *p = &ring[(ring_head + i) % ring_capacity];
    if (p->cb != cb) {
      ring[(ring_head + kept++) % ring_capacity] = *p;
      continue;
    }
    p->complete = 1;
    (void)try_finish_locked(p, 0);
  }
  ring_count = kept;
}

static void close_collect(uint64_t wait_ns);
static const tpuprof_rt_device_backend backend = {close_collect};

/// The window's close: every submission known to be over; the others are
/// read as they are, and polled up to `wait_ns` before giving up on them.
static void close_collect(uint64_t wait_ns) {
  pthread_mutex_lock(&vk_mutex);
  if (__atomic_load_n(&vk_state, __ATOMIC_ACQUIRE) > 0) {
    collect_locked(0, 1);
    uint64_t deadline = monotonic_ns() + wait_ns;
    while (ring_count && monotonic_ns() < deadline) {
      pthread_mutex_unlock(&vk_mutex);
      struct timespec pause = {0, 200000};
      nanosleep(&pause, NULL);
      pthread_mutex_lock(&vk_mutex);
      collect_locked(0, 1);
    }
    if (ring_count) {
      uint64_t n = 0;
      for (uint32_t i = 0; i < ring_count; ++i) {
        pending *p = &ring[(ring_head + i) % ring_capacity];
        n += p->count;
        --cbs[p->cb].pending;
      }
      fprintf(stderr,
              "tpuprof: %" PRIu64 " Vulkan dispatches had not finished when "
              "the window closed: they get no device time\n",
              n);
      __tpuprof_rt_device_drop(n);
      ring_count = 0;
    }
  }
  pthread_mutex_unlock(&vk_mutex);
}

/// What a program's wait finished: every submission to `queue`, or to any
/// queue of `device`, or carrying one of `fences`; and on its queue, every
/// submission before one of those.
typedef struct waited {
  vk_handle queue, device;
  const vk_handle *fences;
  uint32_t num_fences;
} waited;

static int fence_waited(const waited *w, vk_handle fence) {
  for (uint32_t i = 0; fence && i < w->num_fences; ++i)
    if (w->fences[i] == fence)
      return 1;
  return 0;
}

/// After the program waited: marks what it waited for complete and
/// collects it (costs no wait).
static void collect_finished(const waited *w) {
  if (__atomic_load_n(&vk_state, __ATOMIC_ACQUIRE) <= 0)
    return;
  pthread_mutex_lock(&vk_mutex);
  vk_handle last_queue = NULL;
  for (uint32_t i = ring_count; i-- > 0;) {
    pending *p = &ring[(ring_head + i) % ring_capacity];
    const vk_cb *c = &cbs[p->cb];
    int done = (w->queue && p->queue_handle == w->queue) ||
               (w->device && c->device < num_devices &&
                devices[c->device].handle == w->device) ||
               fence_waited(w, p->fence);
    if (!done || p->queue_handle == last_queue)
      continue;
    // Earlier submissions to the same queue are over too.
    last_queue = p->queue_handle;
    for (uint32_t j = 0; j <= i; ++j) {
      pending *e = &ring[(ring_head + j) % ring_capacity];
      if (e->queue_handle == p->queue_handle)
        e->complete = 1;
    }
  }
  if (ring_count)
    collect_locked(0, 0);
  pthread_mutex_unlock(&vk_mutex);
}

/// Submissions collected at each later submit, from the FIFO's front.
#define COLLECT_PER_SUBMIT 4u

/// The command buffer `handle` if a submission of it can be timed, its
/// earlier runs settled. Mutex held.
static vk_cb *prepare_locked(vk_handle handle) {
  uint32_t idx = map_get(&cb_map, handle);
  if (!idx)
    return NULL;
  vk_cb *c = &cbs[idx - 1u];
  if (c->skipped)
    __tpuprof_rt_device_drop(c->skipped);
  if (!c->num_dispatches || !c->queries)
    return NULL;
  // A buffer submitted again has finished its previous run (or the
  // program lets it run twice at once: that run's pairs are lost).
  settle_cb_locked(idx - 1u);
  return c;
}

/// Queues the run of `c` just submitted to `queue`. Mutex held.
static void track_locked(vk_handle queue, vk_handle fence, vk_cb *c,
                         const tpuprof_rt_launch_ref *ref, uint64_t now) {
  vk_device *d = &devices[c->device];
  if (d->calibrated_gen != ref->gen) {
    calibrate_locked(d);
    d->calibrated_gen = ref->gen;
  }
  uint32_t q =
      __tpuprof_rt_device_queue(TPUPROF_DEVICE_API_VULKAN, queue,
                                TPUPROF_DEVICE_CLOCK_MONOTONIC, d->name);
  if (q == UINT32_MAX) {
    __tpuprof_rt_device_drop(c->num_dispatches);
    return;
  }
  if (ring_count == ring_capacity) {
    uint32_t cap = ring_capacity ? 2u * ring_capacity : 256u;
    pending *grown =
        cap <= MAX_PENDING ? (pending *)malloc(cap * sizeof(pending)) : NULL;
    if (!grown) {
      __tpuprof_rt_device_drop(c->num_dispatches);
      return;
    }
    for (uint32_t i = 0; i < ring_count; ++i)
      grown[i] = ring[(ring_head + i) % ring_capacity];
    free(ring);
    ring = grown;
    ring_capacity = cap;
    ring_head = 0;
  }
  pending *p = &ring[(ring_head + ring_count++) % ring_capacity];
  p->cb = (uint32_t)(c - cbs);
  p->count = c->num_dispatches;
  p->queue = q;
  p->submitted = now;
  p->queue_handle = queue;
  p->fence = fence;
  p->complete = 0;
  p->ref = *ref;
  ++c->pending;
}

/*===-- The wrappers (format.h, TPUPROF_DEVICE_WRAPPED) ------------------===*/

typedef vk_result (*create_device_fn)(vk_handle, const void *, const void *,
                                      vk_handle *);

TPUPROF_RT_API vk_result __tpuprof_wrap_vkCreateDevice(vk_handle physical,
                                                       const void *info,
                                                       const void *allocator,
                                                       vk_handle *device,
                                                       void *real) {
  create_device_fn f = (create_device_fn)real;
  if (!info || !usable())
    return f(physical, info, allocator, device);
  // Enables VK_EXT_calibrated_timestamps where the device has it, as the
  // OpenCL backend enables profiling: devices are made before profiling
  // starts.
  uint32_t count;
  const char *const *names;
  memcpy(&count, (const char *)info + VKABI_DEVICE_CI_EXT_COUNT, sizeof(count));
  memcpy(&names, (const char *)info + VKABI_DEVICE_CI_EXT_NAMES, sizeof(names));
  int enabled = 0;
  for (uint32_t i = 0; names && i < count && !enabled; ++i)
    enabled = names[i] && strcmp(names[i], calibrated_ext) == 0;
  vk_result rc;
  const char **mine = NULL;
  if (!enabled && has_calibrated(physical) &&
      (mine = (const char **)malloc(((size_t)count + 1u) * sizeof(char *)))) {
    for (uint32_t i = 0; i < count; ++i)
      mine[i] = names[i];
    mine[count] = calibrated_ext;
    uint8_t ci[VKABI_DEVICE_CI_SIZE];
    memcpy(ci, info, sizeof(ci));
    uint32_t n = count + 1u;
    memcpy(ci + VKABI_DEVICE_CI_EXT_COUNT, &n, sizeof(n));
    memcpy(ci + VKABI_DEVICE_CI_EXT_NAMES, &mine, sizeof(mine));
    rc = f(physical, ci, allocator, device);
    enabled = rc == VKABI_SUCCESS;
    if (rc != VKABI_SUCCESS)
      rc = f(physical, info, allocator, device);
    free(mine);
  } else {
    rc = f(physical, info, allocator, device);
  }
  if (rc == VKABI_SUCCESS && device && *device) {
    pthread_mutex_lock(&vk_mutex);
    add_device_locked(*device, physical, enabled);
    pthread_mutex_unlock(&vk_mutex);
  }
  return rc;
}

typedef void (*destroy_device_fn)(vk_handle, const void *);

TPUPROF_RT_API void __tpuprof_wrap_vkDestroyDevice(vk_handle device,
                                                   const void *allocator,
                                                   void *real) {
  if (__atomic_load_n(&vk_state, __ATOMIC_ACQUIRE) > 0) {
    pthread_mutex_lock(&vk_mutex);
    uint32_t di = map_get(&device_map, device);
    if (di) {
      // The device is idle now (the program must have waited): read what
      // its buffers hold, then free our pools before it goes.
      for (uint32_t i = 0; i < num_cbs; ++i)
        if (cbs[i].live && cbs[i].device == di - 1u) {
          settle_cb_locked(i);
          drop_cb_locked(&cbs[i]);
        }
      devices[di - 1u].live = 0;
      (void)map_put(&device_map, device, 0);
    }
    pthread_mutex_unlock(&vk_mutex);
  }
  ((destroy_device_fn)real)(device, allocator);
}

typedef vk_result (*allocate_cbs_fn)(vk_handle, const void *, vk_handle *);

TPUPROF_RT_API vk_result __tpuprof_wrap_vkAllocateCommandBuffers(
    vk_handle device, const void *info, vk_handle *out, void *real) {
  vk_result rc = ((allocate_cbs_fn)real)(device, info, out);
  if (rc != VKABI_SUCCESS || !info || !out || !usable())
    return rc;
  vk_handle pool;
  uint32_t count;
  memcpy(&pool, (const char *)info + VKABI_CB_AI_POOL, sizeof(pool));
  memcpy(&count, (const char *)info + VKABI_CB_AI_COUNT, sizeof(count));
  pthread_mutex_lock(&vk_mutex);
  uint32_t di = map_get(&device_map, device);
  for (uint32_t i = 0; di && i < count; ++i) {
    uint32_t slot = map_get(&cb_map, out[i]);
    if (!slot) {
      // Reuse a freed slot first.
      for (slot = 1; slot <= num_cbs && cbs[slot - 1u].live; ++slot)
        ;
      if (slot > num_cbs) {
        if (num_cbs == cbs_capacity) {
          uint32_t cap = cbs_capacity ? 2u * cbs_capacity : 16u;
          vk_cb *grown = (vk_cb *)realloc(cbs, cap * sizeof(vk_cb));
          if (!grown)
            break;
          cbs = grown;
          cbs_capacity = cap;
        }
        memset(&cbs[num_cbs], 0, sizeof(vk_cb));
        ++num_cbs;
      }
      if (map_put(&cb_map, out[i], slot) != 0)
        break;
    }
    vk_cb *c = &cbs[slot - 1u];
    c->handle = out[i];
    c->pool = pool;
    c->device = di - 1u;
    c->live = 1;
  }
  pthread_mutex_unlock(&vk_mutex);
  return rc;
}

typedef void (*free_cbs_fn)(vk_handle, vk_handle, uint32_t, const vk_handle *);

TPUPROF_RT_API void __tpuprof_wrap_vkFreeCommandBuffers(vk_handle device,
                                                        vk_handle pool,
                                                        uint32_t count,
                                                        const vk_handle *list,
                                                        void *real) {
  if (__atomic_load_n(&vk_state, __ATOMIC_ACQUIRE) > 0 && list) {
    pthread_mutex_lock(&vk_mutex);
    for (uint32_t i = 0; i < count; ++i) {
      uint32_t idx = map_get(&cb_map, list[i]);
      if (idx) {
        settle_cb_locked(idx - 1u);
        drop_cb_locked(&cbs[idx - 1u]);
      }
    }
    pthread_mutex_unlock(&vk_mutex);
  }
  ((free_cbs_fn)real)(device, pool, count, list);
}

typedef void (*destroy_pool_fn)(vk_handle, vk_handle, const void *);

TPUPROF_RT_API void __tpuprof_wrap_vkDestroyCommandPool(vk_handle device,
                                                        vk_handle pool,
                                                        const void *allocator,
                                                        void *real) {
  if (__atomic_load_n(&vk_state, __ATOMIC_ACQUIRE) > 0 && pool) {
    pthread_mutex_lock(&vk_mutex);
    for (uint32_t i = 0; i < num_cbs; ++i)
      if (cbs[i].live && cbs[i].pool == pool) {
        settle_cb_locked(i);
        drop_cb_locked(&cbs[i]);
      }
    pthread_mutex_unlock(&vk_mutex);
  }
  ((destroy_pool_fn)real)(device, pool, allocator);
}

typedef vk_result (*create_pipelines_fn)(vk_handle, vk_handle, uint32_t,
                                         const void *, const void *,
                                         vk_handle *);

TPUPROF_RT_API vk_result __tpuprof_wrap_vkCreateComputePipelines(
    vk_handle device, vk_handle cache, uint32_t count, const void *infos,
    const void *allocator, vk_handle *pipelines, void *real) {
  vk_result rc = ((create_pipelines_fn)real)(device, cache, count, infos,
                                             allocator, pipelines);
  if (rc < VKABI_SUCCESS || !infos || !pipelines || !usable())
    return rc;
  for (uint32_t i = 0; i < count; ++i) {
    if (!pipelines[i])
      continue;
    const char *entry;
    memcpy(&entry,
           (const char *)infos + (size_t)i * VKABI_PIPELINE_CI_SIZE +
               VKABI_PIPELINE_CI_ENTRY,
           sizeof(entry));
    uint32_t name =
        __tpuprof_rt_device_name(entry && *entry ? entry : "dispatch");
    pthread_mutex_lock(&vk_mutex);
    if (name != UINT32_MAX)
      (void)map_put(&pipeline_map, pipelines[i], name + 1u);
    pthread_mutex_unlock(&vk_mutex);
  }
  return rc;
}

typedef void (*bind_pipeline_fn)(vk_handle, uint32_t, vk_handle);

TPUPROF_RT_API void __tpuprof_wrap_vkCmdBindPipeline(vk_handle cb,
                                                     uint32_t bind_point,
                                                     vk_handle pipeline,
                                                     void *real) {
  ((bind_pipeline_fn)real)(cb, bind_point, pipeline);
  if (bind_point != VKABI_PIPELINE_BIND_POINT_COMPUTE ||
      __atomic_load_n(&vk_state, __ATOMIC_ACQUIRE) <= 0)
    return;
  pthread_mutex_lock(&vk_mutex);
  vk_cb *c = cb_locked(cb);
  if (c)
    c->pipeline_name = map_get(&pipeline_map, pipeline);
  pthread_mutex_unlock(&vk_mutex);
}

typedef vk_result (*begin_cb_fn)(vk_handle, const void *);

TPUPROF_RT_API vk_result __tpuprof_wrap_vkBeginCommandBuffer(vk_handle cb,
                                                             const void *info,
                                                             void *real) {
  if (__atomic_load_n(&vk_state, __ATOMIC_ACQUIRE) > 0) {
    pthread_mutex_lock(&vk_mutex);
    uint32_t idx = map_get(&cb_map, cb);
    if (idx) {
      // Its last run has finished (a pending buffer cannot be recorded).
      settle_cb_locked(idx - 1u);
      vk_cb *c = &cbs[idx - 1u];
      c->num_dispatches = 0;
      c->skipped = 0;
      c->pipeline_name = 0;
    }
    pthread_mutex_unlock(&vk_mutex);
  }
  return ((begin_cb_fn)real)(cb, info);
}

/// Creates a command buffer's query pool. Mutex held.
static int create_pairs_locked(vk_cb *c) {
  vk_query_pool_ci qci = {VKABI_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                          NULL,
                          0,
                          VKABI_QUERY_TYPE_TIMESTAMP,
                          2u * MAX_DISPATCHES,
                          0};
  if (!c->names)
    c->names = (uint32_t *)calloc(MAX_DISPATCHES, sizeof(uint32_t));
  if (!c->names || vk.create_query_pool(devices[c->device].handle, &qci, NULL,
                                        &c->queries) != VKABI_SUCCESS) {
    c->queries = NULL;
    return -1;
  }
  return 0;
}

/// The pair for the next dispatch recorded in `cb`, or UINT32_MAX when it
/// is not timed; the query pool in `*pool`. Mutex held.
static uint32_t next_pair_locked(vk_handle cb, vk_handle *pool) {
  vk_cb *c = cb_locked(cb);
  if (!c)
    return UINT32_MAX;
  if (!c->queries && create_pairs_locked(c) != 0) {
    ++c->skipped;
    return UINT32_MAX;
  }
  if (c->num_dispatches == MAX_DISPATCHES) {
    ++c->skipped;
    return UINT32_MAX;
  }
  if (!dispatch_name)
    dispatch_name = __tpuprof_rt_device_name("dispatch") + 1u;
  c->names[c->num_dispatches] =
      c->pipeline_name ? c->pipeline_name - 1u : dispatch_name - 1u;
  *pool = c->queries;
  return c->num_dispatches++;
}

/// Records `dispatch` between a reset timestamp pair. The reset makes a
/// pair unavailable until this run writes it again.
#define TIMED_DISPATCH(cb, dispatch)                                           \
  do {                                                                         \
    vk_handle pool = NULL;                                                     \
    uint32_t pair = UINT32_MAX;                                                \
    if (__tpuprof_rt_device_timing &&                                          \
        __atomic_load_n(&vk_state, __ATOMIC_ACQUIRE) > 0) {                    \
      pthread_mutex_lock(&vk_mutex);                                           \
      pair = next_pair_locked(cb, &pool);                                      \
      pthread_mutex_unlock(&vk_mutex);                                         \
    }                                                                          \
    if (pair == UINT32_MAX) {                                                  \
      dispatch;                                                                \
      break;                                                                   \
    }                                                                          \
    vk.reset_query_pool(cb, pool, 2u * pair, 2u);                              \
    vk.write_timestamp(cb, VKABI_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool,         \
                       2u * pair);                                             \
    dispatch;                                                                  \
    vk.write_timestamp(cb, VKABI_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool,      \
                       2u * pair + 1u);                                        \
  } while (0)

typedef void (*dispatch_fn)(vk_handle, uint32_t, uint32_t, uint32_t);

TPUPROF_RT_API void __tpuprof_wrap_vkCmdDispatch(vk_handle cb, uint32_t x,
                                                 uint32_t y, uint32_t z,
                                                 void *real) {
  TIMED_DISPATCH(cb, ((dispatch_fn)real)(cb, x, y, z));
}

typedef void (*dispatch_indirect_fn)(vk_handle, vk_handle, uint64_t);

TPUPROF_RT_API void __tpuprof_wrap_vkCmdDispatchIndirect(vk_handle cb,
                                                         vk_handle buffer,
                                                         uint64_t offset,
                                                         void *real) {
  TIMED_DISPATCH(cb, ((dispatch_indirect_fn)real)(cb, buffer, offset));
}

typedef vk_result (*submit_fn)(vk_handle, uint32_t, const void *, vk_handle);

/// Command buffers of one vkQueueSubmit timed at once; more are not.
#define MAX_SUBMIT_CBS 64u

/// The i-th command buffer of a vkQueueSubmit's submits, in order.
static vk_handle submitted_cb(const void *submits, uint32_t count, uint32_t k) {
  for (uint32_t s = 0; s < count; ++s) {
    const char *si = (const char *)submits + (size_t)s * VKABI_SUBMIT_SIZE;
    uint32_t n;
    const vk_handle *list;
    memcpy(&n, si + VKABI_SUBMIT_CB_COUNT, sizeof(n));
    memcpy(&list, si + VKABI_SUBMIT_CBS, sizeof(list));
    if (k < n)
      return list ? list[k] : NULL;
    k -= n;
  }
  return NULL;
}

TPUPROF_RT_API vk_result __tpuprof_wrap_vkQueueSubmit(vk_handle queue,
                                                      uint32_t count,
                                                      const void *submits,
                                                      vk_handle fence,
                                                      void *real) {
  submit_fn f = (submit_fn)real;
  tpuprof_rt_launch_ref ref;
  if (!submits || !__tpuprof_rt_device_timing ||
      __atomic_load_n(&vk_state, __ATOMIC_ACQUIRE) <= 0 ||
      !__tpuprof_rt_device_launch_ref(&ref))
    return f(queue, count, submits, fence);
  __tpuprof_rt_device_register(&backend);
  // Indices: another thread may grow `cbs` while the submit runs unlocked.
  uint32_t timed[MAX_SUBMIT_CBS];
  uint32_t n = 0;
  pthread_mutex_lock(&vk_mutex);
  for (vk_handle cb;
       n < MAX_SUBMIT_CBS && (cb = submitted_cb(submits, count, n)) != NULL;) {
    vk_cb *c = prepare_locked(cb);
    timed[n++] = c ? (uint32_t)(c - cbs) : UINT32_MAX;
  }
  pthread_mutex_unlock(&vk_mutex);
  uint64_t now = monotonic_ns();
  vk_result rc = f(queue, count, submits, fence);
  pthread_mutex_lock(&vk_mutex);
  for (uint32_t i = 0; i < n; ++i)
    if (timed[i] != UINT32_MAX && rc == VKABI_SUCCESS && cbs[timed[i]].live)
      track_locked(queue, fence, &cbs[timed[i]], &ref, now);
  collect_locked(COLLECT_PER_SUBMIT, 0);
  pthread_mutex_unlock(&vk_mutex);
  return rc;
}

typedef vk_result (*handle_fn)(vk_handle);

TPUPROF_RT_API vk_result __tpuprof_wrap_vkQueueWaitIdle(vk_handle queue,
                                                        void *real) {
  vk_result rc = ((handle_fn)real)(queue);
  waited w = {queue, NULL, NULL, 0};
  if (rc == VKABI_SUCCESS)
    collect_finished(&w);
  return rc;
}

TPUPROF_RT_API vk_result __tpuprof_wrap_vkDeviceWaitIdle(vk_handle device,
                                                         void *real) {
  vk_result rc = ((handle_fn)real)(device);
  waited w = {NULL, device, NULL, 0};
  if (rc == VKABI_SUCCESS)
    collect_finished(&w);
  return rc;
}

typedef vk_result (*wait_fences_fn)(vk_handle, uint32_t, const vk_handle *,
                                    uint32_t, uint64_t);

TPUPROF_RT_API vk_result __tpuprof_wrap_vkWaitForFences(
    vk_handle device, uint32_t count, const vk_handle *fences, uint32_t all,
    uint64_t timeout, void *real) {
  vk_result rc = ((wait_fences_fn)real)(device, count, fences, all, timeout);
  // With `all` false only one of them is known to have signalled.
  waited w = {NULL, NULL, fences, all || count == 1 ? count : 0};
  if (rc == VKABI_SUCCESS)
    collect_finished(&w);
  return rc;
}

typedef vk_result (*fence_status_fn)(vk_handle, vk_handle);

TPUPROF_RT_API vk_result __tpuprof_wrap_vkGetFenceStatus(vk_handle device,
                                                         vk_handle fence,
                                                         void *real) {
  vk_result rc = ((fence_status_fn)real)(device, fence);
  waited w = {NULL, NULL, &fence, 1};
  if (rc == VKABI_SUCCESS)
    collect_finished(&w);
  return rc;
}
