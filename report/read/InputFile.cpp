//===- report/read/InputFile.cpp - Read an input file ---------------------===//

#include "tpuprof/report/read/InputFile.h"

#include "llvm/ADT/Twine.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;

namespace {

/// What a file that is not regular is, for the error.
const char *fileKind(mode_t mode) {
  if (S_ISDIR(mode))
    return "a directory";
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISCHR(mode))
    return "a character device";
  if (S_ISBLK(mode))
    return "a block device";
  if (S_ISSOCK(mode))
    return "a socket";
  return "not a file";
}

/// Closes the descriptor on every path out.
struct FdCloser {
  int fd;
  ~FdCloser() { ::close(fd); }
};

} // namespace

Expected<std::unique_ptr<MemoryBuffer>>
tpuprof::report::readInputFile(StringRef path) {
  auto error = [&](const Twine &what, int err) {
    return createStringError(std::error_code(err, std::generic_category()),
                             path + ": " + what + std::strerror(err));
  };
  std::string name = path.str();
  // O_NONBLOCK: opening a FIFO for reading would wait for a writer.
  int fd;
  do
    fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  while (fd < 0 && errno == EINTR);
  if (fd < 0)
    return error("cannot open: ", errno);
  FdCloser closer{fd};
  struct stat st;
  if (::fstat(fd, &st) != 0)
    return error("cannot open: ", errno);
  if (!S_ISREG(st.st_mode))
    return createStringError(std::make_error_code(std::errc::invalid_argument),
                             path + ": not a regular file (" +
                                 fileKind(st.st_mode) + ")");
  uint64_t size = static_cast<uint64_t>(st.st_size);
  std::unique_ptr<WritableMemoryBuffer> buffer =
      WritableMemoryBuffer::getNewUninitMemBuffer(size, path);
  if (!buffer)
    return error("cannot read: ", ENOMEM);
  char *data = buffer->getBufferStart();
  uint64_t got = 0;
  while (got < size) {
    ssize_t n = ::read(fd, data + got, size - got);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return error("cannot read: ", errno);
    if (n == 0)
      break; // It shrank since fstat: what was read is the file.
    got += static_cast<uint64_t>(n);
  }
  if (got == size)
    return std::unique_ptr<MemoryBuffer>(std::move(buffer));
  return MemoryBuffer::getMemBufferCopy(StringRef(data, got), path);
}
