/*===- bench/probe_overhead_xray.c - The same function under XRay -*- C -*-===*\
|*                                                                            *|
|* Compiled with -fxray-instrument -fxray-instruction-threshold=1 (see        *|
|* bench/CMakeLists.txt), so this copy of the tiny function gets XRay entry   *|
|* and exit sleds; nothing else in the benchmark does.                        *|
\*===----------------------------------------------------------------------===*/

__attribute__((noinline)) int bench_tiny_xray(int x) {
  __asm__ volatile("" : "+r"(x));
  return x + 1;
}
