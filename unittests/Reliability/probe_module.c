/*===- probe_module.c - An instrumented module --------------------*- C -*-===*\
|*                                                                            *|
|* Built three times (TAG a, b, m) as the modules of the dlopen test: each    *|
|* has its own hand-made probe table with two probes, "op_<tag>_0" and        *|
|* "op_<tag>_1", in module "mod_<tag>", registered from a constructor the way *|
|* the passes' tables are, and a function that runs N pairs of each probe.    *|
\*===----------------------------------------------------------------------===*/

#include "tpuprof/format.h"
#include "tpuprof/tpuprof.h"

#define TPUPROF_CAT2(a, b) a##b
#define TPUPROF_CAT(a, b) TPUPROF_CAT2(a, b)
#define TPUPROF_STR2(a) #a
#define TPUPROF_STR(a) TPUPROF_STR2(a)
#define TAG_STR TPUPROF_STR(TAG)

/// Offsets in the string table below: "", "mod_X", "op_X_0", "op_X_1".
enum { NAME_MOD = 1, NAME_OP0 = 7, NAME_OP1 = 14, STRTAB_SIZE = 21 };

static const struct {
  tpuprof_table_header h;
  tpuprof_probe_desc d[2];
  char strtab[STRTAB_SIZE];
} table = {
    {{'T', 'P', 'P', 'T'}, TPUPROF_TABLE_VERSION, 2, STRTAB_SIZE, NAME_MOD, 0},
    {{0x1000 + TAG_STR[0], 0, 0, NAME_OP0, 0, 0, 0, TPUPROF_KIND_OP, 0, 0, 0,
      0},
     {0x2000 + TAG_STR[0], 0, 0, NAME_OP1, 0, 0, 0, TPUPROF_KIND_OP, 0, 0, 0,
      0}},
    "\0mod_" TAG_STR "\0op_" TAG_STR "_0\0op_" TAG_STR "_1",
};

static uint32_t first_probe;

__attribute__((constructor)) static void register_table(void) {
  __tpuprof_register_module(&table, sizeof(table), &first_probe);
}

static __thread volatile int sink; // Per thread: threads run it at once.

/// Runs n pairs of each of this module's probes; returns its first id.
__attribute__((visibility("default"))) uint32_t TPUPROF_CAT(run_module_,
                                                            TAG)(unsigned n) {
  for (unsigned i = 0; i < n; ++i) {
    for (uint32_t p = 0; p < 2; ++p) {
      if (__tpuprof_enabled)
        __tpuprof_begin(first_probe + p);
      sink += (int)i;
      if (__tpuprof_enabled)
        __tpuprof_end(first_probe + p);
    }
  }
  return first_probe;
}
