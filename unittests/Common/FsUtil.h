//===- FsUtil.h - File-system helpers for tests --------------- -*- C++ -*-===//
//
// Helpers that the runtime and reliability GoogleTests share (their CMake
// targets add unittests/Common to the include path).
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_TEST_COMMON_FSUTIL_H
#define TPUPROF_TEST_COMMON_FSUTIL_H

#include <algorithm>
#include <dirent.h>
#include <string>
#include <vector>

namespace tpuprof {
namespace test {

/// The names in `dir` other than "." and "..", sorted so that tests can
/// compare listings; empty when `dir` cannot be opened.
inline std::vector<std::string> listDir(const std::string &dir) {
  std::vector<std::string> names;
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *e = readdir(d)) {
      std::string n = e->d_name;
      if (n != "." && n != "..")
        names.push_back(n);
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

} // namespace test
} // namespace tpuprof

#endif // TPUPROF_TEST_COMMON_FSUTIL_H
