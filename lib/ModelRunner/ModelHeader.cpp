//===- ModelHeader.cpp - tpuprof-compile --header -------------------------===//

#include "tpuprof/ModelRunner/ModelHeader.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <map>

using namespace mlir;
using namespace tpuprof::compile;

namespace {

llvm::Error fail(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

/// The C type of a scalar of MLIR type `t`, and its short name; none for
/// types C has no match for.
std::optional<std::pair<const char *, const char *>> cScalar(Type t) {
  if (t.isF32())
    return {{"float", "f32"}};
  if (t.isF64())
    return {{"double", "f64"}};
  if (t.isIndex())
    return {{"int64_t", "index"}};
  if (auto i = dyn_cast<IntegerType>(t); i && i.isUnsigned()) {
    switch (i.getWidth()) {
    case 8:
      return {{"uint8_t", "ui8"}};
    case 16:
      return {{"uint16_t", "ui16"}};
    case 32:
      return {{"uint32_t", "ui32"}};
    case 64:
      return {{"uint64_t", "ui64"}};
    default:
      return std::nullopt;
    }
  }
  if (auto i = dyn_cast<IntegerType>(t)) {
    switch (i.getWidth()) {
    case 1:
      return {{"bool", "i1"}};
    case 8:
      return {{"int8_t", "i8"}};
    case 16:
      return {{"int16_t", "i16"}};
    case 32:
      return {{"int32_t", "i32"}};
    case 64:
      return {{"int64_t", "i64"}};
    default:
      break;
    }
  }
  return std::nullopt;
}

/// Collects the descriptor structs the declarations use and spells types.
class HeaderTypes {
public:
  /// The C spelling of a value of type `t` (a descriptor struct for a
  /// ranked tensor or memref), or an error naming `where`.
  llvm::Expected<std::string> spell(Type t, const llvm::Twine &where) {
    if (auto shaped = dyn_cast<ShapedType>(t);
        shaped && isa<RankedTensorType, MemRefType>(t)) {
      auto elem = cScalar(shaped.getElementType());
      if (elem) {
        // i1 buffers hold one byte per element.
        const char *cElem =
            shaped.getElementType().isInteger(1) ? "uint8_t" : elem->first;
        std::string name = "tpuprof_memref_" + std::string(elem->second) + "_" +
                           std::to_string(shaped.getRank()) + "d";
        descriptors.emplace(name, std::make_pair(cElem, shaped.getRank()));
        return name;
      }
    } else if (auto scalar = cScalar(t)) {
      return std::string(scalar->first);
    }
    std::string text;
    llvm::raw_string_ostream(text) << t;
    return fail(where + " has type " + text +
                ", which the header cannot "
                "declare (ranked tensors and memrefs of f32, f64, i1-i64 "
                "and index, and those scalars)");
  }

  bool isDescriptor(llvm::StringRef spelled) const {
    return descriptors.count(spelled.str());
  }

  void writeDescriptors(llvm::raw_ostream &os) const {
    for (const auto &[name, what] : descriptors) {
      std::string guard = llvm::StringRef(name).upper();
      const auto &[elem, rank] = what;
      os << "#ifndef " << guard << "\n#define " << guard << "\n"
         << "typedef struct " << name << " {\n"
         << "  " << elem << " *allocated;\n  " << elem << " *aligned;\n"
         << "  int64_t offset;\n";
      if (rank > 0)
        os << "  int64_t sizes[" << rank << "];\n  int64_t strides[" << rank
           << "];\n";
      os << "} " << name << ";\n#endif\n\n";
    }
  }

private:
  std::map<std::string, std::pair<const char *, int64_t>> descriptors;
};

} // namespace

llvm::Error tpuprof::compile::writeHeader(
    llvm::raw_ostream &os, llvm::ArrayRef<ExportedFunction> functions,
    llvm::StringRef source, llvm::StringRef artifact, llvm::StringRef guard) {
  HeaderTypes types;
  std::string decls;
  llvm::raw_string_ostream out(decls);
  for (const ExportedFunction &f : functions) {
    llvm::SmallVector<std::string> params;
    std::string returns = "void";
    llvm::ArrayRef<Type> results = f.type.getResults();
    if (results.size() > 1) {
      // Several results: one struct, filled through its pointer.
      std::string structName = f.symbol + "_results";
      out << "typedef struct " << structName << " {\n";
      for (auto [i, t] : llvm::enumerate(results)) {
        auto spelled =
            types.spell(t, "result " + llvm::Twine(i) + " of @" + f.name);
        if (!spelled)
          return spelled.takeError();
        out << "  " << *spelled << " r" << i << ";\n";
      }
      out << "} " << structName << ";\n";
      params.push_back(structName + " *results");
    } else if (results.size() == 1) {
      auto spelled = types.spell(results[0], "the result of @" + f.name);
      if (!spelled)
        return spelled.takeError();
      if (types.isDescriptor(*spelled))
        params.push_back(*spelled + " *result");
      else
        returns = *spelled;
    }
    for (auto [i, t] : llvm::enumerate(f.type.getInputs())) {
      auto spelled =
          types.spell(t, "argument " + llvm::Twine(i) + " of @" + f.name);
      if (!spelled)
        return spelled.takeError();
      params.push_back(*spelled + (types.isDescriptor(*spelled) ? " *" : " ") +
                       "arg" + std::to_string(i));
    }
    out << "/* @" << f.name << ": " << f.typeText << " (" << f.location
        << ") */\n"
        << returns << " " << f.symbol << "("
        << (params.empty() ? "void" : llvm::join(params, ", ")) << ");\n\n";
  }

  os << "/* " << llvm::sys::path::filename(artifact)
     << ": the entry points of a model tpuprof-compile built from " << source
     << ".\n"
     << " *\n"
     << " * Tensors and memrefs are passed as MLIR memref descriptors\n"
     << " * (tpuprof_memref_<type>_<rank>d). A result buffer the model\n"
     << " * allocated is the caller's: free(result.allocated) unless it is\n"
     << " * one of the arguments' buffers. docs/compile.md has the details. "
        "*/\n"
     << "#ifndef " << guard << "\n#define " << guard << "\n\n"
     << "#include <stdbool.h>\n#include <stdint.h>\n\n"
     << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  types.writeDescriptors(os);
  os << decls << "#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n"
     << "#endif /* " << guard << " */\n";
  return llvm::Error::success();
}
