//===- report/model/ProfileJson.cpp - Read a JSON export back -------------===//
//
// `export --format json` (views/Export.cpp) back into a Profile, so that
// every row view takes an export as it takes dumps. Every field is checked;
// the first problem is the one error.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/model/Load.h"
#include "tpuprof/report/model/Json.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

namespace {

/// Reads fields of one JSON object, remembering the first problem.
class Fields {
public:
  Fields(const json::Object *o, std::string where, std::string *error)
      : o(o), where(std::move(where)), error(error) {}

  uint64_t u64(StringRef key) {
    if (const json::Value *v = get(key)) {
      if (std::optional<uint64_t> x = v->getAsUINT64())
        return *x;
      fail(key, "an unsigned integer");
    }
    return 0;
  }
  int64_t i64(StringRef key) {
    if (const json::Value *v = get(key)) {
      if (std::optional<int64_t> x = v->getAsInteger())
        return *x;
      fail(key, "an integer");
    }
    return 0;
  }
  std::string str(StringRef key) {
    if (const json::Value *v = get(key)) {
      if (std::optional<StringRef> x = v->getAsString())
        return x->str();
      fail(key, "a string");
    }
    return "";
  }
  bool boolean(StringRef key) {
    if (const json::Value *v = get(key)) {
      if (std::optional<bool> x = v->getAsBoolean())
        return *x;
      fail(key, "a boolean");
    }
    return false;
  }
  const json::Array *array(StringRef key) {
    if (const json::Value *v = get(key)) {
      if (const json::Array *a = v->getAsArray())
        return a;
      fail(key, "an array");
    }
    return nullptr;
  }
  const json::Object *object(StringRef key) {
    if (const json::Value *v = get(key)) {
      if (const json::Object *x = v->getAsObject())
        return x;
      fail(key, "an object");
    }
    return nullptr;
  }
  std::vector<uint64_t> u64s(StringRef key) {
    std::vector<uint64_t> out;
    if (const json::Array *a = array(key))
      for (const json::Value &v : *a) {
        std::optional<uint64_t> x = v.getAsUINT64();
        if (!x) {
          fail(key, "an array of unsigned integers");
          break;
        }
        out.push_back(*x);
      }
    return out;
  }

  /// Whether an optional key is present.
  bool has(StringRef key) const { return o && o->get(key); }

private:
  const json::Value *get(StringRef key) {
    const json::Value *v = o ? o->get(key) : nullptr;
    if (!v && error->empty())
      *error = where + ": missing '" + key.str() + "'";
    return v;
  }
  void fail(StringRef key, StringRef what) {
    if (error->empty())
      *error = where + ": '" + key.str() + "' is not " + what.str();
  }
  const json::Object *o;
  std::string where;
  std::string *error;
};

/// `drops` and `unwound` of a totals or dump object; exports from before
/// the reasons lack them: all `dropped` then has no known reason.
void readDrops(Fields &f, const std::string &where, uint64_t dropped,
               DropCounts &drops, uint64_t &unwound, std::string &error) {
  if (!f.has("drops")) {
    drops.unknown = dropped;
    return;
  }
  Fields r(f.object("drops"), where + ".drops", &error);
  drops.full = r.u64("full");
  drops.overwritten = r.u64("overwritten");
  drops.depth = r.u64("depth");
  drops.noSpace = r.u64("no_space");
  drops.unknown = r.u64("unknown");
  unwound = f.u64("unwound");
}

} // namespace

Expected<Profile> tpuprof::report::readProfileJson(StringRef path) {
  auto bad = [&](const Twine &what) {
    return createStringError(path + ": not a tpuprof JSON export: " + what);
  };
  ErrorOr<std::unique_ptr<MemoryBuffer>> buf = MemoryBuffer::getFile(path);
  if (!buf)
    return createStringError(
        buf.getError(), path + ": cannot open: " + buf.getError().message());
  Expected<json::Value> root = parseJson((*buf)->getBuffer());
  if (!root)
    return bad(toString(root.takeError()));
  const json::Object *top = root->getAsObject();
  if (!top || top->getString("format") != "tpuprof-report")
    return bad("no \"format\": \"tpuprof-report\"");
  std::string error;
  Fields f(top, "top level", &error);
  if (f.i64("version") != kProfileJsonVersion)
    return bad("unsupported version (this reader supports " +
               Twine(kProfileJsonVersion) + ")");
  Profile p;
  if (const json::Array *events = f.array("events"))
    for (const json::Value &e : *events)
      p.events.push_back(e.getAsString().value_or("").str());
  Fields t(f.object("totals"), "totals", &error);
  p.coveredNs = t.u64("covered_ns");
  p.totalNs = t.u64("total_ns");
  p.unfinished = t.u64("unfinished");
  p.dropped = t.u64("dropped");
  readDrops(t, "totals", p.dropped, p.drops, p.unwound, error);
  p.threads = t.u64("threads");
  p.records = t.u64("records");
  if (const json::Array *dumps = f.array("dumps"))
    for (size_t n = 0; n != dumps->size() && error.empty(); ++n) {
      Fields d((*dumps)[n].getAsObject(), "dumps[" + utostr(n) + "]", &error);
      DumpSummary s;
      DumpInfo &i = s.info;
      s.path = d.str("path");
      if (d.has("run"))
        s.run = d.u64("run");
      i.version = d.u64("version");
      i.headerSize = d.u64("header_size");
      i.mode = d.u64("mode");
      i.device = d.u64("device");
      i.pid = d.u64("pid");
      i.callNum = d.u64("call_num");
      i.clockSource = d.u64("clock_source");
      i.flags = d.u64("flags");
      i.calibTicks0 = d.u64("calib_ticks0");
      i.calibNs0 = d.u64("calib_ns0");
      i.calibTicks1 = d.u64("calib_ticks1");
      i.calibNs1 = d.u64("calib_ns1");
      i.windowBegin = d.u64("window_begin");
      i.windowEnd = d.u64("window_end");
      i.dropped = d.u64("dropped");
      readDrops(d, "dumps[" + utostr(n) + "]", i.dropped, i.drops, i.unwound,
                error);
      i.numSections = d.u64("num_sections");
      // Both optional: exports from before calibration lack them.
      if (d.has("calibration")) {
        Fields c(d.object("calibration"),
                 "dumps[" + utostr(n) + "].calibration", &error);
        i.hasCalibration = true;
        i.calibSelfTicks = c.u64("self_ticks");
        i.calibNestedTicks = c.u64("nested_ticks");
        i.calibPairs = c.u64("pairs");
        if (c.has("read_ticks")) // Exports from before READ_TICKS lack it.
          i.calibReadTicks = c.u64("read_ticks");
        if (c.has("self_counts") || c.has("nested_counts")) {
          std::vector<uint64_t> self = c.u64s("self_counts");
          std::vector<uint64_t> nested = c.u64s("nested_counts");
          if (self.size() != nested.size() && error.empty())
            error = "dumps[" + utostr(n) +
                    "].calibration: 'self_counts' and 'nested_counts' "
                    "differ in length";
          for (size_t k = 0; k != self.size() && k != nested.size(); ++k)
            i.calibCounts.push_back({self[k], nested[k]});
        }
      }
      if (d.has("overhead_correction")) {
        std::string name = d.str("overhead_correction");
        std::optional<OverheadCorrection::State> state =
            parseCorrectionName(name);
        if (!state && error.empty())
          error = "dumps[" + utostr(n) + "]: unknown overhead_correction '" +
                  name + "'";
        s.correction = state.value_or(OverheadCorrection::State::NoCalibration);
      }
      s.threads = d.u64("threads");
      s.records = d.u64("records");
      s.unfinished = d.u64("unfinished");
      s.coveredNs = d.u64("covered_ns");
      s.windowNs = d.u64("window_ns");
      if (d.has("memory")) { // Exports from before memory tracking lack it.
        Fields m(d.object("memory"), "dumps[" + utostr(n) + "].memory",
                 &error);
        MemorySummary &k = s.memory;
        k.tracked = true;
        k.allocs = m.u64("allocs");
        k.allocBytes = m.u64("alloc_bytes");
        k.frees = m.u64("frees");
        k.freedBytes = m.u64("freed_bytes");
        k.untrackedFrees = m.u64("untracked_frees");
        k.peakBytes = m.u64("peak_bytes");
        k.peakNs = m.u64("peak_ns");
        k.peakOp = m.str("peak_op");
        k.liveAtEnd = m.u64("live_at_end");
      }
      p.dumps.push_back(std::move(s));
    }
  if (const json::Array *rows = f.array("rows"))
    for (size_t n = 0; n != rows->size() && error.empty(); ++n) {
      std::string where = "rows[" + utostr(n) + "]";
      Fields r((*rows)[n].getAsObject(), where, &error);
      Row row;
      row.name = r.str("name");
      std::string kind = r.str("kind");
      // "unknown" (a row of an unknown probe) reads as an op, as before.
      row.kind = parseKindName(kind).value_or(TPUPROF_KIND_OP);
      row.device = r.u64("device");
      std::string hash = r.str("hash");
      if (error.empty() && StringRef(hash).getAsInteger(16, row.hash))
        error = where + ": 'hash' is not hexadecimal";
      row.unknownProbe = r.boolean("unknown_probe");
      row.probeId = r.u64("probe_id");
      row.shapes = r.str("shapes");
      // Exports from before runs, output shapes or mode 2's migrations lack
      // them.
      if (r.has("run"))
        row.run = r.u64("run");
      if (r.has("num_outs"))
        row.numOuts = uint8_t(std::min<uint64_t>(r.u64("num_outs"), 255));
      if (r.has("out_shapes"))
        row.outShapes = r.str("out_shapes");
      if (r.has("migrations")) {
        row.cpuRecorded = true;
        row.migrations = r.u64("migrations");
      }
      if (r.has("memory")) {
        Fields m(r.object("memory"), where + ".memory", &error);
        row.memoryRecorded = true;
        row.allocBytes = m.u64("alloc_bytes");
        row.selfAllocBytes = m.u64("self_alloc_bytes");
        row.freedBytes = m.u64("freed_bytes");
        row.peakBytes = m.u64("peak_bytes");
      }
      if (const json::Array *locs = r.array("locations"))
        for (const json::Value &l : *locs)
          row.locations.push_back(l.getAsString().value_or("").str());
      row.function = r.str("function");
      row.flops = r.u64("flops");
      row.bytes = r.u64("bytes");
      row.count = r.u64("count");
      row.unfinished = r.u64("unfinished");
      row.durationNs = r.u64("duration_ns");
      row.selfNs = r.u64("self_ns");
      row.counters = r.u64s("counters");
      row.counters.resize(p.events.size(), 0);
      for (uint64_t flag : r.u64s("counter_flags"))
        row.counterFlags.push_back(uint8_t(flag));
      row.counterFlags.resize(p.events.size(), 0);
      Fields d(r.object("durations"), where + ".durations", &error);
      bool exact = d.boolean("exact");
      uint64_t count = d.u64("count");
      std::vector<uint64_t> samples, buckets;
      int64_t first = 0;
      if (exact) {
        samples = d.u64s("samples");
        if (error.empty() && samples.size() != count)
          error = where + ".durations: 'samples' does not hold 'count' values";
      } else {
        first = d.i64("first_bucket");
        buckets = d.u64s("buckets");
      }
      row.durations = DurationSketch::fromParts(
          count, d.u64("sum"), d.u64("min"), d.u64("max"), std::move(samples),
          !exact, int32_t(first), std::move(buckets));
      p.rows.push_back(std::move(row));
    }
  // Runs: as exported, or (exports from before runs) one per distinct
  // (pid, start) among the dumps, whose rows were then added up.
  if (f.has("runs")) {
    if (const json::Array *runs = f.array("runs"))
      for (size_t n = 0; n != runs->size() && error.empty(); ++n) {
        Fields r((*runs)[n].getAsObject(), "runs[" + utostr(n) + "]", &error);
        p.runs.push_back({uint32_t(r.u64("pid")), r.u64("start_ns")});
      }
    p.runsMerged = f.boolean("runs_merged");
  } else {
    for (DumpSummary &d : p.dumps) {
      RunId id{d.info.pid, d.info.calibNs0};
      if (!is_contained(p.runs, id))
        p.runs.push_back(id);
    }
    p.runsMerged = p.runs.size() > 1;
  }
  if (error.empty() && !p.runsMerged) {
    size_t numRuns = std::max<size_t>(p.runs.size(), 1);
    for (const Row &r : p.rows)
      if (r.run >= numRuns)
        error = "a row's 'run' is not an index into 'runs'";
    for (const DumpSummary &d : p.dumps)
      if (d.run >= numRuns)
        error = "a dump's 'run' is not an index into 'runs'";
  }
  if (!error.empty())
    return bad(error);
  return p;
}
