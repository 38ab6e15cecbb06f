/*===- runtime/rt_byte_order.h - Little-endian dumps on any host --*- C -*-===*\
|*                                                                            *|
|* Dumps and probe tables are little-endian whatever the host (format.h). On  *|
|* a little-endian host everything here is nothing at all, so the hot path    *|
|* is the same code as without it. On a big-endian host (s390x, ppc64, ...)   *|
|* each field is swapped where the runtime stores or loads it: records live   *|
|* in the file's mapping from their begin on (a crash dump is read as it      *|
|* stands), so they are stored in file order from the start, and a            *|
|* byte-reversed store is one instruction on those machines. Headers and      *|
|* sections, written off the hot path, are swapped whole by their layout.     *|
\*===----------------------------------------------------------------------===*/

#ifndef TPUPROF_RUNTIME_RT_BYTE_ORDER_H
#define TPUPROF_RUNTIME_RT_BYTE_ORDER_H

#include <stdint.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define TPUPROF_RT_BIG_ENDIAN 1
#define TPUPROF_RT_LE16(x) __builtin_bswap16((uint16_t)(x))
#define TPUPROF_RT_LE32(x) __builtin_bswap32((uint32_t)(x))
#define TPUPROF_RT_LE64(x) __builtin_bswap64((uint64_t)(x))
#else
#define TPUPROF_RT_BIG_ENDIAN 0
/// Host to file order and back (the same swap both ways).
#define TPUPROF_RT_LE16(x) ((uint16_t)(x))
#define TPUPROF_RT_LE32(x) ((uint32_t)(x))
#define TPUPROF_RT_LE64(x) ((uint64_t)(x))
#endif

/* The fields of each format.h struct the runtime reads or writes whole, in
   order: a letter per width (b 1, h 2, w 4, q 8 bytes), then an optional
   count. unittests/Runtime checks that each adds up to its struct's size. */
#define TPUPROF_RT_LAYOUT_TABLE_HEADER "b4w5"
#define TPUPROF_RT_LAYOUT_PROBE_DESC "q3w4b4w"
#define TPUPROF_RT_LAYOUT_RECORD "wbbhq2"
#define TPUPROF_RT_LAYOUT_DEVICE_RECORD "wbbhq4w4q2"
#define TPUPROF_RT_LAYOUT_DEVICE_CLOCK "w2q5"
#define TPUPROF_RT_LAYOUT_DEVICE_QUEUE "w4"
#define TPUPROF_RT_LAYOUT_DEVICE_SECTION "w2q3"
#define TPUPROF_RT_LAYOUT_DUMP_HEADER "b8w8q7w2"
#define TPUPROF_RT_LAYOUT_SECTION_HEADER "w2q"
#define TPUPROF_RT_LAYOUT_MODULE_SECTION "w2q"
#define TPUPROF_RT_LAYOUT_EVENTS_SECTION "w2"
#define TPUPROF_RT_LAYOUT_CALIBRATION "q2w2"
#define TPUPROF_RT_LAYOUT_CALIBRATION_COUNTS "q2"
#define TPUPROF_RT_LAYOUT_SEGMENT_SECTION "qw2q6"
#define TPUPROF_RT_LAYOUT_PROCESS_SECTION "w4b128q4q6"

/// Bytes one struct of `layout` spans.
static inline uint64_t __tpuprof_rt_layout_size(const char *layout) {
  uint64_t bytes = 0;
  while (*layout) {
    char c = *layout++;
    uint64_t width = c == 'b' ? 1u : c == 'h' ? 2u : c == 'w' ? 4u : 8u;
    uint64_t count = 0;
    while (*layout >= '0' && *layout <= '9')
      count = count * 10u + (uint64_t)(*layout++ - '0');
    bytes += width * (count ? count : 1u);
  }
  return bytes;
}

/// Reverses the bytes of every field of `n` consecutive structs of `layout`
/// at `p` (any alignment), whatever the host.
static inline void __tpuprof_rt_swap_layout(void *p, const char *layout,
                                            uint64_t n) {
  uint8_t *q = (uint8_t *)p;
  for (uint64_t i = 0; i < n; ++i) {
    for (const char *l = layout; *l;) {
      char c = *l++;
      uint32_t width = c == 'b' ? 1u : c == 'h' ? 2u : c == 'w' ? 4u : 8u;
      uint64_t count = 0;
      while (*l >= '0' && *l <= '9')
        count = count * 10u + (uint64_t)(*l++ - '0');
      for (count = count ? count : 1u; count > 0; --count, q += width) {
        for (uint32_t a = 0, b = width - 1u; a < b; ++a, --b) {
          uint8_t t = q[a];
          q[a] = q[b];
          q[b] = t;
        }
      }
    }
  }
}

/// Host order to file order (or back) of `n` structs of `layout` at `p`:
/// nothing on a little-endian host.
static inline void __tpuprof_rt_le_layout(void *p, const char *layout,
                                          uint64_t n) {
  if (TPUPROF_RT_BIG_ENDIAN)
    __tpuprof_rt_swap_layout(p, layout, n);
}

#endif /* TPUPROF_RUNTIME_RT_BYTE_ORDER_H */
