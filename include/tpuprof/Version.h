//===- tpuprof/Version.h - What every tool's --version says -----*- C++ -*-===//
//
// One version line for every tool: "<tool> (tpuprof X.Y.Z)", the project's
// version from CMake (TPUPROF_VERSION, set for every target under tools/),
// then the LLVM it was built with. Not installed: tools only.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_VERSION_H
#define TPUPROF_VERSION_H

#ifndef TPUPROF_VERSION
#error "TPUPROF_VERSION is defined by tools/CMakeLists.txt"
#endif

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>

namespace tpuprof {

/// Makes --version print `tool`'s tpuprof version and the LLVM it was
/// built with, in place of LLVM's own lines; `extra` (may be empty) adds
/// lines of the tool's own.
inline void
setVersionPrinter(const char *tool,
                  std::function<void(llvm::raw_ostream &)> extra = nullptr) {
  llvm::cl::SetVersionPrinter([tool, extra](llvm::raw_ostream &os) {
    os << tool << " (tpuprof " TPUPROF_VERSION ")\n"
       << "  built with LLVM " LLVM_VERSION_STRING "\n";
    if (extra)
      extra(os);
  });
}

} // namespace tpuprof

#endif // TPUPROF_VERSION_H
