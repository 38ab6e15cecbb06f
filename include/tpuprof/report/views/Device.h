//===- tpuprof/report/views/Device.h - Device rows and queues ---*- C++ -*-===//
//
// The text blocks of device time (docs/device.md): the table's device
// commands per kernel name, and the summary's busy and idle time per queue
// with the clock conversion's error bound.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_VIEWS_DEVICE_H
#define TPUPROF_REPORT_VIEWS_DEVICE_H

#include "tpuprof/report/model/Aggregate.h"

#include "llvm/Support/raw_ostream.h"

namespace tpuprof {
namespace report {

/// "Device commands" and one line per kernel name and queue, by total
/// time; nothing without device records.
void printDeviceRows(const Profile &profile, llvm::raw_ostream &os);

/// "Device queues" and one line per queue: commands, busy, idle and the
/// clock conversion's error bound; nothing without device records.
void printDeviceQueues(const Profile &profile, llvm::raw_ostream &os);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_VIEWS_DEVICE_H
