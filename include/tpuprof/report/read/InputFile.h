//===- tpuprof/report/read/InputFile.h - Read an input file -----*- C++ -*-===//
//
// How the report library reads every file it is given (dumps, JSON exports,
// IR, traces): whole, into memory, with read(2). Only a regular file is
// read: a FIFO would block forever and a character device never ends, so
// both are refused before a byte is read (the open does not block on a
// FIFO). The file is not memory-mapped, so another process that shrinks it
// meanwhile cannot make the reader fault: the bytes read are the bytes
// validated. InputFile keeps a file open to read it a range at a time
// instead (DumpReader::openStreaming).
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_READ_INPUTFILE_H
#define TPUPROF_REPORT_READ_INPUTFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <string>

namespace tpuprof {
namespace report {

/// Reads `path` (a regular file) into memory, up to the size it had when it
/// was opened, or less when it shrank meanwhile. Errors are one line:
/// "<path>: cannot open: <reason>", "<path>: not a regular file (a FIFO)",
/// "<path>: cannot read: <reason>".
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readInputFile(llvm::StringRef path);

/// A regular file kept open to be read a range at a time (pread(2)), for
/// readers that stream a file bigger than they want to hold. Opens with the
/// same checks and errors as readInputFile.
class InputFile {
public:
  static llvm::Expected<InputFile> open(llvm::StringRef path);
  InputFile(InputFile &&other) noexcept;
  InputFile &operator=(InputFile &&other) noexcept;
  InputFile(const InputFile &) = delete;
  InputFile &operator=(const InputFile &) = delete;
  ~InputFile();

  llvm::StringRef path() const { return name; }
  /// The size the file had when it was opened.
  uint64_t size() const { return fileSize; }
  /// Reads up to `length` bytes at `offset` into `out`; returns how many
  /// were read (fewer at the end of the file, or when it shrank). Safe to
  /// call from several threads at once. Errors: "<path>: cannot read: ...".
  llvm::Expected<uint64_t> readAt(uint64_t offset, char *out,
                                  uint64_t length) const;

private:
  InputFile(std::string name, int fd, uint64_t size)
      : name(std::move(name)), fd(fd), fileSize(size) {}
  std::string name;
  int fd = -1;
  uint64_t fileSize = 0;
};

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_READ_INPUTFILE_H
