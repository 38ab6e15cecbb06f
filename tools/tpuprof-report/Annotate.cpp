//===- tools/tpuprof-report/Annotate.cpp - `tpuprof-report annotate` ------===//
//
// Stats in the IR (tools/tpuprof-annotate). That needs MLIR to parse and
// print IR, so it is a sibling binary and this tool links LLVM Support only;
// the command line is handed over as it is.
//
//===----------------------------------------------------------------------===//

#include "Subcommand.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

using namespace llvm;
using namespace tpuprof::reporttool;

namespace {

cl::SubCommand annotateCmd("annotate",
                           "IR with a tpuprof.stats attribute on each measured "
                           "op (runs tpuprof-annotate)");

int execAnnotate(int argc, char **argv) {
  std::string self = sys::fs::getMainExecutable(argv[0], (void *)&fail);
  SmallString<256> tool(sys::path::parent_path(self));
  sys::path::append(tool, "tpuprof-annotate");
  if (!sys::fs::can_execute(tool))
    return fail(createStringError("annotate: " + tool +
                                  " not found (it is built with "
                                  "TPUPROF_ENABLE_MLIR=ON)"));
  std::vector<StringRef> args = {tool};
  for (int i = 2; i < argc; ++i)
    args.push_back(argv[i]);
  std::string msg;
  int rc = sys::ExecuteAndWait(tool, args, std::nullopt, {}, 0, 0, &msg);
  if (rc < 0)
    return fail(createStringError("annotate: cannot run " + tool + ": " + msg));
  return rc;
}

Subcommand registration(annotateCmd, execAnnotate);

} // namespace
