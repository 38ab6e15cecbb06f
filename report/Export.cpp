//===- report/Export.cpp - JSON, CSV and SQLite exports -------------------===//
//
// JSON is the lossless one: it carries every field the row views use
// (including the duration sketches and the dumps' headers), so
// `tpuprof-report table report.json` prints the same table as the dumps.
// CSV is one line per row for spreadsheets. SQLite holds every record, for
// ad-hoc SQL; it streams the dumps through one transaction. docs/report.md
// documents the three schemas.
//
//===----------------------------------------------------------------------===//

#include "Walk.h"

#include "tpuprof/report/Views.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#ifdef TPUPROF_HAVE_SQLITE
#include <sqlite3.h>
#endif

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

namespace {

constexpr int kJsonVersion = 1;

std::string hexHash(uint64_t h) {
  return utohexstr(h, /*LowerCase=*/true, /*Width=*/16);
}

} // namespace

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

void tpuprof::report::writeProfileJson(const Profile &p, raw_ostream &os) {
  json::OStream j(os, 1);
  j.object([&] {
    j.attribute("format", "tpuprof-report");
    j.attribute("version", kJsonVersion);
    j.attributeArray("events", [&] {
      for (const std::string &e : p.events)
        j.value(e);
    });
    j.attributeObject("totals", [&] {
      j.attribute("covered_ns", p.coveredNs);
      j.attribute("total_ns", p.totalNs);
      j.attribute("unfinished", p.unfinished);
      j.attribute("dropped", p.dropped);
      j.attributeObject("drops", [&] {
        j.attribute("full", p.drops.full);
        j.attribute("overwritten", p.drops.overwritten);
        j.attribute("depth", p.drops.depth);
        j.attribute("no_space", p.drops.noSpace);
        j.attribute("unknown", p.drops.unknown);
      });
      j.attribute("unwound", p.unwound);
      j.attribute("threads", p.threads);
      j.attribute("records", p.records);
    });
    j.attributeArray("dumps", [&] {
      for (const DumpSummary &d : p.dumps)
        j.object([&] {
          const DumpInfo &i = d.info;
          j.attribute("path", d.path);
          j.attribute("version", i.version);
          j.attribute("header_size", i.headerSize);
          j.attribute("mode", i.mode);
          j.attribute("device", i.device);
          j.attribute("pid", i.pid);
          j.attribute("call_num", i.callNum);
          j.attribute("clock_source", i.clockSource);
          j.attribute("flags", i.flags);
          j.attribute("calib_ticks0", i.calibTicks0);
          j.attribute("calib_ns0", i.calibNs0);
          j.attribute("calib_ticks1", i.calibTicks1);
          j.attribute("calib_ns1", i.calibNs1);
          j.attribute("window_begin", i.windowBegin);
          j.attribute("window_end", i.windowEnd);
          j.attribute("dropped", i.dropped);
          j.attribute("num_sections", i.numSections);
          if (i.hasCalibration)
            j.attributeObject("calibration", [&] {
              j.attribute("self_ticks", i.calibSelfTicks);
              j.attribute("nested_ticks", i.calibNestedTicks);
              j.attribute("pairs", i.calibPairs);
              j.attribute("read_ticks", i.calibReadTicks);
              // Per counter word (the dump's EVENTS order), version 3.
              if (!i.calibCounts.empty()) {
                j.attributeArray("self_counts", [&] {
                  for (const DumpInfo::CounterCalibration &k : i.calibCounts)
                    j.value(k.self);
                });
                j.attributeArray("nested_counts", [&] {
                  for (const DumpInfo::CounterCalibration &k : i.calibCounts)
                    j.value(k.nested);
                });
              }
            });
          // Whether this dump's duration_ns/self_ns/durations are corrected.
          j.attribute("overhead_correction", correctionName(d.correction));
          j.attribute("threads", d.threads);
          j.attribute("records", d.records);
          j.attribute("unfinished", d.unfinished);
          j.attribute("covered_ns", d.coveredNs);
          j.attribute("window_ns", d.windowNs);
        });
    });
    j.attributeArray("rows", [&] {
      for (const Row &r : p.rows)
        j.object([&] {
          j.attribute("name", r.name);
          j.attribute("kind", kindName(r.kind));
          j.attribute("device", r.device);
          j.attribute("hash", hexHash(r.hash));
          j.attribute("unknown_probe", r.unknownProbe);
          j.attribute("probe_id", r.probeId);
          j.attribute("shapes", r.shapes);
          j.attributeArray("locations", [&] {
            for (const std::string &l : r.locations)
              j.value(l);
          });
          j.attribute("function", r.function);
          j.attribute("flops", r.flops);
          j.attribute("bytes", r.bytes);
          j.attribute("count", r.count);
          j.attribute("unfinished", r.unfinished);
          j.attribute("duration_ns", r.durationNs);
          j.attribute("self_ns", r.selfNs);
          j.attributeArray("counters", [&] {
            for (uint64_t c : r.counters)
              j.value(c);
          });
          j.attributeArray("counter_flags", [&] {
            for (uint8_t c : r.counterFlags)
              j.value(c);
          });
          const DurationSketch &d = r.durations;
          j.attributeObject("durations", [&] {
            j.attribute("count", d.count());
            j.attribute("sum", d.total());
            j.attribute("min", d.min());
            j.attribute("max", d.max());
            j.attribute("exact", d.isExact());
            if (d.isExact()) {
              j.attributeArray("samples", [&] {
                for (uint64_t s : d.exactSamples())
                  j.value(s);
              });
            } else {
              j.attribute("first_bucket", d.firstBucket());
              j.attributeArray("buckets", [&] {
                for (uint64_t b : d.bucketCounts())
                  j.value(b);
              });
            }
          });
        });
    });
  });
  os << '\n';
}

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

} // namespace

Expected<Profile> tpuprof::report::readProfileJson(StringRef path) {
  auto bad = [&](const Twine &what) {
    return createStringError(inconvertibleErrorCode(),
                             path + ": not a tpuprof JSON export: " + what);
  };
  ErrorOr<std::unique_ptr<MemoryBuffer>> buf = MemoryBuffer::getFile(path);
  if (!buf)
    return createStringError(
        buf.getError(), path + ": cannot open: " + buf.getError().message());
  Expected<json::Value> root = json::parse((*buf)->getBuffer());
  if (!root)
    return bad(toString(root.takeError()));
  const json::Object *top = root->getAsObject();
  if (!top || top->getString("format") != "tpuprof-report")
    return bad("no \"format\": \"tpuprof-report\"");
  std::string error;
  Fields f(top, "top level", &error);
  if (f.i64("version") != kJsonVersion)
    return bad("unsupported version (this reader supports " +
               Twine(kJsonVersion) + ")");
  Profile p;
  if (const json::Array *events = f.array("events"))
    for (const json::Value &e : *events)
      p.events.push_back(e.getAsString().value_or("").str());
  Fields t(f.object("totals"), "totals", &error);
  p.coveredNs = t.u64("covered_ns");
  p.totalNs = t.u64("total_ns");
  p.unfinished = t.u64("unfinished");
  p.dropped = t.u64("dropped");
  if (t.has("drops")) { // Exports from before the reasons lack them.
    Fields r(t.object("drops"), "totals.drops", &error);
    p.drops.full = r.u64("full");
    p.drops.overwritten = r.u64("overwritten");
    p.drops.depth = r.u64("depth");
    p.drops.noSpace = r.u64("no_space");
    p.drops.unknown = r.u64("unknown");
    p.unwound = t.u64("unwound");
  } else {
    p.drops.unknown = p.dropped;
  }
  p.threads = t.u64("threads");
  p.records = t.u64("records");
  if (const json::Array *dumps = f.array("dumps"))
    for (size_t n = 0; n != dumps->size() && error.empty(); ++n) {
      Fields d((*dumps)[n].getAsObject(), "dumps[" + utostr(n) + "]", &error);
      DumpSummary s;
      DumpInfo &i = s.info;
      s.path = d.str("path");
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
      p.dumps.push_back(std::move(s));
    }
  if (const json::Array *rows = f.array("rows"))
    for (size_t n = 0; n != rows->size() && error.empty(); ++n) {
      std::string where = "rows[" + utostr(n) + "]";
      Fields r((*rows)[n].getAsObject(), where, &error);
      Row row;
      row.name = r.str("name");
      std::string kind = r.str("kind");
      row.kind = kind == "launch" ? TPUPROF_KIND_LAUNCH
                 : kind == "user" ? TPUPROF_KIND_USER
                                  : TPUPROF_KIND_OP;
      row.device = r.u64("device");
      std::string hash = r.str("hash");
      if (error.empty() && StringRef(hash).getAsInteger(16, row.hash))
        error = where + ": 'hash' is not hexadecimal";
      row.unknownProbe = r.boolean("unknown_probe");
      row.probeId = r.u64("probe_id");
      row.shapes = r.str("shapes");
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
  if (!error.empty())
    return bad(error);
  return p;
}

//===----------------------------------------------------------------------===//
// CSV
//===----------------------------------------------------------------------===//

std::string tpuprof::report::csvField(StringRef s) {
  if (s.find_first_of(",\"\r\n") == StringRef::npos)
    return s.str();
  std::string out = "\"";
  for (char c : s) {
    if (c == '"')
      out += '"';
    out += c;
  }
  out += '"';
  return out;
}

void tpuprof::report::writeCsv(const Profile &p, raw_ostream &os) {
  // Lines end in CRLF as RFC 4180 says; fields are separated by commas.
  static const char *const header[] = {
      "name",        "kind",     "device", "hash",       "shapes",
      "location",    "function", "count",  "unfinished", "duration_ns",
      "self_ns",     "percent",  "min_ns", "mean_ns",    "median_ns",
      "p90_ns",      "p99_ns",   "max_ns", "flops",      "bytes",
      "gflop_per_s", "gb_per_s"};
  ListSeparator sep(",");
  for (const char *h : header)
    os << sep << h;
  for (const std::string &e : p.events)
    os << ',' << csvField(e);
  os << "\r\n";
  for (const Row &r : p.rows) {
    const DurationSketch &d = r.durations;
    double pct =
        p.totalNs ? 100.0 * double(r.durationNs) / double(p.totalNs) : 0.0;
    double secs = double(r.durationNs);
    os << csvField(r.name) << ',' << kindName(r.kind) << ',' << r.device << ','
       << (r.unknownProbe ? "" : hexHash(r.hash)) << ',' << csvField(r.shapes)
       << ',' << csvField(r.location()) << ',' << csvField(r.function) << ','
       << r.count << ',' << r.unfinished << ',' << r.durationNs << ','
       << r.selfNs << ',' << formatv("{0:F4}", pct) << ',' << d.min() << ','
       << formatv("{0:F1}", d.mean()) << ',' << d.quantile(0.5) << ','
       << d.quantile(0.9) << ',' << d.quantile(0.99) << ',' << d.max() << ','
       << r.flops << ',' << r.bytes << ','
       << formatv("{0:F4}", secs ? double(r.flops) * r.count / secs : 0.0)
       << ','
       << formatv("{0:F4}", secs ? double(r.bytes) * r.count / secs : 0.0);
    for (uint64_t c : r.counters)
      os << ',' << c;
    os << "\r\n";
  }
}

//===----------------------------------------------------------------------===//
// SQLite
//===----------------------------------------------------------------------===//

#ifdef TPUPROF_HAVE_SQLITE
namespace {

const char *const kSchema = R"sql(
CREATE TABLE dumps(id INTEGER PRIMARY KEY, path TEXT, device INTEGER,
  pid INTEGER, call_num INTEGER, mode INTEGER, clock TEXT, complete INTEGER,
  window_begin_ns INTEGER, window_ns INTEGER, dropped INTEGER,
  overhead_correction TEXT, calib_self_ns REAL, calib_nested_ns REAL,
  calib_read_ns REAL);
CREATE TABLE modules(dump_id INTEGER, module_id INTEGER, name TEXT,
  first_probe INTEGER, num_probes INTEGER);
CREATE TABLE probes(dump_id INTEGER, probe_id INTEGER, module_id INTEGER,
  hash TEXT, name TEXT, kind TEXT, shapes TEXT, location TEXT,
  function TEXT, flops INTEGER, bytes INTEGER,
  PRIMARY KEY(dump_id, probe_id));
CREATE TABLE records(dump_id INTEGER, tid INTEGER, seq INTEGER,
  probe_id INTEGER, depth INTEGER, parent_seq INTEGER, begin_ns INTEGER,
  end_ns INTEGER, duration_ns INTEGER, self_ns INTEGER, shapes TEXT);
CREATE TABLE counters(dump_id INTEGER, tid INTEGER, seq INTEGER,
  event TEXT, value INTEGER);
CREATE TABLE ops(name TEXT, kind TEXT, device INTEGER, hash TEXT,
  shapes TEXT, location TEXT, function TEXT, count INTEGER,
  unfinished INTEGER, duration_ns INTEGER, self_ns INTEGER, percent REAL,
  min_ns INTEGER, mean_ns REAL, median_ns INTEGER, p90_ns INTEGER,
  p99_ns INTEGER, max_ns INTEGER, flops INTEGER, bytes INTEGER,
  gflop_per_s REAL, gb_per_s REAL);
)sql";

/// A prepared statement bound by position, reset after each step.
class Stmt {
public:
  /// `failed` is set when a statement cannot be prepared or run.
  Stmt(sqlite3 *db, const char *sql, bool &failed) : failed(failed) {
    if (sqlite3_prepare_v2(db, sql, -1, &s, 0) != SQLITE_OK)
      failed = true;
  }
  ~Stmt() { sqlite3_finalize(s); }
  Stmt &operator()(int64_t v) {
    sqlite3_bind_int64(s, ++n, v);
    return *this;
  }
  Stmt &operator()(double v) {
    sqlite3_bind_double(s, ++n, v);
    return *this;
  }
  Stmt &operator()(StringRef v) {
    sqlite3_bind_text(s, ++n, v.data(), int(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Stmt &null() {
    sqlite3_bind_null(s, ++n);
    return *this;
  }
  void run() {
    if (!s || sqlite3_step(s) != SQLITE_DONE)
      failed = true;
    sqlite3_reset(s);
    n = 0;
  }

private:
  bool &failed;
  sqlite3_stmt *s = nullptr;
  int n = 0;
};

} // namespace

Error tpuprof::report::exportSqlite(ArrayRef<std::string> dumpPaths,
                                    StringRef outPath, bool progress) {
  Expected<std::vector<std::string>> files =
      dumpFilesFor(dumpPaths, "export --format sqlite");
  if (!files)
    return files.takeError();
  sys::fs::remove(outPath);
  sqlite3 *db = nullptr;
  auto dbError = [&](StringRef what) {
    std::string msg = (outPath + ": " + what + ": " +
                       (db ? sqlite3_errmsg(db) : "out of memory"))
                          .str();
    sqlite3_close(db);
    return createStringError(inconvertibleErrorCode(), msg);
  };
  if (sqlite3_open(outPath.str().c_str(), &db) != SQLITE_OK)
    return dbError("cannot create database");
  if (sqlite3_exec(db,
                   "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN;", 0,
                   0, 0) != SQLITE_OK ||
      sqlite3_exec(db, kSchema, 0, 0, 0) != SQLITE_OK)
    return dbError("cannot create tables");

  Aggregator agg;
  bool failed = false;
  {
    Stmt dumpRow(db, "INSERT INTO dumps VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                 failed);
    Stmt moduleRow(db, "INSERT INTO modules VALUES(?,?,?,?,?)", failed);
    Stmt probeRow(db, "INSERT INTO probes VALUES(?,?,?,?,?,?,?,?,?,?,?)",
                  failed);
    Stmt recordRow(db, "INSERT INTO records VALUES(?,?,?,?,?,?,?,?,?,?,?)",
                   failed);
    Stmt counterRow(db, "INSERT INTO counters VALUES(?,?,?,?,?)", failed);
    Progress bar(progress, "exporting", files->size());
    int64_t dumpId = 0;
    for (const std::string &file : *files) {
      Expected<DumpReader> reader = DumpReader::open(file);
      if (!reader) {
        sqlite3_close(db);
        sys::fs::remove(outPath);
        return reader.takeError();
      }
      agg.add(*reader);
      const DumpInfo &info = reader->info();
      uint64_t windowBegin =
          tpuprof::report::detail::absoluteNs(info, info.windowBegin);
      dumpRow(dumpId)(StringRef(file))(int64_t(info.device))(int64_t(info.pid))(
          int64_t(info.callNum))(int64_t(info.mode))(StringRef(
          info.clockSource == TPUPROF_CLOCK_TSC ? "tsc" : "monotonic"))(
          int64_t(info.isComplete()))(int64_t(windowBegin))(
          int64_t(info.windowNs()))(int64_t(info.dropped))(
          correctionName(OverheadCorrection::forDump(info).state))(
          calibSelfNs(info))(calibNestedNs(info))(calibReadNs(info))
          .run();
      for (const Module &m : reader->modules()) {
        moduleRow(dumpId)(int64_t(m.moduleId))(m.table.moduleName)(
            int64_t(m.firstProbe))(int64_t(m.table.probes.size()))
            .run();
        for (size_t i = 0; i != m.table.probes.size(); ++i) {
          const Probe &pr = m.table.probes[i];
          probeRow(dumpId)(int64_t(m.firstProbe + i))(int64_t(m.moduleId))(
              StringRef(hexHash(pr.hash)))(pr.name)(kindName(pr.kind))(
              pr.shapes)(pr.location)(pr.function)(int64_t(pr.flops))(
              int64_t(pr.bytes))
              .run();
        }
      }
      uint64_t tid = 0;
      ArrayRef<std::string> events = reader->events();
      tpuprof::report::detail::walkDump(
          *reader,
          [&](const tpuprof::report::detail::WalkFrame &f,
              ArrayRef<tpuprof::report::detail::WalkFrame> up) {
            const RecordView &r = f.record;
            recordRow(dumpId)(int64_t(tid))(int64_t(f.seq))(int64_t(r.probe))(
                int64_t(r.depth));
            if (up.empty())
              recordRow.null();
            else
              recordRow(int64_t(up.back().seq));
            recordRow(int64_t(f.beginNs - windowBegin));
            if (f.finished)
              recordRow(int64_t(f.endNs - windowBegin))(int64_t(f.durationNs))(
                  int64_t(f.selfNs()));
            else
              recordRow.null().null().null();
            std::string shapes;
            if (f.probe) {
              SmallVector<int64_t, 8> dims;
              for (unsigned i = 0; i != r.numDims; ++i)
                dims.push_back(r.dim(i));
              shapes = substituteShapes(f.probe->shapes, dims);
            }
            recordRow(StringRef(shapes)).run();
            for (unsigned i = 0; i != r.numCounters && i != events.size(); ++i)
              counterRow(dumpId)(int64_t(tid))(int64_t(f.seq))(
                  StringRef(events[i]))(int64_t(f.counter(i)))
                  .run();
          },
          [&](const ThreadInfo &t) { tid = t.tid; });
      ++dumpId;
      bar.advance(1);
    }

    Profile p = agg.take();
    Stmt opRow(db,
               "INSERT INTO ops VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,"
               "?,?,?,?,?,?)",
               failed);
    for (const Row &r : p.rows) {
      const DurationSketch &d = r.durations;
      double ns = double(r.durationNs);
      opRow(StringRef(r.name))(kindName(r.kind))(int64_t(r.device))(StringRef(
          r.unknownProbe ? "" : hexHash(r.hash)))(StringRef(r.shapes))(
          r.location())(StringRef(r.function))(int64_t(r.count))(
          int64_t(r.unfinished))(int64_t(r.durationNs))(int64_t(r.selfNs))(
          p.totalNs ? 100.0 * ns / double(p.totalNs) : 0.0)(int64_t(d.min()))(
          d.mean())(int64_t(d.quantile(0.5)))(int64_t(d.quantile(0.9)))(
          int64_t(d.quantile(0.99)))(int64_t(d.max()))(int64_t(r.flops))(
          int64_t(r.bytes))(ns ? double(r.flops) * r.count / ns
                               : 0.0)(ns ? double(r.bytes) * r.count / ns : 0.0)
          .run();
    }
  }
  if (failed)
    return dbError("cannot write database");
  if (sqlite3_exec(db,
                   "CREATE INDEX records_probe ON records(dump_id, probe_id);"
                   "COMMIT;",
                   0, 0, 0) != SQLITE_OK)
    return dbError("cannot write database");
  sqlite3_close(db);
  return Error::success();
}
#else
Error tpuprof::report::exportSqlite(ArrayRef<std::string>, StringRef, bool) {
  return createStringError(inconvertibleErrorCode(),
                           "this tpuprof-report was built without SQLite "
                           "(install libsqlite3-dev and reconfigure)");
}
#endif
