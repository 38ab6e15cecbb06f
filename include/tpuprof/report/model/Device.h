//===- tpuprof/report/model/Device.h - Device intervals ---------*- C++ -*-===//
//
// What ran on devices (a dump's DEVICE section, docs/device.md), joined to
// the host records that launched it: the per-op rows' device columns
// (Aggregate.cpp), the device rows per kernel name, and each queue's busy
// and idle time for the summary.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_MODEL_DEVICE_H
#define TPUPROF_REPORT_MODEL_DEVICE_H

#include "tpuprof/report/read/Dump.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tpuprof {
namespace report {

/// One kernel name (or copy kind) on one queue of one run: its commands.
struct DeviceRow {
  std::string name;  ///< Kernel name, or "read buffer", ...
  uint16_t op = 0;   ///< tpuprof_device_op
  std::string queue; ///< deviceQueueLabel()
  uint32_t run = 0;
  uint64_t count = 0;
  uint64_t totalNs = 0, minNs = UINT64_MAX, maxNs = 0;
  uint64_t queueDelayNs = 0; ///< Sum of start - queued.
  uint64_t bytes = 0;        ///< Copies: bytes moved.
  uint64_t unjoined = 0;     ///< Commands whose launch record is unknown.
};

/// One device queue of one dump: how busy it was in the window.
struct DeviceQueueStat {
  std::string label; ///< deviceQueueLabel()
  uint32_t run = 0;
  uint64_t commands = 0;
  uint64_t busyNs = 0;   ///< Union of its commands' intervals.
  uint64_t windowNs = 0; ///< The dump's window.
  uint64_t errorNs = 0;  ///< Its clock conversion's error bound.
  uint64_t idleNs() const { return windowNs > busyNs ? windowNs - busyNs : 0; }
};

/// "opencl queue 0 (pthread-x (Portable Computing Language))".
std::string deviceQueueLabel(const DeviceData &device, uint32_t queue);

/// A dump's device records by the record that launched them.
class DeviceJoin {
public:
  explicit DeviceJoin(const DumpInfo &info);
  /// Indices into info.device.records of the commands launched by the
  /// record of probe `probe` that began at `begin` on thread `number`
  /// (ThreadInfo::number).
  llvm::ArrayRef<uint32_t> launchedBy(uint32_t number, uint64_t begin,
                                      uint32_t probe) const;
  bool empty() const { return byLaunch.empty(); }

private:
  const DeviceData &device;
  llvm::DenseMap<std::pair<uint32_t, uint64_t>, llvm::SmallVector<uint32_t, 1>>
      byLaunch;
};

/// Adds a dump's device records to `rows` (merged by run, queue, op and
/// name) and its queues to `queues`.
void addDeviceRows(const DumpInfo &info, uint32_t run,
                   std::vector<DeviceRow> &rows,
                   std::vector<DeviceQueueStat> &queues);

/// Adds `row` into `rows`: into the row of the same run, queue, op and
/// name, else as a new one.
void mergeDeviceRow(std::vector<DeviceRow> &rows, const DeviceRow &row);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_MODEL_DEVICE_H
