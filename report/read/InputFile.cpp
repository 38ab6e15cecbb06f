//===- report/read/InputFile.cpp - Read an input file ---------------------===//

#include "tpuprof/report/read/InputFile.h"

#include "llvm/ADT/Twine.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;
using tpuprof::report::InputFile;

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

/// Opens `path` for reading, refusing anything but a regular file; sets
/// `size` to its size.
Expected<int> openRegular(StringRef path, uint64_t &size) {
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
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    return error("cannot open: ", err);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return createStringError(std::make_error_code(std::errc::invalid_argument),
                             path + ": not a regular file (" +
                                 fileKind(st.st_mode) + ")");
  }
  size = static_cast<uint64_t>(st.st_size);
  return fd;
}

Error readError(StringRef path, int err) {
  return createStringError(std::error_code(err, std::generic_category()),
                           path + ": cannot read: " + std::strerror(err));
}

} // namespace

Expected<std::unique_ptr<MemoryBuffer>>
tpuprof::report::readInputFile(StringRef path) {
  uint64_t size = 0;
  Expected<int> opened = openRegular(path, size);
  if (!opened)
    return opened.takeError();
  int fd = *opened;
  FdCloser closer{fd};
  std::unique_ptr<WritableMemoryBuffer> buffer =
      WritableMemoryBuffer::getNewUninitMemBuffer(size, path);
  if (!buffer)
    return readError(path, ENOMEM);
  char *data = buffer->getBufferStart();
  uint64_t got = 0;
  while (got < size) {
    ssize_t n = ::read(fd, data + got, size - got);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return readError(path, errno);
    if (n == 0)
      break; // It shrank since fstat: what was read is the file.
    got += static_cast<uint64_t>(n);
  }
  if (got == size)
    return std::unique_ptr<MemoryBuffer>(std::move(buffer));
  return MemoryBuffer::getMemBufferCopy(StringRef(data, got), path);
}

Expected<InputFile> InputFile::open(StringRef path) {
  uint64_t size = 0;
  Expected<int> fd = openRegular(path, size);
  if (!fd)
    return fd.takeError();
  return InputFile(path.str(), *fd, size);
}

InputFile::InputFile(InputFile &&other) noexcept
    : name(std::move(other.name)), fd(other.fd), fileSize(other.fileSize) {
  other.fd = -1;
}

InputFile &InputFile::operator=(InputFile &&other) noexcept {
  if (this != &other) {
    if (fd >= 0)
      ::close(fd);
    name = std::move(other.name);
    fd = other.fd;
    fileSize = other.fileSize;
    other.fd = -1;
  }
  return *this;
}

InputFile::~InputFile() {
  if (fd >= 0)
    ::close(fd);
}

Expected<uint64_t> InputFile::readAt(uint64_t offset, char *out,
                                     uint64_t length) const {
  uint64_t got = 0;
  while (got < length) {
    ssize_t n = ::pread(fd, out + got, length - got, off_t(offset + got));
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return readError(name, errno);
    if (n == 0)
      break;
    got += static_cast<uint64_t>(n);
  }
  return got;
}
