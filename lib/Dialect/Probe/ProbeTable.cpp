//===- ProbeTable.cpp - the #tpuprof.probes attribute ---------------------===//
//
// A module's probe table: the tpuprof.probes op and the one attribute that
// holds its entries. Both print the entries as a list of dictionaries, one
// per probe id, in MLIR's dictionary syntax, so the printed form stays easy
// to read and to FileCheck; they read it back without building attributes.
//
//===----------------------------------------------------------------------===//

#include "tpuprof/Dialect/Probe/ProbeDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/DenseSet.h"
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
         bytes == other.bytes && dynDims == other.dynDims &&
         numOuts == other.numOuts && outShapes == other.outShapes &&
         node == other.node;
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
void setLocationFromText(ProbeEntry &entry, StringRef s, MLIRContext *ctx) {
  auto [rest, col] = s.rsplit(':');
  auto [file, line] = rest.rsplit(':');
  uint32_t lineNo = 0, colNo = 0;
  if (!col.empty() && !line.empty() && col.size() < s.size() &&
      line.size() < rest.size() && !col.getAsInteger(10, colNo) &&
      !line.getAsInteger(10, lineNo)) {
    entry.location = StringAttr::get(ctx, file);
    entry.line = lineNo;
    entry.column = colNo;
    entry.hasPosition = true;
    return;
  }
  entry.location = StringAttr::get(ctx, s);
}

/// One entry's fields as a reader found them; a missing one is null/empty.
struct EntryFields {
  StringAttr name, shapes, function;
  StringAttr outShapes;            ///< Optional: tables from before lack it.
  StringAttr node;                 ///< Optional, likewise.
  std::optional<uint64_t> numOuts; ///< Optional, likewise.
  std::optional<StringRef> hash, location;
  std::optional<uint64_t> flops, bytes, dynDims;
};

/// What every reader says of an entry it cannot use.
LogicalResult malformed(InFlightDiagnostic &&diag, size_t index,
                        StringRef tableName) {
  diag << "entry #" << index << " of '" << tableName
       << "' is malformed: it needs string name, hash (hex), shapes, "
          "location, function and integer flops, bytes, dyn_dims (<256)";
  return failure();
}

/// Checks `f` and builds its entry, or says why not.
FailureOr<ProbeEntry>
makeEntry(const EntryFields &f, MLIRContext *ctx, size_t index,
          StringRef tableName,
          llvm::function_ref<InFlightDiagnostic()> emitError) {
  ProbeEntry entry;
  if (!f.name || !f.hash || !f.shapes || !f.location || !f.function ||
      !f.flops || !f.bytes || !f.dynDims ||
      f.hash->getAsInteger(16, entry.hash) || *f.dynDims > 255)
    return malformed(emitError(), index, tableName);
  entry.name = f.name;
  entry.shapes = f.shapes;
  entry.function = f.function;
  setLocationFromText(entry, *f.location, ctx);
  entry.flops = *f.flops;
  entry.bytes = *f.bytes;
  entry.dynDims = static_cast<uint8_t>(*f.dynDims);
  if (f.numOuts && *f.numOuts > 255)
    return malformed(emitError(), index, tableName);
  entry.numOuts = static_cast<uint8_t>(f.numOuts.value_or(0));
  entry.outShapes = f.outShapes;
  entry.node = f.node;
  return entry;
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
    EntryFields f;
    f.name = str("name");
    f.shapes = str("shapes");
    f.function = str("function");
    if (StringAttr hash = str("hash"))
      f.hash = hash.getValue();
    if (StringAttr location = str("location"))
      f.location = location.getValue();
    f.flops = num("flops");
    f.bytes = num("bytes");
    f.dynDims = num("dyn_dims");
    f.outShapes = str("out_shapes");
    f.numOuts = num("num_outs");
    f.node = str("node");
    FailureOr<ProbeEntry> entry =
        makeEntry(f, table.getContext(), i, tableName, emitError);
    if (failed(entry))
      return failure();
    entries.push_back(*entry);
  }
  return entries;
}

namespace {
/// Parses `[{...}, ...]`, the table's list of dictionaries, straight into
/// entries: the generic attribute parser would unique a DictionaryAttr, a
/// hash string and three integers per entry in the context, which was a
/// tenth of reading a 100 k-op instrumented module back and stayed in its
/// memory. Keys may come in any order; unknown keys are read and ignored,
/// like the dictionary reader does; integers may carry a type (`: i64`).
FailureOr<SmallVector<ProbeEntry>> parseEntries(AsmParser &parser,
                                                StringRef tableName) {
  MLIRContext *ctx = parser.getContext();
  SmallVector<ProbeEntry> entries;
  auto parseEntry = [&]() -> ParseResult {
    SMLoc entryLoc = parser.getCurrentLocation();
    EntryFields f;
    std::string hash, location; // What f.hash and f.location point into.
    bool wellFormed = true;
    // A value of the wrong kind is read as an attribute, so that the entry
    // fails with the table's own message rather than a syntax error.
    auto wrongKind = [&]() -> ParseResult {
      wellFormed = false;
      Attribute skipped;
      return parser.parseAttribute(skipped);
    };
    auto string = [&](auto &&store) -> ParseResult {
      std::string value;
      if (failed(parser.parseOptionalString(&value)))
        return wrongKind();
      store(std::move(value));
      return success();
    };
    auto integer = [&](std::optional<uint64_t> &out) -> ParseResult {
      uint64_t value;
      OptionalParseResult r = parser.parseOptionalInteger(value);
      if (!r.has_value())
        return wrongKind();
      if (failed(*r))
        return failure();
      out = value;
      Type ignored;
      if (succeeded(parser.parseOptionalColon()) && parser.parseType(ignored))
        return failure();
      return success();
    };
    auto attr = [&](StringAttr &out) {
      return string([&](std::string v) { out = StringAttr::get(ctx, v); });
    };
    auto text = [&](std::string &storage, std::optional<StringRef> &out) {
      return string([&](std::string v) {
        storage = std::move(v);
        out = storage;
      });
    };
    llvm::SmallDenseSet<StringRef, 8> seen;
    auto parseField = [&]() -> ParseResult {
      StringRef key;
      if (parser.parseKeyword(&key) || parser.parseEqual())
        return failure();
      if (!seen.insert(key).second)
        wellFormed = false; // A dictionary has each key once.
      if (key == "name")
        return attr(f.name);
      if (key == "shapes")
        return attr(f.shapes);
      if (key == "function")
        return attr(f.function);
      if (key == "hash")
        return text(hash, f.hash);
      if (key == "location")
        return text(location, f.location);
      if (key == "flops")
        return integer(f.flops);
      if (key == "bytes")
        return integer(f.bytes);
      if (key == "dyn_dims")
        return integer(f.dynDims);
      if (key == "out_shapes")
        return attr(f.outShapes);
      if (key == "num_outs")
        return integer(f.numOuts);
      if (key == "node")
        return attr(f.node);
      Attribute unknown;
      return parser.parseAttribute(unknown);
    };
    if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Braces,
                                       parseField))
      return failure();
    auto emitError = [&] { return parser.emitError(entryLoc); };
    if (!wellFormed)
      return malformed(emitError(), entries.size(), tableName);
    FailureOr<ProbeEntry> entry =
        makeEntry(f, ctx, entries.size(), tableName, emitError);
    if (failed(entry))
      return failure();
    entries.push_back(*entry);
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseEntry))
    return failure();
  return entries;
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
  llvm::interleave(
      entries,
      [&](const ProbeEntry &e) {
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
        // Where the outputs are, after the fields every table has.
        if (e.numOuts)
          os << ", num_outs = " << unsigned(e.numOuts);
        if (e.outShapes) {
          os << ", out_shapes = ";
          quoted(e.outShapes.getValue());
        }
        if (e.node && !e.node.getValue().empty()) {
          os << ", node = ";
          quoted(e.node.getValue());
        }
        os << '}';
      },
      [&] {
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
