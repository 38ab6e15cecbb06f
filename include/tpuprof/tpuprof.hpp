//===- tpuprof/tpuprof.hpp - C++ helpers for the tpuprof runtime -*- C++ -*-===//
//
// RAII over the C API of tpuprof.h, for C++ programs that profile a region:
//
//   {
//     tpuprof::ProfileWindow window;        // tpuprof_enable(0, 0)
//     model.run();
//   }                                       // tpuprof_disable(): one dump
//
// Header-only and exception-free so it adds no link dependency beyond
// libtpuprof_rt.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_TPUPROF_HPP
#define TPUPROF_TPUPROF_HPP

#include "tpuprof/tpuprof.h"

#include <cstdint>

namespace tpuprof {

/// Opens a profiling window on construction and closes it (writing its
/// dump) on destruction. If the window cannot be opened (one is already
/// open, bad arguments), the object is inactive and its destructor does
/// nothing, so it never closes a window it did not open.
class ProfileWindow {
public:
  /// `maxRecords` and `mode` as for tpuprof_enable().
  explicit ProfileWindow(uint64_t maxRecords = 0, int mode = 0)
      : Active(tpuprof_enable(maxRecords, mode) == 0) {}

  ~ProfileWindow() { close(); }

  ProfileWindow(const ProfileWindow &) = delete;
  ProfileWindow &operator=(const ProfileWindow &) = delete;

  /// Whether this object opened the window and has not closed it yet.
  bool active() const { return Active; }

  /// Writes what was recorded so far as a dump and goes on in a new window
  /// (tpuprof_flush()). Returns 0, or -1 if inactive or the write failed.
  int flush() { return Active ? tpuprof_flush() : -1; }

  /// Closes the window early (tpuprof_disable()). Returns 0, or -1 if
  /// inactive or the dump could not be written.
  int close() {
    if (!Active)
      return -1;
    Active = false;
    return tpuprof_disable();
  }

  /// Path of the last dump this process wrote ("" if none yet).
  static const char *lastDumpPath() { return tpuprof_last_dump_path(); }

private:
  bool Active;
};

} // namespace tpuprof

#endif // TPUPROF_TPUPROF_HPP
