//===- report/views/Table.cpp - Print the per-op table --------------------===//
//
// Layout: every column is as wide as its widest cell (title included), text
// is left-aligned and numbers right-aligned, columns are two spaces apart and
// no line has trailing blanks. docs/report.md is the user-facing description;
// keep the two in step.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/views/Table.h"
#include "tpuprof/report/views/Counters.h"
#include "tpuprof/report/views/TextTable.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <optional>
#include <set>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

namespace {

enum Column : unsigned {
  ColName,
  ColDuration,
  ColSelf,
  ColPercent,
  ColDevice,
  ColCount,
  ColShapes,
  ColHash,
  ColLocation,
  // Optional columns (TableOptions::stats, ::work, peaks), after Location.
  ColMin,
  ColMean,
  ColMedian,
  ColP90,
  ColP99,
  ColMax,
  ColFlops,
  ColGflops,
  ColBytes,
  ColBandwidth,
  ColBound,
  NumColumns
};

struct ColumnSpec {
  StringRef title;
  StringRef sortName;
  bool numeric; ///< Right-aligned; sorts descending by default.
};

const ColumnSpec columns[NumColumns] = {
    {"Name", "name", false},      {"Duration (us)", "duration", true},
    {"Self (us)", "self", true},
    {"Percent", "percent", true}, {"Device", "device", true},
    {"Count", "count", true},     {"Argument Shapes", "shapes", false},
    {"Hash", "hash", false},      {"Location", "location", false},
    {"Min (us)", "min", true},    {"Mean (us)", "mean", true},
    {"Median (us)", "median", true}, {"P90 (us)", "p90", true},
    {"P99 (us)", "p99", true},    {"Max (us)", "max", true},
    {"FLOPs", "flops", true},     {"GFLOP/s", "gflops", true},
    {"Bytes", "bytes", true},     {"GB/s", "bandwidth", true},
    {"Bound", "bound", false},
};

const StringRef sortNames[NumColumns] = {
    "name", "duration", "self", "percent", "device", "count",  "shapes",
    "hash", "location", "min",     "mean",   "median", "p90",
    "p99",  "max",      "flops",   "gflops", "bytes",  "bandwidth",
    "bound"};

/// Static work per call, GFLOP/s and GB/s of a row (0 when unknown).
double gflopsOf(const Row &row) {
  return row.durationNs ? double(row.flops) * double(row.count) /
                              double(row.durationNs)
                        : 0.0;
}
double gbpsOf(const Row &row) {
  return row.durationNs ? double(row.bytes) * double(row.count) /
                              double(row.durationNs)
                        : 0.0;
}
/// Arithmetic intensity (FLOPs per byte); -1 when unknown.
double intensityOf(const Row &row) {
  return row.flops && row.bytes ? double(row.flops) / double(row.bytes)
                                : -1.0;
}

std::optional<Column> findColumn(StringRef name) {
  for (unsigned c = 0; c != NumColumns; ++c)
    if (columns[c].sortName == name)
      return Column(c);
  return std::nullopt;
}

Error unknownColumn(StringRef name) {
  return createStringError(
      inconvertibleErrorCode(),
      "unknown sort column '" + name + "' (expected one of: " +
          join(std::begin(sortNames), std::end(sortNames), ", ") + ")");
}

std::string formatUs(uint64_t ns) {
  return formatv("{0:F2}", double(ns) / 1000.0).str();
}

std::string formatPercent(uint64_t ns, uint64_t totalNs) {
  return formatv("{0:F2}", totalNs ? 100.0 * double(ns) / double(totalNs) : 0.0)
      .str();
}

/// A span in the largest unit that keeps it >= 1, e.g. "1.23 s".
std::string formatSpan(uint64_t ns) {
  if (ns >= 1000000000)
    return formatv("{0:F2} s", double(ns) / 1e9).str();
  if (ns >= 1000000)
    return formatv("{0:F2} ms", double(ns) / 1e6).str();
  return formatv("{0:F2} us", double(ns) / 1e3).str();
}

std::string hashCell(const Row &row) {
  if (row.unknownProbe)
    return "-";
  if (row.mixedHash)
    return "*";
  return utohexstr(row.hash, /*LowerCase=*/true, /*Width=*/16);
}

std::string locationCell(const Row &row) {
  if (row.locations.empty())
    return "-";
  std::string s = row.locations.front();
  if (row.locations.size() > 1)
    s += (" (+" + Twine(row.locations.size() - 1) + " more)").str();
  return s;
}

StringRef modeName(uint32_t mode) {
  switch (mode) {
  case 0:
    return "timing";
  case 1:
    return "counters";
  case 2:
    return "detailed";
  }
  return "unknown";
}

/// Three-way comparison of `a` and `b` on column `c`, smallest first.
int compareOn(Column c, const Row &a, const Row &b) {
  auto cmp = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
  switch (c) {
  case ColName:
    return a.name.compare(b.name);
  case ColDuration:
  case ColPercent:
    return cmp(a.durationNs, b.durationNs);
  case ColSelf:
    return cmp(a.selfNs, b.selfNs);
  case ColDevice:
    return cmp(a.device, b.device);
  case ColCount:
    return cmp(a.count, b.count);
  case ColShapes:
    return a.shapes.compare(b.shapes);
  case ColHash:
    // As the cells compare: "-" (unknown probe) before any hex digits.
    return cmp(std::make_pair(!a.unknownProbe, a.hash),
               std::make_pair(!b.unknownProbe, b.hash));
  case ColLocation:
    return a.location().compare(b.location());
  case ColMin:
    return cmp(a.durations.min(), b.durations.min());
  case ColMean:
    return cmp(a.durations.mean(), b.durations.mean());
  case ColMedian:
    return cmp(a.durations.quantile(0.5), b.durations.quantile(0.5));
  case ColP90:
    return cmp(a.durations.quantile(0.9), b.durations.quantile(0.9));
  case ColP99:
    return cmp(a.durations.quantile(0.99), b.durations.quantile(0.99));
  case ColMax:
    return cmp(a.durations.max(), b.durations.max());
  case ColFlops:
    return cmp(a.flops, b.flops);
  case ColGflops:
    return cmp(gflopsOf(a), gflopsOf(b));
  case ColBytes:
    return cmp(a.bytes, b.bytes);
  case ColBandwidth:
    return cmp(gbpsOf(a), gbpsOf(b));
  case ColBound:
    return cmp(intensityOf(a), intensityOf(b));
  case NumColumns:
    break;
  }
  return 0;
}

/// The Clock line's value, over all dumps.
std::string clockDescription(const Profile &profile) {
  unsigned tsc = 0, mono = 0;
  uint64_t ticks = 0, ns = 0;
  for (const DumpSummary &d : profile.dumps) {
    if (d.info.clockSource == TPUPROF_CLOCK_TSC) {
      ++tsc;
      // Pool the calibrations: the frequency over all dumps' spans together.
      ticks += d.info.calibTicks1 - d.info.calibTicks0;
      ns += d.info.calibNs1 - d.info.calibNs0;
    } else {
      ++mono;
    }
  }
  if (tsc && mono)
    return formatv("mixed (tsc in {0} dumps, monotonic in {1})", tsc, mono)
        .str();
  if (mono)
    return "monotonic (CLOCK_MONOTONIC, ns)";
  if (!tsc)
    return "-";
  return formatv("tsc, {0:F3} GHz (calibrated against CLOCK_MONOTONIC over "
                 "{1})",
                 double(ticks) / double(ns), formatSpan(ns))
      .str();
}

} // namespace

ArrayRef<StringRef> tpuprof::report::sortColumnNames() { return sortNames; }

Error tpuprof::report::parseSortSpec(StringRef spec, TableOptions &opts) {
  StringRef name = spec;
  std::optional<bool> ascending;
  if (name.consume_front("+"))
    ascending = true;
  else if (name.consume_front("-"))
    ascending = false;
  std::optional<Column> c = findColumn(name);
  if (!c)
    return unknownColumn(name);
  opts.sortColumn = name.str();
  opts.ascending = ascending.value_or(!columns[*c].numeric);
  return Error::success();
}

Error tpuprof::report::sortRows(std::vector<Row> &rows,
                                const TableOptions &opts) {
  std::optional<Column> c = findColumn(opts.sortColumn);
  if (!c)
    return unknownColumn(opts.sortColumn);
  auto less = [&](const Row &a, const Row &b) {
    if (int r = compareOn(*c, a, b))
      return opts.ascending ? r < 0 : r > 0;
    // Fixed tie-breakers keep the output deterministic.
    if (int r = compareOn(ColDuration, a, b))
      return r > 0;
    for (Column t : {ColName, ColShapes, ColDevice, ColHash})
      if (int r = compareOn(t, a, b))
        return r < 0;
    return a.probeId < b.probeId;
  };
  // Rows are unique by (hash or unknown id, shapes, device), so the
  // tie-breakers make this a total order and an unstable sort deterministic.
  llvm::sort(rows, less);
  return Error::success();
}

Error tpuprof::report::printTable(const Input &in, const TableOptions &opts,
                                  raw_ostream &os) {
  const Profile &profile = in.profile;
  std::vector<Row> rows = profile.rows;
  if (Error err = sortRows(rows, opts))
    return err;
  uint64_t totalCount = 0;
  for (const Row &row : rows)
    totalCount += row.count;
  // Filters choose the rows shown; Sum and Total still cover every row.
  Regex filter(opts.filter);
  std::string regexError;
  if (!opts.filter.empty() && !filter.isValid(regexError))
    return createStringError(inconvertibleErrorCode(),
                             "--filter: bad regular expression '" +
                                 opts.filter + "': " + regexError);
  size_t before = rows.size();
  llvm::erase_if(rows, [&](const Row &row) {
    return (!opts.filter.empty() && !filter.match(row.name)) ||
           (opts.kind >= 0 && row.kind != opts.kind) ||
           row.durationNs < opts.minTimeNs;
  });
  size_t filtered = before - rows.size();
  bool visible[NumColumns];
  for (unsigned c = 0; c != NumColumns; ++c)
    visible[c] = c < ColMin || (opts.stats && c <= ColMax) ||
                 (opts.work && c >= ColFlops && c <= ColBandwidth) ||
                 (c == ColBound && opts.peakGflops > 0 && opts.peakGBps > 0);
  size_t shown = rows.size();
  if (opts.top && opts.top < shown)
    shown = opts.top;

  // PMU counter columns (Counters.h) come after every fixed column; their
  // number depends on the events the dumps recorded.
  bool anyScaled = false;
  std::vector<CounterColumn> counterCols = counterColumns(
      profile, ArrayRef<Row>(rows).take_front(shown), anyScaled);

  TextTable table;
  for (unsigned c = 0; c != NumColumns; ++c)
    if (visible[c])
      table.addColumn(columns[c].title.str(), columns[c].numeric
                                                  ? TextTable::Align::Right
                                                  : TextTable::Align::Left);
  // Right-aligned like every number; '*' marks a scaled value.
  for (const CounterColumn &cc : counterCols)
    table.addColumn(cc.title, TextTable::Align::Right);

  using Line = std::array<std::string, NumColumns>;
  // One table line: the visible fixed cells, then counter cells of shown
  // row `row` (none for the Sum and Total lines).
  auto add = [&](const Line &l, size_t row = SIZE_MAX) {
    std::vector<std::string> cells;
    for (unsigned c = 0; c != NumColumns; ++c)
      if (visible[c])
        cells.push_back(l[c]);
    if (row != SIZE_MAX)
      for (const CounterColumn &cc : counterCols)
        cells.push_back(cc.cells[row]);
    table.addRow(std::move(cells));
  };
  for (size_t i = 0; i != shown; ++i) {
    const Row &row = rows[i];
    Line l;
    l[ColName] = row.name;
    l[ColDuration] = formatUs(row.durationNs);
    // Without the direct children's time: PyTorch's "Self CPU".
    l[ColSelf] = formatUs(row.selfNs);
    l[ColPercent] = formatPercent(row.durationNs, profile.totalNs);
    l[ColDevice] = utostr(row.device);
    l[ColCount] = utostr(row.count);
    l[ColShapes] = row.shapes.empty() ? "-" : row.shapes;
    l[ColHash] = hashCell(row);
    l[ColLocation] = locationCell(row);
    const DurationSketch &d = row.durations;
    l[ColMin] = formatUs(d.min());
    l[ColMean] = formatv("{0:F2}", d.mean() / 1000.0).str();
    l[ColMedian] = formatUs(d.quantile(0.5));
    l[ColP90] = formatUs(d.quantile(0.9));
    l[ColP99] = formatUs(d.quantile(0.99));
    l[ColMax] = formatUs(d.max());
    l[ColFlops] = row.flops ? utostr(row.flops) : "-";
    l[ColGflops] = row.flops ? formatv("{0:F2}", gflopsOf(row)).str() : "-";
    l[ColBytes] = row.bytes ? utostr(row.bytes) : "-";
    l[ColBandwidth] = row.bytes ? formatv("{0:F2}", gbpsOf(row)).str() : "-";
    double intensity = intensityOf(row);
    l[ColBound] = intensity < 0 ? "-"
                  : intensity >= opts.peakGflops / opts.peakGBps
                      ? "compute"
                      : "memory";
    add(l, i);
  }
  if (size_t hidden = rows.size() - shown)
    table.addNote(("(" + Twine(hidden) + " more " +
                   (hidden == 1 ? "row" : "rows") + " not shown; --top " +
                   Twine(opts.top) + ")")
                      .str());
  if (filtered)
    table.addNote(("(" + Twine(filtered) + " " +
                   (filtered == 1 ? "row" : "rows") + " filtered out)")
                      .str());
  table.addRule();
  Line sum, total;
  sum[ColName] = "Sum";
  sum[ColDuration] = formatUs(profile.coveredNs);
  sum[ColPercent] = formatPercent(profile.coveredNs, profile.totalNs);
  sum[ColCount] = utostr(totalCount);
  total[ColName] = "Total";
  total[ColDuration] = formatUs(profile.totalNs);
  total[ColPercent] = "100.00";
  add(sum);
  add(total);
  table.print(os);
  if (anyScaled)
    os << "* scaled for multiplexing: counted for part of the op's time; "
          "value = raw x time_enabled / time_running\n";

  // Configuration block.
  os << "\nConfiguration\n-------------\n";
  os << "Dumps: " << profile.dumps.size() << '\n';
  std::set<uint32_t> modes;
  for (const DumpSummary &d : profile.dumps)
    modes.insert(d.info.mode);
  os << "Mode: ";
  if (modes.empty())
    os << "-";
  ListSeparator sep;
  for (uint32_t m : modes)
    os << sep << m << " (" << modeName(m) << ")";
  os << '\n';
  os << "Threads: " << profile.threads << '\n';
  os << "Clock: " << clockDescription(profile) << '\n';
  os << "Window: " << formatUs(profile.totalNs) << " us\n";
  os << "Dropped records: " << profile.dropped;
  if (std::string why = dropReasons(profile.drops); !why.empty())
    os << " (" << why << ')';
  os << '\n';
  os << "Unfinished probes: " << profile.unfinished;
  if (profile.unwound)
    os << " (" << profile.unwound
       << " cut short by a non-local exit: longjmp, exception, thread exit)";
  os << '\n';
  // One line when every dump was treated alike, else one per distinct case.
  std::vector<std::pair<std::string, unsigned>> corrections;
  for (const DumpSummary &d : profile.dumps) {
    std::string line = describeCorrection(d.correction, d.info);
    auto it = llvm::find_if(corrections,
                            [&](const auto &c) { return c.first == line; });
    if (it == corrections.end())
      corrections.push_back({std::move(line), 1});
    else
      ++it->second;
  }
  if (corrections.size() == 1) {
    os << "Probe overhead correction: " << corrections[0].first << '\n';
  } else {
    for (const auto &[line, n] : corrections)
      os << "Probe overhead correction: " << line << " in " << n << " dump"
         << (n == 1 ? "" : "s") << '\n';
  }
  if (!profile.events.empty())
    os << "Events: " << join(profile.events, ", ") << '\n';
  unsigned incomplete = llvm::count_if(
      profile.dumps, [](const DumpSummary &d) { return !d.info.isComplete(); });
  if (incomplete)
    os << "Incomplete dumps: " << incomplete
       << " (not closed by a clean flush; records may be missing)\n";
  return Error::success();
}

Error tpuprof::report::printTable(ArrayRef<std::string> dumpPaths,
                                  const TableOptions &opts, raw_ostream &os) {
  // Check the options before reading possibly large dumps.
  if (!findColumn(opts.sortColumn))
    return unknownColumn(opts.sortColumn);
  Expected<Input> in = loadInput(dumpPaths);
  if (!in)
    return in.takeError();
  return printTable(*in, opts, os);
}
