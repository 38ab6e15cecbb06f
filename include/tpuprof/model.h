/*===- tpuprof/model.h - What a compiled model says about itself --*- C -*-===*\
|*                                                                            *|
|* tpuprof-compile embeds one tpuprof_model_signature in every .o, .a and .so *|
|* it writes, under the name TPUPROF_MODEL_SIGNATURE_SYMBOL. tpuprof-run      *|
|* MODEL.so finds it with dlsym and calls the model from it alone, without    *|
|* the .mlir (docs/compile.md, "The signature").                              *|
|*                                                                            *|
|* Compatibility: a change that breaks readers of this layout renames the     *|
|* symbol (..._v2); fields are only ever appended, with `version` raised.     *|
\*===----------------------------------------------------------------------===*/

#ifndef TPUPROF_MODEL_H
#define TPUPROF_MODEL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The data symbol. It is weak, so that several models linked into one
/// program do not clash; a runner looks it up in the model's own handle
/// (dlsym(handle, ...)), which finds the model's definition first.
#define TPUPROF_MODEL_SIGNATURE_SYMBOL "tpuprof_model_signature_v1"
/// "TPUM" read as a little-endian uint32_t.
#define TPUPROF_MODEL_MAGIC 0x4d555054u
/// 2: dim_rules appended. Readers accept 1 (no rules) and 2.
#define TPUPROF_MODEL_VERSION 2u

/// One public function of the model.
typedef struct tpuprof_model_entry {
  /// The MLIR function's name ("main").
  const char *name;
  /// The exported C function (`<prefix>_<name>`, MLIR's C interface:
  /// memrefs and tensors by pointer to a descriptor, results through a
  /// pointer in first place); the --header file declares it.
  const char *symbol;
  /// The MLIR function type before lowering, in MLIR's syntax:
  /// "(tensor<4x784xf32>, i32) -> tensor<4x10xf32>".
  const char *type;
  /// The same function with packed arguments: `args` holds a pointer to
  /// each argument after memrefs are flattened into their descriptor fields
  /// (allocated, aligned, offset, sizes..., strides...), then one to the
  /// results' storage (MLIR ExecutionEngine's invokePacked convention).
  void (*packed)(void **args);
} tpuprof_model_entry;

/// `other_arg` of a rule whose other side is a fixed size.
#define TPUPROF_MODEL_FIXED_SIZE 0xffffffffu

/// One equality between an entry's argument dimensions that the model's IR
/// implies (a dynamic matmul needs A's columns to equal B's rows): a call
/// that breaks one would read out of bounds, so tpuprof-run checks them
/// before the call (docs/compile.md, "The signature").
typedef struct tpuprof_model_dim_rule {
  uint32_t entry; ///< Index into `entries`.
  uint32_t arg;   ///< Dimension `dim` of argument #arg ...
  uint32_t dim;
  uint32_t other_arg; ///< ... equals dimension `other` of argument
                      ///< #other_arg, or the size `other` when other_arg
                      ///< is TPUPROF_MODEL_FIXED_SIZE.
  int64_t other;
  const char *op; ///< The op that needs it: "linalg.matmul at m.mlir:10:8".
} tpuprof_model_dim_rule;

typedef struct tpuprof_model_signature {
  uint32_t magic;        ///< TPUPROF_MODEL_MAGIC
  uint32_t version;      ///< TPUPROF_MODEL_VERSION
  uint32_t instrumented; ///< 1 with probes, 0 built with --no-instrument
  uint32_t num_entries;
  const tpuprof_model_entry *entries;
  /// The model's path as tpuprof-compile was given it.
  const char *source;
  /// Version 2 on.
  const tpuprof_model_dim_rule *dim_rules;
  uint32_t num_dim_rules;
} tpuprof_model_signature;

#ifdef __cplusplus
} // extern "C"
#endif

#endif // TPUPROF_MODEL_H
