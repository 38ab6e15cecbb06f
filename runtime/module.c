/*===- runtime/module.c - Probe-table registration ----------------*- C -*-===*\
|*                                                                            *|
|* Every instrumented module registers its probe table from a constructor.    *|
|* The runtime copies the table (so dlclose of the module is harmless: its    *|
|* dump still describes its probes) and hands out a contiguous range of       *|
|* global probe ids, [first, first + num_probes), in registration order.      *|
|* This runs at load time, never on the hot path, so a mutex is fine. The     *|
|* entry point instrumented code calls, __tpuprof_register_module, is         *|
|* control.c's: it initializes the library first and writes the new module    *|
|* into the open window's dump after.                                         *|
\*===----------------------------------------------------------------------===*/

#include "rt_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rt_module {
  void *table;          ///< Private copy of the probe table.
  uint64_t table_size;  ///< Its exact size (header + descriptors + strtab).
  uint32_t first_probe; ///< Global id of its probe 0.
  uint32_t num_probes;
} rt_module;

static rt_module *modules;
static uint32_t num_modules;
static uint32_t modules_capacity;
static uint32_t next_probe_id;

const char *__tpuprof_rt_validate_table(const void *table, uint64_t size,
                                        uint64_t *table_size) {
  if (!table)
    return "table is NULL";
  if (size < sizeof(tpuprof_table_header))
    return "smaller than a table header";
  tpuprof_table_header h;
  memcpy(&h, table, sizeof(h)); // The module's global may be underaligned.
  __tpuprof_rt_le_layout(&h, TPUPROF_RT_LAYOUT_TABLE_HEADER, 1);
  if (memcmp(h.magic, TPUPROF_TABLE_MAGIC, 4) != 0)
    return "bad magic, not a tpuprof probe table";
  if (h.version != TPUPROF_TABLE_VERSION)
    return "unsupported table version";
  uint64_t expected = sizeof(h) +
                      (uint64_t)h.num_probes * sizeof(tpuprof_probe_desc) +
                      (uint64_t)h.strtab_size;
  if (expected > size)
    return "its header describes more bytes than the table has";
  if (h.strtab_size == 0)
    return "empty string table";
  const char *strtab = (const char *)table + sizeof(h) +
                       (uint64_t)h.num_probes * sizeof(tpuprof_probe_desc);
  if (strtab[h.strtab_size - 1] != '\0')
    return "string table is not NUL-terminated";
  if (h.module_name >= h.strtab_size)
    return "module name offset is past the string table";
  const char *descs = (const char *)table + sizeof(h);
  for (uint32_t i = 0; i < h.num_probes; ++i) {
    tpuprof_probe_desc d;
    memcpy(&d, descs + (uint64_t)i * sizeof(d), sizeof(d));
    __tpuprof_rt_le_layout(&d, TPUPROF_RT_LAYOUT_PROBE_DESC, 1);
    if (d.name >= h.strtab_size || d.shapes >= h.strtab_size ||
        d.location >= h.strtab_size || d.function >= h.strtab_size)
      return "a probe's string offset is past the string table";
    if (d.kind >= TPUPROF_KIND_COUNT)
      return "a probe has an unknown kind";
  }
  *table_size = expected;
  return NULL;
}

/// The module name of a table that passed at least the header checks, for
/// the warning; "?" when it cannot be trusted.
static const char *table_name(const void *table, uint64_t size) {
  tpuprof_table_header h;
  if (!table || size < sizeof(h))
    return "?";
  memcpy(&h, table, sizeof(h));
  __tpuprof_rt_le_layout(&h, TPUPROF_RT_LAYOUT_TABLE_HEADER, 1);
  uint64_t strtab =
      sizeof(h) + (uint64_t)h.num_probes * sizeof(tpuprof_probe_desc);
  if (memcmp(h.magic, TPUPROF_TABLE_MAGIC, 4) != 0 || strtab > size ||
      h.strtab_size > size - strtab || h.module_name >= h.strtab_size)
    return "?";
  const char *s = (const char *)table + strtab + h.module_name;
  size_t max = (size_t)(h.strtab_size - h.module_name);
  return memchr(s, '\0', max) ? s : "?";
}

int __tpuprof_rt_module_add(const void *table, uint64_t size,
                            uint32_t *first_probe) {
  uint64_t exact = 0;
  const char *why = __tpuprof_rt_validate_table(table, size, &exact);
  void *copy = NULL;
  tpuprof_table_header h;
  if (!why) {
    memcpy(&h, table, sizeof(h));
    __tpuprof_rt_le_layout(&h, TPUPROF_RT_LAYOUT_TABLE_HEADER, 1);
    copy = malloc(exact);
    if (!copy)
      why = "out of memory copying the table";
    else
      memcpy(copy, table, exact);
  }

  __tpuprof_rt_modules_lock();
  if (!why && h.num_probes > TPUPROF_IGNORED_PROBE_BASE - next_probe_id)
    why = "the process ran out of probe ids";
  if (!why && num_modules == modules_capacity) {
    uint32_t cap = modules_capacity ? modules_capacity * 2 : 16;
    rt_module *grown = realloc(modules, cap * sizeof(*grown));
    if (!grown) {
      why = "out of memory growing the module registry";
    } else {
      modules = grown;
      modules_capacity = cap;
    }
  }
  if (why) {
    __tpuprof_rt_modules_unlock();
    free(copy);
    fprintf(stderr,
            "tpuprof: ignoring probe table of module '%s' (%s); its probes "
            "are not recorded\n",
            table_name(table, size), why);
    if (first_probe)
      *first_probe = TPUPROF_IGNORED_PROBE_BASE;
    return -1;
  }
  rt_module *m = &modules[num_modules++];
  m->table = copy;
  m->table_size = exact;
  m->first_probe = next_probe_id;
  m->num_probes = h.num_probes;
  next_probe_id += h.num_probes;
  if (first_probe)
    *first_probe = m->first_probe;
  __tpuprof_rt_modules_unlock();
  return 0;
}

void __tpuprof_rt_modules_lock(void) {
  __tpuprof_rt_lock(TPUPROF_RT_LOCK_MODULES);
}

void __tpuprof_rt_modules_unlock(void) {
  __tpuprof_rt_unlock(TPUPROF_RT_LOCK_MODULES);
}

uint32_t __tpuprof_rt_modules_count_locked(void) { return num_modules; }

const void *__tpuprof_rt_module_locked(uint32_t i, uint64_t *table_size,
                                       uint32_t *first_probe) {
  *table_size = modules[i].table_size;
  *first_probe = modules[i].first_probe;
  return modules[i].table;
}

uint32_t __tpuprof_rt_num_modules(void) {
  __tpuprof_rt_modules_lock();
  uint32_t n = num_modules;
  __tpuprof_rt_modules_unlock();
  return n;
}
