/*===- runtime/cupti_abi.h - CUPTI as the CUDA backend uses it ----*- C -*-===*\
|*                                                                            *|
|* The CUDA backend (device_cupti.c, docs/device.md) loads libcupti with      *|
|* dlopen and needs no CUDA or CUPTI header to build: the few constants,      *|
|* activity record layouts and functions it uses are spelled here from        *|
|* CUPTI's documented ABI (cupti_activity.h, cupti_result.h). Where           *|
|* libcupti-dev is installed, cupti_layout_check.c compiles these against     *|
|* the real headers (static_assert on every value, size and offset), so a     *|
|* wrong spelling fails the build.                                            *|
|*                                                                            *|
|* Records are read through prefix structs: CUPTI's activity records are      *|
|* versioned (CUpti_ActivityKernel4 ... 9, Memcpy ... Memcpy5, Memset ...     *|
|* Memset4) and the library fills the newest its version knows, but every     *|
|* version keeps the fields read here at the same offsets. The walk from one  *|
|* record to the next is libcupti's own (cuptiActivityGetNextRecord).         *|
|*                                                                            *|
|* Never installed; shared with the backend's GoogleTests.                    *|
\*===----------------------------------------------------------------------===*/

#ifndef TPUPROF_RUNTIME_CUPTI_ABI_H
#define TPUPROF_RUNTIME_CUPTI_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*===-- Values (CUptiResult, CUpti_ActivityKind, ...) --------------------===*/

enum {
  TPUPROF_CUPTI_SUCCESS = 0,                 ///< CUPTI_SUCCESS
  TPUPROF_CUPTI_ERROR_MAX_LIMIT_REACHED = 12 ///< No more records in a buffer.
};

/// CUpti_ActivityKind values the backend enables or reads.
enum {
  TPUPROF_CUPTI_KIND_MEMCPY = 1,
  TPUPROF_CUPTI_KIND_MEMSET = 2,
  TPUPROF_CUPTI_KIND_KERNEL = 3,  ///< Serializes kernels: never enabled; read.
  TPUPROF_CUPTI_KIND_DRIVER = 4,  ///< Driver API calls: enabled, not read.
  TPUPROF_CUPTI_KIND_RUNTIME = 5, ///< Runtime API calls: enabled, not read.
  TPUPROF_CUPTI_KIND_CONCURRENT_KERNEL = 10,
  TPUPROF_CUPTI_KIND_EXTERNAL_CORRELATION = 39
};

/// CUpti_ActivityMemcpyKind values.
enum {
  TPUPROF_CUPTI_MEMCPY_HTOD = 1,
  TPUPROF_CUPTI_MEMCPY_DTOH = 2,
  TPUPROF_CUPTI_MEMCPY_HTOA = 3,
  TPUPROF_CUPTI_MEMCPY_ATOH = 4,
  TPUPROF_CUPTI_MEMCPY_ATOA = 5,
  TPUPROF_CUPTI_MEMCPY_ATOD = 6,
  TPUPROF_CUPTI_MEMCPY_DTOA = 7,
  TPUPROF_CUPTI_MEMCPY_DTOD = 8,
  TPUPROF_CUPTI_MEMCPY_HTOH = 9,
  TPUPROF_CUPTI_MEMCPY_PTOP = 10
};

/// CUpti_ExternalCorrelationKind the backend pushes its ids as (CUSTOM2:
/// CUSTOM0/1 are what other CUPTI clients such as Kineto use).
enum { TPUPROF_CUPTI_EXTERNAL_KIND = 5 };

/// CUpti_ActivityFlag: flush buffers with incomplete records too.
enum { TPUPROF_CUPTI_FLUSH_FORCED = 1 };

/// CUPTI_TIMESTAMP_UNKNOWN.
#define TPUPROF_CUPTI_TIMESTAMP_UNKNOWN 0ull

/*===-- Activity records (prefixes) --------------------------------------===*/

/// CUPTI aligns every record to 8 bytes and packs its fields.
#define TPUPROF_CUPTI_PACKED __attribute__((__packed__, __aligned__(8)))

/// The common head of every activity record (CUpti_Activity).
typedef struct TPUPROF_CUPTI_PACKED tpuprof_cupti_record {
  uint32_t kind;
} tpuprof_cupti_record;

/// CUpti_ActivityKernel4 ... 9, up to `submitted`: kind
/// CONCURRENT_KERNEL (or KERNEL).
typedef struct TPUPROF_CUPTI_PACKED tpuprof_cupti_kernel {
  uint32_t kind;
  uint8_t cache_config;
  uint8_t shared_memory_config;
  uint16_t registers_per_thread;
  uint32_t partitioned_global_cache_requested;
  uint32_t partitioned_global_cache_executed;
  uint64_t start; ///< GPU ns (CUPTI's timestamp clock).
  uint64_t end;
  uint64_t completed;
  uint32_t device_id;
  uint32_t context_id;
  uint32_t stream_id;
  int32_t grid_x, grid_y, grid_z;
  int32_t block_x, block_y, block_z;
  int32_t static_shared_memory;
  int32_t dynamic_shared_memory;
  uint32_t local_memory_per_thread;
  uint32_t local_memory_total;
  uint32_t correlation_id; ///< The launching API call's.
  int64_t grid_id;
  const char *name; ///< Mangled; CUPTI's, valid while the buffer is.
  void *reserved0;
  uint64_t queued; ///< TPUPROF_CUPTI_TIMESTAMP_UNKNOWN unless CUPTI's
                   ///< latency timestamps are on.
  uint64_t submitted;
} tpuprof_cupti_kernel;

/// CUpti_ActivityMemcpy ... Memcpy5, up to `correlationId`.
typedef struct TPUPROF_CUPTI_PACKED tpuprof_cupti_memcpy {
  uint32_t kind;
  uint8_t copy_kind; ///< TPUPROF_CUPTI_MEMCPY_*
  uint8_t src_kind;
  uint8_t dst_kind;
  uint8_t flags;
  uint64_t bytes;
  uint64_t start;
  uint64_t end;
  uint32_t device_id;
  uint32_t context_id;
  uint32_t stream_id;
  uint32_t correlation_id;
} tpuprof_cupti_memcpy;

/// CUpti_ActivityMemset ... Memset4, up to `correlationId`.
typedef struct TPUPROF_CUPTI_PACKED tpuprof_cupti_memset {
  uint32_t kind;
  uint32_t value;
  uint64_t bytes;
  uint64_t start;
  uint64_t end;
  uint32_t device_id;
  uint32_t context_id;
  uint32_t stream_id;
  uint32_t correlation_id;
} tpuprof_cupti_memset;

/// CUpti_ActivityExternalCorrelation (the whole record): the API call
/// `correlation_id` was made while `external_id` was pushed.
typedef struct TPUPROF_CUPTI_PACKED tpuprof_cupti_external_correlation {
  uint32_t kind;
  uint32_t external_kind;
  uint64_t external_id;
  uint32_t correlation_id;
  uint32_t reserved;
} tpuprof_cupti_external_correlation;

/*===-- Functions --------------------------------------------------------===*/

/// CUpti_BuffersCallbackRequestFunc / CompleteFunc (CUcontext is a pointer).
typedef void (*tpuprof_cupti_buffer_requested_fn)(uint8_t **buffer,
                                                  size_t *size,
                                                  size_t *max_num_records);
typedef void (*tpuprof_cupti_buffer_completed_fn)(void *context,
                                                  uint32_t stream_id,
                                                  uint8_t *buffer, size_t size,
                                                  size_t valid_size);

/// The libcupti functions the backend calls (each returns a CUptiResult),
/// by their symbol names.
typedef struct tpuprof_cupti_api {
  /// cuptiActivityRegisterCallbacks
  int (*register_callbacks)(tpuprof_cupti_buffer_requested_fn,
                            tpuprof_cupti_buffer_completed_fn);
  int (*enable)(uint32_t kind);  ///< cuptiActivityEnable
  int (*disable)(uint32_t kind); ///< cuptiActivityDisable
  /// cuptiActivityPushExternalCorrelationId / Pop...
  int (*push_external_id)(uint32_t kind, uint64_t id);
  int (*pop_external_id)(uint32_t kind, uint64_t *last_id);
  int (*get_timestamp)(uint64_t *timestamp); ///< cuptiGetTimestamp
  int (*flush_all)(uint32_t flag);           ///< cuptiActivityFlushAll
  /// cuptiActivityGetNextRecord: `*record` NULL starts at the buffer's
  /// first record; TPUPROF_CUPTI_ERROR_MAX_LIMIT_REACHED past its last.
  int (*get_next_record)(uint8_t *buffer, size_t valid_size, void **record);
} tpuprof_cupti_api;

/*===-- The backend, for its tests (device_cupti.c) ----------------------===*/

/// Uses `api` instead of loading libcupti (NULL: forget it and load again
/// on the next launch), and resets the backend's state. Tests only.
void __tpuprof_rt_cupti_use(const tpuprof_cupti_api *api);

/// What the backend counted since it was last reset.
typedef struct tpuprof_rt_cupti_stats {
  uint64_t records;    ///< Kernel, memcpy and memset records read.
  uint64_t joined;     ///< Of those, joined to their launch.
  uint64_t unjoined;   ///< Kept with no launch (made by unwrapped code).
  uint64_t incomplete; ///< Without timestamps (forced flush): dropped.
  uint64_t late;       ///< Launched in a window that has closed: dropped.
  uint64_t unknown;    ///< Records of other kinds, ignored.
  uint64_t malformed;  ///< Records too short for their kind: ignored.
} tpuprof_rt_cupti_stats;
void __tpuprof_rt_cupti_get_stats(tpuprof_rt_cupti_stats *out);

#ifdef __cplusplus
}
#endif

#endif // TPUPROF_RUNTIME_CUPTI_ABI_H
