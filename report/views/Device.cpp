//===- report/views/Device.cpp - Device rows and queues -------------------===//
//
// docs/device.md ("Report") describes each block; keep the two in step.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/views/Device.h"
#include "tpuprof/report/views/Columns.h"
#include "tpuprof/report/views/TextTable.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <tuple>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

void tpuprof::report::printDeviceRows(const Profile &profile, raw_ostream &os) {
  if (profile.deviceRows.empty())
    return;
  std::vector<const DeviceRow *> rows;
  for (const DeviceRow &r : profile.deviceRows)
    rows.push_back(&r);
  llvm::sort(rows, [](const DeviceRow *a, const DeviceRow *b) {
    return std::tie(b->totalNs, a->name, a->queue, a->run, a->op) <
           std::tie(a->totalNs, b->name, b->queue, b->run, b->op);
  });
  os << "\nDevice commands\n---------------\n";
  TextTable t;
  using A = TextTable::Align;
  t.addColumn("Name", A::Left);
  t.addColumn("Op", A::Left);
  t.addColumn("Count", A::Right);
  t.addColumn("Device Total (us)", A::Right);
  t.addColumn("Mean (us)", A::Right);
  t.addColumn("Min (us)", A::Right);
  t.addColumn("Max (us)", A::Right);
  t.addColumn("Queue Delay (us)", A::Right);
  t.addColumn("Bytes", A::Right);
  t.addColumn("Queue", A::Left);
  if (profile.runsApart())
    t.addColumn("Run", A::Right);
  for (const DeviceRow *r : rows) {
    std::vector<std::string> cells = {
        r->name.empty() ? "-" : r->name,
        tpuprof_device_op_name(r->op),
        utostr(r->count),
        timeCell(r->totalNs, 0),
        timeCell(r->count ? r->totalNs / r->count : 0, 0),
        timeCell(r->count ? r->minNs : 0, 0),
        timeCell(r->maxNs, 0),
        timeCell(r->count ? r->queueDelayNs / r->count : 0, 0),
        utostr(r->bytes),
        r->queue};
    if (profile.runsApart())
      cells.push_back(utostr(r->run + 1));
    t.addRow(std::move(cells));
  }
  t.print(os);
  uint64_t unjoined = 0;
  for (const DeviceRow &r : profile.deviceRows)
    unjoined += r.unjoined;
  if (unjoined)
    os << unjoined
       << " commands were enqueued outside every probe: they are in no "
          "op's device time\n";
}

void tpuprof::report::printDeviceQueues(const Profile &profile,
                                        raw_ostream &os) {
  if (profile.deviceQueues.empty())
    return;
  os << "\nDevice queues\n-------------\n";
  TextTable t;
  using A = TextTable::Align;
  t.addColumn("Queue", A::Left);
  t.addColumn("Commands", A::Right);
  t.addColumn("Busy (us)", A::Right);
  t.addColumn("Busy %", A::Right);
  t.addColumn("Idle (us)", A::Right);
  t.addColumn("Clock Error (us)", A::Right);
  if (profile.runsApart())
    t.addColumn("Run", A::Right);
  for (const DeviceQueueStat &q : profile.deviceQueues) {
    std::vector<std::string> cells = {
        q.label,
        utostr(q.commands),
        timeCell(q.busyNs, 0),
        formatv("{0:F2}", q.windowNs
                              ? 100.0 * double(q.busyNs) / double(q.windowNs)
                              : 0.0)
            .str(),
        timeCell(q.idleNs(), 0),
        "<= " + timeCell(q.errorNs, 0)};
    if (profile.runsApart())
      cells.push_back(utostr(q.run + 1));
    t.addRow(std::move(cells));
  }
  t.print(os);
  uint64_t dropped = 0;
  for (const DumpSummary &d : profile.dumps)
    dropped += d.info.deviceData.dropped;
  if (dropped)
    os << dropped
       << " device commands got no device time (no profiling on their "
          "queue, or not finished when the window closed)\n";
}
