//===- tpuprof/report/views/OutputFile.h - Write an output file -*- C++ -*-===//
//
// How every view writes a file: into a new temporary beside it (created
// with O_EXCL, so a name planted in a shared directory, a symlink among
// them, is never opened), renamed over the name once everything was written
// and closed without error. A failed write, a full disk or a file size
// limit leaves no partial file and ends in one line, "<path>: cannot write:
// No space left on device". Where a name the user gave is not a regular
// file (/dev/null, /dev/stdout, a FIFO) the output goes to it directly,
// with the same checks; names a tool composes (the bundle's) are always
// replaced, never written through.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_VIEWS_OUTPUTFILE_H
#define TPUPROF_REPORT_VIEWS_OUTPUTFILE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace tpuprof {
namespace report {

/// What to do when the name is a device or FIFO (or a symlink to one).
enum class SpecialFiles {
  WriteInPlace, ///< The user named it (-o /dev/stdout): write to it.
  Replace,      ///< A composed name: rename the new file over the entry.
};

/// Writes `path` with `write`, which gets the path to write instead (a
/// temporary in the same directory) and must have closed it when it
/// returns. On success the temporary is renamed to `path`; on any error it
/// is removed and `path` is left as it was.
llvm::Error
writeFileAtomically(llvm::StringRef path,
                    llvm::function_ref<llvm::Error(llvm::StringRef)> write,
                    SpecialFiles special = SpecialFiles::WriteInPlace);

/// writeFileAtomically() for a view that writes a stream. Write and close
/// errors are checked. `path` "-" is stdout.
llvm::Error writeStreamAtomically(
    llvm::StringRef path,
    llvm::function_ref<llvm::Error(llvm::raw_ostream &)> write,
    SpecialFiles special = SpecialFiles::WriteInPlace);

/// The error of a stream that failed (has_error()), as one line naming
/// `path`; clears the stream's error so that it does not abort the program
/// when it is destroyed. Success when the stream has none.
llvm::Error takeStreamError(llvm::raw_fd_ostream &os, llvm::StringRef path);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_VIEWS_OUTPUTFILE_H
