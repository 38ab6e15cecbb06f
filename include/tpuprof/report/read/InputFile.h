//===- tpuprof/report/read/InputFile.h - Read an input file -----*- C++ -*-===//
//
// How the report library reads every file it is given (dumps, JSON exports,
// IR, traces): whole, into memory, with read(2). Only a regular file is
// read: a FIFO would block forever and a character device never ends, so
// both are refused before a byte is read (the open does not block on a
// FIFO). The file is not memory-mapped, so another process that shrinks it
// meanwhile cannot make the reader fault: the bytes read are the bytes
// validated.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_READ_INPUTFILE_H
#define TPUPROF_REPORT_READ_INPUTFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>

namespace tpuprof {
namespace report {

/// Reads `path` (a regular file) into memory, up to the size it had when it
/// was opened, or less when it shrank meanwhile. Errors are one line:
/// "<path>: cannot open: <reason>", "<path>: not a regular file (a FIFO)",
/// "<path>: cannot read: <reason>".
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readInputFile(llvm::StringRef path);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_READ_INPUTFILE_H
