/*===- runtime/user_ranges.c - Named user ranges as kind-user probes ------===*\
|*                                                                            *|
|* TPUPROF_SCOPE("name") and tpuprof_range_* mark regions of a program that   *|
|* no pass instrumented. Each distinct name becomes one probe of kind user in *|
|* a runtime-owned, one-probe table registered through the ordinary path      *|
|* (__tpuprof_register_module), so dumps describe user ranges exactly like    *|
|* compiled probes and the report needs nothing new.                          *|
|*                                                                            *|
|* Names are interned in a fixed open-addressing table: lookups are lock-free *|
|* (an acquire load of the slot's name), inserts take a mutex. A range then   *|
|* costs what a compiled probe costs (begin/end by id).                       *|
\*===----------------------------------------------------------------------===*/

#include "rt_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Distinct range names a process may use; more are not recorded.
#define MAX_RANGES 1024u
/* A power of two, > 2 * MAX_RANGES / 2 keeps probes short. */
#define SLOTS 2048u
#define MAX_NAME 255u

static const char module_name[] = "tpuprof user ranges";

typedef struct slot {
  const char *name; ///< Published last (release); NULL = empty.
  uint32_t id;
} slot;

static slot by_name[SLOTS];
/// Ids of user ranges + 1 (0 = empty), for tpuprof_range_pop().
static uint32_t by_id[SLOTS];
static uint32_t num_ranges;

uint64_t __tpuprof_rt_user_range_hash(const char *name) {
  uint64_t h = 0xcbf29ce484222325ull; // FNV-1a 64
  for (const char *p = "user:"; *p; ++p)
    h = (h ^ (uint8_t)*p) * 0x100000001b3ull;
  for (const char *p = name; *p; ++p)
    h = (h ^ (uint8_t)*p) * 0x100000001b3ull;
  return h;
}

static uint32_t str_hash(const char *s, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; ++i)
    h = (h ^ (uint8_t)s[i]) * 16777619u;
  return h;
}

/// Finds `name` (first `n` bytes); returns its slot, empty or matching.
static slot *find(const char *name, size_t n) {
  for (uint32_t i = str_hash(name, n) & (SLOTS - 1);;
       i = (i + 1) & (SLOTS - 1)) {
    const char *s = __atomic_load_n(&by_name[i].name, __ATOMIC_ACQUIRE);
    if (!s || (strncmp(s, name, n) == 0 && s[n] == '\0'))
      return &by_name[i];
  }
}

/// Registers a one-probe table for `name`; returns the global id.
static uint32_t register_range(const char *name, size_t n) {
  size_t strtab = 1 + sizeof(module_name) + n + 1;
  size_t size =
      sizeof(tpuprof_table_header) + sizeof(tpuprof_probe_desc) + strtab;
  uint8_t *t = calloc(1, size);
  if (!t)
    return TPUPROF_IGNORED_PROBE_BASE;
  tpuprof_table_header h;
  memset(&h, 0, sizeof(h));
  memcpy(h.magic, TPUPROF_TABLE_MAGIC, 4);
  h.version = TPUPROF_TABLE_VERSION;
  h.num_probes = 1;
  h.strtab_size = (uint32_t)strtab;
  h.module_name = 1;
  tpuprof_probe_desc d;
  memset(&d, 0, sizeof(d));
  d.hash = 0;
  d.name = (uint32_t)(1 + sizeof(module_name));
  d.shapes = d.location = d.function = 0; // ""
  d.kind = TPUPROF_KIND_USER;
  char *s = (char *)t + sizeof(h) + sizeof(d);
  memcpy(s + 1, module_name, sizeof(module_name));
  memcpy(s + d.name, name, n);
  d.hash = __tpuprof_rt_user_range_hash(s + d.name);
  memcpy(t, &h, sizeof(h));
  memcpy(t + sizeof(h), &d, sizeof(d));
  uint32_t id = TPUPROF_IGNORED_PROBE_BASE;
  __tpuprof_register_module(t, size, &id); // Copies the table.
  free(t);
  return id;
}

TPUPROF_RT_API uint32_t tpuprof_range_id(const char *name) {
  if (!name)
    name = "";
  size_t n = strnlen(name, MAX_NAME);
  slot *sl = find(name, n);
  if (TPUPROF_RT_LIKELY(__atomic_load_n(&sl->name, __ATOMIC_ACQUIRE) != NULL))
    return sl->id;
  __tpuprof_rt_lock(TPUPROF_RT_LOCK_RANGES);
  sl = find(name, n); // Another thread may have inserted it.
  uint32_t id = sl->name ? sl->id : TPUPROF_IGNORED_PROBE_BASE;
  if (!sl->name) {
    if (num_ranges >= MAX_RANGES) {
      static int warned;
      if (!warned++)
        fprintf(stderr,
                "tpuprof: more than %u user range names; '%.*s' and "
                "later new names are not recorded\n",
                MAX_RANGES, (int)n, name);
      __tpuprof_rt_unlock(TPUPROF_RT_LOCK_RANGES);
      return TPUPROF_IGNORED_PROBE_BASE;
    }
    char *copy = malloc(n + 1);
    if (copy) {
      memcpy(copy, name, n);
      copy[n] = '\0';
      id = register_range(copy, n);
    }
    if (copy && id < TPUPROF_IGNORED_PROBE_BASE) {
      ++num_ranges;
      sl->id = id;
      __atomic_store_n(&sl->name, copy, __ATOMIC_RELEASE);
      uint32_t i = (id * 2654435761u) & (SLOTS - 1);
      while (__atomic_load_n(&by_id[i], __ATOMIC_RELAXED))
        i = (i + 1) & (SLOTS - 1);
      __atomic_store_n(&by_id[i], id + 1, __ATOMIC_RELEASE);
    } else {
      free(copy); // Not recorded; the next call tries again.
    }
  }
  __tpuprof_rt_unlock(TPUPROF_RT_LOCK_RANGES);
  return id;
}

static int is_user_range(uint32_t id) {
  for (uint32_t i = (id * 2654435761u) & (SLOTS - 1);;
       i = (i + 1) & (SLOTS - 1)) {
    uint32_t v = __atomic_load_n(&by_id[i], __ATOMIC_ACQUIRE);
    if (v == 0)
      return 0;
    if (v == id + 1)
      return 1;
  }
}

// Ranges may end in another function than they begin in, so their stack
// entries are not bound to a frame; the caller's frame still closes probes
// a non-local exit left open below it (record.c).
TPUPROF_RT_API void tpuprof_range_begin(uint32_t id) {
  if (__atomic_load_n(&__tpuprof_enabled, __ATOMIC_RELAXED))
    __tpuprof_rt_begin_range(id, (uintptr_t)__builtin_dwarf_cfa());
}

TPUPROF_RT_API void tpuprof_range_end(uint32_t id) {
  // No enabled check: an end must balance a begin made while enabled.
  __tpuprof_end(id);
}

TPUPROF_RT_API void tpuprof_range_push(const char *name) {
  if (__atomic_load_n(&__tpuprof_enabled, __ATOMIC_RELAXED))
    __tpuprof_rt_begin_range(tpuprof_range_id(name),
                             (uintptr_t)__builtin_dwarf_cfa());
}

TPUPROF_RT_API void tpuprof_range_pop(void) {
  uint32_t id = __tpuprof_rt_innermost_probe();
  // Only a user range: popping an op probe would corrupt the op's record.
  if (id != UINT32_MAX && is_user_range(id))
    __tpuprof_end(id);
}
