//===- report/views/Table.cpp - Print the per-op table --------------------===//
//
// Rows are sorted and filtered, their cells come from the column list
// (Columns.h) and the counter columns (Counters.h), and TextTable lays them
// out. With several runs kept apart each run gets its own section, with
// its own Sum and Total; one configuration block covers them all.
// docs/report.md is the user-facing description; keep the two in step.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/views/Table.h"
#include "tpuprof/report/views/Columns.h"
#include "tpuprof/report/views/Counters.h"
#include "tpuprof/report/views/Device.h"
#include "tpuprof/report/views/Terminal.h"
#include "tpuprof/report/views/TextTable.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <set>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

namespace {

const Column *findSortColumn(StringRef name) {
  const Column *c = findColumn(name);
  return c && c->compare && c->cell ? c : nullptr;
}

Error unknownSortColumn(StringRef name) {
  return createStringError(
      "unknown sort column '" + name +
      "' (expected one of: " + join(sortColumnNames(), ", ") + ")");
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

/// The Clock line's value, over all dumps.
std::string clockDescription(const Profile &profile) {
  unsigned tsc = 0, mono = 0;
  uint64_t ticks = 0, ns = 0;
  llvm::SmallSet<uint32_t, 2> counters;
  for (const DumpSummary &d : profile.dumps) {
    if (d.info.clockSource != TPUPROF_CLOCK_MONOTONIC) {
      ++tsc;
      counters.insert(d.info.clockSource);
      // Pool the calibrations: the frequency over all dumps' spans together.
      ticks += d.info.calibTicks1 - d.info.calibTicks0;
      ns += d.info.calibNs1 - d.info.calibNs0;
    } else {
      ++mono;
    }
  }
  if ((tsc && mono) || counters.size() > 1)
    return formatv("mixed ({0} in {1} dumps, monotonic in {2})",
                   counters.size() == 1
                       ? tpuprof_clock_source_name(*counters.begin())
                       : "counters",
                   tsc, mono)
        .str();
  if (mono)
    return "monotonic (CLOCK_MONOTONIC, ns)";
  if (!tsc)
    return "-";
  double ghz = double(ticks) / double(ns);
  std::string rate = ghz >= 1 ? formatv("{0:F3} GHz", ghz).str()
                              : formatv("{0:F3} MHz", ghz * 1e3).str();
  return formatv("{0}, {1} (calibrated against CLOCK_MONOTONIC over {2})",
                 tpuprof_clock_source_name(*counters.begin()), rate,
                 formatSpan(ns))
      .str();
}

/// What one table section shows.
struct Layout {
  std::vector<const Column *> fixed;
  bool allCounters = true;                ///< Every counter column.
  std::vector<std::string> counterTitles; ///< Else these, in this order.
};

/// The columns `opts` asks for in `p`, before fitting.
Expected<Layout> chooseColumns(const Profile &p, const TableOptions &opts) {
  Layout l;
  ColumnContext ctx{p};
  auto present = [&](const Column &c) {
    return !c.present || llvm::any_of(p.rows, [&](const Row &r) {
      return c.present(r, ctx);
    });
  };
  auto inDefault = [&](const Column &c) {
    switch (c.group) {
    case Column::Default:
      return present(c);
    case Column::Stats:
      return opts.stats;
    case Column::Work:
      return opts.work;
    case Column::Roofline:
      return opts.peakGflops > 0 && opts.peakGBps > 0;
    case Column::Extra:
    case Column::ExportOnly:
      break;
    }
    return false;
  };
  if (opts.columns.empty()) {
    for (const Column &c : allColumns())
      if (inDefault(c))
        l.fixed.push_back(&c);
    return l;
  }
  l.allCounters = false;
  for (StringRef id : opts.columns) {
    if (id == "counters") {
      l.allCounters = true;
      continue;
    }
    if (id == "default" || id == "stats" || id == "work") {
      Column::Group g = id == "stats"  ? Column::Stats
                        : id == "work" ? Column::Work
                                       : Column::Default;
      // As the default table would show them (present columns only).
      for (const Column &c : allColumns())
        if (c.group == g && present(c) && !is_contained(l.fixed, &c))
          l.fixed.push_back(&c);
      continue;
    }
    // Column ids in any case ("Count" is "count").
    // A column named twice (also through a set) shows once, where first named.
    if (const Column *c = findColumn(id.lower()); c && c->cell) {
      if (!is_contained(l.fixed, c))
        l.fixed.push_back(c);
      continue;
    }
    l.counterTitles.push_back(id.str()); // Checked against the counters.
  }
  return l;
}

/// Why a section has no row at all: no op was instrumented, or none ran.
std::string noRowsReason(const Profile &p) {
  bool fromDumps = !p.dumps.empty() && llvm::all_of(p.dumps, [](const auto &d) {
    return d.hasRecords;
  });
  if (!fromDumps)
    return "(no rows: the inputs hold no measured op)";
  uint64_t probes = 0;
  for (const DumpSummary &d : p.dumps)
    probes += d.probes;
  if (!probes)
    return "(no rows: no op has a probe: the pass selected none; see its "
           "include and exclude options)";
  return ("(no rows: " + Twine(probes) +
          (probes == 1 ? " op has a probe" : " ops have probes") +
          ", but none ran while the window was open)")
      .str();
}

/// The title style of a Percent cell: hot rows stand out on a terminal.
TextTable::Style percentStyle(uint64_t ns, uint64_t total) {
  double pct = total ? 100.0 * double(ns) / double(total) : 0;
  return pct >= 10  ? TextTable::Style::Red
         : pct >= 1 ? TextTable::Style::Yellow
                    : TextTable::Style::Plain;
}

/// Prints one section: the rows of `p` (one run, or all), Sum and Total.
Error printSection(const Profile &p, const TableOptions &opts,
                   const Regex &filter, raw_ostream &os) {
  std::vector<Row> rows = p.rows;
  if (Error err = sortRows(rows, opts))
    return err;
  uint64_t totalCount = 0;
  for (const Row &row : rows)
    totalCount += row.count;
  // Filters choose the rows shown; Sum and Total still cover every row.
  size_t before = rows.size();
  llvm::erase_if(rows, [&](const Row &row) {
    return (!opts.filter.empty() && !filter.match(row.name)) ||
           (!opts.types.empty() && !matchesType(row, opts.types)) ||
           (opts.kinds && !(opts.kinds & (1u << row.kind))) ||
           row.durationNs < opts.minTimeNs;
  });
  size_t filtered = before - rows.size();
  size_t shown = rows.size();
  if (opts.top && opts.top < shown)
    shown = opts.top;
  ArrayRef<Row> shownRows = ArrayRef<Row>(rows).take_front(shown);

  Expected<Layout> chosen = chooseColumns(p, opts);
  if (!chosen)
    return chosen.takeError();
  Layout layout = std::move(*chosen);
  bool anyScaled = false;
  std::vector<CounterColumn> counterCols =
      counterColumns(p, shownRows, anyScaled);
  std::vector<size_t> counters; // Indexes into counterCols, in order.
  if (layout.allCounters)
    for (size_t k = 0; k != counterCols.size(); ++k)
      counters.push_back(k);
  for (const std::string &title : layout.counterTitles) {
    auto it = llvm::find_if(counterCols, [&](const CounterColumn &cc) {
      return cc.title == title;
    });
    if (it == counterCols.end()) {
      std::vector<StringRef> known;
      for (const Column &c : allColumns())
        if (c.cell)
          known.push_back(c.id);
      for (const CounterColumn &cc : counterCols)
        known.push_back(cc.title);
      return createStringError("--columns: unknown column '" + title +
                               "' (expected one of: " + join(known, ", ") +
                               ", counters, default, stats, work)");
    }
    if (!is_contained(counters, size_t(it - counterCols.begin())))
      counters.push_back(it - counterCols.begin());
  }

  ColumnContext ctx{p};
  ctx.totalNs = p.totalNs;
  ctx.peakGflops = opts.peakGflops;
  ctx.peakGBps = opts.peakGBps;
  bool aboveDramPeak = false;

  // Builds the table with the columns `fixed` and `counters` keep.
  auto build = [&](ArrayRef<const Column *> fixed, ArrayRef<size_t> counters) {
    TextTable table;
    for (const Column *c : fixed)
      table.addColumn(c->title.str(), c->numeric ? TextTable::Align::Right
                                                 : TextTable::Align::Left);
    // Right-aligned like every number; '*' marks a scaled value.
    for (size_t k : counters)
      table.addColumn(counterCols[k].title, TextTable::Align::Right);
    uint64_t cumulative = 0;
    for (size_t i = 0; i != shownRows.size(); ++i) {
      const Row &row = shownRows[i];
      cumulative += row.selfNs;
      ctx.cumulativeNs = cumulative;
      std::vector<std::string> cells;
      std::vector<TextTable::Style> styles;
      bool tiny = row.count && row.durationNs < row.count * ctx.resolutionNs;
      for (const Column *c : fixed) {
        cells.push_back(c->cell(row, ctx));
        if (c->id == "percent")
          styles.push_back(percentStyle(row.durationNs, p.totalNs));
        else
          styles.push_back(tiny && c->numeric ? TextTable::Style::Dim
                                              : TextTable::Style::Plain);
        aboveDramPeak |=
            c->id == "bandwidth" && StringRef(cells.back()).ends_with("^");
      }
      for (size_t k : counters)
        cells.push_back(counterCols[k].cells[i]);
      table.addRow(std::move(cells), TextTable::Style::Plain,
                   std::move(styles));
    }
    if (size_t hidden = rows.size() - shown)
      table.addNote(("(" + Twine(hidden) + " more " +
                     (hidden == 1 ? "row" : "rows") + " not shown; --top " +
                     Twine(opts.top) + ")")
                        .str());
    if (p.rows.empty())
      table.addNote(noRowsReason(p));
    if (filtered)
      table.addNote(("(" + Twine(filtered) + " " +
                     (filtered == 1 ? "row" : "rows") + " filtered out)")
                        .str());
    table.addRule();
    auto line = [&](StringRef name, uint64_t ns, std::string percent,
                    std::string count) {
      std::vector<std::string> cells;
      for (const Column *c : fixed)
        cells.push_back(c->id == "name"       ? name.str()
                        : c->id == "duration" ? formatUs(ns)
                        : c->id == "percent"  ? percent
                        : c->id == "count"    ? count
                                              : std::string());
      table.addRow(std::move(cells), TextTable::Style::Bold);
    };
    line("Sum", p.coveredNs, formatPercent(p.coveredNs, p.totalNs),
         utostr(totalCount));
    line("Total", p.totalNs, "100.00", "");
    return table;
  };

  std::vector<const Column *> fixed = layout.fixed;
  TextTable table = build(fixed, counters);
  // Fit the default set into the terminal: leave columns out, least
  // needed first, then shorten the longest text.
  std::vector<std::string> leftOut;
  if (opts.width && opts.columns.empty()) {
    const char *const dropOrder[] = {"hash", "location", "outputs",
                                     "self", "cum",      "device"};
    for (const char *id : dropOrder) {
      if (table.width() <= opts.width)
        break;
      if (id == StringRef("cum") && !counters.empty()) {
        // Counters go before the core columns, last one first.
        while (!counters.empty() && table.width() > opts.width) {
          leftOut.push_back(counterCols[counters.back()].title);
          counters.pop_back();
          table = build(fixed, counters);
        }
        if (table.width() <= opts.width)
          break;
      }
      auto it =
          llvm::find_if(fixed, [&](const Column *c) { return c->id == id; });
      if (it == fixed.end())
        continue;
      leftOut.push_back((*it)->id.str());
      fixed.erase(it);
      table = build(fixed, counters);
    }
    for (StringRef id : {"shapes", "name"}) {
      if (table.width() <= opts.width)
        break;
      auto it =
          llvm::find_if(fixed, [&](const Column *c) { return c->id == id; });
      if (it == fixed.end())
        continue;
      size_t c = it - fixed.begin();
      size_t over = table.width() - opts.width;
      size_t w = table.columnWidth(c);
      table.setMaxWidth(c, w > over + 12 ? w - over : 12);
    }
  }
  table.print(os, opts.colour);
  if (!leftOut.empty()) {
    std::string note = "(" + join(leftOut, ", ") + " left out to fit " +
                       utostr(opts.width) + " columns; --columns chooses)";
    if (note.size() > opts.width)
      note = "(" + utostr(leftOut.size()) + " columns left out to fit " +
             utostr(opts.width) + " columns; --columns chooses)";
    os << note << '\n';
  }
  if (anyScaled)
    os << "* scaled for multiplexing: counted for part of the op's time; "
          "value = raw x time_enabled / time_running\n";
  if (aboveDramPeak)
    os << formatv("^ above the measured peak of {0:F2} GB/s: the data was "
                  "cache-resident (the peak is memory bandwidth)\n",
                  opts.peakGBps);
  return Error::success();
}

} // namespace

std::vector<StringRef> tpuprof::report::sortColumnNames() {
  std::vector<StringRef> names;
  for (const Column &c : allColumns())
    if (findSortColumn(c.id))
      names.push_back(c.id);
  return names;
}

Error tpuprof::report::parseSortSpec(StringRef spec, TableOptions &opts) {
  StringRef name = spec;
  std::optional<bool> ascending;
  if (name.consume_front("+"))
    ascending = true;
  else if (name.consume_front("-"))
    ascending = false;
  const Column *c = findSortColumn(name);
  if (!c)
    return unknownSortColumn(name);
  opts.sortColumn = name.str();
  opts.ascending = ascending.value_or(!c->numeric);
  return Error::success();
}

Error tpuprof::report::parseColumns(StringRef spec, TableOptions &opts) {
  opts.columns.clear();
  SmallVector<StringRef, 16> ids;
  spec.split(ids, ',', -1, /*KeepEmpty=*/false);
  for (StringRef id : ids)
    opts.columns.push_back(id.trim().str());
  if (opts.columns.empty())
    return createStringError("--columns: no column named");
  return Error::success();
}

Error tpuprof::report::parseKinds(StringRef spec, TableOptions &opts) {
  opts.kinds = 0;
  SmallVector<StringRef, 4> names;
  spec.split(names, ',', -1, /*KeepEmpty=*/false);
  for (StringRef n : names) {
    n = n.trim();
    std::optional<uint8_t> kind = parseKindName(n);
    if (!kind)
      return createStringError("--kind: unknown probe kind '" + n +
                               "' (expected one of: " + kindNames() + ")");
    static_assert(TPUPROF_KIND_COUNT <= 32, "kinds fit TableOptions::kinds");
    opts.kinds |= 1u << *kind;
  }
  return Error::success();
}

bool tpuprof::report::matchesType(const Row &row, ArrayRef<std::string> types) {
  StringRef name = row.name;
  auto [dialect, op] = name.split('.');
  for (StringRef t : types)
    if (t == name || (!op.empty() && (t == op || t == dialect)))
      return true;
  return false;
}

Error tpuprof::report::sortRows(std::vector<Row> &rows,
                                const TableOptions &opts) {
  const Column *c = findSortColumn(opts.sortColumn);
  if (!c)
    return unknownSortColumn(opts.sortColumn);
  const Column *duration = findColumn("duration");
  auto less = [&](const Row &a, const Row &b) {
    if (int r = c->compare(a, b))
      return opts.ascending ? r < 0 : r > 0;
    // Fixed tie-breakers keep the output deterministic.
    if (int r = duration->compare(a, b))
      return r > 0;
    for (StringRef t : {"name", "shapes", "device", "hash"})
      if (int r = findColumn(t)->compare(a, b))
        return r < 0;
    return std::tie(a.run, a.probeId) < std::tie(b.run, b.probeId);
  };
  // Rows are unique by (hash or unknown id, shapes, device, run), so the
  // tie-breakers make this a total order and an unstable sort deterministic.
  llvm::sort(rows, less);
  return Error::success();
}

Error tpuprof::report::printTable(const Input &in, const TableOptions &opts,
                                  raw_ostream &os) {
  const Profile &profile = in.profile;
  Regex filter(opts.filter);
  std::string regexError;
  if (!opts.filter.empty() && !filter.isValid(regexError))
    return createStringError("--filter: bad regular expression '" +
                             opts.filter + "': " + regexError);
  if (!profile.runsApart()) {
    if (Error err = printSection(profile, opts, filter, os))
      return err;
  } else {
    for (uint32_t r = 0; r != profile.runs.size(); ++r) {
      std::string title = describeRun(profile, r);
      title[0] = 'R';
      os << (r ? "\n" : "") << title << '\n';
      if (Error err = printSection(selectRun(profile, r), opts, filter, os))
        return err;
    }
  }

  printDeviceRows(profile, os);

  // Configuration block.
  os << "\nConfiguration\n-------------\n";
  if (profile.runs.size() > 1)
    os << "Runs: " << profile.runs.size()
       << (profile.runsMerged
               ? " (added up: --merge-runs)"
               : " (kept apart: --run N shows one, --merge-runs adds them up)")
       << '\n';
  os << "Dumps: " << profile.dumps.size() << '\n';
  std::set<uint32_t> modes;
  for (const DumpSummary &d : profile.dumps)
    modes.insert(d.info.mode);
  os << "Mode: ";
  if (modes.empty())
    os << "-";
  ListSeparator sep;
  for (uint32_t m : modes)
    os << sep << m << " (" << tpuprof_mode_name(m) << ")";
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
  uint64_t backwards = 0;
  for (const DumpSummary &d : profile.dumps)
    backwards += d.info.backwards;
  if (backwards)
    os << "Clock stepped back: " << backwards
       << " records end before they begin (read as 0 ns long)\n";
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
  // The runtime's own words (multiplexing times, read costs, CPU ids) are
  // inputs to the figures, not events the user asked for.
  std::vector<StringRef> events;
  for (const std::string &e : profile.events)
    if (!isPseudoEvent(e))
      events.push_back(e);
  if (!events.empty())
    os << "Events: " << printable(join(events, ", ")) << '\n';
  if (uint64_t below = approxBelowNs(profile); llvm::any_of(
          profile.rows, [&](const Row &r) { return isApprox(r, below); }))
    os << "Approx: ~ marks ops shorter than " << below
       << " ns a call (two probe pairs): not measured to 5 %\n";
  uint64_t resolution = resolutionNs(profile);
  if (resolution > 1)
    os << "Resolution: " << resolution << " ns per record (below it: \"< "
       << resolution << " ns\", or \"< " << resolution
       << " ns/call\" in a row's total)\n";
  unsigned incomplete = llvm::count_if(
      profile.dumps, [](const DumpSummary &d) { return !d.info.isComplete(); });
  if (incomplete)
    os << "Incomplete dumps: " << incomplete
       << " (not closed by a clean flush; records may be missing)\n";
  return Error::success();
}

Error tpuprof::report::printTable(ArrayRef<std::string> dumpPaths,
                                  const TableOptions &opts, raw_ostream &os,
                                  const LoadOptions &load) {
  // Check the options before reading possibly large dumps.
  if (!findSortColumn(opts.sortColumn))
    return unknownSortColumn(opts.sortColumn);
  Expected<Input> in = loadInput(dumpPaths, load);
  if (!in)
    return in.takeError();
  in->profile.rows = groupRows(in->profile.rows, opts.by);
  return printTable(*in, opts, os);
}
