/*===- runtime/memory.c - Memory records --------------------------*- C -*-===*\
|*                                                                            *|
|* The allocations and frees that instrumented code reports (format.h,        *|
|* memory records) go into the calling thread's stream among its probe        *|
|* pairs, attributed to its innermost open probe, by a path as cheap as a     *|
|* begin's (docs/runtime.md, "Memory").                                       *|
\*===----------------------------------------------------------------------===*/

#include "rt_thread.h"

/// Writes one memory record into the calling thread's stream, attributed to
/// its innermost open probe. As allocation-free as a begin: a few stores
/// into the current segment and one clock read, the clock last.
static void rt_memory(uint8_t event, uint32_t source, const void *ptr,
                      uint64_t size) {
  // The inline check happened before the allocation: tracking may have
  // been switched off since.
  if (TPUPROF_RT_UNLIKELY(
          !ptr || source >= TPUPROF_MEMORY_SOURCE_COUNT ||
          !__atomic_load_n(&__tpuprof_memory, __ATOMIC_RELAXED)))
    return;
  rt_thread *t = __tpuprof_rt_tls_thread;
  uint32_t gen = __atomic_load_n(&__tpuprof_rt_gen, __ATOMIC_RELAXED);
  if (TPUPROF_RT_UNLIKELY(!t || t->gen != gen)) {
    t = __tpuprof_rt_enter_window();
    if (!t)
      return;
  }
  const uint64_t need = sizeof(tpuprof_memory_record);
  uint8_t *p = t->cur;
  uint64_t room = (uint64_t)((uintptr_t)t->lim - (uintptr_t)p);
  if (TPUPROF_RT_UNLIKELY(need > room)) {
    p = __tpuprof_rt_make_room(t, need);
    if (!p)
      return;
  }
  uint32_t d = t->depth;
  tpuprof_memory_record *r = (tpuprof_memory_record *)p;
  r->kind = TPUPROF_RT_LE32(TPUPROF_RECORD_MEMORY);
  r->num_words = 2;
  r->num_counters = 0;
  r->depth = TPUPROF_RT_LE16(d < UINT16_MAX ? d : UINT16_MAX);
  r->probe = TPUPROF_RT_LE32(
      d && d <= TPUPROF_RT_STACK_DEPTH ? t->stack[d - 1].probe : UINT32_MAX);
  r->event = event;
  r->source = (uint8_t)source;
  r->reserved = 0;
  r->address = TPUPROF_RT_LE64((uintptr_t)ptr);
  r->size = TPUPROF_RT_LE64(size);
  r->time = TPUPROF_RT_LE64(rt_now());
  __atomic_store_n(&t->cur, p + need, __ATOMIC_RELEASE);
}

TPUPROF_RT_API void __tpuprof_alloc(const void *ptr, uint64_t size,
                                    uint32_t source) {
  rt_memory(TPUPROF_MEMORY_ALLOC, source, ptr, size);
}

TPUPROF_RT_API void __tpuprof_alloc_out(void *const *out, uint64_t size,
                                        uint32_t source, int64_t status) {
  if (status == 0 && out)
    rt_memory(TPUPROF_MEMORY_ALLOC, source, *out, size);
}

TPUPROF_RT_API void __tpuprof_realloc(const void *old, const void *ptr,
                                      uint64_t size, uint32_t source) {
  // A failed realloc (NULL for a non-zero size) leaves `old` allocated;
  // realloc(old, 0) may free it and return NULL.
  if (!ptr && size)
    return;
  rt_memory(TPUPROF_MEMORY_FREE, source, old, 0);
  rt_memory(TPUPROF_MEMORY_ALLOC, source, ptr, size);
}

TPUPROF_RT_API void __tpuprof_free(const void *ptr, uint32_t source) {
  rt_memory(TPUPROF_MEMORY_FREE, source, ptr, 0);
}
