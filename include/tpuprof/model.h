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

/// Element types of a model's tensor arguments and results as tpuprof-run
/// makes, reads and prints them, named as MLIR spells them in an entry's
/// `type`. Unsigned integers are signless in the IR (TOSA is signless): the
/// ONNX importer marks such arguments and results, and the entry's `type`
/// names them ui8..ui64 (docs/import.md, "Element types").
typedef enum tpuprof_elem_type {
  TPUPROF_ELEM_F32,
  TPUPROF_ELEM_F64,
  TPUPROF_ELEM_I1,
  TPUPROF_ELEM_I8,
  TPUPROF_ELEM_I16,
  TPUPROF_ELEM_I32,
  TPUPROF_ELEM_I64,
  TPUPROF_ELEM_INDEX,
  TPUPROF_ELEM_UI8,
  TPUPROF_ELEM_UI16,
  TPUPROF_ELEM_UI32,
  TPUPROF_ELEM_UI64,
  TPUPROF_ELEM_F16,
  TPUPROF_ELEM_BF16,
  TPUPROF_ELEM_TYPE_COUNT
} tpuprof_elem_type;

/// The unit attribute the ONNX importer puts on an entry's argument or
/// result whose signless integers hold unsigned values.
#define TPUPROF_UNSIGNED_ATTR "tpuprof.unsigned"

#ifdef __cplusplus
#define TPUPROF_MODEL_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define TPUPROF_MODEL_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

/// MLIR's name of `type` ("f32", "ui8", "index"); "unknown" for others.
static inline const char *tpuprof_elem_type_name(uint32_t type) {
  static const char *const names[] = {"f32",  "f64",  "i1",    "i8",  "i16",
                                      "i32",  "i64",  "index", "ui8", "ui16",
                                      "ui32", "ui64", "f16",   "bf16"};
  TPUPROF_MODEL_STATIC_ASSERT(sizeof(names) / sizeof(names[0]) ==
                                  (unsigned)TPUPROF_ELEM_TYPE_COUNT,
                              "a name for every tpuprof_elem_type");
  return type < (uint32_t)TPUPROF_ELEM_TYPE_COUNT ? names[type] : "unknown";
}

/// Bytes of one element of `type` in a buffer (i1: one byte); 0 for others.
static inline uint32_t tpuprof_elem_type_size(uint32_t type) {
  static const unsigned char sizes[] = {4, 8, 1, 1, 2, 4, 8,
                                        8, 1, 2, 4, 8, 2, 2};
  TPUPROF_MODEL_STATIC_ASSERT(sizeof(sizes) ==
                                  (unsigned)TPUPROF_ELEM_TYPE_COUNT,
                              "a size for every tpuprof_elem_type");
  return type < (uint32_t)TPUPROF_ELEM_TYPE_COUNT ? sizes[type] : 0u;
}

#ifdef __cplusplus
} // extern "C"
#endif

#endif // TPUPROF_MODEL_H
