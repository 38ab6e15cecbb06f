//===- report/read/ProbeTableReader.cpp - Parse an embedded probe table ---===//
//
// Validates the probe table blob of format.h (header, descriptors, string
// table) and resolves every string. Used for MODULE sections of dumps, and
// usable on its own by tools that read a table out of a compiled module.
//
//===----------------------------------------------------------------------===//

#include "Diagnostics.h"

#include "tpuprof/report/read/Dump.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cstddef>
#include <cstring>

using namespace llvm;
using namespace tpuprof;
using namespace tpuprof::report;
using tpuprof::report::detail::formatError;

namespace {

/// Resolves string-table offsets. NUL positions are found once up front so
/// that resolving many offsets into one long string stays linear: a corrupt
/// table must not make the reader scan the same bytes once per probe.
class StringTable {
public:
  StringTable(StringRef bytes, uint64_t fileOffset)
      : bytes(bytes), fileOffset(fileOffset) {
    for (size_t i = 0, e = bytes.size(); i != e; ++i)
      if (bytes[i] == '\0')
        nuls.push_back(static_cast<uint32_t>(i));
  }

  /// The string at `off`; `what` and `fieldOffset` describe the referring
  /// field for the error message.
  Expected<StringRef> get(uint32_t off, StringRef file, const Twine &what,
                          uint64_t fieldOffset) const {
    if (off >= bytes.size())
      return formatError(file, fieldOffset,
                         what + " string offset " + Twine(off) +
                             " is outside the " + Twine(bytes.size()) +
                             "-byte string table");
    auto nul = std::lower_bound(nuls.begin(), nuls.end(), off);
    if (nul == nuls.end())
      return formatError(file, fileOffset + off,
                         what + " string is not NUL-terminated");
    return bytes.slice(off, *nul);
  }

private:
  StringRef bytes;
  uint64_t fileOffset;
  std::vector<uint32_t> nuls;
};

} // namespace

Expected<ProbeTable> tpuprof::report::parseProbeTable(StringRef bytes,
                                                      StringRef file,
                                                      uint64_t base) {
  constexpr uint64_t headerSize = sizeof(tpuprof_table_header);
  constexpr uint64_t descSize = sizeof(tpuprof_probe_desc);
  if (bytes.size() < headerSize)
    return formatError(file, base,
                       "truncated probe table header (" + Twine(bytes.size()) +
                           " of " + Twine(headerSize) + " bytes)");
  const char *p = bytes.data();
  if (std::memcmp(p, TPUPROF_TABLE_MAGIC, 4) != 0)
    return formatError(file, base, "bad probe table magic (expected \"TPPT\")");
  uint32_t version = TPUPROF_READ_FIELD(p, tpuprof_table_header, version);
  if (version != TPUPROF_TABLE_VERSION)
    return formatError(
        file, TPUPROF_FIELD_OFFSET(base, tpuprof_table_header, version),
        "unsupported probe table version " + Twine(version) +
            " (this reader supports " + Twine(TPUPROF_TABLE_VERSION) + ")");
  uint32_t numProbes = TPUPROF_READ_FIELD(p, tpuprof_table_header, num_probes);
  uint32_t strtabSize =
      TPUPROF_READ_FIELD(p, tpuprof_table_header, strtab_size);
  // 64-bit arithmetic: 32-bit counts cannot overflow it.
  uint64_t strtabStart = headerSize + uint64_t(numProbes) * descSize;
  uint64_t needed = strtabStart + strtabSize;
  if (needed > bytes.size())
    return formatError(
        file, TPUPROF_FIELD_OFFSET(base, tpuprof_table_header, num_probes),
        "probe table with " + Twine(numProbes) + " probes and a " +
            Twine(strtabSize) + "-byte string table needs " + Twine(needed) +
            " bytes but has " + Twine(bytes.size()));

  ProbeTable table;
  auto strings = std::make_shared<std::string>(
      bytes.substr(strtabStart, strtabSize).str());
  table.strings = strings;
  StringTable strtab(*strings, base + strtabStart);

  uint32_t moduleName =
      TPUPROF_READ_FIELD(p, tpuprof_table_header, module_name);
  Expected<StringRef> name =
      strtab.get(moduleName, file, "module name",
                 TPUPROF_FIELD_OFFSET(base, tpuprof_table_header, module_name));
  if (!name)
    return name.takeError();
  table.moduleName = *name;

  // The size check above bounds numProbes by the input's size.
  table.probes.reserve(numProbes);
  for (uint32_t i = 0; i != numProbes; ++i) {
    uint64_t off = headerSize + uint64_t(i) * descSize;
    const char *d = p + off;
    Probe probe;
    probe.hash = TPUPROF_READ_FIELD(d, tpuprof_probe_desc, hash);
    probe.flops = TPUPROF_READ_FIELD(d, tpuprof_probe_desc, flops);
    probe.bytes = TPUPROF_READ_FIELD(d, tpuprof_probe_desc, bytes);
    probe.kind = TPUPROF_READ_FIELD(d, tpuprof_probe_desc, kind);
    probe.numDynDims = TPUPROF_READ_FIELD(d, tpuprof_probe_desc, num_dyn_dims);
    probe.numOuts = TPUPROF_READ_FIELD(d, tpuprof_probe_desc, num_outs);
    uint8_t flags = TPUPROF_READ_FIELD(d, tpuprof_probe_desc, flags);
    probe.collective = (flags & TPUPROF_PROBE_COLLECTIVE) != 0;
    probe.startsRequest = (flags & TPUPROF_PROBE_STARTS_REQUEST) != 0;
    probe.completesRequests = (flags & TPUPROF_PROBE_COMPLETES_REQUESTS) != 0;
    if (probe.kind >= TPUPROF_KIND_COUNT)
      return formatError(
          file, TPUPROF_FIELD_OFFSET(base + off, tpuprof_probe_desc, kind),
          "probe " + Twine(i) + " has unknown kind " +
              Twine(unsigned(probe.kind)));

    struct {
      size_t fieldOffset;
      const char *what;
      StringRef *out;
    } fields[] = {
        {offsetof(tpuprof_probe_desc, name), "name", &probe.name},
        {offsetof(tpuprof_probe_desc, shapes), "shapes", &probe.shapes},
        {offsetof(tpuprof_probe_desc, location), "location", &probe.location},
        {offsetof(tpuprof_probe_desc, function), "function", &probe.function},
    };
    for (auto &f : fields) {
      uint32_t strOff = detail::readLE<uint32_t>(d + f.fieldOffset);
      Expected<StringRef> s =
          strtab.get(strOff, file, "probe " + Twine(i) + " " + f.what,
                     base + off + f.fieldOffset);
      if (!s)
        return s.takeError();
      *f.out = *s;
    }
    if (flags & TPUPROF_PROBE_NODE) {
      // The node is the string after the location's NUL (inside the
      // table, so the offset fits its 32 bits).
      size_t fieldOffset = offsetof(tpuprof_probe_desc, location);
      uint32_t nodeOff = detail::readLE<uint32_t>(d + fieldOffset) +
                         uint32_t(probe.location.size()) + 1;
      Expected<StringRef> s =
          strtab.get(nodeOff, file, "probe " + Twine(i) + " node",
                     base + off + fieldOffset);
      if (!s)
        return s.takeError();
      probe.node = *s;
    }
    if (flags & TPUPROF_PROBE_OUT_SHAPES) {
      size_t fieldOffset = offsetof(tpuprof_probe_desc, out_shapes);
      Expected<StringRef> s = strtab.get(
          detail::readLE<uint32_t>(d + fieldOffset), file,
          "probe " + Twine(i) + " out_shapes", base + off + fieldOffset);
      if (!s)
        return s.takeError();
      probe.outShapes = *s;
    }
    table.probes.push_back(probe);
  }
  return std::move(table);
}

std::string tpuprof::report::hashName(uint64_t hash) {
  return llvm::utohexstr(hash, /*LowerCase=*/true, /*Width=*/16);
}

llvm::StringRef tpuprof::report::kindName(uint8_t kind) {
  return tpuprof_probe_kind_name(kind);
}

std::optional<uint8_t> tpuprof::report::parseKindName(llvm::StringRef name) {
  for (uint32_t k = 0; k != TPUPROF_KIND_COUNT; ++k)
    if (name == tpuprof_probe_kind_name(k))
      return uint8_t(k);
  return std::nullopt;
}

std::string tpuprof::report::kindNames() {
  std::string out;
  for (uint32_t k = 0; k != TPUPROF_KIND_COUNT; ++k)
    out += (k ? ", " : "") + std::string(tpuprof_probe_kind_name(k));
  return out;
}
