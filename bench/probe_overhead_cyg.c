/*===- bench/probe_overhead_cyg.c - Function under -finstrument-functions -===*\
|*                                                                            *|
|* Compiled with -finstrument-functions (see bench/CMakeLists.txt), so this   *|
|* copy of the tiny function calls __cyg_profile_func_enter/exit; nothing     *|
|* else in the benchmark does. The hooks are in probe_overhead_cyg_hooks.c.   *|
\*===----------------------------------------------------------------------===*/

__attribute__((noinline)) int bench_tiny_cyg(int x) {
  __asm__ volatile("" : "+r"(x));
  return x + 1;
}
