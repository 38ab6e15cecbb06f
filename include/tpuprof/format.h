/*===- tpuprof/format.h - On-disk and in-module binary formats ----*- C -*-===*\
|*                                                                            *|
|* The byte layouts shared by the three parts of tpuprof:                     *|
|*   - the probe table a pass embeds in each instrumented module,             *|
|*   - the record stream the runtime writes per thread,                       *|
|*   - the dump file that carries both to the report tool.                    *|
|* Everything is little-endian and 8-byte aligned. docs/formats.md is the     *|
|* prose version of this file; keep the two in step.                          *|
|*                                                                            *|
|* Plain C so the runtime (libc only) and the C++ tools include the same file.*|
\*===----------------------------------------------------------------------===*/

#ifndef TPUPROF_FORMAT_H
#define TPUPROF_FORMAT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Compile-time size checks that work in C11 and C++11: the layouts below
/// are a contract, so their sizes are pinned (as LLVM XRay pins its records).
#ifdef __cplusplus
#define TPUPROF_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define TPUPROF_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

/*===-- The probe ABI: names and values the passes and the runtime share --===*/

/// Every runtime symbol starts with this; passes never instrument such a
/// function or call.
#define TPUPROF_SYMBOL_PREFIX "__tpuprof_"
/// `volatile uint32_t`, non-zero while a window is open (tested inline).
#define TPUPROF_SYMBOL_ENABLED "__tpuprof_enabled"
/// `void (const void *table, uint64_t size, uint32_t *first_probe)`.
#define TPUPROF_SYMBOL_REGISTER_MODULE "__tpuprof_register_module"
/// `void (uint32_t probe)`.
#define TPUPROF_SYMBOL_BEGIN "__tpuprof_begin"
/// `void (uint32_t probe, const int64_t *dims, uint32_t n)`.
#define TPUPROF_SYMBOL_BEGIN_DIMS "__tpuprof_begin_dims"
/// `void (uint32_t probe)`.
#define TPUPROF_SYMBOL_END "__tpuprof_end"

/// `volatile uint32_t`, non-zero while a window is open with memory
/// tracking on (TPUPROF_MEMORY=1, tpuprof_set_memory(1), or mode 2): wrapped
/// allocations test it inline, as probes test TPUPROF_SYMBOL_ENABLED.
#define TPUPROF_SYMBOL_MEMORY "__tpuprof_memory"
/// `void (const void *ptr, uint64_t size, uint32_t source)`: `ptr` (not
/// NULL) was just allocated with `size` bytes; source: tpuprof_memory_source.
#define TPUPROF_SYMBOL_ALLOC "__tpuprof_alloc"
/// `void (void *const *out, uint64_t size, uint32_t source, int64_t status)`:
/// an allocator that returns a status and stores the pointer in `*out`
/// (posix_memalign, cudaMalloc, hipMalloc) succeeded when `status` is 0.
#define TPUPROF_SYMBOL_ALLOC_OUT "__tpuprof_alloc_out"
/// `void (const void *old, const void *ptr, uint64_t size, uint32_t source)`:
/// realloc(old, size) returned `ptr`.
#define TPUPROF_SYMBOL_REALLOC "__tpuprof_realloc"
/// `void (const void *ptr, uint32_t source)`: `ptr` is about to be freed.
#define TPUPROF_SYMBOL_FREE "__tpuprof_free"

/// Device timing (docs/device.md): the LLVM pass redirects each direct call
/// of an API function F in TPUPROF_DEVICE_WRAPPED to the runtime's
/// TPUPROF_SYMBOL_WRAP_PREFIX F, with F's arguments and then F itself (its
/// address) as one more argument; the wrapper calls F and records what the
/// call enqueued. X(function) for each, in one list for pass and runtime.
#define TPUPROF_SYMBOL_WRAP_PREFIX "__tpuprof_wrap_"
#define TPUPROF_DEVICE_WRAPPED(X)                                              \
  X(clCreateCommandQueue)                                                      \
  X(clCreateCommandQueueWithProperties)                                        \
  X(clEnqueueNDRangeKernel)                                                    \
  X(clEnqueueReadBuffer)                                                       \
  X(clEnqueueWriteBuffer)                                                      \
  X(clEnqueueCopyBuffer)                                                       \
  X(clFinish)                                                                  \
  X(clWaitForEvents)                                                           \
  X(vkCreateDevice)                                                            \
  X(vkDestroyDevice)                                                           \
  X(vkAllocateCommandBuffers)                                                  \
  X(vkFreeCommandBuffers)                                                      \
  X(vkDestroyCommandPool)                                                      \
  X(vkCreateComputePipelines)                                                  \
  X(vkCmdBindPipeline)                                                         \
  X(vkBeginCommandBuffer)                                                      \
  X(vkCmdDispatch)                                                             \
  X(vkCmdDispatchIndirect)                                                     \
  X(vkQueueSubmit)                                                             \
  X(vkQueueWaitIdle)                                                           \
  X(vkDeviceWaitIdle)                                                          \
  X(vkWaitForFences)                                                           \
  X(vkGetFenceStatus)                                                          \
  X(cudaLaunchKernel)                                                          \
  X(cudaMemcpy)                                                                \
  X(cudaMemcpyAsync)                                                           \
  X(cudaMemset)                                                                \
  X(cudaMemsetAsync)                                                           \
  X(hipLaunchKernel)

/// Probe ids from here up are never recorded: a module whose table the
/// runtime rejects gets this as its first id (and a pass may use it for
/// probes that run before their module registered), so such probes cost one
/// compare and never reach a dump.
#define TPUPROF_IGNORED_PROBE_BASE 0xFF000000u

/// Run-time profiling modes: what a window records (tpuprof_enable,
/// TPUPROF_MODE, tpuprof-run --mode, the dump header's `mode`), as on the
/// board tools. tpuprof_mode_records() says what each one adds; nothing
/// else in tpuprof interprets the number.
enum tpuprof_mode {
  TPUPROF_MODE_TIMING = 0,   ///< Begin/end ticks (and captured dims) only.
  TPUPROF_MODE_COUNTERS = 1, ///< + PMU counter deltas.
  TPUPROF_MODE_DETAILED = 2, ///< + the CPU word and memory records.
  TPUPROF_MODE_COUNT
};
/* The old spelling of the last mode. */
#define TPUPROF_MODE_MAX ((unsigned)TPUPROF_MODE_COUNT - 1u)
#define TPUPROF_MODE_DEFAULT TPUPROF_MODE_TIMING

/// What a window records beyond each probe pair's ticks and dims.
enum tpuprof_mode_record_flags {
  TPUPROF_RECORDS_COUNTERS = 1u << 0, ///< PMU counter words per pair.
  TPUPROF_RECORDS_CPU = 1u << 1,      ///< The CPU word per pair.
  TPUPROF_RECORDS_MEMORY = 1u << 2,   ///< Memory records, whatever
                                      ///< TPUPROF_MEMORY says.
};

/// Compile-time capture levels: what the code a pass emits for each probe
/// passes to the runtime (the passes' `capture` option, old spelling
/// `mode`). Independent of the run-time mode: a probe compiled with dims
/// records them in every mode.
enum tpuprof_capture {
  TPUPROF_CAPTURE_TIMES = 0,   ///< Probe id only.
  TPUPROF_CAPTURE_DIMS = 1,    ///< + the run-time value of each dynamic dim.
  TPUPROF_CAPTURE_DETAILS = 2, ///< Everything there is (today as DIMS).
  TPUPROF_CAPTURE_COUNT
};
#define TPUPROF_CAPTURE_DEFAULT TPUPROF_CAPTURE_DIMS

/*===-- Probe table (embedded in an instrumented module) -----------------===*/

#define TPUPROF_TABLE_MAGIC "TPPT"
#define TPUPROF_TABLE_VERSION 1u

/// What a probe wraps. Readers reject a kind >= TPUPROF_KIND_COUNT in a
/// table; tpuprof_kind_bucket() maps it (and "no probe") to one slot past
/// the kinds, for arrays indexed by kind.
enum tpuprof_probe_kind {
  TPUPROF_KIND_OP = 0,     ///< A graph-level op (MLIR pass).
  TPUPROF_KIND_LAUNCH = 1, ///< A kernel-launch call (LLVM pass).
  TPUPROF_KIND_USER = 2,   ///< A user range (C/C++ API).
  TPUPROF_KIND_COMM = 3,   ///< A communication call (the MPI library,
                           ///< libtpuprof_mpi: docs/mpi.md).
  TPUPROF_KIND_COUNT
};
/// Slots of an array indexed by tpuprof_kind_bucket(): every kind, then
/// "unknown" (a record whose probe id no module names).
#define TPUPROF_KIND_BUCKETS ((unsigned)TPUPROF_KIND_COUNT + 1u)
/// The "unknown" slot: a kind no table defines, or a record whose probe id
/// no module names.
#define TPUPROF_KIND_BUCKET_UNKNOWN ((uint32_t)TPUPROF_KIND_COUNT)

/// Table header; followed by `num_probes` descriptors, then the string table.
typedef struct tpuprof_table_header {
  char magic[4];        ///< "TPPT"
  uint32_t version;     ///< TPUPROF_TABLE_VERSION
  uint32_t num_probes;  ///< Descriptor count.
  uint32_t strtab_size; ///< Bytes of NUL-terminated strings after them.
  uint32_t module_name; ///< Offset of the module's name in the strtab.
  uint32_t reserved;    ///< Zero.
} tpuprof_table_header;

/// One probe. Strings are offsets into the table's string table.
typedef struct tpuprof_probe_desc {
  uint64_t hash;   ///< Stable op hash (docs/hash.md).
  uint64_t flops;  ///< Static FLOP estimate, 0 when unknown.
  uint64_t bytes;  ///< Static bytes moved (operands + results), 0 when unknown.
  uint32_t name;   ///< Op name, e.g. "tosa.matmul"; a kernel's source ops.
  uint32_t shapes; ///< Argument shapes, '?' for each dynamic dimension.
  uint32_t location;    ///< "file:line:col" or "" when unknown; a kernel
                        ///< fused from several ops lists each, joined by
                        ///< TPUPROF_LOCATION_SEPARATOR.
  uint32_t function;    ///< Enclosing function's symbol name.
  uint8_t kind;         ///< tpuprof_probe_kind
  uint8_t num_dyn_dims; ///< Dynamic dimensions captured at run time.
  uint8_t num_outs;     ///< Trailing entries of `shapes` that are the op's
                        ///< outputs (destination-style inits); 0 if none.
  uint8_t flags;        ///< tpuprof_probe_flags; 0 in tables from before.
  uint32_t out_shapes;  ///< String offset of the result shapes when flags
                        ///< has TPUPROF_PROBE_OUT_SHAPES, else zero.
} tpuprof_probe_desc;

/// Between the locations of a probe that has several (a kernel's source
/// ops): "a.mlir:3:5; a.mlir:4:5".
#define TPUPROF_LOCATION_SEPARATOR "; "

/// tpuprof_probe_desc::flags. Readers ignore bits they do not know, and
/// tables written before these fields have zeros there: no output shapes.
enum tpuprof_probe_flags {
  TPUPROF_PROBE_OUT_SHAPES = 1u << 0,     ///< `out_shapes` is a string offset.
  TPUPROF_PROBE_COLLECTIVE = 1u << 1,     ///< A communication probe that every
                                          ///< rank of its communicator calls
                                          ///< together (a collective, not a
                                          ///< point-to-point call).
  TPUPROF_PROBE_STARTS_REQUEST = 1u << 2, ///< A nonblocking communication
                                          ///< call: its transfer goes on
                                          ///< after it returns, until a
                                          ///< call that completes requests.
  TPUPROF_PROBE_COMPLETES_REQUESTS = 1u << 3, ///< Completes requests (a
                                              ///< wait); its first dynamic
                                              ///< dim is how many.
  TPUPROF_PROBE_NODE = 1u << 4, ///< The string after `location`'s NUL in
                                ///< the string table is the probe's node:
                                ///< the name part of its source location
                                ///< (an ONNX node, a layer), a kernel's
                                ///< several joined by
                                ///< TPUPROF_LOCATION_SEPARATOR.
};

/*===-- Records (per thread, inside a dump's THREAD section) -------------===*/

/// A probe pair as recorded: written at begin, `end` filled at end.
/// Followed by `num_dims` int64 dynamic dimensions (in the order of the '?'s
/// in the probe's shapes) and `num_counters` uint64 counter deltas.
typedef struct tpuprof_record {
  uint32_t probe;       ///< Global probe id (module's first id + local index).
  uint8_t num_dims;     ///< Trailing dimension words.
  uint8_t num_counters; ///< Trailing counter words.
  uint16_t depth;       ///< Open probes on this thread at begin (0 = top).
  uint64_t begin;       ///< Clock ticks at begin.
  uint64_t end;         ///< Clock ticks at end; 0 if the probe never ended.
} tpuprof_record;

/// Size of a record with its trailing words, in bytes.
#define TPUPROF_RECORD_BYTES(dims, counters)                                   \
  (sizeof(tpuprof_record) + 8u * ((uint64_t)(dims) + (uint64_t)(counters)))

/// Room for record kinds other than probe pairs: a record whose `probe` is
/// at or above this value is not a pair but a record of kind
/// `probe - TPUPROF_RECORD_KIND_BASE`, framed like every record (its length
/// is TPUPROF_RECORD_BYTES(num_dims, num_counters), so a reader can step
/// over it). Probe ids never reach it (they stop below
/// TPUPROF_IGNORED_PROBE_BASE). Dump version 5 defines kind 1, MEMORY;
/// readers reject kinds they do not know, and any kind in older dumps.
#define TPUPROF_RECORD_KIND_BASE 0xFFFF0000u

/// Record kinds: `probe - TPUPROF_RECORD_KIND_BASE` of a record that is not
/// a probe pair. Kind 0 is never written (it names the pairs themselves).
enum tpuprof_record_kind {
  TPUPROF_RECORD_KIND_PAIR = 0,   ///< A probe pair (probe below the base).
  TPUPROF_RECORD_KIND_MEMORY = 1, ///< tpuprof_memory_record (version 5).
  TPUPROF_RECORD_KIND_DEVICE = 2, ///< tpuprof_device_record, in the DEVICE
                                  ///< section only (version 6).
  TPUPROF_RECORD_KIND_COUNT
};
#define TPUPROF_RECORD_MEMORY                                                  \
  (TPUPROF_RECORD_KIND_BASE + (uint32_t)TPUPROF_RECORD_KIND_MEMORY)
#define TPUPROF_RECORD_DEVICE                                                  \
  (TPUPROF_RECORD_KIND_BASE + (uint32_t)TPUPROF_RECORD_KIND_DEVICE)

/// What a memory record says happened.
enum tpuprof_memory_event {
  TPUPROF_MEMORY_ALLOC = 1,  ///< `address` got `size` bytes.
  TPUPROF_MEMORY_FREE = 2,   ///< `address` was freed (size 0: the reader
                             ///< takes it from the allocation it matches).
  TPUPROF_MEMORY_EVENT_COUNT ///< One past the last (events start at 1).
};

/// Which allocator a memory record comes from.
enum tpuprof_memory_source {
  TPUPROF_SOURCE_HEAP = 0,   ///< malloc, calloc, realloc, posix_memalign,
                             ///< operator new / delete.
  TPUPROF_SOURCE_MEMREF = 1, ///< memref.alloc / dealloc (heap buffers of
                             ///< lowered MLIR).
  TPUPROF_SOURCE_STACK = 2,  ///< memref.alloca: no free event; the buffer
                             ///< lives until the probe around it ends.
  TPUPROF_SOURCE_DEVICE = 3, ///< cudaMalloc / cudaFree, hipMalloc / hipFree.
  TPUPROF_MEMORY_SOURCE_COUNT
};
#define TPUPROF_MEMORY_SOURCE_MAX ((unsigned)TPUPROF_MEMORY_SOURCE_COUNT - 1u)

/// A memory record (version 5): one allocation or free on the recording
/// thread, in the thread's stream among the probe pairs, in time order. It
/// is framed as a tpuprof_record with 2 trailing words and no counter words
/// (so its size is TPUPROF_RECORD_BYTES(2, 0) in every mode); `time` sits
/// where a pair has `begin` and is written last.
typedef struct tpuprof_memory_record {
  uint32_t kind;        ///< TPUPROF_RECORD_MEMORY
  uint8_t num_words;    ///< 2 (a pair's num_dims)
  uint8_t num_counters; ///< 0
  uint16_t depth;       ///< Open probes on this thread at the event.
  uint64_t time;        ///< Clock ticks of the event.
  uint32_t probe;       ///< Innermost open probe (global id) the event is
                        ///< attributed to; UINT32_MAX when none is open.
  uint8_t event;        ///< tpuprof_memory_event
  uint8_t source;       ///< tpuprof_memory_source
  uint16_t reserved;    ///< Zero.
  uint64_t address;     ///< The buffer's address.
  uint64_t size;        ///< Bytes allocated; 0 for a free.
} tpuprof_memory_record;

/*===-- Device intervals (DEVICE section, version 6) ---------------------===*/

/// What ran on a device.
enum tpuprof_device_op {
  TPUPROF_DEVICE_KERNEL = 0, ///< A kernel (clEnqueueNDRangeKernel, ...).
  TPUPROF_DEVICE_READ = 1,   ///< A device-to-host copy.
  TPUPROF_DEVICE_WRITE = 2,  ///< A host-to-device copy.
  TPUPROF_DEVICE_COPY = 3,   ///< A device-to-device copy.
  TPUPROF_DEVICE_FILL = 4,   ///< A device memory fill (cudaMemset).
  TPUPROF_DEVICE_OP_COUNT
};

/// The API a device queue belongs to.
enum tpuprof_device_api {
  TPUPROF_DEVICE_API_OPENCL = 0,
  TPUPROF_DEVICE_API_VULKAN = 1,
  TPUPROF_DEVICE_API_CUDA = 2,
  TPUPROF_DEVICE_API_COUNT
};

/// The clock a device's timestamps are read in, before the runtime converts
/// them to the dump's ticks.
enum tpuprof_device_clock_domain {
  TPUPROF_DEVICE_CLOCK_MONOTONIC_RAW = 0, ///< CLOCK_MONOTONIC_RAW ns (PoCL).
  TPUPROF_DEVICE_CLOCK_MONOTONIC = 1,     ///< CLOCK_MONOTONIC ns (lavapipe).
  TPUPROF_DEVICE_CLOCK_DEVICE = 2,        ///< A device counter in ns, read
                                          ///< through the API (CUPTI).
  TPUPROF_DEVICE_CLOCK_DOMAIN_COUNT
};

/// One device interval: a kernel or copy that ran on queue `queue` from
/// `start` to `end`, both in the dump's ticks (converted from the device
/// clock by its tpuprof_device_clock). Framed as a tpuprof_record of kind
/// TPUPROF_RECORD_DEVICE with 6 trailing words (TPUPROF_RECORD_BYTES(6, 0)).
/// The launch record is the pair of thread `launch_thread` whose probe is
/// `launch_probe` and whose begin is `launch_begin`: a thread's begins only
/// grow, so (thread, begin) names one record (its record id).
typedef struct tpuprof_device_record {
  uint32_t kind;          ///< TPUPROF_RECORD_DEVICE
  uint8_t num_words;      ///< 6 (a pair's num_dims)
  uint8_t num_counters;   ///< 0
  uint16_t op;            ///< tpuprof_device_op
  uint64_t start;         ///< Ticks: the command started on the device ...
  uint64_t end;           ///< ... and ended (start <= end).
  uint64_t queued;        ///< Ticks: the host enqueued it (queue delay is
                          ///< start - queued) ...
  uint64_t submitted;     ///< ... and the runtime submitted it to the device.
  uint32_t queue;         ///< Index into the section's queues.
  uint32_t name;          ///< Kernel name: offset into the section's names.
  uint32_t launch_thread; ///< SEGMENT `thread` of the launch record;
                          ///< UINT32_MAX when no launch probe was open.
  uint32_t launch_probe;  ///< Its global probe id.
  uint64_t launch_begin;  ///< Its begin ticks.
  uint64_t bytes;         ///< Bytes a copy moved; 0 for a kernel.
} tpuprof_device_record;

/// A device clock's conversion to ticks: two pairs (device ns, ticks), one
/// taken when the window opened (or when the backend first ran in it), one
/// when it closed; between them the conversion is linear:
///   ticks(d) = ticks0 + (d - device0) * (ticks1 - ticks0)
///                                     / (device1 - device0)
/// (one pair, or equal device readings: an offset at the host's rate).
/// `error_ns` bounds how far a converted time may be from the truth: the
/// longer of the two pairs' read intervals plus the two clocks' drift over
/// the window (docs/device.md, "Clocks").
typedef struct tpuprof_device_clock {
  uint32_t domain;   ///< tpuprof_device_clock_domain
  uint32_t reserved; ///< Zero.
  uint64_t device0;  ///< Device clock (ns) ...
  uint64_t ticks0;   ///< ... and ticks at the first pair.
  uint64_t device1;  ///< Same at the second pair.
  uint64_t ticks1;
  uint64_t error_ns; ///< Conversion error bound.
} tpuprof_device_clock;

/// One device queue (OpenCL command queue, Vulkan queue, CUDA stream).
typedef struct tpuprof_device_queue {
  uint32_t api;         ///< tpuprof_device_api
  uint32_t clock;       ///< Index into the section's clocks.
  uint32_t device_name; ///< Offset into the section's names.
  uint32_t number;      ///< The queue's number, from 0, in the order the
                        ///< process first used it (stable across windows).
} tpuprof_device_queue;

/// DEVICE section payload: this header, `num_clocks` tpuprof_device_clock,
/// `num_queues` tpuprof_device_queue, `num_records` tpuprof_device_record in
/// start order, then `names_size` bytes of NUL-terminated names (kernel and
/// device names). At most one per dump, written when the window closes.
typedef struct tpuprof_device_section {
  uint32_t num_clocks;
  uint32_t num_queues;
  uint64_t num_records;
  uint64_t names_size;
  uint64_t dropped; ///< Device intervals not kept: no profiling info,
                    ///< not finished when the window closed, no memory.
} tpuprof_device_section;

/*===-- Dump file --------------------------------------------------------===*/

#define TPUPROF_DUMP_MAGIC "TPUPROF\0"
/// Version 2 added the CALIBRATION section; version 3 lets it carry the
/// probes' own counts per counter word (tpuprof_calibration_counts);
/// version 4 stores records in SEGMENT sections, taken as threads fill them,
/// in file order (MODULE sections may follow them), with drops counted by
/// reason; version 5 defines the MEMORY record kind (tpuprof_memory_record);
/// version 6 the DEVICE section (device intervals, docs/device.md).
/// Readers accept versions 1 to 6 (version 1: no probe-overhead correction;
/// version 2: times only; versions 1-3: THREAD sections only; versions 1-4:
/// probe pairs only; versions 1-5: no DEVICE section).
#define TPUPROF_DUMP_VERSION 6u

/// Time source of every tick value in a dump.
enum tpuprof_clock_source {
  TPUPROF_CLOCK_TSC = 0,       ///< rdtsc, calibrated against CLOCK_MONOTONIC.
  TPUPROF_CLOCK_MONOTONIC = 1, ///< clock_gettime(CLOCK_MONOTONIC) in ns.
  /// aarch64's generic timer (cntvct_el0), calibrated like the TSC.
  TPUPROF_CLOCK_CNTVCT = 2,
  TPUPROF_CLOCK_SOURCE_COUNT
};

/// Header flags.
enum tpuprof_dump_flags {
  TPUPROF_DUMP_COMPLETE = 1u << 0, ///< Written to the end by a clean flush.
  TPUPROF_DUMP_MEMORY = 1u << 1,   ///< (v5) The window tracked memory for
                                   ///< at least part of its time: ops
                                   ///< without memory records allocated
                                   ///< nothing that was wrapped.
};

/// File header. Ticks convert to ns by the calibration pair:
///   ns(t) = calib_ns0 + (t - calib_ticks0) * (calib_ns1 - calib_ns0)
///                                          / (calib_ticks1 - calib_ticks0)
typedef struct tpuprof_dump_header {
  char magic[8];         ///< "TPUPROF\0"
  uint32_t version;      ///< TPUPROF_DUMP_VERSION
  uint32_t header_size;  ///< sizeof(tpuprof_dump_header)
  uint32_t mode;         ///< 0 timing, 1 +counters/shapes, 2 detailed.
  uint32_t device;       ///< TPUPROF_DEVICE
  uint32_t pid;          ///< Writing process.
  uint32_t call_num;     ///< N in tpuprof_data_dev{D}-{N}.
  uint32_t clock_source; ///< tpuprof_clock_source
  uint32_t flags;        ///< tpuprof_dump_flags
  uint64_t calib_ticks0; ///< Clock reading at runtime start ...
  uint64_t calib_ns0;    ///< ... and CLOCK_MONOTONIC (ns) at the same moment.
  uint64_t calib_ticks1; ///< Clock reading at window end ...
  uint64_t calib_ns1;    ///< ... and CLOCK_MONOTONIC (ns) at the same moment.
  uint64_t window_begin; ///< Ticks when the window was enabled.
  uint64_t window_end;   ///< Ticks when it was disabled.
  uint64_t dropped;      ///< Records dropped in all threads (buffer full,
                         ///< > 256 open probes, no buffer memory).
  uint32_t num_sections; ///< Sections that follow the header.
  uint32_t reserved;     ///< Zero.
} tpuprof_dump_header;

/// Section kinds.
enum tpuprof_section_kind {
  TPUPROF_SECTION_MODULE = 1,      ///< tpuprof_module_section + probe table.
  TPUPROF_SECTION_EVENTS = 2,      ///< tpuprof_events_section + names.
  TPUPROF_SECTION_THREAD = 3,      ///< tpuprof_thread_section + record stream.
  TPUPROF_SECTION_CALIBRATION = 4, ///< tpuprof_calibration_section (v2).
  TPUPROF_SECTION_SEGMENT = 5,     ///< tpuprof_segment_section + records (v4).
  TPUPROF_SECTION_PROCESS = 6,     ///< tpuprof_process_section (v6).
  TPUPROF_SECTION_DEVICE = 7,      ///< tpuprof_device_section + clocks,
                                   ///< queues, device records, names (v6).
  TPUPROF_SECTION_KIND_COUNT       ///< One past the last (kinds start at 1).
};

/// Every section starts with this; `size` counts the payload after it, which
/// is padded with zeros to a multiple of 8 bytes.
typedef struct tpuprof_section_header {
  uint32_t kind;     ///< tpuprof_section_kind
  uint32_t reserved; ///< Zero.
  uint64_t size;     ///< Payload bytes (a multiple of 8).
} tpuprof_section_header;

/// A registered module: its probes are ids [first_probe, first_probe + n).
typedef struct tpuprof_module_section {
  uint32_t module_id;   ///< Registration order, from 0.
  uint32_t first_probe; ///< Global id of its probe 0.
  uint64_t table_size;  ///< Bytes of the probe table that follows.
} tpuprof_module_section;

/// PMU event names (NUL-terminated, `count` of them) that follow.
typedef struct tpuprof_events_section {
  uint32_t count;    ///< Events; equals each record's num_counters.
  uint32_t reserved; ///< Zero.
} tpuprof_events_section;

/// Pseudo-events: names the runtime appends to the EVENTS section after the
/// PMU events. Their words sit in the same counter slots as the events':
///   TIME_ENABLED, TIME_RUNNING  deltas of the group's time_enabled and
///     time_running (ns) over the probe; present whenever any PMU event is.
///     A value was multiplexed when running < enabled; scale it by
///     enabled / running (running == 0: the event was never counted).
///   READ_TICKS  clock ticks this record's own probes spent reading the
///     group: the begin probe's read (before its clock read) plus the end
///     probe's (after its clock read). Outside the record's interval, inside
///     every enclosing one; a report subtracts it there (Calibration below).
///     Present whenever any PMU event is (runtimes from before it wrote
///     none). Not a PMU count.
///   CPU  (mode 2) the CPU the probe began on (low 32 bits) and ended on
///     (high 32 bits); 0xffffffff when unknown. Not a delta.
#define TPUPROF_EVENT_TIME_ENABLED "tpuprof::TIME_ENABLED"
#define TPUPROF_EVENT_TIME_RUNNING "tpuprof::TIME_RUNNING"
#define TPUPROF_EVENT_READ_TICKS "tpuprof::READ_TICKS"
#define TPUPROF_EVENT_CPU "tpuprof::CPU"

/// The runtime's own cost per probe pair, measured on the enabling thread
/// when the window opened, in the window's mode (docs/formats.md,
/// "Calibration"). At most one per dump, before the THREAD sections; absent
/// when calibration was off (TPUPROF_CALIBRATE=0) or could not run. Both
/// values are clock ticks, like the records; a report subtracts
///   self_ticks + the sum over the records nested inside it of
///     nested_ticks                                 (no READ_TICKS), or
///     nested_ticks - read_ticks + its READ_TICKS   (the nested record has
///                                                   one and read_ticks > 0)
/// from each record's end - begin (clamped at 0). The second form replaces
/// the calibrated mean cost of the counter reads, the bulk of a nested pair
/// in modes 1/2 and the part that varies with the machine's state, by what
/// each nested record measured itself.
typedef struct tpuprof_calibration_section {
  uint64_t self_ticks;   ///< Mean end - begin of an empty probe pair: the
                         ///< runtime's part of every record's own interval.
  uint64_t nested_ticks; ///< Mean time one empty nested probe pair adds
                         ///< to the interval of the record enclosing it.
  uint32_t pairs;        ///< Empty probe pairs measured.
  uint32_t read_ticks;   ///< Mean READ_TICKS of the measured pairs (part of
                         ///< nested_ticks); 0 without counters, and in dumps
                         ///< of runtimes from before READ_TICKS.
} tpuprof_calibration_section;

/// Version 3: when the EVENTS section names any counter words, the
/// CALIBRATION payload goes on with one of these per word, in the EVENTS
/// order: what the probes themselves add to each PMU event (both 0 for the
/// pseudo-events, and where the calibration could not tell, e.g. its group
/// was multiplexed). A report subtracts, from each finished record's value
/// of a PMU event,
///   self + (records nested inside it) * nested        (clamped at 0)
/// except for the task clock, which is a time: there the nested part is the
/// time the duration correction takes off, so the two stay in step.
typedef struct tpuprof_calibration_counts {
  uint64_t self;   ///< Mean delta of an empty probe pair's own record.
  uint64_t nested; ///< Mean delta one empty nested pair adds to the
                   ///< record enclosing it.
} tpuprof_calibration_counts;

/// Versions 1-3: one thread's records: `stream_size` bytes of
/// tpuprof_record follow. (Version 4 writers use SEGMENT sections.)
typedef struct tpuprof_thread_section {
  uint64_t tid;         ///< OS thread id.
  uint64_t dropped;     ///< Records this thread dropped (buffer full or
                        ///< > 256 open probes); their ends wrote nothing.
  uint64_t num_records; ///< Records in the stream.
  uint64_t stream_size; ///< Bytes in the stream.
} tpuprof_thread_section;

/// Version 4: one slice of one thread's record stream, followed by
/// `stream_size` bytes of records and then unused capacity (zeros) up to
/// the section's end. A thread takes a segment when it has filled the one
/// before, so memory and file grow with the records kept; its records are
/// the streams of its segments (same `thread`) in ascending `seq`. Every
/// count below covers what happened on the thread while this segment was
/// the one it recorded into; a thread's totals are the sums.
typedef struct tpuprof_segment_section {
  uint64_t tid;          ///< OS thread id.
  uint32_t thread;       ///< The thread's number in this dump, from 0, in the
                         ///< order threads took their first segment.
  uint32_t seq;          ///< Position in the thread's stream; ascending, with
                         ///< gaps where a ring reused a segment.
  uint64_t stream_size;  ///< Bytes of records; 0 while the segment is being
                         ///< filled (an incomplete dump: scan the records).
  uint64_t dropped_full; ///< Begins not recorded: the thread's record
                         ///< limit (TPUPROF_RECORD_SIZE) was reached.
  uint64_t dropped_overwritten; ///< Records a ring (TPUPROF_BUFFER=ring)
                                ///< reused this segment over.
  uint64_t dropped_depth;       ///< Begins not recorded: more than 256
                                ///< probes were open.
  uint64_t dropped_no_space;    ///< Begins not recorded: no room for a new
                                ///< segment (the file system is full, a file
                                ///< size limit or quota, no memory).
  uint64_t unwound;             ///< Probes closed by a non-local exit
                                ///< (longjmp, exception, thread exit):
                                ///< records kept with end = 0.
} tpuprof_segment_section;

/*===-- Who wrote a dump: the PROCESS section ----------------------------===*/

/// Where a dump's rank came from (the launcher's environment variables,
/// docs/environment.md); TPUPROF_RANK_NONE for a single process.
enum tpuprof_rank_source {
  TPUPROF_RANK_NONE = 0,     ///< No launcher: a single process.
  TPUPROF_RANK_OVERRIDE = 1, ///< TPUPROF_RANK.
  TPUPROF_RANK_OPENMPI = 2,  ///< OMPI_COMM_WORLD_RANK/SIZE/LOCAL_RANK.
  TPUPROF_RANK_PMI = 3,      ///< PMI_RANK/PMI_SIZE (MPICH, Intel MPI).
  TPUPROF_RANK_TORCHRUN = 4, ///< RANK/WORLD_SIZE/LOCAL_RANK (torchrun).
  TPUPROF_RANK_SLURM = 5,    ///< SLURM_PROCID/SLURM_NTASKS/SLURM_LOCALID.
  TPUPROF_RANK_SOURCE_COUNT
};

/// A field of tpuprof_process_section that is not known.
#define TPUPROF_RANK_UNKNOWN 0xFFFFFFFFu

/// One measurement of this process's clock against the job's reference (rank
/// 0's CLOCK_MONOTONIC), taken by a ping-pong (libtpuprof_mpi at MPI_Init
/// and MPI_Finalize): reference ns = this process's monotonic ns + offset_ns
/// at the moment `at_ns`, to within error_ns.
typedef struct tpuprof_clock_offset {
  int64_t offset_ns; ///< Reference minus this process's CLOCK_MONOTONIC.
  uint64_t at_ns;    ///< This process's CLOCK_MONOTONIC at the measurement;
                     ///< 0: not measured.
  uint64_t error_ns; ///< Bound on the error: half the best round trip.
} tpuprof_clock_offset;

/// Which measurement a slot of tpuprof_process_section::offsets holds.
enum tpuprof_clock_offset_slot {
  TPUPROF_OFFSET_INIT = 0,     ///< At MPI_Init.
  TPUPROF_OFFSET_FINALIZE = 1, ///< At MPI_Finalize.
  TPUPROF_OFFSET_SLOT_COUNT
};

/// The writing process's identity and clocks: at most one per dump, after
/// the CALIBRATION section. Strings are NUL-terminated and zero-padded.
/// (realtime_ns, monotonic_ns) pairs are read back to back: on one host
/// every process shares CLOCK_MONOTONIC; across hosts the difference of
/// realtime - monotonic gives an offset as good as the hosts' time sync,
/// and the ping-pong offsets (when present) a bounded one.
typedef struct tpuprof_process_section {
  uint32_t rank;          ///< Rank in the job; TPUPROF_RANK_UNKNOWN if none.
  uint32_t world_size;    ///< Ranks in the job; 0 when unknown.
  uint32_t local_rank;    ///< Rank on this host; TPUPROF_RANK_UNKNOWN if none.
  uint32_t rank_source;   ///< tpuprof_rank_source
  char host[64];          ///< gethostname(), truncated.
  char job_id[64];        ///< The launcher's job id, "" when none.
  uint64_t realtime_ns0;  ///< CLOCK_REALTIME (ns) when the window began ...
  uint64_t monotonic_ns0; ///< ... and CLOCK_MONOTONIC at the same moment.
  uint64_t realtime_ns1;  ///< CLOCK_REALTIME when it ended (0 until then) ...
  uint64_t monotonic_ns1; ///< ... and CLOCK_MONOTONIC at the same moment.
  tpuprof_clock_offset offsets[TPUPROF_OFFSET_SLOT_COUNT];
} tpuprof_process_section;

/*===-- Names and meanings of the enums above ----------------------------===*/
/* One table per enum, sized by its count and checked by the compiler, so a
   new member without a name does not build. Every tool prints and parses
   these spellings through the functions below. */

#define TPUPROF_NAME_TABLE(type, fn, count, base, ...)                         \
  static inline const char *fn(uint32_t value) {                               \
    static const char *const names[] = {__VA_ARGS__};                          \
    TPUPROF_STATIC_ASSERT(sizeof(names) / sizeof(names[0]) ==                  \
                              (unsigned)(count) - (base),                      \
                          "a name for every " #type);                          \
    /* One compare: below `base` wraps to a large index. */                    \
    return value - (base) < (unsigned)(count) - (base) ? names[value - (base)] \
                                                       : "unknown";            \
  }

/// "op", "launch", "user", "comm"; "unknown" for anything else.
TPUPROF_NAME_TABLE(tpuprof_probe_kind, tpuprof_probe_kind_name,
                   TPUPROF_KIND_COUNT, 0u, "op", "launch", "user", "comm")
/// "timing", "counters", "detailed".
TPUPROF_NAME_TABLE(tpuprof_mode, tpuprof_mode_name, TPUPROF_MODE_COUNT, 0u,
                   "timing", "counters", "detailed")
/// "times", "dims", "details".
TPUPROF_NAME_TABLE(tpuprof_capture, tpuprof_capture_name, TPUPROF_CAPTURE_COUNT,
                   0u, "times", "dims", "details")
/// "pair", "memory", "device".
TPUPROF_NAME_TABLE(tpuprof_record_kind, tpuprof_record_kind_name,
                   TPUPROF_RECORD_KIND_COUNT, 0u, "pair", "memory", "device")
/// "alloc", "free".
TPUPROF_NAME_TABLE(tpuprof_memory_event, tpuprof_memory_event_name,
                   TPUPROF_MEMORY_EVENT_COUNT, 1u, "alloc", "free")
/// "heap", "memref", "stack", "device".
TPUPROF_NAME_TABLE(tpuprof_memory_source, tpuprof_memory_source_name,
                   TPUPROF_MEMORY_SOURCE_COUNT, 0u, "heap", "memref", "stack",
                   "device")
/// "tsc", "monotonic", "cntvct".
TPUPROF_NAME_TABLE(tpuprof_clock_source, tpuprof_clock_source_name,
                   TPUPROF_CLOCK_SOURCE_COUNT, 0u, "tsc", "monotonic", "cntvct")
/// "module", "events", "thread", "calibration", "segment", "process",
/// "device".
TPUPROF_NAME_TABLE(tpuprof_section_kind, tpuprof_section_kind_name,
                   TPUPROF_SECTION_KIND_COUNT, 1u, "module", "events", "thread",
                   "calibration", "segment", "process", "device")
/// "none", "TPUPROF_RANK", "openmpi", "pmi", "torchrun", "slurm".
TPUPROF_NAME_TABLE(tpuprof_rank_source, tpuprof_rank_source_name,
                   TPUPROF_RANK_SOURCE_COUNT, 0u, "none", "TPUPROF_RANK",
                   "openmpi", "pmi", "torchrun", "slurm")
/// "kernel", "read", "write", "copy", "fill".
TPUPROF_NAME_TABLE(tpuprof_device_op, tpuprof_device_op_name,
                   TPUPROF_DEVICE_OP_COUNT, 0u, "kernel", "read", "write",
                   "copy", "fill")
/// "opencl", "vulkan", "cuda".
TPUPROF_NAME_TABLE(tpuprof_device_api, tpuprof_device_api_name,
                   TPUPROF_DEVICE_API_COUNT, 0u, "opencl", "vulkan", "cuda")
/// "monotonic_raw", "monotonic", "device".
TPUPROF_NAME_TABLE(tpuprof_device_clock_domain, tpuprof_device_clock_name,
                   TPUPROF_DEVICE_CLOCK_DOMAIN_COUNT, 0u, "monotonic_raw",
                   "monotonic", "device")
#undef TPUPROF_NAME_TABLE

/// The slot of an array of TPUPROF_KIND_BUCKETS for a probe of `kind`:
/// the kind itself, or TPUPROF_KIND_BUCKET_UNKNOWN for a kind no table
/// defines (and, by the caller, for a record whose probe is unknown).
static inline uint32_t tpuprof_kind_bucket(uint32_t kind) {
  return kind < (uint32_t)TPUPROF_KIND_COUNT ? kind
                                             : TPUPROF_KIND_BUCKET_UNKNOWN;
}

/// What a window in run-time `mode` records beyond ticks and dims
/// (tpuprof_mode_record_flags); 0 for a mode that does not exist.
static inline uint32_t tpuprof_mode_records(uint32_t mode) {
  static const uint32_t records[] = {
      0u,                       /* TIMING */
      TPUPROF_RECORDS_COUNTERS, /* COUNTERS */
      TPUPROF_RECORDS_COUNTERS | TPUPROF_RECORDS_CPU |
          TPUPROF_RECORDS_MEMORY, /* DETAILED */
  };
  TPUPROF_STATIC_ASSERT(sizeof(records) / sizeof(records[0]) ==
                            (unsigned)TPUPROF_MODE_COUNT,
                        "what every mode records");
  return mode < (uint32_t)TPUPROF_MODE_COUNT ? records[mode] : 0u;
}

/// Whether probes compiled at capture level `capture` pass their dynamic
/// dimensions to the runtime.
static inline int tpuprof_capture_has_dims(uint32_t capture) {
  return capture >= (uint32_t)TPUPROF_CAPTURE_DIMS;
}

/*===-- Pinned sizes -----------------------------------------------------===*/

TPUPROF_STATIC_ASSERT(sizeof(tpuprof_table_header) == 24, "table header");
TPUPROF_STATIC_ASSERT(sizeof(tpuprof_probe_desc) == 48, "probe descriptor");
TPUPROF_STATIC_ASSERT(sizeof(tpuprof_record) == 24, "record");
TPUPROF_STATIC_ASSERT(sizeof(tpuprof_memory_record) ==
                          TPUPROF_RECORD_BYTES(2, 0),
                      "memory record");
TPUPROF_STATIC_ASSERT(sizeof(tpuprof_dump_header) == 104, "dump header");
TPUPROF_STATIC_ASSERT(sizeof(tpuprof_section_header) == 16, "section header");
TPUPROF_STATIC_ASSERT(sizeof(tpuprof_module_section) == 16, "MODULE header");
TPUPROF_STATIC_ASSERT(sizeof(tpuprof_events_section) == 8, "EVENTS header");
TPUPROF_STATIC_ASSERT(sizeof(tpuprof_calibration_section) == 24,
                      "CALIBRATION payload");
TPUPROF_STATIC_ASSERT(sizeof(tpuprof_calibration_counts) == 16,
                      "CALIBRATION counts");
TPUPROF_STATIC_ASSERT(sizeof(tpuprof_thread_section) == 32, "THREAD header");
TPUPROF_STATIC_ASSERT(sizeof(tpuprof_segment_section) == 64, "SEGMENT header");
TPUPROF_STATIC_ASSERT(sizeof(tpuprof_clock_offset) == 24, "clock offset");
TPUPROF_STATIC_ASSERT(sizeof(tpuprof_process_section) == 224,
                      "PROCESS payload");
TPUPROF_STATIC_ASSERT(sizeof(tpuprof_device_record) ==
                          TPUPROF_RECORD_BYTES(6, 0),
                      "device record");
TPUPROF_STATIC_ASSERT(sizeof(tpuprof_device_clock) == 48, "device clock");
TPUPROF_STATIC_ASSERT(sizeof(tpuprof_device_queue) == 16, "device queue");
TPUPROF_STATIC_ASSERT(sizeof(tpuprof_device_section) == 32, "DEVICE header");

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TPUPROF_FORMAT_H */
