//===- report/read/Diagnostics.h - Error and byte helpers -------*- C++ -*-===//
//
// Shared by the readers in this directory; not installed. Every reader error
// has one shape, "<file>: <what is wrong> at offset <N>", so that a user can
// find the broken byte with a hex dump and a script can parse the message.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_DIAGNOSTICS_H
#define TPUPROF_REPORT_DIAGNOSTICS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace tpuprof {
namespace report {
namespace detail {

/// "<file>: <what> at offset <offset>".
inline llvm::Error formatError(llvm::StringRef file, uint64_t offset,
                               const llvm::Twine &what) {
  return llvm::createStringError(file + ": " + what + " at offset " +
                                 llvm::Twine(offset));
}

/// Reads a little-endian value at `p`, which need not be aligned.
template <typename T> T readLE(const char *p) {
  return llvm::support::endian::read<T, llvm::endianness::little>(p);
}

} // namespace detail
} // namespace report
} // namespace tpuprof

/// Reads field `F` of the C struct `S` that starts at `base`. Going through
/// offsetof keeps the readers in step with format.h without assuming the
/// host's endianness or the buffer's alignment.
#define TPUPROF_READ_FIELD(base, S, F)                                         \
  ::tpuprof::report::detail::readLE<decltype(S::F)>((base) + offsetof(S, F))

/// File-relative offset of field `F` of struct `S` at file offset `off`.
#define TPUPROF_FIELD_OFFSET(off, S, F) ((off) + offsetof(S, F))

#endif // TPUPROF_REPORT_DIAGNOSTICS_H
