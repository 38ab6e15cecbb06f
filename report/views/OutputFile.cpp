//===- report/views/OutputFile.cpp - Write an output file -----------------===//

#include "tpuprof/report/views/OutputFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Signals.h"

using namespace llvm;

namespace {

Error cannotWrite(StringRef path, std::error_code ec) {
  return createStringError(ec, path + ": cannot write: " + ec.message());
}

/// True when `path` names something other than a regular file or nothing
/// (a device, a FIFO): written in place, never replaced.
bool isSpecial(StringRef path) {
  sys::fs::file_status st;
  if (sys::fs::status(path, st, /*follow=*/true))
    return false;
  return sys::fs::exists(st) && !sys::fs::is_regular_file(st) &&
         !sys::fs::is_directory(st);
}

} // namespace

Error tpuprof::report::takeStreamError(raw_fd_ostream &os, StringRef path) {
  if (!os.has_error())
    return Error::success();
  std::error_code ec = os.error();
  os.clear_error();
  return cannotWrite(path, ec);
}

namespace {

/// A new, empty temporary beside `path`, "<name>.tmp-XXXXXX": a rename
/// within one file system is atomic, and O_EXCL refuses whatever already
/// has the name. It is removed if the program is interrupted.
Error createTemporary(StringRef path, int &fd, SmallString<256> &tmp) {
  if (std::error_code ec =
          sys::fs::createUniqueFile(path + ".tmp-%%%%%%", fd, tmp))
    return cannotWrite(path, ec);
  sys::RemoveFileOnSignal(tmp);
  return Error::success();
}

/// Renames `tmp` to `path`, or removes it when `err` says the output
/// failed.
Error finish(StringRef path, StringRef tmp, Error err) {
  sys::DontRemoveFileOnSignal(tmp);
  if (!err) {
    std::error_code ec = sys::fs::rename(tmp, path);
    if (!ec)
      return Error::success();
    err = cannotWrite(path, ec);
  }
  sys::fs::remove(tmp);
  return err;
}

} // namespace

Error tpuprof::report::writeFileAtomically(StringRef path,
                                           function_ref<Error(StringRef)> write,
                                           SpecialFiles special) {
  if (special == SpecialFiles::WriteInPlace && isSpecial(path))
    return write(path);
  SmallString<256> tmp;
  int fd;
  if (Error err = createTemporary(path, fd, tmp))
    return err;
  sys::fs::closeFile(fd);
  return finish(path, tmp, write(tmp));
}

Error tpuprof::report::writeStreamAtomically(
    StringRef path, function_ref<Error(raw_ostream &)> write,
    SpecialFiles special) {
  auto writeTo = [&](raw_fd_ostream &os, StringRef name) -> Error {
    Error err = write(os);
    os.flush();
    if (err) {
      os.clear_error();
      return err;
    }
    return takeStreamError(os, name);
  };
  if (path == "-")
    return writeTo(outs(), "stdout");
  if (special == SpecialFiles::WriteInPlace && isSpecial(path)) {
    std::error_code ec;
    raw_fd_ostream os(path, ec, sys::fs::OF_None);
    if (ec)
      return cannotWrite(path, ec);
    return writeTo(os, path);
  }
  SmallString<256> tmp;
  int fd;
  if (Error err = createTemporary(path, fd, tmp))
    return err;
  Error err = [&]() -> Error {
    raw_fd_ostream os(fd, /*shouldClose=*/true);
    if (Error err = writeTo(os, path))
      return err;
    os.close();
    return takeStreamError(os, path);
  }();
  return finish(path, tmp, std::move(err));
}
