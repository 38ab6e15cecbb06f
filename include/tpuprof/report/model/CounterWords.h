//===- tpuprof/report/model/CounterWords.h - Counter words -----*- C++ -*-===//
//
// A record's counter words, one per name of its dump's EVENTS section, are
// PMU event deltas followed by the runtime's pseudo-words (format.h): the
// group's TIME_ENABLED and TIME_RUNNING, READ_TICKS and, in mode 2, CPU.
// This is the one place that turns them into what every view shows: a PMU
// event that was multiplexed (running < enabled) is scaled by enabled /
// running, and one never scheduled (running == 0) has no value. The
// aggregation (table, summary, exports) and the record views (trace,
// SQLite, HTML timeline) all read counts through it, so their totals agree.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_MODEL_COUNTERWORDS_H
#define TPUPROF_REPORT_MODEL_COUNTERWORDS_H

#include "tpuprof/report/read/Dump.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <string>

namespace tpuprof {
namespace report {

/// One counter word of a record, decoded.
struct CounterValue {
  uint64_t value = 0;  ///< Scaled for multiplexing; 0 when not counted.
  bool counted = true; ///< False: a PMU event never scheduled in the record.
  bool scaled = false; ///< A PMU event multiplexed and scaled up.
};

/// The layout of one dump's counter words (its EVENTS names).
class CounterWords {
public:
  CounterWords() = default;
  explicit CounterWords(llvm::ArrayRef<std::string> events);

  /// Words per record that have a name.
  unsigned size() const { return unsigned(pseudo.size()); }
  /// Word `word` is a PMU event (not one of the runtime's pseudo-words).
  bool isEvent(unsigned word) const {
    return word < pseudo.size() && !pseudo[word];
  }
  /// The word of tpuprof::CPU (mode 2), or -1.
  int cpuWord() const { return cpu; }

  /// Word `word` of `r`: a PMU event scaled for multiplexing; a pseudo-word
  /// as recorded.
  CounterValue value(const RecordView &r, unsigned word) const;

private:
  llvm::SmallVector<bool, 8> pseudo;
  int enabled = -1, running = -1, cpu = -1;
};

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_MODEL_COUNTERWORDS_H
