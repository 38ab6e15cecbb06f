//===- RunInputs.cpp - Entry arguments and results for tpuprof-run --------===//

#include "tpuprof/ModelRunner/RunInputs.h"

#include "tpuprof/format.h"
#include "tpuprof/tpuprof.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/xxhash.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

#include <unistd.h>

using namespace mlir;
using namespace tpuprof::run;

size_t tpuprof::run::elemSize(ElemKind k) {
  return tpuprof_elem_type_size(static_cast<uint32_t>(k));
}

namespace {

const llvm::fltSemantics &halfSemantics(ElemKind k) {
  return k == ElemKind::F16 ? llvm::APFloat::IEEEhalf()
                            : llvm::APFloat::BFloat();
}

template <typename T> T loadAs(const char *p) {
  T x;
  std::memcpy(&x, p, sizeof(T));
  return x;
}

template <typename T> void storeAs(char *p, T x) {
  std::memcpy(p, &x, sizeof(T));
}

/// `v` rounded to an integer and wrapped to 64 bits, as a two's complement
/// store of any width keeps it (a cast of an out-of-range double to a
/// narrower integer would be undefined).
uint64_t integerBits(double v) {
  if (std::isnan(v))
    return 0;
  v = std::nearbyint(v);
  if (v >= 0x1p64 || v <= -0x1p63)
    return v > 0 ? ~uint64_t(0) : uint64_t(1) << 63;
  return v >= 0 ? static_cast<uint64_t>(v)
                : static_cast<uint64_t>(static_cast<int64_t>(v));
}

} // namespace

double tpuprof::run::loadElem(const void *base, ElemKind k, size_t i) {
  const char *p = static_cast<const char *>(base) + i * elemSize(k);
  switch (k) {
  case ElemKind::F32:
    return loadAs<float>(p);
  case ElemKind::F64:
    return loadAs<double>(p);
  case ElemKind::I1:
    return *p & 1;
  case ElemKind::I8:
    return loadAs<int8_t>(p);
  case ElemKind::I16:
    return loadAs<int16_t>(p);
  case ElemKind::I32:
    return loadAs<int32_t>(p);
  case ElemKind::I64:
  case ElemKind::Index:
    return static_cast<double>(loadAs<int64_t>(p));
  case ElemKind::UI8:
    return loadAs<uint8_t>(p);
  case ElemKind::UI16:
    return loadAs<uint16_t>(p);
  case ElemKind::UI32:
    return loadAs<uint32_t>(p);
  case ElemKind::UI64:
    return static_cast<double>(loadAs<uint64_t>(p));
  case ElemKind::F16:
  case ElemKind::BF16: {
    llvm::APFloat f(halfSemantics(k), llvm::APInt(16, loadAs<uint16_t>(p)));
    bool lost;
    f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
              &lost);
    return f.convertToDouble();
  }
  }
  return 0;
}

namespace {

llvm::Error fail(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

std::optional<ElemKind> elemKindOf(Type t) {
  if (t.isF32())
    return ElemKind::F32;
  if (t.isF64())
    return ElemKind::F64;
  if (t.isF16())
    return ElemKind::F16;
  if (t.isBF16())
    return ElemKind::BF16;
  if (t.isIndex())
    return ElemKind::Index;
  if (auto i = dyn_cast<IntegerType>(t); i && i.isUnsigned()) {
    switch (i.getWidth()) {
    case 8:
      return ElemKind::UI8;
    case 16:
      return ElemKind::UI16;
    case 32:
      return ElemKind::UI32;
    case 64:
      return ElemKind::UI64;
    default:
      return std::nullopt;
    }
  }
  if (auto i = dyn_cast<IntegerType>(t)) {
    switch (i.getWidth()) {
    case 1:
      return ElemKind::I1;
    case 8:
      return ElemKind::I8;
    case 16:
      return ElemKind::I16;
    case 32:
      return ElemKind::I32;
    case 64:
      return ElemKind::I64;
    default:
      break;
    }
  }
  return std::nullopt;
}

std::optional<ElemKind> elemKindOf(llvm::StringRef name) {
  for (uint32_t k = 0; k < TPUPROF_ELEM_TYPE_COUNT; ++k)
    if (name == tpuprof_elem_type_name(k))
      return static_cast<ElemKind>(k);
  return std::nullopt;
}

const char *elemName(ElemKind k) {
  return tpuprof_elem_type_name(static_cast<uint32_t>(k));
}

/// Stores `v` as element `i`: rounded to nearest for integer kinds (and
/// wrapped as a store of that width wraps), to nearest even for floats.
void storeElem(void *base, ElemKind k, size_t i, double v) {
  char *p = static_cast<char *>(base) + i * elemSize(k);
  switch (k) {
  case ElemKind::F32:
    storeAs(p, static_cast<float>(v));
    break;
  case ElemKind::F64:
    storeAs(p, v);
    break;
  case ElemKind::I1:
    *p = v != 0;
    break;
  case ElemKind::F16:
  case ElemKind::BF16: {
    llvm::APFloat f(v);
    bool lost;
    f.convert(halfSemantics(k), llvm::APFloat::rmNearestTiesToEven, &lost);
    storeAs(p, static_cast<uint16_t>(f.bitcastToAPInt().getZExtValue()));
    break;
  }
  default: {
    // Little-endian host: the low bytes are the narrower integer.
    uint64_t bits = integerBits(v);
    std::memcpy(p, &bits, elemSize(k));
    break;
  }
  }
}

/// Deterministic values: xorshift64* seeded by the argument's position, so
/// every run (instrumented or not, any machine) sees the same inputs.
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed)
      : s(seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull) {}
  uint64_t next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 0x2545F4914F6CDD1Dull;
  }
  /// Uniform in [-1, 1).
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-52 - 1.0; }
};

/// A default input from `unit` (uniform in [-1, 1)): floats as they are;
/// i1 false or true; unsigned integers in [1, 16]; other integers in
/// [-8, -1] or [1, 8], never 0, so that
/// models that divide by an input (tosa.intdiv, arith.divsi) do not trap.
double defaultValue(ElemKind kind, double unit) {
  switch (kind) {
  case ElemKind::F32:
  case ElemKind::F64:
  case ElemKind::F16:
  case ElemKind::BF16:
    return unit;
  case ElemKind::I1:
    return unit >= 0;
  case ElemKind::UI8:
  case ElemKind::UI16:
  case ElemKind::UI32:
  case ElemKind::UI64:
    return std::floor((unit + 1) * 8) + 1; // [1, 16]
  default: {
    double v = std::floor(unit * 8);
    return v >= 0 ? v + 1 : v;
  }
  }
}

/// "3x5": a shape as --input spells it.
std::string shapeText(llvm::ArrayRef<int64_t> dims) {
  std::string text;
  for (auto [i, d] : llvm::enumerate(dims))
    text += (i ? "x" : "") + std::to_string(d);
  return text;
}

/// The most bytes one argument may take: the machine's memory (more could
/// only be overcommitted, and touching it would end in the OOM killer).
uint64_t maxArgumentBytes() {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0)
    return uint64_t(1) << 40;
  return uint64_t(pages) * uint64_t(pageSize);
}

struct Spec {
  std::vector<int64_t> dims;
  // Not std::optional: GCC 12 warns that a moved Spec's disengaged payload
  // may be used uninitialized.
  ElemKind kind = ElemKind::F32;
  bool hasKind = false;
  std::vector<double> values;
  bool hasValues = false;
};

/// Parses "4x784xf32", "4x784", "f32" or "<shape>=v1,v2,...".
llvm::Expected<Spec> parseSpec(llvm::StringRef text) {
  Spec spec;
  auto [shape, values] = text.split('=');
  if (text.contains('=')) {
    spec.hasValues = true;
    llvm::SmallVector<llvm::StringRef> parts;
    values.split(parts, ',', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef v : parts) {
      double d;
      if (v.trim().getAsDouble(d))
        return fail("bad value '" + v.trim() + "'");
      spec.values.push_back(d);
    }
  }
  llvm::SmallVector<llvm::StringRef> fields;
  shape.split(fields, 'x', -1, /*KeepEmpty=*/true);
  for (auto [i, f] : llvm::enumerate(fields)) {
    int64_t d;
    if (!f.getAsInteger(10, d) && d >= 0) {
      spec.dims.push_back(d);
      continue;
    }
    if (std::optional<ElemKind> kind = elemKindOf(f);
        kind && i + 1 == fields.size()) {
      spec.kind = *kind;
      spec.hasKind = true;
      continue;
    }
    return fail("bad shape '" + shape +
                "': expected dimensions like 4x784 optionally followed by "
                "an element type (f32, f64, f16, bf16, i1, i8, i16, i32, "
                "i64, ui8, ui16, ui32, ui64, index)");
  }
  return spec;
}

} // namespace

llvm::Expected<EntryArguments>
EntryArguments::create(llvm::ArrayRef<Type> argTypes,
                       llvm::ArrayRef<std::string> specs) {
  if (specs.size() > argTypes.size())
    return fail("got " + llvm::Twine(specs.size()) +
                " --input values but the "
                "entry takes " +
                llvm::Twine(argTypes.size()) + " arguments");
  EntryArguments result;
  for (auto [index, type] : llvm::enumerate(argTypes)) {
    auto argError = [&, index = index](const llvm::Twine &msg) {
      return fail("argument #" + llvm::Twine(index) + ": " + msg);
    };
    std::string typeText;
    llvm::raw_string_ostream(typeText) << type;
    Spec spec;
    if (index < specs.size()) {
      llvm::Expected<Spec> parsed = parseSpec(specs[index]);
      if (!parsed)
        return argError("--input '" + specs[index] +
                        "': " + llvm::toString(parsed.takeError()));
      spec = std::move(*parsed);
    }

    ArgBuffer arg;
    auto shaped = dyn_cast<ShapedType>(type);
    Type elem = shaped ? shaped.getElementType() : type;
    std::optional<ElemKind> kind = elemKindOf(elem);
    if (!kind || (shaped && !isa<RankedTensorType, MemRefType>(type)))
      return argError("type " + typeText + " is not supported by tpuprof-run");
    if (spec.hasKind && spec.kind != *kind)
      return argError("--input element type does not match " + typeText);
    arg.kind = *kind;

    size_t count = 1;
    if (!shaped) {
      arg.isScalar = true;
      if (!spec.dims.empty())
        return argError("--input gives a shape for scalar " + typeText);
    } else {
      ArrayRef<int64_t> shape = shaped.getShape();
      if (index < specs.size() && !spec.dims.empty()) {
        if (spec.dims.size() != shape.size())
          return argError("--input has rank " + llvm::Twine(spec.dims.size()) +
                          " but the argument is " + typeText);
        for (auto [want, got] : llvm::zip(shape, spec.dims))
          if (!ShapedType::isDynamic(want) && want != got)
            return argError("--input shape does not match " + typeText);
        arg.sizes = spec.dims;
      } else {
        if (!shaped.hasStaticShape())
          return argError("type " + typeText +
                          " has dynamic dimensions; give its shape with "
                          "--input (e.g. --input=4x784xf32)");
        arg.sizes.assign(shape.begin(), shape.end());
      }
      // Checked: a shape whose element count, strides or byte size
      // overflows would allocate a small buffer and write past it. Zero
      // dimensions do not hide the others' product: the strides hold it.
      int64_t product = 1, bytes = 0;
      bool empty = false;
      for (int64_t d : arg.sizes) {
        empty |= d == 0;
        if (llvm::MulOverflow<int64_t>(product, std::max<int64_t>(d, 1),
                                       product))
          return argError("--input shape " + shapeText(arg.sizes) +
                          " has more elements than 64 bits can count");
      }
      int64_t elements = empty ? 0 : product;
      if (llvm::MulOverflow<int64_t>(
              elements, static_cast<int64_t>(elemSize(arg.kind)), bytes) ||
          static_cast<uint64_t>(bytes) > maxArgumentBytes())
        return argError("--input shape " + shapeText(arg.sizes) +
                        " needs more memory than this machine has (" +
                        llvm::Twine(maxArgumentBytes() >> 20) + " MiB)");
      arg.strides.assign(arg.sizes.size(), 1);
      for (int i = static_cast<int>(arg.sizes.size()) - 2; i >= 0; --i)
        arg.strides[i] = arg.strides[i + 1] * arg.sizes[i + 1];
      count = static_cast<size_t>(elements);
    }
    if (spec.hasValues && spec.values.size() != count &&
        spec.values.size() != 1)
      return argError("--input has " + llvm::Twine(spec.values.size()) +
                      " values for " + llvm::Twine(count) + " elements");

    void *data = arg.scalar;
    if (!arg.isScalar) {
      size_t bytes =
          std::max<size_t>(64, (count * elemSize(arg.kind) + 63) / 64 * 64);
      data = std::aligned_alloc(64, bytes);
      if (!data)
        return argError("cannot allocate " + llvm::Twine(bytes) + " bytes");
      std::memset(data, 0, bytes);
      arg.storage = std::shared_ptr<void>(data, std::free);
      arg.allocated = arg.aligned = data;
    }
    Rng rng(index + 1);
    for (size_t i = 0; i < count; ++i) {
      double v = spec.hasValues ? spec.values[spec.values.size() == 1 ? 0 : i]
                                : rng.unit();
      if (!spec.hasValues)
        v = defaultValue(arg.kind, v);
      storeElem(data, arg.kind, i, v);
    }
    result.args.push_back(std::move(arg));
  }
  return result;
}

std::vector<std::vector<int64_t>> EntryArguments::shapes() const {
  std::vector<std::vector<int64_t>> result;
  for (const ArgBuffer &arg : args)
    result.push_back(arg.isScalar ? std::vector<int64_t>() : arg.sizes);
  return result;
}

llvm::SmallVector<void *> EntryArguments::packedArguments() {
  llvm::SmallVector<void *> packed;
  fieldStorage.clear();
  pointerStorage.clear();
  pointerStorage.reserve(args.size() * 2);
  for (ArgBuffer &arg : args) {
    if (arg.isScalar) {
      packed.push_back(arg.scalar);
      continue;
    }
    // allocated, aligned, offset, sizes..., strides...
    pointerStorage.push_back(arg.allocated);
    packed.push_back(&pointerStorage.back());
    pointerStorage.push_back(arg.aligned);
    packed.push_back(&pointerStorage.back());
    size_t rank = arg.sizes.size();
    auto fields = std::make_unique<int64_t[]>(1 + 2 * rank);
    fields[0] = arg.offset;
    for (size_t i = 0; i < rank; ++i) {
      fields[1 + i] = arg.sizes[i];
      fields[1 + rank + i] = arg.strides[i];
    }
    for (size_t i = 0; i < 1 + 2 * rank; ++i)
      packed.push_back(&fields[i]);
    fieldStorage.push_back(std::move(fields));
  }
  return packed;
}

size_t EntryArguments::packedIndex(size_t arg) const {
  size_t at = 0;
  for (const ArgBuffer &a : llvm::ArrayRef(args).take_front(arg))
    at += a.isScalar ? 1 : 3 + 2 * a.sizes.size();
  return at;
}

bool EntryArguments::owns(const void *p) const {
  for (const ArgBuffer &arg : args)
    if (arg.allocated == p)
      return true;
  return false;
}

llvm::Expected<EntryResults>
EntryResults::create(llvm::ArrayRef<Type> resultTypes) {
  EntryResults results;
  size_t offset = 0;
  for (auto [index, type] : llvm::enumerate(resultTypes)) {
    auto shaped = dyn_cast<ShapedType>(type);
    std::optional<ElemKind> kind =
        elemKindOf(shaped ? shaped.getElementType() : type);
    if (!kind || (shaped && !isa<RankedTensorType, MemRefType>(type))) {
      std::string text;
      llvm::raw_string_ostream(text) << type;
      return fail("result #" + llvm::Twine(index) + ": type " + text +
                  " is not supported by tpuprof-run");
    }
    Slot slot{*kind, !shaped,
              shaped ? static_cast<unsigned>(shaped.getRank()) : 0, 0};
    // LLVM struct layout: every field at its natural alignment.
    size_t size = slot.isScalar ? elemSize(slot.kind) : 8 * (3 + 2 * slot.rank);
    size_t align = slot.isScalar ? elemSize(slot.kind) : 8;
    offset = (offset + align - 1) / align * align;
    slot.offset = offset;
    offset += size;
    results.slots.push_back(slot);
  }
  results.bytes.assign((offset + 7) / 8 + 1, 0);
  return results;
}

void EntryResults::print(llvm::raw_ostream &os, size_t maxValues) const {
  const char *base = reinterpret_cast<const char *>(bytes.data());
  for (auto [index, slot] : llvm::enumerate(slots)) {
    const char *p = base + slot.offset;
    std::vector<double> values;
    std::string shape;
    llvm::raw_string_ostream shapeOs(shape);
    shapeOs << elemName(slot.kind);
    if (slot.isScalar) {
      values.push_back(loadElem(p, slot.kind, 0));
    } else {
      void *aligned;
      int64_t off, sizes[16] = {0}, strides[16] = {0};
      unsigned rank = std::min(slot.rank, 16u);
      std::memcpy(&aligned, p + 8, 8);
      std::memcpy(&off, p + 16, 8);
      std::memcpy(sizes, p + 24, 8 * rank);
      std::memcpy(strides, p + 24 + 8 * slot.rank, 8 * rank);
      shapeOs << '[';
      llvm::interleaveComma(llvm::ArrayRef<int64_t>(sizes, rank), shapeOs);
      shapeOs << ']';
      size_t count = 1;
      for (unsigned i = 0; i < rank; ++i)
        count *= static_cast<size_t>(sizes[i]);
      // Walk the strided view in row-major order.
      std::vector<int64_t> idx(rank, 0);
      for (size_t n = 0; n < count; ++n) {
        int64_t linear = off;
        for (unsigned i = 0; i < rank; ++i)
          linear += idx[i] * strides[i];
        values.push_back(
            loadElem(aligned, slot.kind, static_cast<size_t>(linear)));
        for (int i = static_cast<int>(rank) - 1; i >= 0; --i) {
          if (++idx[i] < sizes[i])
            break;
          idx[i] = 0;
        }
      }
    }
    uint64_t hash = llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(
        reinterpret_cast<const uint8_t *>(values.data()),
        values.size() * sizeof(double)));
    os << "result #" << index << ": " << shape
       << " hash=" << llvm::format_hex_no_prefix(hash, 16) << "\n  [";
    size_t shown =
        maxValues ? std::min(values.size(), maxValues) : values.size();
    for (size_t i = 0; i < shown; ++i)
      os << (i ? ", " : "") << llvm::format("%.6g", values[i]);
    if (values.size() > shown)
      os << ", ... (" << values.size() - shown << " more)";
    os << "]\n";
  }
}

void EntryResults::release(const EntryArguments &args) {
  const char *base = reinterpret_cast<const char *>(bytes.data());
  llvm::SmallVector<void *> freed;
  for (const Slot &slot : slots) {
    if (slot.isScalar)
      continue;
    void *allocated;
    std::memcpy(&allocated, base + slot.offset, 8);
    // Results that alias an argument or another result, or a constant
    // global (MLIR marks those 0xdeadbeef), are not ours to free.
    if (!allocated || args.owns(allocated) ||
        reinterpret_cast<uintptr_t>(allocated) == 0xDEADBEEF ||
        llvm::is_contained(freed, allocated))
      continue;
    // The model's memory records know a buffer by its aligned pointer (the
    // descriptor's second word): its end, where the caller frees it.
    void *aligned;
    std::memcpy(&aligned, base + slot.offset + 8, 8);
    if (__tpuprof_memory)
      __tpuprof_free(aligned, TPUPROF_SOURCE_MEMREF);
    std::free(allocated);
    freed.push_back(allocated);
  }
}

mlir::FunctionType tpuprof::run::entryType(Operation *op) {
  auto fn = cast<FunctionOpInterface>(op);
  auto fnType = cast<FunctionType>(fn.getFunctionType());
  auto publicType = [&](Type type, DictionaryAttr attrs) -> Type {
    if (!attrs || !attrs.get(TPUPROF_UNSIGNED_ATTR))
      return type;
    auto shaped = dyn_cast<ShapedType>(type);
    auto elem = dyn_cast<IntegerType>(shaped ? shaped.getElementType() : type);
    if (!elem || !elem.isSignless() || elem.getWidth() == 1)
      return type;
    Type unsignedElem = IntegerType::get(op->getContext(), elem.getWidth(),
                                         IntegerType::Unsigned);
    return shaped ? shaped.clone(unsignedElem) : unsignedElem;
  };
  llvm::SmallVector<Type> inputs, results;
  for (auto [i, t] : llvm::enumerate(fnType.getInputs()))
    inputs.push_back(publicType(t, fn.getArgAttrDict(i)));
  for (auto [i, t] : llvm::enumerate(fnType.getResults()))
    results.push_back(publicType(t, fn.getResultAttrDict(i)));
  return FunctionType::get(op->getContext(), inputs, results);
}
