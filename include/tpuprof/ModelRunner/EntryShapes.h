//===- EntryShapes.h - Do the entry's argument shapes agree? ----*- C++ -*-===//
//
// A model with dynamic dimensions trusts its caller: a matmul given 3x5 and
// 7x2 reads past its operands. Before the first call tpuprof-run checks the
// --input shapes against the equalities the entry's IR implies, derived
// statically: every linalg structured op requires the operand dimensions
// its indexing maps send to one loop to be equal (as its verifier does for
// static shapes), and tosa.matmul its batch and inner dimensions. Operand
// dimensions are traced back to entry arguments through casts,
// destination-passing results (a linalg op's result has its init's shape),
// tensor.empty / memref.alloc sizes taken with tensor.dim / memref.dim, and
// ops whose operands and results have one shape. What cannot be traced (a
// loop's iteration argument, a reshape) is not checked. tpuprof-compile
// keeps the equalities in the model's signature, so that tpuprof-run
// MODEL.so checks the same ones without the IR.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_MODELRUNNER_ENTRYSHAPES_H
#define TPUPROF_MODELRUNNER_ENTRYSHAPES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

namespace tpuprof {
namespace run {

/// One dimension of an entry argument, or a fixed size.
struct DimRef {
  enum Kind { Argument, Fixed } kind;
  int64_t index; ///< The argument (Argument) or the size (Fixed).
  unsigned dim = 0;

  bool isFixed() const { return kind == Fixed; }
  int64_t size(llvm::ArrayRef<std::vector<int64_t>> shapes) const {
    return isFixed() ? index : shapes[index][dim];
  }
  /// "dimension 1 of argument #0", "a fixed size".
  std::string describe() const;
  bool operator==(const DimRef &o) const {
    return std::tie(kind, index, dim) == std::tie(o.kind, o.index, o.dim);
  }
  bool operator<(const DimRef &o) const {
    return std::tie(kind, index, dim) < std::tie(o.kind, o.index, o.dim);
  }
};

/// `arg` (always an argument's dimension) must equal `other`, for `op`
/// ("linalg.matmul at model.mlir:10:8").
struct DimEquality {
  DimRef arg, other;
  std::string op;
};

/// The equalities above that `entry` implies, each pair once.
std::vector<DimEquality> entryDimEqualities(mlir::func::FuncOp entry);

/// Checks `shapes` (one per argument; empty for a scalar) against
/// `equalities`. The error is one line naming the op, its location and the
/// two dimensions that differ.
llvm::Error checkDimEqualities(llvm::ArrayRef<DimEquality> equalities,
                               llvm::ArrayRef<std::vector<int64_t>> shapes);

/// Checks `shapes` (one per argument of `entry`; empty for a scalar)
/// against the equalities above. The error is one line naming the op, its
/// location and the two dimensions that differ.
llvm::Error checkEntryShapes(mlir::func::FuncOp entry,
                             llvm::ArrayRef<std::vector<int64_t>> shapes);

} // namespace run
} // namespace tpuprof

#endif // TPUPROF_MODELRUNNER_ENTRYSHAPES_H
