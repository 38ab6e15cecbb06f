//===- tpuprof/report/views/Roofline.h - Machine peaks ----------*- C++ -*-===//
//
// `tpuprof-report roofline --measure` and the machine file that
// `table --machine` reads: peak compute and memory bandwidth, measured with
// an FMA loop and a STREAM-like triad.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_VIEWS_ROOFLINE_H
#define TPUPROF_REPORT_VIEWS_ROOFLINE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace tpuprof {
namespace report {

/// Peak compute and memory bandwidth of a machine.
struct Roofline {
  double peakGflops = 0; ///< GFLOP/s (FMA counted as 2 FLOPs).
  double peakGBps = 0;   ///< GB/s (10^9 bytes per second).
  unsigned threads = 0;  ///< Threads the measurement used.
};

/// Measures peaks with an FMA loop and a STREAM-like triad on `threads`
/// threads (0: all hardware threads), each for about `seconds`.
Roofline measureRoofline(unsigned threads, double seconds = 0.3);

/// The roofline file: {"peak_gflops": G, "peak_gbps": B, "threads": T}.
void writeRoofline(const Roofline &r, llvm::raw_ostream &os);
llvm::Expected<Roofline> readRoofline(llvm::StringRef path);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_VIEWS_ROOFLINE_H
