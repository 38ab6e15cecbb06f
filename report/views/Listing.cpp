//===- report/views/Listing.cpp - Annotated source listing ----------------===//
//
// For LLVM-level probes (launch and user ranges in C/C++ code), stats keyed
// by the probe's "file:line[:col]": either the source file itself with a
// margin of total time, percent and count on the lines that have probes, or,
// without a source file, one line per file:line.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/report/views/Listing.h"
#include "tpuprof/report/read/InputFile.h"
#include "tpuprof/report/views/Columns.h"
#include "tpuprof/report/views/Terminal.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <map>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;

namespace {

struct LineStats {
  uint64_t ns = 0, count = 0, allocBytes = 0;
  std::vector<std::string> names;
};

/// Splits "file:line[:col]" into file and line; false when it has no line.
bool splitLocation(StringRef loc, StringRef &file, unsigned &line) {
  SmallVector<StringRef, 4> parts;
  loc.split(parts, ':');
  // Take the last one or two numeric fields as line[:col].
  size_t n = parts.size();
  unsigned a = 0, b = 0;
  if (n >= 3 && !parts[n - 1].getAsInteger(10, a) &&
      !parts[n - 2].getAsInteger(10, b)) {
    line = b;
    file = loc.substr(0, loc.size() - parts[n - 1].size() -
                             parts[n - 2].size() - 2);
    return true;
  }
  if (n >= 2 && !parts[n - 1].getAsInteger(10, a)) {
    line = a;
    file = loc.substr(0, loc.size() - parts[n - 1].size() - 1);
    return true;
  }
  return false;
}

/// Why a listing would have no stats: "<file>: no probe of the dumps is
/// located in it (their locations are in: a.c, b.mlir)".
Error noProbeLines(const Profile &profile, StringRef sourcePath) {
  std::vector<std::string> files;
  for (const Row &row : profile.rows)
    for (const std::string &loc : row.locations) {
      StringRef file;
      unsigned line;
      if (splitLocation(loc, file, line) &&
          !is_contained(files, sys::path::filename(file)))
        files.push_back(sys::path::filename(file).str());
    }
  llvm::sort(files);
  std::string where = files.empty()
                          ? "the dumps' probes have no file:line locations"
                          : "their locations are in: " + join(files, ", ");
  return createStringError(sourcePath +
                           ": no probe of the dumps is located in it (" +
                           printable(where) + ")");
}

} // namespace

Error tpuprof::report::printSourceListing(const Input &in, StringRef sourcePath,
                                          raw_ostream &os) {
  const Profile &profile = in.profile;
  // (file, line) -> stats. A row with several locations counts at each (its
  // probes are identical ops; the hash cannot tell their times apart).
  std::map<std::pair<std::string, unsigned>, LineStats> lines;
  for (const Row &row : profile.rows) {
    if (sourcePath.empty() && row.kind == TPUPROF_KIND_OP)
      continue;
    for (const std::string &loc : row.locations) {
      StringRef file;
      unsigned line;
      if (!splitLocation(loc, file, line))
        continue;
      if (!sourcePath.empty() && file != sourcePath &&
          sys::path::filename(file) != sys::path::filename(sourcePath))
        continue;
      LineStats &s = lines[{file.str(), line}];
      s.ns += row.durationNs;
      s.count += row.count;
      s.allocBytes += row.allocBytes;
      if (!is_contained(s.names, row.name))
        s.names.push_back(row.name);
    }
  }
  // With memory tracking, the bytes each line's probes allocated.
  bool memory =
      any_of(profile.rows, [](const Row &r) { return r.memoryRecorded; });
  if (lines.empty() && !sourcePath.empty())
    return noProbeLines(profile, sourcePath);
  // Times as the table prints them: below what the dumps resolve, a bound.
  uint64_t resolution = resolutionNs(profile);
  auto margin = [&](const LineStats &s) {
    std::string m =
        formatv("{0,12} {1,7:F2} {2,8}",
                totalTimeCell(s.ns, s.count, resolution),
                profile.totalNs ? 100.0 * double(s.ns) / profile.totalNs : 0.0,
                s.count)
            .str();
    return memory ? m + formatv(" {0,12}", s.allocBytes).str() : m;
  };
  std::string header =
      formatv("{0,12} {1,7} {2,8}", "Total (us)", "Percent", "Count").str();
  if (memory)
    header += formatv(" {0,12}", "Alloc (B)").str();
  if (sourcePath.empty()) {
    os << header << "  Location  Probes\n";
    for (auto &[key, s] : lines)
      os << margin(s) << "  " << printable(key.first) << ':' << key.second
         << "  " << printable(join(s.names, ", ")) << '\n';
    return Error::success();
  }
  Expected<std::unique_ptr<MemoryBuffer>> buf = readInputFile(sourcePath);
  if (!buf)
    return buf.takeError();
  std::map<unsigned, LineStats> byLine;
  for (auto &[key, s] : lines) {
    LineStats &t = byLine[key.second];
    t.ns += s.ns;
    t.count += s.count;
    t.allocBytes += s.allocBytes;
    append_range(t.names, s.names);
  }
  os << header << "  " << formatv("{0,5}", "Line") << "  " << sourcePath
     << '\n';
  SmallVector<StringRef, 0> text;
  (*buf)->getBuffer().split(text, '\n');
  if (!text.empty() && text.back().empty())
    text.pop_back();
  std::string blank(header.size(), ' ');
  for (size_t i = 0; i != text.size(); ++i) {
    auto it = byLine.find(unsigned(i + 1));
    os << (it == byLine.end() ? blank : margin(it->second)) << "  "
       << formatv("{0,5}", i + 1) << "  " << text[i].rtrim('\r') << '\n';
  }
  return Error::success();
}
