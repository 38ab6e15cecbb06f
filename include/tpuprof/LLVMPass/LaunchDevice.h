//===- tpuprof/LLVMPass/LaunchDevice.h - Device-timing calls ----*- C++ -*-===//
//
// Redirects the calls of the API functions in format.h's
// TPUPROF_DEVICE_WRAPPED to the runtime's wrappers, which time what they
// enqueue on the device (docs/device.md). docs/llvm-pass.md is the
// user-facing description; keep the two in step.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_LLVMPASS_LAUNCHDEVICE_H
#define TPUPROF_LLVMPASS_LAUNCHDEVICE_H

namespace llvm {
class Module;
} // namespace llvm

namespace tpuprof {
namespace llvmpass {

/// Replaces every direct call or invoke of a wrapped API function F in
/// `module` by a call of TPUPROF_SYMBOL_WRAP_PREFIX F with F's arguments and
/// F itself appended. Probes already placed around a call stay around the
/// new one. Returns whether anything changed.
bool redirectDeviceCalls(llvm::Module &module);

} // namespace llvmpass
} // namespace tpuprof

#endif // TPUPROF_LLVMPASS_LAUNCHDEVICE_H
