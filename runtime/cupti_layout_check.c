/*===- runtime/cupti_layout_check.c - cupti_abi.h vs CUPTI --------*- C -*-===*\
|*                                                                            *|
|* Built where libcupti-dev's headers are installed (CI installs them): the   *|
|* CUDA backend's own spelling of CUPTI's ABI (cupti_abi.h) must match        *|
|* CUPTI's headers value for value, offset for offset, in every record        *|
|* version the backend may be handed, or this file does not compile. It       *|
|* defines nothing and is linked nowhere.                                     *|
\*===----------------------------------------------------------------------===*/

#include "cupti_abi.h"

#include <cupti_activity.h>
#include <cupti_result.h>

#include <stddef.h>

#define SAME(a, b)                                                             \
  _Static_assert((long long)(a) == (long long)(b), #a " != " #b)

SAME(TPUPROF_CUPTI_SUCCESS, CUPTI_SUCCESS);
SAME(TPUPROF_CUPTI_ERROR_MAX_LIMIT_REACHED, CUPTI_ERROR_MAX_LIMIT_REACHED);
SAME(TPUPROF_CUPTI_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMCPY);
SAME(TPUPROF_CUPTI_KIND_MEMSET, CUPTI_ACTIVITY_KIND_MEMSET);
SAME(TPUPROF_CUPTI_KIND_KERNEL, CUPTI_ACTIVITY_KIND_KERNEL);
SAME(TPUPROF_CUPTI_KIND_DRIVER, CUPTI_ACTIVITY_KIND_DRIVER);
SAME(TPUPROF_CUPTI_KIND_RUNTIME, CUPTI_ACTIVITY_KIND_RUNTIME);
SAME(TPUPROF_CUPTI_KIND_CONCURRENT_KERNEL,
     CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
SAME(TPUPROF_CUPTI_KIND_EXTERNAL_CORRELATION,
     CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION);
SAME(TPUPROF_CUPTI_MEMCPY_HTOD, CUPTI_ACTIVITY_MEMCPY_KIND_HTOD);
SAME(TPUPROF_CUPTI_MEMCPY_DTOH, CUPTI_ACTIVITY_MEMCPY_KIND_DTOH);
SAME(TPUPROF_CUPTI_MEMCPY_HTOA, CUPTI_ACTIVITY_MEMCPY_KIND_HTOA);
SAME(TPUPROF_CUPTI_MEMCPY_ATOH, CUPTI_ACTIVITY_MEMCPY_KIND_ATOH);
SAME(TPUPROF_CUPTI_MEMCPY_ATOA, CUPTI_ACTIVITY_MEMCPY_KIND_ATOA);
SAME(TPUPROF_CUPTI_MEMCPY_ATOD, CUPTI_ACTIVITY_MEMCPY_KIND_ATOD);
SAME(TPUPROF_CUPTI_MEMCPY_DTOA, CUPTI_ACTIVITY_MEMCPY_KIND_DTOA);
SAME(TPUPROF_CUPTI_MEMCPY_DTOD, CUPTI_ACTIVITY_MEMCPY_KIND_DTOD);
SAME(TPUPROF_CUPTI_MEMCPY_HTOH, CUPTI_ACTIVITY_MEMCPY_KIND_HTOH);
SAME(TPUPROF_CUPTI_MEMCPY_PTOP, CUPTI_ACTIVITY_MEMCPY_KIND_PTOP);
SAME(TPUPROF_CUPTI_EXTERNAL_KIND, CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM2);
SAME(TPUPROF_CUPTI_FLUSH_FORCED, CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
SAME(TPUPROF_CUPTI_TIMESTAMP_UNKNOWN, CUPTI_TIMESTAMP_UNKNOWN);
SAME(sizeof(CUpti_ActivityKind), sizeof(uint32_t));
SAME(sizeof(CUpti_ExternalCorrelationKind), sizeof(uint32_t));
SAME(sizeof(CUcontext), sizeof(void *));

/// A field of a prefix struct sits where the CUPTI record has it, and is as
/// wide.
#define FIELD(mine, field, theirs, their_field)                                \
  SAME(offsetof(mine, field), offsetof(theirs, their_field));                  \
  SAME(sizeof(((mine *)0)->field), sizeof(((theirs *)0)->their_field))

/// The prefix fits in the record.
#define PREFIX(mine, theirs) SAME(sizeof(mine) <= sizeof(theirs), 1)

#define KERNEL(T)                                                              \
  PREFIX(tpuprof_cupti_kernel, T);                                             \
  FIELD(tpuprof_cupti_kernel, kind, T, kind);                                  \
  FIELD(tpuprof_cupti_kernel, start, T, start);                                \
  FIELD(tpuprof_cupti_kernel, end, T, end);                                    \
  FIELD(tpuprof_cupti_kernel, completed, T, completed);                        \
  FIELD(tpuprof_cupti_kernel, device_id, T, deviceId);                         \
  FIELD(tpuprof_cupti_kernel, context_id, T, contextId);                       \
  FIELD(tpuprof_cupti_kernel, stream_id, T, streamId);                         \
  FIELD(tpuprof_cupti_kernel, grid_x, T, gridX);                               \
  FIELD(tpuprof_cupti_kernel, block_z, T, blockZ);                             \
  FIELD(tpuprof_cupti_kernel, correlation_id, T, correlationId);               \
  FIELD(tpuprof_cupti_kernel, grid_id, T, gridId);                             \
  FIELD(tpuprof_cupti_kernel, name, T, name);                                  \
  FIELD(tpuprof_cupti_kernel, queued, T, queued);                              \
  FIELD(tpuprof_cupti_kernel, submitted, T, submitted)

KERNEL(CUpti_ActivityKernel4);
KERNEL(CUpti_ActivityKernel5);
KERNEL(CUpti_ActivityKernel6);
KERNEL(CUpti_ActivityKernel7);
KERNEL(CUpti_ActivityKernel8);

#define MEMCPY(T)                                                              \
  PREFIX(tpuprof_cupti_memcpy, T);                                             \
  FIELD(tpuprof_cupti_memcpy, kind, T, kind);                                  \
  FIELD(tpuprof_cupti_memcpy, copy_kind, T, copyKind);                         \
  FIELD(tpuprof_cupti_memcpy, bytes, T, bytes);                                \
  FIELD(tpuprof_cupti_memcpy, start, T, start);                                \
  FIELD(tpuprof_cupti_memcpy, end, T, end);                                    \
  FIELD(tpuprof_cupti_memcpy, device_id, T, deviceId);                         \
  FIELD(tpuprof_cupti_memcpy, context_id, T, contextId);                       \
  FIELD(tpuprof_cupti_memcpy, stream_id, T, streamId);                         \
  FIELD(tpuprof_cupti_memcpy, correlation_id, T, correlationId)

MEMCPY(CUpti_ActivityMemcpy);
MEMCPY(CUpti_ActivityMemcpy3);
MEMCPY(CUpti_ActivityMemcpy4);
MEMCPY(CUpti_ActivityMemcpy5);

#define MEMSET(T)                                                              \
  PREFIX(tpuprof_cupti_memset, T);                                             \
  FIELD(tpuprof_cupti_memset, kind, T, kind);                                  \
  FIELD(tpuprof_cupti_memset, bytes, T, bytes);                                \
  FIELD(tpuprof_cupti_memset, start, T, start);                                \
  FIELD(tpuprof_cupti_memset, end, T, end);                                    \
  FIELD(tpuprof_cupti_memset, device_id, T, deviceId);                         \
  FIELD(tpuprof_cupti_memset, context_id, T, contextId);                       \
  FIELD(tpuprof_cupti_memset, stream_id, T, streamId);                         \
  FIELD(tpuprof_cupti_memset, correlation_id, T, correlationId)

MEMSET(CUpti_ActivityMemset);
MEMSET(CUpti_ActivityMemset2);
MEMSET(CUpti_ActivityMemset3);
MEMSET(CUpti_ActivityMemset4);

SAME(sizeof(tpuprof_cupti_external_correlation),
     sizeof(CUpti_ActivityExternalCorrelation));
FIELD(tpuprof_cupti_external_correlation, kind,
      CUpti_ActivityExternalCorrelation, kind);
FIELD(tpuprof_cupti_external_correlation, external_kind,
      CUpti_ActivityExternalCorrelation, externalKind);
FIELD(tpuprof_cupti_external_correlation, external_id,
      CUpti_ActivityExternalCorrelation, externalId);
FIELD(tpuprof_cupti_external_correlation, correlation_id,
      CUpti_ActivityExternalCorrelation, correlationId);

/// The functions: CUPTI's prototypes, as the backend calls them through
/// tpuprof_cupti_api (the enums being 32-bit, above, and CUcontext a
/// pointer).
__attribute__((unused)) static void check_functions(void) {
  CUptiResult (*enable)(CUpti_ActivityKind) = cuptiActivityEnable;
  CUptiResult (*disable)(CUpti_ActivityKind) = cuptiActivityDisable;
  CUptiResult (*push)(CUpti_ExternalCorrelationKind, uint64_t) =
      cuptiActivityPushExternalCorrelationId;
  CUptiResult (*pop)(CUpti_ExternalCorrelationKind, uint64_t *) =
      cuptiActivityPopExternalCorrelationId;
  CUptiResult (*timestamp)(uint64_t *) = cuptiGetTimestamp;
  CUptiResult (*flush)(uint32_t) = cuptiActivityFlushAll;
  CUptiResult (*next)(uint8_t *, size_t, CUpti_Activity **) =
      cuptiActivityGetNextRecord;
  CUptiResult (*callbacks)(void (*)(uint8_t **, size_t *, size_t *),
                           void (*)(CUcontext, uint32_t, uint8_t *, size_t,
                                    size_t)) = cuptiActivityRegisterCallbacks;
  (void)enable, (void)disable, (void)push, (void)pop, (void)timestamp;
  (void)flush, (void)next, (void)callbacks;
}
