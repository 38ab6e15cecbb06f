//===- RunInputs.h - Entry arguments and results ----------------*- C++ -*-===//
//
// Builds the arguments of the model's entry function (from --input specs or
// deterministic random data), packs them as the JIT's packed calling
// convention expects, and reads back and prints results.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_MODELRUNNER_RUNINPUTS_H
#define TPUPROF_MODELRUNNER_RUNINPUTS_H

#include "tpuprof/model.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

namespace tpuprof {
namespace run {

/// Element types tpuprof-run can create and print: model.h's
/// tpuprof_elem_type, scoped.
enum class ElemKind : uint32_t {
  F32 = TPUPROF_ELEM_F32,
  F64 = TPUPROF_ELEM_F64,
  I1 = TPUPROF_ELEM_I1,
  I8 = TPUPROF_ELEM_I8,
  I16 = TPUPROF_ELEM_I16,
  I32 = TPUPROF_ELEM_I32,
  I64 = TPUPROF_ELEM_I64,
  Index = TPUPROF_ELEM_INDEX,
  UI8 = TPUPROF_ELEM_UI8,
  UI16 = TPUPROF_ELEM_UI16,
  UI32 = TPUPROF_ELEM_UI32,
  UI64 = TPUPROF_ELEM_UI64,
  F16 = TPUPROF_ELEM_F16,
  BF16 = TPUPROF_ELEM_BF16,
};
static_assert(static_cast<uint32_t>(ElemKind::BF16) + 1 ==
                  TPUPROF_ELEM_TYPE_COUNT,
              "ElemKind names every tpuprof_elem_type");

/// The function type callers of `fn` see: its own, with the element types
/// of arguments and results the ONNX importer marked unsigned
/// (TPUPROF_UNSIGNED_ATTR, on signless integers) as ui8..ui64. tpuprof-run
/// makes and prints values of this type; tpuprof-compile writes it into
/// the signature.
mlir::FunctionType entryType(mlir::Operation *fn);

/// Bytes of one element of `kind`.
size_t elemSize(ElemKind kind);
/// Element `i` of the array of `kind` at `base` (unaligned is fine), as a
/// double.
double loadElem(const void *base, ElemKind kind, size_t i);

/// One argument's data: an owned, aligned buffer and its memref descriptor
/// fields (allocated, aligned, offset, sizes, strides).
struct ArgBuffer {
  ElemKind kind = ElemKind::F32;
  bool isScalar = false; ///< Not a memref: `scalar` holds the value.
  int64_t scalar[1] = {0};
  std::vector<int64_t> sizes, strides;
  void *allocated = nullptr, *aligned = nullptr;
  int64_t offset = 0;
  std::shared_ptr<void> storage;
};

/// The entry's arguments, made once and reused for every call.
class EntryArguments {
public:
  /// Makes one buffer per entry argument. `specs` (from --input, in argument
  /// order) give shapes and optionally values; arguments without a spec must
  /// have static shapes and get deterministic random values.
  static llvm::Expected<EntryArguments>
  create(llvm::ArrayRef<mlir::Type> argTypes,
         llvm::ArrayRef<std::string> specs);

  /// Pointers to every flattened LLVM argument, as invokePacked expects.
  llvm::SmallVector<void *> packedArguments();

  /// Index in packedArguments() of argument `arg`'s first pointer: a scalar
  /// takes one, a buffer its descriptor's 3 + 2 x rank (allocated, aligned,
  /// offset, sizes, strides).
  size_t packedIndex(size_t arg) const;

  /// True if `p` is one of the argument buffers (not to be freed).
  bool owns(const void *p) const;

  /// Each argument's shape (empty for a scalar).
  std::vector<std::vector<int64_t>> shapes() const;

private:
  std::vector<ArgBuffer> args;
  /// Storage for the descriptor fields that packedArguments points into.
  std::vector<std::unique_ptr<int64_t[]>> fieldStorage;
  std::vector<void *> pointerStorage;
};

/// Storage for the entry's results, laid out as the JIT stores them.
class EntryResults {
public:
  static llvm::Expected<EntryResults>
  create(llvm::ArrayRef<mlir::Type> resultTypes);
  void *storage() { return bytes.empty() ? nullptr : bytes.data(); }
  /// Prints each result's shape, a hash of its contents and its first
  /// `maxValues` values (0: all).
  void print(llvm::raw_ostream &os, size_t maxValues) const;
  /// Frees result buffers the entry allocated (not those in `args`).
  void release(const EntryArguments &args);
  /// The number of results, and result `index`'s shape and values in
  /// row-major order (defined with their user, OnnxData.cpp).
  size_t size() const { return slots.size(); }
  void read(size_t index, std::vector<int64_t> &shape,
            std::vector<double> &values) const;

private:
  struct Slot {
    ElemKind kind;
    bool isScalar;
    unsigned rank;
    size_t offset; ///< Byte offset of the value / descriptor in `bytes`.
  };
  std::vector<Slot> slots;
  std::vector<uint64_t> bytes; // uint64_t for alignment.
};

} // namespace run
} // namespace tpuprof

#endif // TPUPROF_MODELRUNNER_RUNINPUTS_H
