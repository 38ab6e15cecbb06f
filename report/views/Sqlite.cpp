//===- report/views/Sqlite.cpp - SQLite export ----------------------------===//
//
// Every record of every dump, for ad-hoc SQL; the dumps stream through one
// transaction. docs/report.md documents the tables.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/views/Sqlite.h"
#include "tpuprof/report/model/EventNames.h"
#include "tpuprof/report/model/Walk.h"
#include "tpuprof/report/views/Columns.h"
#include "tpuprof/report/views/OutputFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"

#ifdef TPUPROF_HAVE_SQLITE
#include <sqlite3.h>

#include <cerrno>
#endif

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

#ifdef TPUPROF_HAVE_SQLITE
namespace {

const char *const kSchema = R"sql(
CREATE TABLE dumps(id INTEGER PRIMARY KEY, path TEXT, device INTEGER,
  pid INTEGER, call_num INTEGER, mode INTEGER, clock TEXT, complete INTEGER,
  window_begin_ns INTEGER, window_ns INTEGER, dropped INTEGER,
  overhead_correction TEXT, calib_self_ns REAL, calib_nested_ns REAL,
  calib_read_ns REAL, run INTEGER);
CREATE TABLE runs(run INTEGER PRIMARY KEY, pid INTEGER, start_ns INTEGER,
  rank INTEGER);
CREATE TABLE modules(dump_id INTEGER, module_id INTEGER, name TEXT,
  first_probe INTEGER, num_probes INTEGER);
CREATE TABLE probes(dump_id INTEGER, probe_id INTEGER, module_id INTEGER,
  hash TEXT, name TEXT, kind TEXT, shapes TEXT, location TEXT,
  function TEXT, flops INTEGER, bytes INTEGER, node TEXT,
  PRIMARY KEY(dump_id, probe_id));
CREATE TABLE records(dump_id INTEGER, tid INTEGER, seq INTEGER,
  probe_id INTEGER, depth INTEGER, parent_seq INTEGER, begin_ns INTEGER,
  end_ns INTEGER, duration_ns INTEGER, self_ns INTEGER, shapes TEXT);
CREATE TABLE counters(dump_id INTEGER, tid INTEGER, seq INTEGER,
  event TEXT, value INTEGER);
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

bool tpuprof::report::sqliteAvailable() { return true; }

namespace {

/// Writes the database to `outPath` (a new, empty file or a device).
Error writeDatabase(const Input &in, StringRef outPath, StringRef name) {
  sqlite3 *db = nullptr;
  auto dbError = [&](StringRef what) {
    // SQLite's own words ("disk I/O error", "database or disk is full")
    // hide a full disk or a file size limit: the system's say which. SQLite
    // keeps no errno for a failed write, so it is taken from the write,
    // the last system call that failed.
    int sys = errno;
    if (db && sqlite3_system_errno(db))
      sys = sqlite3_system_errno(db);
    int code = db ? sqlite3_extended_errcode(db) : SQLITE_NOMEM;
    bool writeFailed =
        (code & 0xff) == SQLITE_FULL || code == SQLITE_IOERR_WRITE ||
        code == SQLITE_IOERR_FSYNC || code == SQLITE_IOERR_TRUNCATE;
    std::string msg = (name + ": " + what + ": " +
                       (db ? sqlite3_errmsg(db) : "out of memory"))
                          .str();
    if (writeFailed && sys)
      msg +=
          " (" + std::error_code(sys, std::generic_category()).message() + ")";
    sqlite3_close(db);
    return createStringError(msg);
  };
  if (sqlite3_open(outPath.str().c_str(), &db) != SQLITE_OK)
    return dbError("cannot create database");
  if (sqlite3_exec(db,
                   "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN;", 0,
                   0, 0) != SQLITE_OK ||
      sqlite3_exec(db, kSchema, 0, 0, 0) != SQLITE_OK)
    return dbError("cannot create tables");

  bool failed = false;
  {
    Stmt dumpRow(db,
                 "INSERT INTO dumps VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                 failed);
    Stmt runRow(db, "INSERT INTO runs VALUES(?,?,?,?)", failed);
    for (uint32_t r = 0; r != in.profile.runs.size(); ++r) {
      const RunId &run = in.profile.runs[r];
      runRow(int64_t(r + 1))(int64_t(run.pid))(int64_t(run.startNs));
      if (run.rank == TPUPROF_RANK_UNKNOWN)
        runRow.null();
      else
        runRow(int64_t(run.rank));
      runRow.run();
    }
    Stmt moduleRow(db, "INSERT INTO modules VALUES(?,?,?,?,?)", failed);
    Stmt probeRow(db, "INSERT INTO probes VALUES(?,?,?,?,?,?,?,?,?,?,?,?)",
                  failed);
    Stmt recordRow(db, "INSERT INTO records VALUES(?,?,?,?,?,?,?,?,?,?,?)",
                   failed);
    Stmt counterRow(db, "INSERT INTO counters VALUES(?,?,?,?,?)", failed);
    int64_t dumpId = 0;
    Error err = in.forEachDump("export", [&](const DumpReader &dump,
                                             const DumpSummary &d) {
      const DumpInfo &info = dump.info();
      uint64_t windowBegin = absoluteNs(info, info.windowBegin);
      dumpRow(dumpId)(dump.path())(int64_t(info.device))(int64_t(info.pid))(
          int64_t(info.callNum))(int64_t(info.mode))(
          StringRef(tpuprof_clock_source_name(info.clockSource)))(
          int64_t(info.isComplete()))(int64_t(windowBegin))(
          int64_t(info.windowNs()))(int64_t(info.dropped))(
          correctionName(d.correction))(calibSelfNs(info))(calibNestedNs(info))(
          calibReadNs(info))(runNumber(in.profile, d.run))
          .run();
      for (const Module &m : dump.modules()) {
        moduleRow(dumpId)(int64_t(m.moduleId))(m.table.moduleName)(
            int64_t(m.firstProbe))(int64_t(m.table.probes.size()))
            .run();
        for (size_t i = 0; i != m.table.probes.size(); ++i) {
          const Probe &pr = m.table.probes[i];
          probeRow(dumpId)(int64_t(m.firstProbe + i))(int64_t(m.moduleId))(
              StringRef(hashName(pr.hash)))(pr.name)(kindName(pr.kind))(
              pr.shapes)(pr.location)(pr.function)(int64_t(pr.flops))(
              int64_t(pr.bytes))(pr.node)
              .run();
        }
      }
      uint64_t tid = 0;
      ArrayRef<std::string> events = dump.events();
      walkDump(
          dump, in.overheadCorrection,
          [&](const WalkFrame &f, ArrayRef<WalkFrame> up) {
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
            // PMU events only: the runtime's own words are not counters,
            // and an event never scheduled in the record has no value.
            for (unsigned i = 0; i != r.numCounters && i != events.size();
                 ++i) {
              if (isPseudoEvent(events[i]))
                continue;
              CounterValue v = f.count(i);
              if (v.counted)
                counterRow(dumpId)(int64_t(tid))(int64_t(f.seq))(
                    StringRef(events[i]))(int64_t(v.value))
                    .run();
            }
          },
          [&](const ThreadInfo &t) { tid = t.tid; });
      ++dumpId;
      return Error::success();
    });
    if (err) {
      sqlite3_close(db);
      return err;
    }

    // The ops table: the exports' columns (Columns.h), the table's rows.
    const Profile &p = in.profile;
    std::vector<const Column *> columns = exportColumns();
    ColumnContext ctx{p};
    std::string create = "CREATE TABLE ops(",
                insert = "INSERT INTO ops VALUES(";
    Row sample;
    for (size_t i = 0; i != columns.size(); ++i) {
      ExportCell::Kind kind = columns[i]->exportCell(sample, ctx).kind;
      create += (i ? ", " : "") + columns[i]->exportName.str() +
                (kind == ExportCell::Text   ? " TEXT"
                 : kind == ExportCell::Real ? " REAL"
                                            : " INTEGER");
      insert += i ? ",?" : "?";
    }
    if (sqlite3_exec(db, (create + ");").c_str(), 0, 0, 0) != SQLITE_OK)
      failed = true;
    Stmt opRow(db, (insert + ")").c_str(), failed);
    std::vector<uint64_t> runTotal = runTotals(p);
    for (const Row &r : p.rows) {
      ctx.totalNs = runTotal[std::min<size_t>(r.run, runTotal.size() - 1)];
      for (const Column *c : columns) {
        ExportCell cell = c->exportCell(r, ctx);
        switch (cell.kind) {
        case ExportCell::Integer:
          opRow(int64_t(cell.integer));
          break;
        case ExportCell::Real:
          opRow(cell.real);
          break;
        case ExportCell::Text:
          opRow(StringRef(cell.text));
          break;
        }
      }
      opRow.run();
    }
  }
  if (failed)
    return dbError("cannot write database");
  if (sqlite3_exec(db,
                   "CREATE INDEX records_probe ON records(dump_id, probe_id);"
                   "COMMIT;",
                   0, 0, 0) != SQLITE_OK)
    return dbError("cannot write database");
  if (sqlite3_close(db) != SQLITE_OK)
    return dbError("cannot write database");
  return Error::success();
}

} // namespace

Error tpuprof::report::exportSqlite(const Input &in, StringRef outPath,
                                    SpecialFiles special) {
  if (Error err = in.needDumps("export --format sqlite"))
    return err;
  return writeFileAtomically(
      outPath, [&](StringRef tmp) { return writeDatabase(in, tmp, outPath); },
      special);
}
#else
bool tpuprof::report::sqliteAvailable() { return false; }

Error tpuprof::report::exportSqlite(const Input &, StringRef, SpecialFiles) {
  return createStringError("this tpuprof-report was built without SQLite "
                           "(install libsqlite3-dev and reconfigure)");
}
#endif
