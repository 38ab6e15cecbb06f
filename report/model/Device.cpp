//===- report/model/Device.cpp - Device intervals -------------------------===//
//
// Joins device records to their launch records by (thread, begin), the
// record id the runtime writes (format.h, tpuprof_device_record), and folds
// them into device rows and queue statistics.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/model/Device.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

std::string tpuprof::report::deviceQueueLabel(const DeviceData &device,
                                              uint32_t queue) {
  if (queue >= device.queues.size())
    return ("queue " + Twine(queue)).str();
  const DeviceQueue &q = device.queues[queue];
  std::string label =
      (Twine(tpuprof_device_api_name(q.api)) + " queue " + Twine(q.number))
          .str();
  if (!q.deviceName.empty())
    label += " (" + q.deviceName + ")";
  return label;
}

DeviceJoin::DeviceJoin(const DumpInfo &info) : device(info.deviceData) {
  for (uint32_t i = 0; i != device.records.size(); ++i) {
    const DeviceRecord &r = device.records[i];
    if (r.hasLaunch())
      byLaunch[{r.launchThread, r.launchBegin}].push_back(i);
  }
}

ArrayRef<uint32_t> DeviceJoin::launchedBy(uint32_t number, uint64_t begin,
                                          uint32_t probe) const {
  auto it = byLaunch.find({number, begin});
  if (it == byLaunch.end())
    return {};
  // (thread, begin) is the record id; the probe only confirms it.
  const DeviceRecord &first = device.records[it->second.front()];
  if (first.launchProbe != probe)
    return {};
  return it->second;
}

void tpuprof::report::addDeviceRows(const DumpInfo &info, uint32_t run,
                                    std::vector<DeviceRow> &rows,
                                    std::vector<DeviceQueueStat> &queues) {
  const DeviceData &device = info.deviceData;
  if (!device.present)
    return;
  std::vector<size_t> queueSlot(device.queues.size());
  std::vector<uint64_t> busyEnd(device.queues.size(), 0);
  for (uint32_t q = 0; q != device.queues.size(); ++q) {
    DeviceQueueStat s;
    s.label = deviceQueueLabel(device, q);
    s.run = run;
    s.windowNs = info.windowNs();
    uint32_t clock = device.queues[q].clock;
    s.errorNs = clock < device.clocks.size() ? device.clocks[clock].errorNs : 0;
    queueSlot[q] = queues.size();
    queues.push_back(std::move(s));
  }
  for (const DeviceRecord &r : device.records) {
    DeviceQueueStat &qs = queues[queueSlot[r.queue]];
    ++qs.commands;
    // Records are in start order: the union of intervals in one pass.
    uint64_t &last = busyEnd[r.queue];
    uint64_t from = std::max(r.start, last);
    if (r.end > from) {
      qs.busyNs += info.ticksToNs(r.end - from);
      last = r.end;
    }
    std::string queue = qs.label;
    auto it = llvm::find_if(rows, [&](const DeviceRow &d) {
      return d.run == run && d.op == r.op && d.name == r.name &&
             d.queue == queue;
    });
    if (it == rows.end()) {
      rows.emplace_back();
      it = std::prev(rows.end());
      it->name = r.name;
      it->op = r.op;
      it->queue = queue;
      it->run = run;
    }
    uint64_t ns = info.ticksToNs(r.end - r.start);
    ++it->count;
    it->totalNs += ns;
    it->minNs = std::min(it->minNs, ns);
    it->maxNs = std::max(it->maxNs, ns);
    if (r.start > r.queued)
      it->queueDelayNs += info.ticksToNs(r.start - r.queued);
    it->bytes += r.bytes;
    it->unjoined += !r.hasLaunch();
  }
}

void tpuprof::report::mergeDeviceRow(std::vector<DeviceRow> &rows,
                                     const DeviceRow &row) {
  auto it = llvm::find_if(rows, [&](const DeviceRow &d) {
    return d.run == row.run && d.op == row.op && d.name == row.name &&
           d.queue == row.queue;
  });
  if (it == rows.end()) {
    rows.push_back(row);
    return;
  }
  it->count += row.count;
  it->totalNs += row.totalNs;
  it->minNs = std::min(it->minNs, row.minNs);
  it->maxNs = std::max(it->maxNs, row.maxNs);
  it->queueDelayNs += row.queueDelayNs;
  it->bytes += row.bytes;
  it->unjoined += row.unjoined;
}
