//===- tpuprof/tpuprof.hpp - C++ helpers for the tpuprof runtime ----------===//
//
// RAII over the C API of tpuprof.h, for C++ programs that profile a region:
//
//   {
//     tpuprof::ProfileWindow window;        // tpuprof_enable(0, 0)
//     model.run();
//   }                                       // tpuprof_disable(): one dump
//
//   void layer() { TPUPROF_SCOPE("layer"); ... }  // a user range (kind user)
//
//   tpuprof::enableProfile(0, 1); ... tpuprof::disableProfile();  // board-tool
//                                                                 // names
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

/// A user range for the lifetime of the object: a probe of kind user named
/// `name` (tpuprof_range_id). Costs one flag load while profiling is off.
class Scope {
public:
  explicit Scope(uint32_t id) : Id(id), Began(__tpuprof_enabled != 0) {
    if (Began)
      __tpuprof_begin(Id);
  }
  explicit Scope(const char *name) : Scope(tpuprof_range_id(name)) {}
  ~Scope() {
    if (Began)
      __tpuprof_end(Id);
  }
  Scope(const Scope &) = delete;
  Scope &operator=(const Scope &) = delete;

private:
  uint32_t Id;
  bool Began;
};

/// Board-tool (bigTpuProfile) compatible names for tpuprof_enable /
/// tpuprof_disable. `max_record_num` 0 means TPUPROF_RECORD_SIZE.
inline int enableProfile(uint64_t max_record_num = 0, int mode = 0) {
  return tpuprof_enable(max_record_num, mode);
}
inline int disableProfile() { return tpuprof_disable(); }

} // namespace tpuprof

#define TPUPROF_SCOPE_CAT2(a, b) a##b
#define TPUPROF_SCOPE_CAT(a, b) TPUPROF_SCOPE_CAT2(a, b)
/// TPUPROF_SCOPE("name"): a user range from here to the end of the
/// enclosing block. The name is looked up once per call site (`name` must
/// be the same string every time this line runs).
#define TPUPROF_SCOPE(name)                                                    \
  static const uint32_t TPUPROF_SCOPE_CAT(tpuprof_scope_id_, __LINE__) =       \
      tpuprof_range_id(name);                                                  \
  ::tpuprof::Scope TPUPROF_SCOPE_CAT(tpuprof_scope_, __LINE__)(                \
      TPUPROF_SCOPE_CAT(tpuprof_scope_id_, __LINE__))

#endif // TPUPROF_TPUPROF_HPP
