//===- ProbeTable.cpp - the #tpuprof.probes attribute ---------------------===//
//
// A module's probe table: the tpuprof.probes op and the one attribute that
// holds its entries. Both print the entries as a list of dictionaries, one
// per probe id, read back through MLIR's own attribute parser, so the
// printed form stays easy to read and to FileCheck.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/passes/mlir/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace tpuprof;

std::string ProbeEntry::formatLocation() const {
  StringRef where = location ? location.getValue() : StringRef();
  if (!hasPosition)
    return where.str();
  return (where + ":" + llvm::Twine(line) + ":" + llvm::Twine(column)).str();
}

bool ProbeEntry::operator==(const ProbeEntry &other) const {
  return name == other.name && hash == other.hash && shapes == other.shapes &&
         location == other.location && line == other.line &&
         column == other.column && hasPosition == other.hasPosition &&
         function == other.function && flops == other.flops &&
         bytes == other.bytes && dynDims == other.dynDims;
}

/// Hashes the fields that tell entries apart in practice (op hash and
/// position); equality still compares all of them. The table's uniquing
/// hashes every entry once, so this runs once per probe.
llvm::hash_code tpuprof::hash_value(const ProbeEntry &entry) {
  return llvm::hash_combine(entry.hash, entry.location, entry.line,
                            entry.column);
}

namespace {
/// Splits "file:line:col" into its parts; a string without two trailing
/// numbers is a name.
void setLocationFromText(ProbeEntry &entry, StringAttr text) {
  StringRef s = text.getValue();
  auto [rest, col] = s.rsplit(':');
  auto [file, line] = rest.rsplit(':');
  uint32_t lineNo = 0, colNo = 0;
  if (!col.empty() && !line.empty() && col.size() < s.size() &&
      line.size() < rest.size() && !col.getAsInteger(10, colNo) &&
      !line.getAsInteger(10, lineNo)) {
    entry.location = StringAttr::get(text.getContext(), file);
    entry.line = lineNo;
    entry.column = colNo;
    entry.hasPosition = true;
    return;
  }
  entry.location = text;
}
} // namespace

FailureOr<SmallVector<ProbeEntry>>
tpuprof::readProbeEntries(ArrayAttr table, StringRef tableName,
                          llvm::function_ref<InFlightDiagnostic()> emitError) {
  SmallVector<ProbeEntry> entries;
  entries.reserve(table.size());
  for (auto [i, element] : llvm::enumerate(table)) {
    auto dict = dyn_cast<DictionaryAttr>(element);
    auto str = [&](StringRef key) {
      return dict ? dict.getAs<StringAttr>(key) : StringAttr();
    };
    auto num = [&](StringRef key) -> std::optional<uint64_t> {
      if (auto a = dict ? dict.getAs<IntegerAttr>(key) : IntegerAttr())
        return a.getValue().getZExtValue();
      return std::nullopt;
    };
    ProbeEntry entry;
    StringAttr hash = str("hash"), location = str("location");
    entry.name = str("name");
    entry.shapes = str("shapes");
    entry.function = str("function");
    std::optional<uint64_t> flops = num("flops"), bytes = num("bytes"),
                            dyn = num("dyn_dims");
    if (!entry.name || !hash || !entry.shapes || !location ||
        !entry.function || !flops || !bytes || !dyn ||
        hash.getValue().getAsInteger(16, entry.hash) || *dyn > 255) {
      emitError() << "entry #" << i << " of '" << tableName
                  << "' is malformed: it needs string "
                     "name, hash (hex), shapes, location, function and "
                     "integer flops, bytes, dyn_dims (<256)";
      return failure();
    }
    setLocationFromText(entry, location);
    entry.flops = *flops;
    entry.bytes = *bytes;
    entry.dynDims = static_cast<uint8_t>(*dyn);
    entries.push_back(entry);
  }
  return entries;
}

namespace {
/// Parses `[{...}, ...]`, the table's list of dictionaries.
FailureOr<SmallVector<ProbeEntry>> parseEntries(AsmParser &parser,
                                                StringRef tableName) {
  ArrayAttr table;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseAttribute(table))
    return failure();
  return readProbeEntries(table, tableName,
                          [&] { return parser.emitError(loc); });
}

/// Prints `[{...}, ...]`, calling `newline` between entries. Written straight
/// to the stream: tables of 100 k entries are common, and they are the bulk
/// of an instrumented module's text.
void printEntries(raw_ostream &os, ArrayRef<ProbeEntry> entries,
                  llvm::function_ref<void()> newline) {
  auto quoted = [&](StringRef s) {
    os << '"';
    llvm::printEscapedString(s, os);
    os << '"';
  };
  os << '[';
  llvm::interleave(entries, [&](const ProbeEntry &e) {
    os << "{bytes = " << e.bytes << ", dyn_dims = " << unsigned(e.dynDims)
       << ", flops = " << e.flops << ", function = ";
    quoted(e.function.getValue());
    os << ", hash = \"" << llvm::format_hex_no_prefix(e.hash, 16)
       << "\", location = \"";
    llvm::printEscapedString(e.location.getValue(), os);
    if (e.hasPosition)
      os << ':' << e.line << ':' << e.column;
    os << "\", name = ";
    quoted(e.name.getValue());
    os << ", shapes = ";
    quoted(e.shapes.getValue());
    os << '}';
  }, [&] {
    os << ',';
    newline();
  });
  os << ']';
}
} // namespace

Attribute ProbeTableAttr::parse(AsmParser &parser, Type) {
  FailureOr<SmallVector<ProbeEntry>> entries;
  if (parser.parseLess() ||
      failed(entries = parseEntries(parser, "#tpuprof.probes")) ||
      parser.parseGreater())
    return {};
  return ProbeTableAttr::get(parser.getContext(), *entries);
}

void ProbeTableAttr::print(AsmPrinter &printer) const {
  printer.getStream() << '<';
  printEntries(printer.getStream(), getEntries(),
               [&] { printer.getStream() << ' '; });
  printer.getStream() << '>';
}

ParseResult ProbesOp::parse(OpAsmParser &parser, OperationState &result) {
  FailureOr<SmallVector<ProbeEntry>> entries =
      parseEntries(parser, "tpuprof.probes");
  if (failed(entries) || parser.parseOptionalAttrDict(result.attributes))
    return failure();
  result.getOrAddProperties<Properties>().table =
      ProbeTableAttr::get(parser.getContext(), *entries);
  return success();
}

void ProbesOp::print(OpAsmPrinter &printer) {
  // One entry per line: a diagnostic that quotes the op's line (a tool
  // without the tpuprof dialect stops here) shows one entry, not the table.
  printer << ' ';
  printer.increaseIndent();
  printEntries(printer.getStream(), getTable().getEntries(),
               [&] { printer.printNewline(); });
  printer.decreaseIndent();
  printer.printOptionalAttrDict((*this)->getAttrs(), {"table"});
}
