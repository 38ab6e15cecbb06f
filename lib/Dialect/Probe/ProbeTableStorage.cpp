//===- ProbeTableStorage.cpp - storage of #tpuprof.probes -----------------===//
//
// The attribute's generated storage and its registration, in a file of their
// own because ASan builds compile this file without ASan. The storage is
// allocated through LLVM's BumpPtrAllocator, whose header code poisons and
// unpoisons memory when built with ASan. An instrumented copy of it here
// would replace, at link time, the uninstrumented copy inside the prebuilt
// MLIR libraries, which would then read memory that this copy poisoned.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/Dialect/Probe/ProbeDialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tpuprof;

#define GET_ATTRDEF_CLASSES
#include "tpuprof/Dialect/Probe/ProbeAttrs.cpp.inc"

void TpuProfDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tpuprof/Dialect/Probe/ProbeAttrs.cpp.inc"
      >();
}
