/*===- runtime/device_opencl.c - OpenCL device intervals ----------*- C -*-===*\
|*                                                                            *|
|* The OpenCL backend (docs/device.md). The LLVM pass redirects the program's *|
|* calls of the functions in format.h's TPUPROF_DEVICE_WRAPPED here, each    *|
|* with the real function as its last argument. Queue creation adds          *|
|* CL_QUEUE_PROFILING_ENABLE; each enqueue inside a window gets an event     *|
|* (the program's own, retained, or one it never sees), kept in a FIFO with *|
|* the launch record it belongs to. Finished events are collected without    *|
|* blocking: a few at each later enqueue, all at clFinish / clWaitForEvents, *|
|* and at the window's close, which alone may wait (bounded) for the rest.   *|
|*                                                                            *|
|* The few other OpenCL functions it needs come from libOpenCL.so.1 by       *|
|* dlopen on the first wrapped call: the runtime links no OpenCL, and a      *|
|* program that never calls OpenCL never loads it. The types and constants   *|
|* are OpenCL's documented ABI (cl.h), spelled here so that building the     *|
|* runtime needs no OpenCL headers.                                          *|
|*                                                                            *|
|* The FIFO's mutex is a leaf but for device.c's, which it may take inside.  *|
\*===----------------------------------------------------------------------===*/

#include "rt_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*===-- OpenCL's ABI -----------------------------------------------------===*/

typedef int32_t cl_int;
typedef uint32_t cl_uint;
typedef uint64_t cl_ulong;
typedef uint64_t cl_properties;
typedef void *cl_handle; // cl_command_queue, cl_kernel, cl_event, ...

enum {
  CL_SUCCESS = 0,
  CL_COMPLETE = 0,
  CL_PLATFORM_NAME = 0x0902,
  CL_DEVICE_NAME = 0x102B,
  CL_DEVICE_PLATFORM = 0x1031,
  CL_QUEUE_DEVICE = 0x1091,
  CL_QUEUE_PROPERTIES = 0x1093,
  CL_KERNEL_FUNCTION_NAME = 0x1190,
  CL_EVENT_COMMAND_EXECUTION_STATUS = 0x11D3,
  CL_PROFILING_COMMAND_QUEUED = 0x1280,
  CL_PROFILING_COMMAND_SUBMIT = 0x1281,
  CL_PROFILING_COMMAND_START = 0x1282,
  CL_PROFILING_COMMAND_END = 0x1283,
};
#define CL_QUEUE_PROFILING_ENABLE ((cl_properties)1 << 1)

typedef cl_int (*get_info_fn)(cl_handle, cl_uint, size_t, void *, size_t *);
typedef cl_int (*handle_fn)(cl_handle);
typedef cl_int (*wait_fn)(cl_uint, const cl_handle *);

typedef struct cl_api {
  get_info_fn event_profiling, event_info, kernel_info, queue_info, device_info,
      platform_info;
  handle_fn retain_event, release_event, flush;
} cl_api;

static cl_api cl;

static const tpuprof_rt_symbol cl_symbols[] = {
    TPUPROF_RT_SYMBOL(cl_api, event_profiling, clGetEventProfilingInfo),
    TPUPROF_RT_SYMBOL(cl_api, event_info, clGetEventInfo),
    TPUPROF_RT_SYMBOL(cl_api, kernel_info, clGetKernelInfo),
    TPUPROF_RT_SYMBOL(cl_api, queue_info, clGetCommandQueueInfo),
    TPUPROF_RT_SYMBOL(cl_api, device_info, clGetDeviceInfo),
    TPUPROF_RT_SYMBOL(cl_api, platform_info, clGetPlatformInfo),
    TPUPROF_RT_SYMBOL(cl_api, retain_event, clRetainEvent),
    TPUPROF_RT_SYMBOL(cl_api, release_event, clReleaseEvent),
    TPUPROF_RT_SYMBOL(cl_api, flush, clFlush),
};

/// 1 loaded, -1 unusable (said once), 0 not tried. Set under the mutex.
static int cl_state;

static pthread_mutex_t cl_mutex = PTHREAD_MUTEX_INITIALIZER;

/// Loads what the backend calls. Mutex held.
static int load_locked(void) {
  if (cl_state)
    return cl_state > 0;
  int ok = __tpuprof_rt_device_resolve(
      __tpuprof_rt_device_dlopen("libOpenCL.so.1"), cl_symbols,
      sizeof(cl_symbols) / sizeof(cl_symbols[0]), &cl);
  if (!ok)
    fprintf(stderr, "tpuprof: no OpenCL device timing: cannot load "
                    "libOpenCL.so.1\n");
  // Release: a wrapper that sees 1 without the mutex sees `cl` filled.
  __atomic_store_n(&cl_state, ok ? 1 : -1, __ATOMIC_RELEASE);
  return ok;
}

/*===-- Queues -----------------------------------------------------------===*/

/// A queue as this backend knows it: device.c's index, or none when the
/// queue was created without profiling (by code the pass did not see).
typedef struct cl_queue {
  cl_handle handle;
  uint32_t index; ///< UINT32_MAX: no profiling, not timed.
} cl_queue;

static cl_queue *queues;
static uint32_t num_queues, queues_capacity;

/// The queue's index, registering it on first use. Mutex held.
static uint32_t queue_locked(cl_handle q) {
  for (uint32_t i = num_queues; i-- > 0;)
    if (queues[i].handle == q)
      return queues[i].index;
  cl_properties props = 0;
  cl_handle device = NULL, platform = NULL;
  char device_name[128] = "", platform_name[128] = "";
  (void)cl.queue_info(q, CL_QUEUE_PROPERTIES, sizeof(props), &props, NULL);
  (void)cl.queue_info(q, CL_QUEUE_DEVICE, sizeof(device), &device, NULL);
  if (device) {
    (void)cl.device_info(device, CL_DEVICE_NAME, sizeof(device_name) - 1,
                         device_name, NULL);
    (void)cl.device_info(device, CL_DEVICE_PLATFORM, sizeof(platform),
                         &platform, NULL);
  }
  if (platform)
    (void)cl.platform_info(platform, CL_PLATFORM_NAME,
                           sizeof(platform_name) - 1, platform_name, NULL);
  uint32_t index = UINT32_MAX;
  if (!(props & CL_QUEUE_PROFILING_ENABLE)) {
    fprintf(stderr,
            "tpuprof: OpenCL queue on '%s' has no profiling (created where "
            "tpuprof's pass did not see it): its commands get no device "
            "time\n",
            device_name);
  } else {
    // PoCL times commands in CLOCK_MONOTONIC_RAW and has no
    // clGetDeviceAndHostTimer; other platforms are taken to do the same
    // (docs/device.md, "Clocks").
    char label[300];
    snprintf(label, sizeof(label), "%s, %s", device_name, platform_name);
    index =
        __tpuprof_rt_device_queue(TPUPROF_DEVICE_API_OPENCL, q,
                                  TPUPROF_DEVICE_CLOCK_MONOTONIC_RAW, label);
  }
  cl_queue *grown = queues;
  if (num_queues == queues_capacity) {
    uint32_t cap = queues_capacity ? 2u * queues_capacity : 8u;
    grown = (cl_queue *)realloc(queues, cap * sizeof(cl_queue));
    if (grown) {
      queues = grown;
      queues_capacity = cap;
    }
  }
  if (grown) {
    queues[num_queues].handle = q;
    queues[num_queues].index = index;
    ++num_queues;
  }
  return index;
}

/*===-- Pending commands -------------------------------------------------===*/

typedef struct pending {
  cl_handle event;
  tpuprof_rt_launch_ref ref;
  uint64_t bytes;
  cl_handle queue;
  uint32_t queue_index;
  uint32_t name;
  uint32_t op;
} pending;

/// A FIFO ring of commands whose events are not collected yet.
#define MAX_PENDING (1u << 16)
static pending *ring;
static uint32_t ring_capacity, ring_head, ring_count;

/// Reads a finished event into an interval, releases it and tells
/// device.c. Mutex held.
static void finish_locked(const pending *p) {
  cl_ulong t[4] = {0, 0, 0, 0};
  int ok = 1;
  for (cl_uint i = 0; i < 4; ++i)
    ok &= cl.event_profiling(p->event, CL_PROFILING_COMMAND_QUEUED + i,
                             sizeof(t[i]), &t[i], NULL) == CL_SUCCESS;
  (void)cl.release_event(p->event);
  if (!ok || p->queue_index == UINT32_MAX) {
    __tpuprof_rt_device_drop(1);
    return;
  }
  tpuprof_rt_device_interval iv;
  iv.queued = t[0];
  iv.submitted = t[1];
  iv.start = t[2];
  iv.end = t[3];
  iv.bytes = p->bytes;
  iv.queue = p->queue_index;
  iv.name = p->name;
  iv.op = p->op;
  iv.ref = p->ref;
  __tpuprof_rt_device_add(&iv);
}

/// Status of a pending command: 1 finished (or failed: nothing to wait
/// for), 0 not yet.
static int done(const pending *p) {
  cl_int status = 1;
  if (cl.event_info(p->event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status),
                    &status, NULL) != CL_SUCCESS)
    return 1;
  return status <= CL_COMPLETE;
}

/// Collects finished commands from the front of the FIFO, at most `max`
/// (0: all the finished ones, wherever they are). Mutex held.
static void collect_locked(uint32_t max) {
  if (max) {
    for (uint32_t n = 0; n < max && ring_count && done(&ring[ring_head]); ++n) {
      finish_locked(&ring[ring_head]);
      ring_head = (ring_head + 1u) % ring_capacity;
      --ring_count;
    }
    return;
  }
  // Every finished one, keeping the others in order.
  uint32_t kept = 0;
  for (uint32_t i = 0; i < ring_count; ++i) {
    pending *p = &ring[(ring_head + i) % ring_capacity];
    if (done(p))
      finish_locked(p);
    else
      ring[(ring_head + kept++) % ring_capacity] = *p;
  }
  ring_count = kept;
}

static void close_collect(uint64_t wait_ns);
static const tpuprof_rt_device_backend backend = {close_collect};

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/// The window's close: everything finished; then, for what is not, flushes
/// its queues and waits up to `wait_ns` before giving up on it.
static void close_collect(uint64_t wait_ns) {
  pthread_mutex_lock(&cl_mutex);
  if (__atomic_load_n(&cl_state, __ATOMIC_ACQUIRE) > 0) {
    collect_locked(0);
    for (uint32_t i = 0; i < ring_count; ++i) {
      cl_handle q = ring[(ring_head + i) % ring_capacity].queue;
      if (i == 0 || q != ring[(ring_head + i - 1u) % ring_capacity].queue)
        (void)cl.flush(q);
    }
    uint64_t deadline = now_ns() + wait_ns;
    while (ring_count && now_ns() < deadline) {
      pthread_mutex_unlock(&cl_mutex);
      struct timespec pause = {0, 200000};
      nanosleep(&pause, NULL);
      pthread_mutex_lock(&cl_mutex);
      collect_locked(0);
    }
    if (ring_count) {
      fprintf(stderr,
              "tpuprof: %u OpenCL commands had not finished when the window "
              "closed: they get no device time\n",
              ring_count);
      for (uint32_t i = 0; i < ring_count; ++i)
        (void)cl.release_event(ring[(ring_head + i) % ring_capacity].event);
      __tpuprof_rt_device_drop(ring_count);
      ring_count = 0;
    }
  }
  pthread_mutex_unlock(&cl_mutex);
}

/// Commands collected at each enqueue, from the FIFO's front: enough to
/// keep up with a queue that finishes a command per enqueue.
#define COLLECT_PER_ENQUEUE 4u

/// Adds the command `event` enqueued (`owned`: the event is ours) to the
/// FIFO and collects a few finished ones. Never blocks on the device.
static void track(cl_handle queue, cl_handle event, int owned, uint32_t op,
                  const char *name, uint64_t bytes,
                  const tpuprof_rt_launch_ref *ref) {
  pthread_mutex_lock(&cl_mutex);
  uint32_t index = queue_locked(queue);
  if (index == UINT32_MAX) {
    if (owned)
      (void)cl.release_event(event);
    pthread_mutex_unlock(&cl_mutex);
    return;
  }
  if (ring_count == ring_capacity) {
    uint32_t cap = ring_capacity ? 2u * ring_capacity : 256u;
    pending *grown =
        cap <= MAX_PENDING ? (pending *)malloc(cap * sizeof(pending)) : NULL;
    if (!grown) {
      if (owned)
        (void)cl.release_event(event);
      pthread_mutex_unlock(&cl_mutex);
      __tpuprof_rt_device_drop(1);
      return;
    }
    for (uint32_t i = 0; i < ring_count; ++i)
      grown[i] = ring[(ring_head + i) % ring_capacity];
    free(ring);
    ring = grown;
    ring_capacity = cap;
    ring_head = 0;
  }
  if (!owned)
    (void)cl.retain_event(event);
  pending *p = &ring[(ring_head + ring_count) % ring_capacity];
  p->event = event;
  p->ref = *ref;
  p->bytes = bytes;
  p->queue = queue;
  p->queue_index = index;
  p->name = __tpuprof_rt_device_name(name);
  p->op = op;
  ++ring_count;
  collect_locked(COLLECT_PER_ENQUEUE);
  pthread_mutex_unlock(&cl_mutex);
}

/// Whether a command enqueued now is timed: a window is open, device
/// timing is on and the backend is loaded. Fills `ref`.
static int timed(tpuprof_rt_launch_ref *ref) {
  if (!__tpuprof_rt_device_timing || !__tpuprof_rt_device_launch_ref(ref))
    return 0;
  if (__atomic_load_n(&cl_state, __ATOMIC_ACQUIRE) > 0)
    return 1;
  pthread_mutex_lock(&cl_mutex);
  int ok = load_locked();
  pthread_mutex_unlock(&cl_mutex);
  if (ok)
    __tpuprof_rt_device_register(&backend);
  return ok;
}

/*===-- The wrappers (format.h, TPUPROF_DEVICE_WRAPPED) ------------------===*/

typedef cl_handle (*create_queue_fn)(cl_handle, cl_handle, cl_properties,
                                     cl_int *);
typedef cl_handle (*create_queue_props_fn)(cl_handle, cl_handle,
                                           const cl_properties *, cl_int *);

TPUPROF_RT_API cl_handle __tpuprof_wrap_clCreateCommandQueue(
    cl_handle context, cl_handle device, cl_properties props, cl_int *err,
    void *real) {
  if (__tpuprof_rt_device_timing)
    props |= CL_QUEUE_PROFILING_ENABLE;
  return ((create_queue_fn)real)(context, device, props, err);
}

/// Longest property list copied to add profiling; longer ones are passed
/// as they are.
#define MAX_QUEUE_PROPS 64u

TPUPROF_RT_API cl_handle __tpuprof_wrap_clCreateCommandQueueWithProperties(
    cl_handle context, cl_handle device, const cl_properties *props,
    cl_int *err, void *real) {
  create_queue_props_fn f = (create_queue_props_fn)real;
  if (!__tpuprof_rt_device_timing)
    return f(context, device, props, err);
  cl_properties mine[MAX_QUEUE_PROPS + 3];
  uint32_t n = 0;
  int found = 0;
  // Key-value pairs ending with 0.
  for (; props && props[n] && n + 2u <= MAX_QUEUE_PROPS; n += 2u) {
    mine[n] = props[n];
    mine[n + 1] = props[n + 1];
    if (props[n] == CL_QUEUE_PROPERTIES) {
      mine[n + 1] |= CL_QUEUE_PROFILING_ENABLE;
      found = 1;
    }
  }
  if (props && props[n])
    return f(context, device, props, err); // Too long to copy.
  if (!found) {
    mine[n++] = CL_QUEUE_PROPERTIES;
    mine[n++] = CL_QUEUE_PROFILING_ENABLE;
  }
  mine[n] = 0;
  return f(context, device, mine, err);
}

typedef cl_int (*ndrange_fn)(cl_handle, cl_handle, cl_uint, const size_t *,
                             const size_t *, const size_t *, cl_uint,
                             const cl_handle *, cl_handle *);

TPUPROF_RT_API cl_int __tpuprof_wrap_clEnqueueNDRangeKernel(
    cl_handle queue, cl_handle kernel, cl_uint dims, const size_t *offset,
    const size_t *global, const size_t *local, cl_uint num_wait,
    const cl_handle *wait, cl_handle *event, void *real) {
  ndrange_fn f = (ndrange_fn)real;
  tpuprof_rt_launch_ref ref;
  if (!timed(&ref))
    return f(queue, kernel, dims, offset, global, local, num_wait, wait, event);
  cl_handle mine = NULL;
  cl_int rc = f(queue, kernel, dims, offset, global, local, num_wait, wait,
                event ? event : &mine);
  cl_handle ev = event ? *event : mine;
  if (rc == CL_SUCCESS && ev) {
    char name[256] = "";
    (void)cl.kernel_info(kernel, CL_KERNEL_FUNCTION_NAME, sizeof(name) - 1,
                         name, NULL);
    track(queue, ev, !event, TPUPROF_DEVICE_KERNEL, name, 0, &ref);
  }
  return rc;
}

typedef cl_int (*rw_fn)(cl_handle, cl_handle, cl_uint, size_t, size_t, void *,
                        cl_uint, const cl_handle *, cl_handle *);

/// clEnqueueReadBuffer and clEnqueueWriteBuffer share a signature (the
/// write's pointer is const).
static cl_int read_write(rw_fn f, uint32_t op, const char *name,
                         cl_handle queue, cl_handle buffer, cl_uint blocking,
                         size_t offset, size_t size, void *ptr,
                         cl_uint num_wait, const cl_handle *wait,
                         cl_handle *event) {
  tpuprof_rt_launch_ref ref;
  if (!timed(&ref))
    return f(queue, buffer, blocking, offset, size, ptr, num_wait, wait, event);
  cl_handle mine = NULL;
  cl_int rc = f(queue, buffer, blocking, offset, size, ptr, num_wait, wait,
                event ? event : &mine);
  cl_handle ev = event ? *event : mine;
  if (rc == CL_SUCCESS && ev)
    track(queue, ev, !event, op, name, size, &ref);
  return rc;
}

TPUPROF_RT_API cl_int __tpuprof_wrap_clEnqueueReadBuffer(
    cl_handle queue, cl_handle buffer, cl_uint blocking, size_t offset,
    size_t size, void *ptr, cl_uint num_wait, const cl_handle *wait,
    cl_handle *event, void *real) {
  return read_write((rw_fn)real, TPUPROF_DEVICE_READ, "read buffer", queue,
                    buffer, blocking, offset, size, ptr, num_wait, wait, event);
}

TPUPROF_RT_API cl_int __tpuprof_wrap_clEnqueueWriteBuffer(
    cl_handle queue, cl_handle buffer, cl_uint blocking, size_t offset,
    size_t size, const void *ptr, cl_uint num_wait, const cl_handle *wait,
    cl_handle *event, void *real) {
  return read_write((rw_fn)real, TPUPROF_DEVICE_WRITE, "write buffer", queue,
                    buffer, blocking, offset, size, (void *)ptr, num_wait, wait,
                    event);
}

typedef cl_int (*copy_fn)(cl_handle, cl_handle, cl_handle, size_t, size_t,
                          size_t, cl_uint, const cl_handle *, cl_handle *);

TPUPROF_RT_API cl_int __tpuprof_wrap_clEnqueueCopyBuffer(
    cl_handle queue, cl_handle src, cl_handle dst, size_t src_offset,
    size_t dst_offset, size_t size, cl_uint num_wait, const cl_handle *wait,
    cl_handle *event, void *real) {
  copy_fn f = (copy_fn)real;
  tpuprof_rt_launch_ref ref;
  if (!timed(&ref))
    return f(queue, src, dst, src_offset, dst_offset, size, num_wait, wait,
             event);
  cl_handle mine = NULL;
  cl_int rc = f(queue, src, dst, src_offset, dst_offset, size, num_wait, wait,
                event ? event : &mine);
  cl_handle ev = event ? *event : mine;
  if (rc == CL_SUCCESS && ev)
    track(queue, ev, !event, TPUPROF_DEVICE_COPY, "copy buffer", size, &ref);
  return rc;
}

/// After the program waited: what it waited for is finished, so collecting
/// it costs no wait.
static void collect_finished(void) {
  if (__atomic_load_n(&cl_state, __ATOMIC_ACQUIRE) <= 0)
    return;
  pthread_mutex_lock(&cl_mutex);
  if (ring_count)
    collect_locked(0);
  pthread_mutex_unlock(&cl_mutex);
}

TPUPROF_RT_API cl_int __tpuprof_wrap_clFinish(cl_handle queue, void *real) {
  cl_int rc = ((handle_fn)real)(queue);
  collect_finished();
  return rc;
}

TPUPROF_RT_API cl_int __tpuprof_wrap_clWaitForEvents(cl_uint n,
                                                     const cl_handle *events,
                                                     void *real) {
  cl_int rc = ((wait_fn)real)(n, events);
  collect_finished();
  return rc;
}
