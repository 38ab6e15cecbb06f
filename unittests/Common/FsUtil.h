//===- FsUtil.h - Files and child processes for tests -----------*- C++ -*-===//
//
// Helpers that the runtime and reliability GoogleTests share (their CMake
// targets add unittests/Common to the include path).
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_TEST_COMMON_FSUTIL_H
#define TPUPROF_TEST_COMMON_FSUTIL_H

#include <algorithm>
#include <cstdlib>
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

/// Adds to a child's environment the sanitizer and loader variables of ours
/// (a sanitized child must find its options and suppressions too).
inline void keepSanitizerEnv(std::vector<std::string> &env) {
  for (const char *keep : {"ASAN_OPTIONS", "UBSAN_OPTIONS", "TSAN_OPTIONS",
                           "LSAN_OPTIONS", "LD_LIBRARY_PATH"})
    if (const char *v = getenv(keep))
      env.push_back(std::string(keep) + "=" + v);
}

/// The NULL-terminated argv/envp of `strings`, which must outlive it.
inline std::vector<char *> cStrings(std::vector<std::string> &strings) {
  std::vector<char *> pointers;
  for (std::string &s : strings)
    pointers.push_back(s.data());
  pointers.push_back(nullptr);
  return pointers;
}

} // namespace test
} // namespace tpuprof

#endif // TPUPROF_TEST_COMMON_FSUTIL_H
